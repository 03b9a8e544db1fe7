//! `plan2code map --plan FILE --repo PATH|URL`: map every node of a plan to the code that
//! produced it, entirely on this machine.
//!
//! The embedded local mode of `docs/ARCHITECTURE.md`: the job is created in a SQLite job store (in memory: a
//! one-shot run), the parsed plan and the job's intermediate results are kept in memory (only the
//! index cache persists, in `<data dir>/blobs`), and the production state machine
//! (`statemachine/mapping.asl.json`) runs in-process over [`PipelineTasks`] — the same definition
//! and node functions `plan2code serve` and the Lambdas run. The finished job is printed as the Job
//! object of `docs/ARCHITECTURE.md` (`--format json`) or a readable table. Set `LLM_BASE_URL` + `LLM_MODEL`
//! (+ `LLM_API_KEY`) to let an OpenAI-compatible model weigh in on ambiguous nodes; by default the
//! deterministic evidence reasoner decides, offline. `MAX_PARALLEL_NODES` (5) bounds the nodes
//! mapped at once.

use anyhow::Context;
use plan2code_core::code::redact_url;
use plan2code_core::code::source::{Location, parse_location};
use plan2code_core::contracts::{ExecutionReport, Job, MappingOutput, RepoConfig};
use plan2code_core::pipeline::job;
use plan2code_core::pipeline::job::{execution_input, plan_key, queued_job};
use plan2code_core::pipeline::tasks::PipelineTasks;
use plan2code_core::plan::PlanGraph;
use plan2code_core::ports::{BlobStore, JobStore};
use plan2code_core::settings;
use plan2code_core::workflow::{TaskRegistry, WorkflowError, mapping_runner};
use plan2code_stores::{DirBlobStore, MemoryBlobStore, SplitBlobStore, SqliteJobStore};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum MapFormat {
    Table,
    Json,
    /// SARIF 2.1.0: each mapped node as a result at its file and lines (editors, code scanning).
    Sarif,
}

#[derive(clap::Args)]
pub struct MapArgs {
    /// Plan file in any supported form (`-` reads standard input).
    #[arg(long)]
    pub plan: String,
    /// Repository: local directory, https:// or file:// git URL.
    #[arg(long)]
    pub repo: String,
    /// Branch of a git URL to map against (default: the remote's HEAD). On a local directory it
    /// must be the branch the directory has checked out.
    #[arg(long)]
    pub branch: Option<String>,
    /// Commit of a git URL (a full id reuses a cached index without cloning). On a local
    /// directory it must be the commit it has checked out.
    #[arg(long)]
    pub commit: Option<String>,
    /// SQL executions to map (`3` or `3,7,9`) when the plan input holds several; by default
    /// every execution of an event log is mapped, as one job.
    #[arg(long, value_delimiter = ',')]
    pub execution: Vec<u64>,
    /// The file the job runs from (its main script, notebook or class file), when the plan input
    /// does not say; its code is preferred over look-alikes elsewhere. Repeatable.
    #[arg(long)]
    pub entry: Vec<String>,
    /// Output: a readable table, the Job object as JSON (`docs/ARCHITECTURE.md`), or SARIF.
    #[arg(long, value_enum, default_value = "table")]
    pub format: MapFormat,
    /// Write the output here instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Directory of the local blob store (index cache).
    #[arg(long)]
    pub store: Option<PathBuf>,
    /// No progress on standard error (only errors).
    #[arg(long, short)]
    pub quiet: bool,
    /// With the table: each node's explanation and alternatives after it.
    #[arg(long)]
    pub explain: bool,
}

/// The local job store shared by `map` and `serve` (`<data dir>/jobs.sqlite`).
pub fn open_job_store() -> anyhow::Result<Arc<SqliteJobStore>> {
    let dir = crate::common::data_dir();
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    Ok(Arc::new(SqliteJobStore::open(dir.join("jobs.sqlite"))?))
}

