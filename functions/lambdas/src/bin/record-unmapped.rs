//! RecordUnmapped Lambda: a node that failed for good is stored unmapped with its error, once.
//! A thin adapter over `plan2code_core::workflow::control::record_unmapped`.

use plan2code_core::workflow::control::record_unmapped;
use plan2code_lambdas::{AwsPorts, init_tracing, run_task};

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    init_tracing();
    let jobs = AwsPorts::from_env()?.jobs;
    run_task(move |input| record_unmapped(&*jobs, input)).await
}
