//! `plan2code` — map Spark physical-plan nodes to the code that produced them.
//!
//! A thin binary over `plan2code-core`: argument parsing, terminal output and exit codes live
//! here; every decision lives in the core. Each subcommand is one module.
//!
//! Exit codes: 0 done; 1 the command failed (the message on stderr names the error and its
//! cause, e.g. `INVALID_INPUT: …`); 2 a usage error (unknown flag, missing argument, or a plan
//! with several executions and none chosen).

mod cache_cmd;
mod common;
mod index_cmd;
mod map_cmd;
mod plan_cmd;
mod sarif;
mod serve_cmd;
mod table;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "plan2code",
    version,
    about = "Map Spark physical-plan nodes to the lines of code that produced them"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse a physical plan (any supported form) and print its node graph.
    Plan(plan_cmd::PlanArgs),
    /// Index a repository (local path or git URL) and print index statistics.
    Index(index_cmd::IndexArgs),
    /// Map every node of a plan to the code that produced it.
    Map(map_cmd::MapArgs),
    /// Serve the HTTP API on 127.0.0.1, running jobs with the local state machine.
    Serve(serve_cmd::ServeArgs),
    /// List the cached repository indexes and clones, or prune them (--prune).
    Cache(cache_cmd::CacheArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Plan(args) => plan_cmd::run(args),
        Command::Index(args) => index_cmd::run(args),
        Command::Map(args) => map_cmd::run(args),
        Command::Serve(args) => serve_cmd::run(args),
        Command::Cache(args) => cache_cmd::run(args),
    };
    match outcome {
        Ok(code) => code,
        Err(err) => {
            eprintln!("plan2code: {err:#}");
            ExitCode::FAILURE
        }
    }
}
