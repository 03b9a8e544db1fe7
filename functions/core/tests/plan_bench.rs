//! Every plan of the DEV benchmark in all four forms, checked against the case's gold: each gold
//! node is a node of the graph with that id, a compatible name and the same code/engine kind, and
//! every id the form shows is a node.
//!
//! The plans are the repository's own copy, `bench/dev` (refreshed by `scripts/refresh-bench`),
//! or the directory `PLAN2CODE_BENCH_DIR` names (the test command points it at
//! `../shared/bench` when that is present). A missing benchmark fails these tests: they are the
//! contract with the scorer.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use plan2code_core::plan::{
    NodeKind, OperatorFamily, ParseOptions, PlanGraph, PlanSection, parse_plan,
};
use serde_json::Value;

fn bench_dir() -> PathBuf {
    let dir = std::env::var_os("PLAN2CODE_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/dev"));
    assert!(
        dir.join("manifest.json").is_file(),
        "benchmark not found at {} (set PLAN2CODE_BENCH_DIR)",
        dir.display()
    );
    dir
}

struct Case {
    id: String,
    files: BTreeMap<String, PathBuf>,
    gold: Value,
}

fn cases() -> Vec<Case> {
    let dir = bench_dir();
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("manifest.json")).expect("manifest"),
    )
    .expect("manifest json");
    let cases = manifest["cases"].as_array().expect("cases");
    assert!(
        cases.len() > 100,
        "expected the full DEV set, found {} cases",
        cases.len()
    );
    cases
        .iter()
        .map(|c| {
            let files = c["plan_files"]
                .as_object()
                .expect("plan_files")
                .iter()
                .map(|(k, v)| (k.clone(), dir.join(v.as_str().expect("path"))))
                .collect();
            let gold_path = dir.join(c["gold_file"].as_str().expect("gold_file"));
            let gold = serde_json::from_str(&std::fs::read_to_string(gold_path).expect("gold"))
                .expect("gold json");
            Case {
                id: c["id"].as_str().expect("id").to_string(),
                files,
                gold,
            }
        })
        .collect()
}

fn parse_form(case: &Case, form: &str) -> Result<PlanGraph, String> {
    let path = &case.files[form];
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse_plan(&text, &ParseOptions::default()).map_err(|e| format!("{}: {e}", case.id))
}

fn names_compatible(gold: &str, graph: &plan2code_core::plan::PlanNode) -> bool {
    let name = graph.name.as_str();
    name == gold
        || name.starts_with(gold)
        || gold.starts_with(name)
        // the UI shows a reused exchange as the exchange it reuses
        || (gold == "ReusedExchange" && graph.family == OperatorFamily::Exchange)
}

/// Check every gold node keyed by `id_key` against the graph; returns failures.
fn check_gold(case: &Case, graph: &PlanGraph, id_key: &str) -> Vec<String> {
    let mut failures = Vec::new();
    let mut gold_ids = BTreeSet::new();
    for g in case.gold["nodes"].as_array().expect("gold nodes") {
        let Some(id) = g[id_key].as_u64() else {
            continue;
        };
        gold_ids.insert(id.to_string());
        let gold_name = g["nodeName"].as_str().unwrap_or_default();
        let Some(idx) = graph.node_by_id(&id.to_string()) else {
            failures.push(format!("{}: {id_key} {id} ({gold_name}) missing", case.id));
            continue;
        };
        let node = &graph.nodes[idx];
        if !names_compatible(gold_name, node) {
            failures.push(format!(
                "{}: node {id} is `{}`, gold says `{gold_name}`",
                case.id, node.name
            ));
        }
        let kind = if g["kind"] == "engine" {
            NodeKind::Engine
        } else {
            NodeKind::Code
        };
        if node.node_kind != kind {
            failures.push(format!(
                "{}: node {id} `{}` is {:?}, gold says {kind:?}",
                case.id, node.name, node.node_kind
            ));
        }
    }
    let graph_ids: BTreeSet<String> = graph.nodes.iter().map(|n| n.id.to_string()).collect();
    if id_key == "formattedId" && graph_ids != gold_ids {
        failures.push(format!(
            "{}: ids differ: only in graph {:?}, only in gold {:?}",
            case.id,
            graph_ids.difference(&gold_ids).collect::<Vec<_>>(),
            gold_ids.difference(&graph_ids).collect::<Vec<_>>()
        ));
    }
    failures
}

