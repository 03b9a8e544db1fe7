//! Test suites build their data in code: spark-daria's `spark.createDF(rows, List((name, type,
//! nullable), …))` is such a frame of rows, as `createDataFrame` is — a Scala suite's scan is its
//! own `createDF`, not a job's file reader elsewhere. A real Spark 4.3 plan (`bench/scalatest`).

mod support;

const JOB: &str = r#"package examples

object Batting {
  def run(): Unit = {
    val df = spark.read.option("header", "true").csv("/data/batting.csv")
    df.withColumn("birth_date", col("birth_date").cast("date")).show()
  }
}
"#;

const SPEC: &str = r#"package examples

class DatesSpec extends FunSpec with SparkSessionTestWrapper {
  it("casts a string column to a date") {
    val sourceDF = spark.createDF(
      List(
        (1, "2013-01-30"),
        (2, "2012-01-01")
      ), List(
        ("person_id", IntegerType, true),
        ("birth_date", StringType, true)
      )
    ).withColumn(
      "birth_date",
      col("birth_date").cast("date")
    )
    sourceDF.show()
  }
}
"#;

#[test]
fn a_suites_create_df_is_the_scan_of_its_rows() {
    let mappings = support::map_against(
        &[
            ("src/main/scala/examples/Batting.scala", JOB),
            ("src/test/scala/examples/DatesSpec.scala", SPEC),
        ],
        &support::bench_plan("scalatest", "sxt-dates-spec-002"),
    );
    for id in ["1", "2"] {
        let m = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
        assert_eq!(
            support::code_at(&mappings, id),
            (
                "src/test/scala/examples/DatesSpec.scala".to_owned(),
                "5-16".to_owned()
            ),
            "node {id}: {}",
            m.explanation
        );
    }
}
