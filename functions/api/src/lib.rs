//! plan2code's HTTP API under `/api/v1/agent`: one axum [`router`] served by `plan2code serve`
//! (locally, on 127.0.0.1) and by the API Lambda (through `lambda_http`), so one test suite
//! covers both.
//!
//! | route | what |
//! |---|---|
//! | `POST /jobs` | `{repositoryUrl, branch?, commit?, token?, planContent, executionId?}` → `201 {id, status}` |
//! | `GET /jobs/{id}` | the Job object of `docs/ARCHITECTURE.md` (mappings once completed) |
//! | `POST /jobs/{id}/cancel`, `/pause`, `/resume` | job control → `200 {id, status}` |
//! | `GET /jobs/{id}/events?after=seq&limit=n` | a page of the ordered event log |
//! | `GET /jobs/{id}/stream` | the same events as Server-Sent Events, resumable by `Last-Event-ID` |
//! | `GET /jobs/{id}/plan` | the job's plans as parsed, per execution |
//! | `GET /jobs/{id}/view`, `/source?path=` | the viewer's data: plans laid out with costs and hot lines; a file's highlighted lines ([`viewer`]) |
//!
//! The same router serves the web viewer's page at `/` and `/jobs/{id}` ([`viewer`]).
//!
//! [`stream_router`] is the read-only subset (events and stream) the AWS streaming Function URL
//! serves.
//!
//! The model: an [`ApiState`] holds the job store and blob store, an [`Authenticator`] that turns
//! a request into a caller id (bearer tokens locally, the JWT authorizer's `sub` on AWS) and a
//! [`JobLauncher`] that starts and controls jobs (in-process threads locally, Step Functions on
//! AWS). The router validates, authorises (a caller only ever sees its own jobs: another caller's
//! job is `404`, as if it did not exist), stores the parsed plan as `jobs/<id>/plan.json` and
//! hands the job to the launcher. Errors are JSON `{"error": NAME, "message": …}` with a 4xx/5xx
//! status. A repository token in a request is handed to the launcher in memory only: it is
//! never stored, logged, put in an event or in the execution input.

pub mod access;
pub mod auth;
mod caller;
pub mod error;
pub mod launcher;
pub mod recovery;
mod routes;
mod stream;
pub mod viewer;

pub use access::RepoAccess;
pub use auth::{Authenticator, StaticTokens};
pub use error::ApiError;
pub use launcher::{JobLauncher, LaunchError, LocalLauncher};
pub use recovery::{Recovery, resume_unfinished_jobs};
pub use routes::{CreateJob, router, stream_router, submit_job};
pub use viewer::report_html;

use plan2code_core::ports::{BlobStore, JobStore};
use std::sync::Arc;
use std::time::Duration;

/// Request limits.
#[derive(Debug, Clone, Copy)]
pub struct ApiLimits {
    /// Largest request body accepted (`413` beyond it).
    pub max_body_bytes: usize,
    /// Most events returned by one `GET /events` page.
    pub max_events_page: usize,
    /// How often the SSE stream polls the event log.
    pub stream_poll: Duration,
}

impl Default for ApiLimits {
    fn default() -> Self {
        Self {
            max_body_bytes: 8 * 1024 * 1024,
            max_events_page: 500,
            stream_poll: Duration::from_millis(200),
        }
    }
}

/// Everything the routes need.
#[derive(Clone)]
pub struct ApiState {
    pub jobs: Arc<dyn JobStore>,
    pub blobs: Arc<dyn BlobStore>,
    pub auth: Arc<dyn Authenticator>,
    pub launcher: Arc<dyn JobLauncher>,
    pub limits: ApiLimits,
    /// Which `file://` repositories callers may name (none unless the operator allows roots).
    pub access: RepoAccess,
}
