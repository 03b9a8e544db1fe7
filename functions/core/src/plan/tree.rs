//! Reading the indented operator trees Spark prints (`explain()` and the top of
//! `explain("formatted")`).
//!
//! A tree line is a prefix of spaces, `:` and `|` guides, an optional connector (`+- ` or `:- `),
//! then the node text. A node's parent is the nearest earlier node whose text starts further left.
//! Two wrinkles:
//!
//! * AQE prints `+- == Final Plan ==` / `+- == Initial Plan ==` *markers* under
//!   `AdaptiveSparkPlan`; the next node at the marker's column is the root of that section.
//!   Inside subqueries Spark mis-indents these markers (they sit at the `AdaptiveSparkPlan`'s own
//!   column), so a marker attaches to the nearest open `AdaptiveSparkPlan` at or left of it.
//! * Subquery plans hang under the node whose expression uses them, one guide further right;
//!   the column rule places them without special cases.
//!
//! [`TreeBuilder`] is fed lines in order and answers each node's parent and [`PlanSection`].

use super::graph::PlanSection;

/// One line of a tree, split into layout and text. `col` is the byte column of the text.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TreeLine<'a> {
    pub col: usize,
    pub connector: bool,
    pub text: &'a str,
}

/// Split a tree line; `None` for a blank line.
pub(crate) fn split_tree_line(line: &str) -> Option<TreeLine<'_>> {
    let line = line.trim_end();
    let guides = line
        .find(|c: char| !matches!(c, ' ' | ':' | '|'))
        .unwrap_or(line.len());
    let rest = &line[guides..];
    if rest.is_empty() {
        return None;
    }
    // `:- ` is a connector only when the guide scan stopped right before its `-`.
    let (connector, text_col) = if rest.starts_with("+-") {
        (true, guides + 2)
    } else if rest.starts_with('-') && guides > 0 && line.as_bytes()[guides - 1] == b':' {
        (true, guides + 1)
    } else {
        (false, guides)
    };
    let after = &line[text_col..];
    let text = after.trim_start();
    let col = text_col + (after.len() - text.len());
    if text.is_empty() {
        return None;
    }
    Some(TreeLine {
        col,
        connector,
        text,
    })
}

/// `== Final Plan ==` / `== Initial Plan ==` → the section it opens.
pub(crate) fn section_marker(text: &str) -> Option<PlanSection> {
    let inner = text.strip_prefix("==")?.strip_suffix("==")?.trim();
    match inner {
        "Final Plan" | "Current Plan" => Some(PlanSection::Final),
        "Initial Plan" => Some(PlanSection::Initial),
        _ => None,
    }
}

#[derive(Debug, Clone, Copy)]
enum Entry {
    Node {
        col: usize,
        idx: usize,
        aqe_host: bool,
        section: PlanSection,
    },
    Marker {
        col: usize,
        host: Option<usize>,
        section: PlanSection,
    },
}

impl Entry {
    fn col(&self) -> usize {
        match self {
            Entry::Node { col, .. } | Entry::Marker { col, .. } => *col,
        }
    }
}

/// Where a node sits: its parent (index in feeding order) and section.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Placement {
    pub parent: Option<usize>,
    pub section: PlanSection,
}

/// Places tree lines fed in order. `base` is the section of root nodes.
pub(crate) struct TreeBuilder {
    stack: Vec<Entry>,
    base: PlanSection,
    next_idx: usize,
}

impl TreeBuilder {
    pub(crate) fn new(base: PlanSection) -> Self {
        TreeBuilder {
            stack: Vec::new(),
            base,
            next_idx: 0,
        }
    }

    /// Number of nodes placed so far.
    pub(crate) fn len(&self) -> usize {
        self.next_idx
    }

