//! Node 7, `final_mapping`: assemble the [`MappingOutput`] and persist it exactly once.
//!
//! The write is keyed by `(jobId, dagNodeId)` and conditional, so a retried FinalMapping neither
//! duplicates the mapping nor counts it twice in the job's statistics; only the write that created
//! the item appends the `mapping_finalized` event.

use super::confidence::{ConfidenceConfig, Rivals, confidence_gate};
use super::library::BUILT_BY_LIBRARY;
use super::reason::{Decision, merit, twin_of};
use super::retrieve::Candidate;
use super::semantics::SemanticDescription;
use super::sites::SiteTable;
use crate::contracts::{
    Alternative, CodeLocation, ConfidenceFactors, ConfidenceStatus, EventType, MappingOutput,
    NodeKind,
};
use crate::ports::{JobStore, StoreError};

const SNIPPET_CAP: usize = 2000;

fn location(c: &Candidate) -> CodeLocation {
    let mut snippet = c.snippet.clone();
    if snippet.len() > SNIPPET_CAP {
        let cut = (0..=SNIPPET_CAP)
            .rev()
            .find(|i| snippet.is_char_boundary(*i))
            .unwrap_or(0);
        snippet.truncate(cut);
        snippet.push('…');
    }
    CodeLocation {
        file: c.file.clone(),
        symbol: c.symbol.clone(),
        lines: format!("{}-{}", c.start, c.end),
        code_snippet: snippet,
    }
}

/// Build the node's answer from the reasoner's decision over `top` (nodes 5 → 6 → 7).
pub fn assemble_mapping(
    sem: &SemanticDescription,
    top: &[Candidate],
    decision: &Decision,
    config: &ConfidenceConfig,
    table: &SiteTable,
) -> MappingOutput {
    let Some(chosen) = top.get(decision.best) else {
        return MappingOutput {
            execution_id: sem.execution_id,
            dag_node_id: sem.dag_node_id.clone(),
            node_name: sem.node_name.clone(),
            node_kind: sem.node_kind,
            mapped_code: None,
            confidence: 0.0,
            confidence_status: ConfidenceStatus::Uncertain,
            confidence_factors: ConfidenceFactors::default(),
            explanation: match sem.node_kind {
                NodeKind::Engine => {
                    format!("{} {}", sem.behaviour, "No user statement induced it.")
                }
                NodeKind::Code => format!("{} {}", sem.behaviour, decision.reasoning),
            },
            alternatives: Vec::new(),
            error: None,
        };
    };
    let factors = ConfidenceFactors {
        embedding_score: round3(chosen.retrieval_score),
        ast_score: round3(chosen.ast_score),
        llm_confidence: round3(decision.confidence),
        keyword_match: round3(chosen.keyword_match),
    };
    let twin = twin_of(top, decision.best);
    let rivals = Rivals {
        close: top.iter().enumerate().any(|(i, c)| {
            i != decision.best && merit(chosen) - merit(c) < config.close_alternative
        }),
        twin: twin.is_some()
            // rows of scanned objects left to the `toDF`: whether Spark kept every field (the
            // `toDF`'s) or pruned them for a later statement, the plan does not say
            || sem.may_be_pruned_objects(),
        translation: twin.is_some_and(|t| {
            table.other_language(table.sites[t.site].file, table.sites[chosen.site].file)
        }),
    };
    let (confidence, status) = confidence_gate(&factors, rivals, config);
    let alternatives = top
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != decision.best)
        .take(2)
        .map(|(_, c)| Alternative {
            location: location(c),
            confidence: round3((confidence * merit(c) / merit(chosen).max(1e-9)).min(confidence)),
            reason: if c.matched.is_empty() {
                format!(
                    "{} can produce {} but shares no evidence with it",
                    c.construct, sem.operator
                )
            } else {
                format!("{} mentions {}", c.construct, c.matched.join(", "))
            },
        })
        .collect();
    let explanation = match (&sem.induced_by, sem.node_kind) {
        (Some(consumer), NodeKind::Engine) => format!(
            "{} It has no code of its own; it is an {}. Shown: the statement of that operator. {}",
            sem.behaviour, consumer.reason, decision.reasoning
        ),
        (Some(consumer), NodeKind::Code) if consumer.reason.starts_with(BUILT_BY_LIBRARY) => {
            format!(
                "{} It was {}, so it maps to that operator's code. {}",
                sem.behaviour, consumer.reason, decision.reasoning
            )
        }
        (Some(consumer), NodeKind::Code) => format!(
            "{} The planner inserted it ({}), so it maps to that operator's code{}. {}",
            sem.behaviour,
            consumer.reason,
            if sem.may_be_pruned_objects() {
                " — unless Spark pruned it to the columns a later statement reads, which then \
                 produced it"
            } else {
                ""
            },
            decision.reasoning
        ),
        (None, _) => format!("{} {}", sem.behaviour, decision.reasoning),
    };
    MappingOutput {
        execution_id: sem.execution_id,
        dag_node_id: sem.dag_node_id.clone(),
        node_name: sem.node_name.clone(),
        node_kind: sem.node_kind,
        mapped_code: Some(location(chosen)),
        confidence,
        confidence_status: status,
        confidence_factors: factors,
        explanation,
        alternatives,
        error: None,
    }
}

fn round3(x: f64) -> f64 {
    (x.clamp(0.0, 1.0) * 1000.0).round() / 1000.0
}

/// Persist a node's mapping once and announce it. Returns whether this call wrote it.
pub fn final_mapping(
    store: &dyn JobStore,
    job_id: &str,
    mapping: &MappingOutput,
) -> Result<bool, StoreError> {
    let announced = store.put_mapping_announced(
        job_id,
        mapping,
        EventType::MappingFinalized,
        serde_json::json!({
            "dagNodeId": mapping.dag_node_id,
            "nodeName": mapping.node_name,
            "nodeKind": mapping.node_kind,
            "confidence": mapping.confidence,
            "confidenceStatus": mapping.confidence_status,
            "lines": mapping.mapped_code.as_ref().map(|m| format!("{}:{}", m.file, m.lines)),
        }),
    )?;
    Ok(announced.is_some())
}
