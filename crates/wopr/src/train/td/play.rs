//! One learning game's course, shared by both target rules: its start
//! (stream, schedule, random openings, opponent and seat) and how each
//! move is chosen.

use rand::RngExt;

use super::{TdGame, TdLearner};
use crate::game::encode::Encodable;
use crate::game::rng::{stream, WoprRng};
use crate::game::{ActionList, State};

/// How a move of a learning game was chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Chosen {
    /// By the opponent.
    Opponent,
    /// At random (ε).
    Explored,
    /// Greedily, the move's value for its mover.
    Greedy(f32),
}

/// A learning game under way.
pub(super) struct LearningGame<S> {
    pub(super) rng: WoprRng,
    pub(super) state: S,
    pub(super) plies: usize,
    /// The opponent's index (none: self-play) and the learner's seat.
    pub(super) opponent: Option<usize>,
    pub(super) seat: Option<usize>,
}

impl<S: State> LearningGame<S> {
    /// What the game did, once over.
    pub(super) fn summary(&self, updates: usize, error: f64) -> TdGame {
        TdGame {
            plies: self.plies,
            first_return: self.state.returns(0),
            learner_return: self.seat.map(|p| self.state.returns(p)),
            updates,
            mean_abs_error: if updates > 0 {
                error / updates as f64
            } else {
                0.0
            },
        }
    }
}

impl<G: Encodable> TdLearner<G> {
    /// Game `index`'s stream, α and ε, its random opening plies played,
    /// its opponent and the learner's seat (see [`TdLearner::learn_game`]),
    /// and the trace emptied.
    pub(super) fn start_game(&mut self, index: u64) -> LearningGame<G::State> {
        let mut rng = stream(self.options.seed, &[index]);
        (self.alpha, self.epsilon) = self.options.schedule(index);
        let mut state = self.game.initial_state();
        let mut plies = 0;
        if !self.starts.is_empty() {
            let line = &self.starts[(index % self.starts.len() as u64) as usize];
            for &a in line {
                state.apply(a);
            }
            plies = line.len();
        }
        let openings = match self.options.openings_min {
            // `check` made sure that lo <= openings.
            Some(lo) => rng.random_range(lo..=self.options.openings),
            None => self.options.openings,
        };
        for _ in 0..openings {
            if state.is_terminal() {
                break;
            }
            let a = state.random_action(&mut rng);
            state.apply(a);
            plies += 1;
        }
        let k = self.opponents.len() as u64;
        let (opponent, seat) = match k {
            0 => (None, None),
            // A `None` entry: this game is self-play.
            _ if self.opponents[(index % k) as usize].is_none() => (None, None),
            _ => (Some((index % k) as usize), Some(((index / k) % 2) as usize)),
        };
        if let Some(Some(player)) = opponent.map(|o| &mut self.opponents[o]) {
            player.new_game();
        }
        self.clear_trace();
        LearningGame {
            rng,
            state,
            plies,
            opponent,
            seat,
        }
    }

    /// The move `me` makes in `game`: the opponent's, a random one with
    /// probability ε, or the greedy one.
    pub(super) fn choose(
        &mut self,
        game: &mut LearningGame<G::State>,
        me: usize,
        legal: &mut ActionList,
    ) -> (crate::game::Action, Chosen) {
        legal.clear();
        game.state.legal_actions(legal);
        let rng = &mut game.rng;
        match game.opponent {
            Some(o) if game.seat != Some(me) => {
                let player = self.opponents[o].as_mut().expect("a fixed opponent");
                let a = player.choose(&game.state.view(me), legal, rng);
                (a, Chosen::Opponent)
            }
            _ if rng.random_bool(self.epsilon) => {
                (legal[rng.random_range(0..legal.len())], Chosen::Explored)
            }
            _ => {
                let (a, v) = self.best_move(&game.state, me, game.plies + 1, legal, rng);
                (a, Chosen::Greedy(v))
            }
        }
    }
}
