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
