//! The optional LLM [`Reasoner`]: an OpenAI-compatible chat model as a second opinion.
//!
//! Consulted only for nodes the deterministic [`EvidenceReasoner`] finds ambiguous; everything
//! else never leaves the machine. The request asks for JSON only (`temperature` 0.1, at most 1000
//! tokens); the answer must be `{"best": <index of an offered candidate>, "reasoning": "…",
//! "confidence": 0..1}`. A malformed answer is repaired once (the first `{…}` object in the text
//! is re-parsed); if that fails too, or the proposal names no offered candidate, the deterministic
//! decision stands and the explanation says so — the model proposes, code decides.
//!
//! Tokens and their cost are counted against `MAX_JOB_COST_USD`; once spent, the reasoner stops
//! calling out. HTTP 429 surfaces as [`ReasonError::RateLimited`] (`LLM_RATE_LIMIT`, which the
//! state machine retries with backoff). The API key lives in [`Secret`], whose `Debug` and
//! `Display` never print it, and no error message includes request headers.

use super::reason::{ConfidenceLevel, Decision, EvidenceReasoner, ReasonError, Reasoner};
use super::retrieve::Candidate;
use super::semantics::SemanticDescription;
use crate::settings::{self, SettingsError};
use serde::Deserialize;
use std::sync::Mutex;
use std::time::Duration;

pub use crate::code::Secret;

#[derive(Debug, Clone)]
pub struct LlmConfig {
    /// `https://api.openai.com/v1` or any compatible endpoint (`LLM_BASE_URL`).
    pub base_url: String,
    pub api_key: Secret,
    pub model: String,
    /// `MAX_JOB_COST_USD`.
    pub max_job_cost_usd: f64,
    /// Prices per million tokens (`LLM_PRICE_INPUT_PER_MTOK`, `LLM_PRICE_OUTPUT_PER_MTOK`).
    pub price_input_per_mtok: f64,
    pub price_output_per_mtok: f64,
    pub timeout: Duration,
}

impl LlmConfig {
    /// From the environment (see [`crate::settings`]): `None` when neither `LLM_BASE_URL` nor
    /// `LLM_MODEL` is set; an error when only one is, or a number is unreadable.
    pub fn from_env() -> Result<Option<Self>, SettingsError> {
        let (base_url, model) = match (settings::text("LLM_BASE_URL"), settings::text("LLM_MODEL"))
        {
            (None, None) => return Ok(None),
            (Some(base_url), Some(model)) => (base_url, model),
            (Some(_), None) => {
                return Err(SettingsError::Incomplete {
                    set: "LLM_BASE_URL",
                    missing: "LLM_MODEL",
                });
            }
            (None, Some(_)) => {
                return Err(SettingsError::Incomplete {
                    set: "LLM_MODEL",
                    missing: "LLM_BASE_URL",
                });
            }
        };
        let amount = |name, default| settings::number(name, default, "a number");
        Ok(Some(Self {
            base_url,
            model,
            api_key: Secret::new(settings::text("LLM_API_KEY").unwrap_or_default()),
            max_job_cost_usd: amount("MAX_JOB_COST_USD", 5.0)?,
            price_input_per_mtok: amount("LLM_PRICE_INPUT_PER_MTOK", 2.5)?,
            price_output_per_mtok: amount("LLM_PRICE_OUTPUT_PER_MTOK", 10.0)?,
            timeout: Duration::from_secs(settings::number(
                "LLM_TIMEOUT_SECONDS",
                30,
                "a whole number of seconds",
            )?),
        }))
    }
}

/// Tokens and dollars spent by one job.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Spend {
    pub calls: u64,
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
    pub usd: f64,
}

pub struct LlmReasoner {
    config: LlmConfig,
    client: reqwest::blocking::Client,
    spend: Mutex<Spend>,
}

#[derive(Deserialize)]
struct Proposal {
    best: usize,
    reasoning: String,
    confidence: f64,
}

#[derive(Deserialize)]
struct ChatResponse {
    choices: Vec<ChatChoice>,
    #[serde(default)]
    usage: Option<Usage>,
}

#[derive(Deserialize)]
struct ChatChoice {
    message: ChatMessage,
}

#[derive(Deserialize)]
struct ChatMessage {
    #[serde(default)]
    content: Option<String>,
}

#[derive(Deserialize, Default, Clone, Copy)]
struct Usage {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
}

/// Parse a proposal strictly, then once more from the first `{…}` object in the text.
fn parse_proposal(content: &str) -> Option<Proposal> {
    let strict = serde_json::from_str::<Proposal>(content.trim()).ok();
    strict.or_else(|| {
        let start = content.find('{')?;
        let end = content.rfind('}')?;
        (start < end)
            .then(|| serde_json::from_str::<Proposal>(&content[start..=end]).ok())
            .flatten()
    })
}

