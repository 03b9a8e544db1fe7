//! The terminal table of `plan2code map`: one row per node in the plan's own tree order,
//! indented by depth as `explain` prints it, with AQE's final and initial plans (and subqueries)
//! as labelled sections; per row what a scan reads or how an exchange partitions, where the node
//! maps (file:lines, symbol, the snippet's first line), its confidence and band — coloured on a
//! terminal, and spelt out, so the band never rests on colour alone. When the plan carries
//! metrics (the Spark UI's JSON, an event log), a cost column shows each operator's measured
//! cost and the costliest lines of code follow the table (`plan2code_core::view` attributes
//! costs the same way the viewer does). A job of several executions gets one such table per
//! execution under a heading.

use comfy_table::{Cell, CellAlignment, Color, ContentArrangement, Table, presets};
use plan2code_core::contracts::{ConfidenceStatus, ExecutionReport, Job, MappingOutput};
use plan2code_core::plan::{NodeIdx, PlanGraph, PlanNode, PlanSection};
use plan2code_core::view::{Cost, hot_lines, operator_costs};
use std::collections::{HashMap, HashSet};

/// How many of the costliest lines follow the table.
const HOT_LINES_SHOWN: usize = 10;
/// How many of a hot line's nodes are named (costliest first).
const NODES_PER_HOT_LINE: usize = 4;

/// How the table is drawn.
#[derive(Debug, Clone, Copy, Default)]
pub struct TableStyle {
    /// Each node's explanation and alternatives after the table.
    pub explain: bool,
    /// Band colours (ANSI): for a terminal that has not asked for `NO_COLOR`.
    pub colour: bool,
}

/// A readable table: one row per node with what it reads (scans) or how it shuffles
/// (exchanges), where it maps (file:lines, symbol, the snippet's first line), its confidence and
/// status; with `explain`, each node's explanation and alternatives follow. Column widths follow
/// the content, so long paths never run into the next column. A job of several executions gets
/// one table per execution under a heading (id, description, duration, node count), and the
/// executions it skipped are listed with why.
pub fn render_table(job: &Job, plans: &[PlanGraph], style: TableStyle) -> String {
    let mappings: Vec<&MappingOutput> = job.result.iter().flat_map(|r| &r.mappings).collect();
    let mut out = String::new();
    if plans.len() <= 1 {
        let graph = plans.first();
        out.push_str(&node_table(&mappings, graph, style));
    } else {
        for report in &job.executions {
            out.push_str(&execution_heading(report));
            if report.skipped.is_some() {
                continue;
            }
            let graph = plans
                .iter()
                .find(|p| p.execution.execution_id == report.execution_id);
            let own: Vec<&MappingOutput> = mappings
                .iter()
                .copied()
                .filter(|m| m.execution_id == report.execution_id)
                .collect();
            out.push_str(&node_table(&own, graph, style));
            out.push('\n');
        }
    }
    let all = job
        .result
        .as_ref()
        .map(|r| r.mappings.as_slice())
        .unwrap_or_default();
    out.push_str(&hot_lines_table(plans, all));
    let s = &job.statistics;
    let executions = if plans.len() > 1 {
        format!("{} executions, ", plans.len())
    } else {
        String::new()
    };
    out.push_str(&format!(
        "\n{executions}{} nodes: {} mapped ({} confirmed, {} probable), {} unmapped; {} files, {} symbols indexed\n",
        s.total_nodes, s.mapped_nodes, s.confirmed_mappings, s.probable_mappings, s.unmapped_nodes, s.files_scanned, s.symbols_indexed
    ));
    out
}

