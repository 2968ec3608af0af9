//! The `[learner]` table that names how a config's player is learned, read
//! by `wopr run` to choose the learner. A config without it is an evolution
//! config, so every file in `configs/` runs as it is.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The ways wopr learns a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LearnerKind {
    /// Evolution (`EvolveConfig`: GA, ES, EP, CMA-ES, every fitness scheme).
    Evolve,
    /// Temporal-difference self-play (`wopr td`).
    Td,
    /// Supervised training on a data set (`wopr train`).
    Train,
    /// Pre-training a seed population (`wopr pretrain`).
    Pretrain,
    /// AlphaZero: a policy-value net from self-play guided by its own
    /// search.
    Alphazero,
}

impl LearnerKind {
    /// Every kind, in the order the docs list them.
    pub const ALL: [LearnerKind; 5] = [
        LearnerKind::Evolve,
        LearnerKind::Td,
        LearnerKind::Train,
        LearnerKind::Pretrain,
        LearnerKind::Alphazero,
    ];

    /// The name in a config (`kind = "td"`).
    pub fn name(self) -> &'static str {
        match self {
            LearnerKind::Evolve => "evolve",
            LearnerKind::Td => "td",
            LearnerKind::Train => "train",
            LearnerKind::Pretrain => "pretrain",
            LearnerKind::Alphazero => "alphazero",
        }
    }

    /// The kind named `name`, or a one-line error naming the accepted ones.
    pub fn parse(name: &str) -> Result<LearnerKind, String> {
        LearnerKind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = LearnerKind::ALL.iter().map(|k| k.name()).collect();
                format!(
                    "unknown [learner] kind '{name}' (accepted: {})",
                    names.join(", ")
                )
            })
    }
}

impl fmt::Display for LearnerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The `[learner]` table of an evolution config: only its kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvolveLearner {
    /// Must be `"evolve"`.
    pub kind: LearnerKind,
}
