//! Node 4, `ast_filter`: keep candidates whose syntax can produce the operator, and score it.
//!
//! `astScore = op·0.5 + verb·0.3 + notExcluded·0.2`, where
//! * `op` — the site's construct can produce the node's operator family at all;
//! * `verb` — the construct is the operator's own verb (`groupBy`/`agg`/`GROUP BY` for an
//!   aggregate, `filter`/`where`/`WHERE` for a filter …) rather than one that merely can produce it
//!   (`select(sum(x))`), and its arguments carry the node's evidence;
//! * `notExcluded` — not test code, a utility/logging helper, or dead code.
//!
//! Candidates failing `op` are dropped unless nothing else remains.

use super::retrieve::Candidate;
use super::semantics::SemanticDescription;
use super::sites::{SiteKind, SiteTable};
use crate::code::SqlClauseKind as K;
use crate::plan::OperatorFamily as F;

/// Whether a construct is the family's own verb.
fn is_own_verb(family: F, kind: &SiteKind) -> bool {
    match kind {
        SiteKind::Call { method, .. } => {
            let m = method.to_lowercase();
            let verbs: &[&str] = match family {
                F::Filter => &["filter", "where", "dropna", "sampleby"],
                F::Project | F::PythonEval => &[
                    "select",
                    "withcolumn",
                    "withcolumns",
                    "selectexpr",
                    "withcolumnrenamed",
                    "drop",
                ],
                F::Aggregate | F::Expand => &[
                    "groupby",
                    "agg",
                    "count",
                    "distinct",
                    "dropduplicates",
                    "sum",
                    "avg",
                    "max",
                    "min",
                    "mean",
                    "pivot",
                    "rollup",
                    "cube",
                ],
                F::Join => &["join", "crossjoin"],
                F::Sort => &["orderby", "sort", "sortwithinpartitions"],
                F::Limit => &[
                    "limit", "take", "head", "first", "isempty", "show", "orderby", "sort",
                ],
                F::Window => &["withcolumn", "select"],
                F::Union => &["union", "unionall", "unionbyname"],
                F::Generate => &["select", "withcolumn"],
                F::Sample => &["sample", "randomsplit"],
                F::Scan => &[
                    "parquet",
                    "csv",
                    "json",
                    "orc",
                    "load",
                    "table",
                    "createdataframe",
                    "range",
                    "textfile",
                    "sql",
                ],
                F::Exchange => &["repartition", "repartitionbyrange", "coalesce"],
                _ => &[],
            };
            verbs.contains(&m.as_str())
        }
        SiteKind::Sql { kind, .. } => matches!(
            (family, kind),
            (F::Filter, K::Where | K::WherePredicate | K::Having)
                | (F::Project, K::Select | K::SelectItem)
                | (F::Aggregate, K::GroupBy | K::SelectItem)
                | (
                    F::Join,
                    K::Join | K::JoinPredicate | K::From | K::WherePredicate
                )
                | (F::Sort, K::OrderBy)
                | (F::Limit, K::Limit | K::OrderBy)
                | (F::Window, K::Window | K::SelectItem)
                | (F::Union, K::Union)
                | (F::Scan, K::From)
        ),
    }
}

/// Score and filter candidates for one node.
pub fn ast_filter(
    sem: &SemanticDescription,
    candidates: Vec<Candidate>,
    table: &SiteTable,
) -> Vec<Candidate> {
    let (family, target) = sem.target();
    let mut scored: Vec<(bool, Candidate)> = candidates
        .into_iter()
        .map(|mut c| {
            let site = &table.sites[c.site];
            let op = super::localise::can_produce(family, &target, site);
            let verb_shape = if is_own_verb(family, &site.kind) {
                0.6
            } else {
                0.2
            };
            let verb = verb_shape + 0.4 * c.keyword_match;
            let not_excluded = !(site.flags.test || site.flags.utility || site.flags.dead);
            c.ast_score = f64::from(u8::from(op)) * 0.5
                + verb * 0.3
                + f64::from(u8::from(not_excluded)) * 0.2;
            (op, c)
        })
        .collect();
    if scored.iter().any(|(op, _)| *op) {
        scored.retain(|(op, _)| *op);
    }
    scored.into_iter().map(|(_, c)| c).collect()
}
