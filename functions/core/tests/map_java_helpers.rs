//! A Java pipeline reads each topic through a static helper and filters through an instance
//! method, both capitalised (`Readers.ReadTopic(…)`, `trans.FilterOrders(orders)`), into
//! variables declared `Dataset<Row>`. Java constructs only with `new`, so those calls are the
//! user's helpers and the declared variables frames: the plan's scan, filter and aggregate follow
//! the pipeline through them, not a look-alike check of the same filter and count in a class no
//! pipeline calls. A real Spark 4.3 plan (`bench/javaetl`).

mod support;

const READERS: &str = r#"package etl;

public class Readers {
    public static Dataset<Row> ReadTopic(SparkSession spark, String topic, StructType schema) {
        Dataset<Row> raw = spark.read().format("text").load("/data/topics/" + topic);
        return raw.select(from_json(col("value").cast("string"), schema).alias("data"))
                .select("data.*");
    }
}
"#;

const TRANSFORMATION: &str = r#"package etl;

public class Transformation {
    public Dataset<Row> FilterOrders(Dataset<Row> orders) {
        return orders
                .filter(col("order_status").isInCollection(Arrays.asList("shipped", "approved", "invoiced", "created", "delivered", "processing")));
    }
}
"#;

const AUDIT: &str = r#"package etl;

public class Audit {
    public void CheckStatuses(Dataset<Row> orders) {
        orders.filter(col("order_status").isInCollection(Arrays.asList("shipped", "approved", "invoiced", "created", "delivered", "processing")))
                .groupBy(col("order_status")).count().show(false);
    }
}
"#;

const PIPELINE: &str = r#"package etl;

public class Pipeline {
    public void Begin(SparkSession spark) {
        Transformation trans = new Transformation();
        Dataset<Row> orders = Readers.ReadTopic(spark, "orders", ordersSchema);
        Dataset<Row> filteredOrders = trans.FilterOrders(orders);
        filteredOrders.groupBy(col("order_status"))
                .count().show(false);
    }
}
"#;

#[test]
fn a_java_pipeline_is_followed_through_its_capitalised_helpers() {
    let plan = support::bench_plan("javaetl", "jetl-main-004");
    let mappings = support::map_against(
        &[
            ("src/etl/Readers.java", READERS),
            ("src/etl/Transformation.java", TRANSFORMATION),
            ("src/etl/Audit.java", AUDIT),
            ("src/etl/Pipeline.java", PIPELINE),
        ],
        &plan,
    );
    let at = |prefix: &str| {
        let node = mappings
            .iter()
            .find(|m| m.node_name.starts_with(prefix))
            .unwrap_or_else(|| panic!("the plan's {prefix}"));
        let code = node.mapped_code.as_ref().expect("mapped");
        (code.file.clone(), code.lines.clone())
    };
    assert_eq!(at("Scan text").0, "src/etl/Readers.java");
    assert_eq!(at("Filter").0, "src/etl/Transformation.java");
    assert_eq!(at("HashAggregate").0, "src/etl/Pipeline.java");
}
