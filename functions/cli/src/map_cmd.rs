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
use plan2code_core::code::texts::job_texts;
use plan2code_core::contracts::RepoConfig;
use plan2code_core::pipeline::job;
use plan2code_core::pipeline::job::{execution_input, plan_key, queued_job};
use plan2code_core::pipeline::tasks::PipelineTasks;
use plan2code_core::ports::{BlobStore, JobStore};
use plan2code_core::settings;
use plan2code_core::view::Report;
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
    /// One self-contained HTML file: the plan graph, each node's code and the hot lines (opens
    /// from `file://`, for attaching to a ticket).
    Html,
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
        MapFormat::Table => {
            use std::io::IsTerminal;
            let style = crate::table::TableStyle {
                explain: args.explain,
                colour: args.out.is_none()
                    && std::io::stdout().is_terminal()
                    && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
            };
            crate::table::render_table(&job, &app.plans, style)
        }
        MapFormat::Html => {
            let texts = job_texts(&*blobs, &job_id)?.unwrap_or_default();
            plan2code_api::report_html(&Report::new(job, &app.plans, &texts))?
        }
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
