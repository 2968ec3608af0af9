//! AlphaZero's self-play games, many in lockstep: every game grows its own
//! PUCT tree, and each simulation step takes one leaf from every game, so
//! the leaves of all the games go through the net in one batched pass.
//!
//! **One simulation** of one game: from the root, step to the child with
//! the highest `Q + c·P·√N / (1 + n)` (`Q` the child's mean value for the
//! seat that moved into it, 0 for a child not yet visited; `P` its prior;
//! `N`, `n` the visits of the node and the child; the lowest action among
//! equals) until a node not yet expanded or a finished game. A finished
//! game is valued by its returns; an unexpanded node's position goes to
//! the net, whose policy (masked to the legal moves, softmaxed) gives its
//! children's priors and whose value is the leaf's. The value is backed
//! up along the path, added to each node for the seat that moved into it
//! (negated for the other seat: a seat that moves twice keeps its sign).
//!
//! **The root.** Its first simulation expands it; its priors are then
//! mixed with Dirichlet noise, `(1 − ε)·P + ε·η`, `η ~ Dir(α)` (AlphaZero:
//! ε = 0.25, α about 10 / the typical number of moves). After `sims` more
//! simulations, the root children's visit shares are the move's target,
//! and the move played is drawn in proportion to the visits for the first
//! `temp_plies` plies of the game (temperature 1), then the most visited
//! (lowest action among equals). A position with one legal move is played
//! without search; its target is that move.
//!
//! **Decisive moves** (`decisive_moves`; Teytaud & Teytaud, "On the huge
//! benefit of decisive moves in Monte-Carlo tree search algorithms",
//! 2010). Off by default. On, each expansion also plays every child's
//! move on the board, and a move that ends the game in a win for the
//! player making it is chosen at once at that node, before any other and
//! without asking the net. Without it, a win in one whose prior is small
//! can go unvisited for all the simulations in a position the value head
//! already judges won (an unvisited child counts as 0 and the others
//! near +1), so the visit targets teach the policy to pass wins by. The
//! rules tell a finished game; this uses nothing else.
//!
//! **Determinism.** Each game draws from its own stream, and a position's
//! outputs from the batched pass are the same bits whatever else is in
//! the batch, so a game is the same whether it is played alone or beside
//! any others, on any thread.

use rand::RngExt;
use rand_distr::{Distribution, Gamma};

use crate::game::encode::{Encodable, EncodingOf};
use crate::game::rng::WoprRng;
use crate::game::{Action, ActionList, State, Turn};
use crate::nn::{policy_value, AnyNet, Network, Scratch};

/// The search's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchOptions {
    /// Simulations a move (after the one that expands the root).
    pub sims: u32,
    /// PUCT's exploration constant.
    pub c: f32,
    /// Dirichlet noise's α at the root.
    pub dirichlet_alpha: f32,
    /// Dirichlet noise's share ε of the root's priors (0: none).
    pub noise: f32,
    /// Plies from the start at which the move is drawn by visits
    /// (counted after the opening's random plies).
    pub temp_plies: u32,
    /// Each game starts from `k` uniformly random legal plies, `k` drawn
    /// uniformly from `0..=random_plies` (0: every game from the initial
    /// position). The opening's positions are not searched and give no
    /// targets; they widen the positions the net learns from, as the TD
    /// learner's `random_plies` do.
    pub random_plies: u32,
    /// Whether a win in one is taken at once at every node (the module
    /// docs, "Decisive moves").
    pub decisive_moves: bool,
}

/// One self-play game: its random opening, its searched moves and, for
/// each, the search's visit shares over the legal moves of the position
/// (in [`State::legal_actions`]' order), and the game's returns by seat.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Played {
    /// The random plies from the initial position before the first
    /// searched move (empty without `random_plies`). Always written: the
    /// ranks of an MPI job exchange games in postcard, which is not
    /// self-describing and cannot skip a field; a checkpoint written
    /// before the field existed reads as empty.
    #[serde(default)]
    pub opening: Vec<Action>,
    /// The searched moves, after the opening.
    pub actions: Vec<Action>,
    /// The search's visit shares at each move.
    pub targets: Vec<Vec<f32>>,
    /// Each seat's return at the end, in [−1, 1].
    pub returns: [f32; 2],
}

