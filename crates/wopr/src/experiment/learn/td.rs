//! TD self-play as a run ([`crate::train::td`] for the learning itself):
//! the config `wopr run` reads and `wopr td --print-config` writes, and the
//! [`Learner`] that plays and learns its games.
//!
//! ```toml
//! game = "connect4:6x6"
//! seed = 1
//!
//! [learner]
//! kind = "td"
//! encoding = "walk8"      # the linear net's input encoding
//! output = "tanh"         # or "linear"
//! alpha = 0.001           # step size (alpha_final: annealed to it)
//! lambda = 0.5            # trace decay
//! epsilon = 0.1           # chance of a random move (epsilon_final)
//! decay_games = 0         # games over which alpha and epsilon anneal
//! random_plies = 0        # random plies at the start of each game
//! random_plies_min = 0    # (if set: uniform in random_plies_min..=random_plies)
//! opponents = []          # learn against these instead of self-play
//! starts = []             # move lists game i starts after (i mod k), e.g. ["2", "6"]
//! explore = "skip"        # or "learn", "learn-reset": what a random move teaches
//! tcl_beta = 2.7          # temporal coherence learning (absent: off)
//! farl = false            # same-player targets, final adaptation (GBG)
//! trace_cut = 1e-6        # trace horizon cut (GBG: 0.01 on Connect-4)
//! reward = "result"       # or "margin:S": the final score margin over S;
//!                         # "speed:N": a win after p plies worth 1 − p/2N
//! gamma = 1.0             # discount per ply (below 1: faster wins preferred)
//! batch = 1               # games a round on threads and ranks (1: one thread)
//!
//! [stop]
//! games = 15000000
//!
//! [yardsticks]
//! every = 200000          # games between checkpoints and yardsticks
//! against = ["random", "alphabeta:depth=2"]
//! games = 200             # per yardstick, half from each seat
//! openings = "plies=4"    # or start = "moves"
//!
//! [init]
//! net = "FILE.json"       # start from these weights instead of zeros
//! ```
//!
//! A game is learned from its own random stream (game `i` from
//! `(seed, i)`), so the weights after `n` games are the same whether the
//! run stopped and resumed on the way or not: the checkpoint's net and
//! game count are the whole state.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{drive, LearnProgress, Learner, RunPlan, RunSummary};
use crate::experiment::atomic::write_atomic;
use crate::experiment::error::{err, RunError};
use crate::experiment::yardsticks::{GameYardsticks, YardsticksConfig};
use crate::game::encode::Encodable;
use crate::game::Searchable;
use crate::nn::{Activation, NetFile};
use crate::players::{PlayerSpec, Roster};
use crate::train::td::{Explore, Reward, TdLearner, TdOptions, TdRounds};
use crate::with_board_game;

/// The entry of `learner.opponents` that makes a game self-play.
const SELF_PLAY: &str = "self";

/// A TD run's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TdConfig {
    /// A name for reports.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The game spec (a board game).
    pub game: String,
    /// Seed of the learning games and of the yardstick games.
    #[serde(default = "one")]
    pub seed: u64,
    /// What is learned and how.
    pub learner: TdSettings,
    /// When the run ends.
    pub stop: TdStop,
    /// Checkpoints and the yardsticks measured at each.
    #[serde(default)]
    pub yardsticks: YardsticksConfig,
    /// Where the weights start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<NetInit>,
}

