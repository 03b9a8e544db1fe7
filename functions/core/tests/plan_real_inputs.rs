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
