//! `plan2code map --format sarif`: every mapped node as a SARIF 2.1.0 result at its file and
//! lines, so editors and code-scanning views annotate the code with the plan operators it
//! produced. The document model is `serde-sarif`'s (generated from the SARIF schema).
//!
//! One rule, `spark-plan-node`; each result's message names the operator, its node (and
//! execution) and why it maps there; its level is `note` (this is information, not a finding) and
//! its properties carry the confidence, band, `dagNodeId`, `executionId` and node kind. Paths are
//! repository-relative under the `%SRCROOT%` base, as code-scanning tools expect.

use plan2code_core::contracts::{ConfidenceStatus, Job, MappingOutput, NodeKind};
use serde_sarif::sarif::{
    ArtifactLocation, Location, Message, MultiformatMessageString, PhysicalLocation, PropertyBag,
    Region, ReportingDescriptor, Result as SarifResult, ResultKind, ResultLevel, Run, Sarif, Tool,
    ToolComponent,
};
use std::collections::BTreeMap;

const RULE: &str = "spark-plan-node";

/// The job's mappings as one SARIF log (unmapped nodes have no location and are left out).
pub fn to_sarif(job: &Job) -> Sarif {
    let results: Vec<SarifResult> = job
        .result
        .iter()
        .flat_map(|r| &r.mappings)
        .filter_map(result_of)
        .collect();
    let rule = ReportingDescriptor::builder()
        .id(RULE)
        .name("SparkPlanNode")
        .short_description(
            MultiformatMessageString::builder()
                .text("Code that produced a node of a Spark physical plan")
                .build(),
        )
        .build();
    let driver = ToolComponent::builder()
        .name("plan2code")
        .version(env!("CARGO_PKG_VERSION"))
        .rules(vec![rule])
        .build();
    let run = Run::builder()
        .tool(Tool::builder().driver(driver).build())
        .results(results)
        .build();
    Sarif::builder()
        .schema(serde_sarif::sarif::SCHEMA_URL)
        .version(serde_json::json!("2.1.0"))
        .runs(vec![run])
        .build()
}

fn result_of(mapping: &MappingOutput) -> Option<SarifResult> {
    let code = mapping.mapped_code.as_ref()?;
    let (start, end) = code.lines.split_once('-')?;
    let (start, end): (i64, i64) = (start.parse().ok()?, end.parse().ok()?);
    let node = match mapping.execution_id {
        Some(execution) => format!("node {} of execution {execution}", mapping.dag_node_id),
        None => format!("node {}", mapping.dag_node_id),
    };
    let text = format!("{} ({node}): {}", mapping.node_name, mapping.explanation);
    let location = Location::builder()
        .physical_location(
            PhysicalLocation::builder()
                .artifact_location(
                    ArtifactLocation::builder()
                        .uri(code.file.as_str())
                        .uri_base_id("%SRCROOT%")
                        .build(),
                )
                .region(Region::builder().start_line(start).end_line(end).build())
                .build(),
        )
        .build();
    let mut properties: BTreeMap<String, serde_json::Value> = BTreeMap::new();
    properties.insert("dagNodeId".into(), mapping.dag_node_id.clone().into());
    if let Some(execution) = mapping.execution_id {
        properties.insert("executionId".into(), execution.into());
    }
    properties.insert("confidence".into(), mapping.confidence.into());
    properties.insert(
        "confidenceStatus".into(),
        match mapping.confidence_status {
            ConfidenceStatus::Confirmed => "confirmed",
            ConfidenceStatus::Probable => "probable",
            ConfidenceStatus::Uncertain => "uncertain",
        }
        .into(),
    );
    properties.insert(
        "nodeKind".into(),
        match mapping.node_kind {
            NodeKind::Code => "code",
            NodeKind::Engine => "engine",
        }
        .into(),
    );
    Some(
        SarifResult::builder()
            .rule_id(RULE)
            .kind(ResultKind::Informational)
            .level(ResultLevel::Note)
            .message(Message::builder().text(text).build())
            .locations(vec![location])
            .properties(
                PropertyBag::builder()
                    .additional_properties(properties)
                    .build(),
            )
            .build(),
    )
}
