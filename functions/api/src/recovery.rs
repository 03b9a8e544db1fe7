//! Taking up a local server's unfinished jobs after it was stopped or killed.
//!
//! `plan2code serve` runs jobs on background threads, so a killed server leaves jobs `queued`,
//! `running` or `paused` in its store with nothing running them. On start it calls
//! [`resume_unfinished_jobs`]: every such job is started again through the launcher, and the
//! local runner resumes it from its checkpoints (finished Map iterations are not redone; a node
//! that was in flight runs again and its idempotent FinalMapping counts it once). A paused job
//! is started too and stays paused: its nodes park again at their next flag check, and the
//! tokens the dead process had parked are dropped first (nothing can complete them any more).
//! A job whose stored plan is gone fails at once with that reason instead of hanging.
//!
//! What cannot come back: a per-request repository token (held in memory only, by design). A job
//! that still needs to clone a private repository then fails with the clone's own error.

use crate::ApiState;
use plan2code_core::contracts::{EventType, JobStatus};
use plan2code_core::pipeline::job::{execution_input, plan_key};
use plan2code_core::ports::StoreError;
use serde_json::json;

/// What happened to one unfinished job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Recovery {
    /// Started again (it resumes from its checkpoints; a paused job stays paused).
    Resumed { job_id: String, status: JobStatus },
    /// Failed for good, with the reason stored on the job.
    Failed { job_id: String, reason: String },
}

/// Start every unfinished job of the store again. Returns what was done, job by job.
pub fn resume_unfinished_jobs(state: &ApiState) -> Result<Vec<Recovery>, StoreError> {
    let mut outcomes = Vec::new();
    for job_id in state.jobs.unfinished_jobs()? {
        let Some(job) = state.jobs.get_job(&job_id)? else {
            continue;
        };
        if state.blobs.get(&plan_key(&job_id))?.is_none() {
            let reason = "the server restarted and the job's stored plan is gone; submit it again";
            fail(state, &job_id, reason)?;
            outcomes.push(Recovery::Failed {
                job_id,
                reason: reason.to_owned(),
            });
            continue;
        }
        if job.status == JobStatus::Paused {
            // Parked by the dead process: no waiter is left to complete them.
            state.jobs.take_tokens(&job_id)?;
        }
        let input = execution_input(
            &job_id,
            &job.repo_config,
            job.statistics.total_nodes as usize,
        );
        match state.launcher.start(&job_id, input, None) {
            Ok(()) => outcomes.push(Recovery::Resumed {
                job_id,
                status: job.status,
            }),
            Err(err) => {
                let reason = format!("the server restarted and could not resume the job: {err}");
                fail(state, &job_id, &reason)?;
                outcomes.push(Recovery::Failed { job_id, reason });
            }
        }
    }
    Ok(outcomes)
}

fn fail(state: &ApiState, job_id: &str, reason: &str) -> Result<(), StoreError> {
    state.jobs.append_event(
        job_id,
        EventType::Error,
        json!({ "status": "failed", "error": reason }),
    )?;
    match state
        .jobs
        .set_job_status(job_id, JobStatus::Failed, Some(reason))
    {
        // Cancelled or finished meanwhile: nothing to fail.
        Ok(()) | Err(StoreError::Conflict(_)) => Ok(()),
        Err(err) => Err(err),
    }
}
