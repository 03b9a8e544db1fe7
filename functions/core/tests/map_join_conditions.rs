//! What a join's condition tests besides its keys. A test of one side alone — a UDF of one
//! side's column (`~special(col("o_comment"))`), a comparison with a value, SQL's
//! `ON … AND o_comment NOT LIKE '%x%'` — is planned below the join as a Filter of that side (a
//! Python UDF's evaluated first); and an outer join whose padded rows a later test rejects is
//! planned inner. Real Spark 4.3 plans of TPC-H queries (`bench/sqltwins`), against scripts
//! written here in the style of the DataFrame and SQL renderings the benchmark ran.

mod support;

use plan2code_core::pipeline::semantics::plan_semantics;
use plan2code_core::plan::{ParseOptions, parse_plan};

const DATAFRAME_QUERIES: &str = r#"import pyspark.sql.functions as F
from pyspark.sql.functions import col, udf
from pyspark.sql.types import BooleanType


class Queries:
    def __init__(self, spark, root):
        self.customer = spark.read.parquet(root + "/customer")
        self.orders = spark.read.parquet(root + "/orders")
        self.part = spark.read.parquet(root + "/part")
        self.lineitem = spark.read.parquet(root + "/lineitem")

    def q13(self):
        special = udf(lambda x: "special" in x, BooleanType())
        self.customer.join(self.orders, (col("c_custkey") == col("o_custkey"))
                           & ~special(col("o_comment")), "left_outer") \
            .groupBy(col("c_custkey")) \
            .agg(F.count(col("o_orderkey")).alias("c_count")) \
            .groupBy(col("c_count")) \
            .agg(F.count(col("*")).alias("custdist")) \
            .sort(col("custdist").desc(), col("c_count").desc()) \
            .show()

    def q17(self):
        multiplier = udf(lambda x: x * 0.2)
        parts = self.part.filter((col("p_brand") == "Brand#23") & (col("p_container") == "MED BOX")) \
            .select(col("p_partkey")) \
            .join(self.lineitem, col("p_partkey") == col("l_partkey"), "left_outer")
        parts.groupBy(col("p_partkey")) \
            .agg(multiplier(F.avg(col("l_quantity"))).alias("avg_quantity")) \
            .select(col("p_partkey").alias("key"), col("avg_quantity")) \
            .join(parts, col("key") == col("p_partkey")) \
            .filter(col("l_quantity") < col("avg_quantity")) \
            .agg((F.sum(col("l_extendedprice")) / 7.0).alias("avg_yearly")) \
            .show()

    def q14(self):
        promotion = udf(lambda t, v: v if t.startswith("PROMO") else 0.0)
        self.part.join(self.lineitem, (col("l_partkey") == col("p_partkey"))
                       & (col("l_shipdate") >= "1995-09-01")
                       & (col("l_shipdate") < "1995-10-01")) \
            .select(col("p_type"), (col("l_extendedprice") * (1 - col("l_discount"))).alias("value")) \
            .agg(F.sum(promotion(col("p_type"), col("value"))) * 100 / F.sum(col("value"))) \
            .show()

    def q22(self):
        local = udf(lambda x: x[0:2] in ("13", "31"), BooleanType())
        self.customer.filter(local(col("c_phone"))).show()
"#;

/// The line of `text` holding `needle` (1-based).
fn line_of(text: &str, needle: &str) -> u32 {
    let at = text.lines().position(|l| l.contains(needle)).expect(needle);
    at as u32 + 1
}

/// Where node `id` was mapped: its first line.
fn start_of(mappings: &[plan2code_core::contracts::MappingOutput], id: &str) -> u32 {
    let (_, lines) = support::code_at(mappings, id);
    lines.split('-').next().unwrap().parse().unwrap()
}

#[test]
fn a_udf_of_one_side_in_a_joins_condition_is_that_joins_filter() {
    let mappings = support::map_against(
        &[("queries.py", DATAFRAME_QUERIES)],
        &support::bench_plan("sqltwins", "dnt-tpch-035"),
    );
    let join = line_of(DATAFRAME_QUERIES, "self.customer.join(self.orders");
    // (7) Filter `NOT pythonUDF0` over (6) ArrowEvalPython `<lambda>(o_comment)`: the join's
    // condition, not `q22`'s filter applying a UDF.
    for node in ["5", "6", "7"] {
        assert_eq!(start_of(&mappings, node), join, "node {node}");
    }
}

#[test]
fn an_inner_join_whose_rows_a_later_test_reads_may_be_an_outer_join_made_inner() {
    // TPC-H q17 as the DataFrame API writes it (`parts` above): the frame joined twice, once
    // under the grouping as written (10, LeftOuter) and once under the later join, whose
    // `l_quantity < avg_quantity` rejects the rows the outer join pads with nulls (31, Inner).
    let plan = support::bench_plan("sqltwins", "dnt-tpch-039");
    let graph = parse_plan(&plan, &ParseOptions::default()).unwrap();
    let semantics = plan_semantics(&graph);
    let tested = |id: &str| {
        let node = semantics.iter().find(|s| s.dag_node_id == id).unwrap();
        node.signature
            .iter()
            .any(|(k, v)| k == "nullsRejectedAbove" && v == "true")
    };
    assert!(tested("31"));
    // the topmost join: nothing above it tests its rows; an outer join keeps its own type
    assert!(!tested("36"));
    assert!(!tested("10"));
}

const SQL_QUERIES: &str = r#"class Queries:
    def __init__(self, spark):
        self.spark = spark

    def q13(self):
        query = """select
 c_count,
 count(*) as custdist
 from
 (
 select
 c_custkey,
 count(o_orderkey) as c_count
 from
 customer left outer join orders on
 c_custkey = o_custkey
 and o_comment not like '%special%requests%'
 group by
 c_custkey
 ) as c_orders
 group by
 c_count
 order by
 custdist desc,
 c_count desc"""
        self.spark.sql(query).show()

    def q4(self):
        query = """select o_orderpriority, count(*) as order_count
 from orders
 where o_orderdate >= date '1993-07-01'
 group by o_orderpriority"""
        self.spark.sql(query).show()
"#;

#[test]
fn a_test_of_one_side_in_a_sql_joins_on_is_that_sides_filter() {
    let mappings = support::map_against(
        &[("sql_queries.py", SQL_QUERIES)],
        &support::bench_plan("sqltwins", "dnt-tpch-013"),
    );
    // (5) Filter `NOT o_comment LIKE %special%requests%`: the ON's conjunct, not another
    // query's WHERE.
    let conjunct = line_of(SQL_QUERIES, "and o_comment not like");
    assert_eq!(start_of(&mappings, "5"), conjunct);
}
