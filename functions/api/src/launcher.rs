//! [`JobLauncher`]: how a created job starts running and how it is paused, resumed and cancelled.
//!
//! [`LocalLauncher`] runs the production state machine in-process ([`LocalRunner`] over
//! [`PipelineTasks`]) on a fixed pool of worker threads: at most `max_running` jobs run at once
//! and the rest wait in a FIFO queue, visible as `queued` (a job cancelled while it waits never
//! starts). Memory and threads are therefore bounded by the pool, not by how many jobs callers
//! submit. The AWS launcher (in `plan2code-lambdas`) starts a Step Functions execution instead.

use plan2code_core::code::Secret;
use plan2code_core::pipeline::tasks::PipelineTasks;
use plan2code_core::ports::JobStore;
use plan2code_core::workflow::{LocalControl, LocalRunner, WorkflowControl, WorkflowError};
use serde_json::Value;
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex};

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

/// Jobs run by a local runner on a bounded pool of background threads (`plan2code serve`).
pub struct LocalLauncher {
    tasks: Arc<PipelineTasks>,
    control: LocalControl,
    queue: Sender<QueuedJob>,
}

struct QueuedJob {
    id: String,
    input: Value,
}

impl LocalLauncher {
    /// A launcher running at most `max_running` jobs at once (at least one).
    pub fn new(
        runner: Arc<LocalRunner>,
        tasks: Arc<PipelineTasks>,
        store: Arc<dyn JobStore>,
        max_running: usize,
    ) -> Result<Self, LaunchError> {
        let (queue, pending) = mpsc::channel::<QueuedJob>();
        let pending = Arc::new(Mutex::new(pending));
        for worker in 0..max_running.max(1) {
            let (runner, tasks, store, pending) = (
                runner.clone(),
                tasks.clone(),
                store.clone(),
                pending.clone(),
            );
            std::thread::Builder::new()
                .name(format!("job-worker-{worker}"))
                .spawn(move || work(&runner, &tasks, &*store, &pending))
                .map_err(|e| LaunchError::Failed(e.to_string()))?;
        }
        Ok(Self {
            control: LocalControl::new(store, runner),
            tasks,
            queue,
        })
    }
}

/// One worker: take the next queued job, run it to its end, repeat until the launcher is gone.
fn work(
    runner: &LocalRunner,
    tasks: &PipelineTasks,
    store: &dyn JobStore,
    pending: &Mutex<Receiver<QueuedJob>>,
) {
    loop {
        let next = pending.lock().unwrap_or_else(|p| p.into_inner()).recv();
        let Ok(QueuedJob { id, input }) = next else {
            return;
        };
        let cancelled = matches!(store.get_job(&id), Ok(Some(job)) if job.status.is_terminal());
        if !cancelled {
            match runner.run(&id, input) {
                Ok(_) => tracing::info!(job = %id, "job finished"),
                Err(WorkflowError::Aborted) => tracing::info!(job = %id, "job cancelled"),
                Err(err) => tracing::warn!(job = %id, error = %err, "job failed"),
            }
        }
        tasks.finish_job(&id);
    }
}

impl JobLauncher for LocalLauncher {
    fn start(&self, job_id: &str, input: Value, token: Option<Secret>) -> Result<(), LaunchError> {
        if let Some(token) = token {
            self.tasks.set_job_token(job_id, token);
        }
        self.queue
            .send(QueuedJob {
                id: job_id.to_owned(),
                input,
            })
            .map_err(|_| LaunchError::Failed("the job workers have stopped".into()))
    }

    fn control(&self) -> &dyn WorkflowControl {
        &self.control
    }
}
