//! What the viewer shows, computed once for the live page (`plan2code serve`, the API Lambda) and
//! the self-contained HTML report (`plan2code map --format html`), so both draw the same thing:
//!
//! * [`cost`] — each operator's measured cost from the plan's metrics (codegen time shared
//!   among the fused operators);
//! * [`hot`] — hot lines: code locations ranked by the cost of the operators mapped to them;
//! * [`graph`] — every execution's plan laid out as a layered DAG, nodes labelled with their
//!   mapping, band and cost;
//! * [`highlight`] — a repository file as syntax-highlighted HTML lines.
//!
//! [`Overview`] bundles the first three for a job; the page fetches a file's lines on demand, or
//! finds them in a [`Report`], which embeds everything the page shows into one file.

pub mod cost;
pub mod graph;
pub mod highlight;
pub mod hot;

use crate::code::texts::{FileTexts, MAX_SHOWN_FILE_BYTES};
use crate::contracts::{Job, MappingOutput};
use crate::plan::PlanGraph;
use serde::Serialize;
use std::collections::BTreeMap;

pub use cost::{Cost, MetricValue, operator_costs};
pub use graph::{GraphView, NodeView, graph_views};
pub use highlight::{escape_html, highlight_lines};
pub use hot::{HotLine, hot_lines};

/// A job's plans laid out and its hot lines.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Overview {
    /// One per execution, in execution order.
    pub graphs: Vec<GraphView>,
    /// Empty when no plan carries metrics.
    pub hot_lines: Vec<HotLine>,
}

impl Overview {
    pub fn new(plans: &[PlanGraph], mappings: &[MappingOutput]) -> Self {
        Self {
            graphs: graph_views(plans, mappings),
            hot_lines: hot_lines(plans, mappings),
        }
    }
}

/// Everything a self-contained report shows: the job (with its mappings), the overview, and the
/// highlighted lines of every file a mapping or an alternative points into.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub job: Job,
    pub overview: Overview,
    /// Highlighted HTML lines by repository path.
    pub sources: BTreeMap<String, Vec<String>>,
}

impl Report {
    pub fn new(job: Job, plans: &[PlanGraph], texts: &FileTexts) -> Self {
        let mappings: &[MappingOutput] = job
            .result
            .as_ref()
            .map(|r| r.mappings.as_slice())
            .unwrap_or_default();
        let overview = Overview::new(plans, mappings);
        let mut sources = BTreeMap::new();
        let referenced = mappings.iter().flat_map(|m| {
            m.mapped_code
                .iter()
                .map(|c| c.file.as_str())
                .chain(m.alternatives.iter().map(|a| a.location.file.as_str()))
        });
        for path in referenced {
            if sources.contains_key(path) {
                continue;
            }
            if let Some(text) = texts.get(path).filter(|t| t.len() <= MAX_SHOWN_FILE_BYTES) {
                sources.insert(path.to_owned(), highlight_lines(path, text));
            }
        }
        Self {
            job,
            overview,
            sources,
        }
    }
}
