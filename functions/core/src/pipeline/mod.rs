//! The mapping pipeline: from a plan node to the lines that produced it.
//!
//! The seven nodes of `docs/ARCHITECTURE.md` as plain functions over plain data:
//!
//! 1. `load_repo_context` — the repository half lives in [`crate::code`]; the plan half is
//!    [`localise::localise_plan`]: find the query unit (DataFrame flow or SQL statement) the plan
//!    came from and align the plan's tree with the code's data flow;
//! 2. [`semantics::plan_semantics`] — what each node means and which evidence to look for;
//!    planner-inserted nodes are tied to the user operator they serve;
//! 3. [`retrieve::embedding_retrieval`] — hybrid structural + lexical + flow retrieval of top-K
//!    [`sites`] (every DataFrame call and SQL clause of the index);
//! 4. [`ast_filter::ast_filter`] — syntax that can produce the operator, `astScore`;
//! 5. [`reason::Reasoner`] — pick among the top three and explain;
//! 6. [`confidence::confidence_gate`] — the formula and bands;
//! 7. [`finalize`] — the `MappingOutput`, persisted once.
//!
//! [`map_plan`] runs 2–7 for a whole plan in-process ([`map_plans`] for the executions of an
//! application, localised together by [`application`]); the state machine runs the same
//! functions one node per Map iteration.

pub mod application;
pub mod ast_filter;
pub mod calibration;
pub mod commands;
pub mod confidence;
pub mod conflicts;
pub mod evidence;
pub mod finalize;
pub mod handoffs;
pub mod hints;
pub mod job;
pub mod library;
pub mod llm;
pub mod localise;
pub mod operations;
pub mod predicates;
pub mod reason;
pub mod retrieve;
pub mod semantics;
pub mod sites;
pub mod tasks;

use crate::code::RepoIndex;
use crate::contracts::MappingOutput;
use crate::plan::PlanGraph;
use confidence::ConfidenceConfig;
use rayon::prelude::*;
use reason::{ReasonError, Reasoner};
use retrieve::{Bm25, RetrievalContext};
use semantics::SemanticDescription;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Tunables, read from the environment by the binaries (`RETRIEVAL_TOP_K`, thresholds, …).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PipelineConfig {
    pub top_k: usize,
    pub confidence: ConfidenceConfig,
}

impl Default for PipelineConfig {
    fn default() -> Self {
        Self {
            top_k: 10,
            confidence: ConfidenceConfig::default(),
        }
    }
}

/// Milliseconds spent per step, for events and benchmarks.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StepTimings {
    pub sites_ms: f64,
    pub semantics_ms: f64,
    pub localise_ms: f64,
    pub nodes_ms: f64,
}

/// Everything a job computes once and every node reads.
pub struct PlanContext {
    pub index: Arc<RepoIndex>,
    pub table: sites::SiteTable,
    pub bm25: Bm25,
    /// Every node of every plan the job maps, plan after plan.
    pub semantics: Vec<SemanticDescription>,
    /// One per plan, in the job's plan order.
    pub localisations: Vec<localise::PlanLocalisation>,
    /// A plan's `executionId` → its position in `localisations`.
    by_execution: HashMap<Option<u64>, usize>,
    /// Per plan: what of its localisation every node's retrieval reads (its query unit and the
    /// application's files), so that executions of the same query share their retrievals.
    unit_fingerprints: Vec<u64>,
    /// A node's key in the job (`contracts::node_key`) → its position in `semantics`.
    by_key: HashMap<String, usize>,
    pub timings: StepTimings,
    /// Retrieval results by target: a derived node searches exactly as its consumer does, so most
    /// of a plan's nodes reuse another node's candidates.
    retrievals: Mutex<HashMap<String, Vec<retrieve::Candidate>>>,
}

