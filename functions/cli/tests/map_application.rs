//! `plan2code map` on an event log of a whole application: every SQL execution mapped as one
//! job, and the hints real logs carry (the submitted command, call sites, descriptions, a
//! Databricks notebook path, `--entry`) telling look-alike copies of a script apart.
//!
//! The logs are real-shaped (the events and properties Spark 4 writes, around the real plans of
//! `events/plans/`); the repository is the example project with an exact copy of its daily
//! revenue job in a second folder, so without a hint the plan fits both copies equally.

use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
const COPY: &str = "jobs/copy/daily_revenue.py";

fn plan_text(name: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join("events/plans").join(name)).expect("plan")
}

/// One SQL execution's events: start (with `description`, `details`), one job with
/// `properties`, end.
fn execution(id: u64, plan: &str, description: &str, properties: Value) -> Vec<Value> {
    let mut job_properties = json!({ "spark.sql.execution.id": id.to_string() });
    if let (Some(target), Some(extra)) = (job_properties.as_object_mut(), properties.as_object()) {
        target.extend(extra.clone());
    }
    vec![
        json!({
            "Event": "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart",
            "executionId": id, "rootExecutionId": id, "description": description,
            "details": "org.apache.spark.sql.classic.Dataset.collectToPython(Dataset.scala:2139)\npy4j.Gateway.invoke(Gateway.java:282)",
            "physicalPlanDescription": plan, "time": 1_700_000_000_000u64 + id * 1000,
            "modifiedConfigs": {}, "jobTags": [],
        }),
        json!({
            "Event": "SparkListenerJobStart", "Job ID": id, "Submission Time": 1,
            "Stage Infos": [], "Stage IDs": [], "Properties": job_properties,
        }),
        json!({
            "Event": "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd",
            "executionId": id, "time": 1_700_000_000_000u64 + id * 1000 + 1500,
        }),
    ]
}

fn environment(command: &str, spark: Value) -> Value {
    json!({
        "Event": "SparkListenerEnvironmentUpdate",
        "JVM Information": {}, "Spark Properties": spark, "Hadoop Properties": {},
        "System Properties": { "sun.java.command": command, "java.version": "17.0.15" },
        "Classpath Entries": {},
    })
}

fn write_log(dir: &Path, events: &[Value]) -> String {
    let path = dir.join("eventlog.jsonl");
    let mut text =
        String::from("{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"4.3.0\"}\n");
    for event in events {
        text.push_str(&event.to_string());
        text.push('\n');
    }
    std::fs::write(&path, text).expect("write log");
    path.display().to_string()
}

