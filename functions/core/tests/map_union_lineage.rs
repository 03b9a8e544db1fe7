//! A union whose later input repeats an earlier input's lineage (`per_lang.union(popular)`,
//! `popular` made from `per_lang`): Spark's analyzer gives the repeated relations new instances
//! and makes the projections, aggregates and generators over them anew, under the union — Spark
//! places those at the union's line. The first input's, and the later input's own operators,
//! keep their statements. The plan is Spark's (`tests/fixtures/plans`).

mod support;

use plan2code_core::contracts::MappingOutput;

/// The first line node `id` was mapped to.
fn first_line(mappings: &[MappingOutput], id: &str) -> u32 {
    let lines = support::code_at(mappings, id).1;
    lines.split('-').next().unwrap().parse().unwrap()
}

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
    let first = |id: &str| first_line(&mappings, id);
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

const ACCUMULATED: &str = r#"cust = spark.read.parquet("data/customers.parquet")
langs = cust.select("c_region", "c_id", F.explode("c_langs").alias("lang")).groupBy(
    "c_region", "c_id"
).agg(F.collect_set("lang").alias("langs"))
rows = []
for lang in ["en", "fr", "de"]:
    rows.append(
        langs.filter(F.array_contains("langs", lang))
        .groupBy("c_region")
        .agg(F.countDistinct("c_id").alias("speakers"))
        .withColumn("lang", F.lit(lang))
    )
union = rows[0]
for r in rows[1:]:
    union = union.unionByName(r)
union.show()
"#;

#[test]
fn a_union_a_loop_accumulates_reads_the_frames_a_loop_before_it_added_to_a_list() {
    // `rows.append(…)` fills a list; `union = rows[0]` and `for r in rows[1:]` read it; the
    // union grows by one input per run. Every input is the appending loop's frame, over one
    // `langs` aggregate the later inputs repeat: Spark makes that aggregate anew for the union.
    let plan = support::fixture_plan("union-accumulated-in-a-loop");
    let mappings = support::map_against(&[("funnel.py", ACCUMULATED)], &plan);
    let lines = |id: &str| support::code_at(&mappings, id).1;
    let first = |id: &str| first_line(&mappings, id);
    let explained = |id: &str| {
        let m = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
        format!("node {id} at {}: {}", lines(id), m.explanation)
    };
    // the union, in the final plan (31) and in the initial one (71)
    for id in ["31", "71"] {
        assert_eq!(first(id), 15, "{}", explained(id));
    }
    // the first input: the `langs` aggregate (10, 6) and the loop's own operators (11, 13)
    for id in ["10", "6", "38", "36"] {
        assert!((2..=4).contains(&first(id)), "{}", explained(id));
    }
    // each later input's own filter and aggregate are the appending loop's — the third input
    // (initial plan: 65, 67) too, which no union call names
    for id in ["11", "13", "23", "25", "52", "54", "65", "67"] {
        assert!((7..=12).contains(&first(id)), "{}", explained(id));
    }
    // …and the `langs` aggregate each later input repeats was made for the union
    for id in ["22", "51", "49", "64", "62"] {
        assert_eq!(first(id), 15, "{}", explained(id));
    }
}

#[test]
fn a_node_the_ui_shares_between_inputs_is_the_first_input_s() {
    // The UI's DAG holds one node for an exchange and its reuse: the second input's final
    // `langs` aggregate (30) reads the first input's exchange (13) and what is below it (14, 16,
    // 17). Those are the first input's; only the aggregate over the reuse was made anew.
    let plan = support::fixture_plan_form("union-accumulated-in-a-loop", "ui.json");
    let mappings = support::map_against(&[("funnel.py", ACCUMULATED)], &plan);
    let lines = |id: &str| support::code_at(&mappings, id).1;
    let first = |id: &str| first_line(&mappings, id);
    assert_eq!(first("1"), 15, "the union");
    for id in ["11", "14", "16", "17"] {
        assert!((2..=4).contains(&first(id)), "node {id} at {}", lines(id));
    }
    assert_eq!(
        first("30"),
        15,
        "the second input's aggregate over the reuse"
    );
    assert!(
        (7..=12).contains(&first("29")),
        "its own filter: {}",
        lines("29")
    );
}

