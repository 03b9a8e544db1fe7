//! Reading an event log's lines as a stream, keeping per SQL execution only what is needed.
//!
//! For each SQL execution the plan is the `physicalPlanDescription` of the last
//! `SparkListenerSQLAdaptiveExecutionUpdate` when AQE re-planned, else of its
//! `SparkListenerSQLExecutionStart`; the start event's `description`, `details` (the call
//! site Spark recorded, which can name the user's file and line), `rootExecutionId` and time are
//! kept too, with the time of `SparkListenerSQLExecutionEnd` (the execution's duration), and
//! `SparkListenerLogStart` gives the Spark version. The same start and update events carry
//! `sparkPlanInfo`, the plan's tree with each operator's metrics named by accumulator id; the
//! accumulators' totals come from `SparkListenerStageCompleted` (each stage's `Accumulables`,
//! whose `Value` is the running total) and `SparkListenerDriverAccumUpdates` (metrics the driver
//! sets). Every other line (tasks, most of a log) is dropped without being parsed, one line
//! buffer reused throughout, so memory follows the plans, not the log: a 1 GB log of task events
//! reads in constant memory. Those lines are still checked to be JSON (without building a
//! value), so a malformed one is reported.
//!
//! Tolerance: a line that is not UTF-8 or not JSON (a malformed line, the cut last
//! line of an in-progress log) is skipped with a warning naming its line; so is a compressed
//! stream that ends early. Only a log from which no event could be read is an error.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::io::BufRead;

use serde::Deserialize;
use serde::de::IgnoredAny;

use crate::plan::error::PlanError;

const START: &str = "SparkListenerSQLExecutionStart";
const END: &str = "SparkListenerSQLExecutionEnd";
const ADAPTIVE_UPDATE: &str = "SparkListenerSQLAdaptiveExecutionUpdate";
const LOG_START: &str = "SparkListenerLogStart";
const ENVIRONMENT: &str = "SparkListenerEnvironmentUpdate";
const JOB_START: &str = "SparkListenerJobStart";
const STAGE_COMPLETED: &str = "SparkListenerStageCompleted";
const DRIVER_ACCUM_UPDATES: &str = "SparkListenerDriverAccumUpdates";

/// Every event kind read; a line naming none of them is never decoded.
const READ_EVENTS: [&str; 8] = [
    LOG_START,
    START,
    END,
    ADAPTIVE_UPDATE,
    ENVIRONMENT,
    JOB_START,
    STAGE_COMPLETED,
    DRIVER_ACCUM_UPDATES,
];

/// Most accumulator totals kept: a log's SQL metrics number in the thousands; past this, later
/// ones are dropped (their operators show no measurement) rather than growing without bound.
const MAX_ACCUMULATORS: usize = 1 << 20;

/// Job properties that can name where the user's code ran.
const JOB_HINTS: [&str; 4] = [
    "callSite.short",
    "callSite.long",
    "spark.job.description",
    "spark.databricks.notebook.path",
];
/// Most hints kept per execution (and for the log as a whole); longer ones are cut.
const MAX_HINTS: usize = 8;
const MAX_HINT_CHARS: usize = 4096;

/// Longest line kept: Spark writes a plan into one line, never near this; a longer line is
/// skipped (with a warning) rather than buffered.
const MAX_LINE: usize = 256 << 20;

#[derive(Deserialize)]
pub(super) struct EventHead<'a> {
    #[serde(rename = "Event", borrow)]
    pub event: Cow<'a, str>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SqlEvent {
    execution_id: u64,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    details: Option<String>,
    #[serde(default)]
    physical_plan_description: Option<String>,
    /// The execution that started this one (Spark ≥ 3.4); its own id for a top-level one.
    #[serde(default)]
    root_execution_id: Option<u64>,
    /// Epoch milliseconds of the event.
    #[serde(default)]
    time: Option<u64>,
}

/// The plan-info half of a start or update event, read apart from the rest so a plan nested
/// past the JSON reader's depth limit loses only its metrics, never its plan.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct WithPlanInfo {
    #[serde(default)]
    spark_plan_info: Option<PlanInfo>,
}

