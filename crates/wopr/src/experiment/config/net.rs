//! The `[net]` and `[genome]` sections: the net evolved (architecture,
//! encoding, how it plays) and how its weights are laid out in a genome.

use serde::{Deserialize, Serialize};

use crate::nn::Activation;

/// The net: architecture, encoding, play mode.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct NetConfig {
    /// Encoding name (`raw` if empty).
    pub encoding: String,
    /// Hidden layer sizes of a layered net.
    pub hidden: Vec<usize>,
    /// Nodes of a complete feed-forward net (0: use the layered net).
    pub complete: usize,
    /// Hidden activation.
    pub activation: Activation,
    /// Output activation.
    pub output: Activation,
    /// One value output, or one output per action.
    pub outputs: Outputs,
    /// The net player's mode (greedy, policy, minimax2, alphabeta, softmax);
    /// empty: greedy for value nets, policy for policy nets.
    pub mode: String,
    /// Search depth for `alphabeta`.
    pub ply: u32,
    /// Softmax temperature.
    pub temp: f32,
    /// How minimax2 reduces outputs (max, mean).
    pub reduce: String,
    /// Who scores finished positions: `rules` (a win above every net value,
    /// a loss below, a draw neutral) or `net` (win detection left to the
    /// net). See `players::net`.
    pub finished: FinishedBy,
    /// How a genome's bias genes enter their units: `add` (a bias, the sum
    /// is `w·x + b`) or `subtract` (a threshold, `w·x - θ`: the unit fires
    /// when its weighted input exceeds θ). The same genes, a sign apart;
    /// it matters when genes are confined to a range such as
    /// MIDI-Connect4's [0.5, 2.0]. `none`: no biases at all (their genes
    /// are ignored and the net's biases stay 0), as the WOPR thesis's
    /// complete nets have it.
    pub bias: BiasSign,
}

/// Who scores finished positions for a net player (`[net] finished`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FinishedBy {
    /// The game's rules.
    #[default]
    Rules,
    /// The net itself.
    Net,
}

/// How bias genes enter their units (`[net] bias`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BiasSign {
    /// Added: `w·x + b`.
    #[default]
    Add,
    /// Subtracted, as a threshold: `w·x - θ`.
    Subtract,
    /// No bias: `w·x` (the genes are carried but unused).
    None,
}

impl Default for NetConfig {
    fn default() -> Self {
        NetConfig {
            encoding: "raw".into(),
            hidden: vec![10],
            complete: 0,
            activation: Activation::Tanh,
            output: Activation::Tanh,
            outputs: Outputs::Value,
            mode: String::new(),
            ply: 2,
            temp: 0.1,
            reduce: "max".into(),
            finished: FinishedBy::Rules,
            bias: BiasSign::Add,
        }
    }
}

/// A net's outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outputs {
    /// One output: the value of the position for the player to move.
    Value,
    /// One output per action: a move ranking.
    Policy,
}
