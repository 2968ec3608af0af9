//! Same-player targets with final adaptation (GBG's FARL; the module docs
//! of [`super`]).

use super::{Chosen, Explore, TdGame, TdLearner};
use crate::game::encode::Encodable;
use crate::game::{ActionList, State, Turn};

/// A seat's position waiting for its target: the position, and whether its
/// trace restarts at it.
struct Pending<S> {
    state: S,
    restart: bool,
}

impl<G: Encodable> TdLearner<G> {
    /// [`TdLearner::learn_game`] with same-player targets (FARL).
    pub(super) fn learn_game_farl(&mut self, index: u64) -> TdGame {
        let mut game = self.start_game(index);
        self.other_trace.clear();
        let mut pending: [Option<Pending<G::State>>; 2] = [None, None];
        let (mut updates, mut error) = (0usize, 0.0f64);
        let mut legal = ActionList::new();
        while let Turn::Player(me) = game.state.turn() {
            let me = me & 1;
            if let Some(p) = pending[me].take() {
                let target = self.value(&game.state);
                error += self.learn_as(me, &p, target).abs() as f64;
                updates += 1;
            }
            let (action, chosen) = self.choose(&mut game, me, &mut legal);
            let explored = chosen == Chosen::Explored;
            pending[me] = match (explored, self.options.explore) {
                (true, Explore::Skip) => {
                    self.trace_of(me).clear();
                    None
                }
                (true, Explore::LearnReset) => Some(Pending {
                    state: game.state.clone(),
                    restart: true,
                }),
                _ => Some(Pending {
                    state: game.state.clone(),
                    restart: false,
                }),
            };
            game.state.apply(action);
            game.plies += 1;
        }
        // Final adaptation: each seat's last position learns its result.
        for (seat, p) in pending.iter().enumerate() {
            if let Some(p) = p {
                let target = self.options.reward.worth(&game.state, seat, game.plies);
                error += self.learn_as(seat, p, target).abs() as f64;
                updates += 1;
            }
        }
        self.other_trace.clear();
        game.summary(updates, error)
    }

    /// Seat `seat`'s trace: the learner's own for seat 0, the other for 1
    /// (swapped in for seat 1's updates).
    fn trace_of(&mut self, seat: usize) -> &mut std::collections::VecDeque<super::TraceEntry> {
        if seat == 0 {
            &mut self.trace
        } else {
            &mut self.other_trace
        }
    }

    /// One TD step on seat `seat`'s position `p` towards `target`, with
    /// that seat's trace (kept, sign +1, unless `p` restarts it).
    fn learn_as(&mut self, seat: usize, p: &Pending<G::State>, target: f32) -> f32 {
        if seat == 1 {
            std::mem::swap(&mut self.trace, &mut self.other_trace);
        }
        let sign = if p.restart || self.trace.is_empty() {
            0.0
        } else {
            1.0
        };
        let delta = self.update(&p.state, target, sign, false);
        if seat == 1 {
            std::mem::swap(&mut self.trace, &mut self.other_trace);
        }
        delta
    }
}
