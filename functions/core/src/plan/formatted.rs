//! `explain("formatted")` — also the `physicalPlanDescription` of event logs and the UI's
//! `planDescription`.
//!
//! The text has three parts, each read in turn:
//!
//! 1. the tree (`+- * HashAggregate (24)`), whose `(N)` are the node ids; with AQE it holds a
//!    `== Final Plan ==` and an `== Initial Plan ==`, and a node shown in both (typically a scan)
//!    carries one id and becomes one node;
//! 2. one detail section per id (`(24) HashAggregate [codegen id : 4]` + `Key [n]: value` lines);
//! 3. `===== Subqueries =====`: per subquery, `Subquery:k Hosting operator id = H Hosting
//!    Expression = …`, then its own tree and detail sections. The subquery's root is linked from
//!    host H (`subqueries`); a `ReusedSubquery` host line links to the subquery it reuses.
//!
//! A tree line without `(N)`, a tree id without a detail section, or text cut inside brackets is
//! a [`PlanError`] naming the line and column. A detail line that is not `Key: value` is kept raw
//! on its node and reported in [`PlanGraph::warnings`].

use std::collections::HashMap;

use super::builder::{
    MAX_PLAN_OPERATORS, check_operator_count, is_subquery_wrapper, link_child, link_new_child,
    link_subquery, new_node, promote_lone_initial_plan, unclosed_brackets,
};
use super::details::{from_fields, spelled_out_names};
use super::error::PlanError;
use super::graph::{NodeIdx, PlanFormat, PlanGraph, PlanNode, PlanSection};
use super::operators::classify;
use super::simple::is_trailing_section_title;
use super::tree::{TreeBuilder, section_marker, split_tree_line};

/// Whether text looks like the formatted form: some line is a detail-section header `(N) Name`.
/// Also true when the first tree line ends in an id, `Project (4)`, so a plan cut before its
/// detail sections is still read (and reported) as formatted.
pub(crate) fn looks_formatted(text: &str) -> bool {
    if text.lines().any(|l| parse_section_header(l).is_some()) {
        return true;
    }
    let first_node = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && *l != "== Physical Plan ==");
    first_node.is_some_and(|l| {
        let body = l.strip_prefix("* ").unwrap_or(l);
        // The formatted form never prints `WholeStageCodegen (k)` as a node (it shows `*` and
        // `[codegen id : k]`); a tree rooted at one is the test suite's `simplified.txt` form.
        !body.starts_with("WholeStageCodegen")
            && split_tree_node(body)
                .is_some_and(|(_, _, after)| after.is_empty() || after.starts_with(','))
    })
}

struct Section {
    line: usize,
    name: String,
    codegen: Option<u32>,
    reuses: Option<String>,
    fields: Vec<(String, String)>,
}

struct Reader<'a> {
    lines: Vec<&'a str>,
    pos: usize,
    nodes: Vec<PlanNode>,
    by_id: HashMap<String, NodeIdx>,
    /// Text after the name on the tree line (`Inner BuildRight`), by node.
    tree_extra: HashMap<NodeIdx, String>,
    /// Ids shown in the main tree, in order, with their line (to check details exist).
    tree_ids: Vec<(String, usize)>,
    sections: HashMap<String, Section>,
    /// Lines kept going past (see [`PlanGraph::warnings`]).
    warnings: Vec<String>,
}

