//! Node 2, `plan_semantics`: what a plan node means and what evidence of it to look for in code.
//!
//! For every node this produces a [`SemanticDescription`]: the operator's behaviour in a sentence
//! (from the seed table below), its [`Evidence`] signature (the columns, functions, literals,
//! aliases, tables and paths that the *user's* code must have written to produce it — not the
//! pass-through output columns every operator carries), and whether the node was written by the
//! user at all:
//!
//! * `engine` nodes (codegen wrappers, query stages, adapters) have no code of their own;
//! * *derived* nodes were inserted by the planner to serve another operator — the Exchange and
//!   Sort a sort-merge join requires, the BroadcastExchange under a broadcast join, a
//!   column-pruning Project, a Filter of inferred `isnotnull` checks, the Python-eval node under a
//!   UDF projection. They are mapped to the statement of their *consumer*, the nearest ancestor
//!   that was written by the user, and say so.

use super::evidence::{
    CACHED, CACHED_READ, DISTINCT, DROPPED_COLUMN, Evidence, FILL_VALUE, FILLED_COLUMN,
    FILLS_NULLS, Grouping, JOINED_ON_NAMES, KEY_LEFT_OUT, NULL_DROP, PARTITIONED, RangeBounds,
    SQL_COMMAND, STRUCT_FIELDS, TokenKind, canonical_literal, is_noise_function, normalise_column,
    normalise_function,
};
use super::operations::{CONCATENATION, TYPED_FILTER, calls_closure, is_typed_operator};
use crate::code::lang::vocab::{ASC_NULLS_LAST, DESC_NULLS_FIRST};
use crate::code::sql_expr::COUNT_OF_ROWS;
use crate::contracts::NodeKind;
use crate::plan::{Expr, NodeIdx, OperatorFamily, PlanGraph, PlanNode};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};

/// What one plan node means, for retrieval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SemanticDescription {
    /// The SQL execution of the node's plan, when the input named it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub execution_id: Option<u64>,
    pub dag_node_id: String,
    pub node_name: String,
    pub operator: String,
    pub family: OperatorFamily,
    pub node_kind: NodeKind,
    /// One sentence on what the operator does.
    pub behaviour: String,
    /// Facts the producing code must mention (normalised, see `evidence`).
    pub signature: Vec<(String, String)>,
    /// Retrieval terms (operator words + signature values).
    pub query_terms: Vec<String>,
    /// When the planner inserted this node for another one: that consumer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub induced_by: Option<Consumer>,
}

/// The user-written operator a derived or engine node serves.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Consumer {
    pub dag_node_id: String,
    pub node_name: String,
    pub family: OperatorFamily,
    pub signature: Vec<(String, String)>,
    /// Why this node exists for it (`shuffle required by HashAggregate`).
    pub reason: String,
}

impl Consumer {
    /// Node `served` as the operator another node serves, for `reason`.
    pub fn serving(served: &SemanticDescription, reason: String) -> Self {
        Self {
            dag_node_id: served.dag_node_id.clone(),
            node_name: served.node_name.clone(),
            family: served.family,
            signature: served.signature.clone(),
            reason,
        }
    }
}

impl SemanticDescription {
    /// The node's key inside its job (`contracts::node_key`).
    pub fn node_key(&self) -> String {
        crate::contracts::node_key(self.execution_id, &self.dag_node_id)
    }

    /// The evidence to search for: the consumer's for derived nodes, the node's own otherwise.
    pub fn target(&self) -> (OperatorFamily, Evidence) {
        match &self.induced_by {
            Some(c) => (c.family, evidence_of(&c.signature)),
            None => (self.family, evidence_of(&self.signature)),
        }
    }

    /// Whether this is the rows a scan of objects is turned into (`rdd.toDF()` of case classes:
    /// a `SerializeFromObject` serving a `Scan` of `obj#…`). Spark prunes it to the columns a
    /// later statement reads, which then produced it ([`super::localise`]), and else it is the
    /// `toDF`'s.
    pub fn turns_scanned_objects_into_rows(&self) -> bool {
        self.operator == "SerializeFromObject"
            && self
                .induced_by
                .as_ref()
                .is_some_and(|c| c.family == OperatorFamily::Scan)
    }

    /// Whether this node's rows of scanned objects may have been pruned for a later statement
    /// ([`Self::turns_scanned_objects_into_rows`]) — not when they keep every field of the
    /// repository's class ([`EVERY_FIELD_KEPT`]).
    pub fn may_be_pruned_objects(&self) -> bool {
        self.turns_scanned_objects_into_rows()
            && self
                .induced_by
                .as_ref()
                .is_some_and(|c| !c.reason.starts_with(EVERY_FIELD_KEPT))
    }

    /// Whether the planner (not the user) put this node in the plan.
    pub fn is_derived(&self) -> bool {
        self.induced_by.is_some() && self.node_kind == NodeKind::Code
    }
}

fn kind_name(kind: TokenKind) -> &'static str {
    match kind {
        TokenKind::Column => "column",
        TokenKind::Function => "function",
        TokenKind::Literal => "literal",
        TokenKind::Alias => "alias",
        TokenKind::Table => "table",
        TokenKind::Path => "path",
    }
}

fn kind_from_name(name: &str) -> Option<TokenKind> {
    Some(match name {
        "column" => TokenKind::Column,
        "function" => TokenKind::Function,
        "literal" => TokenKind::Literal,
        "alias" => TokenKind::Alias,
        "table" => TokenKind::Table,
        "path" => TokenKind::Path,
        _ => return None,
    })
}

/// The kind name under which a bag's spellings travel ([`Evidence::spellings`]).
const SPELLING: &str = "spelling";
/// … and its grouping ([`Evidence::grouping`]).
const GROUPING: &str = "grouping";
/// … and its join keys, in order ([`Evidence::key_order`]).
const KEY: &str = "key";
/// … and that its join keeps both sides' keys ([`Evidence::keeps_both_keys`]).
const BOTH_KEYS: &str = "keepsBothKeys";
/// … and that a test above its inner join reads its rows ([`Evidence::nulls_rejected_above`]).
const NULLS_REJECTED_ABOVE: &str = "nullsRejectedAbove";
/// … and that it de-duplicates narrowed rows ([`Evidence::narrowed_rows`]).
const NARROWED_ROWS: &str = "narrowedRows";
/// … and the columns it passes through ([`Evidence::passed_through`]).
const PASSED_THROUGH: &str = "passedThrough";
/// … and that it holds a projection folded into it ([`Evidence::folds_projection`]).
const FOLDS_PROJECTION: &str = "foldsProjection";
/// … and its in-memory columns that are longs, and those that are not ([`Evidence::column_longs`]).
const LONG_COLUMN: &str = "longColumn";
/// … and the last components of the paths it names ([`Evidence::path_tails`]).
const PATH_TAIL: &str = "pathTail";
/// … and the file format it reads ([`Evidence::file_format`]).
const FILE_FORMAT: &str = "fileFormat";
/// … and the class its closure was compiled in ([`Evidence::compiled_in`]).
const COMPILED_IN: &str = "compiledIn";
/// … and whether its CSV columns are Spark's `_c0`, `_c1`, … ([`Evidence::headerless_csv`]).
const HEADERLESS_CSV: &str = "headerlessCsv";
const NOT_LONG_COLUMN: &str = "notLongColumn";
/// … and whether an RDD or a local collection holds its rows ([`Evidence::rows_from_rdd`]).
const ROWS_FROM_RDD: &str = "rowsFromRdd";
/// … and what its filter tests ([`Evidence::predicates`]).
const PREDICATE: &str = "predicate";
/// … and the columns its aggregate keys on ([`Evidence::group_keys`]).
const GROUP_KEY: &str = "groupKey";
/// … and how many rows its limit keeps ([`Evidence::kept_rows`]).
const KEPT_ROWS: &str = "keptRows";
/// … and the bounds of its range, `start,end,step` ([`Evidence::range_bounds`]).
const RANGE_BOUNDS: &str = "rangeBounds";
/// … and that it scans files naming no table ([`Evidence::scans_files_only`]).
const FILES_ONLY: &str = "filesOnly";
/// … and that it scans a table of a database ([`Evidence::scans_catalog_table`]).
const CATALOG_TABLE: &str = "catalogTable";
/// … and that Python made the rows it scans ([`Evidence::made_by_python`]).
const MADE_BY_PYTHON: &str = "madeByPython";
/// … and that Python drove its plan ([`Evidence::driven_by_python`]).
const DRIVEN_BY_PYTHON: &str = "drivenByPython";
/// … and the columns its query returns ([`Evidence::result_columns`]).
const RESULT_COLUMN: &str = "resultColumn";

fn to_pairs(evidence: &Evidence) -> Vec<(String, String)> {
    evidence
        .tokens
        .iter()
        .map(|(k, v)| (kind_name(*k).to_owned(), v.clone()))
        .chain(
            evidence
                .spellings
                .iter()
                .map(|s| (SPELLING.to_owned(), s.clone())),
        )
        .chain(
            evidence
                .grouping
                .map(|g| (GROUPING.to_owned(), g.name().to_owned())),
        )
        .chain(
            evidence
                .key_order
                .iter()
                .map(|k| (KEY.to_owned(), k.clone())),
        )
        .chain(
            evidence
                .keeps_both_keys
                .then(|| (BOTH_KEYS.to_owned(), "true".to_owned())),
        )
        .chain(
            evidence
                .nulls_rejected_above
                .then(|| (NULLS_REJECTED_ABOVE.to_owned(), "true".to_owned())),
        )
        .chain(
            evidence
                .narrowed_rows
                .then(|| (NARROWED_ROWS.to_owned(), "true".to_owned())),
        )
        .chain(
            evidence
                .passed_through
                .iter()
                .map(|c| (PASSED_THROUGH.to_owned(), c.clone())),
        )
        .chain(
            evidence
                .folds_projection
                .then(|| (FOLDS_PROJECTION.to_owned(), "true".to_owned())),
        )
        .chain(evidence.column_longs.iter().map(|(column, long)| {
            let kind = if *long { LONG_COLUMN } else { NOT_LONG_COLUMN };
            (kind.to_owned(), column.clone())
        }))
        .chain(
            evidence
                .path_tails
                .iter()
                .map(|t| (PATH_TAIL.to_owned(), t.clone())),
        )
        .chain(
            evidence
                .file_format
                .iter()
                .map(|f| (FILE_FORMAT.to_owned(), f.clone())),
        )
        .chain(
            evidence
                .compiled_in
                .iter()
                .map(|c| (COMPILED_IN.to_owned(), c.clone())),
        )
        .chain(
            evidence
                .headerless_csv
                .map(|h| (HEADERLESS_CSV.to_owned(), h.to_string())),
        )
        .chain(
            evidence
                .rows_from_rdd
                .map(|r| (ROWS_FROM_RDD.to_owned(), r.to_string())),
        )
        .chain(
            evidence
                .predicates
                .iter()
                .map(|p| (PREDICATE.to_owned(), p.clone())),
        )
        .chain(
            evidence
                .group_keys
                .iter()
                .map(|k| (GROUP_KEY.to_owned(), k.clone())),
        )
        .chain(
            evidence
                .kept_rows
                .map(|n| (KEPT_ROWS.to_owned(), n.to_string())),
        )
        .chain(evidence.range_bounds.map(|r| {
            let written = format!("{},{},{}", r.start, r.end, r.step);
            (RANGE_BOUNDS.to_owned(), written)
        }))
        .chain(
            evidence
                .scans_files_only
                .then(|| (FILES_ONLY.to_owned(), "true".to_owned())),
        )
        .chain(
            evidence
                .scans_catalog_table
                .then(|| (CATALOG_TABLE.to_owned(), "true".to_owned())),
        )
        .chain(
            evidence
                .made_by_python
                .then(|| (MADE_BY_PYTHON.to_owned(), "true".to_owned())),
        )
        .chain(
            evidence
                .driven_by_python
                .then(|| (DRIVEN_BY_PYTHON.to_owned(), "true".to_owned())),
        )
        .chain(
            evidence
                .result_columns
                .iter()
                .map(|c| (RESULT_COLUMN.to_owned(), c.clone())),
        )
        .collect()
}

/// The UDFs the Python evaluations feeding `node` run: its children's, or found through the
/// operators between that carry the result on — projections, filters, an aggregation's partial
/// step and its exchange (`sum(pythonUDF0)` in an Aggregate over the Project keeping the UDF's
/// result over `ArrowEvalPython [discount_f(…)]`) — never past a scan or a join.
fn python_udfs_below(graph: &PlanGraph, node: &PlanNode) -> Vec<String> {
    /// Most operators passed through between a UDF's result and its evaluation.
    const PASSED_THROUGH: usize = 6;
    let mut udfs = Vec::new();
    let mut level: Vec<usize> = node.children.to_vec();
    for _ in 0..PASSED_THROUGH {
        let mut next = Vec::new();
        for child in level {
            let child = &graph.nodes[child];
            match child.family {
                OperatorFamily::PythonEval => {
                    udfs.extend(child.details.python_udfs.iter().cloned())
                }
                OperatorFamily::Project
                | OperatorFamily::Filter
                | OperatorFamily::Aggregate
                | OperatorFamily::Exchange
                | OperatorFamily::Sort
                | OperatorFamily::Engine => next.extend(child.children.iter().copied()),
                _ => {}
            }
        }
        if next.is_empty() {
            break;
        }
        level = next;
    }
    udfs
}

/// The serialised signature of a node known by its columns alone.
pub fn signature_of_columns(columns: &[String]) -> Vec<(String, String)> {
    let mut e = Evidence::default();
    e.add_all(TokenKind::Column, columns);
    to_pairs(&e)
}

/// Rebuild an [`Evidence`] bag from its serialised `(kind, value)` pairs.
pub fn evidence_of(pairs: &[(String, String)]) -> Evidence {
    let mut e = Evidence::default();
    for (k, v) in pairs {
        if let Some(kind) = kind_from_name(k) {
            e.tokens.insert((kind, v.clone()));
        } else if k == SPELLING {
            e.spellings.insert(v.clone());
        } else if k == GROUPING {
            e.grouping = Grouping::from_name(v);
        } else if k == KEY {
            e.add_key(v);
        } else if k == BOTH_KEYS {
            e.keeps_both_keys = true;
        } else if k == NULLS_REJECTED_ABOVE {
            e.nulls_rejected_above = true;
        } else if k == NARROWED_ROWS {
            e.narrowed_rows = true;
        } else if k == PASSED_THROUGH {
            e.passed_through.insert(v.clone());
        } else if k == FOLDS_PROJECTION {
            e.folds_projection = true;
        } else if k == LONG_COLUMN || k == NOT_LONG_COLUMN {
            e.column_longs.insert(v.clone(), k == LONG_COLUMN);
        } else if k == PATH_TAIL {
            e.path_tails.insert(v.clone());
        } else if k == FILE_FORMAT {
            e.file_format = Some(v.clone());
        } else if k == COMPILED_IN {
            e.compiled_in = Some(v.clone());
        } else if k == HEADERLESS_CSV {
            e.headerless_csv = Some(v == "true");
        } else if k == ROWS_FROM_RDD {
            e.rows_from_rdd = Some(v == "true");
        } else if k == PREDICATE {
            e.predicates.insert(v.clone());
        } else if k == GROUP_KEY {
            e.group_keys.insert(v.clone());
        } else if k == KEPT_ROWS {
            e.kept_rows = v.parse().ok();
        } else if k == RANGE_BOUNDS {
            let numbers: Option<Vec<i64>> = v.split(',').map(|n| n.parse().ok()).collect();
            if let Some([start, end, step]) = numbers.as_deref() {
                e.range_bounds = Some(RangeBounds {
                    start: *start,
                    end: *end,
                    step: *step,
                });
            }
        } else if k == FILES_ONLY {
            e.scans_files_only = true;
        } else if k == CATALOG_TABLE {
            e.scans_catalog_table = true;
        } else if k == MADE_BY_PYTHON {
            e.made_by_python = true;
        } else if k == DRIVEN_BY_PYTHON {
            e.driven_by_python = true;
        } else if k == RESULT_COLUMN {
            e.result_columns.insert(v.clone());
        }
    }
    e
}

