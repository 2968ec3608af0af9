//! Reversi's own players: the `standard` program and the `perfect` player
//! built on it and on the exact endgame solver ([`super::solver`]).
//!
//! **`standard[:depth=D]`** (default depth 3). Handa & Horiuchi measure their
//! evolved 6×6 players against "the standard program", which the paper only
//! describes as "a program easily to get through Internet"; it gives no
//! details. Ours is the kind of program that phrase described around 2002:
//! fixed-depth alpha-beta over a positional weight table plus mobility. It
//! runs the shared search ([`AlphaBeta::search_with`]: transposition table,
//! iterative deepening to depth `D`) with its own evaluation, from the
//! mover's view:
//!
//! ```text
//! Σ weight(own discs) − Σ weight(opponent discs) + 100 × (m − o) / (m + o)
//! ```
//!
//! where `m` and `o` are the two sides' numbers of legal placements (the
//! mobility term is 0 when both are 0; the division truncates). Finished
//! games score as everywhere in that search, ±(1,000,000 + final disc
//! margin) ∓ plies. The search shuffles the root moves with the game's
//! random stream, so among moves of equal value the choice is random and
//! reproducible. The evaluation is deliberately not the game's `alphabeta`
//! heuristic (one weight rule for all sizes, 10 per move of absolute
//! mobility). The tables:
//!
//! ```text
//! 8×8 (the classic table)              6×6                       4×4
//!  100 -20  10   5   5  10 -20 100      100 -20  10  10 -20 100   100 -20 -20 100
//!  -20 -50  -2  -2  -2  -2 -50 -20      -20 -50  -2  -2 -50 -20   -20  -5  -5 -20
//!   10  -2  -1  -1  -1  -1  -2  10       10  -2  -1  -1  -2  10   (rows 3-4 mirror
//!    5  -2  -1  -1  -1  -1  -2   5      (rows 4-6 mirror 3-1)      rows 2-1)
//!  (rows 5-8 mirror rows 4-1)
//! ```
//!
//! The 8×8 table is the one found in many Othello programs and tutorials:
//! corners 100, the X-squares diagonally next to them −50, the C-squares
//! beside them on the edge −20, other edge squares positive, the second ring
//! slightly negative. The 6×6 table keeps the same roles for its corners,
//! X-, C- and edge squares (all its other squares are next to the centre).
//! On 4×4 every edge square is a C-square and the four centre squares are
//! X-squares (they are taken from the start, so their weight matters little).
//!
//! **`perfect[:empties=E]`** plays `standard` (default depth) while more than
//! `E` squares are empty and a random optimal move (by final margin) from
//! then on. The default `E` ([`default_perfect_empties`]) keeps a game's
//! solving to about a second: 12 on 4×4 (solved from the start), 20 on 6×6,
//! 18 on 8×8.
//!
//! **`engine:net=PATH[,ms=T][,depth=D][,empties=E]`** is the alpha-beta
//! engine over a learned pattern net ([`super::engine`]).
//!

use std::time::Duration;

use rand::RngExt;

use super::engine::{EnginePlayer, EngineSettings};
use super::solver::{default_max_empties, default_perfect_empties, ReversiSolver};
use super::{Reversi, ReversiState};
use crate::game::rng::WoprRng;
use crate::game::solver::Solver;
use crate::game::{Action, GameSpec, Player, SpecError, ViewOf};
use crate::games::bitboard::bits;
use crate::players::{board_build, board_parse, OwnSpec, PlayerSpec, Roster};
use crate::search::{AlphaBeta, Limits};

// ---------------------------------------------------------------------------
// The standard program.

/// The depth of `standard` when the spec gives none.
pub const STANDARD_DEPTH: u32 = 3;

const W8: [i32; 64] = mirror::<8, 64>([
    [100, -20, 10, 5],
    [-20, -50, -2, -2],
    [10, -2, -1, -1],
    [5, -2, -1, -1],
]);
const W6: [i32; 36] = mirror::<6, 36>([
    [100, -20, 10, 0],
    [-20, -50, -2, 0],
    [10, -2, -1, 0],
    [0, 0, 0, 0],
]);
const W4: [i32; 16] = mirror::<4, 16>([
    [100, -20, 0, 0],
    [-20, -5, 0, 0],
    [0, 0, 0, 0],
    [0, 0, 0, 0],
]);

/// Expands the top-left quadrant `q` (`N/2`×`N/2` used) of a table with
/// the board's symmetries into a full `N`×`N` table.
const fn mirror<const N: usize, const NN: usize>(q: [[i32; 4]; 4]) -> [i32; NN] {
    let mut t = [0; NN];
    let mut s = 0;
    while s < NN {
        let (r, c) = (s / N, s % N);
        let rr = if r < N / 2 { r } else { N - 1 - r };
        let cc = if c < N / 2 { c } else { N - 1 - c };
        t[s] = q[rr][cc];
        s += 1;
    }
    t
}