/// Parse formatted text. `format` is what the caller calls it (formatted / eventlog / ui).
// Long (~100 lines): one pass over the text's three parts (tree, detail sections, subqueries)
// sharing the reader's state; each part already calls out to its own readers.
pub(crate) fn parse_formatted(text: &str, format: PlanFormat) -> Result<PlanGraph, PlanError> {
    let mut r = Reader {
        lines: super::tree::lines_of(text),
        pos: 0,
        nodes: Vec::new(),
        by_id: HashMap::new(),
        tree_extra: HashMap::new(),
        tree_ids: Vec::new(),
        sections: HashMap::new(),
        warnings: Vec::new(),
    };
    // skip to the tree
    while r.pos < r.lines.len() {
        let line = r.lines[r.pos].trim();
        if line.is_empty() || line == "== Physical Plan ==" {
            r.pos += 1;
        } else {
            break;
        }
    }
    if r.pos >= r.lines.len() {
        return Err(PlanError::syntax(
            r.lines.len().max(1),
            1,
            "a physical plan tree",
            "",
        ));
    }
    // One node a tree line: sized once, the node list never doubles (and briefly holds twice
    // its size) on a plan of a hundred thousand operators.
    let tree_lines = r.lines[r.pos..]
        .iter()
        .take_while(|l| !l.trim().is_empty())
        .count();
    r.nodes.reserve_exact(tree_lines.min(MAX_PLAN_OPERATORS));
    let roots = r.read_tree(PlanSection::Final, true)?;
    let mut subquery_by_name: HashMap<String, NodeIdx> = HashMap::new();
    // hosts of a subquery printed further down (a `ReusedSubquery` before its definition)
    let mut unresolved: Vec<(String, String)> = Vec::new();
    while r.pos < r.lines.len() {
        let line_no = r.pos + 1;
        let line = r.lines[r.pos];
        let trimmed = line.trim();
        if trimmed.is_empty() || (trimmed.starts_with("=====") && trimmed.ends_with("=====")) {
            r.pos += 1;
        } else if trimmed != "== Physical Plan ==" && is_trailing_section_title(trimmed) {
            break; // Databricks appends `== Photon Explanation ==` after the details
        } else if trimmed
            .strip_prefix("Subplan:")
            .is_some_and(|n| n.bytes().all(|c| c.is_ascii_digit()))
        {
            // `===== Adaptively Optimized Out Exchanges =====`: plans AQE dropped. Their ids
            // are shown, so they are nodes; they ran in no final plan, so they are `initial`.
            r.pos += 1;
            r.read_tree(PlanSection::Initial, true)?;
        } else if let Some((host, expr)) = parse_subquery_header(trimmed) {
            r.pos += 1;
            let name = subquery_name(expr);
            let starts_tree = r
                .lines
                .get(r.pos)
                .is_some_and(|l| !l.trim().is_empty() && parse_section_header(l).is_none());
            let root = if starts_tree {
                let roots = r.read_tree(PlanSection::Subquery, false)?;
                roots.first().copied()
            } else {
                None
            };
            let root =
                root.or_else(|| name.as_ref().and_then(|n| subquery_by_name.get(n).copied()));
            if let (Some(root), Some(name)) = (root, name.clone()) {
                subquery_by_name.entry(name).or_insert(root);
            }
            match (r.by_id.get(&host).copied(), root) {
                (Some(host_idx), Some(root)) => link_subquery(&mut r.nodes, host_idx, root),
                (Some(_), None) => unresolved.extend(name.map(|n| (host.clone(), n))),
                (None, _) => {
                    return Err(PlanError::syntax(
                        line_no,
                        trimmed.find("id = ").map_or(1, |c| c + 6),
                        "the id of an operator of the plan as hosting operator",
                        &host,
                    ));
                }
            }
        } else if let Some((id, rest)) = parse_section_header(trimmed) {
            let section = r.read_section(line_no, rest)?;
            r.sections.insert(id, section);
        } else {
            return Err(PlanError::syntax(
                line_no,
                1,
                "a detail section header `(N) Operator` or a `Subquery:` header",
                trimmed,
            ));
        }
    }
    for (host, name) in unresolved {
        if let (Some(&host_idx), Some(&root)) = (r.by_id.get(&host), subquery_by_name.get(&name)) {
            link_subquery(&mut r.nodes, host_idx, root);
        }
    }
    r.apply_sections()?;
    promote_lone_initial_plan(&mut r.nodes);
    Ok(PlanGraph {
        format,
        nodes: r.nodes,
        roots,
        execution: Default::default(),
        logical_plans: Default::default(),
        warnings: r.warnings,
    })
}

