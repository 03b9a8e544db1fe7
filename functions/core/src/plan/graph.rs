//! The typed plan graph every downstream stage iterates over.
//!
//! A [`PlanGraph`] is a flat arena of [`PlanNode`]s addressed by [`NodeIdx`]; edges are indices,
//! so shared nodes (a scan listed under both the AQE Final and Initial plan, a `ReusedExchange`
//! pointing at the exchange it reuses, a subquery referenced from an expression) are linked, never
//! duplicated. Each node keeps the operator name as written (`name`), the canonical Spark operator
//! it denotes (`operator`, e.g. Photon's `PhotonGroupingAgg` → `HashAggregate`), whether the user's
//! code or the engine produced it ([`NodeKind`]), and its parsed [`NodeDetails`].
//!
//! Expressions are kept twice: `text` with attribute ids stripped (`sum(l_quantity)`) for matching
//! against code, and `raw` as written (`sum(l_quantity#12)`) for display; the ids themselves are
//! kept apart in [`Attribute`].
//!
//! Memory: a plan may hold 100,000 operators of a line each, so a node's short names (its id,
//! operator names, attribute names, a scan's format) are `CompactString`s, kept inline up to 24
//! bytes with no allocation of their own, and the lists a node rarely fills are `ThinVec`s (one
//! pointer while empty). A `Union` of 99,000 one-line `LocalTableScan`s parses in about 450 bytes
//! an operator (`cargo bench -p plan2code-core --bench plan_memory`).

use compact_str::CompactString;
use serde::{Deserialize, Serialize};
use thin_vec::ThinVec;

pub use crate::contracts::NodeKind;

/// Index of a node inside [`PlanGraph::nodes`].
pub type NodeIdx = usize;

/// The input form a plan was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlanFormat {
    /// `df.explain()` — `== Physical Plan ==` tree only.
    Simple,
    /// `df.explain(true)` — parsed/analyzed/optimized logical plans + physical plan.
    Extended,
    /// `df.explain("formatted")` — numbered tree + detail sections.
    Formatted,
    /// Spark UI REST JSON (`/sql` list or one execution).
    Ui,
    /// Spark event log (JSON lines).
    Eventlog,
}

/// Which part of the input a node belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum PlanSection {
    /// The executed plan (AQE's Final Plan when it re-planned). This is the graph users map.
    Final,
    /// AQE's Initial Plan: kept and marked, mapped too because its ids are shown to users.
    Initial,
    /// A subquery's plan (linked from the node whose expression uses it).
    Subquery,
}

/// Operator family: what kind of code can produce a node. One canonical operator maps to one
/// family; retrieval compares families with the methods / SQL clauses of the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum OperatorFamily {
    Scan,
    Filter,
    Project,
    Aggregate,
    Join,
    Exchange,
    Sort,
    Limit,
    Window,
    Union,
    Generate,
    Expand,
    Sample,
    PythonEval,
    Subquery,
    Write,
    Cache,
    /// Engine wrappers (codegen, adapters, query stages, AQE shells).
    Engine,
    Other,
}

impl OperatorFamily {
    /// Whether an operator of this family hands its input's rows on with the same columns (a
    /// filter, sort, exchange, limit or engine wrapper): the columns above it are those below.
    pub fn keeps_columns(self) -> bool {
        matches!(
            self,
            OperatorFamily::Filter
                | OperatorFamily::Sort
                | OperatorFamily::Exchange
                | OperatorFamily::Limit
                | OperatorFamily::Engine
        )
    }
}

/// A named attribute with its Catalyst expression id kept apart (`l_quantity#12L` →
/// `{name: "l_quantity", id: Some(12), long: true}`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Attribute {
    pub name: CompactString,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<u64>,
    /// Spark marks a long's id with `L` (`id#0L`), and no other type.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub long: bool,
}

