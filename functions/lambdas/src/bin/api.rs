//! API Lambda behind the HTTP API (JWT authorizer): the `plan2code-api` router on `lambda_http`.
//! The caller is the verified token's `sub`.

use plan2code_lambdas::aws_api::{JwtSubject, api_state};
use plan2code_lambdas::{AwsPorts, init_tracing};
use std::sync::Arc;

#[tokio::main]
async fn main() -> Result<(), lambda_http::Error> {
    init_tracing();
    let ports = AwsPorts::from_env()?;
    let state = api_state(&ports, Arc::new(JwtSubject))?;
    lambda_http::run(plan2code_api::router(state)).await
}