impl<'a> Reader<'a> {
    /// Read tree lines from `pos` up to a blank line; returns the roots it created.
    fn read_tree(&mut self, base: PlanSection, main: bool) -> Result<Vec<NodeIdx>, PlanError> {
        let mut builder = TreeBuilder::new(base);
        let mut fed: Vec<NodeIdx> = Vec::new();
        let mut roots = Vec::new();
        while self.pos < self.lines.len() {
            let line_no = self.pos + 1;
            let raw = self.lines[self.pos];
            let Some(tl) = split_tree_line(raw) else {
                break;
            };
            if parse_section_header(raw).is_some() && tl.col == 0 {
                break;
            }
            self.pos += 1;
            if let Some(section) = section_marker(tl.text) {
                builder.marker(tl.col, section);
                continue;
            }
            let (codegen_star, body) = match tl.text.strip_prefix("* ") {
                Some(rest) => (true, rest),
                None => (false, tl.text),
            };
            let Some((name, id, _after)) = split_tree_node(body) else {
                let body_col = tl.col + if codegen_star { 2 } else { 0 };
                return Err(PlanError::syntax(
                    line_no,
                    body_col + 1,
                    "an operator followed by its id, like `Filter (3)`",
                    body,
                ));
            };
            let aqe = name.starts_with("AdaptiveSparkPlan");
            let wrapper = is_subquery_wrapper(name);
            let placement = builder
                .node(tl.col, tl.connector, aqe, wrapper)
                .map_err(|expected| PlanError::syntax(line_no, tl.col + 1, expected, body))?;
            // an operator without id gets one from its line, unique and never a real `(N)`
            let synthetic;
            let id = if id == "unknown" {
                synthetic = format!("unknown@{line_no}");
                synthetic.as_str()
            } else {
                id
            };
            let (idx, fresh) = match self.by_id.get(id) {
                Some(&existing) => (existing, false),
                None => {
                    check_operator_count(self.nodes.len(), line_no, name)?;
                    let mut node = new_node(id.to_string(), name, placement.section, Some(line_no));
                    if codegen_star {
                        node.details
                            .arguments
                            .insert("wholeStageCodegen".into(), "true".into());
                    }
                    self.nodes.push(node);
                    let idx = self.nodes.len() - 1;
                    self.by_id.insert(id.to_string(), idx);
                    let first = super::operators::first_word(name);
                    if let Some(extra) = name
                        .get(first.len()..)
                        .map(str::trim)
                        .filter(|e| !e.is_empty())
                    {
                        self.tree_extra.insert(idx, extra.to_string());
                    }
                    if main && !id.starts_with("unknown@") {
                        self.tree_ids.push((id.to_string(), line_no));
                    }
                    (idx, true)
                }
            };
            fed.push(idx);
            match placement.parent.and_then(|p| fed.get(p).copied()) {
                Some(parent) if wrapper => link_subquery(&mut self.nodes, parent, idx),
                Some(parent) if fresh => link_new_child(&mut self.nodes, parent, idx),
                Some(parent) => link_child(&mut self.nodes, parent, idx),
                None => {
                    if !roots.contains(&idx) {
                        roots.push(idx);
                    }
                }
            }
        }
        if builder.len() == 0 {
            let line_no = (self.pos + 1).min(self.lines.len().max(1));
            return Err(PlanError::syntax(
                line_no,
                1,
                "a plan tree",
                self.lines.get(self.pos).copied().unwrap_or(""),
            ));
        }
        Ok(roots)
    }

