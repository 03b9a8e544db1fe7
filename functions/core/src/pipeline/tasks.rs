//! The pipeline as state-machine tasks: the seven nodes as [`TaskRegistry`] handlers.
//!
//! `statemachine/mapping.asl.json` calls `LoadRepoContextFunction` once per job and
//! `PlanSemanticsFunction` … `FinalMappingFunction` once per DAG node. [`PipelineTasks`] implements
//! them over the same functions [`super::map_plan`] runs in-process, so a job mapped through the
//! state machine (the CLI, `plan2code serve`, the Lambdas) gets exactly the mappings `map_plan`
//! returns for the same plan and index (tested in `functions/cli/tests/map_through_runner.rs`).
//!
//! **State travels by reference.** Every task stores its real output in the [`BlobStore`] and
//! returns only `{"key": …}` (see `statemachine/README.md`):
//!
//! | task | reads | writes (blob) |
//! |---|---|---|
//! | LoadRepoContext | `planKey` (a serialised `Application` or `PlanGraph`, or plan text in any form) | the index (`index/<cacheKey>/…`), `jobs/<id>/texts-ref.json`, `jobs/<id>/semantics.json`, `jobs/<id>/localisation.json`, `jobs/<id>/dag-nodes.json`, `jobs/<id>/executions.json` |
//! | PlanSemantics | the job's context | `jobs/<id>/nodes/<n>/semantics.json` (one `SemanticDescription`) |
//! | EmbeddingRetrieval | `semantics.key` | `…/candidates.json` (top-K `Candidate`s) |
//! | AstFilter | `semantics.key`, `candidates.key` | `…/filtered.json` (the top three by merit) |
//! | ReasoningAgent | `semantics.key`, `filtered.key` | `…/reasoning.json` (the `Decision`) |
//! | ConfidenceGate | the three above | `…/mapping.json` (the assembled `MappingOutput`) |
//! | FinalMapping | `confidence.key` | the job store: the mapping, once, + `mapping_finalized` |
//!
//! Intermediate results are always blobs, never inline: a node's candidates carry code snippets
//! (often several KB), and one uniform rule keeps every state payload a few hundred bytes whatever
//! the code looks like. [`PipelineTasks::finish_job`] deletes a finished job's intermediates.
//!
//! **The per-job cache.** Retrieval needs the job's [`PlanContext`] (the site table, BM25
//! statistics, the plan's localisation), which costs far more than one node. `PipelineTasks` keeps
//! it per job id in memory (the eight most recently used jobs), so a local run or a warm Lambda
//! builds it once; a cold Lambda (or an evicted job) rebuilds it from `planKey` + `indexKey` (deterministic: the same plan and index give the same context).
//!
//! **Errors** carry the names the definition's Retry / Catch match ([`TaskError::from_named`]):
//! `PARSE_ERROR`, `CLONE_FAILED`, `AUTH_FAILED`, `LLM_RATE_LIMIT`, …; a missing or malformed
//! reference is `INVALID_INPUT`. A GitHub token for a job is held only in memory
//! ([`PipelineTasks::set_job_token`]) and never enters a payload, a blob or an event.

use super::job::executions_key;
use super::reason::{Decision, Reasoner};
use super::retrieve::Candidate;
use super::semantics::SemanticDescription;
use super::{PipelineConfig, PlanContext, finalize};
use crate::code::cache::load_index_bytes;
use crate::code::texts::record_job_texts;
use crate::code::{LoadOptions, RepoSource, Secret, load_or_build_index};
use crate::contracts::{EventType, JobStatus, MappingOutput, RepoConfig};
use crate::error::ErrorName;
use crate::plan::{self, Application, PlanGraph};
use crate::ports::{BlobStore, JobStore, StoreError};
use crate::workflow::{TaskError, TaskRegistry};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// How LoadRepoContext clones and caches (defaults from the environment).
pub type LoadOptionsFn = Arc<dyn Fn() -> LoadOptions<'static> + Send + Sync>;

/// The seven pipeline nodes as task handlers over a job store, a blob store and a reasoner.
pub struct PipelineTasks {
    jobs: Arc<dyn JobStore>,
    blobs: Arc<dyn BlobStore>,
    reasoner: Arc<dyn Reasoner>,
    config: PipelineConfig,
    load_options: LoadOptionsFn,
    /// Most recently used last; bounded by [`CONTEXT_CACHE_JOBS`].
    contexts: Mutex<Vec<(String, Arc<PlanContext>)>>,
    tokens: Mutex<HashMap<String, Secret>>,
}

