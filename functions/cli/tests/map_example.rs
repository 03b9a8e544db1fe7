//! `plan2code map` end to end on the bundled example project and its real Spark plans
//! (`events/example-project/generate_plans.py` produced them with PySpark 4.3).

use serde_json::Value;
use std::process::Command;

fn map(plan: &str) -> Value {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let store = tempfile::tempdir().expect("temp dir");
    let output = Command::new(env!("CARGO_BIN_EXE_plan2code"))
        .current_dir(root)
        .args([
            "map",
            "--plan",
            plan,
            "--repo",
            "events/example-project",
            "--format",
            "json",
        ])
        .env("PLAN2CODE_DATA_DIR", store.path())
        .env_remove("LLM_BASE_URL")
        .output()
        .expect("run plan2code");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("Job JSON")
}

/// `(file, lines)` of a node's mapping.
fn mapped(job: &Value, node: &str) -> (String, String) {
    let m = job["result"]["mappings"]
        .as_array()
        .expect("mappings")
        .iter()
        .find(|m| m["dagNodeId"] == node)
        .unwrap_or_else(|| panic!("node {node} missing"));
    let code = &m["mappedCode"];
    (
        code["file"].as_str().unwrap_or("").to_owned(),
        code["lines"].as_str().unwrap_or("").to_owned(),
    )
}

#[test]
fn dataframe_job_maps_to_its_statements() {
    let job = map("events/plans/daily-revenue.formatted.txt");
    assert_eq!(job["status"], "completed");
    let file = "jobs/daily_revenue.py".to_owned();
    // The shipped-orders filter, the join, the aggregation and the final sort.
    assert_eq!(mapped(&job, "3"), (file.clone(), "15-16".into()));
    assert_eq!(mapped(&job, "10"), (file.clone(), "18-18".into()));
    assert_eq!(mapped(&job, "12"), (file.clone(), "20-27".into()));
    assert_eq!(mapped(&job, "25"), (file.clone(), "20-27".into()));
    // The shuffle feeding the aggregation is the planner's: it maps to the groupBy statement.
    assert_eq!(mapped(&job, "13"), (file, "20-27".into()));
    // Engine wrappers are labelled as such.
    let engine = job["result"]["mappings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| {
            m["nodeName"]
                .as_str()
                .is_some_and(|n| n.starts_with("ShuffleQueryStage"))
        })
        .all(|m| m["nodeKind"] == "engine");
    assert!(engine);
    let stats = &job["statistics"];
    assert_eq!(
        stats["totalNodes"],
        job["result"]["mappings"].as_array().unwrap().len()
    );
}

#[test]
fn sql_job_maps_to_its_clauses() {
    let job = map("events/plans/top-products.formatted.txt");
    let file = "jobs/top_products.py".to_owned();
    // WHERE conjuncts, the JOIN and ORDER BY … LIMIT land on their own lines.
    assert_eq!(mapped(&job, "3"), (file.clone(), "11-11".into()));
    assert_eq!(mapped(&job, "8"), (file.clone(), "12-12".into()));
    assert_eq!(mapped(&job, "9"), (file.clone(), "10-10".into()));
    assert_eq!(mapped(&job, "16"), (file, "14-14".into()));
}

#[test]
fn a_malformed_plan_fails_with_its_position() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("bad.txt");
    std::fs::write(
        &plan,
        "== Physical Plan ==\n* Project (2)\n+- * Scan ExistingRDD (\n",
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_plan2code"))
        .args(["map", "--plan"])
        .arg(&plan)
        .args(["--repo", dir.path().to_str().unwrap()])
        .env("PLAN2CODE_DATA_DIR", dir.path())
        .output()
        .unwrap();
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("line 3"), "{stderr}");
}

