//! Who is calling: an [`Authenticator`] maps a request's head to a caller id, or refuses it.
//!
//! Locally [`StaticTokens`] checks `Authorization: Bearer <token>` against configured
//! `caller:token` pairs. On AWS the HTTP API's JWT authorizer has already verified the token; the
//! Lambda's authenticator reads the verified `sub` claim from the request context.

use axum::http::request::Parts;
use std::collections::HashMap;

pub trait Authenticator: Send + Sync {
    /// The caller id, or `None` for a missing, malformed or unknown credential.
    fn caller(&self, request: &Parts) -> Option<String>;

    /// Whether every authenticated caller may read every job (an operator channel such as the
    /// IAM-authenticated stream URL, whose caller is a trusted backend relaying to its users).
    fn sees_all_jobs(&self) -> bool {
        false
    }
}

/// The token of an `Authorization: Bearer …` header.
pub fn bearer_token(request: &Parts) -> Option<&str> {
    let value = request
        .headers
        .get(axum::http::header::AUTHORIZATION)?
        .to_str()
        .ok()?;
    let (scheme, token) = value.split_once(' ')?;
    (scheme.eq_ignore_ascii_case("bearer") && !token.trim().is_empty()).then(|| token.trim())
}

/// Fixed bearer tokens, one per caller (the local server).
#[derive(Clone, Default)]
pub struct StaticTokens {
    by_token: HashMap<String, String>,
}

impl std::fmt::Debug for StaticTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut callers: Vec<&String> = self.by_token.values().collect();
        callers.sort();
        f.debug_struct("StaticTokens")
            .field("callers", &callers)
            .finish()
    }
}

impl StaticTokens {
    pub fn new() -> Self {
        Self::default()
    }

    /// Accept `token` as `caller`.
    pub fn with(mut self, caller: impl Into<String>, token: impl Into<String>) -> Self {
        self.by_token.insert(token.into(), caller.into());
        self
    }

    /// From `caller:token,caller:token` (`PLAN2CODE_API_TOKENS`); `None` when a pair is malformed.
    pub fn parse(spec: &str) -> Option<Self> {
        let mut tokens = Self::new();
        for pair in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (caller, token) = pair.split_once(':')?;
            if caller.is_empty() || token.is_empty() {
                return None;
            }
            tokens = tokens.with(caller, token);
        }
        (!tokens.by_token.is_empty()).then_some(tokens)
    }
}

/// Compare without an early exit on the first differing byte.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

impl Authenticator for StaticTokens {
    fn caller(&self, request: &Parts) -> Option<String> {
        let presented = bearer_token(request)?;
        self.by_token
            .iter()
            .find(|(token, _)| same_secret(token, presented))
            .map(|(_, caller)| caller.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(auth: Option<&str>) -> Parts {
        let mut builder = axum::http::Request::builder().uri("/");
        if let Some(value) = auth {
            builder = builder.header("authorization", value);
        }
        builder.body(()).unwrap().into_parts().0
    }

    #[test]
    fn static_tokens_know_their_callers_only() {
        let tokens = StaticTokens::parse("alice:tok-a, bob:tok-b").unwrap();
        assert_eq!(
            tokens.caller(&parts(Some("Bearer tok-a"))).as_deref(),
            Some("alice")
        );
        assert_eq!(
            tokens.caller(&parts(Some("bearer tok-b"))).as_deref(),
            Some("bob")
        );
        assert_eq!(tokens.caller(&parts(Some("Bearer tok-c"))), None);
        assert_eq!(tokens.caller(&parts(Some("Basic tok-a"))), None);
        assert_eq!(tokens.caller(&parts(None)), None);
        assert!(StaticTokens::parse("alice").is_none());
        assert!(!format!("{tokens:?}").contains("tok-a"));
    }
}