/// Jobs whose context stays cached: a warm Lambda serves many jobs over its life and must not
/// keep them all; an evicted context is rebuilt from its blobs on next use.
const CONTEXT_CACHE_JOBS: usize = 8;

impl std::fmt::Debug for PipelineTasks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PipelineTasks")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

fn invalid(cause: impl Into<String>) -> TaskError {
    TaskError::new(ErrorName::InvalidInput.as_str(), cause)
}

fn store_error(err: StoreError) -> TaskError {
    TaskError::from_named(&err)
}

fn field<'a>(input: &'a Value, name: &str) -> Result<&'a str, TaskError> {
    input
        .get(name)
        .and_then(Value::as_str)
        .ok_or_else(|| invalid(format!("missing string field `{name}`")))
}

/// The blob key an earlier step left at `input[step].key`.
fn step_key<'a>(input: &'a Value, step: &str) -> Result<&'a str, TaskError> {
    input
        .get(step)
        .and_then(|s| s.get("key"))
        .and_then(Value::as_str)
        .ok_or_else(|| invalid(format!("missing reference `{step}.key`")))
}

fn node_key(job_id: &str, node: &str, what: &str) -> String {
    format!("jobs/{job_id}/nodes/{node}/{what}.json")
}

/// The per-node intermediate blobs, in pipeline order.
const NODE_BLOBS: [&str; 5] = [
    "semantics",
    "candidates",
    "filtered",
    "reasoning",
    "mapping",
];

impl PipelineTasks {
    /// Tasks over the given stores; clone/index options come from the environment
    /// (`LoadOptions::from_env`).
    pub fn new(
        jobs: Arc<dyn JobStore>,
        blobs: Arc<dyn BlobStore>,
        reasoner: Arc<dyn Reasoner>,
        config: PipelineConfig,
    ) -> Self {
        Self {
            jobs,
            blobs,
            reasoner,
            config,
            load_options: Arc::new(|| LoadOptions::from_env(crate::clock::unix_now())),
            contexts: Mutex::new(Vec::new()),
            tokens: Mutex::new(HashMap::new()),
        }
    }

    /// Replace how clone/index options are made (tests, the server's clone directory).
    pub fn with_load_options(mut self, options: LoadOptionsFn) -> Self {
        self.load_options = options;
        self
    }

    /// Hold `token` in memory for `job_id`'s clone (never stored, never in the execution input).
    pub fn set_job_token(&self, job_id: &str, token: Secret) {
        lock(&self.tokens).insert(job_id.to_owned(), token);
    }

    /// Forget a finished job: its cached context, its token and its intermediate blobs.
    pub fn finish_job(&self, job_id: &str) {
        lock(&self.tokens).remove(job_id);
        lock(&self.contexts).retain(|(id, _)| id != job_id);
        let nodes: Vec<Value> = self
            .get_json(&format!("jobs/{job_id}/dag-nodes.json"))
            .unwrap_or_default();
        for node in nodes.iter().filter_map(|n| n.get("dagNodeId")?.as_str()) {
            for what in NODE_BLOBS {
                // Best effort: an intermediate left behind is garbage, not an error.
                let _ = self.blobs.delete(&node_key(job_id, node, what));
            }
        }
    }

    fn cached_context(&self, job_id: &str) -> Option<Arc<PlanContext>> {
        let mut contexts = lock(&self.contexts);
        let at = contexts.iter().position(|(id, _)| id == job_id)?;
        let entry = contexts.remove(at);
        let ctx = entry.1.clone();
        contexts.push(entry);
        Some(ctx)
    }

    fn cache_context(&self, job_id: &str, ctx: Arc<PlanContext>) {
        let mut contexts = lock(&self.contexts);
        contexts.retain(|(id, _)| id != job_id);
        contexts.push((job_id.to_owned(), ctx));
        let excess = contexts.len().saturating_sub(CONTEXT_CACHE_JOBS);
        contexts.drain(..excess);
    }

