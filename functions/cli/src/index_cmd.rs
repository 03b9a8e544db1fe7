//! `plan2code index`.

use std::process::ExitCode;

#[derive(clap::Args)]
pub struct IndexArgs {
    /// Input.
    pub input: String,
}

pub fn run(_args: IndexArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`plan2code index` is being built")
}
