//! Spark UI REST JSON: `/api/v1/applications/<app>/sql/<id>?details=true&planDescription=true`
//! (one execution), the `/sql` list (an array of them), or the benchmark's wrapper
//! `{"appId", "sparkVersion", "execution": {…}}`.
//!
//! Node ids are the UI's `nodeId`s. Each UI node carries `desc`, the operator's one-line form,
//! read like an `explain()` line; `metrics` become [`NodeDetails::metrics`]. Edges run
//! `fromId` (child) → `toId` (parent); a `Subquery` wrapper's edge links it as a subquery of its
//! consumer. `WholeStageCodegen (k)` clusters are nodes too: the UI lists their members by
//! `wholeStageCodegenId`, and a cluster is placed in the tree above its top members (its
//! `members` list all of them). Query stages and `InputAdapter` have no UI node; a reused
//! exchange appears only as the exchange it reuses.
//!
//! When the execution carries its `planDescription` (the formatted plan), the main plan's nodes
//! are aligned with it — both trees walked in pre-order, skipping what only one form has (query
//! stages, `InputAdapter`, codegen clusters, a cache's `InMemoryRelation`, AQE's Initial Plan,
//! the plans the UI draws below an RDD's scan or an `EmptyRelation`) — and details `desc` does
//! not show (inputs, result aliases, partition filters, read schema) are filled in. The alignment
//! is used only when the two walks agree operator for operator; otherwise `desc` alone is kept.
//!
//! [`NodeDetails::metrics`]: super::graph::NodeDetails::metrics

use std::collections::{HashMap, HashSet};

use serde::Deserialize;

