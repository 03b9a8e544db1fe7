//! Forms of plan text found in other projects' test resources (see `../shared/realplans` when
//! present): each sample below is trimmed from such a file, named beside it.

use plan2code_core::plan::{NodeKind, OperatorFamily, ParseOptions, PlanFormat, parse_plan};

/// Apache Spark's approved TPC-DS plans (`sql/core/src/test/resources/tpcds-plan-stability`),
/// `simplified.txt`: an indented tree without ids, rooted at a codegen stage.
#[test]
fn spark_plan_stability_simplified_form_reads_as_a_tree() {
    let text = "WholeStageCodegen (13)\n  Sort [d_week_seq1]\n    InputAdapter\n      Exchange [d_week_seq1] #1\n        WholeStageCodegen (12)\n          Project [d_week_seq1,sun_sales1]\n            Filter [d_week_seq1]\n";
    let graph = parse_plan(text, &ParseOptions::default()).unwrap();
    assert_eq!(graph.format, PlanFormat::Simple);
    let families: Vec<OperatorFamily> = graph.nodes.iter().map(|n| n.family).collect();
    assert!(families.contains(&OperatorFamily::Sort));
    assert!(families.contains(&OperatorFamily::Filter));
    assert_eq!(graph.nodes[0].node_kind, NodeKind::Engine);
}

/// The same suite's `explain.txt`: formatted, with a detail line that is not `Key: value`.
#[test]
fn spark_plan_stability_explain_with_an_odd_detail_line_parses_with_a_warning() {
    let text = "== Physical Plan ==\n* Filter (2)\n+- * ColumnarToRow (1)\n\n\n(1) ColumnarToRow [codegen id : 1]\nInput [1]: [ca_address_sk#1]\n\n(2) Filter [codegen id : 1]\nInput [1]: [ca_address_sk#1]\nLocation [not included in comparison]/{warehouse_dir}/customer_address]\nCondition : isnotnull(ca_address_sk#1)\n\n";
    let graph = parse_plan(text, &ParseOptions::default()).unwrap();
    assert_eq!(graph.nodes.len(), 2);
    assert_eq!(graph.warnings.len(), 1, "{:?}", graph.warnings);
    assert!(
        graph.warnings[0].starts_with("line 11:"),
        "{:?}",
        graph.warnings
    );
}

/// Apache Gluten's approved TPC-H q6 plan on Velox (`tests/fixtures/realplans/README.md`).
#[test]
fn gluten_velox_operators_have_spark_families() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/realplans/gluten-velox-tpch-q6.txt"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let graph = parse_plan(&text, &ParseOptions::default()).unwrap();
    let unrecognised: Vec<&str> = graph
        .nodes
        .iter()
        .filter(|n| n.family == OperatorFamily::Other)
        .map(|n| n.name.as_str())
        .collect();
    assert!(unrecognised.is_empty(), "{unrecognised:?}");
    let family_of = |prefix: &str| {
        graph
            .nodes
            .iter()
            .find(|n| n.name.starts_with(prefix))
            .map(|n| (n.family, n.node_kind))
            .unwrap_or_else(|| panic!("no {prefix}"))
    };
    assert_eq!(
        family_of("FilterExecTransformer"),
        (OperatorFamily::Filter, NodeKind::Code)
    );
    assert_eq!(
        family_of("FileSourceScanExecTransformer").0,
        OperatorFamily::Scan
    );
    assert_eq!(family_of("VeloxColumnarToRow").1, NodeKind::Engine);
}

/// Comet's scan names its implementation in brackets and its project prints output then
/// projections (shapes from Apache DataFusion Comet's approved TPC-DS plans).
#[test]
fn comet_scan_and_project_details_read_like_spark_ones() {
    let text = "== Physical Plan ==\n* ColumnarToRow (3)\n+- CometProject (2)\n   +- CometScan [native_iceberg_compat] parquet spark_catalog.default.store_sales (1)\n\n\n(1) CometScan [native_iceberg_compat] parquet spark_catalog.default.store_sales\nOutput [2]: [ss_item_sk#1, ss_sold_date_sk#2]\nBatched: true\nLocation: InMemoryFileIndex [file:/tmp/store_sales]\nReadSchema: struct<ss_item_sk:int>\n\n(2) CometProject\nInput [2]: [ss_item_sk#1, ss_sold_date_sk#2]\nArguments: [ss_item_sk#1], [ss_item_sk#1]\n\n(3) ColumnarToRow [codegen id : 1]\nInput [1]: [ss_item_sk#1]\n";
    let graph = parse_plan(text, &ParseOptions::default()).unwrap();
    let node = |id: &str| &graph.nodes[graph.node_by_id(id).unwrap()];
    let scan = node("1").details.scan.as_ref().unwrap();
    assert_eq!(scan.format, "parquet");
    assert_eq!(
        scan.table.as_deref(),
        Some("spark_catalog.default.store_sales")
    );
    let project = &node("2").details.projections;
    assert_eq!(project.len(), 1);
    assert_eq!(project[0].text, "ss_item_sk");
}

/// spark-rapids' one-line operators (shapes from NVIDIA/spark-rapids-tools' event logs):
/// `gpuhashpartitioning` is hash partitioning, `partial_gpucount` is `partial_count`.
#[test]
fn spark_rapids_partitioning_and_functions_read_as_spark_ones() {
    let text = "GpuColumnarExchange gpuhashpartitioning(ss_item_sk#1, 200), ENSURE_REQUIREMENTS, [plan_id=5]\n+- GpuHashAggregate(keys=[ss_item_sk#1], functions=[partial_gpucount(1)])\n   +- GpuScan parquet [ss_item_sk#1] Batched: true, DataFilters: [], Format: Parquet, Location: InMemoryFileIndex[file:/tmp/ss], PartitionFilters: [], PushedFilters: [], ReadSchema: struct<ss_item_sk:int>\n";
    let graph = parse_plan(text, &ParseOptions::default()).unwrap();
    let p = graph.nodes[0].details.partitioning.as_ref().unwrap();
    assert_eq!((p.kind.as_str(), p.num_partitions), ("hash", Some(200)));
    assert_eq!(p.exprs[0].text, "ss_item_sk");
    assert_eq!(
        graph.nodes[1].details.aggregate_functions[0].functions,
        ["partial_count"]
    );
    assert_eq!(graph.nodes[2].family, OperatorFamily::Scan);
}