/// `sparkPlanInfo`: the physical plan as Spark's listeners see it — each operator's name, its
/// children (then its subqueries; a query stage's plan, a reused exchange's original) and its
/// metrics, named by accumulator id. `simpleString` and `metadata` are not kept.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct PlanInfo {
    pub node_name: String,
    #[serde(default)]
    pub children: Vec<PlanInfo>,
    #[serde(default)]
    pub metrics: Vec<PlanInfoMetric>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct PlanInfoMetric {
    pub name: String,
    pub accumulator_id: u64,
    /// `sum`, `size` (bytes), `timing` (ms), `nsTiming` (ns), `average`.
    pub metric_type: String,
}

#[derive(Deserialize)]
struct StageCompleted {
    #[serde(rename = "Stage Info")]
    stage: StageInfo,
}

#[derive(Deserialize)]
struct StageInfo {
    #[serde(rename = "Accumulables", default)]
    accumulables: Vec<Accumulable>,
}

#[derive(Deserialize)]
struct Accumulable {
    #[serde(rename = "ID")]
    id: u64,
    #[serde(rename = "Value", default)]
    value: serde_json::Value,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DriverAccumUpdates {
    #[serde(default)]
    accum_updates: Vec<(u64, serde_json::Value)>,
}

#[derive(Deserialize)]
struct JobStart {
    #[serde(rename = "Properties", default)]
    properties: BTreeMap<String, serde_json::Value>,
}

#[derive(Deserialize)]
struct EnvironmentUpdate {
    #[serde(rename = "System Properties", default)]
    system: BTreeMap<String, serde_json::Value>,
    #[serde(rename = "Spark Properties", default)]
    spark: BTreeMap<String, serde_json::Value>,
}

#[derive(Deserialize)]
struct LogStart {
    #[serde(rename = "Spark Version", default)]
    spark_version: Option<String>,
}

/// What the log says about one SQL execution.
#[derive(Default)]
pub(super) struct Execution {
    pub description: Option<String>,
    pub call_site: Option<String>,
    /// The plan text and the log line it came from.
    pub plan: Option<(String, usize)>,
    pub root_execution_id: Option<u64>,
    /// Epoch milliseconds of the start and end events.
    pub started_ms: Option<u64>,
    pub ended_ms: Option<u64>,
    /// What its jobs' properties say about where it ran (`callSite.short`, …).
    pub hints: Vec<String>,
    /// The plan's `sparkPlanInfo`, from the same event as `plan`.
    pub plan_info: Option<PlanInfo>,
    from_update: bool,
}

impl Execution {
    /// Milliseconds from its start event to its end event, when both were read.
    pub fn duration_ms(&self) -> Option<u64> {
        self.started_ms
            .zip(self.ended_ms)
            .map(|(start, end)| end.saturating_sub(start))
    }
}

/// What a log holds for plan reading.
pub(super) struct EventLog {
    pub executions: BTreeMap<u64, Execution>,
    pub spark_version: Option<String>,
    /// What the environment says about the submitted program (`sun.java.command`, a notebook).
    pub entry_hints: Vec<String>,
    /// Lines skipped (`line N: …`).
    pub warnings: Vec<String>,
    /// Lines read (the last line number).
    pub lines: usize,
    /// Each accumulator's total as last reported (stage completions, driver updates).
    pub accumulators: HashMap<u64, f64>,
}

/// Read a whole log from `input`, line by line.
pub(super) fn read_events(mut input: impl BufRead) -> Result<EventLog, PlanError> {
    let mut log = EventLog {
        executions: BTreeMap::new(),
        spark_version: None,
        entry_hints: Vec::new(),
        warnings: Vec::new(),
        lines: 0,
        accumulators: HashMap::new(),
    };
    let mut lines_read = 0usize;
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match read_line(&mut input, &mut buf) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) if lines_read > 0 => {
                log.warnings.push(format!(
                    "line {}: the log cannot be read past line {}: {e}",
                    log.lines + 1,
                    log.lines
                ));
                break;
            }
            Err(e) => {
                return Err(PlanError::syntax(
                    1,
                    1,
                    &format!("a readable event log ({e})"),
                    "",
                ));
            }
        }
        log.lines += 1;
        let line_no = log.lines;
        let bytes = if line_no == 1 {
            buf.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&buf)
        } else {
            &buf[..]
        };
        if bytes.len() > MAX_LINE {
            log.warnings
                .push(format!("line {line_no}: longer than 256 MiB, skipped"));
            continue;
        }
        if bytes.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        lines_read += 1;
        if !carries_plan(bytes) {
            // checked, never built: a malformed line is reported, the rest costs no memory
            if let Err(e) = serde_json::from_slice::<IgnoredAny>(bytes) {
                log.warnings
                    .push(format!("line {line_no}: not a JSON event ({e}), skipped"));
            }
            continue;
        }
        match std::str::from_utf8(bytes) {
            Ok(line) => {
                if let Err(why) = read_event(&mut log, line.trim(), line_no) {
                    log.warnings.push(format!("line {line_no}: {why}, skipped"));
                }
            }
            Err(e) => log.warnings.push(format!(
                "line {line_no}: invalid UTF-8 at byte {} of the line, skipped",
                e.valid_up_to()
            )),
        }
    }
    Ok(log)
}

