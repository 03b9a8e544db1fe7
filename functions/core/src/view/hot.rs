//! Hot lines: the user's code ranked by what the operators mapped to it cost — a line-level
//! profile of a Spark job.
//!
//! Every mapped node adds its [`Cost`] (see [`super::cost`]) to the code location it was mapped
//! to (file + line range); locations are ranked by time, then shuffle bytes, spill and rows. A
//! node mapped nowhere adds nothing, so the ranking never blames code it is unsure of more than
//! the mapping does — each entry lists its nodes with their confidence.

use super::cost::{Cost, operator_costs};
use crate::contracts::{ConfidenceStatus, MappingOutput, node_key};
use crate::plan::PlanGraph;
use serde::Serialize;
use std::collections::HashMap;

/// One code location and what the operators mapped to it cost together.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HotLine {
    pub file: String,
    /// `"start-end"`, as in [`crate::contracts::CodeLocation::lines`].
    pub lines: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// The location's first line of code.
    pub code: String,
    pub cost: Cost,
    /// The nodes mapped here, costliest first.
    pub nodes: Vec<HotNode>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HotNode {
    /// The node's key in the job (`executionId:dagNodeId`, or the `dagNodeId`).
    pub key: String,
    pub name: String,
    pub confidence_status: ConfidenceStatus,
    pub cost: Cost,
}

/// Code locations ranked by the measured cost of the nodes mapped to them; empty when no plan
/// carries metrics.
pub fn hot_lines(plans: &[PlanGraph], mappings: &[MappingOutput]) -> Vec<HotLine> {
    let mut cost_of: HashMap<String, Cost> = HashMap::new();
    for plan in plans {
        for (node, cost) in plan.nodes.iter().zip(operator_costs(plan)) {
            if cost.is_measured() {
                cost_of.insert(node_key(plan.execution.execution_id, &node.id), cost);
            }
        }
    }
    let mut by_location: HashMap<(String, String), HotLine> = HashMap::new();
    for mapping in mappings {
        let Some(code) = &mapping.mapped_code else {
            continue;
        };
        let key = mapping.node_key();
        let Some(cost) = cost_of.get(&key) else {
            continue;
        };
        let entry = by_location
            .entry((code.file.clone(), code.lines.clone()))
            .or_insert_with(|| HotLine {
                file: code.file.clone(),
                lines: code.lines.clone(),
                symbol: code.symbol.clone(),
                code: code
                    .code_snippet
                    .lines()
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_owned(),
                cost: Cost::default(),
                nodes: Vec::new(),
            });
        entry.cost.add(cost);
        entry.nodes.push(HotNode {
            key,
            name: mapping.node_name.clone(),
            confidence_status: mapping.confidence_status,
            cost: *cost,
        });
    }
    let mut hot: Vec<HotLine> = by_location.into_values().collect();
    for line in &mut hot {
        line.nodes
            .sort_by(|a, b| rank(&b.cost, &a.cost).then(a.key.cmp(&b.key)));
    }
    hot.sort_by(|a, b| {
        rank(&b.cost, &a.cost)
            .then_with(|| a.file.cmp(&b.file))
            .then_with(|| first_line(&a.lines).cmp(&first_line(&b.lines)))
    });
    hot
}

/// Time first, then shuffle, spill and rows.
fn rank(a: &Cost, b: &Cost) -> std::cmp::Ordering {
    a.time_ms
        .total_cmp(&b.time_ms)
        .then(a.shuffle_bytes.total_cmp(&b.shuffle_bytes))
        .then(a.spill_bytes.total_cmp(&b.spill_bytes))
        .then(a.rows.total_cmp(&b.rows))
}

fn first_line(lines: &str) -> u32 {
    lines
        .split('-')
        .next()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0)
}
