//! LoadRepoContext Lambda: clone and index the repository (cached), parse the plan, compute the job's context.
//! A thin adapter over `PipelineTasks::load_repo_context`.

use plan2code_lambdas::{AwsPorts, init_tracing, pipeline_tasks, run_task};

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    init_tracing();
    let ports = AwsPorts::from_env()?;
    let tasks = pipeline_tasks(ports.jobs.clone(), ports.blobs.clone())?;
    run_task(move |input| tasks.load_repo_context(input)).await
}