/// `[learner]` of a TD run.
///
/// With `batch` = B above 1 the games are learned in rounds of B on every
/// rayon thread (`RAYON_NUM_THREADS`) and MPI rank
/// ([`crate::train::td::TdRounds`]): each game of a round starts from the
/// weights the last round left, and the round's changes are added in game
/// order, so a run depends on its seed and B, never on the threads or
/// ranks that play it. B must divide `yardsticks.every` and `stop.games`,
/// so that checkpoints fall between rounds and a resumed run is exact.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TdSettings {
    /// Always `"td"`.
    pub kind: TdKind,
    /// Input encoding; the net is linear over it.
    #[serde(default = "ntuple2")]
    pub encoding: String,
    /// Output activation: `tanh` or `linear`.
    #[serde(default = "tanh")]
    pub output: String,
    /// Step size on every weight.
    #[serde(default = "alpha")]
    pub alpha: f32,
    /// Trace decay (0: TD(0)).
    #[serde(default)]
    pub lambda: f32,
    /// Chance of a random move at each position.
    #[serde(default = "epsilon")]
    pub epsilon: f64,
    /// Alpha annealed to this over `decay_games` (geometrically).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alpha_final: Option<f32>,
    /// Epsilon annealed to this over `decay_games` (linearly).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epsilon_final: Option<f64>,
    /// Games over which alpha and epsilon reach their final values.
    #[serde(default)]
    pub decay_games: u64,
    /// Random plies at the start of every learning game.
    #[serde(default)]
    pub random_plies: usize,
    /// Where set, each game's random plies are drawn uniformly from
    /// `random_plies_min..=random_plies`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random_plies_min: Option<usize>,
    /// Learn against these players in turn instead of by self-play; the
    /// entry `self` makes that game self-play, so that the two can be
    /// mixed (`["self", "standard:depth=3"]`: every other game).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opponents: Vec<String>,
    /// Where learning games start: move lists in the game's notation,
    /// game `i` after `starts[i mod k]` (then the random plies); empty:
    /// the start position.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub starts: Vec<String>,
    /// What an exploratory move teaches: `skip` (the default), `learn`, or
    /// `learn-reset` (learned from, the trace restarted).
    #[serde(default = "skip", skip_serializing_if = "is_skip")]
    pub explore: String,
    /// Temporal coherence learning with the exponential transfer of
    /// steepness β (Bagheri et al. use 2.7); absent: no TCL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tcl_beta: Option<f32>,
    /// Same-player targets with final adaptation (GBG's FARL) instead of
    /// the chosen move's value.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub farl: bool,
    /// The eligibility trace's horizon cut (GBG uses 0.01 on Connect-4);
    /// absent: 10⁻⁶.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace_cut: Option<f32>,
    /// What a finished game is worth: `result` (+1/0/−1, the default),
    /// `margin:S` (the score margin over S, clamped to [−1, 1]) or
    /// `speed:N` (a win after p plies worth 1 − p/2N, N the longest game).
    #[serde(default = "result", skip_serializing_if = "is_result")]
    pub reward: String,
    /// The discount per ply (absent: 1, none); below 1 a faster win is
    /// worth more than a slower one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gamma: Option<f32>,
    /// Games learned a round on every thread and rank from the same
    /// weights (absent or 1: one game after another on one thread).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch: Option<u64>,
}

fn result() -> String {
    "result".into()
}

fn is_result(text: &String) -> bool {
    text == "result"
}

fn skip() -> String {
    "skip".into()
}

fn is_skip(s: &String) -> bool {
    s == "skip"
}

/// The one kind of this table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TdKind {
    /// Temporal-difference self-play.
    Td,
}

/// `[stop]` of a TD run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TdStop {
    /// Games learned in all (a resumed run continues to this count).
    pub games: u64,
}

/// `[init]` of a learner that makes one net.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetInit {
    /// A net file to start from.
    pub net: PathBuf,
}

/// The default seed.
pub fn one() -> u64 {
    1
}
/// The default encoding.
pub fn ntuple2() -> String {
    "ntuple2".into()
}
/// The default output.
pub fn tanh() -> String {
    "tanh".into()
}
/// The default step size.
pub fn alpha() -> f32 {
    0.001
}
/// The default exploration.
pub fn epsilon() -> f64 {
    0.1
}

/// A TD learner with its game count, and the actors of its rounds where
/// `batch` is above 1.
struct TdRun<G: Encodable> {
    learner: TdLearner<G>,
    rounds: Option<TdRounds<G>>,
    game: G,
    done: u64,
}

