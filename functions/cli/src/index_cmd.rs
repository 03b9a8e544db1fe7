//! `plan2code index PATH|URL`: build (or load from cache) a repository index and report on it.
//!
//! The index is stored through a [`DirBlobStore`] (`--store`, default
//! `$PLAN2CODE_DATA_DIR/blobs` or `<tmp>/plan2code/blobs`) under `index/<cacheKey>/`, so later
//! commands and pipeline steps load it by key. A progress bar is drawn on stderr only when stderr
//! is a terminal. `GITHUB_TOKEN`, `REPO_CLONE_DIR` and `REPO_CACHE_TTL` are read from the
//! environment; the token is never printed.

use plan2code_core::code::{
    IndexStats, LoadOptions, LoadedIndex, RepoSource, SkipReason, load_or_build_index,
};
use plan2code_core::error::Named;
use plan2code_stores::DirBlobStore;
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct IndexArgs {
    /// Local directory, https:// or file:// git URL.
    pub input: String,
    /// Branch to clone (default: the remote's HEAD).
    #[arg(long)]
    pub branch: Option<String>,
    /// Commit to index (a full id lets a cached index be reused without cloning).
    #[arg(long)]
    pub commit: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Directory of the blob store that keeps indexes.
    #[arg(long)]
    pub store: Option<PathBuf>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// The JSON report (`--format json`).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct IndexReport {
    commit: Option<String>,
    cache_key: String,
    cache_hit: bool,
    files_scanned: u64,
    files_skipped: BTreeMap<SkipReason, u64>,
    symbols: u64,
    spark_ops: u64,
    sql_statements: u64,
    bytes: u64,
    elapsed_ms: u64,
    by_language: BTreeMap<String, u64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warnings: Vec<String>,
    index_key: String,
}

impl IndexReport {
    fn new(loaded: &LoadedIndex, elapsed_ms: u64) -> Self {
        let stats: &IndexStats = &loaded.index.stats;
        Self {
            commit: loaded.index.commit.clone(),
            cache_key: loaded.index.cache_key.clone(),
            cache_hit: loaded.cache_hit,
            files_scanned: stats.files_scanned,
            files_skipped: stats.files_skipped.clone(),
            symbols: stats.symbols,
            spark_ops: stats.spark_ops,
            sql_statements: stats.sql_statements,
            bytes: stats.bytes_scanned,
            elapsed_ms,
            by_language: stats.by_language.clone(),
            warnings: stats.warnings.clone(),
            index_key: loaded.record.index_key.clone(),
        }
    }
}

pub fn run(args: IndexArgs) -> anyhow::Result<ExitCode> {
    let started = std::time::Instant::now();
    let store_dir = args
        .store
        .clone()
        .unwrap_or_else(crate::common::default_store_dir);
    let store = DirBlobStore::new(store_dir);
    let now = plan2code_core::clock::unix_now();
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} indexing {pos}/{len} files {wide_bar} {elapsed}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let progress = |done: u64, total: u64| {
        if let Some(bar) = &bar {
            bar.set_length(total);
            bar.set_position(done);
        }
    };
    let mut options = LoadOptions::from_env(now);
    options.index.progress = Some(&progress);
    let source = RepoSource {
        location: args.input.clone(),
        branch: args.branch.clone(),
        commit: args.commit.clone(),
    };
    let outcome = load_or_build_index(&source, &store, &options);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let loaded = match outcome {
        Ok(loaded) => loaded,
        Err(err) => anyhow::bail!("{}: {err}", err.error_name()),
    };
    let report = IndexReport::new(&loaded, started.elapsed().as_millis() as u64);
    match args.format {
        Format::Json => println!("{}", serde_json::to_string_pretty(&report)?),
        Format::Text => print_text(&report),
    }
    Ok(ExitCode::SUCCESS)
}

fn print_text(report: &IndexReport) {
    println!(
        "commit      {}",
        report.commit.as_deref().unwrap_or("(not a git checkout)")
    );
    println!(
        "cache key   {}{}",
        report.cache_key,
        if report.cache_hit { " (cached)" } else { "" }
    );
    println!(
        "files       {} scanned, {} bytes",
        report.files_scanned, report.bytes
    );
    for (language, count) in &report.by_language {
        println!("            {language}: {count}");
    }
    if !report.files_skipped.is_empty() {
        let skipped: Vec<String> = report
            .files_skipped
            .iter()
            .map(|(reason, count)| {
                let name = serde_json::to_value(reason)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default();
                format!("{name} {count}")
            })
            .collect();
        println!("skipped     {}", skipped.join(", "));
    }
    for warning in &report.warnings {
        eprintln!("warning: {warning}");
    }
    println!("symbols     {}", report.symbols);
    println!("spark ops   {}", report.spark_ops);
    println!("sql         {}", report.sql_statements);
    println!("index       {}", report.index_key);
    println!("elapsed     {} ms", report.elapsed_ms);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_report_has_the_documented_fields() {
        let fixture =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/repos/shop");
        let blobs = tempfile::tempdir().unwrap();
        let store = DirBlobStore::new(blobs.path());
        let options = LoadOptions::from_env(100);
        let loaded = load_or_build_index(
            &RepoSource::new(fixture.to_string_lossy()),
            &store,
            &options,
        )
        .unwrap();
        let report = serde_json::to_value(IndexReport::new(&loaded, 7)).unwrap();
        for key in [
            "commit",
            "cacheKey",
            "filesScanned",
            "filesSkipped",
            "symbols",
            "sparkOps",
            "sqlStatements",
            "bytes",
            "elapsedMs",
            "byLanguage",
        ] {
            assert!(report.get(key).is_some(), "missing {key}");
        }
        assert_eq!(report["filesScanned"], 6);
        assert_eq!(report["byLanguage"]["python"], 3);
        assert_eq!(report["elapsedMs"], 7);
        // The index is in the store under the reported key.
        let key = report["indexKey"].as_str().unwrap();
        assert!(blobs.path().join(key).is_file());
    }
}
