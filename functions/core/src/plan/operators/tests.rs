//! Tests of the parent module.

use super::*;

#[test]
fn gluten_streaming_command_and_recursive_names_are_recognised() {
    use NodeKind::{Code, Engine};
    use OperatorFamily as F;
    for (name, canonical, family, kind) in [
        ("ProjectExecTransformer", "Project", F::Project, Code),
        ("FilterExecTransformer", "Filter", F::Filter, Code),
        (
            "FileSourceScanExecTransformer parquet default.lineitem",
            "FileSourceScan",
            F::Scan,
            Code,
        ),
        (
            "RegularHashAggregateExecTransformer",
            "HashAggregate",
            F::Aggregate,
            Code,
        ),
        (
            "FlushableHashAggregateExecTransformer",
            "HashAggregate",
            F::Aggregate,
            Code,
        ),
        (
            "ShuffledHashJoinExecTransformer",
            "ShuffledHashJoin",
            F::Join,
            Code,
        ),
        ("SortExecTransformer", "Sort", F::Sort, Code),
        (
            "TakeOrderedAndProjectExecTransformer",
            "TakeOrderedAndProject",
            F::Sort,
            Code,
        ),
        (
            "WholeStageCodegenTransformer (3)",
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
        ("ColumnarExchange", "Exchange", F::Exchange, Code),
        (
            "ColumnarBroadcastExchange",
            "BroadcastExchange",
            F::Exchange,
            Code,
        ),
        ("VeloxColumnarToRow", "ColumnarToRow", F::Engine, Engine),
        ("RowToVeloxColumnar", "RowToColumnar", F::Engine, Engine),
        ("GpuTopN", "TakeOrderedAndProject", F::Sort, Code),
        ("MicroBatchScan", "BatchScan", F::Scan, Code),
        ("StateStoreSave", "StateStoreSave", F::Aggregate, Code),
        ("WriteToDataSourceV2", "WriteToDataSourceV2", F::Write, Code),
        ("CreateViewCommand", "ExecutedCommand", F::Write, Code),
        ("UnionLoop", "UnionLoop", F::Union, Code),
    ] {
        let info = classify(name);
        assert_eq!(
            (info.canonical.as_str(), info.family, info.kind),
            (canonical, family, kind),
            "{name}"
        );
    }
}

// Long: a table of operator names, one row each.
#[test]
fn spark_photon_gpu_and_comet_names_meet_on_spark_operators() {
    let cases = [
        (
            "HashAggregate",
            "HashAggregate",
            OperatorFamily::Aggregate,
            NodeKind::Code,
        ),
        (
            "PhotonGroupingAgg",
            "HashAggregate",
            OperatorFamily::Aggregate,
            NodeKind::Code,
        ),
        (
            "GpuHashAggregate",
            "HashAggregate",
            OperatorFamily::Aggregate,
            NodeKind::Code,
        ),
        (
            "CometHashAggregate",
            "HashAggregate",
            OperatorFamily::Aggregate,
            NodeKind::Code,
        ),
        (
            "GpuShuffleExchange",
            "Exchange",
            OperatorFamily::Exchange,
            NodeKind::Code,
        ),
        (
            "CometExchange",
            "Exchange",
            OperatorFamily::Exchange,
            NodeKind::Code,
        ),
        (
            "PhotonShuffleExchangeSink",
            "Exchange",
            OperatorFamily::Exchange,
            NodeKind::Code,
        ),
        (
            "Scan parquet spark_catalog.default.t",
            "FileSourceScan",
            OperatorFamily::Scan,
            NodeKind::Code,
        ),
        (
            "FileScan csv",
            "FileSourceScan",
            OperatorFamily::Scan,
            NodeKind::Code,
        ),
        (
            "CometScan parquet",
            "FileSourceScan",
            OperatorFamily::Scan,
            NodeKind::Code,
        ),
        (
            "GpuScan parquet",
            "FileSourceScan",
            OperatorFamily::Scan,
            NodeKind::Code,
        ),
        (
            "Scan ExistingRDD",
            "RDDScan",
            OperatorFamily::Scan,
            NodeKind::Code,
        ),
        (
            "WholeStageCodegen (3)",
            "WholeStageCodegen",
            OperatorFamily::Engine,
            NodeKind::Engine,
        ),
        (
            "PhotonResultStage",
            "WholeStageCodegen",
            OperatorFamily::Engine,
            NodeKind::Engine,
        ),
        (
            "GpuColumnarToRow",
            "ColumnarToRow",
            OperatorFamily::Engine,
            NodeKind::Engine,
        ),
        (
            "Subquery",
            "Subquery",
            OperatorFamily::Subquery,
            NodeKind::Engine,
        ),
    ];
    for (name, canonical, family, kind) in cases {
        let info = classify(name);
        assert_eq!(
            (info.canonical.as_str(), info.family, info.kind),
            (canonical, family, kind),
            "{name}"
        );
    }
}

#[test]
fn unknown_operators_are_kept_as_code() {
    let info = classify("MyCustomExec(foo)");
    assert_eq!(info.canonical, "MyCustomExec");
    assert_eq!(info.family, OperatorFamily::Other);
    assert_eq!(info.kind, NodeKind::Code);
}