/// A parsed expression: text with ids stripped, the original text, and what it mentions.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Expr {
    /// With attribute ids stripped: `(l_shipdate <= 1998-09-02)`.
    pub text: String,
    /// As written in the plan: `(l_shipdate#16 <= 1998-09-02)`.
    pub raw: String,
    /// Column names referenced (ids stripped), in order of first appearance.
    pub columns: Vec<String>,
    /// Function names called (`sum`, `isnotnull`, `substring`, UDF names …), lower-case.
    pub functions: Vec<String>,
    /// Literal values (strings unquoted, numbers and dates as written).
    pub literals: Vec<String>,
    /// `AS name` when the expression is aliased.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub alias: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JoinInfo {
    /// `Inner`, `LeftOuter`, `LeftSemi`, `LeftAnti`, `FullOuter`, `Cross`, …
    pub join_type: String,
    /// `BuildLeft` / `BuildRight` for hash and nested-loop joins.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub build_side: Option<String>,
    pub left_keys: Vec<Expr>,
    pub right_keys: Vec<Expr>,
    /// Non-equi join condition, split into conjuncts.
    pub condition: Vec<Expr>,
}

impl JoinInfo {
    /// A left semi or anti join: how Spark plans `x IN (SELECT …)`, `[NOT] EXISTS (…)`,
    /// `intersect` and `except`.
    pub fn is_semi_or_anti(&self) -> bool {
        matches!(self.join_type.as_str(), "LeftSemi" | "LeftAnti")
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SortKey {
    pub expr: Expr,
    pub ascending: bool,
    pub nulls_first: bool,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ScanInfo {
    /// `parquet`, `csv`, `json`, `orc`, `delta`, `ExistingRDD`, `InMemory`, `Range`, … (a
    /// `LocalTableScan` reads no source and has no scan details)
    pub format: CompactString,
    /// Catalog table (`spark_catalog.default.orders`) when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
    /// Paths from `Location`, without the `file:` scheme noise kept apart.
    pub paths: ThinVec<String>,
    pub pushed_filters: ThinVec<String>,
    pub partition_filters: ThinVec<String>,
    pub data_filters: ThinVec<Expr>,
    /// `ReadSchema: struct<…>` fields, `name:type`.
    pub read_schema: ThinVec<String>,
    /// For `Scan ExistingRDD` / `InMemoryRelation`: the RDD or relation description as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relation: Option<CompactString>,
}

/// Exchange partitioning.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Partitioning {
    /// `hash`, `range`, `single`, `roundRobin`, `broadcast`, `unknown`.
    pub kind: String,
    pub exprs: Vec<Expr>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub num_partitions: Option<u64>,
    /// `ENSURE_REQUIREMENTS`, `REPARTITION_BY_COL`, `REPARTITION_BY_NUM`, … (why it exists).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WindowSpec {
    pub functions: Vec<Expr>,
    pub partition_by: Vec<Expr>,
    pub order_by: Vec<SortKey>,
}

/// The metric an event log's operators carry for the whole-stage codegen stage they were fused
/// into: the stage's `duration`. A formatted plan has no node for the stage itself, so each of
/// its operators holds the same value and `view::cost` shares it among them, as it shares a UI
/// `WholeStageCodegen` node's `duration` among that node's members.
pub const CODEGEN_STAGE_DURATION: &str = "duration of its whole-stage codegen stage";

/// The argument under which a Spark UI `CommandResult` holds the operator of the command it is
/// the result of (`Execute ShowNamespacesCommand`, `ShowTables`): a command runs as it is issued
/// (`spark.sql("SHOW DATABASES")`), and the UI's graph lists only its result, while the plan
/// text prints the command below it.
pub const EXECUTED_COMMAND: &str = "executedCommand";

/// … and the arguments the plan text prints for that command (`ShowFunctionsCommand`'s
/// `default, s*, true, true, [function#3]`), which say what it acts on.
pub const EXECUTED_COMMAND_ARGUMENTS: &str = "executedCommandArguments";

/// The argument under which a node keeps its header's arguments when nothing reads them into
/// fields of their own (a command's: `default, true, false, [function#3]`).
pub const ARGUMENTS: &str = "arguments";

/// Everything parsed out of a node's header arguments and detail section. Fields a node does
/// not have stay empty.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeDetails {
    pub output: ThinVec<Attribute>,
    pub input: ThinVec<Attribute>,
    /// Project list (aliases included) or result expressions.
    pub projections: ThinVec<Expr>,
    pub grouping_keys: ThinVec<Expr>,
    pub aggregate_functions: ThinVec<Expr>,
    /// Filter condition split into conjuncts.
    pub conditions: ThinVec<Expr>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub join: Option<Box<JoinInfo>>,
    pub sort_order: ThinVec<SortKey>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scan: Option<Box<ScanInfo>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partitioning: Option<Box<Partitioning>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<Box<WindowSpec>>,
    /// Python UDF / pandas UDF names (BatchEvalPython, ArrowEvalPython, FlatMapGroupsInPandas …).
    pub python_udfs: ThinVec<String>,
    /// Generator for `Generate` (`explode(arr)`, `posexplode`, `inline`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generator: Option<Box<Expr>>,
    /// Every literal appearing anywhere in the node's expressions, deduplicated.
    pub literals: ThinVec<String>,
    /// Sample fraction / seed, union arity, coalesce partitions … as key → value.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub arguments: std::collections::BTreeMap<String, String>,
    /// Runtime metrics (the Spark UI's JSON, an event log's accumulators) as name → value as
    /// displayed (`1,024`, `26 ms`, `3.3 KiB`). From an event log, each operator of a
    /// whole-stage codegen stage also carries the stage's duration as
    /// [`CODEGEN_STAGE_DURATION`].
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub metrics: std::collections::BTreeMap<String, String>,
}

/// One operator of the plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanNode {
    /// The `dagNodeId` of `docs/ARCHITECTURE.md`: the plan's own id (`(N)` of formatted / event log, UI
    /// `nodeId`), or the pre-order position from 0 for plain `explain()` text.
    pub id: CompactString,
    /// The operator name as written (`Scan parquet`, `PhotonGroupingAgg`, `WholeStageCodegen (3)`).
    pub name: CompactString,
    /// Canonical Spark operator (`FileSourceScan`/`Scan`, `HashAggregate`, …).
    pub operator: CompactString,
    pub family: OperatorFamily,
    pub node_kind: NodeKind,
    pub section: PlanSection,
    pub children: ThinVec<NodeIdx>,
    /// Whole-stage codegen stage id (`*(3)`, `[codegen id : 3]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub codegen_stage: Option<u32>,
    /// For `ReusedExchange` / `ReusedSubquery`: the node it reuses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reuses: Option<NodeIdx>,
    /// Subquery plans referenced by this node's expressions.
    #[serde(default, skip_serializing_if = "ThinVec::is_empty")]
    pub subqueries: ThinVec<NodeIdx>,
    /// For a `WholeStageCodegen (k)` cluster of the Spark UI: the operators fused into it
    /// (its `children` are the cluster's top operators, so the tree stays a tree).
    #[serde(default, skip_serializing_if = "ThinVec::is_empty")]
    pub members: ThinVec<NodeIdx>,
    pub details: Box<NodeDetails>,
    /// 1-based line of the node in the input text, when the input was text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_line: Option<u32>,
}

