//! One test per family of real input, each on a file trimmed from another project's test
//! resources (`tests/fixtures/realplans/README.md` names every source): event logs as Spark
//! stores them (zstd, gzip, LZ4, rolled folders), Spark 2 and Photon and spark-rapids plans,
//! a log with a malformed line, and Apache Spark's TPC-DS plan-stability files. Inputs are read
//! the way the CLI reads them, through `plan::input`.

use std::collections::BTreeSet;
use std::path::PathBuf;

use plan2code_core::plan::input::{PlanInput, open_path};
use plan2code_core::plan::{NodeKind, OperatorFamily, ParseOptions, PlanFormat, PlanGraph};

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/realplans")
        .join(name)
}

fn read(name: &str) -> PlanGraph {
    let input = open_path(&fixture(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    input
        .parse(&ParseOptions::default())
        .unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn families(graph: &PlanGraph) -> BTreeSet<String> {
    graph
        .nodes
        .iter()
        .map(|n| format!("{:?}", n.family))
        .collect()
}

fn node<'a>(graph: &'a PlanGraph, name_prefix: &str) -> &'a plan2code_core::plan::PlanNode {
    graph
        .nodes
        .iter()
        .find(|n| n.name.starts_with(name_prefix))
        .unwrap_or_else(|| panic!("no node named {name_prefix}…"))
}

#[test]
fn zstd_photon_log_reads_with_spark_families_and_aggregate_fields() {
    let graph = read("photon-nds-q88.eventlog.zstd");
    assert_eq!(graph.format, PlanFormat::Eventlog);
    assert_eq!(graph.execution.execution_id, Some(26));
    assert!(graph.nodes.len() > 200, "{}", graph.nodes.len());
    assert!(
        graph
            .nodes
            .iter()
            .all(|n| n.family != OperatorFamily::Other),
        "{:?}",
        graph
            .nodes
            .iter()
            .filter(|n| n.family == OperatorFamily::Other)
            .map(|n| &n.name)
            .collect::<Vec<_>>()
    );
    // `PhotonAgg` without grouping: its first list is aggregate functions, not keys
    let agg = graph
        .nodes
        .iter()
        .find(|n| n.name == "PhotonAgg" && !n.details.projections.is_empty())
        .expect("a final PhotonAgg");
    assert!(
        agg.details.grouping_keys.is_empty(),
        "{:?}",
        agg.details.grouping_keys
    );
    assert_eq!(
        agg.details.aggregate_functions[0].functions,
        ["finalmerge_count"]
    );
    let scan = node(&graph, "PhotonScan")
        .details
        .scan
        .as_ref()
        .expect("scan");
    assert_eq!(scan.format, "parquet");
    assert!(scan.paths[0].starts_with("s3://"), "{:?}", scan.paths);
}

#[test]
fn zstd_spark_rapids_log_reads_gpu_operators_as_their_spark_families() {
    let graph = read("rapids-gds-ucx.eventlog.zstd");
    let gpu: Vec<&plan2code_core::plan::PlanNode> = graph
        .nodes
        .iter()
        .filter(|n| n.name.starts_with("Gpu"))
        .collect();
    assert!(!gpu.is_empty());
    assert!(gpu.iter().all(|n| n.family != OperatorFamily::Other));
    assert_eq!(
        node(&graph, "GpuHashAggregate").family,
        OperatorFamily::Aggregate
    );
}

#[test]
fn spark2_log_reads_codegen_markers_without_stage_numbers() {
    let graph = read("spark2.eventlog.zstd");
    assert_eq!(graph.execution.spark_version.as_deref(), Some("2.2.3"));
    let filter = node(&graph, "Filter");
    assert_eq!(filter.family, OperatorFamily::Filter);
    assert_eq!(filter.details.conditions[0].functions, ["length", "trim"]);
}

#[test]
fn a_malformed_line_is_a_warning_naming_its_line() {
    let graph = read("malformed-json.eventlog.zstd");
    assert!(graph.nodes.len() > 10);
    assert_eq!(graph.warnings.len(), 1, "{:?}", graph.warnings);
    assert!(
        graph.warnings[0].starts_with("line 2: "),
        "{:?}",
        graph.warnings
    );
}

#[test]
fn gzip_lz4_and_rolled_logs_read_like_plain_ones() {
    let gzip = read("db-sim.eventlog.gz");
    assert!(families(&gzip).contains("Join"));
    let lz4 = read("aqeshuffle.eventlog.lz4");
    assert!(lz4.nodes.iter().any(|n| n.name == "AQEShuffleRead"));
    assert_eq!(node(&lz4, "AQEShuffleRead").node_kind, NodeKind::Engine);
    let rolled = read("eventlog_v2_local-1623876083964");
    assert_eq!(rolled.execution.execution_id, Some(0));
    assert!(families(&rolled).contains("Aggregate"));
}

#[test]
fn tpcds_explain_and_simplified_read_the_same_operators() {
    let explain = read("tpcds-q1.explain.txt");
    assert_eq!(explain.format, PlanFormat::Formatted);
    // `Location [not included in comparison]/…` is not `Key: value`: kept, with a warning
    assert!(!explain.warnings.is_empty());
    assert!(
        explain
            .warnings
            .iter()
            .all(|w| w.contains("not included in comparison"))
    );
    let simplified = read("tpcds-q1.simplified.txt");
    assert_eq!(simplified.format, PlanFormat::Simple);
    let joins = |g: &PlanGraph| {
        g.nodes
            .iter()
            .filter(|n| n.operator == "BroadcastHashJoin")
            .count()
    };
    assert_eq!(joins(&explain), joins(&simplified));
    assert!(joins(&explain) >= 3);
}

#[test]
fn a_log_with_several_executions_lists_and_parses_each() {
    // two real logs as the parts of one rolled folder: executions 0 (Spark 2) and 26 (Photon)
    let dir = tempfile::tempdir().expect("tempdir");
    let folder = dir.path().join("eventlog_v2_app");
    std::fs::create_dir(&folder).expect("dir");
    std::fs::copy(
        fixture("spark2.eventlog.zstd"),
        folder.join("events_1_app.zstd"),
    )
    .expect("copy");
    std::fs::copy(
        fixture("photon-nds-q88.eventlog.zstd"),
        folder.join("events_2_app.zstd"),
    )
    .expect("copy");
    let input = open_path(&folder).expect("open");
    assert!(matches!(input, PlanInput::EventLog(_)));
    assert!(input.holds_several_executions().expect("ids"));
    let ids: Vec<Option<u64>> = input
        .list_executions()
        .expect("list")
        .iter()
        .map(|e| e.execution_id)
        .collect();
    assert_eq!(ids, [Some(0), Some(26)]);
    let parsed = input.parse_every_execution().expect("every");
    assert!(
        parsed
            .iter()
            .all(|(_, g)| g.as_ref().is_ok_and(|g| !g.nodes.is_empty()))
    );
}