#[test]
fn correlated_subquery_nodes_map_inside_the_subquery() {
    // The subquery repeats the outer join and status filter; the decorrelated plan's inner branch
    // must land on the subquery's own lines, the outer branch on the outer query's.
    let job = map("events/plans/big-spenders.formatted.txt");
    let file = "jobs/big_spenders.py".to_owned();
    // Outer query: scan of `orders o` (its `FROM` line or the reader that registered the view —
    // the benchmark's gold accepts both), its status filter, the o ⋈ c join.
    let scan = mapped(&job, "1");
    assert!(
        scan == (file.clone(), "12-12".into()) || scan == (file.clone(), "29-29".into()),
        "{scan:?}"
    );
    assert_eq!(mapped(&job, "3"), (file.clone(), "15-15".into()));
    assert_eq!(mapped(&job, "10"), (file.clone(), "14-14".into()));
    // Subquery: scan of `orders o2` (its `FROM` line or the reader, as the outer query's), its
    // status filter, the o2 ⋈ c2 join, the AVG.
    let scan = mapped(&job, "12");
    assert!(
        scan == (file.clone(), "18-18".into()) || scan == (file.clone(), "29-29".into()),
        "{scan:?}"
    );
    assert_eq!(mapped(&job, "14"), (file.clone(), "21-21".into()));
    assert_eq!(mapped(&job, "18"), (file.clone(), "20-20".into()));
    assert_eq!(mapped(&job, "24"), (file, "17-17".into()));
}

#[test]
fn join_order_picks_the_flow_whose_tree_fits() {
    // Two functions read the same tables and join on the same keys in opposite orders; the plan
    // came from `details_by_product` (orders ⋈ products, then ⋈ customers).
    let job = map("events/plans/order-details.formatted.txt");
    let file = "jobs/order_details.py".to_owned();
    assert_eq!(mapped(&job, "1"), (file.clone(), "17-17".into())); // orders
    assert_eq!(mapped(&job, "4"), (file.clone(), "19-19".into())); // products
    assert_eq!(mapped(&job, "11"), (file.clone(), "18-18".into())); // customers
    assert_eq!(mapped(&job, "9"), (file.clone(), "20-20".into()));
    assert_eq!(mapped(&job, "16"), (file, "20-20".into()));
}

#[test]
fn look_alike_helpers_are_told_apart_by_their_predicates() {
    // Five helpers take the customers DataFrame as a parameter (their scans are read by the
    // caller) and differ by one call each; every plan must land on its own helper's line.
    let file = "jobs/missing_values.py".to_owned();
    for (plan, line) in [
        ("customers-without-region", "12-12"),     // isNull()
        ("customers-with-region", "16-16"),        // isNotNull(): not an inferred constraint
        ("customers-with-complete-rows", "20-20"), // na.drop(subset=…)
        ("region-parts", "24-24"),                 // explode
        ("region-parts-keeping-empty", "28-28"),   // explode_outer
    ] {
        let job = map(&format!("events/plans/{plan}.formatted.txt"));
        assert_eq!(mapped(&job, "3"), (file.clone(), line.into()), "{plan}");
        // The scan is the caller's reader of customers.parquet, not the filter's line.
        let (scan_file, _) = mapped(&job, "1");
        assert_ne!(scan_file, file, "{plan}");
    }
}

