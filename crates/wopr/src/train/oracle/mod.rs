//! Training sets from oracles: positions reached in play, each with an
//! oracle's judgement (the `wopr dataset` command).
//!
//! Games are played between the chosen players (`random` against `random`
//! unless told otherwise; with two players, seats swap every other game);
//! every position with a single player to move is encoded with one of the
//! game's [encodings](crate::game::encode) and judged by an [`Oracle`], until the
//! requested number of positions is reached. With
//! [`DatasetOptions::unique`], a position whose inputs repeat an earlier
//! row's is left out (random Tic-Tac-Toe then finds nearly all 4,520
//! positions with a player to move, and stops when play finds no new ones).
//! Two kinds of oracle exist:
//!
//! - **per-move** ([`OracleKind::Policy`]): one target per action index,
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
//!   319 boards, rebuilt as 444: see [`strategy`](self::strategy_boards)'s
//!   rules); `--positions`, seeds and players do not apply.
//! - **position evaluations** ([`OracleKind::Value`]): one target, the value
//!   of the position for its player to move, in [−1, 1], for value nets
//!   (`greedy`, `alphabeta`, `softmax` modes);
//!   - `alphabeta:depth=D[,scale=S]` (every board game) — the value of a
//!     depth-`D` alpha-beta search with the game's heuristic: a proven win or
//!     loss is ±1, any other value `v` becomes `tanh(v / S)`. The default `S`
//!     is per game ([`OracleGame::value_scale`]), about the heuristic's value
//!     of a clear but not decisive advantage; it was chosen near the upper
//!     quartile of |v| over positions from random play at depth 2 (tictactoe
//!     4, connect4 20, dots-and-boxes 300, reversi 100, virus 50), so that
//!     targets spread over (−1, 1) instead of piling up at ±1.
//!   - `ai:K[,scale=S]` (virus) — Naveed & Cowling's pre-training targets:
//!     hand-crafted player `ai:K`'s evaluation of the position for the
//!     player to move, `tanh(e / S)` (default `S` = 10, about ten pieces'
//!     worth and the upper quartile of |e| over positions from random play).
//!
//! **Determinism.** Game `i` is played with the stream `(seed, 0, i)` and
//! the `j`-th position of game `i` is judged with `(seed, 1, i, j)`; games are
//! played and positions judged in parallel, but kept in game order, so a
//! seed gives the same rows whatever the thread count.
//!
//! **Sidecar.** [`DatasetInfo`] (written next to the CSV as `FILE.csv.json`)
//! records the game, encoding, oracle and kind, so that `wopr train` can
//! write a net file that plays through `net:` specs.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::game::encode::Encodable;
use crate::game::rng::WoprRng;
use crate::game::{Action, Game, GameSpec, Searchable, SpecError, WIN_SCORE};
use crate::games::connect4::Connect4;
use crate::games::dots_and_boxes::DotsAndBoxes;
use crate::games::reversi::Reversi;
use crate::games::tictactoe::TicTacToe;
use crate::games::virus::players as virus_players;
use crate::games::virus::Virus;
use crate::players::Roster;
use crate::search::AlphaBeta;

mod ai;
mod alphabeta;
mod generate;
mod level1;
mod perfect;
mod strategy;

use ai::AiJudge;
use alphabeta::{SearchJudge, SEARCH_TT_BITS};
use level1::Level1Judge;
use perfect::PerfectJudge;

pub use generate::{generate, DatasetInfo, DatasetOptions, Generated};
pub use strategy::{strategy_boards, strategy_dataset, StrategyBoard};

/// Why a dataset could not be made (one line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct OracleError(pub String);

impl From<SpecError> for OracleError {
    fn from(e: SpecError) -> Self {
        OracleError(e.0)
    }
}

/// What an oracle's targets mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OracleKind {
    /// One target per action index, illegal actions masked: a move ranking.
    Policy,
    /// One target: the position's value for its player to move.
    Value,
}

impl OracleKind {
    /// The name used in dataset descriptions: `policy` or `value`.
    pub fn name(self) -> &'static str {
        match self {
            OracleKind::Policy => "policy",
            OracleKind::Value => "value",
        }
    }

    /// The `net:` player mode a net trained on such targets plays in:
    /// `policy` for move rankings, `greedy` for position values.
    pub fn player_mode(self) -> &'static str {
        match self {
            OracleKind::Policy => "policy",
            OracleKind::Value => "greedy",
        }
    }
}

