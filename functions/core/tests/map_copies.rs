//! Copies of one script (the same code in several folders): the plan cannot tell them apart, so no
//! answer is confirmed and every other copy is among each node's alternatives.

mod support;

use plan2code_core::contracts::ConfidenceStatus;
use std::collections::BTreeSet;

const SCRIPT: &str = "\
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
df = spark.createDataFrame([(\"x\", 1), (\"y\", 2)], [\"shop\", \"units\"])
df.groupBy(\"shop\").count().show()
";

/// The same aggregate over other data: no copy, but as good a match for the aggregate alone.
const REPORT: &str = "\
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
sales = spark.read.parquet(\"sales\")
sales.groupBy(\"shop\").count().show()
";

const PLAN: &str = "\
== Physical Plan ==
* HashAggregate (4)
+- Exchange (3)
   +- * HashAggregate (2)
      +- * LocalTableScan (1)


(1) LocalTableScan [codegen id : 1]
Output [1]: [shop#0]
Arguments: [shop#0]

(2) HashAggregate [codegen id : 1]
Input [1]: [shop#0]
Keys [1]: [shop#0]
Functions [1]: [partial_count(1)]
Aggregate Attributes [1]: [count#8L]
Results [2]: [shop#0, count#9L]

(3) Exchange
Input [2]: [shop#0, count#9L]
Arguments: hashpartitioning(shop#0, 200), ENSURE_REQUIREMENTS, [plan_id=10]

(4) HashAggregate [codegen id : 2]
Input [2]: [shop#0, count#9L]
Keys [1]: [shop#0]
Functions [1]: [count(1)]
Aggregate Attributes [1]: [count(1)#7L]
Results [2]: [shop#0, count(1)#7L AS count#5L]
";

#[test]
fn three_copies_of_a_script_are_each_answer_or_alternative_and_none_is_confirmed() {
    let copies = ["a/shops.py", "b/shops.py", "c/window/shops.py"];
    let mut files: Vec<(&str, &str)> = copies.iter().map(|c| (*c, SCRIPT)).collect();
    files.push(("0_report.py", REPORT));
    let mappings = support::map_against(&files, PLAN);
    for id in ["1", "2", "4"] {
        let m = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
        assert_ne!(
            m.confidence_status,
            ConfidenceStatus::Confirmed,
            "node {id}"
        );
        let mut files: BTreeSet<&str> = m
            .alternatives
            .iter()
            .take(2)
            .map(|a| a.location.file.as_str())
            .collect();
        files.insert(m.mapped_code.as_ref().unwrap().file.as_str());
        assert_eq!(
            files,
            BTreeSet::from(copies),
            "node {id}: {}",
            m.explanation
        );
    }
}
