//! Counts mapped end to end: a notebook counting per country twice, once the values of a column
//! (`agg(count("country").alias("count"))`) and, a cell later, the rows
//! (`groupBy("country").count()`). Both name the key, the function and the result `count`; only
//! the plan's `count(1)` or `count(country)` tells them apart — whichever comes first.

mod support;

const NOTEBOOK: &str = "\
from pyspark.sql.functions import count

df = spark.createDataFrame(data, schema=[\"id\", \"name\", \"country\"])

df.groupBy(\"country\").agg(count(\"country\").alias(\"count\")).show()

df.select(\"country\").groupBy(\"country\").count().show()
";

/// The plan of a per-country count whose function is `function` (`count(1)` or
/// `count(country)`) and whose result is named `name`.
fn plan(function: &str, name: &str) -> String {
    format!(
        "\
== Physical Plan ==
* HashAggregate (4)
+- Exchange (3)
   +- * HashAggregate (2)
      +- * Project (1)
         +- * Scan ExistingRDD (0)


(0) Scan ExistingRDD [codegen id : 1]
Output [3]: [id#1L, name#2, country#3]
Arguments: [id#1L, name#2, country#3], MapPartitionsRDD[9] at applySchemaToPythonRDD at <unknown>:0, ExistingRDD, UnknownPartitioning(0)

(1) Project [codegen id : 1]
Output [1]: [country#3]
Input [3]: [id#1L, name#2, country#3]

(2) HashAggregate [codegen id : 1]
Input [1]: [country#3]
Keys [1]: [country#3]
Functions [1]: [partial_{function}]
Aggregate Attributes [1]: [count#10L]
Results [2]: [country#3, count#11L]

(3) Exchange
Input [2]: [country#3, count#11L]
Arguments: hashpartitioning(country#3, 200), ENSURE_REQUIREMENTS, [plan_id=7]

(4) HashAggregate [codegen id : 2]
Input [2]: [country#3, count#11L]
Keys [1]: [country#3]
Functions [1]: [{function}]
Aggregate Attributes [1]: [{function}#9L]
Results [2]: [country#3, {function}#9L AS {name}#8L]
"
    )
}

/// Lines each aggregate maps to.
fn aggregate_lines(plan: &str) -> Vec<String> {
    aggregate_lines_in(NOTEBOOK, plan)
}

fn aggregate_lines_in(notebook: &str, plan: &str) -> Vec<String> {
    let mappings = support::map_against(&[("counts.py", notebook)], plan);
    ["2", "4"]
        .iter()
        .map(|id| {
            let m = mappings.iter().find(|m| m.dag_node_id == *id).unwrap();
            m.mapped_code.as_ref().expect("mapped").lines.clone()
        })
        .collect()
}

#[test]
fn a_count_of_rows_maps_to_the_grouped_count_not_a_count_of_the_key() {
    assert_eq!(aggregate_lines(&plan("count(1)", "count")), ["7-7", "7-7"]);
}

#[test]
fn a_count_of_a_columns_values_maps_to_the_count_naming_that_column() {
    assert_eq!(
        aggregate_lines(&plan("count(country#3)", "count")),
        ["5-5", "5-5"]
    );
}

#[test]
fn an_unaliased_sql_count_is_named_as_the_plan_names_its_result() {
    // The plan's result keeps the name Spark makes up, `count(country)`: the SQL that gave it no
    // alias, not the count named `count` before it.
    let notebook = "\
df = spark.createDataFrame(data, schema=[\"id\", \"name\", \"country\"])
df.createOrReplaceTempView(\"people\")
df.groupBy(\"country\").agg(count(\"country\").alias(\"count\")).show()
spark.sql(\"SELECT country, COUNT(country) FROM people GROUP BY country\").show()
";
    let plan = plan("count(country#3)", "count(country)");
    assert_eq!(aggregate_lines_in(notebook, &plan), ["4-4", "4-4"]);
}

#[test]
fn a_count_whose_result_leaves_a_key_out_is_the_sql_not_the_grouping_returning_it() {
    // `df.groupBy("origin", "year").count()` returns both keys; the plan's result returns
    // `origin` and the count only, as the SQL selecting `origin` and grouping by both does.
    let notebook = "\
df = spark.createDataFrame(data, schema=[\"model\", \"origin\", \"year\"])
df.groupBy(\"origin\", \"year\").count().show()
df.createOrReplaceTempView(\"cars\")
spark.sql(\"SELECT origin, count(1) AS count FROM cars GROUP BY origin, year\").show()
";
    let plan = "\
== Physical Plan ==
* HashAggregate (4)
+- Exchange (3)
   +- * HashAggregate (2)
      +- * Project (1)
         +- * Scan ExistingRDD (0)


(0) Scan ExistingRDD [codegen id : 1]
Output [3]: [model#1, origin#2, year#3L]
Arguments: [model#1, origin#2, year#3L], MapPartitionsRDD[9] at applySchemaToPythonRDD at <unknown>:0, ExistingRDD, UnknownPartitioning(0)

(1) Project [codegen id : 1]
Output [2]: [origin#2, year#3L]
Input [3]: [model#1, origin#2, year#3L]

(2) HashAggregate [codegen id : 1]
Input [2]: [origin#2, year#3L]
Keys [2]: [origin#2, year#3L]
Functions [1]: [partial_count(1)]
Aggregate Attributes [1]: [count#10L]
Results [3]: [origin#2, year#3L, count#11L]

(3) Exchange
Input [3]: [origin#2, year#3L, count#11L]
Arguments: hashpartitioning(origin#2, year#3L, 200), ENSURE_REQUIREMENTS, [plan_id=7]

(4) HashAggregate [codegen id : 2]
Input [3]: [origin#2, year#3L, count#11L]
Keys [2]: [origin#2, year#3L]
Functions [1]: [count(1)]
Aggregate Attributes [1]: [count(1)#9L]
Results [2]: [origin#2, count(1)#9L AS count#8L]
";
    assert_eq!(aggregate_lines_in(notebook, plan), ["4-4", "4-4"]);
}
