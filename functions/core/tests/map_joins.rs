//! Joins on column names and on a condition, side by side in one script: the plan of a join on
//! names keeps one key column (a Project over the join), which the condition's join never does.

mod support;

use plan2code_core::pipeline::semantics::plan_semantics;
use plan2code_core::plan::{ParseOptions, parse_plan};

const SCRIPT: &str = "\
emp = spark.createDataFrame(emps, [\"emp_id\", \"name\"])
addr = spark.createDataFrame(addrs, [\"emp_id\", \"city\"])
emp.join(addr, [\"emp_id\"]).show()
emp.join(addr, emp[\"emp_id\"] == addr[\"emp_id\"]).show()
";

const PLAN: &str = "\
== Physical Plan ==
* Project (10)
+- * SortMergeJoin Inner (9)
   :- * Sort (4)
   :  +- Exchange (3)
   :     +- * Filter (2)
   :        +- * Scan ExistingRDD (1)
   +- * Sort (8)
      +- Exchange (7)
         +- * Filter (6)
            +- * Scan ExistingRDD (5)


(1) Scan ExistingRDD [codegen id : 1]
Output [2]: [emp_id#1L, name#2]
Arguments: [emp_id#1L, name#2], MapPartitionsRDD[1] at applySchemaToPythonRDD at <unknown>:0, ExistingRDD, UnknownPartitioning(0)

(2) Filter [codegen id : 1]
Input [2]: [emp_id#1L, name#2]
Condition : isnotnull(emp_id#1L)

(3) Exchange
Input [2]: [emp_id#1L, name#2]
Arguments: hashpartitioning(emp_id#1L, 200), ENSURE_REQUIREMENTS, [plan_id=1]

(4) Sort [codegen id : 2]
Input [2]: [emp_id#1L, name#2]
Arguments: [emp_id#1L ASC NULLS FIRST], false, 0

(5) Scan ExistingRDD [codegen id : 3]
Output [2]: [emp_id#5L, city#6]
Arguments: [emp_id#5L, city#6], MapPartitionsRDD[2] at applySchemaToPythonRDD at <unknown>:0, ExistingRDD, UnknownPartitioning(0)

(6) Filter [codegen id : 3]
Input [2]: [emp_id#5L, city#6]
Condition : isnotnull(emp_id#5L)

(7) Exchange
Input [2]: [emp_id#5L, city#6]
Arguments: hashpartitioning(emp_id#5L, 200), ENSURE_REQUIREMENTS, [plan_id=2]

(8) Sort [codegen id : 4]
Input [2]: [emp_id#5L, city#6]
Arguments: [emp_id#5L ASC NULLS FIRST], false, 0

(9) SortMergeJoin [codegen id : 5]
Left keys [1]: [emp_id#1L]
Right keys [1]: [emp_id#5L]
Join type: Inner
Join condition: None

(10) Project [codegen id : 5]
Output [3]: [emp_id#1L, name#2, city#6]
Input [4]: [emp_id#1L, name#2, emp_id#5L, city#6]
";

fn joined_on_names(signature: &[(String, String)]) -> bool {
    signature
        .iter()
        .any(|(k, v)| k == "literal" && v == "using")
}

#[test]
fn a_project_keeping_one_key_marks_its_join_as_one_on_names() {
    let graph = parse_plan(PLAN, &ParseOptions::default()).unwrap();
    let semantics = plan_semantics(&graph);
    let of = |id: &str| {
        &semantics
            .iter()
            .find(|s| s.dag_node_id == id)
            .unwrap()
            .signature
    };
    assert!(joined_on_names(of("9")), "{:?}", of("9"));
    // Without the Project the plan keeps both keys: a join on a condition.
    let graph = parse_plan(&plan_keeping_both_keys(), &ParseOptions::default()).unwrap();
    let semantics = plan_semantics(&graph);
    let join = semantics.iter().find(|s| s.dag_node_id == "9").unwrap();
    assert!(!joined_on_names(&join.signature), "{:?}", join.signature);
}

/// Whether the join (9) of `plan`, a variant of [`PLAN`], reads as a join on names.
fn on_names(plan: &str) -> bool {
    let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
    let semantics = plan_semantics(&graph);
    let join = semantics.iter().find(|s| s.dag_node_id == "9").unwrap();
    joined_on_names(&join.signature)
}

#[test]
fn names_joined_in_another_case_are_one_name() {
    // `join(addr, ["EMP_ID"])` of `emp_id` and `EMP_ID`: Spark resolves names case-insensitively
    // and keeps the left side's spelling.
    assert!(on_names(&PLAN.replace("emp_id#5L", "EMP_ID#5L")));
    // A full outer join on names merges the pair of keys into one.
    let merged = PLAN.replace(
        "Output [3]: [emp_id#1L, name#2, city#6]",
        "Output [3]: [coalesce(emp_id#1L, emp_id#5L) AS emp_id#9L, name#2, city#6]",
    );
    assert!(on_names(&merged));
    // A `withColumn` Spark collapsed into the projection makes it no such join's.
    let computed = PLAN.replace(
        "Output [3]: [emp_id#1L, name#2, city#6]",
        "Output [3]: [emp_id#1L, upper(name#2) AS name#9, city#6]",
    );
    assert!(!on_names(&computed));
    // A `select` naming every column in an order of its own (the right side's before the
    // left's) is a join on a condition followed by that select.
    let reordered = PLAN.replace(
        "Output [3]: [emp_id#1L, name#2, city#6]",
        "Output [3]: [emp_id#1L, city#6, name#2]",
    );
    assert!(!on_names(&reordered));
    // A join on other keys than the names both sides hold (`dept = emp_id`) is on a condition,
    // whatever the Project above it keeps.
    let other_keys = PLAN.replace("Left keys [1]: [emp_id#1L]", "Left keys [1]: [name#2]");
    assert!(!on_names(&other_keys));
}

#[test]
fn a_join_on_names_keeps_the_key_of_the_side_spark_keeps() {
    // `SELECT b.emp_id, name, city FROM a JOIN b ON a.emp_id = b.emp_id`: the right side's key,
    // which an inner join on names never keeps, selected over a join on a condition.
    let right_key = PLAN.replace(
        "Output [3]: [emp_id#1L, name#2, city#6]",
        "Output [3]: [emp_id#5L, name#2, city#6]",
    );
    assert!(!on_names(&right_key));
    // A right outer join on names keeps the right side's key, and only that one.
    let right_outer = |plan: &str| {
        plan.replace("SortMergeJoin Inner (9)", "SortMergeJoin RightOuter (9)")
            .replace("Join type: Inner", "Join type: RightOuter")
    };
    assert!(on_names(&right_outer(&right_key)));
    assert!(!on_names(&right_outer(PLAN)));
}

/// [`PLAN`] without the Project: the query returns the join as it is, both `emp_id`s included.
fn plan_keeping_both_keys() -> String {
    let bare = PLAN
        .replace("* Project (10)\n+- ", "")
        .replace("\n   :- ", "\n:- ")
        .replace("\n   :  ", "\n:  ")
        .replace("\n   +- ", "\n+- ")
        .replace("\n      ", "\n   ");
    bare[..bare.find("(10) Project").unwrap()].to_owned()
}

#[test]
fn a_join_returned_with_both_keys_maps_to_the_join_on_a_condition() {
    // The join on names comes first in the script: order alone would pick it.
    let mappings = support::map_against(&[("joins.py", SCRIPT)], &plan_keeping_both_keys());
    let join = mappings.iter().find(|m| m.dag_node_id == "9").unwrap();
    let code = join.mapped_code.as_ref().unwrap();
    assert_eq!(code.lines, "4-4", "{}", join.explanation);
}

#[test]
fn the_join_keeping_one_key_maps_to_the_join_on_names() {
    let mappings = support::map_against(&[("joins.py", SCRIPT)], PLAN);
    let join = mappings.iter().find(|m| m.dag_node_id == "9").unwrap();
    let code = join.mapped_code.as_ref().unwrap();
    assert_eq!(code.lines, "3-3", "{}", join.explanation);
    // The Project keeping one key is the join's own: it maps with it and says so.
    let project = mappings.iter().find(|m| m.dag_node_id == "10").unwrap();
    let code = project.mapped_code.as_ref().unwrap();
    assert_eq!(code.lines, "3-3", "{}", project.explanation);
    assert!(
        project.explanation.contains("join on names"),
        "{}",
        project.explanation
    );
}

/// Two frames of the same columns, unioned (and de-duplicated): only the order of the union's
/// inputs tells their scans apart (`a.union(b)`: `a` first). The plan is Spark's
/// (`tests/fixtures/plans`).
const UNION_SCRIPT: &str = "\
first_rows = spark.createDataFrame([(\"Ann\", \"IT\"), (\"Bo\", \"HR\")], [\"name\", \"dept\"])
more_rows = spark.createDataFrame([(\"Cy\", \"IT\"), (\"Di\", \"Ops\")], [\"name\", \"dept\"])
first_rows.union(more_rows).distinct().show()
";

#[test]
fn a_unions_inputs_map_in_order() {
    let plan = support::fixture_plan("union-of-look-alike-frames");
    let mappings = support::map_against(&[("union.py", UNION_SCRIPT)], &plan);
    let lines = |id: &str| {
        let m = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
        m.mapped_code.as_ref().unwrap().lines.clone()
    };
    assert_eq!(lines("3"), "3-3", "the union");
    assert_eq!(lines("1"), "1-1", "its first input is the receiver's");
    assert_eq!(lines("2"), "2-2", "its second the argument's");
}

#[test]
fn a_bare_union_is_found_through_its_inputs() {
    // Nothing above the union names anything: it is found as the chain its inputs feed.
    let script = UNION_SCRIPT.replace(".distinct()", "");
    let mappings = support::map_against(
        &[("union.py", &script)],
        &support::fixture_plan("union-of-look-alike-frames-bare"),
    );
    let lines = |id: &str| {
        let m = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
        m.mapped_code.as_ref().unwrap().lines.clone()
    };
    assert_eq!(lines("3"), "3-3", "the union");
    assert_eq!(lines("1"), "1-1");
    assert_eq!(lines("2"), "2-2");
}

#[test]
fn union_by_name_pads_its_inputs_with_nulls_of_its_own() {
    let script = "\
first_rows = spark.createDataFrame([(\"Ann\", \"IT\"), (\"Bo\", \"HR\")], [\"name\", \"dept\"])
floors = spark.createDataFrame([(\"Ed\", 3)], [\"name\", \"floor\"])
first_rows.unionByName(floors, allowMissingColumns=True).show()
";
    let mappings = support::map_against(
        &[("union.py", script)],
        &support::fixture_plan("union-by-name-missing-columns"),
    );
    let m = |id: &str| mappings.iter().find(|m| m.dag_node_id == id).unwrap();
    // (2) and (4) add `null AS floor` / `null AS dept`: the union's doing, mapped with it.
    for id in ["2", "4", "5"] {
        let code = m(id).mapped_code.as_ref().unwrap();
        assert_eq!(code.lines, "3-3", "node {id}: {}", m(id).explanation);
    }
    assert!(
        m("2").explanation.contains("filled with nulls"),
        "{}",
        m("2").explanation
    );
    assert_eq!(m("3").mapped_code.as_ref().unwrap().lines, "2-2");
}

/// The same two-key join written twice: both conditions in the join, and one in the join with
/// the other in a filter after it (the plan of the second: Spark pushes the filter's equality
/// into the join, ahead of the join's own key: `Left keys [section, dept_id]`).
const PUSHED_SCRIPT: &str = r#"from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
students = spark.createDataFrame([(1, 1, "A"), (2, 2, "B")], ["id", "dept_id", "section"])
depts = spark.createDataFrame([(1, "A", "Maths"), (2, "B", "Arts")], ["dept_id", "section", "dept_name"])

both = (students.dept_id == depts.dept_id) & (students.section == depts.section)
students.join(depts, both, "inner").show()

first = students.dept_id == depts.dept_id
second = students.section == depts.section
joined = students.join(depts, first, "inner")
joined = joined.where(second)
joined.show()
"#;

#[test]
fn a_filter_pushed_into_a_join_puts_its_keys_first() {
    let mappings = support::map_against(
        &[("joins.py", PUSHED_SCRIPT)],
        &support::fixture_plan("join-then-filter-on-both-sides"),
    );
    let join = mappings.iter().find(|m| m.dag_node_id == "13").unwrap();
    assert_eq!(join.node_name, "SortMergeJoin");
    let code = join.mapped_code.as_ref().unwrap();
    assert_eq!(code.lines, "12-12", "{}", join.explanation);
    // the join naming both conditions itself is the runner-up, not the answer
    assert!(
        join.alternatives.iter().any(|a| a.location.lines == "8-8"),
        "{:?}",
        join.alternatives
    );
}

/// adidas' `get_no_of_published_books_and_authors.sql`: an equality join of two subqueries on
/// both their keys, whose select list keeps the right side's keys (`books.publish_year, …`).
const BOOKS_AND_AUTHORS: &str = "\
SELECT
books.publish_year,
books.publish_month,
no_of_authors,
no_of_books_published
FROM
(SELECT publish_year,
publish_month,
count(*) as no_of_authors
FROM (
SELECT explode(authors.key) as author,
publish_year,
publish_month,
key
FROM {parsed_table_name}
WHERE cast(publish_year as int) between 1950 and 1970
) GROUP BY publish_year, publish_month
) authors
INNER JOIN
(
SELECT publish_year,
publish_month,
count(*) as no_of_books_published
FROM (
SELECT publish_year,
publish_month,
key
FROM {parsed_table_name}
WHERE cast(publish_year as int) between 1950 and 1970)
GROUP BY publish_year, publish_month
) books
ON authors.publish_year=books.publish_year
AND authors.publish_month=books.publish_month
ORDER BY books.publish_year, books.publish_month";

#[test]
fn a_select_keeping_the_right_side_s_keys_is_no_join_on_names() {
    // A real Spark 4.3 plan: (24) is the Project over the join (23), under the ORDER BY's sort.
    let plan = support::bench_plan("sqlfiles", "adi-main-006");
    let mappings = support::map_against(
        &[(
            "etl/sql/get_no_of_published_books_and_authors.sql",
            BOOKS_AND_AUTHORS,
        )],
        &plan,
    );
    let project = mappings.iter().find(|m| m.dag_node_id == "24").unwrap();
    assert!(
        !project.explanation.contains("join on names"),
        "{}",
        project.explanation
    );
    assert_eq!(support::code_at(&mappings, "24").1, "34-34");
}

/// A filter written after a join, on one side's column: Spark pushes it down through the join,
/// rebuilding the join under the filter's origin, so the null check the rebuilt join infers for
/// the other side's key is the filter's code too (real plan: `join-then-filter-pushed-through`).
const FILTER_AFTER_JOIN: &str = r#"from pyspark.sql import SparkSession
import pyspark.sql.functions as F

spark = SparkSession.builder.getOrCreate()
pq = spark.read.parquet("/tmp/plan2code-fixture-data/orders.parquet")
cust = spark.read.parquet("/tmp/plan2code-fixture-data/customers.parquet")
joined = pq.join(cust, pq.o_id == cust.c_id, "inner")
joined.where(F.col("c_region") != "EU").select("o_id", "c_name").show()
"#;

#[test]
fn a_joins_null_checks_are_the_code_of_a_later_filter_pushed_through_it() {
    let mappings = support::map_against(
        &[("report.py", FILTER_AFTER_JOIN)],
        &support::fixture_plan("join-then-filter-pushed-through"),
    );
    let lines = |id: &str| support::lines_and_explanation(&mappings, id);
    // the join is the join's
    assert_eq!(lines("11").0, "7-7", "{}", lines("11").1);
    // `isnotnull(o_id)` on the orders' side, inferred by the rebuilt join, is the filter's
    assert_eq!(lines("3").0, "8-8", "{}", lines("3").1);
    // and so is the filter pushed to the customers' side
    assert_eq!(lines("7").0, "8-8", "{}", lines("7").1);
}

/// A join reading an aggregate on its grouping key: the null check the join infers for that key is
/// pushed below the aggregate, which Spark rebuilds under the join's origin — the partial aggregate
/// and the check are the join's code, the final aggregate the grouping's (real plan:
/// `join-of-an-aggregate-on-its-key`).
const JOIN_OF_AN_AGGREGATE: &str = r#"from pyspark.sql import SparkSession
import pyspark.sql.functions as F

spark = SparkSession.builder.getOrCreate()
pq = spark.read.parquet("/tmp/plan2code-fixture-data/orders.parquet")
cust = spark.read.parquet("/tmp/plan2code-fixture-data/customers.parquet")
totals = pq.groupBy("o_name").agg(F.sum("o_amount").alias("total"))
cust.join(totals, cust.c_name == totals.o_name).select("c_id", "total").show()
"#;

#[test]
fn an_aggregate_a_join_reads_on_its_key_is_rebuilt_under_the_join() {
    let mappings = support::map_against(
        &[("totals.py", JOIN_OF_AN_AGGREGATE)],
        &support::fixture_plan("join-of-an-aggregate-on-its-key"),
    );
    let lines = |id: &str| support::lines_and_explanation(&mappings, id);
    assert_eq!(lines("15").0, "8-8", "{}", lines("15").1);
    // the partial aggregate and the check below it: the join's
    assert_eq!(lines("10").0, "8-8", "{}", lines("10").1);
    assert_eq!(lines("8").0, "8-8", "{}", lines("8").1);
    // the final aggregate: the grouping's
    assert_eq!(lines("14").0, "7-7", "{}", lines("14").1);
}

/// A SQL join over a view a DataFrame registered: the null check the join infers for its key is
/// pushed down below the frame's `withColumn`, and keeps the JOIN's origin — unlike a DataFrame
/// join's checks, which serve the operator above them (real plan: `sql-join-over-a-frames-view`).
const SQL_JOIN_OVER_A_VIEW: &str = r#"from pyspark.sql import SparkSession
import pyspark.sql.functions as F

spark = SparkSession.builder.getOrCreate()
cust = spark.read.parquet("/tmp/plan2code-fixture-data/customers.parquet")
pq = spark.read.parquet("/tmp/plan2code-fixture-data/orders.parquet")
cust.withColumn("c_tag", F.upper("c_name")).createOrReplaceTempView("tagged")
pq.createOrReplaceTempView("orders_v")
spark.sql("""SELECT t.c_tag, SUM(o.o_amount) AS total
FROM tagged t
JOIN orders_v o ON o.o_cust = t.c_id
GROUP BY t.c_tag""").show()
"#;

#[test]
fn a_sql_joins_check_pushed_into_a_frames_view_is_the_joins() {
    let mappings = support::map_against(
        &[("report.py", SQL_JOIN_OVER_A_VIEW)],
        &support::fixture_plan("sql-join-over-a-frames-view"),
    );
    let lines = |id: &str| support::lines_and_explanation(&mappings, id);
    // the join, its check below the view's projection, and that projection
    assert_eq!(lines("9").0, "11-11", "{}", lines("9").1);
    assert_eq!(lines("3").0, "11-11", "{}", lines("3").1);
    assert_eq!(lines("4").0, "7-7", "{}", lines("4").1);
}
