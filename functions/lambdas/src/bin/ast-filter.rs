//! AstFilter Lambda: keep the syntax that can produce the operator; the top three go on.
//! A thin adapter over `PipelineTasks::ast_filter`.

use plan2code_lambdas::{AwsPorts, init_tracing, pipeline_tasks, run_task};

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    init_tracing();
    let ports = AwsPorts::from_env()?;
    let tasks = pipeline_tasks(ports.jobs.clone(), ports.blobs.clone())?;
    run_task(move |input| tasks.ast_filter(input)).await
}
