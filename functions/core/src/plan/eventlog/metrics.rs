//! An event log's measurements, put on the nodes of its plan.
//!
//! The plan read from a log is its formatted text, which has no metrics. The same event carries
//! `sparkPlanInfo` ([`PlanInfo`]): the plan's tree as Spark's listeners see it, each operator
//! naming its metrics by accumulator id, and the log's stage completions and driver updates give
//! those accumulators' totals. The two trees are walked in pre-order — `sparkPlanInfo` leaving
//! out what the formatted text has no node for (`WholeStageCodegen`, `InputAdapter`, query
//! stages) and not entering subqueries or a reused exchange's original, as
//! [`walk_formatted`] does — and when they agree operator for operator, each operator's metrics
//! are written into its node's `details.metrics` as the UI displays them (`1024`, `26 ms`,
//! `3.3 KiB` as bytes, nanoseconds as `ns`). A `WholeStageCodegen` stage's `duration` goes to
//! every operator fused into it as [`CODEGEN_STAGE_DURATION`]. A cache's plan hangs straight
//! below its `InMemoryTableScan`, an RDD's source plan below its `Scan ExistingRDD` and the plan
//! AQE found empty below its `EmptyRelation` in `sparkPlanInfo`; the walks allow for all three.
//! When they disagree (a plan form the walk does not know) the plan keeps no metrics: a wrong
//! pairing would put one operator's cost on another.

use std::collections::HashMap;

use super::reader::PlanInfo;
use crate::plan::builder::is_subquery_wrapper;
use crate::plan::graph::{CODEGEN_STAGE_DURATION, PlanGraph};
use crate::plan::operators::classify;
use crate::plan::ui::{Step, draws_what_the_text_does_not, walk_formatted};

/// One step of the `sparkPlanInfo` walk: an operator with the codegen stage it was fused into
/// (an index into the walk's stages), or a reused exchange.
enum InfoStep<'a> {
    Node(&'a PlanInfo, Option<usize>),
    Reused,
}

/// Write the measured metrics of `info`'s operators into `graph`'s nodes; returns whether the
/// two plans could be paired (nothing is written otherwise).
pub(super) fn attach_metrics(
    graph: &mut PlanGraph,
    info: &PlanInfo,
    accumulators: &HashMap<u64, f64>,
) -> bool {
    let (info_steps, stages) = walk_info(info);
    let text_steps = walk_formatted(graph);
    let agree = info_steps.len() == text_steps.len()
        && info_steps.iter().zip(&text_steps).all(|pair| match pair {
            (InfoStep::Node(info, _), Step::Node(f)) => {
                classify(&info.node_name).canonical == graph.nodes[*f].operator
            }
            (InfoStep::Reused, Step::Reused) => true,
            _ => false,
        });
    if !agree {
        return false;
    }
    let stage_durations: Vec<Option<String>> = stages
        .iter()
        .map(|stage| {
            stage
                .metrics
                .iter()
                .find(|m| m.name == "duration")
                .and_then(|m| accumulators.get(&m.accumulator_id))
                .and_then(|&ms| displayed("timing", ms))
        })
        .collect();
    for pair in info_steps.iter().zip(&text_steps) {
        let (InfoStep::Node(info, stage), Step::Node(f)) = pair else {
            continue;
        };
        let metrics = &mut graph.nodes[*f].details.metrics;
        for metric in &info.metrics {
            let value = accumulators
                .get(&metric.accumulator_id)
                .and_then(|&v| displayed(&metric.metric_type, v));
            if let Some(value) = value {
                metrics.entry(metric.name.clone()).or_insert(value);
            }
        }
        if let Some(duration) = stage.and_then(|s| stage_durations[s].clone()) {
            metrics.insert(CODEGEN_STAGE_DURATION.to_owned(), duration);
        }
    }
    true
}

/// `sparkPlanInfo` in pre-order as [`walk_formatted`] lists the formatted plan, with the
/// `WholeStageCodegen` stages met on the way.
fn walk_info(root: &PlanInfo) -> (Vec<InfoStep<'_>>, Vec<&PlanInfo>) {
    let mut steps = Vec::new();
    let mut stages = Vec::new();
    let mut stack: Vec<(&PlanInfo, Option<usize>)> = vec![(root, None)];
    while let Some((node, stage)) = stack.pop() {
        let name = node.node_name.trim();
        let children = |stage: Option<usize>| node.children.iter().rev().map(move |c| (c, stage));
        if name.starts_with("WholeStageCodegen") {
            stages.push(node);
            stack.extend(children(Some(stages.len() - 1)));
        } else if name == "InputAdapter" || name.ends_with("QueryStage") {
            // the edge of a codegen stage, and nodes only the listeners' tree has
            stack.extend(children(None));
        } else if name == "ReusedExchange" {
            steps.push(InfoStep::Reused);
        } else if is_subquery_wrapper(name) {
            // subqueries hang off their host in the formatted plan, outside the walk
        } else {
            steps.push(InfoStep::Node(node, stage));
            // the plan an RDD was made from, or AQE found empty, hangs below here, not in the text
            if !draws_what_the_text_does_not(&classify(name).canonical) {
                stack.extend(children(stage));
            }
        }
    }
    (steps, stages)
}

