//! The JSON contracts other systems see: what `GET /jobs/:id` and `plan2code map --format json`
//! print, what the event stream carries. Field names are camelCase as in `docs/ARCHITECTURE.md`; changing
//! one here changes the public API, so they are defined once, here.

use serde::{Deserialize, Serialize};

/// Whether a plan node was written by the user (`code`) or inserted by the engine (`engine`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum NodeKind {
    Code,
    Engine,
}

/// A location in the repository: file (repo-relative), enclosing symbol, 1-based inclusive lines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CodeLocation {
    pub file: String,
    pub symbol: Option<String>,
    /// `"start-end"`, 1-based inclusive.
    pub lines: String,
    pub code_snippet: String,
}

/// The factors behind a confidence score (each 0–1).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfidenceFactors {
    pub embedding_score: f64,
    pub ast_score: f64,
    pub llm_confidence: f64,
    pub keyword_match: f64,
}

/// Confidence bands (thresholds configurable, see `docs/ARCHITECTURE.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConfidenceStatus {
    Confirmed,
    Probable,
    Uncertain,
}

/// A runner-up location for a node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Alternative {
    #[serde(flatten)]
    pub location: CodeLocation,
    pub confidence: f64,
    pub reason: String,
}

/// The answer for one DAG node.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MappingOutput {
    /// The SQL execution the node belongs to, when the input named it (event logs, the Spark UI):
    /// a job mapping a whole application holds nodes of many executions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution_id: Option<u64>,
    pub dag_node_id: String,
    pub node_name: String,
    pub node_kind: NodeKind,
    pub mapped_code: Option<CodeLocation>,
    pub confidence: f64,
    pub confidence_status: ConfidenceStatus,
    pub confidence_factors: ConfidenceFactors,
    pub explanation: String,
    pub alternatives: Vec<Alternative>,
    /// Set when the node's pipeline failed for good and it was recorded unmapped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl MappingOutput {
    /// The node's key inside its job (see [`node_key`]).
    pub fn node_key(&self) -> String {
        node_key(self.execution_id, &self.dag_node_id)
    }
}

/// A node's key inside its job: its `dagNodeId`, prefixed with `executionId:` when it belongs to
/// a named SQL execution, since every execution numbers its nodes from 1. The stores key mappings
/// by it and the state machine's per-node items carry it (as their `dagNodeId`).
pub fn node_key(execution_id: Option<u64>, dag_node_id: &str) -> String {
    match execution_id {
        Some(execution) => format!("{execution}:{dag_node_id}"),
        None => dag_node_id.to_owned(),
    }
}

/// The execution and `dagNodeId` a [`node_key`] names.
pub fn split_node_key(key: &str) -> (Option<u64>, &str) {
    match key.split_once(':') {
        Some((execution, id)) if execution.parse::<u64>().is_ok() => (execution.parse().ok(), id),
        _ => (None, key),
    }
}

/// One SQL execution of a job that maps an application: what it was and how big, or why it was
/// not mapped.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecutionReport {
    pub execution_id: Option<u64>,
    /// The execution it ran inside (`rootExecutionId`), when not itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root_execution_id: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// Operators of its plan (0 when skipped).
    pub node_count: u64,
    /// Why it was not mapped (no plan in the log, a plan that does not parse).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JobStatus {
    Queued,
    Running,
    Paused,
    Completed,
    Failed,
    Cancelled,
}

impl JobStatus {
    /// The status as the JSON contracts spell it (`"failed"`).
    pub fn as_str(self) -> &'static str {
        match self {
            JobStatus::Queued => "queued",
            JobStatus::Running => "running",
            JobStatus::Paused => "paused",
            JobStatus::Completed => "completed",
            JobStatus::Failed => "failed",
            JobStatus::Cancelled => "cancelled",
        }
    }

    /// A terminal job never changes status again.
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            JobStatus::Completed | JobStatus::Failed | JobStatus::Cancelled
        )
    }
}

/// Where the code comes from. Never holds a token: credentials travel out of band.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RepoConfig {
    pub url: String,
    pub branch: Option<String>,
    pub commit: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    pub current_phase: String,
    pub total_stages: u32,
    pub stages_mapped: u32,
    pub percentage: f64,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RepositoryAnalysis {
    pub total_files: u64,
    pub total_functions: u64,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JobResult {
    pub mappings: Vec<MappingOutput>,
    pub repository_analysis: RepositoryAnalysis,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Statistics {
    pub total_nodes: u64,
    pub mapped_nodes: u64,
    pub confirmed_mappings: u64,
    pub probable_mappings: u64,
    pub unmapped_nodes: u64,
    pub files_scanned: u64,
    pub symbols_indexed: u64,
}

/// A mapping job as `GET /jobs/:id` and `plan2code map --format json` print it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Job {
    pub id: String,
    pub status: JobStatus,
    pub repo_config: RepoConfig,
    pub progress: Progress,
    pub result: Option<JobResult>,
    pub statistics: Statistics,
    pub error: Option<String>,
    /// The SQL executions the job maps (or skipped), when its plan input named executions.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub executions: Vec<ExecutionReport>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventType {
    JobStarted,
    StageStarted,
    StageProgress,
    StageCompleted,
    ArtifactProduced,
    MappingFinalized,
    JobCompleted,
    Error,
}

/// One entry of a job's ordered, replayable event log (SSE and `GET /jobs/:id/events`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Event {
    #[serde(rename = "type")]
    pub event_type: EventType,
    /// RFC 3339 UTC.
    pub timestamp: String,
    pub seq: u64,
    pub data: serde_json::Value,
}
