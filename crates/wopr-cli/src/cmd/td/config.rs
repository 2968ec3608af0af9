//! The config of a TD run, as `wopr run CONFIG.toml` reads it and
//! `wopr td --print-config` writes it:
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
//! opponents = []          # learn against these instead of self-play
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

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::super::OpeningArgs;

/// A TD run's settings: everything `wopr td`'s flags say but the run
/// folder and the progress bar.
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
    pub learner: TdLearner,
    /// When the run ends.
    pub stop: TdStop,
    /// Checkpoints and the yardsticks measured at each.
    #[serde(default)]
    pub yardsticks: TdYardsticks,
    /// Where the weights start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<TdInit>,
}

/// `[learner]` of a TD run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TdLearner {
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
    /// Learn against these players in turn instead of by self-play.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opponents: Vec<String>,
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

/// `[yardsticks]` of a TD run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TdYardsticks {
    /// Games between checkpoints (and yardstick measurements).
    #[serde(default = "every")]
    pub every: u64,
    /// Yardstick opponents (none: no yardsticks).
    #[serde(default)]
    pub against: Vec<String>,
    /// Games against each yardstick, half from each seat.
    #[serde(default = "eval_games")]
    pub games: usize,
    /// Openings of the yardstick games (`plies=K` or a file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<String>,
    /// A start position of every yardstick game (moves in notation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
}

impl Default for TdYardsticks {
    fn default() -> Self {
        TdYardsticks {
            every: every(),
            against: Vec::new(),
            games: eval_games(),
            openings: None,
            start: None,
        }
    }
}

impl TdYardsticks {
    /// The openings as the measuring commands take them.
    pub fn opening_args(&self) -> OpeningArgs {
        OpeningArgs {
            openings: self.openings.clone(),
            start: self.start.clone(),
        }
    }
}

/// `[init]` of a TD run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TdInit {
    /// A net file (a linear net over the encoding) to start from.
    pub net: PathBuf,
}

// The defaults, shared with `wopr td`'s flags.
pub(super) fn one() -> u64 {
    1
}
pub(super) fn ntuple2() -> String {
    "ntuple2".into()
}
pub(super) fn tanh() -> String {
    "tanh".into()
}
pub(super) fn alpha() -> f32 {
    0.001
}
pub(super) fn epsilon() -> f64 {
    0.1
}
pub(super) fn every() -> u64 {
    10_000
}
pub(super) fn eval_games() -> usize {
    200
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_config_takes_the_defaults_and_writes_back_the_same() {
        let text = "game = \"tictactoe\"\n[learner]\nkind = \"td\"\n[stop]\ngames = 10\n";
        let c: TdConfig = toml::from_str(text).unwrap();
        assert_eq!(c.seed, 1);
        assert_eq!(c.learner.encoding, "ntuple2");
        assert_eq!(c.yardsticks.every, 10_000);
        let again: TdConfig = toml::from_str(&toml::to_string(&c).unwrap()).unwrap();
        assert_eq!(again, c);
        let e = toml::from_str::<TdConfig>(&text.replace("games = 10", "gamez = 10"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("gamez"), "{e}");
    }
}
