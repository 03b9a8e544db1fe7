//! Plan inputs as people have them on disk: plain text, compressed event logs and rolled event
//! log folders, opened as streams and read into a [`PlanInput`].
//!
//! * **Codecs** (`spark.eventLog.compress`): see [`codec`] — recognised by magic bytes, the
//!   extension only explaining a file whose bytes match no codec.
//! * **Rolled logs** (`spark.eventLog.rolling.enabled`): see [`rolled`].
//! * **Event logs are streamed**: the decoded stream is read line by line and only what plan
//!   reading needs is kept ([`ReadLog`]), so a 1 GB log reads in constant memory. Any other input
//!   is plan text of modest size, read whole.
//! * A UTF-8 byte-order mark is dropped; text that is not UTF-8 is an error naming the byte
//!   offset and line.

use super::eventlog::{ReadLog, codec, is_event_line, rolled};
use super::{Application, ExecutionSummary, ParseOptions, ParsedExecution, PlanError, PlanGraph};
use std::io::{BufRead, BufReader, Cursor, Read};
use std::path::Path;

pub use super::eventlog::codec::Codec;

/// Largest plan text (not an event log) read; a real plan is a few megabytes at most.
pub const MAX_TEXT_BYTES: u64 = 256 << 20;

/// Why an input could not be read.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("reading {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: {codec} data is corrupt: {message}")]
    Corrupt {
        path: String,
        codec: &'static str,
        message: String,
    },
    #[error("{path}: rolled event log folder holds no `events_<N>_…` file")]
    EmptyRolledLog { path: String },
    #[error("{path}: {source}")]
    Text { path: String, source: PlanError },
}

/// An input, read: an event log (its executions' plans kept as text) or plan text.
pub enum PlanInput {
    EventLog(ReadLog),
    Text(String),
}

impl PlanInput {
    /// The one plan (the execution `options` selects, or the only one).
    pub fn parse(self, options: &ParseOptions) -> Result<PlanGraph, PlanError> {
        match self {
            PlanInput::EventLog(log) => log.parse(options),
            PlanInput::Text(text) => super::parse_plan(&text, options),
        }
    }

    /// The plans a job maps: the one plan, or every execution (those `wanted` names).
    pub fn parse_application(self, wanted: Option<&[u64]>) -> Result<Application, PlanError> {
        match self {
            PlanInput::EventLog(log) => {
                if wanted.is_none_or(|w| w.len() > 1) && log.execution_ids().len() > 1 {
                    return log.parse_application(wanted);
                }
                let options = ParseOptions {
                    execution_id: wanted.and_then(|w| w.first().copied()),
                };
                log.parse(&options).map(Application::single)
            }
            PlanInput::Text(text) => super::parse_application(&text, wanted),
        }
    }

    /// Every SQL execution, each parsed on its own.
    pub fn parse_every_execution(self) -> Result<Vec<ParsedExecution>, PlanError> {
        match self {
            PlanInput::EventLog(log) => log.parse_every_execution(),
            PlanInput::Text(text) => super::parse_every_execution(&text),
        }
    }

    /// The SQL executions it holds (empty for plan text, always one plan).
    pub fn list_executions(&self) -> Result<Vec<ExecutionSummary>, PlanError> {
        match self {
            PlanInput::EventLog(log) => Ok(log.list_executions()),
            PlanInput::Text(text) => super::list_executions(text),
        }
    }

    /// Whether it holds several executions (so one must be chosen to get one plan).
    pub fn holds_several_executions(&self) -> Result<bool, PlanError> {
        Ok(match self {
            PlanInput::EventLog(log) => log.execution_ids().len() > 1,
            PlanInput::Text(_) => self.list_executions()?.len() > 1,
        })
    }
}

/// Read the plan input at `path`: a file, compressed or not, or a rolled log folder.
pub fn open_path(path: &Path) -> Result<PlanInput, InputError> {
    let shown = path.display().to_string();
    let io = |source| InputError::Io {
        path: shown.clone(),
        source,
    };
    if path.is_dir() {
        let files = rolled::rolled_files(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => InputError::EmptyRolledLog {
                path: shown.clone(),
            },
            _ => io(e),
        })?;
        let stream = BufReader::new(rolled::RolledReader::new(files));
        return read_decoded(Box::new(stream), Codec::Plain, &shown);
    }
    let file = std::fs::File::open(path).map_err(io)?;
    read_stream(Box::new(BufReader::new(file)), &shown)
}