impl fmt::Display for OracleKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which moves the `perfect` oracle marks with 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerfectMoves {
    /// The solver's optimal moves, the set the `perfect` player picks from.
    Best,
    /// Every move that keeps the position's game-theoretic value.
    Value,
}

/// An oracle spec: what judges the recorded positions (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Oracle {
    /// `perfect[:moves=best|value][,unsolved=fail|skip]`: 1 for optimal
    /// moves, 0 for the others.
    Perfect {
        /// Which moves count as optimal.
        moves: PerfectMoves,
        /// Leave out positions beyond the solver's reach instead of failing.
        skip_unsolved: bool,
    },
    /// `level1[:quiet=keep|drop]` (dots-and-boxes): boxes each move completes.
    Level1 {
        /// Whether positions where no move completes a box are dropped.
        drop_quiet: bool,
    },
    /// `alphabeta:depth=D[,scale=S]`: a search value squashed into [−1, 1].
    AlphaBeta {
        /// Search depth in plies.
        depth: u32,
        /// Heuristic units per tanh unit; `None` = the game's default.
        scale: Option<f32>,
    },
    /// `strategy` (tictactoe): every board a perfect strategy's player
    /// judges, accept 0 / reject 1 ([`strategy_boards`]).
    Strategy,
    /// `ai:K[,scale=S]` (virus): hand-crafted player `K`'s evaluation.
    Ai {
        /// The player, 1..=20.
        k: usize,
        /// Evaluation units per tanh unit.
        scale: f32,
    },
}

const PERFECT_SPEC: &str = "perfect[:moves=best|value][,unsolved=fail|skip]";
const LEVEL1_SPEC: &str = "level1[:quiet=keep|drop] (dots-and-boxes)";
const ALPHABETA_SPEC: &str = "alphabeta:depth=D[,scale=S]";
const AI_SPEC: &str = "ai:K[,scale=S] (virus)";
const STRATEGY_SPEC: &str = "strategy (tictactoe)";

/// The oracle specs, for help texts and error messages.
pub const ORACLE_NAMES: &[&str] = &[
    PERFECT_SPEC,
    LEVEL1_SPEC,
    ALPHABETA_SPEC,
    AI_SPEC,
    STRATEGY_SPEC,
];

/// The default scale of `ai:K` values: ten pieces' worth is tanh(1) ≈ 0.76.
pub const AI_SCALE: f32 = 10.0;

fn parse_scale(spec: &GameSpec) -> Result<Option<f32>, SpecError> {
    spec.get("scale")
        .map(|v| {
            v.parse::<f32>()
                .ok()
                .filter(|s| s.is_finite() && *s > 0.0)
                .ok_or_else(|| {
                    SpecError(format!(
                        "'{}': scale={v} must be a positive number",
                        spec.name
                    ))
                })
        })
        .transpose()
}

