//! CheckJobFlags Lambda: the job's pause/cancel flags (its status).
//! A thin adapter over `plan2code_core::workflow::control::check_job_flags`.

use plan2code_core::workflow::control::check_job_flags;
use plan2code_lambdas::{AwsPorts, init_tracing, run_task};

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    init_tracing();
    let jobs = AwsPorts::from_env()?.jobs;
    run_task(move |input| check_job_flags(&*jobs, input)).await
}
