//! Storage ports: the only way the core touches persistent state.
//!
//! Two small traits, each with two implementations in `plan2code-stores`: a local one (SQLite
//! file, a directory) and an AWS one (DynamoDB single table, S3). The traits are synchronous on
//! purpose: the core is plain functions (rayon-parallel indexing, no async runtime), and the AWS
//! implementations bridge into their async SDKs internally. Everything here is `Send + Sync` so a
//! store can be shared across the Map state's parallel nodes.

use crate::contracts::{Event, EventType, Job, JobStatus, MappingOutput};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("store item not found: {0}")]
    NotFound(String),
    /// A conditional write lost (the item changed or already exists).
    #[error("conditional write failed: {0}")]
    Conflict(String),
    #[error("store backend failed: {0}")]
    Backend(String),
    #[error("stored item is corrupt: {0}")]
    Corrupt(String),
}

impl crate::error::Named for StoreError {
    fn error_name(&self) -> crate::error::ErrorName {
        match self {
            StoreError::NotFound(_) => crate::error::ErrorName::InvalidInput,
            _ => crate::error::ErrorName::StoreError,
        }
    }
}

/// Opaque blobs under `/`-separated keys (`index/<cacheKey>/index.json`, `jobs/<id>/plan.json`).
pub trait BlobStore: Send + Sync {
    fn put(&self, key: &str, bytes: &[u8]) -> Result<(), StoreError>;
    fn get(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError>;
    fn delete(&self, key: &str) -> Result<(), StoreError>;

    /// Delete every one of `keys` (absent ones are fine): one request where the store has a batch
    /// call (S3 `DeleteObjects`), one `delete` each otherwise.
    fn delete_all(&self, keys: &[String]) -> Result<(), StoreError> {
        keys.iter().try_for_each(|key| self.delete(key))
    }
}

/// Record of a cached repository index (`PK=REPO#cacheKey, SK=META`).
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RepoIndexRecord {
    pub cache_key: String,
    pub commit: Option<String>,
    /// Blob key of the serialised index.
    pub index_key: String,
    /// Unix seconds after which the record is stale.
    pub expires_at: u64,
}

/// Job state: the job item, per-node mappings, the ordered event log, parked task tokens, the
/// workflow's resume checkpoints and the repo-index cache records.
///
/// Invariants every implementation keeps (the shared store suite checks them):
/// * A terminal job (`completed`, `failed`, `cancelled`) never changes again: `put_job` and
///   `set_job_status` on it fail with [`StoreError::Conflict`]. A cancel therefore always wins
///   over a late `CompleteJob`.
/// * The per-node counters — `statistics.{mappedNodes, confirmedMappings, probableMappings,
///   unmappedNodes}` and `progress.stagesMapped` — are owned by [`JobStore::put_mapping`], which
///   bumps them in the same atomic write that stores the mapping, so a retried FinalMapping
///   counts once. `put_job` never overwrites them; `get_job` reports them (and derives
///   `progress.percentage` from `stagesMapped / totalStages`).
/// * Event sequence numbers start at 1 and are allocated atomically, without gaps per writer.
pub trait JobStore: Send + Sync {
    /// Create a job; fails with `Conflict` if the id exists.
    fn create_job(&self, job: &Job, owner: &str) -> Result<(), StoreError>;
    fn get_job(&self, id: &str) -> Result<Option<Job>, StoreError>;
    /// The caller that created the job (API authorisation).
    fn job_owner(&self, id: &str) -> Result<Option<String>, StoreError>;
    /// Ids of the jobs `owner` created, newest first (job ids begin with their creation time),
    /// at most `limit`.
    fn jobs_of(&self, owner: &str, limit: usize) -> Result<Vec<String>, StoreError>;
    /// Ids of every job that is not terminal (`queued`, `running`, `paused`), ordered by id: what
    /// a restarted local server must take up again.
    fn unfinished_jobs(&self) -> Result<Vec<String>, StoreError>;
    /// Replace the job item except its per-node counters (see the trait docs) and its status,
    /// which only `set_job_status` changes: a pause that lands while a task holds an older copy
    /// of the job survives the task's write. `NotFound` for an unknown id, `Conflict` when the
    /// stored job is terminal.
    fn put_job(&self, job: &Job) -> Result<(), StoreError>;
    /// Change only the status (and the error message when `Some`): the job flags the workflow's
    /// CheckJobFlags reads. `NotFound` / `Conflict` as for `put_job`.
    fn set_job_status(
        &self,
        id: &str,
        status: JobStatus,
        error: Option<&str>,
    ) -> Result<(), StoreError>;

