//! The web viewer: its page and assets (built into the binary), the two JSON routes only it needs,
//! and the same page written as one self-contained HTML report.
//!
//! | route | what |
//! |---|---|
//! | `GET /`, `GET /jobs/{id}` | the page (a single-page app; `?token=` logs in, see `viewer.js`) |
//! | `GET /assets/viewer.js`, `/assets/viewer.css` | its script and stylesheet |
//! | `GET /api/v1/agent/jobs/{id}/view` | the job's plans laid out, with costs and hot lines ([`Overview`]) |
//! | `GET /api/v1/agent/jobs/{id}/source?path=P` | `{path, lines}`: file `P` of the job's indexed repository at its commit, as highlighted HTML lines |
//!
//! The page and assets are public (they hold no data); every JSON route is owner-only like the
//! rest of the API. `/source` serves only files the job's index holds, looked up by exact path in
//! the texts kept beside that index ([`plan2code_core::code::texts`]), so neither `..` nor a link
//! reaches anything else; files over [`MAX_SHOWN_FILE_BYTES`] are refused. Every HTML response
//! carries a Content-Security-Policy that keeps the page to its own server: it makes no request
//! anywhere else.

use crate::ApiState;
use crate::caller::{Caller, authorise, blocking};
use crate::error::ApiError;
use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use plan2code_core::code::texts::{MAX_SHOWN_FILE_BYTES, job_texts};
use plan2code_core::pipeline::job::plan_key;
use plan2code_core::plan::Application;
use plan2code_core::view::{Overview, Report, escape_html, highlight_lines};
use serde::Deserialize;
use serde_json::{Value, json};

const PAGE: &str = include_str!("../assets/index.html");
const SCRIPT: &str = include_str!("../assets/viewer.js");
const STYLE: &str = include_str!("../assets/viewer.css");

/// The served page: nothing but what this server answers.
const SERVED_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// The page as `plan2code serve` and the API Lambda serve it.
pub fn page() -> String {
    PAGE.replace("{{TITLE}}", "plan2code")
        .replace(
            "{{STYLE}}",
            r#"<link rel="stylesheet" href="/assets/viewer.css">"#,
        )
        .replace("{{DATA}}", "")
        .replace("{{SCRIPT}}", r#"<script src="/assets/viewer.js"></script>"#)
}

/// One self-contained HTML file: the page, its script and stylesheet inline, and the report's
/// data as embedded JSON. It opens from `file://` and asks nothing of any server.
pub fn report_html(report: &Report) -> Result<String, serde_json::Error> {
    // `<` only ever occurs inside JSON strings, where `\u003c` means the same: the data can
    // never close its <script> element.
    let data = serde_json::to_string(report)?.replace('<', "\\u003c");
    let policy = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; \
                  img-src data:; base-uri 'none'; form-action 'none'";
    // What comes from the job (its id, its files) goes in last, so no later placeholder
    // replacement can touch text that merely looks like one (`{{SCRIPT}}` in a template file).
    Ok(PAGE
        .replace(
            "<meta charset=\"utf-8\">",
            &format!(
                "<meta charset=\"utf-8\">\n<meta http-equiv=\"Content-Security-Policy\" content=\"{policy}\">"
            ),
        )
        .replace("href=\"/\"", "href=\"#\"")
        .replace("{{STYLE}}", &format!("<style>\n{STYLE}</style>"))
        .replace("{{SCRIPT}}", &format!("<script>\n{SCRIPT}</script>"))
        .replace(
            "{{TITLE}}",
            &format!("plan2code report · {}", escape_html(&report.job.id)),
        )
        .replace(
            "{{DATA}}",
            &format!(r#"<script type="application/json" id="report-data">{data}</script>"#),
        ))
}

fn with_type(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// `GET /` and `GET /jobs/{id}`.
pub(crate) async fn serve_page() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CONTENT_SECURITY_POLICY, SERVED_POLICY),
            (header::CACHE_CONTROL, "no-cache"),
            (header::REFERRER_POLICY, "no-referrer"),
        ],
        page(),
    )
        .into_response()
}