/// A node of a game's tree.
#[derive(Clone, Copy, Debug)]
struct Node {
    action: Action,
    /// The seat that moved into the node (`NONE` at the root).
    mover: u8,
    prior: f32,
    visits: u32,
    /// Sum of the values backed up, for `mover`.
    value: f32,
    /// First child in the arena, and how many (0: not expanded).
    first: u32,
    count: u16,
    /// Whether the move into the node ends the game in a win for `mover`
    /// (marked only with `decisive_moves`).
    wins: bool,
}

const NONE: u8 = u8::MAX;

impl Node {
    fn new(action: Action, mover: u8, prior: f32) -> Node {
        Node {
            action,
            mover,
            prior,
            visits: 0,
            value: 0.0,
            first: 0,
            count: 0,
            wins: false,
        }
    }
}

/// One game under way.
struct Slot<S> {
    state: S,
    rng: WoprRng,
    tree: Vec<Node>,
    /// The current simulation's path and leaf.
    path: Vec<u32>,
    leaf: Option<S>,
    played: Played,
    done: bool,
}

/// Where one simulation of a game stopped.
enum Reached {
    /// A position for the net (the slot keeps it).
    Leaf,
    /// A finished game, backed up already.
    Finished,
}

/// Plays `rngs.len()` self-play games from `game`'s initial position with
/// `net` (a policy-value net over `encoding`), all in lockstep; game `i`
/// draws from `rngs[i]`. An error where a position is not one player's
/// turn (chance, simultaneous moves): AlphaZero here plays games in turn.
pub fn play<G: Encodable>(
    game: &G,
    net: &AnyNet,
    encoding: &EncodingOf<G>,
    options: &SearchOptions,
    rngs: Vec<WoprRng>,
) -> Result<Vec<Played>, String> {
    let mut slots: Vec<Slot<G::State>> = rngs
        .into_iter()
        .map(|mut rng| {
            let mut state = game.initial_state();
            let opening = random_opening(&mut state, options.random_plies, &mut rng);
            Slot {
                state,
                rng,
                tree: Vec::new(),
                path: Vec::new(),
                leaf: None,
                played: Played {
                    opening,
                    actions: Vec::new(),
                    targets: Vec::new(),
                    returns: [0.0; 2],
                },
                done: false,
            }
        })
        .collect();
    let mut batch = Batch::<G>::new(net, encoding);
    let mut legal = ActionList::new();
    loop {
        // Finish the games that are over; the others need a move.
        for s in slots.iter_mut().filter(|s| !s.done) {
            match s.state.turn() {
                Turn::Terminal => finish(s),
                Turn::Player(_) => {}
                _ => return Err(in_turn(game)),
            }
        }
        let open: Vec<usize> = (0..slots.len()).filter(|&i| !slots[i].done).collect();
        if open.is_empty() {
            break;
        }
        // Positions with one legal move are played at once.
        let mut searching = Vec::new();
        for &i in &open {
            let s = &mut slots[i];
            legal.clear();
            s.state.legal_actions(&mut legal);
            if legal.len() == 1 {
                s.played.actions.push(legal[0]);
                s.played.targets.push(vec![1.0]);
                s.state.apply(legal[0]);
            } else {
                s.tree.clear();
                s.tree.push(Node::new(0, NONE, 1.0));
                searching.push(i);
            }
        }
        for sim in 0..=options.sims {
            batch.clear();
            for &i in &searching {
                if let Reached::Leaf = descend(&mut slots[i], options.c) {
                    let leaf = slots[i].leaf.as_ref().expect("a leaf");
                    if !matches!(leaf.turn(), Turn::Player(_)) {
                        return Err(in_turn(game));
                    }
                    batch.push(leaf);
                }
            }
            batch.run();
            let mut k = 0;
            for &i in &searching {
                let s = &mut slots[i];
                let Some(leaf) = s.leaf.take() else { continue };
                let (v, priors) = batch.read(k, &leaf, &mut legal);
                k += 1;
                let at = *s.path.last().expect("a path") as usize;
                expand(&mut s.tree, at, &leaf, &legal, priors);
                if options.decisive_moves {
                    mark_wins(&mut s.tree, at, &leaf);
                }
                if sim == 0 {
                    add_noise(&mut s.tree, options, &mut s.rng);
                }
                let Turn::Player(p) = leaf.turn() else {
                    unreachable!("the net is asked about a player's turn")
                };
                backup(&mut s.tree, &s.path, |mover| {
                    if mover as usize == p {
                        v
                    } else {
                        -v
                    }
                });
            }
        }
        for &i in &searching {
            play_move(&mut slots[i], options);
        }
    }
    Ok(slots.into_iter().map(|s| s.played).collect())
}