/// The operator seed table: one sentence per family.
fn behaviour(family: OperatorFamily, node: &PlanNode) -> String {
    let what = match family {
        OperatorFamily::Scan => "reads a data source (file, table, in-memory data or RDD)",
        OperatorFamily::Filter => "keeps the rows matching a predicate (filter / where / WHERE)",
        OperatorFamily::Project => {
            "computes or selects columns (select / withColumn / SELECT list)"
        }
        OperatorFamily::Aggregate => {
            "groups rows and computes aggregates (groupBy / agg / GROUP BY / distinct)"
        }
        OperatorFamily::Join => {
            "joins two inputs on keys or a condition (join / JOIN / correlated subquery)"
        }
        OperatorFamily::Exchange => "redistributes rows across partitions (shuffle or broadcast)",
        OperatorFamily::Sort => {
            "sorts rows (orderBy / sort / ORDER BY, or a sort a join or window requires)"
        }
        OperatorFamily::Limit => "keeps the first rows (limit / take / LIMIT, top-N with ordering)",
        OperatorFamily::Window => "computes window functions over partitions (over / OVER)",
        OperatorFamily::Union => "concatenates inputs (union / UNION)",
        OperatorFamily::Generate => "expands arrays or maps into rows (explode / LATERAL VIEW)",
        OperatorFamily::Expand => "replicates rows for distinct aggregates, rollup or cube",
        OperatorFamily::Sample => "samples rows (sample / TABLESAMPLE)",
        OperatorFamily::PythonEval => "evaluates Python UDFs in a Python worker",
        OperatorFamily::Subquery => "computes a subquery's result for an outer expression",
        OperatorFamily::Write => "writes results to a sink",
        OperatorFamily::Cache => "reads or builds a cached relation",
        OperatorFamily::Engine => {
            "is an execution wrapper inserted by the engine (codegen, adapters, query stages)"
        }
        OperatorFamily::Other => "is an operator without a seeded description",
    };
    format!("{} {what}.", node.name)
}

fn add_expr(e: &mut Evidence, expr: &Expr, with_columns: bool) {
    if with_columns {
        e.add_all(TokenKind::Column, &expr.columns);
    }
    e.add_all(TokenKind::Function, &expr.functions);
    // `count(DISTINCT x)` is written `countDistinct(x)` in the DataFrame API.
    if expr.text.to_lowercase().contains("(distinct ") {
        for f in &expr.functions {
            e.add(TokenKind::Function, &format!("{f}distinct"));
        }
    }
    e.add_all(TokenKind::Literal, &expr.literals);
    if let Some(alias) = &expr.alias {
        e.add(TokenKind::Alias, alias);
        // An unaliased result is named after its expression as written (`current_date()`,
        // `upper(name)`): the name keeps the functions the optimiser folded into a literal.
        if alias.contains('(') {
            e.add_all(
                TokenKind::Function,
                &crate::plan::expr::parse_expr(alias).functions,
            );
        }
    }
}

/// Whether a projection computes a time window (`window(…)` / `session_window(…)` as Spark
/// rewrites it: `named_struct(start, precisetimestampconversion(…), end, …) AS window`).
fn is_time_window(expr: &Expr) -> bool {
    matches!(expr.alias.as_deref(), Some("window" | "session_window"))
        && expr.functions.iter().any(|f| f == "named_struct")
        && expr
            .functions
            .iter()
            .any(|f| f == "precisetimestampconversion")
}

/// Why a Project computing only columns Spark names for its own use is derived.
const PLANNER_COLUMNS: &str = "columns the planner computes ahead of";

/// Whether every column a projection computes bears a name Spark makes up for an operator above
/// it: a window's computed key (`cast(… as date) AS _w0`, for `over(…orderBy(to_date(…)))`) or a
/// struct's field taken out early for the operator reading it (`payment.method AS
/// _extract_method`). The user wrote neither projection: the operator above asked for it.
fn computes_only_planner_columns(d: &crate::plan::NodeDetails) -> bool {
    let mut computed = d
        .projections
        .iter()
        .filter(|p| !is_passthrough(p))
        .peekable();
    computed.peek().is_some() && computed.all(|p| p.alias.as_deref().is_some_and(is_planner_column))
}

/// Whether Spark made the column's name up for an operator of its own: `_w0`, `_w1`, … (a
/// window's computed keys) or `_extract_<field>` (a struct's field taken out early).
fn is_planner_column(name: &str) -> bool {
    name.strip_prefix("_w")
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        || name.starts_with("_extract_")
}

/// Whether a projection merely passes a column through (no function, no alias).
fn is_passthrough(expr: &Expr) -> bool {
    expr.functions.is_empty()
        && expr.alias.is_none()
        && expr.literals.is_empty()
        && expr.columns.len() <= 1
}

/// Join types (as the plan prints them, lower-cased) and how users spell them in
/// `join(..., how=…)`. An inner join is the default and needs no word.
const JOIN_TYPE_SPELLINGS: &[(&str, &[&str])] = &[
    ("leftouter", &["left", "leftouter", "left_outer"]),
    ("rightouter", &["right", "rightouter", "right_outer"]),
    ("fullouter", &["outer", "full", "fullouter", "full_outer"]),
    ("leftsemi", &["semi", "leftsemi", "left_semi"]),
    ("leftanti", &["anti", "leftanti", "left_anti"]),
    ("cross", &["cross"]),
];

/// Join types as users write them in `join(..., how=…)`.
fn join_type_literals(join_type: &str) -> &'static [&'static str] {
    let join_type = join_type.to_lowercase();
    JOIN_TYPE_SPELLINGS
        .iter()
        .find(|(plan, _)| *plan == join_type)
        .map_or(&[], |(_, words)| *words)
}

/// Whether `word` is one of the join types `join(..., how=…)` accepts.
pub fn is_join_type_word(word: &str) -> bool {
    word == "inner"
        || JOIN_TYPE_SPELLINGS
            .iter()
            .any(|(_, words)| words.contains(&word))
}

/// Whether `word` names an outer join (`left`, `right_outer`, `full`, …), which Spark plans as an
/// inner one when a test above it rejects the rows it pads with nulls.
pub fn is_outer_join_word(word: &str) -> bool {
    JOIN_TYPE_SPELLINGS
        .iter()
        .any(|(plan, words)| plan.ends_with("outer") && words.contains(&word))
}

/// A field a serializer writes out: `… AS id#11`.
static SERIALIZED_FIELD: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(r" AS `?([\w ]+?)`?#\d+").expect("serialized field pattern")
});

/// The columns a `SerializeFromObject` writes out (`invoke(…id()) AS id#11`), normalised: the
/// fields of its objects it kept.
pub fn serialized_fields(d: &crate::plan::NodeDetails) -> BTreeSet<String> {
    d.arguments
        .values()
        .flat_map(|a| SERIALIZED_FIELD.captures_iter(a))
        .map(|c| super::evidence::normalise_column(&c[1]))
        .collect()
}

/// The node's own evidence signature.
/// `inferred_from_above`: for a Filter, whether a join or generator above it may have asked for
/// null tests of its own ([`inferred_here`]).
fn own_signature(node: &PlanNode, inferred_from_above: bool) -> Evidence {
    let d = &node.details;
    let mut e = Evidence::default();
    match node.family {
        OperatorFamily::Scan => {
            scan_evidence(&mut e, d);
            e.rows_from_rdd = rows_from_rdd(node);
        }
        OperatorFamily::Filter => filter_evidence(&mut e, d, inferred_from_above),
        OperatorFamily::Project | OperatorFamily::PythonEval => projection_evidence(&mut e, d),
        OperatorFamily::Aggregate | OperatorFamily::Expand => aggregate_evidence(&mut e, d),
        OperatorFamily::Join => {
            if let Some(j) = &d.join {
                for k in j.left_keys.iter().chain(&j.right_keys).chain(&j.condition) {
                    add_expr(&mut e, k, true);
                }
                for column in j.left_keys.iter().filter_map(|k| k.columns.first()) {
                    e.add_key(column);
                }
                for lit in join_type_literals(&j.join_type) {
                    e.add(TokenKind::Literal, lit);
                }
            }
        }
        OperatorFamily::Sort => {
            for k in &d.sort_order {
                add_expr(&mut e, &k.expr, true);
                for f in sort_key_functions(k) {
                    e.add(TokenKind::Function, f);
                }
            }
            // a TakeOrderedAndProject: how many rows the limit taking them keeps
            if let Some(n) = d.limit {
                e.add(TokenKind::Literal, &n.to_string());
                e.kept_rows = d.limit;
            }
        }
        OperatorFamily::Limit => {
            if let Some(n) = d.limit {
                e.add(TokenKind::Literal, &n.to_string());
            }
            e.kept_rows = d.limit;
            for k in &d.sort_order {
                add_expr(&mut e, &k.expr, true);
                for f in sort_key_functions(k) {
                    e.add(TokenKind::Function, f);
                }
            }
        }
        OperatorFamily::Window => {
            if let Some(w) = &d.window {
                for f in &w.functions {
                    add_expr(&mut e, f, true);
                }
                for p in &w.partition_by {
                    add_expr(&mut e, p, true);
                }
                for k in &w.order_by {
                    add_expr(&mut e, &k.expr, true);
                    for f in sort_key_functions(k) {
                        e.add(TokenKind::Function, f);
                    }
                }
            }
        }
        OperatorFamily::Generate => generator_evidence(&mut e, d),
        OperatorFamily::Exchange => {
            if let Some(p) = &d.partitioning {
                for x in &p.exprs {
                    add_expr(&mut e, x, true);
                }
                if let Some(n) = p.num_partitions {
                    e.add(TokenKind::Literal, &n.to_string());
                }
            }
            if node.operator == "Coalesce" {
                e.add(TokenKind::Literal, &format!("{PARTITIONED}coalesce"));
            } else if user_repartition(d) {
                e.add(TokenKind::Literal, &format!("{PARTITIONED}shuffle"));
            }
        }
        OperatorFamily::Sample => sample_evidence(&mut e, d),
        _ => {
            for lit in &d.literals {
                e.add(TokenKind::Literal, lit);
            }
        }
    }
    if is_typed_operator(&node.operator) {
        e.add(TokenKind::Function, &node.operator);
    }
    if node.family == OperatorFamily::Union {
        e.add(TokenKind::Function, CONCATENATION);
    }
    // `MapElements part3.Datasets$$$Lambda$42…`, a typed filter's `invoke(…Lambda…apply(…))`
    e.compiled_in = d
        .arguments
        .values()
        .map(String::as_str)
        .chain(d.conditions.iter().map(|c| c.text.as_str()))
        .find_map(super::hints::closure_class)
        .map(|class| class.rsplit('.').next().unwrap_or(class).to_owned());
    e
}

/// Whether node `idx` reads back cached data whose relation is a scan and nothing else
/// (`InMemoryTableScan` over `InMemoryRelation` over `ColumnarToRow` over `Scan parquet`): the
/// frame was cached as read ([`CACHED_READ`]).
fn caches_a_bare_read(graph: &PlanGraph, idx: NodeIdx) -> bool {
    let node = &graph.nodes[idx];
    let in_memory = |n: &PlanNode| scans_memory(&n.details);
    if node.family != OperatorFamily::Scan || !in_memory(node) {
        return false;
    }
    let mut at = node;
    loop {
        let [child] = at.children[..] else {
            return false;
        };
        at = &graph.nodes[child];
        match at.family {
            OperatorFamily::Engine | OperatorFamily::Cache => continue,
            OperatorFamily::Scan => return !in_memory(at),
            _ => return false,
        }
    }
}

/// Whether a scan reads cached data back from memory (`InMemoryTableScan`, `InMemoryRelation`).
fn scans_memory(d: &crate::plan::NodeDetails) -> bool {
    d.scan.as_ref().is_some_and(|s| s.format == "InMemory")
}

/// A scan: its table and paths, a range's bounds; in-memory data only has its columns.
fn scan_evidence(e: &mut Evidence, d: &crate::plan::NodeDetails) {
    if scans_memory(d) {
        e.add(TokenKind::Function, CACHED);
    }
    // `Scan` of `rdd.toDF`: `obj#1: int, ParallelCollectionRDD[0] at parallelize at Job.scala:35`
    if let Some((file, line)) = d
        .arguments
        .values()
        .find_map(|a| super::hints::rdd_origin(a))
    {
        e.add(
            TokenKind::Literal,
            &super::evidence::rdd_made_at(file, line),
        );
    }
    // `MapPartitionsRDD[590] at applySchemaToPythonRDD at …`: rows PySpark made
    e.made_by_python = d
        .arguments
        .values()
        .any(|a| super::hints::made_by_python(a))
        || d.scan
            .as_ref()
            .and_then(|s| s.relation.as_deref())
            .is_some_and(super::hints::made_by_python);
    if let Some(scan) = &d.scan {
        if let Some(t) = &scan.table {
            e.add(TokenKind::Table, t);
        }
        e.add_all(TokenKind::Path, &scan.paths);
        e.scans_files_only = scan.table.is_none() && !scan.paths.is_empty();
        e.scans_catalog_table = scan
            .table
            .as_deref()
            .is_some_and(super::evidence::is_catalog_table);
        e.file_format = super::evidence::file_format(&scan.format);
        // CSV read without a header row or a schema: Spark names the columns `_c0`, `_c1`, …
        let spark_named = |name: &str| {
            name.strip_prefix("_c")
                .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        };
        if e.file_format.as_deref() == Some("csv") && !d.output.is_empty() {
            e.headerless_csv = Some(d.output.iter().all(|a| spark_named(&a.name)));
        }
    }
    // `spark.range(100)`: the bounds and step the user wrote.
    if let Some(range) = d.arguments.get("range") {
        for literal in range_literals(range) {
            e.add(TokenKind::Literal, &literal);
        }
        e.range_bounds = range_bounds(range);
    }
    // In-memory data and RDDs carry no table or path: their columns are all there is, and which
    // of them are longs.
    if e.is_empty() {
        for a in &d.output {
            e.add(TokenKind::Column, &a.name);
            e.column_longs
                .insert(super::evidence::normalise_column(&a.name), a.long);
        }
    }
}

/// Whether an RDD holds a scan's rows (`Scan ExistingRDD`, a `Scan` of an RDD's objects) or a
/// local collection does (`LocalTableScan`); not known for other scans.
fn rows_from_rdd(node: &PlanNode) -> Option<bool> {
    if node.name.starts_with("LocalTableScan") {
        return Some(false);
    }
    let rdd = node.name.starts_with("Scan ExistingRDD")
        || node.name.starts_with("ExistingRDD")
        || node
            .details
            .arguments
            .values()
            .any(|a| super::hints::rdd_origin(a).is_some());
    rdd.then_some(true)
}