fn prompt(sem: &SemanticDescription, top: &[Candidate]) -> String {
    let mut text = format!(
        "Spark physical plan node {} ({}): {}\nEvidence it needs: {}\n",
        sem.dag_node_id,
        sem.node_name,
        sem.behaviour,
        sem.signature
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    if let Some(c) = &sem.induced_by {
        text.push_str(&format!("The planner inserted it: {}.\n", c.reason));
    }
    text.push_str("Candidates:\n");
    for (i, c) in top.iter().enumerate() {
        let snippet: String = c.snippet.chars().take(600).collect();
        text.push_str(&format!(
            "[{i}] {}:{}-{} ({}) matched [{}]\n{snippet}\n",
            c.file,
            c.start,
            c.end,
            c.construct,
            c.matched.join(", ")
        ));
    }
    text.push_str(
        "Answer with JSON only: {\"best\": <candidate index>, \"reasoning\": \"<one sentence>\", \"confidence\": <0..1>}",
    );
    text
}

impl LlmReasoner {
    pub fn new(config: LlmConfig) -> Result<Self, ReasonError> {
        let client = reqwest::blocking::Client::builder()
            .timeout(config.timeout)
            .build()
            .map_err(|e| ReasonError::Transport(format!("building HTTP client: {e}")))?;
        Ok(Self {
            config,
            client,
            spend: Mutex::new(Spend::default()),
        })
    }

    pub fn spend(&self) -> Spend {
        *self.spend.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn charge(&self, usage: Usage) {
        let mut spend = self.spend.lock().unwrap_or_else(|p| p.into_inner());
        spend.calls += 1;
        spend.prompt_tokens += usage.prompt_tokens;
        spend.completion_tokens += usage.completion_tokens;
        spend.usd += usage.prompt_tokens as f64 * self.config.price_input_per_mtok / 1e6
            + usage.completion_tokens as f64 * self.config.price_output_per_mtok / 1e6;
    }

    /// One chat call; `Ok(None)` when the endpoint answered but not usably.
    fn ask(
        &self,
        sem: &SemanticDescription,
        top: &[Candidate],
    ) -> Result<(Option<Proposal>, u64), ReasonError> {
        let body = serde_json::json!({
            "model": self.config.model,
            "temperature": 0.1,
            "max_tokens": 1000,
            "response_format": {"type": "json_object"},
            "messages": [
                {"role": "system", "content": "You map Spark physical plan operators to the source code that produced them. Reply with JSON only."},
                {"role": "user", "content": prompt(sem, top)},
            ],
        });
        let url = format!(
            "{}/chat/completions",
            self.config.base_url.trim_end_matches('/')
        );
        let response = self
            .client
            .post(url)
            .bearer_auth(self.config.api_key.expose())
            .json(&body)
            .send()
            // `without_url` keeps query strings (which may hold keys on some gateways) out of logs.
            .map_err(|e| ReasonError::Transport(e.without_url().to_string()))?;
        if response.status() == reqwest::StatusCode::TOO_MANY_REQUESTS {
            return Err(ReasonError::RateLimited);
        }
        if !response.status().is_success() {
            return Err(ReasonError::Transport(format!(
                "HTTP {}",
                response.status().as_u16()
            )));
        }
        let parsed: ChatResponse = response.json().map_err(|e| {
            ReasonError::Transport(format!("unreadable response: {}", e.without_url()))
        })?;
        let usage = parsed.usage.unwrap_or_default();
        self.charge(usage);
        let content = parsed
            .choices
            .first()
            .and_then(|c| c.message.content.clone())
            .unwrap_or_default();
        Ok((
            parse_proposal(&content),
            usage.prompt_tokens + usage.completion_tokens,
        ))
    }
}

impl Reasoner for LlmReasoner {
    fn decide(
        &self,
        sem: &SemanticDescription,
        top: &[Candidate],
    ) -> Result<Decision, ReasonError> {
        let local = EvidenceReasoner.decide(sem, top)?;
        if top.len() < 2 || !EvidenceReasoner::is_ambiguous(top) {
            return Ok(local);
        }
        let spent = self.spend().usd;
        if spent >= self.config.max_job_cost_usd {
            return Ok(Decision {
                reasoning: format!(
                    "{} (LLM not consulted: job budget of ${:.2} spent.)",
                    local.reasoning, self.config.max_job_cost_usd
                ),
                ..local
            });
        }
        let (proposal, tokens) = match self.ask(sem, top) {
            Ok(answer) => answer,
            Err(ReasonError::RateLimited) => return Err(ReasonError::RateLimited),
            Err(e) => {
                return Ok(Decision {
                    reasoning: format!(
                        "{} (LLM unavailable: {e}; deterministic choice kept.)",
                        local.reasoning
                    ),
                    ..local
                });
            }
        };
        match proposal {
            Some(p) if p.best < top.len() && (0.0..=1.0).contains(&p.confidence) => {
                let agrees = p.best == local.best;
                let confidence = if agrees {
                    p.confidence.max(local.confidence)
                } else {
                    p.confidence.min(0.7)
                };
                Ok(Decision {
                    best: p.best,
                    reasoning: format!(
                        "LLM: {}",
                        p.reasoning.chars().take(500).collect::<String>()
                    ),
                    confidence_level: match confidence {
                        c if c >= 0.75 => ConfidenceLevel::High,
                        c if c >= 0.5 => ConfidenceLevel::Medium,
                        _ => ConfidenceLevel::Low,
                    },
                    confidence,
                    tokens_used: tokens,
                })
            }
            _ => Ok(Decision {
                reasoning: format!(
                    "{} (LLM answer was not valid JSON naming a candidate; deterministic choice kept.)",
                    local.reasoning
                ),
                tokens_used: tokens,
                ..local
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contracts::NodeKind;
    use crate::plan::OperatorFamily;
    use std::io::{Read, Write};
    use std::net::TcpListener;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A fake OpenAI-compatible server on 127.0.0.1 answering each request with the next canned
    /// `(status, body, delay)`; records the requests it saw.
    struct FakeServer {
        url: String,
        requests: Arc<Mutex<Vec<String>>>,
        hits: Arc<AtomicUsize>,
    }

    fn fake_server(responses: Vec<(u16, String, Duration)>) -> FakeServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        let url = format!("http://{}/v1", listener.local_addr().expect("addr"));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let hits = Arc::new(AtomicUsize::new(0));
        let (req, h) = (requests.clone(), hits.clone());
        std::thread::spawn(move || {
            for (status, body, delay) in responses {
                let Ok((mut stream, _)) = listener.accept() else {
                    return;
                };
                let mut buf = Vec::new();
                let mut chunk = [0u8; 4096];
                // Read headers, then the declared body length.
                loop {
                    let n = stream.read(&mut chunk).unwrap_or(0);
                    if n == 0 {
                        break;
                    }
                    buf.extend_from_slice(&chunk[..n]);
                    let text = String::from_utf8_lossy(&buf);
                    if let Some(head_end) = text.find("\r\n\r\n") {
                        let len = text[..head_end]
                            .lines()
                            .find_map(|l| {
                                l.to_lowercase()
                                    .strip_prefix("content-length:")
                                    .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                            })
                            .unwrap_or(0);
                        if buf.len() >= head_end + 4 + len {
                            break;
                        }
                    }
                }
                req.lock()
                    .unwrap()
                    .push(String::from_utf8_lossy(&buf).into_owned());
                h.fetch_add(1, Ordering::SeqCst);
                std::thread::sleep(delay);
                let reply = format!(
                    "HTTP/1.1 {status} X\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(reply.as_bytes());
            }
        });
        FakeServer {
            url,
            requests,
            hits,
        }
    }

    fn chat(content: &str, prompt_tokens: u64, completion_tokens: u64) -> String {
        serde_json::json!({
            "choices": [{"message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens},
        })
        .to_string()
    }

    fn config(url: &str, budget: f64) -> LlmConfig {
        LlmConfig {
            base_url: url.to_owned(),
            api_key: Secret::new("sk-test-SECRET-123"),
            model: "test-model".into(),
            max_job_cost_usd: budget,
            price_input_per_mtok: 1_000_000.0, // $1 per token: budgets run out fast in tests
            price_output_per_mtok: 1_000_000.0,
            timeout: Duration::from_millis(500),
        }
    }

    fn sem() -> SemanticDescription {
        SemanticDescription {
            execution_id: None,
            dag_node_id: "3".into(),
            node_name: "Filter".into(),
            operator: "Filter".into(),
            family: OperatorFamily::Filter,
            node_kind: NodeKind::Code,
            behaviour: "Filter keeps rows.".into(),
            signature: vec![("column".into(), "age".into())],
            query_terms: vec!["filter".into(), "age".into()],
            induced_by: None,
        }
    }

    /// Two equally good candidates: ambiguous for the deterministic reasoner.
    fn tied() -> Vec<Candidate> {
        let c = |site, start| Candidate {
            site,
            file: "jobs/etl.py".into(),
            symbol: None,
            start,
            end: start,
            snippet: "df.filter(col('age') > 3)".into(),
            construct: "call .filter(…)".into(),
            sql_statement: None,
            structural: 0.8,
            lexical: 0.5,
            flow: 0.5,
            retrieval_score: 0.6,
            keyword_match: 1.0,
            matched: vec!["column:age".into()],
            ast_score: 0.9,
            test_copy: false,
        };
        vec![c(0, 10), c(1, 20)]
    }

    #[test]
    fn good_answer_is_taken_and_costed() {
        let server = fake_server(vec![(
            200,
            chat(
                r#"{"best": 1, "reasoning": "line 20 filters age", "confidence": 0.9}"#,
                100,
                20,
            ),
            Duration::ZERO,
        )]);
        let r = LlmReasoner::new(config(&server.url, 1e9)).unwrap();
        let d = r.decide(&sem(), &tied()).unwrap();
        assert_eq!(d.best, 1);
        assert!(d.reasoning.contains("line 20 filters age"));
        assert_eq!(d.tokens_used, 120);
        assert_eq!(r.spend().usd, 120.0);
        let request = server.requests.lock().unwrap()[0].clone();
        assert!(request.contains("\"temperature\":0.1"));
        assert!(request.contains("\"max_tokens\":1000"));
        assert!(
            request
                .to_lowercase()
                .contains("authorization: bearer sk-test-secret-123")
        );
    }

    #[test]
    fn malformed_json_is_repaired_once_then_falls_back() {
        let wrapped = chat(
            "Sure! Here you go: {\"best\": 1, \"reasoning\": \"r\", \"confidence\": 0.8} hope it helps",
            1,
            1,
        );
        let garbage = chat("I think the second one, probably", 1, 1);
        let out_of_range = chat(r#"{"best": 7, "reasoning": "r", "confidence": 0.8}"#, 1, 1);
        let server = fake_server(vec![
            (200, wrapped, Duration::ZERO),
            (200, garbage, Duration::ZERO),
            (200, out_of_range, Duration::ZERO),
        ]);
        let r = LlmReasoner::new(config(&server.url, 1e9)).unwrap();
        assert_eq!(r.decide(&sem(), &tied()).unwrap().best, 1);
        let fallback = r.decide(&sem(), &tied()).unwrap();
        assert_eq!(fallback.best, 0, "deterministic choice kept");
        assert!(fallback.reasoning.contains("not valid JSON"));
        let fallback = r.decide(&sem(), &tied()).unwrap();
        assert_eq!(
            fallback.best, 0,
            "a proposal naming no offered candidate is rejected"
        );
    }

    #[test]
    fn http_429_is_llm_rate_limit() {
        let server = fake_server(vec![(429, "{}".into(), Duration::ZERO)]);
        let r = LlmReasoner::new(config(&server.url, 1e9)).unwrap();
        let err = r.decide(&sem(), &tied()).unwrap_err();
        assert_eq!(
            crate::error::Named::error_name(&err),
            crate::error::ErrorName::LlmRateLimit
        );
    }

    #[test]
    fn timeout_falls_back_without_leaking_the_key() {
        let server = fake_server(vec![(200, chat("{}", 1, 1), Duration::from_secs(2))]);
        let r = LlmReasoner::new(config(&server.url, 1e9)).unwrap();
        let d = r.decide(&sem(), &tied()).unwrap();
        assert_eq!(d.best, 0);
        assert!(d.reasoning.contains("LLM unavailable"), "{}", d.reasoning);
        assert!(!d.reasoning.contains("SECRET"));
        assert!(!format!("{:?}", config(&server.url, 1.0)).contains("SECRET"));
    }

    #[test]
    fn exhausted_budget_stops_calls() {
        let answer = chat(
            r#"{"best": 1, "reasoning": "r", "confidence": 0.9}"#,
            60,
            60,
        );
        let server = fake_server(vec![
            (200, answer.clone(), Duration::ZERO),
            (200, answer, Duration::ZERO),
        ]);
        let r = LlmReasoner::new(config(&server.url, 100.0)).unwrap();
        assert_eq!(r.decide(&sem(), &tied()).unwrap().best, 1);
        let d = r.decide(&sem(), &tied()).unwrap();
        assert_eq!(d.best, 0);
        assert!(d.reasoning.contains("budget"));
        assert_eq!(
            server.hits.load(Ordering::SeqCst),
            1,
            "no call once the budget is spent"
        );
    }

    #[test]
    fn clear_choices_never_call_out() {
        let server = fake_server(vec![]);
        let r = LlmReasoner::new(config(&server.url, 1e9)).unwrap();
        let mut top = tied();
        top[0].retrieval_score = 0.95;
        top[0].flow = 1.0;
        assert_eq!(r.decide(&sem(), &top).unwrap().best, 0);
        assert_eq!(server.hits.load(Ordering::SeqCst), 0);
    }
}
