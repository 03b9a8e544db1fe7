//! The operator table: the one place that knows what an operator name means.
//!
//! [`classify`] takes an operator name as a plan writes it (`HashAggregate`, `Scan parquet
//! spark_catalog.default.orders`, `PhotonGroupingAgg`, `GpuShuffleExchange`, `CometScan parquet`,
//! `WholeStageCodegen (3)`) and returns an [`OperatorInfo`]: the canonical Spark operator, its
//! [`OperatorFamily`] and whether user code or the engine produced it ([`NodeKind`]).
//!
//! * Spark names are looked up directly ([`SPARK_OPERATORS`]).
//! * Databricks Photon names have their own table ([`PHOTON_OPERATORS`]); the facts follow the
//!   public Photon→Spark operator mapping of NVIDIA's spark-rapids-tools and Databricks' docs.
//! * spark-rapids (`Gpu…`) and DataFusion Comet (`Comet…`) name their operators after Spark's,
//!   so the prefix is dropped and the rest looked up (with a few renames, [`ACCELERATOR_RENAMES`]).
//! * Anything else is kept as written: family `Other`, kind `Code` — never dropped.
//!
//! Engine kinds follow the benchmark's labelling: wrappers with no source statement
//! (AdaptiveSparkPlan, WholeStageCodegen, InputAdapter, ColumnarToRow, AQEShuffleRead, query
//! stages, subquery wrappers) are `Engine`; exchanges and sorts the planner inserted are `Code`
//! (they are attributed to the statement that required them).

use super::graph::{NodeKind, OperatorFamily};

/// Which execution engine named the operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EngineFlavor {
    Spark,
    Photon,
    Gpu,
    Comet,
    /// Apache Gluten (Velox or ClickHouse backends).
    Gluten,
}

/// What an operator name means.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OperatorInfo {
    /// Canonical Spark operator (`HashAggregate`, `FileSourceScan`, `Exchange`, …), or the name
    /// as written for unknown operators.
    pub canonical: String,
    pub family: OperatorFamily,
    pub kind: NodeKind,
    pub flavor: EngineFlavor,
}

use NodeKind::{Code, Engine};
use OperatorFamily as F;

