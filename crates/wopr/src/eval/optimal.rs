//! The optimal-move rate (`wopr eval --optimal-moves N`, Python's
//! `wopr.optimal_moves`): how often a player's move keeps the exact value
//! of the position, on positions from random play.
//!
//! Positions come from random-vs-random games drawn from the seed, game by
//! game, every position with one player to move and at least two legal
//! moves that the solver reaches (Reversi: an endgame of at most its
//! limit of empty squares, 24 on 6x6), each distinct position once (by its
//! printed board, which includes the side to move), until N are found.
//! Each is solved exactly; the player is asked for its move (with its own
//! random stream per position), and the move counts as optimal when the
//! solver lists it among the moves that keep the position's value. A
//! uniformly random legal move's rate on the same positions is measured
//! beside it: the mean share of optimal moves among the legal ones.
//!
//! Two readings of "optimal" are measured, each with its random baseline:
//! - **exact**: the move is among the solver's best moves, which keep the
//!   position's exact score: on Connect-4 the fastest win or the slowest
//!   loss (the solver's distance-aware score), on games that keep score
//!   (Dots-and-Boxes, Reversi) the best final margin;
//! - **value**: the move keeps the position's game-theoretic value (a won
//!   position stays won, a drawn one drawn; every move of a lost position
//!   keeps it), however fast or by how much. A learner that values only
//!   the result (TD without discounting) cannot tell a fast win from a
//!   slow one, so it is judged on both.

use std::collections::HashSet;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use serde::Serialize;

use super::wilson;
use crate::game::rng::stream;
use crate::game::solver::{SolveError, Solver};
use crate::game::{result_sign, Action, ActionList, State, Turn};
use crate::players::{PlayerSpec, Roster};

/// Games tried per position wanted before giving up on finding more
/// distinct positions.
const GAMES_PER_POSITION: usize = 50;

/// Hits of one reading of "optimal" and its random baseline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Reading {
    /// Positions where the player's move was optimal in this reading.
    pub hits: u64,
    /// The summed share of legal moves that are (a random legal move's
    /// expected hits).
    pub baseline: f64,
}

impl Reading {
    fn add(&mut self, hit: bool, share: f64) {
        self.hits += u64::from(hit);
        self.baseline += share;
    }

    /// The rate of hits over `total` positions.
    pub fn rate(&self, total: u64) -> f64 {
        self.hits as f64 / total as f64
    }

    /// The rate's 95% Wilson interval.
    pub fn interval(&self, total: u64) -> (f64, f64) {
        wilson(self.hits, total, 1.96)
    }

    /// A uniformly random legal move's rate on the same positions.
    pub fn random(&self, total: u64) -> f64 {
        self.baseline / total as f64
    }
}

/// Positions of one value class and the player's hits on them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Class {
    /// Positions of the class.
    pub positions: u64,
    /// Of them, where the move was among the exact best.
    pub exact: u64,
    /// Of them, where the move kept the value.
    pub value: u64,
}

/// A player's optimal-move rate, measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OptimalMoves {
    /// Positions judged.
    pub positions: u64,
    /// The exact reading (the move among the solver's best).
    pub exact: Reading,
    /// The value reading (the move keeps the win, draw or loss).
    pub value: Reading,
    /// By the position's value for the player to move: won, drawn, lost.
    pub classes: [Class; 3],
    /// The misses that keep the value, by how far their exact score falls
    /// short of the best: 1, 2, 3 or more (where the solver scores moves
    /// finely; else none).
    pub gaps: Option<[u64; 3]>,
    /// The positions where the move lost the value, in the order drawn:
    /// what to study when a player falls short.
    pub misses: Vec<Miss>,
}

/// One position where the player's move lost the win/draw/loss value.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Miss {
    /// The position's index among those drawn from the seed.
    pub index: usize,
    /// The position as the game prints it (side to move included).
    pub position: String,
    /// The position's value for the player to move: 1 won, 0 drawn.
    pub value: i32,
    /// The move the player chose, in the game's notation.
    pub chosen: String,
    /// The moves that keep the value, in the game's notation.
    pub keeping: Vec<String>,
}

impl OptimalMoves {
    /// The measurement as `wopr eval --optimal-moves N --json` prints it
    /// (and Python's `wopr.optimal_moves` returns it): `player` as given,
    /// `resolved` as played, `seed` the positions' seed; `rate` is the
    /// exact reading's, `value_rate` the value reading's, each with its 95%
    /// interval and a random legal move's rate.
    pub fn json(&self, player: &str, resolved: &str, seed: u64) -> serde_json::Value {
        let total = self.positions;
        let (exact, value) = (&self.exact, &self.value);
        let (lo, hi) = exact.interval(total);
        let (vlo, vhi) = value.interval(total);
        let by_value = |c: &Class| serde_json::json!({"positions": c.positions, "optimal": c.exact, "value_kept": c.value});
        serde_json::json!({"player": player, "player_resolved": resolved,
               "positions": total, "optimal": exact.hits,
               "rate": exact.rate(total), "rate_ci95": [lo, hi],
               "random_rate": exact.random(total),
               "value_kept": value.hits, "value_rate": value.rate(total),
               "value_rate_ci95": [vlo, vhi], "random_value_rate": value.random(total),
               "by_value": {"won": by_value(&self.classes[0]), "drawn": by_value(&self.classes[1]),
                            "lost": by_value(&self.classes[2])},
               "value_kept_misses_by_gap": self.gaps.map(|g| serde_json::json!({"1": g[0], "2": g[1], "3+": g[2]})),
               "value_misses": self.misses,
               "seed": seed})
    }
}

