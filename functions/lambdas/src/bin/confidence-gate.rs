//! ConfidenceGate Lambda: the confidence formula and band; assembles the node's answer.
//! A thin adapter over `PipelineTasks::confidence_gate`.

use plan2code_lambdas::{AwsPorts, init_tracing, pipeline_tasks, run_task};

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    init_tracing();
    let ports = AwsPorts::from_env()?;
    let tasks = pipeline_tasks(ports.jobs.clone(), ports.blobs.clone())?;
    run_task(move |input| tasks.confidence_gate(input)).await
}
