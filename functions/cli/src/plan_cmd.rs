//! `plan2code plan FILE [--format table|json] [--execution ID]`: parse a physical plan in any
//! supported form and print its node graph — a readable tree by default, or the stable JSON of
//! [`plan2code_core::plan::render::to_json`]. When the input holds several SQL executions and
//! none is chosen, the executions are listed and the command exits with status 2.

use std::process::ExitCode;

use anyhow::Context;
use plan2code_core::plan::{self, ParseOptions, PlanError};

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum OutputFormat {
    /// An indented tree with a summary of each node.
    Table,
    /// `{"format", "nodes": [{"id", "name", "operator", "nodeKind", "children", …}]}`.
    Json,
}

#[derive(clap::Args)]
pub struct PlanArgs {
    /// Plan file: explain() / explain(true) / explain("formatted") text, Spark UI REST JSON,
    /// or an event log (JSON lines). `-` reads standard input.
    pub input: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "table")]
    pub format: OutputFormat,
    /// SQL execution to read when the input holds several.
    #[arg(long = "execution")]
    pub execution: Option<u64>,
}

pub fn run(args: PlanArgs) -> anyhow::Result<ExitCode> {
    let text = if args.input == "-" {
        std::io::read_to_string(std::io::stdin()).context("reading standard input")?
    } else {
        std::fs::read_to_string(&args.input).with_context(|| format!("reading {}", args.input))?
    };
    let options = ParseOptions {
        execution_id: args.execution,
    };
    let graph = match plan::parse_plan(&text, &options) {
        Ok(graph) => graph,
        Err(PlanError::ExecutionRequired { .. }) => {
            let executions = plan::list_executions(&text)?;
            println!(
                "{:>10}  {:>5}  description / call site",
                "execution", "nodes"
            );
            for e in &executions {
                let id = e.execution_id.map_or("-".to_string(), |i| i.to_string());
                let desc = e.description.as_deref().unwrap_or("");
                let site = e.call_site.as_deref().unwrap_or("");
                println!("{id:>10}  {:>5}  {desc}  {site}", e.node_count);
            }
            eprintln!(
                "plan2code: {} holds {} executions; choose one with --execution ID",
                args.input,
                executions.len()
            );
            return Ok(ExitCode::from(2));
        }
        Err(err) => return Err(anyhow::Error::new(err).context(format!("parsing {}", args.input))),
    };
    match args.format {
        OutputFormat::Json => println!(
            "{}",
            serde_json::to_string_pretty(&plan::render::to_json(&graph))?
        ),
        OutputFormat::Table => print!("{}", plan::render::to_tree_text(&graph)),
    }
    Ok(ExitCode::SUCCESS)
}