    /// Write a node's mapping once and count it in the job's statistics in the same atomic
    /// write. Returns `true` when this call wrote it, `false` when a mapping for
    /// `(job_id, mapping.node_key())` already existed (a retried FinalMapping): nothing is counted
    /// then.
    /// A mapping counts as mapped when it has `mappedCode` and no `error`, otherwise unmapped.
    fn put_mapping(&self, job_id: &str, mapping: &MappingOutput) -> Result<bool, StoreError>;
    /// The mapping of the node with this key (`contracts::node_key`).
    fn get_mapping(
        &self,
        job_id: &str,
        node_key: &str,
    ) -> Result<Option<MappingOutput>, StoreError>;
    fn mappings(&self, job_id: &str) -> Result<Vec<MappingOutput>, StoreError>;

    /// [`put_mapping`](Self::put_mapping), and when this call wrote the mapping, the event
    /// announcing it ([`append_event`](Self::append_event)) — in one atomic write where the store
    /// can, so a process that dies between the two can neither lose the announcement (a retry
    /// finds the mapping written and announces nothing) nor make it twice. `None`: the mapping was
    /// already there, and nothing was written.
    fn put_mapping_announced(
        &self,
        job_id: &str,
        mapping: &MappingOutput,
        event_type: EventType,
        data: serde_json::Value,
    ) -> Result<Option<Event>, StoreError> {
        if !self.put_mapping(job_id, mapping)? {
            return Ok(None);
        }
        self.append_event(job_id, event_type, data).map(Some)
    }

    /// Append an event, assigning the next sequence number; returns the stored event.
    fn append_event(
        &self,
        job_id: &str,
        event_type: EventType,
        data: serde_json::Value,
    ) -> Result<Event, StoreError>;
    /// Events with `seq > after`, in order, at most `limit`.
    fn events_after(
        &self,
        job_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<Event>, StoreError>;

    /// Park a task token for a paused node (`PAUSE#dagNodeId`; a second park replaces it).
    fn park_token(&self, job_id: &str, dag_node_id: &str, token: &str) -> Result<(), StoreError>;
    /// Remove and return every parked `(dagNodeId, token)` of a job (resume).
    fn take_tokens(&self, job_id: &str) -> Result<Vec<(String, String)>, StoreError>;

    /// Record a workflow checkpoint (`CKPT#key`, overwritten): what the local runner needs to
    /// resume a killed job without redoing finished states. Values are small (references only).
    fn put_checkpoint(
        &self,
        job_id: &str,
        key: &str,
        value: &serde_json::Value,
    ) -> Result<(), StoreError>;
    /// Every checkpoint of a job, ordered by key.
    fn checkpoints(&self, job_id: &str) -> Result<Vec<(String, serde_json::Value)>, StoreError>;

    fn put_repo_index(&self, record: &RepoIndexRecord) -> Result<(), StoreError>;
    /// The record if present and not expired at `now` (unix seconds).
    fn get_repo_index(
        &self,
        cache_key: &str,
        now: u64,
    ) -> Result<Option<RepoIndexRecord>, StoreError>;
}

/// How `put_mapping` counts one mapping; shared by every implementation so they agree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MappingTally {
    pub mapped: u64,
    pub confirmed: u64,
    pub probable: u64,
    pub unmapped: u64,
}

impl MappingTally {
    pub fn of(mapping: &MappingOutput) -> Self {
        use crate::contracts::ConfidenceStatus;
        if mapping.mapped_code.is_none() || mapping.error.is_some() {
            return Self {
                unmapped: 1,
                ..Self::default()
            };
        }
        Self {
            mapped: 1,
            confirmed: u64::from(mapping.confidence_status == ConfidenceStatus::Confirmed),
            probable: u64::from(mapping.confidence_status == ConfidenceStatus::Probable),
            unmapped: 0,
        }
    }
}
