//! The `mcts` kind: its row in the table of kinds, its typed settings
//! ([`MctsSettings`]) and how a spec becomes a player.

use std::time::Duration;

use super::{build, parse_config_for, MctsConfig, MCTS_SYNTAX};
use crate::game::{GameSpec, SpecError};
use crate::players::cost::Cost;
use crate::players::kinds::{
    clamp_time, ms_text, spec_text, BoardGame, GenericKind, Kind, Plays, Settings,
};
use crate::players::{Player, Roster};

/// The `mcts` kind.
pub struct MctsKind;

/// The settings of an `mcts` spec.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsSettings {
    /// The search settings.
    pub config: MctsConfig,
    /// The value net of `rollout=net:FILE`; `None` for random rollouts.
    pub rollout: Option<String>,
}

impl GenericKind for MctsKind {
    const ROW: Kind = Kind {
        name: "mcts",
        syntax: MCTS_SYNTAX,
        about: "Monte-Carlo tree search: UCT, the MCTS-Solver, PUCT over a value net",
        plays: Plays::Reads("mcts"),
    };
    type Settings = MctsSettings;

    /// Reads the spec with the game's UCT constant as `c`'s default.
    fn parse<G: Roster>(game: &G, spec: &GameSpec) -> Result<MctsSettings, SpecError> {
        let (config, rollout) = parse_config_for(spec, game.mcts_c())?;
        Ok(MctsSettings { config, rollout })
    }

    fn build<G: BoardGame>(game: &G, s: &MctsSettings) -> Result<Box<dyn Player<G>>, SpecError> {
        build(game, s.config, s.rollout.as_deref())
    }
}

impl Settings for MctsSettings {
    fn cost(&self) -> Cost {
        Cost {
            sims: Some(self.config.sims),
            time: self.config.time,
            nets: self.rollout.iter().cloned().collect(),
            ..Cost::default()
        }
    }

    fn limit_time(&mut self, limit: Duration) {
        clamp_time(&mut self.config.time, limit);
    }

    fn nets_mut(&mut self) -> Vec<&mut String> {
        self.rollout.iter_mut().collect()
    }

    fn text(&self) -> String {
        let c = &self.config;
        let mut parts = vec![format!("sims={}", c.sims), format!("c={}", c.c)];
        parts.extend(ms_text(c.time));
        if let Some(p) = &self.rollout {
            parts.push(format!("rollout=net:{p}"));
        }
        parts.extend(c.switches());
        spec_text("mcts", &parts)
    }
}
