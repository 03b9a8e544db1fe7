//! Spark event logs: one JSON object per line.
//!
//! For each SQL execution the plan is the `physicalPlanDescription` (formatted form since Spark
//! 3.0; older logs hold `explain(true)` text, read by the simple reader) of the last
//! `SparkListenerSQLAdaptiveExecutionUpdate` when AQE re-planned, else of its
//! `SparkListenerSQLExecutionStart`; node ids are that text's `(N)`. The start event's
//! `description` and `details` (the call site Spark recorded, which can name the user's file
//! and line) go to [`ExecutionInfo`]; `SparkListenerLogStart` gives the Spark version.
//!
//! Only the events above are decoded into values; every other line is still checked to be JSON
//! (a cut line is a [`PlanError`] with its line and column) but skipped without building it,
//! which keeps large logs fast.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::error::PlanError;
use super::formatted::{looks_formatted, parse_formatted};
use super::graph::{ExecutionInfo, PlanFormat, PlanGraph};
use super::simple::parse_simple;
use super::{ExecutionSummary, ParseOptions};

const START: &str = "SparkListenerSQLExecutionStart";
const ADAPTIVE_UPDATE: &str = "SparkListenerSQLAdaptiveExecutionUpdate";
const LOG_START: &str = "SparkListenerLogStart";

#[derive(Deserialize)]
struct EventHead<'a> {
    #[serde(rename = "Event", borrow)]
    event: std::borrow::Cow<'a, str>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SqlEvent {
    execution_id: u64,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    details: Option<String>,
    #[serde(default)]
    physical_plan_description: Option<String>,
}

#[derive(Deserialize)]
struct LogStart {
    #[serde(rename = "Spark Version", default)]
    spark_version: Option<String>,
}

#[derive(Default)]
struct Execution {
    description: Option<String>,
    call_site: Option<String>,
    /// The plan text and the line it came from.
    plan: Option<(String, usize)>,
    from_update: bool,
}

struct EventLog {
    executions: BTreeMap<u64, Execution>,
    spark_version: Option<String>,
    /// Lines of the events we read that were not valid JSON (skipped: a stray line, or the
    /// truncated last line of an in-progress log, is not fatal).
    warnings: Vec<String>,
}

/// Whether the text's first non-blank line is a JSON object with an `Event` field.
pub(crate) fn looks_like_event_log(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .is_some_and(|first| {
            first.starts_with('{') && serde_json::from_str::<EventHead<'_>>(first).is_ok()
        })
}

fn read(text: &str) -> Result<EventLog, PlanError> {
    let mut log = EventLog {
        executions: BTreeMap::new(),
        spark_version: None,
        warnings: Vec::new(),
    };
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let kind = if line.contains(ADAPTIVE_UPDATE) {
            Some(ADAPTIVE_UPDATE)
        } else if line.contains(START) {
            Some(START)
        } else if line.contains(LOG_START) {
            Some(LOG_START)
        } else {
            None
        };
        // Events that carry no plan (tasks, stages, metrics: most of a log) are not parsed.
        let Some(kind) = kind else {
            continue;
        };
        let head: EventHead<'_> = match serde_json::from_str(line) {
            Ok(head) => head,
            Err(e) => {
                log.warnings
                    .push(format!("line {line_no}: not a JSON event, skipped: {e}"));
                continue;
            }
        };
        if !head.event.ends_with(kind) {
            continue; // the name appeared inside some other event's text
        }
        if kind == LOG_START {
            let start: LogStart =
                serde_json::from_str(line).map_err(|e| PlanError::from_serde(&e, line_no))?;
            log.spark_version = start.spark_version;
            continue;
        }
        let event: SqlEvent = serde_json::from_str(line).map_err(|e| {
            PlanError::json(
                line_no,
                1,
                format!("{kind} event without a numeric `executionId`: {e}"),
            )
        })?;
        let exec = log.executions.entry(event.execution_id).or_default();
        if kind == START {
            exec.description = event.description;
            exec.call_site = event.details.filter(|d| !d.is_empty());
            if !exec.from_update {
                exec.plan = event.physical_plan_description.map(|p| (p, line_no));
            }
        } else if let Some(plan) = event.physical_plan_description {
            exec.plan = Some((plan, line_no));
            exec.from_update = true;
        }
    }
    Ok(log)
}

