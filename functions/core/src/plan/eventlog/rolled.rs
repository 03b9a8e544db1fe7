//! Rolled event logs (`spark.eventLog.rolling.enabled`): a directory `eventlog_v2_<appId>/`
//! holding `events_<N>_<appId>[.codec]` files (and an empty `appstatus_<appId>[.inprogress]`
//! marker). The log is the files in `N` order, each decoded with its own codec, read as one
//! stream.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};

use super::codec;

/// The `events_N_…` files of a rolled log directory, in `N` order.
pub fn rolled_files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files: Vec<(u64, PathBuf)> = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(index) = name.to_str().and_then(event_file_index) else {
            continue;
        };
        files.push((index, entry.path()));
    }
    if files.is_empty() {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "{} is a directory without `events_N_<appId>` files (a rolled event log holds them)",
                dir.display()
            ),
        ));
    }
    files.sort();
    Ok(files.into_iter().map(|(_, path)| path).collect())
}

/// `events_12_app-2021…zstd` → 12.
fn event_file_index(name: &str) -> Option<u64> {
    let rest = name.strip_prefix("events_")?;
    let digits = rest.split('_').next()?;
    digits.parse().ok()
}

/// The decoded concatenation of files; a newline is put between two files when the first does
/// not end in one, so a line never spans files.
pub struct RolledReader {
    files: VecDeque<PathBuf>,
    current: Option<Box<dyn Read + Send>>,
    last_byte: u8,
    pending_newline: bool,
}

impl RolledReader {
    pub fn new(files: Vec<PathBuf>) -> Self {
        RolledReader {
            files: files.into(),
            current: None,
            last_byte: b'\n',
            pending_newline: false,
        }
    }

    fn open_next(&mut self) -> io::Result<bool> {
        let Some(path) = self.files.pop_front() else {
            return Ok(false);
        };
        let file = File::open(&path).map_err(|e| with_path(&path, e))?;
        let name = path.file_name().and_then(|n| n.to_str());
        let reader =
            codec::decode(Box::new(BufReader::new(file)), name).map_err(|e| with_path(&path, e))?;
        self.current = Some(reader);
        self.pending_newline = self.last_byte != b'\n';
        Ok(true)
    }
}

fn with_path(path: &Path, err: io::Error) -> io::Error {
    io::Error::new(err.kind(), format!("{}: {err}", path.display()))
}

impl Read for RolledReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        loop {
            if self.pending_newline {
                self.pending_newline = false;
                self.last_byte = b'\n';
                buf[0] = b'\n';
                return Ok(1);
            }
            if let Some(current) = self.current.as_mut() {
                let n = current.read(buf)?;
                if n > 0 {
                    self.last_byte = buf[n - 1];
                    return Ok(n);
                }
                self.current = None;
            }
            if !self.open_next()? {
                return Ok(0);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_read_in_index_order_not_name_order() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("events_10_app"), "ten\n").expect("write");
        std::fs::write(dir.path().join("events_2_app"), "two").expect("write");
        std::fs::write(dir.path().join("appstatus_app"), "").expect("write");
        let files = rolled_files(dir.path()).expect("files");
        let mut text = String::new();
        RolledReader::new(files)
            .read_to_string(&mut text)
            .expect("read");
        assert_eq!(text, "two\nten\n");
        assert_eq!(
            event_file_index("events_1_local-1623876083964.zstd"),
            Some(1)
        );
    }

    #[test]
    fn a_directory_without_event_files_is_explained() {
        let dir = tempfile::tempdir().expect("tempdir");
        let err = rolled_files(dir.path()).expect_err("no files");
        assert!(err.to_string().contains("events_N_"), "{err}");
    }
}
