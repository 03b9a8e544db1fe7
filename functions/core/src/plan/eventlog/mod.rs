//! Spark event logs: one JSON object per line, as Spark writes them — plain, compressed
//! ([`codec`]: zstd, lz4, snappy, lzf, gzip), rolled into `eventlog_v2_<appId>/` folders
//! ([`rolled`]), or still in progress (a cut last line). [`reader`] streams the lines and keeps
//! each SQL execution's plan text; this module turns those into [`PlanGraph`]s.
//!
//! A plan is the formatted form since Spark 3.0; older logs hold `explain(true)` text, read by
//! the simple reader. Node ids are that text's `(N)` (pre-order positions for old logs). The
//! start event's `description` and `details` go to [`ExecutionInfo`], `SparkListenerLogStart`
//! gives the Spark version, the operators' measured metrics come from the accumulators
//! ([`metrics`]), and the log's warnings (skipped lines) are carried on every graph read from it.

pub mod codec;
mod metrics;
mod reader;
pub mod rolled;

use std::io::BufRead;

use super::error::PlanError;
use super::formatted::{looks_formatted, parse_formatted, parse_section_header};
use super::graph::{ExecutionInfo, PlanFormat, PlanGraph};
use super::simple::parse_simple;
use super::{Application, ExecutionSummary, ParseOptions, ParsedExecution};
use crate::contracts::ExecutionReport;
use reader::{EventHead, EventLog, Execution, read_events};
use std::collections::BTreeMap;

/// Whether the text's first non-blank line is a JSON object with an `Event` field.
pub(crate) fn looks_like_event_log(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .is_some_and(is_event_line)
}

/// Whether one line is a JSON object with an `Event` field.
pub(crate) fn is_event_line(line: &str) -> bool {
    let line = line.trim().trim_start_matches('\u{feff}');
    line.starts_with('{') && serde_json::from_str::<EventHead<'_>>(line).is_ok()
}

/// An event log read from a stream, its executions' plans not parsed yet.
pub struct ReadLog(EventLog);

impl ReadLog {
    /// Read a (decoded) log stream line by line.
    pub fn read(input: impl BufRead) -> Result<Self, PlanError> {
        read_events(input).map(ReadLog)
    }

    /// Ids of the SQL executions the log holds.
    pub fn execution_ids(&self) -> Vec<u64> {
        self.0.executions.keys().copied().collect()
    }

    /// The execution `options` selects, or the only one.
    pub fn parse(mut self, options: &ParseOptions) -> Result<PlanGraph, PlanError> {
        let available = self.execution_ids();
        let id = match (options.execution_id, available.as_slice()) {
            (Some(wanted), _) if self.0.executions.contains_key(&wanted) => wanted,
            (Some(wanted), _) => {
                return Err(PlanError::ExecutionNotFound {
                    requested: wanted,
                    available,
                });
            }
            (None, [only]) => *only,
            (None, []) => return Err(self.no_execution()),
            (None, _) => return Err(PlanError::ExecutionRequired { available }),
        };
        let exec = self.0.executions.remove(&id).unwrap_or_default();
        self.execution_graph(id, exec)
    }

    /// Every execution, each parsed on its own (one that fails carries its error).
    pub fn parse_every_execution(mut self) -> Result<Vec<ParsedExecution>, PlanError> {
        if self.0.executions.is_empty() {
            return Err(self.no_execution());
        }
        let executions = std::mem::take(&mut self.0.executions);
        Ok(executions
            .into_iter()
            .map(|(id, exec)| (Some(id), self.execution_graph(id, exec)))
            .collect())
    }

    /// The plans a job maps: every execution (those `wanted` names), the ones that cannot be
    /// mapped reported with what the log says of them.
    pub fn parse_application(self, wanted: Option<&[u64]>) -> Result<Application, PlanError> {
        let known: BTreeMap<u64, ExecutionReport> = self
            .0
            .executions
            .iter()
            .map(|(id, e)| {
                let report = ExecutionReport {
                    execution_id: Some(*id),
                    root_execution_id: e.root_execution_id.filter(|root| root != id),
                    description: e.description.clone(),
                    duration_ms: e.duration_ms(),
                    ..ExecutionReport::default()
                };
                (*id, report)
            })
            .collect();
        let mut app = Application::from_executions(self.parse_every_execution()?, wanted)?;
        for skipped in &mut app.skipped {
            if let Some(report) = skipped.execution_id.and_then(|id| known.get(&id)) {
                *skipped = ExecutionReport {
                    skipped: skipped.skipped.take(),
                    ..report.clone()
                };
            }
        }
        Ok(app)
    }

    /// The executions, without parsing their plans.
    pub fn list_executions(&self) -> Vec<ExecutionSummary> {
        self.0
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
                        .filter(|l| parse_section_header(l).is_some())
                        .count()
                }),
            })
            .collect()
    }

    fn no_execution(&self) -> PlanError {
        PlanError::syntax(
            self.0.lines.max(1),
            1,
            "a `SparkListenerSQLExecutionStart` event with a `physicalPlanDescription`",
            "",
        )
    }

    /// The graph of one execution.
    fn execution_graph(&self, id: u64, exec: Execution) -> Result<PlanGraph, PlanError> {
        let duration_ms = exec.duration_ms();
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
                expected: format!(
                    "{expected} (physicalPlanDescription line {line}, column {column})"
                ),
                found,
            },
            other => other,
        })?;
        graph.format = PlanFormat::Eventlog;
        for node in &mut graph.nodes {
            node.source_line = None;
        }
        if let Some(info) = &exec.plan_info {
            metrics::attach_metrics(&mut graph, info, &self.0.accumulators);
        }
        graph.execution = ExecutionInfo {
            execution_id: Some(id),
            description: exec.description,
            call_site: exec.call_site,
            spark_version: self.0.spark_version.clone(),
            root_execution_id: exec.root_execution_id.filter(|root| *root != id),
            hints: self
                .0
                .entry_hints
                .iter()
                .chain(&exec.hints)
                .cloned()
                .collect(),
            duration_ms,
        };
        graph.warnings.extend(self.0.warnings.iter().cloned());
        Ok(graph)
    }
}

pub(crate) fn list_event_log_executions(text: &str) -> Result<Vec<ExecutionSummary>, PlanError> {
    Ok(ReadLog::read(text.as_bytes())?.list_executions())
}

pub(crate) fn parse_event_log(text: &str, options: &ParseOptions) -> Result<PlanGraph, PlanError> {
    ReadLog::read(text.as_bytes())?.parse(options)
}

/// The plans of a log's executions (see [`ReadLog::parse_application`]).
pub(crate) fn parse_application(
    text: &str,
    wanted: Option<&[u64]>,
) -> Result<Application, PlanError> {
    ReadLog::read(text.as_bytes())?.parse_application(wanted)
}

/// Every execution of a log, each parsed on its own, reading the log once.
pub(crate) fn parse_every_execution(text: &str) -> Result<Vec<ParsedExecution>, PlanError> {
    ReadLog::read(text.as_bytes())?.parse_every_execution()
}
