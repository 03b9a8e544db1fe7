//! `COUNT(DISTINCT x)` in a grouped SQL block: Spark plans a pair of de-duplicating aggregates
//! keyed by the `GROUP BY`'s keys and `x` (no aggregate function of their own), then the count
//! over them. The first pair is the grouping's — the benchmark's labeler gives it the `GROUP BY`
//! alone — and the count is the select item's or the grouping's. A real Spark 4.3 plan
//! (`bench/notebooks`, azurelib's "Groupby Distinct Count" notebook).

mod support;

const NOTEBOOK: &str = r#"data = [(1, "ann", "NY", "acme"), (2, "bob", "CA", "acme")]
df = spark.createDataFrame(data, ["id", "name", "state", "company"])
df.createOrReplaceTempView("employees")
spark.sql('''
    SELECT company, COUNT(DISTINCT state) AS distinct_conut
    FROM employees
    GROUP BY company
''').show()
"#;

#[test]
fn the_deduplicating_aggregates_of_a_grouped_distinct_count_are_the_grouping() {
    let plan = support::bench_plan("notebooks", "azl-groupby-distinct-count-notebook-005");
    let mappings = support::map_against(&[("distinct_counts.py", NOTEBOOK)], &plan);
    for dedup in ["3", "4", "7"] {
        let (at, why) = support::lines_and_explanation(&mappings, dedup);
        assert_eq!(at, "7-7", "{dedup}: {why}");
    }
    for count in ["8", "9", "12"] {
        let (at, why) = support::lines_and_explanation(&mappings, count);
        assert!(["5-5", "7-7"].contains(&at.as_str()), "{count}: {at} {why}");
    }
}
