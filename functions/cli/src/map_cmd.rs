//! `plan2code map --plan FILE --repo PATH|URL`: map every node of a plan to the code that
//! produced it, entirely on this machine.
//!
//! Parses the plan, loads or builds the repository index (cached in the local blob store), runs
//! the pipeline and prints the Job object of `DESIGN.md` (`--format json`) or a readable table.
//! Set `LLM_BASE_URL` + `LLM_MODEL` (+ `LLM_API_KEY`) to let an OpenAI-compatible model weigh in on
//! ambiguous nodes; by default the deterministic evidence reasoner decides, offline.

use plan2code_core::code::{LoadOptions, RepoSource, load_or_build_index};
use plan2code_core::contracts::{Job, RepoConfig};
use plan2code_core::error::Named;
use plan2code_core::pipeline::llm::{LlmConfig, LlmReasoner};
use plan2code_core::pipeline::reason::{EvidenceReasoner, Reasoner};
use plan2code_core::pipeline::{self, PipelineConfig, job};
use plan2code_stores::DirBlobStore;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum MapFormat {
    Table,
    Json,
}

#[derive(clap::Args)]
pub struct MapArgs {
    /// Plan file in any supported form (`-` reads standard input).
    #[arg(long)]
    pub plan: String,
    /// Repository: local directory, https:// or file:// git URL.
    #[arg(long)]
    pub repo: String,
    #[arg(long)]
    pub branch: Option<String>,
    #[arg(long)]
    pub commit: Option<String>,
    /// SQL execution to map when the plan input holds several.
    #[arg(long)]
    pub execution: Option<u64>,
    #[arg(long, value_enum, default_value = "table")]
    pub format: MapFormat,
    /// Write the output here instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Directory of the local blob store (index cache).
    #[arg(long)]
    pub store: Option<PathBuf>,
}

fn env_number<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Pipeline settings from `RETRIEVAL_TOP_K`, `CONFIDENCE_THRESHOLD_HIGH`, `CONFIDENCE_THRESHOLD_LOW`.
fn pipeline_config() -> PipelineConfig {
    let mut config = PipelineConfig::default();
    config.top_k = env_number("RETRIEVAL_TOP_K", config.top_k);
    config.confidence.threshold_high = env_number(
        "CONFIDENCE_THRESHOLD_HIGH",
        config.confidence.threshold_high,
    );
    config.confidence.threshold_low =
        env_number("CONFIDENCE_THRESHOLD_LOW", config.confidence.threshold_low);
    config
}

pub fn run(args: MapArgs) -> anyhow::Result<ExitCode> {
    let spinner = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
        bar
    });
    let say = |msg: &str| {
        if let Some(bar) = &spinner {
            bar.set_message(msg.to_owned());
        }
    };

    say("parsing plan");
    let graph = match crate::common::read_plan(&args.plan, args.execution)? {
        Ok(graph) => graph,
        Err(code) => return Ok(code),
    };

    say("indexing repository");
    let store = DirBlobStore::new(
        args.store
            .clone()
            .unwrap_or_else(crate::common::default_store_dir),
    );
    let options = LoadOptions::from_env(crate::common::unix_now());
    let source = RepoSource {
        location: args.repo.clone(),
        branch: args.branch.clone(),
        commit: args.commit.clone(),
    };
    let loaded = load_or_build_index(&source, &store, &options)
        .map_err(|err| anyhow::anyhow!("{}: {err}", err.error_name()))?;

    say(&format!("mapping {} nodes", graph.nodes.len()));
    let reasoner: Box<dyn Reasoner> = match LlmConfig::from_env() {
        Some(config) => Box::new(LlmReasoner::new(config)?),
        None => Box::new(EvidenceReasoner),
    };
    let (mappings, _timings) = pipeline::map_plan(
        &graph,
        std::sync::Arc::new(loaded.index.clone()),
        reasoner.as_ref(),
        &pipeline_config(),
    )
    .map_err(|err| anyhow::anyhow!("{}: {err}", err.error_name()))?;
    if let Some(bar) = &spinner {
        bar.finish_and_clear();
    }

    let stats = &loaded.index.stats;
    let job = job::completed_job(
        format!(
            "local-{:x}",
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or(0)
        ),
        RepoConfig {
            url: args.repo.clone(),
            branch: args.branch.clone(),
            commit: loaded.index.commit.clone(),
        },
        mappings,
        stats.files_scanned,
        stats.symbols,
    );
    let rendered = match args.format {
        MapFormat::Json => serde_json::to_string_pretty(&job)? + "\n",
        MapFormat::Table => render_table(&job),
    };
    match &args.out {
        Some(path) => std::fs::write(path, rendered)?,
        None => std::io::stdout().write_all(rendered.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// A readable table: one row per node.
fn render_table(job: &Job) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{:>5}  {:<28} {:<7} {:<44} {:>5}  {}\n",
        "id", "node", "kind", "code", "conf", "status"
    ));
    for m in job.result.iter().flat_map(|r| &r.mappings) {
        let name: String = m.node_name.chars().take(28).collect();
        let code = m
            .mapped_code
            .as_ref()
            .map(|c| format!("{}:{}", c.file, c.lines))
            .unwrap_or_else(|| "-".into());
        let kind = match m.node_kind {
            plan2code_core::contracts::NodeKind::Code => "code",
            plan2code_core::contracts::NodeKind::Engine => "engine",
        };
        let status = format!("{:?}", m.confidence_status).to_lowercase();
        out.push_str(&format!(
            "{:>5}  {name:<28} {kind:<7} {code:<44} {:>5.2}  {status}\n",
            m.dag_node_id, m.confidence
        ));
    }
    let s = &job.statistics;
    out.push_str(&format!(
        "\n{} nodes: {} mapped ({} confirmed, {} probable), {} unmapped; {} files, {} symbols indexed\n",
        s.total_nodes, s.mapped_nodes, s.confirmed_mappings, s.probable_mappings, s.unmapped_nodes, s.files_scanned, s.symbols_indexed
    ));
    out
}