use super::builder::{
    MAX_PLAN_OPERATORS, is_subquery_wrapper, link_child, link_subquery, new_node,
};
use super::details::{from_node_text, spelled_out_names_in_text};
use super::error::PlanError;
use super::graph::{
    EXECUTED_COMMAND, EXECUTED_COMMAND_ARGUMENTS, ExecutionInfo, NodeDetails, NodeIdx, PlanFormat,
    PlanGraph, PlanNode, PlanSection,
};
use super::operators::classify;
use super::simple::node_name;
use super::{ExecutionSummary, ParseOptions};

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UiExecution {
    pub id: Option<u64>,
    #[serde(default)]
    pub description: Option<String>,
    /// The execution's plan in formatted form (`planDescription=true`).
    #[serde(default)]
    pub plan_description: Option<String>,
    /// Milliseconds the execution ran (the UI's `duration`).
    #[serde(default)]
    pub duration: Option<u64>,
    pub nodes: Vec<UiNode>,
    #[serde(default)]
    pub edges: Vec<UiEdge>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UiNode {
    pub node_id: u64,
    pub node_name: String,
    #[serde(default)]
    pub whole_stage_codegen_id: Option<u64>,
    #[serde(default)]
    pub metrics: Vec<UiMetric>,
    #[serde(default)]
    pub desc: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(crate) struct UiMetric {
    pub name: String,
    pub value: serde_json::Value,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UiEdge {
    pub from_id: u64,
    pub to_id: u64,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum UiDocument {
    Wrapped {
        #[serde(rename = "sparkVersion", default)]
        spark_version: Option<String>,
        execution: UiExecution,
    },
    List(Vec<UiExecution>),
    One(UiExecution),
}

/// Read the document and pick the execution (`options.execution_id`, or the only one).
fn load(text: &str, options: &ParseOptions) -> Result<(UiExecution, Option<String>), PlanError> {
    let (mut executions, version) = read_document(text)?;
    let available: Vec<u64> = executions.iter().filter_map(|e| e.id).collect();
    let pos = match options.execution_id {
        Some(wanted) => executions.iter().position(|e| e.id == Some(wanted)).ok_or(
            PlanError::ExecutionNotFound {
                requested: wanted,
                available,
            },
        )?,
        None if executions.len() == 1 => 0,
        None => return Err(PlanError::ExecutionRequired { available }),
    };
    Ok((executions.swap_remove(pos), version))
}

fn read_document(text: &str) -> Result<(Vec<UiExecution>, Option<String>), PlanError> {
    // Validate the JSON first so syntax errors carry serde's exact line and column.
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| PlanError::from_serde(&e, 1))?;
    let doc: UiDocument = serde_json::from_value(value).map_err(|e| {
        PlanError::json(
            1,
            1,
            format!("not a Spark UI SQL execution (expected `nodes` and `edges`): {e}"),
        )
    })?;
    Ok(match doc {
        UiDocument::Wrapped {
            spark_version,
            execution,
        } => (vec![execution], spark_version),
        UiDocument::List(list) => (list, None),
        UiDocument::One(one) => (vec![one], None),
    })
}

pub(crate) fn list_ui_executions(text: &str) -> Result<Vec<ExecutionSummary>, PlanError> {
    let (executions, _) = read_document(text)?;
    Ok(executions
        .iter()
        .map(|e| ExecutionSummary {
            execution_id: e.id,
            description: e.description.clone(),
            call_site: None,
            node_count: e.nodes.len(),
        })
        .collect())
}

// Long (~110 lines): nodes, codegen clusters, edges and roots are read in one pass over the
// execution with one id map; the steps only make sense in that order.
pub(crate) fn parse_ui(text: &str, options: &ParseOptions) -> Result<PlanGraph, PlanError> {
    let (exec, spark_version) = load(text, options)?;
    if exec.nodes.len() > MAX_PLAN_OPERATORS {
        return Err(PlanError::json(
            1,
            1,
            format!(
                "the graph holds {} nodes; plan2code reads at most {MAX_PLAN_OPERATORS}",
                exec.nodes.len()
            ),
        ));
    }
    let mut nodes = Vec::with_capacity(exec.nodes.len());
    let mut by_ui_id: HashMap<u64, NodeIdx> = HashMap::new();
    let spelled = spelled_out_names_in_text(exec.nodes.iter().filter_map(|n| n.desc.as_deref()));
    for ui in &exec.nodes {
        if by_ui_id.contains_key(&ui.node_id) {
            return Err(PlanError::json(
                1,
                1,
                format!("node id {} appears twice in `nodes`", ui.node_id),
            ));
        }
        let mut node = new_node(
            ui.node_id.to_string(),
            &ui.node_name,
            PlanSection::Final,
            None,
        );
        if let Some(desc) = &ui.desc {
            let printed = node_name(desc);
            let info = classify(&ui.node_name);
            *node.details = from_node_text(&info, printed, desc, &spelled);
        }
        node.details.metrics = ui
            .metrics
            .iter()
            .map(|m| {
                let value = match &m.value {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                (m.name.clone(), value)
            })
            .collect();
        by_ui_id.insert(ui.node_id, nodes.len());
        nodes.push(node);
    }
    let mut has_parent: HashSet<NodeIdx> = HashSet::new();
    for edge in &exec.edges {
        let (Some(&child), Some(&parent)) =
            (by_ui_id.get(&edge.from_id), by_ui_id.get(&edge.to_id))
        else {
            let missing = if by_ui_id.contains_key(&edge.from_id) {
                edge.to_id
            } else {
                edge.from_id
            };
            return Err(PlanError::json(
                1,
                1,
                format!("edge names node {missing}, which is not in `nodes`"),
            ));
        };
        if is_subquery_wrapper(&nodes[child].name) {
            link_subquery(&mut nodes, parent, child);
        } else {
            link_child(&mut nodes, parent, child);
        }
        has_parent.insert(child);
    }
    if let Some(cycle) = find_cycle(&nodes) {
        let ids: Vec<String> = cycle
            .iter()
            .map(|&i| exec.nodes[i].node_id.to_string())
            .collect();
        return Err(PlanError::json(
            1,
            1,
            format!("`edges` form a cycle: {}", ids.join(" → ")),
        ));
    }
    place_codegen_clusters(&exec, &by_ui_id, &mut nodes, &mut has_parent);
    let roots: Vec<NodeIdx> = (0..nodes.len())
        .filter(|i| !has_parent.contains(i))
        .collect();
    mark_subquery_sections(&mut nodes, &roots);
    if let Some(text) = exec.plan_description.as_deref() {
        enrich_from_plan_description(&mut nodes, &roots, text);
    }
    // Roots in the order the plan reads: the main plan first (the UI lists ids descending).
    let mut roots = roots;
    roots.sort_by_key(|&i| exec.nodes[i].node_id);
    roots.retain(|&i| nodes[i].section == PlanSection::Final);
    Ok(PlanGraph {
        format: PlanFormat::Ui,
        nodes,
        roots,
        execution: ExecutionInfo {
            execution_id: exec.id,
            description: exec.description.clone(),
            call_site: None,
            spark_version,
            root_execution_id: None,
            duration_ms: exec.duration,
            hints: Vec::new(),
        },
        logical_plans: Default::default(),
        warnings: Vec::new(),
    })
}

/// A path of nodes that leads back to its first node through children and subqueries, if any
/// (a plan is a DAG; a node must never become its own descendant).
fn find_cycle(nodes: &[super::PlanNode]) -> Option<Vec<NodeIdx>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        OnPath,
        Done,
    }
    let mut mark = vec![Mark::New; nodes.len()];
    for start in 0..nodes.len() {
        if mark[start] != Mark::New {
            continue;
        }
        // Iterative depth-first search: (node, next edge to follow), the path on the stack.
        let mut stack: Vec<(NodeIdx, usize)> = vec![(start, 0)];
        mark[start] = Mark::OnPath;
        while let Some((node, next)) = stack.last_mut() {
            let edges: Vec<NodeIdx> = nodes[*node]
                .children
                .iter()
                .chain(&nodes[*node].subqueries)
                .copied()
                .collect();
            let Some(&target) = edges.get(*next) else {
                mark[*node] = Mark::Done;
                stack.pop();
                continue;
            };
            *next += 1;
            match mark[target] {
                Mark::OnPath => {
                    let from = stack.iter().position(|(n, _)| *n == target).unwrap_or(0);
                    let mut cycle: Vec<NodeIdx> = stack[from..].iter().map(|(n, _)| *n).collect();
                    cycle.push(target);
                    return Some(cycle);
                }
                Mark::New => {
                    mark[target] = Mark::OnPath;
                    stack.push((target, 0));
                }
                Mark::Done => {}
            }
        }
    }
    None
}

/// Give each `WholeStageCodegen (k)` its members and put it above its top members.
///
/// Members name their cluster only by `k`, and a subquery can reuse `k`, so a member belongs to
/// the cluster with that `k` and the largest node id below its own: Spark numbers a cluster
/// before the operators inside it.
fn place_codegen_clusters(
    exec: &super::ui::UiExecution,
    by_ui_id: &HashMap<u64, NodeIdx>,
    nodes: &mut [super::graph::PlanNode],
    has_parent: &mut HashSet<NodeIdx>,
) {
    let mut clusters: Vec<(u64, u64, NodeIdx)> = Vec::new(); // (k, ui id, idx)
    for ui in &exec.nodes {
        if let Some(k) = codegen_cluster_number(&ui.node_name)
            && let Some(&idx) = by_ui_id.get(&ui.node_id)
        {
            clusters.push((k, ui.node_id, idx));
            nodes[idx].codegen_stage = u32::try_from(k).ok();
        }
    }
    for ui in &exec.nodes {
        let Some(k) = ui.whole_stage_codegen_id else {
            continue;
        };
        let Some(&member) = by_ui_id.get(&ui.node_id) else {
            continue;
        };
        nodes[member].codegen_stage = u32::try_from(k).ok();
        let cluster = clusters
            .iter()
            .filter(|(ck, cid, _)| *ck == k && *cid < ui.node_id)
            .max_by_key(|(_, cid, _)| *cid)
            .or_else(|| clusters.iter().find(|(ck, ..)| *ck == k));
        if let Some(&(_, _, cluster)) = cluster
            && cluster != member
            && !nodes[cluster].members.contains(&member)
        {
            nodes[cluster].members.push(member);
        }
    }
    let parents: Vec<Vec<NodeIdx>> = {
        let mut p = vec![Vec::new(); nodes.len()];
        for (i, n) in nodes.iter().enumerate() {
            for &c in &n.children {
                p[c].push(i);
            }
        }
        p
    };
    for &(_, _, cluster) in &clusters {
        let members = nodes[cluster].members.clone();
        for &m in &members {
            if parents[m].iter().any(|p| members.contains(p)) {
                continue; // fed into another member: not a top member
            }
            // a top member: the cluster takes its place under m's parents
            for &p in &parents[m] {
                for child in nodes[p].children.iter_mut() {
                    if *child == m {
                        *child = cluster;
                    }
                }
                has_parent.insert(cluster);
            }
            link_child(nodes, cluster, m);
            has_parent.insert(m);
        }
    }
    for node in nodes.iter_mut() {
        dedup(&mut node.children);
    }
}

fn dedup(list: &mut thin_vec::ThinVec<NodeIdx>) {
    let mut seen = HashSet::new();
    list.retain(|x| seen.insert(*x));
}

/// `WholeStageCodegen (3)` → 3.
fn codegen_cluster_number(name: &str) -> Option<u64> {
    let rest = name.strip_prefix("WholeStageCodegen")?.trim();
    rest.strip_prefix('(')?
        .strip_suffix(')')?
        .trim()
        .parse()
        .ok()
}

/// Nodes not reachable from the main roots through children are subquery plans.
fn mark_subquery_sections(nodes: &mut [super::graph::PlanNode], roots: &[NodeIdx]) {
    let mut reached = vec![false; nodes.len()];
    let mut stack: Vec<NodeIdx> = roots
        .iter()
        .copied()
        .filter(|&r| !is_subquery_wrapper(&nodes[r].name))
        .collect();
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut reached[i], true) {
            continue;
        }
        stack.extend(nodes[i].children.iter().copied());
    }
    for (i, node) in nodes.iter_mut().enumerate() {
        if !reached[i] {
            node.section = PlanSection::Subquery;
        }
    }
}

