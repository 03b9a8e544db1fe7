//! The plan as a drawable graph: every node of every execution with its mapping, band and cost,
//! placed by a layered (Sugiyama) layout as the Spark UI draws its SQL DAG — scans at the top,
//! the root at the bottom.
//!
//! The layout is [`rust_sugiyama`]'s (rank assignment by network simplex, crossing reduction,
//! Brandes–Köpf coordinates); computed here rather than in the browser so the live viewer and the
//! self-contained HTML report draw exactly the same picture, and so it is tested with the rest.
//! Whole-stage codegen clusters are drawn as the nodes they are in the parsed graph (the UI
//! JSON's `WholeStageCodegen (k)` sits above its top members); subquery plans hang off the node
//! that uses them; a `ReusedExchange` points at the exchange it reuses.

use super::cost::{Cost, has_metrics, operator_costs};
use crate::contracts::{ConfidenceStatus, MappingOutput, NodeKind, node_key};
use crate::plan::{PlanGraph, PlanSection};
use serde::Serialize;
use std::collections::HashMap;

/// Box size of a node, in the page's CSS pixels.
pub const NODE_WIDTH: f64 = 220.0;
pub const NODE_HEIGHT: f64 = 52.0;
/// Gap between neighbouring boxes, and between separate components of one plan.
const SPACING: f64 = 28.0;

/// One execution's plan, laid out.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GraphView {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execution_id: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub has_metrics: bool,
    pub width: f64,
    pub height: f64,
    pub nodes: Vec<NodeView>,
    /// `(from, to)` as indexes into `nodes`: data flows from a child to its parent.
    pub edges: Vec<(usize, usize)>,
}

/// One drawn node.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeView {
    /// The node's key in the job (what mappings and hot lines name it by).
    pub key: String,
    pub dag_node_id: String,
    pub name: String,
    /// `final`, `initial` (AQE's plans) or `subquery`.
    pub section: PlanSection,
    pub node_kind: NodeKind,
    /// `file:start-end` of the mapping, when mapped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence_status: Option<ConfidenceStatus>,
    pub cost: Cost,
    /// Top-left corner of the node's box.
    pub x: f64,
    pub y: f64,
}

/// Lay out every plan of a job, its nodes labelled with their mappings.
pub fn graph_views(plans: &[PlanGraph], mappings: &[MappingOutput]) -> Vec<GraphView> {
    let by_key: HashMap<String, &MappingOutput> =
        mappings.iter().map(|m| (m.node_key(), m)).collect();
    plans.iter().map(|plan| graph_view(plan, &by_key)).collect()
}

fn graph_view(plan: &PlanGraph, mappings: &HashMap<String, &MappingOutput>) -> GraphView {
    let costs = operator_costs(plan);
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for (parent, node) in plan.nodes.iter().enumerate() {
        // an edge ends at its parent, so only this node's own inputs can repeat one
        let first = edges.len();
        let inputs = node
            .children
            .iter()
            .chain(node.subqueries.iter())
            .chain(node.reuses.iter());
        for &child in inputs {
            if child < plan.nodes.len()
                && child != parent
                && !edges[first..].contains(&(child, parent))
            {
                edges.push((child, parent));
            }
        }
    }
    let positions = layout(plan.nodes.len(), &edges);
    let nodes: Vec<NodeView> = plan
        .nodes
        .iter()
        .enumerate()
        .map(|(idx, node)| {
            let key = node_key(plan.execution.execution_id, &node.id);
            let mapping = mappings.get(&key);
            let (x, y) = positions[idx];
            NodeView {
                dag_node_id: node.id.to_string(),
                name: node.name.to_string(),
                section: node.section,
                node_kind: mapping.map(|m| m.node_kind).unwrap_or(node.node_kind),
                location: mapping
                    .and_then(|m| m.mapped_code.as_ref())
                    .map(|c| format!("{}:{}", c.file, c.lines)),
                confidence_status: mapping.map(|m| m.confidence_status),
                cost: costs[idx],
                x,
                y,
                key,
            }
        })
        .collect();
    let width = nodes.iter().map(|n| n.x + NODE_WIDTH).fold(0.0, f64::max);
    let height = nodes.iter().map(|n| n.y + NODE_HEIGHT).fold(0.0, f64::max);
    GraphView {
        execution_id: plan.execution.execution_id,
        description: plan.execution.description.clone(),
        has_metrics: has_metrics(plan),
        width,
        height,
        nodes,
        edges,
    }
}

/// Top-left corners of `count` boxes joined by `edges`: each connected component laid out in
/// layers, components side by side.
fn layout(count: usize, edges: &[(usize, usize)]) -> Vec<(f64, f64)> {
    let mut positions = vec![(0.0, 0.0); count];
    if count == 0 {
        return positions;
    }
    let vertices: Vec<(u32, (f64, f64))> = (0..count as u32)
        .map(|v| (v, (NODE_WIDTH, NODE_HEIGHT)))
        .collect();
    let edges32: Vec<(u32, u32)> = edges.iter().map(|&(a, b)| (a as u32, b as u32)).collect();
    let config = rust_sugiyama::configure::Config {
        vertex_spacing: SPACING,
        ..Default::default()
    };
    let components = rust_sugiyama::from_vertices_and_edges(&vertices, &edges32, &config);
    let mut offset_x = 0.0;
    for (placed, _, _) in components {
        let min_x = placed.iter().map(|(_, (x, _))| *x).fold(f64::MAX, f64::min);
        let min_y = placed.iter().map(|(_, (_, y))| *y).fold(f64::MAX, f64::min);
        let mut max_x: f64 = 0.0;
        for (vertex, (x, y)) in placed {
            let left = offset_x + x - min_x;
            if let Some(slot) = positions.get_mut(vertex) {
                *slot = (left, y - min_y);
            }
            max_x = max_x.max(left + NODE_WIDTH);
        }
        offset_x = max_x + SPACING;
    }
    positions
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overlaps(a: (f64, f64), b: (f64, f64)) -> bool {
        (a.0 - b.0).abs() < NODE_WIDTH && (a.1 - b.1).abs() < NODE_HEIGHT
    }

    #[test]
    fn layers_put_inputs_above_their_consumers_and_no_box_on_another() {
        // a join of two scan → filter branches, then an aggregate; plus a lone node.
        let edges = [(0, 1), (2, 3), (1, 4), (3, 4), (4, 5)];
        let positions = layout(7, &edges);
        for &(from, to) in &edges {
            assert!(
                positions[from].1 < positions[to].1,
                "{from} should be above {to}: {positions:?}"
            );
        }
        for a in 0..positions.len() {
            for b in a + 1..positions.len() {
                assert!(
                    !overlaps(positions[a], positions[b]),
                    "{a} and {b} overlap: {positions:?}"
                );
            }
        }
        assert!(positions.iter().all(|&(x, y)| x >= 0.0 && y >= 0.0));
    }
}
