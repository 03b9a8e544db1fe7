//! Node 5, `reasoning_agent`: choose among the top three filtered candidates and say why.
//!
//! The [`Reasoner`] port has two implementations: the deterministic evidence reasoner here (the
//! default: offline, free, reproducible) and an OpenAI-compatible chat model (consulted only when
//! the deterministic reasoner finds the choice ambiguous). Either way the model proposes and code
//! decides: a proposal must name one of the offered candidates.

use super::retrieve::Candidate;
use super::semantics::SemanticDescription;
use serde::{Deserialize, Serialize};

/// How sure the reasoner is, in words (kept next to the number for explanations).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ConfidenceLevel {
    High,
    Medium,
    Low,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    /// Index into the offered candidates.
    pub best: usize,
    pub reasoning: String,
    pub confidence_level: ConfidenceLevel,
    /// 0–1, reported as `llmConfidence`.
    pub confidence: f64,
    /// Tokens spent (0 for the deterministic reasoner).
    pub tokens_used: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum ReasonError {
    #[error("LLM endpoint rate-limited the request (HTTP 429)")]
    RateLimited,
    #[error("LLM budget exhausted: spent ${spent:.4} of ${limit:.2}")]
    BudgetExhausted { spent: f64, limit: f64 },
    #[error("LLM request failed: {0}")]
    Transport(String),
}

impl crate::error::Named for ReasonError {
    fn error_name(&self) -> crate::error::ErrorName {
        match self {
            ReasonError::RateLimited => crate::error::ErrorName::LlmRateLimit,
            _ => crate::error::ErrorName::Internal,
        }
    }
}

/// Chooses the best of a node's top candidates.
pub trait Reasoner: Send + Sync {
    fn decide(&self, sem: &SemanticDescription, top: &[Candidate])
    -> Result<Decision, ReasonError>;
}

/// The default reasoner: weighs the evidence each candidate carries, its place in the plan's data
/// flow and its syntax, and explains the choice in those terms.
#[derive(Debug, Default, Clone, Copy)]
pub struct EvidenceReasoner;

/// Merit difference under which a candidate that is other code is the chosen one's twin.
const TWIN_MARGIN: f64 = 0.005;
/// The reasoner's confidence when a twin exists: as likely wrong as right.
const TWIN_CONFIDENCE: f64 = 0.5;

/// The blended merit of a candidate once node 4 has scored it.
pub fn merit(c: &Candidate) -> f64 {
    0.7 * c.retrieval_score + 0.3 * c.ast_score
}

/// A candidate explaining the node as well as `top[best]` (within [`TWIN_MARGIN`] of its
/// merit) that is other code: in another file (a look-alike script), or a statement of the same
/// file on another frame (`train.describe().show()` beside `test.describe().show()`). The choice
/// between them is a coin toss. Statements of one file on the same frame that explain a node
/// alike plan alike (`df.select("a")`, `df.select(col("a"))`): either is right. A test's copy
/// of the chosen code ([`Candidate::test_copy`]) is a twin too: only the prior favouring the
/// code under test, not the plan, put the chosen one first.
pub fn twin_of(top: &[Candidate], best: usize) -> Option<&Candidate> {
    let chosen = top.get(best)?;
    let other_code = |c: &Candidate| {
        c.file != chosen.file
            || (c.start, c.end) != (chosen.start, chosen.end) && !same_query(c, chosen)
    };
    top.iter().enumerate().find_map(|(i, c)| {
        let alike = merit(chosen) - merit(c) < TWIN_MARGIN || c.test_copy;
        (i != best && other_code(c) && alike).then_some(c)
    })
}

/// Whether two sites of one file are one query: clauses of one SQL statement, or statements on
/// the same frame. Two SQL statements are two queries, however alike their clauses read
/// (`ON o.id = c.id` in each of two joins).
fn same_query(a: &Candidate, b: &Candidate) -> bool {
    match (a.sql_statement, b.sql_statement) {
        (Some(a), Some(b)) => a == b,
        _ => statement_frame(&a.snippet) == statement_frame(&b.snippet),
    }
}

