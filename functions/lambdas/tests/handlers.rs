//! Every Lambda handler on its sample event from `events/` (`LambdaEvent { payload, context:
//! Context::default() }`), over local stores: the pipeline chain for one node (each sample's keys
//! are the ones the previous step really writes), the control functions, failures surfacing with
//! the workflow's error names as `errorType`, the API events through the router, and the batch
//! mapper's request handling.

use lambda_runtime::{Context, Diagnostic, LambdaEvent};
use plan2code_api::{ApiLimits, ApiState, JobLauncher, LaunchError, router, stream_router};
use plan2code_core::code::Secret;
use plan2code_core::contracts::{EventType, JobStatus, RepoConfig};
use plan2code_core::pipeline::job::{plan_key, queued_job};
use plan2code_core::pipeline::tasks::PipelineTasks;
use plan2code_core::plan::{ParseOptions, parse_plan};
use plan2code_core::ports::{BlobStore, JobStore};
use plan2code_core::settings::pipeline_config;
use plan2code_core::workflow::control::{
    check_job_flags, complete_job, pause_gate, record_unmapped,
};
use plan2code_core::workflow::{TaskError, TaskTokens, WorkflowControl};
use plan2code_lambdas::aws_api::{IamPrincipal, JwtSubject};
use plan2code_lambdas::{NamedFailure, batch, handle};
use plan2code_stores::{MemoryBlobStore, SqliteJobStore};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tower::ServiceExt;

