//! `plan2code plan` on event logs as people have them: several executions, compressed.

use serde_json::Value;
use std::process::Command;

fn fixture_log() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/plans/eventlog.jsonl")
}

fn plan_json(path: &std::path::Path) -> Value {
    let output = Command::new(env!("CARGO_BIN_EXE_plan2code"))
        .arg("plan")
        .arg(path)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn a_log_with_several_executions_lists_every_one_with_its_nodes() {
    let doc = plan_json(&fixture_log());
    let executions = doc["executions"].as_array().expect("executions");
    assert!(executions.len() >= 3, "{doc}");
    for execution in executions {
        assert!(execution["id"].is_u64(), "{execution}");
        assert!(
            execution["nodes"].as_array().is_some_and(|n| !n.is_empty()),
            "{execution}"
        );
    }
}

#[test]
fn a_gzipped_log_reads_like_the_plain_one() {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join("eventlog.jsonl");
    std::fs::copy(fixture_log(), &copy).unwrap();
    assert!(Command::new("gzip").arg(&copy).status().unwrap().success());
    let gz = dir.path().join("eventlog.jsonl.gz");
    assert_eq!(plan_json(&gz), plan_json(&fixture_log()));
}

/// `-h` of every subcommand describes every flag (text after the flag on its line).
#[test]
fn every_flag_of_every_subcommand_is_described() {
    for command in ["map", "plan", "index", "serve", "cache"] {
        let output = Command::new(env!("CARGO_BIN_EXE_plan2code"))
            .args([command, "-h"])
            .output()
            .unwrap();
        let help = String::from_utf8_lossy(&output.stdout).into_owned();
        let options = help.split("Options:").nth(1).expect("an Options section");
        for line in options.lines().filter(|l| l.trim_start().starts_with('-')) {
            let words: Vec<&str> = line.split_whitespace().collect();
            // `--flag <VALUE>  description` or `-h, --help  Print help`
            let described = words
                .iter()
                .any(|w| !w.starts_with('-') && !w.starts_with('<'));
            assert!(
                described,
                "`{command} -h`: `{}` has no description",
                line.trim()
            );
        }
    }
}
