//! Look-alike scripts that both hold a node's evidence: the one that says no more than the plan
//! does wins. Here two scripts build a frame from an RDD and filter it alike; one names a column
//! the plan's scan does not output (an RDD scan outputs every column its frame has), so the other
//! is the plan's code. A real Spark 4.3 plan (`tests/fixtures/plans/scan-existing-rdd`).

mod support;

const EXACT: &str = r#"from pyspark.sql import SparkSession
from pyspark.sql import functions as F

spark = SparkSession.builder.getOrCreate()
sc = spark.sparkContext
rdd_df = sc.parallelize([(1, "a"), (2, "b"), (3, "c")]).toDF(["id", "letter"])
rdd_df.where(F.col("id") > 1).show()
"#;

/// The same, over rows with a third column.
const WIDER: &str = r#"from pyspark.sql import SparkSession
from pyspark.sql import functions as F

spark = SparkSession.builder.getOrCreate()
sc = spark.sparkContext
rdd_df = sc.parallelize([(1, "a", 0), (2, "b", 0), (3, "c", 0)]).toDF(["id", "letter", "flag"])
rdd_df.where(F.col("id") > 1).show()
"#;

#[test]
fn of_two_look_alikes_the_one_naming_nothing_more_than_the_plan_wins() {
    let plan = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/plans/scan-existing-rdd/formatted.txt"),
    )
    .unwrap();
    // the wider one sorts first, so an undecided choice would fall on it
    let mappings = support::map_against(&[("a/wider.py", WIDER), ("z/exact.py", EXACT)], &plan);
    for m in &mappings {
        let code = m.mapped_code.as_ref().unwrap();
        assert_eq!(
            code.file, "z/exact.py",
            "node {} {}",
            m.dag_node_id, m.node_name
        );
    }
    let scan = mappings.iter().find(|m| m.dag_node_id == "1").unwrap();
    assert_eq!(scan.mapped_code.as_ref().unwrap().lines, "6-6");
    assert_eq!(scan.alternatives[0].location.file, "a/wider.py");
}
