//! The routes: the JSON API under `/api/v1/agent` (create, read and control jobs, page through
//! their events, the viewer's overview and sources) and the viewer's page and assets.

use crate::caller::{Caller, authorise, blocking};
use crate::error::ApiError;
use crate::{ApiState, stream, viewer};
use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use plan2code_core::code::{Secret, redact_url};
use plan2code_core::contracts::{Job, JobResult, JobStatus, RepoConfig, RepositoryAnalysis};
use plan2code_core::pipeline::job::sort_mappings;
use plan2code_core::pipeline::job::{execution_input, executions_key, plan_key, queued_job};
use plan2code_core::plan::{self, PlanError};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicU64, Ordering};

/// The router of every route over `state`: the API under `/api/v1/agent`, the viewer beside it.
pub fn router(state: ApiState) -> axum::Router {
    let limit = state.limits.max_body_bytes;
    let api = axum::Router::new()
        .route("/jobs", post(create_job).get(list_jobs))
        .route("/jobs/{id}", get(get_job))
        .route("/jobs/{id}/plan", get(job_plan))
        .route("/jobs/{id}/cancel", post(cancel_job))
        .route("/jobs/{id}/pause", post(pause_job))
        .route("/jobs/{id}/resume", post(resume_job))
        .route("/jobs/{id}/events", get(job_events))
        .route("/jobs/{id}/stream", get(stream::job_stream))
        .route("/jobs/{id}/view", get(viewer::job_overview))
        .route("/jobs/{id}/source", get(viewer::job_source));
    axum::Router::new()
        .nest("/api/v1/agent", api)
        .route("/", get(viewer::serve_page))
        .route("/jobs/{id}", get(viewer::serve_page))
        .route("/assets/viewer.js", get(viewer::serve_script))
        .route("/assets/viewer.css", get(viewer::serve_style))
        .fallback(|| async { ApiError::NotFound("route".into()) })
        .layer(axum::extract::DefaultBodyLimit::max(limit))
        .with_state(state)
}

/// The read-only subset for the streaming Function URL: `GET /jobs/{id}/stream` and
/// `GET /jobs/{id}/events`. Its IAM callers may read any job, so nothing here changes one.
pub fn stream_router(state: ApiState) -> axum::Router {
    let api = axum::Router::new()
        .route("/jobs/{id}/events", get(job_events))
        .route("/jobs/{id}/stream", get(stream::job_stream));
    axum::Router::new()
        .nest("/api/v1/agent", api)
        .fallback(|| async { ApiError::NotFound("route".into()) })
        .with_state(state)
}

/// The body of `POST /jobs`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateJob {
    pub repository_url: String,
    #[serde(default)]
    pub branch: Option<String>,
    #[serde(default)]
    pub commit: Option<String>,
    /// Used for this job's clone only; never stored.
    #[serde(default)]
    pub token: Option<String>,
    pub plan_content: String,
    /// The one SQL execution to map when the plan holds several (default: every execution).
    #[serde(default)]
    pub execution_id: Option<u64>,
    /// The file the job runs from, when the plan does not say (`--entry` of the CLI).
    #[serde(default)]
    pub entry_file: Option<String>,
}

impl std::fmt::Debug for Secretless<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CreateJob")
            .field("repository_url", &redact_url(&self.0.repository_url))
            .field("branch", &self.0.branch)
            .finish_non_exhaustive()
    }
}

/// Logs a request without its token or plan.
struct Secretless<'a>(&'a CreateJob);

fn validate(request: &CreateJob) -> Result<(), ApiError> {
    let url = request.repository_url.trim();
    if url.is_empty() {
        return Err(ApiError::BadRequest(
            "`repositoryUrl` must not be empty".into(),
        ));
    }
    if !(url.starts_with("https://") || url.starts_with("file://")) {
        return Err(ApiError::BadRequest(
            "`repositoryUrl` must be an https:// or file:// git URL".into(),
        ));
    }
    // User-info or a query string can carry credentials (`?access_token=…`): refused without
    // echoing the URL, so it reaches no store, event or log.
    let authority = url.split_once("://").map_or("", |(_, rest)| {
        rest.split(['/', '?', '#']).next().unwrap_or("")
    });
    if authority.contains('@') || url.contains('?') || url.contains('#') {
        return Err(ApiError::BadRequest(
            "`repositoryUrl` must not embed credentials, a query string or a fragment; send a \
             token as `token`"
                .into(),
        ));
    }
    if request.plan_content.trim().is_empty() {
        return Err(ApiError::BadRequest(
            "`planContent` must not be empty".into(),
        ));
    }
    let bad_ref = |r: &Option<String>| {
        r.as_deref()
            .is_some_and(|b| b.is_empty() || b.len() > 255 || b.chars().any(char::is_control))
    };
    if bad_ref(&request.branch) || bad_ref(&request.commit) {
        return Err(ApiError::BadRequest(
            "`branch` and `commit` must be non-empty names without control characters".into(),
        ));
    }
    Ok(())
}

