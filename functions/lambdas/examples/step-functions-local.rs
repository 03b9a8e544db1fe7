//! A local Step Functions for `scripts/cloud-e2e`: `statemachine/mapping.asl.json`, executed by
//! the project's [`LocalRunner`], with every Task invoking its Lambda function over the Lambda
//! Invoke API (`POST /2015-03-31/functions/{name}/invocations`) and the Step Functions API the
//! functions call (`StartExecution`, `SendTaskSuccess`, `SendTaskFailure`, `StopExecution`,
//! `DescribeExecution`; JSON 1.0 protocol) served on 127.0.0.1.
//!
//! Why not moto's Step Functions: it records executions but runs no Lambda without Docker, so a
//! task token parked by the PauseGate function would never reach a waiting task. Why an example
//! and not a binary: `cargo lambda build` packages every binary of this crate as a function.
//!
//! ```text
//! cargo run -p plan2code-lambdas --example step-functions-local -- \
//!     --invoke http://127.0.0.1:PORT --state-machine-arn ARN [--history FILE] [--max-parallel-nodes N]
//! ```
//!
//! It prints `listening http://127.0.0.1:PORT` once ready. `--history` receives one JSON line per
//! execution start, task invocation (its payload and result or error) and execution end — what
//! Step Functions keeps as an execution's event history, so a test can search it for secrets.

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use plan2code_core::workflow::definition::placeholders;
use plan2code_core::workflow::{
    LocalRunner, MAPPING_ASL, StateMachine, TaskError, TaskRegistry, TaskTokens, WorkflowError,
};
use plan2code_stores::SqliteJobStore;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The command line: where the functions are invoked and which machine this serves.
struct Options {
    invoke: String,
    state_machine_arn: String,
    history: Option<std::path::PathBuf>,
    max_parallel_nodes: u32,
}

fn options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let (mut invoke, mut arn, mut history, mut parallel) = (None, None, None, 4);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--invoke" => invoke = Some(value()?),
            "--state-machine-arn" => arn = Some(value()?),
            "--history" => history = Some(value()?.into()),
            "--max-parallel-nodes" => {
                parallel = value()?
                    .parse()
                    .map_err(|e| format!("--max-parallel-nodes: {e}"))?
            }
            other => return Err(format!("unknown argument `{other}`")),
        }
    }
    Ok(Options {
        invoke: invoke.ok_or("--invoke is required")?,
        state_machine_arn: arn.ok_or("--state-machine-arn is required")?,
        history,
        max_parallel_nodes: parallel,
    })
}

/// The execution history, one JSON object per line (shared by the runner's threads).
#[derive(Clone, Default)]
struct History(Option<Arc<Mutex<std::fs::File>>>);

impl History {
    fn record(&self, event: Value) {
        if let Some(file) = &self.0 {
            let mut file = file.lock().unwrap_or_else(|p| p.into_inner());
            let _ = writeln!(file, "{event}");
        }
    }
}

/// A task handler that invokes `function` over the Lambda Invoke API, as Step Functions'
/// Lambda integration does: a function error (`X-Amz-Function-Error`) becomes the task's error,
/// named by the function's `errorType` so the definition's Retry and Catch see it.
fn invoke_handler(
    client: reqwest::blocking::Client,
    invoke: &str,
    function: String,
    history: History,
) -> impl Fn(Value) -> Result<Value, TaskError> + Send + Sync + 'static {
    let url = format!("{invoke}/2015-03-31/functions/{function}/invocations");
    move |payload: Value| {
        let answer = client
            .post(&url)
            .json(&payload)
            .send()
            .and_then(|r| {
                let failed = r.headers().contains_key("x-amz-function-error");
                r.bytes().map(|b| (failed, b))
            })
            .map_err(|e| TaskError::new("Lambda.ServiceException", e.to_string()))
            .and_then(|(failed, body)| {
                let value: Value = serde_json::from_slice(&body).map_err(|e| {
                    TaskError::new("Lambda.ServiceException", format!("not JSON: {e}"))
                })?;
                if !failed {
                    return Ok(value);
                }
                let text = |k: &str| value.get(k).and_then(Value::as_str).unwrap_or("");
                Err(TaskError::new(
                    match text("errorType") {
                        "" => "Lambda.Unknown",
                        name => name,
                    },
                    text("errorMessage"),
                ))
            });
        history.record(match &answer {
            Ok(result) => json!({"task": function, "payload": payload, "result": result}),
            Err(e) => {
                json!({"task": function, "payload": payload, "error": e.error, "cause": e.cause})
            }
        });
        answer
    }
}

