//! Job-level results: statistics and the completed [`Job`] object, computed the same way by the
//! CLI, the local runner's CompleteJob and the CompleteJob Lambda.

use crate::contracts::{
    ConfidenceStatus, Job, JobResult, JobStatus, MappingOutput, NodeKind, Progress, RepoConfig,
    RepositoryAnalysis, Statistics,
};

/// Statistics over a job's mappings.
pub fn statistics(
    mappings: &[MappingOutput],
    files_scanned: u64,
    symbols_indexed: u64,
) -> Statistics {
    let code = || mappings.iter().filter(|m| m.node_kind == NodeKind::Code);
    let mapped = code()
        .filter(|m| m.mapped_code.is_some() && m.error.is_none())
        .count() as u64;
    Statistics {
        total_nodes: mappings.len() as u64,
        mapped_nodes: mapped,
        confirmed_mappings: code()
            .filter(|m| m.confidence_status == ConfidenceStatus::Confirmed)
            .count() as u64,
        probable_mappings: code()
            .filter(|m| m.confidence_status == ConfidenceStatus::Probable)
            .count() as u64,
        unmapped_nodes: code().count() as u64 - mapped,
        files_scanned,
        symbols_indexed,
    }
}

/// Order mappings by numeric `dagNodeId` when ids are numbers, else as strings.
pub fn sort_mappings(mappings: &mut [MappingOutput]) {
    mappings.sort_by(
        |a, b| match (a.dag_node_id.parse::<u64>(), b.dag_node_id.parse::<u64>()) {
            (Ok(x), Ok(y)) => x.cmp(&y),
            _ => a.dag_node_id.cmp(&b.dag_node_id),
        },
    );
}

/// The finished job as `GET /jobs/:id` and `plan2code map --format json` print it.
pub fn completed_job(
    id: String,
    repo_config: RepoConfig,
    mut mappings: Vec<MappingOutput>,
    files_scanned: u64,
    symbols_indexed: u64,
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
    }
}
