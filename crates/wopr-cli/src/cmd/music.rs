//! Placeholder until the musicator lands (issue 6).
#![allow(missing_docs, dead_code)]
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct MusicArgs {
    #[arg(long)]
    pub record: PathBuf,
}

pub fn run(_args: &MusicArgs) -> anyhow::Result<()> {
    anyhow::bail!("music is not built yet")
}

pub struct LiveComposer;

impl LiveComposer {
    pub fn new(_out: PathBuf, _seed: u64) -> anyhow::Result<LiveComposer> {
        anyhow::bail!("music is not built yet")
    }
    pub fn on_move(&mut self, _cell: Option<(usize, usize)>, _seat: usize) -> Option<String> {
        None
    }
    pub fn finish(&mut self) -> anyhow::Result<PathBuf> {
        anyhow::bail!("music is not built yet")
    }
}
