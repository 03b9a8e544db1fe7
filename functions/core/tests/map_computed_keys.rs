//! Operators Spark adds for what a statement computes belong to that statement. A join's null
//! checks on keys parsed from JSON (`isnotnull(from_json(…).order_id)`, pushed below the
//! projection parsing them) are the code parsing them, not a stated `isNotNull()` filter of
//! another method; the Project computing each row's window for `groupBy(window(…))`
//! (`named_struct(start, …, end, …) AS window`) is the grouping statement; so are the Projects
//! computing a window's ordering key (`cast(o_date as date) AS _w0`) and the struct fields read
//! above a generator (`payment.method AS _extract_method`). Real Spark 4.3 plans (`bench/javaetl`,
//! `tests/fixtures/plans`).

mod support;

const READERS: &str = r#"package etl;

public class Readers {
    public static Dataset<Row> ReadTopic(SparkSession spark, String topic, StructType schema) {
        Dataset<Row> raw = spark.read().format("text").load("/data/topics/" + topic);
        Dataset<Row> decoded = raw.select(
                from_json(col("value").cast("string"), schema).alias("data")
            )
            .select("data.*");
        return decoded;
    }
}
"#;

const TRANSFORMATION: &str = r#"package etl;

public class Transformation {
    public Dataset<Row> GetCustomerScore(Dataset<Row> orderItems, Dataset<Row> orders) {
        return orderItems
                .join(orders, "order_id")
                .groupBy(
                        col("customer_id"),
                        window(col("order_purchase_timestamp"), "1 hour")
                )
                .agg(round(sum(col("price").plus(col("freight_value"))), 2).alias("Total_Order_Value"))
                .orderBy(col("Total_Order_Value").desc());
    }

    public Dataset<Row> CalculateDeliveryDelay(Dataset<Row> orders) {
        return orders
                .filter(col("order_id").isNotNull().and(col("order_purchase_timestamp").isNotNull()))
                .withColumn("Delivery_delay", datediff(col("order_estimated_delivery_date"), col("order_purchase_timestamp")));
    }
}
"#;

const PIPELINE: &str = r#"package etl;

public class Pipeline {
    public void Begin(SparkSession spark) {
        Transformation trans = new Transformation();
        Dataset<Row> orders = Readers.ReadTopic(spark, "orders", ordersSchema);
        Dataset<Row> orderItems = Readers.ReadTopic(spark, "orderItems", orderItemsSchema);
        Dataset<Row> delays = trans.CalculateDeliveryDelay(orders);
        delays.show();
        Dataset<Row> score = trans.GetCustomerScore(orderItems, orders);
        score.show();
    }
}
"#;

#[test]
fn checks_and_windows_spark_adds_belong_to_the_code_computing_them() {
    let plan = support::bench_plan("javaetl", "jetl-main-006");
    let mappings = support::map_against(
        &[
            ("src/etl/Readers.java", READERS),
            ("src/etl/Transformation.java", TRANSFORMATION),
            ("src/etl/Pipeline.java", PIPELINE),
        ],
        &plan,
    );
    let at = |id: &str| support::code_at(&mappings, id);
    // (2): `isnotnull(from_json(…).order_id)` below the join on `order_id`
    assert_eq!(
        at("2"),
        ("src/etl/Readers.java".to_owned(), "6-9".to_owned())
    );
    // (12): each row's window, computed for the grouping
    assert_eq!(
        at("12"),
        ("src/etl/Transformation.java".to_owned(), "5-12".to_owned())
    );
}

#[test]
fn a_windows_computed_ordering_key_is_the_windows_statement() {
    let script = "\
from pyspark.sql import Window
from pyspark.sql import functions as F
orders = spark.read.parquet(\"/tmp/plan2code-fixture-data/orders.parquet\")
latest = Window.partitionBy(\"o_cust\").orderBy(F.to_date(\"o_date\").desc())
recent = orders.withColumn(\"rn\", F.row_number().over(latest)).where(F.col(\"rn\") == 1)
recent.drop(\"rn\").show()
";
    let mappings = support::map_against(
        &[("latest.py", script)],
        &support::fixture_plan("window-computed-order-key"),
    );
    let project = mappings.iter().find(|m| m.dag_node_id == "3").unwrap();
    // (3) `cast(o_date#20 as date) AS _w0`: the window's key, not a projection of the user's
    assert_eq!(
        support::code_at(&mappings, "3").1,
        "5-5",
        "{}",
        project.explanation
    );
    assert!(
        project
            .explanation
            .contains("planner computes ahead of Window"),
        "{}",
        project.explanation
    );
    let drop = mappings.iter().find(|m| m.dag_node_id == "13").unwrap();
    assert_eq!(
        support::code_at(&mappings, "13").1,
        "6-6",
        "{}",
        drop.explanation
    );
}

#[test]
fn struct_fields_taken_out_below_a_generator_are_the_reading_statement() {
    let script = "\
from pyspark.sql import functions as F
payments = spark.read.json(\"/tmp/plan2code-fixture-data/payments.json\")
methods = payments.select(\"id\", F.col(\"payment.method\"))
items = payments.withColumn(\"item\", F.explode_outer(\"items\"))
items.select(\"id\", \"item\", F.col(\"payment.method\").alias(\"payment_method\")).show()
";
    let mappings = support::map_against(
        &[("items.py", script)],
        &support::fixture_plan("generate-nested-fields"),
    );
    let project = mappings.iter().find(|m| m.dag_node_id == "2").unwrap();
    // (2) `payment#16.method AS _extract_method`, for the select reading it above the explode
    assert!(
        project
            .explanation
            .contains("planner computes ahead of Generate"),
        "{}",
        project.explanation
    );
    assert_eq!(
        support::code_at(&mappings, "2").1,
        "4-4",
        "{}",
        project.explanation
    );
}
