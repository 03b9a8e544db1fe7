//! [`LocalRunner`]: executes a loaded [`StateMachine`] in-process, durably.
//!
//! One call to [`LocalRunner::run`] runs (or resumes) the execution of one job — the execution
//! is named after the job id, as on AWS. Progress is recorded as job-store checkpoints:
//!
//! * `top` — `{"next": state, "input": …}` before every top-level state, then `{"done": output}`
//!   or `{"failed": {"error", "cause"}}` at the end;
//! * `map/<MapState>/<index>` — the output of every finished Map iteration.
//!
//! Running a job again after its process died resumes at the recorded top-level state and, in
//! the Map, runs only the iterations without a checkpoint. An iteration that was in flight when
//! the process died runs again from its first state; its FinalMapping write is idempotent
//! (`JobStore::put_mapping`), so nothing finished is redone or lost, and statistics count once.
//!
//! Retry sleeps go through an injectable sleep function so tests do not wait; cancel calls
//! [`LocalRunner::stop`], which makes the execution end before its next state (AWS:
//! `StopExecution`).

use super::definition::{Catcher, MapState, Retrier, State, StateMachine, TaskState};
use super::paths::{Scope, filter, merge_result, render, select};
use super::tokens::TaskTokens;
use super::{StepError, TaskRegistry, WorkflowError};
use crate::ports::JobStore;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

type Sleep = Arc<dyn Fn(Duration) + Send + Sync>;

/// Told `(job_id, state_name)` each time the execution enters a state (AWS: `*StateEntered`).
pub type StateObserver = Arc<dyn Fn(&str, &str) + Send + Sync>;

pub struct LocalRunner {
    machine: StateMachine,
    registry: TaskRegistry,
    store: Arc<dyn JobStore>,
    tokens: Arc<TaskTokens>,
    sleep: Sleep,
    observer: Option<StateObserver>,
    stopped: Mutex<HashSet<String>>,
}

impl std::fmt::Debug for LocalRunner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalRunner")
            .field("start_at", &self.machine.start_at)
            .field("registry", &self.registry)
            .finish_non_exhaustive()
    }
}

/// The Map item an iteration runs for (feeds `$$.Map.Item`).
#[derive(Clone, Copy)]
struct MapItem<'a> {
    index: usize,
    value: &'a Value,
}

/// One execution's fixed facts.
struct Execution<'a> {
    job_id: &'a str,
    /// Outputs of Map iterations finished by an earlier run, by checkpoint key.
    finished_iterations: HashMap<String, Value>,
}

fn store_failure(err: crate::ports::StoreError) -> StepError {
    // Losing the checkpoint store is not something a Catch in the definition should swallow.
    StepError::new("States.Runtime", format!("job store: {err}"))
}

fn iteration_key(map_state: &str, index: usize) -> String {
    format!("map/{map_state}/{index:06}")
}

impl LocalRunner {
    /// A runner for `machine`; every Task function it names must have a handler.
    pub fn new(
        machine: StateMachine,
        registry: TaskRegistry,
        store: Arc<dyn JobStore>,
        tokens: Arc<TaskTokens>,
    ) -> Result<Self, WorkflowError> {
        for function in machine.task_functions()? {
            if registry.get(&function).is_none() {
                return Err(WorkflowError::MissingHandler(function));
            }
        }
        Ok(Self {
            machine,
            registry,
            store,
            tokens,
            sleep: Arc::new(std::thread::sleep),
            observer: None,
            stopped: Mutex::new(HashSet::new()),
        })
    }

    /// Replace how retry intervals are waited (tests record them instead of sleeping).
    pub fn with_sleep(mut self, sleep: impl Fn(Duration) + Send + Sync + 'static) -> Self {
        self.sleep = Arc::new(sleep);
        self
    }

    /// Watch the states the execution enters (progress reporting, cross-checks with AWS).
    pub fn with_observer(mut self, observer: impl Fn(&str, &str) + Send + Sync + 'static) -> Self {
        self.observer = Some(Arc::new(observer));
        self
    }

    /// The task-token hub `.waitForTaskToken` tasks wait on.
    pub fn tokens(&self) -> &Arc<TaskTokens> {
        &self.tokens
    }

    /// Stop the running execution of `job_id` before its next state.
    pub fn stop(&self, job_id: &str) {
        self.stopped
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(job_id.to_owned());
    }

    fn is_stopped(&self, job_id: &str) -> bool {
        self.stopped
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(job_id)
    }

