//! `explain()` (simple) and `explain(true)` (extended) text.
//!
//! The physical plan is the tree after `== Physical Plan ==` (extended output also has parsed,
//! analyzed and optimized logical plans before it; they are kept as text in
//! [`PlanGraph::logical_plans`]). Each line is one operator in its one-line form
//! (`*(3) HashAggregate(keys=[…], functions=[…])`), read by [`super::details::from_node_text`].
//!
//! Ids: this form prints none, so a node's id is its pre-order position from 0 at the root
//! (`docs/ARCHITECTURE.md`), counting every operator line in text order — AQE's Final Plan, then its Initial
//! Plan, and subquery plans where they are printed. Nothing is shared between Final and Initial
//! here (there are no ids to tell that two lines are one node).
//!
//! Links: `Subquery …` lines under a node are its subqueries (not children); a
//! `ReusedExchange …, [plan_id=N]` reuses the exchange printed with `[plan_id=N]`; a
//! `ReusedSubquery Subquery subquery#K, …` reuses the `Subquery subquery#K` line.

use std::collections::{BTreeMap, HashMap};

use super::builder::{
    MAX_PLAN_OPERATORS, check_operator_count, is_subquery_wrapper, link_new_child, link_subquery,
    new_node, promote_lone_initial_plan, unclosed_brackets,
};
use super::details::{from_node_text, spelled_out_names_in_text};
use super::error::PlanError;
use super::graph::{NodeIdx, PlanFormat, PlanGraph, PlanNode, PlanSection};
use super::operators::classify;
use super::tree::{TreeBuilder, section_marker, split_tree_line};

const LOGICAL_HEADERS: &[&str] = &[
    "Parsed Logical Plan",
    "Analyzed Logical Plan",
    "Optimized Logical Plan",
];

/// Parse simple or extended text; `extended` when logical sections precede the physical one.
pub(crate) fn parse_simple(text: &str) -> Result<PlanGraph, PlanError> {
    let lines = super::tree::lines_of(text);
    let mut logical_plans = BTreeMap::new();
    let mut physical_start = None;
    let mut current: Option<(&str, Vec<&str>)> = None;
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim();
        if let Some(title) = trimmed
            .strip_prefix("== ")
            .and_then(|t| t.strip_suffix(" =="))
        {
            if let Some((name, body)) = current.take() {
                logical_plans.insert(name.to_string(), body.join("\n").trim_end().to_string());
            }
            if title == "Physical Plan" {
                physical_start = Some(i + 1);
                break;
            }
            if let Some(h) = LOGICAL_HEADERS.iter().find(|h| **h == title) {
                current = Some((h, Vec::new()));
            }
            continue;
        }
        if let Some((_, body)) = current.as_mut() {
            body.push(line);
        }
    }
    let format = if logical_plans.is_empty() {
        PlanFormat::Simple
    } else {
        PlanFormat::Extended
    };
    let start = match physical_start {
        Some(s) => s,
        None if format == PlanFormat::Extended => {
            return Err(PlanError::syntax(
                lines.len().max(1),
                1,
                "a `== Physical Plan ==` section",
                "",
            ));
        }
        None => lines.iter().position(|l| !l.trim().is_empty()).unwrap_or(0),
    };
    let mut graph = parse_tree(&lines, start)?;
    graph.format = format;
    graph.logical_plans = logical_plans;
    Ok(graph)
}

