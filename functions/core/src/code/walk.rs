//! Walking a checkout behind a path guard.
//!
//! [`walk_repo`] lists every file worth indexing under a root directory and reads it, and
//! nothing else:
//!
//! * **Nothing outside the root is read.** Symbolic links are never followed (not even to a file
//!   inside the root — a link is skipped and counted as [`SkipReason::Symlink`]); every path is
//!   canonicalised and must stay under the canonical root, otherwise it is counted as
//!   [`SkipReason::OutsideRepo`]. Paths are built from directory entries, never from user input,
//!   so `..` cannot appear; a relative path that still contains one is rejected.
//! * **Caps.** A file larger than [`WalkLimits::max_file_bytes`] is skipped (`TooLarge`); files
//!   with a NUL byte in their first 8 KiB are `Binary`; files that are not UTF-8 are
//!   `InvalidUtf8`. Once [`WalkLimits::max_files`] candidate files or
//!   [`WalkLimits::max_total_bytes`] have been reached the walk fails with
//!   [`WalkError::TooLarge`] (→ `REPO_TOO_LARGE`) when `fail_on_cap` is set — the default for
//!   clones, where a partial index would silently mis-map — and otherwise skips the rest
//!   (`FileCountCap` / `TotalBytesCap`) so a local run still gives an answer.
//! * **Skipped directories:** `.git` and other dot-directories, `node_modules`, `target`,
//!   `vendor`/`third_party`, virtualenvs, build outputs (see [`SKIPPED_DIRS`]).
//!
//! Only files whose language we index are read (`.py`, `.scala`, `.java`, `.sql`, `.ipynb`, and
//! extension-less Databricks exports are not considered).

use super::index::{Language, SkipReason};
use super::settings::SettingsFormat;
use std::collections::BTreeMap;
use std::path::{Component, Path};

/// Directory names never descended into.
pub const SKIPPED_DIRS: &[&str] = &[
    "node_modules",
    "target",
    "vendor",
    "vendored",
    "third_party",
    "site-packages",
    "venv",
    "env",
    "__pycache__",
    "build",
    "dist",
];

#[derive(Debug, Clone)]
pub struct WalkLimits {
    pub max_file_bytes: u64,
    pub max_files: usize,
    pub max_total_bytes: u64,
    /// Fail with [`WalkError::TooLarge`] instead of skipping once a repo-level cap is hit.
    pub fail_on_cap: bool,
}

