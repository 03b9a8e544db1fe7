//! plan2code on AWS Lambda: what every binary in `src/bin/` shares.
//!
//! Each binary is a thin adapter (serverless-rust-demo style): set up JSON logs
//! ([`init_tracing`]), build its ports once from the environment ([`AwsPorts::from_env`]:
//! `TABLE_NAME`, `BUCKET_NAME`, `STATE_MACHINE_ARN`), and hand a closure over a core function to
//! the runtime ([`run_task`]). The logic lives in `plan2code-core` (the pipeline tasks and the
//! workflow control functions) and `plan2code-api` (the HTTP router).
//!
//! Failures reach Step Functions as the Lambda error's `errorType` = the core's error name
//! (`CLONE_FAILED`, `LLM_RATE_LIMIT`, …) via [`NamedFailure`], so the definition's Retry / Catch
//! match them. Logs carry job ids and error names, never tokens or plan contents.

pub mod aws_api;
pub mod batch;

use lambda_runtime::{Diagnostic, LambdaEvent};
use plan2code_core::pipeline::tasks::PipelineTasks;
use plan2code_core::ports::{BlobStore, JobStore, StoreError};
use plan2code_core::settings::{self, SettingsError};
use plan2code_core::workflow::TaskError;
use plan2code_stores::aws::{
    AwsBridge, DistributedMachine, DynamoJobStore, S3BlobStore, SfnControl,
};
use serde_json::Value;
use std::sync::Arc;

/// JSON logs on standard output (CloudWatch), level from `RUST_LOG` (default `info`), without
/// the timestamp Lambda adds itself.
pub fn init_tracing() {
    let _ = tracing_subscriber::fmt()
        .json()
        .without_time()
        .with_current_span(false)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .try_init();
}

/// A task failure as Lambda reports it: `errorType` is the workflow error name.
#[derive(Debug)]
pub struct NamedFailure(pub TaskError);

impl From<NamedFailure> for Diagnostic {
    fn from(failure: NamedFailure) -> Self {
        Diagnostic {
            error_type: failure.0.error,
            error_message: failure.0.cause,
        }
    }
}

/// Why a Lambda could not start.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("environment variable {0} is not set")]
    MissingEnv(&'static str),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Settings(#[from] SettingsError),
    #[error("environment variable {name} must be {expected}, not {value:?}")]
    InvalidEnv {
        name: &'static str,
        expected: &'static str,
        value: String,
    },
}

fn env(name: &'static str) -> Result<String, SetupError> {
    std::env::var(name)
        .ok()
        .filter(|v| !v.is_empty())
        .ok_or(SetupError::MissingEnv(name))
}

/// The AWS implementations of the ports, built once per cold start.
pub struct AwsPorts {
    pub bridge: Arc<AwsBridge>,
    pub config: aws_config::SdkConfig,
    pub jobs: Arc<dyn JobStore>,
    pub blobs: Arc<dyn BlobStore>,
}

impl AwsPorts {
    /// DynamoDB table `TABLE_NAME` and S3 bucket `BUCKET_NAME`.
    pub fn from_env() -> Result<Self, SetupError> {
        let bridge = AwsBridge::new()?;
        let config = bridge.sdk_config(None)?;
        let jobs = Arc::new(DynamoJobStore::new(
            bridge.clone(),
            &config,
            env("TABLE_NAME")?,
        ));
        let path_style = std::env::var("AWS_ENDPOINT_URL").is_ok();
        let blobs = Arc::new(S3BlobStore::new(
            bridge.clone(),
            &config,
            env("BUCKET_NAME")?,
            path_style,
        ));
        Ok(Self {
            bridge,
            config,
            jobs,
            blobs,
        })
    }

    /// Step Functions control of `STATE_MACHINE_ARN` (start, pause, resume, cancel, task tokens);
    /// with `DISTRIBUTED_STATE_MACHINE_ARN`, jobs past `DISTRIBUTED_MAP_THRESHOLD` nodes (300)
    /// start on that Distributed Map machine.
    pub fn control(&self) -> Result<Arc<SfnControl>, SetupError> {
        let mut control = SfnControl::new(
            self.bridge.clone(),
            &self.config,
            env("STATE_MACHINE_ARN")?,
            self.jobs.clone(),
        );
        if let Ok(arn) = env("DISTRIBUTED_STATE_MACHINE_ARN") {
            let threshold = match env("DISTRIBUTED_MAP_THRESHOLD") {
                Err(_) => DEFAULT_DISTRIBUTED_THRESHOLD,
                Ok(value) => value.parse().map_err(|_| SetupError::InvalidEnv {
                    name: "DISTRIBUTED_MAP_THRESHOLD",
                    expected: "a whole number of nodes",
                    value,
                })?,
            };
            control = control.with_distributed(DistributedMachine { arn, threshold });
        }
        Ok(Arc::new(control))
    }
}

/// Nodes past which a job runs on the Distributed Map machine: an inline Map's execution history
/// (25,000 events, ~7 a node with retries and pauses) comes into sight at a few hundred nodes.
const DEFAULT_DISTRIBUTED_THRESHOLD: u64 = 300;

/// The pipeline tasks over the given stores, configured from the environment
/// ([`plan2code_core::settings`]: a bad setting fails the cold start with its name).
///
/// Built on a thread of its own: the LLM reasoner's blocking HTTP client starts a runtime of its
/// own, which tokio forbids inside the async `main` every function runs (a panic at cold start,
/// found by `scripts/cloud-e2e` with `LLM_BASE_URL` set).
pub fn pipeline_tasks(
    jobs: Arc<dyn JobStore>,
    blobs: Arc<dyn BlobStore>,
) -> Result<Arc<PipelineTasks>, SetupError> {
    let build = move || -> Result<Arc<PipelineTasks>, SetupError> {
        Ok(Arc::new(PipelineTasks::new(
            jobs,
            blobs,
            settings::reasoner()?,
            settings::pipeline_config()?,
        )))
    };
    std::thread::scope(|scope| scope.spawn(build).join())
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Run one task function on one event: off the async workers (the core is synchronous), with
/// the failure named for Step Functions and logged without its payload.
pub async fn handle<F>(task: Arc<F>, event: LambdaEvent<Value>) -> Result<Value, NamedFailure>
where
    F: Fn(&Value) -> Result<Value, TaskError> + Send + Sync + 'static,
{
    let payload = event.payload;
    let job = payload
        .get("jobId")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let node = payload
        .get("dagNodeId")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_owned();
    let outcome = tokio::task::spawn_blocking(move || task(&payload))
        .await
        .unwrap_or_else(|e| Err(TaskError::new("INTERNAL", e.to_string())));
    match &outcome {
        Ok(_) => tracing::info!(job = %job, node = %node, "task done"),
        Err(err) => tracing::warn!(job = %job, node = %node, error = %err.error, "task failed"),
    }
    outcome.map_err(NamedFailure)
}

/// Serve `task` on the Lambda runtime until the environment shuts down.
pub async fn run_task<F>(task: F) -> Result<(), lambda_runtime::Error>
where
    F: Fn(&Value) -> Result<Value, TaskError> + Send + Sync + 'static,
{
    let task = Arc::new(task);
    lambda_runtime::run(lambda_runtime::service_fn(move |event| {
        handle(task.clone(), event)
    }))
    .await
}
