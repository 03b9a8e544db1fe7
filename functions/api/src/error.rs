//! [`ApiError`]: every failure of a route as a status and a JSON body
//! `{"error": NAME, "message": …}`.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use plan2code_core::ports::StoreError;
use plan2code_core::workflow::control::ControlError;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("missing or invalid bearer token")]
    Unauthorized,
    /// The caller may not reach what it named (a `file://` repository outside the allowed roots).
    #[error("{0}")]
    Forbidden(String),
    #[error("job {0} not found")]
    NotFound(String),
    #[error("{0}")]
    Conflict(String),
    #[error("request body exceeds {0} bytes")]
    TooLarge(usize),
    /// A file the viewer asked for is larger than it shows.
    #[error("{0}")]
    FileTooLarge(String),
    #[error("{0}")]
    Unprocessable(String),
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    fn parts(&self) -> (StatusCode, &'static str) {
        match self {
            ApiError::BadRequest(_) => (StatusCode::BAD_REQUEST, "INVALID_REQUEST"),
            ApiError::Unauthorized => (StatusCode::UNAUTHORIZED, "UNAUTHORIZED"),
            ApiError::Forbidden(_) => (StatusCode::FORBIDDEN, "FORBIDDEN"),
            ApiError::NotFound(_) => (StatusCode::NOT_FOUND, "NOT_FOUND"),
            ApiError::Conflict(_) => (StatusCode::CONFLICT, "CONFLICT"),
            ApiError::TooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, "PAYLOAD_TOO_LARGE"),
            ApiError::FileTooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, "FILE_TOO_LARGE"),
            ApiError::Unprocessable(_) => (StatusCode::UNPROCESSABLE_ENTITY, "PARSE_ERROR"),
            ApiError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL"),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, name) = self.parts();
        if status.is_server_error() {
            tracing::error!(error = %self, "request failed");
        }
        let mut response = (
            status,
            Json(serde_json::json!({ "error": name, "message": self.to_string() })),
        )
            .into_response();
        if status == StatusCode::UNAUTHORIZED {
            response.headers_mut().insert(
                axum::http::header::WWW_AUTHENTICATE,
                axum::http::HeaderValue::from_static("Bearer"),
            );
        }
        response
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        ApiError::Internal(err.to_string())
    }
}

impl From<ControlError> for ApiError {
    fn from(err: ControlError) -> Self {
        match err {
            ControlError::UnknownJob(id) => ApiError::NotFound(id),
            wrong @ ControlError::WrongState { .. } => ApiError::Conflict(wrong.to_string()),
            other => ApiError::Internal(other.to_string()),
        }
    }
}