impl<G: Encodable> Learner for TdRun<G> {
    fn unit(&self) -> &'static str {
        "games"
    }

    fn done(&self) -> u64 {
        self.done
    }

    fn log_header(&self) -> String {
        "games,mean_abs_error,first_seat_score,mean_plies,learner_score".into()
    }

    fn advance(
        &mut self,
        until: u64,
        tick: &mut dyn FnMut(u64),
    ) -> Result<Vec<(u64, String)>, RunError> {
        let count = until.saturating_sub(self.done);
        if count == 0 {
            return Ok(Vec::new());
        }
        let (mut error, mut first, mut plies, mut own) = (0.0, 0.0, 0usize, None);
        let start = self.done;
        // With rounds, a round's games are learned before any is counted.
        let mut round = Vec::new();
        for i in start..until {
            let g = match self.rounds.as_mut() {
                None => self.learner.learn_game(i),
                Some(rounds) => {
                    if round.is_empty() {
                        round = rounds.learn_round(&mut self.learner, i, until);
                        round.reverse();
                    }
                    round.pop().expect("a game of the round")
                }
            };
            if !g.mean_abs_error.is_finite() {
                return Err(RunError(format!(
                    "TD diverged: the values stopped being finite in game {} (the last checkpoint, at {} games, is kept); lower learner.alpha, or use output = \"tanh\"",
                    i + 1,
                    start
                )));
            }
            error += g.mean_abs_error;
            first += (g.first_return + 1.0) / 2.0;
            plies += g.plies;
            // Over the games against fixed opponents alone (self-play
            // games among them have no learner's return).
            if let Some(r) = g.learner_return {
                let (sum, games) = own.get_or_insert((0.0, 0u64));
                *sum += (r + 1.0) / 2.0;
                *games += 1;
            }
            self.done = i + 1;
            tick(self.done);
        }
        let n = count as f64;
        Ok(vec![(
            until,
            format!(
                "{:.6},{:.4},{:.2},{}",
                error / n,
                first / n,
                plies as f64 / n,
                own.map_or(String::new(), |(o, k): (f64, u64)| format!(
                    "{:.4}",
                    o / k as f64
                ))
            ),
        )])
    }

    fn net_file(&self) -> Result<NetFile, RunError> {
        let mut file = NetFile::new(self.learner.to_net());
        file.game = Some(self.game.spec());
        file.encoding = Some(self.learner.encoding_name().to_string());
        file.player = Some("greedy".to_string());
        Ok(file)
    }

    /// The games learned: with the net, the whole state; with TCL, also
    /// its sums per weight (`{"games", "tcl_sum", "tcl_size"}`).
    fn state(&self) -> Result<serde_json::Value, RunError> {
        let (sum, size) = self.learner.tcl_sums();
        if sum.is_empty() {
            return Ok(self.done.into());
        }
        Ok(serde_json::json!({"games": self.done, "tcl_sum": sum, "tcl_size": size}))
    }

    fn restore(&mut self, state: serde_json::Value, net: &NetFile) -> Result<(), RunError> {
        let bad = || {
            RunError(format!(
                "a TD checkpoint holds a game count (and TCL's sums), not {state}"
            ))
        };
        self.done = match &state {
            serde_json::Value::Object(o) => {
                let sums = |key: &str| -> Result<Vec<f32>, RunError> {
                    serde_json::from_value(o.get(key).cloned().ok_or_else(bad)?).map_err(|_| bad())
                };
                self.learner
                    .set_tcl_sums(sums("tcl_sum")?, sums("tcl_size")?)
                    .map_err(err)?;
                o.get("games").and_then(|g| g.as_u64()).ok_or_else(bad)?
            }
            other => other.as_u64().ok_or_else(bad)?,
        };
        if let Some(rounds) = self.rounds.as_mut() {
            rounds.resync();
        }
        self.learner.set_net(&net.net).map_err(err)
    }
}

/// Turns the folder of a TD run made before the run layer (`td.json`,
/// `progress.csv`) into one the layer resumes: `state.json` with the same
/// game count, net file and best score. The old yardstick log stays as it
/// is; new rows go to `yardsticks.csv`. Returns whether it did.
pub fn upgrade(dir: &Path) -> Result<bool, RunError> {
    #[derive(Deserialize)]
    struct Old {
        games_done: u64,
        best_score: Option<f64>,
        best_games: Option<u64>,
        net_file: Option<String>,
    }
    let old_path = dir.join("td.json");
    if super::is_run(dir) || !old_path.is_file() {
        return Ok(false);
    }
    let text = std::fs::read_to_string(&old_path)
        .map_err(|e| RunError(format!("cannot read {}: {e}", old_path.display())))?;
    let old: Old = serde_json::from_str(&text).map_err(|e| {
        RunError(format!(
            "{} is not a TD checkpoint: {e}",
            old_path.display()
        ))
    })?;
    let cp = super::Checkpoint {
        kind: "td".into(),
        done: old.games_done,
        net_file: old.net_file.unwrap_or_else(|| "net.json".into()),
        best: old.best_score.zip(old.best_games),
        learner: old.games_done.into(),
    };
    let yardsticks = dir.join("yardsticks.csv");
    if !yardsticks.exists() {
        write_atomic(&yardsticks, &format!("games,{}\n", super::Row::HEADER))?;
    }
    let text = serde_json::to_string(&cp).map_err(err)?;
    write_atomic(&dir.join("state.json"), &text)?;
    Ok(true)
}

