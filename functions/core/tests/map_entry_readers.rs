//! A function checking the frame it is given (`run_silver_checks(silver_df)`), called after the
//! same read in the job and in its end-to-end test: the plan of the check does not say which
//! caller's read it scanned. Given the test as the entry (`--entry`), the scan is the test's read;
//! given nothing, the job's (the code under test) — unless the plan names the test: it scans the
//! folder pytest made for `test_full_pipeline_10k`. A real Spark 4.3 plan (`bench/tested`).

mod support;

const QUALITY: &str = r#"from pyspark.sql import functions as F


def check_null_pct(df):
    row = df.agg(
        F.sum(F.col("event_id").isNull().cast("long")).alias("event_id"),
        F.sum(F.col("user_id").isNull().cast("long")).alias("user_id"),
        F.sum(F.col("event_type").isNull().cast("long")).alias("event_type"),
        F.sum(F.col("event_ts").isNull().cast("long")).alias("event_ts"),
    ).first()
    return row


def run_silver_checks(df, quality):
    return check_null_pct(df)
"#;

const JOB: &str = r#"from pipeline.quality import run_silver_checks


def run(spark, settings):
    silver_df = spark.read.format("delta").load(settings.paths.silver)
    run_silver_checks(silver_df, settings.quality)
"#;

const END_TO_END_TEST: &str = r#"from pipeline.quality import run_silver_checks


def test_full_pipeline(spark, settings):
    silver_df = spark.read.format("delta").load(settings.paths.silver)
    run_silver_checks(silver_df, settings.quality)
"#;

fn scan_from(entry: &[&str]) -> (String, String) {
    scan_of_test(END_TO_END_TEST, entry)
}

/// … with `test` as the end-to-end test.
fn scan_of_test(test: &str, entry: &[&str]) -> (String, String) {
    let plan = support::bench_plan("tested", "etl-test-pipeline-e2e-013");
    let mappings = support::map_from_entry(
        &[
            ("pipeline/job.py", JOB),
            ("pipeline/quality.py", QUALITY),
            ("tests/test_e2e.py", test),
        ],
        entry,
        &plan,
    );
    let aggregate = support::code_at(&mappings, "4");
    assert_eq!(
        aggregate,
        ("pipeline/quality.py".to_owned(), "5-10".to_owned())
    );
    support::code_at(&mappings, "1")
}

#[test]
fn the_scan_a_checking_function_borrows_is_its_caller_in_the_entry_file() {
    assert_eq!(
        scan_from(&["tests/test_e2e.py"]),
        ("tests/test_e2e.py".to_owned(), "5-5".to_owned())
    );
}

#[test]
fn without_an_entry_the_scan_is_the_job_under_test() {
    assert_eq!(
        scan_from(&[]),
        ("pipeline/job.py".to_owned(), "5-5".to_owned())
    );
}

#[test]
fn without_an_entry_a_test_the_plan_s_pytest_folder_names_is_the_scan_s() {
    // The plan reads `/tmp/pytest-of-root/pytest-2/test_full_pipeline_10k0/silver`.
    let test = END_TO_END_TEST.replace("def test_full_pipeline(", "def test_full_pipeline_10k(");
    assert_eq!(
        scan_of_test(&test, &[]),
        ("tests/test_e2e.py".to_owned(), "5-5".to_owned())
    );
}