/// What the API needs of the running service.
struct Service {
    runner: Arc<LocalRunner>,
    state_machine_arn: String,
    executions: Mutex<HashMap<String, Execution>>,
    history: History,
}

#[derive(Clone)]
struct Execution {
    job_id: String,
    input: String,
    status: &'static str,
    output: Option<String>,
    error: Option<(String, String)>,
    start_date: f64,
}

fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

/// An error in the shape the AWS SDKs read (`__type` names the modelled exception).
fn aws_error(kind: &str, message: impl Into<String>) -> Response {
    (
        StatusCode::BAD_REQUEST,
        [("content-type", "application/x-amz-json-1.0")],
        json!({"__type": kind, "message": message.into()}).to_string(),
    )
        .into_response()
}

fn aws_ok(body: Value) -> Response {
    (
        [("content-type", "application/x-amz-json-1.0")],
        body.to_string(),
    )
        .into_response()
}

fn text<'a>(request: &'a Value, field: &str) -> &'a str {
    request.get(field).and_then(Value::as_str).unwrap_or("")
}

impl Service {
    fn execution_arn(&self, job_id: &str) -> String {
        format!(
            "{}:{job_id}",
            self.state_machine_arn
                .replacen(":stateMachine:", ":execution:", 1)
        )
    }

    fn start(self: &Arc<Self>, request: &Value) -> Response {
        if text(request, "stateMachineArn") != self.state_machine_arn {
            return aws_error(
                "StateMachineDoesNotExist",
                format!(
                    "State Machine Does Not Exist: '{}'",
                    text(request, "stateMachineArn")
                ),
            );
        }
        let job_id = text(request, "name").to_owned();
        let raw_input = text(request, "input").to_owned();
        let input: Value = match serde_json::from_str(&raw_input) {
            Ok(v) => v,
            Err(e) => return aws_error("InvalidExecutionInput", e.to_string()),
        };
        let arn = self.execution_arn(&job_id);
        let mut executions = self.executions.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(existing) = executions.get(&arn) {
            // Step Functions: the same name and input is the same execution; else a conflict
            if existing.input == raw_input {
                return aws_ok(json!({"executionArn": arn, "startDate": existing.start_date}));
            }
            return aws_error(
                "ExecutionAlreadyExists",
                format!("Execution Already Exists: '{arn}'"),
            );
        }
        let start_date = now();
        executions.insert(
            arn.clone(),
            Execution {
                job_id: job_id.clone(),
                input: raw_input,
                status: "RUNNING",
                output: None,
                error: None,
                start_date,
            },
        );
        drop(executions);
        self.history
            .record(json!({"execution": arn, "started": input}));
        let service = self.clone();
        let execution_arn = arn.clone();
        std::thread::spawn(move || {
            let outcome = service.runner.run(&job_id, input);
            service.finish(&execution_arn, outcome);
        });
        aws_ok(json!({"executionArn": arn, "startDate": start_date}))
    }

    fn finish(&self, arn: &str, outcome: Result<Value, WorkflowError>) {
        let mut executions = self.executions.lock().unwrap_or_else(|p| p.into_inner());
        let Some(execution) = executions.get_mut(arn) else {
            return;
        };
        match outcome {
            Ok(output) => {
                execution.status = "SUCCEEDED";
                execution.output = Some(output.to_string());
            }
            Err(WorkflowError::Aborted) => execution.status = "ABORTED",
            Err(WorkflowError::Failed { error, cause }) => {
                execution.status = "FAILED";
                execution.error = Some((error, cause));
            }
            Err(other) => {
                execution.status = "FAILED";
                execution.error = Some(("States.Runtime".into(), other.to_string()));
            }
        }
        self.history.record(json!({
            "execution": arn, "status": execution.status, "output": execution.output,
            "error": execution.error,
        }));
    }

    fn complete_token(&self, request: &Value, success: bool) -> Response {
        let token = text(request, "taskToken");
        let tokens = self.runner.tokens();
        let sent = if success {
            let output = serde_json::from_str(text(request, "output")).unwrap_or(Value::Null);
            tokens.send_success(token, output)
        } else {
            tokens.send_failure(token, text(request, "error"), text(request, "cause"))
        };
        match sent {
            Ok(()) => aws_ok(json!({})),
            Err(e) => aws_error("TaskDoesNotExist", e.to_string()),
        }
    }

    fn stop(&self, request: &Value) -> Response {
        let arn = text(request, "executionArn");
        let executions = self.executions.lock().unwrap_or_else(|p| p.into_inner());
        match executions.get(arn) {
            Some(execution) => {
                self.runner.stop(&execution.job_id);
                aws_ok(json!({"stopDate": now()}))
            }
            None => aws_error(
                "ExecutionDoesNotExist",
                format!("Execution Does Not Exist: '{arn}'"),
            ),
        }
    }

