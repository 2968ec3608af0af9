//! The `mcts` player: Monte-Carlo tree search with UCT (Kocsis &
//! Szepesvári's upper confidence bounds applied to trees).
//!
//! **Algorithm.** Each move runs `sims` iterations (playouts) from the
//! position to move, growing a tree whose root is that position. One
//! iteration has four steps:
//!
//! 1. *Selection.* From the root, while the node has been visited before and
//!    its position is not over, step to a child. At a player's node every
//!    child is tried once first (an untried child picked at random); after
//!    that the child with the highest UCB1 score
//!    `mean + c·sqrt(ln N / n)` is taken, where `mean` is the child's average
//!    reward for the player who moves at the node, `n` the child's visits and
//!    `N` the node's. At a chance node an outcome is sampled by its
//!    probability.
//! 2. *Expansion.* A node's children (one per legal action, stored
//!    contiguously in the arena) are created the second time it is reached;
//!    each iteration adds exactly one new visited node to the tree, the child
//!    it stops at.
//! 3. *Evaluation.* From the new node's position, uniformly random moves (and
//!    chance outcomes sampled by their probabilities) are played to the end
//!    (`rollout=random`), or a value net scores the position
//!    (`rollout=net:FILE`). A finished position scores by its returns.
//! 4. *Backup.* Every node on the path adds one visit and the reward of the
//!    player who *made the move into it* (the seat to move at its parent).
//!    Rewards are assigned by the mover of each node, never by alternation,
//!    so games where one player moves twice in a row (dots-and-boxes after a
//!    completed box, passes in reversi and virus) are backed up correctly.
//!
//! The move played is the root child with the most visits.
//!
//! **Rewards.** A finished game's return r (+1 win, 0 draw, −1 loss) gives
//! the reward (r + 1)/2: win 1, draw 0.5, loss 0. A value net's output for a
//! position is read as its value in [−1, 1] for the player to move there
//! (as the `net:` players read it), clamped to that range, mapped the same
//! way; the other seat gets one minus it. The player is for two-player games
//! whose players move one at a time (with chance nodes allowed); it is built
//! for every board game by spec, and for other such games (Pig) directly with
//! [`MctsPlayer::new`].
//!
//! **Spec.** `mcts[:sims=N][,c=C][,ms=T][,rollout=random|net:FILE]`: `sims` is the
//! number of iterations per move, 1..=10,000,000 (default 1000); `ms` a
//! wall-clock budget per move in milliseconds (the search stops at whichever
//! of `sims` and `ms` comes first; a move cut short by time is not
//! reproducible); `c` the
//! exploration constant, a number ≥ 0 (default √2); `rollout` the leaf
//! evaluation (default `random`). `net:FILE` must be a value net (one output)
//! for the game being played; it reads the encoding its file names (`raw` if
//! none), as the `net:` players do.
//!
//! **Determinism.** All randomness (untried children, rollouts, chance
//! samples) comes from the `rng` handed to [`Player::choose`], the game's own
//! stream, so a seed replays the same games at any thread count. Ties are
//! broken by a fixed rule: among the children with the best UCB1 score, or
//! the most visits for the final move, the lowest action index wins.
//!
//! **Cost.** The tree lives in one arena (`Vec` of 24-byte nodes) that is
//! cleared, not freed, before every move; rollouts pick each move with
//! [`State::random_action`] (a stack [`ActionList`] at most) and allocate
//! nothing. A search of `sims`
//! iterations holds at most one node per iteration plus the untried children
//! of the expanded nodes.
//!
//! **References.**
//! - L. Kocsis and Cs. Szepesvári, "Bandit based Monte-Carlo planning". In
//!   *Machine Learning: ECML 2006*, LNCS 4212, pp. 282–293, Springer, 2006.

use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::RngExt;

use super::net::NetEval;
use super::{Player, ViewOf};
use crate::game::encode::Encodable;
use crate::game::rng::WoprRng;
use crate::game::{Action, ActionList, Game, GameSpec, SpecError, State, Turn};
use crate::nn::{NetFile, Network};

/// Iterations per move when a spec gives no `sims`.
pub const DEFAULT_SIMS: u32 = 1000;

/// The most iterations per move a spec may ask for.
pub const MAX_SIMS: u32 = 10_000_000;

/// The exploration constant when a spec gives no `c`: √2, UCB1's own.
pub const DEFAULT_C: f64 = std::f64::consts::SQRT_2;