const LISTED: &str = r#"cust = spark.read.parquet("data/customers.parquet")
per_limit = [cust.where(F.col("c_id") > limit).groupBy("c_region").count() for limit in [1, 3]]
per_limit[0].union(per_limit[1]).show()
"#;

#[test]
fn a_union_of_a_list_s_elements_is_the_statement_naming_them() {
    // `per_limit[0].union(per_limit[1])`: the list's elements are the comprehension's frames
    let plan = support::fixture_plan("union-of-a-loop-s-counts");
    let mappings = support::map_against(&[("counts.py", LISTED)], &plan);
    let lines = |id: &str| support::code_at(&mappings, id).1;
    for id in ["19", "31"] {
        assert_eq!(lines(id), "3-3", "union {id}");
    }
    for id in ["9", "18"] {
        assert_eq!(lines(id), "2-2", "aggregate {id}");
    }
}

const REDUCED: &str = r#"from functools import reduce
from pyspark.sql import DataFrame
cust = spark.read.parquet("data/customers.parquet")
per_limit = [cust.where(F.col("c_id") > limit).groupBy("c_region").count() for limit in [1, 3]]
both = reduce(DataFrame.union, per_limit)
both.show()
"#;

#[test]
fn a_union_folding_a_list_s_frames_is_the_reduction() {
    // `reduce(DataFrame.union, per_limit)`: the union of the list's frames is that statement's
    let plan = support::fixture_plan("union-of-a-loop-s-counts");
    let mappings = support::map_against(&[("counts.py", REDUCED)], &plan);
    let lines = |id: &str| support::code_at(&mappings, id).1;
    for id in ["19", "31"] {
        assert_eq!(lines(id), "5-5", "union {id}");
    }
    for id in ["9", "18"] {
        assert_eq!(lines(id), "4-4", "aggregate {id}");
    }
}

const SCALA_REDUCED: &str = r#"object Counts {
  def main(args: Array[String]): Unit = {
    val cust = spark.read.parquet("data/customers.parquet")
    val perLimit = Seq(1, 3).map { limit =>
      cust.where(col("c_id") > limit).groupBy("c_region").count()
    }
    val both = perLimit.reduce(_ union _)
    both.show()
  }
}
"#;

const JAVA_REDUCED: &str = r#"class Counts {
  static void run(SparkSession spark) {
    Dataset<Row> cust = spark.read().parquet("data/customers.parquet");
    var perLimit = Stream.of(1, 3).map(limit -> cust.where(col("c_id").gt(limit)).groupBy("c_region").count()).collect(Collectors.toList());
    Dataset<Row> both = perLimit.stream().reduce(Dataset::union).get();
    both.show();
  }
}
"#;

#[test]
fn a_scala_or_java_reduction_folding_mapped_frames_is_the_union() {
    // `Seq(1, 3).map { limit => … }` / `Stream.of(1, 3).map(limit -> …).collect(…)` make a list
    // of frames; `reduce(_ union _)` / `reduce(Dataset::union)` is the union of them
    let plan = support::fixture_plan("union-of-a-loop-s-counts");
    for (file, source, union_line, aggregate_lines) in [
        ("Counts.scala", SCALA_REDUCED, "7-7", "5-5"),
        ("Counts.java", JAVA_REDUCED, "5-5", "4-4"),
    ] {
        let mappings = support::map_against(&[(file, source)], &plan);
        let lines = |id: &str| support::code_at(&mappings, id).1;
        for id in ["19", "31"] {
            assert_eq!(lines(id), union_line, "{file}: union {id}");
        }
        for id in ["9", "18"] {
            assert_eq!(lines(id), aggregate_lines, "{file}: aggregate {id}");
        }
    }
}