/// Measures `player`'s optimal-move rate on `n` positions of `game` from
/// random play drawn from `seed` (see the module docs), the positions
/// solved on rayon's threads; `progress(solved, total)` hears each
/// solved position. A one-line error for a game without an exact solver,
/// a player spec the game does not take, or too few distinct positions.
pub fn optimal_moves<G: Roster>(
    game: &G,
    player: &str,
    n: usize,
    seed: u64,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<OptimalMoves, String> {
    if n == 0 {
        return Err("the number of positions must be at least 1".into());
    }
    let Some(probe) = game.solver() else {
        return Err(format!(
            "{} has no exact solver (solvers: tictactoe, connect4, dots-and-boxes, reversi endgames)",
            game.spec()
        ));
    };
    // Whether the misses that keep the value can be measured by their gap.
    let scored = probe.scores_moves();
    drop(probe);
    let spec = PlayerSpec::parse(game, player).map_err(|e| e.to_string())?;
    spec.build(game).map_err(|e| e.to_string())?;
    let positions = positions(game, n, seed)?;
    let total = positions.len() as u64;
    let solved = AtomicU64::new(0);
    let judged: Vec<Result<Judged, SolveError>> = positions
        .par_iter()
        .enumerate()
        .map_init(
            || {
                let solver = game.solver().expect("checked above");
                let p = spec.build(game).expect("built above");
                (solver, p)
            },
            |(solver, p), (i, state)| {
                let j = judge(solver.as_mut(), p.as_mut(), state, i, seed);
                progress(solved.fetch_add(1, Ordering::Relaxed) + 1, total);
                j
            },
        )
        .collect();
    let mut out = OptimalMoves {
        positions: total,
        exact: Reading::default(),
        value: Reading::default(),
        classes: [Class::default(); 3],
        gaps: scored.then_some([0u64; 3]),
        misses: Vec::new(),
    };
    for r in judged {
        let mut j = r.map_err(|e| e.to_string())?;
        out.misses.extend(j.miss.take());
        if let (Some(g), Some(counts)) = (j.gap, out.gaps.as_mut()) {
            counts[(g.clamp(1, 3) - 1) as usize] += 1;
        }
        out.exact.add(j.exact, j.exact_share);
        out.value.add(j.value, j.value_share);
        let c = &mut out.classes[j.class];
        c.positions += 1;
        c.exact += u64::from(j.exact);
        c.value += u64::from(j.value);
    }
    Ok(out)
}

/// Position `i`, solved, and the player's move on it judged.
fn judge<G: Roster>(
    solver: &mut dyn Solver<G>,
    p: &mut dyn crate::game::Player<G>,
    state: &G::State,
    i: usize,
    seed: u64,
) -> Result<Judged, SolveError> {
    let solution = solver.solve(state)?;
    let mut legal = ActionList::new();
    state.legal_actions(&mut legal);
    let Turn::Player(seat) = state.turn() else {
        unreachable!("positions have one player to move")
    };
    p.new_game();
    let mut rng = stream(seed, &[0x4F50_544D, i as u64]);
    let chosen = p.choose(&state.view(seat), &legal, &mut rng);
    let n = legal.len() as f64;
    let exact = solution.best.contains(&chosen);
    let (mut kept, mut value) = (0usize, false);
    let mut keeping = Vec::new();
    for &a in legal.iter() {
        // Any move keeps a lost position's value; in a drawn one the best
        // moves (exact score 0) are the drawing ones; only a won
        // position's other moves need solving.
        let best = solution.best.contains(&a);
        let k = match solution.value {
            v if v < 0 => true,
            0 => best,
            v => best || value_after(solver, state, a, seat)? == v,
        };
        kept += usize::from(k);
        value |= k && a == chosen;
        if k {
            keeping.push(state.action_to_string(a));
        }
    }
    let miss = (!value).then(|| Miss {
        index: i,
        position: state.to_string(),
        value: solution.value.signum(),
        chosen: state.action_to_string(chosen),
        keeping,
    });
    // How far a miss that keeps the value falls short of the best exact
    // score, where the solver scores moves finely.
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
        miss,
        exact,
        value,
        exact_share: solution.best.len() as f64 / n,
        value_share: kept as f64 / n,
    })
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

/// One position judged: whether the player's move is among the exact best
/// and whether it keeps the value, and the shares of legal moves that do.
struct Judged {
    /// The position's value class ([`class`]).
    class: usize,
    /// For a miss that keeps the value, how far the move's exact score
    /// falls short of the best, where the solver scores moves
    /// ([`Solver::move_scores`]).
    gap: Option<i32>,
    /// The position, where the move lost the value.
    miss: Option<Miss>,
    exact: bool,
    value: bool,
    exact_share: f64,
    value_share: f64,
}

/// The game-theoretic value for `seat` (+1, 0, −1) of `state` after
/// `action`: the result if that ends the game, else the solver's value, from
/// `seat`'s side whoever moves next (a Dots-and-Boxes box keeps the turn).
fn value_after<G: Roster>(
    solver: &mut dyn Solver<G>,
    state: &G::State,
    action: Action,
    seat: usize,
) -> Result<i32, SolveError> {
    let mut child = state.clone();
    child.apply(action);
    if child.is_terminal() {
        return Ok(result_sign(child.returns(seat)) as i32);
    }
    let v = solver.solve(&child)?.value;
    Ok(match child.turn() {
        Turn::Player(p) if p == seat => v,
        _ => -v,
    })
}

/// `n` distinct positions with one player to move and a real choice, from
/// random games (game `g` plays from `stream(seed, [tag, g])`).
fn positions<G: Roster>(game: &G, n: usize, seed: u64) -> Result<Vec<G::State>, String> {
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
    Err(format!(
        "random play found only {} distinct positions with a choice in {} games; ask for fewer",
        out.len(),
        n * GAMES_PER_POSITION
    ))
}