/// The frame a statement starts from: the first name of its expression, past an assignment
/// (`test_data` in `result = test_data.describe()`, `val x = df.filter(…)`).
fn statement_frame(snippet: &str) -> &str {
    let first = snippet.lines().next().unwrap_or("").trim();
    let expression = match first.find('=') {
        Some(at) if !first[..at].contains(['(', '.', '"', '\'', '<', '>', '!']) => {
            first[at + 1..].trim_start()
        }
        _ => first,
    };
    let end = expression
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(expression.len());
    &expression[..end]
}

impl EvidenceReasoner {
    /// Whether the choice is close enough that a second opinion (an LLM) could help: the two best
    /// are within 0.05 in merit and stand alike in the plan's data flow (within 0.05 too — an
    /// application's pull moves a flow by a hundredth, which tells look-alikes apart no better).
    pub fn is_ambiguous(top: &[Candidate]) -> bool {
        match top {
            [a, b, ..] => merit(a) - merit(b) < 0.05 && (a.flow - b.flow).abs() < 0.05,
            _ => false,
        }
    }
}

impl Reasoner for EvidenceReasoner {
    fn decide(
        &self,
        sem: &SemanticDescription,
        top: &[Candidate],
    ) -> Result<Decision, ReasonError> {
        // Of candidates explaining the node alike (within [`TWIN_MARGIN`] of the best merit),
        // the one standing where the plan's tree aligns with the code's data flow: a tie goes to
        // the query the plan was localised to, not to its translation.
        let best_merit = top.iter().map(merit).fold(f64::MIN, f64::max);
        let Some((best, chosen)) = top
            .iter()
            .enumerate()
            .filter(|(_, c)| best_merit - merit(c) < TWIN_MARGIN)
            .max_by(|a, b| {
                a.1.flow
                    .total_cmp(&b.1.flow)
                    .then(merit(a.1).total_cmp(&merit(b.1)))
                    .then(b.0.cmp(&a.0))
            })
        else {
            return Ok(Decision {
                best: 0,
                reasoning: format!("No code in the repository can produce {}.", sem.node_name),
                confidence_level: ConfidenceLevel::Low,
                confidence: 0.0,
                tokens_used: 0,
            });
        };
        let runner_up = top
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != best)
            .map(|(_, c)| merit(c))
            .fold(0.0, f64::max);
        let margin = (merit(chosen) - runner_up).max(0.0);
        // Other code explaining the node just as well (a look-alike script or statement): the
        // choice between them is a coin toss, and the confidence says so.
        let twin = twin_of(top, best);
        let mut confidence = (0.15
            + 0.35 * chosen.keyword_match
            + 0.30 * chosen.flow
            + 0.20 * (margin / 0.25).min(1.0))
        .clamp(0.0, 1.0);
        if twin.is_some() {
            confidence = confidence.min(TWIN_CONFIDENCE);
        }
        let level = match confidence {
            c if c >= 0.75 => ConfidenceLevel::High,
            c if c >= 0.5 => ConfidenceLevel::Medium,
            _ => ConfidenceLevel::Low,
        };
        let mut reasons = Vec::new();
        if !chosen.matched.is_empty() {
            reasons.push(format!("it mentions {}", chosen.matched.join(", ")));
        }
        if chosen.flow >= 1.0 {
            reasons
                .push("it sits where the plan's tree aligns with the code's data flow".to_owned());
        } else if chosen.flow > 0.0 {
            reasons.push("it belongs to the query this plan was localised to".to_owned());
        }
        reasons.push(format!(
            "its construct ({}) can produce {}",
            chosen.construct, sem.operator
        ));
        if let Some(other) = twin {
            reasons.push(format!(
                "but {}:{}-{} explains it equally well",
                other.file, other.start, other.end
            ));
        } else if top.len() > 1 {
            reasons.push(format!("it leads the runner-up by {margin:.2}"));
        }
        Ok(Decision {
            best,
            reasoning: format!(
                "Chose {}:{}-{} because {}.",
                chosen.file,
                chosen.start,
                chosen.end,
                reasons.join("; ")
            ),
            confidence_level: level,
            confidence,
            tokens_used: 0,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contracts::NodeKind;
    use crate::plan::OperatorFamily;

    fn sem() -> SemanticDescription {
        SemanticDescription {
            execution_id: None,
            dag_node_id: "1".into(),
            node_name: "LocalTableScan".into(),
            operator: "LocalTableScan".into(),
            family: OperatorFamily::Scan,
            node_kind: NodeKind::Code,
            behaviour: "Scans local rows.".into(),
            signature: vec![("column".into(), "salary".into())],
            query_terms: vec!["salary".into()],
            induced_by: None,
        }
    }

    fn candidate(site: usize, file: &str, retrieval_score: f64) -> Candidate {
        Candidate {
            site,
            file: file.into(),
            symbol: None,
            start: 28,
            end: 28,
            snippet: "val df = data.toDF(\"salary\")".into(),
            construct: "call .toDF(…)".into(),
            sql_statement: None,
            structural: 1.0,
            lexical: 1.0,
            flow: 1.0,
            retrieval_score,
            keyword_match: 1.0,
            matched: vec!["column:salary".into()],
            ast_score: 1.0,
            test_copy: false,
        }
    }

    #[test]
    fn a_tie_goes_to_the_site_where_the_plan_aligns_with_the_code() {
        // a translation in another file reads a hair better than the aligned site
        let aligned = candidate(1, "queries/q3.sql", 0.900);
        let translation = Candidate {
            flow: 0.95,
            ..candidate(2, "scala/Q3.scala", 0.903)
        };
        let decision = EvidenceReasoner
            .decide(&sem(), &[translation.clone(), aligned.clone()])
            .unwrap();
        assert_eq!(decision.best, 1, "{}", decision.reasoning);
        assert!(decision.reasoning.contains("explains it equally well"));
        // … while a clearly better site elsewhere still wins
        let better = Candidate {
            flow: 0.95,
            ..candidate(2, "scala/Q3.scala", 0.95)
        };
        let decision = EvidenceReasoner.decide(&sem(), &[better, aligned]).unwrap();
        assert_eq!(decision.best, 0, "{}", decision.reasoning);
    }

    #[test]
    fn an_equally_good_site_in_another_file_halves_the_reasoners_confidence() {
        let alone = [
            candidate(0, "a/Job.scala", 1.0),
            candidate(1, "a/Job.scala", 0.5),
        ];
        let sure = EvidenceReasoner.decide(&sem(), &alone).unwrap();
        assert!(sure.confidence > 0.9, "{}", sure.confidence);
        let twins = [
            candidate(0, "a/Job.scala", 1.0),
            candidate(1, "b/Job.scala", 1.0),
        ];
        let torn = EvidenceReasoner.decide(&sem(), &twins).unwrap();
        assert!(torn.confidence <= TWIN_CONFIDENCE, "{}", torn.confidence);
        assert!(torn.reasoning.contains("b/Job.scala"), "{}", torn.reasoning);
        // The same tie inside one file (two identical statements) is no twin: both are right.
        let same_file = [
            candidate(0, "a/Job.scala", 1.0),
            candidate(1, "a/Job.scala", 1.0),
        ];
        let tied = EvidenceReasoner.decide(&sem(), &same_file).unwrap();
        assert!(tied.confidence > TWIN_CONFIDENCE, "{}", tied.confidence);
        // … and so is another statement on the same frame; one on another frame is a twin.
        let mut other = candidate(1, "a/Job.scala", 1.0);
        other.start = 40;
        other.end = 40;
        other.snippet = "data.toDF(\"salary\").show()".into();
        let moved = EvidenceReasoner
            .decide(&sem(), &[candidate(0, "a/Job.scala", 1.0), other.clone()])
            .unwrap();
        assert!(moved.confidence > TWIN_CONFIDENCE, "{}", moved.confidence);
        other.snippet = "val df = other.toDF(\"salary\")".into();
        let torn = EvidenceReasoner
            .decide(&sem(), &[candidate(0, "a/Job.scala", 1.0), other])
            .unwrap();
        assert!(torn.confidence <= TWIN_CONFIDENCE, "{}", torn.confidence);
    }

    #[test]
    fn a_tests_copy_is_a_twin_whatever_the_test_prior_costs_its_merit() {
        let job = candidate(0, "jobs/Job.scala", 1.0);
        // the test prior leaves the copy well behind on merit …
        let copy = Candidate {
            ast_score: 0.8,
            ..candidate(1, "tests/JobSpec.scala", 0.9)
        };
        let sure = EvidenceReasoner
            .decide(&sem(), &[job.clone(), copy.clone()])
            .unwrap();
        assert!(sure.confidence > TWIN_CONFIDENCE, "{}", sure.confidence);
        // … but localisation found it the job's copy on the same evidence: a coin toss
        let copy = Candidate {
            test_copy: true,
            ..copy
        };
        let torn = EvidenceReasoner.decide(&sem(), &[job, copy]).unwrap();
        assert_eq!(torn.best, 0, "{}", torn.reasoning);
        assert!(torn.confidence <= TWIN_CONFIDENCE, "{}", torn.confidence);
        assert!(
            torn.reasoning.contains("tests/JobSpec.scala"),
            "{}",
            torn.reasoning
        );
    }

    #[test]
    fn alike_clauses_of_two_sql_statements_in_one_file_are_twins() {
        let clause = |site: usize, line: u32, statement: usize| Candidate {
            start: line,
            end: line,
            snippet: "ON o.customer_id = c.customer_id".into(),
            construct: "SQL JoinPredicate".into(),
            sql_statement: Some(statement),
            ..candidate(site, "src/JoinTest.java", 1.0)
        };
        // two joins written alike in two queries: a coin toss
        let torn = EvidenceReasoner
            .decide(&sem(), &[clause(0, 277, 3), clause(1, 299, 4)])
            .unwrap();
        assert!(torn.confidence <= TWIN_CONFIDENCE, "{}", torn.confidence);
        // two clauses of one query explaining the node alike: either is right
        let one_query = EvidenceReasoner
            .decide(&sem(), &[clause(0, 276, 3), clause(1, 277, 3)])
            .unwrap();
        assert!(
            one_query.confidence > TWIN_CONFIDENCE,
            "{}",
            one_query.confidence
        );
    }

    #[test]
    fn a_statements_frame_is_the_first_name_of_its_expression() {
        assert_eq!(statement_frame("test_data.describe().show()"), "test_data");
        assert_eq!(
            statement_frame("result = test_data.describe()"),
            "test_data"
        );
        assert_eq!(statement_frame("val df = data.toDF(\"a\")"), "data");
        assert_eq!(statement_frame("df.filter(df.x == 1).show()"), "df");
        assert_eq!(statement_frame("  spark.sql(\"SELECT 1\")"), "spark");
    }

    #[test]
    fn near_equal_candidates_standing_alike_in_the_flow_are_ambiguous() {
        let mut pulled = candidate(1, "b/Job.scala", 0.99);
        pulled.flow = 0.99; // an application's pull, not a place in the plan's flow
        assert!(EvidenceReasoner::is_ambiguous(&[
            candidate(0, "a/Job.scala", 1.0),
            pulled.clone()
        ]));
        let mut outside = pulled;
        outside.flow = 0.5;
        assert!(!EvidenceReasoner::is_ambiguous(&[
            candidate(0, "a/Job.scala", 1.0),
            outside
        ]));
        assert!(!EvidenceReasoner::is_ambiguous(&[
            candidate(0, "a/Job.scala", 1.0),
            candidate(1, "a/Job.scala", 0.8)
        ]));
    }
}