/// A filter: the conjuncts the user wrote (inferred ones only when nothing else is left); a
/// filter by a closure is only that: its condition's words are the object it builds, not code.
fn filter_evidence(e: &mut Evidence, d: &crate::plan::NodeDetails, inferred_from_above: bool) {
    if d.conditions.iter().any(|c| calls_closure(&c.raw)) {
        e.add(TokenKind::Function, TYPED_FILTER);
        return;
    }
    // Inferred conjuncts (`isnotnull(x)` beside `x > 5`) repeat what the user wrote; they
    // are evidence only when nothing else is left.
    let written: Vec<&Expr> = d
        .conditions
        .iter()
        .filter(|c| !inferred_here(c, &d.conditions, inferred_from_above))
        .collect();
    let conditions = if written.is_empty() {
        d.conditions.iter().collect()
    } else {
        written
    };
    e.predicates = super::predicates::of_plan_conditions(conditions.iter().map(|c| c.raw.as_str()));
    for c in conditions {
        match super::predicates::null_drop_arguments(&c.raw)
            .filter(|(_, counted)| counted.iter().any(|a| plain_attribute(a).is_none()))
        {
            // Only the columns it counts: expressions among them are a projection's, inlined
            // where Spark pushed the filter below it (`emp.withColumn(…)…na.drop()`).
            Some((_, counted)) => {
                e.add(TokenKind::Function, NULL_DROP);
                for column in counted.iter().filter_map(|a| plain_attribute(a)) {
                    e.add(TokenKind::Column, &column);
                }
            }
            None => add_expr(e, c, true),
        }
    }
}

/// The name of a bare attribute as a plan prints it (`gender#317`, `id#0L`), ids stripped.
fn plain_attribute(printed: &str) -> Option<String> {
    let attribute = crate::plan::expr::parse_attribute(printed);
    attribute.id.map(|_| attribute.name.to_string())
}

/// A projection: what it computes (UDFs included), or its bare columns when that is all.
fn projection_evidence(e: &mut Evidence, d: &crate::plan::NodeDetails) {
    let mut computes_only_fills = true;
    for p in d.projections.iter().filter(|p| !is_passthrough(p)) {
        add_expr(e, p, true);
        match filled_column(p) {
            Some(column) => {
                e.add(TokenKind::Literal, &format!("{FILLED_COLUMN}{column}"));
                let value = p
                    .literals
                    .first()
                    .map_or(String::new(), |v| canonical_literal(v));
                e.add(TokenKind::Literal, &format!("{FILL_VALUE}{value}"));
            }
            None => computes_only_fills = false,
        }
    }
    if computes_only_fills && !e.is_empty() {
        e.add(TokenKind::Function, FILLS_NULLS);
    }
    e.add_all(TokenKind::Function, &d.python_udfs);
    if let Some(parent) = expanded_struct(d) {
        e.add(TokenKind::Literal, &format!("{STRUCT_FIELDS}{parent}"));
    }
    // A projection of bare columns (`select("state")`) has nothing but its columns.
    if e.is_empty() {
        for p in &d.projections {
            add_expr(e, p, true);
        }
    }
}

/// The columns (normalised) the query returns, as the plan prints them: its root's output,
/// looking through operators that hand their rows on as they are (a filter, sort, limit,
/// exchange or engine wrapper prints its input, or nothing); empty when the plan does not say
/// (a UI graph prints no columns).
fn result_columns(graph: &PlanGraph) -> BTreeSet<String> {
    // A list this long may be one Spark truncated (`… 5 more fields`): unknown.
    const MOST_LISTED: usize = 20;
    // (`apply_discount(…) AS discounted_value#51` in a projection's output is that name)
    let names = |attributes: &[crate::plan::Attribute]| {
        if attributes.len() >= MOST_LISTED {
            return BTreeSet::new();
        }
        attributes
            .iter()
            .map(|a| {
                let name = a
                    .name
                    .rsplit_once(" AS ")
                    .map_or(a.name.as_str(), |(_, n)| n);
                normalise_column(name)
            })
            .collect::<BTreeSet<String>>()
    };
    let Some(&root) = graph.roots.first() else {
        return BTreeSet::new();
    };
    let mut idx = root;
    for _ in 0..graph.nodes.len() {
        let node = &graph.nodes[idx];
        let d = &node.details;
        if !d.output.is_empty() {
            return names(&d.output);
        }
        if node.node_kind != NodeKind::Engine && !node.family.keeps_columns() {
            break;
        }
        if !d.input.is_empty() {
            return names(&d.input);
        }
        match node.children[..] {
            [only] => idx = only,
            _ => break,
        }
    }
    BTreeSet::new()
}

/// The (lower-cased) names of the columns the scans under `idx` read.
fn columns_read_below(graph: &PlanGraph, idx: NodeIdx) -> BTreeSet<String> {
    let mut read = BTreeSet::new();
    let mut stack = vec![idx];
    while let Some(n) = stack.pop() {
        let node = &graph.nodes[n];
        if node.family == OperatorFamily::Scan {
            read.extend(
                node.details
                    .output
                    .iter()
                    .map(|a| a.name.as_str().to_lowercase()),
            );
        }
        stack.extend(node.children.iter().copied());
    }
    read
}

/// The input columns a projection of bare columns leaves out, when it keeps at least as many as
/// it drops (a `select` of two columns out of thirty is no `drop` of twenty-eight). The input is
/// the node's own list when the plan prints one, else its child's output.
fn dropped_columns(graph: &PlanGraph, node: &PlanNode) -> Vec<String> {
    let d = &node.details;
    if !only_passes_columns_on(node) {
        return Vec::new();
    }
    let input = projection_input(graph, node);
    let mut kept: BTreeMap<String, usize> = BTreeMap::new();
    for column in d.projections.iter().flat_map(|p| p.columns.iter()) {
        *kept.entry(column.to_lowercase()).or_default() += 1;
    }
    // A name the input holds more often than the output (`drop(bands("id"))` after a join of
    // two frames with an `id` each) is dropped too. (A column the planner made for an operator
    // below, `_w0`, is no column the user dropped.)
    let mut dropped: Vec<String> = Vec::new();
    for name in input.iter().map(|a| a.name.as_str().to_lowercase()) {
        match kept.get_mut(&name) {
            Some(left) if *left > 0 => *left -= 1,
            _ if is_planner_column(&name) || dropped.contains(&name) => {}
            _ => dropped.push(name),
        }
    }
    if dropped.len() <= kept.len() && !only_hidden_keys(graph, node, &dropped) {
        dropped
    } else {
        Vec::new()
    }
}

/// Every input column a projection passing columns through leaves out, the planner's own
/// (`_w0`) included, lower-cased; empty for a projection computing something.
pub fn columns_left_out(graph: &PlanGraph, node: &PlanNode) -> BTreeSet<String> {
    if !only_passes_columns_on(node) {
        return BTreeSet::new();
    }
    let kept: BTreeSet<String> = node
        .details
        .projections
        .iter()
        .flat_map(|p| p.columns.iter().map(|c| c.to_lowercase()))
        .collect();
    projection_input(graph, node)
        .iter()
        .map(|a| a.name.as_str().to_lowercase())
        .filter(|name| !kept.contains(name))
        .collect()
}

/// Whether `node` is a projection passing columns on as they are, computing nothing: the
/// planner's pruning, or a `drop` / plain `select`.
pub(crate) fn only_passes_columns_on(node: &PlanNode) -> bool {
    let projections = &node.details.projections;
    node.family == OperatorFamily::Project
        && !projections.is_empty()
        && projections.iter().all(is_passthrough)
}

/// Whether every column in `dropped` is one the Sort right below the projection (through engine
/// wrappers) orders by: a key Spark added for it and takes away again. A query ordering by a
/// column it does not select (`SELECT a, … ORDER BY b`, `select("a").orderBy("b")`) plans the
/// Sort over the column and a Project of the selected ones above it — that Project is the
/// selection, not a `drop` of the key. (A Filter's column dropped right after is a `drop`:
/// `filter(col("rn") == 1).drop("rn")`.)
fn only_hidden_keys(graph: &PlanGraph, node: &PlanNode, dropped: &[String]) -> bool {
    let mut below = node.children.as_slice();
    while let [child] = below {
        let operator = &graph.nodes[*child];
        if operator.node_kind == NodeKind::Engine {
            below = operator.children.as_slice();
            continue;
        }
        if operator.family != OperatorFamily::Sort {
            return false;
        }
        let keys: BTreeSet<String> = operator
            .details
            .sort_order
            .iter()
            .flat_map(|k| k.expr.columns.iter())
            .map(|c| c.to_lowercase())
            .collect();
        return !dropped.is_empty() && dropped.iter().all(|c| keys.contains(c));
    }
    false
}

/// The struct a projection takes two or more fields out of and nothing else, each under its own
/// name (`name.firstname AS firstname, name.lastname AS lastname`): what `select("name.*")` plans.
fn expanded_struct(d: &crate::plan::NodeDetails) -> Option<&str> {
    let mut parent: Option<&str> = None;
    for p in &d.projections {
        let ([column], Some(alias), true) = (
            p.columns.as_slice(),
            p.alias.as_deref(),
            p.functions.is_empty(),
        ) else {
            return None;
        };
        let field = format!("{column}.{alias}").to_lowercase();
        if !p.text.to_lowercase().starts_with(&format!("{field} ")) {
            return None;
        }
        match parent {
            Some(seen) if seen != column => return None,
            _ => parent = Some(column),
        }
    }
    parent.filter(|_| d.projections.len() >= 2)
}

/// A projection's input: its own list when the plan prints one, else its child's output.
fn projection_input<'g>(graph: &'g PlanGraph, node: &'g PlanNode) -> &'g [crate::plan::Attribute] {
    match node.children.as_slice() {
        _ if !node.details.input.is_empty() => &node.details.input,
        [child] => &graph.nodes[*child].details.output,
        _ => &[],
    }
}

/// The columns a projection computing something keeps as they are, when it also leaves an input
/// column out (`select("name", map_keys("info"))` over `name, info`): the code listed them. A
/// projection keeping every input column (`withColumn`) lists nothing ([`Evidence::passed_through`]).
fn passed_through(graph: &PlanGraph, node: &PlanNode) -> BTreeSet<String> {
    let d = &node.details;
    if node.family != OperatorFamily::Project || d.projections.iter().all(is_passthrough) {
        return Default::default();
    }
    let output = output_names(&d.projections);
    let leaves_one_out = projection_input(graph, node)
        .iter()
        .any(|a| !output.contains(&a.name.as_str().to_lowercase()));
    if !leaves_one_out {
        return Default::default();
    }
    d.projections
        .iter()
        .filter(|p| is_passthrough(p))
        .flat_map(|p| {
            p.columns
                .iter()
                .map(|c| super::evidence::normalise_column(c))
        })
        .collect()
}

/// The column a fill of nulls replaces in place: `coalesce(population, 0) AS population`
/// (`coalesce(nanvl(x, null), 0.0) AS x` for a floating-point one, a cast for a value of
/// another type).
fn filled_column(p: &Expr) -> Option<&str> {
    let [column] = p.columns.as_slice() else {
        return None;
    };
    (p.functions.first().is_some_and(|f| f == "coalesce")
        && p.functions[1..].iter().all(|f| f == "nanvl" || f == "cast")
        && p.alias
            .as_deref()
            .is_some_and(|a| a.eq_ignore_ascii_case(column)))
    .then_some(column.as_str())
}

/// The (lower-cased) names a projection list returns: each expression's alias, else its column.
fn output_names(projections: &[Expr]) -> BTreeSet<String> {
    projections
        .iter()
        .filter_map(|p| p.alias.as_ref().or(p.columns.first()))
        .map(|name| name.to_lowercase())
        .collect()
}

/// The grouping keys a final aggregate's results leave out (a partial step returns them all).
fn keys_left_out(d: &crate::plan::NodeDetails) -> Vec<&str> {
    if d.projections.is_empty() || d.aggregate_functions.is_empty() || is_partial_step(d) {
        return Vec::new();
    }
    let returned = output_names(&d.projections);
    d.grouping_keys
        .iter()
        .filter_map(|k| k.alias.as_deref().or(k.columns.first().map(String::as_str)))
        .filter(|k| !returned.contains(&k.to_lowercase()))
        .collect()
}

/// The name Spark gives a grouping key it pulls out of an expression into a projection below.
const PULLED_OUT_KEY: &str = "_groupingexpression";

/// An aggregate: grouping keys, functions (`distinct` for a deduplication) and aliases.
fn aggregate_evidence(e: &mut Evidence, d: &crate::plan::NodeDetails) {
    for k in &d.grouping_keys {
        // Spark normalises floating-point keys and names the result after the column
        // (`knownfloatingpointnormalized(normalizenanandzero(x)) AS x`): no alias of the user's.
        if !k.functions.is_empty() && k.functions.iter().all(|f| is_key_normalisation(f)) {
            e.add_all(TokenKind::Column, &k.columns);
        } else {
            add_expr(e, k, true);
        }
    }
    // (`groupBy(year("d"))` keys on `_groupingexpression`: which columns, the plan no longer says)
    let pulled_out = d.grouping_keys.iter().any(|k| {
        k.columns
            .iter()
            .chain(&k.alias)
            .any(|c| c.starts_with(PULLED_OUT_KEY))
    });
    if !pulled_out {
        for k in &d.grouping_keys {
            e.group_keys.extend(
                k.columns
                    .iter()
                    .chain(&k.alias)
                    .map(|c| super::evidence::normalise_column(c)),
            );
        }
    }
    if is_deduplication(d) {
        e.add(TokenKind::Function, DISTINCT);
    }
    // (A de-duplication's keys may be a distinct aggregate's column, grouped or not.)
    if !d.aggregate_functions.is_empty() {
        e.grouping = Some(if d.grouping_keys.is_empty() {
            Grouping::Global
        } else {
            Grouping::Keyed
        });
    }
    for key in keys_left_out(d) {
        e.add(TokenKind::Literal, &format!("{KEY_LEFT_OUT}{key}"));
    }
    for f in &d.aggregate_functions {
        add_expr(e, f, true);
        // `count(1)`: a count of rows (`count()`, `count("*")`), not of a column's values.
        let counts = f
            .functions
            .first()
            .is_some_and(|name| normalise_function(name) == "count");
        if counts && f.columns.is_empty() && f.functions.len() == 1 {
            e.add(TokenKind::Function, COUNT_OF_ROWS);
        }
        for value in pivot_values(f) {
            e.add(
                TokenKind::Literal,
                &format!("{}{value}", super::evidence::PIVOT_VALUE),
            );
        }
    }
    // A de-duplication computes nothing: a column its results compute comes from the projection
    // after it, which Spark folded in — that projection's expression is the node's evidence too.
    // So does a result another aggregation computes past its aggregates (`format_number(avg(Close),
    // 2) AS Mean Close` from a later `select(format_number("avg(Close)", 2).alias(…))`).
    let deduplicates_rows = is_deduplication(d);
    let deduplicates = deduplicates_rows && d.aggregate_functions.is_empty();
    let aggregates: Vec<String> = d
        .aggregate_functions
        .iter()
        .flat_map(|f| &f.functions)
        .map(|f| normalise_function(f))
        .collect();
    for p in &d.projections {
        let renames = |alias: &String| p.columns.len() != 1 || p.columns[0] != *alias;
        let computes = !p.functions.is_empty() || !p.literals.is_empty();
        // (a `dropDuplicates(["id"])` keeps `first` of each other column: nothing folded)
        let folded = if deduplicates_rows {
            deduplicates && p.alias.as_ref().is_some_and(|a| computes || renames(a))
        } else {
            p.alias.is_some() && computes_past(p, &aggregates)
        };
        if folded {
            add_expr(e, p, true);
            e.folds_projection = true;
        } else if let Some(alias) = &p.alias {
            e.add(TokenKind::Alias, alias);
        }
    }
}

/// Whether a result computes something past the `aggregates` (the functions of the node's
/// aggregate expressions): a function of the user's none of them holds. Not a name Spark gives a
/// pivot's results (`__pivot_count(1)`), nor a cast or decimal wrapping of its own.
fn computes_past(result: &Expr, aggregates: &[String]) -> bool {
    !aggregates.is_empty()
        && result.functions.iter().any(|f| {
            let spark_named = f.starts_with("__");
            let f = normalise_function(f);
            !spark_named && !aggregates.contains(&f) && !is_noise_function(&f)
        })
}

