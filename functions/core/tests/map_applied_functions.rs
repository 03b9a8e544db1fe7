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

/// Python's ways of applying a function with more arguments than the frame: `functools.partial`
/// binding the others, and a lambda calling the function with the frame. The function applied is
/// the one given to `partial` and the one the lambda calls, so their statements are in the
/// query's flow, where a copy of them elsewhere is not (real plan: `transform-partial-and-lambda`).
const TRANSFORMS: &str = r#"import pyspark.sql.functions as F


def at_least(df, minimum):
    return df.filter(F.col("o_amount") >= minimum)


def named(df, names):
    return df.join(names, "o_cust", "left")
"#;

const COPIES: &str = r#"import pyspark.sql.functions as F


def big_orders(df, floor):
    return df.filter(F.col("o_amount") >= floor)


def with_names(df, names):
    return df.join(names, "o_cust", "left")
"#;

const APPLYING_JOB: &str = r#"from functools import partial
from pyspark.sql import SparkSession
import pyspark.sql.functions as F
import transforms as tx

spark = SparkSession.builder.getOrCreate()
pq = spark.read.parquet("/tmp/plan2code-fixture-data/orders.parquet")
cust = spark.read.parquet("/tmp/plan2code-fixture-data/customers.parquet")
names = cust.select(F.col("c_id").alias("o_cust"), "c_name")
out = pq.transform(partial(tx.at_least, minimum=50.0)).transform(lambda df: tx.named(df, names))
out.show()
"#;

#[test]
fn functions_applied_through_partial_and_a_lambda_are_the_querys() {
    let mappings = support::map_against(
        &[
            ("job.py", APPLYING_JOB),
            ("transforms.py", TRANSFORMS),
            ("copies.py", COPIES),
        ],
        &support::fixture_plan("transform-partial-and-lambda"),
    );
    let at = |id: &str| {
        let m = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
        let code = m.mapped_code.as_ref().unwrap();
        (
            format!("{}:{}", code.file, code.lines),
            m.confidence,
            m.explanation.clone(),
        )
    };
    // the filter of the function `partial` binds, the join of the one the lambda calls: in the
    // flow, so no coin toss with their copies
    for (node, want) in [("3", "transforms.py:5-5"), ("10", "transforms.py:9-9")] {
        let (got, confidence, why) = at(node);
        assert_eq!(got, want, "{why}");
        assert!(confidence > 0.5, "{confidence}: {why}");
        // in the flow: the lambda's function runs on the frame the first function made
        assert!(why.contains("data flow"), "{why}");
    }
    // the value `partial` binds is the filter's
    assert!(at("3").2.contains("literal:50"), "{}", at("3").2);
}
