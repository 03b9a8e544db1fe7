//! The local runner executing `statemachine/mapping.asl.json` over a SQLite job store, with
//! registered test node functions that fail, stall or crash on cue: retry, catch, pause/resume,
//! cancel, idempotent retries, a 320-node plan, and a process killed mid-job then resumed.

use plan2code_core::contracts::{
    CodeLocation, ConfidenceFactors, ConfidenceStatus, EventType, Job, JobStatus, MappingOutput,
    NodeKind, Progress, RepoConfig, Statistics,
};
use plan2code_core::ports::JobStore;
use plan2code_core::workflow::{
    LocalControl, LocalRunner, MAPPING_ASL, StateMachine, TaskError, TaskRegistry, TaskTokens,
    WorkflowControl, WorkflowError, local_substitutions, register_control_tasks,
};
use plan2code_stores::SqliteJobStore;
use serde_json::{Value, json};
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const PIPELINE: [&str; 5] = [
    "PlanSemanticsFunction",
    "EmbeddingRetrievalFunction",
    "AstFilterFunction",
    "ReasoningAgentFunction",
    "ConfidenceGateFunction",
];

/// Test node functions: record every call, fail on cue, optionally take their time.
#[derive(Default)]
struct Nodes {
    calls: Mutex<Vec<(String, String)>>,
    failures: Mutex<HashMap<(String, String), VecDeque<TaskError>>>,
    delay: Mutex<HashMap<String, Duration>>,
    in_flight: AtomicUsize,
    max_in_flight: AtomicUsize,
    /// FinalMapping writes, then fails once with this error for these nodes (a lost response).
    fail_after_write: Mutex<HashMap<String, TaskError>>,
}

impl Nodes {
    fn fail(&self, function: &str, node: &str, times: usize, error: &str) {
        let queue = (0..times).map(|i| TaskError::new(error, format!("injected failure {i}")));
        self.failures
            .lock()
            .unwrap()
            .insert((function.into(), node.into()), queue.collect());
    }

    fn slow(&self, function: &str, delay: Duration) {
        self.delay.lock().unwrap().insert(function.into(), delay);
    }

    fn calls_of(&self, function: &str) -> Vec<String> {
        let calls = self.calls.lock().unwrap();
        calls
            .iter()
            .filter(|(f, _)| f == function)
            .map(|(_, n)| n.clone())
            .collect()
    }

    /// The common prologue of every test node function.
    fn enter(&self, function: &str, input: &Value) -> Result<(), TaskError> {
        let node = input
            .get("dagNodeId")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned();
        self.calls
            .lock()
            .unwrap()
            .push((function.into(), node.clone()));
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.max_in_flight.fetch_max(now, Ordering::SeqCst);
        let delay = self.delay.lock().unwrap().get(function).copied();
        if let Some(delay) = delay {
            std::thread::sleep(delay);
        }
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
        let injected = self
            .failures
            .lock()
            .unwrap()
            .get_mut(&(function.to_owned(), node))
            .and_then(VecDeque::pop_front);
        injected.map_or(Ok(()), Err)
    }
}

fn mapping_for(node: &str) -> MappingOutput {
    MappingOutput {
        execution_id: None,
        dag_node_id: node.into(),
        node_name: "HashAggregate".into(),
        node_kind: NodeKind::Code,
        mapped_code: Some(CodeLocation {
            file: "jobs/etl.py".into(),
            symbol: Some("build".into()),
            lines: "3-4".into(),
            code_snippet: "df.groupBy('a')".into(),
        }),
        confidence: 0.9,
        confidence_status: ConfidenceStatus::Confirmed,
        confidence_factors: ConfidenceFactors::default(),
        explanation: "test".into(),
        alternatives: vec![],
        error: None,
    }
}