/// Runs (or resumes, when `dir` holds its checkpoint) a TD run.
pub fn run(
    config: &TdConfig,
    dir: &Path,
    progress: &mut dyn LearnProgress,
) -> Result<RunSummary, RunError> {
    upgrade(dir)?;
    let game = crate::registry::AnyGame::parse(&config.game).map_err(err)?;
    with_board_game!(&game, g => run_game(g, config, dir, progress),
        Err(RunError(format!("TD learning needs a board game, not {}", game.spec()))))
}

fn run_game<G>(
    game: &G,
    config: &TdConfig,
    dir: &Path,
    progress: &mut dyn LearnProgress,
) -> Result<RunSummary, RunError>
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    let l = &config.learner;
    let output: Activation = l.output.parse().map_err(err)?;
    if let Some(lo) = l.random_plies_min.filter(|&lo| lo > l.random_plies) {
        return Err(RunError(format!(
            "learner.random_plies_min = {lo} is above learner.random_plies = {} (the plies are drawn from min..=random_plies)",
            l.random_plies
        )));
    }
    let options = TdOptions {
        alpha: l.alpha,
        lambda: l.lambda,
        epsilon: l.epsilon,
        openings: l.random_plies,
        openings_min: l.random_plies_min,
        seed: config.seed,
        alpha_final: l.alpha_final,
        epsilon_final: l.epsilon_final,
        decay_games: l.decay_games,
        explore: Explore::parse(&l.explore).map_err(err)?,
        tcl: l.tcl_beta,
        farl: l.farl,
        trace_cut: l.trace_cut.unwrap_or(crate::train::td::TRACE_FLOOR),
        reward: Reward::parse(&l.reward).map_err(err)?,
        gamma: l.gamma.unwrap_or(1.0),
    };
    let yardsticks = GameYardsticks::new(game, &config.yardsticks, config.seed)?;
    let starts = crate::eval::openings::Openings::lines(game, &l.starts)
        .map_err(|e| RunError(format!("learner.starts {e}")))?;
    let make = || -> Result<TdLearner<G>, RunError> {
        let opponents = l
            .opponents
            .iter()
            .map(|o| match o.as_str() {
                SELF_PLAY => Ok(None),
                _ => PlayerSpec::parse(game, o)
                    .and_then(|p| p.build(game))
                    .map(Some)
                    .map_err(|e| {
                        RunError(format!(
                            "learner.opponents '{o}': {e} (or '{SELF_PLAY}' for a self-play game)"
                        ))
                    }),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut learner = TdLearner::new(game.clone(), &l.encoding, output, options.clone())
            .map_err(err)?
            .with_opponents(opponents)
            .with_starts(starts.clone());
        if let Some(init) = &config.init {
            let file = NetFile::load(&init.net).map_err(err)?;
            learner = learner.with_net(&file.net).map_err(err)?;
        }
        Ok(learner)
    };
    let learner = make()?;
    let rounds = match l.batch.unwrap_or(1) {
        0 => {
            return Err(RunError(
                "learner.batch must be at least 1 (games a round; 1: one game after another)"
                    .into(),
            ))
        }
        1 => None,
        b => {
            for (name, n) in [
                ("yardsticks.every", config.yardsticks.every),
                ("stop.games", config.stop.games),
            ] {
                if n % b != 0 {
                    return Err(RunError(format!(
                        "learner.batch = {b} must divide {name} = {n}, so that checkpoints fall between rounds"
                    )));
                }
            }
            let actors = (0..rayon::current_num_threads())
                .map(|_| make())
                .collect::<Result<Vec<_>, _>>()?;
            Some(TdRounds::new(actors, b))
        }
    };
    let text = toml::to_string_pretty(config).map_err(err)?;
    let mut run = TdRun {
        learner,
        rounds,
        game: game.clone(),
        done: 0,
    };
    let plan = RunPlan {
        kind: "td",
        dir,
        config: &text,
        stop: config.stop.games,
        every: config.yardsticks.every,
        measure_every: config.yardsticks.every,
        keep_nets: config.yardsticks.keep_nets,
    };
    drive(&mut run, &plan, &yardsticks, progress)
}