impl Default for WalkLimits {
    fn default() -> Self {
        Self {
            max_file_bytes: 2 * 1024 * 1024,
            max_files: 200_000,
            max_total_bytes: 2 * 1024 * 1024 * 1024,
            fail_on_cap: false,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum WalkError {
    #[error("repository exceeds the {cap} cap ({limit})")]
    TooLarge { cap: &'static str, limit: u64 },
    #[error("cannot read repository root: {0}")]
    Root(String),
}

/// The kind of file a path is, by extension; `None` = not indexed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    Source(Language),
    JupyterNotebook,
    /// A shell script, read for the jobs it launches ([`super::launch`]).
    Launcher,
    /// A settings file, read for the values it gives keys ([`super::settings`]).
    Settings(SettingsFormat),
}

/// The kind of file at `path`: a language adapter's source (`lang::ADAPTERS`), SQL, or a
/// Jupyter notebook.
pub fn file_kind(path: &Path) -> Option<FileKind> {
    let ext = path.extension()?.to_str()?.to_ascii_lowercase();
    if let Some(adapter) = super::lang::adapter_for_extension(&ext) {
        return Some(FileKind::Source(adapter.language()));
    }
    Some(match ext.as_str() {
        "sql" => FileKind::Source(Language::Sql),
        "ipynb" => FileKind::JupyterNotebook,
        "sh" => FileKind::Launcher,
        _ => FileKind::Settings(SettingsFormat::for_extension(&ext)?),
    })
}

/// A file that passed the guard, with its text.
#[derive(Debug, Clone)]
pub struct WalkedFile {
    /// Repo-relative, `/`-separated.
    pub rel_path: String,
    pub kind: FileKind,
    pub text: String,
}

#[derive(Debug, Default)]
pub struct WalkOutcome {
    pub files: Vec<WalkedFile>,
    pub skipped: BTreeMap<SkipReason, u64>,
    pub bytes: u64,
}

impl WalkOutcome {
    fn skip(&mut self, reason: SkipReason) {
        *self.skipped.entry(reason).or_default() += 1;
    }
}

/// A fingerprint of what [`walk_repo`] would read under `root`, from metadata alone: the path,
/// size and modification time of every file with an indexable name (links included, as links),
/// in walk order. Equal fingerprints mean an index of the directory can be reused; any edit,
/// addition, removal or rename changes it. Costs one `stat` per file, no reads.
pub fn fingerprint(root: &Path) -> Result<String, WalkError> {
    use sha2::{Digest, Sha256};
    let canonical_root = root
        .canonicalize()
        .map_err(|e| WalkError::Root(format!("{}: {e}", root.display())))?;
    let mut hasher = Sha256::new();
    let walker = walkdir::WalkDir::new(&canonical_root)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !is_skipped_dir(e));
    for entry in walker.flatten() {
        if entry.file_type().is_dir() || file_kind(entry.path()).is_none() {
            continue;
        }
        let Ok(meta) = entry.path().symlink_metadata() else {
            continue;
        };
        let modified = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        hasher.update(entry.path().to_string_lossy().as_bytes());
        hasher.update([0]);
        hasher.update(meta.len().to_le_bytes());
        hasher.update(modified.to_le_bytes());
        hasher.update([u8::from(entry.file_type().is_symlink())]);
    }
    Ok(hex::encode(hasher.finalize()))
}

/// Walk `root` and read every indexable file that passes the guard.
pub fn walk_repo(root: &Path, limits: &WalkLimits) -> Result<WalkOutcome, WalkError> {
    let canonical_root = root
        .canonicalize()
        .map_err(|e| WalkError::Root(format!("{}: {e}", root.display())))?;
    let mut outcome = WalkOutcome::default();
    let mut candidates = 0usize;
    let walker = walkdir::WalkDir::new(&canonical_root)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !is_skipped_dir(e));
    for entry in walker {
        let Ok(entry) = entry else { continue };
        let ft = entry.file_type();
        if ft.is_dir() {
            continue;
        }
        let path = entry.path();
        if ft.is_symlink() {
            if file_kind(path).is_some() {
                outcome.skip(SkipReason::Symlink);
            }
            continue;
        }
        let Some(kind) = file_kind(path) else {
            continue;
        };
        if !ft.is_file() {
            // A FIFO, socket or device under an indexable name: opening a FIFO blocks forever.
            outcome.skip(SkipReason::NotRegularFile);
            continue;
        }
        candidates += 1;
        if candidates > limits.max_files {
            if limits.fail_on_cap {
                return Err(WalkError::TooLarge {
                    cap: "file count",
                    limit: limits.max_files as u64,
                });
            }
            outcome.skip(SkipReason::FileCountCap);
            continue;
        }
        let Some(rel_path) = guarded_relative(&canonical_root, path) else {
            outcome.skip(SkipReason::OutsideRepo);
            continue;
        };
        let size = entry.metadata().map(|m| m.len()).unwrap_or(u64::MAX);
        if size > limits.max_file_bytes {
            outcome.skip(SkipReason::TooLarge);
            continue;
        }
        if outcome.bytes + size > limits.max_total_bytes {
            if limits.fail_on_cap {
                return Err(WalkError::TooLarge {
                    cap: "total bytes",
                    limit: limits.max_total_bytes,
                });
            }
            outcome.skip(SkipReason::TotalBytesCap);
            continue;
        }
        let Ok(bytes) = read_capped(path, limits.max_file_bytes) else {
            outcome.skip(SkipReason::TooLarge);
            continue;
        };
        if looks_binary(&bytes) {
            outcome.skip(SkipReason::Binary);
            continue;
        }
        let Ok(text) = String::from_utf8(bytes) else {
            outcome.skip(SkipReason::InvalidUtf8);
            continue;
        };
        outcome.bytes += text.len() as u64;
        outcome.files.push(WalkedFile {
            rel_path,
            kind,
            text,
        });
    }
    Ok(outcome)
}

fn is_skipped_dir(entry: &walkdir::DirEntry) -> bool {
    if !entry.file_type().is_dir() {
        return false;
    }
    let name = entry.file_name().to_string_lossy();
    name.starts_with('.') || SKIPPED_DIRS.contains(&name.as_ref())
}

/// The repo-relative path of `path`, or `None` when it resolves outside `canonical_root` or
/// contains a component other than a plain name.
pub fn guarded_relative(canonical_root: &Path, path: &Path) -> Option<String> {
    let resolved = path.canonicalize().ok()?;
    let rel = resolved.strip_prefix(canonical_root).ok()?;
    let mut parts = Vec::new();
    for component in rel.components() {
        match component {
            Component::Normal(name) => parts.push(name.to_str()?.to_string()),
            _ => return None,
        }
    }
    if parts.is_empty() {
        return None;
    }
    Some(parts.join("/"))
}

/// Read at most `cap + 1` bytes. The entry was checked to be a regular file (not a link) and its
/// canonical path to lie inside the root just before; the opened handle is checked again.
fn read_capped(path: &Path, cap: u64) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let mut bytes = Vec::new();
    file.take(cap + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(std::io::Error::other("file grew past the size cap"));
    }
    Ok(bytes)
}

/// NUL byte in the first 8 KiB: the heuristic git and ripgrep use.
pub fn looks_binary(bytes: &[u8]) -> bool {
    bytes.iter().take(8192).any(|&b| b == 0)
}
