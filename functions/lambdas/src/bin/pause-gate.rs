//! PauseGate Lambda (`lambda:invoke.waitForTaskToken`): park the paused node's task token; release
//! it at once (`SendTaskSuccess`) if the job was resumed meanwhile.
//! A thin adapter over `plan2code_core::workflow::control::pause_gate`.

use plan2code_core::workflow::control::pause_gate;
use plan2code_lambdas::{AwsPorts, init_tracing, run_task};

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    init_tracing();
    let ports = AwsPorts::from_env()?;
    let control = ports.control()?;
    let jobs = ports.jobs;
    run_task(move |input| pause_gate(&*jobs, &*control, input)).await
}