    /// Register the seven handlers under their definition names (`LoadRepoContextFunction`, …).
    pub fn register(self: &Arc<Self>, registry: &mut TaskRegistry) {
        type Step = fn(&PipelineTasks, &Value) -> Result<Value, TaskError>;
        let steps: [(&str, Step); 7] = [
            ("LoadRepoContextFunction", Self::load_repo_context),
            ("PlanSemanticsFunction", Self::plan_semantics),
            ("EmbeddingRetrievalFunction", Self::embedding_retrieval),
            ("AstFilterFunction", Self::ast_filter),
            ("ReasoningAgentFunction", Self::reasoning_agent),
            ("ConfidenceGateFunction", Self::confidence_gate),
            ("FinalMappingFunction", Self::final_mapping),
        ];
        for (name, step) in steps {
            let tasks = self.clone();
            registry.register(name, move |input| step(&tasks, &input));
        }
    }

    fn put_json<T: Serialize + ?Sized>(&self, key: &str, value: &T) -> Result<(), TaskError> {
        let bytes = serde_json::to_vec(value)
            .map_err(|e| TaskError::new(ErrorName::Internal.as_str(), e.to_string()))?;
        self.blobs.put(key, &bytes).map_err(store_error)
    }

    fn get_json<T: DeserializeOwned>(&self, key: &str) -> Result<T, TaskError> {
        let bytes = self
            .blobs
            .get(key)
            .map_err(store_error)?
            .ok_or_else(|| invalid(format!("no blob at {key}")))?;
        serde_json::from_slice(&bytes).map_err(|e| invalid(format!("blob {key} is corrupt: {e}")))
    }

    /// The job's plans: a serialised [`Application`] or [`PlanGraph`], or plan text in any form
    /// (every execution of an event log).
    fn load_plans(&self, key: &str) -> Result<Application, TaskError> {
        let bytes = self
            .blobs
            .get(key)
            .map_err(store_error)?
            .ok_or_else(|| invalid(format!("no plan at {key}")))?;
        // Read as what the job stored first: an application's plans are tens of megabytes, read
        // once. Only what reads as neither is looked at again.
        let application = match serde_json::from_slice::<Application>(&bytes) {
            Ok(app) => return Ok(app),
            Err(e) => e,
        };
        let graph = match serde_json::from_slice::<PlanGraph>(&bytes) {
            Ok(graph) => return Ok(Application::single(graph)),
            Err(e) => e,
        };
        // A serialised plan that does not read back is a bug, not plan text to re-parse.
        let corrupt = |e: serde_json::Error| invalid(format!("plan blob {key} is corrupt: {e}"));
        match serialised_shape(&bytes) {
            Some(Shape::Application) => return Err(corrupt(application)),
            Some(Shape::Graph) => return Err(corrupt(graph)),
            None => {}
        }
        let text = String::from_utf8(bytes)
            .map_err(|_| TaskError::new(ErrorName::ParseError.as_str(), "plan is not UTF-8"))?;
        plan::parse_application(&text, None).map_err(|e| TaskError::from_named(&e))
    }

    /// The job's context from the cache, or rebuilt from its plan and index (a cold Lambda).
    fn context(&self, input: &Value) -> Result<Arc<PlanContext>, TaskError> {
        let job_id = field(input, "jobId")?;
        if let Some(ctx) = self.cached_context(job_id) {
            return Ok(ctx);
        }
        let app = self.load_plans(field(input, "planKey")?)?;
        let index_key = field(input, "indexKey")?;
        let bytes = self
            .blobs
            .get(index_key)
            .map_err(store_error)?
            .ok_or_else(|| invalid(format!("no index at {index_key}")))?;
        let index = load_index_bytes(&bytes).map_err(|e| TaskError::from_named(&e))?;
        let ctx = Arc::new(PlanContext::build(&app.plans, &app.entry, Arc::new(index)));
        self.cache_context(job_id, ctx.clone());
        Ok(ctx)
    }

    fn event(&self, job_id: &str, event: EventType, data: Value) -> Result<(), TaskError> {
        self.jobs
            .append_event(job_id, event, data)
            .map(|_| ())
            .map_err(store_error)
    }

