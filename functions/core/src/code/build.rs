//! Building a [`RepoIndex`] from a directory: walk → extract in parallel → merge.
//!
//! [`build_index`] walks the directory behind the path guard ([`super::walk`]), extracts every
//! file on the rayon pool (one tree-sitter parser per task), then merges the per-file results in
//! path order so ids are stable for a given tree: files, symbols, chains and SQL statements are
//! numbered in order. The merge also resolves the call graph by name (a call `f(…)` anywhere
//! makes every symbol named `f` called) and flags dead code: a function or method nobody calls
//! that is no entry point and no test.

use super::error::RepoError;
use super::guard;
use super::index::{
    CodeFlags, INDEX_FORMAT_VERSION, IndexStats, Language, Launch, LineRange, RepoIndex, Setting,
    SkipReason, SourceFile, SqlOrigin, SqlStatement, SymbolId, SymbolKind,
};
use super::lang::{FileExtract, LanguageAdapter, adapter_for, extract_file};
use super::notebook;
use super::sql::analyse_sql;
use super::strings::DecodedString;
use super::texts::FileTexts;
use super::walk::{FileKind, WalkLimits, WalkedFile, walk_repo};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Most callers kept per symbol (a name like `run` can be called from thousands of places).
const MAX_CALLERS: usize = 64;

/// Progress callback: `(files done, files total)`.
pub type Progress<'a> = &'a (dyn Fn(u64, u64) + Sync);

#[derive(Clone)]
pub struct IndexOptions<'a> {
    pub limits: WalkLimits,
    /// Indexing budget; past it the build fails with `INDEX_TIMEOUT`.
    pub timeout: Option<Duration>,
    pub progress: Option<Progress<'a>>,
}

impl Default for IndexOptions<'_> {
    fn default() -> Self {
        Self {
            limits: WalkLimits::default(),
            timeout: Some(Duration::from_secs(900)),
            progress: None,
        }
    }
}

/// Index the directory `root` (a checkout or any folder).
// Long (~125 lines): walk, parallel extract, merge with id renumbering and statistics are one
// sequence over the same ids; the extraction itself lives in `lang/`.
pub fn build_index(
    root: &Path,
    commit: Option<String>,
    cache_key: String,
    options: &IndexOptions<'_>,
) -> Result<RepoIndex, RepoError> {
    build_index_and_texts(root, commit, cache_key, options).map(|(index, _)| index)
}