fn parse_tree(lines: &[&str], start: usize) -> Result<PlanGraph, PlanError> {
    let mut builder = TreeBuilder::new(PlanSection::Final);
    // At most one node a line: sized once, the node list never doubles (and briefly holds twice
    // its size) on a plan of a hundred thousand operators.
    let mut nodes: Vec<PlanNode> =
        Vec::with_capacity(lines.len().saturating_sub(start).min(MAX_PLAN_OPERATORS));
    // the text, borrowed from the input, of each node linking reuses needs at the end
    let mut reuse_texts: Vec<(NodeIdx, &str)> = Vec::new();
    let mut roots = Vec::new();
    let spelled = spelled_out_names_in_text(lines[start.min(lines.len())..].iter().copied());
    let mut pos = start;
    while pos < lines.len() && lines[pos].trim().is_empty() {
        pos += 1;
    }
    let mut last_node_line = None;
    while pos < lines.len() {
        let line_no = pos + 1;
        let Some(tl) = split_tree_line(lines[pos]) else {
            break;
        };
        if is_trailing_section_title(tl.text) {
            break; // Databricks appends `== Photon Explanation ==` after the plan
        }
        pos += 1;
        if let Some(section) = section_marker(tl.text) {
            builder.marker(tl.col, section);
            continue;
        }
        let (codegen, body) = strip_codegen_prefix(tl.text);
        let name = node_name(body);
        // Spark operator names are CamelCase; anything else is not a plan line
        if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
            return Err(PlanError::syntax(
                line_no,
                tl.col + 1,
                "an operator name",
                body,
            ));
        }
        let wrapper = is_subquery_wrapper(name);
        let placement = builder
            .node(
                tl.col,
                tl.connector,
                name.starts_with("AdaptiveSparkPlan"),
                wrapper,
            )
            .map_err(|expected| PlanError::syntax(line_no, tl.col + 1, expected, body))?;
        let idx = nodes.len();
        check_operator_count(idx, line_no, body)?;
        let mut node = new_node(idx.to_string(), name, placement.section, Some(line_no));
        let info = classify(name);
        *node.details = from_node_text(&info, name, body, &spelled);
        node.codegen_stage = codegen;
        if takes_part_in_reuse(&node.operator, body) {
            reuse_texts.push((idx, body));
        }
        nodes.push(node);
        match placement.parent {
            Some(parent) if wrapper => link_subquery(&mut nodes, parent, idx),
            Some(parent) => link_new_child(&mut nodes, parent, idx),
            None => roots.push(idx),
        }
        last_node_line = Some((line_no, body));
    }
    let Some((last_line, last_body)) = last_node_line else {
        let line_no = (start + 1).min(lines.len().max(1));
        return Err(PlanError::syntax(
            line_no,
            1,
            "a physical plan tree",
            lines.get(start).copied().unwrap_or(""),
        ));
    };
    // A plan cut mid-line leaves brackets open on its last line.
    if pos >= lines.len() {
        let missing = unclosed_brackets(last_body);
        if !missing.is_empty() {
            let col = lines[last_line - 1].len() + 1;
            return Err(PlanError::syntax(
                last_line,
                col,
                &format!("`{missing}` to close the operator's arguments"),
                "",
            ));
        }
    }
    link_reuses(&mut nodes, &reuse_texts);
    promote_lone_initial_plan(&mut nodes);
    Ok(PlanGraph {
        format: PlanFormat::Simple,
        nodes,
        roots,
        execution: Default::default(),
        logical_plans: Default::default(),
        warnings: Vec::new(),
    })
}

/// `== Photon Explanation ==` and similar titles that follow a plan (not AQE's markers, which
/// only appear with a connector or at a section root).
pub(crate) fn is_trailing_section_title(text: &str) -> bool {
    text.starts_with("== ") && text.ends_with(" ==") && super::tree::section_marker(text).is_none()
}

/// `*(3) Project […]` → (Some(3), `Project […]`); Spark 2.0–2.2's `*Project […]` (codegen
/// without a stage number) → (None, `Project […]`).
fn strip_codegen_prefix(text: &str) -> (Option<u32>, &str) {
    if let Some(rest) = text.strip_prefix("*(")
        && let Some(close) = rest.find(')')
        && let Ok(stage) = rest[..close].parse()
    {
        return (Some(stage), rest[close + 1..].trim_start());
    }
    if let Some(rest) = text.strip_prefix('*')
        && rest.starts_with(|c: char| c.is_ascii_alphabetic())
    {
        return (None, rest);
    }
    (None, text)
}

/// The operator name at the start of a one-line node: `HashAggregate(keys=…` → `HashAggregate`,
/// `FileScan parquet [a#1]…` → `FileScan parquet`, `Scan ExistingRDD[a#1]` → `Scan ExistingRDD`.
pub(crate) fn node_name(text: &str) -> &str {
    let first = super::operators::first_word(text);
    let two_words = matches!(
        first,
        "Scan" | "FileScan" | "BatchScan" | "Execute" | "GpuScan" | "CometScan" | "PhotonScan"
    ) || first.ends_with("FileScan");
    if !two_words || text.as_bytes().get(first.len()) != Some(&b' ') {
        return first;
    }
    let rest = &text[first.len() + 1..];
    let word_len = rest
        .find(|c: char| c.is_whitespace() || c == '[' || c == '(' || c == ',')
        .unwrap_or(rest.len());
    if word_len == 0 {
        return first;
    }
    &text[..first.len() + 1 + word_len]
}