    /// Run the execution for `job_id` with `input`, or resume it from its checkpoints (then
    /// `input` is ignored). Returns the execution's output.
    pub fn run(&self, job_id: &str, input: Value) -> Result<Value, WorkflowError> {
        let result = self.run_inner(job_id, input);
        self.stopped
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(job_id);
        result
    }

    fn run_inner(&self, job_id: &str, input: Value) -> Result<Value, WorkflowError> {
        let mut top = None;
        let mut finished_iterations = HashMap::new();
        for (key, value) in self.store.checkpoints(job_id)? {
            if key == "top" {
                top = Some(value);
            } else if key.starts_with("map/") {
                finished_iterations.insert(key, value);
            }
        }
        let (start, input) = match top {
            None => (self.machine.start_at.clone(), input),
            Some(record) => {
                if let Some(output) = record.get("done") {
                    return Ok(output.clone());
                }
                if let Some(failed) = record.get("failed") {
                    let text = |k: &str| {
                        failed
                            .get(k)
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_owned()
                    };
                    return Err(WorkflowError::Failed {
                        error: text("error"),
                        cause: text("cause"),
                    });
                }
                match (record.get("next"), record.get("input")) {
                    (Some(Value::String(next)), Some(input)) => (next.clone(), input.clone()),
                    _ => {
                        return Err(WorkflowError::Store(crate::ports::StoreError::Corrupt(
                            format!("checkpoint `top` of job {job_id}: {record}"),
                        )));
                    }
                }
            }
        };
        let execution = Execution {
            job_id,
            finished_iterations,
        };
        match self.run_states(&execution, &self.machine, start, input, None) {
            Ok(output) => {
                self.store
                    .put_checkpoint(job_id, "top", &json!({ "done": output }))?;
                Ok(output)
            }
            Err(e) if e.is_abort() => Err(WorkflowError::Aborted),
            Err(e) => {
                let failed = json!({ "failed": { "error": e.error, "cause": e.cause } });
                self.store.put_checkpoint(job_id, "top", &failed)?;
                Err(WorkflowError::Failed {
                    error: e.error,
                    cause: e.cause,
                })
            }
        }
    }

    /// Walk `machine` from `state` until an end. `item` is set inside a Map iteration; only the
    /// top level (no item) writes the `top` checkpoint.
    fn run_states(
        &self,
        ex: &Execution<'_>,
        machine: &StateMachine,
        mut state_name: String,
        mut input: Value,
        item: Option<MapItem<'_>>,
    ) -> Result<Value, StepError> {
        loop {
            if self.is_stopped(ex.job_id) {
                return Err(StepError::aborted());
            }
            if item.is_none() {
                let record = json!({ "next": state_name, "input": input });
                self.store
                    .put_checkpoint(ex.job_id, "top", &record)
                    .map_err(store_failure)?;
            }
            let state = machine.states.get(&state_name).ok_or_else(|| {
                StepError::new("States.Runtime", format!("no state `{state_name}`"))
            })?;
            if let Some(observer) = &self.observer {
                observer(ex.job_id, &state_name);
            }
            let (output, next) = self.run_state(ex, &state_name, state, &input, item)?;
            match next {
                Some(next) => {
                    state_name = next;
                    input = output;
                }
                None => return Ok(output),
            }
        }
    }

    /// Run one state: its output and the next state (`None` at an end).
    fn run_state(
        &self,
        ex: &Execution<'_>,
        name: &str,
        state: &State,
        input: &Value,
        item: Option<MapItem<'_>>,
    ) -> Result<(Value, Option<String>), StepError> {
        let context = context_object(ex.job_id, name, item, None);
        let scope = Scope {
            input,
            context: &context,
        };
        match state {
            State::Task(task) => self.with_retry_and_catch(
                &task.retry,
                &task.catch,
                input,
                || self.run_task(ex, name, task, input, item),
                task.next.clone(),
            ),
            State::Map(map) => self.with_retry_and_catch(
                &map.retry,
                &map.catch,
                input,
                || self.run_map(ex, name, map, input),
                map.next.clone(),
            ),
            State::Choice(choice) => {
                let effective = filter(&choice.input_path, &scope)?;
                let effective_scope = Scope {
                    input: &effective,
                    context: &context,
                };
                let mut next = None;
                for rule in &choice.choices {
                    if select(&rule.variable, &effective_scope)?
                        == Value::String(rule.string_equals.clone())
                    {
                        next = Some(rule.next.clone());
                        break;
                    }
                }
                let next = next.or_else(|| choice.default.clone()).ok_or_else(|| {
                    StepError::new(
                        "States.NoChoiceMatched",
                        format!("no choice of `{name}` matched"),
                    )
                })?;
                let output = filter(&choice.output_path, &effective_scope)?;
                Ok((output, Some(next)))
            }
            State::Pass(pass) => {
                let effective = filter(&pass.input_path, &scope)?;
                let effective_scope = Scope {
                    input: &effective,
                    context: &context,
                };
                let result = match (&pass.result, &pass.parameters) {
                    (Some(result), _) => result.clone(),
                    (None, Some(parameters)) => render(parameters, &effective_scope)?,
                    (None, None) => effective.clone(),
                };
                let merged = merge_result(input, result, &pass.result_path)?;
                let output = filter(
                    &pass.output_path,
                    &Scope {
                        input: &merged,
                        context: &context,
                    },
                )?;
                Ok((output, pass.next.clone()))
            }
            State::Succeed(succeed) => {
                let effective = filter(&succeed.input_path, &scope)?;
                let output = filter(
                    &succeed.output_path,
                    &Scope {
                        input: &effective,
                        context: &context,
                    },
                )?;
                Ok((output, None))
            }
            State::Fail(fail) => Err(StepError::new(
                fail.error.as_deref().unwrap_or("States.Fail"),
                fail.cause.clone().unwrap_or_default(),
            )),
        }
    }

