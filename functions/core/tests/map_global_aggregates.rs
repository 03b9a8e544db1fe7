//! An aggregate of every row (`Keys: []`) against a grouping that names the same columns: a
//! pipeline's `groupBy(...).agg(sum(...))` over the columns a quality check counts nulls of. No
//! plan of a keyed grouping aggregates without keys, so the check's `df.agg(*aggs)` — whose
//! aggregates are built in a loop — is the code, though the grouping names every column. A real
//! Spark 4.3 plan (`bench/tested`).

mod support;

const SESSIONS: &str = r#"from pyspark.sql import DataFrame
from pyspark.sql import functions as F


def build_sessions(silver: DataFrame) -> DataFrame:
    return silver.groupBy("user_id", "product_id", "event_type", "event_ts").agg(
        F.sum(F.col("user_id").isNull().cast("long")).alias("user_id_nulls"),
        F.sum(F.col("event_type").isNull().cast("long")).alias("event_type_nulls"),
    )


def run_gold(spark, silver_path):
    silver = spark.read.format("parquet").load(silver_path)
    build_sessions(silver).write.parquet("gold/sessions")
"#;

const CHECKS: &str = r#"from pyspark.sql import functions as F


def check_nulls(df, columns):
    aggs = []
    for c in columns:
        aggs.append(F.sum(F.col(c).isNull().cast("long")).alias(c))
    return df.agg(*aggs).first()


def run_checks(spark, silver_path):
    silver_df = spark.read.format("parquet").load(silver_path)
    return check_nulls(silver_df, ["user_id", "product_id", "event_type", "event_ts"])
"#;

#[test]
fn an_aggregate_of_every_row_is_no_grouping_by_named_keys() {
    let plan = support::bench_plan("tested", "etl-run-pipeline-008");
    let mappings = support::map_against(&[("gold.py", SESSIONS), ("checks.py", CHECKS)], &plan);
    let aggregates: Vec<_> = mappings
        .iter()
        .filter(|m| m.node_name.starts_with("HashAggregate"))
        .collect();
    assert!(!aggregates.is_empty(), "{mappings:#?}");
    for node in aggregates {
        let code = node.mapped_code.as_ref().unwrap();
        assert_eq!(
            (code.file.as_str(), code.lines.as_str()),
            ("checks.py", "8-8"),
            "node {} {}",
            node.dag_node_id,
            node.node_name
        );
    }
}
