//! Plan-level localisation (the plan part of node 1): one plan is one query, so find it first.
//!
//! A plan's user-written operators all come from one *query unit*: either a DataFrame flow (the
//! statement holding the action and every statement feeding it through DataFrame variables) or
//! one SQL statement. Every unit is scored by how well it explains the whole plan — the sum, over
//! the plan's user-written nodes, of the best [`site_score`] inside the unit, minus a little for
//! statements in the unit that explain nothing — and the best unit wins.
//!
//! Inside the winning unit the plan tree is then *aligned* with the code's flow, top-down: a node
//! takes its best site; its children prefer sites upstream of it (earlier calls of the same chain
//! and the statements that feed it), and a join's left and right inputs prefer the flows entering
//! through the join's receiver and its argument respectively. So a Filter under an Aggregate maps
//! to the filter feeding that groupBy, not to some other filter in the file.

use super::conflicts::{
    CONFLICT_PENALTY, conflicts, conflicts_beyond_rewrite, groups_where_node_aggregates_all,
};
use super::evidence::{
    DISTINCT, DROPPED_COLUMN, Evidence, NULL_DROP, Overlap, STATISTIC_PICKED, STRUCT_FIELDS,
    TokenKind, overlap,
};
use super::library::{LibraryBuilt, LibraryRows};
use super::semantics::SemanticDescription;
use super::sites::{FlowRole, SiteId, SiteKind, SiteTable};
use crate::code::Language;
use crate::code::lang::vocab::{self, PYTHON_UDF_CALL};
use crate::contracts::NodeKind;
use crate::plan::{NodeIdx, OperatorFamily, PlanGraph, PlanNode};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::hash::{Hash, Hasher};

/// How much a test's code counts beside the code it tests: a test that runs its own copy of a
/// statement produced the plan as much as the job does, so the plan's evidence decides between
/// them and the damping only breaks a tie in favour of the code under test.
const TEST_DAMPING: f64 = 0.98;

/// Score of `site` as the producer of a node with `family` and evidence `target`: zero when the
/// site cannot produce that family; otherwise a base for compatibility plus the weighted share of
/// the node's evidence found there, damped for tests, helpers and dead code.
pub fn site_score(
    family: OperatorFamily,
    target: &Evidence,
    site: &super::sites::Site,
    table: &SiteTable,
) -> (f64, Overlap) {
    if !can_produce(family, target, site) {
        return (0.0, Overlap::default());
    }
    let ov = if picks_statistics_described(family, target, site) {
        // The columns are implied, not missing — but only where the unit is known: a bare
        // `describe()` says nothing of which frame it described, so units are ranked on the
        // columns code names ([`PlanEvidence::new`]).
        overlap(
            &target.without(TokenKind::Column).without(TokenKind::Alias),
            &site.evidence,
            &table.weights,
        )
    } else {
        evidence_overlap(family, target, site, table)
    };
    let mut score = if target.is_empty() {
        0.45
    } else {
        0.25 + 0.75 * ov.coverage
    };
    if conflicts(family, target, &site.evidence) {
        score *= CONFLICT_PENALTY;
    }
    if site.flags.test {
        score *= TEST_DAMPING;
    }
    if site.flags.utility {
        score *= 0.8;
    }
    if site.flags.dead {
        score *= 0.9;
    }
    (score, ov)
}

/// Whether `site` can produce a node of `family` with evidence `target`: its construct plans that
/// family, or it is a projection Spark folded into the node ([`Evidence::folds_projection`]); and
/// it is no grouping by named keys where the node aggregates every row
/// ([`groups_where_node_aggregates_all`]).
pub fn can_produce(family: OperatorFamily, target: &Evidence, site: &super::sites::Site) -> bool {
    (site.families.contains(family) || folded_projection(target, site))
        && !groups_where_node_aggregates_all(family, target, &site.evidence)
        && !(family == OperatorFamily::Project && renames_every_column(site) && drops(target))
}

/// Whether `site` is a projection Spark folded into the node ([`Evidence::folds_projection`]):
/// one after a de-duplication, which computes nothing of its own, or one over a frame an
/// aggregation made (`select(format_number("avg(Close)", 2))` after `groupBy("Year").mean()`).
fn folded_projection(target: &Evidence, site: &super::sites::Site) -> bool {
    target.folds_projection
        && site.families.contains(OperatorFamily::Project)
        && (target.has(TokenKind::Function, DISTINCT) || site.aggregated_before)
}

/// Whether the site names a frame's columns anew, one for one (`toDF("a", "b")`, `toDS()`): it
/// keeps every column, so no Project leaving one out is its.
fn renames_every_column(site: &super::sites::Site) -> bool {
    matches!(&site.kind, SiteKind::Call { method, .. } if vocab::makes_frame_of_rows(method))
}

/// Whether the node leaves a column of its input out altogether (`drop("x")` planned as a
/// Project) — not merely one of two of a name, as a `select` after a join may.
fn drops(target: &Evidence) -> bool {
    target.tokens.iter().any(|(kind, value)| {
        *kind == TokenKind::Literal
            && value
                .strip_prefix(DROPPED_COLUMN)
                .is_some_and(|column| !target.has(TokenKind::Column, column))
    })
}

/// How much of the node's evidence the site holds ([`overlap`]), with the columns a bare
/// de-duplication, a grouping by computed keys or a bare `dropna()` implies and the fields a
/// `select("name.*")` does counted as held (see [`bare_deduplication_of_rows`],
/// [`bare_null_drop`], [`expands_the_struct`]).
/// Queries are ranked on it as well: a bare `distinct()` keys on every column of its frame, so it
/// explains a whole-row de-duplication better than a query that names one of those columns
/// (`SELECT COUNT(DISTINCT country)`).
fn evidence_overlap(
    family: OperatorFamily,
    target: &Evidence,
    site: &super::sites::Site,
    table: &SiteTable,
) -> Overlap {
    if family == OperatorFamily::Aggregate && bare_deduplication_of_rows(target, site) {
        overlap(
            &target.without(TokenKind::Column),
            &site.evidence,
            &table.weights,
        )
    } else if family == OperatorFamily::Project && expands_the_struct(target, site) {
        // The fields as implied (`"name.*"`) or as named (`"name.first", "name.last"`).
        let implied = overlap(
            &target.without(TokenKind::Alias),
            &site.evidence,
            &table.weights,
        );
        let named = overlap(target, &site.evidence, &table.weights);
        if named.coverage >= implied.coverage {
            named
        } else {
            implied
        }
    } else if family == OperatorFamily::Aggregate
        && site.evidence.names_computed_columns
        && !target.group_keys.is_empty()
    {
        // `groupBy(keys.head, keys.tail: _*)`: the node's keys are implied, not missing.
        let mut implied = target.clone();
        implied
            .tokens
            .retain(|(k, v)| *k != TokenKind::Column || !target.group_keys.contains(v));
        overlap(&implied, &site.evidence, &table.weights)
    } else if family == OperatorFamily::Filter && bare_null_drop(target, site) {
        overlap(
            &target
                .without(TokenKind::Column)
                .without(TokenKind::Literal),
            &site.evidence,
            &table.weights,
        )
    } else {
        overlap(target, &site.evidence, &table.weights)
    }
}

/// The node picks each column's statistic out of its map (`element_at(age, summary) AS age`) and
/// the site is a bare `describe()` / `summary()`
/// ([`super::sites::Site::describes_every_column`]): it names none of the columns whose
/// statistics it computes.
fn picks_statistics_described(
    family: OperatorFamily,
    target: &Evidence,
    site: &super::sites::Site,
) -> bool {
    family == OperatorFamily::Project
        && target.has(TokenKind::Function, STATISTIC_PICKED)
        && site.describes_every_column()
}

/// The node takes fields out of a struct and the site takes that struct apart (`"name.*"`, or
/// two or more of its fields named): the fields' names may be implied, not missing.
fn expands_the_struct(target: &Evidence, site: &super::sites::Site) -> bool {
    target.tokens.iter().any(|(k, v)| {
        *k == TokenKind::Literal && v.starts_with(STRUCT_FIELDS) && site.evidence.has(*k, v)
    })
}

/// The node drops rows with nulls (`atleastnnonnulls(n, every column…)` and nothing else) and the
/// site is a `dropna()` / `na.drop()` naming no column whose requirement is the node's
/// (`na.drop()` for a row needing every value, `thresh=2` for two; [`super::predicates`]): it
/// tests every column of its frame, so the node's columns and count are implied, not missing.
fn bare_null_drop(target: &Evidence, site: &super::sites::Site) -> bool {
    fn only_null_drop(e: &Evidence) -> bool {
        let mut functions = e.tokens.iter().filter(|(k, _)| *k == TokenKind::Function);
        functions.next().is_some_and(|(_, f)| f == NULL_DROP) && functions.next().is_none()
    }
    let (node, written) = (&target.predicates, &site.evidence.predicates);
    only_null_drop(target)
        && only_null_drop(&site.evidence)
        && !site.evidence.has_any(TokenKind::Column)
        && (node.is_empty() || written.is_empty() || !node.is_disjoint(written))
}

/// The node de-duplicates whole rows (keys and nothing else) and the site is a bare `distinct()` /
/// `dropDuplicates()` naming no column: the site's keys are every column of a frame it does not
/// name (a function's parameter, a frame read with an inferred schema), so the node's columns are
/// implied, not missing — unless the node's rows were narrowed first (fewer keys than its scans
/// read) and nothing narrowed the site's frame before it.
fn bare_deduplication_of_rows(target: &Evidence, site: &super::sites::Site) -> bool {
    target.deduplicates_only()
        && site.evidence.deduplicates_only()
        && (site.narrowed_before || !target.narrowed_rows)
        && !site.evidence.has_any(TokenKind::Column)
}

/// The file a unit's code is in (a unit's sites share one file).
fn unit_file(table: &SiteTable, sites: &BTreeSet<SiteId>) -> Option<u32> {
    sites.iter().next().map(|s| table.sites[*s].file)
}

/// A candidate query unit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum UnitKind {
    /// The DataFrame flow ending at this chain.
    Flow { chain: usize },
    /// This SQL statement.
    Sql { statement: usize },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RankedUnit {
    pub kind: UnitKind,
    pub score: f64,
    /// Share of the plan's user-written nodes the unit explains with real evidence.
    pub explained: f64,
}

/// Where the plan lives in the repository and how its nodes align with the code.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanLocalisation {
    /// Best units first (at most a handful).
    pub units: Vec<RankedUnit>,
    /// Sites of the winning unit.
    pub unit_sites: BTreeSet<SiteId>,
    /// `dagNodeId` → aligned site.
    pub aligned: BTreeMap<String, SiteId>,
    /// `dagNodeId` → the sites *twin* units align it with, where those differ: units that fit the
    /// plan exactly as well as the winner (look-alike scripts, copied files, a statement of the
    /// same file on another frame). The plan cannot tell them apart, so retrieval credits them
    /// all and none that is other code is confirmed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub twins: BTreeMap<String, Vec<SiteId>>,
    /// `dagNodeId` of rows a scan of objects is turned into → the operator Spark pruned them
    /// for ([`pruned_for`]): they serve it, not the scan ([`super::PlanContext::build`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub produced_by_pruning: BTreeMap<String, String>,
    /// `dagNodeId` of rows a scan of objects is turned into → the columns they keep, when a
    /// `select` Spark folded into them produced them ([`folded_selection`]): they are that
    /// selection, searched on those columns ([`super::PlanContext::build`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub selected_by_pruning: BTreeMap<String, Vec<String>>,
    /// `dagNodeId` of rows a scan of objects is turned into that keep every field of the
    /// repository's class ([`pruned_for`]): nothing was pruned, so they are the `toDF`'s for sure
    /// ([`super::PlanContext::build`]).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub whole_objects: BTreeSet<String>,
    /// `dagNodeId` of nodes the planner could have made for another that the unit's code states
    /// itself — a null check Spark could have inferred ([`stated_null_check`]), a pruning
    /// Project a `drop(…)` names ([`stated_drop`]) or a `select(…)` Spark pushed down names
    /// ([`stated_selection`]): they are the code's operators, not their consumer's
    /// ([`super::PlanContext::build`]).
    #[serde(
        default,
        alias = "statedNullChecks",
        skip_serializing_if = "BTreeSet::is_empty"
    )]
    pub stated_by_code: BTreeSet<String>,
    /// `dagNodeId` of nodes library code outside the repository built ([`super::library`]) →
    /// the operator the code wrote that they serve, and where the library made their rows: they
    /// map to that operator's statement ([`super::PlanContext::build`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub built_by_library: BTreeMap<String, LibraryBuilt>,
    /// `dagNodeId` of a SQL query's generator (`explode(genres)`) → the aggregate of the same
    /// query reading the rows it makes ([`regenerated_for_aggregate`]): it maps to that
    /// aggregate's clause ([`super::PlanContext::build`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub generated_for_aggregate: BTreeMap<String, String>,
    /// `dagNodeId` of a node Spark's analyzer made anew for a union whose earlier input has the
    /// same lineage ([`reinstantiated_for_union`]) → that union: it maps to the union's code
    /// ([`super::PlanContext::build`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub reinstantiated_for_union: BTreeMap<String, String>,
    /// `dagNodeId` of nodes Spark made anew while pushing a predicate down → the operator whose
    /// origin they took: a join's null checks → a later filter pushed through the join
    /// ([`checks_of_rebuilt_joins`]), a SQL join's checks pushed into a view's frame → that join
    /// ([`checks_of_sql_joins`]), an aggregate a join reads and the check pushed below it →
    /// that join ([`aggregates_rebuilt_for_joins`]). They map to that operator's code
    /// ([`super::PlanContext::build`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub rebuilt_by_pushdown: BTreeMap<String, String>,
    /// `dagNodeId` of the aggregates Spark made for a `dropDuplicates` → the last operator the
    /// code applied to the query over it ([`deduplications_under_their_roots`]): they map to that
    /// operator's code ([`super::PlanContext::build`]).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub deduplicated_under_root: BTreeMap<String, String>,
    /// Files most likely to hold the plan's code, with scores.
    pub files: Vec<(u32, f64)>,
    /// The files the rest of the application runs from (or a hint names), with how strongly
    /// (0–1): the [`FilePrior`] the plan was localised with.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub application_files: BTreeMap<u32, f64>,
}

