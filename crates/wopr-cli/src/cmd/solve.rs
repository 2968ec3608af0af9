//! `wopr solve GAME [--moves …|--position TEXT] [--empties N] [--json]`:
//! the exact value of a position.

use std::time::Instant;

use serde_json::json;
use wopr::game::driver::apply_notation;
use wopr::{with_game, Roster, State};

use crate::ExitError;

/// Arguments of `wopr solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// Game spec, e.g. `connect4:6x6`.
    game: String,
    /// Moves to play first, in notation, separated by spaces.
    #[arg(long, conflicts_with = "position")]
    moves: Option<String>,
    /// The position as text, for games that read one (reversi: the N²
    /// squares row by row from a1, X black, O white, - empty, then the
    /// colour to move, as the FFO endgame suite's `.obf` lines write it;
    /// what follows a `;` is not read; it may start with `-`).
    #[arg(long, allow_hyphen_values = true)]
    position: Option<String>,
    /// Let an endgame solver take positions of up to this many empty
    /// squares (reversi's solver refuses more than 20 on 8x8 by default,
    /// the limit its players keep to; a single solve may take longer).
    #[arg(long, value_name = "N")]
    empties: Option<u32>,
    /// A book of solved positions to look the position up in first, read
    /// only: it must exist and is never written (Connect-4).
    #[arg(long, value_name = "FILE")]
    book: Option<String>,
    /// A book to look the position up in and to grow: a long search is
    /// appended to it (made if missing; Connect-4).
    #[arg(long, value_name = "OUT")]
    learn: Option<String>,
    /// Print `{"value", "score", "best", "nodes", "ms"}`.
    #[arg(long)]
    json: bool,
}

/// Solves the position and prints the result.
pub fn run(args: &SolveArgs) -> anyhow::Result<()> {
    let game = super::parse_game(&args.game)?;
    with_game!(&game, g => solve(g, args))
}

fn solve<G: Roster>(game: &G, args: &SolveArgs) -> anyhow::Result<()> {
    let files = wopr::players::BookFiles {
        read: args.book.clone(),
        learn: args.learn.clone(),
    };
    let mut solver = if files != wopr::players::BookFiles::default() {
        game.book_solver(&files)?
    } else {
        game
            .solver()
            .ok_or_else(|| anyhow::anyhow!("{} has no exact solver (solvers: tictactoe, connect4, dots-and-boxes, reversi endgames)", game.spec()))?
    };
    if let Some(n) = args.empties {
        anyhow::ensure!(
            solver.widen(n),
            "{}'s solver has no limit on empty squares to raise; --empties is for endgame solvers (reversi)",
            game.spec()
        );
    }
    let mut state = match &args.position {
        Some(text) => game.position(text).map_err(|e| ExitError {
            code: 2,
            message: format!("--position: {e}"),
        })?,
        None => game.initial_state(),
    };
    if let Some(m) = &args.moves {
        for (ply, token) in m.split_whitespace().enumerate() {
            apply_notation(&mut state, game.num_players(), token).map_err(|why| ExitError {
                code: 2,
                message: format!("move '{token}' at ply {}: {why}", ply + 1),
            })?;
        }
    }
    let t = Instant::now();
    let sol = solver.solve(&state).map_err(|e| match e {
        wopr::game::solver::SolveError::TooLarge(why) if args.empties.is_none() => {
            anyhow::anyhow!("{why} (--empties N raises it)")
        }
        e => e.into(),
    })?;
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    if args.json {
        println!(
            "{}",
            json!({"value": sol.value, "score": sol.score, "best": sol.best, "nodes": sol.nodes, "ms": ms})
        );
        return Ok(());
    }
    let verdict = match sol.value {
        1 => "win",
        0 => "draw",
        _ => "loss",
    };
    let best: Vec<String> = sol
        .best
        .iter()
        .map(|&a| state.action_to_string(a))
        .collect();
    println!("{state}");
    println!("value for the player to move: {verdict}");
    if let Some(s) = sol.score {
        println!("score margin under optimal play: {s:+}");
    }
    println!("optimal moves: {}", best.join(" "));
    println!("nodes: {}, time: {ms:.1} ms", sol.nodes);
    Ok(())
}
