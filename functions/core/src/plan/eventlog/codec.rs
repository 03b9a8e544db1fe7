//! The compression codecs Spark writes event logs with (`spark.eventLog.compress`,
//! `spark.io.compression.codec`: zstd, lz4, snappy, lzf) and gzip, told apart by their magic
//! bytes; the file name's extension only sharpens the error when the bytes match no codec.
//!
//! Every decoder is a streaming [`Read`]: a 1 GB log is decoded a block at a time, never held
//! whole. zstd, gzip, the LZ4 frame format and the official snappy framing come from their
//! crates. Spark's own lz4, snappy and lzf streams use the framings of the Java libraries it
//! calls, which no crate reads, so the framing is read here and each block is handed to the
//! crate's block decoder:
//!
//! * lz4 — lz4-java's `LZ4BlockOutputStream`: magic `LZ4Block`, then blocks of
//!   `token, compressed len, original len, checksum` (little-endian) + data, decoded with
//!   `lz4_flex::block`; the checksum is not verified (the decoder already rejects corrupt data).
//! * snappy — snappy-java's `SnappyOutputStream`: magic `\x82SNAPPY\0`, two version words, then
//!   big-endian length-prefixed raw snappy blocks, decoded with `snap::raw`.
//! * lzf — compress-lzf's chunks: `ZV`, a type byte, big-endian lengths, decoded with `lzf`.

use std::io::{self, BufRead, Read};

/// A codec an event log can be stored with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    Plain,
    Zstd,
    Gzip,
    /// The LZ4 frame format (the `lz4` command line tool).
    Lz4Frame,
    /// lz4-java's block stream (Spark's `lz4` codec).
    Lz4Block,
    /// snappy-java's stream (Spark's `snappy` codec).
    SnappyJava,
    /// The official snappy framing format.
    SnappyFramed,
    Lzf,
}

const LZ4_BLOCK_MAGIC: &[u8] = b"LZ4Block";
const SNAPPY_JAVA_MAGIC: &[u8] = b"\x82SNAPPY\0";
const SNAPPY_FRAMED_MAGIC: &[u8] = b"\xff\x06\x00\x00sNaPpY";
/// Largest block any of the block framings may declare (lz4-java's maximum is 32 MiB).
const MAX_BLOCK: usize = 64 << 20;

impl Codec {
    /// The codec whose magic bytes `head` starts with.
    pub fn from_magic(head: &[u8]) -> Codec {
        if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Codec::Zstd
        } else if head.starts_with(&[0x1f, 0x8b]) {
            Codec::Gzip
        } else if head.starts_with(&[0x04, 0x22, 0x4d, 0x18]) {
            Codec::Lz4Frame
        } else if head.starts_with(LZ4_BLOCK_MAGIC) {
            Codec::Lz4Block
        } else if head.starts_with(SNAPPY_JAVA_MAGIC) {
            Codec::SnappyJava
        } else if head.starts_with(SNAPPY_FRAMED_MAGIC) {
            Codec::SnappyFramed
        } else if head.starts_with(b"ZV") && matches!(head.get(2), Some(0 | 1)) {
            Codec::Lzf
        } else {
            Codec::Plain
        }
    }

    /// The codec a file name's extension names (`events_1_app.zstd.inprogress` → zstd).
    pub fn from_name(name: &str) -> Option<Codec> {
        let name = name.strip_suffix(".inprogress").unwrap_or(name);
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        Some(match ext.as_str() {
            "zstd" | "zst" => Codec::Zstd,
            "gz" | "gzip" => Codec::Gzip,
            "lz4" => Codec::Lz4Block,
            "snappy" => Codec::SnappyJava,
            "lzf" => Codec::Lzf,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            Codec::Plain => "plain",
            Codec::Zstd => "zstd",
            Codec::Gzip => "gzip",
            Codec::Lz4Frame | Codec::Lz4Block => "lz4",
            Codec::SnappyJava | Codec::SnappyFramed => "snappy",
            Codec::Lzf => "lzf",
        }
    }
}

