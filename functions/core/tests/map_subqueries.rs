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
    let line = first_lines(
        SCRIPT,
        &support::fixture_plan("subquery-repeats-outer-query"),
    );
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
    let line = first_lines(
        SEMI,
        &support::fixture_plan("subquery-in-beside-equal-join"),
    );
    // (15) and (22): BroadcastHashJoin LeftSemi, final plan; (23): the Inner one.
    for id in ["15", "22"] {
        assert_eq!(line(id), 10, "semi join {id}");
    }
    assert_eq!(line("23"), 9, "inner join");
    // The semi join's right input is the subquery, though it reads and sums what the outer
    // query does: its aggregate, both steps (6, 10), and its scan (4) map inside it.
    for id in ["4", "6", "10"] {
        assert_eq!(line(id), 11, "subquery node {id}");
    }
    for id in ["25", "29"] {
        assert_ne!(line(id), 11, "outer aggregate {id}");
    }
}

/// TPC-H q18's shape: the `IN (SELECT … GROUP BY … HAVING …)` subquery reads and sums the very
/// table and column the outer query does, so only the nesting says which scan and which
/// aggregate are the subquery's. Spark plans the IN as the right input of a left semi join.
const IN_READS_THE_OUTER_TABLE: &str = r#"from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
spark.sql("""
    SELECT o_orderkey, sum(l_quantity) AS total
    FROM orders, lineitem
    WHERE o_orderkey IN (
        SELECT l_orderkey
        FROM lineitem
        GROUP BY l_orderkey HAVING sum(l_quantity) > 300
    )
    AND o_orderkey = l_orderkey
    GROUP BY o_orderkey
""").show()
"#;