/// Spark operators by node name (first word of the name; scans are handled by [`scan_operator`]).
pub const SPARK_OPERATORS: &[(&str, &str, OperatorFamily, NodeKind)] = &[
    // scans and sources
    ("LocalTableScan", "LocalTableScan", F::Scan, Code),
    // AQE's stand-in for a part of the plan it found empty at run time (Spark 4)
    ("EmptyRelation", "EmptyRelation", F::Scan, Code),
    ("InMemoryTableScan", "InMemoryTableScan", F::Scan, Code),
    ("InMemoryRelation", "InMemoryRelation", F::Cache, Code),
    ("BatchScan", "BatchScan", F::Scan, Code),
    ("Range", "Range", F::Scan, Code),
    ("RDDScan", "RDDScan", F::Scan, Code),
    ("ExternalRDDScan", "ExternalRDDScan", F::Scan, Code),
    ("FileSourceScan", "FileSourceScan", F::Scan, Code),
    ("CommandResult", "CommandResult", F::Write, Code),
    // row-wise operators
    ("Filter", "Filter", F::Filter, Code),
    ("Project", "Project", F::Project, Code),
    ("HashAggregate", "HashAggregate", F::Aggregate, Code),
    (
        "ObjectHashAggregate",
        "ObjectHashAggregate",
        F::Aggregate,
        Code,
    ),
    ("SortAggregate", "SortAggregate", F::Aggregate, Code),
    ("MergingSessions", "MergingSessions", F::Aggregate, Code),
    ("UpdatingSessions", "UpdatingSessions", F::Aggregate, Code),
    ("BroadcastHashJoin", "BroadcastHashJoin", F::Join, Code),
    ("SortMergeJoin", "SortMergeJoin", F::Join, Code),
    ("ShuffledHashJoin", "ShuffledHashJoin", F::Join, Code),
    (
        "BroadcastNestedLoopJoin",
        "BroadcastNestedLoopJoin",
        F::Join,
        Code,
    ),
    ("CartesianProduct", "CartesianProduct", F::Join, Code),
    ("Exchange", "Exchange", F::Exchange, Code),
    ("ShuffleExchange", "Exchange", F::Exchange, Code),
    ("BroadcastExchange", "BroadcastExchange", F::Exchange, Code),
    ("ReusedExchange", "ReusedExchange", F::Exchange, Code),
    ("Coalesce", "Coalesce", F::Exchange, Code),
    ("Sort", "Sort", F::Sort, Code),
    (
        "TakeOrderedAndProject",
        "TakeOrderedAndProject",
        F::Sort,
        Code,
    ),
    ("CollectLimit", "CollectLimit", F::Limit, Code),
    ("CollectTail", "CollectTail", F::Limit, Code),
    ("GlobalLimit", "GlobalLimit", F::Limit, Code),
    ("LocalLimit", "LocalLimit", F::Limit, Code),
    ("Window", "Window", F::Window, Code),
    ("WindowGroupLimit", "WindowGroupLimit", F::Window, Code),
    ("Union", "Union", F::Union, Code),
    ("Expand", "Expand", F::Expand, Code),
    ("Generate", "Generate", F::Generate, Code),
    ("Sample", "Sample", F::Sample, Code),
    ("BatchEvalPython", "BatchEvalPython", F::PythonEval, Code),
    ("ArrowEvalPython", "ArrowEvalPython", F::PythonEval, Code),
    (
        "BatchEvalPythonUDTF",
        "BatchEvalPythonUDTF",
        F::PythonEval,
        Code,
    ),
    (
        "ArrowEvalPythonUDTF",
        "ArrowEvalPythonUDTF",
        F::PythonEval,
        Code,
    ),
    (
        "FlatMapGroupsInPandas",
        "FlatMapGroupsInPandas",
        F::PythonEval,
        Code,
    ),
    (
        "FlatMapGroupsInArrow",
        "FlatMapGroupsInArrow",
        F::PythonEval,
        Code,
    ),
    (
        "FlatMapCoGroupsInPandas",
        "FlatMapCoGroupsInPandas",
        F::PythonEval,
        Code,
    ),
    (
        "FlatMapCoGroupsInArrow",
        "FlatMapCoGroupsInArrow",
        F::PythonEval,
        Code,
    ),
    ("MapInPandas", "MapInPandas", F::PythonEval, Code),
    ("MapInArrow", "MapInArrow", F::PythonEval, Code),
    ("PythonMapInArrow", "MapInArrow", F::PythonEval, Code),
    (
        "AggregateInPandas",
        "AggregateInPandas",
        F::PythonEval,
        Code,
    ),
    ("WindowInPandas", "WindowInPandas", F::PythonEval, Code),
    ("ArrowWindowPython", "WindowInPandas", F::PythonEval, Code),
    (
        "DeserializeToObject",
        "DeserializeToObject",
        F::Project,
        Code,
    ),
    (
        "SerializeFromObject",
        "SerializeFromObject",
        F::Project,
        Code,
    ),
    ("MapElements", "MapElements", F::Project, Code),
    ("MapPartitions", "MapPartitions", F::Project, Code),
    ("AppendColumns", "AppendColumns", F::Project, Code),
    (
        "AppendColumnsWithObject",
        "AppendColumnsWithObject",
        F::Project,
        Code,
    ),
    ("MapGroups", "MapGroups", F::Aggregate, Code),
    (
        "FlatMapGroupsWithState",
        "FlatMapGroupsWithState",
        F::Aggregate,
        Code,
    ),
    ("CoGroup", "CoGroup", F::Join, Code),
    ("Execute", "Execute", F::Write, Code),
    ("WriteFiles", "WriteFiles", F::Write, Code),
    ("AppendData", "AppendData", F::Write, Code),
    (
        "OverwriteByExpression",
        "OverwriteByExpression",
        F::Write,
        Code,
    ),
    (
        "OverwritePartitionsDynamic",
        "OverwritePartitionsDynamic",
        F::Write,
        Code,
    ),
    ("CreateTableAsSelect", "CreateTableAsSelect", F::Write, Code),
    (
        "AtomicCreateTableAsSelect",
        "CreateTableAsSelect",
        F::Write,
        Code,
    ),
    (
        "ReplaceTableAsSelect",
        "ReplaceTableAsSelect",
        F::Write,
        Code,
    ),
    // engine wrappers
    ("WholeStageCodegen", "WholeStageCodegen", F::Engine, Engine),
    ("InputAdapter", "InputAdapter", F::Engine, Engine),
    ("ColumnarToRow", "ColumnarToRow", F::Engine, Engine),
    ("RowToColumnar", "RowToColumnar", F::Engine, Engine),
    ("AQEShuffleRead", "AQEShuffleRead", F::Engine, Engine),
    ("CustomShuffleReader", "AQEShuffleRead", F::Engine, Engine),
    ("AdaptiveSparkPlan", "AdaptiveSparkPlan", F::Engine, Engine),
    ("ShuffleQueryStage", "ShuffleQueryStage", F::Engine, Engine),
    (
        "BroadcastQueryStage",
        "BroadcastQueryStage",
        F::Engine,
        Engine,
    ),
    ("ResultQueryStage", "ResultQueryStage", F::Engine, Engine),
    (
        "TableCacheQueryStage",
        "TableCacheQueryStage",
        F::Engine,
        Engine,
    ),
    ("Subquery", "Subquery", F::Subquery, Engine),
    ("ReusedSubquery", "ReusedSubquery", F::Subquery, Engine),
    (
        "SubqueryBroadcast",
        "SubqueryBroadcast",
        F::Subquery,
        Engine,
    ),
    (
        "SubqueryAdaptiveBroadcast",
        "SubqueryAdaptiveBroadcast",
        F::Subquery,
        Engine,
    ),
];

