//! The golden mapping corpus: every plan the example project produced
//! (`events/plans/*.formatted.txt`, from `events/example-project/generate_plans.py`), mapped onto
//! the example project, compared line by line with its expected mappings in
//! `tests/golden/mappings/<plan>.txt` — one line per node: id, name, kind, `file:lines`, band.
//!
//! Anyone tuning the heuristics sees exactly which mappings moved: the failure lists the lines that
//! differ. When a move is intended, rewrite the expectations and review the diff in git:
//!
//! ```text
//! PLAN2CODE_BLESS=1 cargo nextest run -p plan2code-cli --test golden_mappings
//! ```

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The example project's plans, by file stem, sorted.
fn example_plans() -> Vec<(String, PathBuf)> {
    let mut plans: Vec<(String, PathBuf)> = std::fs::read_dir(root().join("events/plans"))
        .expect("events/plans")
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".formatted.txt")?.to_owned();
            Some((stem, entry.path()))
        })
        .collect();
    plans.sort();
    plans
}

fn map_job(plan: &Path) -> Value {
    let data = tempfile::tempdir().expect("temp dir");
    let output = Command::new(env!("CARGO_BIN_EXE_plan2code"))
        .current_dir(root())
        .arg("map")
        .arg("--plan")
        .arg(plan)
        .args(["--repo", "events/example-project", "--format", "json"])
        .env("PLAN2CODE_DATA_DIR", data.path())
        .env_remove("LLM_BASE_URL")
        .output()
        .expect("run plan2code");
    assert!(
        output.status.success(),
        "map {}: {}",
        plan.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("Job JSON")
}

/// One line per mapping, in the plan's node order.
fn summarise(job: &Value) -> String {
    let mut lines = Vec::new();
    for m in job["result"]["mappings"].as_array().expect("mappings") {
        let location = match m["mappedCode"].as_object() {
            Some(code) => format!(
                "{}:{}",
                code["file"].as_str().unwrap_or("?"),
                code["lines"].as_str().unwrap_or("?")
            ),
            None => "-".to_owned(),
        };
        lines.push(format!(
            "{:>4}  {:<34} {:<6} {:<40} {}",
            m["dagNodeId"].as_str().unwrap_or("?"),
            m["nodeName"].as_str().unwrap_or("?"),
            m["nodeKind"].as_str().unwrap_or("?"),
            location,
            m["confidenceStatus"].as_str().unwrap_or("?"),
        ));
    }
    lines.join("\n") + "\n"
}

/// The lines of `expected` and `actual` that differ, as `-`/`+` pairs by position.
fn line_diff(expected: &str, actual: &str) -> String {
    let (e, a): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let mut out = String::new();
    for i in 0..e.len().max(a.len()) {
        let (old, new) = (e.get(i), a.get(i));
        if old != new {
            if let Some(old) = old {
                out.push_str(&format!("- {old}\n"));
            }
            if let Some(new) = new {
                out.push_str(&format!("+ {new}\n"));
            }
        }
    }
    out
}

#[test]
fn example_plans_map_as_the_golden_corpus_says() {
    let bless = std::env::var_os("PLAN2CODE_BLESS").is_some();
    let golden_dir = root().join("tests/golden/mappings");
    let plans = example_plans();
    assert!(
        plans.len() >= 5,
        "expected the example plans, found {plans:?}"
    );
    let mut moved = Vec::new();
    for (stem, plan) in &plans {
        let actual = summarise(&map_job(plan));
        let path = golden_dir.join(format!("{stem}.txt"));
        if bless {
            std::fs::create_dir_all(&golden_dir).expect("golden dir");
            std::fs::write(&path, &actual).expect("write golden");
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        if expected != actual {
            moved.push(format!("{stem}:\n{}", line_diff(&expected, &actual)));
        }
    }
    assert!(
        moved.is_empty(),
        "mappings moved (rewrite with PLAN2CODE_BLESS=1 if intended):\n{}",
        moved.join("\n")
    );
}