    fn describe(&self, request: &Value) -> Response {
        let arn = text(request, "executionArn");
        let executions = self.executions.lock().unwrap_or_else(|p| p.into_inner());
        let Some(e) = executions.get(arn) else {
            return aws_error(
                "ExecutionDoesNotExist",
                format!("Execution Does Not Exist: '{arn}'"),
            );
        };
        let mut body = json!({
            "executionArn": arn, "stateMachineArn": self.state_machine_arn, "name": e.job_id,
            "status": e.status, "startDate": e.start_date, "input": e.input,
        });
        if let Some(output) = &e.output {
            body["output"] = json!(output);
        }
        if let Some((error, cause)) = &e.error {
            body["error"] = json!(error);
            body["cause"] = json!(cause);
        }
        aws_ok(body)
    }
}

async fn api(State(service): State<Arc<Service>>, headers: HeaderMap, body: Bytes) -> Response {
    let target = headers
        .get("x-amz-target")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let Ok(request) = serde_json::from_slice::<Value>(&body) else {
        return aws_error("SerializationException", "the body is not JSON");
    };
    let service = service.clone();
    let target = target.to_owned();
    // the runner's control calls block (locks, the token hub): keep them off the reactor
    tokio::task::spawn_blocking(move || match target.as_str() {
        "AWSStepFunctions.StartExecution" => service.start(&request),
        "AWSStepFunctions.SendTaskSuccess" => service.complete_token(&request, true),
        "AWSStepFunctions.SendTaskFailure" => service.complete_token(&request, false),
        "AWSStepFunctions.StopExecution" => service.stop(&request),
        "AWSStepFunctions.DescribeExecution" => service.describe(&request),
        other => aws_error(
            "UnknownOperationException",
            format!("`{other}` is not served here"),
        ),
    })
    .await
    .unwrap_or_else(|e| aws_error("ServiceException", e.to_string()))
}

fn build(options: &Options) -> Result<Arc<Service>, String> {
    let history = History(match &options.history {
        Some(path) => Some(Arc::new(Mutex::new(
            std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
        ))),
        None => None,
    });
    // The Task resources become the functions' logical names (`PlanSemanticsFunction`), as the
    // local runner names them; the Invoke API resolves those to the running functions.
    let mut substitutions: HashMap<String, String> = placeholders(MAPPING_ASL)
        .into_iter()
        .filter_map(|name| Some((name.clone(), name.strip_suffix("Arn")?.to_owned())))
        .collect();
    substitutions.insert(
        "MaxParallelNodes".into(),
        options.max_parallel_nodes.to_string(),
    );
    let machine = StateMachine::load(MAPPING_ASL, &substitutions).map_err(|e| e.to_string())?;
    let client = reqwest::blocking::Client::builder()
        .timeout(Duration::from_secs(900))
        .build()
        .map_err(|e| e.to_string())?;
    let mut registry = TaskRegistry::new();
    for function in machine.task_functions().map_err(|e| e.to_string())? {
        let handler = invoke_handler(
            client.clone(),
            &options.invoke,
            function.clone(),
            history.clone(),
        );
        registry.register(function, handler);
    }
    // The execution's own state (Step Functions' side), apart from the functions' DynamoDB.
    let checkpoints = Arc::new(SqliteJobStore::in_memory().map_err(|e| e.to_string())?);
    let runner = LocalRunner::new(machine, registry, checkpoints, Arc::new(TaskTokens::new()))
        .map_err(|e| e.to_string())?;
    Ok(Arc::new(Service {
        runner: Arc::new(runner),
        state_machine_arn: options.state_machine_arn.clone(),
        executions: Mutex::new(HashMap::new()),
        history,
    }))
}

fn main() {
    // Built before the async runtime starts: the blocking HTTP client owns a runtime of its own,
    // which may not be created or dropped inside another.
    let service = match options().and_then(|o| build(&o)) {
        Ok(service) => service,
        Err(e) => {
            eprintln!("step-functions-local: {e}");
            std::process::exit(2);
        }
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("step-functions-local: {e}");
            std::process::exit(1);
        }
    };
    if let Err(e) = runtime.block_on(serve(service)) {
        eprintln!("step-functions-local: {e}");
        std::process::exit(1);
    }
}

async fn serve(service: Arc<Service>) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    println!("listening http://{}", listener.local_addr()?);
    let app = Router::new().route("/", post(api)).with_state(service);
    axum::serve(listener, app).await
}