/// `== execution 44 · collect at Foo.scala:12 · 1.3 s · 6 nodes ==` (or why it was skipped).
fn execution_heading(report: &ExecutionReport) -> String {
    let id = report
        .execution_id
        .map_or("-".to_string(), |id| id.to_string());
    let mut parts = vec![format!("execution {id}")];
    if let Some(root) = report.root_execution_id {
        parts.push(format!("inside execution {root}"));
    }
    if let Some(description) = &report.description {
        let line = crate::common::one_line(description);
        parts.push(if line.chars().count() > 80 {
            line.chars().take(79).collect::<String>() + "…"
        } else {
            line
        });
    }
    if let Some(ms) = report.duration_ms {
        parts.push(format!("{:.1} s", ms as f64 / 1000.0));
    }
    match &report.skipped {
        Some(why) => parts.push(format!("not mapped: {}", crate::common::one_line(why))),
        None => parts.push(format!("{} nodes", report.node_count)),
    }
    format!("== {} ==\n", parts.join(" · "))
}

/// A row of the table: a node at its depth in the tree (with its place in the graph when the
/// walk found it there), or a section's label.
enum Row<'m> {
    Section(&'static str),
    Node(&'m MappingOutput, usize, Option<NodeIdx>),
}

/// The mappings in the plan's tree order (pre-order from each root, children as `explain`
/// lists them), each at its depth: the final plan first, then — labelled — AQE's initial plan
/// and the subqueries, each node once. Without the graph (or for nodes it does not hold), the
/// mappings' own order, flat.
fn tree_rows<'m>(mappings: &[&'m MappingOutput], graph: Option<&PlanGraph>) -> Vec<Row<'m>> {
    let Some(graph) = graph else {
        return mappings.iter().map(|m| Row::Node(m, 0, None)).collect();
    };
    let by_id: HashMap<&str, &'m MappingOutput> = mappings
        .iter()
        .map(|m| (m.dag_node_id.as_str(), *m))
        .collect();
    let parents = graph.parents();
    let mut seen: HashSet<NodeIdx> = HashSet::new();
    let mut rows = Vec::new();
    let sections = [
        (PlanSection::Final, "final plan"),
        (
            PlanSection::Initial,
            "initial plan (AQE, before re-planning)",
        ),
        (PlanSection::Subquery, "subqueries"),
    ];
    let several = sections
        .iter()
        .filter(|(section, _)| graph.nodes.iter().any(|n| n.section == *section))
        .count()
        > 1;
    for (section, label) in sections {
        let roots: Vec<NodeIdx> = (0..graph.nodes.len())
            .filter(|&i| graph.nodes[i].section == section)
            .filter(|&i| {
                parents[i].is_none_or(|p| graph.nodes[p].section != section)
                    || graph.roots.contains(&i)
            })
            .collect();
        let mut section_rows = Vec::new();
        for root in roots {
            // explicit stack: a plan may nest deeper than the thread's stack allows
            let mut stack = vec![(root, 0usize)];
            while let Some((idx, depth)) = stack.pop() {
                if !seen.insert(idx) {
                    continue;
                }
                let node = &graph.nodes[idx];
                if let Some(m) = by_id.get(node.id.as_str()) {
                    section_rows.push(Row::Node(m, depth, Some(idx)));
                }
                // a child of another section (AQE's initial plan under `AdaptiveSparkPlan`)
                // opens that section instead
                for &child in node.children.iter().rev() {
                    if graph.nodes[child].section == section {
                        stack.push((child, depth + 1));
                    }
                }
            }
        }
        if several && !section_rows.is_empty() {
            rows.push(Row::Section(label));
        }
        rows.extend(section_rows);
    }
    // whatever the walk did not reach, as it came
    let placed: HashSet<&str> = rows
        .iter()
        .filter_map(|r| match r {
            Row::Node(m, _, _) => Some(m.dag_node_id.as_str()),
            Row::Section(_) => None,
        })
        .collect();
    let rest: Vec<Row<'m>> = mappings
        .iter()
        .filter(|m| !placed.contains(m.dag_node_id.as_str()))
        .map(|m| Row::Node(m, 0, None))
        .collect();
    rows.extend(rest);
    rows
}

