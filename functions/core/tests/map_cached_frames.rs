//! A frame cached halfway through a notebook: the same `groupBy` written before and after
//! `flights.cache()`. Spark plans every query of a cached frame over the cache, so a plan reading
//! the file itself (no in-memory scan) is the query written before the cache — though the later
//! statement, downstream of everything, would otherwise win the tie. A real Spark 4.3 plan
//! (`bench/guide`, the book's chapter on tuning).

mod support;

const TUNING: &str = r#"flights = spark.read.format("csv")\
  .option("inferSchema", "true")\
  .option("header", "true")\
  .load("/data/flight-data/csv/2015-summary.csv")
by_origin = flights.groupBy("ORIGIN_COUNTRY_NAME").count().collect()


# COMMAND ----------

flights.cache()
flights.count()


# COMMAND ----------

by_origin = flights.groupBy("ORIGIN_COUNTRY_NAME").count().collect()
"#;

#[test]
fn a_plan_reading_no_cache_is_the_query_written_before_the_cache() {
    let plan = support::bench_plan(
        "guide",
        "stdg-production-applications-chapter-19-performance-tuning-002",
    );
    let mappings = support::map_against(&[("tuning.py", TUNING)], &plan);
    for id in ["2", "3", "6"] {
        let node = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
        let code = node.mapped_code.as_ref().unwrap();
        assert_eq!(code.lines, "5-5", "node {id} {}", node.node_name);
    }
}

/// Another script caching a frame of its own: its `cache()` reads like any other.
const OTHER_SCRIPT: &str = r#"scores = model.transform(test)
scores.cache()
scores.count()
"#;

#[test]
fn a_plan_reading_the_cache_maps_its_in_memory_relation_to_the_statement_that_cached() {
    let plan = support::bench_plan(
        "guide",
        "stdg-production-applications-chapter-19-performance-tuning-005",
    );
    let mappings = support::map_against(
        &[("a_scores.py", OTHER_SCRIPT), ("tuning.py", TUNING)],
        &plan,
    );
    let relation = mappings
        .iter()
        .find(|m| m.node_name == "InMemoryRelation")
        .expect("an InMemoryRelation");
    let code = relation.mapped_code.as_ref().unwrap();
    // `flights.cache()` on a line of its own is where the later query's cache comes from
    assert_eq!(
        (code.file.as_str(), code.lines.as_str()),
        ("tuning.py", "10-10"),
        "{}",
        relation.explanation
    );
}

#[test]
fn a_ui_plan_reading_the_cache_is_the_query_written_after_the_cache() {
    // The UI's DAG shows the cached read as an in-memory scan alone: the `flights.cache()`
    // statement in the later query's flow produces nothing the DAG shows, and costs it nothing.
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../../bench/guide/stdg-production-applications-chapter-19-performance-tuning-006/ui.json",
    );
    let plan = std::fs::read_to_string(&path).unwrap();
    let mappings = support::map_against(&[("tuning.py", TUNING)], &plan);
    let aggregates: Vec<&str> = mappings
        .iter()
        .filter(|m| m.node_name == "HashAggregate")
        .map(|m| m.mapped_code.as_ref().unwrap().lines.as_str())
        .collect();
    assert!(!aggregates.is_empty());
    assert!(aggregates.iter().all(|l| *l == "16-16"), "{aggregates:?}");
}