/// Wrap `input` in the decoder its first bytes call for. `name` (a file name) is used only to
/// explain a file whose extension names a codec its bytes do not start with.
pub fn decode<'a>(
    mut input: Box<dyn BufRead + Send + 'a>,
    name: Option<&str>,
) -> io::Result<Box<dyn Read + Send + 'a>> {
    let head = input.fill_buf()?;
    let codec = Codec::from_magic(head);
    if codec == Codec::Plain
        && let Some(named) = name.and_then(Codec::from_name)
        && !head.is_empty()
        && std::str::from_utf8(&head[..head.len().min(64)]).is_err()
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "the file is named as {} but does not start with its magic bytes",
                named.name()
            ),
        ));
    }
    Ok(match codec {
        Codec::Plain => Box::new(input),
        Codec::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(input)?),
        Codec::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(input)),
        Codec::Lz4Frame => Box::new(lz4_flex::frame::FrameDecoder::new(input)),
        Codec::SnappyFramed => Box::new(snap::read::FrameDecoder::new(input)),
        Codec::Lz4Block => Box::new(BlockStream::new(input, Framing::Lz4Block)),
        Codec::SnappyJava => Box::new(BlockStream::new(input, Framing::SnappyJava)),
        Codec::Lzf => Box::new(BlockStream::new(input, Framing::Lzf)),
    })
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Framing {
    Lz4Block,
    SnappyJava,
    Lzf,
}

/// A stream of length-prefixed compressed blocks, decoded one block at a time.
struct BlockStream<R> {
    input: R,
    framing: Framing,
    block: Vec<u8>,
    pos: usize,
    done: bool,
}

impl<R: BufRead> BlockStream<R> {
    fn new(input: R, framing: Framing) -> Self {
        BlockStream {
            input,
            framing,
            block: Vec::new(),
            pos: 0,
            done: false,
        }
    }

    /// Decode the next block into `self.block`; `false` at the end of the stream.
    fn next_block(&mut self) -> io::Result<bool> {
        if self.input.fill_buf()?.is_empty() {
            return Ok(false);
        }
        self.block = match self.framing {
            Framing::Lz4Block => self.lz4_block()?,
            Framing::SnappyJava => self.snappy_java_block()?,
            Framing::Lzf => self.lzf_chunk()?,
        };
        self.pos = 0;
        Ok(true)
    }

    /// lz4-java: `LZ4Block` token(1) compressed(4 LE) original(4 LE) checksum(4 LE) data.
    /// An empty block ends one stream; another may follow (Spark appends in-progress logs).
    fn lz4_block(&mut self) -> io::Result<Vec<u8>> {
        let mut header = [0u8; 21];
        self.input.read_exact(&mut header)?;
        if &header[..8] != LZ4_BLOCK_MAGIC {
            return Err(invalid("an lz4 block without the `LZ4Block` magic"));
        }
        let method = header[8] & 0xf0;
        let compressed = block_len(le32(&header[9..13]))?;
        let original = block_len(le32(&header[13..17]))?;
        let data = read_n(&mut self.input, compressed)?;
        match method {
            0x10 => Ok(data),
            0x20 => lz4_flex::block::decompress(&data, original)
                .map_err(|e| invalid(&format!("corrupt lz4 block: {e}"))),
            _ => Err(invalid("an lz4 block of an unknown method")),
        }
    }

    /// snappy-java: header (magic + two version words), then length(4 BE) + raw snappy block.
    fn snappy_java_block(&mut self) -> io::Result<Vec<u8>> {
        if self.input.fill_buf()?.starts_with(SNAPPY_JAVA_MAGIC) {
            read_n(&mut self.input, SNAPPY_JAVA_MAGIC.len() + 8)?;
            if self.input.fill_buf()?.is_empty() {
                return Ok(Vec::new());
            }
        }
        let mut len = [0u8; 4];
        self.input.read_exact(&mut len)?;
        let data = read_n(&mut self.input, block_len(u32::from_be_bytes(len))?)?;
        let size = snap::raw::decompress_len(&data)
            .map_err(|e| invalid(&format!("corrupt snappy block: {e}")))?;
        block_len(u32::try_from(size).unwrap_or(u32::MAX))?;
        snap::raw::Decoder::new()
            .decompress_vec(&data)
            .map_err(|e| invalid(&format!("corrupt snappy block: {e}")))
    }

    /// compress-lzf: `ZV` type(0 = stored, 1 = compressed) length(2 BE) [original(2 BE)] data.
    fn lzf_chunk(&mut self) -> io::Result<Vec<u8>> {
        let mut head = [0u8; 5];
        self.input.read_exact(&mut head)?;
        if &head[..2] != b"ZV" {
            return Err(invalid("an lzf chunk without the `ZV` magic"));
        }
        let len = usize::from(u16::from_be_bytes([head[3], head[4]]));
        match head[2] {
            0 => read_n(&mut self.input, len),
            1 => {
                let mut original = [0u8; 2];
                self.input.read_exact(&mut original)?;
                let data = read_n(&mut self.input, len)?;
                lzf::decompress(&data, usize::from(u16::from_be_bytes(original)))
                    .map_err(|e| invalid(&format!("corrupt lzf chunk: {e:?}")))
            }
            _ => Err(invalid("an lzf chunk of an unknown type")),
        }
    }
}

