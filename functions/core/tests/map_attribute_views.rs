//! Views registered from an object's attributes, read in another method — the constructor of a
//! base class in another file (`self.lineitem = spark.read.parquet(root + "lineitem")`): the SQL's
//! scan is that reader, not the registration. A real Spark 4.3 plan (`bench/sqltwins`).

mod support;

const TABLES: &str = r#"class Tables:
    def __init__(self, spark, root):
        self.orders = spark.read.parquet(root + "orders")
        self.lineitem = spark.read.parquet(root + "lineitem")
"#;

const REPORTS: &str = r#"from tables import Tables


class Reports(Tables):
    def __init__(self, spark, root):
        Tables.__init__(self, spark, root)
        self.spark = spark
        self.orders.createOrReplaceTempView("orders")
        self.lineitem.createOrReplaceTempView("lineitem")

    def pricing(self):
        query = """select l_returnflag, l_linestatus,
    sum(l_quantity) as sum_qty,
    sum(l_extendedprice) as sum_base_price,
    sum(l_extendedprice * (1 - l_discount)) as sum_disc_price,
    sum(l_extendedprice * (1 - l_discount) * (1 + l_tax)) as sum_charge,
    avg(l_quantity) as avg_qty,
    avg(l_extendedprice) as avg_price,
    avg(l_discount) as avg_disc,
    count(*) as count_order
from lineitem
where l_shipdate <= date '1998-12-01' - interval '90' day
group by l_returnflag, l_linestatus
order by l_returnflag, l_linestatus"""
        self.spark.sql(query).show()
"#;

#[test]
fn a_view_of_an_attribute_reads_what_the_attribute_was_read_from() {
    let plan = support::bench_plan("sqltwins", "dnt-tpch-001");
    let mappings = support::map_against(&[("tables.py", TABLES), ("reports.py", REPORTS)], &plan);
    let scan = mappings
        .iter()
        .find(|m| m.node_name.starts_with("Scan"))
        .unwrap();
    let code = scan.mapped_code.as_ref().unwrap();
    assert_eq!(
        (code.file.as_str(), code.lines.as_str()),
        ("tables.py", "4-4")
    );
}