/// [`build_index`], also handing back the text of every file the index holds (kept beside the
/// index for the viewer, see [`super::texts`]).
pub fn build_index_and_texts(
    root: &Path,
    commit: Option<String>,
    cache_key: String,
    options: &IndexOptions<'_>,
) -> Result<(RepoIndex, FileTexts), RepoError> {
    let started = Instant::now();
    let deadline = options.timeout.map(|t| started + t);
    let walked = walk_repo(root, &options.limits).map_err(|e| match e {
        super::walk::WalkError::TooLarge { .. } => RepoError::RepoTooLarge(e.to_string()),
        super::walk::WalkError::Root(m) => RepoError::InvalidSource(m),
    })?;
    // Shell scripts are read for the jobs they launch and settings files for the values they
    // give keys, not indexed as code.
    let (read_for_values, sources): (Vec<WalkedFile>, Vec<WalkedFile>) = walked
        .files
        .into_iter()
        .partition(|f| matches!(f.kind, FileKind::Launcher | FileKind::Settings(_)));
    let total = sources.len() as u64;
    let done = AtomicU64::new(0);
    let timed_out = AtomicBool::new(false);
    let results: Vec<Option<IndexedFile>> = sources
        .par_iter()
        .map(|file| {
            if deadline.is_some_and(|d| Instant::now() > d) {
                timed_out.store(true, Ordering::Relaxed);
                return None;
            }
            let indexed = index_file(file);
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            if let Some(progress) = options.progress {
                progress(n, total);
            }
            Some(indexed)
        })
        .collect();
    if timed_out.load(Ordering::Relaxed) {
        return Err(RepoError::IndexTimeout(
            options.timeout.map(|t| t.as_secs()).unwrap_or(0),
        ));
    }
    let mut stats = IndexStats {
        files_skipped: walked.skipped,
        ..IndexStats::default()
    };
    let mut index = RepoIndex {
        version: INDEX_FORMAT_VERSION,
        commit,
        cache_key,
        files: Vec::new(),
        symbols: Vec::new(),
        chains: Vec::new(),
        sql: Vec::new(),
        constants: Vec::new(),
        passed: Vec::new(),
        launches: Vec::new(),
        settings: Vec::new(),
        stats: IndexStats::default(),
    };
    let mut edges: Vec<(Option<SymbolId>, String)> = Vec::new();
    let mut entry_points: Vec<bool> = Vec::new();
    let mut texts = FileTexts::default();
    for (walked_file, result) in sources.into_iter().zip(results) {
        let Some(result) = result else { continue };
        if let Some(hazard) = &result.hazard {
            *stats
                .files_skipped
                .entry(SkipReason::ParserHazard)
                .or_default() += 1;
            stats
                .warnings
                .push(format!("{}: not parsed: {hazard}", walked_file.rel_path));
            continue;
        }
        let Some(extract) = result.extract else {
            *stats
                .files_skipped
                .entry(SkipReason::ParseFailed)
                .or_default() += 1;
            continue;
        };
        let file_id = index.files.len() as u32;
        let symbol_offset = index.symbols.len() as SymbolId;
        let chain_offset = index.chains.len() as u32;
        let sql_offset = index.sql.len() as u32;
        stats.bytes_scanned += walked_file.text.len() as u64;
        *stats
            .by_language
            .entry(super::lang::language_name(result.language).to_string())
            .or_default() += 1;
        index.files.push(SourceFile {
            id: file_id,
            path: walked_file.rel_path.clone(),
            language: result.language,
            lines: result.lines,
            bytes: walked_file.text.len() as u64,
            notebook: result.notebook,
            flags: result.flags,
            // (a Databricks export, known by now, is Spark code whatever it imports)
            uses_spark: (result.notebook && walked_file.kind != FileKind::JupyterNotebook)
                || uses_spark(&walked_file.text),
            argv_names: extract.argv_names,
        });
        for mut symbol in extract.symbols {
            symbol.id += symbol_offset;
            symbol.file = file_id;
            symbol.parent = symbol.parent.map(|p| p + symbol_offset);
            index.symbols.push(symbol);
        }
        entry_points.extend(extract.entry_points);
        for mut chain in extract.chains {
            chain.id += chain_offset;
            chain.file = file_id;
            chain.symbol = chain.symbol.map(|s| s + symbol_offset);
            index.chains.push(chain);
        }
        for mut statement in extract.sql {
            statement.id += sql_offset;
            statement.file = file_id;
            statement.symbol = statement.symbol.map(|s| s + symbol_offset);
            index.sql.push(statement);
        }
        index
            .constants
            .extend(extract.constants.into_iter().map(|mut c| {
                c.file = file_id;
                c
            }));
        index.passed.extend(extract.passed.into_iter().map(|mut p| {
            p.file = file_id;
            p.symbol = p.symbol.map(|s| s + symbol_offset);
            p
        }));
        edges.extend(
            extract
                .call_edges
                .into_iter()
                .map(|(caller, callee)| (caller.map(|c| c + symbol_offset), callee)),
        );
        texts.insert(walked_file.rel_path, walked_file.text);
    }
    for file in &read_for_values {
        match file.kind {
            FileKind::Launcher => {
                for line in super::launch::launches(&file.text) {
                    index.launches.push(Launch {
                        launcher: file.rel_path.clone(),
                        job: line.job,
                        args: line.args,
                    });
                }
            }
            FileKind::Settings(format) => {
                for (key, value) in super::settings::settings(format, &file.text) {
                    index.settings.push(Setting {
                        file: file.rel_path.clone(),
                        key,
                        value,
                    });
                }
            }
            FileKind::Source(_) | FileKind::JupyterNotebook => {}
        }
    }
    resolve_call_graph(&mut index, &edges, &entry_points);
    stats.files_scanned = index.files.len() as u64;
    stats.symbols = index.symbols.len() as u64;
    stats.spark_ops = index.chains.iter().map(|c| c.calls.len() as u64).sum();
    stats.sql_statements = index.sql.len() as u64;
    stats.elapsed_ms = started.elapsed().as_millis() as u64;
    index.stats = stats;
    Ok((index, texts))
}