/// The rows of one plan's nodes (and, with `explain`, their explanations).
fn node_table(mappings: &[&MappingOutput], graph: Option<&PlanGraph>, style: TableStyle) -> String {
    let costs = graph.map(operator_costs).unwrap_or_default();
    let measured = costs.iter().any(Cost::is_measured);
    let mut table = Table::new();
    table
        .load_preset(presets::NOTHING)
        .set_content_arrangement(ContentArrangement::Disabled);
    if style.colour {
        table.enforce_styling();
    } else {
        table.force_no_tty();
    }
    let mut header = vec![
        "id", "node", "kind", "code", "symbol", "conf", "status", "snippet",
    ];
    if measured {
        header.insert(7, "cost");
    }
    table.set_header(header);
    let rows = tree_rows(mappings, graph);
    for row in &rows {
        let (m, depth, idx) = match row {
            Row::Section(label) => {
                table.add_row(["".to_string(), format!("── {label} ──")]);
                continue;
            }
            Row::Node(m, depth, idx) => (*m, *depth, *idx),
        };
        // the walk's index; a node it did not reach is looked up by id
        let idx = idx.or_else(|| graph.and_then(|g| g.node_by_id(&m.dag_node_id)));
        let node = graph.zip(idx).map(|(g, i)| &g.nodes[i]);
        let name = match node.and_then(node_detail) {
            Some(detail) => format!("{} {detail}", m.node_name),
            None => m.node_name.clone(),
        };
        let node = format!("{}{name}", "  ".repeat(depth.min(MAX_INDENT)));
        let (code, symbol, snippet) = match &m.mapped_code {
            Some(c) => (
                format!("{}:{}", c.file, c.lines),
                c.symbol.clone().unwrap_or_else(|| "-".into()),
                first_line(&c.code_snippet),
            ),
            None => ("-".into(), "-".into(), String::new()),
        };
        let kind = match m.node_kind {
            plan2code_core::contracts::NodeKind::Code => "code",
            plan2code_core::contracts::NodeKind::Engine => "engine",
        };
        let status = if m.mapped_code.is_some() {
            format!("{:?}", m.confidence_status).to_lowercase()
        } else {
            "unmapped".to_string()
        };
        let status = Cell::new(status).fg(band_colour(m));
        let mut cells = vec![
            Cell::new(&m.dag_node_id),
            Cell::new(node),
            Cell::new(kind),
            Cell::new(code),
            Cell::new(symbol),
            Cell::new(format!("{:.2}", m.confidence)),
            status,
            Cell::new(snippet),
        ];
        if measured {
            let cost = idx.and_then(|i| costs.get(i)).copied().unwrap_or_default();
            cells.insert(7, Cell::new(describe_cost(&cost)));
        }
        table.add_row(cells);
    }
    for column in [0, 5] {
        if let Some(column) = table.column_mut(column) {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
    let mut out = table.trim_fmt();
    out.push('\n');
    if style.explain {
        for row in &rows {
            let Row::Node(m, _, _) = row else { continue };
            out.push_str(&format!(
                "\n{} {}: {}\n",
                m.dag_node_id, m.node_name, m.explanation
            ));
            for alt in &m.alternatives {
                out.push_str(&format!(
                    "    or {}:{} ({:.2}): {}\n",
                    alt.location.file, alt.location.lines, alt.confidence, alt.reason
                ));
            }
        }
    }
    out
}

/// A band's colour on a terminal; the status word beside it says the same.
fn band_colour(m: &MappingOutput) -> Color {
    if m.mapped_code.is_none() {
        return Color::DarkGrey;
    }
    match m.confidence_status {
        ConfidenceStatus::Confirmed => Color::Green,
        ConfidenceStatus::Probable => Color::Yellow,
        _ => Color::Red,
    }
}

/// `324 ms · 7 rows · 32.0 MiB shuffled · 1.2 GiB spilled`: the measured parts of a cost.
fn describe_cost(cost: &Cost) -> String {
    let mut parts = Vec::new();
    if cost.time_ms > 0.0 {
        parts.push(format_ms(cost.time_ms));
    }
    if cost.rows > 0.0 {
        parts.push(format!("{} rows", cost.rows.round()));
    }
    if cost.shuffle_bytes > 0.0 {
        parts.push(format!("{} shuffled", format_bytes(cost.shuffle_bytes)));
    }
    if cost.spill_bytes > 0.0 {
        parts.push(format!("{} spilled", format_bytes(cost.spill_bytes)));
    }
    parts.join(" · ")
}

fn format_ms(ms: f64) -> String {
    match ms {
        ms if ms >= 60_000.0 => format!("{:.1} min", ms / 60_000.0),
        ms if ms >= 1_000.0 => format!("{:.1} s", ms / 1_000.0),
        ms => format!("{ms:.0} ms"),
    }
}

fn format_bytes(bytes: f64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes;
    let mut unit = 0;
    while value >= 1024.0 && unit < UNITS.len() - 1 {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{value:.0} B")
    } else {
        format!("{value:.1} {}", UNITS[unit])
    }
}

/// The costliest lines of code (when the plan carries metrics): each line's operators' summed
/// time, rows, shuffle and spill, and which nodes they are.
fn hot_lines_table(plans: &[PlanGraph], mappings: &[MappingOutput]) -> String {
    let hot = hot_lines(plans, mappings);
    if hot.is_empty() {
        return String::new();
    }
    let mut table = Table::new();
    table
        .load_preset(presets::NOTHING)
        .set_content_arrangement(ContentArrangement::Disabled)
        .force_no_tty()
        .set_header(["#", "code", "cost", "nodes", "line"]);
    for (rank, line) in hot.iter().take(HOT_LINES_SHOWN).enumerate() {
        // a single plan's nodes by their id as the table shows it; an application's with the
        // execution too (`3:22`)
        let mut nodes: Vec<String> = line
            .nodes
            .iter()
            .take(NODES_PER_HOT_LINE)
            .map(|n| match n.key.rsplit_once(':') {
                Some((_, id)) if plans.len() <= 1 => format!("{} #{id}", n.name),
                _ => format!("{} #{}", n.name, n.key),
            })
            .collect();
        if line.nodes.len() > NODES_PER_HOT_LINE {
            nodes.push(format!("{} more", line.nodes.len() - NODES_PER_HOT_LINE));
        }
        table.add_row([
            (rank + 1).to_string(),
            format!("{}:{}", line.file, line.lines),
            describe_cost(&line.cost),
            nodes.join(", "),
            first_line(&line.code),
        ]);
    }
    if let Some(column) = table.column_mut(0) {
        column.set_cell_alignment(CellAlignment::Right);
    }
    format!(
        "\nhot lines: the code whose operators cost the most ({} of {})\n{}\n",
        hot.len().min(HOT_LINES_SHOWN),
        hot.len(),
        table.trim_fmt()
    )
}

/// Deepest indentation shown: a plan nested deeper still lists, flush at this depth.
const MAX_INDENT: usize = 24;

/// What tells a node apart from others of its kind: the table or file a scan reads, the
/// partitioning of an exchange.
fn node_detail(node: &PlanNode) -> Option<String> {
    let details = &node.details;
    if let Some(scan) = &details.scan {
        let path = scan.paths.first().map(|p| {
            p.trim_end_matches('/')
                .rsplit('/')
                .next()
                .unwrap_or(p)
                .to_string()
        });
        return scan.table.clone().or(path);
    }
    // a broadcast's "partitioning" is its key projection: the name says enough
    let partitioning = details
        .partitioning
        .as_ref()
        .filter(|p| p.kind != "broadcast")?;
    let exprs: Vec<&str> = partitioning.exprs.iter().map(|e| e.text.as_str()).collect();
    Some(match (exprs.is_empty(), partitioning.num_partitions) {
        (true, _) => partitioning.kind.clone(),
        (false, Some(n)) => format!("{}({}, {n})", partitioning.kind, exprs.join(", ")),
        (false, None) => format!("{}({})", partitioning.kind, exprs.join(", ")),
    })
}

/// The snippet's first non-blank line, trimmed and cut at 60 characters.
fn first_line(snippet: &str) -> String {
    let line = snippet
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if line.chars().count() > 60 {
        line.chars().take(59).collect::<String>() + "…"
    } else {
        line.to_string()
    }
}