/// The `mcts` spec syntax, for player lists and errors.
pub const MCTS_PLAYERS: &[&str] = &["mcts[:sims=N][,c=C][,ms=T][,rollout=random|net:FILE]"];

/// What an `mcts` spec accepts, for error messages.
const ACCEPTED: &str =
    "mcts[:sims=N][,c=C][,ms=T][,rollout=random|net:FILE] with N in 1..=10000000, C ≥ 0, T in 1..=86400000";

/// The search's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations (playouts) per move, 1..=[`MAX_SIMS`].
    pub sims: u32,
    /// The exploration constant `c` of UCB1, ≥ 0.
    pub c: f64,
    /// A wall-clock budget per move (`None`: `sims` alone stops the search).
    pub time: Option<Duration>,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            sims: DEFAULT_SIMS,
            c: DEFAULT_C,
            time: None,
        }
    }
}

impl MctsConfig {
    /// Checks the ranges; the error names what is accepted.
    pub fn check(&self) -> Result<(), SpecError> {
        if !(1..=MAX_SIMS).contains(&self.sims) {
            return Err(SpecError(format!(
                "'mcts': sims={} is out of range (accepted: {ACCEPTED})",
                self.sims
            )));
        }
        if !(self.c >= 0.0 && self.c.is_finite()) {
            return Err(SpecError(format!(
                "'mcts': c={} is not a number ≥ 0 (accepted: {ACCEPTED})",
                self.c
            )));
        }
        Ok(())
    }
}

/// A value function for leaves: the value in [−1, 1] of a position (not
/// finished, not a chance node) for its player to move.
pub type ValueFn<S> = Box<dyn FnMut(&S) -> f32 + Send>;

/// How the search scores a new leaf.
pub enum Leaf<S> {
    /// Uniformly random moves to the end of the game.
    Random,
    /// A value function (a net); `spec` is what the player's spec shows as
    /// `rollout=…`. A leaf at a chance node is first moved on by sampled
    /// outcomes; a finished position scores by its returns, not the function.
    Value {
        /// The function.
        value: ValueFn<S>,
        /// Its spec text, e.g. `net:ttt.json`.
        spec: String,
    },
}

/// Statistics of one root child after a search, for inspection.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootChild {
    /// The action leading to the child.
    pub action: Action,
    /// How many iterations went through it.
    pub visits: u32,
    /// Its mean reward (0..=1) for the player to move at the root.
    pub mean: f64,
}

/// The seat stored in a node reached by a chance outcome (or the root).
const NO_PLAYER: u8 = u8::MAX;

/// One node of the tree: 24 bytes.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Sum of the rewards of `player` over the visits.
    total: f64,
    /// Iterations through this node.
    visits: u32,
    /// Index of the first child in the arena (valid once expanded).
    first: u32,
    /// Number of children.
    count: u16,
    /// Children tried so far: they are the first `tried` of the block; the
    /// untried ones follow (a node's children are reordered as they are
    /// tried, which is safe because untried children have no subtree).
    tried: u16,
    /// The action from the parent into this node.
    action: Action,
    /// The seat that chose `action`, or [`NO_PLAYER`].
    player: u8,
    /// Whether the children have been created.
    expanded: bool,
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
            expanded: false,
        }
    }
}

/// A Monte-Carlo tree search (UCT) player; see the module docs.
pub struct MctsPlayer<G: Game> {
    config: MctsConfig,
    leaf: Leaf<G::State>,
    /// The tree: the root at 0, each node's children contiguous.
    nodes: Vec<Node>,
    /// Arena indices from the root to the current leaf.
    path: Vec<u32>,
    /// Chance outcomes (reused buffer).
    outcomes: Vec<(Action, f64)>,
}