fn register_pipeline(registry: &mut TaskRegistry, store: Arc<dyn JobStore>, nodes: Arc<Nodes>) {
    let (s, n) = (store.clone(), nodes.clone());
    registry.register("LoadRepoContextFunction", move |input| {
        n.enter("LoadRepoContextFunction", &input)?;
        let job_id = input["jobId"].as_str().unwrap_or("").to_owned();
        let count = input["nodeCount"].as_u64().unwrap_or(0);
        s.set_job_status(&job_id, JobStatus::Running, None)
            .map_err(|e| TaskError::new("STORE_ERROR", e.to_string()))?;
        let dag_nodes: Vec<Value> = (0..count)
            .map(|i| json!({ "dagNodeId": i.to_string(), "nodeName": format!("Node{i}") }))
            .collect();
        Ok(json!({
            "jobId": job_id, "planKey": input["planKey"], "indexKey": "index/k/index.json",
            "cacheKey": "k", "commit": "abc123", "dagNodes": dag_nodes,
        }))
    });
    for function in PIPELINE {
        let n = nodes.clone();
        registry.register(function, move |input| {
            n.enter(function, &input)?;
            let key = format!(
                "jobs/{}/nodes/{}/{function}.json",
                input["jobId"].as_str().unwrap_or(""),
                input["dagNodeId"].as_str().unwrap_or("")
            );
            Ok(json!({ "key": key }))
        });
    }
    registry.register("FinalMappingFunction", move |input| {
        let job_id = input["jobId"].as_str().unwrap_or("").to_owned();
        let node = input["dagNodeId"].as_str().unwrap_or("").to_owned();
        for step in [
            "semantics",
            "candidates",
            "filtered",
            "reasoning",
            "confidence",
        ] {
            if input.get(step).is_none() {
                return Err(TaskError::new(
                    "INVALID_INPUT",
                    format!("no {step} reference"),
                ));
            }
        }
        let written = store
            .put_mapping(&job_id, &mapping_for(&node))
            .map_err(|e| TaskError::new("STORE_ERROR", e.to_string()))?;
        if written {
            store
                .append_event(
                    &job_id,
                    EventType::MappingFinalized,
                    json!({ "dagNodeId": node }),
                )
                .map_err(|e| TaskError::new("STORE_ERROR", e.to_string()))?;
        }
        nodes.enter("FinalMappingFunction", &input)?;
        if let Some(err) = nodes.fail_after_write.lock().unwrap().remove(&node) {
            return Err(err);
        }
        Ok(json!({ "dagNodeId": node, "written": written }))
    });
}

struct Harness {
    store: Arc<SqliteJobStore>,
    nodes: Arc<Nodes>,
    runner: Arc<LocalRunner>,
    control: LocalControl,
    sleeps: Arc<Mutex<Vec<Duration>>>,
    _dir: tempfile::TempDir,
}

fn harness_at(
    db: &std::path::Path,
    max_parallel: u32,
    nodes: Arc<Nodes>,
) -> (
    Arc<SqliteJobStore>,
    Arc<LocalRunner>,
    Arc<Mutex<Vec<Duration>>>,
) {
    let store = Arc::new(SqliteJobStore::open(db).unwrap());
    let tokens = Arc::new(TaskTokens::new());
    let mut registry = TaskRegistry::new();
    register_control_tasks(&mut registry, store.clone(), tokens.clone());
    register_pipeline(&mut registry, store.clone(), nodes);
    let machine =
        StateMachine::load(MAPPING_ASL, &local_substitutions(MAPPING_ASL, max_parallel)).unwrap();
    let sleeps = Arc::new(Mutex::new(Vec::new()));
    let recorded = sleeps.clone();
    let runner = LocalRunner::new(machine, registry, store.clone(), tokens)
        .unwrap()
        .with_sleep(move |d| recorded.lock().unwrap().push(d));
    (store, Arc::new(runner), sleeps)
}

fn harness(max_parallel: u32) -> Harness {
    let dir = tempfile::tempdir().unwrap();
    let nodes = Arc::new(Nodes::default());
    let (store, runner, sleeps) =
        harness_at(&dir.path().join("jobs.sqlite"), max_parallel, nodes.clone());
    let control = LocalControl::new(store.clone(), runner.clone());
    Harness {
        store,
        nodes,
        runner,
        control,
        sleeps,
        _dir: dir,
    }
}

