//! Training sets from oracles: positions reached in play, each with an
//! oracle's judgement (the `wopr dataset` command).
//!
//! Games are played between the chosen players (`random` against `random`
//! unless told otherwise; with two players, seats swap every other game);
//! every position with a single player to move is encoded with one of the
//! game's [encodings](crate::encode) and judged by an [`Oracle`], until the
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

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{DataError, Dataset};
use crate::game::driver::{play_game_observed, seats_swapped};
use crate::game::encode::Encodable;
use crate::game::rng::{stream, WoprRng};
use crate::game::solver::{SolveError, Solver};
use crate::game::{
    mover, Action, ActionList, Game, GameSpec, Searchable, SpecError, State, WIN_SCORE,
};
use crate::games::connect4::Connect4;
use crate::games::dots_and_boxes::{DotsAndBoxes, DotsAndBoxesState};
use crate::games::reversi::Reversi;
use crate::games::tictactoe::TicTacToe;
use crate::games::virus::players as virus_players;
use crate::games::virus::{Virus, VirusState};
use crate::players::{parse_player, Player, Roster};
use crate::search::{AlphaBeta, Limits};

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

/// The oracle specs, for help texts and error messages.
pub const ORACLE_NAMES: &[&str] = &[PERFECT_SPEC, LEVEL1_SPEC, ALPHABETA_SPEC, AI_SPEC];

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
            Oracle::AlphaBeta { .. } | Oracle::Ai { .. } => OracleKind::Value,
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

/// Weaver's level-1 targets: boxes completed per move.
struct Level1Judge {
    drop_quiet: bool,
}

impl Judge<DotsAndBoxes> for Level1Judge {
    fn judge(
        &mut self,
        state: &DotsAndBoxesState,
        legal: &[Action],
        _: &mut WoprRng,
        out: &mut [f32],
    ) -> Result<bool, OracleError> {
        out.fill(0.0);
        let mut any = false;
        for &a in legal {
            let c = state.completed_by(a as usize);
            out[a as usize] = c as f32;
            any |= c > 0;
        }
        Ok(any || !self.drop_quiet)
    }
}

/// Naveed & Cowling's targets: a hand-crafted player's evaluation.
struct AiJudge {
    k: usize,
    scale: f32,
}

impl Judge<Virus> for AiJudge {
    fn judge(
        &mut self,
        state: &VirusState,
        _: &[Action],
        _: &mut WoprRng,
        out: &mut [f32],
    ) -> Result<bool, OracleError> {
        let me = mover(state).expect("a player to move");
        out[0] = (virus_players::ai_evaluation(self.k, state, me) / self.scale).tanh();
        Ok(true)
    }
}

/// The thesis's targets: 1 for optimal moves, from the exact solver.
struct PerfectJudge<G: Game> {
    solver: Box<dyn Solver<G>>,
    moves: PerfectMoves,
    skip_unsolved: bool,
}

impl<G: Game> Judge<G> for PerfectJudge<G> {
    fn judge(
        &mut self,
        state: &G::State,
        legal: &[Action],
        _: &mut WoprRng,
        out: &mut [f32],
    ) -> Result<bool, OracleError> {
        let solution = match self.solver.solve(state) {
            Ok(s) => s,
            Err(SolveError::TooLarge(_)) if self.skip_unsolved => return Ok(false),
            Err(e) => {
                return Err(OracleError(format!(
                    "the solver failed on a position: {e} (perfect:unsolved=skip leaves such positions out)"
                )))
            }
        };
        out.fill(0.0);
        match self.moves {
            PerfectMoves::Best => {
                for &a in &solution.best {
                    out[a as usize] = 1.0;
                }
            }
            PerfectMoves::Value => {
                let me = mover(state).expect("a player to move");
                for &a in legal {
                    let mut child = state.clone();
                    child.apply(a);
                    let v = match mover(&child) {
                        // Not `f64::signum`, which is 1 for a draw's 0.0.
                        None => {
                            let r = child.returns(me);
                            i32::from(r > 0.0) - i32::from(r < 0.0)
                        }
                        Some(p) => {
                            let s = self.solver.solve(&child).map_err(|e| {
                                OracleError(format!("the solver failed on a position: {e}"))
                            })?;
                            if p == me {
                                s.value
                            } else {
                                -s.value
                            }
                        }
                    };
                    if v == solution.value {
                        out[a as usize] = 1.0;
                    }
                }
            }
        }
        Ok(true)
    }
}

