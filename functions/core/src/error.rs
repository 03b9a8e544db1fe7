//! Error names shared by the core, the stores, the Lambdas and the state machine.
//!
//! The state machine's `Retry` and `Catch` clauses match on these exact strings, so they live
//! in one place: [`ErrorName`]. Library errors are `thiserror` enums that expose their name via
//! [`Named::error_name`]; a Lambda adapter turns that into the `errorType` Step Functions sees.

use std::fmt;

/// The error names the workflow distinguishes. Retryable ones are retried with backoff by the
/// state machine; the others fail fast.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorName {
    /// A plan could not be parsed (fail fast).
    ParseError,
    /// The repository could not be cloned or fetched (retryable).
    CloneFailed,
    /// Credentials were refused (fail fast; messages never contain the token).
    AuthFailed,
    /// The repository exceeds the configured caps (fail fast).
    RepoTooLarge,
    /// Indexing ran past its time budget (retryable).
    IndexTimeout,
    /// The LLM endpoint answered HTTP 429 (retryable).
    LlmRateLimit,
    /// Input that is well-formed but unusable (unknown job, bad request, …).
    InvalidInput,
    /// A storage backend failed.
    StoreError,
    /// Anything else.
    Internal,
}

impl ErrorName {
    /// The exact string Step Functions matches (`"CLONE_FAILED"`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorName::ParseError => "PARSE_ERROR",
            ErrorName::CloneFailed => "CLONE_FAILED",
            ErrorName::AuthFailed => "AUTH_FAILED",
            ErrorName::RepoTooLarge => "REPO_TOO_LARGE",
            ErrorName::IndexTimeout => "INDEX_TIMEOUT",
            ErrorName::LlmRateLimit => "LLM_RATE_LIMIT",
            ErrorName::InvalidInput => "INVALID_INPUT",
            ErrorName::StoreError => "STORE_ERROR",
            ErrorName::Internal => "INTERNAL",
        }
    }

    /// Whether the workflow retries this error with backoff.
    pub fn is_retryable(self) -> bool {
        matches!(
            self,
            ErrorName::CloneFailed | ErrorName::IndexTimeout | ErrorName::LlmRateLimit
        )
    }
}

impl fmt::Display for ErrorName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Implemented by every library error so adapters can report a workflow error name.
pub trait Named {
    fn error_name(&self) -> ErrorName;
}
