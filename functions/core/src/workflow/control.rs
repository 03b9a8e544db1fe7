//! Job control: the workflow's own task functions and pause / resume / cancel.
//!
//! Besides the six pipeline nodes, the definition calls four small functions that only touch
//! the job store; they live here so the local runner and their Lambdas share them:
//!
//! | function (`…Function`) | input → output |
//! |---|---|
//! | `CheckJobFlags` | `{jobId}` → `{status}` (the job's status string: the pause/cancel flags) |
//! | `PauseGate` | `{jobId, dagNodeId, taskToken}` → `{}`; parks the token as `PAUSE#dagNodeId` |
//! | `RecordUnmapped` | `{jobId, dagNodeId, nodeName, error, cause}` → `{dagNodeId, written}` |
//! | `CompleteJob` | `{jobId, failure?: {Error, Cause}}` → `{jobId, status}` |
//!
//! Pause sets the job's status to `paused`; each node's next CheckJobFlags then routes it to
//! WaitForResume, whose PauseGate parks a task token. Resume sets `running` and completes every
//! parked token (local: [`TaskTokens`]; AWS: `SendTaskSuccess`). The gate re-reads the status
//! after parking, so a resume that raced ahead of the park still releases the node. Cancel sets
//! `cancelled` (terminal: a late CompleteJob cannot undo it) and stops the execution.

use super::tokens::TaskTokens;
use super::{LocalRunner, TaskError, TaskRegistry};
use crate::contracts::{
    ConfidenceFactors, ConfidenceStatus, EventType, JobStatus, MappingOutput, NodeKind,
    split_node_key,
};
use crate::ports::{JobStore, StoreError};
use serde_json::{Value, json};
use std::sync::Arc;

/// Longest error cause stored with an unmapped node (Lambda causes can be whole stack traces).
const MAX_CAUSE_CHARS: usize = 2_000;

/// Completes parked task tokens: the local hub, or Step Functions' `SendTaskSuccess`.
pub trait TokenSink: Send + Sync {
    fn send_success(&self, token: &str, output: Value) -> Result<(), String>;
}

impl TokenSink for TaskTokens {
    fn send_success(&self, token: &str, output: Value) -> Result<(), String> {
        TaskTokens::send_success(self, token, output).map_err(|e| e.to_string())
    }
}

/// Pause, resume and cancel a job's workflow; one implementation per way of running it.
pub trait WorkflowControl: Send + Sync {
    fn pause(&self, job_id: &str) -> Result<(), ControlError>;
    /// Returns how many parked nodes were released.
    fn resume(&self, job_id: &str) -> Result<usize, ControlError>;
    fn cancel(&self, job_id: &str) -> Result<(), ControlError>;
}

#[derive(Debug, thiserror::Error)]
pub enum ControlError {
    #[error("job {0} not found")]
    UnknownJob(String),
    #[error("job {job} is {status:?}; cannot {action}")]
    WrongState {
        job: String,
        status: JobStatus,
        action: &'static str,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("workflow service failed: {0}")]
    Service(String),
}

fn field<'a>(input: &'a Value, name: &str) -> Result<&'a str, TaskError> {
    input
        .get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| TaskError::new("INVALID_INPUT", format!("missing string field `{name}`")))
}

fn store_error(err: StoreError) -> TaskError {
    TaskError::from_named(&err)
}

fn status_name(status: JobStatus) -> Value {
    serde_json::to_value(status).unwrap_or(Value::Null)
}

/// `CheckJobFlags`: the job's status.
pub fn check_job_flags(store: &dyn JobStore, input: &Value) -> Result<Value, TaskError> {
    let job_id = field(input, "jobId")?;
    let job = store
        .get_job(job_id)
        .map_err(store_error)?
        .ok_or_else(|| TaskError::new("INVALID_INPUT", format!("unknown job {job_id}")))?;
    Ok(json!({ "status": status_name(job.status) }))
}

