//! The durable workflow, run locally: `statemachine/mapping.asl.json` executed in-process.
//!
//! AWS runs the definition on Step Functions, with one Lambda per Task. This module runs the
//! *same file* on one machine so the CLI and `plan2code serve` share the production control
//! flow: the definition is loaded with its substitutions ([`definition`]), each Task's function
//! name resolves to a handler in a [`TaskRegistry`] (the same core function its Lambda wraps),
//! and the [`LocalRunner`] walks the states with ASL's semantics for the features the
//! definition uses — Task, Map (threads, `MaxConcurrency`), Choice, Pass, Succeed, Fail, Retry,
//! Catch, `InputPath`/`Parameters`/`ResultSelector`/`ResultPath`/`OutputPath` and
//! `.waitForTaskToken` ([`tokens`]). Anything else is rejected when the definition loads.
//!
//! Why not the `asl` crate (MIT, 0.2): it has no Map execution, no task tokens, no way to run
//! tasks concurrently and no hook to checkpoint, which are the four things this workflow needs;
//! the subset we need is small enough to own.
//!
//! Durability: the runner writes checkpoints to the [`JobStore`](crate::ports::JobStore) — the
//! next top-level state with its input, and each finished Map iteration's output — so running a
//! killed job again skips everything that finished (see [`runner`]). Pause, resume and cancel go
//! through the job's status flags and parked task tokens ([`control`]).

pub mod control;
pub mod definition;
pub mod paths;
pub mod runner;
pub mod tokens;

pub use control::{LocalControl, WorkflowControl, register_control_tasks};
pub use definition::{MAPPING_ASL, StateMachine, local_substitutions};
pub use runner::LocalRunner;
pub use tokens::TaskTokens;

use crate::error::{ErrorName, Named};
use crate::ports::StoreError;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// The production workflow, ready to run locally: `mapping.asl.json` with local substitutions,
/// the four control functions registered over `store`, and `pipeline` supplying the node
/// functions (`LoadRepoContextFunction`, `PlanSemanticsFunction`, …, `FinalMappingFunction`).
/// Fails with [`WorkflowError::MissingHandler`] if one is absent. Pair it with
/// [`LocalControl::new`] for pause / resume / cancel.
pub fn mapping_runner(
    store: Arc<dyn crate::ports::JobStore>,
    mut pipeline: TaskRegistry,
    max_parallel_nodes: u32,
) -> Result<Arc<LocalRunner>, WorkflowError> {
    let tokens = Arc::new(TaskTokens::new());
    register_control_tasks(&mut pipeline, store.clone(), tokens.clone());
    let machine = StateMachine::load(
        MAPPING_ASL,
        &local_substitutions(MAPPING_ASL, max_parallel_nodes),
    )?;
    Ok(Arc::new(LocalRunner::new(
        machine, pipeline, store, tokens,
    )?))
}

/// What a task function reports when it fails: the ASL error name the definition's Retry and
/// Catch match (`CLONE_FAILED`, `LLM_RATE_LIMIT`, …) and a human cause (never a secret).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{error}: {cause}")]
pub struct TaskError {
    pub error: String,
    pub cause: String,
}

impl TaskError {
    pub fn new(error: impl Into<String>, cause: impl Into<String>) -> Self {
        Self {
            error: error.into(),
            cause: cause.into(),
        }
    }

    /// From any core error that knows its workflow name.
    pub fn from_named<E: Named + std::fmt::Display>(err: &E) -> Self {
        Self::new(err.error_name().as_str(), err.to_string())
    }
}

/// A task function: JSON in, JSON out, as its Lambda would see it.
pub type TaskHandler = Arc<dyn Fn(Value) -> Result<Value, TaskError> + Send + Sync>;

/// Task function name (the definition's resolved `Resource`, e.g. `PlanSemanticsFunction`) →
/// handler.
#[derive(Clone, Default)]
pub struct TaskRegistry {
    handlers: HashMap<String, TaskHandler>,
}

