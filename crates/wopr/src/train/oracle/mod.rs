//! Training sets from oracles: positions reached in play, each with an
//! oracle's judgement (the `wopr dataset` command).
//!
//! Games are played between the chosen players (`random` against `random`
//! unless told otherwise; with two players, seats swap every other game);
//! every position with a single player to move is encoded with one of the
//! game's [encodings](crate::game::encode) and judged by an [`Oracle`], until
//! the requested number of positions is reached. With
//! [`DatasetOptions::unique`], a position whose inputs repeat an earlier
//! row's is left out (random Tic-Tac-Toe then finds nearly all 4,520
//! positions with a player to move, and stops when play finds no new ones).
//! Two kinds of oracle exist:
//!
//! - **per-move** ([`OracleKind::Policy`](crate::game::oracle::OracleKind::Policy)): one target per action index,
//!   illegal actions masked (mask 0), for move-ranking nets (`net:…` players
//!   in `policy` mode);
//!   - `perfect` — the thesis's §4.5 training set: 1 for an optimal move,
//!     0 for the others, from the game's exact solver: tictactoe; connect4 on
//!     small boards, since every recorded position is solved (on two cores,
//!     200 positions from random play took 0.04 s on 5x4, 3 s on 6x5, 40 s
//!     on 6x6 and over 7 minutes on the standard 7x6); dots-and-boxes up to
//!     24 edges.
//!     "Optimal" is the `perfect` player's choice set ([`Solution::best`](crate::game::solver::Solution::best):
//!     the fastest wins and slowest losses where the solver knows distances);
//!     `perfect:moves=value` marks every move that keeps the game-theoretic
//!     value (win, draw or loss) instead. A position beyond the solver's
//!     reach (Reversi's endgame solver takes at most 24 empty squares) stops
//!     the run with an error, or is left out with `unsolved=skip`.
//!   - `level1` (dots-and-boxes) — Weaver & Bossomaier §3.7: the number of
//!     boxes each move completes (0, 1 or 2). The paper drops positions where
//!     no move completes a box ("training on these positions gives no
//!     benefit"); `level1:quiet=drop` does the same, the default keeps them.
//! - **the boards of a strategy** (`strategy`, tictactoe): not positions
//!   from play but every board a player following a perfect strategy is
//!   asked to judge, 0 to accept and 1 to reject (the thesis's §4.5 set of
//!   319 boards, rebuilt as 444 by rules the game's folder gives:
//!   [`Oracles::strategy_boards`]); `--positions`, seeds and players do not apply.
//! - **position evaluations** ([`OracleKind::Value`](crate::game::oracle::OracleKind::Value)): one target, the value
//!   of the position for its player to move, in [−1, 1], for value nets
//!   (`greedy`, `alphabeta`, `softmax` modes);
//!   - `alphabeta:depth=D[,scale=S]` (every board game) — the value of a
//!     depth-`D` alpha-beta search with the game's heuristic: a proven win or
//!     loss is ±1, any other value `v` becomes `tanh(v / S)`. The default `S`
//!     is per game ([`Oracles::value_scale`]), about the heuristic's value
//!     of a clear but not decisive advantage; it was chosen near the upper
//!     quartile of |v| over positions from random play at depth 2 (tictactoe
//!     4, connect4 20, dots-and-boxes 300, reversi 100, virus 50), so that
//!     targets spread over (−1, 1) instead of piling up at ±1.
//!   - `ai:K[,scale=S]` (virus) — Naveed & Cowling's pre-training targets:
//!     hand-crafted player `ai:K`'s evaluation of the position for the
//!     player to move, `tanh(e / S)` (default `S` = 10, about ten pieces'
//!     worth and the upper quartile of |e| over positions from random play).
//!
//! **Where they live.** The specs, the [`Judge`] interface and [`Oracles`],
//! what a game adds to the generic oracles, are in [`crate::game::oracle`];
//! the generic judges (`perfect`, `alphabeta`) and the making of a dataset
//! are here; a game's own oracles (`level1`, `ai:K`, the boards of
//! `strategy`) are in its folder, `games/<game>/oracle.rs`.
//!
//! **Determinism.** Game `i` is played with the stream `(seed, 0, i)` and
//! the `j`-th position of game `i` is judged with `(seed, 1, i, j)`; games are
//! played and positions judged in parallel, but kept in game order, so a
//! seed gives the same rows whatever the thread count.
//!
//! **Sidecar.** [`DatasetInfo`] (written next to the CSV as `FILE.csv.json`)
//! records the game, encoding, oracle and kind, so that `wopr train` can
//! write a net file that plays through `net:` specs.

use crate::game::encode::Encodable;
use crate::game::oracle::{Judge, Oracle, OracleError, Oracles, ALPHABETA_SPEC, PERFECT_SPEC};
use crate::game::{Searchable, WIN_SCORE};
use crate::players::Roster;
use crate::search::AlphaBeta;

mod alphabeta;
mod generate;
mod info;
mod perfect;
mod strategy;

use alphabeta::{SearchJudge, SEARCH_TT_BITS};
use perfect::PerfectJudge;

pub use generate::{generate, DatasetOptions};
pub use info::{DatasetInfo, Generated};

/// The board games datasets can be made for: a game with players (for the
/// games that are recorded), encodings (for the inputs), a searchable state
/// (for `alphabeta`) and [`Oracles`] (what it adds to the generic oracles).
/// Every such game is one; nothing implements it by hand.
pub trait OracleGame: Oracles + Roster + Encodable<State: Searchable> {}

impl<G: Oracles + Roster + Encodable<State: Searchable>> OracleGame for G {}

/// The oracle specs that apply to `game`: `perfect` where it has a solver,
/// `alphabeta`, and its own.
fn oracle_names<G: OracleGame>(game: &G) -> Vec<&'static str> {
    let mut generic = Vec::new();
    if game.solver().is_some() {
        generic.push(PERFECT_SPEC);
    }
    generic.push(ALPHABETA_SPEC);
    game.oracle_names(&generic)
}

/// A search value for the player to move as a target in [−1, 1]: proven
/// wins and losses are ±1, other values `tanh(v / scale)`.
pub fn squash(value: i32, scale: f32) -> f32 {
    if value.abs() > WIN_SCORE / 2 {
        value.signum() as f32
    } else {
        (value as f32 / scale).tanh()
    }
}

/// A judge for `oracle` on `game`, or a one-line error naming the oracles
/// that apply.
pub fn judge_for<G: OracleGame>(
    game: &G,
    oracle: &Oracle,
) -> Result<Box<dyn Judge<G>>, OracleError> {
    if let Some(j) = game.own_judge(oracle) {
        return Ok(j);
    }
    match *oracle {
        Oracle::Perfect {
            moves,
            skip_unsolved,
        } => {
            if let Some(solver) = game.solver() {
                return Ok(Box::new(PerfectJudge {
                    solver,
                    moves,
                    skip_unsolved,
                }));
            }
        }
        Oracle::AlphaBeta { depth, scale } => {
            return Ok(Box::new(SearchJudge {
                search: AlphaBeta::new(SEARCH_TT_BITS),
                depth,
                scale: scale.unwrap_or_else(|| game.value_scale()),
            }));
        }
        _ => {}
    }
    Err(OracleError(format!(
        "oracle '{oracle}' does not apply to {} (accepted: {})",
        game.spec(),
        oracle_names(game).join(", ")
    )))
}