/// Read a stream (standard input, a file) whose first bytes tell its codec; `name` is shown in
/// errors and its extension explains a file whose bytes match no codec.
pub fn read_stream(
    mut input: Box<dyn BufRead + Send>,
    name: &str,
) -> Result<PlanInput, InputError> {
    let codec = Codec::from_magic(input.fill_buf().map_err(|source| InputError::Io {
        path: name.to_owned(),
        source,
    })?);
    let decoded = codec::decode(input, Some(name)).map_err(|e| InputError::Corrupt {
        path: name.to_owned(),
        codec: Codec::from_name(name).unwrap_or(codec).name(),
        message: e.to_string(),
    })?;
    read_decoded(
        Box::new(BufReader::with_capacity(64 << 10, decoded)),
        codec,
        name,
    )
}

/// Peek at the first line: an event log is streamed, anything else read whole as text.
fn read_decoded(
    mut input: Box<dyn BufRead + Send>,
    codec: Codec,
    name: &str,
) -> Result<PlanInput, InputError> {
    let failed = |e: std::io::Error| match codec {
        Codec::Plain => InputError::Io {
            path: name.to_owned(),
            source: e,
        },
        _ => InputError::Corrupt {
            path: name.to_owned(),
            codec: codec.name(),
            message: e.to_string(),
        },
    };
    let mut head = Vec::new();
    while input.read_until(b'\n', &mut head).map_err(failed)? > 0 {
        if head.iter().any(|b| !b.is_ascii_whitespace()) {
            break;
        }
    }
    let first = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&head);
    if is_event_line(&String::from_utf8_lossy(first)) {
        let log =
            ReadLog::read(Cursor::new(head).chain(input)).map_err(|source| InputError::Text {
                path: name.to_owned(),
                source,
            })?;
        return Ok(PlanInput::EventLog(log));
    }
    // plan text is small; a decompressed stream that is not an event log is held whole, so it
    // is bounded (a compression bomb ends here, not in memory)
    let limit = MAX_TEXT_BYTES.saturating_sub(head.len() as u64);
    input
        .take(limit + 1)
        .read_to_end(&mut head)
        .map_err(failed)?;
    if head.len() as u64 > MAX_TEXT_BYTES {
        return Err(InputError::Text {
            path: name.to_owned(),
            source: PlanError::syntax(
                1,
                1,
                "plan text under 256 MiB (larger inputs are read only as event logs)",
                "",
            ),
        });
    }
    text_of(head)
        .map(PlanInput::Text)
        .map_err(|source| InputError::Text {
            path: name.to_owned(),
            source,
        })
}

/// The text of the plan input at `path`, decoded (event logs included, whole).
pub fn read_plan_input(path: &Path) -> Result<String, InputError> {
    let shown = path.display().to_string();
    let mut stream: Box<dyn Read + Send> = if path.is_dir() {
        let files = rolled::rolled_files(path).map_err(|_| InputError::EmptyRolledLog {
            path: shown.clone(),
        })?;
        Box::new(rolled::RolledReader::new(files))
    } else {
        let file = std::fs::File::open(path).map_err(|source| InputError::Io {
            path: shown.clone(),
            source,
        })?;
        let name = path.file_name().and_then(|n| n.to_str());
        codec::decode(Box::new(BufReader::new(file)), name).map_err(|e| InputError::Corrupt {
            path: shown.clone(),
            codec: name
                .and_then(Codec::from_name)
                .unwrap_or(Codec::Plain)
                .name(),
            message: e.to_string(),
        })?
    };
    let mut bytes = Vec::new();
    stream
        .read_to_end(&mut bytes)
        .map_err(|source| InputError::Io {
            path: shown.clone(),
            source,
        })?;
    text_of(bytes).map_err(|source| InputError::Text {
        path: shown,
        source,
    })
}

