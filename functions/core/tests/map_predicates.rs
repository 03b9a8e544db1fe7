//! Filters naming the same columns and values: the plan's operators tell them apart. A
//! disjunction (`|`), a negated comparison (`~(x < 200)`, planned `x >= 200`) and a conjunction
//! of the same two comparisons are three statements, whatever order they come in.

mod support;

const SCRIPT: &str = "\
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
df = spark.read.csv(\"data/prices.csv\", header=True, inferSchema=True)
df.filter((df[\"Close\"] < 200) & (df['Open'] > 200)).show()
df.filter((df[\"Close\"] < 200) | (df['Open'] > 200)).show()
df.filter((df[\"Close\"] < 200) & ~(df['Open'] < 200)).show()
df.filter(\"Close < 200 AND Open > 200\").show()
";

fn filter_line(condition: &str) -> String {
    let plan = format!(
        "\
== Physical Plan ==
* Filter (2)
+- Scan csv  (1)


(1) Scan csv 
Output [2]: [Open#1, Close#4]
Batched: false
Location: InMemoryFileIndex [file:/data/prices.csv]
ReadSchema: struct<Open:double,Close:double>

(2) Filter [codegen id : 1]
Input [2]: [Open#1, Close#4]
Condition : {condition}
"
    );
    let mappings = support::map_against(&[("prices.py", SCRIPT)], &plan);
    let filter = mappings.iter().find(|m| m.dag_node_id == "2").unwrap();
    filter.mapped_code.as_ref().unwrap().lines.clone()
}

#[test]
fn a_disjunction_is_the_filter_written_with_or() {
    assert_eq!(
        filter_line("((Close#4 < 200.0) OR (Open#1 > 200.0))"),
        "6-6"
    );
}

#[test]
fn a_negated_comparison_is_planned_as_its_opposite() {
    assert_eq!(
        filter_line(
            "(((isnotnull(Close#4) AND isnotnull(Open#1)) AND (Close#4 < 200.0)) AND (Open#1 >= 200.0))"
        ),
        "7-7"
    );
}

#[test]
fn a_conjunction_is_a_filter_comparing_both_ways_as_planned() {
    let line = filter_line(
        "(((isnotnull(Close#4) AND isnotnull(Open#1)) AND (Close#4 < 200.0)) AND (Open#1 > 200.0))",
    );
    assert!(["5-5", "8-8"].contains(&line.as_str()), "{line}");
}
