//! PlanSemantics Lambda: what one DAG node means and which evidence to look for.
//! A thin adapter over `PipelineTasks::plan_semantics`.

use plan2code_lambdas::{AwsPorts, init_tracing, pipeline_tasks, run_task};

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    init_tracing();
    let ports = AwsPorts::from_env()?;
    let tasks = pipeline_tasks(ports.jobs.clone(), ports.blobs.clone())?;
    run_task(move |input| tasks.plan_semantics(input)).await
}