impl TaskRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Register (or replace) the handler for `function`.
    pub fn register<F>(&mut self, function: impl Into<String>, handler: F) -> &mut Self
    where
        F: Fn(Value) -> Result<Value, TaskError> + Send + Sync + 'static,
    {
        self.handlers.insert(function.into(), Arc::new(handler));
        self
    }

    pub fn get(&self, function: &str) -> Option<&TaskHandler> {
        self.handlers.get(function)
    }
}

impl std::fmt::Debug for TaskRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut names: Vec<&String> = self.handlers.keys().collect();
        names.sort();
        f.debug_struct("TaskRegistry")
            .field("functions", &names)
            .finish()
    }
}

/// An error travelling through a running state machine: an ASL error name and cause, exactly
/// what Retry/Catch see and what a Catch writes as `{"Error", "Cause"}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepError {
    pub error: String,
    pub cause: String,
}

/// The name the runner uses for an execution stopped by cancel (AWS: status `ABORTED`).
const ABORTED: &str = "States.Aborted";

impl StepError {
    pub fn new(error: &str, cause: String) -> Self {
        Self {
            error: error.to_owned(),
            cause,
        }
    }

    pub fn aborted() -> Self {
        Self::new(ABORTED, "execution stopped".into())
    }

    pub fn is_abort(&self) -> bool {
        self.error == ABORTED
    }

    /// Whether an `ErrorEquals` list matches this error, as AWS documents it: exact names,
    /// `States.ALL` for everything except `States.Runtime` (and our abort), `States.TaskFailed`
    /// for everything except `States.Timeout`.
    pub fn matches(&self, error_equals: &[String]) -> bool {
        let uncatchable = self.error == "States.Runtime" || self.is_abort();
        error_equals.iter().any(|name| match name.as_str() {
            "States.ALL" => !uncatchable,
            "States.TaskFailed" => !uncatchable && self.error != "States.Timeout",
            exact => exact == self.error,
        })
    }
}

/// Why a workflow did not run to a result.
#[derive(Debug, thiserror::Error)]
pub enum WorkflowError {
    #[error("invalid state machine definition: {0}")]
    Definition(String),
    /// The definition uses an ASL feature the local runner does not implement.
    #[error("unsupported ASL feature: {0}")]
    Unsupported(String),
    #[error("no task handler registered for function `{0}`")]
    MissingHandler(String),
    /// The execution failed: an uncaught error or a Fail state.
    #[error("execution failed with {error}: {cause}")]
    Failed { error: String, cause: String },
    /// The execution was stopped (cancel).
    #[error("execution aborted")]
    Aborted,
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Named for WorkflowError {
    fn error_name(&self) -> ErrorName {
        match self {
            WorkflowError::Store(_) => ErrorName::StoreError,
            WorkflowError::Failed { error, .. } => match error.as_str() {
                "PARSE_ERROR" => ErrorName::ParseError,
                "CLONE_FAILED" => ErrorName::CloneFailed,
                "AUTH_FAILED" => ErrorName::AuthFailed,
                "REPO_TOO_LARGE" => ErrorName::RepoTooLarge,
                "INDEX_TIMEOUT" => ErrorName::IndexTimeout,
                "LLM_RATE_LIMIT" => ErrorName::LlmRateLimit,
                _ => ErrorName::Internal,
            },
            _ => ErrorName::Internal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_matching_follows_the_asl_rules() {
        let names = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let rate = StepError::new("LLM_RATE_LIMIT", "429".into());
        assert!(rate.matches(&names(&["CLONE_FAILED", "LLM_RATE_LIMIT"])));
        assert!(!rate.matches(&names(&["CLONE_FAILED"])));
        assert!(rate.matches(&names(&["States.ALL"])));
        let runtime = StepError::new("States.Runtime", "bad path".into());
        assert!(!runtime.matches(&names(&["States.ALL"])));
        let timeout = StepError::new("States.Timeout", "slow".into());
        assert!(!timeout.matches(&names(&["States.TaskFailed"])));
        assert!(!StepError::aborted().matches(&names(&["States.ALL"])));
    }
}
