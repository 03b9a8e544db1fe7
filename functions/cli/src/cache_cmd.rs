//! `plan2code cache [--prune]`: what the local caches hold, and pruning them.
//!
//! Two caches grow with use: repository indexes (`<data dir>/blobs/index/<cacheKey>/`) and bare
//! clones of git URLs (`REPO_CLONE_DIR`, default `<tmp>/plan2code-clones/<key>/`). Each entry is a
//! directory; its age is that of its newest file (when it was last built or fetched). `--prune`
//! removes entries older than `--older-than` days, then the oldest ones until what is left fits
//! in `--max-mib`. Removing an entry only costs a rebuild the next time it is needed; `serve`'s
//! jobs (`jobs.sqlite`, `blobs/jobs/`) are never touched.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use plan2code_core::code::LoadOptions;

#[derive(clap::Args)]
pub struct CacheArgs {
    /// Remove old entries (see --older-than and --max-mib) instead of only listing them.
    #[arg(long)]
    pub prune: bool,
    /// With --prune: remove entries not rebuilt or fetched for this many days.
    #[arg(long, default_value_t = 30)]
    pub older_than: u64,
    /// With --prune: then remove the oldest entries until the caches hold at most this many MiB.
    #[arg(long)]
    pub max_mib: Option<u64>,
    /// Directory of the blob store that keeps indexes (default: `<data dir>/blobs`).
    #[arg(long)]
    pub store: Option<PathBuf>,
}

/// One cached index or clone.
struct Entry {
    kind: &'static str,
    path: PathBuf,
    bytes: u64,
    modified: SystemTime,
}

pub fn run(args: CacheArgs) -> anyhow::Result<ExitCode> {
    let store = args
        .store
        .clone()
        .unwrap_or_else(crate::common::default_store_dir);
    let clones = LoadOptions::from_env(0).clone_dir;
    let mut entries = cached_dirs("index", &store.join("index"))?;
    entries.extend(cached_dirs("clone", &clones)?);
    // oldest first: the order pruning removes them in
    entries.sort_by_key(|e| e.modified);
    if args.prune {
        let max_age = Duration::from_secs(args.older_than.saturating_mul(86_400));
        let max_bytes = args.max_mib.map(|m| m.saturating_mul(1 << 20));
        let removed = prune(&mut entries, max_age, max_bytes)?;
        println!(
            "removed {} entries ({}); {} left ({})",
            removed.0,
            mib(removed.1),
            entries.len(),
            mib(entries.iter().map(|e| e.bytes).sum())
        );
        return Ok(ExitCode::SUCCESS);
    }
    for e in &entries {
        println!(
            "{:<6} {:>10}  {:>5}  {}",
            e.kind,
            mib(e.bytes),
            age(e.modified),
            e.path.display()
        );
    }
    println!(
        "{} entries, {} (indexes in {}, clones in {})",
        entries.len(),
        mib(entries.iter().map(|e| e.bytes).sum()),
        store.join("index").display(),
        clones.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Every directory directly under `dir` (none when `dir` does not exist).
fn cached_dirs(kind: &'static str, dir: &Path) -> anyhow::Result<Vec<Entry>> {
    let read = match std::fs::read_dir(dir) {
        Ok(read) => read,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(anyhow::anyhow!("cannot read {}: {e}", dir.display())),
    };
    let mut out = Vec::new();
    for entry in read.flatten() {
        // never follows links: an entry is a directory this program made
        if !entry.file_type().is_ok_and(|t| t.is_dir()) {
            continue;
        }
        let (bytes, modified) = measure(&entry.path());
        out.push(Entry {
            kind,
            path: entry.path(),
            bytes,
            modified,
        });
    }
    Ok(out)
}

/// Total size and newest modification time of the files under `dir` (links not followed).
fn measure(dir: &Path) -> (u64, SystemTime) {
    let (mut bytes, mut newest) = (0, SystemTime::UNIX_EPOCH);
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(read) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in read.flatten() {
            let Ok(meta) = entry.path().symlink_metadata() else {
                continue;
            };
            if meta.is_dir() {
                stack.push(entry.path());
            } else {
                bytes += meta.len();
            }
            if let Ok(modified) = meta.modified() {
                newest = newest.max(modified);
            }
        }
    }
    (bytes, newest)
}

/// Removes (from disk and from `entries`, which is oldest first) what is older than `max_age`,
/// then the oldest until the rest fits in `max_bytes`. Returns how many and how many bytes.
fn prune(
    entries: &mut Vec<Entry>,
    max_age: Duration,
    max_bytes: Option<u64>,
) -> anyhow::Result<(usize, u64)> {
    let now = SystemTime::now();
    let mut total: u64 = entries.iter().map(|e| e.bytes).sum();
    let (mut count, mut freed) = (0, 0);
    for oldest in entries.iter() {
        let too_old = now
            .duration_since(oldest.modified)
            .is_ok_and(|a| a > max_age);
        let too_big = max_bytes.is_some_and(|m| total > m);
        if !too_old && !too_big {
            break;
        }
        std::fs::remove_dir_all(&oldest.path)
            .map_err(|e| anyhow::anyhow!("cannot remove {}: {e}", oldest.path.display()))?;
        total -= oldest.bytes;
        freed += oldest.bytes;
        count += 1;
    }
    entries.drain(..count);
    Ok((count, freed))
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / 1_048_576.0)
}

fn age(modified: SystemTime) -> String {
    let secs = SystemTime::now()
        .duration_since(modified)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    match secs {
        s if s < 3600 => format!("{}m", s / 60),
        s if s < 86_400 => format!("{}h", s / 3600),
        s => format!("{}d", s / 86_400),
    }
}