/// A generator: its function, `_outer` when the plan marks it so.
fn generator_evidence(e: &mut Evidence, d: &crate::plan::NodeDetails) {
    if let Some(g) = &d.generator {
        // `explode_outer(x)` prints as `explode(x)` with the outer flag set.
        if d.arguments.get("outer").is_some_and(|o| o == "true") {
            let outer = Expr {
                functions: g.functions.iter().map(|f| format!("{f}_outer")).collect(),
                ..(**g).clone()
            };
            add_expr(e, &outer, true);
        } else {
            add_expr(e, g, true);
        }
    }
}

/// A sample: the fraction, the seed, its literals.
fn sample_evidence(e: &mut Evidence, d: &crate::plan::NodeDetails) {
    // `sample(0.1, 123)` → `Sample 0.0, 0.1, false, 123`: the fraction is the upper
    // bound when sampling from zero, and a seed the user chose is written as is.
    let a = &d.arguments;
    let bound = |name: &str| a.get(name).and_then(|v| v.parse::<f64>().ok());
    if bound("lowerBound") == Some(0.0)
        && let Some(upper) = a.get("upperBound")
    {
        e.add(TokenKind::Literal, upper);
    } else if let (Some(lower), Some(upper)) = (bound("lowerBound"), bound("upperBound")) {
        // A later split of `randomSplit([0.7, 0.3])` samples `0.7, 1.0`: its weight is the width.
        let width = crate::code::lang::extract::splits::share_spelling(upper - lower);
        e.add(TokenKind::Literal, &width);
    }
    if let Some(seed) = a.get("seed") {
        e.add(TokenKind::Literal, seed);
    }
    // `sample(True, 0.3)`: sampling with replacement is the user's `True`.
    if a.get("withReplacement").is_some_and(|w| w == "true") {
        e.add(TokenKind::Literal, super::evidence::WITH_REPLACEMENT);
    }
    for lit in &d.literals {
        e.add(TokenKind::Literal, lit);
    }
}

/// Spark's wrapping of a floating-point grouping key (`knownfloatingpointnormalized(
/// normalizenanandzero(x)) AS x`), not a function the user wrote.
fn is_key_normalisation(function: &str) -> bool {
    ["knownfloatingpointnormalized", "normalizenanandzero"]
        .iter()
        .any(|f| f.eq_ignore_ascii_case(function))
}

/// The values a pivot pivots into: `pivotfirst(Gender, count(1) AS count, Female, Male, 0, 0)`
/// lists them between the aggregated expression and two numbers of its own.
fn pivot_values(f: &Expr) -> Vec<String> {
    let is_pivot = f
        .functions
        .first()
        .is_some_and(|name| super::evidence::normalise_function(name) == "pivotfirst");
    let Some(inner) = f
        .text
        .split_once('(')
        .and_then(|(_, rest)| rest.rsplit_once(')'))
        .map(|(inner, _)| inner)
        .filter(|_| is_pivot)
    else {
        return Vec::new();
    };
    let args = crate::plan::expr::split_top_level(inner);
    if args.len() < 5 {
        return Vec::new();
    }
    args[2..args.len() - 2]
        .iter()
        .map(|v| v.to_string())
        .collect()
}

/// Whether an aggregate computes only partial (or merged) results: `partial_count(1)`.
fn is_partial_step(d: &crate::plan::NodeDetails) -> bool {
    !d.aggregate_functions.is_empty()
        && d.aggregate_functions.iter().all(|f| {
            f.functions
                .first()
                .is_some_and(|name| name.starts_with("partial_") || name.starts_with("merge_"))
        })
}

/// Whether an exchange is one the user asked for (`repartition(…)`, `rebalance()`), by the origin
/// Spark prints (`REPARTITION_BY_NUM`, `REPARTITION_BY_COL`, `REBALANCE_PARTITIONS_BY_…`), not one
/// an operator above requires (`ENSURE_REQUIREMENTS`).
fn user_repartition(d: &crate::plan::NodeDetails) -> bool {
    d.partitioning
        .as_ref()
        .and_then(|p| p.origin.as_deref())
        .is_some_and(|o| o.starts_with("REPARTITION") || o.starts_with("REBALANCE"))
}

/// The command a node runs (`ShowTables`), or — for the nodes around one (`CommandResult` over
/// it, `ResolvedNamespace` under it) — the command nearest below, else above.
fn command_around(graph: &PlanGraph, parents: &[Option<usize>], idx: usize) -> Option<String> {
    // (a UI graph lists a command's result alone, holding what it executed and its arguments)
    let command = |i: usize| {
        let node = &graph.nodes[i];
        let arguments = &node.details.arguments;
        let (key, printed) = match super::commands::command_of_operator(&node.name) {
            Some(key) => (key, graph.printed_arguments(i)),
            None => {
                let executed = arguments.get(crate::plan::EXECUTED_COMMAND)?;
                let printed = arguments.get(crate::plan::EXECUTED_COMMAND_ARGUMENTS);
                (super::commands::command_of_operator(executed)?, printed)
            }
        };
        Some(match printed {
            Some(printed) => super::commands::narrowed_by_arguments(key, printed),
            None => key,
        })
    };
    let mut below = vec![idx];
    while let Some(at) = below.pop() {
        if let Some(found) = command(at) {
            return Some(found);
        }
        below.extend(graph.nodes[at].children.iter().rev());
    }
    let mut above = parents[idx];
    while let Some(at) = above {
        if let Some(found) = command(at) {
            return Some(found);
        }
        above = parents[at];
    }
    None
}

/// The final step of a partial aggregate: up through the exchange, the sort and the engine's
/// wrappers (and any merge step) to the first aggregate whose results are no longer partial.
pub(super) fn final_step(
    graph: &PlanGraph,
    parents: &[Option<usize>],
    idx: usize,
) -> Option<usize> {
    let node = &graph.nodes[idx];
    if node.family != OperatorFamily::Aggregate || !is_partial_step(&node.details) {
        return None;
    }
    let mut at = idx;
    loop {
        let up = parents[at]?;
        let parent = &graph.nodes[up];
        match parent.family {
            OperatorFamily::Aggregate if !is_partial_step(&parent.details) => return Some(up),
            OperatorFamily::Aggregate | OperatorFamily::Exchange | OperatorFamily::Sort => at = up,
            _ if parent.node_kind == NodeKind::Engine => at = up,
            _ => return None,
        }
    }
}

/// An aggregate that only removes duplicates: `distinct()` groups by every input column and
/// computes nothing; `dropDuplicates(subset)` groups by the subset and keeps `first(…)` of the rest.
fn is_deduplication(d: &crate::plan::NodeDetails) -> bool {
    if d.grouping_keys.is_empty() {
        return false;
    }
    if !d.aggregate_functions.is_empty() {
        return d.aggregate_functions.iter().all(|f| {
            f.functions
                .iter()
                .all(|name| super::evidence::normalise_function(name) == "first")
        });
    }
    let keys: BTreeSet<&str> = d
        .grouping_keys
        .iter()
        .flat_map(|k| k.columns.iter().map(String::as_str))
        .collect();
    !d.input.is_empty() && d.input.iter().all(|a| keys.contains(a.name.as_str()))
}

/// The numbers a user wrote in `range(start, end, step)` from `Range (0, 100, step=1,
/// splits=Some(2))`: start and end, and the step when it is not 1 (splits come from the engine).
fn range_literals(range: &str) -> Vec<String> {
    let Some(bounds) = range_bounds(range) else {
        return Vec::new();
    };
    let mut out = vec![bounds.start.to_string(), bounds.end.to_string()];
    if bounds.step != 1 {
        out.push(bounds.step.to_string());
    }
    out
}

/// A Range's bounds from `Range (0, 100, step=1, splits=Some(2))` (the formatted plan) or
/// `0, 100, step=1, splits=2` (the UI); None when they do not read as numbers.
fn range_bounds(range: &str) -> Option<RangeBounds> {
    let inner = range
        .split_once('(')
        .map_or(range, |(_, rest)| rest.trim_end().trim_end_matches(')'));
    let mut numbers = Vec::new();
    let mut step = 1;
    for part in inner.split(',').map(str::trim) {
        match part.split_once('=') {
            None => numbers.push(part.parse::<i64>().ok()?),
            Some(("step", written)) => step = written.parse().ok()?,
            Some(_) => {}
        }
    }
    let [start, end] = numbers[..] else {
        return None;
    };
    Some(RangeBounds { start, end, step })
}

/// Whether conjunct `c` of a Filter's `conditions` is the optimizer's: an inferred constraint
/// ([`is_inferred_constraint`]) beside another conjunct on its column (`isnotnull(x)` beside
/// `x > 5`), or in a Filter below a join or generator, which infer their own. Alone on its column
/// anywhere else it is the user's (`phone IS NULL AND address IS NOT NULL`).
fn inferred_here(c: &Expr, conditions: &[Expr], inferred_from_above: bool) -> bool {
    is_inferred_constraint(c)
        && (inferred_from_above
            || conditions.iter().any(|other| {
                !std::ptr::eq(other, c) && other.columns.iter().any(|x| c.columns.contains(x))
            }))
}

/// Conjuncts the optimizer infers by itself: `isnotnull(x)` from joins and null-intolerant
/// predicates, `size(x) > 0` from a generator (`explode`). The same text can also be the
/// user's own `isNotNull()`; [`derived_reason`] tells the two apart by where the Filter sits.
fn is_inferred_constraint(c: &Expr) -> bool {
    let text = c.text.to_lowercase().replace(['(', ')', ' '], "");
    let generator_size =
        c.functions.iter().any(|f| f.eq_ignore_ascii_case("size")) && text.ends_with(">0");
    is_null_check(c) || generator_size
}

/// Whether conjunct `c` only tests for nulls (`isnotnull(x)`).
pub(crate) fn is_null_check(c: &Expr) -> bool {
    !c.functions.is_empty()
        && c.functions
            .iter()
            .all(|f| f.eq_ignore_ascii_case("isnotnull"))
}

/// Whether `text` is one call of `function` and nothing else (`isnotnull(f(a).b)`, not
/// `isnotnull(a) OR b`).
fn is_one_call_of(text: &str, function: &str) -> bool {
    let text = text.trim();
    let Some(call) = text
        .get(..function.len())
        .filter(|name| name.eq_ignore_ascii_case(function))
        .map(|_| &text[function.len()..])
        .filter(|call| call.starts_with('('))
    else {
        return false;
    };
    crate::plan::expr::matching_close(call) == Some(call.len())
}

/// Why the planner, not the user, put `node` into the plan under `parent` — or `None` when the
/// node is the user's own operator.
fn derived_reason(
    graph: &PlanGraph,
    parents: &[Option<NodeIdx>],
    idx: NodeIdx,
    parent: Option<NodeIdx>,
) -> Option<String> {
    let node = &graph.nodes[idx];
    let parent_family = parent.map(|p| graph.nodes[p].family);
    let d = &node.details;
    match node.family {
        // a `Coalesce` merges partitions where the user's `coalesce(n)` asked
        OperatorFamily::Exchange if node.operator == "Coalesce" => None,
        OperatorFamily::Exchange => {
            (!user_repartition(d)).then(|| "data exchange required by".to_owned())
        }
        OperatorFamily::Sort => {
            let serves = matches!(
                parent_family,
                Some(OperatorFamily::Join | OperatorFamily::Window | OperatorFamily::Aggregate)
            );
            // Spark prints whether a sort is global: a global one is an `orderBy` the user
            // wrote, whatever it feeds; the sorts a join, window or aggregate needs are local.
            let planned = match d.arguments.get("global").map(String::as_str) {
                Some("true") => false,
                Some("false") => true,
                _ => serves,
            };
            planned.then(|| "sort required by".to_owned())
        }
        OperatorFamily::Project if takes_out_pivoted_values(d) => {
            Some(PIVOT_VALUES_PROJECT.to_owned())
        }
        // `a.joinWith(b, …)` joins each side as a tuple's field: `named_struct(…) AS _1`.
        OperatorFamily::Project if wraps_rows_in_a_tuple_field(d) => {
            Some("each side's rows made a tuple's field for".to_owned())
        }
        // A join on names plans the Project above it (each key once, keys first).
        OperatorFamily::Project if keeps_one_of_each_name(graph, node) => {
            Some(JOIN_ON_NAMES_PROJECT.to_owned())
        }
        // `unionByName(other, allowMissingColumns=True)` pads each input with the columns only
        // the other has: `null AS Salary` under the Union.
        OperatorFamily::Project
            if parent_family == Some(OperatorFamily::Union) && pads_with_nulls(d) =>
        {
            Some("columns missing from one input, filled with nulls for".to_owned())
        }
        // A typed operator's rows become objects below it and rows again above it.
        OperatorFamily::Project if converts_objects_for_typed_operator(graph, parents, idx) => {
            Some(if node.operator == "DeserializeToObject" {
                ROWS_TO_OBJECTS.to_owned()
            } else {
                OBJECTS_TO_ROWS.to_owned()
            })
        }
        OperatorFamily::Project if parent.is_some() && computes_only_planner_columns(d) => {
            Some(PLANNER_COLUMNS.to_owned())
        }
        OperatorFamily::Project => {
            if only_passes_columns_on(node) && parent.is_some() {
                return Some("column pruning for".to_owned());
            }
            // `groupBy(window(col("ts"), "1 hour"))`: Spark computes each row's window, a
            // `named_struct(start, …, end, …) AS window`, in a Project of its own below the
            // aggregate grouping by it.
            let windows = d.projections.iter().any(is_time_window);
            (windows && parent.is_some()).then(|| "time windows for".to_owned())
        }
        OperatorFamily::Filter => {
            // The optimizer only adds a Filter of its own below a join (null-rejecting keys) or a
            // generator (non-empty arrays); anywhere else `isnotnull(x)` is the user's filter.
            let inferring = null_checks_inferred_above(graph, parents, idx);
            // A generator checks the expression it explodes (`isnotnull(from_json(…).items)`);
            // a join checks its keys, computed ones too (`isnotnull(from_json(…).order_id)`
            // below the projection parsing them).
            let inferred = !d.conditions.is_empty()
                && inferring.is_some()
                && d.conditions
                    .iter()
                    .all(|c| is_inferred_constraint(c) || is_one_call_of(&c.text, "isnotnull"));
            if inferred {
                return Some(INFERRED_CONSTRAINTS.to_owned());
            }
            // `except` / `intersect` compare whole rows null-safely (`a <=> b` for each column);
            // what a side's constants make of that is pushed down to the other side as a Filter
            // (`2099-12-31 <=> eff_end_date`).
            let set_operation_condition = !d.conditions.is_empty()
                && d.conditions.iter().all(|c| c.text.contains("<=>"))
                && below_set_operation_join(graph, parents, idx);
            set_operation_condition.then(|| "row comparison pushed down from".to_owned())
        }
        // `SELECT current_date()` (no FROM) reads the one empty row Spark supplies.
        OperatorFamily::Scan if node.name.ends_with("OneRowRelation") => {
            Some("the single row of a query without FROM, read by".to_owned())
        }
        // AQE found this input empty and planned nothing for it: no code of its own.
        OperatorFamily::Scan if node.operator == "EmptyRelation" => {
            Some("an input found empty while running, in place of its plan, for".to_owned())
        }
        // `BatchEvalPython` / `ArrowEvalPython` evaluate the UDFs an operator above calls; the
        // pandas and Arrow operators (`FlatMapGroupsInPandas`, `MapInPandas`, a pandas UDF's
        // `AggregateInPandas` …) are the user's own call that handed the function over.
        OperatorFamily::PythonEval if evaluates_udfs_for_above(&node.operator) => {
            Some("Python UDF evaluation for".to_owned())
        }
        // Grouping sets (`rollup`, `cube`) and distinct aggregates expand the rows for the
        // aggregate above, tagging each copy with its grouping id; an expansion without one is
        // the user's `unpivot` / `melt` (its output: the ids, the variable and the value).
        OperatorFamily::Expand => {
            let tags_copies = d.output.is_empty()
                || d.output.iter().any(|a| {
                    a.name.eq_ignore_ascii_case("spark_grouping_id")
                        || a.name.eq_ignore_ascii_case("gid")
                });
            tags_copies.then(|| "row expansion for".to_owned())
        }
        _ if node.operator.eq_ignore_ascii_case("WindowGroupLimit") => {
            Some("top-k pre-filter for".to_owned())
        }
        _ => None,
    }
}