impl Oracle {
    /// Parses an oracle spec such as `perfect`, `level1:quiet=drop`,
    /// `alphabeta:depth=3` or `ai:4`. Whether it applies to a game is checked
    /// by [`judge_for`].
    pub fn parse(text: &str) -> Result<Oracle, SpecError> {
        let spec = GameSpec::parse(text)?;
        match spec.name.as_str() {
            "perfect" => {
                spec.check_keys(&["moves", "unsolved"])?;
                let moves = match spec.get("moves").unwrap_or("best") {
                    m if m.eq_ignore_ascii_case("best") => PerfectMoves::Best,
                    m if m.eq_ignore_ascii_case("value") => PerfectMoves::Value,
                    m => {
                        return Err(SpecError(format!(
                            "'perfect': moves={m} is not known (accepted: best, value)"
                        )));
                    }
                };
                let skip_unsolved = match spec.get("unsolved").unwrap_or("fail") {
                    u if u.eq_ignore_ascii_case("fail") => false,
                    u if u.eq_ignore_ascii_case("skip") => true,
                    u => {
                        return Err(SpecError(format!(
                            "'perfect': unsolved={u} is not known (accepted: fail, skip)"
                        )))
                    }
                };
                Ok(Oracle::Perfect {
                    moves,
                    skip_unsolved,
                })
            }
            "level1" => {
                spec.check_keys(&["quiet"])?;
                let drop_quiet = match spec.get("quiet").unwrap_or("keep") {
                    q if q.eq_ignore_ascii_case("keep") => false,
                    q if q.eq_ignore_ascii_case("drop") => true,
                    q => {
                        return Err(SpecError(format!(
                            "'level1': quiet={q} is not known (accepted: keep, drop)"
                        )));
                    }
                };
                Ok(Oracle::Level1 { drop_quiet })
            }
            "alphabeta" => {
                spec.check_keys(&["depth", "scale"])?;
                if spec.get("depth").is_none() {
                    return Err(SpecError(
                        "the alphabeta oracle needs a depth, as alphabeta:depth=D".into(),
                    ));
                }
                let depth = spec.int("depth", 1, 1, 32)? as u32;
                Ok(Oracle::AlphaBeta {
                    depth,
                    scale: parse_scale(&spec)?,
                })
            }
            "strategy" => {
                spec.check_keys(&[])?;
                Ok(Oracle::Strategy)
            }
            "ai" => {
                spec.check_keys(&["", "scale"])?;
                let k = spec
                    .args
                    .iter()
                    .find(|(key, _)| key.is_empty())
                    .and_then(|(_, v)| v.parse::<usize>().ok())
                    .filter(|k| (1..=virus_players::NUM_AI).contains(k))
                    .ok_or_else(|| {
                        SpecError(format!(
                            "the ai oracle needs a player number, as ai:K with K in 1..={}",
                            virus_players::NUM_AI
                        ))
                    })?;
                Ok(Oracle::Ai {
                    k,
                    scale: parse_scale(&spec)?.unwrap_or(AI_SCALE),
                })
            }
            other => Err(SpecError(format!(
                "unknown oracle '{other}' (accepted: {})",
                ORACLE_NAMES.join(", ")
            ))),
        }
    }

    /// What the oracle's targets mean.
    pub fn kind(&self) -> OracleKind {
        match self {
            Oracle::Perfect { .. } | Oracle::Level1 { .. } => OracleKind::Policy,
            Oracle::AlphaBeta { .. } | Oracle::Ai { .. } | Oracle::Strategy => OracleKind::Value,
        }
    }

    /// Whether the oracle leaves some positions out (`level1:quiet=drop`,
    /// `perfect:unsolved=skip`).
    pub fn drops_positions(&self) -> bool {
        matches!(
            self,
            Oracle::Level1 { drop_quiet: true }
                | Oracle::Perfect {
                    skip_unsolved: true,
                    ..
                }
        )
    }

    /// The oracle with the game's defaults filled in (the alpha-beta scale).
    pub fn resolved<G: OracleGame>(&self, game: &G) -> Oracle {
        match *self {
            Oracle::AlphaBeta { depth, scale: None } => Oracle::AlphaBeta {
                depth,
                scale: Some(game.value_scale()),
            },
            o => o,
        }
    }
}

impl fmt::Display for Oracle {
    /// The spec [`Oracle::parse`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Oracle::Perfect {
                moves,
                skip_unsolved,
            } => {
                f.write_str("perfect")?;
                match (moves, skip_unsolved) {
                    (PerfectMoves::Best, false) => Ok(()),
                    (PerfectMoves::Best, true) => f.write_str(":unsolved=skip"),
                    (PerfectMoves::Value, false) => f.write_str(":moves=value"),
                    (PerfectMoves::Value, true) => f.write_str(":moves=value,unsolved=skip"),
                }
            }
            Oracle::Level1 { drop_quiet: false } => f.write_str("level1"),
            Oracle::Level1 { drop_quiet: true } => f.write_str("level1:quiet=drop"),
            Oracle::AlphaBeta { depth, scale } => {
                write!(f, "alphabeta:depth={depth}")?;
                match scale {
                    Some(s) => write!(f, ",scale={s}"),
                    None => Ok(()),
                }
            }
            Oracle::Ai { k, scale } => write!(f, "ai:{k},scale={scale}"),
            Oracle::Strategy => f.write_str("strategy"),
        }
    }
}

/// Judges positions for one oracle; each worker thread has its own.
pub trait Judge<G: Game>: Send {
    /// Writes the targets for `state` (a position with a single player to
    /// move, whose legal actions are `legal`) into `out`: one per action index
    /// for a per-move oracle (entries for illegal actions are ignored), one
    /// for a value oracle. Returns `false` if the position is to be left out.
    fn judge(
        &mut self,
        state: &G::State,
        legal: &[Action],
        rng: &mut WoprRng,
        out: &mut [f32],
    ) -> Result<bool, OracleError>;
}

