//! The local stand-in for Step Functions' task tokens.
//!
//! A `.waitForTaskToken` task gets a fresh token in its payload (`$$.Task.Token`), hands it to
//! its function (the pause gate parks it in the job store) and then blocks until somebody
//! completes the token — [`TaskTokens::send_success`] / [`TaskTokens::send_failure`], the
//! equivalents of `SendTaskSuccess` / `SendTaskFailure` — or the execution is stopped.
//! Tokens live in memory only: a process that dies forgets them, and the resumed execution
//! re-enters the paused node from its flag check and parks a new token.

use super::{StepError, TaskError};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

type Outcome = Result<Value, TaskError>;

#[derive(Debug, Default)]
pub struct TaskTokens {
    /// token → `None` while waiting, `Some(outcome)` once completed.
    pending: Mutex<HashMap<String, Option<Outcome>>>,
    completed: Condvar,
    next: AtomicU64,
}

/// `SendTaskSuccess`/`SendTaskFailure` named a token nobody waits for.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("TaskDoesNotExist: no task waits for token {0}")]
pub struct UnknownToken(pub String);

impl TaskTokens {
    pub fn new() -> Self {
        Self::default()
    }

    fn pending(&self) -> MutexGuard<'_, HashMap<String, Option<Outcome>>> {
        self.pending.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A new token for `execution` / `state`, registered as waiting.
    pub fn issue(&self, execution: &str, state: &str) -> String {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let token = format!("local:{execution}:{state}:{n}");
        self.pending().insert(token.clone(), None);
        token
    }

    pub fn send_success(&self, token: &str, output: Value) -> Result<(), UnknownToken> {
        self.complete(token, Ok(output))
    }

    pub fn send_failure(&self, token: &str, error: &str, cause: &str) -> Result<(), UnknownToken> {
        self.complete(token, Err(TaskError::new(error, cause)))
    }

    fn complete(&self, token: &str, outcome: Outcome) -> Result<(), UnknownToken> {
        let mut pending = self.pending();
        match pending.get_mut(token) {
            Some(slot @ None) => {
                *slot = Some(outcome);
                self.completed.notify_all();
                Ok(())
            }
            _ => Err(UnknownToken(token.to_owned())),
        }
    }

    /// Block until `token` is completed, or `stopped()` turns true (checked every 100 ms).
    pub fn wait(&self, token: &str, stopped: &dyn Fn() -> bool) -> Result<Value, StepError> {
        let mut pending = self.pending();
        loop {
            if let Some(Some(_)) = pending.get(token) {
                let outcome = pending.remove(token).flatten();
                return match outcome {
                    Some(Ok(value)) => Ok(value),
                    Some(Err(e)) => Err(StepError::new(&e.error, e.cause)),
                    None => Err(StepError::new(
                        "States.Runtime",
                        "task token vanished".into(),
                    )),
                };
            }
            if stopped() {
                pending.remove(token);
                return Err(StepError::aborted());
            }
            pending = self
                .completed
                .wait_timeout(pending, Duration::from_millis(100))
                .map(|(guard, _)| guard)
                .unwrap_or_else(|p| p.into_inner().0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_waiter_gets_what_is_sent_once() {
        let tokens = TaskTokens::new();
        let token = tokens.issue("job", "WaitForResume");
        std::thread::scope(|s| {
            let waiter = s.spawn(|| tokens.wait(&token, &|| false));
            std::thread::sleep(Duration::from_millis(20));
            tokens
                .send_success(&token, json!({"resumed": true}))
                .unwrap();
            assert_eq!(waiter.join().unwrap().unwrap(), json!({"resumed": true}));
        });
        assert_eq!(
            tokens.send_success(&token, json!({})),
            Err(UnknownToken(token.clone()))
        );
    }

    #[test]
    fn failures_surface_with_their_error_name_and_stop_aborts() {
        let tokens = TaskTokens::new();
        let token = tokens.issue("job", "WaitForResume");
        tokens
            .send_failure(&token, "AUTH_FAILED", "token refused")
            .unwrap();
        let err = tokens.wait(&token, &|| false).unwrap_err();
        assert_eq!(
            (err.error.as_str(), err.cause.as_str()),
            ("AUTH_FAILED", "token refused")
        );
        let parked = tokens.issue("job", "WaitForResume");
        assert!(tokens.wait(&parked, &|| true).unwrap_err().is_abort());
    }
}
