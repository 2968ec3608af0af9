//! The search itself: the arena of nodes, one iteration (selection,
//! expansion, evaluation, backup), the solver's proofs and the choice of
//! the move (the re-rooting of a kept tree is in `reuse.rs`). The module docs of
//! [`super`] describe the algorithm.

use std::time::{Duration, Instant};

use rand::RngExt;

use super::{Leaf, MctsConfig, Select};
use crate::game::player::BestSoFar;
use crate::game::rng::WoprRng;
use crate::game::solver::Solver;
use crate::game::{Action, ActionList, Game, SpecError, State, Turn};
use crate::nn::policy_value::softmax;

/// The seat stored in a node reached by a chance outcome (or a fresh root).
pub(super) const NO_PLAYER: u8 = u8::MAX;

/// How far below the last root a kept tree is searched for the new
/// position (plies, chance outcomes included).
pub(super) const MAX_REUSE_DEPTH: usize = 4;

/// A node's proven value, for the seat that moved into it (`player`).
pub(super) const UNPROVEN: u8 = 0;
/// Proven: the move into the node wins for its mover.
pub(super) const WIN: u8 = 1;
/// Proven: the move into the node loses for its mover.
pub(super) const LOSS: u8 = 2;
/// Proven: the move into the node draws.
pub(super) const DRAW: u8 = 3;

/// A proven value seen from the other seat.
pub(super) fn negate(proof: u8) -> u8 {
    match proof {
        WIN => LOSS,
        LOSS => WIN,
        p => p,
    }
}

/// Orders proven values for the seat they belong to: loss < draw < win.
pub(super) fn rank(proof: u8) -> u8 {
    match proof {
        LOSS => 0,
        DRAW => 1,
        WIN => 2,
        _ => 0,
    }
}

/// The exact reward (0..=1) of a proven value.
fn proven_reward(proof: u8) -> f64 {
    match proof {
        WIN => 1.0,
        DRAW => 0.5,
        _ => 0.0,
    }
}

// A node stays 24 bytes (the arena's memory per iteration).
const _: () = assert!(std::mem::size_of::<Node>() == 24);

/// One node of the tree: 24 bytes. Read from outside through
/// [`MctsPlayer::tree`] and the accessors below.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// Sum of the rewards of `player` over the visits.
    pub(super) total: f64,
    /// Iterations through this node.
    pub(super) visits: u32,
    /// Index of the first child in the arena; 0 until the node is expanded
    /// (the root, at 0, is nobody's child).
    pub(super) first: u32,
    /// Number of children.
    pub(super) count: u16,
    /// Children tried so far (UCT): they are the first `tried` of the
    /// block; the untried ones follow (a node's children are reordered as
    /// they are tried, which is safe because untried children have no
    /// subtree).
    pub(super) tried: u16,
    /// The action from the parent into this node.
    pub(super) action: Action,
    /// The seat that chose `action`, or [`NO_PLAYER`].
    pub(super) player: u8,
    /// [`UNPROVEN`], or the proven value for `player`.
    pub(super) proof: u8,
}

impl Node {
    fn new(action: Action, player: u8) -> Node {
        Node {
            total: 0.0,
            visits: 0,
            first: 0,
            count: 0,
            tried: 0,
            action,
            player,
            proof: UNPROVEN,
        }
    }

    pub(super) fn expanded(&self) -> bool {
        self.first != 0
    }

    /// Where the node's children lie in the tree (empty until expanded).
    pub fn children(&self) -> std::ops::Range<usize> {
        self.first as usize..self.first as usize + self.count as usize
    }
}

/// What PUCT keeps beside each node (same index): the prior of the move
/// into it and the net's value of it for its mover, as a reward (NaN where
/// none: below a chance node).
#[derive(Clone, Copy, Debug)]
pub(super) struct Prior {
    pub(super) prior: f32,
    pub(super) value: f32,
}

