//! [`JobLauncher`]: how a created job starts running and how it is paused, resumed and cancelled.
//!
//! [`LocalLauncher`] runs the production state machine in-process ([`LocalRunner`] over
//! [`PipelineTasks`]) on a background thread per job; the AWS launcher (in `plan2code-lambdas`)
//! starts a Step Functions execution instead.

use plan2code_core::code::Secret;
use plan2code_core::pipeline::tasks::PipelineTasks;
use plan2code_core::workflow::{LocalControl, LocalRunner, WorkflowControl, WorkflowError};
use serde_json::Value;
use std::sync::Arc;

#[derive(Debug, thiserror::Error)]
pub enum LaunchError {
    /// The launcher cannot accept a per-request repository token.
    #[error("{0}")]
    TokenUnsupported(String),
    #[error("starting the job failed: {0}")]
    Failed(String),
}

pub trait JobLauncher: Send + Sync {
    /// Start `job_id` (already created, plan stored) with the state machine's execution `input`
    /// (references only). `token` is for cloning and must not outlive the job.
    fn start(&self, job_id: &str, input: Value, token: Option<Secret>) -> Result<(), LaunchError>;
    fn control(&self) -> &dyn WorkflowControl;
}

/// Jobs run by a local runner on background threads (`plan2code serve`).
pub struct LocalLauncher {
    runner: Arc<LocalRunner>,
    tasks: Arc<PipelineTasks>,
    control: LocalControl,
}

impl LocalLauncher {
    pub fn new(
        runner: Arc<LocalRunner>,
        tasks: Arc<PipelineTasks>,
        store: Arc<dyn plan2code_core::ports::JobStore>,
    ) -> Self {
        Self {
            control: LocalControl::new(store, runner.clone()),
            runner,
            tasks,
        }
    }
}

impl JobLauncher for LocalLauncher {
    fn start(&self, job_id: &str, input: Value, token: Option<Secret>) -> Result<(), LaunchError> {
        if let Some(token) = token {
            self.tasks.set_job_token(job_id, token);
        }
        let (runner, tasks, id) = (self.runner.clone(), self.tasks.clone(), job_id.to_owned());
        std::thread::Builder::new()
            .name(format!("job-{job_id}"))
            .spawn(move || {
                match runner.run(&id, input) {
                    Ok(_) => tracing::info!(job = %id, "job finished"),
                    Err(WorkflowError::Aborted) => tracing::info!(job = %id, "job cancelled"),
                    Err(err) => tracing::warn!(job = %id, error = %err, "job failed"),
                }
                tasks.finish_job(&id);
            })
            .map(|_| ())
            .map_err(|e| LaunchError::Failed(e.to_string()))
    }

    fn control(&self) -> &dyn WorkflowControl {
        &self.control
    }
}
