//! What several subcommands share: reading a plan (with execution selection), where local data
//! lives.

use plan2code_core::plan::input::PlanInput;
use plan2code_core::plan::{self, Application, ParseOptions, PlanGraph};
use std::path::PathBuf;
use std::process::ExitCode;

/// Open a plan input (`-` = stdin): compressed logs decoded, rolled log folders joined, event
/// logs streamed (only their plans kept).
pub fn open_input(input: &str) -> anyhow::Result<PlanInput> {
    Ok(if input == "-" {
        let stdin = Box::new(std::io::BufReader::new(std::io::stdin()));
        plan::input::read_stream(stdin, "-")?
    } else {
        plan::input::open_path(std::path::Path::new(input))?
    })
}

/// Write a command's output to standard output; a reader that went away (`plan … | head`) ends
/// the output quietly, as with any Unix tool, instead of failing the command.
pub fn write_stdout(text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// One line, whatever the text holds (descriptions may span lines).
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Read and parse the plans a job maps from a plan file (`-` = stdin): its one plan, or every
/// SQL execution of an event log or UI list (those in `wanted` when it names any). Warnings go to
/// stderr, each once.
pub fn read_application(input: &str, wanted: &[u64]) -> anyhow::Result<Application> {
    let app = open_input(input)?
        .parse_application((!wanted.is_empty()).then_some(wanted))
        .map_err(|err| anyhow::Error::new(err).context(format!("parsing {input}")))?;
    print_warnings(&app.warnings());
    Ok(app)
}

/// The one plan of an opened input; its warnings go to stderr.
pub fn parse_opened(
    input: &str,
    opened: PlanInput,
    execution: Option<u64>,
) -> anyhow::Result<PlanGraph> {
    let graph = opened
        .parse(&ParseOptions {
            execution_id: execution,
        })
        .map_err(|err| anyhow::Error::new(err).context(format!("parsing {input}")))?;
    print_warnings(&graph.warnings);
    Ok(graph)
}

/// List the executions of an input that holds several, one a line whatever their descriptions
/// hold, and return the exit code (2) of a command that needed one.
pub fn list_executions(input: &str, opened: &PlanInput) -> anyhow::Result<ExitCode> {
    let executions = opened.list_executions()?;
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
    Ok(ExitCode::from(2))
}

/// What the reader tolerated, one a line on stderr.
pub fn print_warnings(warnings: &[String]) {
    for warning in warnings {
        eprintln!("warning: {}", one_line(warning));
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
