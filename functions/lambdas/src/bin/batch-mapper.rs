//! Batch mapper Lambda (EventBridge schedule): every job request under `BATCH_PREFIX` in the
//! bucket becomes one job and one state-machine execution (see `plan2code_lambdas::batch`).

use lambda_runtime::{LambdaEvent, service_fn};
use plan2code_lambdas::aws_api::{JwtSubject, api_state};
use plan2code_lambdas::batch::{list_pending, map_pending};
use plan2code_lambdas::{AwsPorts, init_tracing};
use serde_json::Value;
use std::sync::Arc;

#[tokio::main]
async fn main() -> Result<(), lambda_runtime::Error> {
    init_tracing();
    let ports = Arc::new(AwsPorts::from_env()?);
    let state = api_state(&ports, Arc::new(JwtSubject))?;
    let prefix = std::env::var("BATCH_PREFIX").unwrap_or_else(|_| "batch/pending/".into());
    lambda_runtime::run(service_fn(move |_: LambdaEvent<Value>| {
        let (ports, state, prefix) = (ports.clone(), state.clone(), prefix.clone());
        async move {
            let report = tokio::task::spawn_blocking(move || {
                map_pending(&state, &list_pending(&ports, &prefix)?)
            })
            .await??;
            tracing::info!(
                started = report.started.len(),
                rejected = report.rejected.len(),
                "batch mapped"
            );
            Ok::<_, lambda_runtime::Error>(serde_json::to_value(report)?)
        }
    }))
    .await
}
