//! Settings from the environment, read in one place with one policy.
//!
//! Every entry point — `plan2code map`, `plan2code serve`, each Lambda — builds its pipeline from
//! these functions at start-up. The policy is the same everywhere: a variable that is unset (or
//! blank) means its default; a variable that is set but cannot be read is a [`SettingsError`]
//! naming it, so a typo fails the start instead of silently running with a default. The LLM
//! reasoner is all or nothing: `LLM_BASE_URL` and `LLM_MODEL` together turn it on, one without
//! the other is an error.
//!
//! | variable | default | what |
//! |---|---|---|
//! | `RETRIEVAL_TOP_K` | 10 | candidates per node |
//! | `CONFIDENCE_THRESHOLD_HIGH` / `_LOW` | 0.90 / 0.50 | band thresholds |
//! | `CONFIDENCE_CALIBRATION` | `on` | `off` reports DESIGN's raw formula (to refit the map) |
//! | `MAX_PARALLEL_NODES` | 5 | the Map state's concurrency (at least 1) |
//! | `PLAN2CODE_MAX_RUNNING_JOBS` | 4 | jobs `serve` runs at once; the rest wait as `queued` |
//! | `LLM_BASE_URL`, `LLM_MODEL`, `LLM_API_KEY` | unset | the optional LLM reasoner |
//! | `MAX_JOB_COST_USD` | 5.0 | LLM spend cap per job |
//! | `LLM_PRICE_INPUT_PER_MTOK` / `_OUTPUT_` | 2.5 / 10.0 | prices for the spend count |
//! | `LLM_TIMEOUT_SECONDS` | 30 | per LLM request |

use crate::error::{ErrorName, Named};
use crate::pipeline::PipelineConfig;
use crate::pipeline::llm::{LlmConfig, LlmReasoner};
use crate::pipeline::reason::{EvidenceReasoner, Reasoner};
use std::str::FromStr;
use std::sync::Arc;

/// A setting that is present but unusable.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SettingsError {
    #[error("{name}={value:?} is not {expected}")]
    Unreadable {
        name: &'static str,
        value: String,
        expected: &'static str,
    },
    #[error("{set} is set but {missing} is not: the LLM reasoner needs both (or neither)")]
    Incomplete {
        set: &'static str,
        missing: &'static str,
    },
    #[error("the LLM reasoner could not be set up: {0}")]
    Reasoner(String),
}

impl Named for SettingsError {
    fn error_name(&self) -> ErrorName {
        ErrorName::InvalidInput
    }
}

/// The variable's value, or `None` when it is unset or blank.
pub fn text(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.trim().is_empty())
}

/// The variable parsed as `T`, `default` when unset; an error when set but unreadable.
pub fn number<T: FromStr>(
    name: &'static str,
    default: T,
    expected: &'static str,
) -> Result<T, SettingsError> {
    match text(name) {
        None => Ok(default),
        Some(value) => value.trim().parse().map_err(|_| SettingsError::Unreadable {
            name,
            value,
            expected,
        }),
    }
}

/// `RETRIEVAL_TOP_K`, `CONFIDENCE_THRESHOLD_HIGH`, `CONFIDENCE_THRESHOLD_LOW`,
/// `CONFIDENCE_CALIBRATION`.
pub fn pipeline_config() -> Result<PipelineConfig, SettingsError> {
    let mut config = PipelineConfig::default();
    config.top_k = number("RETRIEVAL_TOP_K", config.top_k, "a whole number")?;
    let threshold = |name, default| number(name, default, "a number between 0 and 1");
    config.confidence.threshold_high = threshold(
        "CONFIDENCE_THRESHOLD_HIGH",
        config.confidence.threshold_high,
    )?;
    config.confidence.threshold_low =
        threshold("CONFIDENCE_THRESHOLD_LOW", config.confidence.threshold_low)?;
    config.confidence.calibrate = match text("CONFIDENCE_CALIBRATION") {
        None => config.confidence.calibrate,
        Some(value) => match value.trim() {
            "on" => true,
            "off" => false,
            _ => {
                return Err(SettingsError::Unreadable {
                    name: "CONFIDENCE_CALIBRATION",
                    value,
                    expected: "on or off",
                });
            }
        },
    };
    Ok(config)
}