/// One step of a pre-order walk: a node, or a node already visited (a reused exchange).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Step {
    Node(NodeIdx),
    Reused,
}

fn walk_ui(nodes: &[PlanNode], roots: &[NodeIdx]) -> Vec<Step> {
    let mut steps = Vec::new();
    let mut seen = vec![false; nodes.len()];
    let mut stack: Vec<NodeIdx> = roots.iter().rev().copied().collect();
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut seen[i], true) {
            steps.push(Step::Reused);
            continue;
        }
        if nodes[i].operator != "WholeStageCodegen" {
            steps.push(Step::Node(i));
        }
        if !draws_what_the_text_does_not(&nodes[i].operator) {
            stack.extend(nodes[i].children.iter().rev().copied());
        }
    }
    steps
}

/// Leaves of the plan text below which the listeners' tree draws more: the plan an RDD was made
/// from below its `Scan ExistingRDD`, the plan AQE found empty below its `EmptyRelation`.
pub(super) fn draws_what_the_text_does_not(operator: &str) -> bool {
    matches!(operator, "RDDScan" | "EmptyRelation")
}

/// A formatted plan's final plan in pre-order, as the other forms of the same plan (the UI's
/// graph, an event log's `sparkPlanInfo`) list it: query stages and `InputAdapter` left out,
/// a reused exchange as [`Step::Reused`], subqueries not entered.
pub(super) fn walk_formatted(graph: &PlanGraph) -> Vec<Step> {
    // (the listeners' tree puts a cache's plan straight under its `InMemoryTableScan`)
    let only_in_text =
        |op: &str| op.ends_with("QueryStage") || op == "InputAdapter" || op == "InMemoryRelation";
    let mut steps = Vec::new();
    // a node met again (a damaged plan can link one under its own subtree) is not entered twice
    let mut seen = vec![false; graph.nodes.len()];
    let mut stack: Vec<NodeIdx> = graph.roots.iter().rev().copied().collect();
    while let Some(i) = stack.pop() {
        let node = &graph.nodes[i];
        if std::mem::replace(&mut seen[i], true) || node.operator == "ReusedExchange" {
            steps.push(Step::Reused);
            continue;
        }
        if !only_in_text(&node.operator) {
            steps.push(Step::Node(i));
        }
        if draws_what_the_text_does_not(&node.operator) {
            continue;
        }
        let mut finals = node
            .children
            .iter()
            .copied()
            .filter(|&c| graph.nodes[c].section != PlanSection::Initial);
        if node.operator == "AdaptiveSparkPlan" {
            // its final plan alone: a node the Initial Plan shares with it is listed again there
            stack.extend(finals.next());
        } else {
            stack.extend(finals.rev());
        }
    }
    steps
}

