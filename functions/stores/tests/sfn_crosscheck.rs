//! Cross-check: `statemachine/mapping.asl.json` takes the same paths on moto's Step Functions
//! interpreter as in the local runner, for the same inputs.
//!
//! Both sides get Lambda results the way moto's lambda-simple backend gives them: a FIFO queue
//! of canned results shared by every invocation, the invocation's own payload echoed back when
//! the queue is empty. The local side registers every function as exactly that. A scenario
//! script drives both through one [`Backend`] interface (queue results, wait for the n-th
//! task token, send success / failure) and the test compares the states entered, in order, the
//! number of `.waitForTaskToken` attempts and the final status. `MaxParallelNodes` is 1 so the
//! order of Map iterations is deterministic on both sides.
//!
//! Known moto deviations, found here and encoded explicitly:
//! * a retried `.waitForTaskToken` attempt reuses the token and immediately re-receives the
//!   previous failure (AWS issues a fresh token per attempt), so the retry scenario sends its
//!   failure once on moto and once per attempt locally;
//! * after one execution in a region, moto fails every later StartExecution in that region
//!   (500: it deep-copies a state machine holding a lock), so each scenario uses its own region;
//! * moto's Lambda backend cannot return a function error, so task failures are injected through
//!   `SendTaskFailure` on the token task, which goes through the same Retry/Catch as any Task.
#![cfg(feature = "aws")]

use aws_sdk_sfn::types::{ExecutionStatus, HistoryEvent};
use plan2code_core::workflow::{
    LocalRunner, MAPPING_ASL, StateMachine, TaskRegistry, TaskTokens, local_substitutions,
};
use plan2code_stores::SqliteJobStore;
use plan2code_stores::aws::{AwsBridge, Emulator};
use serde_json::{Value, json};
use std::collections::{HashMap, VecDeque};
use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const ENDPOINT_VAR: &str = "PLAN2CODE_MOTO_ENDPOINT";
const REQUIRE_VAR: &str = "PLAN2CODE_REQUIRE_EMULATOR";
const FUNCTIONS: [&str; 11] = [
    "LoadRepoContext",
    "CheckJobFlags",
    "PauseGate",
    "PlanSemantics",
    "EmbeddingRetrieval",
    "AstFilter",
    "ReasoningAgent",
    "ConfidenceGate",
    "FinalMapping",
    "RecordUnmapped",
    "CompleteJob",
];

#[derive(Debug, PartialEq)]
struct Outcome {
    succeeded: bool,
    states_entered: Vec<String>,
    token_attempts: usize,
}

trait Backend {
    fn queue(&self, results: Vec<Value>);
    fn start(&mut self, input: Value);
    /// Wait until the n-th (1-based) `.waitForTaskToken` attempt is waiting; its token.
    fn token(&self, n: usize) -> String;
    fn succeed(&self, token: &str);
    fn fail(&self, token: &str, error: &str);
    /// moto re-delivers a token failure to the retried attempt (see the module docs).
    fn redelivers_token_failures(&self) -> bool;
    fn finish(&mut self) -> Outcome;
}