/// Transposition table size of the `alphabeta` oracle's searcher (2^16).
const SEARCH_TT_BITS: u32 = 16;

/// A depth-limited alpha-beta value, squashed.
struct SearchJudge {
    search: AlphaBeta,
    depth: u32,
    scale: f32,
}

impl<G: Game<State: Searchable>> Judge<G> for SearchJudge {
    fn judge(
        &mut self,
        state: &G::State,
        _: &[Action],
        rng: &mut WoprRng,
        out: &mut [f32],
    ) -> Result<bool, OracleError> {
        // A fresh table per position: the value must not depend on which
        // positions this worker judged before.
        self.search.clear();
        let limits = Limits {
            depth: Some(self.depth),
            time: None,
        };
        let v = self.search.search(state, limits, rng).value;
        out[0] = squash(v, self.scale);
        Ok(true)
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

/// How to make a dataset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatasetOptions {
    /// Number of positions (rows) to record.
    pub positions: usize,
    /// Seed of the games and of the oracle's random choices.
    pub seed: u64,
    /// Encoding name; `None` = the game's default (`raw`).
    pub encoding: Option<String>,
    /// Player specs: none = `random` in both seats, one = that player in
    /// both seats, two = the first against the second, seats swapped every
    /// other game.
    pub players: Vec<String>,
    /// Leave out a position whose inputs equal an earlier row's.
    pub unique: bool,
}

impl Default for DatasetOptions {
    fn default() -> Self {
        DatasetOptions {
            positions: 1000,
            seed: 1,
            encoding: None,
            players: Vec::new(),
            unique: false,
        }
    }
}

/// What a dataset is, written beside its CSV (`FILE.csv.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DatasetInfo {
    /// The game spec.
    pub game: String,
    /// The encoding of the inputs.
    pub encoding: String,
    /// The oracle spec, defaults filled in.
    pub oracle: String,
    /// What the targets mean.
    pub kind: OracleKind,
    /// Rows recorded.
    #[serde(default)]
    pub positions: usize,
    /// Games played to record them.
    #[serde(default)]
    pub games: usize,
    /// The seed.
    #[serde(default)]
    pub seed: u64,
    /// The two players, by seat of even-numbered games.
    #[serde(default)]
    pub play: Vec<String>,
    /// Whether repeated inputs were left out.
    #[serde(default)]
    pub unique: bool,
}

impl DatasetInfo {
    /// Where the sidecar of `csv` lives: `csv` with `.json` appended.
    pub fn sidecar_path(csv: &Path) -> PathBuf {
        let mut s = csv.as_os_str().to_owned();
        s.push(".json");
        PathBuf::from(s)
    }

    /// Writes the sidecar (pretty JSON).
    pub fn save(&self, path: &Path) -> Result<(), DataError> {
        let text = serde_json::to_string_pretty(self).expect("plain values serialise");
        std::fs::write(path, text + "\n")
            .map_err(|e| DataError(format!("cannot write {}: {e}", path.display())))
    }

    /// Reads a sidecar.
    pub fn load(path: &Path) -> Result<DatasetInfo, DataError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| DataError(format!("cannot read {}: {e}", path.display())))?;
        serde_json::from_str(&text)
            .map_err(|e| DataError(format!("{}: bad dataset description: {e}", path.display())))
    }
}

/// A dataset and its description.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    /// The rows.
    pub data: Dataset,
    /// The sidecar contents.
    pub info: DatasetInfo,
    /// Whether play stopped finding new positions before the requested
    /// number (with `unique`, or an oracle that drops positions): then
    /// `data` holds fewer rows.
    pub exhausted: bool,
}

