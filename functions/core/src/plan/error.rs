//! [`PlanError`]: why a plan could not be read, with the place (1-based line and column) and
//! what the parser expected there. Every variant reports [`ErrorName::ParseError`] except the two
//! execution-selection errors, which are well-formed input the caller must narrow down
//! ([`ErrorName::InvalidInput`]).

use crate::error::{ErrorName, Named};

/// A plan that could not be turned into a [`super::PlanGraph`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlanError {
    /// The text did not have the shape of the detected form.
    #[error("PARSE_ERROR at line {line}, column {column}: expected {expected}, found {found}")]
    Syntax {
        line: u32,
        column: u32,
        expected: String,
        found: String,
    },
    /// JSON input (UI or event log) that is not valid JSON or lacks a required field.
    #[error("PARSE_ERROR at line {line}, column {column}: {message}")]
    Json {
        line: u32,
        column: u32,
        message: String,
    },
    /// The input holds several executions and none was chosen.
    #[error(
        "the input holds {} executions ({}); choose one with --execution ID",
        available.len(),
        join_ids(available)
    )]
    ExecutionRequired { available: Vec<u64> },
    /// The chosen execution is not in the input.
    #[error(
        "no execution {requested} in the input (it holds: {})",
        join_ids(available)
    )]
    ExecutionNotFound { requested: u64, available: Vec<u64> },
}

fn join_ids(ids: &[u64]) -> String {
    ids.iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl PlanError {
    pub(crate) fn syntax(line: usize, column: usize, expected: &str, found: &str) -> Self {
        PlanError::Syntax {
            line: clamp_u32(line),
            column: clamp_u32(column),
            expected: expected.to_string(),
            found: describe_found(found),
        }
    }

    pub(crate) fn json(line: usize, column: usize, message: impl Into<String>) -> Self {
        PlanError::Json {
            line: clamp_u32(line),
            column: clamp_u32(column),
            message: message.into(),
        }
    }

    /// `serde_json`'s error at a position, shifted by the line the JSON text started on.
    pub(crate) fn from_serde(err: &serde_json::Error, first_line: usize) -> Self {
        let line = err.line().max(1) + first_line.saturating_sub(1);
        // serde points at the last character read; at end of input we point just past it,
        // like the text parsers do
        let column = err.column().max(1) + usize::from(err.is_eof());
        Self::json(line, column, format!("invalid JSON: {err}"))
    }

    /// 1-based (line, column) of the error, when it has one.
    pub fn position(&self) -> Option<(u32, u32)> {
        match self {
            PlanError::Syntax { line, column, .. } | PlanError::Json { line, column, .. } => {
                Some((*line, *column))
            }
            _ => None,
        }
    }
}

fn clamp_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A short, printable rendering of the offending text.
fn describe_found(found: &str) -> String {
    if found.is_empty() {
        return "end of input".to_string();
    }
    let mut shown: String = found.chars().take(40).collect();
    if shown.len() < found.len() {
        shown.push('…');
    }
    format!("`{shown}`")
}

impl Named for PlanError {
    fn error_name(&self) -> ErrorName {
        match self {
            PlanError::Syntax { .. } | PlanError::Json { .. } => ErrorName::ParseError,
            PlanError::ExecutionRequired { .. } | PlanError::ExecutionNotFound { .. } => {
                ErrorName::InvalidInput
            }
        }
    }
}