/// A Monte-Carlo tree search player (UCT or PUCT, with the MCTS-Solver's
/// proofs and a tree kept between moves); see the module docs of
/// [`super`].
pub struct MctsPlayer<G: Game> {
    pub(super) config: MctsConfig,
    pub(super) leaf: Leaf<G::State>,
    /// The tree: the root at 0, each node's children contiguous.
    pub(super) nodes: Vec<Node>,
    /// PUCT only: priors and values beside `nodes`.
    pub(super) priors: Vec<Prior>,
    /// The old tree while a kept subtree is copied out (reused buffers).
    pub(super) spare: Vec<Node>,
    pub(super) spare_priors: Vec<Prior>,
    /// The position at the root of `nodes` (`None`: no tree to keep).
    pub(super) root_state: Option<G::State>,
    /// Arena indices from the root to the current leaf.
    pub(super) path: Vec<u32>,
    /// Chance outcomes (reused buffer).
    outcomes: Vec<(Action, f64)>,
    /// A root child was proven in the last iteration: look whether the
    /// move is decided.
    pub(super) root_dirty: bool,
    /// Where the move the search would play now is posted, every
    /// [`POST_EVERY`] iterations (see `Player::share_best`).
    pub(super) best_so_far: Option<BestSoFar>,
    /// `exact=E`: the game's endgame solver, which proves the children of
    /// every node it reaches (see `proof.rs`).
    pub(super) exact: Option<Box<dyn Solver<G>>>,
    /// What is left of the game clock.
    pub(super) clock_left: Option<Duration>,
    /// Moves chosen this game.
    pub(super) moves_made: u32,
    /// A policy's priors of one position (reused buffer).
    pub(super) prior_buf: Vec<f32>,
    /// The game's longest length in plies.
    pub(super) max_len: usize,
}

/// Iterations between two posts of the best move so far.
const POST_EVERY: u32 = 256;

