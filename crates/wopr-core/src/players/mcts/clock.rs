//! The game clock (`clock=T`): a move's share of what is left of the
//! player's time for the game.

use std::time::Duration;

use super::search::MctsPlayer;
use crate::game::{Game, State};

/// Moves a share is never spread over fewer than (the last moves of a
/// game keep some time in hand).
const MIN_MOVES_LEFT: u32 = 2;

impl<G: Game> MctsPlayer<G>
where
    G::State: State<View = G::State> + PartialEq,
{
    /// This move's time under the game clock: what is left over the
    /// player's moves left (half the plies the position says it has left,
    /// or else the game's longest length less the plies so far), at most
    /// `ms=`; `None` without a clock.
    pub(super) fn clock_share(&self, state: &G::State) -> Option<Duration> {
        let left = self.clock_left?;
        let plies = state.plies_left().unwrap_or_else(|| {
            let played = 2 * self.moves_made as usize;
            self.max_len.saturating_sub(played) as u32
        });
        let moves = plies.div_ceil(2).max(MIN_MOVES_LEFT);
        let share = left / moves;
        Some(self.config.time.map_or(share, |cap| share.min(cap)))
    }

    /// Takes `used` off the game clock, and counts the move.
    pub(super) fn spend(&mut self, used: Duration) {
        self.moves_made += 1;
        if let Some(left) = &mut self.clock_left {
            *left = left.saturating_sub(used);
        }
    }

    /// What is left of the game clock (`None` without one).
    pub fn clock_left(&self) -> Option<Duration> {
        self.clock_left
    }
}