fn parse_body(body: Result<Bytes, BytesRejection>, limit: usize) -> Result<CreateJob, ApiError> {
    let bytes = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::TooLarge(limit)
        } else {
            ApiError::BadRequest(rejection.body_text())
        }
    })?;
    serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::BadRequest(format!("request body is not a valid job request: {e}")))
}

static JOB_COUNTER: AtomicU64 = AtomicU64::new(0);

fn new_job_id() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let n = JOB_COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("job-{nanos:x}-{}-{n}", std::process::id())
}

/// Validate a job request, store its parsed plan, create the job for `caller` and start it.
/// Shared by `POST /jobs` and the scheduled batch mapper. Blocking (store calls).
pub fn submit_job(state: &ApiState, caller: &str, request: CreateJob) -> Result<Job, ApiError> {
    validate(&request)?;
    state.access.check(&request.repository_url)?;
    tracing::info!(caller = %caller, request = ?Secretless(&request), "creating job");
    // Every execution of an event log is mapped, as one job, unless `executionId` picks one.
    let wanted = request.execution_id.map(|id| [id]);
    let mut app = plan::parse_application(&request.plan_content, wanted.as_ref().map(|w| &w[..]))
        .map_err(|err| match err {
        PlanError::ExecutionNotFound { .. } => ApiError::BadRequest(err.to_string()),
        other => ApiError::Unprocessable(format!("`planContent` is not a Spark plan: {other}")),
    })?;
    if app
        .plans
        .iter()
        .flat_map(|p| &p.nodes)
        .all(|n| n.family == plan2code_core::plan::OperatorFamily::Other)
    {
        return Err(ApiError::Unprocessable(
            "`planContent` names no Spark operator; send the output of `df.explain()`, the \
             Spark UI's SQL JSON or an event log"
                .into(),
        ));
    }
    app.entry = request.entry_file.iter().cloned().collect();
    let node_count = app.node_count();
    let plan_bytes = serde_json::to_vec(&app).map_err(|e| ApiError::Internal(e.to_string()))?;
    let repo = RepoConfig {
        url: redact_url(request.repository_url.trim()),
        branch: request.branch.clone(),
        commit: request.commit.clone(),
    };
    let token = request.token.filter(|t| !t.is_empty()).map(Secret::new);
    let id = new_job_id();
    let job = queued_job(&id, repo.clone());
    state.blobs.put(&plan_key(&id), &plan_bytes)?;
    state.jobs.create_job(&job, caller)?;
    let started = state
        .launcher
        .start(&id, execution_input(&id, &repo, node_count), token)
        .map_err(|e| match e {
            crate::LaunchError::TokenUnsupported(msg) => ApiError::BadRequest(msg),
            other => ApiError::Internal(other.to_string()),
        });
    if let Err(err) = started {
        // A job that could not start is failed, not left queued forever.
        let _ = state
            .jobs
            .set_job_status(&id, JobStatus::Failed, Some(&err.to_string()));
        return Err(err);
    }
    Ok(job)
}

async fn create_job(
    State(state): State<ApiState>,
    Caller(caller): Caller,
    body: Result<Bytes, BytesRejection>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let request = parse_body(body, state.limits.max_body_bytes)?;
    let job = blocking(move || submit_job(&state, &caller, request)).await?;
    let id = &job.id;
    Ok((
        StatusCode::CREATED,
        Json(json!({
            "id": id, "status": job.status, "repoConfig": job.repo_config,
            "links": {
                "self": format!("/api/v1/agent/jobs/{id}"),
                "events": format!("/api/v1/agent/jobs/{id}/events"),
                "stream": format!("/api/v1/agent/jobs/{id}/stream"),
            },
        })),
    ))
}

/// The job as `GET /jobs/:id` shows it: mappings (sorted) once it has any.
fn job_view(state: &ApiState, id: &str) -> Result<Job, ApiError> {
    let mut job = state
        .jobs
        .get_job(id)?
        .ok_or_else(|| ApiError::NotFound(id.to_owned()))?;
    let mut mappings = state.jobs.mappings(id)?;
    if !mappings.is_empty() || job.status == JobStatus::Completed {
        sort_mappings(&mut mappings);
        job.result = Some(JobResult {
            mappings,
            repository_analysis: RepositoryAnalysis {
                total_files: job.statistics.files_scanned,
                total_functions: job.statistics.symbols_indexed,
            },
        });
    }
    if let Some(bytes) = state.blobs.get(&executions_key(id))? {
        job.executions = serde_json::from_slice(&bytes)
            .map_err(|e| ApiError::Internal(format!("job {id}: executions report: {e}")))?;
    }
    // A finished job's phase is how it finished (a job that failed while loading its repository
    // would otherwise still read "queued").
    if job.status.is_terminal() {
        job.progress.current_phase = job.status.as_str().into();
    }
    Ok(job)
}

