//! `spark.range(…)`: the plan's `Range (0, 1, step=1, …)` prints the bounds the code wrote, so a
//! range of other bounds (`spark.range(10)`) is other code, however alike the rest of its query;
//! and only a range makes a Range, so rows written in memory with an `id` column are not its code
//! either.

mod support;

/// A script selecting one constant date over `source`.
fn dates_over(source: &str) -> String {
    format!(
        "\
from pyspark.sql import SparkSession
from pyspark.sql.functions import lit, to_date

spark = SparkSession.builder.getOrCreate()
dates = {source}.select(to_date(lit(\"2017-12-11\")).alias(\"date\"))
dates.show()
"
    )
}

/// The plan of `dates_over(spark.range(1))`.
const PLAN: &str = "\
== Physical Plan ==
* Project (2)
+- * Range (1)


(1) Range [codegen id : 1]
Output [1]: [id#0L]
Arguments: Range (0, 1, step=1, splits=Some(2))

(2) Project [codegen id : 1]
Output [1]: [2017-12-11 AS date#2]
Input [1]: [id#0L]
";

/// Where the Range maps among `one.py` (the range of one) and `other.py` (`other_source`), and
/// whether every alternative trails it by more than a tenth.
fn range_against(other_source: &str) -> (String, bool) {
    let one = dates_over("spark.range(1)");
    let other = dates_over(other_source);
    let mappings = support::map_against(&[("one.py", &one), ("other.py", &other)], PLAN);
    let range = mappings.iter().find(|m| m.dag_node_id == "1").unwrap();
    let (file, lines) = support::code_at(&mappings, "1");
    let clear = range
        .alternatives
        .iter()
        .all(|a| a.confidence < range.confidence - 0.1);
    (format!("{file}:{lines}"), clear)
}

#[test]
fn a_range_of_other_bounds_is_other_code() {
    assert_eq!(
        range_against("spark.range(10)"),
        ("one.py:5-5".to_owned(), true)
    );
}

#[test]
fn rows_written_in_memory_make_no_range() {
    assert_eq!(
        range_against("spark.createDataFrame([(7,)], [\"id\"])"),
        ("one.py:5-5".to_owned(), true)
    );
}