/// What localisation found some nodes to be instead of what they serve: rows of scanned objects
/// Spark pruned for the operator above serve that operator, not the scan
/// ([`localise::PlanLocalisation::produced_by_pruning`]); rows a selection was folded into are
/// that selection, searched on the columns they keep
/// ([`localise::PlanLocalisation::selected_by_pruning`]); a null check the code states is the
/// code's filter, and a pruning Project a `drop(…)` names the code's drop
/// ([`localise::PlanLocalisation::stated_by_code`]); nodes library code built, a SQL generator
/// rebuilt for its query's aggregate, nodes the analyzer made anew for a union and nodes Spark
/// made anew pushing a predicate down serve the operator they were made for.
fn reassign_from_localisation(
    mut sems: Vec<SemanticDescription>,
    localisation: &localise::PlanLocalisation,
) -> Vec<SemanticDescription> {
    for stated in &localisation.stated_by_code {
        if let Some(sem) = sems.iter_mut().find(|s| &s.dag_node_id == stated) {
            sem.induced_by = None;
        }
    }
    for rows in &localisation.whole_objects {
        if let Some(sem) = sems.iter_mut().find(|s| &s.dag_node_id == rows)
            && let Some(scan) = sem.induced_by.as_mut()
        {
            scan.reason = format!(
                "{} {} ({})",
                semantics::EVERY_FIELD_KEPT,
                scan.node_name,
                scan.dag_node_id
            );
        }
    }
    for (rows, kept) in &localisation.selected_by_pruning {
        if let Some(sem) = sems.iter_mut().find(|s| &s.dag_node_id == rows) {
            sem.induced_by = None;
            sem.signature = semantics::signature_of_columns(kept);
        }
    }
    // Nodes library code built serve the operator the code wrote above them; so do the nodes the
    // planner inserted for them.
    for (node, built) in &localisation.built_by_library {
        serve(&mut sems, node, &built.served, |served| {
            format!(
                "{}, its rows made at {}, for {} ({})",
                library::BUILT_BY_LIBRARY,
                built.rows_made_at,
                served.node_name,
                served.dag_node_id
            )
        });
    }
    // A SQL query's generator Spark rebuilt for its aggregate carries the aggregate's clause; a
    // node the analyzer made anew for a union, repeating an earlier input, the union's.
    let made_anew = [
        (
            &localisation.generated_for_aggregate,
            semantics::REGENERATED_FOR_AGGREGATE,
        ),
        (
            &localisation.reinstantiated_for_union,
            semantics::REINSTANTIATED_FOR_UNION,
        ),
        (
            &localisation.rebuilt_by_pushdown,
            semantics::REBUILT_BY_PUSHDOWN,
        ),
        (
            &localisation.deduplicated_under_root,
            semantics::DEDUPLICATED_UNDER_ROOT,
        ),
    ];
    for (nodes, why) in made_anew {
        for (node, served) in nodes {
            serve(&mut sems, node, served, |served| {
                format!("{why} {} ({})", served.node_name, served.dag_node_id)
            });
        }
    }
    for (rows, operator) in &localisation.produced_by_pruning {
        let Some(served) = sems.iter().find(|s| &s.dag_node_id == operator).cloned() else {
            continue;
        };
        if let Some(sem) = sems.iter_mut().find(|s| &s.dag_node_id == rows) {
            let reason = format!(
                "objects turned into the rows pruned for {} ({})",
                served.node_name, served.dag_node_id
            );
            sem.induced_by = Some(semantics::Consumer::serving(&served, reason));
        }
    }
    sems
}

/// Make node `node` serve node `served` (map to its code) for the reason `reason` gives, and the
/// nodes the planner inserted for `node` with it.
fn serve(
    sems: &mut [SemanticDescription],
    node: &str,
    served: &str,
    reason: impl Fn(&SemanticDescription) -> String,
) {
    let Some(served) = sems.iter().find(|s| s.dag_node_id == served).cloned() else {
        return;
    };
    let consumer = semantics::Consumer::serving(&served, reason(&served));
    for sem in sems.iter_mut() {
        if sem.dag_node_id == node {
            sem.induced_by = Some(consumer.clone());
        } else if let Some(own) = sem.induced_by.as_mut()
            && own.dag_node_id == node
        {
            *own = semantics::Consumer {
                reason: format!("{}, {}", own.reason, consumer.reason),
                ..consumer.clone()
            };
        }
    }
}

