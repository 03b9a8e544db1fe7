//! `plan2code plan`.

use std::process::ExitCode;

#[derive(clap::Args)]
pub struct PlanArgs {
    /// Input.
    pub input: String,
}

pub fn run(_args: PlanArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`plan2code plan` is being built")
}