    /// Read `Key [n]: value` lines of one detail section.
    fn read_section(&mut self, header_line: usize, rest: &str) -> Result<Section, PlanError> {
        let (name, codegen, reuses) = split_section_name(rest);
        let mut section = Section {
            line: header_line,
            name: name.to_string(),
            codegen,
            reuses,
            fields: Vec::new(),
        };
        self.pos += 1;
        while self.pos < self.lines.len() {
            let line = self.lines[self.pos];
            if line.trim().is_empty() || is_trailing_section_title(line.trim()) {
                break;
            }
            match split_field(line) {
                Some((key, value)) => section.fields.push((key, value.to_string())),
                None => match section.fields.last_mut() {
                    // a value printed over several lines (a string literal with a newline)
                    // continues only while its brackets are open
                    Some((_, value)) if !unclosed_brackets(value).is_empty() => {
                        value.push('\n');
                        value.push_str(line);
                    }
                    // Not `Key: value` (Spark's approved TPC-DS plans print `Location [not included
                    // in comparison]/…`): kept raw on the node, reported as a warning.
                    _ => {
                        let shown: String = line.chars().take(80).collect();
                        self.warnings.push(format!(
                            "line {}: detail line `{shown}` of `{}` is not `Key: value`; kept as \
                             `raw`",
                            self.pos + 1,
                            section.name
                        ));
                        section.fields.push(("raw".to_owned(), line.to_owned()));
                    }
                },
            }
            self.pos += 1;
        }
        // Cut inside a value: the input ended here with brackets open.
        if self.pos >= self.lines.len()
            && let Some((key, value)) = section.fields.last()
        {
            let missing = unclosed_brackets(value);
            if !missing.is_empty() {
                let last_line = self.lines.len();
                let col = self.lines[last_line - 1].len() + 1;
                return Err(PlanError::syntax(
                    last_line,
                    col,
                    &format!("`{missing}` to close the value of `{key}`"),
                    "",
                ));
            }
        }
        Ok(section)
    }

    /// Attach detail sections to nodes; every id of the main tree needs one.
    fn apply_sections(&mut self) -> Result<(), PlanError> {
        // Spark prints the sections in id order, so a cut-off plan lacks the *last* ones: a
        // missing section is an error when no later section exists (a gap inside is tolerated)
        let last_section = self
            .sections
            .keys()
            .filter_map(|id| id.parse::<u64>().ok())
            .max();
        let cut_off = |id: &str| match (id.parse::<u64>(), last_section) {
            (Ok(n), Some(last)) => n > last,
            _ => true,
        };
        if let Some((id, line)) = self
            .tree_ids
            .iter()
            .find(|(id, _)| !self.sections.contains_key(id) && cut_off(id))
        {
            let last = self.lines.len().max(1);
            return Err(PlanError::syntax(
                last,
                self.lines.last().map_or(1, |l| l.len() + 1),
                &format!("the detail section `({id}) …` of the node on line {line}"),
                "",
            ));
        }
        let mut sections: Vec<(String, Section)> = self.sections.drain().collect();
        sections.sort_by_key(|(_, s)| s.line);
        // an expression may name a column of another operator's (`count(Yearly Amount Spent#7)`
        // in an aggregate's results): every operator's names are known to each
        let spelled = spelled_out_names(sections.iter().flat_map(|(_, s)| s.fields.iter()));
        for (id, section) in sections {
            let idx = match self.by_id.get(&id) {
                Some(&idx) => idx,
                None => {
                    // a section whose node the tree did not show: keep it, never drop it
                    check_operator_count(self.nodes.len(), section.line, &section.name)?;
                    self.nodes.push(new_node(
                        id.clone(),
                        &section.name,
                        PlanSection::Final,
                        Some(section.line),
                    ));
                    let idx = self.nodes.len() - 1;
                    self.by_id.insert(id.clone(), idx);
                    idx
                }
            };
            let extra = self.tree_extra.get(&idx).cloned().unwrap_or_default();
            let node = &mut self.nodes[idx];
            if !section.name.is_empty() && section.name != node.name {
                // the detail header names the operator without the tree's extra words
                let info = classify(&section.name);
                node.name = section.name.as_str().into();
                node.operator = info.canonical.as_str().into();
                node.family = info.family;
                node.node_kind = info.kind;
            }
            let info = classify(&node.name);
            let star = node.details.arguments.remove("wholeStageCodegen");
            *node.details = from_fields(&info, &node.name, &section.fields, &extra, &spelled);
            if let Some(star) = star {
                node.details
                    .arguments
                    .insert("wholeStageCodegen".into(), star);
            }
            node.codegen_stage = section.codegen;
            if let Some(target) = section.reuses.as_ref().and_then(|t| self.by_id.get(t)) {
                self.nodes[idx].reuses = Some(*target);
            }
        }
        Ok(())
    }
}