/// The standard program's weight of each square (bit order) on an `n`×`n`
/// board (see the module docs).
pub fn standard_weights(n: usize) -> &'static [i32] {
    match n {
        4 => &W4,
        6 => &W6,
        _ => &W8,
    }
}

/// The standard program's evaluation of a position for the side to move
/// (see the module docs); ignores whether the game is over.
pub fn standard_evaluation(state: &ReversiState) -> i32 {
    let n = state.size();
    let w = standard_weights(n);
    let me = state.to_move();
    let d = state.discs();
    let positional = |x: u64| -> i32 { bits(x).map(|i| w[i]).sum() };
    let m = state.placements().count_ones() as i32;
    let o = state.placements_of(1 - me).count_ones() as i32;
    let mobility = if m + o > 0 {
        100 * (m - o) / (m + o)
    } else {
        0
    };
    positional(d[me]) - positional(d[1 - me]) + mobility
}

/// Transposition-table size of a `standard` player (2^16 entries).
const STANDARD_TT_BITS: u32 = 16;

/// Handa & Horiuchi's standard opponent as we reconstruct it: the shared
/// alpha-beta search ([`AlphaBeta::search_with`]) to a fixed depth over
/// [`standard_evaluation`]. Spec: `standard[:depth=D]`.
#[derive(Debug)]
pub struct StandardPlayer {
    search: AlphaBeta,
    depth: u32,
    /// A wall-clock budget per move (`ms=T`): the search then plays the
    /// deepest fully searched move.
    time: Option<Duration>,
}

impl StandardPlayer {
    /// A standard player searching `depth` plies (at least 1).
    pub fn new(depth: u32) -> StandardPlayer {
        StandardPlayer {
            search: AlphaBeta::new(STANDARD_TT_BITS),
            depth: depth.max(1),
            time: None,
        }
    }

    /// The same player with a wall-clock budget per move (not reproducible
    /// when it cuts a move short).
    pub fn with_time_limit(mut self, time: Option<Duration>) -> StandardPlayer {
        self.time = time;
        self
    }

    /// Reads `depth=` (1..=12) and `ms=` from a parsed `standard` spec,
    /// without building the player.
    pub fn parse(spec: &GameSpec) -> Result<(u32, Option<Duration>), SpecError> {
        spec.check_keys(&["depth", "ms"])?;
        let depth = spec.int("depth", STANDARD_DEPTH as i64, 1, 12)?;
        let time = crate::players::ms_arg(spec)?;
        Ok((depth as u32, time))
    }

    /// Reads `standard[:depth=D][,ms=T]` (depth 1..=12).
    pub fn from_spec(spec: &GameSpec) -> Result<StandardPlayer, SpecError> {
        let (depth, time) = Self::parse(spec)?;
        Ok(StandardPlayer::new(depth).with_time_limit(time))
    }

    /// The search depth.
    pub fn depth(&self) -> u32 {
        self.depth
    }
}

impl Player<Reversi> for StandardPlayer {
    fn spec(&self) -> String {
        match self.time {
            Some(t) => format!("standard:depth={},ms={}", self.depth, t.as_millis()),
            None => format!("standard:depth={}", self.depth),
        }
    }

    fn choose(&mut self, view: &ViewOf<Reversi>, legal: &[Action], rng: &mut WoprRng) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        let limits = Limits {
            depth: Some(self.depth),
            time: self.time,
        };
        self.search
            .search_with(view, limits, rng, &mut standard_evaluation)
            .best
    }

    fn new_game(&mut self) {
        self.search.clear();
    }
}

// ---------------------------------------------------------------------------
// The perfect player.

/// `perfect[:empties=E]`: `standard` play while more than `E` squares are
/// empty, then a random move among those with the optimal final margin.
#[derive(Debug)]
pub struct PerfectPlayer {
    solver: ReversiSolver,
    empties: u32,
    fallback: StandardPlayer,
    /// The wall-clock budget per move, if any.
    time: Option<Duration>,
}

impl PerfectPlayer {
    /// A perfect player for `game` that solves from `empties` empty squares
    /// on (at least 1; the solver's limit is raised to match if needed).
    pub fn new(game: &Reversi, empties: u32) -> PerfectPlayer {
        let n = game.size();
        let empties = empties.max(1);
        PerfectPlayer {
            solver: ReversiSolver::new(n, empties.max(default_max_empties(n))),
            empties,
            fallback: StandardPlayer::new(STANDARD_DEPTH),
            time: None,
        }
    }

    /// The same player with a wall-clock budget per move: `standard` play
    /// before the endgame takes all of it; an endgame solve gets three
    /// quarters, and if it is not done by then, `standard` play the rest.
    pub fn with_time_limit(mut self, time: Option<Duration>) -> PerfectPlayer {
        self.time = time;
        self.solver.set_time_limit(time.map(|t| t * 3 / 4));
        self
    }

    /// Reads `empties=` (1..=N²) from a parsed `perfect` spec, without
    /// building the player (`ms=` is read by the typed player spec).
    pub fn parse(game: &Reversi, spec: &GameSpec) -> Result<u32, SpecError> {
        spec.check_keys(&["empties", "ms"])?;
        let n = game.size();
        let e = spec.int(
            "empties",
            default_perfect_empties(n) as i64,
            1,
            (n * n) as i64,
        )?;
        Ok(e as u32)
    }