/// The board games datasets can be made for, with what they add to the
/// generic oracles (`perfect` where a solver exists, `alphabeta`).
pub trait OracleGame: Roster + Encodable<State: Searchable> {
    /// Heuristic units per tanh unit for `alphabeta` values: about the
    /// evaluation of a clear but not decisive advantage.
    fn value_scale(&self) -> f32;

    /// The game's own judge for `oracle` (`level1`, `ai:K`), or `None`.
    fn own_judge(&self, oracle: &Oracle) -> Option<Box<dyn Judge<Self>>> {
        let _ = oracle;
        None
    }

    /// The whole dataset for `oracle` in `encoding`, where the game lists
    /// its rows itself instead of recording positions from play
    /// (`strategy` on tictactoe), or `None`.
    fn own_dataset(
        &self,
        oracle: &Oracle,
        encoding: &str,
    ) -> Option<Result<Generated, OracleError>> {
        let _ = (oracle, encoding);
        None
    }

    /// The oracle specs that apply to this game.
    fn oracle_names(&self) -> Vec<&'static str> {
        let mut names = Vec::new();
        if self.solver().is_some() {
            names.push(PERFECT_SPEC);
        }
        names.push(ALPHABETA_SPEC);
        names
    }
}

impl OracleGame for TicTacToe {
    /// Open lines score 1, 4 (and 16): one more two-in-a-row than the
    /// opponent is tanh(1).
    fn value_scale(&self) -> f32 {
        4.0
    }

    fn oracle_names(&self) -> Vec<&'static str> {
        vec![PERFECT_SPEC, ALPHABETA_SPEC, STRATEGY_SPEC]
    }

    fn own_dataset(
        &self,
        oracle: &Oracle,
        encoding: &str,
    ) -> Option<Result<Generated, OracleError>> {
        (*oracle == Oracle::Strategy).then(|| {
            let data = strategy_dataset(&self.encoding(encoding)?)?;
            let info = DatasetInfo {
                game: self.spec(),
                encoding: encoding.to_string(),
                oracle: oracle.to_string(),
                kind: OracleKind::Value,
                positions: data.len(),
                games: 0,
                seed: 0,
                play: Vec::new(),
                unique: true,
                only_player: None,
            };
            Ok(Generated {
                data,
                info,
                exhausted: false,
            })
        })
    }
}

impl OracleGame for Connect4 {
    /// Windows score 1, 3, 9 and centre discs 2: two more open threes
    /// (a typical middle-game lead) is tanh(1).
    fn value_scale(&self) -> f32 {
        20.0
    }
}

impl OracleGame for Reversi {
    /// Corner 100, other edges 10, mobility 10 per move: a corner is tanh(1).
    fn value_scale(&self) -> f32 {
        100.0
    }
}

impl OracleGame for DotsAndBoxes {
    /// 100 per box, 75 per three-sided box: three boxes ahead is tanh(1).
    fn value_scale(&self) -> f32 {
        300.0
    }

    fn own_judge(&self, oracle: &Oracle) -> Option<Box<dyn Judge<Self>>> {
        match *oracle {
            Oracle::Level1 { drop_quiet } => Some(Box::new(Level1Judge { drop_quiet })),
            _ => None,
        }
    }

    fn oracle_names(&self) -> Vec<&'static str> {
        vec![LEVEL1_SPEC, PERFECT_SPEC, ALPHABETA_SPEC]
    }
}

impl OracleGame for Virus {
    /// 10 per piece of margin plus grow moves: five pieces ahead is tanh(1).
    fn value_scale(&self) -> f32 {
        50.0
    }

    fn own_judge(&self, oracle: &Oracle) -> Option<Box<dyn Judge<Self>>> {
        match *oracle {
            Oracle::Ai { k, scale } => Some(Box::new(AiJudge { k, scale })),
            _ => None,
        }
    }

    fn oracle_names(&self) -> Vec<&'static str> {
        let mut names = vec![AI_SPEC];
        if self.solver().is_some() {
            names.push(PERFECT_SPEC);
        }
        names.push(ALPHABETA_SPEC);
        names
    }
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
        game.oracle_names().join(", ")
    )))
}
