//! EmbeddingRetrieval Lambda: the node's top-K candidate code sites.
//! A thin adapter over `PipelineTasks::embedding_retrieval`.

use plan2code_lambdas::{AwsPorts, init_tracing, pipeline_tasks, run_task};

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    init_tracing();
    let ports = AwsPorts::from_env()?;
    let tasks = pipeline_tasks(ports.jobs.clone(), ports.blobs.clone())?;
    run_task(move |input| tasks.embedding_retrieval(input)).await
}
