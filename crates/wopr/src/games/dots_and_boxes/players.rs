//! The heuristic Dots-and-Boxes opponents of Weaver & Bossomaier §2.2, levels
//! 0 to 2 (specs `level0`, `level1`, `level2`).
//!
//! The paper ranks human strategies by how far they look ahead:
//! - **Level 0, random play**: any legal move.
//! - **Level 1, box completion**: "the position of a hypothetical edge is
//!   tested to see if it creates a box": a move that completes a box is played
//!   whenever there is one, otherwise any legal move.
//! - **Level 2, third side avoidance**: box completion as at level 1, and
//!   "moves which do not complete a box and would allow the opponent to are
//!   avoided": with no box to complete, a move that draws no box's third side.
//!   The paper says such moves are *avoided*, not forbidden, so when every move
//!   draws a third side, level 2 plays any legal move.
//!
//! Every choice among the moves a level allows is uniformly random (the paper
//! names no order). Completing moves are not ranked against each other: one
//! that takes two boxes is as good as one that takes one, since the player
//! moves again either way.
//!
//! Weaver reports level 1 beating random play in 99.63% of 3x3 games, and level
//! 2 beating random in 99.69% and level 1 in 83.83%.

use rand::RngExt;

use super::solver::DotsAndBoxesSolver;
use super::{DotsAndBoxes, DotsAndBoxesState};
use crate::game::rng::WoprRng;
use crate::game::solver::Solver;
use crate::game::Player;
use crate::game::{Action, ActionList, GameSpec, SpecError};
use crate::players::{board_build, board_parse, OwnSpec, PlayerSpec, Roster};

/// A Weaver & Bossomaier heuristic player of level 0, 1 or 2 (see the module
/// docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelPlayer {
    level: u8,
}

impl LevelPlayer {
    /// The player of `level` (0, 1 or 2).
    pub fn new(level: u8) -> Result<LevelPlayer, SpecError> {
        if level > 2 {
            return Err(SpecError(format!(
                "dots-and-boxes has heuristic levels 0, 1 and 2, not {level}"
            )));
        }
        Ok(LevelPlayer { level })
    }

    /// Builds the player from a spec `level0`, `level1` or `level2` (no keys).
    pub fn from_spec(spec: &GameSpec) -> Result<LevelPlayer, SpecError> {
        spec.check_keys(&[])?;
        match spec.name.as_str() {
            "level0" => LevelPlayer::new(0),
            "level1" => LevelPlayer::new(1),
            "level2" => LevelPlayer::new(2),
            other => Err(SpecError(format!(
                "unknown heuristic player '{other}' (accepted: level0, level1, level2)"
            ))),
        }
    }

    /// The level, 0 to 2.
    pub fn level(&self) -> u8 {
        self.level
    }

    /// The moves of `legal` this level allows in `state` (never empty when
    /// `legal` is not): every move at level 0; at level 1 the completing moves
    /// if any; at level 2 the completing moves if any, else the moves that draw
    /// no third side if any; otherwise all of `legal`.
    pub fn allowed(&self, state: &DotsAndBoxesState, legal: &[Action]) -> ActionList {
        let pick = |keep: &dyn Fn(usize) -> bool| -> ActionList {
            legal
                .iter()
                .copied()
                .filter(|&a| keep(a as usize))
                .collect()
        };
        if self.level >= 1 {
            let completing = pick(&|e| state.completed_by(e) > 0);
            if !completing.is_empty() {
                return completing;
            }
        }
        if self.level >= 2 {
            // No move completes a box here, so none of these does either.
            let safe = pick(&|e| !state.makes_third_side(e));
            if !safe.is_empty() {
                return safe;
            }
        }
        legal.iter().copied().collect()
    }
}

impl Player<DotsAndBoxes> for LevelPlayer {
    fn spec(&self) -> String {
        format!("level{}", self.level)
    }

    fn choose(&mut self, view: &DotsAndBoxesState, legal: &[Action], rng: &mut WoprRng) -> Action {
        if self.level == 0 {
            return legal[rng.random_range(0..legal.len())];
        }
        let allowed = self.allowed(view, legal);
        allowed[rng.random_range(0..allowed.len())]
    }
}

/// Dots-and-Boxes' players: Weaver's three levels, then the board players.
impl Roster for DotsAndBoxes {
    fn parse_bot(&self, spec: &GameSpec) -> Result<Option<PlayerSpec>, SpecError> {
        match spec.name.as_str() {
            "level0" | "level1" | "level2" => {
                LevelPlayer::from_spec(spec)?;
                Ok(Some(PlayerSpec::Own(OwnSpec::new(spec, None, false)?)))
            }
            _ => board_parse(self, spec),
        }
    }
    fn build_bot(&self, spec: &PlayerSpec) -> Result<Box<dyn Player<Self>>, SpecError> {
        match spec {
            PlayerSpec::Own(own) => Ok(Box::new(LevelPlayer::from_spec(&own.spec)?)),
            _ => board_build(self, spec),
        }
    }
    fn bot_names(&self) -> &'static [&'static str] {
        &["level0", "level1", "level2", "perfect"]
    }
    fn solver(&self) -> Option<Box<dyn Solver<Self>>> {
        Some(Box::new(DotsAndBoxesSolver::new()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, State};

    fn position(moves: &[&str]) -> DotsAndBoxesState {
        let mut s = DotsAndBoxes::new(2, 1).unwrap().initial_state();
        for m in moves {
            s.apply(s.parse_action(m).unwrap());
        }
        s
    }

    fn allowed(level: u8, s: &DotsAndBoxesState) -> Vec<String> {
        let mut legal = ActionList::new();
        s.legal_actions(&mut legal);
        LevelPlayer::new(level)
            .unwrap()
            .allowed(s, &legal)
            .iter()
            .map(|&a| s.action_to_string(a))
            .collect()
    }

    #[test]
    fn levels_follow_the_paper() {
        // 2x1 boxes (edges h0,0 h0,1 h1,0 h1,1 v0,0 v0,1 v0,2). After h0,0,
        // h1,0 (A, B) and v0,0 (A), the left box has three sides: B may take it
        // with v0,1, which also draws the right box's first side.
        let s = position(&["h0,0", "h1,0", "v0,0"]);
        assert_eq!(allowed(0, &s).len(), 4);
        assert_eq!(allowed(1, &s), ["v0,1"]);
        assert_eq!(allowed(2, &s), ["v0,1"]);
        // After h0,0 (A) and h1,0 (B) nothing can be completed; v0,0 and v0,1
        // draw the left box's third side, h0,1, h1,1 and v0,2 do not.
        let s = position(&["h0,0", "h1,0"]);
        assert_eq!(allowed(1, &s).len(), 5);
        assert_eq!(allowed(2, &s), ["h0,1", "h1,1", "v0,2"]);
        // After h0,0 h1,0 h0,1 h1,1 every remaining edge draws a third side:
        // level 2 falls back to any move.
        let s = position(&["h0,0", "h1,0", "h0,1", "h1,1"]);
        assert_eq!(allowed(2, &s), ["v0,0", "v0,1", "v0,2"]);
    }

    #[test]
    fn specs() {
        for name in ["level0", "level1", "level2"] {
            let p = LevelPlayer::from_spec(&GameSpec::parse(name).unwrap()).unwrap();
            assert_eq!(Player::<DotsAndBoxes>::spec(&p), name);
        }
        assert!(LevelPlayer::from_spec(&GameSpec::parse("level1:x=2").unwrap()).is_err());
        assert!(LevelPlayer::new(3).is_err());
    }
}
