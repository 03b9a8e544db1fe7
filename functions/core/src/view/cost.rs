//! What each operator of a plan cost, read from the metrics the plan carries (the Spark UI's SQL
//! JSON, an event log's accumulators), and how that cost is shared among operators.
//!
//! Spark shows a metric as text: `1,000` (a count), `3.3 KiB` (a size), `870 ms` / `1.1 s` (a
//! time), or, when tasks reported it, `total (min, med, max (stageId: taskId))\n242 ms (85 ms,
//! …)` — [`MetricValue::parse`] reads the total. Per operator ([`operator_costs`]):
//!
//! * **rows** — `number of output rows`;
//! * **shuffle bytes** — `shuffle bytes written` (an exchange without it: its `data size`);
//! * **spill bytes** — every `… spill size` metric;
//! * **time** — the sum of the operator's own time metrics (`scan time`, `sort time`, `time to
//!   collect`, `shuffle write time`, …), except inside whole-stage codegen. A
//!   `WholeStageCodegen (k)` node's `duration` is the wall time of all the operators fused into it,
//!   which report no separable time of their own; it is **shared among its member operators** in
//!   proportion to the time metrics the members do report (an aggregate's `time in aggregation
//!   build`, say), and equally when none reports any. The cluster node itself keeps no time, so a
//!   stage's duration is counted once. A plan read from an event log has no stage nodes: its
//!   operators each carry their stage's duration as [`CODEGEN_STAGE_DURATION`], and the
//!   operators of one stage share it the same way.
//!
//! Plans without metrics (explain text) cost nothing, and every consumer treats an all-zero cost
//! as "no measurement", never as "free".

use crate::plan::{CODEGEN_STAGE_DURATION, NodeIdx, PlanGraph, PlanNode};
use serde::Serialize;
use std::collections::BTreeMap;

/// One metric's value as a number in its base unit.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum MetricValue {
    Count(f64),
    Bytes(f64),
    Millis(f64),
}

impl MetricValue {
    /// Read a metric as Spark displays it; `None` for text that is not a number (a metric the
    /// UI has not filled, `-`).
    pub fn parse(text: &str) -> Option<Self> {
        // Task-level metrics: a header line, then `TOTAL (min, med, max …)`.
        let body = match text.split_once('\n') {
            Some((head, rest)) if head.trim_start().starts_with("total") => rest,
            _ => text,
        };
        let total = body.split(" (").next()?.trim();
        let (number, unit) = match total.split_once(' ') {
            Some((number, unit)) => (number, unit.trim()),
            None => (total, ""),
        };
        let value: f64 = number.replace(',', "").parse().ok()?;
        if !value.is_finite() {
            return None;
        }
        let scaled = |factor: f64| value * factor;
        Some(match unit {
            "" => Self::Count(value),
            "B" => Self::Bytes(value),
            "KiB" | "KB" => Self::Bytes(scaled(1024.0)),
            "MiB" | "MB" => Self::Bytes(scaled(1024.0 * 1024.0)),
            "GiB" | "GB" => Self::Bytes(scaled(1024.0 * 1024.0 * 1024.0)),
            "TiB" | "TB" => Self::Bytes(scaled(1024f64.powi(4))),
            "PiB" | "PB" => Self::Bytes(scaled(1024f64.powi(5))),
            "ns" => Self::Millis(scaled(1e-6)),
            "us" | "µs" => Self::Millis(scaled(1e-3)),
            "ms" => Self::Millis(value),
            "s" => Self::Millis(scaled(1e3)),
            "m" | "min" => Self::Millis(scaled(60e3)),
            "h" => Self::Millis(scaled(3600e3)),
            _ => return None,
        })
    }
}

/// What one operator cost. All zero when the plan carries no metrics for it.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cost {
    /// Wall time attributed to the operator (see the module overview), milliseconds.
    pub time_ms: f64,
    pub rows: f64,
    pub shuffle_bytes: f64,
    pub spill_bytes: f64,
}

impl Cost {
    pub fn is_measured(&self) -> bool {
        self.time_ms > 0.0 || self.rows > 0.0 || self.shuffle_bytes > 0.0 || self.spill_bytes > 0.0
    }

    pub fn add(&mut self, other: &Cost) {
        self.time_ms += other.time_ms;
        self.rows += other.rows;
        self.shuffle_bytes += other.shuffle_bytes;
        self.spill_bytes += other.spill_bytes;
    }
}

/// Whether the plan has any metric at all (a UI JSON plan does; explain text never).
pub fn has_metrics(graph: &PlanGraph) -> bool {
    graph.nodes.iter().any(|n| !n.details.metrics.is_empty())
}

fn is_codegen_cluster(node: &PlanNode) -> bool {
    node.operator == "WholeStageCodegen"
}

