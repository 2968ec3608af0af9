//! The MCTS-Solver's proofs: a child whose move ends the game is proven
//! as the node is expanded, and with `exact=E` every child within the
//! game's endgame solver's reach (E empty squares) is solved and proven
//! there too; a new proof is backed up the path by each node's mover.

use super::search::{negate, rank, MctsPlayer, DRAW, LOSS, NO_PLAYER, UNPROVEN, WIN};
use crate::game::solver::Solver;
use crate::game::{ActionList, Game, SpecError, State, Turn};

impl<G: Game> MctsPlayer<G>
where
    G::State: State<View = G::State> + PartialEq,
{
    /// Proves children with `solver` as nodes are expanded: each child
    /// position it reaches once widened to `empties` empty squares
    /// (`exact=E`). An error where the solver counts no empty squares
    /// (it would be asked to solve every child).
    pub fn with_exact(
        mut self,
        mut solver: Box<dyn Solver<G>>,
        empties: u32,
    ) -> Result<Self, SpecError> {
        if !solver.widen(empties) {
            return Err(SpecError(
                "'mcts': exact=E needs an endgame solver that counts empty squares (reversi)"
                    .into(),
            ));
        }
        self.exact = Some(solver);
        Ok(self)
    }

    /// Backs a new proof at the end of `path` up the tree: a node is a
    /// proven win for the seat to move at it when one child is, and takes
    /// its best child's value when all are proven. Values are turned to the
    /// node's own mover by seat, never by alternation; chance nodes (and
    /// positions reached from them, whose mover is not stored) stay
    /// unproven.
    pub(super) fn propagate(&mut self) {
        let mut k = self.path.len() - 1;
        while k >= 1 {
            let child = self.nodes[self.path[k] as usize];
            let parent_at = self.path[k - 1] as usize;
            let mover = child.player;
            if mover == NO_PLAYER {
                return;
            }
            let value = if child.proof == WIN {
                WIN
            } else {
                let parent = self.nodes[parent_at];
                let mut best = LOSS;
                for kid in &self.nodes[parent.children()] {
                    if kid.proof == UNPROVEN {
                        if parent_at == 0 {
                            self.root_dirty = true;
                        }
                        return;
                    }
                    if rank(kid.proof) > rank(best) {
                        best = kid.proof;
                    }
                }
                best
            };
            if parent_at == 0 {
                self.root_dirty = true;
                return;
            }
            let owner = self.nodes[parent_at].player;
            if owner == NO_PLAYER {
                return;
            }
            self.nodes[parent_at].proof = if owner == mover { value } else { negate(value) };
            k -= 1;
        }
    }

    /// The solver at expansion: each child whose move ends the game is
    /// proven at once (a win, loss or draw for `player`, who moves at the
    /// node), so a win in one is taken and a losing move avoided without
    /// a rollout to find them; where a child is a proven win, or every
    /// child is proven, the node's own value follows and is backed up the
    /// path (which ends at the node).
    pub(super) fn prove_children(
        &mut self,
        first: usize,
        state: &G::State,
        legal: &ActionList,
        player: u8,
    ) {
        let mut decided = None;
        let mut all = true;
        for (k, &a) in legal.iter().enumerate() {
            let mut t = state.clone();
            t.apply(a);
            let proof = if t.turn() == Turn::Terminal {
                let r = t.returns(player as usize);
                if r > 0.0 {
                    WIN
                } else if r < 0.0 {
                    LOSS
                } else {
                    DRAW
                }
            } else {
                match self.solve_exactly(&t, player) {
                    Some(proof) => proof,
                    None => {
                        all = false;
                        continue;
                    }
                }
            };
            self.nodes[first + k].proof = proof;
            if proof == WIN && decided.is_none() {
                decided = Some(first + k);
            }
        }
        if let Some(kid) = decided.or(all.then_some(first)) {
            self.path.push(kid as u32);
            self.propagate();
            self.path.pop();
        }
    }

    /// The proven value, for `player`, of the move into `t` (not finished),
    /// where the endgame solver of `exact=E` reaches `t`.
    fn solve_exactly(&mut self, t: &G::State, player: u8) -> Option<u8> {
        let solver = self.exact.as_mut()?;
        let Turn::Player(mover) = t.turn() else {
            return None;
        };
        if !solver.reaches(t) {
            return None;
        }
        let value = solver.solve(t).ok()?.value;
        let proof = match value {
            v if v > 0 => WIN,
            v if v < 0 => LOSS,
            _ => DRAW,
        };
        Some(if mover as u8 == player {
            proof
        } else {
            negate(proof)
        })
    }
}
