//! CompleteJob Lambda: mark the job completed (or failed), unless it is already terminal.
//! A thin adapter over `plan2code_core::workflow::control::complete_job`.

use plan2code_core::workflow::control::complete_job;
use plan2code_lambdas::{AwsPorts, init_tracing, run_task};

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    init_tracing();
    let jobs = AwsPorts::from_env()?.jobs;
    run_task(move |input| complete_job(&*jobs, input)).await
}
