//! A helper filtering on a column and a value its callers pass (`below(df, "Close", 500)`) names
//! nothing itself; the plan's Filter (`Close < 500`) is its code, not an inline filter of another
//! column that happens to use the same value. What the callers pass for a parameter used as a
//! column or a value is the helper's evidence, as it already was for a path. A real Spark 4.3
//! plan (`bench/jupyter`).

mod support;

const HELPERS: &str = r#"def below(df, column_name, limit):
    return df.filter(df[column_name] < limit)
"#;

const JOB: &str = r#"from pyspark.sql import SparkSession
from helpers import below

spark = SparkSession.builder.appName("ops").getOrCreate()
df = spark.read.csv("appl_stock.csv", inferSchema=True, header=True)
df.filter(df["Open"] < 500).show()
below(df, "Close", 500).select(["Open", "Close"]).show()
"#;

#[test]
fn a_helper_s_column_and_value_are_what_its_callers_pass() {
    let plan = support::bench_plan("jupyter", "tsp-dataframe-basic-operations-003");
    let mappings = support::map_against(&[("helpers.py", HELPERS), ("job.py", JOB)], &plan);
    let filter = mappings
        .iter()
        .find(|m| m.node_name.starts_with("Filter"))
        .expect("the plan's Filter");
    let code = filter.mapped_code.as_ref().expect("mapped");
    assert_eq!(
        (code.file.as_str(), code.lines.as_str()),
        ("helpers.py", "2-2")
    );
}
