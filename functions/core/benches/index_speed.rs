//! Indexing speed on a large real codebase.
//!
//! ```text
//! INDEX_BENCH_PATH=/tmp/spark-src cargo bench -p plan2code-core --bench index_speed
//! cargo bench -p plan2code-core --bench index_speed -- /tmp/spark-src
//! ```
//!
//! Indexes the directory once on one thread and once on every core, and reports files, source
//! MB, wall time, MB/s per core (target ≥ 5) both as wall-clock throughput divided by threads and
//! as MB per CPU-second actually used (robust when other processes share the cores), a
//! tree-sitter parse-only baseline, the serialised index size, and how long loading the
//! serialised index takes. Nothing is written to the repository.

use plan2code_core::code::cache::load_index_bytes;
use plan2code_core::code::{IndexOptions, RepoIndex, build_index};
use std::path::PathBuf;
use std::time::Instant;

fn main() {
    let path = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with('-'))
        .or_else(|| std::env::var("INDEX_BENCH_PATH").ok())
        .map(PathBuf::from);
    let Some(path) = path else {
        eprintln!("index_speed: pass a directory (argument or INDEX_BENCH_PATH); skipping");
        return;
    };
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let mut thread_counts = vec![1];
    if cores > 1 {
        thread_counts.push(cores);
    }
    println!("index_speed on {}", path.display());
    let mut last: Option<RepoIndex> = None;
    for threads in thread_counts {
        let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool,
            Err(e) => {
                eprintln!("cannot build a {threads}-thread pool: {e}");
                return;
            }
        };
        let started = Instant::now();
        let cpu_before = process_cpu_seconds();
        let index =
            pool.install(|| build_index(&path, None, "bench".into(), &IndexOptions::default()));
        let seconds = started.elapsed().as_secs_f64();
        let cpu = match (cpu_before, process_cpu_seconds()) {
            (Some(before), Some(after)) => after - before,
            _ => f64::NAN,
        };
        let index = match index {
            Ok(index) => index,
            Err(e) => {
                eprintln!("indexing failed: {e}");
                return;
            }
        };
        let mb = index.stats.bytes_scanned as f64 / 1e6;
        println!(
            "threads={threads:>2}  files={}  source={mb:.1} MB  time={seconds:.2} s  \
             {:.1} MB/s total  {:.1} MB/s per core (wall)  {:.1} MB per CPU-second  \
             symbols={}  sparkOps={}  sql={}",
            index.stats.files_scanned,
            mb / seconds,
            mb / seconds / threads as f64,
            mb / cpu,
            index.stats.symbols,
            index.stats.spark_ops,
            index.stats.sql_statements,
        );
        last = Some(index);
    }
    parse_only_baseline(&path);
    if let Some(index) = last {
        let Ok(bytes) = serde_json::to_vec(&index) else {
            eprintln!("cannot serialise the index");
            return;
        };
        let started = Instant::now();
        let loaded = load_index_bytes(&bytes);
        let load_ms = started.elapsed().as_secs_f64() * 1e3;
        println!(
            "index size={:.1} MB ({:.2}x source)  load={load_ms:.0} ms  ok={}",
            bytes.len() as f64 / 1e6,
            bytes.len() as f64 / index.stats.bytes_scanned.max(1) as f64,
            loaded.is_ok()
        );
    }
}

/// tree-sitter parsing alone on one thread: the ceiling for extraction speed.
fn parse_only_baseline(path: &std::path::Path) {
    use plan2code_core::code::walk::{FileKind, WalkLimits, walk_repo};
    let Ok(walked) = walk_repo(path, &WalkLimits::default()) else {
        return;
    };
    // Same allocator as the indexer, installed before this function's first parser.
    plan2code_core::allocator::install_tree_sitter_allocator();
    let started = Instant::now();
    let cpu_before = process_cpu_seconds();
    let mut bytes = 0usize;
    for file in &walked.files {
        let FileKind::Source(language) = file.kind else {
            continue;
        };
        let Some(adapter) = plan2code_core::code::lang::adapter_for(language) else {
            continue;
        };
        let mut parser = tree_sitter::Parser::new();
        if parser.set_language(&adapter.grammar()).is_err() {
            continue;
        }
        if parser.parse(&file.text, None).is_some() {
            bytes += file.text.len();
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    let cpu = match (cpu_before, process_cpu_seconds()) {
        (Some(before), Some(after)) => after - before,
        _ => f64::NAN,
    };
    println!(
        "tree-sitter parse only, 1 thread: {:.1} MB in {seconds:.2} s = {:.1} MB/s (wall), \
         {:.1} MB per CPU-second",
        bytes as f64 / 1e6,
        bytes as f64 / 1e6 / seconds,
        bytes as f64 / 1e6 / cpu
    );
}

/// User + system CPU seconds of this process so far (Linux `/proc/self/stat`; hand-parsed to
/// avoid a libc dependency for one number). Clock ticks are assumed to be 100 Hz, the Linux
/// default `USER_HZ`.
fn process_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is parenthesised and may contain spaces.
    let rest = stat.get(stat.rfind(')')? + 2..)?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime are fields 14 and 15 of the full line: 12th and 13th after the name.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}
