//! Placeholder, being written.
#![allow(missing_docs)]

#[derive(clap::Args, Debug)]
pub struct Args {}

pub fn run(_args: &Args) -> anyhow::Result<()> {
    anyhow::bail!("not built yet")
}