/// Whether a Python operator only evaluates UDFs that the operator above it calls
/// (`ArrowEvalPython [discount(price)]` under the projection using the result).
fn evaluates_udfs_for_above(operator: &str) -> bool {
    [
        "BatchEvalPython",
        "ArrowEvalPython",
        "BatchEvalPythonUDTF",
        "ArrowEvalPythonUDTF",
    ]
    .iter()
    .any(|o| o.eq_ignore_ascii_case(operator))
}

/// What a sort key says the code called: `desc` for a descending key, and the null ordering
/// when it is not the direction's default (`asc_nulls_last`, `desc_nulls_first` — the names
/// the DataFrame API and `NULLS LAST` / `NULLS FIRST` in SQL give it).
fn sort_key_functions(k: &crate::plan::SortKey) -> impl Iterator<Item = &'static str> {
    let direction = (!k.ascending).then_some("desc");
    let nulls = match (k.ascending, k.nulls_first) {
        (true, false) => Some(ASC_NULLS_LAST),
        (false, true) => Some(DESC_NULLS_FIRST),
        _ => None,
    };
    direction.into_iter().chain(nulls)
}

/// Whether a projection only wraps whole rows into a tuple's field (`named_struct(id, id#1, …)
/// AS _1`), as a typed join (`joinWith`) plans each of its sides.
fn wraps_rows_in_a_tuple_field(d: &crate::plan::NodeDetails) -> bool {
    !d.projections.is_empty()
        && d.projections.iter().all(|p| {
            p.functions
                .iter()
                .any(|f| normalise_function(f) == "namedstruct")
                && p.alias
                    .as_deref()
                    .is_some_and(crate::plan::expr::is_tuple_field)
        })
}

/// Whether a projection passes its columns through and adds null columns, and nothing else.
fn pads_with_nulls(d: &crate::plan::NodeDetails) -> bool {
    let is_null = |e: &Expr| {
        e.alias.is_some()
            && e.columns.is_empty()
            && e.functions.is_empty()
            && e.text.to_ascii_lowercase().starts_with("null as ")
    };
    d.projections.iter().any(is_null)
        && d.projections
            .iter()
            .all(|e| is_passthrough(e) || is_null(e))
}

/// Whether the node is the (de)serialisation Spark wraps a typed operator in: a
/// `DeserializeToObject` right under one, a `SerializeFromObject` right over one.
fn converts_objects_for_typed_operator(
    graph: &PlanGraph,
    parents: &[Option<NodeIdx>],
    idx: NodeIdx,
) -> bool {
    let node = &graph.nodes[idx];
    let typed = |i: &NodeIdx| is_typed_operator(&graph.nodes[*i].operator);
    // `rdd.toDF` of a Scala RDD of objects scans the objects (`obj#132: pkg.Job$Rating`) and
    // turns them into rows right above
    let scans_objects = |i: &NodeIdx| {
        let child = &graph.nodes[*i];
        child.family == OperatorFamily::Scan
            && matches!(child.details.output.as_slice(), [only] if only.name == "obj")
    };
    match node.operator.as_str() {
        "DeserializeToObject" => parents[idx].as_ref().is_some_and(typed),
        "SerializeFromObject" => node.children.iter().any(|c| typed(c) || scans_objects(c)),
        _ => false,
    }
}

/// Why a `DeserializeToObject` is derived: it serves the typed operator above it.
const ROWS_TO_OBJECTS: &str = "rows turned into objects for";
/// Why a `SerializeFromObject` is derived: it serves the typed operator below it.
const OBJECTS_TO_ROWS: &str = "objects turned back into rows by";
/// Why rows of scanned objects keeping every field of their class exist
/// ([`SemanticDescription::may_be_pruned_objects`]).
pub const EVERY_FIELD_KEPT: &str = "objects turned into rows of every field of their class by";

/// Why a SQL query's generator maps to its aggregate ([`super::localise::PlanLocalisation::
/// generated_for_aggregate`]).
pub const REGENERATED_FOR_AGGREGATE: &str =
    "rebuilt by the optimizer, pruning columns, for the aggregate of its query:";

/// Why a node an earlier input of a union repeats maps to the union ([`super::localise::
/// PlanLocalisation::reinstantiated_for_union`]).
pub const REINSTANTIATED_FOR_UNION: &str =
    "made anew by the analyzer, repeating an earlier input's lineage, for";

/// Why a node Spark made anew while pushing a predicate down maps to the operator whose origin it
/// took ([`super::localise::PlanLocalisation::rebuilt_by_pushdown`]): a join's null checks to the
/// later filter pushed through the join, an aggregate a join reads to that join.
pub const REBUILT_BY_PUSHDOWN: &str =
    "made anew by Spark pushing a predicate down, under the origin of";

/// Why a deduplication's aggregate maps to the query's last operator ([`super::localise::
/// PlanLocalisation::deduplicated_under_root`]).
pub const DEDUPLICATED_UNDER_ROOT: &str = "made by Spark's optimizer for the deduplication, under the origin of the query's last operator,";

/// Why a join on names' own Project is derived: it keeps each key once, and serves the join.
const JOIN_ON_NAMES_PROJECT: &str = "the columns kept by the join on names of";

/// Why a Filter of null checks is the planner's.
const INFERRED_CONSTRAINTS: &str = "constraints inferred from";

/// Whether a derived node's reason is a null check Spark inferred for its consumer.
pub fn is_inferred_constraint_reason(reason: &str) -> bool {
    reason.starts_with(INFERRED_CONSTRAINTS)
}

/// Why the Project over a pivot is derived: it takes each pivoted value's column out of the
/// pivot's array (`__pivot_count(1) AS count …[0] AS Female`), and serves the pivot below it.
const PIVOT_VALUES_PROJECT: &str = "the pivoted values' columns taken out for";

/// Whether a projection takes pivoted values out of a pivot's result and does nothing else.
fn takes_out_pivoted_values(d: &crate::plan::NodeDetails) -> bool {
    let computed: Vec<&Expr> = d
        .projections
        .iter()
        .filter(|p| !is_passthrough(p))
        .collect();
    !computed.is_empty() && computed.iter().all(|p| p.raw.contains("__pivot_"))
}

/// Describe every node of `graph` (node 2 over a whole plan). Each description is independent,
/// so the state machine can run them one per Map iteration.
pub fn plan_semantics(graph: &PlanGraph) -> Vec<SemanticDescription> {
    let parents = graph.parents();
    let mut own: Vec<Evidence> = graph
        .nodes
        .iter()
        .enumerate()
        .map(|(idx, node)| {
            let inferred_from_above = node.family == OperatorFamily::Filter
                && null_checks_inferred_above(graph, &parents, idx).is_some();
            own_signature(node, inferred_from_above)
        })
        .collect();
    for (idx, node) in graph.nodes.iter().enumerate() {
        // `pythonUDF0` in a Project, Filter or Aggregate is the result of the UDF the
        // Python evaluation below it runs: the operator the user wrote calls that UDF by name.
        if own[idx].reads_udf_result() {
            let udfs = python_udfs_below(graph, node);
            own[idx].add_all(TokenKind::Function, &udfs);
        }
        // The partial step of an aggregation is the same statement as its final step, which
        // names what it computes (`count(1) AS custdist`): it carries the names the user gave
        // too (not those Spark makes up from the function: `count(1) AS count`).
        if let Some(last) = final_step(graph, &parents, idx) {
            let functions: Vec<&String> = own[last]
                .tokens
                .iter()
                .filter(|(k, _)| *k == TokenKind::Function)
                .map(|(_, v)| v)
                .collect();
            let names: Vec<String> = own[last]
                .tokens
                .iter()
                .filter(|(k, v)| *k == TokenKind::Alias && !functions.contains(&v))
                .map(|(_, v)| v.clone())
                .collect();
            own[idx].add_all(TokenKind::Alias, &names);
        }
        // `drop("url")` names what a pruning Project leaves out.
        // A column the plan read is a marker only (the column itself would favour any select
        // naming the rest); one the plan computed (`row_number() … AS row`) is named too.
        let dropped = dropped_columns(graph, node);
        if !dropped.is_empty() {
            let read = columns_read_below(graph, idx);
            for column in dropped {
                own[idx].add(TokenKind::Literal, &format!("{DROPPED_COLUMN}{column}"));
                if !read.contains(&column) {
                    own[idx].add(TokenKind::Column, &column);
                }
            }
        }
        if node.family == OperatorFamily::Write
            && let Some(command) = command_around(graph, &parents, idx)
        {
            own[idx].add(TokenKind::Literal, &format!("{SQL_COMMAND}{command}"));
        }
        if caches_a_bare_read(graph, idx) {
            own[idx].add(TokenKind::Literal, CACHED_READ);
        }
        own[idx].passed_through = passed_through(graph, node);
        let keeps_one_key =
            parents[idx].is_some_and(|p| keeps_one_of_each_name(graph, &graph.nodes[p]));
        if node.family == OperatorFamily::Join && keeps_one_key {
            own[idx].add(TokenKind::Literal, JOINED_ON_NAMES);
        }
        if node.family == OperatorFamily::Aggregate && own[idx].deduplicates_only() {
            let keys: BTreeSet<String> = node
                .details
                .grouping_keys
                .iter()
                .flat_map(|k| k.columns.iter().map(|c| c.to_lowercase()))
                .collect();
            own[idx].narrowed_rows = keys.len() < columns_read_below(graph, idx).len();
        }
        if node.family == OperatorFamily::Join && returns_both_keys(graph, &parents, idx) {
            own[idx].keeps_both_keys = true;
        }
        if node.family == OperatorFamily::Join && tested_above(graph, &parents, idx) {
            own[idx].nulls_rejected_above = true;
        }
    }
    // Rows PySpark handed over, or a Python UDF evaluated, anywhere in the plan: Python drove
    // the whole query, so none of its operators is a Scala or Java statement's.
    let driven_by_python = own.iter().any(|e| e.made_by_python)
        || graph
            .nodes
            .iter()
            .any(|n| n.family == OperatorFamily::PythonEval);
    if driven_by_python {
        for evidence in &mut own {
            evidence.driven_by_python = true;
        }
    }
    let returned = result_columns(graph);
    if !returned.is_empty() {
        for evidence in &mut own {
            evidence.result_columns.clone_from(&returned);
        }
    }
    let derived: Vec<Option<String>> = (0..graph.nodes.len())
        .map(|i| {
            if graph.nodes[i].node_kind == NodeKind::Engine {
                Some("engine wrapper around".to_owned())
            } else {
                derived_reason(
                    graph,
                    &parents,
                    i,
                    parents[i].and_then(|p| user_ancestor_or_parent(graph, &parents, p)),
                )
            }
        })
        .collect();

    graph
        .nodes
        .iter()
        .enumerate()
        .map(|(idx, node)| {
            let induced_by = derived[idx].as_ref().and_then(|reason| {
                // The Project of a join on names serves the join below it, not its consumer; so
                // do the serialisation over a typed operator and the Project over a pivot.
                let consumer = if [JOIN_ON_NAMES_PROJECT, OBJECTS_TO_ROWS, PIVOT_VALUES_PROJECT]
                    .contains(&reason.as_str())
                {
                    first_user_descendant(graph, &derived, idx)
                } else if let Some(generator) = (reason == INFERRED_CONSTRAINTS)
                    .then(|| null_checks_inferred_above(graph, &parents, idx))
                    .flatten()
                    .filter(|&p| graph.nodes[p].family == OperatorFamily::Generate)
                {
                    // the generator that asked for the checks, not the projection parsing the
                    // JSON it explodes (a join's checks serve the operator above them)
                    Some(generator)
                } else {
                    consumer_of(graph, &parents, &derived, idx).or_else(|| {
                        (node.node_kind == NodeKind::Engine)
                            .then(|| first_user_descendant(graph, &derived, idx))
                            .flatten()
                    })
                }?;
                let c = &graph.nodes[consumer];
                Some(Consumer {
                    dag_node_id: c.id.to_string(),
                    node_name: c.name.to_string(),
                    family: c.family,
                    signature: to_pairs(&own[consumer]),
                    reason: format!("{reason} {} ({})", c.name, c.id),
                })
            });
            let signature = to_pairs(&own[idx]);
            // A derived node searches exactly as the operator it serves does.
            let (term_operator, term_signature) = match &induced_by {
                Some(c) => (
                    graph
                        .nodes
                        .iter()
                        .find(|n| n.id == c.dag_node_id)
                        .map_or(&node.operator, |n| &n.operator),
                    &c.signature,
                ),
                None => (&node.operator, &signature),
            };
            let mut query_terms: Vec<String> = super::evidence::code_terms(term_operator);
            // The query's result columns are every node's: no term of one node's own.
            query_terms.extend(
                term_signature
                    .iter()
                    .filter(|(k, _)| k != RESULT_COLUMN)
                    .flat_map(|(_, v)| super::evidence::code_terms(v)),
            );
            SemanticDescription {
                execution_id: graph.execution.execution_id,
                dag_node_id: node.id.to_string(),
                node_name: node.name.to_string(),
                operator: node.operator.to_string(),
                family: node.family,
                node_kind: node.node_kind,
                behaviour: behaviour(node.family, node),
                signature,
                query_terms,
                induced_by,
            }
        })
        .collect()
}

