//! `wopr eval --optimal-moves N`: how often a player's move keeps the exact
//! value of the position, on positions from random play.
//!
//! Positions come from random-vs-random games drawn from the seed, game by
//! game, every position with one player to move and at least two legal
//! moves that the solver reaches (Reversi: an endgame of at most its
//! limit of empty squares, 24 on 6x6), each distinct position once (by its
//! printed board, which includes the side to move), until N are found. Each is solved exactly; the player
//! is asked for its move (with its own random stream per position), and the
//! move counts as optimal when the solver lists it among the moves that
//! keep the position's value. A uniformly random legal move's rate on the
//! same positions is printed beside it: the mean share of optimal moves
//! among the legal ones.

use std::collections::HashSet;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde_json::json;
use wopr::eval::wilson;
use wopr::game::rng::stream;
use wopr::game::{ActionList, Turn};
use wopr::players::parse_player;
use wopr::{Roster, State};

/// Games tried per position wanted before giving up on finding more
/// distinct positions.
const GAMES_PER_POSITION: usize = 50;

/// Measures `player`'s optimal-move rate on `n` positions and prints it.
pub fn run<G: Roster>(
    game: &G,
    player: &str,
    n: usize,
    seed: u64,
    json: bool,
) -> anyhow::Result<()> {
    if n == 0 {
        anyhow::bail!("--optimal-moves must be at least 1");
    }
    if game.solver().is_none() {
        anyhow::bail!(
            "{} has no exact solver (solvers: tictactoe, connect4, dots-and-boxes, reversi endgames)",
            game.spec()
        );
    }
    parse_player(game, player).map_err(|e| anyhow::anyhow!("bad --player '{player}': {e}"))?;
    let positions = positions(game, n, seed)?;
    let bar = if json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(positions.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("solving {pos}/{len} {bar:30} {elapsed}")
            .expect("a valid template"),
    );
    // Per position: (the player's move is optimal, share of optimal moves
    // among the legal ones).
    let judged: Vec<anyhow::Result<(bool, f64)>> = positions
        .par_iter()
        .enumerate()
        .map_init(
            || {
                let solver = game.solver().expect("checked above");
                let p = parse_player(game, player).expect("checked above");
                (solver, p)
            },
            |(solver, p), (i, state)| {
                let solution = solver.solve(state)?;
                let mut legal = ActionList::new();
                state.legal_actions(&mut legal);
                let Turn::Player(seat) = state.turn() else {
                    unreachable!("positions have one player to move")
                };
                p.new_game();
                let mut rng = stream(seed, &[0x4F50_544D, i as u64]);
                let chosen = p.choose(&state.view(seat), &legal, &mut rng);
                bar.inc(1);
                let share = solution.best.len() as f64 / legal.len() as f64;
                Ok((solution.best.contains(&chosen), share))
            },
        )
        .collect();
    bar.finish_and_clear();
    let mut optimal = 0u64;
    let mut baseline = 0.0;
    for r in judged {
        let (hit, share) = r?;
        optimal += u64::from(hit);
        baseline += share;
    }
    let total = positions.len() as u64;
    let rate = optimal as f64 / total as f64;
    let (lo, hi) = wilson(optimal, total, 1.96);
    let random = baseline / total as f64;
    if json {
        println!(
            "{}",
            json!({"player": player, "positions": total, "optimal": optimal, "rate": rate,
                   "rate_ci95": [lo, hi], "random_rate": random, "seed": seed})
        );
    } else {
        println!(
            "{player}: optimal move on {optimal} of {total} positions from random play \
             ({:.1}% [{:.1}, {:.1}]); a random legal move: {:.1}% (seed {seed})",
            100.0 * rate,
            100.0 * lo,
            100.0 * hi,
            100.0 * random
        );
    }
    Ok(())
}

/// `n` distinct positions with one player to move and a real choice, from
/// random games (game `g` plays from `stream(seed, [tag, g])`).
fn positions<G: Roster>(game: &G, n: usize, seed: u64) -> anyhow::Result<Vec<G::State>> {
    let solver = game.solver().expect("checked by the caller");
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(n);
    let mut legal = ActionList::new();
    for g in 0..(n * GAMES_PER_POSITION) as u64 {
        let mut rng = stream(seed, &[0x504F_5354, g]);
        let mut state = game.initial_state();
        while !state.is_terminal() {
            if let Turn::Player(_) = state.turn() {
                legal.clear();
                state.legal_actions(&mut legal);
                if legal.len() > 1 && solver.reaches(&state) && seen.insert(state.to_string()) {
                    out.push(state.clone());
                    if out.len() == n {
                        return Ok(out);
                    }
                }
            }
            let a = state.random_action(&mut rng);
            state.apply(a);
        }
    }
    anyhow::bail!(
        "random play found only {} distinct positions with a choice in {} games; ask for fewer",
        out.len(),
        n * GAMES_PER_POSITION
    )
}
