//! A union whose later input repeats an earlier input's lineage (`per_lang.union(popular)`,
//! `popular` made from `per_lang`): Spark's analyzer gives the repeated relations new instances
//! and makes the projections, aggregates and generators over them anew, under the union — Spark
//! places those at the union's line. The first input's, and the later input's own operators,
//! keep their statements. The plan is Spark's (`tests/fixtures/plans`).

mod support;

const SCRIPT: &str = r#"cust = spark.read.parquet("data/customers.parquet")
per_lang = cust.select("c_id", F.explode("c_langs").alias("lang")).groupBy("lang").agg(
    F.count("c_id").alias("speakers")
)
popular = per_lang.where(F.col("speakers") > 3)
per_lang.union(popular).show()
"#;

#[test]
fn a_later_input_repeating_an_earlier_one_s_lineage_is_made_for_the_union() {
    let plan = support::fixture_plan("union-repeating-its-first-input");
    let mappings = support::map_against(&[("langs.py", SCRIPT)], &plan);
    let lines = |id: &str| support::code_at(&mappings, id).1;
    let first = |id: &str| lines(id).split('-').next().unwrap().parse::<u32>().unwrap();
    // (15) the union; (9) / (5) its first input's aggregate, (4) its generator
    assert_eq!(first("15"), 6, "the union");
    for id in ["9", "5", "4"] {
        assert!(
            (2..=4).contains(&first(id)),
            "first input's {id}: {}",
            lines(id)
        );
    }
    // the second input: its own filter (14) keeps its statement; the aggregate (13) and, in the
    // initial plan, the aggregate's steps (27, 25) and the generator (24) were made anew
    assert_eq!(first("14"), 5, "the second input's own filter");
    for id in ["13", "27", "25", "24"] {
        let m = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
        assert_eq!(first(id), 6, "node {id}: {}", m.explanation);
    }
    let m = mappings.iter().find(|m| m.dag_node_id == "13").unwrap();
    assert!(
        m.explanation.contains("made anew by the analyzer"),
        "{}",
        m.explanation
    );
}

const LOOP: &str = r#"cust = spark.read.parquet("data/customers.parquet")
for index, limit in enumerate([1, 3]):
    counts = cust.where(F.col("c_id") > limit).groupBy("c_region").count()
    if index == 0:
        both = counts
    else:
        both = both.union(counts)
both.show()
"#;

#[test]
fn a_loop_s_statement_over_other_rows_in_each_input_keeps_its_line() {
    // One statement made both inputs' aggregates, each over other rows (`c_id > 1`, `c_id > 3`):
    // the second input computes what the first does but repeats no lineage, and its aggregate
    // (18) is the loop's statement.
    let plan = support::fixture_plan("union-of-a-loop-s-counts");
    let mappings = support::map_against(&[("counts.py", LOOP)], &plan);
    let lines = |id: &str| support::code_at(&mappings, id).1;
    assert_eq!(lines("19"), "7-7", "the union");
    for id in ["9", "18"] {
        let m = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
        assert_eq!(lines(id), "3-3", "aggregate {id}: {}", m.explanation);
    }
}