/// `ReusedExchange …, [plan_id=N]` → the exchange with `[plan_id=N]`;
/// `ReusedSubquery Subquery subquery#K, …` → the first `Subquery subquery#K, …`.
/// Whether linking reuses needs the node's text: it names a `plan_id`, or is a subquery or a
/// reuse of one. (Keeping every node's text would cost 16 bytes an operator.)
fn takes_part_in_reuse(operator: &str, text: &str) -> bool {
    matches!(operator, "Subquery" | "ReusedSubquery" | "ReusedExchange")
        || text.contains("[plan_id=")
}

/// `texts`: in node order, the text of every node [`takes_part_in_reuse`].
fn link_reuses(nodes: &mut [PlanNode], texts: &[(NodeIdx, &str)]) {
    // The first node of each `plan_id` and of each subquery text, found in one pass: a plan of
    // many reused exchanges must not compare every pair of nodes.
    let mut by_plan_id: HashMap<&str, NodeIdx> = HashMap::new();
    let mut subqueries: HashMap<&str, NodeIdx> = HashMap::new();
    for &(j, text) in texts {
        let node = &nodes[j];
        if node.operator != "ReusedExchange"
            && let Some(pid) = plan_id(text)
        {
            by_plan_id.entry(pid).or_insert(j);
        }
        if node.operator == "Subquery" {
            subqueries.entry(text).or_insert(j);
        }
    }
    for &(idx, text) in texts {
        let target = if nodes[idx].operator == "ReusedExchange" {
            plan_id(text).and_then(|pid| by_plan_id.get(pid).copied())
        } else if nodes[idx].operator == "ReusedSubquery" {
            let reused = text.strip_prefix("ReusedSubquery").unwrap_or("").trim();
            subqueries.get(reused).copied()
        } else {
            None
        };
        nodes[idx].reuses = target.filter(|&j| j != idx);
    }
}

fn plan_id(text: &str) -> Option<&str> {
    let at = text.rfind("[plan_id=")?;
    let rest = &text[at + "[plan_id=".len()..];
    rest.find(']').map(|end| &rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plan_past_the_operator_limit_is_refused_at_its_line() {
        use crate::plan::builder::MAX_PLAN_OPERATORS;
        let leaf = ":- OneRowRelation\n";
        let text = format!("Union\n{}", leaf.repeat(MAX_PLAN_OPERATORS));
        let err = parse_simple(&text).expect_err("too many operators");
        assert_eq!(err.position(), Some((MAX_PLAN_OPERATORS as u32 + 1, 1)));
        assert!(
            err.to_string().contains("at most 100000 operators"),
            "{err}"
        );
        // one fewer is a plan
        let text = format!("Union\n{}", leaf.repeat(MAX_PLAN_OPERATORS - 1));
        assert_eq!(
            parse_simple(&text).expect("parses").nodes.len(),
            MAX_PLAN_OPERATORS
        );
    }

    #[test]
    fn one_line_node_names() {
        assert_eq!(
            node_name("HashAggregate(keys=[a#1], functions=[])"),
            "HashAggregate"
        );
        assert_eq!(
            node_name("FileScan parquet [a#1] Batched: true"),
            "FileScan parquet"
        );
        assert_eq!(node_name("Scan ExistingRDD[a#1]"), "Scan ExistingRDD");
        assert_eq!(node_name("Exchange hashpartitioning(a#1, 200)"), "Exchange");
        assert_eq!(
            strip_codegen_prefix("*(3) Project [a#1]"),
            (Some(3), "Project [a#1]")
        );
        assert_eq!(
            strip_codegen_prefix("*HashAggregate(keys=[a#1], functions=[])"),
            (None, "HashAggregate(keys=[a#1], functions=[])")
        );
    }
}
