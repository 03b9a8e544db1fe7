//! Showing a [`PlanGraph`] to people and programs.
//!
//! * [`to_json`] — the stable JSON of `plan2code plan --format json`:
//!   `{"format", "execution", "roots", "nodes": [{"id", "name", "operator", "family",
//!   "nodeKind", "section", "children", …details}]}`. Every reference to another node
//!   (`children`, `roots`, `reuses`, `subqueries`, `members`) is that node's id (`dagNodeId`),
//!   never an array index, so the output can be joined with mapping results.
//! * [`to_tree_text`] — an indented tree with a one-line summary of each node's details.

use serde_json::{Map, Value, json};

use super::expr::strip_ids;
use super::graph::{NodeIdx, NodeKind, PlanGraph, PlanNode, PlanSection};

/// The JSON document of `plan2code plan --format json`.
pub fn to_json(graph: &PlanGraph) -> Value {
    let id_of = |idx: &NodeIdx| Value::String(graph.nodes[*idx].id.to_string());
    let nodes: Vec<Value> = graph
        .nodes
        .iter()
        .map(|node| {
            let mut obj = Map::new();
            obj.insert("id".into(), json!(node.id));
            obj.insert("name".into(), json!(node.name));
            obj.insert("operator".into(), json!(node.operator));
            obj.insert("family".into(), json!(node.family));
            obj.insert("nodeKind".into(), json!(node.node_kind));
            obj.insert("section".into(), json!(node.section));
            obj.insert("children".into(), node.children.iter().map(id_of).collect());
            if let Some(stage) = node.codegen_stage {
                obj.insert("codegenStage".into(), json!(stage));
            }
            if let Some(reused) = &node.reuses {
                obj.insert("reuses".into(), id_of(reused));
            }
            if !node.subqueries.is_empty() {
                obj.insert(
                    "subqueries".into(),
                    node.subqueries.iter().map(id_of).collect(),
                );
            }
            if !node.members.is_empty() {
                obj.insert("members".into(), node.members.iter().map(id_of).collect());
            }
            if let Some(line) = node.source_line {
                obj.insert("sourceLine".into(), json!(line));
            }
            if let Ok(Value::Object(details)) = serde_json::to_value(&node.details) {
                for (key, value) in details {
                    let empty = matches!(&value, Value::Array(a) if a.is_empty());
                    if !empty {
                        obj.entry(key).or_insert(value);
                    }
                }
            }
            Value::Object(obj)
        })
        .collect();
    let mut doc = Map::new();
    doc.insert("format".into(), json!(graph.format));
    doc.insert("execution".into(), json!(graph.execution));
    doc.insert("roots".into(), graph.roots.iter().map(id_of).collect());
    if !graph.warnings.is_empty() {
        doc.insert("warnings".into(), json!(graph.warnings));
    }
    if !graph.logical_plans.is_empty() {
        doc.insert("logicalPlans".into(), json!(graph.logical_plans));
    }
    doc.insert("nodes".into(), Value::Array(nodes));
    Value::Object(doc)
}

/// An indented, human-readable tree of the plan.
pub fn to_tree_text(graph: &PlanGraph) -> String {
    let mut out = String::new();
    let exec = &graph.execution;
    out.push_str(
        &format!("format: {:?}, {} nodes", graph.format, graph.nodes.len()).to_lowercase(),
    );
    if let Some(id) = exec.execution_id {
        out.push_str(&format!(", execution {id}"));
    }
    if let Some(desc) = &exec.description {
        out.push_str(&format!(" — {}", first_line(desc)));
    }
    out.push('\n');
    if let Some(site) = &exec.call_site {
        out.push_str(&format!("call site: {}\n", first_line(site)));
    }
    let mut shown = vec![false; graph.nodes.len()];
    for &root in &graph.roots {
        write_node(graph, root, "", "", &mut shown, &mut out);
    }
    // nodes no root reaches (should not happen, but never hide a node)
    for idx in 0..graph.nodes.len() {
        if !shown[idx] {
            write_node(graph, idx, "", "", &mut shown, &mut out);
        }
    }
    out
}