/// A metric's total as the UI displays it, in a form `view::cost::MetricValue` reads; `None`
/// for an average (not a total) or a type Spark does not define.
fn displayed(metric_type: &str, value: f64) -> Option<String> {
    let unit = match metric_type {
        "sum" => "",
        "size" => " B",
        "timing" => " ms",
        "nsTiming" => " ns",
        _ => return None,
    };
    Some(format!("{value}{unit}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::eventlog::reader::PlanInfoMetric;

    fn info(name: &str, metrics: &[(&str, u64, &str)], children: Vec<PlanInfo>) -> PlanInfo {
        PlanInfo {
            node_name: name.into(),
            children,
            metrics: metrics
                .iter()
                .map(|(name, id, kind)| PlanInfoMetric {
                    name: (*name).into(),
                    accumulator_id: *id,
                    metric_type: (*kind).into(),
                })
                .collect(),
        }
    }

    const PLAN: &str = "== Physical Plan ==
* HashAggregate (3)
+- * Filter (2)
   +- * ColumnarToRow (1)
      +- Scan parquet  (0)

(0) Scan parquet
Output [1]: [a#1]

(1) ColumnarToRow [codegen id : 1]
Input [1]: [a#1]

(2) Filter [codegen id : 1]
Input [1]: [a#1]
Condition : (a#1 > 1)

(3) HashAggregate [codegen id : 1]
Input [1]: [a#1]
Keys [1]: [a#1]
Functions: []
Results [1]: [a#1]
";

    fn listeners_tree() -> PlanInfo {
        info(
            "WholeStageCodegen (1)",
            &[("duration", 1, "timing")],
            vec![info(
                "HashAggregate",
                &[
                    ("time in aggregation build", 2, "timing"),
                    ("number of output rows", 3, "sum"),
                ],
                vec![info(
                    "Filter",
                    &[("number of output rows", 4, "sum")],
                    vec![info(
                        "ColumnarToRow",
                        &[],
                        vec![info(
                            "InputAdapter",
                            &[],
                            vec![info(
                                "Scan parquet ",
                                &[
                                    ("size of files read", 5, "size"),
                                    ("scan time", 6, "nsTiming"),
                                ],
                                vec![],
                            )],
                        )],
                    )],
                )],
            )],
        )
    }

    #[test]
    fn each_operator_gets_its_accumulators_and_the_stage_its_duration() {
        let mut graph =
            crate::plan::formatted::parse_formatted(PLAN, crate::plan::graph::PlanFormat::Eventlog)
                .unwrap();
        let values: HashMap<u64, f64> = [
            (1, 40.0),
            (2, 12.0),
            (3, 5.0),
            (4, 9.0),
            (5, 2048.0),
            (6, 3_000_000.0),
        ]
        .into();
        assert!(attach_metrics(&mut graph, &listeners_tree(), &values));
        let metrics = |id: &str| &graph.nodes[graph.node_by_id(id).unwrap()].details.metrics;
        assert_eq!(metrics("3")["time in aggregation build"], "12 ms");
        assert_eq!(metrics("3")["number of output rows"], "5");
        assert_eq!(metrics("2")["number of output rows"], "9");
        assert_eq!(metrics("0")["size of files read"], "2048 B");
        assert_eq!(metrics("0")["scan time"], "3000000 ns");
        // the codegen stage's duration on each of its operators, not on the scan outside it
        for id in ["1", "2", "3"] {
            assert_eq!(metrics(id)[CODEGEN_STAGE_DURATION], "40 ms", "node {id}");
        }
        assert!(!metrics("0").contains_key(CODEGEN_STAGE_DURATION));
    }

    #[test]
    fn plans_that_do_not_pair_get_no_metrics() {
        let mut graph =
            crate::plan::formatted::parse_formatted(PLAN, crate::plan::graph::PlanFormat::Eventlog)
                .unwrap();
        let mut other = listeners_tree();
        other.children[0].children[0].node_name = "Project".into();
        let values: HashMap<u64, f64> = [(2, 12.0), (4, 9.0)].into();
        assert!(!attach_metrics(&mut graph, &other, &values));
        assert!(graph.nodes.iter().all(|n| n.details.metrics.is_empty()));
    }
}
