//! `plan2code plan FILE [--format table|json] [--execution ID]`: parse a physical plan in any
//! supported form and print its node graph — a readable tree by default, or the stable JSON of
//! [`plan2code_core::plan::render::to_json`]. When the input holds several SQL executions and
//! none is chosen, the executions are listed and the command exits with status 2.

use std::process::ExitCode;

use plan2code_core::plan::{self, input::PlanInput};

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
    /// Output: the node tree as text, or the graph as JSON (`{"executions": [...]}` for a log with
    /// several executions and no `--execution`).
    #[arg(long, value_enum, default_value = "table")]
    pub format: OutputFormat,
    /// SQL execution to read when the input holds several.
    #[arg(long = "execution")]
    pub execution: Option<u64>,
}

pub fn run(args: PlanArgs) -> anyhow::Result<ExitCode> {
    let opened = crate::common::open_input(&args.input)?;
    if args.execution.is_none() && opened.holds_several_executions()? {
        return match args.format {
            OutputFormat::Json => {
                let json = serde_json::to_string_pretty(&all_executions(opened)?)?;
                crate::common::write_stdout(&(json + "\n"))?;
                Ok(ExitCode::SUCCESS)
            }
            OutputFormat::Table => crate::common::list_executions(&args.input, &opened),
        };
    }
    let graph = crate::common::parse_opened(&args.input, opened, args.execution)?;
    let text = match args.format {
        OutputFormat::Json => serde_json::to_string_pretty(&plan::render::to_json(&graph))? + "\n",
        OutputFormat::Table => plan::render::to_tree_text(&graph),
    };
    crate::common::write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// `{"executions": [{"id", "description", "callSite", …graph}, …]}`: every SQL execution of a
/// log, each parsed on its own (one that fails carries its `error` instead of nodes).
fn all_executions(opened: PlanInput) -> anyhow::Result<serde_json::Value> {
    let executions: Vec<serde_json::Value> = opened
        .parse_every_execution()?
        .into_iter()
        .map(|(id, parsed)| {
            let mut entry = match &parsed {
                Ok(graph) => plan::render::to_json(graph),
                Err(err) => serde_json::json!({ "error": err.to_string() }),
            };
            if let Some(obj) = entry.as_object_mut() {
                obj.insert("id".into(), serde_json::json!(id));
                if let Ok(graph) = &parsed {
                    obj.insert(
                        "description".into(),
                        serde_json::json!(graph.execution.description),
                    );
                    obj.insert(
                        "callSite".into(),
                        serde_json::json!(graph.execution.call_site),
                    );
                }
            }
            entry
        })
        .collect();
    Ok(serde_json::json!({ "executions": executions }))
}
