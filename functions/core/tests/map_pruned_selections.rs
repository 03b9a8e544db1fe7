//! Three statements filter a frame alike and differ only in what they select afterwards. Spark
//! prunes a selection of columns the filter already reads into the scan (no Project is left),
//! so the plan shows one Filter which all three explain equally well — but it returns `Open,
//! Close`, which only the statement selecting exactly those returns. A real Spark 4.3 plan
//! (`bench/jupyter`).

mod support;

const SCRIPT: &str = r#"from pyspark.sql import SparkSession

spark = SparkSession.builder.appName("ops").getOrCreate()
df = spark.read.csv("appl_stock.csv", inferSchema=True, header=True)
df.filter("Close<500").show()
df.filter("Close<500").select('Open').show()
df.filter("Close<500").select(['Open', 'Close']).show()
"#;

#[test]
fn of_look_alike_statements_the_one_selecting_what_the_plan_returns_is_the_plan_s() {
    let plan = support::bench_plan("jupyter", "tsp-dataframe-basic-operations-003");
    let mappings = support::map_against(&[("ops.py", SCRIPT)], &plan);
    let filter = mappings
        .iter()
        .find(|m| m.node_name.starts_with("Filter"))
        .expect("the plan's Filter");
    let code = filter.mapped_code.as_ref().expect("mapped");
    assert_eq!((code.file.as_str(), code.lines.as_str()), ("ops.py", "7-7"));
}