const IN_READS_THE_OUTER_TABLE_PLAN: &str = "\
== Physical Plan ==
*(6) HashAggregate(keys=[o_orderkey#10L], functions=[sum(l_quantity#21)])
+- *(6) HashAggregate(keys=[o_orderkey#10L], functions=[partial_sum(l_quantity#21)])
   +- *(6) Project [o_orderkey#10L, l_quantity#21]
      +- *(6) BroadcastHashJoin [o_orderkey#10L], [l_orderkey#20L], Inner, BuildRight, false
         :- *(6) BroadcastHashJoin [o_orderkey#10L], [l_orderkey#30L], LeftSemi, BuildRight, false
         :  :- *(6) ColumnarToRow
         :  :  +- FileScan parquet [o_orderkey#10L] Batched: true, DataFilters: [], Format: Parquet, Location: InMemoryFileIndex(1 paths)[file:/data/orders.parquet], PartitionFilters: [], PushedFilters: [], ReadSchema: struct<o_orderkey:bigint>
         :  +- BroadcastExchange HashedRelationBroadcastMode(List(input[0, bigint, true]),false), [plan_id=50]
         :     +- *(3) Project [l_orderkey#30L]
         :        +- *(3) Filter (isnotnull(sum(l_quantity#31)#40) AND (sum(l_quantity#31)#40 > 300))
         :           +- *(3) HashAggregate(keys=[l_orderkey#30L], functions=[sum(l_quantity#31)])
         :              +- Exchange hashpartitioning(l_orderkey#30L, 200), ENSURE_REQUIREMENTS, [plan_id=40]
         :                 +- *(2) HashAggregate(keys=[l_orderkey#30L], functions=[partial_sum(l_quantity#31)])
         :                    +- *(2) ColumnarToRow
         :                       +- FileScan parquet [l_orderkey#30L,l_quantity#31] Batched: true, DataFilters: [], Format: Parquet, Location: InMemoryFileIndex(1 paths)[file:/data/lineitem.parquet], PartitionFilters: [], PushedFilters: [], ReadSchema: struct<l_orderkey:bigint,l_quantity:decimal(15,2)>
         +- BroadcastExchange HashedRelationBroadcastMode(List(input[0, bigint, false]),false), [plan_id=60]
            +- *(5) Filter isnotnull(l_orderkey#20L)
               +- *(5) ColumnarToRow
                  +- FileScan parquet [l_orderkey#20L,l_quantity#21] Batched: true, DataFilters: [isnotnull(l_orderkey#20L)], Format: Parquet, Location: InMemoryFileIndex(1 paths)[file:/data/lineitem.parquet], PartitionFilters: [], PushedFilters: [IsNotNull(l_orderkey)], ReadSchema: struct<l_orderkey:bigint,l_quantity:decimal(15,2)>
";

#[test]
fn the_right_input_of_a_semi_join_maps_inside_the_in_subquery() {
    let mappings = support::map_against(
        &[("jobs/query.py", IN_READS_THE_OUTER_TABLE)],
        IN_READS_THE_OUTER_TABLE_PLAN,
    );
    let first_line = |m: &plan2code_core::contracts::MappingOutput| -> u32 {
        let code = m.mapped_code.as_ref().expect("mapped");
        code.lines.split('-').next().unwrap().parse().unwrap()
    };
    let subquery = 8..=11;
    let by_id = |id: &str| first_line(mappings.iter().find(|m| m.dag_node_id == id).unwrap());
    let graph = plan2code_core::plan::parse_plan(
        IN_READS_THE_OUTER_TABLE_PLAN,
        &plan2code_core::plan::ParseOptions::default(),
    )
    .unwrap();
    // The node printed on the plan line holding `raw`.
    let id_of = |raw: &str| {
        let line = IN_READS_THE_OUTER_TABLE_PLAN
            .lines()
            .position(|l| l.contains(raw))
            .unwrap_or_else(|| panic!("no plan line {raw}")) as u32
            + 1;
        graph
            .nodes
            .iter()
            .find(|n| n.source_line == Some(line))
            .unwrap_or_else(|| panic!("no node on plan line {line}"))
            .id
            .to_string()
    };
    for (what, raw) in [
        ("the subquery's scan", "FileScan parquet [l_orderkey#30L"),
        ("its partial sum", "partial_sum(l_quantity#31)"),
        ("its final sum", "functions=[sum(l_quantity#31)]"),
    ] {
        let line = by_id(&id_of(raw));
        assert!(subquery.contains(&line), "{what} maps to line {line}");
    }
    for (what, raw) in [
        ("the outer scan", "FileScan parquet [l_orderkey#20L"),
        ("the outer sum", "functions=[sum(l_quantity#21)]"),
    ] {
        let line = by_id(&id_of(raw));
        assert!(!subquery.contains(&line), "{what} maps to line {line}");
    }
}

/// adidas' `get_top_5_coauthors.sql`: the outer query and its `IN (SELECT …)` subquery read the
/// same table and the same columns (`authors.key`, `key`), so the two scans are alike.
const COAUTHORS: &str = "\
SELECT substring(co_authors,10) as top_5_co_authors
FROM(
SELECT co_authors, 
count(*) as cnt 
FROM
(
SELECT explode(authors.key) as co_authors
FROM {parsed_table_name}
WHERE key in (
SELECT key 
FROM (
SELECT explode(authors.key) as authors,
key 
FROM {parsed_table_name}
)
GROUP BY key
HAVING count(*) > 1
)
)
GROUP BY co_authors
ORDER BY cnt desc
) limit 5";

#[test]
fn the_left_input_of_a_semi_join_maps_outside_the_in_subquery() {
    // A real Spark 4.3 plan: (1) is the semi join's left input, the outer query's scan; (4) the
    // subquery's, under its aggregate.
    let plan = support::bench_plan("sqlfiles", "adi-main-010");
    let mappings = support::map_against(&[("etl/sql/get_top_5_coauthors.sql", COAUTHORS)], &plan);
    let lines = |id: &str| support::code_at(&mappings, id).1;
    assert_eq!(lines("18"), "9-18", "the semi join is its IN predicate");
    assert_eq!(lines("1"), "8-8", "the outer query's scan");
    assert_eq!(lines("4"), "14-14", "the subquery's scan");
}