/// What is known of a plan's file before its own evidence is weighed: the files the rest of its
/// application lives in (`application.rs`). A unit in a favoured file has its score multiplied by
/// the file's factor (above 1), so it wins over a unit elsewhere that fits the plan only a little
/// better; one that fits much better still wins.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FilePrior {
    pub factor: BTreeMap<u32, f64>,
    /// Lines a hint names (the action's call site), by file: a unit spanning one is multiplied
    /// by [`HINTED_LINE`] more.
    pub lines: BTreeMap<u32, Vec<u32>>,
    /// Where the application's previous execution was found (file, first line): among units of
    /// the winner's file that fit within [`ORDER_TOLERANCE`] of it, the first one after that line
    /// wins — a script runs its queries top to bottom.
    pub after: Option<(u32, u32)>,
}

/// How close in score units must be for program order to choose between them.
pub const ORDER_TOLERANCE: f64 = 0.10;

/// How much a unit spanning a line a hint names (the action's call site) is favoured.
const HINTED_LINE: f64 = 1.5;
/// Lines after a unit's last site where its action may still be (`.show()` on its own line).
const ACTION_LINES_AFTER: u32 = 2;

impl FilePrior {
    /// How strongly each favoured file pulls, 0–1 (its factor over the largest there is).
    fn pulls(&self) -> BTreeMap<u32, f64> {
        let max = self.factor.values().copied().fold(1.0, f64::max);
        self.factor
            .iter()
            .filter(|(_, f)| **f > 1.0)
            .map(|(file, f)| (*file, (f - 1.0) / (max - 1.0)))
            .collect()
    }

    fn of(&self, file: Option<u32>) -> f64 {
        file.and_then(|f| self.factor.get(&f))
            .copied()
            .unwrap_or(1.0)
    }

    /// The factor of a unit: its file's, and more when it spans a hinted line.
    fn of_unit(&self, table: &SiteTable, sites: &BTreeSet<SiteId>) -> f64 {
        let file = unit_file(table, sites);
        let factor = self.of(file);
        let Some(lines) = file.and_then(|f| self.lines.get(&f)) else {
            return factor;
        };
        let start = sites.iter().map(|s| table.sites[*s].lines.start).min();
        let end = sites.iter().map(|s| table.sites[*s].lines.end).max();
        let spans = start.zip(end).is_some_and(|(start, end)| {
            lines
                .iter()
                .any(|l| (start..=end + ACTION_LINES_AFTER).contains(l))
        });
        if spans { factor * HINTED_LINE } else { factor }
    }
}

/// Localise a plan and align its nodes (see module docs), with what the application tells of
/// its file (`prior`, empty for a plan on its own).
pub fn localise_plan(
    graph: &PlanGraph,
    semantics: &[SemanticDescription],
    table: &SiteTable,
    prior: &FilePrior,
) -> PlanLocalisation {
    let evidence = PlanEvidence::new(graph, semantics, table);
    let mut ranked = rank_units(&evidence, table, prior);
    let next_in_order = prior
        .after
        .and_then(|after| next_in_order(&ranked, table, after));
    if let Some(next) = next_in_order {
        // it joins the aligned contenders whatever its rank among the near-ties
        let unit = ranked.remove(next);
        ranked.insert(0, unit);
    }
    let files = likely_files(&ranked, table);
    let order_bonus = next_in_order.is_some();
    let Some(choice) = align_contenders(
        graph,
        semantics,
        table,
        prior,
        &evidence,
        &ranked,
        order_bonus,
    ) else {
        return PlanLocalisation {
            files,
            application_files: prior.pulls(),
            ..Default::default()
        };
    };
    let Contenders {
        best_fit,
        winner,
        mut assigned,
        ties,
        library,
        fits,
    } = choice;
    let mut twins = twin_alignment(
        table,
        &ranked,
        winner,
        best_fit,
        &assigned,
        &fits,
        &evidence.scores,
        graph,
    );
    for (idx, tied) in ties {
        let node_twins = twins.entry(graph.nodes[idx].id.to_string()).or_default();
        for site in tied {
            if !node_twins.contains(&site) {
                node_twins.push(site);
            }
        }
    }
    // A Project reports the statement that wrote its results' names last.
    for &n in &evidence.writers {
        if evidence.targets[n].0 == OperatorFamily::Project
            && let Some(chosen) = assigned[n]
        {
            assigned[n] = Some(last_alias_writer(
                table,
                &evidence,
                n,
                chosen,
                &ranked[winner].1,
            ));
        }
    }
    // The winner leads; the units it passed keep their order behind it.
    ranked[..=winner].rotate_right(1);
    let unit_sites = ranked[0].1.clone();
    // A generator rebuilt for its query's aggregate stands where that aggregate stands, and so
    // do the nodes the planner inserted for it that stood with it (a null check the code states
    // keeps its own clause).
    let regenerated: Vec<(NodeIdx, NodeIdx)> = (0..graph.nodes.len())
        .filter_map(|idx| {
            regenerated_for_aggregate(graph, semantics, table, &evidence.parents, &assigned, idx)
                .map(|aggregate| (idx, aggregate))
        })
        .collect();
    // Nodes the analyzer made anew for a union, repeating an earlier input's lineage, stand
    // where the union stands.
    let reinstantiated = reinstantiated_for_union(graph, semantics, &assigned);
    // A join's null checks stand where the filter pushed through it stands.
    let mut rebuilt_by_pushdown_pairs = checks_of_rebuilt_joins(graph, semantics, table, &assigned);
    // … a SQL join's checks pushed into the frame a view holds, the join's clause;
    rebuilt_by_pushdown_pairs.extend(checks_of_sql_joins(
        graph,
        semantics,
        table,
        &evidence.parents,
        &assigned,
    ));
    // … and an aggregate a join reads on its key, with the check pushed below it, the join's.
    rebuilt_by_pushdown_pairs.extend(aggregates_rebuilt_for_joins(
        graph,
        semantics,
        table,
        &evidence.parents,
        &assigned,
    ));
    // A deduplication stands where the query's last operator stands.
    let deduplicated =
        deduplications_under_their_roots(graph, semantics, table, &evidence.parents, &assigned);
    for &(node, served) in regenerated
        .iter()
        .chain(&reinstantiated)
        .chain(&rebuilt_by_pushdown_pairs)
        .chain(&deduplicated)
    {
        stand_with(graph, semantics, &mut assigned, node, served);
    }
    let aligned = assigned
        .iter()
        .enumerate()
        .filter_map(|(idx, a)| a.map(|a| (graph.nodes[idx].id.to_string(), a.site)))
        .collect();
    let stated_by_code = (0..graph.nodes.len())
        .filter(|&idx| {
            assigned[idx].is_some_and(|a| {
                let only = BTreeSet::from([a.site]);
                stated_null_check(semantics, table, idx, &only).is_some()
                    || stated_drop(graph, semantics, table, idx, &only).is_some()
                    || stated_selection(graph, &evidence.parents, semantics, table, idx, &only)
                        .is_some()
            })
        })
        .map(|idx| graph.nodes[idx].id.to_string())
        .collect();
    let mut produced_by_pruning = BTreeMap::new();
    let mut selected_by_pruning = BTreeMap::new();
    let mut whole_objects = BTreeSet::new();
    for idx in 0..graph.nodes.len() {
        let rows = graph.nodes[idx].id.to_string();
        match pruned_for(graph, semantics, table, idx, &assigned) {
            Some(PrunedFor::Operator(writer)) => {
                produced_by_pruning.insert(rows, graph.nodes[writer].id.to_string());
            }
            Some(PrunedFor::Selection(_)) => {
                let kept = super::semantics::serialized_fields(&graph.nodes[idx].details);
                selected_by_pruning.insert(rows, kept.into_iter().collect());
            }
            Some(PrunedFor::Nothing) => {
                whole_objects.insert(rows);
            }
            None => {}
        }
    }
    let built_by_library = library
        .into_iter()
        .map(|(node, served)| {
            let built = LibraryBuilt {
                served: graph.nodes[served].id.to_string(),
                rows_made_at: evidence.library[node]
                    .as_ref()
                    .map(|rows| rows.made_at().to_owned())
                    .unwrap_or_default(),
            };
            (graph.nodes[node].id.to_string(), built)
        })
        .collect();
    let by_id = |pairs: &[(NodeIdx, NodeIdx)]| {
        pairs
            .iter()
            .map(|&(node, served)| {
                (
                    graph.nodes[node].id.to_string(),
                    graph.nodes[served].id.to_string(),
                )
            })
            .collect()
    };
    let generated_for_aggregate = by_id(&regenerated);
    let reinstantiated_for_union = by_id(&reinstantiated);
    let rebuilt_by_pushdown = by_id(&rebuilt_by_pushdown_pairs);
    let deduplicated_under_root = by_id(&deduplicated);
    PlanLocalisation {
        units: ranked.into_iter().take(5).map(|(u, _)| u).collect(),
        unit_sites,
        aligned,
        produced_by_pruning,
        selected_by_pruning,
        whole_objects,
        stated_by_code,
        built_by_library,
        generated_for_aggregate,
        reinstantiated_for_union,
        rebuilt_by_pushdown,
        deduplicated_under_root,
        twins,
        files,
        application_files: prior.pulls(),
    }
}

/// What the plan's user-written nodes ask of the code, against every compatible site.
struct PlanEvidence {
    /// The nodes the user's code wrote (not derived, not the engine's).
    writers: Vec<NodeIdx>,
    /// Per node: the family and evidence to look for.
    targets: Vec<(OperatorFamily, super::evidence::Evidence)>,
    /// Per node: whether it belongs to a subquery's plan ([`PlanGraph::in_subquery`]).
    nested: Vec<bool>,
    /// Per node: for a partial aggregate, its final step (the same statement's aggregate).
    final_steps: Vec<Option<NodeIdx>>,
    /// Per node: its parent in the plan's tree.
    parents: Vec<Option<NodeIdx>>,
    /// Per node: rows library code outside the repository made that it reads, itself or
    /// through its inputs ([`super::library::over_library_rows`]).
    library: Vec<Option<LibraryRows>>,
    /// Sparse node × site evidence score for every compatible site. Ranking and aligning look it
    /// up for every unit, node and site, so it hashes with Fx (a fifth of a large plan's mapping
    /// time, BENCHMARKS.md): its keys are the site table's own sequential ids, nothing a
    /// repository chooses, so SipHash's resistance to crafted keys buys nothing here.
    scores: Vec<FxHashMap<SiteId, f64>>,
    /// The best site anywhere for each node: what an open flow borrows for the scans its
    /// caller reads.
    best_anywhere: Vec<Option<(SiteId, f64)>>,
    /// Whether the plan reads cached data (an in-memory scan or relation).
    reads_cached_data: bool,
    /// The columns the plan returns, when it prints them ([`result_columns`]).
    result_columns: Option<BTreeSet<String>>,
    /// The Python UDFs the plan evaluates, by name (normalised; a lambda's `<lambda>` names
    /// nothing); `None` when it evaluates none.
    evaluated_udfs: Option<BTreeSet<String>>,
}

impl PlanEvidence {
    fn new(graph: &PlanGraph, semantics: &[SemanticDescription], table: &SiteTable) -> Self {
        let library = super::library::over_library_rows(graph, table);
        // (a scan of rows a library made is no statement of the code's)
        let writers: Vec<NodeIdx> = (0..graph.nodes.len())
            .filter(|&i| {
                semantics[i].node_kind == NodeKind::Code
                    && semantics[i].induced_by.is_none()
                    && !matches!(library[i], Some(LibraryRows::Scanned(_)))
            })
            .collect();
        let targets: Vec<_> = semantics.iter().map(SemanticDescription::target).collect();
        // Compatibility is cheap to test. Units are chosen on evidence alone — how much of each
        // node's rarity-weighted evidence the unit holds — so that a unit does not win by merely
        // having many compatible constructs.
        let mut scores: Vec<FxHashMap<SiteId, f64>> = vec![FxHashMap::default(); graph.nodes.len()];
        for &n in &writers {
            let (family, evidence) = &targets[n];
            for s in table.candidates(*family, evidence) {
                let site = &table.sites[s];
                if !can_produce(*family, evidence, site) {
                    continue;
                }
                let coverage = evidence_overlap(*family, evidence, site, table).coverage;
                let mut damp = if site.flags.test { TEST_DAMPING } else { 1.0 };
                if conflicts(*family, evidence, &site.evidence) {
                    damp *= CONFLICT_PENALTY;
                }
                scores[n].insert(site.id, (0.05 + coverage) * site.origin_prior * damp);
            }
        }
        let best_anywhere = scores
            .iter()
            .map(|s| {
                s.iter()
                    .map(|(site, v)| (*site, *v))
                    .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
            })
            .collect();
        let parents = graph.parents();
        Self {
            writers,
            targets,
            nested: nested_nodes(graph),
            final_steps: (0..graph.nodes.len())
                .map(|i| super::semantics::final_step(graph, &parents, i))
                .collect(),
            parents,
            library,
            scores,
            best_anywhere,
            reads_cached_data: graph
                .nodes
                .iter()
                .any(|n| n.operator.starts_with("InMemory") || n.name.starts_with("InMemory")),
            result_columns: result_columns(graph),
            evaluated_udfs: evaluated_udfs(graph),
        }
    }

    /// Whether some site of a unit calls a UDF the plan evaluates: a Python call of a UDF
    /// ([`PYTHON_UDF_CALL`]) or, SQL calling one registered by name, that name. `true` when the
    /// plan evaluates none.
    fn calls_an_evaluated_udf(&self, table: &SiteTable, sites: &BTreeSet<SiteId>) -> bool {
        let Some(names) = &self.evaluated_udfs else {
            return true;
        };
        sites.iter().any(|s| {
            let evidence = &table.sites[*s].evidence;
            evidence.has(TokenKind::Function, PYTHON_UDF_CALL)
                || names.iter().any(|n| evidence.has(TokenKind::Function, n))
        })
    }

