//! Plan ingestion: every form of a Spark physical plan into one typed [`PlanGraph`].
//!
//! ```text
//! input ─▶ detect_format ─┬─ simple / extended ─▶ simple.rs ──┐
//!                         ├─ formatted ─────────▶ formatted.rs ┤   details.rs + expr.rs fill
//!                         ├─ UI REST JSON ──────▶ ui.rs ───────┤   NodeDetails; operators.rs
//!                         └─ event log ─────────▶ eventlog.rs ─┘   names every operator
//!                                                (→ formatted.rs)
//! ```
//!
//! * [`parse_plan`] detects the form, picks the execution ([`ParseOptions::execution_id`]) when
//!   the input holds several, and returns the graph; [`list_executions`] lists them.
//! * Node ids follow `docs/ARCHITECTURE.md`: the `(N)` of formatted text and event logs, the UI's
//!   `nodeId`, the pre-order position for `explain()` text.
//! * Errors are [`PlanError`]s naming line, column and what was expected. No input panics.
//!
//! [`graph`] is the model; [`operators`] is the one operator table; [`expr`] reads
//! expressions.

pub mod application;
mod builder;
mod details;
pub mod error;
mod eventlog;
pub mod expr;
mod formatted;
pub mod graph;
pub mod input;
pub mod operators;
pub mod render;
mod simple;
mod tree;
mod ui;

pub use application::Application;
pub use error::PlanError;
pub use graph::*;

/// How to read a plan.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// The SQL execution to read when the input holds several (event logs, the UI `/sql` list).
    pub execution_id: Option<u64>,
}

/// One SQL execution of a multi-execution input.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecutionSummary {
    pub execution_id: Option<u64>,
    pub description: Option<String>,
    /// First line of the call site Spark recorded.
    pub call_site: Option<String>,
    /// Operators in the execution's plan.
    pub node_count: usize,
}

/// Detect the form of `input`.
pub fn detect_format(input: &str) -> PlanFormat {
    let trimmed = input.trim_start();
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        // plan text never starts with a brace or bracket; JSON that is not an event log is
        // read as the UI form, whose reader reports what is wrong with it
        return if eventlog::looks_like_event_log(input) {
            PlanFormat::Eventlog
        } else {
            PlanFormat::Ui
        };
    }
    if formatted::looks_formatted(input) {
        return PlanFormat::Formatted;
    }
    if input.contains("== Parsed Logical Plan ==") || input.contains("== Optimized Logical Plan ==")
    {
        return PlanFormat::Extended;
    }
    PlanFormat::Simple
}

/// Parse a physical plan in any supported form.
pub fn parse_plan(input: &str, options: &ParseOptions) -> Result<PlanGraph, PlanError> {
    if input.trim().is_empty() {
        return Err(PlanError::syntax(1, 1, "a Spark physical plan", ""));
    }
    match detect_format(input) {
        PlanFormat::Eventlog => eventlog::parse_event_log(input, options),
        PlanFormat::Ui => ui::parse_ui(input, options),
        PlanFormat::Formatted => formatted::parse_formatted(input, PlanFormat::Formatted),
        PlanFormat::Simple | PlanFormat::Extended => simple::parse_simple(input),
    }
}

/// The plans a job maps from `input`: plan text is one plan; an input holding several SQL
/// executions gives every execution, or those `wanted` names.
pub fn parse_application(input: &str, wanted: Option<&[u64]>) -> Result<Application, PlanError> {
    let several = list_executions(input)?.len() > 1 || wanted.is_some_and(|w| w.len() > 1);
    if several && detect_format(input) == PlanFormat::Eventlog {
        return eventlog::parse_application(input, wanted);
    }
    if several {
        return Application::from_executions(parse_every_execution(input)?, wanted);
    }
    let options = ParseOptions {
        execution_id: wanted.and_then(|w| w.first().copied()),
    };
    parse_plan(input, &options).map(Application::single)
}

/// One execution of a multi-execution input: its id and its graph, or why it did not parse.
pub type ParsedExecution = (Option<u64>, Result<PlanGraph, PlanError>);

/// Every SQL execution of a multi-execution input (an event log or a UI list), each parsed on
/// its own: one that fails carries its error and the others still read. An event log is read once.
pub fn parse_every_execution(input: &str) -> Result<Vec<ParsedExecution>, PlanError> {
    if detect_format(input) == PlanFormat::Eventlog {
        return eventlog::parse_every_execution(input);
    }
    Ok(list_executions(input)?
        .into_iter()
        .map(|summary| {
            let options = ParseOptions {
                execution_id: summary.execution_id,
            };
            (summary.execution_id, parse_plan(input, &options))
        })
        .collect())
}

/// The SQL executions an input holds (event logs and UI JSON); empty for plan text, which is
/// always one plan.
pub fn list_executions(input: &str) -> Result<Vec<ExecutionSummary>, PlanError> {
    match detect_format(input) {
        PlanFormat::Eventlog => eventlog::list_event_log_executions(input),
        PlanFormat::Ui => ui::list_ui_executions(input),
        _ => Ok(Vec::new()),
    }
}