impl PlanContext {
    /// Build sites, semantics and the localisation of the job's plans (one plan, or every
    /// execution of an application: see [`application`]). `entry` names files the user says
    /// the application runs from (`--entry`); the plans' own hints are read from them
    /// ([`hints`]).
    pub fn build(plans: &[PlanGraph], entry: &[String], index: Arc<RepoIndex>) -> Self {
        let t0 = Instant::now();
        let table = sites::SiteTable::build(&index);
        let bm25 = Bm25::build(&table);
        let t1 = Instant::now();
        let per_plan: Vec<Vec<SemanticDescription>> =
            plans.par_iter().map(semantics::plan_semantics).collect();
        let t2 = Instant::now();
        let resolver = hints::HintResolver::new(&index);
        let plan_hints: Vec<Vec<hints::CodeHint>> = plans
            .iter()
            .map(|p| {
                let execution = &p.execution;
                let named = entry
                    .iter()
                    .chain(&hints::plan_hints(p))
                    .chain(&execution.hints)
                    .chain(&execution.call_site)
                    .chain(&execution.description)
                    .cloned()
                    .collect::<Vec<_>>();
                resolver.resolve(&named)
            })
            .collect();
        let localisations =
            application::localise_application(plans, &per_plan, &table, &plan_hints);
        let t3 = Instant::now();
        let unit_fingerprints = localisations.iter().map(unit_fingerprint).collect();
        let by_execution = plans
            .iter()
            .enumerate()
            .map(|(i, p)| (p.execution.execution_id, i))
            .collect();
        let ms = |a: Instant, b: Instant| (b - a).as_secs_f64() * 1000.0;
        let semantics: Vec<SemanticDescription> = per_plan
            .into_iter()
            .zip(&localisations)
            .flat_map(|(sems, localisation)| reassign_from_localisation(sems, localisation))
            .collect();
        let by_key = semantics
            .iter()
            .enumerate()
            .map(|(i, s)| (s.node_key(), i))
            .collect();
        Self {
            index,
            table,
            bm25,
            semantics,
            localisations,
            by_execution,
            unit_fingerprints,
            by_key,
            timings: StepTimings {
                sites_ms: ms(t0, t1),
                semantics_ms: ms(t1, t2),
                localise_ms: ms(t2, t3),
                nodes_ms: 0.0,
            },
            retrievals: Mutex::default(),
        }
    }

    /// The node with this key in the job (`contracts::node_key`).
    pub fn semantics_of(&self, node_key: &str) -> Option<&SemanticDescription> {
        self.by_key.get(node_key).map(|&i| &self.semantics[i])
    }

    /// Where the node's plan was localised, and that plan's position.
    fn localisation_of(&self, sem: &SemanticDescription) -> (usize, &localise::PlanLocalisation) {
        let at = self
            .by_execution
            .get(&sem.execution_id)
            .copied()
            .unwrap_or(0);
        (at, &self.localisations[at])
    }