struct IndexedFile {
    language: Language,
    lines: u32,
    notebook: bool,
    flags: CodeFlags,
    /// `None` when the file could not be understood (invalid notebook JSON) or was not parsed.
    extract: Option<FileExtract>,
    /// Why the file was not handed to the parser at all ([`guard::parser_hazard`]).
    hazard: Option<String>,
}

/// Extract `src` unless the parser guard refuses it.
fn guarded_extract(
    adapter: &dyn LanguageAdapter,
    src: &str,
    module: &str,
    flags: CodeFlags,
) -> Result<FileExtract, String> {
    match guard::parser_hazard(adapter.language(), src) {
        Some(reason) => Err(reason),
        None => Ok(extract_file(adapter, src, module, flags)),
    }
}

/// Index one file's text (public so tests and benches can index a string).
fn index_file(file: &WalkedFile) -> IndexedFile {
    let flags = path_flags(&file.rel_path);
    let lines = file.text.lines().count() as u32;
    let module = module_name(&file.rel_path);
    match file.kind {
        FileKind::Source(Language::Sql) => {
            let mut extract = FileExtract::default();
            let source = notebook::databricks_source(&file.text);
            if let Some(source) = &source {
                // a SQL notebook: each cell is a query of its own, `;` or not
                for cell in &source.sql_cells {
                    push_sql(&mut extract, cell, SqlOrigin::NotebookCell);
                }
            } else {
                let decoded = DecodedString {
                    text: file.text.clone(),
                    lines: (1..=lines.max(1)).map(|l| (l, l)).collect(),
                };
                push_sql(&mut extract, &decoded, SqlOrigin::SqlFile);
            }
            IndexedFile {
                language: Language::Sql,
                lines,
                notebook: source.is_some(),
                flags,
                extract: Some(extract),
                hazard: None,
            }
        }
        FileKind::Source(language) => {
            let Some(adapter) = adapter_for(language) else {
                return IndexedFile {
                    language,
                    lines,
                    notebook: false,
                    flags,
                    extract: None,
                    hazard: None,
                };
            };
            let source = notebook::databricks_source(&file.text);
            let databricks = source.is_some();
            let extracted = match source {
                Some(source) => {
                    guarded_extract(adapter, &source.code, &module, flags).map(|mut extract| {
                        for cell in &source.sql_cells {
                            push_sql(&mut extract, cell, SqlOrigin::NotebookCell);
                        }
                        extract
                    })
                }
                None => guarded_extract(adapter, &file.text, &module, flags),
            };
            let (extract, hazard) = split(extracted);
            IndexedFile {
                language,
                lines,
                notebook: databricks,
                flags,
                extract,
                hazard,
            }
        }
        // A shell script holds no Spark code: `build_index_and_texts` reads launchers apart, for
        // the jobs they launch ([`super::launch`]), and never indexes one.
        FileKind::Launcher | FileKind::Settings(_) => IndexedFile {
            language: Language::Sql,
            lines,
            notebook: false,
            flags,
            extract: None,
            hazard: None,
        },
        FileKind::JupyterNotebook => {
            let Some((source, language)) = notebook::jupyter(&file.text) else {
                return IndexedFile {
                    language: Language::Python,
                    lines,
                    notebook: true,
                    flags,
                    extract: None,
                    hazard: None,
                };
            };
            let extracted = adapter_for(language).map(|adapter| {
                guarded_extract(adapter, &source.code, &module, flags).map(|mut extract| {
                    if let Some(map) = &source.line_map {
                        remap_lines(&mut extract, map);
                    }
                    for cell in &source.sql_cells {
                        push_sql(&mut extract, cell, SqlOrigin::NotebookCell);
                    }
                    extract
                })
            });
            let (extract, hazard) = match extracted {
                Some(result) => split(result),
                None => (None, None),
            };
            IndexedFile {
                language,
                lines,
                notebook: true,
                flags,
                extract,
                hazard,
            }
        }
    }
}