fn enrich_from_plan_description(nodes: &mut [PlanNode], roots: &[NodeIdx], text: &str) {
    let Ok(formatted) = super::formatted::parse_formatted(text, PlanFormat::Formatted) else {
        return;
    };
    if let [root] = roots {
        record_executed_command(&mut nodes[*root], &formatted);
    }
    let ui_steps = walk_ui(nodes, roots);
    let text_steps = walk_formatted(&formatted);
    let agree = ui_steps.len() == text_steps.len()
        && ui_steps.iter().zip(&text_steps).all(|pair| match pair {
            (Step::Node(u), Step::Node(f)) => nodes[*u].operator == formatted.nodes[*f].operator,
            (Step::Reused, Step::Reused) => true,
            _ => false,
        });
    if !agree {
        return;
    }
    for pair in ui_steps.iter().zip(&text_steps) {
        if let (Step::Node(u), Step::Node(f)) = pair {
            fill_missing(&mut nodes[*u].details, &formatted.nodes[*f].details);
        }
    }
}

/// A UI graph of a command's result alone (`CommandResult` and nothing below it) holds the
/// command the plan text executes below its own `CommandResult` ([`EXECUTED_COMMAND`]).
fn record_executed_command(result: &mut PlanNode, formatted: &PlanGraph) {
    let is_command_result = |node: &PlanNode| node.operator == "CommandResult";
    if !is_command_result(result) || !result.children.is_empty() {
        return;
    }
    let Some(text_result) = formatted
        .roots
        .first()
        .map(|&r| &formatted.nodes[r])
        .filter(|n| is_command_result(n))
    else {
        return;
    };
    // (`Execute ShowNamespacesCommand`, or a command of its own operator: `ShowTables`)
    if let Some(&executed) = text_result.children.first() {
        let arguments = &mut result.details.arguments;
        arguments.insert(
            EXECUTED_COMMAND.to_owned(),
            formatted.nodes[executed].name.to_string(),
        );
        if let Some(printed) = formatted.printed_arguments(executed) {
            arguments.insert(EXECUTED_COMMAND_ARGUMENTS.to_owned(), printed.clone());
        }
    }
}

