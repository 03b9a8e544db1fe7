//! Shared by the end-to-end mapping tests: a repository written from strings, a plan mapped
//! against it in-process with the deterministic reasoner.

use plan2code_core::code::{IndexOptions, build_index};
use plan2code_core::contracts::MappingOutput;
use plan2code_core::pipeline::reason::EvidenceReasoner;
use plan2code_core::pipeline::{PipelineConfig, map_plans_from};
use plan2code_core::plan::{ParseOptions, parse_plan};
use std::sync::Arc;

/// Map `plan` against a repository holding `files` (path, source).
#[allow(dead_code)] // (not every test maps: the plan readers' tests only parse)
pub fn map_against(files: &[(&str, &str)], plan: &str) -> Vec<MappingOutput> {
    map_from_entry(files, &[], plan)
}

/// … as a job run from the files `entry` names (`--entry`).
#[allow(dead_code)] // (not every test maps: the plan readers' tests only parse)
pub fn map_from_entry(files: &[(&str, &str)], entry: &[&str], plan: &str) -> Vec<MappingOutput> {
    let dir = tempfile::tempdir().unwrap();
    for (path, source) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, source).unwrap();
    }
    let index = build_index(dir.path(), None, "test".into(), &IndexOptions::default()).unwrap();
    let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
    let entry: Vec<String> = entry.iter().map(|e| (*e).to_owned()).collect();
    let (mappings, _) = map_plans_from(
        std::slice::from_ref(&graph),
        &entry,
        Arc::new(index),
        &EvidenceReasoner,
        &PipelineConfig::default(),
    )
    .unwrap();
    mappings
}

/// A real plan of the project's fixtures: `tests/fixtures/plans/<case>/formatted.txt`
/// (`tests/fixtures/plans/generate.py`).
#[allow(dead_code)] // (not every test reads one)
pub fn fixture_plan(case: &str) -> String {
    fixture_plan_form(case, "formatted.txt")
}

/// … in another of its forms (`ui.json`).
#[allow(dead_code)] // (not every test reads one)
pub fn fixture_plan_form(case: &str, form: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/plans")
        .join(case)
        .join(form);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A plan the project's own benchmark sets hold: `bench/<set>/<case>/formatted.txt`.
#[allow(dead_code)] // (not every test reads one)
pub fn bench_plan(set: &str, case: &str) -> String {
    bench_plan_form(set, case, "formatted.txt")
}

/// … in another of its forms (`ui.json`, `eventlog.jsonl`).
#[allow(dead_code)] // (not every test reads one)
pub fn bench_plan_form(set: &str, case: &str, form: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../bench")
        .join(set)
        .join(case)
        .join(form);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Where node `dag_node_id` was mapped: its file and lines (`"9-9"`).
#[allow(dead_code)] // (not every test reads one)
pub fn code_at(mappings: &[MappingOutput], dag_node_id: &str) -> (String, String) {
    let node = mappings
        .iter()
        .find(|m| m.dag_node_id == dag_node_id)
        .unwrap_or_else(|| panic!("node {dag_node_id}"));
    let code = node.mapped_code.as_ref().expect("mapped");
    (code.file.clone(), code.lines.clone())
}

/// Where node `id` was mapped (its lines, `"9-9"`) and the explanation given.
#[allow(dead_code)] // (not every test reads one)
pub fn lines_and_explanation(mappings: &[MappingOutput], id: &str) -> (String, String) {
    let m = mappings
        .iter()
        .find(|m| m.dag_node_id == id)
        .unwrap_or_else(|| panic!("node {id}"));
    (
        m.mapped_code.as_ref().expect("mapped").lines.clone(),
        m.explanation.clone(),
    )
}