fn run_form(form: &str, check: impl Fn(&Case, &PlanGraph) -> Vec<String>) {
    let mut failures = Vec::new();
    let cases = cases();
    for case in &cases {
        match parse_form(case, form) {
            Ok(graph) => failures.extend(check(case, &graph)),
            Err(e) => failures.push(e),
        }
    }
    assert!(
        failures.is_empty(),
        "{} problems over {} cases ({form}):\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// One test per plan form, each checked against the gold ids it carries.
macro_rules! bench_form {
    ($test:ident, $form:literal, $check:expr) => {
        #[test]
        fn $test() {
            run_form($form, $check);
        }
    };
}

bench_form!(
    formatted_plans_match_gold_ids_names_and_kinds,
    "formatted",
    |case, graph| check_gold(case, graph, "formattedId")
);

bench_form!(
    event_logs_match_gold_ids_names_and_kinds,
    "eventlog",
    |case, graph| {
        let mut failures = check_gold(case, graph, "formattedId");
        if graph.execution.execution_id != case.gold["execution_id"].as_u64() {
            failures.push(format!(
                "{}: execution id {:?}",
                case.id, graph.execution.execution_id
            ));
        }
        if graph.execution.call_site.is_none() {
            failures.push(format!("{}: no call site", case.id));
        }
        failures
    }
);

bench_form!(
    ui_json_matches_gold_ids_names_and_kinds,
    "ui",
    |case, graph| {
        let mut failures = check_gold(case, graph, "uiNodeId");
        let text = std::fs::read_to_string(&case.files["ui"]).expect("ui");
        let ui: Value = serde_json::from_str(&text).expect("ui json");
        let shown = ui["execution"]["nodes"].as_array().map_or(0, Vec::len);
        if graph.nodes.len() != shown {
            failures.push(format!(
                "{}: {} nodes, the UI shows {shown}",
                case.id,
                graph.nodes.len()
            ));
        }
        // details the UI `desc` lacks come from the aligned `planDescription`
        for node in graph
            .nodes
            .iter()
            .filter(|n| n.section == PlanSection::Final)
        {
            // (a Project over `Scan OneRowRelation` really has no input)
            let over_one_row = node
                .children
                .iter()
                .any(|&c| graph.nodes[c].name == "Scan OneRowRelation");
            let needs_input = matches!(
                node.operator.as_str(),
                "Filter" | "Project" | "HashAggregate"
            ) && !over_one_row;
            if needs_input && node.details.input.is_empty() {
                failures.push(format!(
                    "{}: UI node {} `{}` has no input columns",
                    case.id, node.id, node.name
                ));
            }
        }
        for node in &graph.nodes {
            if node.name.starts_with("WholeStageCodegen") && node.members.is_empty() {
                failures.push(format!("{}: cluster {} has no members", case.id, node.id));
            }
        }
        failures
    }
);

bench_form!(
    simple_plans_have_the_final_operators_of_the_formatted_plan,
    "simple",
    |case, graph| {
        let mut failures = Vec::new();
        for (i, node) in graph.nodes.iter().enumerate() {
            if node.id != i.to_string() {
                failures.push(format!("{}: node {i} has id {}", case.id, node.id));
            }
        }
        let formatted = match parse_form(case, "formatted") {
            Ok(g) => g,
            Err(e) => return vec![e],
        };
        let final_ops = |g: &PlanGraph| {
            let mut ops: Vec<String> = g
                .nodes
                .iter()
                .filter(|n| n.section == PlanSection::Final)
                .map(|n| n.operator.to_string())
                .collect();
            ops.sort();
            ops
        };
        if final_ops(graph) != final_ops(&formatted) {
            failures.push(format!(
                "{}: final operators differ\n simple:    {:?}\n formatted: {:?}",
                case.id,
                final_ops(graph),
                final_ops(&formatted)
            ));
        }
        failures
    }
);