const JOB: &str = "job-example";

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn sample(name: &str) -> Value {
    let path = root().join("events").join(format!("{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

struct Local {
    jobs: Arc<dyn JobStore>,
    blobs: Arc<dyn BlobStore>,
    tasks: Arc<PipelineTasks>,
}

fn local(owner: &str) -> Local {
    let jobs: Arc<dyn JobStore> = Arc::new(SqliteJobStore::in_memory().unwrap());
    let blobs: Arc<dyn BlobStore> = Arc::new(MemoryBlobStore::default());
    jobs.create_job(&queued_job(JOB, RepoConfig::default()), owner)
        .unwrap();
    let plan =
        std::fs::read_to_string(root().join("events/plans/daily-revenue.formatted.txt")).unwrap();
    let graph = parse_plan(&plan, &ParseOptions::default()).unwrap();
    blobs
        .put(&plan_key(JOB), &serde_json::to_vec(&graph).unwrap())
        .unwrap();
    let tasks = Arc::new(PipelineTasks::new(
        jobs.clone(),
        blobs.clone(),
        Arc::new(plan2code_core::pipeline::reason::EvidenceReasoner),
        pipeline_config().expect("pipeline settings"),
    ));
    Local { jobs, blobs, tasks }
}

async fn invoke<F>(task: F, payload: Value) -> Result<Value, NamedFailure>
where
    F: Fn(&Value) -> Result<Value, TaskError> + Send + Sync + 'static,
{
    handle(
        Arc::new(task),
        LambdaEvent::new(payload, Context::default()),
    )
    .await
}

/// The load event with its repository pointed at the example project (no network in tests).
fn load_event() -> Value {
    let mut event = sample("load-repo-context");
    event["repo"]["url"] = json!(root().join("events/example-project").to_string_lossy());
    event
}

type Step = fn(&PipelineTasks, &Value) -> Result<Value, TaskError>;

const NODE_STEPS: [(&str, &str, Step); 6] = [
    ("plan-semantics", "semantics", PipelineTasks::plan_semantics),
    (
        "embedding-retrieval",
        "candidates",
        PipelineTasks::embedding_retrieval,
    ),
    ("ast-filter", "filtered", PipelineTasks::ast_filter),
    (
        "reasoning-agent",
        "reasoning",
        PipelineTasks::reasoning_agent,
    ),
    (
        "confidence-gate",
        "confidence",
        PipelineTasks::confidence_gate,
    ),
    ("final-mapping", "", PipelineTasks::final_mapping),
];

#[tokio::test]
async fn pipeline_handlers_run_on_their_sample_events() {
    let env = local("user-7f3a");
    let t = env.tasks.clone();
    let loaded = invoke(move |i| t.load_repo_context(i), load_event())
        .await
        .unwrap();
    let nodes = loaded["dagNodes"].as_array().unwrap();
    assert_eq!(nodes.len(), 42);
    assert!(nodes.contains(&json!({ "dagNodeId": "12", "nodeName": "HashAggregate" })));
    let index_key = loaded["indexKey"].as_str().unwrap().to_owned();
    assert_eq!(
        env.jobs.get_job(JOB).unwrap().unwrap().status,
        JobStatus::Running
    );

    let mut outputs = Vec::new();
    let (semantics_key, candidates_key) = (
        "jobs/job-example/nodes/12/semantics.json",
        "jobs/job-example/nodes/12/candidates.json",
    );
    let mut kept = None;
    for (i, (name, _, step)) in NODE_STEPS.into_iter().enumerate() {
        if name == "final-mapping" {
            kept = Some((
                env.blobs.get(semantics_key).unwrap().unwrap(),
                env.blobs.get(candidates_key).unwrap().unwrap(),
            ));
        }
        let mut event = sample(name);
        event["indexKey"] = json!(index_key);
        let t = env.tasks.clone();
        let output = invoke(move |input| step(&t, input), event).await.unwrap();
        if let Some((next, _, _)) = NODE_STEPS.get(i + 1) {
            // The next sample event carries exactly the reference this step returned.
            let result_path = NODE_STEPS[i].1;
            assert_eq!(sample(next)[result_path]["key"], output["key"], "{name}");
        }
        outputs.push(output);
    }
    assert_eq!(outputs[5], json!({ "dagNodeId": "12", "written": true }));
    let mapping = env.jobs.get_mapping(JOB, "12").unwrap().unwrap();
    assert_eq!(mapping.node_name, "HashAggregate");
    assert!(mapping.mapped_code.unwrap().file.starts_with("jobs/"));

    // A cold Lambda (no cached context) rebuilds it from planKey + indexKey: same candidates.
    let cold = Arc::new(PipelineTasks::new(
        env.jobs.clone(),
        env.blobs.clone(),
        Arc::new(plan2code_core::pipeline::reason::EvidenceReasoner),
        pipeline_config().expect("pipeline settings"),
    ));
    // FinalMapping deleted the node's intermediates; the cold Lambda gets its semantics back
    // and must recompute the candidates.
    for what in [
        "semantics",
        "candidates",
        "filtered",
        "reasoning",
        "mapping",
    ] {
        let key = format!("jobs/job-example/nodes/12/{what}.json");
        assert_eq!(env.blobs.get(&key).unwrap(), None, "{key} left behind");
    }
    let (semantics, warm_candidates) = kept.unwrap();
    env.blobs.put(semantics_key, &semantics).unwrap();
    let warm_candidates = Some(warm_candidates);
    let mut event = sample("embedding-retrieval");
    event["indexKey"] = json!(index_key);
    invoke(move |i| cold.embedding_retrieval(i), event)
        .await
        .unwrap();
    // Same sites in the same order; scores may differ in the last bits (summation order).
    let sites = |bytes: Option<Vec<u8>>| -> Vec<(Value, Value, Value)> {
        let list: Vec<Value> = serde_json::from_slice(&bytes.unwrap()).unwrap();
        list.into_iter()
            .map(|c| (c["file"].clone(), c["start"].clone(), c["end"].clone()))
            .collect()
    };
    let cold_sites = sites(env.blobs.get(candidates_key).unwrap());
    assert!(!cold_sites.is_empty());
    assert_eq!(cold_sites, sites(warm_candidates));
}

#[tokio::test]
async fn control_handlers_run_on_their_sample_events() {
    let env = local("user-7f3a");
    let jobs = env.jobs.clone();
    env.jobs
        .set_job_status(JOB, JobStatus::Running, None)
        .unwrap();

    let j = jobs.clone();
    let flags = invoke(move |i| check_job_flags(&*j, i), sample("check-job-flags"))
        .await
        .unwrap();
    assert_eq!(flags, json!({ "status": "running" }));

    // Not paused: the gate parks the token and releases it at once.
    let (j, sink) = (jobs.clone(), Arc::new(TaskTokens::new()));
    let gate = invoke(move |i| pause_gate(&*j, &*sink, i), sample("pause-gate"))
        .await
        .unwrap();
    assert_eq!(gate, json!({}));
    assert!(jobs.take_tokens(JOB).unwrap().is_empty());

    let j = jobs.clone();
    let unmapped = invoke(move |i| record_unmapped(&*j, i), sample("record-unmapped"))
        .await
        .unwrap();
    assert_eq!(unmapped, json!({ "dagNodeId": "12", "written": true }));
    let mapping = jobs.get_mapping(JOB, "12").unwrap().unwrap();
    assert!(mapping.error.unwrap().starts_with("LLM_RATE_LIMIT: "));

    let j = jobs.clone();
    let done = invoke(move |i| complete_job(&*j, i), sample("complete-job"))
        .await
        .unwrap();
    assert_eq!(done, json!({ "jobId": JOB, "status": "completed" }));
    let events = jobs.events_after(JOB, 0, 100).unwrap();
    assert_eq!(events.last().unwrap().event_type, EventType::JobCompleted);
}

#[tokio::test]
async fn failures_surface_with_the_workflow_error_names() {
    let env = local("user-7f3a");
    let t = env.tasks.clone();
    let mut event = sample("embedding-retrieval");
    event.as_object_mut().unwrap().remove("semantics");
    let failure = invoke(move |i| t.embedding_retrieval(i), event)
        .await
        .unwrap_err();
    let diagnostic = Diagnostic::from(failure);
    assert_eq!(diagnostic.error_type, "INVALID_INPUT");
    assert!(diagnostic.error_message.contains("semantics.key"));

    env.blobs.put(&plan_key(JOB), b" \n ").unwrap();
    let t = env.tasks.clone();
    let failure = invoke(move |i| t.load_repo_context(i), load_event())
        .await
        .unwrap_err();
    assert_eq!(Diagnostic::from(failure).error_type, "PARSE_ERROR");

    let t = env.tasks.clone();
    let mut event = load_event();
    event["repo"]["url"] = json!("https://127.0.0.1:9/nobody/nothing.git");
    env.blobs
        .put(
            &plan_key(JOB),
            &std::fs::read(root().join("events/plans/daily-revenue.formatted.txt")).unwrap(),
        )
        .unwrap();
    let failure = invoke(move |i| t.load_repo_context(i), event)
        .await
        .unwrap_err();
    assert_eq!(Diagnostic::from(failure).error_type, "CLONE_FAILED");
}

/// Records what the API asked to start.
#[derive(Default)]
struct RecordingLauncher {
    started: Mutex<Vec<(String, Value, bool)>>,
}

impl JobLauncher for RecordingLauncher {
    fn start(&self, job_id: &str, input: Value, token: Option<Secret>) -> Result<(), LaunchError> {
        self.started
            .lock()
            .unwrap()
            .push((job_id.to_owned(), input, token.is_some()));
        Ok(())
    }

    fn control(&self) -> &dyn WorkflowControl {
        unreachable!("the sample events do not control jobs")
    }
}

fn api_state(
    env: &Local,
    auth: Arc<dyn plan2code_api::Authenticator>,
    launcher: Arc<RecordingLauncher>,
) -> ApiState {
    ApiState {
        jobs: env.jobs.clone(),
        blobs: env.blobs.clone(),
        auth,
        launcher,
        limits: ApiLimits::default(),
        access: plan2code_api::RepoAccess::none(),
    }
}

async fn call_router(
    state: ApiState,
    event: &str,
    tweak: impl FnOnce(&mut Value),
) -> (u16, String) {
    call(router(state), event, tweak).await
}

async fn call(app: axum::Router, event: &str, tweak: impl FnOnce(&mut Value)) -> (u16, String) {
    let mut payload = sample(event);
    tweak(&mut payload);
    let request: lambda_http::request::LambdaRequest = serde_json::from_value(payload).unwrap();
    let request: lambda_http::Request = request.into();
    let response = app.oneshot(request).await.unwrap();
    let status = response.status().as_u16();
    let body = http_body_util::BodyExt::collect(response.into_body())
        .await
        .unwrap()
        .to_bytes();
    (status, String::from_utf8_lossy(&body).into_owned())
}

#[tokio::test]
async fn api_handlers_run_on_their_sample_events() {
    let env = local("user-7f3a");
    let launcher = Arc::new(RecordingLauncher::default());
    let jwt = api_state(&env, Arc::new(JwtSubject), launcher.clone());

    let (status, body) = call_router(jwt.clone(), "api", |_| {}).await;
    assert_eq!(status, 200, "{body}");
    let job: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(job["id"], JOB);

    // Another subject does not see the job.
    let (status, _) = call_router(jwt.clone(), "api", |e| {
        e["requestContext"]["authorizer"]["jwt"]["claims"]["sub"] = json!("user-other");
    })
    .await;
    assert_eq!(status, 404);

    let (status, body) = call_router(jwt.clone(), "api-create-job", |_| {}).await;
    assert_eq!(status, 201, "{body}");
    let started = launcher.started.lock().unwrap().clone();
    assert_eq!(started.len(), 1);
    assert_eq!(
        started[0].1["repo"]["url"],
        "https://github.com/example-org/shop-analytics.git"
    );
    assert_eq!(
        env.jobs.job_owner(&started[0].0).unwrap().as_deref(),
        Some("user-7f3a")
    );

    // The stream URL (IAM): events after Last-Event-ID, then the end of a finished job.
    for kind in [
        EventType::JobStarted,
        EventType::StageStarted,
        EventType::JobCompleted,
    ] {
        env.jobs
            .append_event(JOB, kind, json!({ "status": "completed" }))
            .unwrap();
    }
    env.jobs
        .set_job_status(JOB, JobStatus::Completed, None)
        .unwrap();
    let iam = api_state(&env, Arc::new(IamPrincipal), launcher.clone());
    // The stream URL changes nothing, whoever signs.
    let (status, _) = call(stream_router(iam.clone()), "api-create-job", |_| {}).await;
    assert_eq!(status, 404);
    let (status, body) = call(stream_router(iam), "api-stream", |e| {
        e["headers"]["last-event-id"] = json!("1");
    })
    .await;
    assert_eq!(status, 200);
    assert!(
        body.contains("id: 2\n") && body.contains("event: job_completed"),
        "{body}"
    );
    assert!(!body.contains("id: 1\n"));
}

#[test]
fn batch_mapper_submits_pending_requests_once() {
    let env = local("user-7f3a");
    let launcher = Arc::new(RecordingLauncher::default());
    let state = api_state(&env, Arc::new(JwtSubject), launcher.clone());
    let good = json!({
        "repositoryUrl": "https://github.com/example-org/shop-analytics.git",
        "planContent": std::fs::read_to_string(root().join("events/plans/daily-revenue.formatted.txt")).unwrap(),
        "token": "ghp_must_be_dropped",
    });
    env.blobs
        .put(
            "batch/pending/nightly.json",
            &serde_json::to_vec(&good).unwrap(),
        )
        .unwrap();
    env.blobs.put("batch/pending/broken.json", b"{").unwrap();
    let keys = vec![
        "batch/pending/nightly.json".to_owned(),
        "batch/pending/broken.json".to_owned(),
    ];
    let report = batch::map_pending(&state, &keys).unwrap();
    assert_eq!(report.started.len(), 1);
    assert_eq!(report.rejected.len(), 1);
    let started = launcher.started.lock().unwrap().clone();
    assert!(!started[0].2, "a batch request's token is dropped");
    assert_eq!(
        env.jobs.job_owner(&report.started[0]).unwrap().as_deref(),
        Some("batch")
    );
    assert!(
        env.blobs
            .get("batch/pending/nightly.json")
            .unwrap()
            .is_none()
    );
    assert!(
        env.blobs
            .get("batch/rejected/broken.json")
            .unwrap()
            .is_some()
    );
    // A second run finds nothing to do.
    let again = batch::map_pending(&state, &keys).unwrap();
    assert!(again.started.is_empty() && again.rejected.is_empty());
}
