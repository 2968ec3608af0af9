//! Two counts the `chains` and `blocks` encodings read: the boxes the
//! player to move can take in a row, and the safe edges left.

use super::DotsAndBoxesState;
use crate::game::{Action, State};
use crate::games::bitboard::bits;

/// How many boxes the player to move takes by completing boxes for as long
/// as one can be completed (every completion keeps the turn).
pub(super) fn greedy_captures(s: &DotsAndBoxesState) -> usize {
    let mut s = *s;
    let mut taken = 0;
    loop {
        let free = !s.edges() & ((1u64 << s.num_edges()) - 1);
        let Some(e) = bits(free).find(|&e| s.completed_by(e) > 0) else {
            return taken;
        };
        taken += s.completed_by(e) as usize;
        s.apply(e as Action);
    }
}

/// Undrawn edges that complete no box and draw no box's third side.
pub(super) fn safe_edges(s: &DotsAndBoxesState) -> usize {
    let free = !s.edges() & ((1u64 << s.num_edges()) - 1);
    bits(free)
        .filter(|&e| s.completed_by(e) == 0 && !s.makes_third_side(e))
        .count()
}
