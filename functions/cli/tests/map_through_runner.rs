//! The state machine gives the same answer as the in-process pipeline: every plan fixture mapped
//! through `mapping_runner` + `PipelineTasks` (blobs between steps, JSON round trips, parallel Map
//! iterations) yields exactly the mappings `pipeline::map_plan` returns for the same plan and
//! index.

use plan2code_core::code::{LoadOptions, RepoSource, load_or_build_index};
use plan2code_core::contracts::{MappingOutput, RepoConfig};
use plan2code_core::pipeline::job::{execution_input, plan_key, queued_job};
use plan2code_core::pipeline::reason::EvidenceReasoner;
use plan2code_core::pipeline::tasks::PipelineTasks;
use plan2code_core::pipeline::{PipelineConfig, job, map_plan};
use plan2code_core::plan::{ParseOptions, parse_plan};
use plan2code_core::ports::{BlobStore, JobStore};
use plan2code_core::workflow::{TaskRegistry, mapping_runner};
use plan2code_stores::{MemoryBlobStore, SqliteJobStore};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn in_process(plan: &str, repo: &Path) -> Vec<MappingOutput> {
    let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
    let blobs = MemoryBlobStore::default();
    let source = RepoSource {
        location: repo.to_string_lossy().into_owned(),
        branch: None,
        commit: None,
    };
    let loaded = load_or_build_index(&source, &blobs, &LoadOptions::from_env(0)).unwrap();
    let (mut mappings, _) = map_plan(
        &graph,
        Arc::new(loaded.index),
        &EvidenceReasoner,
        &PipelineConfig::default(),
    )
    .unwrap();
    job::sort_mappings(&mut mappings);
    mappings
}

fn through_runner(plan: &str, repo: &Path) -> Vec<MappingOutput> {
    let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
    let jobs: Arc<dyn JobStore> = Arc::new(SqliteJobStore::in_memory().unwrap());
    let blobs: Arc<dyn BlobStore> = Arc::new(MemoryBlobStore::default());
    let repo_config = RepoConfig {
        url: repo.to_string_lossy().into_owned(),
        branch: None,
        commit: None,
    };
    jobs.create_job(&queued_job("job-1", repo_config.clone()), "tester")
        .unwrap();
    blobs
        .put(&plan_key("job-1"), &serde_json::to_vec(&graph).unwrap())
        .unwrap();
    let tasks = Arc::new(PipelineTasks::new(
        jobs.clone(),
        blobs.clone(),
        Arc::new(EvidenceReasoner),
        PipelineConfig::default(),
    ));
    let mut registry = TaskRegistry::new();
    tasks.register(&mut registry);
    let runner = mapping_runner(jobs.clone(), registry, 4).unwrap();
    let output = runner
        .run(
            "job-1",
            execution_input("job-1", &repo_config, graph.nodes.len()),
        )
        .unwrap();
    assert_eq!(output["status"], "completed");
    tasks.finish_job("job-1");
    // Intermediates are gone once the job is finished; the plan stays.
    assert!(blobs.get("jobs/job-1/plan.json").unwrap().is_some());
    let first = &graph.nodes[0].id;
    for what in [
        "semantics",
        "candidates",
        "filtered",
        "reasoning",
        "mapping",
    ] {
        let key = format!("jobs/job-1/nodes/{first}/{what}.json");
        assert!(blobs.get(&key).unwrap().is_none(), "{key} left behind");
    }
    let mut mappings = jobs.mappings("job-1").unwrap();
    job::sort_mappings(&mut mappings);
    let stored = jobs.get_job("job-1").unwrap().unwrap();
    assert_eq!(stored.statistics.total_nodes, graph.nodes.len() as u64);
    assert_eq!(stored.progress.stages_mapped, graph.nodes.len() as u32);
    mappings
}

fn assert_same(plan_path: &Path, repo: &Path) {
    let plan = std::fs::read_to_string(plan_path).unwrap();
    let expected = in_process(&plan, repo);
    let actual = through_runner(&plan, repo);
    assert!(!expected.is_empty(), "{} maps no node", plan_path.display());
    assert_eq!(
        serde_json::to_value(&actual).unwrap(),
        serde_json::to_value(&expected).unwrap(),
        "{} differs through the state machine",
        plan_path.display()
    );
}

#[test]
fn example_project_plan_maps_identically_through_the_state_machine() {
    let plan = root().join("events/plans/daily-revenue.formatted.txt");
    let expected = in_process(
        &std::fs::read_to_string(&plan).unwrap(),
        &root().join("events/example-project"),
    );
    assert!(
        expected.iter().any(|m| m
            .mapped_code
            .as_ref()
            .is_some_and(|c| c.file.starts_with("jobs/"))),
        "the example plan maps into the example project"
    );
    assert_same(&plan, &root().join("events/example-project"));
}

#[test]
fn every_fixture_plan_maps_identically_through_the_state_machine() {
    let repo = root().join("tests/fixtures/repos/shop");
    let mut compared = 0;
    let mut dirs: Vec<_> = std::fs::read_dir(root().join("tests/fixtures/plans"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    dirs.sort();
    for dir in dirs {
        let plan = dir.join("formatted.txt");
        if plan.is_file() {
            assert_same(&plan, &repo);
            compared += 1;
        }
    }
    assert!(compared >= 20, "only {compared} fixture plans compared");
}