    /// Node 1: parse the plan, load or build the index, compute the job's context.
    pub fn load_repo_context(&self, input: &Value) -> Result<Value, TaskError> {
        let job_id = field(input, "jobId")?;
        let plan_key = field(input, "planKey")?;
        let repo: RepoConfig =
            serde_json::from_value(input.get("repo").cloned().unwrap_or_default())
                .map_err(|e| invalid(format!("`repo`: {e}")))?;
        let mut job = self
            .jobs
            .get_job(job_id)
            .map_err(store_error)?
            .ok_or_else(|| invalid(format!("unknown job {job_id}")))?;
        if job.status == JobStatus::Queued {
            self.jobs
                .set_job_status(job_id, JobStatus::Running, None)
                .map_err(store_error)?;
            job.status = JobStatus::Running;
        }
        self.event(
            job_id,
            EventType::JobStarted,
            json!({ "repository": repo.url }),
        )?;
        self.event(
            job_id,
            EventType::StageStarted,
            json!({ "stage": "load_repo_context" }),
        )?;

        let app = self.load_plans(plan_key)?;
        let mut options = (self.load_options)();
        if let Some(token) = lock(&self.tokens).get(job_id) {
            options.token = Some(token.clone());
        }
        let source = RepoSource {
            location: repo.url.clone(),
            branch: repo.branch.clone(),
            commit: repo.commit.clone(),
        };
        let loaded = load_or_build_index(&source, &*self.blobs, &options)
            .map_err(|e| TaskError::from_named(&e))?;
        let stats = loaded.index.stats.clone();
        let commit = loaded.index.commit.clone();
        let cache_key = loaded.record.cache_key.clone();
        let index_key = loaded.record.index_key.clone();
        // The viewer shows the job's code from the texts kept beside its index.
        record_job_texts(&*self.blobs, job_id, &cache_key)
            .map_err(|e| TaskError::from_named(&e))?;
        let ctx = Arc::new(PlanContext::build(
            &app.plans,
            &app.entry,
            Arc::new(loaded.index),
        ));

        let semantics_key = format!("jobs/{job_id}/semantics.json");
        let localisation_key = format!("jobs/{job_id}/localisation.json");
        let dag_nodes_key = format!("jobs/{job_id}/dag-nodes.json");
        self.put_json(&semantics_key, &ctx.semantics)?;
        self.put_json(&localisation_key, &ctx.localisations)?;
        // The Map's items: a node's key in the job (its `dagNodeId`, prefixed by its execution).
        let dag_nodes: Vec<Value> = ctx
            .semantics
            .iter()
            .map(|s| json!({ "dagNodeId": s.node_key(), "nodeName": s.node_name }))
            .collect();
        self.put_json(&dag_nodes_key, &dag_nodes)?;

        job.repo_config.commit = commit.clone();
        job.progress.current_phase = "mapping".into();
        job.progress.total_stages = dag_nodes.len() as u32;
        job.statistics.total_nodes = dag_nodes.len() as u64;
        job.statistics.files_scanned = stats.files_scanned;
        job.statistics.symbols_indexed = stats.symbols;
        // beside the job, not in it: an application's hundreds of executions would make every
        // counter update rewrite them (and outgrow a DynamoDB item)
        self.put_json(&executions_key(job_id), &app.reports())?;
        match self.jobs.put_job(&job) {
            // Cancelled meanwhile: the map's flag checks skip every node.
            Ok(()) | Err(StoreError::Conflict(_)) => {}
            Err(e) => return Err(store_error(e)),
        }
        self.event(
            job_id,
            EventType::ArtifactProduced,
            json!({ "kind": "repoIndex", "indexKey": index_key, "cacheHit": loaded.cache_hit,
                    "filesScanned": stats.files_scanned, "symbolsIndexed": stats.symbols }),
        )?;
        self.event(
            job_id,
            EventType::StageCompleted,
            json!({ "stage": "load_repo_context", "totalNodes": dag_nodes.len(),
                    "timings": ctx.timings }),
        )?;
        self.cache_context(job_id, ctx);
        Ok(json!({
            "jobId": job_id, "planKey": plan_key, "indexKey": index_key, "cacheKey": cache_key,
            "commit": commit, "dagNodes": dag_nodes, "dagNodesKey": dag_nodes_key,
        }))
    }

    /// Node 2: the node's semantic description.
    pub fn plan_semantics(&self, input: &Value) -> Result<Value, TaskError> {
        let job_id = field(input, "jobId")?;
        let node = field(input, "dagNodeId")?;
        let ctx = self.context(input)?;
        let sem = ctx
            .semantics_of(node)
            .ok_or_else(|| invalid(format!("plan has no node {node}")))?;
        let key = node_key(job_id, node, "semantics");
        self.put_json(&key, sem)?;
        Ok(json!({ "key": key }))
    }

