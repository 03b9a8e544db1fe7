//! ASL input/output processing: the reference paths (`$`, `$.a.b`, `$$.Map.Item.Value.x`),
//! payload templates (`Parameters`, `ItemSelector`, `ResultSelector` with `.$` keys) and
//! `ResultPath` merging.
//!
//! Only dotted field paths are supported; brackets, wildcards, filters and intrinsic functions
//! (`States.Format(…)`) are rejected loudly because the definition does not use them. A path
//! that selects nothing is the ASL runtime error `States.Runtime`, which no Catch handles.

use super::StepError;
use serde_json::{Map, Value};

/// Where a path is evaluated: `$…` against the state's input, `$$…` against the context object.
pub struct Scope<'a> {
    pub input: &'a Value,
    pub context: &'a Value,
}

fn runtime(cause: String) -> StepError {
    StepError::new("States.Runtime", cause)
}

/// The segments of a dotted path after its root (`$` or `$$`).
fn segments<'p>(path: &'p str, root: &str) -> Result<Vec<&'p str>, StepError> {
    let rest = &path[root.len()..];
    if rest.is_empty() {
        return Ok(Vec::new());
    }
    let Some(rest) = rest.strip_prefix('.') else {
        return Err(unsupported_path(path));
    };
    let segs: Vec<&str> = rest.split('.').collect();
    let plain = |s: &&str| {
        !s.is_empty()
            && s.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    };
    if segs.iter().all(plain) {
        Ok(segs)
    } else {
        Err(unsupported_path(path))
    }
}

fn unsupported_path(path: &str) -> StepError {
    runtime(format!(
        "unsupported ASL feature: path `{path}` (only `$`, `$.a.b` and `$$.a.b` are implemented)"
    ))
}

/// Select the value at `path` (a `$`/`$$` reference path).
pub fn select(path: &str, scope: &Scope<'_>) -> Result<Value, StepError> {
    let (root, doc) = if path.starts_with("$$") {
        ("$$", scope.context)
    } else if path.starts_with('$') {
        ("$", scope.input)
    } else {
        return Err(runtime(format!(
            "unsupported ASL feature: `{path}` is not a reference path (intrinsic functions are not implemented)"
        )));
    };
    let mut current = doc;
    for seg in segments(path, root)? {
        current = current
            .get(seg)
            .ok_or_else(|| runtime(format!("path `{path}` selects nothing in the input")))?;
    }
    Ok(current.clone())
}

/// Apply an `InputPath`/`OutputPath`: a path string, or `null` meaning `{}`.
pub fn filter(path: &Value, scope: &Scope<'_>) -> Result<Value, StepError> {
    match path {
        Value::Null => Ok(Value::Object(Map::new())),
        Value::String(p) => select(p, scope),
        other => Err(runtime(format!(
            "path must be a string or null, got {other}"
        ))),
    }
}

/// Render a payload template: keys ending in `.$` take the value their path selects.
pub fn render(template: &Value, scope: &Scope<'_>) -> Result<Value, StepError> {
    match template {
        Value::Object(fields) => {
            let mut out = Map::new();
            for (key, value) in fields {
                match key.strip_suffix(".$") {
                    Some(name) => {
                        let Value::String(path) = value else {
                            return Err(runtime(format!("`{key}` must hold a path string")));
                        };
                        out.insert(name.to_owned(), select(path, scope)?);
                    }
                    None => {
                        out.insert(key.clone(), render(value, scope)?);
                    }
                }
            }
            Ok(Value::Object(out))
        }
        Value::Array(items) => items
            .iter()
            .map(|item| render(item, scope))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        other => Ok(other.clone()),
    }
}

/// Combine a state's raw input with its result per `ResultPath`: `$` replaces, `null` discards
/// the result, `$.a.b` sets that field (creating objects on the way).
pub fn merge_result(
    raw_input: &Value,
    result: Value,
    result_path: &Value,
) -> Result<Value, StepError> {
    let path = match result_path {
        Value::Null => return Ok(raw_input.clone()),
        Value::String(p) => p,
        other => {
            return Err(runtime(format!(
                "ResultPath must be a string or null, got {other}"
            )));
        }
    };
    if path.starts_with("$$") {
        return Err(unsupported_path(path));
    }
    let segs = segments(path, "$")?;
    let Some((last, parents)) = segs.split_last() else {
        return Ok(result);
    };
    let mut output = raw_input.clone();
    let mut node = &mut output;
    for seg in parents {
        let Value::Object(fields) = node else {
            return Err(runtime(format!(
                "ResultPath `{path}` runs through a non-object"
            )));
        };
        node = fields
            .entry((*seg).to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    let Value::Object(fields) = node else {
        return Err(runtime(format!(
            "ResultPath `{path}` runs through a non-object"
        )));
    };
    fields.insert((*last).to_owned(), result);
    Ok(output)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn selects_and_renders_with_context() {
        let input = json!({"jobId": "j1", "flags": {"status": "paused"}});
        let context = json!({"Map": {"Item": {"Value": {"dagNodeId": "7"}, "Index": 3}}});
        let scope = Scope {
            input: &input,
            context: &context,
        };
        assert_eq!(select("$.flags.status", &scope).unwrap(), json!("paused"));
        assert_eq!(select("$", &scope).unwrap(), input);
        let rendered = render(
            &json!({"jobId.$": "$.jobId", "node.$": "$$.Map.Item.Value.dagNodeId", "fixed": {"k": 1}}),
            &scope,
        )
        .unwrap();
        assert_eq!(
            rendered,
            json!({"jobId": "j1", "node": "7", "fixed": {"k": 1}})
        );
    }

    #[test]
    fn missing_paths_and_unsupported_syntax_are_runtime_errors() {
        let input = json!({"a": [1, 2]});
        let context = json!({});
        let scope = Scope {
            input: &input,
            context: &context,
        };
        let missing = select("$.b", &scope).unwrap_err();
        assert_eq!(missing.error, "States.Runtime");
        let bracket = select("$.a[0]", &scope).unwrap_err();
        assert!(
            bracket.cause.contains("unsupported ASL feature"),
            "{}",
            bracket.cause
        );
        let intrinsic = render(&json!({"x.$": "States.Format('{}', $.a)"}), &scope).unwrap_err();
        assert!(intrinsic.cause.contains("intrinsic"), "{}", intrinsic.cause);
    }

    #[test]
    fn result_path_replaces_discards_or_nests() {
        let raw = json!({"jobId": "j1"});
        assert_eq!(merge_result(&raw, json!(5), &json!("$")).unwrap(), json!(5));
        assert_eq!(merge_result(&raw, json!(5), &Value::Null).unwrap(), raw);
        assert_eq!(
            merge_result(&raw, json!({"s": 1}), &json!("$.out.semantics")).unwrap(),
            json!({"jobId": "j1", "out": {"semantics": {"s": 1}}})
        );
    }
}
