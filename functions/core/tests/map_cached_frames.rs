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

/// A job reading the silver table and caching that read on a later line of its function; another
/// script reading the same table, uncached. Real Spark 4.3 plans (`bench/tested`).
const READS_SILVER: &str = r#"from pipeline.settings import settings

silver_df = spark.read.format("delta").load(settings.paths.silver)
silver_df.count()
"#;

const CACHES_SILVER: &str = r#"from pipeline.settings import settings


def run_gold(spark, settings):
    silver = spark.read.format("delta").load(settings.paths.silver)
    # read once, scan three times
    silver.cache()
    silver.count()
"#;

/// Where the in-memory scan and the file scan under it map, for `plan` over `files`.
fn cached_read_of(files: &[(&str, &str)], case: &str) -> Vec<(String, String)> {
    let plan = support::bench_plan("tested", case);
    let mappings = support::map_against(files, &plan);
    ["InMemoryTableScan", "Scan parquet"]
        .iter()
        .map(|name| {
            let node = mappings
                .iter()
                .find(|m| m.node_name.starts_with(name))
                .unwrap_or_else(|| panic!("a {name}"));
            let code = node.mapped_code.as_ref().unwrap();
            (code.file.clone(), code.lines.clone())
        })
        .collect()
}

#[test]
fn a_cache_of_a_read_alone_is_the_read_a_later_statement_caches() {
    // `InMemoryTableScan` over `InMemoryRelation` over the scan alone: the frame was cached as
    // read, by `silver.cache()` two lines after the read; `a_report.py`'s look-alike caches
    // nothing
    let at = cached_read_of(
        &[("a_report.py", READS_SILVER), ("b_gold.py", CACHES_SILVER)],
        "etl-test-pipeline-e2e-017",
    );
    let read = ("b_gold.py".to_owned(), "5-5".to_owned());
    assert_eq!(at, vec![read.clone(), read]);
}

/// A function caching the frame it is given: which of its callers' reads that was, the cache
/// does not say.
const CACHES_ITS_ARGUMENT: &str = r#"from pipeline.settings import settings


def check(silver_df):
    silver_df.persist()
    return silver_df.count()


silver_df = spark.read.format("delta").load(settings.paths.silver)
check(silver_df)
"#;

#[test]
fn a_function_caching_the_frame_it_is_given_marks_no_read_of_its_callers() {
    let at = cached_read_of(
        &[
            ("a_check.py", CACHES_ITS_ARGUMENT),
            ("b_gold.py", CACHES_SILVER),
        ],
        "etl-test-pipeline-e2e-017",
    );
    assert_eq!(at[0], ("b_gold.py".to_owned(), "5-5".to_owned()));
}

/// Reads a frame, changes it, and caches what it made: not a cache of the read alone.
const CACHES_A_CHANGED_READ: &str = r#"from pipeline.settings import settings

silver = spark.read.format("delta").load(settings.paths.silver).coalesce(5)
silver.cache()
silver.count()
"#;

#[test]
fn a_frame_changed_after_its_read_is_no_cache_of_the_read_alone() {
    let at = cached_read_of(
        &[
            ("a_coalesced.py", CACHES_A_CHANGED_READ),
            ("b_gold.py", CACHES_SILVER),
        ],
        "etl-test-pipeline-e2e-017",
    );
    assert_eq!(at[0], ("b_gold.py".to_owned(), "5-5".to_owned()));
}

#[test]
fn an_in_memory_scan_of_a_computed_frame_is_no_cached_read() {
    // `result.cache()` of a join's aggregate: its in-memory scan is over the aggregate, so a
    // read cached as it is (`orders.cache()`) is no better a match for it than any other read
    use plan2code_core::pipeline::evidence::CACHED_READ;
    use plan2code_core::pipeline::semantics::plan_semantics;
    use plan2code_core::plan::{ParseOptions, parse_plan};
    let in_memory_scan_reads_alone = |set: &str, case: &str| {
        let plan = support::bench_plan(set, case);
        let graph = parse_plan(&plan, &ParseOptions::default()).unwrap();
        let semantics = plan_semantics(&graph);
        let (idx, _) = graph
            .nodes
            .iter()
            .enumerate()
            .find(|(_, n)| n.name.starts_with("InMemoryTableScan"))
            .expect("an in-memory scan");
        semantics[idx].target().1.has(
            plan2code_core::pipeline::evidence::TokenKind::Literal,
            CACHED_READ,
        )
    };
    assert!(in_memory_scan_reads_alone(
        "tested",
        "etl-test-pipeline-e2e-017"
    ));
    assert!(!in_memory_scan_reads_alone(
        "pyspark-classes",
        "pc-run-analytics-003"
    ));
}

#[test]
fn a_read_cached_right_away_is_a_cache_of_the_read_alone_too() {
    // `read(…).cache()` caches the frame as read, as `read(…)` then `x.cache()` does: the later
    // cache is no better a match (the chain caching right away is also a cached chain's read)
    let right_away = r#"silver = spark.read.format("delta").load(settings.paths.silver).cache()
silver.count()
"#;
    let later = r#"silver = spark.read.format("delta").load(settings.paths.silver)
silver.cache()
silver.count()
"#;
    let plan = support::bench_plan("tested", "etl-test-pipeline-e2e-017");
    let mappings = support::map_against(
        &[("a_right_away.py", right_away), ("b_later.py", later)],
        &plan,
    );
    let scan = mappings
        .iter()
        .find(|m| m.node_name == "InMemoryTableScan")
        .unwrap();
    let files: Vec<&str> = std::iter::once(scan.mapped_code.as_ref().unwrap())
        .chain(scan.alternatives.first().map(|a| &a.location))
        .map(|c| c.file.as_str())
        .collect();
    assert_eq!(
        files,
        ["a_right_away.py", "b_later.py"],
        "{}",
        scan.explanation
    );
}