    /// Node 3: top-K candidates.
    pub fn embedding_retrieval(&self, input: &Value) -> Result<Value, TaskError> {
        let job_id = field(input, "jobId")?;
        let node = field(input, "dagNodeId")?;
        let sem: SemanticDescription = self.get_json(step_key(input, "semantics")?)?;
        let ctx = self.context(input)?;
        let candidates = ctx.embedding_retrieval(&sem, self.config.top_k);
        let key = node_key(job_id, node, "candidates");
        self.put_json(&key, &candidates)?;
        Ok(json!({ "key": key, "count": candidates.len() }))
    }

    /// Node 4: keep the syntax that can produce the operator; the top three by merit go on.
    pub fn ast_filter(&self, input: &Value) -> Result<Value, TaskError> {
        let job_id = field(input, "jobId")?;
        let node = field(input, "dagNodeId")?;
        let sem: SemanticDescription = self.get_json(step_key(input, "semantics")?)?;
        let candidates: Vec<Candidate> = self.get_json(step_key(input, "candidates")?)?;
        let ctx = self.context(input)?;
        let filtered = ctx.ast_filter(&sem, candidates);
        let key = node_key(job_id, node, "filtered");
        self.put_json(&key, &filtered)?;
        Ok(json!({ "key": key, "count": filtered.len() }))
    }

    /// Node 5: the reasoner's choice.
    pub fn reasoning_agent(&self, input: &Value) -> Result<Value, TaskError> {
        let job_id = field(input, "jobId")?;
        let node = field(input, "dagNodeId")?;
        let sem: SemanticDescription = self.get_json(step_key(input, "semantics")?)?;
        let filtered: Vec<Candidate> = self.get_json(step_key(input, "filtered")?)?;
        let decision = self
            .reasoner
            .decide(&sem, &filtered)
            .map_err(|e| TaskError::from_named(&e))?;
        let key = node_key(job_id, node, "reasoning");
        self.put_json(&key, &decision)?;
        Ok(json!({ "key": key, "tokensUsed": decision.tokens_used }))
    }

    /// Node 6: the confidence formula and band, applied while assembling the node's answer.
    pub fn confidence_gate(&self, input: &Value) -> Result<Value, TaskError> {
        let job_id = field(input, "jobId")?;
        let node = field(input, "dagNodeId")?;
        let sem: SemanticDescription = self.get_json(step_key(input, "semantics")?)?;
        let filtered: Vec<Candidate> = self.get_json(step_key(input, "filtered")?)?;
        let decision: Decision = self.get_json(step_key(input, "reasoning")?)?;
        let mapping = self.context(input)?.confidence_gate(
            &sem,
            &filtered,
            &decision,
            &self.config.confidence,
        );
        let key = node_key(job_id, node, "mapping");
        self.put_json(&key, &mapping)?;
        Ok(json!({
            "key": key, "confidence": mapping.confidence,
            "confidenceStatus": mapping.confidence_status,
        }))
    }

    /// Node 7: persist the mapping once and announce it.
    pub fn final_mapping(&self, input: &Value) -> Result<Value, TaskError> {
        let job_id = field(input, "jobId")?;
        let mapping: MappingOutput = self.get_json(step_key(input, "confidence")?)?;
        let written =
            finalize::final_mapping(&*self.jobs, job_id, &mapping).map_err(store_error)?;
        // The node's intermediates are spent once its mapping is stored (a retry finds the
        // mapping written and writes nothing): an application's tens of thousands of nodes must
        // not hold theirs until the job ends.
        let spent = NODE_BLOBS.map(|what| node_key(job_id, &mapping.node_key(), what));
        let _ = self.blobs.delete_all(&spent);
        Ok(json!({ "dagNodeId": mapping.dag_node_id, "written": written }))
    }
}

/// What a serialised plan blob holds.
enum Shape {
    Application,
    Graph,
}

/// Whether `bytes` is a JSON object shaped like a serialised [`Application`] or [`PlanGraph`]
/// (`None`: plan text, which can be JSON too — an event log, the Spark UI's form).
fn serialised_shape(bytes: &[u8]) -> Option<Shape> {
    let value = serde_json::from_slice::<Value>(bytes).ok()?;
    if value.get("plans").is_some_and(Value::is_array) {
        Some(Shape::Application)
    } else if value.get("format").is_some()
        && value.get("nodes").is_some()
        && value.get("roots").is_some()
    {
        Some(Shape::Graph)
    } else {
        None
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}