    /// ASL Retry then Catch around one state's work. Each retrier counts its own attempts; the
    /// first retrier whose `ErrorEquals` matches decides (an exhausted one does not fall
    /// through), then the first matching catcher routes the error.
    fn with_retry_and_catch(
        &self,
        retriers: &[Retrier],
        catchers: &[Catcher],
        raw_input: &Value,
        mut attempt: impl FnMut() -> Result<Value, StepError>,
        next: Option<String>,
    ) -> Result<(Value, Option<String>), StepError> {
        let mut attempts = vec![0u32; retriers.len()];
        loop {
            let err = match attempt() {
                Ok(output) => return Ok((output, next)),
                Err(err) => err,
            };
            let retrier = retriers.iter().position(|r| err.matches(&r.error_equals));
            if let Some(i) = retrier {
                let r = &retriers[i];
                if attempts[i] < r.max_attempts {
                    let exponent = i32::try_from(attempts[i]).unwrap_or(i32::MAX);
                    let delay = r.interval_seconds * r.backoff_rate.powi(exponent);
                    (self.sleep)(Duration::from_secs_f64(delay.max(0.0)));
                    attempts[i] += 1;
                    continue;
                }
            }
            let Some(catcher) = catchers.iter().find(|c| err.matches(&c.error_equals)) else {
                return Err(err);
            };
            let error_output = json!({ "Error": err.error, "Cause": err.cause });
            let output = merge_result(raw_input, error_output, &catcher.result_path)?;
            return Ok((output, Some(catcher.next.clone())));
        }
    }

    fn run_task(
        &self,
        ex: &Execution<'_>,
        name: &str,
        task: &TaskState,
        raw_input: &Value,
        item: Option<MapItem<'_>>,
    ) -> Result<Value, StepError> {
        if self.is_stopped(ex.job_id) {
            return Err(StepError::aborted());
        }
        let token = task
            .waits_for_task_token()
            .then(|| self.tokens.issue(ex.job_id, name));
        let context = context_object(ex.job_id, name, item, token.as_deref());
        let scope = Scope {
            input: raw_input,
            context: &context,
        };
        let effective = filter(&task.input_path, &scope)?;
        let effective_scope = Scope {
            input: &effective,
            context: &context,
        };
        let payload = match &task.parameters {
            Some(parameters) => render(parameters, &effective_scope)?,
            None => effective.clone(),
        };
        let function = task
            .function_name()
            .map_err(|e| StepError::new("States.Runtime", e.to_string()))?;
        let handler = self.registry.get(&function).ok_or_else(|| {
            StepError::new("States.Runtime", format!("no handler for `{function}`"))
        })?;
        let result = match &token {
            None => handler(payload).map_err(|e| StepError::new(&e.error, e.cause))?,
            Some(token) => {
                // lambda:invoke.waitForTaskToken: the function gets `Payload`; its own return
                // value is ignored and the task's result is what completes the token.
                let body = payload.get("Payload").cloned().unwrap_or(Value::Null);
                if let Err(e) = handler(body) {
                    let _ = self.tokens.send_failure(token, &e.error, &e.cause);
                }
                self.tokens.wait(token, &|| self.is_stopped(ex.job_id))?
            }
        };
        let selected = match &task.result_selector {
            Some(selector) => render(
                selector,
                &Scope {
                    input: &result,
                    context: &context,
                },
            )?,
            None => result,
        };
        let merged = merge_result(raw_input, selected, &task.result_path)?;
        filter(
            &task.output_path,
            &Scope {
                input: &merged,
                context: &context,
            },
        )
    }