    /// Node 3, `embedding_retrieval`, for one node (`retrieve.rs`), memoised by what the search
    /// depends on.
    pub fn embedding_retrieval(
        &self,
        sem: &SemanticDescription,
        top_k: usize,
    ) -> Vec<retrieve::Candidate> {
        let (family, target) = sem.target();
        let (plan, localisation) = self.localisation_of(sem);
        let key = format!(
            "{:x}|{family:?}|{:?}|{:?}|{:?}|{:?}|{top_k}",
            self.unit_fingerprints[plan],
            target.tokens,
            sem.query_terms,
            localisation.aligned.get(&sem.dag_node_id),
            localisation.twins.get(&sem.dag_node_id),
        );
        if let Some(hit) = self
            .retrievals
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&key)
        {
            return hit.clone();
        }
        let ctx = RetrievalContext {
            index: &self.index,
            table: &self.table,
            bm25: &self.bm25,
            localisation,
        };
        let candidates = retrieve::embedding_retrieval(sem, &ctx, top_k);
        self.retrievals
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(key, candidates.clone());
        candidates
    }

    /// Node 4, `ast_filter`, for one node (`ast_filter.rs`): the syntax that can produce the
    /// operator, best three by merit (what node 5 chooses among).
    pub fn ast_filter(
        &self,
        sem: &SemanticDescription,
        candidates: Vec<retrieve::Candidate>,
    ) -> Vec<retrieve::Candidate> {
        let mut filtered = ast_filter::ast_filter(sem, candidates, &self.table);
        filtered.sort_by(|a, b| reason::merit(b).total_cmp(&reason::merit(a)));
        filtered.truncate(3);
        filtered
    }

    /// Nodes 3–6 (+ assembly of 7) for one node.
    pub fn map_node(
        &self,
        sem: &SemanticDescription,
        reasoner: &dyn Reasoner,
        config: &PipelineConfig,
    ) -> Result<MappingOutput, ReasonError> {
        let filtered = self.ast_filter(sem, self.embedding_retrieval(sem, config.top_k));
        let decision = reasoner.decide(sem, &filtered)?;
        Ok(self.confidence_gate(sem, &filtered, &decision, &config.confidence))
    }

    /// Node 6, `confidence_gate`, for one node: the formula and band, applied while assembling
    /// the node's answer (`finalize.rs`); a node of an application whose code lies outside the
    /// files the rest of the application runs from says so.
    pub fn confidence_gate(
        &self,
        sem: &SemanticDescription,
        filtered: &[retrieve::Candidate],
        decision: &reason::Decision,
        config: &ConfidenceConfig,
    ) -> MappingOutput {
        let mut mapping = finalize::assemble_mapping(sem, filtered, decision, config, &self.table);
        let (_, localisation) = self.localisation_of(sem);
        if let Some(note) = application::outside_note(
            &mapping,
            localisation,
            &self.index,
            sem.node_kind == crate::contracts::NodeKind::Code,
        ) {
            mapping.explanation.push(' ');
            mapping.explanation.push_str(&note);
        }
        mapping
    }
}

/// A hash of what retrieval reads from a plan's localisation besides a node's own alignment.
fn unit_fingerprint(localisation: &localise::PlanLocalisation) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    localisation.unit_sites.hash(&mut hasher);
    for (file, pull) in &localisation.application_files {
        (file, pull.to_bits()).hash(&mut hasher);
    }
    hasher.finish()
}

/// Map every node of a plan in-process.
pub fn map_plan(
    graph: &PlanGraph,
    index: Arc<RepoIndex>,
    reasoner: &dyn Reasoner,
    config: &PipelineConfig,
) -> Result<(Vec<MappingOutput>, StepTimings), ReasonError> {
    map_plans(std::slice::from_ref(graph), index, reasoner, config)
}

/// Map every node of several plans (an application's executions) in-process, as one job.
pub fn map_plans(
    plans: &[PlanGraph],
    index: Arc<RepoIndex>,
    reasoner: &dyn Reasoner,
    config: &PipelineConfig,
) -> Result<(Vec<MappingOutput>, StepTimings), ReasonError> {
    map_plans_from(plans, &[], index, reasoner, config)
}

/// … run from the files `entry` names (`--entry`; see [`PlanContext::build`]).
pub fn map_plans_from(
    plans: &[PlanGraph],
    entry: &[String],
    index: Arc<RepoIndex>,
    reasoner: &dyn Reasoner,
    config: &PipelineConfig,
) -> Result<(Vec<MappingOutput>, StepTimings), ReasonError> {
    let mut ctx = PlanContext::build(plans, entry, index);
    let start = Instant::now();
    let mappings = ctx
        .semantics
        .par_iter()
        .map(|sem| ctx.map_node(sem, reasoner, config))
        .collect::<Result<Vec<_>, _>>()?;
    ctx.timings.nodes_ms = start.elapsed().as_secs_f64() * 1000.0;
    Ok((mappings, ctx.timings))
}