/// Bytes as UTF-8 text without a byte-order mark; invalid UTF-8 is a `PARSE_ERROR` naming the
/// byte offset and its line.
pub fn text_of(mut bytes: Vec<u8>) -> Result<String, PlanError> {
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        bytes.drain(..3);
    }
    String::from_utf8(bytes).map_err(|err| {
        let offset = err.utf8_error().valid_up_to();
        let before = &err.as_bytes()[..offset];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = offset
            - before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1)
            + 1;
        PlanError::syntax(
            line,
            column,
            &format!("UTF-8 text (invalid byte at offset {offset})"),
            "a byte that is not UTF-8",
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const LOG: &[u8] = b"{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.0\"}\n";

    fn decode(bytes: &[u8], name: &str) -> std::io::Result<Vec<u8>> {
        let mut out = Vec::new();
        codec::decode(Box::new(Cursor::new(bytes.to_vec())), Some(name))?.read_to_end(&mut out)?;
        Ok(out)
    }

    #[test]
    fn every_codec_decodes_to_the_same_text() {
        let zstd = zstd::stream::encode_all(LOG, 3).unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(LOG).unwrap();
        let gz = gz.finish().unwrap();
        let mut lz4 = lz4_flex::frame::FrameEncoder::new(Vec::new());
        lz4.write_all(LOG).unwrap();
        let lz4 = lz4.finish().unwrap();
        let mut lz4_java = b"LZ4Block".to_vec();
        let block = lz4_flex::block::compress(LOG);
        lz4_java.push(0x20);
        lz4_java.extend((block.len() as u32).to_le_bytes());
        lz4_java.extend((LOG.len() as u32).to_le_bytes());
        lz4_java.extend(0u32.to_le_bytes());
        lz4_java.extend(&block);
        let mut snappy_java = b"\x82SNAPPY\x00".to_vec();
        snappy_java.extend(1u32.to_be_bytes());
        snappy_java.extend(1u32.to_be_bytes());
        let raw = snap::raw::Encoder::new().compress_vec(LOG).unwrap();
        snappy_java.extend((raw.len() as u32).to_be_bytes());
        snappy_java.extend(&raw);
        for (name, bytes) in [
            ("log.zstd", zstd),
            ("log.gz", gz),
            ("log.lz4", lz4),
            ("log", lz4_java),
            ("log", snappy_java),
            ("log", LOG.to_vec()),
        ] {
            assert_eq!(decode(&bytes, name).unwrap(), LOG, "{name}");
        }
    }

    #[test]
    fn a_corrupt_stream_is_an_error_naming_its_codec() {
        let bytes = vec![0x28, 0xB5, 0x2F, 0xFD, 1, 2, 3];
        let err = read_stream(Box::new(Cursor::new(bytes)), "x.zstd")
            .err()
            .expect("corrupt");
        assert!(err.to_string().contains("zstd data is corrupt"), "{err}");
    }

    #[test]
    fn rolled_logs_are_joined_in_part_order() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("eventlog_v2_app-1");
        std::fs::create_dir(&log).unwrap();
        std::fs::write(log.join("appstatus_app-1"), b"").unwrap();
        std::fs::write(log.join("events_10_app-1"), b"{\"n\":10}\n").unwrap();
        std::fs::write(
            log.join("events_2_app-1.zstd"),
            zstd::stream::encode_all(&b"{\"n\":2}"[..], 3).unwrap(),
        )
        .unwrap();
        assert_eq!(read_plan_input(&log).unwrap(), "{\"n\":2}\n{\"n\":10}\n");
    }

    #[test]
    fn a_bom_is_dropped_and_bad_utf8_is_located() {
        assert_eq!(
            text_of(b"\xEF\xBB\xBF== Physical Plan ==".to_vec()).unwrap(),
            "== Physical Plan =="
        );
        let err = text_of(b"line one\nab\xFFc".to_vec()).unwrap_err();
        assert_eq!(err.position(), Some((2, 3)));
        assert!(err.to_string().contains("offset 11"), "{err}");
    }
}
