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
//!
//! Two readings of "optimal" are measured, each with its random baseline:
//! - **exact**: the move is among the solver's best moves, which keep the
//!   position's exact score: on Connect-4 the fastest win or the slowest
//!   loss (the solver's distance-aware score), on games that keep score
//!   (Dots-and-Boxes, Reversi) the best final margin; printed first, and
//!   the JSON's `rate` (what wopr measured before the second reading);
//! - **value**: the move keeps the position's game-theoretic value (a won
//!   position stays won, a drawn one drawn; every move of a lost position
//!   keeps it), however fast or by how much. A learner that values only
//!   the result (TD without discounting) cannot tell a fast win from a
//!   slow one, so it is judged on both.

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
    let Some(probe) = game.solver() else {
        anyhow::bail!(
            "{} has no exact solver (solvers: tictactoe, connect4, dots-and-boxes, reversi endgames)",
            game.spec()
        );
    };
    // Whether the misses that keep the value can be measured by their gap.
    let scored = probe.scores_moves();
    drop(probe);
    let played = super::resolve(game, player, &format!("--player '{player}'"))?;
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
    let judged: Vec<anyhow::Result<Judged>> = positions
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
                let n = legal.len() as f64;
                let exact = solution.best.contains(&chosen);
                let mut keeps = |a| -> anyhow::Result<bool> {
                    // Any move keeps a lost position's value; in a drawn one
                    // the best moves (exact score 0) are the drawing ones;
                    // only a won position's other moves need solving.
                    let best = solution.best.contains(&a);
                    Ok(match solution.value {
                        v if v < 0 => true,
                        0 => best,
                        v => best || value_after(solver.as_mut(), state, a, seat)? == v,
                    })
                };
                let (mut kept, mut value) = (0usize, false);
                for &a in legal.iter() {
                    let k = keeps(a)?;
                    kept += usize::from(k);
                    value |= k && a == chosen;
                }
                // How far a miss that keeps the value falls short of the
                // best exact score, where the solver scores moves finely.
                let gap = match (exact, value) {
                    (false, true) => solver.move_scores(state).transpose()?.and_then(|scores| {
                        let best = scores.iter().map(|&(_, s)| s).max()?;
                        let mine = scores.iter().find(|&&(a, _)| a == chosen)?.1;
                        Some(best - mine)
                    }),
                    _ => None,
                };
                Ok(Judged {
                    class: class(solution.value),
                    gap,
                    exact,
                    value,
                    exact_share: solution.best.len() as f64 / n,
                    value_share: kept as f64 / n,
                })
            },
        )
        .collect();
    bar.finish_and_clear();
    let total = positions.len() as u64;
    let mut exact = Measure::default();
    let mut value = Measure::default();
    let mut classes = [Class::default(); 3];
    // Misses that keep the value, by their gap: 1, 2, 3 or more (where the
    // solver scores moves).
    let mut gaps = scored.then_some([0u64; 3]);
    for r in judged {
        let j = r?;
        if let (Some(g), Some(counts)) = (j.gap, gaps.as_mut()) {
            counts[(g.clamp(1, 3) - 1) as usize] += 1;
        }
        exact.add(j.exact, j.exact_share);
        value.add(j.value, j.value_share);
        let c = &mut classes[j.class];
        c.positions += 1;
        c.exact += u64::from(j.exact);
        c.value += u64::from(j.value);
    }
    let by_value =
        |c: &Class| json!({"positions": c.positions, "optimal": c.exact, "value_kept": c.value});
    if json {
        let (lo, hi) = exact.interval(total);
        let (vlo, vhi) = value.interval(total);
        println!(
            "{}",
            json!({"player": player, "player_resolved": played,
                   "positions": total, "optimal": exact.hits,
                   "rate": exact.rate(total), "rate_ci95": [lo, hi],
                   "random_rate": exact.random(total),
                   "value_kept": value.hits, "value_rate": value.rate(total),
                   "value_rate_ci95": [vlo, vhi], "random_value_rate": value.random(total),
                   "by_value": {"won": by_value(&classes[0]), "drawn": by_value(&classes[1]),
                                "lost": by_value(&classes[2])},
                   "value_kept_misses_by_gap": gaps.map(|g| json!({"1": g[0], "2": g[1], "3+": g[2]})),
                   "seed": seed})
        );
    } else {
        super::print_resolved("player", player, &played);
        println!(
            "{player}: optimal move on {} of {total} positions from random play \
             ({}); a random legal move: {:.1}% (seed {seed})",
            exact.hits,
            exact.describe(total),
            100.0 * exact.random(total)
        );
        println!(
            "  keeps the win/draw/loss value (any win, however slow or narrow) on {} of {total} \
             ({}); a random legal move: {:.1}%",
            value.hits,
            value.describe(total),
            100.0 * value.random(total)
        );
        for (name, c) in ["won", "drawn", "lost"].iter().zip(&classes) {
            if c.positions > 0 {
                println!(
                    "  {name} positions: {} ({} optimal, {} keep the value)",
                    c.positions, c.exact, c.value
                );
            }
        }
        if let Some([one, two, more]) = gaps {
            println!(
                "  the misses that keep the value fall short of the best exact score by 1: {one}, \
                 2: {two}, 3 or more: {more} (Connect-4: a unit is one of the winner's discs, \
                 two plies)"
            );
        }
    }
    Ok(())
}