impl<G: Game> MctsPlayer<G>
where
    G::State: State<View = G::State>,
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
        Ok(MctsPlayer {
            config,
            leaf,
            nodes: Vec::new(),
            path: Vec::new(),
            outcomes: Vec::new(),
        })
    }

    /// The settings.
    pub fn config(&self) -> MctsConfig {
        self.config
    }

    /// Runs `sims` iterations from `state` (a position with one player to
    /// move) and returns the most visited root action (lowest index among
    /// equals). All randomness comes from `rng`.
    pub fn search(&mut self, state: &G::State, rng: &mut WoprRng) -> Action {
        assert!(
            matches!(state.turn(), Turn::Player(_)),
            "mcts searches positions with one player to move"
        );
        self.nodes.clear();
        self.nodes.push(Node::new(0, NO_PLAYER));
        let deadline = self.config.time.map(|t| Instant::now() + t);
        for i in 0..self.config.sims {
            // The clock is read every 64 iterations; the first always runs,
            // so the root has a child to return.
            if i & 63 == 63 && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            if !self.iterate(state, rng) {
                break;
            }
        }
        let root = self.nodes[0];
        let kids = &self.nodes[root.first as usize..(root.first + root.count as u32) as usize];
        kids.iter()
            .max_by(|a, b| a.visits.cmp(&b.visits).then(b.action.cmp(&a.action)))
            .expect("the root has children")
            .action
    }

    /// The root children of the last search, in increasing action order.
    pub fn root_children(&self) -> Vec<RootChild> {
        let Some(root) = self.nodes.first() else {
            return Vec::new();
        };
        let start = root.first as usize;
        let mut out: Vec<RootChild> = self.nodes[start..start + root.count as usize]
            .iter()
            .map(|n| RootChild {
                action: n.action,
                visits: n.visits,
                mean: if n.visits > 0 {
                    n.total / n.visits as f64
                } else {
                    0.0
                },
            })
            .collect();
        out.sort_by_key(|c| c.action);
        out
    }

    /// One iteration: selection, expansion, evaluation, backup. `false` when
    /// the arena is full (the search then stops early).
    fn iterate(&mut self, root: &G::State, rng: &mut WoprRng) -> bool {
        let mut state = root.clone();
        self.path.clear();
        self.path.push(0);
        let mut at = 0usize;
        loop {
            let turn = state.turn();
            if turn == Turn::Terminal || (at != 0 && self.nodes[at].visits == 0) {
                break;
            }
            if !self.nodes[at].expanded && !self.expand(at, &state, turn) {
                return false;
            }
            let child = match turn {
                Turn::Player(_) => self.select(at, rng),
                Turn::Chance => self.sample_child(at, &state, rng),
                Turn::Simultaneous => panic!("mcts does not play simultaneous moves"),
                Turn::Terminal => unreachable!(),
            };
            state.apply(self.nodes[child].action);
            self.path.push(child as u32);
            at = child;
        }
        let rewards = self.evaluate(&mut state, rng);
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            if let Some(r) = rewards.get(n.player as usize) {
                n.total += r;
            }
        }
        true
    }

    /// Creates the children of node `at` (position `state`, turn `turn`).
    fn expand(&mut self, at: usize, state: &G::State, turn: Turn) -> bool {
        let mut legal = ActionList::new();
        state.legal_actions(&mut legal);
        let first = self.nodes.len();
        if first + legal.len() > u32::MAX as usize {
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
        node.expanded = true;
        true
    }

    /// The child of player node `at` to descend to: an untried one at random
    /// while any is left, else the best by UCB1 (lowest action among equals).
    fn select(&mut self, at: usize, rng: &mut WoprRng) -> usize {
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
            let score = kid.total / n + c * (log_n / n).sqrt();
            if score > best_score || (score == best_score && kid.action < best_action) {
                best = first + i;
                best_score = score;
                best_action = kid.action;
            }
        }
        best
    }

    /// The child of chance node `at` for an outcome sampled by probability.
    fn sample_child(&mut self, at: usize, state: &G::State, rng: &mut WoprRng) -> usize {
        let outcome = sample_outcome(state, rng, &mut self.outcomes);
        let node = self.nodes[at];
        let first = node.first as usize;
        first
            + self.nodes[first..first + node.count as usize]
                .iter()
                .position(|k| k.action == outcome)
                .expect("a chance outcome is a child")
    }

    /// The rewards (0..=1) of both seats for leaf `state`, which may be
    /// changed (a rollout plays on it).
    fn evaluate(&mut self, state: &mut G::State, rng: &mut WoprRng) -> [f64; 2] {
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
fn reward(r: f64) -> f64 {
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

impl<G: Game> Player<G> for MctsPlayer<G>
where
    G::State: State<View = G::State>,
{
    fn spec(&self) -> String {
        let mut s = format!("mcts:sims={}", self.config.sims);
        if self.config.c != DEFAULT_C {
            s.push_str(&format!(",c={}", self.config.c));
        }
        if let Some(t) = self.config.time {
            s.push_str(&format!(",ms={}", t.as_millis()));
        }
        if let Leaf::Value { spec, .. } = &self.leaf {
            s.push_str(&format!(",rollout={spec}"));
        }
        s
    }

    fn choose(&mut self, view: &ViewOf<G>, legal: &[Action], rng: &mut WoprRng) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        let a = self.search(view, rng);
        debug_assert!(legal.contains(&a), "mcts chose an action not in legal");
        a
    }

    fn new_game(&mut self) {
        self.nodes.clear();
    }
}

/// Builds an `mcts` player from its typed settings: random rollouts, or
/// the value net at `rollout` (a path already checked by the caller) as the
/// leaf evaluation.
pub fn build<G>(
    game: &G,
    config: MctsConfig,
    rollout: Option<&str>,
) -> Result<Box<dyn Player<G>>, SpecError>
where
    G: Encodable,
    G::State: State<View = G::State>,
{
    let leaf = match rollout {
        None => Leaf::Random,
        Some(path) => value_net(game, path)?,
    };
    Ok(Box::new(MctsPlayer::new(game, config, leaf)?))
}

/// Builds an `mcts` player with random rollouts for a game that has no net
/// encoding (Pig).
pub fn build_random<G>(game: &G, config: MctsConfig) -> Result<Box<dyn Player<G>>, SpecError>
where
    G: Game,
    G::State: State<View = G::State>,
{
    Ok(Box::new(MctsPlayer::new(game, config, Leaf::Random)?))
}

/// Reads `sims`, `c`, `ms` and `rollout` from an `mcts` spec: the search
/// settings and the net file of `rollout=net:FILE` (`None` for random
/// rollouts). Opens nothing.
pub fn parse_config(spec: &GameSpec) -> Result<(MctsConfig, Option<String>), SpecError> {
    spec.check_keys(&["sims", "c", "ms", "rollout"])?;
    let sims = spec
        .get("sims")
        .map(|v| {
            v.parse::<u32>()
                .ok()
                .filter(|n| (1..=MAX_SIMS).contains(n))
                .ok_or_else(|| {
                    SpecError(format!(
                        "'mcts': sims={v} is not an integer in 1..=10000000 (accepted: {ACCEPTED})"
                    ))
                })
        })
        .transpose()?
        .unwrap_or(DEFAULT_SIMS);
    let c = spec
        .get("c")
        .map(|v| {
            v.parse::<f64>()
                .ok()
                .filter(|c| *c >= 0.0 && c.is_finite())
                .ok_or_else(|| {
                    SpecError(format!(
                        "'mcts': c={v} is not a number ≥ 0 (accepted: {ACCEPTED})"
                    ))
                })
        })
        .transpose()?
        .unwrap_or(DEFAULT_C);
    let rollout = match spec.get("rollout").unwrap_or("random") {
        r if r.eq_ignore_ascii_case("random") => None,
        r => match r.split_once(':') {
            Some((kind, path)) if kind.eq_ignore_ascii_case("net") && !path.is_empty() => {
                Some(path.to_string())
            }
            _ => {
                return Err(SpecError(format!(
                    "'mcts': rollout={r} is not known (accepted: random, net:FILE)"
                )))
            }
        },
    };
    let time = super::ms_arg(spec)?;
    Ok((MctsConfig { sims, c, time }, rollout))
}

/// Loads the value net at `path` for `game` as a leaf evaluation.
fn value_net<G>(game: &G, path: &str) -> Result<Leaf<G::State>, SpecError>
where
    G: Encodable,
{
    let file = NetFile::load(path).map_err(|e| SpecError(format!("'mcts': {e}")))?;
    super::net::check_game(game, &file, path).map_err(|e| SpecError(format!("'mcts': {e}")))?;
    let outputs = file.net.num_outputs();
    if outputs != 1 {
        return Err(SpecError(format!(
            "'mcts': rollout=net:{path} needs a value net with one output, this one has {outputs}"
        )));
    }
    let encoding = game.encoding(file.encoding.as_deref().unwrap_or("raw"))?;
    let mut eval = NetEval::<G>::new(Arc::new(file.net), encoding)
        .map_err(|e| SpecError(format!("'mcts': {path}: {e}")))?;
    Ok(Leaf::Value {
        value: Box::new(move |s: &G::State| eval.run(std::slice::from_ref(s))[0]),
        spec: format!("net:{path}"),
    })
}
