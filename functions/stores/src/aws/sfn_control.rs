//! [`WorkflowControl`] on Step Functions: executions are named after their job id, pause and
//! resume go through the job's status and parked task tokens (`SendTaskSuccess`), cancel is
//! `StopExecution` after the status is set (so the job reads `cancelled` even while the stop is
//! in flight). It is also the [`TokenSink`] the PauseGate Lambda uses to release itself when a
//! resume raced ahead of its park.

use super::{AwsBridge, sdk_error};
use plan2code_core::ports::{JobStore, StoreError};
use plan2code_core::workflow::WorkflowControl;
use plan2code_core::workflow::control::{
    ControlError, TokenSink, cancel_job, pause_job, resume_job,
};
use std::sync::Arc;

pub struct SfnControl {
    bridge: Arc<AwsBridge>,
    client: aws_sdk_sfn::Client,
    state_machine_arn: String,
    store: Arc<dyn JobStore>,
}

impl std::fmt::Debug for SfnControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SfnControl")
            .field("state_machine_arn", &self.state_machine_arn)
            .finish_non_exhaustive()
    }
}

impl SfnControl {
    pub fn new(
        bridge: Arc<AwsBridge>,
        config: &aws_config::SdkConfig,
        state_machine_arn: impl Into<String>,
        store: Arc<dyn JobStore>,
    ) -> Self {
        Self {
            bridge,
            client: aws_sdk_sfn::Client::new(config),
            state_machine_arn: state_machine_arn.into(),
            store,
        }
    }

    /// `arn:…:stateMachine:<name>` + job id → `arn:…:execution:<name>:<jobId>`.
    pub fn execution_arn(&self, job_id: &str) -> String {
        format!(
            "{}:{job_id}",
            self.state_machine_arn
                .replacen(":stateMachine:", ":execution:", 1)
        )
    }

    /// Start the job's execution, named after the job (a second start of the same job with the
    /// same input is a no-op on Step Functions). The input must hold references only.
    pub fn start(&self, job_id: &str, input: &serde_json::Value) -> Result<String, ControlError> {
        let request = self
            .client
            .start_execution()
            .state_machine_arn(&self.state_machine_arn)
            .name(job_id)
            .input(input.to_string());
        let out = self.bridge.run(async move {
            request
                .send()
                .await
                .map_err(|e| sdk_error("StartExecution", e))
        })??;
        Ok(out.execution_arn)
    }
}

impl TokenSink for SfnControl {
    fn send_success(&self, token: &str, output: serde_json::Value) -> Result<(), String> {
        let request = self
            .client
            .send_task_success()
            .task_token(token)
            .output(output.to_string());
        self.bridge
            .run(async move {
                request
                    .send()
                    .await
                    .map(|_| ())
                    .map_err(|e| sdk_error("SendTaskSuccess", e))
            })
            .and_then(|r| r)
            .map_err(|e: StoreError| e.to_string())
    }
}

impl WorkflowControl for SfnControl {
    fn pause(&self, job_id: &str) -> Result<(), ControlError> {
        pause_job(&*self.store, job_id)
    }

    /// A token whose task already ended (timed out, execution stopped) is stale and skipped.
    fn resume(&self, job_id: &str) -> Result<usize, ControlError> {
        resume_job(&*self.store, self, job_id)
    }

    fn cancel(&self, job_id: &str) -> Result<(), ControlError> {
        cancel_job(&*self.store, job_id)?;
        let request = self
            .client
            .stop_execution()
            .execution_arn(self.execution_arn(job_id))
            .cause("cancelled by the user");
        self.bridge
            .run(async move {
                request
                    .send()
                    .await
                    .map(|_| ())
                    .map_err(|e| sdk_error("StopExecution", e))
            })?
            .map_err(|e| ControlError::Service(e.to_string()))
    }
}