fn split(result: Result<FileExtract, String>) -> (Option<FileExtract>, Option<String>) {
    match result {
        Ok(extract) => (Some(extract), None),
        Err(hazard) => (None, Some(hazard)),
    }
}

fn push_sql(extract: &mut FileExtract, text: &DecodedString, origin: SqlOrigin) {
    for analysed in analyse_sql(text) {
        let id = extract.sql.len() as u32;
        extract.sql.push(SqlStatement {
            id,
            file: 0,
            symbol: None,
            origin,
            lines: analysed.lines,
            host_statement: analysed.lines,
            parsed: analysed.parsed,
            clauses: analysed.clauses,
            assigned_to: None,
        });
    }
}

/// Map virtual notebook lines to file lines.
fn remap_lines(extract: &mut FileExtract, map: &[u32]) {
    let at = |line: u32| -> u32 {
        line.checked_sub(1)
            .and_then(|i| map.get(i as usize))
            .copied()
            .unwrap_or(line)
    };
    let range = |r: LineRange| LineRange::new(at(r.start), at(r.end));
    for symbol in &mut extract.symbols {
        symbol.lines = range(symbol.lines);
    }
    for chain in &mut extract.chains {
        chain.statement = range(chain.statement);
        for call in &mut chain.calls {
            call.lines = range(call.lines);
        }
    }
    for statement in &mut extract.sql {
        statement.lines = range(statement.lines);
        statement.host_statement = range(statement.host_statement);
        for clause in &mut statement.clauses {
            clause.lines = range(clause.lines);
        }
    }
}

fn resolve_call_graph(
    index: &mut RepoIndex,
    edges: &[(Option<SymbolId>, String)],
    entry_points: &[bool],
) {
    let mut by_name: HashMap<&str, Vec<SymbolId>> = HashMap::new();
    for symbol in &index.symbols {
        by_name
            .entry(symbol.name.as_str())
            .or_default()
            .push(symbol.id);
    }
    let mut callers: HashMap<SymbolId, Vec<SymbolId>> = HashMap::new();
    let mut called_from_module: HashSet<SymbolId> = HashSet::new();
    for (caller, callee) in edges {
        let Some(targets) = by_name.get(callee.as_str()) else {
            continue;
        };
        for &target in targets {
            match caller {
                Some(c) if *c != target => {
                    let list = callers.entry(target).or_default();
                    if list.len() < MAX_CALLERS && !list.contains(c) {
                        list.push(*c);
                    }
                }
                Some(_) => {}
                None => {
                    called_from_module.insert(target);
                }
            }
        }
    }
    for symbol in &mut index.symbols {
        if let Some(list) = callers.remove(&symbol.id) {
            symbol.callers = list;
        }
        let entry = entry_points
            .get(symbol.id as usize)
            .copied()
            .unwrap_or(true);
        symbol.flags.dead = matches!(symbol.kind, SymbolKind::Function | SymbolKind::Method)
            && symbol.callers.is_empty()
            && !called_from_module.contains(&symbol.id)
            && !entry
            && !symbol.flags.test;
    }
}