impl<G: Game> MctsPlayer<G>
where
    G::State: State<View = G::State> + PartialEq,
{
    /// A player for `game` (which must have two players) with `config` and
    /// leaf evaluation `leaf`.
    pub fn new(game: &G, config: MctsConfig, leaf: Leaf<G::State>) -> Result<Self, SpecError> {
        config.check()?;
        if game.num_players() != 2 {
            return Err(SpecError(format!(
                "mcts plays two-player games; {} has {} players",
                game.spec(),
                game.num_players()
            )));
        }
        if config.select == Select::Puct && matches!(leaf, Leaf::Random) {
            return Err(SpecError(
                "'mcts': select=puct needs rollout=net:FILE (its priors are the net's values)"
                    .into(),
            ));
        }
        Ok(MctsPlayer {
            config,
            leaf,
            nodes: Vec::new(),
            priors: Vec::new(),
            spare: Vec::new(),
            spare_priors: Vec::new(),
            root_state: None,
            path: Vec::new(),
            outcomes: Vec::new(),
            root_dirty: false,
            best_so_far: None,
            exact: None,
            clock_left: config.clock,
            moves_made: 0,
            prior_buf: Vec::new(),
            max_len: game.max_game_length(),
        })
    }

    /// Runs a search from a fresh tree rooted at `state` (a position with
    /// one player to move) and returns the action chosen: a proven win if
    /// there is one; else the most visited child not proven lost (more
    /// total reward, then the lowest action, among equals). All randomness
    /// comes from `rng`.
    pub fn search(&mut self, state: &G::State, rng: &mut WoprRng) -> Action {
        self.clear();
        self.run(state, rng, self.config.time)
    }

    /// Forgets the tree.
    pub(super) fn clear(&mut self) {
        self.nodes.clear();
        self.priors.clear();
        self.root_state = None;
    }

    /// Searches from `state`, keeping whatever tree is rooted there, for
    /// at most `budget` of wall-clock time (and `sims` iterations).
    pub(super) fn run(
        &mut self,
        state: &G::State,
        rng: &mut WoprRng,
        budget: Option<Duration>,
    ) -> Action {
        let mover = match state.turn() {
            Turn::Player(p) => p as u8,
            _ => panic!("mcts searches positions with one player to move"),
        };
        if self.nodes.len() > (u32::MAX / 2) as usize {
            // A kept tree that big leaves too little room to grow: start
            // afresh.
            self.clear();
        }
        if self.nodes.is_empty() {
            self.nodes.push(Node::new(0, NO_PLAYER));
            if self.config.select == Select::Puct {
                self.priors.push(Prior {
                    prior: 0.0,
                    value: f32::NAN,
                });
            }
        }
        self.root_state = Some(state.clone());
        // The path of an expansion's proofs (see `prove_children`) starts
        // at the root, whatever the last search left in it.
        self.path.clear();
        self.path.push(0);
        if !self.nodes[0].expanded() && !self.expand(0, state, Turn::Player(mover as usize)) {
            panic!("mcts: the arena cannot hold the root's children");
        }
        let deadline = budget.map(|t| Instant::now() + t);
        let mut decided = self.root_decided();
        for i in 0..self.config.sims {
            // The clock is read every 64 iterations; the first always runs.
            if decided || (i & 63 == 63 && deadline.is_some_and(|d| Instant::now() >= d)) {
                break;
            }
            if !self.iterate(state, rng) {
                break;
            }
            if self.root_dirty {
                self.root_dirty = false;
                decided = self.root_decided();
            }
            if i % POST_EVERY == 0 {
                if let Some(cell) = &self.best_so_far {
                    cell.set(self.best_child());
                }
            }
        }
        let best = self.best_child();
        if let Some(cell) = &self.best_so_far {
            cell.set(best);
        }
        best
    }

    /// Whether the move is decided without more search: a root child is a
    /// proven win, every child is proven, or all but one are proven losses.
    fn root_decided(&self) -> bool {
        let root = self.nodes[0];
        let kids = &self.nodes[root.children()];
        if kids.iter().any(|k| k.proof == WIN) {
            return true;
        }
        let open = kids.iter().filter(|k| k.proof != LOSS).count();
        open <= 1 && kids.len() > 1 || kids.iter().all(|k| k.proof != UNPROVEN)
    }

    /// The root action to play (see [`MctsPlayer::search`]).
    fn best_child(&self) -> Action {
        let root = self.nodes[0];
        let kids = &self.nodes[root.children()];
        let all_proven = kids.iter().all(|k| k.proof != UNPROVEN);
        // Keys compared in order; the lowest action wins among equals.
        let key = |k: &Node| {
            let proven = match k.proof {
                WIN => 2,
                LOSS => 0,
                _ => 1,
            };
            let exact = if all_proven { rank(k.proof) } else { 0 };
            (proven, exact, k.visits, k.total)
        };
        kids.iter()
            .max_by(|a, b| {
                let (ka, kb) = (key(a), key(b));
                (ka.0, ka.1, ka.2)
                    .cmp(&(kb.0, kb.1, kb.2))
                    .then(ka.3.total_cmp(&kb.3))
                    .then(b.action.cmp(&a.action))
            })
            .expect("the root has children")
            .action
    }

    /// One iteration: selection, expansion, evaluation, backup (and the
    /// solver's proofs). `false` when the arena is full (the search then
    /// stops early).
    fn iterate(&mut self, root: &G::State, rng: &mut WoprRng) -> bool {
        let mut state = root.clone();
        self.path.clear();
        self.path.push(0);
        let mut at = 0usize;
        loop {
            let turn = state.turn();
            if turn == Turn::Terminal
                || (at != 0 && (self.nodes[at].visits == 0 || self.nodes[at].proof != UNPROVEN))
            {
                break;
            }
            if !self.nodes[at].expanded() {
                if !self.expand(at, &state, turn) {
                    return false;
                }
                if at != 0 && self.nodes[at].proof != UNPROVEN {
                    // Proven by its children's ends: it is the leaf.
                    break;
                }
            }
            let child = match turn {
                Turn::Player(_) => match self.config.select {
                    Select::Uct => self.select_uct(at, rng),
                    Select::Puct => self.select_puct(at),
                },
                Turn::Chance => self.sample_child(at, &state, rng),
                Turn::Simultaneous => panic!("mcts does not play simultaneous moves"),
                Turn::Terminal => unreachable!(),
            };
            state.apply(self.nodes[child].action);
            self.path.push(child as u32);
            at = child;
        }
        let leaf = self.nodes[at];
        let mut newly_proven = false;
        let rewards = if leaf.proof != UNPROVEN {
            let r = proven_reward(leaf.proof);
            let mut out = [1.0 - r; 2];
            out[leaf.player as usize] = r;
            out
        } else if state.turn() == Turn::Terminal {
            if self.config.solve && leaf.player != NO_PLAYER && at != 0 {
                let r = state.returns(leaf.player as usize);
                self.nodes[at].proof = if r > 0.0 {
                    WIN
                } else if r < 0.0 {
                    LOSS
                } else {
                    DRAW
                };
                newly_proven = true;
            }
            [reward(state.returns(0)), reward(state.returns(1))]
        } else {
            self.evaluate(at, &mut state, rng)
        };
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            if let Some(r) = rewards.get(n.player as usize) {
                n.total += r;
            }
        }
        if newly_proven {
            self.propagate();
        }
        true
    }

    /// Creates the children of node `at` (position `state`, turn `turn`);
    /// for PUCT, values each child with the net and sets the priors.
    fn expand(&mut self, at: usize, state: &G::State, turn: Turn) -> bool {
        let mut legal = ActionList::new();
        state.legal_actions(&mut legal);
        let first = self.nodes.len();
        if first + legal.len() > u32::MAX as usize || legal.is_empty() {
            return false;
        }
        let player = match turn {
            Turn::Player(p) => p as u8,
            _ => NO_PLAYER,
        };
        self.nodes
            .extend(legal.iter().map(|&a| Node::new(a, player)));
        let node = &mut self.nodes[at];
        node.first = first as u32;
        node.count = legal.len() as u16;
        if self.config.select == Select::Puct {
            if matches!(self.leaf, Leaf::PolicyValue { .. }) {
                self.policy_children(at, state, &legal, player);
            } else {
                self.value_children(state, &legal, player);
            }
        }
        if self.config.solve && player != NO_PLAYER {
            self.prove_children(first, state, &legal, player);
        }
        true
    }

    /// PUCT: each child's value for `player` (the net's, or the returns of
    /// a finished game) and the priors, a softmax of those values on the
    /// [−1, 1] scale.
    fn value_children(&mut self, state: &G::State, legal: &ActionList, player: u8) {
        let Leaf::Value { value, .. } = &mut self.leaf else {
            unreachable!("PUCT is built with a value net")
        };
        let start = self.priors.len();
        for &a in legal {
            let v = if player == NO_PLAYER {
                f32::NAN
            } else {
                let mut t = state.clone();
                t.apply(a);
                match t.turn() {
                    Turn::Terminal => reward(t.returns(player as usize)) as f32,
                    Turn::Player(p) => {
                        let r = reward(value(&t) as f64) as f32;
                        if p as u8 == player {
                            r
                        } else {
                            1.0 - r
                        }
                    }
                    _ => f32::NAN,
                }
            };
            self.priors.push(Prior {
                prior: 0.0,
                value: v,
            });
        }
        // The values on the [−1, 1] scale are the logits (0 below chance).
        let block = &mut self.priors[start..];
        let mut logits = std::mem::take(&mut self.prior_buf);
        logits.clear();
        logits.extend(block.iter().map(|p| {
            if p.value.is_nan() {
                0.0
            } else {
                2.0 * p.value - 1.0
            }
        }));
        softmax(&mut logits);
        for (p, &prior) in block.iter_mut().zip(&logits) {
            p.prior = prior;
        }
        self.prior_buf = logits;
    }

    /// PUCT over a policy-value net: the policy's priors for the children
    /// of node `at` (their values unknown until reached), and the net's
    /// value of `at` itself kept beside it as a reward for the seat that
    /// moved into it. Below chance the priors are uniform.
    fn policy_children(&mut self, at: usize, state: &G::State, legal: &ActionList, player: u8) {
        let Leaf::PolicyValue { eval, .. } = &mut self.leaf else {
            unreachable!("called for a policy-value leaf")
        };
        let mut priors = std::mem::take(&mut self.prior_buf);
        if player == NO_PLAYER {
            priors.clear();
            priors.resize(legal.len(), 1.0 / legal.len() as f32);
        } else {
            let v = eval(state, legal, &mut priors);
            let r = reward(v as f64) as f32;
            let mover = self.nodes[at].player;
            if mover != NO_PLAYER {
                self.priors[at].value = if mover == player { r } else { 1.0 - r };
            }
        }
        self.priors.extend(priors.iter().map(|&prior| Prior {
            prior,
            value: f32::NAN,
        }));
        self.prior_buf = priors;
    }

    /// The child of chance node `at` for an outcome sampled by probability.
    fn sample_child(&mut self, at: usize, state: &G::State, rng: &mut WoprRng) -> usize {
        let outcome = sample_outcome(state, rng, &mut self.outcomes);
        let node = self.nodes[at];
        let first = node.first as usize;
        first
            + self.nodes[node.children()]
                .iter()
                .position(|k| k.action == outcome)
                .expect("a chance outcome is a child")
    }

    /// The rewards (0..=1) of both seats for leaf `at` at `state` (not
    /// finished), which may be changed (a rollout plays on it).
    fn evaluate(&mut self, at: usize, state: &mut G::State, rng: &mut WoprRng) -> [f64; 2] {
        // PUCT over a policy-value net values a position as it makes its
        // children, here, where it is first reached.
        if self.config.select == Select::Puct
            && matches!(self.leaf, Leaf::PolicyValue { .. })
            && !self.nodes[at].expanded()
        {
            if let turn @ Turn::Player(_) = state.turn() {
                self.expand(at, state, turn);
            }
        }
        // PUCT valued this position when its parent was expanded.
        if let (Some(p), Turn::Player(_)) = (self.priors.get(at), state.turn()) {
            let player = self.nodes[at].player;
            if !p.value.is_nan() && player != NO_PLAYER {
                let r = p.value as f64;
                let mut out = [1.0 - r; 2];
                out[player as usize] = r;
                return out;
            }
        }
        match &mut self.leaf {
            Leaf::Random => {
                loop {
                    match state.turn() {
                        Turn::Player(_) => {
                            // The same draw as picking from the legal list.
                            state.apply(state.random_action(rng));
                        }
                        Turn::Chance => {
                            state.apply(sample_outcome(state, rng, &mut self.outcomes));
                        }
                        Turn::Terminal => break,
                        Turn::Simultaneous => panic!("mcts does not play simultaneous moves"),
                    }
                }
                [reward(state.returns(0)), reward(state.returns(1))]
            }
            Leaf::PolicyValue { eval, .. } => {
                while state.turn() == Turn::Chance {
                    state.apply(sample_outcome(state, rng, &mut self.outcomes));
                }
                match state.turn() {
                    Turn::Player(p) => {
                        let mut legal = ActionList::new();
                        state.legal_actions(&mut legal);
                        let r = reward(eval(state, &legal, &mut self.prior_buf) as f64);
                        let mut out = [1.0 - r; 2];
                        out[p] = r;
                        out
                    }
                    _ => [reward(state.returns(0)), reward(state.returns(1))],
                }
            }
            Leaf::Value { value, .. } => {
                while state.turn() == Turn::Chance {
                    state.apply(sample_outcome(state, rng, &mut self.outcomes));
                }
                match state.turn() {
                    Turn::Player(p) => {
                        let r = reward(value(state) as f64);
                        let mut out = [1.0 - r; 2];
                        out[p] = r;
                        out
                    }
                    _ => [reward(state.returns(0)), reward(state.returns(1))],
                }
            }
        }
    }
}

/// A return or value in [−1, 1] as a reward in [0, 1].
#[inline]
pub(super) fn reward(r: f64) -> f64 {
    ((r + 1.0) * 0.5).clamp(0.0, 1.0)
}

/// Samples a chance outcome of `state` by its probability (`buf` is reused).
fn sample_outcome<S: State>(state: &S, rng: &mut WoprRng, buf: &mut Vec<(Action, f64)>) -> Action {
    buf.clear();
    state.chance_outcomes(buf);
    let mut x: f64 = rng.random();
    for &(a, p) in buf.iter() {
        if x < p {
            return a;
        }
        x -= p;
    }
    buf.last().expect("a chance node has outcomes").0
}