/// A job id unique on this machine.
pub fn new_job_id(prefix: &str) -> String {
    format!(
        "{prefix}-{:x}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    )
}

pub fn run(args: MapArgs) -> anyhow::Result<ExitCode> {
    let mut app = crate::common::read_application(&args.plan, &args.execution)?;
    app.entry = args.entry.clone();
    let progress = Progress::new(&args, app.node_count());
    let (jobs, blobs) = one_shot_stores(&args)?;
    let job_id = new_job_id("local");
    // Credentials inside the URL (user-info, `?access_token=`) travel in memory like
    // GITHUB_TOKEN; the job, its events and its output see the URL without them.
    let (url, url_token) = match parse_location(&args.repo) {
        Ok((Location::Url(url), token)) => (url, token),
        Ok((Location::Directory(_), _)) | Err(_) => (redact_url(&args.repo), None),
    };
    let repo = RepoConfig {
        url,
        branch: args.branch.clone(),
        commit: args.commit.clone(),
    };
    jobs.create_job(&queued_job(&job_id, repo.clone()), "local")?;
    blobs.put(&plan_key(&job_id), &serde_json::to_vec(&app)?)?;

    let tasks = Arc::new(PipelineTasks::new(
        jobs.clone(),
        blobs.clone(),
        settings::reasoner()?,
        settings::pipeline_config()?,
    ));
    if let Some(token) = url_token {
        tasks.set_job_token(&job_id, token);
    }
    let mut registry = TaskRegistry::new();
    tasks.register(&mut registry);
    progress.report_through(&mut registry, &tasks);
    let runner = mapping_runner(jobs.clone(), registry, settings::max_parallel_nodes()?)?;
    let outcome = runner.run(&job_id, execution_input(&job_id, &repo, app.node_count()));
    tasks.finish_job(&job_id);
    progress.finish();
    match outcome {
        Ok(_) => {}
        // The execution's own failure says only that the job failed; the job item holds why
        // (`INVALID_INPUT: /nonexistent is not a directory`, `CLONE_FAILED: …`).
        Err(WorkflowError::Failed { error, cause }) => {
            let reason = jobs.get_job(&job_id)?.and_then(|job| job.error);
            anyhow::bail!("{}", reason.unwrap_or(format!("{error}: {cause}")))
        }
        Err(other) => return Err(other.into()),
    }

    let stored = jobs
        .get_job(&job_id)?
        .with_context(|| format!("job {job_id} vanished from the job store"))?;
    let job = job::completed_job(
        job_id.clone(),
        RepoConfig {
            commit: stored.repo_config.commit.clone(),
            ..repo
        },
        jobs.mappings(&job_id)?,
        stored.statistics.files_scanned,
        stored.statistics.symbols_indexed,
        app.reports(),
    );
    let rendered = match args.format {
        MapFormat::Json => serde_json::to_string_pretty(&job)? + "\n",
        MapFormat::Sarif => serde_json::to_string_pretty(&crate::sarif::to_sarif(&job))? + "\n",
        MapFormat::Table => render_table(&job, &app.plans, args.explain),
    };
    match &args.out {
        Some(path) => std::fs::write(path, rendered)?,
        None => crate::common::write_stdout(&rendered)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The job and blob stores of a one-shot run. Indexes are cached in the data dir for the next
/// run; the job's own blobs (its plan and intermediate results) live in memory and vanish with
/// the run. So does the job: nothing resumes a killed `map`, and a file-backed store fsyncs every
/// mapping and event write (3x slower on a 30-node plan). `serve` keeps its jobs in
/// `<data dir>/jobs.sqlite`.
fn one_shot_stores(args: &MapArgs) -> anyhow::Result<(Arc<dyn JobStore>, Arc<dyn BlobStore>)> {
    let index_cache: Arc<dyn BlobStore> = Arc::new(DirBlobStore::new(
        args.store
            .clone()
            .unwrap_or_else(crate::common::default_store_dir),
    ));
    let blobs: Arc<dyn BlobStore> = Arc::new(SplitBlobStore::new(
        index_cache,
        Arc::new(MemoryBlobStore::new()),
    ));
    Ok((Arc::new(SqliteJobStore::in_memory()?), blobs))
}

/// How a run shows its progress on standard error: a bar on a terminal, a line per stage
/// otherwise (a log, CI), nothing with `--quiet`.
enum Progress {
    Bar(indicatif::ProgressBar),
    Lines { nodes: usize },
    Quiet,
}

impl Progress {
    fn new(args: &MapArgs, nodes: usize) -> Self {
        if args.quiet {
            return Progress::Quiet;
        }
        if !std::io::stderr().is_terminal() {
            return Progress::Lines { nodes };
        }
        let bar = indicatif::ProgressBar::new(nodes as u64);
        if let Ok(style) =
            indicatif::ProgressStyle::with_template("{spinner} {msg} [{bar:30}] {pos}/{len} nodes")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_message("indexing repository");
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        Progress::Bar(bar)
    }

    /// Wrap the tasks whose completion the progress follows.
    fn report_through(&self, registry: &mut TaskRegistry, tasks: &Arc<PipelineTasks>) {
        let tasks = tasks.clone();
        match self {
            Progress::Bar(bar) => {
                let bar = bar.clone();
                registry.register("FinalMappingFunction", move |input| {
                    let written = tasks.final_mapping(&input)?;
                    bar.set_message("mapping");
                    bar.inc(1);
                    Ok(written)
                });
            }
            Progress::Lines { nodes } => {
                let nodes = *nodes;
                registry.register("LoadRepoContextFunction", move |input| {
                    let started = std::time::Instant::now();
                    eprintln!("plan2code: load_repo_context: indexing the repository and the plan");
                    let context = tasks.load_repo_context(&input)?;
                    eprintln!(
                        "plan2code: load_repo_context: done in {:.1} s; mapping {nodes} nodes",
                        started.elapsed().as_secs_f64()
                    );
                    Ok(context)
                });
            }
            Progress::Quiet => {}
        }
    }

    fn finish(&self) {
        if let Progress::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}

/// A readable table: one row per node with what it reads (scans) or how it shuffles
/// (exchanges), where it maps (file:lines, symbol, the snippet's first line), its confidence and
/// status; with `explain`, each node's explanation and alternatives follow. Column widths follow
/// the content, so long paths never run into the next column. A job of several executions gets
/// one table per execution under a heading (id, description, duration, node count), and the
/// executions it skipped are listed with why.
fn render_table(job: &Job, plans: &[PlanGraph], explain: bool) -> String {
    let mappings: Vec<&MappingOutput> = job.result.iter().flat_map(|r| &r.mappings).collect();
    let mut out = String::new();
    if plans.len() <= 1 {
        let graph = plans.first();
        out.push_str(&node_table(&mappings, graph, explain));
    } else {
        for report in &job.executions {
            out.push_str(&execution_heading(report));
            if report.skipped.is_some() {
                continue;
            }
            let graph = plans
                .iter()
                .find(|p| p.execution.execution_id == report.execution_id);
            let own: Vec<&MappingOutput> = mappings
                .iter()
                .copied()
                .filter(|m| m.execution_id == report.execution_id)
                .collect();
            out.push_str(&node_table(&own, graph, explain));
            out.push('\n');
        }
    }
    let s = &job.statistics;
    let executions = if plans.len() > 1 {
        format!("{} executions, ", plans.len())
    } else {
        String::new()
    };
    out.push_str(&format!(
        "\n{executions}{} nodes: {} mapped ({} confirmed, {} probable), {} unmapped; {} files, {} symbols indexed\n",
        s.total_nodes, s.mapped_nodes, s.confirmed_mappings, s.probable_mappings, s.unmapped_nodes, s.files_scanned, s.symbols_indexed
    ));
    out
}

/// `== execution 44 · collect at Foo.scala:12 · 1.3 s · 6 nodes ==` (or why it was skipped).
fn execution_heading(report: &ExecutionReport) -> String {
    let id = report
        .execution_id
        .map_or("-".to_string(), |id| id.to_string());
    let mut parts = vec![format!("execution {id}")];
    if let Some(root) = report.root_execution_id {
        parts.push(format!("inside execution {root}"));
    }
    if let Some(description) = &report.description {
        let line = crate::common::one_line(description);
        parts.push(if line.chars().count() > 80 {
            line.chars().take(79).collect::<String>() + "…"
        } else {
            line
        });
    }
    if let Some(ms) = report.duration_ms {
        parts.push(format!("{:.1} s", ms as f64 / 1000.0));
    }
    match &report.skipped {
        Some(why) => parts.push(format!("not mapped: {}", crate::common::one_line(why))),
        None => parts.push(format!("{} nodes", report.node_count)),
    }
    format!("== {} ==\n", parts.join(" · "))
}

/// The rows of one plan's nodes (and, with `explain`, their explanations).
fn node_table(mappings: &[&MappingOutput], graph: Option<&PlanGraph>, explain: bool) -> String {
    use comfy_table::{CellAlignment, ContentArrangement, Table, presets};
    let mut table = Table::new();
    table
        .load_preset(presets::NOTHING)
        .set_content_arrangement(ContentArrangement::Disabled)
        .set_header([
            "id", "node", "kind", "code", "symbol", "conf", "status", "snippet",
        ]);
    for m in mappings {
        let node = match graph.and_then(|g| node_detail(g, &m.dag_node_id)) {
            Some(detail) => format!("{} {detail}", m.node_name),
            None => m.node_name.clone(),
        };
        let (code, symbol, snippet) = match &m.mapped_code {
            Some(c) => (
                format!("{}:{}", c.file, c.lines),
                c.symbol.clone().unwrap_or_else(|| "-".into()),
                first_line(&c.code_snippet),
            ),
            None => ("-".into(), "-".into(), String::new()),
        };
        let kind = match m.node_kind {
            plan2code_core::contracts::NodeKind::Code => "code",
            plan2code_core::contracts::NodeKind::Engine => "engine",
        };
        let status = format!("{:?}", m.confidence_status).to_lowercase();
        table.add_row([
            m.dag_node_id.clone(),
            node,
            kind.into(),
            code,
            symbol,
            format!("{:.2}", m.confidence),
            status,
            snippet,
        ]);
    }
    for column in [0, 5] {
        if let Some(column) = table.column_mut(column) {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
    let mut out = table.trim_fmt();
    out.push('\n');
    if explain {
        for m in mappings {
            out.push_str(&format!(
                "\n{} {}: {}\n",
                m.dag_node_id, m.node_name, m.explanation
            ));
            for alt in &m.alternatives {
                out.push_str(&format!(
                    "    or {}:{} ({:.2}): {}\n",
                    alt.location.file, alt.location.lines, alt.confidence, alt.reason
                ));
            }
        }
    }
    out
}

/// What tells a node apart from others of its kind: the table or file a scan reads, the
/// partitioning of an exchange.
fn node_detail(graph: &PlanGraph, id: &str) -> Option<String> {
    let node = &graph.nodes[graph.node_by_id(id)?];
    let details = &node.details;
    if let Some(scan) = &details.scan {
        let path = scan.paths.first().map(|p| {
            p.trim_end_matches('/')
                .rsplit('/')
                .next()
                .unwrap_or(p)
                .to_string()
        });
        return scan.table.clone().or(path);
    }
    // a broadcast's "partitioning" is its key projection: the name says enough
    let partitioning = details
        .partitioning
        .as_ref()
        .filter(|p| p.kind != "broadcast")?;
    let exprs: Vec<&str> = partitioning.exprs.iter().map(|e| e.text.as_str()).collect();
    Some(match (exprs.is_empty(), partitioning.num_partitions) {
        (true, _) => partitioning.kind.clone(),
        (false, Some(n)) => format!("{}({}, {n})", partitioning.kind, exprs.join(", ")),
        (false, None) => format!("{}({})", partitioning.kind, exprs.join(", ")),
    })
}

/// The snippet's first non-blank line, trimmed and cut at 60 characters.
fn first_line(snippet: &str) -> String {
    let line = snippet
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    if line.chars().count() > 60 {
        line.chars().take(59).collect::<String>() + "…"
    } else {
        line.to_string()
    }
}