/// `MAX_PARALLEL_NODES`, default 5, at least 1.
pub fn max_parallel_nodes() -> Result<u32, SettingsError> {
    Ok(number("MAX_PARALLEL_NODES", 5u32, "a whole number")?.max(1))
}

/// `PLAN2CODE_MAX_RUNNING_JOBS`, default 4, at least 1: how many jobs `serve` runs at once.
pub fn max_running_jobs() -> Result<usize, SettingsError> {
    Ok(number("PLAN2CODE_MAX_RUNNING_JOBS", 4usize, "a whole number")?.max(1))
}

/// The reasoner the environment asks for: the LLM reasoner when `LLM_BASE_URL` and `LLM_MODEL`
/// are set, else the deterministic evidence reasoner.
pub fn reasoner() -> Result<Arc<dyn Reasoner>, SettingsError> {
    Ok(match LlmConfig::from_env()? {
        Some(config) => {
            Arc::new(LlmReasoner::new(config).map_err(|e| SettingsError::Reasoner(e.to_string()))?)
        }
        None => Arc::new(EvidenceReasoner),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Environment variables are process-wide: each test uses names no other test reads.
    #[test]
    fn unset_is_the_default_and_unreadable_is_an_error() {
        // SAFETY: test-only variables, read by no other thread.
        unsafe { std::env::remove_var("PLAN2CODE_TEST_SETTING_A") };
        assert_eq!(number("PLAN2CODE_TEST_SETTING_A", 7u32, "n"), Ok(7));
        unsafe { std::env::set_var("PLAN2CODE_TEST_SETTING_A", " 12 ") };
        assert_eq!(number("PLAN2CODE_TEST_SETTING_A", 7u32, "n"), Ok(12));
        unsafe { std::env::set_var("PLAN2CODE_TEST_SETTING_A", "twelve") };
        let err = number("PLAN2CODE_TEST_SETTING_A", 7u32, "a whole number").unwrap_err();
        assert_eq!(
            err.to_string(),
            "PLAN2CODE_TEST_SETTING_A=\"twelve\" is not a whole number"
        );
        assert_eq!(err.error_name(), ErrorName::InvalidInput);
        unsafe { std::env::remove_var("PLAN2CODE_TEST_SETTING_A") };
    }

    #[test]
    fn calibration_is_on_by_default_and_only_on_or_off_are_read() {
        // SAFETY: nextest runs each test in its own process; no other test reads this.
        unsafe { std::env::remove_var("CONFIDENCE_CALIBRATION") };
        assert!(pipeline_config().unwrap().confidence.calibrate);
        unsafe { std::env::set_var("CONFIDENCE_CALIBRATION", "off") };
        assert!(!pipeline_config().unwrap().confidence.calibrate);
        unsafe { std::env::set_var("CONFIDENCE_CALIBRATION", "no") };
        let err = pipeline_config().unwrap_err();
        assert_eq!(
            err.to_string(),
            "CONFIDENCE_CALIBRATION=\"no\" is not on or off"
        );
        unsafe { std::env::remove_var("CONFIDENCE_CALIBRATION") };
    }

    #[test]
    fn half_an_llm_setting_is_an_error_not_a_silent_fallback() {
        // SAFETY: nextest runs each test in its own process; no other test reads these.
        unsafe {
            std::env::set_var("LLM_BASE_URL", "http://127.0.0.1:9/v1");
            std::env::remove_var("LLM_MODEL");
        }
        let err = reasoner().err().expect("an error");
        assert_eq!(
            err,
            SettingsError::Incomplete {
                set: "LLM_BASE_URL",
                missing: "LLM_MODEL"
            }
        );
        unsafe { std::env::remove_var("LLM_BASE_URL") };
        assert!(reasoner().is_ok());
    }
}
