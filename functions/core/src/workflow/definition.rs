//! The ASL model: exactly the subset of the Amazon States Language that
//! `statemachine/mapping.asl.json` uses, parsed strictly.
//!
//! Every state struct denies unknown fields and the state-type enum knows only the types we
//! execute, so a definition that grows a feature the local runner does not implement (a `Wait`
//! state, `TimeoutSeconds`, a `Parallel`, another Choice comparator, …) fails to load with
//! [`WorkflowError::Unsupported`] naming the state and the feature, instead of running with
//! different semantics than AWS.
//!
//! Definition substitutions (`${MaxParallelNodes}`, `${PlanSemanticsFunctionArn}`, …) are
//! textual, as CloudFormation applies them, so a numeric placeholder may stand unquoted.

use super::WorkflowError;
use serde::Deserialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// The definition shared with AWS.
pub const MAPPING_ASL: &str = include_str!("../../../../statemachine/mapping.asl.json");

/// A loaded state machine (or a Map's item processor).
#[derive(Debug, Clone)]
pub struct StateMachine {
    pub start_at: String,
    pub states: BTreeMap<String, State>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(tag = "Type")]
pub enum State {
    Task(TaskState),
    Map(MapState),
    Choice(ChoiceState),
    Pass(PassState),
    Succeed(SucceedState),
    Fail(FailState),
}

