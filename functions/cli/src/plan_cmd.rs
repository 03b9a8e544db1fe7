//! `plan2code plan FILE [--format table|json] [--execution ID]`: parse a physical plan in any
//! supported form and print its node graph — a readable tree by default, or the stable JSON of
//! [`plan2code_core::plan::render::to_json`]. When the input holds several SQL executions and
//! none is chosen, the executions are listed and the command exits with status 2.

use std::process::ExitCode;

use plan2code_core::plan;

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
    let graph = match crate::common::read_plan(&args.input, args.execution)? {
        Ok(graph) => graph,
        Err(code) => return Ok(code),
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