/// Databricks Photon operator names → Spark operator.
pub const PHOTON_OPERATORS: &[(&str, &str, OperatorFamily, NodeKind)] = &[
    ("PhotonScan", "FileSourceScan", F::Scan, Code),
    ("PhotonAdapter", "FileSourceScan", F::Scan, Code),
    ("PhotonFilter", "Filter", F::Filter, Code),
    ("PhotonProject", "Project", F::Project, Code),
    ("PhotonGroupingAgg", "HashAggregate", F::Aggregate, Code),
    (
        "PhotonGroupingAggWithRollup",
        "HashAggregate",
        F::Aggregate,
        Code,
    ),
    ("PhotonAgg", "HashAggregate", F::Aggregate, Code),
    ("PhotonUngroupedAgg", "HashAggregate", F::Aggregate, Code),
    (
        "PhotonBroadcastHashJoin",
        "BroadcastHashJoin",
        F::Join,
        Code,
    ),
    ("PhotonShuffledHashJoin", "ShuffledHashJoin", F::Join, Code),
    ("PhotonSortMergeJoin", "SortMergeJoin", F::Join, Code),
    (
        "PhotonBroadcastNestedLoopJoin",
        "BroadcastNestedLoopJoin",
        F::Join,
        Code,
    ),
    ("PhotonShuffleExchangeSink", "Exchange", F::Exchange, Code),
    (
        "PhotonShuffleExchangeSource",
        "AQEShuffleRead",
        F::Engine,
        Engine,
    ),
    (
        "PhotonBroadcastExchange",
        "BroadcastExchange",
        F::Exchange,
        Code,
    ),
    ("PhotonSort", "Sort", F::Sort, Code),
    ("PhotonTopK", "TakeOrderedAndProject", F::Sort, Code),
    ("PhotonLocalLimit", "LocalLimit", F::Limit, Code),
    ("PhotonGlobalLimit", "GlobalLimit", F::Limit, Code),
    ("PhotonWindow", "Window", F::Window, Code),
    ("PhotonUnion", "Union", F::Union, Code),
    ("PhotonExpand", "Expand", F::Expand, Code),
    ("PhotonGenerate", "Generate", F::Generate, Code),
    ("PhotonResultStage", "WholeStageCodegen", F::Engine, Engine),
    (
        "PhotonShuffleMapStage",
        "WholeStageCodegen",
        F::Engine,
        Engine,
    ),
    (
        "PhotonUnionShuffleMapStage",
        "WholeStageCodegen",
        F::Engine,
        Engine,
    ),
    (
        "PhotonBroadcastStage",
        "WholeStageCodegen",
        F::Engine,
        Engine,
    ),
    ("PhotonRowToColumnar", "RowToColumnar", F::Engine, Engine),
    ("PhotonColumnarToRow", "ColumnarToRow", F::Engine, Engine),
    (
        "PhotonSubqueryBroadcast",
        "SubqueryBroadcast",
        F::Subquery,
        Engine,
    ),
];

