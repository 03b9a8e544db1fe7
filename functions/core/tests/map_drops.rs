//! Dropping columns: the plan's pruning Project says which input columns it leaves out, and
//! `drop(…)` names them, so a drop of one column is told from a drop of two over the same frame
//! (and from the frame's creation, which names every column the Project keeps).

mod support;

const SCRIPT: &str = "\
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
data = [(1, \"Halley\", \"Sales\", \"https://diigo.com\")]
df = spark.createDataFrame(data, schema=[\"id\", \"name\", \"department\", \"url\"])
df.drop(\"department\", \"url\").show()
df.drop(\"url\").show()
";

/// `drop(cols)` of the script's frame, leaving `kept` of `id, name, department, url`.
fn plan(kept: &[&str]) -> String {
    let ids = |names: &[&str]| {
        names
            .iter()
            .map(|n| {
                format!(
                    "{n}#{}",
                    ["id", "name", "department", "url"]
                        .iter()
                        .position(|c| c == n)
                        .unwrap()
                        + 164
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let all = ["id", "name", "department", "url"];
    format!(
        "== Physical Plan ==
* Project (2)
+- * Scan ExistingRDD (1)


(1) Scan ExistingRDD [codegen id : 1]
Output [4]: [{all}]
Arguments: [{all}], MapPartitionsRDD[94] at applySchemaToPythonRDD at NativeMethodAccessorImpl.java:0, ExistingRDD, UnknownPartitioning(0)

(2) Project [codegen id : 1]
Output [{n}]: [{kept}]
Input [4]: [{all}]
",
        all = ids(&all),
        n = kept.len(),
        kept = ids(kept),
    )
}

fn project_line(kept: &[&str]) -> String {
    let mappings = support::map_against(&[("drops.py", SCRIPT)], &plan(kept));
    let project = mappings.iter().find(|m| m.dag_node_id == "2").unwrap();
    project.mapped_code.as_ref().unwrap().lines.clone()
}

#[test]
fn a_project_leaving_out_one_column_is_the_drop_of_that_column() {
    // Without the columns it leaves out, the frame's creation names all it keeps.
    assert_eq!(project_line(&["id", "name", "department"]), "7-7");
}

#[test]
fn a_project_leaving_out_two_columns_is_the_drop_of_both() {
    // The drop of `url` alone drops too little: it is no conflict, but the plan names more.
    assert_eq!(project_line(&["id", "name"]), "6-6");
}