/// The operator's own measurements, before codegen time is shared.
fn own_cost(node: &PlanNode) -> Cost {
    let mut cost = Cost::default();
    let mut data_size = 0.0;
    for (name, text) in &node.details.metrics {
        let Some(value) = MetricValue::parse(text) else {
            continue;
        };
        match (name.as_str(), value) {
            (CODEGEN_STAGE_DURATION, _) => {} // the stage's, shared in `operator_costs`
            ("number of output rows", MetricValue::Count(n)) => cost.rows = n,
            ("shuffle bytes written", MetricValue::Bytes(b)) => cost.shuffle_bytes += b,
            ("data size", MetricValue::Bytes(b)) => data_size = b,
            (name, MetricValue::Bytes(b)) if name.contains("spill size") => cost.spill_bytes += b,
            (_, MetricValue::Millis(ms)) => cost.time_ms += ms,
            _ => {}
        }
    }
    if cost.shuffle_bytes == 0.0 && node.operator.contains("Exchange") {
        cost.shuffle_bytes = data_size;
    }
    cost
}

/// Every node's [`Cost`], indexed like `graph.nodes`.
pub fn operator_costs(graph: &PlanGraph) -> Vec<Cost> {
    let mut costs: Vec<Cost> = graph.nodes.iter().map(own_cost).collect();
    for (duration, members) in codegen_stages(graph, &mut costs) {
        let reported: f64 = members.iter().map(|&m| costs[m].time_ms).sum();
        for &m in &members {
            costs[m].time_ms = if reported > 0.0 {
                duration * costs[m].time_ms / reported
            } else {
                duration / members.len() as f64
            };
        }
    }
    costs
}

/// A codegen stage of an event log's plan: its number, its duration's bits, and — for an
/// operator without a stage number — the operator itself.
type StageKey = (Option<u32>, u64, NodeIdx);

/// The whole-stage codegen stages of a plan, each as its duration and the operators fused into
/// it: a UI `WholeStageCodegen` node (whose own time is taken out of `costs`) with its members,
/// or the operators of an event log's plan carrying [`CODEGEN_STAGE_DURATION`], grouped by stage.
fn codegen_stages(graph: &PlanGraph, costs: &mut [Cost]) -> Vec<(f64, Vec<NodeIdx>)> {
    let mut stages = Vec::new();
    for (idx, cluster) in graph.nodes.iter().enumerate() {
        if !is_codegen_cluster(cluster) {
            continue;
        }
        let members: Vec<NodeIdx> = cluster
            .members
            .iter()
            .copied()
            .filter(|&m| m < costs.len() && m != idx)
            .collect();
        // A cluster whose members the plan does not list: its time stays where it was read.
        if !members.is_empty() {
            stages.push((std::mem::take(&mut costs[idx].time_ms), members));
        }
    }
    // keyed by stage number and duration: AQE plans each query stage apart, and the numbers of
    // two stages can coincide
    let mut by_stage: BTreeMap<StageKey, (f64, Vec<NodeIdx>)> = BTreeMap::new();
    for (idx, node) in graph.nodes.iter().enumerate() {
        let duration = node
            .details
            .metrics
            .get(CODEGEN_STAGE_DURATION)
            .and_then(|text| MetricValue::parse(text));
        let Some(MetricValue::Millis(duration)) = duration else {
            continue;
        };
        // an operator without its stage's number stands alone
        let key = match node.codegen_stage {
            Some(stage) => (Some(stage), duration.to_bits(), 0),
            None => (None, duration.to_bits(), idx),
        };
        let entry = by_stage.entry(key).or_insert((duration, Vec::new()));
        entry.1.push(idx);
    }
    stages.extend(by_stage.into_values());
    stages
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metric_values_are_read_as_spark_prints_them() {
        assert_eq!(
            MetricValue::parse("1,000"),
            Some(MetricValue::Count(1000.0))
        );
        assert_eq!(MetricValue::parse("26 ms"), Some(MetricValue::Millis(26.0)));
        assert_eq!(
            MetricValue::parse("1.1 s"),
            Some(MetricValue::Millis(1100.0))
        );
        assert_eq!(
            MetricValue::parse("3.3 KiB"),
            Some(MetricValue::Bytes(3.3 * 1024.0))
        );
        assert_eq!(
            MetricValue::parse(
                "total (min, med, max (stageId: taskId))\n242 ms (85 ms, 157 ms, 157 ms (stage 63.0: task 53))"
            ),
            Some(MetricValue::Millis(242.0))
        );
        assert_eq!(
            MetricValue::parse("total (min, med, max (stageId: taskId))\n19.2 MiB (1.0 MiB, …)"),
            Some(MetricValue::Bytes(19.2 * 1024.0 * 1024.0))
        );
        assert_eq!(MetricValue::parse("-"), None);
        assert_eq!(MetricValue::parse("12 parsecs"), None);
        assert_eq!(MetricValue::parse(""), None);
    }
}