fn wait_for<T>(what: &str, mut poll: impl FnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(value) = poll() {
            return value;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

// ---------------------------------------------------------------------------------------------
// Local side: the runner with lambda-simple-like functions.

struct Local {
    queue: Arc<Mutex<VecDeque<Value>>>,
    tokens_seen: Arc<Mutex<Vec<String>>>,
    entered: Arc<Mutex<Vec<String>>>,
    runner: Arc<LocalRunner>,
    run: Option<std::thread::JoinHandle<bool>>,
}

impl Local {
    fn new() -> Self {
        let queue: Arc<Mutex<VecDeque<Value>>> = Arc::default();
        let tokens_seen: Arc<Mutex<Vec<String>>> = Arc::default();
        let entered: Arc<Mutex<Vec<String>>> = Arc::default();
        let mut registry = TaskRegistry::new();
        for function in FUNCTIONS {
            let (queue, tokens_seen) = (queue.clone(), tokens_seen.clone());
            registry.register(format!("{function}Function"), move |payload: Value| {
                if let Some(token) = payload.get("taskToken").and_then(Value::as_str) {
                    tokens_seen.lock().unwrap().push(token.to_owned());
                }
                Ok(queue.lock().unwrap().pop_front().unwrap_or(payload))
            });
        }
        let machine =
            StateMachine::load(MAPPING_ASL, &local_substitutions(MAPPING_ASL, 1)).unwrap();
        let store = Arc::new(SqliteJobStore::in_memory().unwrap());
        let seen = entered.clone();
        let runner = LocalRunner::new(machine, registry, store, Arc::new(TaskTokens::new()))
            .unwrap()
            .with_sleep(|_| {})
            .with_observer(move |_, state| seen.lock().unwrap().push(state.to_owned()));
        Self {
            queue,
            tokens_seen,
            entered,
            runner: Arc::new(runner),
            run: None,
        }
    }
}

impl Backend for Local {
    fn queue(&self, results: Vec<Value>) {
        self.queue.lock().unwrap().extend(results);
    }
    fn start(&mut self, input: Value) {
        let runner = self.runner.clone();
        self.run = Some(std::thread::spawn(move || {
            runner.run("crosscheck", input).is_ok()
        }));
    }
    fn token(&self, n: usize) -> String {
        wait_for("a local task token", || {
            self.tokens_seen.lock().unwrap().get(n - 1).cloned()
        })
    }
    fn succeed(&self, token: &str) {
        self.runner.tokens().send_success(token, json!({})).unwrap();
    }
    fn fail(&self, token: &str, error: &str) {
        self.runner
            .tokens()
            .send_failure(token, error, "injected")
            .unwrap();
    }
    fn redelivers_token_failures(&self) -> bool {
        false
    }
    fn finish(&mut self) -> Outcome {
        let succeeded = self.run.take().map(|h| h.join().unwrap()).unwrap_or(false);
        Outcome {
            succeeded,
            states_entered: self.entered.lock().unwrap().clone(),
            token_attempts: self.tokens_seen.lock().unwrap().len(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// moto side.

/// POST a JSON body to moto's control API (`/moto-api/…`) with a bare HTTP/1.1 request.
fn moto_api(endpoint: &str, path: &str, body: &Value) {
    let host = endpoint.trim_start_matches("http://");
    let body = body.to_string();
    let mut stream = std::net::TcpStream::connect(host).unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let status = response.split_whitespace().nth(1).unwrap_or("");
    assert!(status.starts_with("20"), "moto {path}: {response}");
}

struct Moto {
    endpoint: String,
    region: String,
    bridge: Arc<AwsBridge>,
    client: aws_sdk_sfn::Client,
    state_machine_arn: String,
    execution_arn: Option<String>,
}

impl Moto {
    fn new(endpoint: String, region: &str) -> Self {
        moto_api(
            &endpoint,
            "/moto-api/config",
            &json!({
                "stepfunctions": { "execute_state_machine": true },
                "lambda": { "use_docker": false },
            }),
        );
        let bridge = AwsBridge::new().unwrap();
        let emulator = Emulator {
            endpoint: endpoint.clone(),
            region: region.into(),
        };
        let client = aws_sdk_sfn::Client::new(&bridge.sdk_config(Some(&emulator)).unwrap());
        let mut substitutions: HashMap<String, String> = local_substitutions(MAPPING_ASL, 1);
        for (name, value) in substitutions.iter_mut() {
            if let Some(function) = name.strip_suffix("FunctionArn") {
                *value =
                    format!("arn:aws:lambda:{region}:123456789012:function:plan2code-{function}");
            }
        }
        let definition =
            plan2code_core::workflow::definition::substitute(MAPPING_ASL, &substitutions).unwrap();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos();
        let request = client
            .create_state_machine()
            .name(format!("plan2code-crosscheck-{nanos}"))
            .definition(definition)
            .role_arn("arn:aws:iam::123456789012:role/plan2code-states");
        let created = bridge
            .run(async move { request.send().await })
            .unwrap()
            .unwrap();
        Self {
            endpoint,
            region: region.into(),
            bridge,
            client,
            state_machine_arn: created.state_machine_arn,
            execution_arn: None,
        }
    }

    fn history(&self) -> Vec<HistoryEvent> {
        let Some(arn) = self.execution_arn.clone() else {
            return vec![];
        };
        let request = self
            .client
            .get_execution_history()
            .execution_arn(arn)
            .max_results(1000);
        self.bridge
            .run(async move { request.send().await })
            .unwrap()
            .unwrap()
            .events
    }

    fn scheduled_tokens(&self) -> Vec<String> {
        self.history()
            .iter()
            .filter_map(|e| e.task_scheduled_event_details())
            .filter_map(|d| serde_json::from_str::<Value>(d.parameters()).ok())
            .filter_map(|p| p["Payload"]["taskToken"].as_str().map(str::to_owned))
            .collect()
    }
}

impl Backend for Moto {
    fn queue(&self, results: Vec<Value>) {
        let results: Vec<String> = results.iter().map(Value::to_string).collect();
        moto_api(
            &self.endpoint,
            "/moto-api/static/lambda-simple/response",
            &json!({
                "results": results, "region": self.region,
            }),
        );
    }
    fn start(&mut self, input: Value) {
        let request = self
            .client
            .start_execution()
            .state_machine_arn(&self.state_machine_arn)
            .name("crosscheck")
            .input(input.to_string());
        let started = self
            .bridge
            .run(async move { request.send().await })
            .unwrap()
            .unwrap();
        self.execution_arn = Some(started.execution_arn);
    }
    fn token(&self, n: usize) -> String {
        wait_for("a moto task token", || {
            self.scheduled_tokens().get(n - 1).cloned()
        })
    }
    fn succeed(&self, token: &str) {
        let request = self
            .client
            .send_task_success()
            .task_token(token)
            .output("{}");
        self.bridge
            .run(async move { request.send().await })
            .unwrap()
            .unwrap();
    }
    fn fail(&self, token: &str, error: &str) {
        let request = self
            .client
            .send_task_failure()
            .task_token(token)
            .error(error)
            .cause("injected");
        self.bridge
            .run(async move { request.send().await })
            .unwrap()
            .unwrap();
    }
    fn redelivers_token_failures(&self) -> bool {
        true
    }
    fn finish(&mut self) -> Outcome {
        let arn = self.execution_arn.clone().unwrap();
        let status = wait_for("the moto execution to end", || {
            let request = self.client.describe_execution().execution_arn(arn.clone());
            let status = self
                .bridge
                .run(async move { request.send().await })
                .unwrap()
                .unwrap()
                .status;
            (status != ExecutionStatus::Running).then_some(status)
        });
        let history = self.history();
        Outcome {
            succeeded: status == ExecutionStatus::Succeeded,
            states_entered: history
                .iter()
                .filter_map(|e| e.state_entered_event_details().map(|d| d.name().to_owned()))
                .collect(),
            token_attempts: history
                .iter()
                .filter(|e| e.task_scheduled_event_details().is_some())
                .count(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Scenarios: one script, two backends.

fn load_result(nodes: usize) -> Value {
    let dag_nodes: Vec<Value> = (0..nodes)
        .map(|i| json!({ "dagNodeId": i.to_string(), "nodeName": format!("Node{i}") }))
        .collect();
    json!({ "jobId": "crosscheck", "planKey": "jobs/crosscheck/plan.json", "indexKey": "index/k/index.json",
            "cacheKey": "k", "commit": "abc", "dagNodes": dag_nodes })
}

fn flags(status: &str) -> Value {
    json!({ "status": status })
}

/// The canned results of one node's pipeline after CheckJobFlags said `running`.
fn pipeline(node: usize) -> Vec<Value> {
    let mut results: Vec<Value> = (0..5)
        .map(|i| json!({ "key": format!("jobs/crosscheck/nodes/{node}/{i}.json") }))
        .collect();
    results.push(json!({ "dagNodeId": node.to_string(), "written": true }));
    results
}

const PIPELINE_STATES: [&str; 6] = [
    "PlanSemantics",
    "EmbeddingRetrieval",
    "AstFilter",
    "ReasoningAgent",
    "ConfidenceGate",
    "FinalMapping",
];

fn path(parts: &[&[&str]]) -> Vec<String> {
    parts
        .iter()
        .flat_map(|p| p.iter().map(|s| s.to_string()))
        .collect()
}

/// Map over three nodes: two run their pipeline, the third finds the job cancelled.
fn map_with_running_and_cancelled_nodes(b: &mut dyn Backend) -> Outcome {
    let mut results = vec![load_result(3)];
    for node in 0..2 {
        results.push(flags("running"));
        results.extend(pipeline(node));
    }
    results.push(flags("cancelled"));
    results.push(json!({ "jobId": "crosscheck", "status": "completed" }));
    b.queue(results);
    b.start(json!({ "jobId": "crosscheck", "planKey": "jobs/crosscheck/plan.json" }));
    b.finish()
}

/// Node 0 is paused and resumed (token success); node 1 is paused and its token fails with a
/// non-retryable error, which the per-node Catch records as unmapped.
fn pause_resume_then_catch(b: &mut dyn Backend) -> Outcome {
    b.queue(vec![load_result(2), flags("paused"), json!({})]);
    b.start(json!({ "jobId": "crosscheck" }));
    let first = b.token(1);
    let mut results = vec![flags("running")];
    results.extend(pipeline(0));
    results.extend([flags("paused"), json!({})]);
    b.queue(results);
    b.succeed(&first);
    let second = b.token(2);
    b.queue(vec![
        json!({ "dagNodeId": "1", "written": true }),
        json!({ "jobId": "crosscheck", "status": "completed" }),
    ]);
    b.fail(&second, "PARSE_ERROR");
    b.finish()
}

/// A retryable failure on every attempt: 1 try + 3 retries, then the Catch.
fn retries_exhausted_then_catch(b: &mut dyn Backend) -> Outcome {
    b.queue(vec![load_result(1), flags("paused"), json!({})]);
    b.start(json!({ "jobId": "crosscheck" }));
    for attempt in 1..=4 {
        let token = b.token(attempt);
        if attempt == 1 || !b.redelivers_token_failures() {
            b.fail(&token, "LLM_RATE_LIMIT");
        }
    }
    b.finish()
}

fn moto_endpoint() -> Option<String> {
    match std::env::var(ENDPOINT_VAR) {
        Ok(endpoint) => Some(endpoint),
        Err(_) => {
            assert!(
                std::env::var(REQUIRE_VAR).as_deref() != Ok("1"),
                "{ENDPOINT_VAR} is not set but {REQUIRE_VAR}=1"
            );
            eprintln!(
                "skipping the moto half of the Step Functions cross-check: {ENDPOINT_VAR} is not set"
            );
            None
        }
    }
}

/// Run `scenario` locally, check the expected path, then on moto (own region) and compare.
fn cross_check(scenario: fn(&mut dyn Backend) -> Outcome, region: &str, expected: Outcome) {
    let local = scenario(&mut Local::new());
    assert_eq!(local, expected, "local runner");
    if let Some(endpoint) = moto_endpoint() {
        let on_moto = scenario(&mut Moto::new(endpoint, region));
        assert_eq!(on_moto, local, "moto vs local runner");
    }
}

#[test]
fn map_paths_agree() {
    let node = |tail: &[&str]| -> Vec<String> { path(&[&["CheckJobFlags", "RouteOnFlags"], tail]) };
    let mut states = path(&[&["LoadRepoContext", "MapDagNodes"]]);
    states.extend(node(&PIPELINE_STATES));
    states.extend(node(&PIPELINE_STATES));
    states.extend(node(&["NodeSkipped"]));
    states.push("CompleteJob".into());
    cross_check(
        map_with_running_and_cancelled_nodes,
        "us-west-1",
        Outcome {
            succeeded: true,
            states_entered: states,
            token_attempts: 0,
        },
    );
}

#[test]
fn task_token_wait_and_catch_paths_agree() {
    let mut states = path(&[&[
        "LoadRepoContext",
        "MapDagNodes",
        "CheckJobFlags",
        "RouteOnFlags",
        "WaitForResume",
        "CheckJobFlags",
        "RouteOnFlags",
    ]]);
    states.extend(PIPELINE_STATES.iter().map(|s| s.to_string()));
    states.extend(path(&[&[
        "CheckJobFlags",
        "RouteOnFlags",
        "WaitForResume",
        "RecordUnmapped",
        "CompleteJob",
    ]]));
    cross_check(
        pause_resume_then_catch,
        "us-west-2",
        Outcome {
            succeeded: true,
            states_entered: states,
            token_attempts: 2,
        },
    );
}

#[test]
fn retry_then_catch_paths_agree() {
    let states = path(&[&[
        "LoadRepoContext",
        "MapDagNodes",
        "CheckJobFlags",
        "RouteOnFlags",
        "WaitForResume",
        "RecordUnmapped",
        "CompleteJob",
    ]]);
    cross_check(
        retries_exhausted_then_catch,
        "eu-west-1",
        Outcome {
            succeeded: true,
            states_entered: states,
            token_attempts: 4,
        },
    );
}