fn write_node(
    graph: &PlanGraph,
    idx: NodeIdx,
    lead: &str,
    label: &str,
    shown: &mut [bool],
    out: &mut String,
) {
    let node = &graph.nodes[idx];
    let kind = match node.node_kind {
        NodeKind::Engine => " [engine]",
        NodeKind::Code => "",
    };
    let section = match node.section {
        PlanSection::Initial => " {initial}",
        _ => "",
    };
    if shown[idx] {
        out.push_str(&format!(
            "{label}{} ({}) ↑ shown above\n",
            node.name, node.id
        ));
        return;
    }
    shown[idx] = true;
    let summary = summarize(graph, node);
    out.push_str(&format!(
        "{label}{} ({}){kind}{section}{summary}\n",
        node.name, node.id
    ));
    let mut links: Vec<(String, NodeIdx)> =
        node.children.iter().map(|&c| (String::new(), c)).collect();
    links.extend(
        node.subqueries
            .iter()
            .map(|&s| ("subquery: ".to_string(), s)),
    );
    let count = links.len();
    for (i, (tag, child)) in links.into_iter().enumerate() {
        let last = i + 1 == count;
        let branch = if last { "└─ " } else { "├─ " };
        let next_lead = format!("{lead}{}", if last { "   " } else { "│  " });
        write_node(
            graph,
            child,
            &next_lead,
            &format!("{lead}{branch}{tag}"),
            shown,
            out,
        );
    }
}

fn summarize(graph: &PlanGraph, node: &PlanNode) -> String {
    let d = &node.details;
    let texts = |exprs: &[super::graph::Expr]| {
        exprs
            .iter()
            .map(|e| e.text.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut parts: Vec<String> = Vec::new();
    if let Some(stage) = node.codegen_stage {
        parts.push(format!("codegen {stage}"));
    }
    if let Some(scan) = &d.scan {
        let source = scan
            .table
            .clone()
            .or_else(|| scan.paths.first().cloned())
            .or_else(|| scan.relation.as_ref().map(|r| r.to_string()))
            .unwrap_or_default();
        parts.push(format!("{} {}", scan.format, source).trim().to_string());
    }
    if !d.conditions.is_empty() {
        parts.push(format!("where {}", texts(&d.conditions)));
    }
    if !d.grouping_keys.is_empty() {
        parts.push(format!("by {}", texts(&d.grouping_keys)));
    }
    if !d.aggregate_functions.is_empty() {
        parts.push(format!("agg {}", texts(&d.aggregate_functions)));
    }
    if let Some(join) = &d.join {
        let keys = join
            .left_keys
            .iter()
            .zip(&join.right_keys)
            .map(|(l, r)| format!("{} = {}", l.text, r.text))
            .collect::<Vec<_>>()
            .join(", ");
        let build = join.build_side.as_deref().unwrap_or("");
        parts.push(format!("{} {build} on {keys}", join.join_type).replace("  ", " "));
    }
    if let Some(p) = &d.partitioning {
        let mut args: Vec<String> = p.exprs.iter().map(|e| e.text.clone()).collect();
        args.extend(p.num_partitions.map(|n| n.to_string()));
        parts.push(format!("{}({})", p.kind, args.join(", ")));
    }
    if !d.sort_order.is_empty() {
        let keys: Vec<String> = d
            .sort_order
            .iter()
            .map(|k| {
                format!(
                    "{} {}",
                    k.expr.text,
                    if k.ascending { "asc" } else { "desc" }
                )
            })
            .collect();
        parts.push(format!("order {}", keys.join(", ")));
    }
    if let Some(limit) = d.limit {
        parts.push(format!("limit {limit}"));
    }
    if let Some(w) = &d.window {
        parts.push(format!(
            "window {} partition by {}",
            texts(&w.functions),
            texts(&w.partition_by)
        ));
    }
    if !d.python_udfs.is_empty() {
        parts.push(format!("udf {}", d.python_udfs.join(", ")));
    }
    if let Some(g) = &d.generator {
        parts.push(format!("generate {}", g.text));
    }
    if node.family == super::graph::OperatorFamily::Project && !d.projections.is_empty() {
        parts.push(format!("[{}]", texts(&d.projections)));
    }
    if let Some(reused) = node.reuses {
        parts.push(format!("reuses ({})", graph.nodes[reused].id));
    }
    if !node.members.is_empty() {
        let ids: Vec<&str> = node
            .members
            .iter()
            .map(|&m| graph.nodes[m].id.as_str())
            .collect();
        parts.push(format!("fuses {}", ids.join(", ")));
    }
    if parts.is_empty() {
        return String::new();
    }
    let mut text = strip_ids(&parts.join("; "));
    if text.chars().count() > 160 {
        text = text.chars().take(157).collect::<String>() + "...";
    }
    format!("  — {text}")
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}
