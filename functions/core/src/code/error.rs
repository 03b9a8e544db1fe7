//! Errors of repository context, with the workflow names the state machine matches.
//!
//! Messages never contain credentials: a token is passed out of band (see
//! [`super::source::RepoSource`]) and every message built from a git error is scrubbed of it.

use crate::error::{ErrorName, Named};
use crate::ports::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum RepoError {
    /// Network / git failure; retryable.
    #[error("clone failed: {0}")]
    CloneFailed(String),
    /// Credentials refused or missing for a private repository.
    #[error("authentication failed for {0}")]
    AuthFailed(String),
    #[error("repository too large: {0}")]
    RepoTooLarge(String),
    /// Clone or indexing ran past its time budget; retryable.
    #[error("indexing timed out after {0} s")]
    IndexTimeout(u64),
    /// A source that is neither an https/file URL nor an existing directory.
    #[error("invalid repository source: {0}")]
    InvalidSource(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("index blob is unreadable: {0}")]
    CorruptIndex(String),
}

impl Named for RepoError {
    fn error_name(&self) -> ErrorName {
        match self {
            RepoError::CloneFailed(_) => ErrorName::CloneFailed,
            RepoError::AuthFailed(_) => ErrorName::AuthFailed,
            RepoError::RepoTooLarge(_) => ErrorName::RepoTooLarge,
            RepoError::IndexTimeout(_) => ErrorName::IndexTimeout,
            RepoError::InvalidSource(_) => ErrorName::InvalidInput,
            RepoError::Store(e) => e.error_name(),
            RepoError::CorruptIndex(_) => ErrorName::StoreError,
        }
    }
}