/// A Project over a join on those names that keeps every column of its input but the second of
/// each name it holds twice, those names first and the rest in the join's order: the plan of a
/// join on column names (`join(other, "k")` plans `k, left columns…, right columns…`). A `SELECT`
/// after a join on a condition that happens to keep one key and every other column rarely leads
/// with it.
fn keeps_one_of_each_name(graph: &PlanGraph, project: &crate::plan::PlanNode) -> bool {
    if project.family != OperatorFamily::Project {
        return false;
    }
    let d = &project.details;
    // Spark matches the names case-insensitively: `Seq("customerid")` joins `CustomerID`.
    let inputs: Vec<String> = d
        .input
        .iter()
        .map(|a| a.name.to_lowercase().to_string())
        .collect();
    let mut seen = BTreeSet::new();
    let twice: Vec<&str> = inputs
        .iter()
        .filter(|name| !seen.insert(name.as_str()))
        .map(String::as_str)
        .collect();
    let output_name = |e: &Expr| {
        e.alias
            .clone()
            .or_else(|| e.columns.first().cloned())
            .map(|name| name.to_lowercase())
    };
    let outputs: Vec<Option<String>> = d.projections.iter().map(output_name).collect();
    // Every column kept as it is but the second of each pair (a full outer join merges the
    // pair: `coalesce(k#1, k#5) AS k`): a `select` of some columns, or a `withColumn` Spark
    // collapsed into the projection, is no such join's.
    let merges_a_pair = |e: &Expr| {
        e.functions
            .iter()
            .all(|f| f.eq_ignore_ascii_case("coalesce"))
            && e.alias.as_deref().is_some_and(|alias| {
                !e.columns.is_empty() && e.columns.iter().all(|c| c.eq_ignore_ascii_case(alias))
            })
    };
    let keeps_the_rest = d.projections.len() + twice.len() == inputs.len()
        && d.projections
            .iter()
            .all(|e| is_passthrough(e) || merges_a_pair(e))
        && inputs
            .iter()
            .all(|name| outputs.iter().any(|o| o.as_deref() == Some(name.as_str())));
    // The keys lead, as Spark orders a join on names (`k, left columns…, right columns…`).
    let keys_lead = outputs
        .iter()
        .take(twice.len())
        .all(|o| o.as_deref().is_some_and(|o| twice.contains(&o)));
    // …and the rest follow in the join's own order, left columns before right ones: a `select`
    // naming every column in an order of its own (`a.k, b.x, a.y`) is no join on names'.
    let positions: Vec<Option<usize>> = outputs
        .iter()
        .skip(twice.len())
        .map(|o| {
            o.as_deref()
                .and_then(|o| inputs.iter().position(|i| i == o))
        })
        .collect();
    let rest_in_join_order = positions.windows(2).all(|w| match (w[0], w[1]) {
        (Some(a), Some(b)) => a < b,
        _ => true,
    });
    // A join on names joins on those names: a join printing its keys has them on both sides
    // (`band = id` is no join on `id`, though both inputs hold an `id`).
    let joined_on_them = project.children.iter().all(|&c| {
        let Some(join) = graph.nodes[c].details.join.as_ref() else {
            return true;
        };
        let names = |keys: &[Expr]| -> BTreeSet<String> {
            keys.iter()
                .flat_map(|k| k.columns.iter().map(|c| c.to_lowercase()))
                .collect()
        };
        let (left, right) = (names(&join.left_keys), names(&join.right_keys));
        left.is_empty() && right.is_empty()
            || twice
                .iter()
                .all(|name| left.contains(*name) && right.contains(*name))
    });
    // …and keeps the key of the side Spark keeps: the left one, the right one for a right outer
    // join (a select of `b.k, b.x, a.y` over an equality join keeps whichever side it names).
    let keeps_the_join_s_side = project.children.iter().all(|&c| {
        let Some(join) = graph.nodes[c].details.join.as_ref() else {
            return true;
        };
        let right_outer = join.join_type.eq_ignore_ascii_case("RightOuter");
        d.projections.iter().take(twice.len()).all(|kept| {
            let kept = crate::plan::expr::parse_attribute(&kept.raw);
            let name = kept.name.to_lowercase();
            let sides: Vec<Option<u64>> = d
                .input
                .iter()
                .filter(|a| a.name.to_lowercase() == name)
                .map(|a| a.id)
                .collect();
            let spark_s = if right_outer {
                sides.last()
            } else {
                sides.first()
            };
            match (kept.id, spark_s) {
                (Some(kept), Some(Some(side))) => kept == *side,
                _ => true,
            }
        })
    });
    // (With one output per distinct input name, each pair is kept once.)
    !twice.is_empty()
        && keeps_the_rest
        && keys_lead
        && rest_in_join_order
        && joined_on_them
        && keeps_the_join_s_side
}

/// Whether some ancestor of `idx` belongs to a family accepted by `wanted`.
/// Whether a semi or anti join — how Spark plans `intersect` and `except` — is above node `idx`.
fn below_set_operation_join(graph: &PlanGraph, parents: &[Option<NodeIdx>], idx: NodeIdx) -> bool {
    let mut current = parents[idx];
    for _ in 0..graph.nodes.len() {
        let Some(p) = current else {
            return false;
        };
        if graph.nodes[p]
            .details
            .join
            .as_ref()
            .is_some_and(|j| j.is_semi_or_anti())
        {
            return true;
        }
        current = parents[p];
    }
    false
}

/// The join or generator above node `idx` that asks for null checks on its side, if any: Spark infers
/// `isnotnull(key)` for both sides of an inner or semi join, only the null-supplying side of an
/// outer join (the right of `LeftOuter`/`LeftAnti`, the left of `RightOuter`) and neither side of
/// a full outer join (`InferFiltersFromConstraints`). On a preserved side the check can still come
/// from a join further up, pushed down through this one; nothing is pushed through a full outer
/// join. A join whose type the plan does not print is taken to infer on both sides.
pub(crate) fn null_checks_inferred_above(
    graph: &PlanGraph,
    parents: &[Option<NodeIdx>],
    idx: NodeIdx,
) -> Option<NodeIdx> {
    let mut from = idx;
    for _ in 0..graph.nodes.len() {
        let p = parents[from]?;
        let node = &graph.nodes[p];
        match node.family {
            OperatorFamily::Generate => return Some(p),
            OperatorFamily::Join => {
                let side = node.children.iter().position(|&c| c == from);
                let join_type = node
                    .details
                    .join
                    .as_ref()
                    .map_or(String::new(), |j| j.join_type.to_ascii_lowercase());
                match (join_type.as_str(), side) {
                    ("fullouter", _) => return None,
                    // `ExistenceJoin(exists#1)` (an `IN` subquery under `OR`) infers nothing.
                    (t, _) if t.starts_with("existencejoin") => {}
                    ("leftouter" | "leftanti", Some(0)) | ("rightouter", Some(1)) => {}
                    _ => return Some(p),
                }
            }
            _ => {}
        }
        from = p;
    }
    None
}

/// Skip engine wrappers between a node and its real parent operator.
fn user_ancestor_or_parent(
    graph: &PlanGraph,
    parents: &[Option<NodeIdx>],
    mut idx: NodeIdx,
) -> Option<NodeIdx> {
    for _ in 0..graph.nodes.len() {
        if graph.nodes[idx].node_kind == NodeKind::Code {
            return Some(idx);
        }
        idx = parents[idx]?;
    }
    None
}

/// A join the query returns as it is (only engine wrappers above it) whose result holds a key
/// of each side under one name (`dept_id`, `dept_id`): a join on a condition, for a join on
/// names keeps one of each.
fn returns_both_keys(graph: &PlanGraph, parents: &[Option<NodeIdx>], idx: NodeIdx) -> bool {
    let Some(join) = graph.nodes[idx].details.join.as_deref() else {
        return false;
    };
    let mut above = std::iter::successors(parents[idx], |&n| parents[n]);
    if !above.all(|n| graph.nodes[n].node_kind == NodeKind::Engine) {
        return false;
    }
    // The result as printed above the join, else what its two inputs bring (a Sort or Exchange
    // prints only its input).
    let printed = std::iter::successors(Some(idx), |&n| parents[n])
        .map(|n| &graph.nodes[n].details.output)
        .find(|o| !o.is_empty());
    let names: Vec<&str> = match printed {
        Some(output) => output.iter().map(|a| a.name.as_str()).collect(),
        None if join.join_type.to_lowercase().contains("semi")
            || join.join_type.to_lowercase().contains("anti") =>
        {
            return false;
        }
        None => brought_by_inputs(graph, idx)
            .map(|a| a.name.as_str())
            .collect(),
    };
    join.left_keys
        .iter()
        .filter_map(|k| k.columns.first())
        .any(|key| names.iter().filter(|n| n.eq_ignore_ascii_case(key)).count() > 1)
}

/// The columns a node's inputs bring: each child's output, or its input when it prints none (a
/// Sort or Exchange prints only its input).
fn brought_by_inputs(
    graph: &PlanGraph,
    idx: NodeIdx,
) -> impl Iterator<Item = &crate::plan::Attribute> {
    graph.nodes[idx].children.iter().flat_map(|&c| {
        let d = &graph.nodes[c].details;
        if d.output.is_empty() {
            d.input.iter()
        } else {
            d.output.iter()
        }
    })
}

/// Whether an inner join's rows are tested above it: a Filter's condition or a later join's keys
/// or condition read one of the columns its inputs bring. Spark plans an outer join as inner
/// when such a test rejects the rows it would pad with nulls (`EliminateOuterJoin`).
fn tested_above(graph: &PlanGraph, parents: &[Option<NodeIdx>], idx: NodeIdx) -> bool {
    let Some(join) = graph.nodes[idx].details.join.as_deref() else {
        return false;
    };
    if join.join_type != "Inner" {
        return false;
    }
    let brought: BTreeSet<String> = brought_by_inputs(graph, idx)
        .map(|a| a.name.to_lowercase().to_string())
        .collect();
    std::iter::successors(parents[idx], |&n| parents[n]).any(|n| {
        let d = &graph.nodes[n].details;
        let tests = d.conditions.iter().chain(
            d.join
                .iter()
                .flat_map(|j| j.left_keys.iter().chain(&j.right_keys).chain(&j.condition)),
        );
        tests
            .flat_map(|t| &t.columns)
            .any(|c| brought.contains(&c.to_lowercase()))
    })
}

/// Nearest ancestor written by the user.
fn consumer_of(
    graph: &PlanGraph,
    parents: &[Option<NodeIdx>],
    derived: &[Option<String>],
    idx: NodeIdx,
) -> Option<NodeIdx> {
    let mut current = parents[idx]?;
    for _ in 0..graph.nodes.len() {
        if derived[current].is_none() && graph.nodes[current].node_kind == NodeKind::Code {
            return Some(current);
        }
        current = parents[current]?;
    }
    None
}