    // Long (~130 lines): the ASL Map state's semantics in their documented order (InputPath,
    // ItemsPath, ItemSelector, concurrency, per-item Catch, ResultSelector / ResultPath), kept
    // together to read against the spec.
    fn run_map(
        &self,
        ex: &Execution<'_>,
        name: &str,
        map: &MapState,
        raw_input: &Value,
    ) -> Result<Value, StepError> {
        let context = context_object(ex.job_id, name, None, None);
        let effective = filter(
            &map.input_path,
            &Scope {
                input: raw_input,
                context: &context,
            },
        )?;
        let items = match filter(
            &map.items_path,
            &Scope {
                input: &effective,
                context: &context,
            },
        )? {
            Value::Array(items) => items,
            other => {
                return Err(StepError::new(
                    "States.Runtime",
                    format!("ItemsPath of `{name}` selects {other}, not an array"),
                ));
            }
        };
        let processor = StateMachine::item_processor(map)
            .map_err(|e| StepError::new("States.Runtime", e.to_string()))?;
        let results: Mutex<Vec<Option<Value>>> = Mutex::new(
            (0..items.len())
                .map(|i| ex.finished_iterations.get(&iteration_key(name, i)).cloned())
                .collect(),
        );
        let todo: Vec<usize> = {
            let done = results.lock().unwrap_or_else(|p| p.into_inner());
            (0..items.len()).filter(|&i| done[i].is_none()).collect()
        };
        let limit = match map.max_concurrency {
            0 => todo.len(),
            n => usize::try_from(n).unwrap_or(usize::MAX).min(todo.len()),
        };
        let next = AtomicUsize::new(0);
        let failure: Mutex<Option<StepError>> = Mutex::new(None);
        let run_item = |index: usize| -> Result<Value, StepError> {
            let item = MapItem {
                index,
                value: &items[index],
            };
            let item_context = context_object(ex.job_id, name, Some(item), None);
            let item_input = match &map.item_selector {
                Some(selector) => render(
                    selector,
                    &Scope {
                        input: &effective,
                        context: &item_context,
                    },
                )?,
                None => items[index].clone(),
            };
            let output = self.run_states(
                ex,
                &processor,
                processor.start_at.clone(),
                item_input,
                Some(item),
            )?;
            self.store
                .put_checkpoint(ex.job_id, &iteration_key(name, index), &output)
                .map_err(store_failure)?;
            Ok(output)
        };
        std::thread::scope(|s| {
            for _ in 0..limit {
                s.spawn(|| {
                    loop {
                        if failure.lock().unwrap_or_else(|p| p.into_inner()).is_some() {
                            return;
                        }
                        let Some(&index) = todo.get(next.fetch_add(1, Ordering::SeqCst)) else {
                            return;
                        };
                        match run_item(index) {
                            Ok(output) => {
                                results.lock().unwrap_or_else(|p| p.into_inner())[index] =
                                    Some(output);
                            }
                            Err(err) => {
                                failure
                                    .lock()
                                    .unwrap_or_else(|p| p.into_inner())
                                    .get_or_insert(err);
                                return;
                            }
                        }
                    }
                });
            }
        });
        if let Some(err) = failure.into_inner().unwrap_or_else(|p| p.into_inner()) {
            return Err(err);
        }
        let outputs: Vec<Value> = results
            .into_inner()
            .unwrap_or_else(|p| p.into_inner())
            .into_iter()
            .map(|o| o.unwrap_or(Value::Null))
            .collect();
        let result = Value::Array(outputs);
        let selected = match &map.result_selector {
            Some(selector) => render(
                selector,
                &Scope {
                    input: &result,
                    context: &context,
                },
            )?,
            None => result,
        };
        let merged = merge_result(raw_input, selected, &map.result_path)?;
        filter(
            &map.output_path,
            &Scope {
                input: &merged,
                context: &context,
            },
        )
    }
}

/// The `$$` context object the definition may read.
fn context_object(
    job_id: &str,
    state: &str,
    item: Option<MapItem<'_>>,
    token: Option<&str>,
) -> Value {
    let mut context = json!({
        "Execution": { "Id": format!("local:execution:{job_id}"), "Name": job_id },
        "State": { "Name": state },
    });
    if let Some(token) = token {
        context["Task"] = json!({ "Token": token });
    }
    if let Some(item) = item {
        context["Map"] = json!({ "Item": { "Index": item.index, "Value": item.value } });
    }
    context
}
