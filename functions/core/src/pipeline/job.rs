//! Jobs from start to end, the same way for the CLI, the local server and the Lambdas: a new job
//! as it is created ([`queued_job`], its plan under [`plan_key`], the state machine's
//! [`execution_input`]), and its results — statistics and the completed [`Job`] object, computed
//! alike by the CLI, the local runner's CompleteJob and the CompleteJob Lambda.

use crate::contracts::{
    ExecutionReport, Job, JobResult, JobStatus, MappingOutput, Progress, RepoConfig,
    RepositoryAnalysis, Statistics,
};
use crate::ports::MappingTally;
use serde_json::{Value, json};

/// Blob key of a job's plan (`jobs/<id>/plan.json`).
pub fn plan_key(job_id: &str) -> String {
    format!("jobs/{job_id}/plan.json")
}

/// Blob key of the report on a job's SQL executions (`jobs/<id>/executions.json`, a list of
/// `ExecutionReport`s), written by LoadRepoContext.
pub fn executions_key(job_id: &str) -> String {
    format!("jobs/{job_id}/executions.json")
}

/// A new job as it is created, before LoadRepoContext runs.
pub fn queued_job(id: &str, repo_config: RepoConfig) -> Job {
    Job {
        id: id.to_owned(),
        status: JobStatus::Queued,
        repo_config,
        progress: Progress {
            current_phase: "queued".into(),
            ..Progress::default()
        },
        result: None,
        statistics: Statistics::default(),
        error: None,
        executions: Vec::new(),
    }
}

/// The execution input of the state machine for a job (never a token). `nodeCount` (the nodes
/// of its plans) lets a deployment start a large job on its Distributed Map machine.
pub fn execution_input(job_id: &str, repo: &RepoConfig, node_count: usize) -> Value {
    json!({
        "jobId": job_id, "planKey": plan_key(job_id), "repo": repo, "nodeCount": node_count,
    })
}

/// Statistics over a job's mappings, counted with the same [`MappingTally`] the stores use.
pub fn statistics(
    mappings: &[MappingOutput],
    files_scanned: u64,
    symbols_indexed: u64,
) -> Statistics {
    let mut stats = Statistics {
        total_nodes: mappings.len() as u64,
        files_scanned,
        symbols_indexed,
        ..Statistics::default()
    };
    for tally in mappings.iter().map(MappingTally::of) {
        stats.mapped_nodes += tally.mapped;
        stats.confirmed_mappings += tally.confirmed;
        stats.probable_mappings += tally.probable;
        stats.unmapped_nodes += tally.unmapped;
    }
    stats
}

/// Order mappings by execution, then by numeric `dagNodeId` when ids are numbers, else as
/// strings.
pub fn sort_mappings(mappings: &mut [MappingOutput]) {
    mappings.sort_by(|a, b| {
        a.execution_id.cmp(&b.execution_id).then_with(|| {
            match (a.dag_node_id.parse::<u64>(), b.dag_node_id.parse::<u64>()) {
                (Ok(x), Ok(y)) => x.cmp(&y),
                _ => a.dag_node_id.cmp(&b.dag_node_id),
            }
        })
    });
}

/// The finished job as `GET /jobs/:id` and `plan2code map --format json` print it.
pub fn completed_job(
    id: String,
    repo_config: RepoConfig,
    mut mappings: Vec<MappingOutput>,
    files_scanned: u64,
    symbols_indexed: u64,
    executions: Vec<ExecutionReport>,
) -> Job {
    sort_mappings(&mut mappings);
    let statistics = statistics(&mappings, files_scanned, symbols_indexed);
    let total = mappings.len() as u32;
    Job {
        id,
        status: JobStatus::Completed,
        repo_config,
        progress: Progress {
            current_phase: "completed".into(),
            total_stages: total,
            stages_mapped: total,
            percentage: 100.0,
        },
        result: Some(JobResult {
            mappings,
            repository_analysis: RepositoryAnalysis {
                total_files: files_scanned,
                total_functions: symbols_indexed,
            },
        }),
        statistics,
        error: None,
        executions,
    }
}
