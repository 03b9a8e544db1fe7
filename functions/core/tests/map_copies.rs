//! Copies of one script (the same code in several folders): the plan cannot tell them apart, so no
//! answer is confirmed and every other copy is among each node's alternatives. Where the plan
//! ties, the answer is the unit the plan shows all of, then the copy filed under its topic. Two
//! files that plan alike through different constructs are twins as much as copies are.

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

fn answer_file(mappings: &[plan2code_core::contracts::MappingOutput], id: &str) -> String {
    let m = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
    m.mapped_code.as_ref().unwrap().file.clone()
}

#[test]
fn of_two_copies_the_one_filed_under_its_topic_answers() {
    // Path order alone would pick the stray copy (`jobs/counts_by_shop.py` sorts first).
    let files = [
        ("jobs/counts_by_shop.py", SCRIPT),
        ("jobs/shop/counts_by_shop.py", SCRIPT),
    ];
    let mappings = support::map_against(&files, PLAN);
    for id in ["1", "2", "4"] {
        assert_eq!(
            answer_file(&mappings, id),
            "jobs/shop/counts_by_shop.py",
            "node {id}"
        );
    }
}

#[test]
fn of_two_units_that_explain_a_plan_alike_the_one_it_shows_all_of_answers() {
    // `a.py`'s chain also adds a column no node of the plan computes: had it run, the plan
    // would show it.
    let longer = SCRIPT.replace(
        "df.groupBy(\"shop\").count().show()",
        "df.groupBy(\"shop\").count().withColumn(\"checked\", df.units + 1).show()",
    );
    let files = [("a.py", longer.as_str()), ("b.py", SCRIPT)];
    let mappings = support::map_against(&files, PLAN);
    for id in ["1", "2", "4"] {
        assert_eq!(answer_file(&mappings, id), "b.py", "node {id}");
    }
}

#[test]
fn two_constructs_that_plan_alike_in_two_files_are_twins_too() {
    // Not a copy: one file groups and counts in one chain, the other holds the grouping in a
    // variable and counts in the next statement. The plan is the same, so neither is confirmed
    // and the other is the first alternative.
    let split = SCRIPT.replace(
        "df.groupBy(\"shop\").count().show()",
        "by_shop = df.groupBy(\"shop\")\nby_shop.count().show()",
    );
    let files = [("chained.py", SCRIPT), ("split.py", split.as_str())];
    let mappings = support::map_against(&files, PLAN);
    for id in ["2", "4"] {
        let m = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
        assert_ne!(
            m.confidence_status,
            ConfidenceStatus::Confirmed,
            "node {id}"
        );
        let answer = m.mapped_code.as_ref().unwrap().file.as_str();
        let other = if answer == "split.py" {
            "chained.py"
        } else {
            "split.py"
        };
        assert_eq!(
            m.alternatives.first().map(|a| a.location.file.as_str()),
            Some(other),
            "node {id}: {}",
            m.explanation
        );
    }
}
