//! A query and the subquery inside it mapped end to end. The subquery repeats the outer query's
//! join (`HAVING sum(o_amount) > (SELECT sum(o_amount) * 0.25 FROM <the same join>)`), so only
//! the nesting tells their nodes apart. It was planned adaptively: its plan lists an AQE Initial
//! Plan of its own, whose nodes belong to the subquery as much as its final ones.

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

fn plan() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/plans/subquery-repeats-outer-query/formatted.txt");
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn the_subquerys_nodes_map_inside_it_in_both_of_its_plans() {
    let mappings = support::map_against(&[("jobs/big.py", SCRIPT)], &plan());
    let line = |id: &str| {
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
    };
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
