//! A generic reader helper (`read_dataset(spark, file_path, file_type)`) that a test suite
//! calls with many files reads each of them: a scan of one of those files is the helper's
//! reader, not a look-alike reading a file of the same folder name elsewhere.

mod support;

const INGEST: &str = "\
def read_dataset(spark, file_path, file_type, file_configs={}):
    odf = spark.read.format(file_type).options(**file_configs).load(file_path)
    return odf
";

const IMPUTE: &str = "\
def compare(spark, idf, root_path):
    idf.write.parquet(root_path + \"intermediate/test_dataset\", mode=\"overwrite\")
    idf_null = spark.read.parquet(root_path + \"intermediate/test_dataset\")
    return idf_null
";

/// Six tests, each reading its own file through the helper.
fn tests() -> String {
    let mut text = String::from("from ingest import read_dataset\n");
    for (i, file) in [
        "./data/test_dataset/part-00001.parquet",
        "./data/geo/sample.csv",
        "./data/geo/null_sample.csv",
        "./data/geo/invalid_sample.csv",
        "./data/income/csv",
        "./data/time_series/productivity.csv",
    ]
    .iter()
    .enumerate()
    {
        let kind = if file.ends_with("parquet") {
            "parquet"
        } else {
            "csv"
        };
        text.push_str(&format!(
            "\n\ndef test_{i}(spark):\n    df = read_dataset(spark, \"{file}\", \"{kind}\")\n    assert df.count() > 0\n"
        ));
    }
    text
}

const PLAN: &str = "\
== Physical Plan ==
* ColumnarToRow (2)
+- Scan parquet  (1)


(1) Scan parquet 
Output [2]: [ifa#1, age#2]
Batched: true
Location: InMemoryFileIndex [file:/tmp/run/repo/data/test_dataset/part-00001.parquet]
ReadSchema: struct<ifa:string,age:int>

(2) ColumnarToRow [codegen id : 1]
Input [2]: [ifa#1, age#2]
";

#[test]
fn a_reader_helper_reads_every_file_its_callers_pass() {
    let tests = tests();
    let mappings = support::map_against(
        &[
            ("src/ingest.py", INGEST),
            ("src/impute.py", IMPUTE),
            ("tests/test_ingest.py", &tests),
        ],
        PLAN,
    );
    let scan = mappings.iter().find(|m| m.dag_node_id == "1").expect("1");
    let code = scan.mapped_code.as_ref().expect("mapped");
    assert_eq!(
        (code.file.as_str(), code.lines.as_str()),
        ("src/ingest.py", "2-2"),
        "{scan:#?}"
    );
}