/// Sources that cannot work fail at once, with their name and real cause on stderr.
#[test]
fn unusable_sources_fail_fast_with_their_cause() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain");
    std::fs::create_dir(&plain).unwrap();
    let repo = dir.path().join("repo");
    std::fs::create_dir(&repo).unwrap();
    for args in [
        vec!["init", "-q", "-b", "main"],
        vec![
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@x",
            "commit",
            "-q",
            "--allow-empty",
            "-m",
            "x",
        ],
    ] {
        assert!(
            Command::new("git")
                .args(&args)
                .current_dir(&repo)
                .status()
                .unwrap()
                .success()
        );
    }
    let cases = [
        (
            vec!["--repo".to_owned(), "/nonexistent/plan2code".to_owned()],
            "INVALID_INPUT: invalid repository source: /nonexistent/plan2code is not a directory",
        ),
        (
            vec!["--repo".to_owned(), format!("file://{}", plain.display())],
            "is not a git repository (file:// URLs need one",
        ),
        (
            vec![
                "--repo".to_owned(),
                format!("file://{}", repo.display()),
                "--branch".to_owned(),
                "nosuch".to_owned(),
            ],
            "branch nosuch not found",
        ),
        (
            vec![
                "--repo".to_owned(),
                repo.display().to_string(),
                "--branch".to_owned(),
                "nosuch".to_owned(),
            ],
            "has main checked out, not nosuch",
        ),
    ];
    for (args, expected) in cases {
        let started = std::time::Instant::now();
        let output = Command::new(env!("CARGO_BIN_EXE_plan2code"))
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .args(["map", "--plan", "events/plans/daily-revenue.formatted.txt"])
            .args(&args)
            .env("PLAN2CODE_DATA_DIR", dir.path().join("data"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        // Nothing here can heal: no retry with backoff.
        assert!(
            started.elapsed() < std::time::Duration::from_secs(5),
            "{args:?} was retried"
        );
    }
}

/// A one-shot `map` keeps nothing of its job: after the first run (which caches the index) the
/// data dir does not change, however many runs follow.
#[test]
fn repeated_maps_leave_nothing_behind() {
    let data = tempfile::tempdir().unwrap();
    let run = || {
        let output = Command::new(env!("CARGO_BIN_EXE_plan2code"))
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .args(["map", "--plan", "events/plans/daily-revenue.formatted.txt"])
            .args(["--repo", "events/example-project", "--format", "json"])
            .env("PLAN2CODE_DATA_DIR", data.path())
            .output()
            .unwrap();
        assert!(output.status.success());
    };
    let listing = || {
        let mut files = Vec::new();
        let mut stack = vec![data.path().to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(dir).unwrap().flatten() {
                let path = entry.path();
                let size = entry.metadata().map(|m| m.len()).unwrap_or(0);
                if path.is_dir() {
                    stack.push(path.clone());
                }
                files.push((path, size));
            }
        }
        files.sort();
        files
    };
    run();
    let after_first = listing();
    assert!(
        after_first
            .iter()
            .all(|(p, _)| !p.to_string_lossy().contains("/jobs"))
    );
    for _ in 0..3 {
        run();
    }
    assert_eq!(listing(), after_first);
}

/// Off a terminal, progress is a line per stage on stderr; `-q` silences it.
#[test]
fn progress_is_a_line_per_stage_off_a_terminal_and_quiet_with_q() {
    let data = tempfile::tempdir().unwrap();
    let stderr_of = |quiet: bool| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_plan2code"));
        command
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .args(["map", "--plan", "events/plans/daily-revenue.formatted.txt"])
            .args(["--repo", "events/example-project"])
            .env("PLAN2CODE_DATA_DIR", data.path());
        if quiet {
            command.arg("-q");
        }
        let output = command.output().unwrap();
        assert!(output.status.success());
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let progress = stderr_of(false);
    assert!(
        progress.contains("load_repo_context: done") && progress.contains("mapping 42 nodes"),
        "{progress}"
    );
    assert_eq!(stderr_of(true), "");
}

/// The table names what each scan reads and where each node maps (file:lines, symbol, the
/// snippet's first line), its columns line up, and `--explain` adds each node's explanation and
/// alternatives.
#[test]
fn the_table_tells_scans_apart_and_shows_symbol_and_snippet_in_aligned_columns() {
    let data = tempfile::tempdir().unwrap();
    let table_of = |explain: bool| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_plan2code"));
        command
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .args([
                "map",
                "-q",
                "--plan",
                "events/plans/daily-revenue.formatted.txt",
            ])
            .args(["--repo", "events/example-project"])
            .env("PLAN2CODE_DATA_DIR", data.path());
        if explain {
            command.arg("--explain");
        }
        let output = command.output().unwrap();
        assert!(output.status.success());
        String::from_utf8(output.stdout).unwrap()
    };
    let table = table_of(false);
    let lines: Vec<&str> = table.lines().collect();
    let header = lines[0];
    for column in ["node", "code", "symbol", "conf", "status", "snippet"] {
        assert!(header.contains(column), "{header}");
    }
    let row = |id: &str| {
        *lines
            .iter()
            .find(|l| l.split_whitespace().next() == Some(id))
            .unwrap_or_else(|| panic!("row {id} in\n{table}"))
    };
    // the two scans read different files, and say so
    assert!(row("1").contains("Scan parquet orders.parquet"), "{table}");
    assert!(
        row("5").contains("Scan parquet customers.parquet"),
        "{table}"
    );
    assert!(
        row("1").contains("jobs.daily_revenue.load_orders"),
        "{table}"
    );
    assert!(row("1").contains("spark.read.parquet(path)"), "{table}");
    // rows follow the plan's tree, indented by depth, AQE's two plans in labelled sections
    let node_at = header.find("node").unwrap();
    let node_cell = |id: &str| row(id).get(node_at..).unwrap_or("");
    assert!(node_cell("42").starts_with("AdaptiveSparkPlan"), "{table}");
    assert!(node_cell("26").starts_with("  ResultQueryStage"), "{table}");
    assert!(node_cell("41").starts_with("Sort"), "{table}");
    let position = |needle: &str| lines.iter().position(|l| l.contains(needle)).unwrap();
    assert!(position("── final plan ──") < position(row("42")));
    assert!(position(row("1")) < position("── initial plan"));
    assert!(position("── initial plan") < position(row("41")));
    // every node row's status starts where the header's does
    let status_at = header.find("status").unwrap();
    let node_rows: Vec<&&str> = lines[1..]
        .iter()
        .take_while(|l| !l.is_empty())
        .filter(|l| !l.contains("──"))
        .collect();
    assert_eq!(node_rows.len(), 42);
    for line in node_rows {
        let word = line.get(status_at..).unwrap_or("");
        assert!(
            ["confirmed", "probable", "uncertain"]
                .iter()
                .any(|s| word.starts_with(s)),
            "misaligned: {line}"
        );
    }
    // a formatted plan has no metrics: no cost column, no hot lines
    assert!(!header.contains("cost"), "{header}");
    assert!(!table.contains("hot lines"), "{table}");
    let explained = table_of(true);
    assert!(explained.contains("\n1 Scan parquet: "), "{explained}");
    assert!(explained.contains("    or jobs/"), "{explained}");
}

