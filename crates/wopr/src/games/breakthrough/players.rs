//! Breakthrough's players: its own `heuristic`, then the board players
//! every board game gets (`alphabeta` and `mcts` over the game's
//! heuristic, `net:`); there is no exact solver, so no `perfect`.
//!
//! **`heuristic`** looks one move ahead and one reply beyond: it plays a
//! winning move where it has one; otherwise it keeps the moves after
//! which the opponent has no winning reply (all its moves where every one
//! allows one) and plays the one whose position is worth most to it by
//! the game's evaluation (the module docs of [`super`]: material and
//! advancement, the mover's bonus for a pawn one row from its goal),
//! choosing among equal values uniformly at random from the game's
//! stream. It takes no keys.

use rand::RngExt;

use super::{Breakthrough, BreakthroughState};
use crate::game::rng::WoprRng;
use crate::game::{Action, ActionList, GameSpec, Player, Searchable, SpecError, State};
use crate::players::{board_build, board_parse, OwnSpec, PlayerSpec, Roster};

/// The greedy `heuristic` player (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeuristicPlayer;

impl HeuristicPlayer {
    /// Reads the spec `heuristic` (no keys).
    pub fn from_spec(spec: &GameSpec) -> Result<HeuristicPlayer, SpecError> {
        spec.check_keys(&[])?;
        Ok(HeuristicPlayer)
    }

    /// The moves of `legal` this player chooses among in `state`, each with
    /// its value for the mover: the winning moves if any (valued 1); else
    /// the moves that leave the opponent no winning reply, or all of
    /// `legal` if every move leaves one, valued by the evaluation after
    /// them.
    pub fn candidates(state: &BreakthroughState, legal: &[Action]) -> Vec<(Action, i32)> {
        let mut wins = Vec::new();
        let mut safe = Vec::new();
        let mut all = Vec::new();
        for &a in legal {
            let mut child = *state;
            child.apply(a);
            if child.is_terminal() {
                wins.push((a, 1));
                continue;
            }
            let value = -child.evaluate();
            all.push((a, value));
            if !wins_at_once(&child) {
                safe.push((a, value));
            }
        }
        if !wins.is_empty() {
            wins
        } else if !safe.is_empty() {
            safe
        } else {
            all
        }
    }
}

/// Whether the side to move in `state` has a move that wins at once.
fn wins_at_once(state: &BreakthroughState) -> bool {
    let mut replies = ActionList::new();
    state.legal_actions(&mut replies);
    replies.iter().any(|&r| {
        let mut s = *state;
        s.apply(r);
        s.is_terminal()
    })
}

impl Player<Breakthrough> for HeuristicPlayer {
    fn spec(&self) -> String {
        "heuristic".to_string()
    }

    fn choose(&mut self, view: &BreakthroughState, legal: &[Action], rng: &mut WoprRng) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        let candidates = Self::candidates(view, legal);
        let top = candidates.iter().map(|&(_, v)| v).max().unwrap_or(0);
        let best: Vec<Action> = candidates
            .iter()
            .filter(|&&(_, v)| v == top)
            .map(|&(a, _)| a)
            .collect();
        best[rng.random_range(0..best.len())]
    }
}

impl Roster for Breakthrough {
    fn parse_bot(&self, spec: &GameSpec) -> Result<Option<PlayerSpec>, SpecError> {
        match spec.name.as_str() {
            "heuristic" => {
                HeuristicPlayer::from_spec(spec)?;
                Ok(Some(PlayerSpec::Own(OwnSpec::new(spec, Some(2), false)?)))
            }
            _ => board_parse(self, spec),
        }
    }
    fn build_bot(&self, spec: &PlayerSpec) -> Result<Box<dyn Player<Self>>, SpecError> {
        match spec {
            PlayerSpec::Own(own) => Ok(Box::new(HeuristicPlayer::from_spec(&own.spec)?)),
            _ => board_build(self, spec),
        }
    }
    fn bot_names(&self) -> &'static [&'static str] {
        &["heuristic"]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::parse_player;

    fn legal(s: &BreakthroughState) -> ActionList {
        let mut l = ActionList::new();
        s.legal_actions(&mut l);
        l
    }

    /// It takes a win when it has one, and captures a pawn that would win
    /// next move when it can (3 columns, 4 rows: ranks 4 to 1).
    #[test]
    fn wins_and_defends() {
        let game = Breakthrough::new(3, 4).unwrap();
        // Black's a2 pawn steps onto b1 (empty; a1 is White's): the only
        // winning move, and every candidate.
        let s = game.state_from_moves("a4a3 b1b2 a3a2 c1c2").unwrap();
        let c = HeuristicPlayer::candidates(&s, &legal(&s));
        let names: Vec<String> = c.iter().map(|&(a, _)| s.action_to_string(a)).collect();
        assert_eq!(names, ["a2b1"]);
        // White to move, Black's a2 pawn takes b1 next unless White's b1
        // pawn takes it first: that capture is the one safe move.
        let s = game.state_from_moves("a4a3 c1c2 a3a2").unwrap();
        let c = HeuristicPlayer::candidates(&s, &legal(&s));
        let names: Vec<String> = c.iter().map(|&(a, _)| s.action_to_string(a)).collect();
        assert_eq!(names, ["b1a2*"]);
        let mut rng = crate::game::rng::stream(1, &[]);
        assert_eq!(
            HeuristicPlayer.choose(&s, &legal(&s), &mut rng),
            s.parse_action("b1a2").unwrap()
        );
    }

    #[test]
    fn specs() {
        let game = Breakthrough::default();
        assert_eq!(
            parse_player(&game, "heuristic").unwrap().spec(),
            "heuristic"
        );
        assert!(parse_player(&game, "heuristic:depth=2").is_err());
        assert!(parse_player(&game, "perfect").is_err());
        assert!(parse_player(&game, "alphabeta:depth=2").is_ok());
        assert!(parse_player(&game, "mcts").is_ok());
    }
}
