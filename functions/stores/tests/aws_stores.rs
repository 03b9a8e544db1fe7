//! The shared store suite against DynamoDB + S3 on a local emulator (moto's server).
//!
//! `scripts/test` starts the emulator and sets `PLAN2CODE_MOTO_ENDPOINT` and
//! `PLAN2CODE_REQUIRE_EMULATOR=1`. A plain `cargo nextest run` without the endpoint skips these
//! tests with a message; with `PLAN2CODE_REQUIRE_EMULATOR=1` a missing endpoint fails them.
#![cfg(feature = "aws")]

mod suite;

use plan2code_stores::aws::{AwsBridge, DynamoJobStore, Emulator, S3BlobStore};
use std::sync::{Arc, OnceLock};

pub const ENDPOINT_VAR: &str = "PLAN2CODE_MOTO_ENDPOINT";
pub const REQUIRE_VAR: &str = "PLAN2CODE_REQUIRE_EMULATOR";

struct AwsStores {
    jobs: DynamoJobStore,
    blobs: S3BlobStore,
    _bridge: Arc<AwsBridge>,
}

fn stores() -> Option<&'static AwsStores> {
    static STORES: OnceLock<Option<AwsStores>> = OnceLock::new();
    STORES
        .get_or_init(|| {
            let Ok(endpoint) = std::env::var(ENDPOINT_VAR) else {
                assert!(
                    std::env::var(REQUIRE_VAR).as_deref() != Ok("1"),
                    "{ENDPOINT_VAR} is not set but {REQUIRE_VAR}=1: the emulator suite must run"
                );
                eprintln!("skipping the DynamoDB/S3 store suite: {ENDPOINT_VAR} is not set (scripts/test sets it)");
                return None;
            };
            let bridge = AwsBridge::new().unwrap();
            let emulator = Emulator { endpoint, region: "us-east-1".into() };
            let config = bridge.sdk_config(Some(&emulator)).unwrap();
            let jobs = DynamoJobStore::new(bridge.clone(), &config, "plan2code-test");
            jobs.create_table_if_missing().unwrap();
            let blobs = S3BlobStore::new(bridge.clone(), &config, "plan2code-test", true);
            blobs.create_bucket_if_missing().unwrap();
            Some(AwsStores { jobs, blobs, _bridge: bridge })
        })
        .as_ref()
}

store_suite!(stores().map(|s| &s.jobs), stores().map(|s| &s.blobs));

/// The bridge must not panic when a port is called from inside a tokio runtime (a Lambda
/// adapter calls core code from `spawn_blocking`, but a direct call must be safe too).
#[test]
fn ports_are_callable_from_inside_a_tokio_runtime() {
    let Some(stores) = stores() else { return };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let id = suite::fresh_id("in-tokio");
    runtime.block_on(async {
        plan2code_core::ports::JobStore::create_job(&stores.jobs, &suite::job(&id, 1), "alice")
            .unwrap();
        let job = tokio::task::spawn_blocking(move || {
            plan2code_core::ports::JobStore::get_job(&stores.jobs, &id)
        })
        .await
        .unwrap()
        .unwrap();
        assert_eq!(job.map(|j| j.progress.total_stages), Some(1));
    });
}