/// One line into `buf` (with its newline); `false` at the end. Reads past [`MAX_LINE`] are
/// discarded, keeping only a marker length.
fn read_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<bool> {
    let mut any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(any);
        }
        any = true;
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(p) => (p + 1, true),
            None => (chunk.len(), false),
        };
        if buf.len() <= MAX_LINE {
            buf.extend_from_slice(&chunk[..take]);
        }
        input.consume(take);
        if done {
            return Ok(true);
        }
    }
}

/// Whether a line may be one of the events plan reading needs (checked on bytes, so the rest
/// of a log is never decoded).
fn carries_plan(line: &[u8]) -> bool {
    READ_EVENTS
        .iter()
        .any(|name| contains(line, name.as_bytes()))
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Read one plan-carrying line into `log`; an error says why the line is unusable.
fn read_event(log: &mut EventLog, line: &str, line_no: usize) -> Result<(), String> {
    let head: EventHead<'_> =
        serde_json::from_str(line).map_err(|e| format!("not a JSON event ({e})"))?;
    // the event's own name; a name that only appeared inside some other event's text is not it
    let Some(kind) = READ_EVENTS
        .into_iter()
        .find(|kind| head.event.ends_with(kind))
    else {
        return Ok(());
    };
    match kind {
        STAGE_COMPLETED => {
            let stage: StageCompleted = serde_json::from_str(line).map_err(|e| e.to_string())?;
            for acc in stage.stage.accumulables {
                record_accumulator(log, acc.id, &acc.value);
            }
            return Ok(());
        }
        DRIVER_ACCUM_UPDATES => {
            let updates: DriverAccumUpdates =
                serde_json::from_str(line).map_err(|e| e.to_string())?;
            for (id, value) in updates.accum_updates {
                record_accumulator(log, id, &value);
            }
            return Ok(());
        }
        LOG_START => {
            let start: LogStart = serde_json::from_str(line).map_err(|e| e.to_string())?;
            log.spark_version = start.spark_version;
            return Ok(());
        }
        JOB_START => {
            let job: JobStart = serde_json::from_str(line).map_err(|e| e.to_string())?;
            let execution = job
                .properties
                .get("spark.sql.execution.id")
                .and_then(property_text)
                .and_then(|id| id.parse::<u64>().ok());
            // a job of an execution whose start was not read gives nothing to hang hints on
            if let Some(exec) = execution.and_then(|id| log.executions.get_mut(&id)) {
                for key in JOB_HINTS {
                    if let Some(value) = job.properties.get(key).and_then(property_text) {
                        add_hint(&mut exec.hints, value);
                    }
                }
            }
            return Ok(());
        }
        ENVIRONMENT => {
            let env: EnvironmentUpdate = serde_json::from_str(line).map_err(|e| e.to_string())?;
            let named = [
                env.system.get("sun.java.command"),
                env.spark.get("spark.databricks.notebook.path"),
                env.spark.get("spark.submit.pyFiles"),
            ];
            for value in named.into_iter().flatten().filter_map(property_text) {
                add_hint(&mut log.entry_hints, value);
            }
            return Ok(());
        }
        _ => {}
    }
    let event: SqlEvent = serde_json::from_str(line)
        .map_err(|e| format!("{kind} event without a numeric `executionId` ({e})"))?;
    let plan_info = || read_plan_info(line);
    let exec = log.executions.entry(event.execution_id).or_default();
    if kind == END {
        exec.ended_ms = event.time;
    } else if kind == START {
        exec.description = event.description;
        exec.call_site = event.details.filter(|d| !d.is_empty());
        exec.root_execution_id = event.root_execution_id;
        exec.started_ms = event.time;
        if !exec.from_update {
            exec.plan = event.physical_plan_description.map(|p| (p, line_no));
            exec.plan_info = plan_info();
        }
    } else if let Some(plan) = event.physical_plan_description {
        exec.plan = Some((plan, line_no));
        exec.plan_info = plan_info();
        exec.from_update = true;
    }
    Ok(())
}

/// Deepest JSON nesting read for a `sparkPlanInfo`: two levels per operator, so plans 2,048
/// operators deep. JSON's own reader stops at 128 levels (64 operators, less than a TPC-H query
/// with its codegen wrappers); past this bound the plan keeps its text but no metrics.
const MAX_PLAN_INFO_DEPTH: usize = 4096;

/// The event's `sparkPlanInfo`, or `None` when it has none, nests past [`MAX_PLAN_INFO_DEPTH`]
/// (checked on the bytes first) or does not read.
fn read_plan_info(line: &str) -> Option<PlanInfo> {
    if json_depth(line.as_bytes()) > MAX_PLAN_INFO_DEPTH {
        return None;
    }
    let mut json = serde_json::Deserializer::from_str(line);
    json.disable_recursion_limit();
    // the stack grows on the heap as deep as the (bounded) nesting needs
    let with = WithPlanInfo::deserialize(serde_stacker::Deserializer::new(&mut json)).ok()?;
    with.spark_plan_info
}

/// The deepest nesting of objects and arrays in a JSON text (strings skipped).
fn json_depth(bytes: &[u8]) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for &b in bytes {
        if in_string {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Keep an accumulator's latest total (Spark writes numbers, or numbers as strings; anything
/// else is not a measurement).
fn record_accumulator(log: &mut EventLog, id: u64, value: &serde_json::Value) {
    let number = match value {
        serde_json::Value::Number(n) => n.as_f64(),
        serde_json::Value::String(s) => s.trim().parse::<f64>().ok(),
        _ => None,
    };
    let Some(number) = number.filter(|n| n.is_finite()) else {
        return;
    };
    if log.accumulators.len() < MAX_ACCUMULATORS || log.accumulators.contains_key(&id) {
        log.accumulators.insert(id, number);
    }
}

/// A property's text (Spark writes strings; an id may come as a number).
fn property_text(value: &serde_json::Value) -> Option<String> {
    match value {
        serde_json::Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Keep a hint once, cut to [`MAX_HINT_CHARS`], at most [`MAX_HINTS`].
fn add_hint(hints: &mut Vec<String>, value: String) {
    let value: String = value.chars().take(MAX_HINT_CHARS).collect();
    if hints.len() < MAX_HINTS && !hints.contains(&value) {
        hints.push(value);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START_LINE: &str = r#"{"Event":"org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart","executionId":3,"description":"q","details":"","physicalPlanDescription":"== Physical Plan ==\nLocalTableScan [a#1]\n"}"#;

    #[test]
    fn malformed_plan_lines_become_warnings_with_their_line() {
        let text = format!(
            "{START_LINE}\n{{\"Event\":\"SparkListenerSQLExecutionStart\", oops\n\n{{\"Event\":\"x\"}}\n{{\"Event\":\"SparkListenerSQLExecutionStart\",\"executionId\":4,\"physi"
        );
        let log = read_events(text.as_bytes()).expect("log");
        assert_eq!(log.executions.len(), 1);
        assert_eq!(log.warnings.len(), 2, "{:?}", log.warnings);
        let other = read_events(&b"{\"Event\":\"SparkListenerTaskEnd\", x}\n"[..]).expect("log");
        assert!(other.warnings[0].starts_with("line 1: not a JSON event"));
        assert!(log.warnings[0].starts_with("line 2: not a JSON event"));
        assert!(log.warnings[1].starts_with("line 5: "));
    }

    /// A start event whose `sparkPlanInfo` is a chain `depth` operators deep.
    fn start_with_plan_info(depth: usize) -> String {
        let open = r#"{"nodeName":"Project","metrics":[],"children":["#;
        let info = format!(
            "{}{}{}",
            open.repeat(depth),
            r#"{"nodeName":"LocalTableScan","children":[]}"#,
            "]}".repeat(depth)
        );
        START_LINE.replacen(
            r#""details":"","#,
            &format!(r#""details":"","sparkPlanInfo":{info},"#),
            1,
        )
    }

    fn plan_info_depth(info: &PlanInfo) -> usize {
        let mut depth = 1;
        let mut node = info;
        while let Some(child) = node.children.first() {
            depth += 1;
            node = child;
        }
        depth
    }

    #[test]
    fn plan_info_is_read_past_the_json_readers_depth_and_dropped_past_ours() {
        // 300 operators: 600 levels of JSON, past serde_json's 128
        let log = read_events(start_with_plan_info(300).as_bytes()).expect("log");
        let exec = &log.executions[&3];
        assert!(exec.plan.is_some());
        assert_eq!(plan_info_depth(exec.plan_info.as_ref().unwrap()), 301);
        // past MAX_PLAN_INFO_DEPTH: the plan stays, its metrics' tree does not
        let deep = read_events(start_with_plan_info(MAX_PLAN_INFO_DEPTH).as_bytes()).expect("log");
        let exec = &deep.executions[&3];
        assert!(exec.plan.is_some() && exec.plan_info.is_none());
        assert!(deep.warnings.is_empty(), "{:?}", deep.warnings);
    }

    #[test]
    fn accumulator_totals_come_from_stage_completions_and_driver_updates() {
        let lines = [
            r#"{"Event":"SparkListenerStageCompleted","Stage Info":{"Stage ID":0,"Accumulables":[{"ID":7,"Name":"number of output rows","Value":"12"},{"ID":8,"Name":"x","Value":5}]}}"#,
            r#"{"Event":"SparkListenerStageCompleted","Stage Info":{"Stage ID":1,"Accumulables":[{"ID":7,"Name":"number of output rows","Value":"30"},{"ID":9,"Name":"y","Value":"n/a"}]}}"#,
            r#"{"Event":"org.apache.spark.sql.execution.ui.SparkListenerDriverAccumUpdates","executionId":3,"accumUpdates":[[11,2048]]}"#,
        ];
        let log = read_events(lines.join("\n").as_bytes()).expect("log");
        // a running total: the last value seen
        assert_eq!(log.accumulators.get(&7), Some(&30.0));
        assert_eq!(log.accumulators.get(&8), Some(&5.0));
        assert_eq!(log.accumulators.get(&11), Some(&2048.0));
        assert_eq!(log.accumulators.get(&9), None, "not a number");
        assert!(log.warnings.is_empty(), "{:?}", log.warnings);
    }

    #[test]
    fn bom_crlf_and_invalid_utf8_lines() {
        let text = [
            b"\xef\xbb\xbf".to_vec(),
            START_LINE.as_bytes().to_vec(),
            b"\r\n{\"Event\":\"SparkListenerLogStart\xff\"}\r\n".to_vec(),
        ]
        .concat();
        let log = read_events(&text[..]).expect("log");
        assert_eq!(log.executions.len(), 1);
        assert_eq!(log.warnings.len(), 1);
        assert!(log.warnings[0].contains("UTF-8"), "{:?}", log.warnings);
    }

    #[test]
    fn a_stream_that_fails_midway_keeps_what_was_read() {
        struct Failing(std::io::Cursor<Vec<u8>>);
        impl std::io::Read for Failing {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                match self.0.read(buf)? {
                    0 => Err(std::io::Error::other("corrupt block")),
                    n => Ok(n),
                }
            }
        }
        let input = Failing(std::io::Cursor::new(format!("{START_LINE}\n").into_bytes()));
        let log = read_events(std::io::BufReader::new(input)).expect("log");
        assert_eq!(log.executions.len(), 1);
        assert!(
            log.warnings[0].contains("corrupt block"),
            "{:?}",
            log.warnings
        );
    }
}
