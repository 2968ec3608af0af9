//! `wopr gtp GAME --player SPEC`: wopr as a GTP engine. It reads Go Text
//! Protocol (version 2) commands on stdin and answers on stdout, so GUIs
//! and programs that drive GTP Othello engines (Debian's `quarry`, another
//! wopr's `gtp:` player) can play any wopr player. Games: those whose
//! moves are GTP vertices (Reversi of any size, Tic-Tac-Toe; see
//! `wopr::players::gtp`).
//!
//! The engine itself (the commands, passes, `undo`, how lines are read:
//! as bytes, any line it cannot read answered `?`) is the library's
//! `wopr::players::gtp::engine::GtpEngine`; this command hands it stdin
//! and stdout.

use anyhow::bail;
use wopr::players::gtp::engine::GtpEngine;
use wopr::players::parse_player;
use wopr::{with_board_game, AnyGame, Roster};

/// Arguments of `wopr gtp`.
#[derive(clap::Args, Debug)]
pub struct GtpArgs {
    /// Game spec: one whose moves are GTP vertices (`reversi:8x8`,
    /// `reversi:6x6`, `tictactoe`).
    game: String,
    /// The player that answers `genmove` (any player spec of the game).
    #[arg(long)]
    player: String,
    /// Seed of the player's random streams (one per game).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Runs `wopr gtp`.
pub fn run(args: &GtpArgs) -> anyhow::Result<()> {
    let game = AnyGame::parse(&args.game)?;
    with_board_game!(&game, g => engine(g, args), bail!(
        "gtp: plays games whose moves are GTP vertices (reversi, tictactoe); {} has none",
        game.spec()
    ))
}

fn engine<G: Roster>(game: &G, args: &GtpArgs) -> anyhow::Result<()> {
    wopr::players::gtp::check_game(game)?;
    let player = parse_player(game, &args.player)?;
    let mut engine = GtpEngine::new(game, player, args.seed)?;
    engine.serve(std::io::stdin().lock(), std::io::stdout().lock())?;
    Ok(())
}