fn new_job(store: &dyn JobStore, id: &str, nodes: u32) -> Value {
    let job = Job {
        executions: Vec::new(),
        id: id.into(),
        status: JobStatus::Queued,
        repo_config: RepoConfig {
            url: "file:///tmp/repo".into(),
            branch: None,
            commit: None,
        },
        progress: Progress {
            current_phase: "queued".into(),
            total_stages: nodes,
            stages_mapped: 0,
            percentage: 0.0,
        },
        result: None,
        statistics: Statistics {
            total_nodes: u64::from(nodes),
            ..Statistics::default()
        },
        error: None,
    };
    store.create_job(&job, "alice").unwrap();
    json!({ "jobId": id, "planKey": format!("jobs/{id}/plan.json"), "nodeCount": nodes })
}

fn wait_until(what: &str, timeout: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < timeout, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_clean_run_maps_every_node_and_completes() {
    let h = harness(5);
    let input = new_job(&*h.store, "clean", 6);
    let output = h.runner.run("clean", input).unwrap();
    assert_eq!(output, json!({ "jobId": "clean", "status": "completed" }));
    let job = h.store.get_job("clean").unwrap().unwrap();
    assert_eq!(job.status, JobStatus::Completed);
    assert_eq!(
        (job.statistics.mapped_nodes, job.statistics.unmapped_nodes),
        (6, 0)
    );
    assert_eq!(job.progress.percentage, 100.0);
    let events = h.store.events_after("clean", 0, 100).unwrap();
    assert_eq!(
        events.last().map(|e| e.event_type),
        Some(EventType::JobCompleted)
    );
    // Every node passed every pipeline step exactly once, in order.
    for node in 0..6 {
        let steps: Vec<String> = h
            .nodes
            .calls
            .lock()
            .unwrap()
            .iter()
            .filter(|(_, n)| *n == node.to_string())
            .map(|(f, _)| f.clone())
            .collect();
        let mut expected: Vec<String> = PIPELINE.iter().map(|s| s.to_string()).collect();
        expected.push("FinalMappingFunction".into());
        assert_eq!(steps, expected, "node {node}");
    }
    // Running it again returns the recorded result and calls nothing.
    let calls = h.nodes.calls.lock().unwrap().len();
    assert_eq!(
        h.runner.run("clean", json!({})).unwrap()["status"],
        "completed"
    );
    assert_eq!(h.nodes.calls.lock().unwrap().len(), calls);
}

#[test]
fn a_node_failing_twice_is_retried_with_backoff_and_succeeds() {
    let h = harness(5);
    h.nodes
        .fail("EmbeddingRetrievalFunction", "1", 2, "LLM_RATE_LIMIT");
    let input = new_job(&*h.store, "retry", 3);
    h.runner.run("retry", input).unwrap();
    assert_eq!(
        h.nodes
            .calls_of("EmbeddingRetrievalFunction")
            .iter()
            .filter(|n| *n == "1")
            .count(),
        3
    );
    assert_eq!(
        *h.sleeps.lock().unwrap(),
        [Duration::from_secs(2), Duration::from_secs(4)]
    );
    let mapping = h.store.get_mapping("retry", "1").unwrap().unwrap();
    assert_eq!(mapping.error, None);
    assert_eq!(
        h.store
            .get_job("retry")
            .unwrap()
            .unwrap()
            .statistics
            .mapped_nodes,
        3
    );
}

#[test]
fn a_node_failing_for_good_is_recorded_unmapped_and_the_job_completes() {
    let h = harness(5);
    h.nodes
        .fail("PlanSemanticsFunction", "0", 10, "CLONE_FAILED");
    h.nodes
        .fail("ReasoningAgentFunction", "2", 10, "PARSE_ERROR");
    let input = new_job(&*h.store, "catch", 4);
    h.runner.run("catch", input).unwrap();
    // Retryable: 1 try + 3 retries at 2, 4, 8 s. Not retryable: 1 try.
    assert_eq!(
        h.nodes
            .calls_of("PlanSemanticsFunction")
            .iter()
            .filter(|n| *n == "0")
            .count(),
        4
    );
    assert_eq!(
        h.nodes
            .calls_of("ReasoningAgentFunction")
            .iter()
            .filter(|n| *n == "2")
            .count(),
        1
    );
    assert_eq!(
        *h.sleeps.lock().unwrap(),
        [2, 4, 8].map(Duration::from_secs)
    );
    let failed = h.store.get_mapping("catch", "2").unwrap().unwrap();
    assert!(failed.mapped_code.is_none());
    assert!(
        failed
            .error
            .as_deref()
            .unwrap()
            .starts_with("PARSE_ERROR: injected failure 0"),
        "{:?}",
        failed.error
    );
    assert_eq!(failed.node_name, "Node2");
    let job = h.store.get_job("catch").unwrap().unwrap();
    assert_eq!(job.status, JobStatus::Completed);
    assert_eq!(
        (job.statistics.mapped_nodes, job.statistics.unmapped_nodes),
        (2, 2)
    );
    let errors = h
        .store
        .events_after("catch", 0, 100)
        .unwrap()
        .into_iter()
        .filter(|e| e.event_type == EventType::Error)
        .count();
    assert_eq!(errors, 2);
}

#[test]
fn only_a_load_repo_context_failure_fails_the_job() {
    let h = harness(5);
    h.nodes
        .fail("LoadRepoContextFunction", "", 1, "AUTH_FAILED");
    let input = new_job(&*h.store, "fails", 3);
    let err = h.runner.run("fails", input).unwrap_err();
    assert!(
        matches!(&err, WorkflowError::Failed { error, .. } if error == "JOB_FAILED"),
        "{err:?}"
    );
    assert_eq!(
        h.nodes.calls_of("LoadRepoContextFunction").len(),
        1,
        "AUTH_FAILED must not be retried"
    );
    let job = h.store.get_job("fails").unwrap().unwrap();
    assert_eq!(job.status, JobStatus::Failed);
    assert!(
        job.error.as_deref().unwrap().starts_with("AUTH_FAILED"),
        "{:?}",
        job.error
    );
    assert!(h.nodes.calls_of("PlanSemanticsFunction").is_empty());
}

#[test]
fn a_retried_final_mapping_writes_and_counts_once() {
    let h = harness(5);
    h.nodes.fail_after_write.lock().unwrap().insert(
        "3".into(),
        TaskError::new("LLM_RATE_LIMIT", "response lost"),
    );
    let input = new_job(&*h.store, "idem", 5);
    h.runner.run("idem", input).unwrap();
    assert_eq!(
        h.nodes
            .calls_of("FinalMappingFunction")
            .iter()
            .filter(|n| *n == "3")
            .count(),
        2
    );
    let job = h.store.get_job("idem").unwrap().unwrap();
    assert_eq!(job.statistics.mapped_nodes, 5);
    assert_eq!(job.progress.stages_mapped, 5);
    let finalized = h
        .store
        .events_after("idem", 0, 100)
        .unwrap()
        .into_iter()
        .filter(|e| e.event_type == EventType::MappingFinalized)
        .count();
    assert_eq!(finalized, 5);
}

#[test]
fn map_concurrency_is_honoured_and_300_plus_nodes_complete() {
    let h = harness(8);
    h.nodes.slow("AstFilterFunction", Duration::from_millis(2));
    let input = new_job(&*h.store, "big", 320);
    h.runner.run("big", input).unwrap();
    let job = h.store.get_job("big").unwrap().unwrap();
    assert_eq!(job.status, JobStatus::Completed);
    assert_eq!(job.statistics.mapped_nodes, 320);
    assert_eq!(h.store.mappings("big").unwrap().len(), 320);
    assert_eq!(h.nodes.calls_of("PlanSemanticsFunction").len(), 320);
    let max = h.nodes.max_in_flight.load(Ordering::SeqCst);
    assert!((2..=8).contains(&max), "max in flight {max}");
}

#[test]
fn no_node_starts_while_paused_and_resume_completes() {
    let h = harness(3);
    h.nodes
        .slow("PlanSemanticsFunction", Duration::from_millis(20));
    let input = new_job(&*h.store, "pause", 30);
    std::thread::scope(|s| {
        let run = s.spawn(|| h.runner.run("pause", input));
        wait_until("three nodes started", Duration::from_secs(10), || {
            h.nodes.calls_of("PlanSemanticsFunction").len() >= 3
        });
        h.control.pause("pause").unwrap();
        // In-flight nodes finish their pipeline; then every worker parks.
        std::thread::sleep(Duration::from_millis(400));
        let started = h.nodes.calls_of("PlanSemanticsFunction").len();
        std::thread::sleep(Duration::from_millis(400));
        assert_eq!(
            h.nodes.calls_of("PlanSemanticsFunction").len(),
            started,
            "a node started while paused"
        );
        assert!(started < 30);
        assert_eq!(
            h.store.get_job("pause").unwrap().unwrap().status,
            JobStatus::Paused
        );
        assert!(!run.is_finished());
        let released = h.control.resume("pause").unwrap();
        assert_eq!(released, 3, "one parked token per Map worker");
        run.join().unwrap().unwrap();
    });
    let job = h.store.get_job("pause").unwrap().unwrap();
    assert_eq!(job.status, JobStatus::Completed);
    assert_eq!(job.statistics.mapped_nodes, 30);
    assert_eq!(h.nodes.calls_of("PlanSemanticsFunction").len(), 30);
}

#[test]
fn cancel_stops_the_job_and_a_late_complete_cannot_undo_it() {
    let h = harness(2);
    h.nodes
        .slow("PlanSemanticsFunction", Duration::from_millis(20));
    let input = new_job(&*h.store, "cancel", 40);
    std::thread::scope(|s| {
        let run = s.spawn(|| h.runner.run("cancel", input));
        wait_until("two nodes mapped", Duration::from_secs(10), || {
            h.store.mappings("cancel").unwrap().len() >= 2
        });
        h.control.cancel("cancel").unwrap();
        assert!(matches!(run.join().unwrap(), Err(WorkflowError::Aborted)));
    });
    let started = h.nodes.calls_of("PlanSemanticsFunction").len();
    assert!(started < 40, "{started}");
    let job = h.store.get_job("cancel").unwrap().unwrap();
    assert_eq!(job.status, JobStatus::Cancelled);
    assert!(job.statistics.mapped_nodes < 40);
    assert!(h.control.resume("cancel").is_err());
    let complete =
        plan2code_core::workflow::control::complete_job(&*h.store, &json!({ "jobId": "cancel" }))
            .unwrap();
    assert_eq!(complete["status"], "cancelled");
}

#[test]
fn cancel_while_paused_releases_the_parked_nodes() {
    let h = harness(3);
    // slow nodes: the map cannot finish before the second pause lands, however busy the machine
    h.nodes
        .slow("PlanSemanticsFunction", Duration::from_millis(150));
    let input = new_job(&*h.store, "pc", 10);
    h.control.pause("pc").unwrap();
    std::thread::scope(|s| {
        let run = s.spawn(|| {
            // LoadRepoContext sets `running`; pause again right after it so the Map sees it.
            h.runner.run("pc", input)
        });
        wait_until("the map to start", Duration::from_secs(10), || {
            !h.nodes.calls_of("LoadRepoContextFunction").is_empty()
        });
        let _ = h.control.pause("pc");
        std::thread::sleep(Duration::from_millis(200));
        h.control.cancel("pc").unwrap();
        assert!(matches!(run.join().unwrap(), Err(WorkflowError::Aborted)));
    });
    assert_eq!(
        h.store.get_job("pc").unwrap().unwrap().status,
        JobStatus::Cancelled
    );
}

#[test]
fn a_runner_missing_a_node_function_refuses_to_start() {
    let store = Arc::new(SqliteJobStore::in_memory().unwrap());
    let mut pipeline = TaskRegistry::new();
    register_pipeline(&mut pipeline, store.clone(), Arc::new(Nodes::default()));
    let mut incomplete = TaskRegistry::new();
    incomplete.register("LoadRepoContextFunction", Ok);
    let err = plan2code_core::workflow::mapping_runner(store.clone(), incomplete, 5).unwrap_err();
    assert!(
        matches!(&err, WorkflowError::MissingHandler(f) if f == "AstFilterFunction"),
        "{err:?}"
    );
    // With every node function the production runner builds, control tasks included.
    let runner = plan2code_core::workflow::mapping_runner(store.clone(), pipeline, 5).unwrap();
    let input = new_job(&*store, "convenience", 2);
    assert_eq!(
        runner.run("convenience", input).unwrap()["status"],
        "completed"
    );
}

const CRASH_DB: &str = "PLAN2CODE_CRASH_CHILD_DB";
const CRASH_NODES: u32 = 40;

/// Child half of the crash test: runs the job slowly until the parent kills the process.
#[test]
fn crash_child() {
    let Ok(db) = std::env::var(CRASH_DB) else {
        return; // Only meaningful when spawned by `a_killed_job_resumes_without_redoing_finished_nodes`.
    };
    let nodes = Arc::new(Nodes::default());
    nodes.slow("AstFilterFunction", Duration::from_millis(25));
    let (_store, runner, _) = harness_at(std::path::Path::new(&db), 4, nodes);
    let input =
        json!({ "jobId": "crash", "planKey": "jobs/crash/plan.json", "nodeCount": CRASH_NODES });
    let _ = runner.run("crash", input);
}

#[test]
fn a_killed_job_resumes_without_redoing_finished_nodes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("jobs.sqlite");
    let store = SqliteJobStore::open(&db).unwrap();
    new_job(&store, "crash", CRASH_NODES);
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "crash_child", "--nocapture"])
        .env(CRASH_DB, &db)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    wait_until("the child to map 10 nodes", Duration::from_secs(60), || {
        store.mappings("crash").unwrap().len() >= 10
    });
    child.kill().unwrap();
    child.wait().unwrap();

    let finished: Vec<String> = store
        .checkpoints("crash")
        .unwrap()
        .into_iter()
        .filter_map(|(k, _)| {
            k.strip_prefix("map/MapDagNodes/").map(|i| {
                i.trim_start_matches('0')
                    .parse::<u32>()
                    .unwrap_or(0)
                    .to_string()
            })
        })
        .collect();
    let mapped_before = store.mappings("crash").unwrap().len();
    assert!(
        finished.len() >= 6 && mapped_before < CRASH_NODES as usize,
        "finished {} mapped {mapped_before}",
        finished.len()
    );

    let nodes = Arc::new(Nodes::default());
    let (store, runner, _) = harness_at(&db, 4, nodes.clone());
    runner
        .run("crash", json!({ "ignored": "resume uses the checkpoint" }))
        .unwrap();

    assert!(
        nodes.calls_of("LoadRepoContextFunction").is_empty(),
        "LoadRepoContext redone"
    );
    let redone: Vec<String> = nodes
        .calls_of("PlanSemanticsFunction")
        .into_iter()
        .filter(|n| finished.contains(n))
        .collect();
    assert!(redone.is_empty(), "finished nodes redone: {redone:?}");
    let resumed = nodes.calls_of("PlanSemanticsFunction").len();
    assert_eq!(
        resumed + finished.len(),
        CRASH_NODES as usize,
        "each unfinished node runs exactly once"
    );
    let job = store.get_job("crash").unwrap().unwrap();
    assert_eq!(job.status, JobStatus::Completed);
    assert_eq!(
        job.statistics.mapped_nodes,
        u64::from(CRASH_NODES),
        "counted once"
    );
    assert_eq!(store.mappings("crash").unwrap().len(), CRASH_NODES as usize);
}