/// Plays `k ~ U{0..=most}` uniformly random legal plies on `state` (fewer
/// where the game ends first, or reaches a position that is not one
/// player's turn, which the search then refuses) and returns them.
fn random_opening<S: State>(state: &mut S, most: u32, rng: &mut WoprRng) -> Vec<Action> {
    let mut opening = Vec::new();
    if most == 0 {
        return opening;
    }
    let k = rng.random_range(0..=most);
    while (opening.len() as u32) < k && matches!(state.turn(), Turn::Player(_)) {
        let a = state.random_action(rng);
        state.apply(a);
        opening.push(a);
    }
    opening
}

/// The error for a game whose players do not move one at a time.
fn in_turn<G: Encodable>(game: &G) -> String {
    format!(
        "alphazero plays games whose players move in turn, one at a time; {} has chance or simultaneous moves",
        game.spec()
    )
}

/// The returns of a finished game, recorded.
fn finish<S: State>(s: &mut Slot<S>) {
    for (seat, r) in s.played.returns.iter_mut().enumerate() {
        *r = s.state.returns(seat).clamp(-1.0, 1.0) as f32;
    }
    s.done = true;
}

/// One simulation's descent in game `s`: to a position for the net (kept in
/// `s.leaf`) or a finished game, backed up at once.
fn descend<S: State>(s: &mut Slot<S>, c: f32) -> Reached {
    s.path.clear();
    s.path.push(0);
    let mut state = s.state.clone();
    let mut at = 0usize;
    loop {
        if state.turn() == Turn::Terminal {
            let returns = [state.returns(0) as f32, state.returns(1) as f32];
            backup(&mut s.tree, &s.path, |mover| {
                returns[mover as usize].clamp(-1.0, 1.0)
            });
            return Reached::Finished;
        }
        let node = s.tree[at];
        if node.count == 0 {
            s.leaf = Some(state);
            return Reached::Leaf;
        }
        at = select(&s.tree, &node, c);
        state.apply(s.tree[at].action);
        s.path.push(at as u32);
    }
}

/// PUCT's child of `node` (lowest action among equals, which the children's
/// order gives); a child marked as a win in one before any other.
fn select(tree: &[Node], node: &Node, c: f32) -> usize {
    let first = node.first as usize;
    let sqrt_n = (node.visits.max(1) as f32).sqrt();
    let mut best = first;
    let mut best_score = f32::NEG_INFINITY;
    for (i, kid) in tree[first..first + node.count as usize].iter().enumerate() {
        if kid.wins {
            return first + i;
        }
        let n = kid.visits as f32;
        let q = if kid.visits > 0 { kid.value / n } else { 0.0 };
        let score = q + c * kid.prior * sqrt_n / (1.0 + n);
        if score > best_score {
            best = first + i;
            best_score = score;
        }
    }
    best
}

/// Makes the children of node `at` (position `state`, its legal moves
/// `legal`) with `priors`.
fn expand<S: State>(tree: &mut Vec<Node>, at: usize, state: &S, legal: &[Action], priors: &[f32]) {
    let Turn::Player(p) = state.turn() else {
        unreachable!("only a player's turn is expanded")
    };
    let first = tree.len();
    tree.extend(
        legal
            .iter()
            .zip(priors)
            .map(|(&a, &prior)| Node::new(a, p as u8, prior)),
    );
    tree[at].first = first as u32;
    tree[at].count = legal.len() as u16;
}

/// Marks the children of node `at` (position `state`) whose move ends the
/// game in a win for the player making it.
fn mark_wins<S: State>(tree: &mut [Node], at: usize, state: &S) {
    let Turn::Player(p) = state.turn() else {
        unreachable!("only a player's turn is expanded")
    };
    let node = tree[at];
    for kid in &mut tree[node.first as usize..(node.first + u32::from(node.count)) as usize] {
        let mut child = state.clone();
        child.apply(kid.action);
        kid.wins = child.is_terminal() && child.returns(p) > 0.0;
    }
}