pub(crate) fn list_event_log_executions(text: &str) -> Result<Vec<ExecutionSummary>, PlanError> {
    let log = read(text)?;
    Ok(log
        .executions
        .iter()
        .map(|(id, e)| ExecutionSummary {
            execution_id: Some(*id),
            description: e.description.clone(),
            call_site: e
                .call_site
                .as_ref()
                .and_then(|c| c.lines().next())
                .map(str::to_string),
            node_count: e.plan.as_ref().map_or(0, |(p, _)| {
                p.lines()
                    .filter(|l| super::formatted::parse_section_header(l).is_some())
                    .count()
            }),
        })
        .collect())
}

pub(crate) fn parse_event_log(text: &str, options: &ParseOptions) -> Result<PlanGraph, PlanError> {
    let mut log = read(text)?;
    let available: Vec<u64> = log.executions.keys().copied().collect();
    let id = match options.execution_id {
        Some(wanted) if log.executions.contains_key(&wanted) => wanted,
        Some(wanted) => {
            return Err(PlanError::ExecutionNotFound {
                requested: wanted,
                available,
            });
        }
        None => match available.as_slice() {
            [only] => *only,
            [] => {
                return Err(PlanError::syntax(
                    text.lines().count().max(1),
                    1,
                    "a `SparkListenerSQLExecutionStart` event with a `physicalPlanDescription`",
                    "",
                ));
            }
            _ => return Err(PlanError::ExecutionRequired { available }),
        },
    };
    let Some(exec) = log.executions.remove(&id) else {
        return Err(PlanError::ExecutionNotFound {
            requested: id,
            available,
        });
    };
    execution_graph(id, exec, log.spark_version, log.warnings)
}

/// Every execution of a log, each parsed on its own, reading the log once.
pub(crate) fn parse_every_execution(text: &str) -> Result<Vec<super::ParsedExecution>, PlanError> {
    let log = read(text)?;
    Ok(log
        .executions
        .into_iter()
        .map(|(id, exec)| {
            let graph = execution_graph(id, exec, log.spark_version.clone(), log.warnings.clone());
            (Some(id), graph)
        })
        .collect())
}

/// The graph of one execution of a log that was read.
fn execution_graph(
    id: u64,
    exec: Execution,
    spark_version: Option<String>,
    warnings: Vec<String>,
) -> Result<PlanGraph, PlanError> {
    let Some((plan, line_no)) = exec.plan else {
        return Err(PlanError::json(
            1,
            1,
            format!("execution {id} has no `physicalPlanDescription`"),
        ));
    };
    // Spark ≥ 3.0 writes the formatted form; older logs hold `explain(true)` text
    let parsed = if looks_formatted(&plan) {
        parse_formatted(&plan, PlanFormat::Eventlog)
    } else {
        parse_simple(&plan)
    };
    let mut graph = parsed.map_err(|e| match e {
        PlanError::Syntax {
            line,
            column,
            expected,
            found,
        } => PlanError::Syntax {
            line: u32::try_from(line_no).unwrap_or(u32::MAX),
            column: 1,
            expected: format!("{expected} (physicalPlanDescription line {line}, column {column})"),
            found,
        },
        other => other,
    })?;
    graph.format = PlanFormat::Eventlog;
    for node in &mut graph.nodes {
        node.source_line = None;
    }
    graph.execution = ExecutionInfo {
        execution_id: Some(id),
        description: exec.description,
        call_site: exec.call_site,
        spark_version,
    };
    graph.warnings.extend(warnings);
    Ok(graph)
}
