//! Renaming columns: `withColumnRenamed` renames one column and keeps the others under their
//! own names; `toDF(…)` names every column anew. A Project keeping a column under its own name
//! (`id AS student_id, name AS student_name, state`) is not a `toDF` that renames `state` too.

mod support;

const SCRIPT: &str = "\
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
df = spark.createDataFrame([(1, \"Ann\", \"CA\")], [\"id\", \"name\", \"state\"])
df.withColumnRenamed(\"id\", \"student_id\").withColumnRenamed(\"name\", \"student_name\").show()
df.toDF(\"student_id\", \"student_name\", \"student_address\").show()
";

/// The script's frame projected to `outputs`.
fn plan(outputs: &str) -> String {
    format!(
        "\
== Physical Plan ==
* Project (2)
+- * Scan ExistingRDD (1)


(1) Scan ExistingRDD [codegen id : 1]
Output [3]: [id#115L, name#116, state#117]
Arguments: [id#115L, name#116, state#117], MapPartitionsRDD[94] at applySchemaToPythonRDD at NativeMethodAccessorImpl.java:0, ExistingRDD, UnknownPartitioning(0)

(2) Project [codegen id : 1]
Output [3]: [{outputs}]
Input [3]: [id#115L, name#116, state#117]
"
    )
}

fn project_line(outputs: &str) -> String {
    let mappings = support::map_against(&[("renames.py", SCRIPT)], &plan(outputs));
    support::code_at(&mappings, "2").1
}

#[test]
fn a_column_kept_under_its_own_name_was_not_renamed_by_to_df() {
    assert_eq!(
        project_line("id#115L AS student_id#139L, name#116 AS student_name#140, state#117"),
        "5-5"
    );
}

#[test]
fn every_column_named_anew_is_the_to_df() {
    assert_eq!(
        project_line(
            "id#115L AS student_id#139L, name#116 AS student_name#140, state#117 AS student_address#141"
        ),
        "6-6"
    );
}