/// A plan mapped against code that did not produce it says so: no node is `confirmed`.
#[test]
fn a_plan_against_unrelated_code_confirms_nothing() {
    let data = tempfile::tempdir().unwrap();
    let repo = data.path().join("unrelated");
    std::fs::create_dir_all(&repo).unwrap();
    std::fs::write(
        repo.join("clicks.py"),
        "from pyspark.sql import SparkSession\n\
         spark = SparkSession.builder.getOrCreate()\n\
         events = spark.read.json(\"/data/events\")\n\
         clicks = events.filter(events.kind == \"click\").groupBy(\"user\").count()\n\
         clicks.write.parquet(\"/out/clicks\")\n",
    )
    .unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_plan2code"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .args(["map", "-q", "--format", "json"])
        .args([
            "--plan",
            "events/plans/daily-revenue.formatted.txt",
            "--repo",
        ])
        .arg(&repo)
        .env("PLAN2CODE_DATA_DIR", data.path().join("data"))
        .env_remove("LLM_BASE_URL")
        .output()
        .unwrap();
    assert!(output.status.success());
    let job: Value = serde_json::from_slice(&output.stdout).unwrap();
    let mappings = job["result"]["mappings"].as_array().unwrap();
    assert_eq!(mappings.len(), 42);
    let confirmed: Vec<&Value> = mappings
        .iter()
        .filter(|m| m["confidenceStatus"] == "confirmed")
        .collect();
    assert!(confirmed.is_empty(), "{confirmed:?}");
}

#[test]
fn sarif_puts_every_mapped_node_at_its_file_and_lines() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let store = tempfile::tempdir().expect("temp dir");
    let run = |format: &str| -> Value {
        let output = Command::new(env!("CARGO_BIN_EXE_plan2code"))
            .current_dir(root)
            .args([
                "map",
                "--plan",
                "events/plans/daily-revenue.formatted.txt",
                "--repo",
                "events/example-project",
                "--format",
                format,
                "-q",
            ])
            .env("PLAN2CODE_DATA_DIR", store.path())
            .env_remove("LLM_BASE_URL")
            .output()
            .expect("run plan2code");
        assert!(output.status.success());
        serde_json::from_slice(&output.stdout).expect("JSON")
    };
    let (job, sarif) = (run("json"), run("sarif"));
    assert_eq!(sarif["version"], "2.1.0");
    let run0 = &sarif["runs"][0];
    assert_eq!(run0["tool"]["driver"]["name"], "plan2code");
    let results = run0["results"].as_array().expect("results");
    let mapped: Vec<&Value> = job["result"]["mappings"]
        .as_array()
        .expect("mappings")
        .iter()
        .filter(|m| m["mappedCode"].is_object())
        .collect();
    assert_eq!(results.len(), mapped.len());
    for (result, mapping) in results.iter().zip(&mapped) {
        assert_eq!(result["properties"]["dagNodeId"], mapping["dagNodeId"]);
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(
            location["artifactLocation"]["uri"],
            mapping["mappedCode"]["file"]
        );
        let region = &location["region"];
        let lines = format!("{}-{}", region["startLine"], region["endLine"]);
        assert_eq!(lines, mapping["mappedCode"]["lines"].as_str().unwrap());
        assert_eq!(result["level"], "note");
        assert!(
            result["message"]["text"]
                .as_str()
                .unwrap()
                .starts_with(mapping["nodeName"].as_str().unwrap())
        );
    }
}

