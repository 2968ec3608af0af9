//! What a finished learning game is worth to a seat: its result, its
//! score margin scaled into [−1, 1], or its result weighed by how soon it
//! came.

use super::super::TrainError;
use crate::game::{result_sign, State};

/// The worth of a finished game to a seat, the target of the positions
/// that end it (see [`TdOptions::reward`](super::TdOptions::reward)).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Reward {
    /// +1 win, 0 draw, −1 loss. (Before this type, the learner took
    /// `f64::signum` of the return, which is +1 for a draw: every TD net
    /// up to then learned a draw as a win.)
    #[default]
    Result,
    /// The seat's score margin over `scale` (the largest margin the game
    /// allows, e.g. 9 on 3x3 Dots-and-Boxes), clamped to [−1, 1]. In a
    /// game whose remaining worth is added to the score so far, a margin
    /// target is that sum, which a linear net can represent term by term;
    /// a win/loss target is only its sign.
    Margin {
        /// The margin that is worth 1.
        scale: f32,
    },
    /// The result weighed by the game's length: a win after `p` plies is
    /// worth `1 − p / (2·plies)`, a loss the negative, a draw 0, so a win
    /// in the longest game (`plies`, e.g. 36 on 6x6 Connect-4) is worth
    /// one half and a win is always worth more than a draw. The target is
    /// then an exact solver's distance-aware score (Connect-4's, scaled),
    /// and the greedy net prefers the faster win and the slower loss,
    /// where a discount (γ) would shrink a far win toward a draw.
    Speed {
        /// The longest game in plies.
        plies: f32,
    },
}

impl Reward {
    /// Reads `result`, `margin:S` (S > 0: the margin worth 1) or
    /// `speed:N` (N > 0: the longest game in plies).
    pub fn parse(text: &str) -> Result<Reward, TrainError> {
        let bad = || {
            TrainError(format!(
                "reward = \"{text}\" is not known (accepted: result, margin:S with S > 0 the margin worth 1, e.g. margin:9, speed:N with N > 0 the longest game in plies, e.g. speed:36)"
            ))
        };
        let positive = |s: &str| {
            s.trim()
                .parse::<f32>()
                .ok()
                .filter(|v| *v > 0.0 && v.is_finite())
        };
        match text.split_once(':') {
            None if text == "result" => Ok(Reward::Result),
            Some(("margin", s)) => positive(s)
                .map(|scale| Reward::Margin { scale })
                .ok_or_else(bad),
            Some(("speed", s)) => positive(s)
                .map(|plies| Reward::Speed { plies })
                .ok_or_else(bad),
            _ => Err(bad()),
        }
    }

    /// The text [`Reward::parse`] reads back.
    pub fn name(&self) -> String {
        match self {
            Reward::Result => "result".into(),
            Reward::Margin { scale } => format!("margin:{scale}"),
            Reward::Speed { plies } => format!("speed:{plies}"),
        }
    }

    /// Checks that a game whose first state is `start` keeps score, where
    /// this reward needs one.
    pub fn check<S: State>(&self, start: &S, spec: &str) -> Result<(), TrainError> {
        match self {
            Reward::Margin { .. } if start.score(0).is_none() => Err(TrainError(format!(
                "reward = margin needs a game that keeps score; {spec} does not (accepted there: result)"
            ))),
            _ => Ok(()),
        }
    }

