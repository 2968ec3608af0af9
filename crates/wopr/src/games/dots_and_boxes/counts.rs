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

/// The chains and loops the position's two-sided boxes already form: boxes
/// with exactly two sides undrawn, joined through the undrawn edges they
/// share. A group whose every undrawn side leads to another of its boxes
/// is a loop (it counts from 4 boxes); any other group is a chain, long
/// from 3 boxes (the long-chain rule's count: who must open the first
/// long chain decides the endgame). Returns (long chains, loops).
pub(super) fn chains_and_loops(s: &DotsAndBoxesState) -> (usize, usize) {
    let (rows, cols) = (s.rows(), s.cols());
    let drawn = s.edges();
    let open = |b: usize| s.box_mask(b / cols, b % cols) & !drawn;
    let two_sided = |b: usize| open(b).count_ones() == 2;
    let mut seen = vec![false; rows * cols];
    let (mut long, mut loops) = (0, 0);
    let mut stack = Vec::new();
    for start in 0..rows * cols {
        if seen[start] || !two_sided(start) {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let (mut size, mut closed) = (0, true);
        while let Some(b) = stack.pop() {
            size += 1;
            for e in bits(open(b)) {
                let other = s
                    .boxes_of_edge(e)
                    .into_iter()
                    .flatten()
                    .map(|(r, c)| r * cols + c)
                    .find(|&o| o != b);
                match other {
                    Some(o) if two_sided(o) => {
                        if !seen[o] {
                            seen[o] = true;
                            stack.push(o);
                        }
                    }
                    _ => closed = false,
                }
            }
        }
        if closed && size >= 4 {
            loops += 1;
        } else if !closed && size >= 3 {
            long += 1;
        }
    }
    (long, loops)
}
