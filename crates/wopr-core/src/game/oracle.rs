//! Oracles behind one interface: the specs that name them, the [`Judge`]
//! that labels a position, and [`Oracles`], what a game adds to the oracles
//! every board game has.
//!
//! An oracle judges positions for a training set (`wopr dataset`; the
//! datasets themselves are made by `train::oracle`). Two oracles are
//! generic and built there: `perfect`, from the game's exact solver, and
//! `alphabeta`, from a search with the game's heuristic, whose values are
//! squashed by the game's [`Oracles::value_scale`]. The others belong to
//! one game, which implements them in its folder and hands them out through
//! [`Oracles`]: a judge of its own ([`Oracles::own_judge`]: Dots-and-Boxes's
//! `level1`, Virus's `ai:K`), or the boards of a strategy
//! ([`Oracles::strategy_boards`]: Tic-Tac-Toe's `strategy`).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::rng::WoprRng;
use super::{Action, Game, GameSpec, SpecError};

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

/// An oracle spec: what judges the recorded positions (see `train::oracle`
/// for what each one's targets are).
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
    /// judges, accept 0 / reject 1 ([`Oracles::strategy_boards`]).
    Strategy,
    /// `ai:K[,scale=S]` (virus): hand-crafted player `K`'s evaluation.
    Ai {
        /// The player, 1..=[`AI_PLAYERS`].
        k: usize,
        /// Evaluation units per tanh unit.
        scale: f32,
    },
}

/// The `perfect` oracle's syntax, as help texts and errors show it.
pub const PERFECT_SPEC: &str = "perfect[:moves=best|value][,unsolved=fail|skip]";
/// The `level1` oracle's syntax and the game it belongs to.
pub const LEVEL1_SPEC: &str = "level1[:quiet=keep|drop] (dots-and-boxes)";
/// The `alphabeta` oracle's syntax.
pub const ALPHABETA_SPEC: &str = "alphabeta:depth=D[,scale=S]";
/// The `ai:K` oracle's syntax and the game it belongs to.
pub const AI_SPEC: &str = "ai:K[,scale=S] (virus)";
/// The `strategy` oracle's syntax and the game it belongs to.
pub const STRATEGY_SPEC: &str = "strategy (tictactoe)";

/// The oracle specs, for help texts and error messages.
pub const ORACLE_NAMES: &[&str] = &[
    PERFECT_SPEC,
    LEVEL1_SPEC,
    ALPHABETA_SPEC,
    AI_SPEC,
    STRATEGY_SPEC,
];

/// How many hand-crafted players the `ai:K` oracle can name: Naveed &
/// Cowling's twenty (the game that has them checks that its table agrees).
pub const AI_PLAYERS: usize = 20;

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

/// Reads `key` of `spec` as one of two words (case ignored), `default`
/// when it is absent: `false` for the first word, `true` for the second.
fn parse_switch(
    spec: &GameSpec,
    key: &str,
    default: &str,
    [no, yes]: [&str; 2],
) -> Result<bool, SpecError> {
    match spec.get(key).unwrap_or(default) {
        w if w.eq_ignore_ascii_case(no) => Ok(false),
        w if w.eq_ignore_ascii_case(yes) => Ok(true),
        w => Err(SpecError(format!(
            "'{}': {key}={w} is not known (accepted: {no}, {yes})",
            spec.name
        ))),
    }
}

impl Oracle {
    /// Parses an oracle spec such as `perfect`, `level1:quiet=drop`,
    /// `alphabeta:depth=3` or `ai:4`. Whether it applies to a game is checked
    /// when its judge is built (`train::oracle::judge_for`).
    pub fn parse(text: &str) -> Result<Oracle, SpecError> {
        let spec = GameSpec::parse(text)?;
        match spec.name.as_str() {
            "perfect" => {
                spec.check_keys(&["moves", "unsolved"])?;
                let moves = match parse_switch(&spec, "moves", "best", ["best", "value"])? {
                    false => PerfectMoves::Best,
                    true => PerfectMoves::Value,
                };
                let skip_unsolved = parse_switch(&spec, "unsolved", "fail", ["fail", "skip"])?;
                Ok(Oracle::Perfect {
                    moves,
                    skip_unsolved,
                })
            }
            "level1" => {
                spec.check_keys(&["quiet"])?;
                let drop_quiet = parse_switch(&spec, "quiet", "keep", ["keep", "drop"])?;
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
                    .filter(|k| (1..=AI_PLAYERS).contains(k))
                    .ok_or_else(|| {
                        SpecError(format!(
                            "the ai oracle needs a player number, as ai:K with K in 1..={AI_PLAYERS}"
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
    pub fn resolved<G: Oracles>(&self, game: &G) -> Oracle {
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

/// One board of a strategy's set: the position after the judging player's
/// move, and whether that move is accepted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrategyBoard<S> {
    /// The board (the opponent of the judging player is to move).
    pub board: S,
    /// Whether the move into it does not lose.
    pub accept: bool,
}

/// What a game adds to the oracles every board game has (`perfect` on its
/// solver, `alphabeta` on its heuristic), implemented in the game's folder.
pub trait Oracles: Game {
    /// Heuristic units per tanh unit for `alphabeta` values: about the
    /// evaluation of a clear but not decisive advantage.
    fn value_scale(&self) -> f32;

    /// The game's own judge for `oracle` (`level1`, `ai:K`), or `None`.
    fn own_judge(&self, oracle: &Oracle) -> Option<Box<dyn Judge<Self>>> {
        let _ = oracle;
        None
    }

    /// Every board a player following a perfect strategy is asked to judge,
    /// each with its label, for the `strategy` oracle; `None` where the game
    /// has no such set.
    fn strategy_boards(&self) -> Option<Vec<StrategyBoard<Self::State>>> {
        None
    }

    /// The oracle specs that apply to this game, for error messages:
    /// `generic`, the ones built on its solver and heuristic, with the
    /// game's own placed among them.
    fn oracle_names(&self, generic: &[&'static str]) -> Vec<&'static str> {
        generic.to_vec()
    }
}