/// The local runner over the DynamoDB store: checkpoints, control tasks, the per-node counters
/// and the event log all work on the AWS implementation too.
#[test]
fn the_workflow_runs_on_the_dynamodb_store() {
    use plan2code_core::contracts::{
        ConfidenceFactors, ConfidenceStatus, EventType, JobStatus, MappingOutput, NodeKind,
    };
    use plan2code_core::ports::JobStore;
    use plan2code_core::workflow::{
        LocalRunner, MAPPING_ASL, StateMachine, TaskError, TaskRegistry, TaskTokens,
        local_substitutions, register_control_tasks,
    };
    use serde_json::{Value, json};
    use std::sync::atomic::{AtomicUsize, Ordering};

    let Some(stores) = stores() else { return };
    let store: Arc<dyn JobStore> = Arc::new(stores.jobs.clone());
    let id = suite::fresh_id("flow");
    store.create_job(&suite::job(&id, 12), "alice").unwrap();

    let tokens = Arc::new(TaskTokens::new());
    let mut registry = TaskRegistry::new();
    register_control_tasks(&mut registry, store.clone(), tokens.clone());
    let job_id = id.clone();
    registry.register("LoadRepoContextFunction", move |_| {
        let nodes: Vec<Value> = (0..12)
            .map(|i| json!({ "dagNodeId": i.to_string(), "nodeName": "Filter" }))
            .collect();
        Ok(json!({ "jobId": job_id, "planKey": "p", "indexKey": "i", "dagNodes": nodes }))
    });
    for function in [
        "PlanSemanticsFunction",
        "EmbeddingRetrievalFunction",
        "AstFilterFunction",
        "ConfidenceGateFunction",
    ] {
        registry.register(function, |_| Ok(json!({ "key": "k" })));
    }
    registry.register(
        "ReasoningAgentFunction",
        |input: Value| match input["dagNodeId"].as_str() {
            Some("5") => Err(TaskError::new("PARSE_ERROR", "the model answered nonsense")),
            _ => Ok(json!({ "key": "k" })),
        },
    );
    let lost_responses = Arc::new(AtomicUsize::new(0));
    let (s, lost) = (store.clone(), lost_responses.clone());
    registry.register("FinalMappingFunction", move |input: Value| {
        let (job, node) = (
            input["jobId"].as_str().unwrap_or(""),
            input["dagNodeId"].as_str().unwrap_or(""),
        );
        let mapping = MappingOutput {
            execution_id: None,
            dag_node_id: node.into(),
            node_name: "Filter".into(),
            node_kind: NodeKind::Engine,
            mapped_code: suite::mapping(node, ConfidenceStatus::Probable, true).mapped_code,
            confidence: 0.6,
            confidence_status: ConfidenceStatus::Probable,
            confidence_factors: ConfidenceFactors::default(),
            explanation: "filter".into(),
            alternatives: vec![],
            error: None,
        };
        let written = s
            .put_mapping(job, &mapping)
            .map_err(|e| TaskError::new("STORE_ERROR", e.to_string()))?;
        if node == "3" && lost.fetch_add(1, Ordering::SeqCst) == 0 {
            return Err(TaskError::new(
                "LLM_RATE_LIMIT",
                "response lost after the write",
            ));
        }
        Ok(json!({ "dagNodeId": node, "written": written }))
    });
    let machine = StateMachine::load(MAPPING_ASL, &local_substitutions(MAPPING_ASL, 4)).unwrap();
    let runner = LocalRunner::new(machine, registry, store.clone(), tokens)
        .unwrap()
        .with_sleep(|_| {});
    let output = runner.run(&id, json!({ "jobId": id })).unwrap();
    assert_eq!(output["status"], "completed");

    let job = store.get_job(&id).unwrap().unwrap();
    assert_eq!(job.status, JobStatus::Completed);
    assert_eq!(
        (
            job.statistics.mapped_nodes,
            job.statistics.probable_mappings,
            job.statistics.unmapped_nodes
        ),
        (11, 11, 1)
    );
    assert_eq!(job.progress.stages_mapped, 12);
    assert_eq!(
        lost_responses.load(Ordering::SeqCst),
        2,
        "node 3's FinalMapping ran twice"
    );
    let unmapped = store.get_mapping(&id, "5").unwrap().unwrap();
    assert!(unmapped.error.unwrap().starts_with("PARSE_ERROR"));
    let events = store.events_after(&id, 0, 100).unwrap();
    assert_eq!(
        events.last().map(|e| e.event_type),
        Some(EventType::JobCompleted)
    );
    assert_eq!(
        store
            .checkpoints(&id)
            .unwrap()
            .iter()
            .filter(|(k, _)| k.starts_with("map/"))
            .count(),
        12
    );
}