/// Consecutive windows of games without a new row before giving up.
const DRY_WINDOWS: usize = 16;
/// Most games played at once.
const MAX_WINDOW: u64 = 64;

/// One recorded position before judging.
struct Candidate<S> {
    state: S,
    game: u64,
    ply: u64,
    inputs: Vec<f32>,
}

/// A judged position's targets, and its mask for a per-move oracle.
struct Judged {
    targets: Vec<f32>,
    mask: Option<Vec<bool>>,
}

/// Plays games and records `options.positions` positions judged by
/// `oracle`; `progress` is called with the number of rows so far after each
/// window of games.
pub fn generate<G: OracleGame>(
    game: &G,
    oracle: &Oracle,
    options: &DatasetOptions,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Generated, OracleError> {
    let oracle = oracle.resolved(game);
    let kind = oracle.kind();
    judge_for(game, &oracle)?;
    let encoding_name = options
        .encoding
        .clone()
        .unwrap_or_else(|| game.encoding_names()[0].to_string());
    let encoding = game.encoding(&encoding_name)?;
    let players: Vec<String> = match options.players.len() {
        0 => vec!["random".into(), "random".into()],
        1 => vec![options.players[0].clone(), options.players[0].clone()],
        2 => options.players.clone(),
        n => {
            return Err(OracleError(format!(
                "give one or two players, not {n} (one plays both seats)"
            )))
        }
    };
    for p in &players {
        parse_player(game, p).map_err(|e| OracleError(format!("bad player '{p}': {e}")))?;
    }
    if options.positions == 0 {
        return Err(OracleError("ask for at least one position".into()));
    }
    let (ni, no) = (
        encoding.size(),
        match kind {
            OracleKind::Policy => game.num_actions(),
            OracleKind::Value => 1,
        },
    );
    let mut data = Dataset::new(ni, no, kind == OracleKind::Policy);
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    let seat_pool = PerThread::new();
    let judge_pool = PerThread::new();
    let mut next_game = 0u64;
    let mut dry = 0;
    let mut exhausted = false;
    while data.len() < options.positions {
        let need = options.positions - data.len();
        // Enough games for what is needed at the yield so far (a few for the
        // first window); the yield is counted, so the split is deterministic.
        let window = match (next_game, data.len()) {
            (0, _) => 2,
            (_, 0) => MAX_WINDOW,
            (g, rows) => (need as u64 * g).div_ceil(rows as u64).clamp(2, MAX_WINDOW),
        };
        let games = next_game..next_game + window;
        next_game += window;

        // Play the window's games in parallel, keeping every position with a
        // single player to move.
        let played: Vec<Result<Vec<G::State>, OracleError>> = games
            .clone()
            .into_par_iter()
            .map(|g| {
                seat_pool.with(
                    || build_players(game, &players),
                    |seats| play_one(game, seats, options.seed, g),
                )
            })
            .collect();

        // In game order: encode, skip repeats, stop at what is needed (an
        // oracle that leaves positions out sees them all).
        let mut candidates = Vec::new();
        'games: for (g, states) in games.zip(played) {
            for (ply, state) in states?.into_iter().enumerate() {
                if candidates.len() == need && !oracle.drops_positions() {
                    break 'games;
                }
                let mut inputs = vec![0.0f32; ni];
                encoding.encode(&state, &mut inputs);
                if options.unique && !seen.insert(inputs.iter().map(|x| x.to_bits()).collect()) {
                    continue;
                }
                candidates.push(Candidate {
                    state,
                    game: g,
                    ply: ply as u64,
                    inputs,
                });
            }
        }

        // Judge in parallel, keep in order.
        let judged: Vec<Result<Option<Judged>, OracleError>> = candidates
            .par_iter()
            .map(|c| {
                judge_pool.with(
                    || judge_for(game, &oracle),
                    |judge| {
                        let judge = judge.as_mut().map_err(|e| e.clone())?;
                        judge_one(judge.as_mut(), c, options.seed, kind, no)
                    },
                )
            })
            .collect();
        let before = data.len();
        for (c, j) in candidates.iter().zip(judged) {
            if data.len() == options.positions {
                break;
            }
            if let Some(j) = j? {
                data.push(&c.inputs, &j.targets, j.mask.as_deref())
                    .map_err(|e| OracleError(e.0))?;
            }
        }
        progress(data.len());
        if data.len() == before {
            dry += 1;
            if dry == DRY_WINDOWS {
                exhausted = true;
                break;
            }
        } else {
            dry = 0;
        }
    }
    if data.is_empty() {
        return Err(OracleError(format!(
            "no positions recorded in {next_game} games (oracle '{oracle}' left them all out)"
        )));
    }
    let info = DatasetInfo {
        game: game.spec(),
        encoding: encoding_name,
        oracle: oracle.to_string(),
        kind,
        positions: data.len(),
        games: next_game as usize,
        seed: options.seed,
        play: players,
        unique: options.unique,
    };
    Ok(Generated {
        data,
        info,
        exhausted,
    })
}

