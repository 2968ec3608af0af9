//! The selection step: which child of a player's node an iteration
//! descends to, by UCB1 (`select=uct`) or by PUCT (`select=puct`, with the
//! first-play urgency of `fpu=`), proven children scored by their values.

use rand::RngExt;

use super::search::{MctsPlayer, Node, DRAW, LOSS, WIN};
use super::Fpu;
use crate::game::rng::WoprRng;
use crate::game::{Action, Game, State};

impl<G: Game> MctsPlayer<G>
where
    G::State: State<View = G::State> + PartialEq,
{
    /// The selection score of a proven child, if it is proven: a win is
    /// taken at once, a loss never while anything else is left.
    #[inline]
    fn proven_score(kid: &Node) -> Option<f64> {
        match kid.proof {
            WIN => Some(f64::MAX),
            LOSS => Some(f64::MIN),
            _ => None,
        }
    }

    /// The child of player node `at` to descend to (UCT): an untried one at
    /// random while any is left, else the best by UCB1 (lowest action among
    /// equals), proven children scored by their values.
    pub(super) fn select_uct(&mut self, at: usize, rng: &mut WoprRng) -> usize {
        let node = self.nodes[at];
        let first = node.first as usize;
        let count = node.count as usize;
        let tried = node.tried as usize;
        if tried < count {
            // Move a random untried child to the front of the untried part.
            let pick = if count - tried > 1 {
                rng.random_range(tried..count)
            } else {
                tried
            };
            self.nodes.swap(first + tried, first + pick);
            self.nodes[at].tried += 1;
            return first + tried;
        }
        let log_n = (node.visits as f64).ln();
        let c = self.config.c;
        let mut best = first;
        let mut best_score = f64::NEG_INFINITY;
        let mut best_action = Action::MAX;
        for (i, kid) in self.nodes[first..first + count].iter().enumerate() {
            let n = kid.visits as f64;
            let score = Self::proven_score(kid).unwrap_or_else(|| {
                let mean = if kid.proof == DRAW {
                    0.5
                } else {
                    kid.total / n
                };
                mean + c * (log_n / n).sqrt()
            });
            if score > best_score || (score == best_score && kid.action < best_action) {
                best = first + i;
                best_score = score;
                best_action = kid.action;
            }
        }
        best
    }

    /// The child of player node `at` to descend to (PUCT):
    /// `Q + c·P·sqrt(N)/(1 + n)`, where an unvisited child's `Q` is the
    /// net's value of it, or with a policy-value net the first-play
    /// urgency of `fpu=` (lowest action among equals).
    pub(super) fn select_puct(&mut self, at: usize) -> usize {
        let node = self.nodes[at];
        let first = node.first as usize;
        let sqrt_n = (node.visits.max(1) as f64).sqrt();
        let c = self.config.c;
        let unvisited = match self.config.fpu {
            Fpu::Even => 0.5,
            Fpu::Mean => {
                let (total, visits) = self.nodes[node.children()]
                    .iter()
                    .fold((0.0, 0u64), |(t, v), k| (t + k.total, v + k.visits as u64));
                if visits == 0 {
                    0.5
                } else {
                    total / visits as f64
                }
            }
        };
        let mut best = first;
        let mut best_score = f64::NEG_INFINITY;
        let mut best_action = Action::MAX;
        for i in node.children() {
            let kid = &self.nodes[i];
            let p = self.priors[i];
            let n = kid.visits as f64;
            let score = Self::proven_score(kid).unwrap_or_else(|| {
                let q = if kid.proof == DRAW {
                    0.5
                } else if kid.visits > 0 {
                    kid.total / n
                } else if p.value.is_nan() {
                    unvisited
                } else {
                    p.value as f64
                };
                q + c * p.prior as f64 * sqrt_n / (1.0 + n)
            });
            if score > best_score || (score == best_score && kid.action < best_action) {
                best = i;
                best_score = score;
                best_action = kid.action;
            }
        }
        best
    }
}