    /// What the finished `state`, reached after `plies` plies, is worth to
    /// `seat`.
    pub fn worth<S: State>(&self, state: &S, seat: usize, plies: usize) -> f32 {
        match self {
            Reward::Result => result_sign(state.returns(seat)),
            Reward::Speed { plies: longest } => {
                let soon = (1.0 - plies as f32 / (2.0 * longest)).clamp(0.5, 1.0);
                result_sign(state.returns(seat)) * soon
            }
            Reward::Margin { scale } => match state.score(seat) {
                Some(margin) => (margin as f32 / scale).clamp(-1.0, 1.0),
                None => result_sign(state.returns(seat)),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::dots_and_boxes::DotsAndBoxes;
    use crate::games::tictactoe::TicTacToe;

    #[test]
    fn parses_and_names_round_trip() {
        assert_eq!(Reward::parse("result").unwrap(), Reward::Result);
        let m = Reward::parse("margin:9").unwrap();
        assert_eq!(m, Reward::Margin { scale: 9.0 });
        assert_eq!(Reward::parse(&m.name()).unwrap(), m);
        for bad in ["margin", "margin:0", "margin:-2", "margin:x", "score", ""] {
            let e = Reward::parse(bad).unwrap_err().0;
            assert!(e.contains("accepted"), "{bad}: {e}");
        }
    }

    #[test]
    fn margin_is_the_final_box_margin_over_the_scale() {
        // 1x1 Dots-and-Boxes: four edges, the fourth takes the only box.
        let game = DotsAndBoxes::new(1, 1).unwrap();
        let mut s = game.initial_state();
        let mut legal = crate::game::ActionList::new();
        while !s.is_terminal() {
            legal.clear();
            s.legal_actions(&mut legal);
            s.apply(legal[0]);
        }
        let winner = (0..2).find(|&p| s.returns(p) > 0.0).unwrap();
        let m = Reward::Margin { scale: 4.0 };
        // One box to none: a margin of 1, worth 1/4 to the winner.
        assert_eq!(m.worth(&s, winner, 4), 0.25);
        assert_eq!(m.worth(&s, 1 - winner, 4), -0.25);
        assert_eq!(Reward::Result.worth(&s, winner, 4), 1.0);
        // A scale below the margin clamps.
        assert_eq!(Reward::Margin { scale: 0.5 }.worth(&s, winner, 4), 1.0);
    }

    /// The Tic-Tac-Toe position after `moves`.
    fn tictactoe_after(moves: &[&str]) -> <TicTacToe as Game>::State {
        let mut s = TicTacToe.initial_state();
        for m in moves {
            s.apply(s.parse_action(m).unwrap());
        }
        s
    }

    #[test]
    fn a_draw_is_worth_nothing() {
        // A full board with no line: X a1, O b2, X c3, O b1, X b3, O a3,
        // X c1, O c2, X a2.
        let s = tictactoe_after(&["a1", "b2", "c3", "b1", "b3", "a3", "c1", "c2", "a2"]);
        assert!(s.is_terminal() && s.returns(0) == 0.0);
        for seat in 0..2 {
            assert_eq!(Reward::Result.worth(&s, seat, 9), 0.0);
            assert_eq!(Reward::Speed { plies: 9.0 }.worth(&s, seat, 9), 0.0);
        }
    }

    /// A speed reward: X wins Tic-Tac-Toe with the line a1, a2, a3 after 5
    /// plies (X a1, O b1, X a2, O b2, X a3): with the longest game 9 plies the win
    /// is worth 1 − 5/18 = 13/18 to X and −13/18 to O; a win after the
    /// longest game would be worth 1/2, and the worth never falls below it.
    #[test]
    fn a_speed_reward_weighs_the_result_by_the_plies() {
        let s = tictactoe_after(&["a1", "b1", "a2", "b2", "a3"]);
        assert!(s.is_terminal() && s.returns(0) > 0.0);
        let r = Reward::parse("speed:9").unwrap();
        assert_eq!(r, Reward::Speed { plies: 9.0 });
        assert_eq!(Reward::parse(&r.name()).unwrap(), r);
        assert!((r.worth(&s, 0, 5) - 13.0 / 18.0).abs() < 1e-6);
        assert!((r.worth(&s, 1, 5) + 13.0 / 18.0).abs() < 1e-6);
        assert_eq!(r.worth(&s, 0, 9), 0.5);
        assert_eq!(r.worth(&s, 0, 30), 0.5);
        for bad in ["speed", "speed:0", "speed:-1", "speed:x"] {
            assert!(
                Reward::parse(bad).unwrap_err().0.contains("speed:N"),
                "{bad}"
            );
        }
    }

    #[test]
    fn margin_is_refused_on_a_game_without_score() {
        let game = TicTacToe;
        let e = Reward::Margin { scale: 1.0 }
            .check(&game.initial_state(), "tictactoe")
            .unwrap_err()
            .0;
        assert!(e.contains("keeps score") && e.contains("tictactoe"), "{e}");
        assert!(Reward::Result
            .check(&game.initial_state(), "tictactoe")
            .is_ok());
    }
}
