//! Operators Spark adds for what a statement computes belong to that statement. A join's null
//! checks on keys parsed from JSON (`isnotnull(from_json(…).order_id)`, pushed below the
//! projection parsing them) are the code parsing them, not a stated `isNotNull()` filter of
//! another method; the Project computing each row's window for `groupBy(window(…))`
//! (`named_struct(start, …, end, …) AS window`) is the grouping statement. A real Spark 4.3
//! plan (`bench/javaetl`).

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