/// Judges one position with its own random stream; masks illegal actions
/// for a per-move oracle.
fn judge_one<G: Game>(
    judge: &mut dyn Judge<G>,
    c: &Candidate<G::State>,
    seed: u64,
    kind: OracleKind,
    outputs: usize,
) -> Result<Option<Judged>, OracleError> {
    let mut legal = ActionList::new();
    c.state.legal_actions(&mut legal);
    let mut rng = stream(seed, &[1, c.game, c.ply]);
    let mut targets = vec![0.0f32; outputs];
    if !judge.judge(&c.state, &legal, &mut rng, &mut targets)? {
        return Ok(None);
    }
    let mask = (kind == OracleKind::Policy).then(|| {
        let mut mask = vec![false; outputs];
        for &a in &legal {
            mask[a as usize] = true;
        }
        for (t, &m) in targets.iter_mut().zip(&mask) {
            if !m {
                *t = 0.0;
            }
        }
        mask
    });
    Ok(Some(Judged { targets, mask }))
}

/// One value per worker thread, built on first use and kept from window to
/// window, so solvers keep their tables. Results never depend on it: players
/// start each game afresh and judges are pure functions of the position.
struct PerThread<T> {
    slots: Vec<Mutex<Option<T>>>,
}

impl<T> PerThread<T> {
    fn new() -> PerThread<T> {
        PerThread {
            slots: (0..rayon::current_num_threads().max(1))
                .map(|_| Mutex::new(None))
                .collect(),
        }
    }

    /// Runs `f` on this thread's value, built by `make` the first time.
    fn with<R>(&self, make: impl FnOnce() -> T, f: impl FnOnce(&mut T) -> R) -> R {
        let i = rayon::current_thread_index().unwrap_or(0) % self.slots.len();
        let mut slot = self.slots[i].lock().unwrap_or_else(|e| e.into_inner());
        f(slot.get_or_insert_with(make))
    }
}

type Seats<G> = Result<[Box<dyn Player<G>>; 2], OracleError>;

/// Both seats' players for one worker (or why they cannot be built).
fn build_players<G: Roster>(game: &G, specs: &[String]) -> Seats<G> {
    let one = |s: &String| parse_player(game, s).map_err(|e| OracleError(e.0));
    Ok([one(&specs[0])?, one(&specs[1])?])
}

/// Plays game `g` and returns its positions with a single player to move.
fn play_one<G: Game>(
    game: &G,
    seats: &mut Seats<G>,
    seed: u64,
    g: u64,
) -> Result<Vec<G::State>, OracleError> {
    let [a, b] = seats.as_mut().map_err(|e| e.clone())?;
    let mut order: [&mut dyn Player<G>; 2] = if seats_swapped(g as usize) {
        [b.as_mut(), a.as_mut()]
    } else {
        [a.as_mut(), b.as_mut()]
    };
    let mut rng = stream(seed, &[0, g]);
    let mut states = Vec::new();
    play_game_observed(game, &mut order, &mut rng, |s, _| {
        if mover(s).is_some() {
            states.push(s.clone());
        }
        std::ops::ControlFlow::Continue(())
    })
    .map_err(|e| OracleError(format!("game {g}: {e}")))?;
    Ok(states)
}
