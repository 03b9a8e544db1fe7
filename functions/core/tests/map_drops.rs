//! Dropping columns: the plan's pruning Project says which input columns it leaves out, and
//! `drop(…)` names them, so a drop of one column is told from a drop of two over the same frame
//! (and from the frame's creation, which names every column the Project keeps: a `toDF` keeps
//! every column it names, so no Project leaving one out is its). A bare `dropna()`
//! tests every column of its frame: the plan's `atleastnnonnulls(n, every column…)` is all of it.
//! A drop feeding another operator (a join) is planned as that operator's column pruning would
//! be; when a `drop(…)` names exactly the columns left out, the Project is that drop's.

mod support;

const SCRIPT: &str = "\
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
data = [(1, \"Halley\", \"Sales\", \"https://diigo.com\")]
df = spark.createDataFrame(data, schema=[\"id\", \"name\", \"department\", \"url\"])
df.drop(\"department\", \"url\").show()
df.drop(\"url\").show()
";

/// `drop(cols)` of the script's frame, leaving `kept` of `id, name, department, url`.
fn plan(kept: &[&str]) -> String {
    let ids = |names: &[&str]| {
        names
            .iter()
            .map(|n| {
                format!(
                    "{n}#{}",
                    ["id", "name", "department", "url"]
                        .iter()
                        .position(|c| c == n)
                        .unwrap()
                        + 164
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let all = ["id", "name", "department", "url"];
    format!(
        "== Physical Plan ==
* Project (2)
+- * Scan ExistingRDD (1)


(1) Scan ExistingRDD [codegen id : 1]
Output [4]: [{all}]
Arguments: [{all}], MapPartitionsRDD[94] at applySchemaToPythonRDD at NativeMethodAccessorImpl.java:0, ExistingRDD, UnknownPartitioning(0)

(2) Project [codegen id : 1]
Output [{n}]: [{kept}]
Input [4]: [{all}]
",
        all = ids(&all),
        n = kept.len(),
        kept = ids(kept),
    )
}

fn project_line(kept: &[&str]) -> String {
    let mappings = support::map_against(&[("drops.py", SCRIPT)], &plan(kept));
    let project = mappings.iter().find(|m| m.dag_node_id == "2").unwrap();
    project.mapped_code.as_ref().unwrap().lines.clone()
}

#[test]
fn a_project_leaving_out_one_column_is_the_drop_of_that_column() {
    // Without the columns it leaves out, the frame's creation names all it keeps.
    assert_eq!(project_line(&["id", "name", "department"]), "7-7");
}

#[test]
fn a_project_leaving_out_two_columns_is_the_drop_of_both() {
    // The drop of `url` alone drops too little: it is no conflict, but the plan names more.
    assert_eq!(project_line(&["id", "name"]), "6-6");
}

/// A filter over a scan of `data/calls.csv` dropping the rows without `required` non-null values
/// of its three columns.
fn null_drop_plan(required: usize) -> String {
    format!(
        "\
== Physical Plan ==
* Filter (2)
+- Scan csv  (1)


(1) Scan csv 
Output [3]: [id#0, kind#1, cost#2]
Batched: false
Location: InMemoryFileIndex [file:/data/calls.csv]
ReadSchema: struct<id:string,kind:string,cost:string>

(2) Filter [codegen id : 1]
Input [3]: [id#0, kind#1, cost#2]
Condition : atleastnnonnulls({required}, id#0, kind#1, cost#2)
"
    )
}

#[test]
fn a_bare_dropna_holds_the_whole_null_test_of_its_frame() {
    let script = "\
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
calls = spark.read.csv(\"data/calls.csv\", header=True)
calls.dropna().show()
";
    let mappings = support::map_against(&[("calls.py", script)], &null_drop_plan(3));
    let filter = mappings.iter().find(|m| m.dag_node_id == "2").unwrap();
    assert_eq!(filter.mapped_code.as_ref().unwrap().lines, "5-5");
    // Its columns are implied, not missing: as sure as the read that names its file.
    assert_eq!(
        filter.confidence_status,
        plan2code_core::contracts::ConfidenceStatus::Confirmed,
        "{} {}",
        filter.confidence,
        filter.explanation
    );
}

/// A script dropping rows with nulls three ways, then the plan of one of them: how many non-null
/// values a row needs (`atleastnnonnulls(n, …)`) tells which.
fn null_drop_line(required: usize) -> String {
    let script = "\
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
calls = spark.read.csv(\"data/calls.csv\", header=True)
calls.na.drop().show()
calls.na.drop(thresh=2).show()
calls.na.drop(how='all').show()
";
    let mappings = support::map_against(&[("calls.py", script)], &null_drop_plan(required));
    let filter = mappings.iter().find(|m| m.dag_node_id == "2").unwrap();
    filter.mapped_code.as_ref().unwrap().lines.clone()
}

#[test]
fn a_null_drop_is_told_by_how_many_values_a_row_needs() {
    assert_eq!(null_drop_line(3), "5-5", "every value: the bare drop");
    assert_eq!(null_drop_line(2), "6-6", "two values: thresh=2");
    assert_eq!(null_drop_line(1), "7-7", "one value: how='all'");
}

#[test]
fn a_drop_after_a_join_is_no_frame_naming_its_columns() {
    // The frame's `toDF` names three of the four columns the Project keeps; the drop names the
    // one it leaves out. A real Spark 4.3 plan (`bench/scalatest`).
    let spec = r#"class StatesSpec extends FunSpec {
  it("joins the state names") {
    def withStateFullName()(df: DataFrame) = {
      val states = spark.read.option("header", true).csv("/work/app/src/test/resources/state_mappings.csv")
      df.join(broadcast(states), df("state") <=> states("state_abbreviation"), "left_outer")
        .drop("state_abbreviation")
    }
    val df = Seq(("john", 23, "TN"), ("sally", 48, "NY")).toDF("first_name", "age", "state")
    df.transform(withStateFullName()).show()
  }
}
"#;
    let mappings = support::map_against(
        &[("src/test/scala/StatesSpec.scala", spec)],
        &support::bench_plan("scalatest", "sxt-dependency-injection-spec-002"),
    );
    let project = mappings.iter().find(|m| m.dag_node_id == "6").unwrap();
    assert_eq!(
        support::code_at(&mappings, "6").1,
        "5-6",
        "{}",
        project.explanation
    );
    assert_eq!(support::code_at(&mappings, "1").1, "8-8", "the rows");
}

#[test]
fn a_drop_of_one_of_two_same_named_columns_is_the_drop() {
    // Both frames hold an `id`; the join keeps both, the drop one. The rename-and-join on names
    // in between names the same columns. A real Spark 4.3 plan (`bench/scalanb`).
    let notebook = r#"// Databricks notebook source
val guitaristsDF = spark.read.option("inferSchema", "true").json("/work/app/src/main/resources/data/guitarPlayers.json")
val bandsDF = spark.read.option("inferSchema", "true").json("/work/app/src/main/resources/data/bands.json")
val joinCondition = guitaristsDF.col("band") === bandsDF.col("id")
val guitaristsBandsDF = guitaristsDF.join(bandsDF, joinCondition, "inner")
guitaristsDF.join(bandsDF.withColumnRenamed("id", "band"), "band").show
guitaristsBandsDF.drop(bandsDF.col("id")).show
"#;
    let mappings = support::map_against(
        &[("notebooks/Joins.scala", notebook)],
        &support::bench_plan("scalanb", "snb-dataframe_operations-026"),
    );
    let at = |id: &str| {
        let m = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
        (support::code_at(&mappings, id).1, m.explanation.clone())
    };
    assert_eq!(at("8").0, "7-7", "the drop: {}", at("8").1);
    assert_eq!(at("7").0, "5-5", "the join: {}", at("7").1);
}

/// A pipeline in the style of a production package: events parsed from JSON, the latest of each
/// kept by a window and its rank dropped, then joined with a product catalogue.
const PIPELINE: &str = r#"from pyspark.sql import DataFrame, SparkSession, Window
from pyspark.sql import functions as F
from pyspark.sql.types import StringType, StructField, StructType

FIELDS = ["event_id", "event_ts", "event_type", "user_id", "session_id", "product_id",
          "quantity", "price", "currency", "country", "device", "user_agent", "referrer"]
SCHEMA = StructType([StructField(f, StringType()) for f in FIELDS])


def parse(bronze: DataFrame) -> DataFrame:
    flat = bronze.withColumn("payload", F.from_json("raw", SCHEMA)).select(
        F.col("payload.event_id").alias("event_id"),
        F.col("payload.event_type").alias("event_type"),
        F.col("payload.user_id").alias("user_id"),
        F.col("payload.session_id").alias("session_id"),
        F.col("payload.product_id").alias("product_id"),
        F.col("payload.quantity").cast("int").alias("quantity"),
        F.col("payload.price").cast("double").alias("price"),
        F.col("payload.currency").alias("currency"),
        F.col("payload.country").alias("country"),
        F.col("payload.device").alias("device"),
        F.col("ingest_ts"),
        F.col("payload.event_ts").cast("timestamp").alias("event_ts"),
    )
    return flat.filter(F.col("event_type").isin("view", "purchase")).drop("payload", "raw")


def latest_only(df: DataFrame) -> DataFrame:
    w = Window.partitionBy("event_id").orderBy(F.col("ingest_ts").desc())
    return (
        df.withColumn("_rn", F.row_number().over(w))
        .filter(F.col("_rn") == 1)
        .drop("_rn", "ingest_ts")
    )


def with_products(events: DataFrame, catalog: DataFrame) -> DataFrame:
    products = catalog.select("product_id", "product_name", "category", "brand", "list_price")
    return events.join(F.broadcast(products), on="product_id", how="left")


def run(spark: SparkSession, root: str) -> None:
    bronze = spark.read.parquet(root + "/bronze")
    catalog = spark.read.parquet(root + "/catalog_products")
    events = latest_only(parse(bronze))
    with_products(events, catalog).show()
"#;

#[test]
fn a_drop_a_join_reads_is_the_drop_not_the_joins_pruning() {
    // Project (15) and its initial plan's (34) leave out `ingest_ts` and `_rn` below the join.
    let plan = support::bench_plan("tested", "etl-run-pipeline-003");
    let mappings = support::map_against(&[("pipeline/silver.py", PIPELINE)], &plan);
    let statement = PIPELINE
        .lines()
        .position(|l| l.contains("df.withColumn(\"_rn\""))
        .unwrap() as u32; // (the `return (` line above it opens the statement)
    for id in ["15", "34"] {
        let (file, lines) = support::code_at(&mappings, id);
        assert_eq!(
            (file.as_str(), lines.split('-').next().unwrap()),
            ("pipeline/silver.py", statement.to_string().as_str()),
            "node {id}: {lines}"
        );
    }
}

/// Orders deduplicated by a window ordering on a computed date (`to_date(order_date, …)`, which
/// Spark computes below the window as `_w0`), their rank dropped, then joined with line items.
const ORDERS_JOB: &str = r#"package shop.jobs;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.expressions.Window;
import org.apache.spark.sql.expressions.WindowSpec;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

import static org.apache.spark.sql.functions.*;

public class OrdersJob {
    private static final String[] STATUSES = {"COMPLETED", "PENDING", "CANCELLED"};

    public static void main(String[] args) {
        SparkSession spark = SparkSession.builder().getOrCreate();
        StructType schema = new StructType()
                .add("order_id", DataTypes.IntegerType)
                .add("customer_id", DataTypes.IntegerType)
                .add("product_category", DataTypes.StringType)
                .add("total_amount", DataTypes.DoubleType)
                .add("status", DataTypes.StringType)
                .add("order_date", DataTypes.StringType)
                .add("channel", DataTypes.StringType);
        Dataset<Row> orders = spark.read().option("header", "true").schema(schema).csv(args[0]);
        Dataset<Row> payments = spark.read().json(args[1]);

        Dataset<Row> items = payments
                .withColumn("items", explode_outer(col("items")))
                .select(
                        col("items.price").alias("price"),
                        col("items.product").alias("product"),
                        col("items.quantity").alias("quantity"),
                        col("customer.city").alias("city"),
                        col("customer.name").alias("customer_name"),
                        col("customer.tier").alias("tier"),
                        col("customer_id"),
                        col("event_timestamp"),
                        col("order_id"),
                        col("payment.method").alias("payment_method"),
                        col("payment.status").alias("payment_status")
                ).withColumn("line_value", col("price").multiply(col("quantity")));

        Dataset<Row> valid = orders.filter(
                col("order_id").isNotNull()
                        .and(col("customer_id").isNotNull())
                        .and(col("total_amount").isNotNull())
                        .and(col("status").isin((Object[]) STATUSES)));

        WindowSpec latest = Window.partitionBy("order_id")
                .orderBy(to_date(col("order_date"), "dd-MM-yyyy").desc());
        Dataset<Row> deduplicated = valid
                .withColumn("row_number", row_number().over(latest))
                .filter(col("row_number").equalTo(1))
                .drop("row_number");

        Dataset<Row> joined = deduplicated
                .join(items, deduplicated.col("order_id").equalTo(items.col("order_id")), "inner")
                .select(
                        deduplicated.col("order_id"),
                        deduplicated.col("customer_id"),
                        col("customer_name"),
                        col("tier"),
                        col("city"),
                        deduplicated.col("product_category"),
                        col("product"),
                        col("quantity"),
                        col("price"),
                        col("line_value"),
                        deduplicated.col("status"),
                        deduplicated.col("channel"),
                        col("payment_method"),
                        col("payment_status"),
                        deduplicated.col("order_date"),
                        col("event_timestamp"));
        joined.show();
    }
}
"#;

#[test]
fn a_project_leaving_out_a_planner_column_too_is_the_planners_pruning() {
    // Project (13) leaves out `_w0` (the window's computed ordering) and `row_number`: more than
    // the drop names, so it is the pruning for the join above, told as such, at the join's
    // statement.
    let plan = support::bench_plan("javasql", "jsql-end-to-end-pipeline-job-007");
    let mappings = support::map_against(&[("src/shop/jobs/OrdersJob.java", ORDERS_JOB)], &plan);
    let join = ORDERS_JOB
        .lines()
        .position(|l| l.contains("Dataset<Row> joined = deduplicated"))
        .unwrap() as u32
        + 1;
    let (file, lines) = support::code_at(&mappings, "13");
    let pruning = &mappings.iter().find(|m| m.dag_node_id == "13").unwrap();
    assert!(
        pruning
            .explanation
            .contains("column pruning for BroadcastHashJoin (21)"),
        "{}",
        pruning.explanation
    );
    assert_eq!(
        (file.as_str(), lines.split('-').next().unwrap()),
        ("src/shop/jobs/OrdersJob.java", join.to_string().as_str()),
        "{lines}"
    );
}
