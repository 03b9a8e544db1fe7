//! A plan captured while pytest ran reads files a test wrote under its `tmp_path`, a folder pytest
//! names after the test: `/tmp/pytest-of-me/pytest-3/test_full_pipeline0/silver`. A script
//! reading and checking the same layer alike explains the plan exactly as well, so without the
//! folder the choice is a coin toss; with it, the test that made the folder is the plan's code.

mod support;

const TEST: &str = "\
from pyspark.sql import SparkSession


def test_full_pipeline(tmp_path):
    spark = SparkSession.builder.getOrCreate()
    silver = spark.read.parquet(str(tmp_path / \"silver\"))
    assert silver.filter(silver.user_id.isNull()).count() == 0
";

const SCRIPT: &str = "\
from pyspark.sql import SparkSession

spark = SparkSession.builder.getOrCreate()
silver = spark.read.parquet(\"data/silver\")
print(silver.filter(silver.user_id.isNull()).count())
";

/// A filter of `silver` rows without a user, reading `location`.
fn plan(location: &str) -> String {
    format!(
        "== Physical Plan ==
* Filter (2)
+- * ColumnarToRow (3)
   +- Scan parquet  (1)


(1) Scan parquet 
Output [2]: [event_id#0, user_id#1]
Batched: true
Location: InMemoryFileIndex [file:{location}]
PushedFilters: [IsNull(user_id)]
ReadSchema: struct<event_id:string,user_id:string>

(3) ColumnarToRow [codegen id : 1]
Input [2]: [event_id#0, user_id#1]

(2) Filter [codegen id : 1]
Input [2]: [event_id#0, user_id#1]
Condition : isnull(user_id#1)
"
    )
}

fn files() -> [(&'static str, &'static str); 2] {
    [
        ("tests/test_pipeline.py", TEST),
        ("scripts/check.py", SCRIPT),
    ]
}

#[test]
fn a_scan_of_a_test_s_tmp_path_is_that_test_s() {
    let mappings = support::map_against(
        &files(),
        &plan("/tmp/pytest-of-me/pytest-3/test_full_pipeline0/silver"),
    );
    for (id, line) in [("1", "6-6"), ("2", "7-7")] {
        let node = mappings.iter().find(|m| m.dag_node_id == id).unwrap();
        let code = node.mapped_code.as_ref().unwrap();
        assert_eq!(
            (code.file.as_str(), code.lines.as_str()),
            ("tests/test_pipeline.py", line),
            "node {id}: {}",
            node.explanation
        );
    }
}

/// Asserts the scan of `location` is a coin toss between the look-alikes.
fn assert_coin_toss(location: &str) {
    let mappings = support::map_against(&files(), &plan(location));
    let scan = mappings.iter().find(|m| m.dag_node_id == "1").unwrap();
    assert!(
        scan.confidence <= 0.5,
        "{} {}",
        scan.confidence,
        scan.explanation
    );
}

#[test]
fn without_the_folder_the_look_alikes_are_a_coin_toss() {
    assert_coin_toss("/mnt/lake/silver");
}

#[test]
fn a_folder_no_test_of_the_repository_made_names_nothing() {
    // `test_other0`: no test of that name, so nothing is favoured.
    assert_coin_toss("/tmp/pytest-of-me/pytest-3/test_other0/silver");
}