    /// The reader a flow borrows for node `n`, a scan its caller reads: the best site anywhere,
    /// weighed by `prior` — of readers alike, the caller is the one in the files the application
    /// runs from (a test given as the entry reads what the function it tests checks, not the
    /// job's own copy of that read). Its own score, unweighed.
    fn borrowed_reader(
        &self,
        n: NodeIdx,
        table: &SiteTable,
        prior: &FilePrior,
    ) -> Option<(SiteId, f64)> {
        if prior.factor.is_empty() {
            return self.best_anywhere[n];
        }
        self.scores[n]
            .iter()
            .map(|(site, v)| (*site, *v, v * prior.of(Some(table.sites[*site].file))))
            .max_by(|a, b| a.2.total_cmp(&b.2).then(b.0.cmp(&a.0)))
            .map(|(site, v, _)| (site, v))
    }

    /// The sites in other files than `best`'s scoring exactly as well for node `n` under
    /// `prior` ([`Self::borrowed_reader`]'s ties), in id order.
    fn readers_tied_with(
        &self,
        n: NodeIdx,
        best: SiteId,
        table: &SiteTable,
        prior: &FilePrior,
    ) -> Vec<SiteId> {
        let weighed = |site: SiteId, v: f64| v * prior.of(Some(table.sites[site].file));
        let Some(value) = self.scores[n].get(&best).map(|v| weighed(best, *v)) else {
            return Vec::new();
        };
        let file = table.sites[best].file;
        let mut tied: Vec<SiteId> = self.scores[n]
            .iter()
            .filter(|(site, v)| {
                table.sites[**site].file != file && (value - weighed(**site, **v)).abs() <= 1e-9
            })
            .map(|(site, _)| *site)
            .collect();
        tied.sort_unstable();
        tied.truncate(TWINS_KEPT);
        tied
    }

    /// The best score of a unit for node `n`, or what an open flow borrows for it.
    fn borrowed(&self, n: NodeIdx, borrow: f64) -> Option<f64> {
        self.best_anywhere[n]
            .filter(|_| borrow > 0.0 && self.targets[n].0 == OperatorFamily::Scan)
            .map(|(_, v)| v * borrow)
    }
}

