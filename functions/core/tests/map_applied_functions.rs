//! Functions applied to a frame (`df.transform(withIsTeenager())`): the curried style of Scala
//! Spark code (`def withIsTeenager()(df: DataFrame): DataFrame = df.withColumn(…)`, applied with
//! its first, empty argument list) names the function it applies, and the statement applying
//! them is the plan's query — its flow holds every applied function and the frame they run on,
//! where each function alone holds only itself. A real Spark 4.3 plan (`bench/scalatest`): two
//! projections over a frame of rows, the second reading the first's columns.

mod support;

const SPEC: &str = r#"class StructSpec extends FunSpec {

  object Transforms {
    def withIsTeenager()(df: DataFrame): DataFrame = {
      df.withColumn("is_teenager", col("age").between(13, 19))
    }
    def withHasPositiveMood()(df: DataFrame): DataFrame = {
      df.withColumn("has_positive_mood", col("mood").isin("happy", "glad"))
    }
    def withWhatToDo()(df: DataFrame) = {
      df.withColumn("what_to_do", when(col("is_teenager") && col("has_positive_mood"), "have a chat"))
    }
  }

  it("applies the transforms in order") {
    val data = Seq(Row(30, "happy"), Row(13, "sad"))
    val schema = StructType(List(StructField("age", IntegerType, true), StructField("mood", StringType, true)))
    val df = spark.createDataFrame(spark.sparkContext.parallelize(data), schema)
    df
      .transform(Transforms.withIsTeenager())
      .transform(Transforms.withHasPositiveMood())
      .transform(Transforms.withWhatToDo())
      .show()
  }

  it("computes the same in one struct") {
    val data = Seq(Row(30, "happy"), Row(13, "sad"))
    val schema = StructType(List(StructField("age", IntegerType, true), StructField("mood", StringType, true)))
    val df = spark.createDataFrame(spark.sparkContext.parallelize(data), schema)
    val isTeenager = col("age").between(13, 19)
    val hasPositiveMood = col("mood").isin("happy", "glad")
    df.withColumn(
      "best_action",
      struct(isTeenager.as("is_teenager"), hasPositiveMood.as("has_positive_mood"), when(isTeenager && hasPositiveMood, "have a chat").as("what_to_do"))
    ).show()
  }
}
"#;

#[test]
fn the_statement_applying_curried_functions_is_the_query() {
    // The plan names where its rows were made, `at createDataFrame at StructTypeColumns.scala:122`:
    // the first test's frame, so its statement applying the functions is the query — a unit only
    // when a statement applying functions counts as one. (The second test computes the same
    // columns in one `withColumn` and would explain the plan as well.)
    let source = format!("{}{SPEC}", "\n".repeat(104));
    let mappings = support::map_against(
        &[("src/test/scala/StructTypeColumns.scala", &source)],
        &support::bench_plan("scalatest", "sxt-struct-type-columns-003"),
    );
    let at = |id: &str| {
        let m = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
        (support::code_at(&mappings, id).1, m.explanation.clone())
    };
    // (1) the first test's rows, (3) `what_to_do` of the third function
    assert_eq!(at("1").0, "122-122", "{}", at("1").1);
    assert_eq!(at("3").0, "115-115", "{}", at("3").1);
    // (2) Spark collapsed the first two functions' projections into one: either is the answer
    assert!(
        ["109-109", "112-112"].contains(&at("2").0.as_str()),
        "{}",
        at("2").1
    );
}