/// The root's priors mixed with Dirichlet noise.
fn add_noise(tree: &mut [Node], options: &SearchOptions, rng: &mut WoprRng) {
    let root = tree[0];
    if options.noise <= 0.0 || root.count < 2 {
        return;
    }
    let gamma = Gamma::new(options.dirichlet_alpha, 1.0).expect("alpha was checked positive");
    let kids = &mut tree[root.first as usize..root.first as usize + root.count as usize];
    let eta: Vec<f32> = kids.iter().map(|_| gamma.sample(rng)).collect();
    let sum: f32 = eta.iter().sum();
    if !(sum > 0.0 && sum.is_finite()) {
        return;
    }
    for (k, e) in kids.iter_mut().zip(eta) {
        k.prior = (1.0 - options.noise) * k.prior + options.noise * e / sum;
    }
}

/// Adds a visit and `value(mover)` to every node of `path`.
fn backup(tree: &mut [Node], path: &[u32], value: impl Fn(u8) -> f32) {
    for &i in path {
        let n = &mut tree[i as usize];
        n.visits += 1;
        if n.mover != NONE {
            n.value += value(n.mover);
        }
    }
}

/// Records the root's visit shares and plays the move: drawn by visits in
/// the first plies, then the most visited.
fn play_move<S: State>(s: &mut Slot<S>, options: &SearchOptions) {
    let root = s.tree[0];
    let kids = &s.tree[root.first as usize..root.first as usize + root.count as usize];
    let total: u32 = kids.iter().map(|k| k.visits).sum();
    let shares: Vec<f32> = kids
        .iter()
        .map(|k| k.visits as f32 / total.max(1) as f32)
        .collect();
    let pick = if (s.played.actions.len() as u32) < options.temp_plies && total > 0 {
        let mut x = s.rng.random_range(0..total);
        kids.iter()
            .position(|k| {
                if x < k.visits {
                    true
                } else {
                    x -= k.visits;
                    false
                }
            })
            .unwrap_or(0)
    } else {
        let top = kids.iter().map(|k| k.visits).max().unwrap_or(0);
        kids.iter().position(|k| k.visits == top).unwrap_or(0)
    };
    let action = kids[pick].action;
    s.played.actions.push(action);
    s.played.targets.push(shares);
    s.state.apply(action);
}

/// The positions of one simulation step, encoded and run through the net
/// in one pass.
struct Batch<'a, G: Encodable> {
    net: &'a AnyNet,
    encoding: &'a EncodingOf<G>,
    inputs: Vec<f32>,
    outputs: Vec<f32>,
    rows: usize,
    scratch: Scratch,
    priors: Vec<f32>,
}

impl<'a, G: Encodable> Batch<'a, G> {
    fn new(net: &'a AnyNet, encoding: &'a EncodingOf<G>) -> Self {
        Batch {
            net,
            encoding,
            inputs: Vec::new(),
            outputs: Vec::new(),
            rows: 0,
            scratch: Scratch::new(),
            priors: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.inputs.clear();
        self.rows = 0;
    }

    fn push(&mut self, state: &G::State) {
        let n = self.encoding.size();
        let start = self.inputs.len();
        self.inputs.resize(start + n, 0.0);
        self.encoding.encode(state, &mut self.inputs[start..]);
        self.rows += 1;
    }

    fn run(&mut self) {
        self.outputs.resize(self.rows * self.net.num_outputs(), 0.0);
        if self.rows > 0 {
            self.net
                .forward_batch(&self.inputs, &mut self.outputs, &mut self.scratch);
        }
    }

    /// Row `k`'s value and priors over `state`'s legal moves (written to
    /// `legal`).
    fn read(&mut self, k: usize, state: &G::State, legal: &mut ActionList) -> (f32, &[f32]) {
        let n = self.net.num_outputs();
        legal.clear();
        state.legal_actions(legal);
        let v = policy_value::read(&self.outputs[k * n..(k + 1) * n], legal, &mut self.priors);
        (v, &self.priors)
    }
}
