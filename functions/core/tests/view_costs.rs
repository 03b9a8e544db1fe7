//! Cost attribution and hot lines on a real Spark UI JSON plan (TPC-H q5 from the repository's
//! copy of the DEV benchmark, `bench/dev`): the metrics as Spark printed them, codegen time
//! shared among the fused operators and counted once.

use plan2code_core::contracts::{
    CodeLocation, ConfidenceFactors, ConfidenceStatus, MappingOutput, NodeKind, node_key,
};
use plan2code_core::plan::{ParseOptions, PlanGraph, parse_plan};
use plan2code_core::view::cost::MetricValue;
use plan2code_core::view::{Overview, operator_costs};
use std::path::Path;

fn q5() -> PlanGraph {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/dev/tpch-default-q05/ui.json");
    let text = std::fs::read_to_string(&path).unwrap();
    parse_plan(&text, &ParseOptions::default()).unwrap()
}

fn node(graph: &PlanGraph, id: &str) -> usize {
    graph
        .node_by_id(id)
        .unwrap_or_else(|| panic!("no node {id}"))
}

fn metric_ms(graph: &PlanGraph, idx: usize, name: &str) -> f64 {
    match MetricValue::parse(&graph.nodes[idx].details.metrics[name]) {
        Some(MetricValue::Millis(ms)) => ms,
        other => panic!("{name}: {other:?}"),
    }
}

#[test]
fn a_stages_duration_is_shared_among_its_fused_operators_and_counted_once() {
    let graph = q5();
    let costs = operator_costs(&graph);
    let mut clusters = 0;
    for (idx, cluster) in graph.nodes.iter().enumerate() {
        if cluster.operator != "WholeStageCodegen" || cluster.members.is_empty() {
            continue;
        }
        clusters += 1;
        let duration = metric_ms(&graph, idx, "duration");
        let shared: f64 = cluster.members.iter().map(|&m| costs[m].time_ms).sum();
        assert!(
            (shared - duration).abs() < 1e-6,
            "{}: members got {shared} ms of {duration} ms",
            cluster.name
        );
        assert_eq!(costs[idx].time_ms, 0.0, "{} keeps no time", cluster.name);
    }
    assert!(
        clusters >= 5,
        "q5 has several codegen stages, found {clusters}"
    );

    // Outside codegen an operator's own time metrics add up: a scan's scan + metadata time, a
    // broadcast's collect, build and broadcast times.
    let scan = node(&graph, "34");
    assert_eq!(graph.nodes[scan].name, "Scan parquet");
    assert_eq!(costs[scan].time_ms, 242.0);
    assert_eq!(costs[scan].rows, 600_572.0);
    let broadcast = node(&graph, "45");
    assert_eq!(costs[broadcast].time_ms, 153.0 + 17.0 + 870.0);
    assert_eq!(costs[broadcast].shuffle_bytes, 32.0 * 1024.0 * 1024.0);
}

fn mapping(graph: &PlanGraph, id: &str, file: &str, lines: &str) -> MappingOutput {
    let idx = node(graph, id);
    MappingOutput {
        execution_id: graph.execution.execution_id,
        dag_node_id: id.into(),
        node_name: graph.nodes[idx].name.to_string(),
        node_kind: NodeKind::Code,
        mapped_code: Some(CodeLocation {
            file: file.into(),
            symbol: None,
            lines: lines.into(),
            code_snippet: format!("line {lines}\nmore"),
        }),
        confidence: 0.9,
        confidence_status: ConfidenceStatus::Confirmed,
        confidence_factors: ConfidenceFactors::default(),
        explanation: String::new(),
        alternatives: vec![],
        error: None,
    }
}

#[test]
fn hot_lines_rank_code_by_the_cost_mapped_to_it() {
    let graph = q5();
    let costs = operator_costs(&graph);
    // Two scans on one line, the costliest broadcast on another, a cheap filter on a third.
    let mappings = vec![
        mapping(&graph, "34", "q5.py", "10-10"),
        mapping(&graph, "29", "q5.py", "10-10"),
        mapping(&graph, "45", "q5.py", "20-22"),
        mapping(&graph, "48", "q5.py", "30-30"),
    ];
    let overview = Overview::new(std::slice::from_ref(&graph), &mappings);
    let hot = &overview.hot_lines;
    assert_eq!(hot.len(), 3);
    let scans = costs[node(&graph, "34")].time_ms + costs[node(&graph, "29")].time_ms;
    let times: Vec<f64> = hot.iter().map(|h| h.cost.time_ms).collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "ranked: {times:?}");
    let line10 = hot.iter().find(|h| h.lines == "10-10").unwrap();
    assert_eq!(line10.cost.time_ms, scans);
    assert_eq!(line10.nodes.len(), 2);
    assert_eq!(line10.code, "line 10-10");
    assert_eq!(
        hot[0].lines, "20-22",
        "the 1 s broadcast outweighs the scans"
    );

    // The drawn graph carries the same costs and every mapped node's location.
    let drawn = &overview.graphs[0];
    assert!(drawn.has_metrics);
    assert_eq!(drawn.nodes.len(), graph.nodes.len());
    let key = node_key(graph.execution.execution_id, "45");
    let broadcast = drawn.nodes.iter().find(|n| n.key == key).unwrap();
    assert_eq!(broadcast.location.as_deref(), Some("q5.py:20-22"));
    assert_eq!(broadcast.cost, costs[node(&graph, "45")]);
}

#[test]
fn a_plan_without_metrics_has_no_hot_lines() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../bench/dev/tpch-default-q05/formatted.txt");
    let graph = parse_plan(
        &std::fs::read_to_string(path).unwrap(),
        &ParseOptions::default(),
    )
    .unwrap();
    let scan = graph
        .nodes
        .iter()
        .position(|n| n.name.starts_with("Scan"))
        .unwrap();
    let mappings = vec![mapping(
        &graph,
        &graph.nodes[scan].id.clone(),
        "q5.py",
        "1-1",
    )];
    let overview = Overview::new(std::slice::from_ref(&graph), &mappings);
    assert!(overview.hot_lines.is_empty());
    assert!(!overview.graphs[0].has_metrics);
}
