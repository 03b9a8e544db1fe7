//! A test that runs its own copy of a statement (a suite re-writing the job's chain with another
//! name for its result) produced the plans it ran: where the plan's names are the test's, the
//! test's statement is the answer, though most of the plan looks alike in both; where nothing
//! tells them apart, the code under test is — as a coin toss, the test's copy beside it.

mod support;

const JOB: &str = "\
from pyspark.sql import SparkSession, functions as F

spark = SparkSession.builder.getOrCreate()
orders = spark.createDataFrame([(\"north\", 10, \"web\"), (\"south\", 20, \"shop\")], [\"region\", \"amount\", \"channel\"])
orders.filter(F.col(\"channel\") == \"web\").groupBy(\"region\").agg(F.sum(\"amount\").alias(\"total\")).show()
";

const TEST: &str = "\
from pyspark.sql import functions as F


def test_totals(spark):
    orders = spark.createDataFrame([(\"north\", 10, \"web\"), (\"south\", 20, \"shop\")], [\"region\", \"amount\", \"channel\"])
    orders.filter(F.col(\"channel\") == \"web\").groupBy(\"region\").agg(F.sum(\"amount\").alias(\"{name}\")).show()
";

/// `{name}` is the name the final aggregate gives its sum.
const PLAN: &str = "\
== Physical Plan ==
* HashAggregate (5)
+- Exchange (4)
   +- * HashAggregate (3)
      +- * Filter (2)
         +- * LocalTableScan (1)


(1) LocalTableScan [codegen id : 1]
Output [3]: [region#0, amount#1L, channel#2]
Arguments: [region#0, amount#1L, channel#2]

(2) Filter [codegen id : 1]
Input [3]: [region#0, amount#1L, channel#2]
Condition : (isnotnull(channel#2) AND (channel#2 = web))

(3) HashAggregate [codegen id : 1]
Input [2]: [region#0, amount#1L]
Keys [1]: [region#0]
Functions [1]: [partial_sum(amount#1L)]
Aggregate Attributes [1]: [sum#8L]
Results [2]: [region#0, sum#9L]

(4) Exchange
Input [2]: [region#0, sum#9L]
Arguments: hashpartitioning(region#0, 200), ENSURE_REQUIREMENTS, [plan_id=10]

(5) HashAggregate [codegen id : 2]
Input [2]: [region#0, sum#9L]
Keys [1]: [region#0]
Functions [1]: [sum(amount#1L)]
Aggregate Attributes [1]: [sum(amount#1L)#7L]
Results [2]: [region#0, sum(amount#1L)#7L AS {name}#5L]
";

fn files_answering(name: &str) -> Vec<String> {
    let test = TEST.replace("{name}", "total_amount");
    let plan = PLAN.replace("{name}", name);
    let mappings = support::map_against(
        &[("jobs/totals.py", JOB), ("tests/test_totals.py", &test)],
        &plan,
    );
    ["1", "2", "3", "5"]
        .iter()
        .map(|id| {
            let m = mappings.iter().find(|m| m.dag_node_id == *id).expect(id);
            m.mapped_code.as_ref().expect("mapped").file.clone()
        })
        .collect()
}

#[test]
fn the_plan_a_test_ran_is_its_own_statement_s() {
    // the plan names the sum as the test does: every operator of it is the test's
    for file in files_answering("total_amount") {
        assert_eq!(file, "tests/test_totals.py");
    }
    // … and as the job does: the job's
    for file in files_answering("total") {
        assert_eq!(file, "jobs/totals.py");
    }
}

#[test]
fn a_test_copying_the_jobs_code_makes_the_answer_a_coin_toss() {
    // the test's statement is the job's, word for word: the plan cannot tell which one ran
    let test = TEST.replace("{name}", "total");
    let plan = PLAN.replace("{name}", "total");
    let mappings = support::map_against(
        &[("jobs/totals.py", JOB), ("tests/test_totals.py", &test)],
        &plan,
    );
    for id in ["2", "3", "5"] {
        let m = mappings.iter().find(|m| m.dag_node_id == id).expect(id);
        let code = m.mapped_code.as_ref().expect("mapped");
        // the code under test is named first, as no surer than a coin toss …
        assert_eq!(code.file, "jobs/totals.py", "{m:#?}");
        assert!(m.confidence <= 0.5, "{id}: {m:#?}");
        assert!(m.explanation.contains("tests/test_totals.py"), "{m:#?}");
        // … with the test's copy as the first alternative
        let first = &m.alternatives.first().expect("an alternative").location;
        assert_eq!(
            (first.file.as_str(), first.lines.as_str()),
            ("tests/test_totals.py", "6-6")
        );
    }
}

/// Two tests check look-alike queries of two frames, each reading back its own column.
const CHECKS: &str = "\
from pyspark.sql import functions as F


def test_iv(iv_frame):
    assert (
        iv_frame.where(F.col(\"attribute\") == \"age\")
        .toPandas()
        .to_dict(\"list\")[\"iv\"][0]
    ) == 1.19


def test_ig(ig_frame):
    assert (
        ig_frame.where(F.col(\"attribute\") == \"age\")
        .toPandas()
        .to_dict(\"list\")[\"ig\"][0]
    ) == 0.17
";

/// `{column}` is the column the query returns beside `attribute`.
const CHECKED_PLAN: &str = "\
== Physical Plan ==
* Filter (2)
+- * Scan ExistingRDD (1)


(1) Scan ExistingRDD [codegen id : 1]
Output [2]: [attribute#10, {column}#11]
Arguments: [attribute#10, {column}#11], MapPartitionsRDD[41] at applySchemaToPythonRDD at <unknown>:0, ExistingRDD, UnknownPartitioning(0)

(2) Filter [codegen id : 1]
Input [2]: [attribute#10, {column}#11]
Condition : (isnotnull(attribute#10) AND (attribute#10 = age))
";

#[test]
fn a_column_read_back_from_the_rows_tells_look_alike_checks_apart() {
    for (column, lines) in [("iv", "5-9"), ("ig", "13-17")] {
        let plan = CHECKED_PLAN.replace("{column}", column);
        let mappings = support::map_against(&[("tests/test_checks.py", CHECKS)], &plan);
        let filter = mappings.iter().find(|m| m.dag_node_id == "2").expect("2");
        let code = filter.mapped_code.as_ref().expect("mapped");
        assert_eq!(code.lines, lines, "{column}: {filter:#?}");
    }
}

/// The job reads its file by name; its test reads the same file by its whole path.
const READING_JOB: &str = "\
from pyspark.sql import SparkSession, functions as F

ORDERS = \"orders.csv\"
spark = SparkSession.builder.getOrCreate()
orders = spark.read.option(\"header\", True).csv(ORDERS)
orders.filter(F.col(\"channel\") == \"web\").show()
";

const READING_TEST: &str = "\
from pyspark.sql import functions as F


def test_web_orders(spark):
    orders = spark.read.option(\"header\", True).csv(\"/data/input/orders.csv\")
    orders.filter(F.col(\"channel\") == \"web\").show()
";

const READ_PLAN: &str = "\
== Physical Plan ==
* Filter (2)
+- Scan csv  (1)


(1) Scan csv 
Output [2]: [region#17, channel#18]
Batched: false
Location: InMemoryFileIndex [file:/data/input/orders.csv]
PushedFilters: [IsNotNull(channel), EqualTo(channel,web)]
ReadSchema: struct<region:string,channel:string>

(2) Filter [codegen id : 1]
Input [2]: [region#17, channel#18]
Condition : (isnotnull(channel#18) AND (channel#18 = web))
";

#[test]
fn a_tests_reader_naming_more_of_the_path_is_still_a_coin_toss() {
    // The test's reader names more of the scan's path than the job's: it is no worse a reader,
    // and the two flows explain the plan alike — the scan is as uncertain as the filter.
    let mappings = support::map_against(
        &[
            ("jobs/orders.py", READING_JOB),
            ("tests/test_orders.py", READING_TEST),
        ],
        READ_PLAN,
    );
    for id in ["1", "2"] {
        let m = mappings.iter().find(|m| m.dag_node_id == id).expect(id);
        let code = m.mapped_code.as_ref().expect("mapped");
        assert_eq!(code.file, "jobs/orders.py", "{m:#?}");
        assert!(m.confidence <= 0.5, "{id}: {m:#?}");
        let first = &m.alternatives.first().expect("an alternative").location;
        assert_eq!(first.file, "tests/test_orders.py", "{id}: {m:#?}");
    }
}