/// `BroadcastHashJoin Inner BuildRight (18), extra` → (name, id, extra).
fn split_tree_node(text: &str) -> Option<(&str, &str, &str)> {
    let b = text.as_bytes();
    let mut search = 0;
    while let Some(off) = text.get(search..)?.find('(') {
        let open = search + off;
        // Spark prints `(unknown)` for an operator it gave no id
        if text[open..].starts_with("(unknown)") && open > 0 && b[open - 1] == b' ' {
            let name = text[..open].trim();
            let after = text[open + "(unknown)".len()..].trim();
            return (!name.is_empty()).then_some((name, "unknown", after));
        }
        let digits_end = b[open + 1..]
            .iter()
            .position(|c| !c.is_ascii_digit())
            .map(|p| open + 1 + p)?;
        if digits_end > open + 1
            && b.get(digits_end) == Some(&b')')
            && (open == 0 || b[open - 1] == b' ')
        {
            let name = text[..open].trim();
            if name.is_empty() {
                return None;
            }
            return Some((
                name,
                &text[open + 1..digits_end],
                text[digits_end + 1..].trim(),
            ));
        }
        search = open + 1;
    }
    None
}

/// `(24) HashAggregate [codegen id : 4]` → ("24", "HashAggregate [codegen id : 4]").
pub(crate) fn parse_section_header(line: &str) -> Option<(String, &str)> {
    let rest = line.strip_prefix('(')?;
    let close = rest.find(')')?;
    let id = &rest[..close];
    if id.is_empty() || !id.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let after = rest[close + 1..].strip_prefix(' ')?;
    Some((id.to_string(), after))
}

/// `HashAggregate [codegen id : 4]` / `ReusedExchange [Reuses operator id: 38]`.
fn split_section_name(rest: &str) -> (&str, Option<u32>, Option<String>) {
    let mut name = rest.trim();
    let mut codegen = None;
    let mut reuses = None;
    if let Some(open) = name.rfind(" [") {
        let tag = name[open + 2..].trim_end_matches(']');
        if let Some(n) = tag.strip_prefix("codegen id : ") {
            codegen = n.trim().parse().ok();
            name = name[..open].trim();
        } else if let Some(n) = tag.strip_prefix("Reuses operator id: ") {
            reuses = Some(n.trim().to_string());
            name = name[..open].trim();
        }
    }
    (name, codegen, reuses)
}

/// `Output [2]: [a#1]` → ("Output", "[a#1]"); `Condition : x` → ("Condition", "x").
fn split_field(line: &str) -> Option<(String, &str)> {
    let colon = line.find(':')?;
    let key_part = line[..colon].trim_end();
    let key = match key_part.rfind(" [") {
        Some(open)
            if key_part.ends_with(']')
                && key_part[open + 2..key_part.len() - 1]
                    .bytes()
                    .all(|c| c.is_ascii_digit()) =>
        {
            &key_part[..open]
        }
        _ => key_part,
    };
    let valid = !key.is_empty()
        && key.starts_with(|c: char| c.is_ascii_alphabetic())
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == ' ');
    if !valid {
        return None;
    }
    let value = line[colon + 1..]
        .strip_prefix(' ')
        .unwrap_or(&line[colon + 1..]);
    Some((key.to_string(), value))
}