async fn get_job(
    State(state): State<ApiState>,
    Caller(caller): Caller,
    Path(id): Path<String>,
) -> Result<Json<Job>, ApiError> {
    blocking(move || {
        authorise(&state, &caller, &id)?;
        job_view(&state, &id).map(Json)
    })
    .await
}

/// `GET /jobs?limit=N`: the caller's jobs, newest first (at most `limit`, 50 by default, 200 at
/// most), each as `GET /jobs/{id}` shows it without its mappings.
async fn list_jobs(
    State(state): State<ApiState>,
    Caller(caller): Caller,
    Query(page): Query<ListQuery>,
) -> Result<Json<Value>, ApiError> {
    let limit = match page.limit {
        None => 50,
        Some(0) => return Err(ApiError::BadRequest("`limit` must be at least 1".into())),
        Some(n) => n.min(200),
    };
    blocking(move || {
        let mut jobs = Vec::new();
        for id in state.jobs.jobs_of(&caller, limit)? {
            if let Some(mut job) = state.jobs.get_job(&id)? {
                if job.status.is_terminal() {
                    job.progress.current_phase = job.status.as_str().into();
                }
                jobs.push(job);
            }
        }
        Ok(Json(json!({ "jobs": jobs })))
    })
    .await
}

#[derive(serde::Deserialize)]
struct ListQuery {
    limit: Option<usize>,
}

/// `GET /jobs/{id}/plan`: the job's plans as parsed — per execution its nodes (operator, family,
/// kind, children, details and metrics) — for a viewer to draw.
async fn job_plan(
    State(state): State<ApiState>,
    Caller(caller): Caller,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        authorise(&state, &caller, &id)?;
        let app = viewer::stored_application(&state, &id)?;
        let executions: Vec<Value> = app
            .plans
            .iter()
            .map(|graph| {
                let mut view = plan::render::to_json(graph);
                if let Some(fields) = view.as_object_mut() {
                    fields.insert("executionId".into(), json!(graph.execution.execution_id));
                    fields.insert("description".into(), json!(graph.execution.description));
                }
                view
            })
            .collect();
        Ok(Json(json!({ "jobId": id, "executions": executions })))
    })
    .await
}

#[derive(Clone, Copy)]
enum Action {
    Pause,
    Resume,
    Cancel,
}

async fn control(
    state: ApiState,
    caller: String,
    id: String,
    action: Action,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        authorise(&state, &caller, &id)?;
        let control = state.launcher.control();
        let mut body = json!({ "id": id });
        match action {
            Action::Pause => control.pause(&id)?,
            Action::Resume => body["releasedNodes"] = json!(control.resume(&id)?),
            Action::Cancel => control.cancel(&id)?,
        }
        let status = state.jobs.get_job(&id)?.map(|j| j.status);
        body["status"] = json!(status);
        Ok(Json(body))
    })
    .await
}

async fn pause_job(
    State(state): State<ApiState>,
    Caller(caller): Caller,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    control(state, caller, id, Action::Pause).await
}

async fn resume_job(
    State(state): State<ApiState>,
    Caller(caller): Caller,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    control(state, caller, id, Action::Resume).await
}

async fn cancel_job(
    State(state): State<ApiState>,
    Caller(caller): Caller,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    control(state, caller, id, Action::Cancel).await
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EventsQuery {
    #[serde(default)]
    after: u64,
    limit: Option<usize>,
}

async fn job_events(
    State(state): State<ApiState>,
    Caller(caller): Caller,
    Path(id): Path<String>,
    query: Result<Query<EventsQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(query) = query.map_err(|e| ApiError::BadRequest(e.body_text()))?;
    let limit = query
        .limit
        .unwrap_or(state.limits.max_events_page)
        .min(state.limits.max_events_page);
    blocking(move || {
        authorise(&state, &caller, &id)?;
        // `limit=0` asks for nothing: an empty page (DynamoDB refuses a zero limit).
        let events = match limit {
            0 => Vec::new(),
            _ => state.jobs.events_after(&id, query.after, limit)?,
        };
        let next = events.last().map_or(query.after, |e| e.seq);
        Ok(Json(json!({ "events": events, "nextAfter": next })))
    })
    .await
}
