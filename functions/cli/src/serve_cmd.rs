//! `plan2code serve`: the HTTP API of `docs/ARCHITECTURE.md` on 127.0.0.1, for a UI on this machine.
//!
//! The same router the API Lambda serves (`plan2code-api`), over the local stores `plan2code map`
//! uses (SQLite + a directory under the data dir) and the same state machine, run in-process on a
//! background thread per job. Callers authenticate with bearer tokens from
//! `PLAN2CODE_API_TOKENS` (`caller:token,…`); without it the server makes one token for the caller
//! `local` and prints it once on standard error, with the viewer's login link
//! `http://127.0.0.1:PORT/?token=…`. The first line on standard output is
//! `listening on http://127.0.0.1:PORT` (`--port 0` picks a free port); the web viewer is at `/`. Logs are JSON (tracing) and
//! never contain tokens.
//!
//! `PLAN2CODE_NODE_DELAY_MS` slows every node down by that much — for demos of progress, pause
//! and resume, and for the end-to-end tests that exercise them.

use anyhow::Context;
use plan2code_api::{
    ApiLimits, ApiState, LocalLauncher, Recovery, RepoAccess, StaticTokens, router,
};
use plan2code_core::pipeline::tasks::PipelineTasks;
use plan2code_core::ports::{BlobStore, JobStore};
use plan2code_core::settings;
use plan2code_core::workflow::{TaskRegistry, mapping_runner};
use plan2code_stores::DirBlobStore;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args)]
pub struct ServeArgs {
    /// Port on 127.0.0.1 (0 = any free port).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Directory of the local blob store (plans, indexes).
    #[arg(long)]
    pub store: Option<PathBuf>,
    /// Largest request body accepted, in bytes.
    #[arg(long, default_value_t = 8 * 1024 * 1024)]
    pub max_body_bytes: usize,
}

/// A random bearer token (128 bits from the OS).
fn random_token() -> anyhow::Result<String> {
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut bytes))
        .context("reading /dev/urandom")?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The configured tokens, or one made for the caller `local` (returned, to print as a login link).
fn authenticator() -> anyhow::Result<(StaticTokens, Option<String>)> {
    match std::env::var("PLAN2CODE_API_TOKENS") {
        Ok(spec) => StaticTokens::parse(&spec)
            .map(|tokens| (tokens, None))
            .context("PLAN2CODE_API_TOKENS must be `caller:token[,caller:token…]`"),
        Err(_) => {
            let token = random_token()?;
            Ok((
                StaticTokens::new().with("local", token.clone()),
                Some(token),
            ))
        }
    }
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let _ = tracing_subscriber::fmt()
        .json()
        .with_writer(std::io::stderr)
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .try_init();
    let (auth, local_token) = authenticator()?;
    let blobs: Arc<dyn BlobStore> = Arc::new(DirBlobStore::new(
        args.store
            .clone()
            .unwrap_or_else(crate::common::default_store_dir),
    ));
    let jobs: Arc<dyn JobStore> = crate::map_cmd::open_job_store()?;
    let tasks = Arc::new(PipelineTasks::new(
        jobs.clone(),
        blobs.clone(),
        settings::reasoner()?,
        settings::pipeline_config()?,
    ));
    let mut registry = TaskRegistry::new();
    tasks.register(&mut registry);
    let delay_ms: u64 = std::env::var("PLAN2CODE_NODE_DELAY_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    if delay_ms > 0 {
        let tasks = tasks.clone();
        registry.register("PlanSemanticsFunction", move |input| {
            std::thread::sleep(std::time::Duration::from_millis(delay_ms));
            tasks.plan_semantics(&input)
        });
    }
    let runner = mapping_runner(jobs.clone(), registry, settings::max_parallel_nodes()?)?;
    let state = ApiState {
        jobs: jobs.clone(),
        blobs,
        auth: Arc::new(auth),
        launcher: Arc::new(LocalLauncher::new(
            runner,
            tasks,
            jobs,
            settings::max_running_jobs()?,
        )?),
        limits: ApiLimits {
            max_body_bytes: args.max_body_bytes,
            ..ApiLimits::default()
        },
        access: RepoAccess::from_env()?,
    };

    // Jobs a stopped or killed server left unfinished run again from their checkpoints.
    for outcome in plan2code_api::resume_unfinished_jobs(&state)
        .context("taking up the unfinished jobs of the job store")?
    {
        match outcome {
            Recovery::Resumed { job_id, status } => {
                tracing::info!(job = %job_id, ?status, "resuming an unfinished job")
            }
            Recovery::Failed { job_id, reason } => {
                tracing::warn!(job = %job_id, %reason, "an unfinished job could not be resumed")
            }
        }
    }

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", args.port))
            .await
            .with_context(|| format!("binding 127.0.0.1:{}", args.port))?;
        let addr = listener.local_addr()?;
        println!("listening on http://{addr}");
        std::io::stdout().flush()?;
        if let Some(token) = &local_token {
            // Jupyter's habit: a link that logs the browser in (the page then drops the token
            // from its address bar and keeps it for the tab only).
            eprintln!(
                "plan2code serve: open the viewer at http://{addr}/?token={token}\n\
                 plan2code serve: API bearer token for caller `local`: {token}"
            );
        }
        tracing::info!(%addr, "serving the plan2code API");
        axum::serve(listener, router(state))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .context("serving HTTP")?;
        anyhow::Ok(ExitCode::SUCCESS)
    })
}