/// Complete every parked token of `job_id`; returns how many were released.
fn release_parked(
    store: &dyn JobStore,
    sink: &dyn TokenSink,
    job_id: &str,
) -> Result<usize, StoreError> {
    let mut released = 0;
    for (_node, token) in store.take_tokens(job_id)? {
        // A token of a process that died is unknown to the hub: its node re-parks on resume.
        if sink
            .send_success(&token, json!({ "resumed": true }))
            .is_ok()
        {
            released += 1;
        }
    }
    Ok(released)
}

/// `PauseGate`: park the node's task token; release it at once if the job is no longer paused.
pub fn pause_gate(
    store: &dyn JobStore,
    sink: &dyn TokenSink,
    input: &Value,
) -> Result<Value, TaskError> {
    let job_id = field(input, "jobId")?;
    let node = field(input, "dagNodeId")?;
    let token = field(input, "taskToken")?;
    store.park_token(job_id, node, token).map_err(store_error)?;
    let status = store
        .get_job(job_id)
        .map_err(store_error)?
        .map(|j| j.status);
    if status != Some(JobStatus::Paused) {
        release_parked(store, sink, job_id).map_err(store_error)?;
    }
    Ok(json!({}))
}

/// `RecordUnmapped`: the node failed for good; store it unmapped with its error (once).
pub fn record_unmapped(store: &dyn JobStore, input: &Value) -> Result<Value, TaskError> {
    let job_id = field(input, "jobId")?;
    let node = field(input, "dagNodeId")?;
    let error = field(input, "error").unwrap_or("States.TaskFailed");
    let cause: String = field(input, "cause")
        .unwrap_or("")
        .chars()
        .take(MAX_CAUSE_CHARS)
        .collect();
    let (execution_id, dag_node_id) = split_node_key(node);
    let mapping = MappingOutput {
        execution_id,
        dag_node_id: dag_node_id.to_owned(),
        node_name: field(input, "nodeName").unwrap_or("").to_owned(),
        node_kind: NodeKind::Code,
        mapped_code: None,
        confidence: 0.0,
        confidence_status: ConfidenceStatus::Uncertain,
        confidence_factors: ConfidenceFactors::default(),
        explanation: format!("not mapped: the node's pipeline failed with {error}"),
        alternatives: vec![],
        error: Some(format!("{error}: {cause}")),
    };
    let data = json!({ "dagNodeId": node, "mapped": false, "error": error, "cause": cause });
    let written = store
        .put_mapping_announced(job_id, &mapping, EventType::Error, data)
        .map_err(store_error)?
        .is_some();
    Ok(json!({ "dagNodeId": node, "written": written }))
}

/// `CompleteJob`: completed, or failed when `failure` is given; a terminal job keeps its status.
pub fn complete_job(store: &dyn JobStore, input: &Value) -> Result<Value, TaskError> {
    let job_id = field(input, "jobId")?;
    let failure = input.get("failure").filter(|f| !f.is_null());
    let (status, error) = match failure {
        Some(f) => {
            let text = |k: &str| f.get(k).and_then(Value::as_str).unwrap_or("").to_owned();
            let cause: String = text("Cause").chars().take(MAX_CAUSE_CHARS).collect();
            (
                JobStatus::Failed,
                Some(format!("{}: {cause}", text("Error"))),
            )
        }
        None => (JobStatus::Completed, None),
    };
    // The terminal event is stored before the status flips: a reader that sees a terminal status
    // (the SSE stream reads the status first, then the events) has every event already.
    let current = store.get_job(job_id).map_err(store_error)?;
    if let Some(job) = current.filter(|j| !j.status.is_terminal()) {
        let (event, data) = match &error {
            None => (
                EventType::JobCompleted,
                json!({ "status": "completed", "statistics": job.statistics }),
            ),
            Some(error) => (
                EventType::Error,
                json!({ "status": "failed", "error": error }),
            ),
        };
        store
            .append_event(job_id, event, data)
            .map_err(store_error)?;
        match store.set_job_status(job_id, status, error.as_deref()) {
            // Cancelled in between: the cancel wins, as before.
            Ok(()) | Err(StoreError::Conflict(_)) => {}
            Err(e) => return Err(store_error(e)),
        }
    }
    let stored = store
        .get_job(job_id)
        .map_err(store_error)?
        .map(|j| j.status);
    Ok(json!({ "jobId": job_id, "status": stored.map(status_name) }))
}

