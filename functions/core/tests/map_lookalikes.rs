//! Look-alike scripts that both hold a node's evidence: the one that says no more than the plan
//! does wins. Here two scripts build a frame from an RDD and filter it alike; one names a column
//! the plan's scan does not output (an RDD scan outputs every column its frame has), so the other
//! is the plan's code. A real Spark 4.3 plan (`tests/fixtures/plans/scan-existing-rdd`).
//! Two notebooks building frames of the same columns from rows of other types: the plan marks a
//! long column (`dept_id#2L`), so rows of whole numbers where it holds none rule a notebook out.

mod support;

const EXACT: &str = r#"from pyspark.sql import SparkSession
from pyspark.sql import functions as F

spark = SparkSession.builder.getOrCreate()
sc = spark.sparkContext
rdd_df = sc.parallelize([(1, "a"), (2, "b"), (3, "c")]).toDF(["id", "letter"])
rdd_df.where(F.col("id") > 1).show()
"#;

/// The same, over rows with a third column.
const WIDER: &str = r#"from pyspark.sql import SparkSession
from pyspark.sql import functions as F

spark = SparkSession.builder.getOrCreate()
sc = spark.sparkContext
rdd_df = sc.parallelize([(1, "a", 0), (2, "b", 0), (3, "c", 0)]).toDF(["id", "letter", "flag"])
rdd_df.where(F.col("id") > 1).show()
"#;

#[test]
fn of_two_look_alikes_the_one_naming_nothing_more_than_the_plan_wins() {
    let plan = support::fixture_plan("scan-existing-rdd");
    // the wider one sorts first, so an undecided choice would fall on it
    let mappings = support::map_against(&[("a/wider.py", WIDER), ("z/exact.py", EXACT)], &plan);
    for m in &mappings {
        let code = m.mapped_code.as_ref().unwrap();
        assert_eq!(
            code.file, "z/exact.py",
            "node {} {}",
            m.dag_node_id, m.node_name
        );
    }
    let scan = mappings.iter().find(|m| m.dag_node_id == "1").unwrap();
    assert_eq!(scan.mapped_code.as_ref().unwrap().lines, "6-6");
    assert_eq!(scan.alternatives[0].location.file, "a/wider.py");
}

/// Employees keyed by a string id.
const KEYED_BY_NAME: &str = r#"emp_data = [("emp1", "Raju", 2), ("emp2", "Manoj", 1), ("emp3", None, 5)]
emp_df = spark.createDataFrame(data = emp_data, schema = ["emp_id", "emp_name", "dept_id"])
dept_df = spark.createDataFrame([(1, "IT"), (2, "HR")], ["dept_id", "dept_name"])
emp_df.join(dept_df, "dept_id", "outer").show()
"#;

/// The same join over employees keyed by a number.
const KEYED_BY_NUMBER: &str = r#"emp_data = [(1, "Bel", 2), (2, "Thornie", 1), (3, "Chris", 5)]
emp_df = spark.createDataFrame(data = emp_data, schema = ["emp_id", "emp_name", "dept_id"])
dept_df = spark.createDataFrame([(1, "IT"), (2, "HR")], ["dept_id", "dept_name"])
emp_df.join(dept_df, "dept_id", "outer").show()
"#;

/// `KEYED_BY_NAME`'s join: its `emp_id` is no long.
const OUTER_JOIN_PLAN: &str = "\
== Physical Plan ==
* Project (8)
+- * SortMergeJoin FullOuter (7)
   :- * Sort (3)
   :  +- Exchange (2)
   :     +- * Scan ExistingRDD (1)
   +- * Sort (6)
      +- Exchange (5)
         +- * Scan ExistingRDD (4)


(1) Scan ExistingRDD [codegen id : 1]
Output [3]: [emp_id#0, emp_name#1, dept_id#2L]
Arguments: [emp_id#0, emp_name#1, dept_id#2L], MapPartitionsRDD[4] at applySchemaToPythonRDD at NativeMethodAccessorImpl.java:0, ExistingRDD, UnknownPartitioning(0)

(2) Exchange
Input [3]: [emp_id#0, emp_name#1, dept_id#2L]
Arguments: hashpartitioning(dept_id#2L, 200), ENSURE_REQUIREMENTS, [plan_id=30]

(3) Sort [codegen id : 2]
Input [3]: [emp_id#0, emp_name#1, dept_id#2L]
Arguments: [dept_id#2L ASC NULLS FIRST], false, 0

(4) Scan ExistingRDD [codegen id : 3]
Output [2]: [dept_id#6L, dept_name#7]
Arguments: [dept_id#6L, dept_name#7], MapPartitionsRDD[9] at applySchemaToPythonRDD at NativeMethodAccessorImpl.java:0, ExistingRDD, UnknownPartitioning(0)

(5) Exchange
Input [2]: [dept_id#6L, dept_name#7]
Arguments: hashpartitioning(dept_id#6L, 200), ENSURE_REQUIREMENTS, [plan_id=31]

(6) Sort [codegen id : 4]
Input [2]: [dept_id#6L, dept_name#7]
Arguments: [dept_id#6L ASC NULLS FIRST], false, 0

(7) SortMergeJoin [codegen id : 5]
Left keys [1]: [dept_id#2L]
Right keys [1]: [dept_id#6L]
Join type: FullOuter
Join condition: None

(8) Project [codegen id : 5]
Output [4]: [coalesce(dept_id#2L, dept_id#6L) AS dept_id#10L, emp_id#0, emp_name#1, dept_name#7]
Input [5]: [emp_id#0, emp_name#1, dept_id#2L, dept_id#6L, dept_name#7]
";

#[test]
fn of_two_look_alikes_building_rows_of_other_types_the_one_the_plans_types_fit_wins() {
    // the number-keyed one sorts first, so an undecided choice would fall on it
    let mappings = support::map_against(
        &[
            ("a/keyed_by_number.py", KEYED_BY_NUMBER),
            ("z/keyed_by_name.py", KEYED_BY_NAME),
        ],
        OUTER_JOIN_PLAN,
    );
    for m in &mappings {
        let code = m.mapped_code.as_ref().unwrap();
        assert_eq!(
            code.file, "z/keyed_by_name.py",
            "node {} {}",
            m.dag_node_id, m.node_name
        );
    }
    let employees = mappings.iter().find(|m| m.dag_node_id == "1").unwrap();
    assert_eq!(employees.mapped_code.as_ref().unwrap().lines, "2-2");
    assert!(employees.confidence >= 0.7, "{}", employees.confidence);
}
