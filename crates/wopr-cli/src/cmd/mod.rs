//! One module per subcommand.

pub mod bench;
pub mod dataset;
pub mod eval;
pub mod evolve;
pub mod games;
pub mod music;
pub mod perft;
pub mod play;
pub mod plot;
pub mod position;
pub mod solve;
pub mod train;

use anyhow::Context;
use wopr::AnyGame;

/// Parses a game spec, with the accepted games in the error.
pub fn parse_game(spec: &str) -> anyhow::Result<AnyGame> {
    AnyGame::parse(spec).with_context(|| format!("bad game spec '{spec}'"))
}
