//! Node 6, `confidence_gate`: one number and a band from the factors.
//!
//! `confidence = 0.30·embedding + 0.20·ast + 0.40·llm + 0.10·keyword − 0.10 if a close
//! alternative exists`, clamped to 0–1. "Close" means a runner-up whose merit is within
//! [`ConfidenceConfig::close_alternative`] of the chosen candidate's: a distant runner-up is
//! listed for the user but does not lower confidence. Bands: confirmed ≥ high, probable ≥ low,
//! uncertain below (defaults 0.75 / 0.50, configurable through the environment).

use crate::contracts::{ConfidenceFactors, ConfidenceStatus};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfidenceConfig {
    pub threshold_high: f64,
    pub threshold_low: f64,
    pub close_alternative: f64,
}

impl Default for ConfidenceConfig {
    fn default() -> Self {
        Self {
            threshold_high: 0.75,
            threshold_low: 0.50,
            close_alternative: 0.10,
        }
    }
}

/// The gate's verdict.
pub fn confidence_gate(
    factors: &ConfidenceFactors,
    close_alternative: bool,
    config: &ConfidenceConfig,
) -> (f64, ConfidenceStatus) {
    let raw = 0.30 * factors.embedding_score
        + 0.20 * factors.ast_score
        + 0.40 * factors.llm_confidence
        + 0.10 * factors.keyword_match
        - if close_alternative { 0.10 } else { 0.0 };
    let confidence = (raw.clamp(0.0, 1.0) * 1000.0).round() / 1000.0;
    let status = if confidence >= config.threshold_high {
        ConfidenceStatus::Confirmed
    } else if confidence >= config.threshold_low {
        ConfidenceStatus::Probable
    } else {
        ConfidenceStatus::Uncertain
    };
    (confidence, status)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_and_bands() {
        let f = ConfidenceFactors {
            embedding_score: 1.0,
            ast_score: 1.0,
            llm_confidence: 1.0,
            keyword_match: 1.0,
        };
        let cfg = ConfidenceConfig::default();
        assert_eq!(
            confidence_gate(&f, false, &cfg),
            (1.0, ConfidenceStatus::Confirmed)
        );
        assert_eq!(
            confidence_gate(&f, true, &cfg),
            (0.9, ConfidenceStatus::Confirmed)
        );
        let mid = ConfidenceFactors {
            embedding_score: 0.5,
            ast_score: 0.5,
            llm_confidence: 0.6,
            keyword_match: 0.5,
        };
        assert_eq!(
            confidence_gate(&mid, false, &cfg),
            (0.54, ConfidenceStatus::Probable)
        );
        assert_eq!(
            confidence_gate(&mid, true, &cfg).1,
            ConfidenceStatus::Uncertain
        );
        let zero = ConfidenceFactors::default();
        assert_eq!(
            confidence_gate(&zero, true, &cfg),
            (0.0, ConfidenceStatus::Uncertain)
        );
    }
}