    /// Reads `perfect[:empties=E]` (1..=N²).
    pub fn from_spec(game: &Reversi, spec: &GameSpec) -> Result<PerfectPlayer, SpecError> {
        Ok(PerfectPlayer::new(game, Self::parse(game, spec)?))
    }
}

impl Player<Reversi> for PerfectPlayer {
    fn spec(&self) -> String {
        format!("perfect:empties={}", self.empties)
    }

    fn choose(&mut self, view: &ViewOf<Reversi>, legal: &[Action], rng: &mut WoprRng) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        self.fallback.time = self.time;
        if view.empties() > self.empties {
            return self.fallback.choose(view, legal, rng);
        }
        let start = std::time::Instant::now();
        match self.solver.solve(view) {
            Ok(sol) => sol.best[rng.random_range(0..sol.best.len())],
            Err(_) => {
                // What is left of the budget (at least a millisecond).
                self.fallback.time = self.time.map(|t| {
                    t.saturating_sub(start.elapsed())
                        .max(Duration::from_millis(1))
                });
                self.fallback.choose(view, legal, rng)
            }
        }
    }

    fn new_game(&mut self) {
        self.fallback.new_game();
    }
}

/// Reversi's players: `standard` and its own `perfect`, then the board
/// players; the exact solver is the endgame solver.
impl Roster for Reversi {
    fn position(&self, text: &str) -> Result<ReversiState, SpecError> {
        super::text::position(self.size(), text)
    }

    fn bot_names(&self) -> &'static [&'static str] {
        &[
            "standard[:depth=D][,ms=T]",
            "perfect[:empties=E][,ms=T]",
            "engine:net=PATH[,ms=T][,depth=D][,empties=E]",
        ]
    }

    fn parse_bot(&self, spec: &GameSpec) -> Result<Option<PlayerSpec>, SpecError> {
        match spec.name.as_str() {
            "standard" => {
                let (depth, _) = StandardPlayer::parse(spec)?;
                Ok(Some(PlayerSpec::Own(OwnSpec::new(
                    spec,
                    Some(depth),
                    true,
                )?)))
            }
            "engine" => {
                let settings = EngineSettings::parse(self, spec)?;
                Ok(Some(PlayerSpec::Own(OwnSpec::new(
                    spec,
                    settings.depth,
                    true,
                )?)))
            }
            "perfect" => Ok(Some(PlayerSpec::Perfect {
                empties: Some(PerfectPlayer::parse(self, spec)?),
                book: None,
                time: crate::players::ms_arg(spec)?,
            })),
            _ => board_parse(self, spec),
        }
    }

    fn build_bot(&self, spec: &PlayerSpec) -> Result<Box<dyn Player<Reversi>>, SpecError> {
        match spec {
            PlayerSpec::Own(own) if own.spec.name == "engine" => Ok(Box::new(EnginePlayer::new(
                self,
                EngineSettings::parse(self, &own.spec)?,
                own.time,
            )?)),
            PlayerSpec::Own(own) => Ok(Box::new(
                StandardPlayer::from_spec(&own.spec)?.with_time_limit(own.time),
            )),
            PlayerSpec::Perfect { empties, time, .. } => Ok(Box::new(
                PerfectPlayer::new(
                    self,
                    empties.unwrap_or(default_perfect_empties(self.size())),
                )
                .with_time_limit(*time),
            )),
            _ => board_build(self, spec),
        }
    }

    /// Squares `a1`… (`a1` top left) and `pass` are GTP vertices.
    fn gtp_board(&self) -> Option<usize> {
        Some(self.size())
    }

    /// 0.5 (rewards in [0, 1]), chosen on Reversi 8x8 by a tournament at
    /// 1,000 simulations on selection seed 11 (`docs/results/mcts.md`);
    /// every board size takes it.
    fn mcts_c(&self) -> f64 {
        0.5
    }

    fn solver(&self) -> Option<Box<dyn Solver<Reversi>>> {
        Some(Box::new(ReversiSolver::for_game(self)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_have_the_documented_rows() {
        assert_eq!(&W8[0..8], &[100, -20, 10, 5, 5, 10, -20, 100]);
        assert_eq!(&W8[24..32], &[5, -2, -1, -1, -1, -1, -2, 5]);
        assert_eq!(&W8[56..64], &W8[0..8]);
        assert_eq!(&W6[6..12], &[-20, -50, -2, -2, -50, -20]);
        assert_eq!(&W6[18..24], &[10, -2, -1, -1, -2, 10]);
        assert_eq!(&W4[4..8], &[-20, -5, -5, -20]);
    }

    #[test]
    fn start_evaluation_is_zero_by_symmetry() {
        for n in [4, 6, 8] {
            let s = ReversiState::new(n);
            // Both sides have 4 moves and symmetric discs.
            assert_eq!(standard_evaluation(&s), 0);
        }
    }
}