/// For an engine node at the top of a plan (AdaptiveSparkPlan …): the first user operator below.
fn first_user_descendant(
    graph: &PlanGraph,
    derived: &[Option<String>],
    idx: NodeIdx,
) -> Option<NodeIdx> {
    let mut queue = graph.nodes[idx]
        .children
        .iter()
        .copied()
        .collect::<std::collections::VecDeque<_>>();
    let mut steps = 0;
    while let Some(i) = queue.pop_front() {
        steps += 1;
        if steps > graph.nodes.len() {
            break;
        }
        if derived[i].is_none() && graph.nodes[i].node_kind == NodeKind::Code {
            return Some(i);
        }
        queue.extend(graph.nodes[i].children.iter().copied());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{RangeBounds, plan_semantics, range_bounds, range_literals};
    use crate::plan::{ParseOptions, parse_plan};

    #[test]
    fn null_checks_an_explode_asks_for_are_the_explodes_even_of_an_expression() {
        let plan = "\
== Physical Plan ==
* Generate (5)
+- * Project (4)
   +- Project (3)
      +- Filter (2)
         +- Scan text  (1)


(1) Scan text 
Output [1]: [value#1]
Batched: false
Location: InMemoryFileIndex [file:/data/orders.json]
ReadSchema: struct<value:string>

(2) Filter
Input [1]: [value#1]
Condition : ((size(from_json(StructField(items,ArrayType(StringType,true),true), value#1, Some(UTC), false).items, false) > 0) AND isnotnull(from_json(StructField(items,ArrayType(StringType,true),true), value#1, Some(UTC), false).items))

(3) Project
Output [1]: [from_json(StructField(items,ArrayType(StringType,true),true), value#1, Some(UTC), false) AS parsed#3]
Input [1]: [value#1]

(4) Project [codegen id : 1]
Output [1]: [parsed#3.items AS items#5]
Input [1]: [parsed#3]

(5) Generate [codegen id : 1]
Input [1]: [items#5]
Arguments: explode(items#5), false, [item#7]
";
        let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
        let semantics = plan_semantics(&graph);
        let filter = semantics.iter().find(|s| s.dag_node_id == "2").unwrap();
        let consumer = filter.induced_by.as_ref().expect("the planner's filter");
        // the generator asked for the checks, not the projection parsing the JSON above it
        assert_eq!(consumer.dag_node_id, "5", "{consumer:?}");
    }

    #[test]
    fn an_aggregate_holds_the_projection_computing_past_its_aggregates() {
        let plan = "\
== Physical Plan ==
HashAggregate (4)
+- HashAggregate (3)
   +- HashAggregate (2)
      +- LocalTableScan (1)


(1) LocalTableScan
Output [3]: [Year#1, Close#2, Price#3]
Arguments: [Year#1, Close#2, Price#3]

(2) HashAggregate
Input [3]: [Year#1, Close#2, Price#3]
Keys [1]: [Year#1]
Functions [1]: [avg(Close#2)]
Aggregate Attributes [1]: [avg(Close#2)#5]
Results [2]: [avg(Year#1)#4 AS Year#6, format_number(avg(Close#2)#5, 2) AS Mean Close#7]

(3) HashAggregate
Input [3]: [Year#1, Close#2, Price#3]
Keys: []
Functions [1]: [sum(cast(isnull(Close#2) as bigint))]
Aggregate Attributes [1]: [sum(cast(isnull(Close#2) as bigint))#8L]
Results [1]: [sum(cast(isnull(Close#2) as bigint))#8L AS Close#9L]

(4) HashAggregate
Input [3]: [Year#1, Close#2, Price#3]
Keys [1]: [Year#1]
Functions [1]: [sum(UnscaledValue(Price#3))]
Aggregate Attributes [1]: [sum(UnscaledValue(Price#3))#10L]
Results [2]: [Year#1, MakeDecimal(sum(UnscaledValue(Price#3))#10L,17,2) AS total#11]
";
        let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
        let semantics = plan_semantics(&graph);
        let folds = |id: &str| {
            let node = semantics.iter().find(|s| s.dag_node_id == id).unwrap();
            node.target().1.folds_projection
        };
        // `format_number` is no aggregate's: a later `select` computed it
        assert!(folds("2"));
        // the aggregate's own expression, and Spark's decimal wrapping of a sum, are not
        assert!(!folds("3"));
        assert!(!folds("4"));
    }

    #[test]
    fn a_union_says_it_concatenates_and_nothing_else_does() {
        let plan = "\
Union
:- Project [id#1]
:  +- LocalTableScan [id#1, name#2]
+- LocalTableScan [id#3]
";
        let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
        let semantics = plan_semantics(&graph);
        let concatenates = |id: &str| {
            let s = semantics.iter().find(|s| s.dag_node_id == id).unwrap();
            s.signature
                .iter()
                .any(|(k, v)| k == "function" && v == super::CONCATENATION)
        };
        assert!(concatenates("0"));
        assert!(!concatenates("1") && !concatenates("2") && !concatenates("3"));
    }

    #[test]
    fn an_aggregate_says_whether_it_groups_by_keys() {
        let plan = "\
HashAggregate(keys=[country#1], functions=[count(id#2)])
+- HashAggregate(keys=[], functions=[max(id#2)])
   +- HashAggregate(keys=[id#2], functions=[])
      +- LocalTableScan [id#2, country#1]
";
        let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
        let semantics = plan_semantics(&graph);
        let grouping = |id: &str| {
            let s = semantics.iter().find(|s| s.dag_node_id == id).unwrap();
            s.signature
                .iter()
                .find(|(k, _)| k == "grouping")
                .map(|(_, v)| v.clone())
        };
        assert_eq!(grouping("0").as_deref(), Some("keyed"));
        assert_eq!(grouping("1").as_deref(), Some("global"));
        // keys and nothing computed: a de-duplication, which either kind of code may plan
        assert_eq!(grouping("2"), None);
    }

    #[test]
    fn the_partial_step_of_an_aggregation_carries_the_names_its_final_step_gives() {
        let plan = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../tests/fixtures/plans/aggregate-sort/formatted.txt"),
        )
        .unwrap();
        let graph = parse_plan(&plan, &ParseOptions::default()).unwrap();
        let semantics = plan_semantics(&graph);
        let aliases = |name_part: &str, function: &str| -> Vec<Vec<String>> {
            semantics
                .iter()
                .zip(&graph.nodes)
                .filter(|(s, n)| {
                    s.node_name.contains(name_part)
                        && n.details
                            .aggregate_functions
                            .iter()
                            .any(|f| f.functions.first().is_some_and(|x| x == function))
                })
                .map(|(s, _)| {
                    s.signature
                        .iter()
                        .filter(|(k, _)| k == "alias")
                        .map(|(_, v)| v.clone())
                        .collect()
                })
                .collect()
        };
        let partial = aliases("Aggregate", "partial_min");
        assert!(!partial.is_empty(), "the fixture has partial steps");
        assert_eq!(
            partial,
            aliases("Aggregate", "min"),
            "both steps say first_date"
        );
        assert!(partial.iter().all(|a| a.contains(&"first_date".to_owned())));
    }

    #[test]
    fn a_global_sort_under_an_aggregate_is_the_users_and_a_local_one_the_planners() {
        // `report.orderBy(desc("revenue"))` grouped again by a caller keeps its Sort, global,
        // below the aggregate; the sort a sort-based aggregate needs is local.
        let plan = "\
SortAggregate(keys=[region#1], functions=[max(revenue#2)])
+- Sort [region#1 ASC NULLS FIRST], false, 0
   +- HashAggregate(keys=[region#1], functions=[sum(revenue#2)])
      +- Sort [revenue#2 DESC NULLS LAST], true, 0
         +- LocalTableScan [region#1, revenue#2]
";
        let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
        let semantics = plan_semantics(&graph);
        let sort = |direction: &str| {
            let idx = graph
                .nodes
                .iter()
                .position(|n| {
                    n.family == crate::plan::OperatorFamily::Sort && {
                        let line = plan
                            .lines()
                            .nth(n.source_line.unwrap() as usize - 1)
                            .unwrap();
                        line.contains(direction)
                    }
                })
                .unwrap();
            &semantics[idx]
        };
        assert!(sort("DESC").induced_by.is_none(), "the user's orderBy");
        assert!(sort("ASC").induced_by.is_some(), "the aggregate's own sort");
    }

    #[test]
    fn an_unpivot_s_expansion_is_the_users_and_a_rollup_s_the_aggregate_s() {
        // Both plan an Expand; a rollup's tags each copy of a row with its grouping id for the
        // aggregate above it, an unpivot's copies a row per value column and nothing follows.
        let expansion = |arguments: &str, above: &str| {
            let plan = format!(
                "== Physical Plan ==\n{above} (3)\n+- Expand (2)\n   +- LocalTableScan (1)\n\n\n\
                 (1) LocalTableScan\nOutput [3]: [id#1, qty#2, price#3]\nArguments: [id#1, qty#2, price#3]\n\n\
                 (2) Expand\nInput [3]: [id#1, qty#2, price#3]\nArguments: {arguments}\n\n\
                 (3) {above}\nInput [4]: [id#1, a#4, b#5, c#6]\n"
            );
            let graph = parse_plan(&plan, &ParseOptions::default()).unwrap();
            let semantics = plan_semantics(&graph);
            let idx = graph
                .nodes
                .iter()
                .position(|n| n.family == crate::plan::OperatorFamily::Expand)
                .unwrap();
            semantics[idx].induced_by.is_some()
        };
        let unpivot = "[[id#1, qty, cast(qty#2 as double)], [id#1, price, price#3]], [id#1, metric#4, value#5]";
        assert!(!expansion(unpivot, "Filter"), "the user's unpivot");
        let rollup = "[[id#1, qty#2, price#3, 0], [id#1, qty#2, null, 1]], [id#1, qty#7, price#8, spark_grouping_id#6L]";
        assert!(
            expansion(rollup, "HashAggregate"),
            "rows expanded for the rollup"
        );
    }

    #[test]
    fn a_pandas_function_s_operator_is_the_users_and_a_udf_s_evaluation_its_consumer_s() {
        // `groupBy(k).applyInPandas(f, schema)` / `mapInPandas(f, schema)` hand a function over:
        // the operator running it is that call's; `ArrowEvalPython` only evaluates the UDF the
        // operator above it calls.
        let induced = |operator: &str, arguments: &str| {
            let plan = format!(
                "== Physical Plan ==
Filter (3)
+- {operator} (2)
   +- LocalTableScan (1)


                 (1) LocalTableScan
Output [2]: [id#1, qty#2]
Arguments: [id#1, qty#2]

                 (2) {operator}
Input [2]: [id#1, qty#2]
Arguments: {arguments}

                 (3) Filter
Input [3]: [id#1, qty#2, v#4]
Condition : (v#4 > 1)
"
            );
            let graph = parse_plan(&plan, &ParseOptions::default()).unwrap();
            let semantics = plan_semantics(&graph);
            let idx = graph
                .nodes
                .iter()
                .position(|n| n.operator == operator)
                .unwrap();
            semantics[idx].induced_by.is_some()
        };
        assert!(!induced(
            "FlatMapGroupsInPandas",
            "[id#1], normalise(id#1, qty#2)#3, [id#1, v#4]"
        ));
        assert!(!induced(
            "MapInPandas",
            "keep_big(id#1, qty#2)#3, [id#1, v#4], false"
        ));
        assert!(induced(
            "ArrowEvalPython",
            "[doubled(qty#2)#3], [pythonUDF0#4], 200"
        ));
    }

    #[test]
    fn a_sample_with_replacement_is_marked_and_one_without_is_not() {
        let marked = |flag: &str| {
            let plan =
                format!("Sample 0.0, 0.3, {flag}, 123\n+- Range (0, 100, step=1, splits=2)\n");
            let graph = parse_plan(&plan, &ParseOptions::default()).unwrap();
            plan_semantics(&graph)[0]
                .signature
                .iter()
                .any(|(k, v)| k == "literal" && v == super::super::evidence::WITH_REPLACEMENT)
        };
        assert!(marked("true"));
        assert!(!marked("false"));
    }

    #[test]
    fn a_later_split_of_a_random_split_names_its_weight() {
        let literals = |bounds: &str| {
            let plan = format!("Sample {bounds}, false, 42\n+- Range (0, 100, step=1, splits=2)\n");
            let graph = parse_plan(&plan, &ParseOptions::default()).unwrap();
            plan_semantics(&graph)[0]
                .signature
                .iter()
                .filter(|(k, _)| k == "literal")
                .map(|(_, v)| v.clone())
                .collect::<Vec<_>>()
        };
        // `randomSplit([0.7, 0.3])`: the first split samples 0.0–0.7, the second 0.7–1.0
        assert!(literals("0.0, 0.7").contains(&"0.7".to_owned()));
        let second = literals("0.7, 1.0");
        assert!(second.contains(&"0.3".to_owned()), "{second:?}");
        assert!(!second.contains(&"1".to_owned()), "{second:?}");
    }

    #[test]
    fn a_sort_names_a_null_ordering_only_when_it_is_not_the_default() {
        let functions = |key: &str| {
            let plan = format!("Sort [{key}], true, 0\n+- LocalTableScan [age#1]\n");
            let graph = parse_plan(&plan, &ParseOptions::default()).unwrap();
            let mut names: Vec<String> = plan_semantics(&graph)[0]
                .signature
                .iter()
                .filter(|(k, _)| k == "function")
                .map(|(_, v)| v.clone())
                .collect();
            names.sort();
            names
        };
        assert!(functions("age#1 ASC NULLS FIRST").is_empty());
        assert_eq!(functions("age#1 ASC NULLS LAST"), ["ascnullslast"]);
        assert_eq!(functions("age#1 DESC NULLS LAST"), ["desc"]);
        assert_eq!(
            functions("age#1 DESC NULLS FIRST"),
            ["desc", "descnullsfirst"]
        );
    }

    #[test]
    fn a_window_names_the_direction_of_its_ordering() {
        let functions = |order: &str| {
            let plan = format!(
                "Window [row_number() windowspecdefinition(d#1, s#2 {order}, \
                 specifiedwindowframe(RowFrame, unboundedpreceding$(), currentrow$())) AS row#3], \
                 [d#1], [s#2 {order}]\n+- LocalTableScan [d#1, s#2]\n"
            );
            let graph = parse_plan(&plan, &ParseOptions::default()).unwrap();
            plan_semantics(&graph)[0]
                .signature
                .iter()
                .any(|(k, v)| k == "function" && v == "desc")
        };
        assert!(functions("DESC NULLS LAST"));
        assert!(!functions("ASC NULLS FIRST"));
    }

    #[test]
    fn a_pruning_projection_names_the_columns_it_leaves_out_when_they_are_fewer() {
        let dropped = |output: &str| {
            let plan = format!("Project [{output}]\n+- LocalTableScan [id#1, name#2, url#3]\n");
            let graph = parse_plan(&plan, &ParseOptions::default()).unwrap();
            let mut dropped: Vec<String> = plan_semantics(&graph)[0]
                .signature
                .iter()
                .filter(|(k, v)| k == "literal" && v.starts_with("drop:"))
                .map(|(_, v)| v.clone())
                .collect();
            dropped.sort();
            dropped
        };
        assert_eq!(dropped("id#1, name#2"), ["drop:url"]);
        // one column of three kept: a select, not a drop of two
        assert!(dropped("id#1").is_empty());
        // a computed column is no pruning
        assert!(dropped("id#1, upper(name#2) AS n#4").is_empty());
    }

    #[test]
    fn a_scan_says_whether_an_rdd_or_a_local_collection_holds_its_rows() {
        let holder = |scan: &str| {
            let graph = parse_plan(scan, &ParseOptions::default()).unwrap();
            plan_semantics(&graph)[0]
                .signature
                .iter()
                .find(|(k, _)| k == "rowsFromRdd")
                .map(|(_, v)| v.clone())
        };
        assert_eq!(
            holder("LocalTableScan [celebrity#1, color#2]\n").as_deref(),
            Some("false")
        );
        assert_eq!(
            holder("Scan ExistingRDD[celebrity#1,color#2]\n").as_deref(),
            Some("true")
        );
        assert_eq!(holder("FileScan parquet [a#1] Batched: true\n"), None);
    }

    #[test]
    fn a_projection_over_a_sort_by_a_column_it_leaves_out_is_no_drop() {
        let dropped = |below: &str, details: &str| {
            let plan = format!(
                "== Physical Plan ==\n\
                 * Project (3)\n\
                 +- * {below} (2)\n   \
                 +- LocalTableScan (1)\n\n\n\
                 (1) LocalTableScan\n\
                 Output [3]: [card#1, month#2, total#3]\n\
                 Arguments: [card#1, month#2, total#3]\n\n\
                 (2) {below}\n\
                 Input [3]: [card#1, month#2, total#3]\n\
                 {details}\n\n\
                 (3) Project\n\
                 Output [2]: [card#1, total#3]\n\
                 Input [3]: [card#1, month#2, total#3]\n"
            );
            let graph = parse_plan(&plan, &ParseOptions::default()).unwrap();
            let project = plan_semantics(&graph)
                .into_iter()
                .find(|s| s.dag_node_id == "3")
                .unwrap();
            project
                .signature
                .iter()
                .any(|(k, v)| k == "literal" && v.starts_with("drop:"))
        };
        // `SELECT card, total … ORDER BY card, month`: the Sort's key, taken away again
        let by_month = "Arguments: [card#1 ASC NULLS FIRST, month#2 ASC NULLS FIRST], true, 0";
        assert!(!dropped("Sort", by_month));
        // a column the Sort does not order by was dropped by the code
        assert!(dropped(
            "Sort",
            "Arguments: [card#1 ASC NULLS FIRST], true, 0"
        ));
        // and so was a column a Filter tested (`filter(col("rn") == 1).drop("rn")`)
        assert!(dropped("Filter", "Condition : (month#2 = 1)"));
    }

    #[test]
    fn a_projection_that_only_fills_nulls_names_its_columns_and_values() {
        let literals = |output: &str| {
            let plan = format!("Project [{output}]\n+- LocalTableScan [id#1, city#2, x#3]\n");
            let graph = parse_plan(&plan, &ParseOptions::default()).unwrap();
            let signature = &plan_semantics(&graph)[0].signature;
            let fills = signature
                .iter()
                .any(|(k, v)| k == "function" && v == "fillna");
            let mut literals: Vec<String> = signature
                .iter()
                .filter(|(k, v)| k == "literal" && v.starts_with("fill"))
                .map(|(_, v)| v.clone())
                .collect();
            literals.sort();
            (fills, literals)
        };
        assert_eq!(
            literals("coalesce(id#1, 0) AS id#4, city#2, coalesce(nanvl(x#3, null), 0.0) AS x#5"),
            (
                true,
                vec!["fill:id".into(), "fill:x".into(), "fillvalue:0".into()]
            )
        );
        assert_eq!(
            literals("coalesce(city#2, ) AS city#6"),
            (true, vec!["fill:city".into(), "fillvalue:".into()])
        );
        // a coalesce under another name, beside other work, is no fill
        let (fills, _) = literals("coalesce(city#2, x#3) AS place#7, upper(city#2) AS u#8");
        assert!(!fills);
    }

    #[test]
    fn a_pivot_names_every_value_it_pivots_into() {
        let plan = "\
HashAggregate(keys=[Department#3], functions=[pivotfirst(Gender#2, count(1) AS count#9L, Female, Male, 0, 0)])
+- LocalTableScan [Department#3, Gender#2]
";
        let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
        let values: Vec<String> = plan_semantics(&graph)[0]
            .signature
            .iter()
            .filter(|(k, v)| k == "literal" && v.starts_with(super::super::evidence::PIVOT_VALUE))
            .map(|(_, v)| v.clone())
            .collect();
        assert_eq!(values, ["pivot:female", "pivot:male"]);
    }

    #[test]
    fn the_projection_over_a_pivot_serves_the_pivot() {
        // `groupBy("Department").pivot("Gender").count()`: the values' columns are taken out of
        // the pivot's array above it; the values name no code of their own (a `stack(2, 'Male',
        // Male, …)` elsewhere names them all).
        let plan = "\
Project [Department#3, __pivot_count(1) AS count AS `count(1) AS count`#9[0] AS Female#10L, __pivot_count(1) AS count AS `count(1) AS count`#9[1] AS Male#11L]
+- HashAggregate(keys=[Department#3], functions=[pivotfirst(Gender#2, count(1) AS count#8L, Female, Male, 0, 0)])
   +- LocalTableScan [Department#3, Gender#2, count(1) AS count#8L]
";
        let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
        let semantics = plan_semantics(&graph);
        let consumer = semantics[0].induced_by.as_ref().expect("derived");
        assert_eq!(consumer.dag_node_id, graph.nodes[1].id.to_string());
        assert_eq!(consumer.family, crate::plan::OperatorFamily::Aggregate);
    }

    #[test]
    fn an_input_aqe_found_empty_serves_the_operator_reading_it() {
        // Spark 4.3, TPC-H q19 over data none of whose rows pass the join's filters: AQE puts
        // an `EmptyRelation` where the join was and keeps the logical plan it found empty.
        let plan = "\
== Physical Plan ==
AdaptiveSparkPlan (6)
+- == Final Plan ==
   ResultQueryStage (5)
   +- * HashAggregate (4)
      +- ShuffleQueryStage (3), Statistics(sizeInBytes=0.0 B, rowCount=0)
         +- Exchange (2)
            +- * HashAggregate (1)
               +- * EmptyRelation (0)
                  +- Project (unknown)
                     +- EmptyRelation (unknown)


(0) EmptyRelation [codegen id : 2]
Output [2]: [l_extendedprice#1967, l_discount#1968]
Arguments: [plan_id=17879]

(1) HashAggregate [codegen id : 2]
Input [2]: [l_extendedprice#1967, l_discount#1968]
Keys: []
Functions [1]: [partial_sum((l_extendedprice#1967 * (1.0 - l_discount#1968)))]
Aggregate Attributes [1]: [sum#2017]
Results [1]: [sum#2018]

(2) Exchange
Input [1]: [sum#2018]
Arguments: SinglePartition, ENSURE_REQUIREMENTS, [plan_id=17889]

(3) ShuffleQueryStage
Output [1]: [sum#2018]
Arguments: 0

(4) HashAggregate [codegen id : 3]
Input [1]: [sum#2018]
Keys: []
Functions [1]: [sum((l_extendedprice#1967 * (1.0 - l_discount#1968)))]
Aggregate Attributes [1]: [sum((l_extendedprice#1967 * (1.0 - l_discount#1968)))#1974]
Results [1]: [sum((l_extendedprice#1967 * (1.0 - l_discount#1968)))#1974 AS revenue#1975]

(5) ResultQueryStage
Output [1]: [revenue#1975]
Arguments: 1

(6) AdaptiveSparkPlan
Output [1]: [revenue#1975]
Arguments: isFinalPlan=true

";
        let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
        let semantics = plan_semantics(&graph);
        let empty = graph.node_by_id("0").unwrap();
        let consumer = semantics[empty]
            .induced_by
            .as_ref()
            .expect("no code of its own");
        assert_eq!(consumer.dag_node_id, "1");
        assert_eq!(consumer.family, crate::plan::OperatorFamily::Aggregate);
    }

    #[test]
    fn a_result_named_after_its_expression_keeps_the_functions_folded_away() {
        // `select current_date(), upper(name)`: the optimiser folds the date into a literal
        let plan = "\
Project [2026-11-22 AS current_date()#3308, upper(name#1) AS upper(name)#3309, 7 AS seven#3310]
+- LocalTableScan [name#1]
";
        let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
        let semantics = plan_semantics(&graph);
        let functions: Vec<&str> = semantics[0]
            .signature
            .iter()
            .filter(|(k, _)| k == "function")
            .map(|(_, v)| v.as_str())
            .collect();
        assert_eq!(functions, ["currentdate", "upper"]); // normalised as the code's are
    }

    #[test]
    fn the_one_row_of_a_query_without_from_is_its_select_lists() {
        let plan = "\
== Physical Plan ==
* Project (2)
+- * Scan OneRowRelation (1)


(1) Scan OneRowRelation [codegen id : 1]
Output: []

(2) Project [codegen id : 1]
Output [1]: [2026-11-22 AS current_date()#3308]
Input: []
";
        let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
        let semantics = plan_semantics(&graph);
        let scan = semantics.iter().find(|s| s.dag_node_id == "1").unwrap();
        let consumer = scan.induced_by.as_ref().unwrap();
        assert_eq!(consumer.dag_node_id, "2");
        let project = semantics.iter().find(|s| s.dag_node_id == "2").unwrap();
        assert!(
            project.induced_by.is_none(),
            "the SELECT list is the user's"
        );
    }

    #[test]
    fn a_null_test_alone_on_its_column_is_the_users_unless_a_join_above_asks_for_it() {
        let tests = |plan: &str| -> Vec<(String, String)> {
            let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
            let filter = plan_semantics(&graph)
                .into_iter()
                .find(|s| s.family == crate::plan::OperatorFamily::Filter)
                .unwrap();
            filter.signature
        };
        let has = |sig: &[(String, String)], kind: &str, value: &str| {
            sig.iter().any(|(k, v)| k == kind && v == value)
        };
        // `phone IS NULL AND address IS NOT NULL`: both the user's.
        let mine = tests(
            "Filter (isnull(phone#2) AND isnotnull(address#3))\n+- LocalTableScan [phone#2, address#3]\n",
        );
        assert!(has(&mine, "function", "isnotnull"), "{mine:?}");
        assert!(has(&mine, "column", "address"), "{mine:?}");
        // Beside a test of its column, the optimizer's.
        let beside =
            tests("Filter (isnotnull(age#2) AND (age#2 > 5))\n+- LocalTableScan [age#2, name#3]\n");
        assert!(!has(&beside, "function", "isnotnull"), "{beside:?}");
        // Below a join on the column, the join's.
        let joined = tests(
            "BroadcastHashJoin [k#1], [k#5], Inner, BuildRight, false\n\
             :- Filter (isnull(phone#2) AND isnotnull(k#1))\n\
             :  +- LocalTableScan [k#1, phone#2]\n\
             +- LocalTableScan [k#5]\n",
        );
        assert!(!has(&joined, "function", "isnotnull"), "{joined:?}");
    }

    #[test]
    fn a_typed_joins_tuples_are_its_own_and_its_condition_names_their_fields() {
        let plan = "\
BroadcastNestedLoopJoin BuildRight, FullOuter, array_contains(_1#252.guitars, _2#253.id)
:- Project [named_struct(band, band#215L, guitars, guitars#216) AS _1#252]
:  +- LocalTableScan [band#215L, guitars#216]
+- Project [named_struct(id, id#197L, make, make#198) AS _2#253]
   +- LocalTableScan [id#197L, make#198]
";
        let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
        let semantics = plan_semantics(&graph);
        let join = &semantics[0];
        for column in ["guitars", "id"] {
            assert!(
                join.signature
                    .contains(&("column".to_owned(), column.to_owned())),
                "{:?}",
                join.signature
            );
        }
        let tuples: Vec<_> = semantics
            .iter()
            .filter(|s| s.node_name.starts_with("Project"))
            .collect();
        assert_eq!(tuples.len(), 2);
        for tuple in tuples {
            let consumer = tuple.induced_by.as_ref().expect("the join's own");
            assert_eq!(consumer.dag_node_id, join.dag_node_id);
        }
    }

    #[test]
    fn a_csv_scan_says_whether_spark_named_its_columns() {
        let scan = |columns: &str| {
            let plan = format!(
                "FileScan csv [{columns}] Batched: false, DataFilters: [], Format: CSV, \
                 Location: InMemoryFileIndex(1 paths)[file:/data/emps.txt], PartitionFilters: [], \
                 PushedFilters: [], ReadSchema: struct<>\n"
            );
            let graph = parse_plan(&plan, &ParseOptions::default()).unwrap();
            plan_semantics(&graph).remove(0).signature
        };
        let headerless = |signature: &[(String, String)]| {
            signature
                .iter()
                .find(|(k, _)| k == "headerlessCsv")
                .map(|(_, v)| v.clone())
        };
        assert_eq!(headerless(&scan("_c0#0,_c1#1")).as_deref(), Some("true"));
        assert_eq!(headerless(&scan("id#0,name#1")).as_deref(), Some("false"));
    }

    #[test]
    fn every_node_knows_the_columns_its_query_returns() {
        let returned = |plan: &str| {
            let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
            plan_semantics(&graph)
                .iter()
                .map(|s| super::evidence_of(&s.signature).result_columns)
                .collect::<Vec<_>>()
        };
        // a filter prints only its input: the rows it hands on are the query's
        let filtered = returned(
            "== Physical Plan ==\n* Filter (2)\n+- * Scan ExistingRDD (1)\n\n\n\
             (1) Scan ExistingRDD [codegen id : 1]\nOutput [2]: [attribute#1, iv#2]\n\n\
             (2) Filter [codegen id : 1]\nInput [2]: [attribute#1, iv#2]\n\
             Condition : (attribute#1 = age)\n",
        );
        let expected: std::collections::BTreeSet<String> =
            ["attribute", "iv"].map(String::from).into();
        assert!(filtered.iter().all(|r| *r == expected), "{filtered:?}");
        // a projection's output may print what it computes: the name is the alias
        let projected = returned(
            "== Physical Plan ==\n* Project (2)\n+- * Scan ExistingRDD (1)\n\n\n\
             (1) Scan ExistingRDD [codegen id : 1]\nOutput [2]: [q#1, p#2]\n\n\
             (2) Project [codegen id : 1]\nOutput [1]: [discount(q#1, p#2) AS value#3]\n\
             Input [2]: [q#1, p#2]\n",
        );
        assert_eq!(projected[0], ["value".to_owned()].into());
        // plain `explain()` text: through the filter, the scan's columns; an aggregate printing
        // none of its output leaves them unknown
        let simple =
            returned("Filter (isnotnull(a#1) AND (a#1 = 1))\n+- LocalTableScan [a#1, b#2]\n");
        assert_eq!(simple[0], ["a", "b"].map(String::from).into());
        let graph = parse_plan(
            "== Physical Plan ==\n* HashAggregate (2)\n+- * Scan ExistingRDD (1)\n\n\n\
             (1) Scan ExistingRDD [codegen id : 1]\nOutput [2]: [q#1, p#2]\n\n\
             (2) HashAggregate [codegen id : 1]\nInput [2]: [q#1, p#2]\nKeys [1]: [q#1]\n",
            &ParseOptions::default(),
        )
        .unwrap();
        assert!(super::result_columns(&graph).is_empty());
    }

    #[test]
    fn a_scan_of_an_rdd_names_where_the_rdd_was_made() {
        let plan = "\
== Physical Plan ==
* SerializeFromObject (2)
+- Scan (1)


(1) Scan
Output [1]: [obj#1]
Arguments: obj#1: int, ParallelCollectionRDD[0] at parallelize at SparkJobAnatomy.scala:35

(2) SerializeFromObject [codegen id : 1]
Input [1]: [obj#1]
Arguments: [input[0, int, false] AS value#2]
";
        let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
        let semantics = plan_semantics(&graph);
        let scan = semantics.iter().find(|s| s.node_name == "Scan").unwrap();
        let made_at = super::super::evidence::rdd_made_at("SparkJobAnatomy.scala", 35);
        assert!(
            scan.signature.contains(&("literal".to_owned(), made_at)),
            "{:?}",
            scan.signature
        );
        // the objects it scans are turned into rows by the same `toDF`
        let rows = semantics
            .iter()
            .find(|s| s.node_name.starts_with("SerializeFromObject"))
            .unwrap();
        let consumer = rows.induced_by.as_ref().expect("the scan's own");
        assert_eq!(consumer.dag_node_id, scan.dag_node_id);
    }

    #[test]
    fn a_filter_by_a_closure_is_known_by_that_alone() {
        // Spark 4.3's plan of a Java `filter((FilterFunction<Response>) r -> …)`
        let plan = "\
Filter invoke(com.shop.Survey$$Lambda$3802/0x00007f196d16afa8@642aa8ea.call(initializejavabean(newInstance(class com.shop.Response), (setCountry,invoke(country#19.toString())))))
+- LocalTableScan [country#19]
";
        let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
        let semantics = plan_semantics(&graph);
        // … and by the class its closure was compiled in (beside the query's result columns)
        assert_eq!(
            semantics[0].signature,
            [
                ("function".to_owned(), "typedfilter".to_owned()),
                ("compiledIn".to_owned(), "Survey".to_owned()),
                ("resultColumn".to_owned(), "country".to_owned())
            ]
        );
    }

    #[test]
    fn an_operator_reading_a_udf_result_names_the_udf() {
        let plan = "\
== Physical Plan ==
* Project (4)
+- BatchEvalPython (3)
   +- * Filter (2)
      +- * Scan ExistingRDD (1)


(1) Scan ExistingRDD [codegen id : 1]
Output [2]: [Seqno#822, Name#823]
Arguments: [Seqno#822, Name#823], MapPartitionsRDD[489] at applySchemaToPythonRDD at <unknown>:0, ExistingRDD, UnknownPartitioning(0)

(2) Filter [codegen id : 1]
Input [2]: [Seqno#822, Name#823]
Condition : isnotnull(Name#823)

(3) BatchEvalPython
Input [2]: [Seqno#822, Name#823]
Arguments: [_nullsafeUDF(Name#823)#841], [pythonUDF0#843]

(4) Project [codegen id : 3]
Output [2]: [Seqno#822, pythonUDF0#843 AS Name#839]
Input [3]: [Seqno#822, Name#823, pythonUDF0#843]
";
        let graph = parse_plan(plan, &ParseOptions::default()).unwrap();
        let semantics = plan_semantics(&graph);
        let calls_udf = |id: &str| {
            semantics
                .iter()
                .find(|s| s.dag_node_id == id)
                .unwrap()
                .signature
                .iter()
                .any(|(k, v)| k == "function" && v == "nullsafeudf")
        };
        assert!(calls_udf("4"), "the Project reads pythonUDF0");
        assert!(!calls_udf("2"), "the Filter below reads no UDF result");
    }

    /// The semantics of a case's formatted plan in one of the project's own bench sets.
    fn bench_semantics(set: &str, case: &str) -> Vec<super::SemanticDescription> {
        let plan = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join(format!("../../bench/{set}/{case}/formatted.txt")),
        )
        .unwrap();
        plan_semantics(&parse_plan(&plan, &ParseOptions::default()).unwrap())
    }

    #[test]
    fn an_aggregate_over_a_udf_result_kept_by_a_projection_names_the_udf() {
        // `F.sum(decrease(…))` after `decrease = pandas_udf(discount_price_f, …)`: Spark 4.3 plans
        // HashAggregate [sum(pythonUDF0)] over Project over ArrowEvalPython [discount_price_f(…)]
        let semantics = bench_semantics("sqltwins", "dnt-tpch-045");
        let aggregate = semantics
            .iter()
            .find(|s| s.node_name.starts_with("HashAggregate"))
            .unwrap();
        let functions: Vec<&str> = aggregate
            .signature
            .iter()
            .filter(|(k, _)| k == "function")
            .map(|(_, v)| v.as_str())
            .collect();
        assert!(
            functions.contains(&"discountpricef") || functions.contains(&"discount_price_f"),
            "{functions:?}"
        );
    }

    #[test]
    fn a_scan_of_files_naming_no_table_says_so_and_a_scan_of_a_table_does_not() {
        let scans = |case: &str| {
            bench_semantics("catalog", case)
                .into_iter()
                .filter(|s| s.node_name.starts_with("Scan parquet"))
                .map(|s| super::evidence_of(&s.signature).scans_files_only)
                .collect::<Vec<bool>>()
        };
        // `spark.read.parquet(f"{table_url}")`: a Location and no table
        assert_eq!(scans("sfde-run-pipeline-003"), vec![true]);
        // `spark.read.table("stackoverflow.dim_users")` and the like: `spark_catalog.…` tables
        let tables = scans("sfde-run-pipeline-006");
        assert!(!tables.is_empty() && tables.iter().all(|files_only| !files_only));
    }

    #[test]
    fn rows_pyspark_handed_over_say_so() {
        let scans = |set: &str, case: &str| {
            bench_semantics(set, case)
                .into_iter()
                .filter(|s| s.node_name.starts_with("Scan"))
                .map(|s| super::evidence_of(&s.signature).made_by_python)
                .collect::<Vec<bool>>()
        };
        // `spark.createDataFrame([...])` in a Python notebook: `… at applySchemaToPythonRDD`
        assert_eq!(
            scans("guide", "stdg-structured-apis-chapter-8-joins-sql-001"),
            vec![true, true]
        );
        // a Scala `sparkContext.parallelize(…).toDF()` and a file scan
        assert_eq!(scans("scala-lessons", "spl-sql-udf-002"), vec![false]);
        assert_eq!(scans("catalog", "sfde-run-pipeline-003"), vec![false]);
    }

    #[test]
    fn every_operator_of_a_plan_python_drove_says_so() {
        let driven = |set: &str, case: &str| {
            bench_semantics(set, case)
                .into_iter()
                .map(|s| super::evidence_of(&s.signature).driven_by_python)
                .collect::<std::collections::BTreeSet<bool>>()
        };
        // rows `createDataFrame` handed over under a join, a sort, a union: all of it
        assert_eq!(
            driven("guide", "stdg-structured-apis-chapter-8-joins-sql-006"),
            std::collections::BTreeSet::from([true])
        );
        // a Scala job's plan, and a plan of files alone (any driver may have read them)
        assert_eq!(
            driven("scala-lessons", "spl-sql-udf-002"),
            std::collections::BTreeSet::from([false])
        );
        assert_eq!(
            driven("catalog", "sfde-run-pipeline-003"),
            std::collections::BTreeSet::from([false])
        );
    }

    #[test]
    fn range_bounds_come_from_both_plan_forms() {
        assert_eq!(
            range_literals("Range (0, 100, step=1, splits=Some(2))"),
            vec!["0", "100"]
        );
        assert_eq!(
            range_literals("5, 50, step=5, splits=2"),
            vec!["5", "50", "5"]
        );
        assert!(range_literals("garbage").is_empty());
        assert_eq!(
            range_bounds("Range (0, 1, step=1, splits=Some(2))"),
            Some(RangeBounds {
                start: 0,
                end: 1,
                step: 1
            })
        );
    }
}