/// Every candidate unit (the flow of each chain with real evidence for some node, every SQL
/// statement), scored by how well it explains the plan's nodes one by one, best first.
fn rank_units(
    evidence: &PlanEvidence,
    table: &SiteTable,
    prior: &FilePrior,
) -> Vec<(RankedUnit, BTreeSet<SiteId>)> {
    let PlanEvidence {
        writers,
        scores,
        targets,
        ..
    } = evidence;
    let mut relevant: Vec<bool> = (0..table.chain_count())
        .map(|chain| {
            table.chain_sites(chain).iter().any(|s| {
                writers
                    .iter()
                    .any(|n| scores[*n].get(s).is_some_and(|v| *v > 0.25))
            })
        })
        .collect();
    // A Project Spark collapsed from several statements' projections makes the flow holding
    // them relevant when they explain it between them, though none does alone.
    let projection_writers: Vec<NodeIdx> = writers
        .iter()
        .copied()
        .filter(|&n| targets[n].0 == OperatorFamily::Project)
        .collect();
    for (chain, is_relevant) in relevant.iter_mut().enumerate() {
        if *is_relevant {
            continue;
        }
        let touched: Vec<NodeIdx> = projection_writers
            .iter()
            .copied()
            .filter(|&n| {
                table
                    .chain_sites(chain)
                    .iter()
                    .any(|s| scores[n].contains_key(s))
            })
            .collect();
        if touched.is_empty() {
            continue;
        }
        let flow = table.flow_of_chain(chain);
        *is_relevant = touched.into_iter().any(|n| {
            collapsed_projection_score(evidence, table, n, &flow).is_some_and(|(v, _)| v > 0.25)
        });
    }
    // A node with nothing to match (a bare `union`) cannot make its chain relevant: a chain
    // that could produce it and is fed by relevant ones is a candidate too, or the flow of one
    // input alone would stand for the whole plan.
    let bare_writers: Vec<NodeIdx> = writers
        .iter()
        .copied()
        .filter(|&n| targets[n].1.is_empty())
        .collect();
    let produces_bare = |chain: usize| {
        table
            .chain_sites(chain)
            .iter()
            .any(|s| bare_writers.iter().any(|&n| scores[n].contains_key(s)))
    };
    // … and so is one producing a bare node fed by such a candidate (`if (!changed.isEmpty)`
    // after `changed = a.except(b)` after the reads): each step carries the flow on.
    let mut candidate = relevant.clone();
    if !bare_writers.is_empty() {
        for _ in 0..BARE_STEPS {
            let mut grew = false;
            for chain in 0..table.chain_count() {
                if !candidate[chain]
                    && table.feeds(chain).iter().any(|(_, fed)| candidate[*fed])
                    && produces_bare(chain)
                {
                    candidate[chain] = true;
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
    }
    // … and so is a chain applying functions to a frame (`df.transform(with_teenager)`) that a
    // relevant chain feeds — an applied function's code, or the frame's: its flow holds them all,
    // where each applied function's own flow holds only itself.
    for (chain, is_candidate) in candidate.iter_mut().enumerate() {
        if !*is_candidate
            && table.applies_functions(chain)
            && table.feeds(chain).iter().any(|(_, fed)| relevant[*fed])
        {
            *is_candidate = true;
        }
    }
    // Each unit with the chains that link it to its data without producing anything of their
    // own (a SQL statement's view registrations, a flow's `df.cache()`).
    let mut units: Vec<(UnitKind, BTreeSet<SiteId>, BTreeSet<usize>)> = Vec::new();
    for (chain, &is_candidate) in candidate.iter().enumerate() {
        if is_candidate {
            let flow = table.flow_of_chain(chain);
            let caches: BTreeSet<usize> = flow
                .iter()
                .filter_map(|s| table.chain_of(*s))
                .filter_map(|c| table.cached_by(c))
                .collect();
            units.push((UnitKind::Flow { chain }, flow, caches));
        }
    }
    for statement in 0..table.sql_count() {
        // A statement reading a view is one query with the view's definition.
        let (sites, links) = table.sql_unit_and_links(statement);
        units.push((UnitKind::Sql { statement }, sites, links));
    }
    let mut ranked: Vec<(RankedUnit, BTreeSet<SiteId>)> = units
        .into_iter()
        .map(|(kind, sites, links)| {
            let borrow = open_flow_borrowing(table, &kind, &sites);
            let mut total = 0.0;
            let mut explained = 0usize;
            let mut used_chains: BTreeSet<usize> = BTreeSet::new();
            for &n in writers {
                let scored: Vec<(SiteId, f64)> = sites
                    .iter()
                    .filter_map(|s| scores[n].get(s).map(|v| (*s, *v)))
                    .collect();
                let mut best = scored.iter().map(|(_, v)| *v).max_by(f64::total_cmp);
                if targets[n].0 == OperatorFamily::Project
                    && let Some((joint, parts)) =
                        collapsed_projection_score(evidence, table, n, &sites)
                    && best.is_none_or(|b| joint > b)
                {
                    best = Some(joint);
                    used_chains.extend(parts.iter().filter_map(|s| table.chain_of(*s)));
                }
                match (best, evidence.borrowed(n, borrow)) {
                    (Some(v), Some(b)) if b > v => total += b,
                    (None, Some(b)) => total += b,
                    (Some(v), _) => {
                        total += v;
                        if v > 0.25 {
                            explained += 1;
                        }
                        // Every chain holding a site as good as the best is used: a read and the
                        // SQL FROM naming its view explain a scan equally well.
                        for &(s, x) in &scored {
                            if let SiteKind::Call { chain, .. } = table.sites[s].kind
                                && x >= v - 1e-9
                            {
                                used_chains.insert(chain);
                            }
                        }
                    }
                    (None, None) => {}
                }
            }
            let chains_in_unit: BTreeSet<usize> =
                sites.iter().filter_map(|s| table.chain_of(*s)).collect();
            // A chain registering a view the SQL reads is its link to the DataFrames, not an
            // idle statement. A sampling the plan shows nothing of weighs more: Spark never
            // plans one away (`train, test = df.randomSplit(…)` upstream of a frame the plan
            // does not sample is another frame's code).
            let idle: f64 = chains_in_unit
                .iter()
                .filter(|c| !used_chains.contains(c) && !links.contains(c))
                .map(|&c| {
                    if samples(table, c) {
                        IDLE_SAMPLING
                    } else {
                        IDLE_STATEMENT
                    }
                })
                .sum();
            // A plan evaluating a Python UDF ran code calling it: a unit calling none (the
            // query's SQL twin, written without the UDF) is not that code, however alike the rest.
            let udf_penalty = if evidence.calls_an_evaluated_udf(table, &sites) {
                1.0
            } else {
                UNIT_WITHOUT_THE_UDF
            };
            let unit = RankedUnit {
                kind,
                score: (total - idle) * prior.of_unit(table, &sites) * udf_penalty,
                explained: if writers.is_empty() {
                    0.0
                } else {
                    explained as f64 / writers.len() as f64
                },
            };
            (unit, sites)
        })
        .collect();
    ranked.sort_by(|a, b| b.0.score.total_cmp(&a.0.score));
    order_tied_files(&mut ranked, evidence, table);
    ranked
}

/// The Python UDFs `graph` evaluates ([`PlanEvidence::evaluated_udfs`]).
fn evaluated_udfs(graph: &PlanGraph) -> Option<BTreeSet<String>> {
    let evaluations = || {
        graph
            .nodes
            .iter()
            .filter(|n| n.family == OperatorFamily::PythonEval)
    };
    evaluations().next().is_some().then(|| {
        evaluations()
            .flat_map(|n| n.details.python_udfs.iter())
            .map(|name| super::evidence::normalise_function(name))
            .filter(|name| !name.contains('<'))
            .collect()
    })
}

/// A Project's score in `sites` as Spark's collapsing of adjacent projections makes it: the
/// evidence held between the best site that can produce it and those adding a share of its
/// evidence the others lack ([`COLLAPSED_GAIN`]), with those sites; `None` unless at least two.
fn collapsed_projection_score(
    evidence: &PlanEvidence,
    table: &SiteTable,
    n: NodeIdx,
    sites: &BTreeSet<SiteId>,
) -> Option<(f64, Vec<SiteId>)> {
    let mut candidates: Vec<(SiteId, f64)> = sites
        .iter()
        .filter(|s| computes_columns(&table.sites[**s]))
        .filter_map(|s| evidence.scores[n].get(s).map(|v| (*s, *v)))
        .filter(|(_, v)| *v > 0.05)
        .collect();
    if candidates.len() < 2 {
        return None;
    }
    candidates.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let target = &evidence.targets[n].1;
    // what a statement computes (functions, names, values), not the columns it passes on
    let computed = target.without(TokenKind::Column);
    let joint = |of: &Evidence, parts: &[SiteId]| {
        super::evidence::joint_coverage(
            of,
            parts.iter().map(|s| &table.sites[*s].evidence),
            &table.weights,
        )
    };
    let mut parts = vec![candidates[0].0];
    let mut covered = joint(&computed, &parts);
    for &(site, _) in &candidates[1..] {
        parts.push(site);
        let with = joint(&computed, &parts);
        if with - covered >= COLLAPSED_GAIN {
            covered = with;
        } else {
            parts.pop();
        }
    }
    // one statement computing it all explains it better than several doing so between them
    let split = COLLAPSED_SPLIT * projections(table, &parts).saturating_sub(1) as f64;
    (parts.len() >= 2).then(|| (0.05 + joint(target, &parts) - split, parts))
}

/// Whether a site is a DataFrame call computing columns (`withColumn`, `select`, `selectExpr`):
/// what Spark collapses into one Project across statements.
fn computes_columns(site: &super::sites::Site) -> bool {
    match &site.kind {
        SiteKind::Call { method, .. } => {
            ["withColumn", "withColumns", "select", "selectExpr"].contains(&method.as_str())
        }
        SiteKind::Sql { kind, .. } => *kind == crate::code::SqlClauseKind::SelectItem,
    }
}

/// The projections `parts` are: each DataFrame call one, a SQL statement's select items one.
fn projections(table: &SiteTable, parts: &[SiteId]) -> usize {
    let statements: BTreeSet<usize> = parts
        .iter()
        .filter_map(|s| match table.sites[*s].kind {
            SiteKind::Sql { statement, .. } => Some(statement),
            SiteKind::Call { .. } => None,
        })
        .collect();
    let calls = parts
        .iter()
        .filter(|s| matches!(table.sites[**s].kind, SiteKind::Call { .. }))
        .count();
    calls + statements.len()
}

/// What each statement beyond the first costs a collapsed Project's score
/// ([`collapsed_projection_score`]).
const COLLAPSED_SPLIT: f64 = 0.01;

/// The least share of a collapsed Project's evidence a statement must add to count as one of
/// its projections ([`collapsed_projection_score`]).
const COLLAPSED_GAIN: f64 = 0.05;

/// How many statements a flow of bare nodes (no evidence of their own) is followed on from the
/// last one that explains something.
const BARE_STEPS: usize = 4;

/// What a unit's fit keeps when the plan evaluates a Python UDF and no site of the unit calls one.
const UNIT_WITHOUT_THE_UDF: f64 = 0.5;

/// What a statement of a unit that explains none of the plan's nodes costs the unit.
const IDLE_STATEMENT: f64 = 0.05;
/// … when it samples ([`IDLE_STATEMENT`]): the plan would show its Sample.
const IDLE_SAMPLING: f64 = 0.25;

/// What a unit reading a frame its code cached costs when the plan reads no cached data: Spark
/// plans every query of a cached frame over the cache (`DF1.cache()`, then
/// `DF1.groupBy("a").count()` shows an in-memory scan), so the plan is a query from before the
/// cache (the same `groupBy` written above it) or of other code.
const UNSHOWN_CACHE: f64 = 0.25;

/// Whether a chain of the unit starts from a frame cached before it
/// ([`SiteTable::reads_cached_frame`]).
fn reads_cached_frame(table: &SiteTable, sites: &BTreeSet<SiteId>) -> bool {
    sites
        .iter()
        .filter_map(|s| table.chain_of(*s))
        .any(|c| table.reads_cached_frame(c))
}

/// Whether `chain` samples its frame (`sample`, `randomSplit`).
fn samples(table: &SiteTable, chain: usize) -> bool {
    table
        .chain_sites(chain)
        .iter()
        .any(|s| table.sites[*s].families.contains(OperatorFamily::Sample))
}

/// The chains of a unit that sample ([`samples`]) and that no node was aligned with: the plan
/// shows no Sample of theirs, though Spark never plans one away.
fn unaligned_samplings(
    table: &SiteTable,
    sites: &BTreeSet<SiteId>,
    assigned: &[Option<Aligned>],
) -> usize {
    let aligned: BTreeSet<usize> = assigned
        .iter()
        .flatten()
        .filter_map(|a| table.chain_of(a.site))
        .collect();
    let chains: BTreeSet<usize> = sites.iter().filter_map(|s| table.chain_of(*s)).collect();
    chains
        .into_iter()
        .filter(|c| !aligned.contains(c) && samples(table, *c))
        .count()
}

/// Operations of a unit the plan shows nothing of (a sibling `withColumn` computing what no node
/// computes): sites that can produce some node yet are no node's best site in the unit — but not
/// those the optimizer may have removed ([`SiteTable::may_be_optimised_away`]).
fn unshown_operations(
    sites: &BTreeSet<SiteId>,
    evidence: &PlanEvidence,
    table: &SiteTable,
) -> usize {
    unshown_of(sites, evidence, table, |_| true)
}

/// The filters of a unit the plan shows nothing of ([`unshown_operations`] that filter): a
/// `where` the plan has no Filter for is not the plan's code.
fn unshown_filters(sites: &BTreeSet<SiteId>, evidence: &PlanEvidence, table: &SiteTable) -> usize {
    unshown_of(sites, evidence, table, |site| {
        site.families.contains(OperatorFamily::Filter)
    })
}

fn unshown_of(
    sites: &BTreeSet<SiteId>,
    evidence: &PlanEvidence,
    table: &SiteTable,
    counted: impl Fn(&super::sites::Site) -> bool,
) -> usize {
    let mut used: BTreeSet<SiteId> = BTreeSet::new();
    for &n in &evidence.writers {
        let scored: Vec<(SiteId, f64)> = sites
            .iter()
            .filter_map(|s| evidence.scores[n].get(s).map(|v| (*s, *v)))
            .collect();
        if let Some(best) = scored.iter().map(|(_, v)| *v).max_by(f64::total_cmp) {
            used.extend(
                scored
                    .iter()
                    .filter(|(_, x)| *x >= best - 1e-9)
                    .map(|(s, _)| *s),
            );
        }
    }
    sites
        .iter()
        .filter(|s| {
            !table.sites[**s].families.is_empty()
                && counted(&table.sites[**s])
                && !used.contains(s)
                && !table.may_be_optimised_away(**s)
        })
        .count()
}

/// Among units of equal score in different files (copies, look-alikes), the file whose unit the
/// plan shows all of comes first, then the copy filed under its topic ([`SiteTable::placement`]);
/// among units of one file, the one whose filters the plan shows, then one ending where its frame
/// is used ([`SiteTable::passes_frame_on`]), then program order.
fn order_tied_files(
    ranked: &mut [(RankedUnit, BTreeSet<SiteId>)],
    evidence: &PlanEvidence,
    table: &SiteTable,
) {
    let mut start = 0;
    while start < ranked.len() {
        let score = ranked[start].0.score;
        let end = start + ranked[start..].partition_point(|u| u.0.score == score);
        let run = &mut ranked[start..end];
        let files: Vec<Option<u32>> = run.iter().map(|u| unit_file(table, &u.1)).collect();
        if run.len() > 1 && files.iter().all(|f| *f == files[0]) {
            // one file: the unit whose filters the plan shows, then one ending where its frame
            // is used, then program order
            let unshown: Vec<usize> = run
                .iter()
                .map(|u| unshown_filters(&u.1, evidence, table))
                .collect();
            let passes_on = |u: &RankedUnit| match u.kind {
                UnitKind::Flow { chain } => table.passes_frame_on(chain),
                UnitKind::Sql { statement } => table.sql_passes_frame_on(statement),
            };
            // a flow whose last selection names exactly the columns the plan returns comes
            // first, one naming others last (`filter(…).select("Open", "Close")`, whose Project
            // Spark pruned into the scan, beside `filter(…).show()` and `filter(…).select("Open")`)
            let selection_order = |u: &RankedUnit| match (&u.kind, &evidence.result_columns) {
                (UnitKind::Flow { chain }, Some(result)) => match selected_columns(table, *chain) {
                    Some(selected) if &selected == result => 0,
                    Some(_) => 2,
                    None => 1,
                },
                _ => 1,
            };
            let mut order: Vec<usize> = (0..run.len()).collect();
            order.sort_by_key(|&i| {
                (
                    unshown[i],
                    selection_order(&run[i].0),
                    passes_on(&run[i].0),
                    i,
                )
            });
            let sorted: Vec<_> = order.iter().map(|&i| run[i].clone()).collect();
            run.clone_from_slice(&sorted);
        } else if files.iter().any(|f| *f != files[0]) {
            // Per file: its fewest unshown operations, its placement, where it first appears.
            let mut keys: BTreeMap<Option<u32>, (usize, std::cmp::Reverse<usize>, usize)> =
                BTreeMap::new();
            for (i, (file, u)) in files.iter().zip(run.iter()).enumerate() {
                let unshown = unshown_operations(&u.1, evidence, table);
                let placement = file.map_or(0, |f| table.placement(f));
                let key = keys
                    .entry(*file)
                    .or_insert((unshown, std::cmp::Reverse(placement), i));
                key.0 = key.0.min(unshown);
            }
            run.sort_by_key(|u| keys[&unit_file(table, &u.1)]);
        }
        start = end;
    }
}

/// The columns a plan returns, normalised: its top operator's output (a filter, sort or limit
/// prints only its input); none when the plan does not print them.
fn result_columns(graph: &PlanGraph) -> Option<BTreeSet<String>> {
    let mut at = *graph.roots.first()?;
    while graph.nodes[at].node_kind == NodeKind::Engine {
        at = *graph.nodes[at].children.first()?;
    }
    let d = &graph.nodes[at].details;
    let attributes = if d.output.is_empty() {
        &d.input
    } else {
        &d.output
    };
    (!attributes.is_empty()).then(|| {
        attributes
            .iter()
            .map(|a| super::evidence::normalise_column(&a.name))
            .collect()
    })
}

/// The columns a flow's last projection returns when it selects plain columns and nothing else
/// (`select(["Open", "Close"])`); none when it computes or names anything else, or has none.
fn selected_columns(table: &SiteTable, chain: usize) -> Option<BTreeSet<String>> {
    let last = table
        .chain_sites(chain)
        .iter()
        .rev()
        .find(|s| table.sites[**s].families.contains(OperatorFamily::Project))?;
    let evidence = &table.sites[*last].evidence;
    let plain =
        !evidence.tokens.is_empty() && evidence.tokens.iter().all(|(k, _)| *k == TokenKind::Column);
    plain.then(|| evidence.tokens.iter().map(|(_, v)| v.clone()).collect())
}

/// The files of the best units, with their best unit's score (at most five).
fn likely_files(ranked: &[(RankedUnit, BTreeSet<SiteId>)], table: &SiteTable) -> Vec<(u32, f64)> {
    let mut file_scores: BTreeMap<u32, f64> = BTreeMap::new();
    for (unit, sites) in ranked.iter().take(20) {
        if let Some(file) = unit_file(table, sites) {
            let e = file_scores.entry(file).or_default();
            *e = e.max(unit.score);
        }
    }
    let mut files: Vec<(u32, f64)> = file_scores.into_iter().collect();
    files.sort_by(|a, b| b.1.total_cmp(&a.1));
    files.truncate(5);
    files
}

/// The leading units aligned with the plan, and the one that fits best.
struct Contenders {
    /// The winner's fit (its aligned sites' scores), before the prior.
    best_fit: f64,
    /// The winner's rank.
    winner: usize,
    /// The winner's alignment, by node.
    assigned: Vec<Option<Aligned>>,
    /// The winner's other sites tying with a node's aligned one ([`flow_ties`]).
    ties: BTreeMap<NodeIdx, Vec<SiteId>>,
    /// The winner's nodes library code built, by the operator they serve.
    library: BTreeMap<NodeIdx, NodeIdx>,
    /// Every contender's fit, rank and alignment.
    fits: Vec<(f64, usize, Vec<Option<Aligned>>)>,
}

/// Units that explain the nodes equally well one by one may still differ in how the plan's tree
/// fits their flow (which join feeds which): align the leading candidates and keep the one whose
/// aligned sites score best, counting a site outside its parent's flow at a discount. With
/// `order_bonus`, the first contender (program order's pick) is favoured by
/// [`ORDER_TOLERANCE`].
fn align_contenders(
    graph: &PlanGraph,
    semantics: &[SemanticDescription],
    table: &SiteTable,
    prior: &FilePrior,
    evidence: &PlanEvidence,
    ranked: &[(RankedUnit, BTreeSet<SiteId>)],
    order_bonus: bool,
) -> Option<Contenders> {
    let top = ranked.first()?.0.score;
    let mut best: Option<(f64, usize, Alignment)> = None;
    let mut best_weighted = f64::NEG_INFINITY;
    let mut fits: Vec<(f64, usize, Vec<Option<Aligned>>)> = Vec::new();
    for rank in contender_ranks(ranked, table, top) {
        let (unit, sites) = &ranked[rank];
        let Alignment {
            mut assigned,
            mut ties,
            library,
        } = align_plan(graph, semantics, evidence, table, sites);
        let borrow = open_flow_borrowing(table, &unit.kind, sites);
        let mut fitted = 0.0;
        for &n in &evidence.writers {
            // A scan of files whose reader in the flow makes rows in memory instead (a test's
            // `Seq(…).toDS()` passed where the job passes what it read): the job's caller is
            // one the flow does not show, so the scan borrows the best reader anywhere.
            if let Some(a) = assigned[n]
                && evidence.targets[n].0 == OperatorFamily::Scan
                && makes_rows_for_a_file_scan(evidence, table, n, a.site)
                && let Some((site, v)) = evidence.borrowed_reader(n, table, prior)
                && !makes_rows_for_a_file_scan(evidence, table, n, site)
            {
                assigned[n] = Some(Aligned {
                    site,
                    in_flow: false,
                });
                // (readers in other files reading exactly as well are its twins, as for an open
                // flow's scans below)
                let tied = evidence.readers_tied_with(n, site, table, prior);
                if !tied.is_empty() {
                    ties.insert(n, tied);
                }
                fitted += v * BORROWED_SCAN;
                continue;
            }
            if let Some(a) = assigned[n] {
                let v = evidence.scores[n].get(&a.site).copied().unwrap_or(0.0);
                fitted += if a.in_flow { v } else { v * OUT_OF_FLOW };
            } else if let (Some(b), Some((site, _))) = (
                evidence.borrowed(n, borrow),
                evidence.borrowed_reader(n, table, prior),
            ) {
                // An open flow's scans are read by a caller: take the best reader anywhere —
                // readers in other files reading exactly as well are its twins (callers alike).
                assigned[n] = Some(Aligned {
                    site,
                    in_flow: false,
                });
                let tied = evidence.readers_tied_with(n, site, table, prior);
                if !tied.is_empty() {
                    ties.insert(n, tied);
                }
                fitted += b;
            }
        }
        fitted -= IDLE_SAMPLING * unaligned_samplings(table, sites, &assigned) as f64;
        if !evidence.reads_cached_data && reads_cached_frame(table, sites) {
            fitted -= UNSHOWN_CACHE;
        }
        let mut weighted = fitted * prior.of_unit(table, sites);
        if order_bonus && rank == 0 {
            weighted *= 1.0 + ORDER_TOLERANCE;
        }
        if weighted > best_weighted + 1e-9 {
            best_weighted = weighted;
            best = Some((
                fitted,
                rank,
                Alignment {
                    assigned: assigned.clone(),
                    ties,
                    library,
                },
            ));
        }
        fits.push((fitted, rank, assigned));
    }
    let (
        best_fit,
        winner,
        Alignment {
            assigned,
            ties,
            library,
        },
    ) = best?;
    Some(Contenders {
        best_fit,
        winner,
        assigned,
        ties,
        library,
        fits,
    })
}

/// The units worth aligning: the leading [`ALIGNED_CANDIDATES`] within 80 % of the top score, and
/// the best unit of every other file that ties the top exactly — several flows of one file tie
/// (each later one holds the earlier), and a look-alike file's must not be crowded out, or its
/// twin goes unseen.
fn contender_ranks(
    ranked: &[(RankedUnit, BTreeSet<SiteId>)],
    table: &SiteTable,
    top: f64,
) -> Vec<usize> {
    let mut ranks: Vec<usize> = ranked
        .iter()
        .take(ALIGNED_CANDIDATES)
        .take_while(|(unit, _)| unit.score >= top * 0.8)
        .enumerate()
        .map(|(rank, _)| rank)
        .collect();
    let mut files: BTreeSet<Option<u32>> = ranks
        .iter()
        .map(|r| unit_file(table, &ranked[*r].1))
        .collect();
    let leader = ranked.first().map(|(unit, _)| &unit.kind);
    for (rank, (unit, sites)) in ranked.iter().enumerate().skip(ranks.len()) {
        if unit.score < top * (1.0 - TRANSLATION_TOLERANCE) || ranks.len() >= 2 * ALIGNED_CANDIDATES
        {
            break;
        }
        let (tolerance, score) = leader.map_or((TWIN_TOLERANCE, unit.score), |l| {
            (
                tie_tolerance(table, l, &unit.kind),
                fit_beside(table, l, &unit.kind, unit.score),
            )
        });
        if score >= top * (1.0 - tolerance) && files.insert(unit_file(table, sites)) {
            ranks.push(rank);
        }
    }
    ranks
}

/// How far behind the unit `leader` another unit may fit and still tie with it:
/// [`TRANSLATION_TOLERANCE`] when their own code ([`unit_position`]) is in files of different
/// languages, [`TWIN_TOLERANCE`] otherwise.
///
/// Only code that runs as Spark on its own translates a query: a plain `.sql` file beside a
/// job's `spark.sql(…)` is the job's reference text (`queries/19.sql`), not a rival to it.
fn tie_tolerance(table: &SiteTable, leader: &UnitKind, other: &UnitKind) -> f64 {
    let runs = |kind: &UnitKind| match kind {
        UnitKind::Sql { statement } => table
            .sql_sites(*statement)
            .first()
            .is_some_and(|s| table.sites[*s].origin_prior >= 1.0),
        UnitKind::Flow { .. } => true,
    };
    match (unit_position(table, leader), unit_position(table, other)) {
        (Some((a, _)), Some((b, _)))
            if table.other_language(a, b) && runs(leader) && runs(other) =>
        {
            TRANSLATION_TOLERANCE
        }
        _ => TWIN_TOLERANCE,
    }
}

/// How well the unit `other` fits beside `leader` before the prior favouring the code under
/// test: a test's copy of the job's code fits [`TEST_DAMPING`] of the job's on the same evidence,
/// so the plan does not tell them apart ([`unit_in_tests`]).
fn fit_beside(table: &SiteTable, leader: &UnitKind, other: &UnitKind, fit: f64) -> f64 {
    if unit_in_tests(table, other) && !unit_in_tests(table, leader) {
        fit / TEST_DAMPING
    } else {
        fit
    }
}

/// Whether `site` is a test's standing beside `chosen` outside tests: on the same evidence it
/// scores [`TEST_DAMPING`] of `chosen`'s, the test prior all that sets them apart.
pub fn test_copy_of(table: &SiteTable, site: SiteId, chosen: SiteId) -> bool {
    table.sites[site].flags.test && !table.sites[chosen].flags.test
}

/// Whether a unit's own code ([`unit_position`]) is a test's.
fn unit_in_tests(table: &SiteTable, kind: &UnitKind) -> bool {
    own_first_site(table, kind).is_some_and(|s| table.sites[s].flags.test)
}

/// The contenders that fit the plan as well as the winner (within [`TWIN_TOLERANCE`], or
/// [`TRANSLATION_TOLERANCE`] in another language: [`tie_tolerance`]; one per file, the winner's
/// own included; at most [`TWINS_KEPT`]), as `dagNodeId` → their aligned
/// sites, for the nodes whose sites differ and score alike (the same evidence in a look-alike
/// statement, or in another construct that plans the same). The reasoner tells which of them is
/// other code ([`super::reason::twin_of`]).
#[allow(clippy::too_many_arguments)]
fn twin_alignment(
    table: &SiteTable,
    ranked: &[(RankedUnit, BTreeSet<SiteId>)],
    winner: usize,
    best_fit: f64,
    assigned: &[Option<Aligned>],
    fits: &[(f64, usize, Vec<Option<Aligned>>)],
    scores: &[FxHashMap<SiteId, f64>],
    graph: &PlanGraph,
) -> BTreeMap<String, Vec<SiteId>> {
    let file_of = |rank: usize| unit_file(table, &ranked[rank].1);
    let alike_nodes = |twin: &[Option<Aligned>], tolerance: f64| -> BTreeMap<String, SiteId> {
        twin.iter()
            .zip(assigned)
            .enumerate()
            .filter_map(|(idx, (t, a))| {
                let (t, a) = ((*t)?, (*a)?);
                let score = |site: SiteId| scores[idx].get(&site).copied().unwrap_or(0.0);
                // A test's copy of the chosen code scores the test prior less on the same
                // evidence ([`fit_beside`]).
                let prior = if test_copy_of(table, t.site, a.site) {
                    TEST_DAMPING
                } else {
                    1.0
                };
                // Whatever the construct: `groupBy(k).count()` and a split `g.count()`, a
                // DataFrame filter and a SQL WHERE explain the node alike all the same — and in
                // the same language, a site explaining it better than the chosen one (a test's
                // reader naming the whole path where the job's names a constant) is at least as
                // likely. (A translation states the query its own way: only a near tie counts.)
                let difference = score(t.site) / prior - score(a.site);
                let alike = difference.abs() <= tolerance
                    || difference > 0.0
                        && !table
                            .other_language(table.sites[t.site].file, table.sites[a.site].file);
                // (another call of the chosen statement is no other code)
                let (ts, at) = (&table.sites[t.site], &table.sites[a.site]);
                let same_statement = ts.file == at.file && ts.lines == at.lines;
                (!same_statement && alike).then(|| (graph.nodes[idx].id.to_string(), t.site))
            })
            .collect()
    };
    // Every contender that fits as well, those alike on the most nodes first (a copied file
    // before a file that merely fits as well overall); one per file, at most
    // [`TWINS_KEPT`], so that each is among a node's alternatives.
    let mut twins: Vec<(Option<u32>, BTreeMap<String, SiteId>)> = Vec::new();
    for (fit, rank, twin) in fits {
        let file = file_of(*rank);
        let (leader, other) = (&ranked[winner].0.kind, &ranked[*rank].0.kind);
        let tolerance = tie_tolerance(table, leader, other);
        let fit = fit_beside(table, leader, other, *fit);
        let ties = best_fit > 0.0 && (best_fit - fit) <= tolerance * best_fit;
        if *rank != winner && ties && twins.iter().all(|(f, _)| *f != file) {
            twins.push((file, alike_nodes(twin, tolerance)));
        }
    }
    twins.sort_by_key(|(_, nodes)| std::cmp::Reverse(nodes.len()));
    let mut by_node: BTreeMap<String, Vec<SiteId>> = BTreeMap::new();
    for (_, nodes) in twins.into_iter().take(TWINS_KEPT) {
        for (node, site) in nodes {
            by_node.entry(node).or_default().push(site);
        }
    }
    by_node
}

/// How many look-alike files a node's twins name: with the chosen site, a top three.
const TWINS_KEPT: usize = 2;

/// Where a unit's own code starts (file, line): its last chain's or its statement's first site,
/// not the statements feeding it (every query on one DataFrame shares where that was built).
pub fn unit_position(table: &SiteTable, kind: &UnitKind) -> Option<(u32, u32)> {
    let site = &table.sites[own_first_site(table, kind)?];
    Some((site.file, site.lines.start))
}

/// The first site of a unit's own code: its last chain's or its statement's.
fn own_first_site(table: &SiteTable, kind: &UnitKind) -> Option<SiteId> {
    let own = match kind {
        UnitKind::Flow { chain } => table.chain_sites(*chain),
        UnitKind::Sql { statement } => table.sql_sites(*statement),
    };
    own.iter()
        .min_by_key(|s| table.sites[**s].lines.start)
        .copied()
}

/// The position in `ranked` of the unit program order picks: in the leader's file, within
/// [`ORDER_TOLERANCE`] of it, the first to start after `after`'s line when `after` is in that
/// file; none when that is the leader already or no such unit exists.
fn next_in_order(
    ranked: &[(RankedUnit, BTreeSet<SiteId>)],
    table: &SiteTable,
    (after_file, after_line): (u32, u32),
) -> Option<usize> {
    let (top, _) = ranked.first()?;
    let (file, _) = unit_position(table, &top.kind)?;
    if file != after_file || top.score <= 0.0 {
        return None;
    }
    let next = ranked
        .iter()
        .enumerate()
        .take_while(|(_, (unit, _))| unit.score >= top.score * (1.0 - ORDER_TOLERANCE))
        .filter_map(|(i, (unit, _))| {
            let (f, line) = unit_position(table, &unit.kind)?;
            (f == file && line > after_line).then_some((line, i))
        })
        .min()?;
    (next.1 != 0).then_some(next.1)
}

/// Relative difference in fit under which two units in different files are twins.
const TWIN_TOLERANCE: f64 = 1e-6;
/// … when the files are in different languages: the same query written in Python, Scala and
/// SQL (a book's or a course's translations of one notebook) plans alike, while each language
/// states its evidence its own way — `df.StockCode` where Scala writes `col("StockCode")`, a
/// condition held in a variable, every column spelt out in SQL — so a small lead of one
/// rendering does not tell which one ran.
const TRANSLATION_TOLERANCE: f64 = 0.15;

/// The share of a scan's best score a unit may borrow: [`BORROWED_SCAN`] for an open flow, as
/// sure as the flow's own file is Spark code; nothing for other units.
fn open_flow_borrowing(table: &SiteTable, kind: &UnitKind, sites: &BTreeSet<SiteId>) -> f64 {
    match kind {
        UnitKind::Flow { chain } if table.flow_is_open(*chain) => {
            let prior = sites
                .iter()
                .map(|s| table.sites[*s].origin_prior)
                .fold(0.0, f64::max);
            BORROWED_SCAN * prior
        }
        _ => 0.0,
    }
}

/// Whether `site` makes rows in memory where node `n` scans files
/// ([`Evidence::makes_rows_in_memory`]).
fn makes_rows_for_a_file_scan(
    evidence: &PlanEvidence,
    table: &SiteTable,
    n: NodeIdx,
    site: SiteId,
) -> bool {
    evidence.targets[n].1.file_format.is_some() && table.sites[site].evidence.makes_rows_in_memory
}

/// Share of a scan's best score an open flow (one starting from a function parameter) earns for
/// it: the scan is real, but read by some caller the flow does not show.
const BORROWED_SCAN: f64 = 0.7;

/// How many leading units are aligned before one is chosen.
const ALIGNED_CANDIDATES: usize = 4;
/// Discount for a site outside the flow feeding its parent's site.
const OUT_OF_FLOW: f64 = 0.75;

/// One unit's alignment: each node's site, and the nodes whose site tied with others
/// ([`flow_ties`]).
struct Alignment {
    assigned: Vec<Option<Aligned>>,
    ties: BTreeMap<NodeIdx, Vec<SiteId>>,
    /// Nodes library code built ([`super::library`]) → the operator the code wrote that they
    /// serve, whose site they took.
    library: BTreeMap<NodeIdx, NodeIdx>,
}

/// The sites of a unit explaining a node exactly as well as its chosen one, in its parent's flow
/// as well, in another file: a function's parameter fed by two callers
/// (`top(spark.read.parquet("orders.parquet"))` in a script, `top(load("orders.parquet"))` in a
/// runner) makes both readers upstream of the function's join, and the plan came from one of
/// them — which one, nothing in it tells. Line order across files says nothing either, so the
/// choice between them is a coin toss, told as one. Ties in one file keep the downstream rule:
/// the later statement is the one the flow reaches.
fn flow_ties(
    table: &SiteTable,
    scored: &[(Aligned, f64)],
    chosen: Aligned,
    value: f64,
) -> Vec<SiteId> {
    let file = table.sites[chosen.site].file;
    scored
        .iter()
        .filter(|(other, v)| {
            other.in_flow == chosen.in_flow
                && table.sites[other.site].file != file
                && (value - v).abs() <= 1e-9 // exactly as well
        })
        .map(|(other, _)| other.site)
        .take(TWINS_KEPT)
        .collect()
}

/// A node's aligned site and whether it lies in the flow feeding its parent's site.
#[derive(Debug, Clone, Copy)]
struct Aligned {
    site: SiteId,
    in_flow: bool,
}

/// Align every node of the plan with the unit's sites, from each root down.
fn align_plan(
    graph: &PlanGraph,
    semantics: &[SemanticDescription],
    evidence: &PlanEvidence,
    table: &SiteTable,
    unit: &BTreeSet<SiteId>,
) -> Alignment {
    let mut alignment = Alignment {
        assigned: vec![None; graph.nodes.len()],
        ties: BTreeMap::new(),
        library: BTreeMap::new(),
    };
    for &root in &graph.roots {
        align(
            graph,
            semantics,
            evidence,
            table,
            unit,
            root,
            None,
            &mut alignment,
        );
    }
    // Nodes outside the final plan's tree (AQE Initial Plan, subqueries) are their own roots.
    let parents = graph.parents();
    for (idx, parent) in parents.iter().enumerate() {
        if parent.is_none() && !graph.roots.contains(&idx) {
            align(
                graph,
                semantics,
                evidence,
                table,
                unit,
                idx,
                None,
                &mut alignment,
            );
        }
    }
    alignment
}

/// The null checks a join inferred ([`super::semantics::is_inferred_constraint_reason`]) that
/// are the code of a filter written after the join and pushed down through it, each with that
/// filter: pushing the filter rebuilds the join under the filter's origin, and the checks the
/// rebuilt join infers take that origin (`l.join(o, "order_id").where(col("status") != "x")`:
/// `isnotnull(order_id)` is the `where`'s). Such a filter is a user-written Filter below the join
/// whose site the join's site feeds. Checks that took a site of their own (a null check the code
/// states) keep it.
fn checks_of_rebuilt_joins(
    graph: &PlanGraph,
    semantics: &[SemanticDescription],
    table: &SiteTable,
    assigned: &[Option<Aligned>],
) -> Vec<(NodeIdx, NodeIdx)> {
    // (SQL's origins are its text's: a WHERE holding a join's keys is no later filter)
    let is_call = |site: SiteId| matches!(table.sites[site].kind, SiteKind::Call { .. });
    let mut rebuilt = Vec::new();
    for idx in 0..graph.nodes.len() {
        let Some(consumer) = &semantics[idx].induced_by else {
            continue;
        };
        let Some(join) = graph.node_by_id(&consumer.dag_node_id) else {
            continue;
        };
        let Some(join_site) = assigned[join].map(|a| a.site) else {
            continue;
        };
        let took_the_joins = assigned[idx].is_some_and(|a| a.site == join_site);
        if !super::semantics::is_inferred_constraint_reason(&consumer.reason)
            || graph.nodes[join].family != OperatorFamily::Join
            || !took_the_joins
            || !is_call(join_site)
        {
            continue;
        }
        // (the flow upstream of a site is asked for last: it is the costly test)
        let pushed_through = graph.subtree(join).into_iter().find(|&n| {
            n != idx
                && semantics[n].induced_by.is_none()
                && graph.nodes[n].family == OperatorFamily::Filter
                && assigned[n].is_some_and(|a| {
                    a.site != join_site
                        && is_call(a.site)
                        && table.upstream(a.site, None).contains(&join_site)
                })
        });
        if let Some(filter) = pushed_through {
            rebuilt.push((idx, filter));
        }
    }
    rebuilt
}

/// The null checks a SQL join inferred for its keys and Spark pushed down into the frame a view
/// holds, each with that join: the check is made at the join, under the origin of its SQL text,
/// and keeps it however far down it goes (`SELECT … FROM customers c JOIN valid_orders o ON
/// o.customer_id = c.id` over a view registered from `customers.withColumn(…)`:
/// `isnotnull(id)` below the `withColumn` is the JOIN's). A DataFrame join's checks keep serving
/// the operator above them.
fn checks_of_sql_joins(
    graph: &PlanGraph,
    semantics: &[SemanticDescription],
    table: &SiteTable,
    parents: &[Option<NodeIdx>],
    assigned: &[Option<Aligned>],
) -> Vec<(NodeIdx, NodeIdx)> {
    let is_sql = |site: SiteId| matches!(table.sites[site].kind, SiteKind::Sql { .. });
    let mut pairs = Vec::new();
    for idx in 0..graph.nodes.len() {
        let Some(consumer) = &semantics[idx].induced_by else {
            continue;
        };
        if !super::semantics::is_inferred_constraint_reason(&consumer.reason)
            || graph.nodes[idx].family != OperatorFamily::Filter
            || assigned[idx].is_none_or(|a| is_sql(a.site))
        {
            continue;
        }
        let Some(join) = super::semantics::null_checks_inferred_above(graph, parents, idx)
            .filter(|&j| graph.nodes[j].family == OperatorFamily::Join)
        else {
            continue;
        };
        let Some(keys) = join_key_columns(graph, join) else {
            continue;
        };
        let checked = columns_of(&graph.nodes[idx].details.conditions);
        if !checked.is_empty()
            && checked.is_subset(&keys)
            && assigned[join].is_some_and(|a| is_sql(a.site))
        {
            pairs.push((idx, join));
        }
    }
    pairs
}

/// The aggregates a join reads on their grouping key, each with the null check below it, and that
/// join: the join infers `isnotnull(key)` for its side and Spark pushes the check down through
/// the aggregate, rebuilding the aggregate under the join's origin
/// (`orders.join(lines.groupBy("order_id").agg(…), "order_id")`: the partial aggregate and the
/// check are the join's code; the final aggregate, which Spark plans from both, stays the
/// grouping's). A check the code states in the aggregate's own flow is the code's: Spark infers
/// none then, and rebuilds nothing.
fn aggregates_rebuilt_for_joins(
    graph: &PlanGraph,
    semantics: &[SemanticDescription],
    table: &SiteTable,
    parents: &[Option<NodeIdx>],
    assigned: &[Option<Aligned>],
) -> Vec<(NodeIdx, NodeIdx)> {
    // the first node above `at` that is none of `passing`
    let above = |mut at: Option<NodeIdx>, passing: &[OperatorFamily]| {
        while let Some(p) = at.filter(|&p| passing.contains(&graph.nodes[p].family)) {
            at = parents[p];
        }
        at
    };
    let mut rebuilt = Vec::new();
    for check in 0..graph.nodes.len() {
        let conditions = &graph.nodes[check].details.conditions;
        let only_null_checks =
            !conditions.is_empty() && conditions.iter().all(super::semantics::is_null_check);
        if graph.nodes[check].family != OperatorFamily::Filter || !only_null_checks {
            continue;
        }
        let Some(aggregate) = above(parents[check], &[OperatorFamily::Project])
            .filter(|&a| graph.nodes[a].family == OperatorFamily::Aggregate)
        else {
            continue;
        };
        let passing = [
            OperatorFamily::Exchange,
            OperatorFamily::Engine,
            OperatorFamily::Aggregate,
        ];
        let Some(join) = above(parents[aggregate], &passing)
            .filter(|&j| graph.nodes[j].family == OperatorFamily::Join)
        else {
            continue;
        };
        let Some(keys) = join_key_columns(graph, join) else {
            continue;
        };
        let checked = columns_of(conditions);
        let grouped = columns_of(&graph.nodes[aggregate].details.grouping_keys);
        // (asked last: the aggregate's flow is the costly test)
        let stated_in_its_flow = || {
            assigned[aggregate].is_some_and(|a| {
                let flow = table.upstream(a.site, None);
                stated_null_check(semantics, table, check, &flow).is_some()
            })
        };
        if !checked.is_empty()
            && checked.is_subset(&keys)
            && checked.is_subset(&grouped)
            && assigned[join].is_some()
            && !stated_in_its_flow()
        {
            rebuilt.push((check, join));
            rebuilt.push((aggregate, join));
        }
    }
    rebuilt
}

/// The columns expressions read.
fn columns_of(exprs: &[crate::plan::Expr]) -> BTreeSet<&str> {
    exprs
        .iter()
        .flat_map(|e| e.columns.iter().map(String::as_str))
        .collect()
}

/// The columns of a join's keys, both sides; `None` for a node printing no join.
fn join_key_columns(graph: &PlanGraph, join: NodeIdx) -> Option<BTreeSet<&str>> {
    let keys = graph.nodes[join].details.join.as_ref()?;
    let mut columns = columns_of(&keys.left_keys);
    columns.extend(columns_of(&keys.right_keys));
    Some(columns)
}

/// The methods deduplicating a DataFrame on some of its columns (`Deduplicate`).
const DEDUPLICATING_METHODS: &[&str] = &[
    "dropDuplicates",
    "drop_duplicates",
    "dropDuplicatesWithinWatermark",
];

/// The aggregates Spark made for a DataFrame's deduplication on some of its columns, each with
/// the query's root: the last operator the code applied over it, below any cache — the one the
/// others feed, wherever the optimizer moved it. Spark's optimizer replaces the `Deduplicate`
/// with an aggregate keeping the `first` of every other column, under the origin of the plan it
/// is optimizing, not the deduplication's own
/// (`clean(df).where(…).count()` with `clean` ending in `.dropDuplicates(["id"])`: the aggregates
/// are the `where`'s; a cached frame's, the last operator before `cache()`). A deduplication on
/// every column (`dropDuplicates()`, `distinct()`: an aggregate of keys only) keeps its site, and
/// so does one that is itself the query's last operator. In Java and Scala, whose origins are
/// the stack's, one whose chain goes on computing columns keeps it too: Spark folds that
/// projection into the aggregate under the projection's origin, the chain's statement
/// (`.dropDuplicates("id").withColumn(…)`); Python's chain does not (its operators take the
/// root's origin alike). SQL's `DISTINCT` is no call and keeps its clause.
fn deduplications_under_their_roots(
    graph: &PlanGraph,
    semantics: &[SemanticDescription],
    table: &SiteTable,
    parents: &[Option<NodeIdx>],
    assigned: &[Option<Aligned>],
) -> Vec<(NodeIdx, NodeIdx)> {
    let deduplicating = |site: SiteId| {
        matches!(&table.sites[site].kind, SiteKind::Call { method, .. }
            if DEDUPLICATING_METHODS.contains(&method.as_str()))
    };
    // in Java or Scala, the next call of its chain computes columns: Spark folds that
    // projection into the aggregate, under the projection's origin — the chain's statement
    let projected_next = |site: SiteId| {
        let SiteKind::Call {
            chain, position, ..
        } = &table.sites[site].kind
        else {
            return false;
        };
        let on_the_jvm = matches!(
            table.language_of(table.sites[site].file),
            Some(Language::Java | Language::Scala)
        );
        on_the_jvm
            && table
                .chain_sites(*chain)
                .get(position + 1)
                .is_some_and(|&next| table.sites[next].families.contains(OperatorFamily::Project))
    };
    let mut moved = Vec::new();
    for idx in 0..graph.nodes.len() {
        let functions = &graph.nodes[idx].details.aggregate_functions;
        let keeps_firsts = || {
            !functions.is_empty()
                && functions.iter().all(|f| {
                    f.functions
                        .first()
                        .is_some_and(|name| name.ends_with("first"))
                })
        };
        let own_site = assigned[idx].map(|a| a.site);
        if graph.nodes[idx].family != OperatorFamily::Aggregate
            || !keeps_firsts()
            || own_site.is_some_and(|site| !deduplicating(site))
        {
            continue;
        }
        // the operators the code wrote above it, below any cache (the UI's DAG shows a cached
        // plan under the scan reading it back), bottom up
        let mut above: Vec<NodeIdx> = Vec::new();
        let mut at = parents[idx];
        while let Some(p) = at.filter(|&p| {
            !matches!(
                graph.nodes[p].family,
                OperatorFamily::Cache | OperatorFamily::Scan
            )
        }) {
            let written =
                semantics[p].node_kind == NodeKind::Code && semantics[p].induced_by.is_none();
            if written && assigned[p].is_some_and(|a| Some(a.site) != own_site) {
                above.push(p);
            }
            at = parents[p];
        }
        // The last one the code applied: the one all others feed. The optimizer may have moved
        // it down (a filter pushed below a projection); the topmost when the flow cannot tell.
        // (the flow upstream of a site is the costly test: asked top down, until one answers)
        let site_of = |n: NodeIdx| assigned[n].map(|a| a.site).expect("assigned above");
        let sites: BTreeSet<SiteId> = above.iter().map(|&n| site_of(n)).collect();
        let fed_by_all = above.iter().rev().find_map(|&n| {
            let upstream = table.upstream(site_of(n), None);
            sites
                .iter()
                .all(|s| *s == site_of(n) || upstream.contains(s))
                .then_some((n, upstream))
        });
        let Some((root, upstream)) = fed_by_all.or_else(|| {
            let top = *above.last()?;
            Some((top, table.upstream(site_of(top), None)))
        }) else {
            continue;
        };
        // The deduplication: the aggregate's own site, else the one in the root's flow (the
        // aggregate may have found no site of the query to align with).
        let dedup_site =
            own_site.or_else(|| upstream.iter().copied().find(|&site| deduplicating(site)));
        if dedup_site.is_some_and(|site| !projected_next(site)) {
            moved.push((idx, root));
        }
    }
    moved
}

/// Top-down alignment of the subtree at `idx`; `allowed` holds the sites upstream of the parent's
/// site (None at a root).
#[allow(clippy::too_many_arguments)]
fn align(
    graph: &PlanGraph,
    semantics: &[SemanticDescription],
    plan: &PlanEvidence,
    table: &SiteTable,
    unit: &BTreeSet<SiteId>,
    idx: NodeIdx,
    allowed: Option<&BTreeSet<SiteId>>,
    alignment: &mut Alignment,
) {
    if alignment.assigned[idx].is_some() {
        return; // shared node (scan listed under both AQE plans): aligned once
    }
    let sem = &semantics[idx];
    let writes_code = sem.node_kind == NodeKind::Code && sem.induced_by.is_none();
    let mut child_allowed: Option<BTreeSet<SiteId>> = allowed.cloned();
    let mut join_site: Option<SiteId> = None;
    let over_library = plan.library[idx].is_some();
    if writes_code && !matches!(plan.library[idx], Some(LibraryRows::Scanned(_))) {
        let (family, evidence) = &plan.targets[idx];
        let mut stating: Vec<bool> = Vec::new();
        let mut scored: Vec<(Aligned, f64)> = unit
            .iter()
            .map(|&s| {
                let (score, ov) = site_score(*family, evidence, &table.sites[s], table);
                // A partial aggregate is its final step's statement, wherever the flow is.
                let final_steps_site = plan.final_steps[idx]
                    .and_then(|f| alignment.assigned[f])
                    .is_some_and(|a| a.site == s);
                let in_flow = allowed.is_none_or(|a| a.contains(&s)) || final_steps_site;
                let score = if in_flow { score } else { score * OUT_OF_FLOW };
                if over_library {
                    stating.push(ov.coverage > 0.0);
                }
                (
                    Aligned { site: s, in_flow },
                    score - depth_mismatch(plan.nested[idx], table.sites[s].depth),
                )
            })
            .collect();
        // Over a library's rows, only a statement stating some of the node's evidence wrote it
        // (`predictions.groupBy("userId")`); with none, the node is the library's and serves the
        // operator above it (below) — at the plan's top, with nothing above, it is aligned as
        // any node.
        if over_library
            && (stating.contains(&true) || served_by_library(plan, alignment, idx).is_some())
        {
            let mut states = stating.iter();
            scored.retain(|_| states.next().copied().unwrap_or(false));
        }
        scored.retain(|(_, v)| *v > 0.0);
        // Ties go to the site furthest downstream: a tree is aligned from its root down.
        let best = scored.iter().copied().max_by(|a, b| {
            a.1.total_cmp(&b.1)
                .then(downstream_order(table, a.0.site, b.0.site))
        });
        // A site the node's evidence contradicts is no anchor: the node may come from code
        // outside the unit (a helper upstream of a function's parameter), which the ranking of
        // all sites finds on evidence.
        let best = best.filter(|(chosen, _)| {
            !conflicts_beyond_rewrite(*family, evidence, &table.sites[chosen.site].evidence)
        });
        if let Some((chosen, value)) = best {
            let tied = flow_ties(table, &scored, chosen, value);
            if !tied.is_empty() {
                alignment.ties.insert(idx, tied);
            }
            alignment.assigned[idx] = Some(chosen);
            child_allowed = Some(table.upstream(chosen.site, None));
            // A join's and a union's first input is the receiver's flow, the others the
            // arguments' (`a.union(b)`: `a` first).
            if matches!(sem.family, OperatorFamily::Join | OperatorFamily::Union) {
                join_site = Some(chosen.site);
            }
        }
    }
    // Rows a library made, and operators over them no statement of the unit states, are the
    // library's: they take the site of the operator above them the code wrote.
    if writes_code
        && over_library
        && alignment.assigned[idx].is_none()
        && let Some((served, site)) = served_by_library(plan, alignment, idx)
    {
        alignment.assigned[idx] = Some(site);
        alignment.library.insert(idx, served);
    }
    let children = graph.nodes[idx].children.clone();
    // A SQL union's inputs are its branches in order: each input's code is in its own branch or
    // outside them all (a CTE the branch reads), never in another branch.
    let branches = join_site
        .and_then(|site| table.set_operation_branches(site))
        .filter(|branches| branches.len() == children.len());
    // A DataFrame union's inputs are the frames Spark combined into it, one per child; a child
    // beyond them has no input in this code, so nothing is in its flow.
    let union_inputs = join_site
        .filter(|_| sem.family == OperatorFamily::Union)
        .and_then(|site| table.union_inputs(site))
        .filter(|inputs| inputs.len() <= children.len());
    for (position, &child) in children.iter().enumerate() {
        let side_flow = match (&branches, &child_allowed, &union_inputs) {
            (Some(branches), Some(allowed), _) => {
                Some(outside_other_branches(allowed, branches, position))
            }
            (_, _, Some(inputs)) => Some(inputs.get(position).cloned().unwrap_or_default()),
            _ => join_site.map(|site| input_flow(table, site, position)),
        };
        align(
            graph,
            semantics,
            plan,
            table,
            unit,
            child,
            side_flow.as_ref().or(child_allowed.as_ref()),
            alignment,
        );
    }
    // Derived and engine nodes take their consumer's site once the consumer is aligned — but a
    // null check Spark could have inferred that the code states is the code's.
    let assigned = &mut alignment.assigned;
    if assigned[idx].is_none() {
        let in_flow = allowed.unwrap_or(unit);
        let stated = stated_null_check(semantics, table, idx, in_flow)
            .or_else(|| stated_drop(graph, semantics, table, idx, in_flow))
            .or_else(|| stated_selection(graph, &plan.parents, semantics, table, idx, unit));
        if let Some(site) = stated {
            assigned[idx] = Some(Aligned {
                site,
                in_flow: true,
            });
        }
    }
    if assigned[idx].is_none()
        && let Some(consumer) = &sem.induced_by
        && let Some(c) = graph.node_by_id(&consumer.dag_node_id)
    {
        assigned[idx] = match pruned_for(graph, semantics, table, idx, assigned) {
            Some(PrunedFor::Operator(writer)) => assigned[writer],
            Some(PrunedFor::Selection(site)) => Some(site),
            Some(PrunedFor::Nothing) | None => assigned[c],
        };
    }
}

/// The operator the code wrote that a node library code built serves, and its site: the nearest
/// ancestor aligned so far (derived ones are aligned after their inputs), or the operator that
/// ancestor, itself the library's, serves.
fn served_by_library(
    plan: &PlanEvidence,
    alignment: &Alignment,
    idx: NodeIdx,
) -> Option<(NodeIdx, Aligned)> {
    let mut at = plan.parents[idx];
    while let Some(parent) = at {
        if let Some(site) = alignment.assigned[parent] {
            let served = alignment.library.get(&parent).copied().unwrap_or(parent);
            return Some((served, site));
        }
        at = plan.parents[parent];
    }
    None
}

/// The statement whose names a Project's results carry, from `chosen` on: Spark collapses
/// adjacent projections into one and keeps the last alias of each name, so when a later
/// statement of the same file, downstream of `chosen` in its flow, names a result `chosen` names
/// too (`withColumn("t", trim(…))`, then `withColumn("t", quoted("t"))`), that statement wrote
/// the node — the last one, when several do. DataFrame calls only: a SQL statement's select list
/// is one projection, its names written once.
fn last_alias_writer(
    table: &SiteTable,
    evidence: &PlanEvidence,
    n: NodeIdx,
    chosen: Aligned,
    unit: &BTreeSet<SiteId>,
) -> Aligned {
    let results: BTreeSet<&str> = evidence.targets[n]
        .1
        .tokens
        .iter()
        .filter(|(k, _)| *k == TokenKind::Alias)
        .map(|(_, v)| v.as_str())
        .collect();
    if results.is_empty() {
        return chosen;
    }
    let aliases = |site: SiteId| -> BTreeSet<&str> {
        table.sites[site]
            .evidence
            .tokens
            .iter()
            .filter(|(k, v)| *k == TokenKind::Alias && results.contains(v.as_str()))
            .map(|(_, v)| v.as_str())
            .collect()
    };
    let is_call = |site: SiteId| matches!(table.sites[site].kind, SiteKind::Call { .. });
    let mut writer = chosen;
    if !is_call(writer.site) {
        return writer;
    }
    for _ in 0..RENAMING_STEPS {
        let named = aliases(writer.site);
        if named.is_empty() {
            return writer;
        }
        let at = &table.sites[writer.site];
        let renaming = unit
            .iter()
            .copied()
            // (the cheap test first)
            .filter(|&s| {
                let site = &table.sites[s];
                site.file == at.file && site.lines.start > at.lines.end && is_call(s)
            })
            .filter(|&s| evidence.scores[n].contains_key(&s))
            .filter(|&s| !aliases(s).is_disjoint(&named))
            .filter(|&s| table.upstream(s, None).contains(&writer.site))
            .min_by(|a, b| downstream_order(table, *a, *b));
        match renaming {
            Some(site) => writer.site = site,
            None => break,
        }
    }
    writer
}

/// Most statements [`last_alias_writer`] follows a result's name through.
const RENAMING_STEPS: usize = 8;

/// The flow of a join's or a union's input at `position`: the receiver's for the first, the
/// arguments' for the others (`a.union(b)`: `a` first); all that is upstream when that side has
/// none.
fn input_flow(table: &SiteTable, site: SiteId, position: usize) -> BTreeSet<SiteId> {
    let role = if position == 0 {
        FlowRole::Receiver
    } else {
        FlowRole::Argument
    };
    let side = table.upstream(site, Some(role));
    if side.is_empty() {
        table.upstream(site, None)
    } else {
        side
    }
}

/// `allowed` without the SQL union's branches other than the one at `position`.
fn outside_other_branches(
    allowed: &BTreeSet<SiteId>,
    branches: &[Vec<SiteId>],
    position: usize,
) -> BTreeSet<SiteId> {
    let mut own = allowed.clone();
    for (other, branch) in branches.iter().enumerate() {
        if other != position {
            for site in branch {
                own.remove(site);
            }
        }
    }
    own
}

/// The site stating a null check Spark could also have inferred (`WHERE genres IS NOT NULL` under
/// an `explode(genres)`, `WHERE UserId IS NOT NULL` under a join on it): the planner keeps one
/// Filter for both, and it is the user's when the flow holds a filter testing those columns for
/// nulls; none when it does not (the check is the consumer's, [`super::semantics`]).
fn stated_null_check(
    semantics: &[SemanticDescription],
    table: &SiteTable,
    idx: NodeIdx,
    candidates: &BTreeSet<SiteId>,
) -> Option<SiteId> {
    let sem = &semantics[idx];
    let inferred = sem
        .induced_by
        .as_ref()
        .is_some_and(|c| super::semantics::is_inferred_constraint_reason(&c.reason));
    if !inferred || sem.family != OperatorFamily::Filter {
        return None;
    }
    let own = super::semantics::evidence_of(&sem.signature);
    let columns: Vec<&String> = own
        .tokens
        .iter()
        .filter(|(k, _)| *k == TokenKind::Column)
        .map(|(_, v)| v)
        .collect();
    if columns.is_empty() {
        return None;
    }
    candidates
        .iter()
        .copied()
        .filter(|&s| {
            let site = &table.sites[s];
            site.families.contains(OperatorFamily::Filter)
                && site.evidence.has(TokenKind::Function, "isnotnull")
                && columns
                    .iter()
                    .all(|c| site.evidence.has(TokenKind::Column, c))
                && !conflicts(OperatorFamily::Filter, &own, &site.evidence)
        })
        .max_by(|&a, &b| {
            let score =
                |s: SiteId| site_score(OperatorFamily::Filter, &own, &table.sites[s], table).0;
            score(a)
                .total_cmp(&score(b))
                .then(downstream_order(table, a, b))
        })
}

/// Puts `node` where `served` stands in the alignment, and with it the nodes the planner inserted
/// for `node` that stood with it (a null check the code states keeps its own clause).
fn stand_with(
    graph: &PlanGraph,
    semantics: &[SemanticDescription],
    assigned: &mut [Option<Aligned>],
    node: NodeIdx,
    served: NodeIdx,
) {
    let node_id = graph.nodes[node].id.to_string();
    let node_site = assigned[node].map(|a| a.site);
    for idx in 0..graph.nodes.len() {
        let inserted_for_it = assigned[idx].map(|a| a.site) == node_site
            && semantics[idx]
                .induced_by
                .as_ref()
                .is_some_and(|c| c.dag_node_id == node_id);
        if idx == node || inserted_for_it {
            assigned[idx] = assigned[served];
        }
    }
}

/// The nodes Spark's analyzer made anew for a union, each with that union: when an input after
/// the first repeats an earlier input's lineage (`rows[0].unionByName(r)` for frames `r` all made
/// from one `flagged`, `df_model.union(df_pred)` both made from `df_encoded`), the analyzer gives
/// the repeated relations new instances, and the projections, aggregates and generators it makes
/// anew over them carry the union's origin — Spark itself places them at the union. A node
/// repeats the lineage when an earlier input holds a node of the same lineage ([`lineage_key`]:
/// its statement, what it computes and all it reads, attribute ids aside) — not merely of the
/// same statement (a loop's `idf.select(i)` selects another column each time; a loop's
/// `df.where(c > limit).groupBy(k).count()` aggregates other rows); filters and scans keep their
/// own (the analyzer copies them as they are).
fn reinstantiated_for_union(
    graph: &PlanGraph,
    semantics: &[SemanticDescription],
    assigned: &[Option<Aligned>],
) -> Vec<(NodeIdx, NodeIdx)> {
    let remade = |idx: NodeIdx| {
        semantics[idx].induced_by.is_none()
            && matches!(
                semantics[idx].family,
                OperatorFamily::Project | OperatorFamily::Aggregate | OperatorFamily::Generate
            )
    };
    let mut keys = HashMap::new();
    let mut out = Vec::new();
    for (union, node) in graph.nodes.iter().enumerate() {
        let Some(union_site) = assigned[union].map(|a| a.site) else {
            continue;
        };
        if node.family != OperatorFamily::Union {
            continue;
        }
        let mut earlier: HashSet<u64> = HashSet::new();
        // (a node a later input shares with an earlier one — the UI's one node for an exchange
        // and its reuse — is the earlier input's own)
        let mut seen: HashSet<NodeIdx> = HashSet::new();
        for (position, &input) in node.children.iter().enumerate() {
            let lineage: Vec<(NodeIdx, u64)> = graph
                .subtree(input)
                .into_iter()
                .filter(|&idx| seen.insert(idx))
                .filter(|&idx| remade(idx))
                .filter(|&idx| assigned[idx].is_some_and(|a| a.site != union_site))
                .map(|idx| (idx, lineage_key(graph, assigned, idx, &mut keys)))
                .collect();
            if position > 0 {
                out.extend(
                    lineage
                        .iter()
                        .filter(|(_, key)| earlier.contains(key))
                        .map(|&(idx, _)| (idx, union)),
                );
            }
            earlier.extend(lineage.iter().map(|&(_, key)| key));
        }
    }
    out
}

/// A node's lineage, attribute ids aside: its operator, its statement, what it computes
/// ([`computed`]) and the lineages of its inputs, through engine wrappers; a reused exchange's is
/// the exchange's it reuses. Equal keys are one lineage made twice. Walked without recursion (a
/// plan may be deep); a node met again on its own path (a reuse link into itself) counts as empty.
fn lineage_key(
    graph: &PlanGraph,
    assigned: &[Option<Aligned>],
    root: NodeIdx,
    keys: &mut HashMap<NodeIdx, u64>,
) -> u64 {
    let mut entered = HashSet::new();
    let mut stack = vec![(root, false)];
    while let Some((idx, inputs_done)) = stack.pop() {
        if keys.contains_key(&idx) {
            continue;
        }
        let node = &graph.nodes[idx];
        if !inputs_done {
            if entered.insert(idx) {
                stack.push((idx, true));
                stack.extend(
                    node.reuses
                        .iter()
                        .chain(&node.children)
                        .map(|&i| (i, false)),
                );
            }
            continue;
        }
        let key_of = |i: &NodeIdx| keys.get(i).copied().unwrap_or(0);
        let inputs: Vec<u64> = node.children.iter().map(key_of).collect();
        let key = match node.reuses {
            Some(reused) => key_of(&reused),
            None if node.node_kind == NodeKind::Engine && inputs.len() == 1 => inputs[0],
            None => {
                let mut hasher = std::hash::DefaultHasher::new();
                node.operator.hash(&mut hasher);
                assigned[idx].map(|a| a.site).hash(&mut hasher);
                computed(node).hash(&mut hasher);
                inputs.hash(&mut hasher);
                hasher.finish()
            }
        };
        keys.insert(idx, key);
    }
    keys.get(&root).copied().unwrap_or(0)
}

/// What a node computes, its attribute ids left out: its expressions, conditions, keys and
/// results by name.
fn computed(node: &PlanNode) -> String {
    let d = &node.details;
    let expressions = d
        .projections
        .iter()
        .chain(&d.conditions)
        .chain(&d.grouping_keys)
        .chain(&d.aggregate_functions)
        .chain(d.generator.as_deref())
        .map(|e| e.text.as_str());
    let results = d.output.iter().map(|a| a.name.as_str());
    expressions
        .chain(results)
        .collect::<Vec<_>>()
        .join("\u{1f}")
}

/// The aggregate a SQL query's generator serves, when the optimizer made the generator anew for
/// it: `SELECT explode(genres) AS g FROM t` in a subquery (or a `LATERAL VIEW explode(…)`) whose
/// query groups by `g`. Pruning the columns the aggregate does not read, Spark rebuilds the
/// Generate while rewriting the aggregate above it (through projections and filters only), and
/// the new node carries the aggregate's origin, not the `explode`'s: Spark itself places it at
/// the aggregate's clause. Both must be aligned to clauses of one SQL statement; DataFrame code
/// keeps a projection of its own over a generator (`withColumn(…, explode(…)).select(…)`), which
/// Spark rebuilds it under, so its generator stays the `explode`'s.
fn regenerated_for_aggregate(
    graph: &PlanGraph,
    semantics: &[SemanticDescription],
    table: &SiteTable,
    parents: &[Option<NodeIdx>],
    assigned: &[Option<Aligned>],
    idx: NodeIdx,
) -> Option<NodeIdx> {
    let sem = &semantics[idx];
    if sem.family != OperatorFamily::Generate || sem.induced_by.is_some() {
        return None;
    }
    let statement = |node: NodeIdx| match assigned[node].map(|a| &table.sites[a.site].kind) {
        Some(SiteKind::Sql { statement, .. }) => Some(*statement),
        _ => None,
    };
    let own = statement(idx)?;
    let mut above = parents[idx];
    while let Some(parent) = above {
        let node = &graph.nodes[parent];
        let passes = node.node_kind == NodeKind::Engine
            || matches!(
                node.family,
                OperatorFamily::Project | OperatorFamily::Filter
            );
        if !passes {
            let reads_it =
                node.family == OperatorFamily::Aggregate && statement(parent) == Some(own);
            return reads_it.then_some(parent);
        }
        above = parents[parent];
    }
    None
}

/// The plain `select(…)` of the unit naming exactly the columns a pruning Project passes on
/// (`test.filter(…).select(['movieId', 'userId'])` over a `randomSplit`'s sample): Spark pushes
/// a selection below the operators that keep every column (the sample, the filter) and, when
/// its columns keep their input's order, leaves nothing of it where it was written — the Project
/// below is the selection the user wrote, moved, not the planner's pruning for the operator above
/// it. A Project above passing the same columns on is that selection instead (one reordering
/// them stays where it was written, pruned for below). The statement furthest downstream of the
/// unit's selections alike.
fn stated_selection(
    graph: &PlanGraph,
    parents: &[Option<NodeIdx>],
    semantics: &[SemanticDescription],
    table: &SiteTable,
    idx: NodeIdx,
    candidates: &BTreeSet<SiteId>,
) -> Option<SiteId> {
    if !planner_projection(semantics, idx) {
        return None;
    }
    let kept = passed_on_columns(&graph.nodes[idx])?;
    let mut above = parents[idx];
    while let Some(parent) = above {
        if passed_on_columns(&graph.nodes[parent]).as_ref() == Some(&kept) {
            return None;
        }
        above = parents[parent];
    }
    candidates
        .iter()
        .copied()
        .filter(|&s| {
            let site = &table.sites[s];
            let selects = matches!(&site.kind, SiteKind::Call { method, .. }
                if method.eq_ignore_ascii_case("select"));
            let named: BTreeSet<String> = site
                .evidence
                .tokens
                .iter()
                .map(|(kind, v)| (*kind == TokenKind::Column).then(|| v.clone()))
                .collect::<Option<_>>()
                .unwrap_or_default();
            selects && named == kept
        })
        .max_by(|&a, &b| downstream_order(table, a, b))
}

/// The columns a Project passing columns on as they are keeps (normalised as evidence names
/// them); `None` for one computing anything.
fn passed_on_columns(node: &PlanNode) -> Option<BTreeSet<String>> {
    super::semantics::only_passes_columns_on(node).then(|| {
        node.details
            .projections
            .iter()
            .flat_map(|p| p.columns.iter())
            .map(|c| super::evidence::normalise_column(c))
            .collect()
    })
}

/// Whether node `idx` is a Project the planner put in for its consumer (its pruning), which the
/// code may state itself ([`stated_drop`], [`stated_selection`]).
fn planner_projection(semantics: &[SemanticDescription], idx: NodeIdx) -> bool {
    let sem = &semantics[idx];
    sem.induced_by.is_some() && sem.family == OperatorFamily::Project
}

/// The `drop(…)` naming every column a pruning Project leaves out, and no other
/// (`.filter(F.col("_rn") == 1).drop("_rn", "ingest_ts")` in a helper whose frame a join
/// reads): the planner's pruning for the operator above and the user's drop are one Project, and
/// the code says it is the drop. A Project leaving out more — a column the planner made for an
/// operator below (`_w0`) besides the dropped one — is the planner's. The statement furthest
/// downstream of the flow's drops alike.
fn stated_drop(
    graph: &PlanGraph,
    semantics: &[SemanticDescription],
    table: &SiteTable,
    idx: NodeIdx,
    candidates: &BTreeSet<SiteId>,
) -> Option<SiteId> {
    if !planner_projection(semantics, idx) {
        return None;
    }
    let left_out = super::semantics::columns_left_out(graph, &graph.nodes[idx]);
    if left_out.is_empty() {
        return None;
    }
    let drops = |site: &super::sites::Site| -> BTreeSet<String> {
        site.evidence
            .tokens
            .iter()
            .filter(|(k, _)| *k == TokenKind::Literal)
            .filter_map(|(_, v)| v.strip_prefix(DROPPED_COLUMN))
            .map(str::to_lowercase)
            .collect()
    };
    candidates
        .iter()
        .copied()
        .filter(|&s| {
            let site = &table.sites[s];
            matches!(&site.kind, SiteKind::Call { method, .. } if method.eq_ignore_ascii_case("drop"))
                && drops(site) == left_out
        })
        .max_by(|&a, &b| downstream_order(table, a, b))
}

/// What rows a scan of objects are turned into serve when Spark pruned them ([`pruned_for`]).
#[derive(Debug, Clone, Copy)]
enum PrunedFor {
    /// The user's operator above that narrows the columns (an aggregate, a projection).
    Operator(NodeIdx),
    /// A selection Spark folded into the rows themselves, nothing of it left in the plan.
    Selection(Aligned),
    /// Nothing: the rows keep every field of the repository's class, so they are the `toDF`'s.
    Nothing,
}

/// What rows a scan of objects are turned into (`rdd.toDF()` of case classes) serve when Spark
/// pruned them for it: the first operator above (past filters, sorts and shuffles, which keep
/// every column) that narrows the columns — an aggregate (`customerDF.groupBy("state")
/// .agg("discount" -> "max")` reads `state, discount` of five fields, and the serializer keeps
/// only those), or a projection not passing every kept column through, DataFrame code's or a
/// SQL query's over a view of the frame — for objects of the user's own class
/// ([`users_class`]). With nothing above narrowing them, a `select` of the frame naming every
/// column the rows keep and the fewest others (`customerDF.select("id")` for rows of `id` alone)
/// was folded into them ([`folded_selection`]). Rows none of these explains
/// (`customerDF.filter(…).show()`), and rows of single values (`sc.parallelize(1 to 10).toDF`),
/// are the `toDF`'s.
fn pruned_for(
    graph: &PlanGraph,
    semantics: &[SemanticDescription],
    table: &SiteTable,
    idx: NodeIdx,
    assigned: &[Option<Aligned>],
) -> Option<PrunedFor> {
    if !semantics[idx].turns_scanned_objects_into_rows() {
        return None;
    }
    let details = &graph.nodes[idx].details;
    // single values (`obj#1: int`) keep their one column whatever reads them: the `toDF`'s
    if details
        .arguments
        .values()
        .any(|a| super::hints::carries_single_values(a))
    {
        return Some(PrunedFor::Nothing);
    }
    let kept = super::semantics::serialized_fields(details);
    // The class's fields, when the repository defines it: every one kept is nothing pruned (the
    // `toDF`'s), fewer is pruned for sure — by whatever narrows them, a renaming `select` too.
    let fields: Option<BTreeSet<String>> = details
        .arguments
        .values()
        .find_map(|a| super::hints::printed_class(a))
        .and_then(|class| table.record_fields(class))
        .map(|fields| {
            fields
                .iter()
                .map(|f| super::evidence::normalise_column(f))
                .collect()
        });
    let pruned = match &fields {
        Some(fields) if kept.is_superset(fields) => return Some(PrunedFor::Nothing),
        Some(fields) => kept.is_subset(fields),
        None => false,
    };
    let parent_of = |i: NodeIdx| graph.nodes.iter().position(|n| n.children.contains(&i));
    let scanned = semantics[idx]
        .induced_by
        .as_ref()
        .and_then(|c| graph.node_by_id(&c.dag_node_id))
        .and_then(|c| assigned[c]);
    let selection =
        || folded_selection(graph, table, idx, &kept, scanned).map(PrunedFor::Selection);
    let Some(mut above) = parent_of(idx) else {
        return selection();
    };
    loop {
        let node = &graph.nodes[above];
        if !node.family.keeps_columns() {
            break;
        }
        match parent_of(above) {
            Some(parent) => above = parent,
            None => return selection(),
        }
    }
    let node = &graph.nodes[above];
    let narrows = match node.family {
        OperatorFamily::Aggregate => true,
        OperatorFamily::Project => {
            let passed: BTreeSet<String> = node
                .details
                .projections
                .iter()
                .filter(|p| p.alias.is_none() || p.columns.len() == 1 && p.functions.is_empty())
                .filter_map(|p| p.columns.first())
                .map(|c| super::evidence::normalise_column(c))
                .collect();
            pruned || !kept.iter().all(|k| passed.contains(k))
        }
        _ => false,
    };
    // a partial aggregate serves its final step: that step is the user's operator
    let writer = match &semantics[above].induced_by {
        Some(consumer) => graph.node_by_id(&consumer.dag_node_id)?,
        None => above,
    };
    let writes_code =
        semantics[writer].node_kind == NodeKind::Code && semantics[writer].induced_by.is_none();
    (narrows && writes_code && users_class(graph, idx)).then_some(PrunedFor::Operator(writer))
}

/// Whether rows of scanned objects carry the user's own class (`dataframe.Basic$Cust`): a frame
/// of tuples renamed by `toDF("id", …)` folds that renaming — the `toDF`'s — into its rows, and
/// one of `int`s has nothing to prune.
fn users_class(graph: &PlanGraph, idx: NodeIdx) -> bool {
    graph.nodes[idx]
        .details
        .arguments
        .values()
        .any(|a| super::hints::object_class(a).is_some())
}

/// A `select` Spark folded into rows of scanned objects (`customerDF.select("id").show()` plans
/// a serializer of `id` alone, no Project): among the calls of statements reading the `toDF`'s
/// frame, the selection naming every column the rows keep and the fewest others, the first in
/// program order of those.
fn folded_selection(
    graph: &PlanGraph,
    table: &SiteTable,
    idx: NodeIdx,
    kept: &BTreeSet<String>,
    scanned: Option<Aligned>,
) -> Option<Aligned> {
    let made = scanned?;
    let SiteKind::Call { chain: made_in, .. } = table.sites[made.site].kind else {
        return None;
    };
    if !users_class(graph, idx) || kept.is_empty() {
        return None;
    }
    let extra = |s: SiteId| {
        let site = &table.sites[s];
        let selects = matches!(&site.kind, SiteKind::Call { method, .. }
            if method.eq_ignore_ascii_case("select") || method.eq_ignore_ascii_case("selectExpr"));
        let named: BTreeSet<&String> = site
            .evidence
            .tokens
            .iter()
            .filter(|(k, _)| matches!(k, TokenKind::Column | TokenKind::Alias))
            .map(|(_, v)| v)
            .collect();
        let all = kept.iter().all(|name| named.contains(name));
        (selects && all).then(|| named.iter().filter(|n| !kept.contains(**n)).count())
    };
    (0..table.chain_count())
        .filter(|&c| c != made_in && table.feeds(c).iter().any(|(_, fed)| *fed == made_in))
        .flat_map(|c| table.chain_sites(c).iter().copied())
        .filter_map(|s| extra(s).map(|n| (s, n)))
        .min_by(|(a, na), (b, nb)| na.cmp(nb).then(downstream_order(table, *a, *b)))
        .map(|(site, _)| Aligned {
            site,
            in_flow: made.in_flow,
        })
}

/// Whether each node comes from nested SQL: a subquery's plan ([`PlanGraph::in_subquery`]), or
/// the right input of a left semi or anti join — how Spark plans `x IN (SELECT …)` and
/// `[NOT] EXISTS (…)`, whose subquery then reads the same tables as the outer query.
fn nested_nodes(graph: &PlanGraph) -> Vec<bool> {
    let mut nested = graph.in_subquery();
    let mut stack: Vec<NodeIdx> = graph
        .nodes
        .iter()
        .filter(|n| n.details.join.as_ref().is_some_and(|j| j.is_semi_or_anti()))
        .filter_map(|n| n.children.get(1).copied())
        .collect();
    while let Some(idx) = stack.pop() {
        if !std::mem::replace(&mut nested[idx], true) {
            stack.extend(graph.nodes[idx].children.iter().copied());
        }
    }
    nested
}

/// A subquery's plan comes from nested SQL and the outer plan from the outer query: when both
/// look alike (a HAVING subquery repeating the outer joins), the nesting level breaks the tie.
fn depth_mismatch(nested_node: bool, depth: u32) -> f64 {
    if nested_node == (depth > 0) {
        0.0
    } else {
        0.02
    }
}

/// Order sites so that the more downstream one compares greater.
fn downstream_order(table: &SiteTable, a: SiteId, b: SiteId) -> std::cmp::Ordering {
    let key = |s: SiteId| {
        let site = &table.sites[s];
        (site.lines.start, site.precise.start, s)
    };
    key(a).cmp(&key(b))
}