/// Copy into `into` what it lacks and `from` has.
fn fill_missing(into: &mut NodeDetails, from: &NodeDetails) {
    fn fill<T: Clone, L: std::ops::Deref<Target = [T]> + Extend<T>>(a: &mut L, b: &[T]) {
        if a.is_empty() {
            a.extend(b.iter().cloned());
        }
    }
    fill(&mut into.output, &from.output);
    fill(&mut into.input, &from.input);
    fill(&mut into.projections, &from.projections);
    fill(&mut into.grouping_keys, &from.grouping_keys);
    fill(&mut into.aggregate_functions, &from.aggregate_functions);
    fill(&mut into.conditions, &from.conditions);
    fill(&mut into.sort_order, &from.sort_order);
    fill(&mut into.python_udfs, &from.python_udfs);
    if into.join.as_ref().is_none_or(|j| j.join_type.is_empty()) && from.join.is_some() {
        into.join = from.join.clone();
    }
    match (&mut into.scan, &from.scan) {
        (Some(a), Some(b)) => {
            fill(&mut a.paths, &b.paths);
            fill(&mut a.pushed_filters, &b.pushed_filters);
            fill(&mut a.partition_filters, &b.partition_filters);
            fill(&mut a.data_filters, &b.data_filters);
            fill(&mut a.read_schema, &b.read_schema);
            if a.table.is_none() {
                a.table = b.table.clone();
            }
            if a.relation.is_none() {
                a.relation = b.relation.clone();
            }
        }
        (None, Some(b)) => into.scan = Some(b.clone()),
        _ => {}
    }
    if into.partitioning.is_none() {
        into.partitioning = from.partitioning.clone();
    }
    if into.window.is_none() {
        into.window = from.window.clone();
    }
    if into.generator.is_none() {
        into.generator = from.generator.clone();
    }
    into.limit = into.limit.or(from.limit);
    into.offset = into.offset.or(from.offset);
    for literal in &from.literals {
        if !into.literals.contains(literal) {
            into.literals.push(literal.clone());
        }
    }
    for (key, value) in &from.arguments {
        into.arguments
            .entry(key.clone())
            .or_insert_with(|| value.clone());
    }
}