impl<R: BufRead> Read for BlockStream<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.pos >= self.block.len() {
            if self.done || !self.next_block()? {
                self.done = true;
                return Ok(0);
            }
        }
        let n = buf.len().min(self.block.len() - self.pos);
        buf[..n].copy_from_slice(&self.block[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

fn le32(b: &[u8]) -> u32 {
    u32::from_le_bytes([b[0], b[1], b[2], b[3]])
}

fn block_len(n: u32) -> io::Result<usize> {
    let n = usize::try_from(n).unwrap_or(usize::MAX);
    if n > MAX_BLOCK {
        return Err(invalid("a compressed block larger than 64 MiB"));
    }
    Ok(n)
}

fn read_n(input: &mut impl Read, n: usize) -> io::Result<Vec<u8>> {
    let mut data = Vec::new();
    input.take(n as u64).read_to_end(&mut data)?;
    if data.len() < n {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "the compressed stream ends inside a block",
        ));
    }
    Ok(data)
}

fn invalid(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(bytes: Vec<u8>) -> io::Result<String> {
        let mut out = String::new();
        decode(Box::new(io::Cursor::new(bytes)), None)?.read_to_string(&mut out)?;
        Ok(out)
    }

    const TEXT: &str = "{\"Event\":\"SparkListenerLogStart\"}\n{\"Event\":\"x\"}\n";

    #[test]
    fn lz4_java_block_stream_with_raw_and_compressed_blocks() {
        let mut bytes = Vec::new();
        let compressed = lz4_flex::block::compress(TEXT.as_bytes());
        for (method, data) in [
            (0x20u8, &compressed[..]),
            (0x10, TEXT.as_bytes()),
            (0x10, &[]),
        ] {
            bytes.extend_from_slice(LZ4_BLOCK_MAGIC);
            bytes.push(method);
            bytes.extend_from_slice(&(data.len() as u32).to_le_bytes());
            let original = if data.is_empty() { 0 } else { TEXT.len() };
            bytes.extend_from_slice(&(original as u32).to_le_bytes());
            bytes.extend_from_slice(&[0; 4]);
            bytes.extend_from_slice(data);
        }
        assert_eq!(decoded(bytes).expect("decodes"), TEXT.repeat(2));
    }

    #[test]
    fn snappy_java_stream() {
        let mut bytes = SNAPPY_JAVA_MAGIC.to_vec();
        bytes.extend_from_slice(&[0, 0, 0, 1, 0, 0, 0, 1]);
        let block = snap::raw::Encoder::new()
            .compress_vec(TEXT.as_bytes())
            .expect("compress");
        bytes.extend_from_slice(&(block.len() as u32).to_be_bytes());
        bytes.extend_from_slice(&block);
        assert_eq!(decoded(bytes).expect("decodes"), TEXT);
    }

    #[test]
    fn lzf_chunks_stored_and_compressed() {
        let compressed = lzf::compress(TEXT.repeat(4).as_bytes()).expect("compress");
        let mut bytes = b"ZV\x01".to_vec();
        bytes.extend_from_slice(&(compressed.len() as u16).to_be_bytes());
        bytes.extend_from_slice(&((TEXT.len() * 4) as u16).to_be_bytes());
        bytes.extend_from_slice(&compressed);
        bytes.extend_from_slice(b"ZV\x00");
        bytes.extend_from_slice(&(TEXT.len() as u16).to_be_bytes());
        bytes.extend_from_slice(TEXT.as_bytes());
        assert_eq!(decoded(bytes).expect("decodes"), TEXT.repeat(5));
    }

    #[test]
    fn a_cut_block_is_an_error_not_a_panic() {
        let mut bytes = LZ4_BLOCK_MAGIC.to_vec();
        bytes.extend_from_slice(&[0x20, 200, 0, 0, 0, 200, 0, 0, 0, 0, 0, 0, 0, 1, 2]);
        assert!(decoded(bytes).is_err());
        assert!(decoded(vec![0x82, b'S', b'N', b'A', b'P', b'P', b'Y', 0, 1]).is_err());
    }

    #[test]
    fn extension_without_magic_is_explained() {
        let err = decode(
            Box::new(io::Cursor::new(vec![0xff, 0xfe, 0])),
            Some("a.zstd"),
        )
        .err()
        .expect("refused");
        assert!(err.to_string().contains("zstd"), "{err}");
        assert_eq!(
            Codec::from_name("events_1_a.lz4.inprogress"),
            Some(Codec::Lz4Block)
        );
    }
}
