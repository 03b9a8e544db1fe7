//! [`WorkflowControl`] on Step Functions: executions are named after their job id, pause and
//! resume go through the job's status and parked task tokens (`SendTaskSuccess`), cancel is
//! `StopExecution` after the status is set (so the job reads `cancelled` even while the stop is
//! in flight). It is also the [`TokenSink`] the PauseGate Lambda uses to release itself when a
//! resume raced ahead of its park.
//!
//! **Two machines.** A job whose plans hold more nodes than a threshold (an application's event
//! log: thousands of nodes) starts on the Distributed Map variant of the definition
//! (`statemachine/mapping-distributed.asl.json`: every node a child execution with its own event
//! history) when the deployment has one; the rest start on the inline one. The count rides in the
//! execution input (`nodeCount`, from `pipeline::job::execution_input`).

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
    distributed: Option<DistributedMachine>,
    store: Arc<dyn JobStore>,
}

/// The Distributed Map variant of the definition, and the node count past which a job runs on it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DistributedMachine {
    pub arn: String,
    pub threshold: u64,
}

/// The machine a job with this execution input starts on: the distributed one past its
/// threshold (`nodeCount` in the input), else the inline one.
fn machine_for<'a>(
    inline: &'a str,
    distributed: Option<&'a DistributedMachine>,
    input: &serde_json::Value,
) -> &'a str {
    let nodes = input.get("nodeCount").and_then(serde_json::Value::as_u64);
    match (distributed, nodes) {
        (Some(machine), Some(nodes)) if nodes > machine.threshold => &machine.arn,
        _ => inline,
    }
}

/// `arn:…:stateMachine:<name>` + job id → `arn:…:execution:<name>:<jobId>`.
fn execution_arn_of(state_machine_arn: &str, job_id: &str) -> String {
    format!(
        "{}:{job_id}",
        state_machine_arn.replacen(":stateMachine:", ":execution:", 1)
    )
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
            distributed: None,
            store,
        }
    }

    /// Start jobs past `machine.threshold` nodes on the distributed machine.
    pub fn with_distributed(mut self, machine: DistributedMachine) -> Self {
        self.distributed = Some(machine);
        self
    }

    /// The job's execution on the inline machine.
    pub fn execution_arn(&self, job_id: &str) -> String {
        execution_arn_of(&self.state_machine_arn, job_id)
    }

    /// Start the job's execution, named after the job (a second start of the same job with the
    /// same input is a no-op on Step Functions). The input must hold references only.
    pub fn start(&self, job_id: &str, input: &serde_json::Value) -> Result<String, ControlError> {
        let machine = machine_for(&self.state_machine_arn, self.distributed.as_ref(), input);
        let request = self
            .client
            .start_execution()
            .state_machine_arn(machine)
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
        // The job ran on one of the machines; the other has no execution of that name.
        let machines = std::iter::once(self.state_machine_arn.as_str())
            .chain(self.distributed.as_ref().map(|d| d.arn.as_str()));
        let mut first_error = None;
        for machine in machines {
            let request = self
                .client
                .stop_execution()
                .execution_arn(execution_arn_of(machine, job_id))
                .cause("cancelled by the user");
            let stopped = self.bridge.run(async move { request.send().await })?;
            match stopped {
                Ok(_) => return Ok(()),
                Err(e)
                    if e.as_service_error()
                        .is_some_and(|s| s.is_execution_does_not_exist())
                        && self.distributed.is_some() =>
                {
                    first_error.get_or_insert(sdk_error("StopExecution", e));
                }
                Err(e) => {
                    return Err(ControlError::Service(
                        sdk_error("StopExecution", e).to_string(),
                    ));
                }
            }
        }
        Err(ControlError::Service(
            first_error.map(|e| e.to_string()).unwrap_or_default(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn jobs_past_the_threshold_start_on_the_distributed_machine() {
        let inline = "arn:aws:states:eu-west-1:1:stateMachine:p2c-mapping";
        let distributed = DistributedMachine {
            arn: "arn:aws:states:eu-west-1:1:stateMachine:p2c-mapping-distributed".into(),
            threshold: 300,
        };
        let input = |n: u64| json!({ "jobId": "j", "nodeCount": n });
        assert_eq!(machine_for(inline, Some(&distributed), &input(300)), inline);
        assert_eq!(
            machine_for(inline, Some(&distributed), &input(301)),
            distributed.arn
        );
        // no distributed machine deployed, or no count: the inline one
        assert_eq!(machine_for(inline, None, &input(5000)), inline);
        assert_eq!(
            machine_for(inline, Some(&distributed), &json!({ "jobId": "j" })),
            inline
        );
        assert_eq!(
            execution_arn_of(&distributed.arn, "job-1"),
            "arn:aws:states:eu-west-1:1:execution:p2c-mapping-distributed:job-1"
        );
    }
}
