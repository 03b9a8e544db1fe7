//! Small shared steps for building a [`PlanGraph`]: creating a node from its name (classified
//! through the operator table), linking children without duplicates, and the end-of-line
//! bracket check that tells a truncated plan from a complete one.

use super::error::PlanError;
use super::graph::{NodeIdx, PlanNode, PlanSection};
use super::operators::classify;

/// The most operators one plan may hold. Each costs about a kilobyte parsed, whatever its text,
/// so this bounds a hostile plan of many one-line operators (≈ 100 MiB); the largest real plans
/// (TPC-DS, Photon, event logs of long pipelines) hold a few thousand.
pub(crate) const MAX_PLAN_OPERATORS: usize = 100_000;

/// Refuses the operator that would take a plan past [`MAX_PLAN_OPERATORS`], naming its line.
pub(crate) fn check_operator_count(count: usize, line: usize, text: &str) -> Result<(), PlanError> {
    if count < MAX_PLAN_OPERATORS {
        return Ok(());
    }
    Err(PlanError::syntax(
        line,
        1,
        &format!("at most {MAX_PLAN_OPERATORS} operators in one plan"),
        text,
    ))
}

/// A node named as written, classified, with empty details.
pub(crate) fn new_node(
    id: String,
    name: &str,
    section: PlanSection,
    line: Option<usize>,
) -> PlanNode {
    let info = classify(name);
    PlanNode {
        id: id.into(),
        name: name.into(),
        operator: info.canonical.into(),
        family: info.family,
        node_kind: info.kind,
        section,
        children: Default::default(),
        codegen_stage: None,
        reuses: None,
        subqueries: Default::default(),
        members: Default::default(),
        details: Box::default(),
        source_line: line.and_then(|l| u32::try_from(l).ok()),
    }
}

/// Add `child` under `parent` once.
pub(crate) fn link_child(nodes: &mut [PlanNode], parent: NodeIdx, child: NodeIdx) {
    if parent != child && !nodes[parent].children.contains(&child) {
        nodes[parent].children.push(child);
    }
}

/// Add `child`, a node created just now, under `parent`: it cannot be linked yet, so there is no
/// search (a `Union` of many inputs stays linear).
pub(crate) fn link_new_child(nodes: &mut [PlanNode], parent: NodeIdx, child: NodeIdx) {
    if parent != child {
        nodes[parent].children.push(child);
    }
}

/// Add `subquery` to `host`'s subqueries once.
pub(crate) fn link_subquery(nodes: &mut [PlanNode], host: NodeIdx, subquery: NodeIdx) {
    if host != subquery && !nodes[host].subqueries.contains(&subquery) {
        nodes[host].subqueries.push(subquery);
    }
}

/// Whether a name denotes a subquery wrapper (linked from its host, not a child of it).
pub(crate) fn is_subquery_wrapper(name: &str) -> bool {
    let first = super::operators::first_word(name);
    matches!(
        first,
        "Subquery"
            | "ReusedSubquery"
            | "SubqueryBroadcast"
            | "SubqueryAdaptiveBroadcast"
            | "PhotonSubqueryBroadcast"
    )
}

/// Brackets left open at the end of `text`, as the closing characters still expected
/// (`")]"`). Spark truncates long metadata with `...`, which closes everything opened since the
/// last `[` — so `[IsNotNull(o_orde..., ReadSchema: …` is complete.
pub(crate) fn unclosed_brackets(text: &str) -> String {
    let mut stack: Vec<u8> = Vec::new();
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'(' => stack.push(b')'),
            b'[' => stack.push(b']'),
            b')' | b']' => {
                if let Some(pos) = stack.iter().rposition(|&c| c == b[i]) {
                    stack.truncate(pos);
                }
            }
            b'.' if b[i..].starts_with(b"...") => {
                if let Some(pos) = stack.iter().rposition(|&c| c == b']') {
                    stack.truncate(pos);
                } else {
                    stack.clear();
                }
                i += 3;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    stack.iter().rev().map(|&c| c as char).collect()
}

/// A plan printed before it ran shows only AQE's `== Initial Plan ==` (Databricks does this):
/// with no final plan, the initial plan is the plan, so its nodes become `Final`.
pub(crate) fn promote_lone_initial_plan(nodes: &mut [PlanNode]) {
    let has_final = nodes
        .iter()
        .any(|n| n.section == PlanSection::Final && n.operator != "AdaptiveSparkPlan");
    if !has_final {
        for node in nodes
            .iter_mut()
            .filter(|n| n.section == PlanSection::Initial)
        {
            node.section = PlanSection::Final;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spark_metadata_truncation_counts_as_closed() {
        assert_eq!(
            unclosed_brackets("[IsNotNull(a), IsNotNull(o_orde..., ReadSchema: struct<a:int>"),
            ""
        );
        assert_eq!(unclosed_brackets("Output [2]: [c_custkey#175L, c_mkt"), "]");
        assert_eq!(
            unclosed_brackets("Condition : (isnotnull(a#1) AND (b"),
            "))"
        );
    }
}
