//! Queries and the subqueries inside them mapped end to end. In the first, the subquery repeats
//! the outer query's join (`HAVING sum(o_amount) > (SELECT sum(o_amount) * 0.25 FROM <the same
//! join>)`), so only the nesting tells their nodes apart; it was planned adaptively, and its plan
//! lists an AQE Initial Plan of its own, whose nodes belong to the subquery as much as its final
//! ones. In the second, an `IN (SELECT …)` becomes a left semi join on the same keys as the
//! outer query's equality join: the join type tells which predicate planned which join.

mod support;

const SCRIPT: &str = r#"from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
spark.read.parquet("data/orders.parquet").createOrReplaceTempView("orders")
spark.read.parquet("data/customers.parquet").createOrReplaceTempView("customers")
big = spark.sql("""
    SELECT c_region, sum(o_amount) AS total
    FROM orders
    JOIN customers ON o_cust = c_id
    GROUP BY c_region
    HAVING sum(o_amount) > (
        SELECT sum(o_amount) * 0.25
        FROM orders
        JOIN customers ON o_cust = c_id
    )
""")
big.show()
"#;

/// Lines of the subquery.
const INNER: std::ops::RangeInclusive<u32> = 12..=14;
/// Lines of the outer query's FROM and JOIN.
const OUTER_JOIN: std::ops::RangeInclusive<u32> = 8..=9;

fn plan(case: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/plans")
        .join(case)
        .join("formatted.txt");
    std::fs::read_to_string(path).unwrap()
}

/// The first line each node of `plan` maps to, mapped against `script`.
fn first_lines(script: &str, plan: &str) -> impl Fn(&str) -> u32 + use<> {
    let mappings = support::map_against(&[("jobs/query.py", script)], plan);
    move |id: &str| {
        let m = mappings
            .iter()
            .find(|m| m.dag_node_id == id)
            .unwrap_or_else(|| panic!("no mapping for node {id}"));
        let code = m
            .mapped_code
            .as_ref()
            .unwrap_or_else(|| panic!("node {id} unmapped"));
        let start = code.lines.split('-').next().unwrap_or_default();
        start
            .parse::<u32>()
            .unwrap_or_else(|_| panic!("lines {}", code.lines))
    }
}

#[test]
fn the_subquerys_nodes_map_inside_it_in_both_of_its_plans() {
    let line = first_lines(SCRIPT, &plan("subquery-repeats-outer-query"));
    // (33)–(38): the subquery's final plan; (40)–(46): its Initial Plan. (Its scans may map to
    // the reads that registered the views.)
    for id in ["33", "35", "38", "40", "42", "44", "46"] {
        assert!(
            INNER.contains(&line(id)),
            "subquery node {id} maps to line {}",
            line(id)
        );
    }
    // The outer query's join, final (8) and initial (19).
    for id in ["8", "19"] {
        assert!(
            OUTER_JOIN.contains(&line(id)),
            "outer join {id} maps to line {}",
            line(id)
        );
    }
}

const SEMI: &str = r#"from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
spark.read.parquet("data/orders.parquet").createOrReplaceTempView("orders")
spark.read.parquet("data/customers.parquet").createOrReplaceTempView("customers")
spark.sql("""
    SELECT c_name, sum(o_amount) AS total
    FROM customers, orders
    WHERE c_id = o_cust
      AND c_id IN (
        SELECT o_cust FROM orders GROUP BY o_cust HAVING sum(o_amount) > 500
      )
    GROUP BY c_name
""").show()
"#;

#[test]
fn a_semi_join_maps_to_its_in_predicate_and_the_inner_join_to_the_equality() {
    let line = first_lines(SEMI, &plan("subquery-in-beside-equal-join"));
    // (15) and (22): BroadcastHashJoin LeftSemi, final plan; (23): the Inner one.
    for id in ["15", "22"] {
        assert_eq!(line(id), 10, "semi join {id}");
    }
    assert_eq!(line("23"), 9, "inner join");
}