pub(crate) async fn serve_script() -> Response {
    with_type("text/javascript; charset=utf-8", SCRIPT)
}

pub(crate) async fn serve_style() -> Response {
    with_type("text/css; charset=utf-8", STYLE)
}

/// `GET /jobs/{id}/view`.
pub(crate) async fn job_overview(
    State(state): State<ApiState>,
    Caller(caller): Caller,
    Path(id): Path<String>,
) -> Result<Json<Overview>, ApiError> {
    blocking(move || {
        authorise(&state, &caller, &id)?;
        let app = stored_application(&state, &id)?;
        let mappings = state.jobs.mappings(&id)?;
        Ok(Json(Overview::new(&app.plans, &mappings)))
    })
    .await
}

/// The job's plans as `POST /jobs` stored them.
pub(crate) fn stored_application(state: &ApiState, id: &str) -> Result<Application, ApiError> {
    let bytes = state
        .blobs
        .get(&plan_key(id))?
        .ok_or_else(|| ApiError::NotFound(format!("{id}: its plan")))?;
    serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::Internal(format!("job {id}: stored plan: {e}")))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SourceQuery {
    path: String,
}

/// `GET /jobs/{id}/source?path=P`.
pub(crate) async fn job_source(
    State(state): State<ApiState>,
    Caller(caller): Caller,
    Path(id): Path<String>,
    Query(query): Query<SourceQuery>,
) -> Result<Json<Value>, ApiError> {
    blocking(move || {
        authorise(&state, &caller, &id)?;
        let texts = job_texts(&*state.blobs, &id)
            .map_err(|e| ApiError::Internal(format!("job {id}: file texts: {e}")))?
            .ok_or_else(|| {
                ApiError::NotFound(format!(
                    "{id}: its repository's files (not indexed yet, or pruned from the cache)"
                ))
            })?;
        let text = texts.get(&query.path).ok_or_else(|| {
            ApiError::NotFound(format!(
                "{}: not a file of this job's indexed repository",
                query.path
            ))
        })?;
        if text.len() > MAX_SHOWN_FILE_BYTES {
            return Err(ApiError::FileTooLarge(format!(
                "{}: larger than the {MAX_SHOWN_FILE_BYTES} bytes the viewer shows",
                query.path
            )));
        }
        Ok(Json(json!({
            "path": query.path,
            "lines": highlight_lines(&query.path, text),
        })))
    })
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use plan2code_core::contracts::RepoConfig;
    use plan2code_core::pipeline::job::queued_job;
    use std::collections::BTreeMap;

    #[test]
    fn a_report_keeps_file_text_that_looks_like_markup_or_a_placeholder_inert() {
        let hostile = "x = \"</script><script>alert(1)</script>{{SCRIPT}}{{DATA}}\"";
        let report = Report {
            job: queued_job("job-1", RepoConfig::default()),
            overview: Overview {
                graphs: Vec::new(),
                hot_lines: Vec::new(),
            },
            sources: BTreeMap::from([("a.py".to_owned(), vec![hostile.to_owned()])]),
        };
        let html = report_html(&report).unwrap();
        // one inline script and one data element: nothing in the data opened or closed another
        assert_eq!(html.matches("<script>").count(), 1, "{html}");
        assert_eq!(html.matches("</script>").count(), 2, "{html}");
        // every placeholder filled; the one left is the file's own text, inside the data
        assert_eq!(html.matches("{{SCRIPT}}").count(), 1, "{html}");
        assert!(!html.contains("{{TITLE}}") && !html.contains("{{STYLE}}"));
        // and the data still reads back as the very text
        let start = html.find(r#"id="report-data">"#).unwrap() + r#"id="report-data">"#.len();
        let end = start + html[start..].find("</script>").unwrap();
        let data: Value = serde_json::from_str(&html[start..end]).unwrap();
        assert_eq!(data["sources"]["a.py"][0], hostile);
    }
}
