//! Tree reuse: the subtree of the position reached is kept from one move
//! to the next, moved to the front of a compact arena (see [`super`]'s
//! docs, "Tree reuse").

use super::search::{MctsPlayer, MAX_REUSE_DEPTH};
use crate::game::{Game, State};

impl<G: Game> MctsPlayer<G>
where
    G::State: State<View = G::State> + PartialEq,
{
    /// Keeps the subtree of the last tree whose position is `view` (found
    /// within `MAX_REUSE_DEPTH` (4) plies of the last root by replaying the
    /// stored actions and comparing positions; the shallowest match, the
    /// first in the arena's order among equals), moved to a compact arena
    /// with it as the root. `false` (the tree is cleared) when none is.
    pub fn reroot(&mut self, view: &G::State) -> bool {
        let Some(old) = self.root_state.take() else {
            self.clear();
            return false;
        };
        if self.nodes.is_empty() {
            return false;
        }
        let Some(at) = (0..=MAX_REUSE_DEPTH).find_map(|d| self.find(0, &old, view, d)) else {
            self.clear();
            return false;
        };
        let puct = !self.priors.is_empty();
        self.spare.clear();
        self.spare_priors.clear();
        self.spare.push(self.nodes[at]);
        if puct {
            self.spare_priors.push(self.priors[at]);
        }
        // Breadth first: each copied node's children go to the end as one
        // block, so blocks stay contiguous.
        let mut i = 0;
        while i < self.spare.len() {
            let n = self.spare[i];
            if n.expanded() {
                let first = self.spare.len();
                self.spare.extend_from_slice(&self.nodes[n.children()]);
                if puct {
                    self.spare_priors
                        .extend_from_slice(&self.priors[n.children()]);
                }
                self.spare[i].first = first as u32;
            }
            i += 1;
        }
        std::mem::swap(&mut self.nodes, &mut self.spare);
        std::mem::swap(&mut self.priors, &mut self.spare_priors);
        self.root_state = Some(view.clone());
        true
    }

    /// The node exactly `depth` plies below `at` (position `state`) whose
    /// position is `view`, depth first in the arena's order.
    fn find(&self, at: usize, state: &G::State, view: &G::State, depth: usize) -> Option<usize> {
        if depth == 0 {
            return (state == view).then_some(at);
        }
        let node = self.nodes[at];
        if !node.expanded() {
            return None;
        }
        node.children().find_map(|i| {
            let mut next = state.clone();
            next.apply(self.nodes[i].action);
            self.find(i, &next, view, depth - 1)
        })
    }
}