/// Apache Gluten's own names: its engine plumbing, and the columnar exchanges it puts in Spark's
/// place. Its `<Spark operator>ExecTransformer` operators are read by stripping the suffix
/// (see [`classify`]).
pub const GLUTEN_OPERATORS: &[(&str, &str, OperatorFamily, NodeKind)] = &[
    (
        "WholeStageCodegenTransformer",
        "WholeStageCodegen",
        F::Engine,
        Engine,
    ),
    (
        "InputIteratorTransformer",
        "InputAdapter",
        F::Engine,
        Engine,
    ),
    ("VeloxResizeBatches", "InputAdapter", F::Engine, Engine),
    ("VeloxAppendBatches", "InputAdapter", F::Engine, Engine),
    ("VeloxColumnarToRow", "ColumnarToRow", F::Engine, Engine),
    ("VeloxColumnarToRowExec", "ColumnarToRow", F::Engine, Engine),
    ("RowToVeloxColumnar", "RowToColumnar", F::Engine, Engine),
    (
        "ColumnarToRowTransformer",
        "ColumnarToRow",
        F::Engine,
        Engine,
    ),
    ("ColumnarInputAdapter", "InputAdapter", F::Engine, Engine),
    ("ColumnarExchange", "Exchange", F::Exchange, Code),
    ("ColumnarShuffleExchange", "Exchange", F::Exchange, Code),
    (
        "ColumnarBroadcastExchange",
        "BroadcastExchange",
        F::Exchange,
        Code,
    ),
    (
        "ColumnarSubqueryBroadcast",
        "SubqueryBroadcast",
        F::Subquery,
        Engine,
    ),
    ("ColumnarCollectLimit", "CollectLimit", F::Limit, Code),
];