/// Register the four control functions under their definition names.
pub fn register_control_tasks(
    registry: &mut TaskRegistry,
    store: Arc<dyn JobStore>,
    sink: Arc<dyn TokenSink>,
) {
    let s = store.clone();
    registry.register("CheckJobFlagsFunction", move |input| {
        check_job_flags(&*s, &input)
    });
    let s = store.clone();
    registry.register("PauseGateFunction", move |input| {
        pause_gate(&*s, &*sink, &input)
    });
    let s = store.clone();
    registry.register("RecordUnmappedFunction", move |input| {
        record_unmapped(&*s, &input)
    });
    registry.register("CompleteJobFunction", move |input| {
        complete_job(&*store, &input)
    });
}

/// Pause / resume / cancel for jobs run by a [`LocalRunner`] in this process.
pub struct LocalControl {
    store: Arc<dyn JobStore>,
    runner: Arc<LocalRunner>,
}

impl LocalControl {
    pub fn new(store: Arc<dyn JobStore>, runner: Arc<LocalRunner>) -> Self {
        Self { store, runner }
    }
}

/// Moves a live job to `to`.
fn set_live_status(
    store: &dyn JobStore,
    job_id: &str,
    to: JobStatus,
    allowed_from: &[JobStatus],
    action: &'static str,
) -> Result<(), ControlError> {
    let job = store
        .get_job(job_id)?
        .ok_or_else(|| ControlError::UnknownJob(job_id.to_owned()))?;
    if !allowed_from.contains(&job.status) {
        return Err(ControlError::WrongState {
            job: job_id.to_owned(),
            status: job.status,
            action,
        });
    }
    match store.set_job_status(
        job_id,
        to,
        (to == JobStatus::Cancelled).then_some("cancelled"),
    ) {
        Err(StoreError::Conflict(_)) => {
            let status = store
                .get_job(job_id)?
                .map(|j| j.status)
                .unwrap_or(job.status);
            Err(ControlError::WrongState {
                job: job_id.to_owned(),
                status,
                action,
            })
        }
        other => Ok(other?),
    }
}

const LIVE: [JobStatus; 3] = [JobStatus::Queued, JobStatus::Running, JobStatus::Paused];

impl WorkflowControl for LocalControl {
    fn pause(&self, job_id: &str) -> Result<(), ControlError> {
        pause_job(&*self.store, job_id)
    }

    fn resume(&self, job_id: &str) -> Result<usize, ControlError> {
        resume_job(&*self.store, &**self.runner.tokens(), job_id)
    }

    fn cancel(&self, job_id: &str) -> Result<(), ControlError> {
        cancel_job(&*self.store, job_id)?;
        self.runner.stop(job_id);
        Ok(())
    }
}

/// Pause: a queued or running job becomes paused; nodes park at their next flag check.
pub fn pause_job(store: &dyn JobStore, job_id: &str) -> Result<(), ControlError> {
    set_live_status(
        store,
        job_id,
        JobStatus::Paused,
        &[JobStatus::Queued, JobStatus::Running],
        "pause",
    )
}

/// Resume: a paused job runs again and every parked node is released through `sink`. Returns how
/// many were released.
pub fn resume_job(
    store: &dyn JobStore,
    sink: &dyn TokenSink,
    job_id: &str,
) -> Result<usize, ControlError> {
    set_live_status(
        store,
        job_id,
        JobStatus::Running,
        &[JobStatus::Paused],
        "resume",
    )?;
    Ok(release_parked(store, sink, job_id)?)
}

/// Cancel, the store half: a live job becomes cancelled and its parked tokens are dropped (they
/// die with the execution). The caller stops the execution itself.
pub fn cancel_job(store: &dyn JobStore, job_id: &str) -> Result<(), ControlError> {
    set_live_status(store, job_id, JobStatus::Cancelled, &LIVE, "cancel")?;
    store.take_tokens(job_id)?;
    Ok(())
}