/// Test / utility flags from a repo-relative path.
/// Whether a file's text is Spark code (see [`SourceFile::uses_spark`]): an import of a module
/// path with a `pyspark` component, of `org.apache.spark` or `com.databricks`, or a mention of
/// `SparkSession`, `SparkContext`, `sqlContext`, `spark.` (as a whole word). Works on notebook
/// JSON too, whose source lines are quoted.
pub fn uses_spark(text: &str) -> bool {
    if [
        "SparkSession",
        "SparkContext",
        "sqlContext",
        "org.apache.spark",
        "com.databricks",
    ]
    .iter()
    .any(|needle| text.contains(needle))
    {
        return true;
    }
    let imports_pyspark = text.lines().any(|line| {
        let line = line
            .trim_start()
            .trim_start_matches(['"', '\''])
            .trim_start();
        (line.starts_with("import ") || line.starts_with("from "))
            && line
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|word| word == "pyspark")
    });
    imports_pyspark || mentions_word_then_dot(text, "spark")
}

/// `word.` preceded by no identifier character (`spark.read`, `self.spark.sql`, not
/// `myspark.x`).
fn mentions_word_then_dot(text: &str, word: &str) -> bool {
    let bytes = text.as_bytes();
    let pattern = format!("{word}.");
    text.match_indices(&pattern).any(|(at, _)| {
        at == 0 || {
            let before = bytes[at - 1];
            !(before.is_ascii_alphanumeric() || before == b'_')
        }
    })
}

pub fn path_flags(rel_path: &str) -> CodeFlags {
    let lower = rel_path.to_ascii_lowercase();
    let segments: Vec<&str> = lower.split('/').collect();
    let file = segments.last().copied().unwrap_or("");
    let stem = file.split('.').next().unwrap_or("");
    let original_file = rel_path.rsplit('/').next().unwrap_or("");
    let original_stem = original_file.split('.').next().unwrap_or("");
    let dirs = &segments[..segments.len().saturating_sub(1)];
    let test = dirs.iter().any(|d| {
        matches!(
            *d,
            "test" | "tests" | "testing" | "__tests__" | "it" | "spec"
        )
    }) || stem.starts_with("test_")
        || stem.ends_with("_test")
        || stem.ends_with("_tests")
        || stem == "conftest"
        || original_stem.ends_with("Test")
        || original_stem.ends_with("Tests")
        || original_stem.ends_with("Suite")
        || original_stem.ends_with("Spec");
    let utility = dirs
        .iter()
        .any(|d| matches!(*d, "util" | "utils" | "helpers" | "helper" | "logging"))
        || stem.contains("util")
        || stem.contains("helper")
        || stem.starts_with("log");
    CodeFlags {
        test,
        utility,
        dead: false,
    }
}

/// `jobs/etl.py` → `jobs.etl`; `pkg/__init__.py` → `pkg`; other languages → "" (their
/// qualified names come from classes and objects).
fn module_name(rel_path: &str) -> String {
    let Some(stripped) = rel_path
        .strip_suffix(".py")
        .or_else(|| rel_path.strip_suffix(".ipynb"))
    else {
        return String::new();
    };
    let stripped = stripped.strip_suffix("/__init__").unwrap_or(stripped);
    stripped.replace('/', ".")
}

#[cfg(test)]
mod tests {
    use super::uses_spark;

    #[test]
    fn spark_imports_and_mentions_make_spark_code() {
        assert!(uses_spark("from pyspark.sql import functions as F\n"));
        assert!(uses_spark("from queries.pyspark import utils\n"));
        assert!(uses_spark("import org.apache.spark.sql.Dataset;\n"));
        assert!(uses_spark("df = sqlContext.read.json(p)\n"));
        assert!(uses_spark("x = self.spark.table('t')\n"));
        assert!(uses_spark("  \"from pyspark.sql import Row\\n\",\n"));
        assert!(!uses_spark("import pandas as pd\ndf = pd.read_csv(p)\n"));
        assert!(!uses_spark("mysparkle.read = 1\nsparks = 2\n"));
        assert!(!uses_spark("from pysparkling import x\n"));
    }
}