/// Names no engine-specific table covers: structured streaming, commands and Spark 4.1's
/// recursive CTEs.
pub const MORE_SPARK_OPERATORS: &[(&str, &str, OperatorFamily, NodeKind)] = &[
    ("MicroBatchScan", "BatchScan", F::Scan, Code),
    ("ContinuousScan", "BatchScan", F::Scan, Code),
    ("StreamingRelation", "BatchScan", F::Scan, Code),
    ("StreamingDataSourceV2Relation", "BatchScan", F::Scan, Code),
    ("StateStoreRestore", "StateStoreRestore", F::Aggregate, Code),
    ("StateStoreSave", "StateStoreSave", F::Aggregate, Code),
    (
        "SessionWindowStateStoreRestore",
        "StateStoreRestore",
        F::Aggregate,
        Code,
    ),
    (
        "SessionWindowStateStoreSave",
        "StateStoreSave",
        F::Aggregate,
        Code,
    ),
    (
        "StreamingDeduplicate",
        "StreamingDeduplicate",
        F::Aggregate,
        Code,
    ),
    (
        "StreamingSymmetricHashJoin",
        "StreamingSymmetricHashJoin",
        F::Join,
        Code,
    ),
    ("EventTimeWatermark", "EventTimeWatermark", F::Filter, Code),
    (
        "FlatMapGroupsWithState",
        "FlatMapGroupsWithState",
        F::Aggregate,
        Code,
    ),
    (
        "TransformWithState",
        "TransformWithState",
        F::Aggregate,
        Code,
    ),
    ("WriteToDataSourceV2", "WriteToDataSourceV2", F::Write, Code),
    (
        "WriteToMicroBatchDataSource",
        "WriteToDataSourceV2",
        F::Write,
        Code,
    ),
    (
        "WriteToContinuousDataSource",
        "WriteToDataSourceV2",
        F::Write,
        Code,
    ),
    ("UnionLoop", "UnionLoop", F::Union, Code),
    ("UnionLoopRef", "UnionLoopRef", F::Scan, Code),
    ("ExecutedCommand", "ExecutedCommand", F::Write, Code),
    ("Execute", "ExecutedCommand", F::Write, Code),
    ("LogicalRelation", "FileSourceScan", F::Scan, Code),
    ("ShowTables", "ExecutedCommand", F::Write, Code),
    ("ShowNamespaces", "ExecutedCommand", F::Write, Code),
    (
        "AtomicReplaceTableAsSelect",
        "ReplaceTableAsSelect",
        F::Write,
        Code,
    ),
    (
        "AtomicCreateTableAsSelect",
        "CreateTableAsSelect",
        F::Write,
        Code,
    ),
];

/// Commands Spark prints by their own class name (`CreateViewCommand`, `SetCommand`, …), and the
/// catalog objects a command acts on, printed under it (`ResolvedNamespace`, `ResolvedTable`).
fn command_operator(first: &str, flavor: EngineFlavor) -> Option<OperatorInfo> {
    let command = first.ends_with("Command") || first.ends_with("CommandExec");
    let resolved = first
        .strip_prefix("Resolved")
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()));
    (command || resolved).then(|| OperatorInfo {
        canonical: "ExecutedCommand".to_owned(),
        family: OperatorFamily::Write,
        kind: NodeKind::Code,
        flavor,
    })
}

/// spark-rapids / Comet operator names (prefix removed) whose Spark counterpart has another name.
pub const ACCELERATOR_RENAMES: &[(&str, &str)] = &[
    ("ShuffleExchange", "Exchange"),
    ("ColumnarExchange", "Exchange"),
    ("ShuffleCoalesce", "AQEShuffleRead"),
    ("CustomShuffleReader", "AQEShuffleRead"),
    ("CoalesceBatches", "InputAdapter"),
    ("SparkToColumnar", "RowToColumnar"),
    ("NativeScan", "FileSourceScan"),
    ("FileSourceScan", "FileSourceScan"),
    ("BroadcastExchange", "BroadcastExchange"),
    ("TopN", "TakeOrderedAndProject"),
];

/// File formats a `Scan <format>` node reads through `FileSourceScanExec`.
const FILE_FORMATS: &[&str] = &[
    "parquet",
    "csv",
    "json",
    "orc",
    "text",
    "avro",
    "delta",
    "binaryFile",
    "image",
    "xml",
];

