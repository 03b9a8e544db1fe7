//! What several subcommands share: reading a plan (with execution selection), where local data
//! lives.

use anyhow::Context;
use plan2code_core::plan::{self, ParseOptions, PlanError, PlanGraph};
use std::path::PathBuf;
use std::process::ExitCode;

/// The text of a plan input (`-` = stdin): compressed logs decoded, rolled log folders joined.
pub fn read_input(input: &str) -> anyhow::Result<String> {
    Ok(if input == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)
            .context("reading standard input")?;
        plan::input::text_of(plan::input::decode(&bytes, "-")?)?
    } else {
        plan::input::read_plan_input(std::path::Path::new(input))?
    })
}

/// One line, whatever the text holds (descriptions may span lines).
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Read and parse a plan file (`-` = stdin). When the input holds several executions and none is
/// chosen, list them and return the exit code to end with.
pub fn read_plan(
    input: &str,
    execution: Option<u64>,
) -> anyhow::Result<Result<PlanGraph, ExitCode>> {
    let text = read_input(input)?;
    match plan::parse_plan(
        &text,
        &ParseOptions {
            execution_id: execution,
        },
    ) {
        Ok(graph) => Ok(Ok(graph)),
        Err(PlanError::ExecutionRequired { .. }) => {
            let executions = plan::list_executions(&text)?;
            println!(
                "{:>10}  {:>5}  description / call site",
                "execution", "nodes"
            );
            for e in &executions {
                let id = e.execution_id.map_or("-".to_string(), |i| i.to_string());
                let desc = one_line(e.description.as_deref().unwrap_or(""));
                let site = one_line(e.call_site.as_deref().unwrap_or(""));
                println!("{id:>10}  {:>5}  {desc}  {site}", e.node_count);
            }
            eprintln!(
                "plan2code: {input} holds {} executions; choose one with --execution ID",
                executions.len()
            );
            Ok(Err(ExitCode::from(2)))
        }
        Err(err) => Err(anyhow::Error::new(err).context(format!("parsing {input}"))),
    }
}

/// Root of local state (`PLAN2CODE_DATA_DIR`, default `<tmp>/plan2code`).
pub fn data_dir() -> PathBuf {
    std::env::var_os("PLAN2CODE_DATA_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| std::env::temp_dir().join("plan2code"))
}

/// Directory of the local blob store (indexes, plans, results).
pub fn default_store_dir() -> PathBuf {
    data_dir().join("blobs")
}
