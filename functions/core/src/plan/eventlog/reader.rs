//! Reading an event log's lines as a stream, keeping per SQL execution only what is needed.
//!
//! For each SQL execution the plan is the `physicalPlanDescription` of the last
//! `SparkListenerSQLAdaptiveExecutionUpdate` when AQE re-planned, else of its
//! `SparkListenerSQLExecutionStart`; the start event's `description`, `details` (the call
//! site Spark recorded, which can name the user's file and line), `rootExecutionId` and time are
//! kept too, with the time of `SparkListenerSQLExecutionEnd` (the execution's duration), and
//! `SparkListenerLogStart` gives the Spark version. Every other line (tasks, stages, metrics:
//! most of a log) is dropped without being parsed, one line buffer reused throughout, so memory
//! follows the plans, not the log: a 1 GB log of task events reads in constant memory. Those
//! lines are still checked to be JSON (without building a value), so a malformed one is
//! reported.
//!
//! Tolerance: a line that is not UTF-8 or not JSON (a malformed line, the cut last
//! line of an in-progress log) is skipped with a warning naming its line; so is a compressed
//! stream that ends early. Only a log from which no event could be read is an error.

use std::borrow::Cow;
use std::collections::BTreeMap;
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
}

/// Read a whole log from `input`, line by line.
pub(super) fn read_events(mut input: impl BufRead) -> Result<EventLog, PlanError> {
    let mut log = EventLog {
        executions: BTreeMap::new(),
        spark_version: None,
        entry_hints: Vec::new(),
        warnings: Vec::new(),
        lines: 0,
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
    [
        LOG_START,
        START,
        END,
        ADAPTIVE_UPDATE,
        ENVIRONMENT,
        JOB_START,
    ]
    .iter()
    .any(|name| contains(line, name.as_bytes()))
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

/// Read one plan-carrying line into `log`; an error says why the line is unusable.
fn read_event(log: &mut EventLog, line: &str, line_no: usize) -> Result<(), String> {
    let kind = if line.contains(ADAPTIVE_UPDATE) {
        ADAPTIVE_UPDATE
    } else if line.contains(START) {
        START
    } else if line.contains(END) {
        END
    } else if line.contains(JOB_START) {
        JOB_START
    } else if line.contains(ENVIRONMENT) {
        ENVIRONMENT
    } else {
        LOG_START
    };
    let head: EventHead<'_> =
        serde_json::from_str(line).map_err(|e| format!("not a JSON event ({e})"))?;
    if !head.event.ends_with(kind) {
        return Ok(()); // the name appeared inside some other event's text
    }
    match kind {
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
        }
    } else if let Some(plan) = event.physical_plan_description {
        exec.plan = Some((plan, line_no));
        exec.from_update = true;
    }
    Ok(())
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