/// Classify an operator name as written in a plan.
pub fn classify(name: &str) -> OperatorInfo {
    let name = name.trim();
    let first = first_word(name);
    if let Some(rest) = first.strip_prefix("Photon") {
        if let Some(info) = lookup(PHOTON_OPERATORS, first, EngineFlavor::Photon) {
            return info;
        }
        if let Some(info) = classify_spark(rest, name, EngineFlavor::Photon) {
            return info;
        }
    }
    for (prefix, flavor) in [("Gpu", EngineFlavor::Gpu), ("Comet", EngineFlavor::Comet)] {
        if let Some(rest) = first.strip_prefix(prefix)
            && rest.starts_with(|c: char| c.is_ascii_uppercase())
        {
            let renamed = ACCELERATOR_RENAMES
                .iter()
                .find(|(from, _)| *from == rest)
                .map_or(rest, |(_, to)| *to);
            if let Some(info) = classify_spark(renamed, name, flavor) {
                return info;
            }
        }
    }
    if let Some(info) = lookup(GLUTEN_OPERATORS, first, EngineFlavor::Gluten) {
        return info;
    }
    // Gluten's `<Spark operator>ExecTransformer` (`ProjectExecTransformer`,
    // `RegularHashAggregateExecTransformer`, `FileSourceScanExecTransformer parquet …`).
    if let Some(base) = first
        .strip_suffix("ExecTransformer")
        .or_else(|| first.strip_suffix("Transformer"))
    {
        let base = base
            .strip_prefix("Regular")
            .or_else(|| base.strip_prefix("Flushable"))
            .unwrap_or(base);
        let info = if base == "FileSourceScan" || base == "BatchScan" {
            Some(scan_operator(
                &format!("Scan{}", &name[first.len()..]),
                EngineFlavor::Gluten,
            ))
        } else {
            classify_spark(base, name, EngineFlavor::Gluten)
        };
        if let Some(info) = info {
            return info;
        }
    }
    classify_spark(first, name, EngineFlavor::Spark).unwrap_or(OperatorInfo {
        canonical: first.to_string(),
        family: OperatorFamily::Other,
        kind: NodeKind::Code,
        flavor: EngineFlavor::Spark,
    })
}

fn classify_spark(first: &str, full_name: &str, flavor: EngineFlavor) -> Option<OperatorInfo> {
    if first == "Scan" || first == "FileScan" {
        return Some(scan_operator(full_name, flavor));
    }
    lookup(SPARK_OPERATORS, first, flavor)
        .or_else(|| lookup(MORE_SPARK_OPERATORS, first, flavor))
        .or_else(|| command_operator(first, flavor))
}

/// `Scan parquet …` / `FileScan csv …` → `FileSourceScan`; `Scan ExistingRDD` and
/// `Scan OneRowRelation` → `RDDScan`; `Scan JDBCRelation(…)` and other relations →
/// `RowDataSourceScan`.
fn scan_operator(full_name: &str, flavor: EngineFlavor) -> OperatorInfo {
    let format = scan_format(full_name).unwrap_or_default();
    let canonical = if FILE_FORMATS.iter().any(|f| f.eq_ignore_ascii_case(format)) {
        "FileSourceScan"
    } else if format == "ExistingRDD" || format == "OneRowRelation" {
        "RDDScan"
    } else {
        "RowDataSourceScan"
    };
    OperatorInfo {
        canonical: canonical.to_string(),
        family: OperatorFamily::Scan,
        kind: NodeKind::Code,
        flavor,
    }
}

/// The word after `Scan`/`FileScan` (`parquet`, `ExistingRDD`, …).
pub fn scan_format(name: &str) -> Option<&str> {
    let mut words = name.split_whitespace();
    words.next()?;
    let word = words.next()?;
    let end = word.find(['[', '(']).unwrap_or(word.len());
    word.get(..end).filter(|w| !w.is_empty())
}

fn lookup(
    table: &[(&str, &str, OperatorFamily, NodeKind)],
    first: &str,
    flavor: EngineFlavor,
) -> Option<OperatorInfo> {
    table
        .iter()
        .find(|(name, ..)| *name == first)
        .map(|(_, canonical, family, kind)| OperatorInfo {
            canonical: (*canonical).to_string(),
            family: *family,
            kind: *kind,
            flavor,
        })
}

/// The operator's first word: `HashAggregate(keys=…` → `HashAggregate`, `Scan parquet` → `Scan`.
pub fn first_word(name: &str) -> &str {
    let end = name
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(name.len());
    &name[..end]
}

#[cfg(test)]
mod tests;