/// Two frames made by their own statements, then unioned by `fold` (on line 6 of the Python
/// source, 7 of the Scala).
fn folding(python: bool, fold: &str) -> String {
    if python {
        format!(
            "from functools import reduce\npq = spark.read.parquet(\"data/orders.parquet\")\ncust = spark.read.parquet(\"data/customers.parquet\")\norder_ids = pq.select(\"o_id\")\ncust_ids = cust.select(F.col(\"c_id\").alias(\"o_id\"))\n{fold}\nall_ids.show()\n"
        )
    } else {
        format!(
            "object Ids {{\n  def main(args: Array[String]): Unit = {{\n    val pq = spark.read.parquet(\"data/orders.parquet\")\n    val cust = spark.read.parquet(\"data/customers.parquet\")\n    val orderIds = pq.select(\"o_id\")\n    val custIds = cust.select(col(\"c_id\").alias(\"o_id\"))\n{fold}\n    allIds.show()\n  }}\n}}\n"
        )
    }
}

/// The lines each node of the `union` fixture plan maps to against [`folding`]'s source, by node
/// id (`7` the union, `3` and `6` its inputs' projections).
fn union_lines(python: bool, statement: &str, plan: &str) -> impl Fn(&str) -> String {
    let file = if python { "ids.py" } else { "Ids.scala" };
    let mappings = support::map_against(&[(file, &folding(python, statement))], plan);
    move |id: &str| support::code_at(&mappings, id).1
}

#[test]
fn a_reduction_folding_listed_frames_unions_each_where_it_was_made() {
    // `pq.select("o_id").union(cust.select(…))` written as a reduction over the two frames,
    // listed in place or in a list, folded by a method or a lambda: the union is the
    // reduction's statement, each input's projection its own statement's
    let plan = support::fixture_plan("union");
    for (python, fold) in [
        (
            true,
            "all_ids = reduce(DataFrame.union, [order_ids, cust_ids])",
        ),
        (
            true,
            "frames = [order_ids, cust_ids]; all_ids = reduce(lambda a, b: a.union(b), frames)",
        ),
        (
            true,
            "all_ids = reduce(lambda a, b: a.union(b), (order_ids, cust_ids))",
        ),
        (
            false,
            "    val allIds = Seq(orderIds, custIds).reduce(_ union _)",
        ),
        (
            false,
            "    val frames = List(orderIds, custIds); val allIds = frames.reduce(_.union(_))",
        ),
    ] {
        let (union, first, second) = match python {
            true => ("6-6", "4-4", "5-5"),
            false => ("7-7", "5-5", "6-6"),
        };
        let lines = union_lines(python, fold, &plan);
        assert_eq!(lines("7"), union, "union: {fold}");
        assert_eq!(lines("3"), first, "first input's projection: {fold}");
        assert_eq!(lines("6"), second, "second input's projection: {fold}");
    }
}

#[test]
fn an_element_of_a_list_of_frame_variables_is_that_variable_s_frame() {
    // `frames[0].union(frames[1])` over `frames = [order_ids, cust_ids]`: each input is the
    // variable the list holds at that position, not the whole list
    let plan = support::fixture_plan("union");
    for (python, statement) in [
        (
            true,
            "frames = [order_ids, cust_ids]\nall_ids = frames[0].union(frames[1])",
        ),
        (
            true,
            "frames = [order_ids, cust_ids]\nfirst = frames[0]\nall_ids = first.union(frames[-1])",
        ),
        (
            false,
            "    val frames = Seq(orderIds, custIds)\n    val allIds = frames.head.union(frames(1))",
        ),
    ] {
        let (first, second) = match python {
            true => ("4-4", "5-5"),
            false => ("5-5", "6-6"),
        };
        let lines = union_lines(python, statement, &plan);
        assert_eq!(lines("3"), first, "first input's projection: {statement}");
        assert_eq!(lines("6"), second, "second input's projection: {statement}");
    }
}