/// Index of a position's value class: 0 won, 1 drawn, 2 lost (for the
/// player to move).
fn class(value: i32) -> usize {
    match value.signum() {
        1 => 0,
        0 => 1,
        _ => 2,
    }
}

/// Positions of one value class and the player's hits on them.
#[derive(Clone, Copy, Default)]
struct Class {
    positions: u64,
    exact: u64,
    value: u64,
}

/// One position judged: whether the player's move is among the exact best
/// and whether it keeps the value, and the shares of legal moves that do.
struct Judged {
    /// The position's value class ([`class`]).
    class: usize,
    /// For a miss that keeps the value, how far the move's exact score
    /// falls short of the best, where the solver scores moves
    /// ([`wopr::game::solver::Solver::move_scores`]).
    gap: Option<i32>,
    exact: bool,
    value: bool,
    exact_share: f64,
    value_share: f64,
}

/// Hits and the summed random baseline of one reading of "optimal".
#[derive(Default)]
struct Measure {
    hits: u64,
    baseline: f64,
}

impl Measure {
    fn add(&mut self, hit: bool, share: f64) {
        self.hits += u64::from(hit);
        self.baseline += share;
    }

    fn rate(&self, total: u64) -> f64 {
        self.hits as f64 / total as f64
    }

    fn interval(&self, total: u64) -> (f64, f64) {
        wilson(self.hits, total, 1.96)
    }

    fn random(&self, total: u64) -> f64 {
        self.baseline / total as f64
    }

    /// "r% [lo, hi]".
    fn describe(&self, total: u64) -> String {
        let (lo, hi) = self.interval(total);
        format!(
            "{:.1}% [{:.1}, {:.1}]",
            100.0 * self.rate(total),
            100.0 * lo,
            100.0 * hi
        )
    }
}

/// The game-theoretic value for `seat` (+1, 0, −1) of `state` after
/// `action`: the result if that ends the game, else the solver's value, from
/// `seat`'s side whoever moves next (a Dots-and-Boxes box keeps the turn).
fn value_after<G: Roster>(
    solver: &mut dyn wopr::game::solver::Solver<G>,
    state: &G::State,
    action: wopr::game::Action,
    seat: usize,
) -> anyhow::Result<i32> {
    let mut child = state.clone();
    child.apply(action);
    if child.is_terminal() {
        return Ok(wopr::game::result_sign(child.returns(seat)) as i32);
    }
    let v = solver.solve(&child)?.value;
    Ok(match child.turn() {
        Turn::Player(p) if p == seat => v,
        _ => -v,
    })
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