/// `Subquery:1 Hosting operator id = 3 Hosting Expression = Subquery subquery#1290, [id=#1]`.
fn parse_subquery_header(line: &str) -> Option<(String, &str)> {
    let rest = line.strip_prefix("Subquery:")?;
    let at = rest.find("Hosting operator id = ")?;
    let after = &rest[at + "Hosting operator id = ".len()..];
    let id: String = after.chars().take_while(char::is_ascii_digit).collect();
    if id.is_empty() {
        return None;
    }
    let expr = after
        .find("Hosting Expression = ")
        .map_or("", |p| &after[p + "Hosting Expression = ".len()..]);
    Some((id, expr))
}

/// `ReusedSubquery Subquery subquery#1290, [id=#10326]` → `subquery#1290`;
/// `ss_sold_date_sk#2 IN dynamicpruning#5` → `dynamicpruning#5` (one dynamic-pruning subquery is
/// printed once and shared by every scan it prunes).
fn subquery_name(expr: &str) -> Option<String> {
    let words = || {
        expr.split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
            .filter(|w| w.contains('#') && !w.starts_with('['))
    };
    let named = |w: &&str| {
        let head = w.split('#').next().unwrap_or("");
        head == "dynamicpruning" || head.ends_with("subquery")
    };
    let found = words().find(named).or_else(|| words().next());
    found.map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_node_text_splits_name_id_and_extra() {
        assert_eq!(
            split_tree_node("BroadcastHashJoin Inner BuildRight (18)"),
            Some(("BroadcastHashJoin Inner BuildRight", "18", ""))
        );
        assert_eq!(
            split_tree_node("AQEShuffleRead (23), coalesced"),
            Some(("AQEShuffleRead", "23", ", coalesced"))
        );
        assert_eq!(
            split_tree_node("Scan parquet  (1)"),
            Some(("Scan parquet", "1", ""))
        );
        assert_eq!(split_tree_node("Filter (3"), None);
    }

    #[test]
    fn subquery_names_prefer_the_subquery_over_the_column() {
        assert_eq!(
            subquery_name("ss_sold_date_sk#2 IN dynamicpruning#5").as_deref(),
            Some("dynamicpruning#5")
        );
        assert_eq!(
            subquery_name("ReusedSubquery Subquery scalar-subquery#12, [id=#3]").as_deref(),
            Some("scalar-subquery#12")
        );
        assert_eq!(
            subquery_name("Subquery subquery#1290, [id=#1]").as_deref(),
            Some("subquery#1290")
        );
    }

    #[test]
    fn a_reused_subquery_printed_before_its_definition_is_linked() {
        let text = "== Physical Plan ==\n* Filter (2)\n+- * Filter (1)\n\n\n(1) Filter\nCondition : (a#1 > Subquery scalar-subquery#9, [id=#3])\n\n(2) Filter\nCondition : (a#1 < ReusedSubquery Subquery scalar-subquery#9, [id=#3])\n\n===== Subqueries =====\n\nSubquery:1 Hosting operator id = 2 Hosting Expression = ReusedSubquery Subquery scalar-subquery#9, [id=#3]\n\nSubquery:2 Hosting operator id = 1 Hosting Expression = Subquery scalar-subquery#9, [id=#3]\n* LocalTableScan (3)\n\n\n(3) LocalTableScan\nOutput [1]: [b#2]\n";
        let graph = parse_formatted(text, PlanFormat::Formatted).expect("parses");
        let idx = |id: &str| graph.node_by_id(id).expect("node");
        assert_eq!(graph.nodes[idx("1")].subqueries, [idx("3")]);
        assert_eq!(graph.nodes[idx("2")].subqueries, [idx("3")]);
    }

    #[test]
    fn detail_lines_split_key_and_value() {
        assert_eq!(
            split_field("Output [2]: [a#1, b#2]"),
            Some(("Output".into(), "[a#1, b#2]"))
        );
        assert_eq!(
            split_field("Condition : (a#1 > 1)"),
            Some(("Condition".into(), "(a#1 > 1)"))
        );
        assert_eq!(
            split_field("Join type: Inner"),
            Some(("Join type".into(), "Inner"))
        );
        assert_eq!(split_field("(a#1 > 1)"), None);
    }
}
