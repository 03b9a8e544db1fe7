//! Plan inputs as people have them on disk: plain text, compressed event logs and rolled event
//! log folders, turned into the text the readers parse.
//!
//! * **Codecs** (`spark.eventLog.compress`), recognised by their magic bytes first and by the file
//!   extension second: zstd (`.zstd`/`.zst`, `28 B5 2F FD`), gzip (`.gz`, `1F 8B`), LZ4 frames
//!   (`04 22 4D 18`) and lz4-java's `LZ4BlockOutputStream` blocks (`LZ4Block`, what Spark's
//!   `lz4` codec writes), Snappy as snappy-java's `SnappyOutputStream` writes it (`82 SNAPPY 00`
//!   header, then length-prefixed raw Snappy blocks) and the Snappy framing format. The two Java
//!   framings have no Rust crate; they are a few lines of length-prefixed blocks over the
//!   well-kept `lz4_flex` and `snap` block decoders, so they are read here.
//! * **Rolled logs** (`spark.eventLog.rolling.enabled`): a folder `eventlog_v2_<appId>/` holding
//!   `events_<N>_<appId>[.codec]` files, read in `N` order and joined (the `appstatus_*` marker
//!   is skipped).
//! * A UTF-8 byte-order mark is dropped; text that is not UTF-8 is an error naming the byte
//!   offset and line.
//!
//! The decoded text is held in memory (bounded by the API's body limit on the server; a user's
//! own file on the CLI).

use super::PlanError;
use std::io::Read;
use std::path::Path;

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

/// The text of the plan input at `path` (a file, compressed or not, or a rolled log folder).
pub fn read_plan_input(path: &Path) -> Result<String, InputError> {
    let shown = path.display().to_string();
    let bytes = if path.is_dir() {
        read_rolled(path)?
    } else {
        decode(&read_file(path)?, &shown)?
    };
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

fn read_file(path: &Path) -> Result<Vec<u8>, InputError> {
    std::fs::read(path).map_err(|source| InputError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// The `events_<N>_…` files of a rolled log folder, decoded and joined in `N` order.
fn read_rolled(dir: &Path) -> Result<Vec<u8>, InputError> {
    let io = |source| InputError::Io {
        path: dir.display().to_string(),
        source,
    };
    let mut parts: Vec<(u64, std::path::PathBuf)> = std::fs::read_dir(dir)
        .map_err(io)?
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let n = name
                .strip_prefix("events_")?
                .split('_')
                .next()?
                .parse()
                .ok()?;
            Some((n, entry.path()))
        })
        .collect();
    if parts.is_empty() {
        return Err(InputError::EmptyRolledLog {
            path: dir.display().to_string(),
        });
    }
    parts.sort();
    let mut joined = Vec::new();
    for (_, part) in parts {
        let mut text = decode(&read_file(&part)?, &part.display().to_string())?;
        if !joined.is_empty() && !joined.ends_with(b"\n") {
            joined.push(b'\n');
        }
        joined.append(&mut text);
    }
    Ok(joined)
}

/// Decompress `bytes` if a codec's magic says so (or the name's extension does).
pub fn decode(bytes: &[u8], name: &str) -> Result<Vec<u8>, InputError> {
    let corrupt = |codec: &'static str| {
        move |e: &dyn std::fmt::Display| InputError::Corrupt {
            path: name.to_owned(),
            codec,
            message: e.to_string(),
        }
    };
    let ext = |e: &str| name.ends_with(e);
    if bytes.starts_with(&[0x28, 0xB5, 0x2F, 0xFD]) || ext(".zstd") || ext(".zst") {
        return zstd::stream::decode_all(bytes).map_err(|e| corrupt("zstd")(&e));
    }
    if bytes.starts_with(&[0x1F, 0x8B]) || ext(".gz") {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(bytes)
            .read_to_end(&mut out)
            .map_err(|e| corrupt("gzip")(&e))?;
        return Ok(out);
    }
    if bytes.starts_with(b"LZ4Block") {
        return lz4_blocks(bytes).map_err(|e| corrupt("lz4")(&e));
    }
    if bytes.starts_with(&[0x04, 0x22, 0x4D, 0x18]) || ext(".lz4") {
        let mut out = Vec::new();
        lz4_flex::frame::FrameDecoder::new(bytes)
            .read_to_end(&mut out)
            .map_err(|e| corrupt("lz4")(&e))?;
        return Ok(out);
    }
    if bytes.starts_with(b"\x82SNAPPY\x00") {
        return snappy_java_blocks(bytes).map_err(|e| corrupt("snappy")(&e));
    }
    if bytes.starts_with(b"\xff\x06\x00\x00sNaPpY") || ext(".snappy") {
        let mut out = Vec::new();
        snap::read::FrameDecoder::new(bytes)
            .read_to_end(&mut out)
            .map_err(|e| corrupt("snappy")(&e))?;
        return Ok(out);
    }
    Ok(bytes.to_vec())
}

/// lz4-java's `LZ4BlockOutputStream`: blocks of `LZ4Block`, a token (method | level), compressed
/// and original lengths and a checksum (little-endian u32s), then the data, raw (method 0x10) or
/// LZ4-compressed (0x20). An empty block ends the stream.
fn lz4_blocks(mut bytes: &[u8]) -> Result<Vec<u8>, String> {
    const HEADER: usize = 8 + 1 + 4 + 4 + 4;
    let mut out = Vec::new();
    while !bytes.is_empty() {
        if bytes.len() < HEADER || !bytes.starts_with(b"LZ4Block") {
            return Err(format!(
                "block header expected at {} bytes from the end",
                bytes.len()
            ));
        }
        let u32_at = |i: usize| {
            u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]) as usize
        };
        let (method, compressed, original) = (bytes[8] & 0xF0, u32_at(9), u32_at(13));
        let data = bytes
            .get(HEADER..HEADER + compressed)
            .ok_or("block cut short")?;
        match method {
            0x10 => out.extend_from_slice(data),
            0x20 => {
                out.extend(lz4_flex::block::decompress(data, original).map_err(|e| e.to_string())?)
            }
            other => return Err(format!("unknown block method {other:#x}")),
        }
        bytes = &bytes[HEADER + compressed..];
        if original == 0 {
            break;
        }
    }
    Ok(out)
}

/// snappy-java's `SnappyOutputStream`: an 8-byte magic, two big-endian u32s (version,
/// compatible version), then blocks of a big-endian u32 length and a raw Snappy block.
fn snappy_java_blocks(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let mut rest = bytes.get(16..).ok_or("header cut short")?;
    let mut out = Vec::new();
    let mut decoder = snap::raw::Decoder::new();
    while !rest.is_empty() {
        let len = rest
            .get(..4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .ok_or("block length cut short")?;
        let block = rest.get(4..4 + len).ok_or("block cut short")?;
        out.extend(decoder.decompress_vec(block).map_err(|e| e.to_string())?);
        rest = &rest[4 + len..];
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const LOG: &[u8] = b"{\"Event\":\"SparkListenerLogStart\",\"Spark Version\":\"3.5.0\"}\n";

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
        let err = decode(&[0x28, 0xB5, 0x2F, 0xFD, 1, 2, 3], "x.zstd").unwrap_err();
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