/// The example project, plus an exact copy of its daily revenue job at [`COPY`].
fn repo_with_copy(dir: &Path) -> String {
    let repo = dir.join("repo");
    copy_dir(&Path::new(ROOT).join("events/example-project"), &repo);
    std::fs::create_dir_all(repo.join("jobs/copy")).expect("mkdir");
    std::fs::copy(repo.join("jobs/daily_revenue.py"), repo.join(COPY)).expect("copy job");
    repo.display().to_string()
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir").flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

fn map(dir: &Path, log: &str, repo: &str, extra: &[&str]) -> (Value, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_plan2code"))
        .args(["map", "--plan", log, "--repo", repo, "--format", "json"])
        .args(extra)
        .env("PLAN2CODE_DATA_DIR", dir.join("data"))
        .env_remove("LLM_BASE_URL")
        .output()
        .expect("run plan2code");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    (
        serde_json::from_slice(&output.stdout).expect("Job JSON"),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn mappings(job: &Value) -> &Vec<Value> {
    job["result"]["mappings"].as_array().expect("mappings")
}

/// The files the user-written nodes of execution `id` were mapped to.
fn files_of(job: &Value, id: u64) -> Vec<String> {
    let mut files: Vec<String> = mappings(job)
        .iter()
        .filter(|m| m["executionId"] == id && m["nodeKind"] == "code")
        .filter_map(|m| m["mappedCode"]["file"].as_str().map(str::to_owned))
        .collect();
    files.sort();
    files.dedup();
    files
}

#[test]
fn every_execution_is_mapped_as_one_job_and_reported() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daily = plan_text("daily-revenue.formatted.txt");
    let top = plan_text("top-products.formatted.txt");
    let mut events = Vec::new();
    events.extend(execution(0, &daily, "collect at <stdin>:1", json!({})));
    events.extend(execution(1, &top, "collect at <stdin>:1", json!({})));
    // an execution whose plan the log does not hold is reported, not dropped
    events.push(json!({
        "Event": "org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart",
        "executionId": 2, "rootExecutionId": 1, "description": "nested", "details": "",
        "time": 1_700_000_000_000u64,
    }));
    let log = write_log(dir.path(), &events);
    let repo = Path::new(ROOT).join("events/example-project");
    let (job, _) = map(dir.path(), &log, &repo.display().to_string(), &[]);

    let nodes = |id: u64| {
        mappings(&job)
            .iter()
            .filter(|m| m["executionId"] == id)
            .count()
    };
    let daily_nodes = plan_text("daily-revenue.formatted.txt")
        .lines()
        .filter(|l| l.starts_with('(') && l.contains(')'))
        .count();
    assert_eq!(nodes(0), daily_nodes);
    assert!(nodes(1) > 0);
    assert_eq!(
        job["statistics"]["totalNodes"].as_u64(),
        Some((nodes(0) + nodes(1)) as u64)
    );
    assert_eq!(files_of(&job, 0), ["jobs/daily_revenue.py"]);
    // each execution lands where its plan on its own does
    let single = map(
        dir.path(),
        &Path::new(ROOT)
            .join("events/plans/top-products.formatted.txt")
            .display()
            .to_string(),
        &repo.display().to_string(),
        &[],
    )
    .0;
    let located = |job: &Value, execution: Option<u64>| -> Vec<(String, Value)> {
        mappings(job)
            .iter()
            .filter(|m| execution.is_none_or(|id| m["executionId"] == id))
            .map(|m| {
                (
                    m["dagNodeId"].as_str().unwrap_or("").to_owned(),
                    m["mappedCode"].clone(),
                )
            })
            .collect()
    };
    assert_eq!(located(&job, Some(1)), located(&single, None));

    let executions = job["executions"].as_array().expect("executions");
    assert_eq!(executions.len(), 3, "{executions:?}");
    assert_eq!(executions[0]["durationMs"], 1500);
    assert_eq!(executions[0]["nodeCount"], daily_nodes);
    assert_eq!(executions[2]["executionId"], 2);
    assert_eq!(executions[2]["rootExecutionId"], 1);
    assert!(
        executions[2]["skipped"]
            .as_str()
            .is_some_and(|why| why.contains("physicalPlanDescription")),
        "{executions:?}"
    );

    // `--execution` still picks, several at once too
    let (one, _) = map(
        dir.path(),
        &log,
        &repo.display().to_string(),
        &["--execution", "1"],
    );
    assert!(mappings(&one).iter().all(|m| m["executionId"] == 1));
    let (table, _) = {
        let output = Command::new(env!("CARGO_BIN_EXE_plan2code"))
            .args(["map", "--plan", &log, "--repo"])
            .arg(&repo)
            .env("PLAN2CODE_DATA_DIR", dir.path().join("data"))
            .output()
            .expect("run plan2code");
        assert!(output.status.success());
        (String::from_utf8_lossy(&output.stdout).into_owned(), ())
    };
    assert!(
        table.contains("== execution 0 · collect at <stdin>:1 · 1.5 s ·"),
        "{table}"
    );
    assert!(table.contains("== execution 2 · inside execution 1 · nested · not mapped:"));
    assert!(table.contains("2 executions, "), "{table}");
}

/// Map execution 0 of the daily revenue plan with `properties` on its job, `command` as the
/// submitted program and `description` on the execution; the files its nodes land in.
fn hinted(command: &str, description: &str, properties: Value, extra: &[&str]) -> Vec<String> {
    let dir = tempfile::tempdir().expect("temp dir");
    let repo = repo_with_copy(dir.path());
    let mut events = vec![environment(command, json!({ "spark.app.name": "daily" }))];
    events.extend(execution(
        0,
        &plan_text("daily-revenue.formatted.txt"),
        description,
        properties,
    ));
    let log = write_log(dir.path(), &events);
    let (job, _) = map(dir.path(), &log, &repo, extra);
    files_of(&job, 0)
}

const PLAIN_COMMAND: &str = "org.apache.spark.deploy.SparkSubmit --master local[2] pyspark-shell";
/// The description PySpark gives an action when no call site names the user's file.
const NO_CALL_SITE: &str = "collect at NativeMethodAccessorImpl.java:0";

/// [`hinted`] with nothing but the job's `properties` (and `extra` arguments) to go on.
fn hinted_by_job(properties: Value, extra: &[&str]) -> Vec<String> {
    hinted(PLAIN_COMMAND, NO_CALL_SITE, properties, extra)
}

#[test]
fn without_a_hint_the_copies_are_a_toss_up_and_nothing_is_confirmed_between_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let repo = repo_with_copy(dir.path());
    let log = write_log(
        dir.path(),
        &execution(
            0,
            &plan_text("daily-revenue.formatted.txt"),
            NO_CALL_SITE,
            json!({}),
        ),
    );
    let (job, _) = map(dir.path(), &log, &repo, &[]);
    let in_a_copy = |f: &str| f == COPY || f == "jobs/daily_revenue.py";
    // the nodes mapped into one copy with the other copy as an alternative
    let between_copies: Vec<&Value> = mappings(&job)
        .iter()
        .filter(|m| {
            let Some(file) = m["mappedCode"]["file"].as_str().filter(|f| in_a_copy(f)) else {
                return false;
            };
            m["alternatives"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|a| a["file"].as_str())
                .any(|f| in_a_copy(f) && f != file)
        })
        .collect();
    assert!(
        !between_copies.is_empty(),
        "no node weighs one copy against the other"
    );
    for m in between_copies {
        assert_ne!(m["confidenceStatus"], "confirmed", "{m}");
    }
}

/// The copy the plan lands in without a hint (the two fit exactly alike), and the other one:
/// what a hint must move it to.
fn unhinted_and_other() -> (String, &'static str) {
    let plain = hinted_by_job(json!({}), &[]);
    assert_eq!(plain.len(), 1, "{plain:?}");
    let other = if plain[0] == COPY {
        "jobs/daily_revenue.py"
    } else {
        COPY
    };
    (plain[0].clone(), other)
}

#[test]
fn the_submitted_script_names_the_copy() {
    let (_, other) = unhinted_and_other();
    let command = format!(
        "org.apache.spark.deploy.SparkSubmit --master local[2] /home/me/shop/{other} --day 2024-01-02"
    );
    assert_eq!(hinted(&command, NO_CALL_SITE, json!({}), &[]), [other]);
}

#[test]
fn a_job_call_site_names_the_copy_and_its_line() {
    let (_, other) = unhinted_and_other();
    let properties = json!({
        "callSite.short": format!("showString at /home/me/shop/{other}:33"),
        "callSite.long": format!("org.apache.spark.sql.Dataset.showString(Dataset.scala:316)\n/home/me/shop/{other}:33"),
    });
    assert_eq!(hinted_by_job(properties, &[]), [other]);
}

#[test]
fn the_execution_description_names_the_copy() {
    let (_, other) = unhinted_and_other();
    let description = format!("collect at /Workspace/Repos/me/shop/{other}:33");
    assert_eq!(hinted(PLAIN_COMMAND, &description, json!({}), &[]), [other]);
}

#[test]
fn a_databricks_notebook_path_names_the_copy() {
    let (_, other) = unhinted_and_other();
    let notebook = format!("/Repos/me/shop/{}", other.trim_end_matches(".py"));
    let properties = json!({ "spark.databricks.notebook.path": notebook });
    assert_eq!(hinted_by_job(properties, &[]), [other]);
}

#[test]
fn entry_names_the_copy_by_hand() {
    let (plain, other) = unhinted_and_other();
    for wanted in [other, plain.as_str()] {
        assert_eq!(hinted_by_job(json!({}), &["--entry", wanted]), [wanted]);
    }
}

#[test]
fn a_hint_outside_the_repository_or_naming_both_copies_is_ignored() {
    let (plain, _) = unhinted_and_other();
    // a path elsewhere, and a name both copies carry with no folder to choose between them
    let ignored = hinted(
        "org.apache.spark.deploy.SparkSubmit /opt/elsewhere/daily_report.py",
        "collect at /opt/elsewhere/daily_revenue.py:12",
        json!({}),
        &[],
    );
    assert_eq!(ignored, [plain]);
}

#[test]
fn the_same_query_run_twice_maps_each_run_to_its_own_copy_in_program_order() {
    let dir = tempfile::tempdir().expect("temp dir");
    let repo = dir.path().join("repo");
    copy_dir(&Path::new(ROOT).join("events/example-project"), &repo);
    // one script computing the daily revenue report twice, the second time after other work
    let job = std::fs::read_to_string(repo.join("jobs/daily_revenue.py")).expect("job");
    let body: String = job
        .lines()
        .skip_while(|l| !l.starts_with("def build_report"))
        .take_while(|l| !l.starts_with("if __name__"))
        .collect::<Vec<_>>()
        .join("\n");
    let twice = format!(
        "from pyspark.sql import functions as F\nfrom jobs.daily_revenue import load_orders\n\n\n{}\n\n{}\n",
        body.replace("def build_report", "def first_report"),
        body.replace("def build_report", "def second_report"),
    );
    std::fs::write(repo.join("jobs/twice.py"), &twice).expect("write");
    std::fs::remove_file(repo.join("jobs/daily_revenue.py")).expect("remove");
    let line_of = |name: &str| {
        twice
            .lines()
            .position(|l| l.starts_with(&format!("def {name}")))
            .expect("function") as u32
            + 1
    };
    let (first, second) = (line_of("first_report"), line_of("second_report"));

    let plan = plan_text("daily-revenue.formatted.txt");
    let mut events = execution(0, &plan, "collect at <stdin>:1", json!({}));
    events.extend(execution(1, &plan, "collect at <stdin>:2", json!({})));
    let log = write_log(dir.path(), &events);
    let (job, _) = map(dir.path(), &log, &repo.display().to_string(), &[]);
    // where execution `id`'s aggregate (node 12) landed
    let aggregate_line = |id: u64| -> u32 {
        let m = mappings(&job)
            .iter()
            .find(|m| m["executionId"] == id && m["dagNodeId"] == "12")
            .expect("node 12");
        assert_eq!(m["mappedCode"]["file"], "jobs/twice.py", "{m}");
        let lines = m["mappedCode"]["lines"].as_str().expect("lines");
        lines.split('-').next().unwrap().parse().expect("line")
    };
    let (a, b) = (aggregate_line(0), aggregate_line(1));
    assert!(
        first < a && a < second,
        "first run at {a}: {first}..{second}"
    );
    assert!(second < b, "second run at {b}, after {second}");
}

#[test]
fn a_compressed_rolled_log_maps_every_execution_across_its_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let daily = plan_text("daily-revenue.formatted.txt");
    let top = plan_text("top-products.formatted.txt");
    let rolled = dir.path().join("eventlog_v2_local-1700000000000");
    std::fs::create_dir_all(&rolled).expect("mkdir");
    for (n, (id, plan)) in [(0u64, &daily), (1, &top)].into_iter().enumerate() {
        let mut text = String::new();
        if n == 0 {
            text.push_str("{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"4.3.0\"}\n");
        }
        for event in execution(id, plan, "collect at <stdin>:1", json!({})) {
            text.push_str(&event.to_string());
            text.push('\n');
        }
        let file = rolled.join(format!("events_{}_local-1700000000000.zstd", n + 1));
        std::fs::write(file, zstd::encode_all(text.as_bytes(), 3).expect("zstd")).expect("write");
    }
    let repo = Path::new(ROOT).join("events/example-project");
    let (job, _) = map(
        dir.path(),
        &rolled.display().to_string(),
        &repo.display().to_string(),
        &[],
    );
    assert_eq!(files_of(&job, 0), ["jobs/daily_revenue.py"]);
    assert!(files_of(&job, 1).contains(&"jobs/top_products.py".to_owned()));
    let executions = job["executions"].as_array().expect("executions");
    assert_eq!(executions.len(), 2);
    assert!(executions.iter().all(|e| e["durationMs"] == 1500));
}
