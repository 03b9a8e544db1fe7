//! What every handler shares: the authenticated [`Caller`] of a request, the ownership check
//! that makes another caller's job look like no job at all, and store calls run off the async
//! workers.

use crate::ApiState;
use crate::error::ApiError;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;

/// The authenticated caller of a request.
pub struct Caller(pub String);

impl FromRequestParts<ApiState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &ApiState) -> Result<Self, ApiError> {
        state
            .auth
            .caller(parts)
            .map(Caller)
            .ok_or(ApiError::Unauthorized)
    }
}

/// Run a blocking store call off the async workers (the AWS stores bridge into their own runtime).
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| ApiError::Internal(e.to_string()))?
}

/// `404` unless `caller` owns `job_id` (another caller's job looks like no job at all).
pub(crate) fn authorise(state: &ApiState, caller: &str, job_id: &str) -> Result<(), ApiError> {
    match state.jobs.job_owner(job_id)? {
        Some(owner) if owner == caller || state.auth.sees_all_jobs() => Ok(()),
        _ => Err(ApiError::NotFound(job_id.to_owned())),
    }
}