/// What the input says about the execution as a whole (UI and event-log inputs).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecutionInfo {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub execution_id: Option<u64>,
    /// The execution's `description` (often the job description or the SQL text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The call site Spark recorded (`details`/`callSite`), which can name the user's file:line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call_site: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spark_version: Option<String>,
    /// The execution this one ran inside (`rootExecutionId`, Spark ≥ 3.4), when not itself: the
    /// inner query of a command, a nested `collect` …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub root_execution_id: Option<u64>,
    /// Wall time from the execution's start event to its end event, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// What the input says about where the code ran, as written: the submitted command or
    /// notebook, the call sites and descriptions of the execution's jobs. Resolved against the
    /// repository by `pipeline::hints`; none is required.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hints: Vec<String>,
}

/// The parsed plan.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanGraph {
    pub format: PlanFormat,
    pub nodes: Vec<PlanNode>,
    /// Root(s) of the executed plan.
    pub roots: Vec<NodeIdx>,
    pub execution: ExecutionInfo,
    /// Logical plan sections of `explain(true)`, kept as text (`Parsed Logical Plan`, …).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub logical_plans: std::collections::BTreeMap<String, String>,
    /// What the reader did not understand but kept going past (`line 98: …`): a stray line in a
    /// real-world input is a warning, not a failure.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl PlanGraph {
    /// The node with this `dagNodeId`.
    pub fn node_by_id(&self, id: &str) -> Option<NodeIdx> {
        self.nodes.iter().position(|n| n.id == id)
    }

    /// Whether each node belongs to a subquery's plan: a node of the [`PlanSection::Subquery`]
    /// section or an AQE Initial Plan node below one — a subquery planned adaptively lists an
    /// Initial Plan of its own, marked [`PlanSection::Initial`] and the subquery's all the same.
    /// A node of the executed plan stays the outer query's even when a subquery reaches it (the
    /// UI's graph links a reused exchange to every reader).
    pub fn in_subquery(&self) -> Vec<bool> {
        let mut nested = vec![false; self.nodes.len()];
        let mut stack: Vec<NodeIdx> = (0..self.nodes.len())
            .filter(|&i| self.nodes[i].section == PlanSection::Subquery)
            .collect();
        while let Some(idx) = stack.pop() {
            if self.nodes[idx].section == PlanSection::Final
                || std::mem::replace(&mut nested[idx], true)
            {
                continue;
            }
            let node = &self.nodes[idx];
            stack.extend(node.children.iter().chain(&node.members).copied());
        }
        nested
    }

    /// Node `root` and every node below it, each once.
    pub fn subtree(&self, root: NodeIdx) -> Vec<NodeIdx> {
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![root];
        while let Some(idx) = stack.pop() {
            if seen.insert(idx) {
                out.push(idx);
                stack.extend(self.nodes[idx].children.iter().copied());
            }
        }
        out
    }

    /// The header arguments node `idx` prints ([`ARGUMENTS`]), or those of the first node down
    /// its first children that prints some: `Execute ShowFunctionsCommand` prints none, the
    /// `ShowFunctionsCommand` it runs does.
    pub fn printed_arguments(&self, idx: NodeIdx) -> Option<&String> {
        std::iter::successors(Some(idx), |&n| self.nodes[n].children.first().copied())
            .find_map(|n| self.nodes[n].details.arguments.get(ARGUMENTS))
    }

    /// Parent of each node: the one a pre-order walk from the roots reaches it through first, as
    /// Spark prints a plan (a shared node is written out under its first user, and reused under
    /// the later ones) — whatever order the nodes are listed in, and the UI lists them bottom-up.
    /// A node the walk does not reach (a subquery's) takes a parent in its own section first:
    /// an exchange the UI draws under the main query's join and under a subquery's that reuses
    /// it keeps the main query's.
    pub fn parents(&self) -> Vec<Option<NodeIdx>> {
        let mut parents: Vec<Option<NodeIdx>> = vec![None; self.nodes.len()];
        let mut reached = vec![false; self.nodes.len()];
        let mut stack: Vec<(NodeIdx, Option<NodeIdx>)> =
            self.roots.iter().rev().map(|&r| (r, None)).collect();
        while let Some((idx, parent)) = stack.pop() {
            if std::mem::replace(&mut reached[idx], true) {
                continue;
            }
            parents[idx] = parent;
            let children = self.nodes[idx].children.iter().rev();
            stack.extend(children.map(|&c| (c, Some(idx))));
        }
        for (idx, node) in self.nodes.iter().enumerate() {
            for &child in &node.children {
                if reached[child] {
                    continue;
                }
                let own_section = node.section == self.nodes[child].section;
                let kept_is_own = parents[child]
                    .is_some_and(|p| self.nodes[p].section == self.nodes[child].section);
                if parents[child].is_none() || (own_section && !kept_is_own) {
                    parents[child] = Some(idx);
                }
            }
        }
        parents
    }
}
