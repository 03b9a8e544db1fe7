//! Node 6, `confidence_gate`: one number and a band from the factors.
//!
//! The raw score is DESIGN's formula: `0.30·embedding + 0.20·ast + 0.40·llm + 0.10·keyword −
//! 0.10 if a close alternative exists`, clamped to 0–1. "Close" means a runner-up whose merit is
//! within [`ConfidenceConfig::close_alternative`] of the chosen candidate's: a distant runner-up
//! is listed for the user but does not lower confidence. The confidence reported is the raw score
//! through the [`calibration`] map — the share of answers right at that score on the benchmark —
//! and at most [`calibration::COIN_TOSS`] when other code explains the node equally well; the
//! factors stay visible beside it. `CONFIDENCE_CALIBRATION=off` reports the raw score (what the
//! map is fitted on). Bands: confirmed ≥ high, probable ≥ low, uncertain below (defaults 0.90 /
//! 0.50, configurable through the environment): confirmed means right at least nine times in ten,
//! uncertain more likely wrong than right.

use super::calibration;

use crate::contracts::{ConfidenceFactors, ConfidenceStatus};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfidenceConfig {
    pub threshold_high: f64,
    pub threshold_low: f64,
    pub close_alternative: f64,
    /// Whether the raw score goes through the calibration map (off: DESIGN's formula as is).
    #[serde(default = "calibrate_by_default")]
    pub calibrate: bool,
}

fn calibrate_by_default() -> bool {
    true
}

impl Default for ConfidenceConfig {
    fn default() -> Self {
        Self {
            threshold_high: 0.90,
            threshold_low: 0.50,
            close_alternative: 0.10,
            calibrate: true,
        }
    }
}

/// How the chosen candidate stands against the others, as the gate weighs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rivals {
    /// A runner-up's merit is within [`ConfidenceConfig::close_alternative`].
    pub close: bool,
    /// Other code explains the node equally well ([`super::reason::twin_of`]).
    pub twin: bool,
    /// … and that code is in another language: a translation of the query (a book's Python
    /// and SQL chapter twins), not a copy ([`calibration::TRANSLATION_TOSS`]).
    pub translation: bool,
}

/// DESIGN's formula, clamped to 0–1: what the calibration map is fitted on.
pub fn raw_score(factors: &ConfidenceFactors, close_alternative: bool) -> f64 {
    (0.30 * factors.embedding_score
        + 0.20 * factors.ast_score
        + 0.40 * factors.llm_confidence
        + 0.10 * factors.keyword_match
        - if close_alternative { 0.10 } else { 0.0 })
    .clamp(0.0, 1.0)
}

/// The gate's verdict.
pub fn confidence_gate(
    factors: &ConfidenceFactors,
    rivals: Rivals,
    config: &ConfidenceConfig,
) -> (f64, ConfidenceStatus) {
    let raw = raw_score(factors, rivals.close);
    let mut confidence = if config.calibrate {
        calibration::calibrated(raw)
    } else {
        raw
    };
    if rivals.twin && config.calibrate {
        confidence = confidence.min(if rivals.translation {
            calibration::TRANSLATION_TOSS
        } else {
            calibration::COIN_TOSS
        });
    }
    let confidence = (confidence * 1000.0).round() / 1000.0;
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

    const RAW: ConfidenceConfig = ConfidenceConfig {
        threshold_high: 0.75,
        threshold_low: 0.50,
        close_alternative: 0.10,
        calibrate: false,
    };
    const CLOSE: Rivals = Rivals {
        close: true,
        twin: false,
        translation: false,
    };

    #[test]
    fn formula_and_bands() {
        let f = ConfidenceFactors {
            embedding_score: 1.0,
            ast_score: 1.0,
            llm_confidence: 1.0,
            keyword_match: 1.0,
        };
        let cfg = RAW;
        assert_eq!(
            confidence_gate(&f, Rivals::default(), &cfg),
            (1.0, ConfidenceStatus::Confirmed)
        );
        assert_eq!(
            confidence_gate(&f, CLOSE, &cfg),
            (0.9, ConfidenceStatus::Confirmed)
        );
        let mid = ConfidenceFactors {
            embedding_score: 0.5,
            ast_score: 0.5,
            llm_confidence: 0.6,
            keyword_match: 0.5,
        };
        assert_eq!(
            confidence_gate(&mid, Rivals::default(), &cfg),
            (0.54, ConfidenceStatus::Probable)
        );
        assert_eq!(
            confidence_gate(&mid, CLOSE, &cfg).1,
            ConfidenceStatus::Uncertain
        );
        let zero = ConfidenceFactors::default();
        assert_eq!(
            confidence_gate(&zero, CLOSE, &cfg),
            (0.0, ConfidenceStatus::Uncertain)
        );
    }

    #[test]
    fn the_reported_confidence_is_the_calibrated_raw_score_and_a_coin_toss_is_capped() {
        let f = ConfidenceFactors {
            embedding_score: 0.8,
            ast_score: 0.9,
            llm_confidence: 0.7,
            keyword_match: 0.6,
        };
        let cfg = ConfidenceConfig::default();
        let raw = raw_score(&f, false);
        let (confidence, status) = confidence_gate(&f, Rivals::default(), &cfg);
        assert!((confidence - calibration::calibrated(raw)).abs() < 1e-3);
        assert!(confidence > raw, "the formula's middle was under-confident");
        assert_eq!(status, ConfidenceStatus::Confirmed);
        let twin = Rivals {
            close: true,
            twin: true,
            translation: false,
        };
        let (torn, status) = confidence_gate(&f, twin, &cfg);
        assert_eq!(torn, calibration::COIN_TOSS);
        assert_eq!(
            status,
            ConfidenceStatus::Probable,
            "a coin toss is never confirmed"
        );
        // a tie with a translation in another language is right more often, never confirmed
        let translation = Rivals {
            translation: true,
            ..twin
        };
        let (likely, status) = confidence_gate(&f, translation, &cfg);
        assert_eq!(likely, calibration::TRANSLATION_TOSS);
        assert!(likely > torn);
        assert_ne!(status, ConfidenceStatus::Confirmed);
        let off = ConfidenceConfig {
            calibrate: false,
            ..cfg
        };
        assert_eq!(
            confidence_gate(&f, twin, &off).0,
            (raw_score(&f, true) * 1000.0).round() / 1000.0
        );
    }
}