fn dollar() -> Value {
    Value::String("$".into())
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase", deny_unknown_fields)]
pub struct TaskState {
    #[serde(default)]
    pub comment: Option<String>,
    pub resource: String,
    #[serde(default = "dollar")]
    pub input_path: Value,
    #[serde(default)]
    pub parameters: Option<Value>,
    #[serde(default)]
    pub result_selector: Option<Value>,
    #[serde(default = "dollar")]
    pub result_path: Value,
    #[serde(default = "dollar")]
    pub output_path: Value,
    #[serde(default)]
    pub retry: Vec<Retrier>,
    #[serde(default)]
    pub catch: Vec<Catcher>,
    #[serde(default)]
    pub next: Option<String>,
    #[serde(default)]
    pub end: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase", deny_unknown_fields)]
pub struct MapState {
    #[serde(default)]
    pub comment: Option<String>,
    #[serde(default = "dollar")]
    pub input_path: Value,
    #[serde(default = "dollar")]
    pub items_path: Value,
    /// `ItemSelector`, or its older name `Parameters`.
    #[serde(default, alias = "Parameters")]
    pub item_selector: Option<Value>,
    pub item_processor: ItemProcessor,
    /// 0 means "as many as there are items".
    #[serde(default)]
    pub max_concurrency: u32,
    #[serde(default)]
    pub result_selector: Option<Value>,
    #[serde(default = "dollar")]
    pub result_path: Value,
    #[serde(default = "dollar")]
    pub output_path: Value,
    #[serde(default)]
    pub retry: Vec<Retrier>,
    #[serde(default)]
    pub catch: Vec<Catcher>,
    #[serde(default)]
    pub next: Option<String>,
    #[serde(default)]
    pub end: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase", deny_unknown_fields)]
pub struct ItemProcessor {
    #[serde(default)]
    pub processor_config: Option<ProcessorConfig>,
    pub start_at: String,
    pub states: BTreeMap<String, Value>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase", deny_unknown_fields)]
pub struct ProcessorConfig {
    /// Only `INLINE` runs locally; `DISTRIBUTED` is rejected (see statemachine/README.md).
    pub mode: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase", deny_unknown_fields)]
pub struct ChoiceState {
    #[serde(default)]
    pub comment: Option<String>,
    #[serde(default = "dollar")]
    pub input_path: Value,
    #[serde(default = "dollar")]
    pub output_path: Value,
    pub choices: Vec<ChoiceRule>,
    #[serde(default)]
    pub default: Option<String>,
}

/// A top-level choice rule; only `StringEquals` on a `Variable` is used by the definition.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase", deny_unknown_fields)]
pub struct ChoiceRule {
    pub variable: String,
    pub string_equals: String,
    pub next: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase", deny_unknown_fields)]
pub struct PassState {
    #[serde(default)]
    pub comment: Option<String>,
    #[serde(default = "dollar")]
    pub input_path: Value,
    #[serde(default)]
    pub parameters: Option<Value>,
    #[serde(default)]
    pub result: Option<Value>,
    #[serde(default = "dollar")]
    pub result_path: Value,
    #[serde(default = "dollar")]
    pub output_path: Value,
    #[serde(default)]
    pub next: Option<String>,
    #[serde(default)]
    pub end: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase", deny_unknown_fields)]
pub struct SucceedState {
    #[serde(default)]
    pub comment: Option<String>,
    #[serde(default = "dollar")]
    pub input_path: Value,
    #[serde(default = "dollar")]
    pub output_path: Value,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase", deny_unknown_fields)]
pub struct FailState {
    #[serde(default)]
    pub comment: Option<String>,
    #[serde(default)]
    pub error: Option<String>,
    #[serde(default)]
    pub cause: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase", deny_unknown_fields)]
pub struct Retrier {
    pub error_equals: Vec<String>,
    #[serde(default = "one")]
    pub interval_seconds: f64,
    #[serde(default = "three")]
    pub max_attempts: u32,
    #[serde(default = "two")]
    pub backoff_rate: f64,
}

fn one() -> f64 {
    1.0
}
fn two() -> f64 {
    2.0
}
fn three() -> u32 {
    3
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "PascalCase", deny_unknown_fields)]
pub struct Catcher {
    pub error_equals: Vec<String>,
    #[serde(default = "dollar")]
    pub result_path: Value,
    pub next: String,
}

/// The lambda integration that waits for `SendTaskSuccess`/`SendTaskFailure`.
pub const WAIT_FOR_TASK_TOKEN: &str = "arn:aws:states:::lambda:invoke.waitForTaskToken";

impl State {
    /// Successor states named by this state (for validation).
    fn successors(&self) -> Vec<&str> {
        let mut next: Vec<&str> = Vec::new();
        match self {
            State::Task(t) => {
                next.extend(t.next.as_deref());
                next.extend(t.catch.iter().map(|c| c.next.as_str()));
            }
            State::Map(m) => {
                next.extend(m.next.as_deref());
                next.extend(m.catch.iter().map(|c| c.next.as_str()));
            }
            State::Choice(c) => {
                next.extend(c.choices.iter().map(|r| r.next.as_str()));
                next.extend(c.default.as_deref());
            }
            State::Pass(p) => next.extend(p.next.as_deref()),
            State::Succeed(_) | State::Fail(_) => {}
        }
        next
    }

    fn end_or_next(&self) -> Option<(bool, Option<&str>)> {
        match self {
            State::Task(t) => Some((t.end, t.next.as_deref())),
            State::Map(m) => Some((m.end, m.next.as_deref())),
            State::Pass(p) => Some((p.end, p.next.as_deref())),
            _ => None,
        }
    }
}

impl StateMachine {
    /// Parse `text` after applying `substitutions` (`name` → value, replacing `${name}`).
    /// A placeholder without a value is an error, never left in place.
    pub fn load(
        text: &str,
        substitutions: &HashMap<String, String>,
    ) -> Result<Self, WorkflowError> {
        let rendered = substitute(text, substitutions)?;
        let root: Value = serde_json::from_str(&rendered)
            .map_err(|e| WorkflowError::Definition(format!("not JSON: {e}")))?;
        let Value::Object(mut root) = root else {
            return Err(WorkflowError::Definition("not a JSON object".into()));
        };
        let start_at = match root.remove("StartAt") {
            Some(Value::String(s)) => s,
            _ => return Err(WorkflowError::Definition("missing StartAt".into())),
        };
        let states = match root.remove("States") {
            Some(Value::Object(states)) => states.into_iter().collect(),
            _ => return Err(WorkflowError::Definition("missing States".into())),
        };
        root.remove("Comment");
        if let Some(field) = root.keys().next() {
            return Err(WorkflowError::Unsupported(format!(
                "top-level field `{field}`"
            )));
        }
        Self::from_parts(start_at, states, false)
    }

    fn from_parts(
        start_at: String,
        raw: BTreeMap<String, Value>,
        inside_map: bool,
    ) -> Result<Self, WorkflowError> {
        let mut states = BTreeMap::new();
        for (name, value) in raw {
            let state: State = serde_json::from_value(value)
                .map_err(|e| WorkflowError::Unsupported(format!("state `{name}`: {e}")))?;
            if let State::Map(map) = &state {
                if inside_map {
                    return Err(WorkflowError::Unsupported(format!(
                        "state `{name}`: a Map nested inside a Map"
                    )));
                }
                let mode = map
                    .item_processor
                    .processor_config
                    .as_ref()
                    .map(|c| c.mode.as_str());
                if !matches!(mode, None | Some("INLINE")) {
                    return Err(WorkflowError::Unsupported(format!(
                        "state `{name}`: Map mode {mode:?} (only INLINE runs locally)"
                    )));
                }
                Self::from_parts(
                    map.item_processor.start_at.clone(),
                    map.item_processor.states.clone(),
                    true,
                )?;
            }
            states.insert(name, state);
        }
        let machine = Self { start_at, states };
        machine.validate()?;
        Ok(machine)
    }

    fn validate(&self) -> Result<(), WorkflowError> {
        if !self.states.contains_key(&self.start_at) {
            return Err(WorkflowError::Definition(format!(
                "StartAt `{}` is not a state",
                self.start_at
            )));
        }
        for (name, state) in &self.states {
            for next in state.successors() {
                if !self.states.contains_key(next) {
                    return Err(WorkflowError::Definition(format!(
                        "state `{name}` goes to unknown state `{next}`"
                    )));
                }
            }
            if let Some((end, next)) = state.end_or_next()
                && end == next.is_some()
            {
                return Err(WorkflowError::Definition(format!(
                    "state `{name}` needs exactly one of Next and End"
                )));
            }
        }
        Ok(())
    }

    /// The item processor of a Map state, parsed (validated at load, so this cannot fail then).
    pub fn item_processor(map: &MapState) -> Result<StateMachine, WorkflowError> {
        Self::from_parts(
            map.item_processor.start_at.clone(),
            map.item_processor.states.clone(),
            true,
        )
    }

    /// Every Task's function name: its `Resource`, or for `.waitForTaskToken` its
    /// `Parameters.FunctionName` (after substitution).
    pub fn task_functions(&self) -> Result<Vec<String>, WorkflowError> {
        let mut names = Vec::new();
        for state in self.states.values() {
            match state {
                State::Task(task) => names.push(task.function_name()?),
                State::Map(map) => names.extend(Self::item_processor(map)?.task_functions()?),
                _ => {}
            }
        }
        names.sort();
        names.dedup();
        Ok(names)
    }
}

impl TaskState {
    pub fn waits_for_task_token(&self) -> bool {
        self.resource == WAIT_FOR_TASK_TOKEN
    }

    /// The function this task invokes.
    pub fn function_name(&self) -> Result<String, WorkflowError> {
        if self.resource.starts_with("arn:aws:states:::") && !self.waits_for_task_token() {
            return Err(WorkflowError::Unsupported(format!(
                "Task resource `{}` (only direct functions and lambda:invoke.waitForTaskToken)",
                self.resource
            )));
        }
        if !self.waits_for_task_token() {
            return Ok(self.resource.clone());
        }
        match self.parameters.as_ref().and_then(|p| p.get("FunctionName")) {
            Some(Value::String(name)) => Ok(name.clone()),
            _ => Err(WorkflowError::Definition(
                "waitForTaskToken task without a literal Parameters.FunctionName".into(),
            )),
        }
    }
}

/// Replace every `${name}` in `text`; an unknown name is an error.
pub fn substitute(text: &str, values: &HashMap<String, String>) -> Result<String, WorkflowError> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("${") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find('}') else {
            return Err(WorkflowError::Definition(
                "unterminated `${` placeholder".into(),
            ));
        };
        let name = &after[..end];
        let value = values.get(name).ok_or_else(|| {
            WorkflowError::Definition(format!("no value for definition substitution `{name}`"))
        })?;
        out.push_str(value);
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The placeholder names a definition text uses, sorted.
pub fn placeholders(text: &str) -> Vec<String> {
    let mut names: Vec<String> = text
        .split("${")
        .skip(1)
        .filter_map(|s| s.split_once('}').map(|(name, _)| name.to_owned()))
        .collect();
    names.sort();
    names.dedup();
    names
}

/// Substitutions for running locally: `${XFunctionArn}` → `XFunction` (the name a
/// [`super::TaskRegistry`] handler is registered under), `${MaxParallelNodes}` → the given limit.
pub fn local_substitutions(text: &str, max_parallel_nodes: u32) -> HashMap<String, String> {
    placeholders(text)
        .into_iter()
        .map(|name| {
            let value = match name.strip_suffix("Arn") {
                Some(function) => function.to_owned(),
                None if name == "MaxParallelNodes" => max_parallel_nodes.to_string(),
                None => String::new(),
            };
            (name, value)
        })
        .filter(|(_, value)| !value.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load_local(text: &str) -> Result<StateMachine, WorkflowError> {
        StateMachine::load(text, &local_substitutions(text, 5))
    }

    #[test]
    fn the_shared_definition_loads_with_every_function_named() {
        let machine = load_local(MAPPING_ASL).unwrap();
        assert_eq!(machine.start_at, "LoadRepoContext");
        assert_eq!(
            machine.task_functions().unwrap(),
            [
                "AstFilterFunction",
                "CheckJobFlagsFunction",
                "CompleteJobFunction",
                "ConfidenceGateFunction",
                "EmbeddingRetrievalFunction",
                "FinalMappingFunction",
                "LoadRepoContextFunction",
                "PauseGateFunction",
                "PlanSemanticsFunction",
                "ReasoningAgentFunction",
                "RecordUnmappedFunction",
            ]
        );
        let Some(State::Map(map)) = machine.states.get("MapDagNodes") else {
            panic!("MapDagNodes is not a Map");
        };
        assert_eq!(map.max_concurrency, 5);
    }

    #[test]
    fn a_placeholder_without_a_value_is_an_error() {
        let err = StateMachine::load(MAPPING_ASL, &HashMap::new()).unwrap_err();
        assert!(
            err.to_string()
                .contains("no value for definition substitution"),
            "{err}"
        );
    }

    fn one_state(state: &str) -> String {
        format!(r#"{{"StartAt": "S", "States": {{"S": {state}}}}}"#)
    }

    #[test]
    fn unsupported_features_are_loud_and_named() {
        let cases = [
            (
                one_state(r#"{"Type": "Wait", "Seconds": 1, "End": true}"#),
                "Wait",
            ),
            (
                one_state(r#"{"Type": "Task", "Resource": "F", "TimeoutSeconds": 5, "End": true}"#),
                "TimeoutSeconds",
            ),
            (
                one_state(
                    r#"{"Type": "Choice", "Choices": [{"Variable": "$.n", "NumericEquals": 1, "Next": "S"}]}"#,
                ),
                "NumericEquals",
            ),
            (
                one_state(
                    r#"{"Type": "Map", "ItemProcessor": {"ProcessorConfig": {"Mode": "DISTRIBUTED"}, "StartAt": "T", "States": {"T": {"Type": "Succeed"}}}, "End": true}"#,
                ),
                "DISTRIBUTED",
            ),
            (
                one_state(
                    r#"{"Type": "Task", "Resource": "arn:aws:states:::sqs:sendMessage", "End": true}"#,
                ),
                "sqs:sendMessage",
            ),
        ];
        for (text, feature) in cases {
            let err = load_local(&text)
                .and_then(|m| m.task_functions().map(|_| m))
                .unwrap_err();
            assert!(
                matches!(err, WorkflowError::Unsupported(_)),
                "{feature}: {err:?}"
            );
            assert!(
                err.to_string().contains(feature),
                "{feature} not named in: {err}"
            );
        }
    }

    #[test]
    fn dangling_transitions_are_rejected() {
        let err = load_local(&one_state(r#"{"Type": "Pass", "Next": "Nowhere"}"#)).unwrap_err();
        assert!(err.to_string().contains("Nowhere"), "{err}");
    }
}

#[cfg(test)]
mod distributed_variant_tests {
    use super::*;

    const DISTRIBUTED: &str = include_str!("../../../../statemachine/mapping-distributed.asl.json");

    fn states(text: &str) -> serde_json::Map<String, Value> {
        let values: HashMap<String, String> = placeholders(text)
            .into_iter()
            .map(|name| (name, "1".to_owned()))
            .collect();
        let rendered = substitute(text, &values).unwrap();
        let root: Value = serde_json::from_str(&rendered).unwrap();
        root["States"].as_object().unwrap().clone()
    }

    #[test]
    fn the_distributed_variant_differs_only_in_how_it_maps() {
        let (inline, distributed) = (states(MAPPING_ASL), states(DISTRIBUTED));
        assert_eq!(
            inline.keys().collect::<Vec<_>>(),
            distributed.keys().collect::<Vec<_>>()
        );
        for (name, state) in &inline {
            if name != "MapDagNodes" {
                assert_eq!(Some(state), distributed.get(name), "state {name} drifted");
            }
        }
        let (map, dmap) = (&inline["MapDagNodes"], &distributed["MapDagNodes"]);
        assert_eq!(
            map["ItemProcessor"]["States"],
            dmap["ItemProcessor"]["States"]
        );
        assert_eq!(map["ItemSelector"], dmap["ItemSelector"]);
        assert_eq!(
            dmap["ItemProcessor"]["ProcessorConfig"]["Mode"],
            "DISTRIBUTED"
        );
        assert_eq!(dmap["ItemReader"]["Parameters"]["Key.$"], "$.dagNodesKey");
    }

    #[test]
    fn the_local_runner_refuses_the_distributed_variant_loudly() {
        let mut values = local_substitutions(DISTRIBUTED, 5);
        values.insert("BucketName".into(), "bucket".into());
        let err = StateMachine::load(DISTRIBUTED, &values).unwrap_err();
        assert!(matches!(err, WorkflowError::Unsupported(_)), "{err:?}");
        assert!(err.to_string().contains("state `MapDagNodes`"), "{err}");
    }
}
