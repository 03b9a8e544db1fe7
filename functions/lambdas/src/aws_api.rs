//! The API on AWS: who the caller is (from the request context API Gateway / the Function URL
//! verified) and how a job starts (a Step Functions execution).

use crate::{AwsPorts, SetupError};
use axum::http::request::Parts;
use lambda_http::request::RequestContext;
use plan2code_api::{ApiLimits, ApiState, Authenticator, JobLauncher, LaunchError, RepoAccess};
use plan2code_core::code::Secret;
use plan2code_core::workflow::WorkflowControl;
use plan2code_stores::aws::SfnControl;
use serde_json::Value;
use std::sync::Arc;

/// The HTTP API's JWT authorizer has verified the token: the caller is its `sub` claim.
#[derive(Debug, Default)]
pub struct JwtSubject;

impl Authenticator for JwtSubject {
    fn caller(&self, request: &Parts) -> Option<String> {
        match request.extensions.get::<RequestContext>()? {
            RequestContext::ApiGatewayV2(ctx) => ctx
                .authorizer
                .as_ref()?
                .jwt
                .as_ref()?
                .claims
                .get("sub")
                .filter(|s| !s.is_empty())
                .cloned(),
            _ => None,
        }
    }
}

/// The streaming Function URL uses `AWS_IAM` auth (HTTP APIs cannot stream, and a Function URL
/// has no JWT authorizer): its callers are trusted backends (the UI's server) that checked their
/// user themselves, so they may stream any job. The caller is the signing principal's ARN.
#[derive(Debug, Default)]
pub struct IamPrincipal;

impl Authenticator for IamPrincipal {
    fn caller(&self, request: &Parts) -> Option<String> {
        match request.extensions.get::<RequestContext>()? {
            RequestContext::ApiGatewayV2(ctx) => {
                ctx.authorizer.as_ref()?.iam.as_ref()?.user_arn.clone()
            }
            _ => None,
        }
    }

    fn sees_all_jobs(&self) -> bool {
        true
    }
}

/// Jobs start as Step Functions executions named after the job.
pub struct SfnLauncher(pub Arc<SfnControl>);

impl JobLauncher for SfnLauncher {
    fn start(&self, job_id: &str, input: Value, token: Option<Secret>) -> Result<(), LaunchError> {
        if token.is_some() {
            // A token would have to ride in the execution input or a store to reach the clone;
            // both are forbidden. Deployments clone private repositories with GITHUB_TOKEN.
            return Err(LaunchError::TokenUnsupported(
                "per-request `token` is not accepted by the cloud API; the deployment's \
                 GITHUB_TOKEN (a secret) is used for private repositories"
                    .into(),
            ));
        }
        self.0
            .start(job_id, &input)
            .map(|_| ())
            .map_err(|e| LaunchError::Failed(e.to_string()))
    }

    fn control(&self) -> &dyn WorkflowControl {
        &*self.0
    }
}

/// The router's state on AWS.
pub fn api_state(ports: &AwsPorts, auth: Arc<dyn Authenticator>) -> Result<ApiState, SetupError> {
    Ok(ApiState {
        jobs: ports.jobs.clone(),
        blobs: ports.blobs.clone(),
        auth,
        launcher: Arc::new(SfnLauncher(ports.control()?)),
        limits: ApiLimits {
            // API Gateway's payload cap is 10 MB; stay below it with room for encoding.
            max_body_bytes: 6 * 1024 * 1024,
            ..ApiLimits::default()
        },
        // No Lambda may read its own disk on a caller's behalf.
        access: RepoAccess::none(),
    })
}