/// Milliseconds of a cost cell (`324 ms · 7 rows`, `1.2 s`); 0 when it has no time.
fn cost_ms(cell: &str) -> f64 {
    let first = cell.split(" · ").next().unwrap_or("").trim();
    match first.split_once(' ') {
        Some((n, "ms")) => n.parse().unwrap(),
        Some((n, "s")) => n.parse::<f64>().unwrap() * 1000.0,
        Some((n, "min")) => n.parse::<f64>().unwrap() * 60_000.0,
        _ => 0.0,
    }
}

/// A plan with metrics (the Spark UI's SQL JSON, an event log): each row shows its operator's
/// measured cost, and the costliest lines follow, ranked by time, each the sum of the operators
/// mapped there.
#[test]
fn the_table_shows_costs_and_hot_lines_when_the_plan_has_metrics() {
    for plan in [
        "events/plans/daily-revenue.ui.json",
        "events/plans/daily-revenue.eventlog",
    ] {
        let data = tempfile::tempdir().unwrap();
        let output = Command::new(env!("CARGO_BIN_EXE_plan2code"))
            .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .args(["map", "-q", "--plan", plan])
            .args(["--repo", "events/example-project"])
            .env("PLAN2CODE_DATA_DIR", data.path())
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        assert!(output.status.success(), "{plan}");
        let table = String::from_utf8(output.stdout).unwrap();
        assert!(!table.contains('\u{1b}'), "no colour off a terminal");
        let lines: Vec<&str> = table.lines().collect();

        // every node's time, keyed as the hot lines name nodes: `12`, or `3:12` in an application
        let mut node_ms = std::collections::HashMap::new();
        let mut execution: Option<String> = None;
        let mut columns: Option<(usize, usize)> = None;
        for line in &lines {
            if let Some(heading) = line.strip_prefix("== execution ") {
                execution = heading.split_whitespace().next().map(str::to_owned);
                columns = None;
            } else if line.starts_with(" id ") {
                columns = Some((
                    line.find("cost").expect(line),
                    line.find("snippet").unwrap(),
                ));
            } else if line.starts_with("hot lines") {
                break;
            } else if let (Some((cost_at, snippet_at)), Some(id)) =
                (columns, line.split_whitespace().next())
            {
                let key = match &execution {
                    Some(exec) => format!("{exec}:{id}"),
                    None => id.to_owned(),
                };
                node_ms.insert(key, cost_ms(line.get(cost_at..snippet_at).unwrap_or("")));
            }
        }
        assert!(node_ms.values().any(|&ms| ms > 0.0), "{plan}: {table}");
        assert!(
            lines
                .iter()
                .any(|l| l.contains("BroadcastExchange") && l.contains("shuffled")),
            "{plan}: an exchange shows what it moved: {table}"
        );

        let start = lines
            .iter()
            .position(|l| l.starts_with("hot lines"))
            .expect("hot lines");
        let hot_header = lines[start + 1];
        let (cost_col, nodes_col, line_col) = (
            hot_header.find("cost").unwrap(),
            hot_header.find("nodes").unwrap(),
            hot_header.find("line").unwrap(),
        );
        let hot: Vec<&str> = lines[start + 2..]
            .iter()
            .take_while(|l| !l.is_empty())
            .copied()
            .collect();
        assert!(
            hot.iter().any(|l| l.contains("jobs/daily_revenue.py")),
            "{plan}: {table}"
        );
        let times: Vec<f64> = hot
            .iter()
            .map(|l| cost_ms(&l[cost_col..nodes_col]))
            .collect();
        assert!(
            times.windows(2).all(|w| w[0] >= w[1]),
            "{plan}: ranked by time: {times:?}"
        );
        for line in hot {
            let nodes = line[nodes_col..line_col].trim();
            if nodes.contains(" more") {
                continue;
            }
            let ids: Vec<&str> = nodes
                .split(", ")
                .map(|n| n.rsplit_once('#').unwrap().1)
                .collect();
            let sum: f64 = ids.iter().map(|id| node_ms[*id]).sum();
            let shown = cost_ms(&line[cost_col..nodes_col]);
            assert!(
                (sum - shown).abs() <= ids.len() as f64,
                "{plan}: {line}: nodes sum to {sum} ms"
            );
        }
    }
}
