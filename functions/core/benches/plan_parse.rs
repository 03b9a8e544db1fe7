//! Plan parsing speed: `cargo bench -p plan2code-core --bench plan_parse`.
//!
//! Synthesises an event log of at least 10 MB by repeating the SQL events of the committed
//! fixture log (`tests/fixtures/plans/eventlog.jsonl`, real Spark 4.3.0 output) and of the
//! benchmark's logs (`bench/dev`, or `PLAN2CODE_BENCH_DIR`), giving every
//! copy distinct execution ids. Then times, best of several runs:
//!
//! * `list_executions` — one pass over every line;
//! * `parse_plan` of one execution — the same pass plus reading that execution's plan;
//! * parsing every formatted plan text of the log — the plan reader's own throughput.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use plan2code_core::plan::{ParseOptions, list_executions, parse_plan};

const TARGET_BYTES: usize = 10 * 1024 * 1024;

fn seed_logs() -> Vec<String> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut logs = vec![
        std::fs::read_to_string(manifest.join("../../tests/fixtures/plans/eventlog.jsonl"))
            .expect("fixture event log"),
    ];
    let bench = std::env::var_os("PLAN2CODE_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| manifest.join("../../bench/dev"));
    if let Ok(entries) = std::fs::read_dir(&bench) {
        for entry in entries.flatten() {
            if let Ok(text) = std::fs::read_to_string(entry.path().join("eventlog.jsonl")) {
                logs.push(text);
            }
        }
    }
    logs
}

/// Replace `"executionId":N` / `"executionId": N` with `N + offset` (and root ids alike).
fn shift_ids(line: &str, offset: u64) -> String {
    let mut out = String::with_capacity(line.len() + 16);
    let mut rest = line;
    while let Some(at) = rest.find("xecutionId\"") {
        let head = at + "xecutionId\"".len();
        out.push_str(&rest[..head]);
        rest = &rest[head..];
        let colon_len = rest.len() - rest.trim_start_matches([':', ' ']).len();
        out.push_str(&rest[..colon_len]);
        rest = &rest[colon_len..];
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        match rest[..digits].parse::<u64>() {
            Ok(id) => out.push_str(&(id + offset).to_string()),
            Err(_) => out.push_str(&rest[..digits]),
        }
        rest = &rest[digits..];
    }
    out.push_str(rest);
    out
}

fn synthesise() -> (String, u64) {
    let logs = seed_logs();
    let mut out = String::with_capacity(TARGET_BYTES + 1024 * 1024);
    let mut copy = 0u64;
    while out.len() < TARGET_BYTES {
        for log in &logs {
            if out.len() >= TARGET_BYTES {
                break;
            }
            for line in log.lines() {
                out.push_str(&shift_ids(line, copy * 100_000));
                out.push('\n');
            }
            copy += 1;
        }
    }
    (out, copy)
}

fn best_of(runs: usize, mut f: impl FnMut()) -> Duration {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn main() {
    let (log, copies) = synthesise();
    let mb = log.len() as f64 / (1024.0 * 1024.0);
    let executions = list_executions(&log).expect("list executions");
    let last = executions
        .last()
        .and_then(|e| e.execution_id)
        .expect("an execution");
    println!(
        "event log: {mb:.1} MB, {} executions ({copies} copies of the seed logs)",
        executions.len()
    );

    let listing = best_of(5, || {
        list_executions(&log).expect("list");
    });
    report("list_executions (every line)", mb, listing);

    let one = best_of(5, || {
        parse_plan(
            &log,
            &ParseOptions {
                execution_id: Some(last),
            },
        )
        .expect("parse one execution");
    });
    report("parse_plan, one execution", mb, one);

    // the plan reader alone: every execution's final plan text, as formatted input
    let plans: Vec<String> = log
        .lines()
        .filter(|l| {
            l.contains("SparkListenerSQLAdaptiveExecutionUpdate")
                || l.contains("SparkListenerSQLExecutionStart")
        })
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["physicalPlanDescription"].as_str().map(str::to_string))
        .collect();
    let plan_mb = plans.iter().map(String::len).sum::<usize>() as f64 / (1024.0 * 1024.0);
    let all = best_of(3, || {
        for plan in &plans {
            parse_plan(plan, &ParseOptions::default()).expect("parse plan text");
        }
    });
    println!("{} plan texts, {plan_mb:.1} MB", plans.len());
    report("parse every plan text (formatted)", plan_mb, all);
}

fn report(what: &str, mb: f64, took: Duration) {
    let secs = took.as_secs_f64();
    println!(
        "{what:<36} {:>8.1} ms  {:>7.1} MB/s",
        secs * 1000.0,
        mb / secs
    );
}
