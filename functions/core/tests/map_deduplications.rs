//! A DataFrame's deduplication on some of its columns (`dropDuplicates(["o_id"])`): Spark's
//! optimizer replaces it with an aggregate of `first` values, made under the origin of the plan it
//! optimizes — the last operator the code applied over it — so that operator's code is the
//! aggregates' in Python. In Java and Scala, a chain going on to compute columns right after the
//! deduplication keeps its statement: Spark folds that projection into the aggregate under the
//! projection's origin. A real Spark 4.3 plan: `deduplication-then-projection-then-filter`, whose
//! two `SortAggregate`s (partial 4, final 9) are the deduplication.

mod support;

const PYTHON: &str = r#"from pyspark.sql import SparkSession
import pyspark.sql.functions as F

spark = SparkSession.builder.getOrCreate()
pq = spark.read.parquet("/tmp/plan2code-fixture-data/orders.parquet")
deduped = pq.dropDuplicates(["o_id"]).withColumn("o_big", F.col("o_amount") > 50)
deduped.where(F.col("o_amount") > 10).show()
"#;

const JAVA: &str = r#"import org.apache.spark.sql.*;
import static org.apache.spark.sql.functions.col;

public class Dedup {
  public static void main(String[] args) {
    SparkSession spark = SparkSession.builder().getOrCreate();
    Dataset<Row> pq = spark.read().parquet("/tmp/plan2code-fixture-data/orders.parquet");
    Dataset<Row> deduped = pq.dropDuplicates("o_id").withColumn("o_big", col("o_amount").gt(50));
    deduped.where(col("o_amount").gt(10)).show();
  }
}
"#;

#[test]
fn a_deduplication_in_python_is_the_last_operators_code() {
    let mappings = support::map_against(
        &[("dedup.py", PYTHON)],
        &support::fixture_plan("deduplication-then-projection-then-filter"),
    );
    let lines = |id: &str| support::lines_and_explanation(&mappings, id);
    // the filter, written last, though the optimizer moved it below the projection
    assert_eq!(lines("10").0, "7-7", "{}", lines("10").1);
    for aggregate in ["9", "4"] {
        let (at, why) = lines(aggregate);
        assert_eq!(at, "7-7", "{why}");
        assert!(why.contains("deduplication"), "{why}");
    }
}

#[test]
fn a_deduplication_in_java_followed_by_a_projection_keeps_its_statement() {
    let mappings = support::map_against(
        &[("src/main/java/Dedup.java", JAVA)],
        &support::fixture_plan("deduplication-then-projection-then-filter"),
    );
    let lines = |id: &str| support::lines_and_explanation(&mappings, id);
    assert_eq!(lines("10").0, "9-9", "{}", lines("10").1);
    for aggregate in ["9", "4"] {
        assert_eq!(lines(aggregate).0, "8-8", "{}", lines(aggregate).1);
    }
}

/// A deduplication inside a cached frame: the plan Spark optimizes is the cached one, so its
/// aggregates are the last operator before `cache()`'s — in the formatted plan and in the UI's
/// DAG, which shows the cached plan under the scan reading it back (real plan:
/// `deduplication-in-a-cached-frame`).
const CACHED: &str = r#"from pyspark.sql import SparkSession
import pyspark.sql.functions as F

spark = SparkSession.builder.getOrCreate()
pq = spark.read.parquet("/tmp/plan2code-fixture-data/orders.parquet")
deduped = pq.dropDuplicates(["o_id"])
cached = deduped.where(F.col("o_amount") > 10).cache()
cached.groupBy("o_cust").count().show()
"#;

#[test]
fn a_deduplication_in_a_cached_frame_is_the_last_operators_before_the_cache() {
    let plans = [
        (
            support::fixture_plan("deduplication-in-a-cached-frame"),
            ["6", "10"],
        ),
        (
            support::fixture_plan_form("deduplication-in-a-cached-frame", "ui.json"),
            ["15", "11"],
        ),
    ];
    for (plan, aggregates) in plans {
        let mappings = support::map_against(&[("cached.py", CACHED)], &plan);
        for aggregate in aggregates {
            let (at, why) = support::lines_and_explanation(&mappings, aggregate);
            assert_eq!(at, "7-7", "{aggregate}: {why}");
        }
    }
}
