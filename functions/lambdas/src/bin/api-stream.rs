//! Streaming API Lambda behind a response-streaming Function URL (`AWS_IAM` auth): the same
//! router's read-only subset, so `GET /api/v1/agent/jobs/{id}/stream` streams Server-Sent Events (HTTP APIs cannot).

use plan2code_lambdas::aws_api::{IamPrincipal, api_state};
use plan2code_lambdas::{AwsPorts, init_tracing};
use std::sync::Arc;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    init_tracing();
    let ports = AwsPorts::from_env()?;
    let state = api_state(&ports, Arc::new(IamPrincipal))?;
    lambda_http::run_with_streaming_response(plan2code_api::stream_router(state)).await
}