    /// A `== … Plan ==` marker at `col`.
    pub(crate) fn marker(&mut self, col: usize, section: PlanSection) {
        let host_pos = self
            .stack
            .iter()
            .rposition(|e| matches!(e, Entry::Node { col: c, aqe_host: true, .. } if *c <= col))
            .or_else(|| {
                self.stack
                    .iter()
                    .rposition(|e| matches!(e, Entry::Node { col: c, .. } if *c < col))
            });
        let (host, host_section) = match host_pos.map(|p| self.stack[p]) {
            Some(Entry::Node { idx, section, .. }) => (Some(idx), section),
            _ => (None, self.base),
        };
        self.stack.truncate(host_pos.map_or(0, |p| p + 1));
        let section = match (host_section, section) {
            (_, PlanSection::Initial) => PlanSection::Initial,
            (PlanSection::Final, s) => s,
            (other, _) => other,
        };
        self.stack.push(Entry::Marker { col, host, section });
    }

    /// A node whose text starts at `col`. `aqe_host`: may own `== … Plan ==` markers.
    /// `subquery_root`: the node and its subtree form a subquery's plan.
    /// Errors name what was expected when a connector has nothing to hang from.
    pub(crate) fn node(
        &mut self,
        col: usize,
        connector: bool,
        aqe_host: bool,
        subquery_root: bool,
    ) -> Result<Placement, &'static str> {
        while let Some(top) = self.stack.last() {
            let pop = match top {
                Entry::Node { col: c, .. } => *c >= col,
                Entry::Marker { col: c, .. } => *c > col,
            };
            if !pop {
                break;
            }
            self.stack.pop();
        }
        let (parent, inherited) = match self.stack.last() {
            Some(Entry::Node { idx, section, .. }) => (Some(*idx), *section),
            Some(Entry::Marker { host, section, .. }) => (*host, *section),
            None => {
                if connector && self.next_idx > 0 {
                    return Err("a node indented under an earlier node");
                }
                (None, self.base)
            }
        };
        let section = if subquery_root && inherited != PlanSection::Initial {
            PlanSection::Subquery
        } else {
            inherited
        };
        let idx = self.next_idx;
        self.next_idx += 1;
        debug_assert!(self.stack.last().is_none_or(|e| e.col() <= col));
        self.stack.push(Entry::Node {
            col,
            idx,
            aqe_host,
            section,
        });
        Ok(Placement { parent, section })
    }
}

/// The text's lines, in a list sized once: a plan of a hundred thousand one-line operators does
/// not briefly hold its line list twice over while it grows.
pub(crate) fn lines_of(text: &str) -> Vec<&str> {
    let mut lines = Vec::with_capacity(text.bytes().filter(|&b| b == b'\n').count() + 1);
    lines.extend(text.lines());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_guides_connectors_and_text() {
        let l = split_tree_line(":  :- *(3) Project [a#1]").expect("line");
        assert_eq!(
            (l.col, l.connector, l.text),
            (6, true, "*(3) Project [a#1]")
        );
        let l = split_tree_line("   ResultQueryStage 3").expect("line");
        assert_eq!(
            (l.col, l.connector, l.text),
            (3, false, "ResultQueryStage 3")
        );
        assert!(split_tree_line("   ").is_none());
    }

    #[test]
    fn aqe_markers_open_final_and_initial_sections() {
        let mut b = TreeBuilder::new(PlanSection::Final);
        assert_eq!(b.node(0, false, true, false).map(|p| p.parent), Ok(None));
        b.marker(3, PlanSection::Final);
        let root = b.node(3, false, false, false).expect("final root");
        assert_eq!(
            root,
            Placement {
                parent: Some(0),
                section: PlanSection::Final
            }
        );
        assert_eq!(b.node(6, true, false, false).map(|p| p.parent), Ok(Some(1)));
        b.marker(3, PlanSection::Initial);
        let init = b.node(3, false, false, false).expect("initial root");
        assert_eq!(
            init,
            Placement {
                parent: Some(0),
                section: PlanSection::Initial
            }
        );
    }
}
