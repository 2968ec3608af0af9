//! The `mcts` player: Monte-Carlo tree search, UCT (Kocsis & Szepesvári's
//! upper confidence bounds applied to trees) or PUCT over a value net, with
//! the MCTS-Solver's proven values (Winands, Björnsson & Saito) and the
//! tree kept from move to move.
//!
//! **Algorithm.** Each move runs `sims` iterations from the position to
//! move, growing a tree whose root is that position. One iteration has four
//! steps:
//!
//! 1. *Selection.* From the root, while the node has been visited before,
//!    is not proven and its position is not over, step to a child. At a
//!    chance node an outcome is sampled by its probability. At a player's
//!    node, `select=uct` (the default) tries every child once first (an
//!    untried child picked at random), then takes the child with the
//!    highest UCB1 score `mean + c·sqrt(ln N / n)`, where `mean` is the
//!    child's average reward for the player who moves at the node, `n` the
//!    child's visits and `N` the node's. `select=puct` takes the highest
//!    `Q + c·P·sqrt(N)/(1 + n)` (AlphaZero's rule), where `Q` is the
//!    child's mean (for a child not yet visited: the net's value of it) and
//!    `P` its prior (see *PUCT* below). With the solver, a child proven
//!    won for the mover is taken at once, one proven lost only when every
//!    child is, and a proven draw counts exactly ½.
//! 2. *Expansion.* A node's children (one per legal action, stored
//!    contiguously in the arena) are created the second time it is reached;
//!    each iteration adds exactly one new visited node to the tree, the
//!    child it stops at.
//! 3. *Evaluation.* From the new node's position, uniformly random moves (and
//!    chance outcomes sampled by their probabilities) are played to the end
//!    (`rollout=random`), or a value net scores the position
//!    (`rollout=net:FILE`). A finished position scores by its returns; a
//!    proven node by its proven value.
//! 4. *Backup.* Every node on the path adds one visit and the reward of the
//!    player who *made the move into it* (the seat to move at its parent).
//!    Rewards are assigned by the mover of each node, never by alternation,
//!    so games where one player moves twice in a row (dots-and-boxes after a
//!    completed box, passes in reversi and virus) are backed up correctly.
//!
//! **Solver** (`solve=on`, the default; Winands et al.'s MCTS-Solver). A
//! finished position reached by the search is proven: a win, loss or draw
//! for the seat that moved into it; so is every child whose move ends the
//! game, as soon as its node is expanded (one move tried from the node,
//! no rollout: a win in one is then taken at once, and a node with such a
//! child is itself proven and backed up). Proofs are backed up: a position where
//! one child is a proven win for the seat to move there is a proven win for
//! that seat; one whose children are all proven takes the best of their
//! values (so a position with only lost moves is a proven loss, and one
//! whose best is a draw a proven draw). A value is turned into the view of
//! the seat that moved into the node by comparing seats, so a player who
//! moves twice keeps its sign. Chance nodes, and positions reached from
//! them, are never proven (one sampled outcome proves nothing); proofs
//! below them still steer the selection. The search stops as soon as the
//! move is decided: a root child is a proven win, all are proven, or all
//! but one are proven losses.
//!
//! **The move played.** A proven win if there is one; else the most visited
//! root child not proven lost (if all are proven: the best value), more
//! total reward then the lowest action breaking ties (OpenSpiel's rule).
//!
//! **Tree reuse** (`reuse=on`, the default). After a move, the subtree of
//! the position the player is next asked about is kept: it is looked for
//! within four plies of the last root by replaying the actions stored in
//! the tree and comparing positions (`PartialEq`), the shallowest match
//! taken, and copied to the front of the arena as the new root with its
//! visits, rewards and proofs. Without a match (another game, an opening
//! the tree never saw) the tree starts afresh; [`Player::new_game`] clears
//! it. So with reuse a move depends on the earlier moves of the game (the
//! iterations spent on them), not only on the position and the seed.
//!
//! **PUCT** (`select=puct`, which needs `rollout=net:FILE`; GBG's "MCTS
//! wrapper" of Scheiermann & Konen around a value function). When a node is
//! expanded, each child position is valued by the net for the seat to move
//! at the node (a finished child by its returns); the priors are the
//! softmax of those values on the [−1, 1] scale (temperature 1, our
//! choice), and the value also stands for the child when it is first
//! reached (so the net is run once per child of each expanded node, never
//! again at the leaf). `c` defaults to 1 with PUCT.
//!
//! **PUCT over a policy-value net** (a net file with `"heads":
//! "policy-value"`, AlphaZero's, as `wopr run` with `learner = "alphazero"`
//! makes). A leaf's own position is run through the net once, where the
//! leaf is first reached: its value is the leaf's evaluation, and its
//! children are made there with the policy's priors (the softmax of the
//! legal moves' logits). A child not yet visited counts `Q` = ½, an even
//! position (AlphaZero's 0 on the [−1, 1] scale), or with `fpu=mean` the
//! mean reward of the node's children visited so far (first-play urgency
//! from the node's own standing, as Leela Zero's is). So the net is run once
//! per new node, and each iteration adds one visited node and its
//! children.
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
//! **Spec.** `mcts[:sims=N][,c=C][,ms=T][,rollout=random|net:FILE]`
//! `[,select=uct|puct][,solve=on|off][,reuse=on|off]`: `sims` is the
//! number of iterations per move, 1..=10,000,000 (default 1000); `ms` a
//! wall-clock budget per move in milliseconds (the search stops at whichever
//! of `sims` and `ms` comes first; a move cut short by time is not
//! reproducible); `c` the exploration constant, a number ≥ 0 (default: the
//! game's own, [`crate::players::Roster::mcts_c`], chosen by a tournament
//! on a selection seed, `docs/results/mcts.md`; √2 where a game names
//! none; 1 with PUCT); `rollout` the leaf evaluation (default `random`).
//! `net:FILE` must be a value net (one output) or a policy-value net for
//! the game being played;
//! it reads the encoding its file names (`raw` if none), as the `net:`
//! players do. `solve=off` and `reuse=off` turn the solver and the kept
//! tree off (plain UCT as before: `solve=off,reuse=off,c=1.414`).
//! `fpu=even|mean` (default `even`) is the `Q` of an unvisited child under
//! PUCT over a policy-value net (see above).
//!
//! **Determinism.** All randomness (untried children, rollouts, chance
//! samples) comes from the `rng` handed to [`Player::choose`], the game's own
//! stream, so a seed replays the same games at any thread count. Ties are
//! broken by a fixed rule: among the children with the best score, the
//! lowest action index wins.
//!
//! **Cost.** The tree lives in one arena (`Vec` of 24-byte nodes; PUCT keeps
//! a prior and a value beside each) whose buffers are kept from move to
//! move; rollouts pick each move with [`State::random_action`] (a stack
//! [`crate::game::ActionList`] at most) and an iteration allocates
//! nothing. A search of `sims` iterations adds at most one node per
//! iteration plus the untried children of the expanded nodes; a kept
//! subtree is copied once per move.
//!
//! **References.**
//! - L. Kocsis and Cs. Szepesvári, "Bandit based Monte-Carlo planning". In
//!   *Machine Learning: ECML 2006*, LNCS 4212, pp. 282–293, Springer, 2006.
//! - M. H. M. Winands, Y. Björnsson and J.-T. Saito, "Monte-Carlo tree
//!   search solver". In *Computers and Games (CG 2008)*, LNCS 5131,
//!   pp. 25–36, Springer, 2008.
//! - D. Silver et al., "Mastering the game of Go without human knowledge".
//!   *Nature* 550, pp. 354–359, 2017 (the PUCT rule).
//! - J. Scheiermann and W. Konen, "AlphaZero-inspired game learning: faster
//!   training by using MCTS only at test time". *IEEE Transactions on
//!   Games*, 2022 (the MCTS wrapper around a value function in GBG).

mod clock;
mod kind;
mod leaf;
mod proof;
mod reuse;
mod search;
mod select;

use std::time::Duration;

use super::{Player, Roster, ViewOf};
use crate::game::encode::Encodable;
use crate::game::player::BestSoFar;
use crate::game::rng::WoprRng;
use crate::game::{Action, Game, GameSpec, SpecError, State};
use crate::nn::NetFile;

pub use kind::{MctsKind, MctsSettings};
use leaf::{value_leaf, value_net};
pub use leaf::{Leaf, PolicyFn, ValueFn};
pub use search::{MctsPlayer, Node};

/// Iterations per move when a spec gives no `sims`.
pub const DEFAULT_SIMS: u32 = 1000;

/// The most iterations per move a spec may ask for.
pub const MAX_SIMS: u32 = 10_000_000;

/// The UCT exploration constant of a game that names none
/// ([`crate::players::Roster::mcts_c`]): √2, UCB1's own.
pub const DEFAULT_C: f64 = std::f64::consts::SQRT_2;

/// The PUCT exploration constant when a spec gives no `c`.
pub const DEFAULT_PUCT_C: f64 = 1.0;

/// The `mcts` spec syntax, for player lists and errors.
pub const MCTS_SYNTAX: &str = "mcts[:sims=N][,c=C][,ms=T][,rollout=random|net:FILE][,select=uct|puct][,solve=on|off][,reuse=on|off][,exact=E][,clock=T]";

/// What an `mcts` spec accepts, for error messages.
const ACCEPTED: &str = "mcts[:sims=N][,c=C][,ms=T][,rollout=random|net:FILE][,select=uct|puct][,solve=on|off][,reuse=on|off][,exact=E][,clock=T][,fpu=even|mean] with N in 1..=10000000, C ≥ 0, T in 1..=86400000 (ms), E in 1..=40; select=puct needs rollout=net:FILE; exact=E a game whose endgame solver counts empty squares";

/// How a player's node picks the child to descend to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Select {
    /// UCB1 after trying every child once (`select=uct`).
    #[default]
    Uct,
    /// AlphaZero's PUCT with priors from the value net (`select=puct`).
    Puct,
}

/// The search's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations (playouts) per move, 1..=[`MAX_SIMS`].
    pub sims: u32,
    /// The exploration constant `c` (of UCB1, or of PUCT), ≥ 0.
    pub c: f64,
    /// A wall-clock budget per move (`None`: `sims` alone stops the search).
    pub time: Option<Duration>,
    /// The selection rule.
    pub select: Select,
    /// Whether proven values are backed up (MCTS-Solver).
    pub solve: bool,
    /// Whether the tree is kept from one move of a game to the next.
    pub reuse: bool,
    /// `exact=E`: children of E empty squares or fewer are solved by the
    /// game's endgame solver as they are made, and proven (`None`: off).
    pub exact: Option<u32>,
    /// `clock=T`: the time for the player's whole game; each move takes
    /// an equal share of what is left over the moves the game has left
    /// (`ms=` still caps a move). `None`: no game clock.
    pub clock: Option<Duration>,
    /// `fpu=`: what PUCT over a policy-value net counts for a child not yet
    /// visited.
    pub fpu: Fpu,
}

/// First-play urgency: the `Q` that PUCT over a policy-value net gives a
/// child before its first visit (a value net's PUCT has the child's own
/// value and ignores this).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Fpu {
    /// `fpu=even`: ½, an even position (AlphaZero's 0 on the [−1, 1]
    /// scale), whatever the node's own standing.
    #[default]
    Even,
    /// `fpu=mean`: the mean reward, for the player to move at the node, of
    /// the node's visited children (½ while none is), so an untried move
    /// is first assumed as good as the moves tried there: in a won
    /// position the search does not flee to untried moves, and in a lost
    /// one it does not try every move before the policy's best.
    Mean,
}

impl Default for MctsConfig {
    /// `sims=1000`, `c=√2`, UCT, solver and reuse on.
    fn default() -> Self {
        MctsConfig {
            sims: DEFAULT_SIMS,
            c: DEFAULT_C,
            time: None,
            select: Select::Uct,
            solve: true,
            reuse: true,
            exact: None,
            clock: None,
            fpu: Fpu::Even,
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

    /// The spec text of the settings that differ from the defaults among
    /// `select`, `solve`, `reuse`, `exact`, `clock` and `fpu` (e.g.
    /// `["solve=off"]`), in that order.
    pub fn switches(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.select == Select::Puct {
            out.push("select=puct".to_string());
        }
        if !self.solve {
            out.push("solve=off".to_string());
        }
        if !self.reuse {
            out.push("reuse=off".to_string());
        }
        if let Some(e) = self.exact {
            out.push(format!("exact={e}"));
        }
        if let Some(t) = self.clock {
            out.push(format!("clock={}", t.as_millis()));
        }
        if self.fpu == Fpu::Mean {
            out.push("fpu=mean".to_string());
        }
        out
    }
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
    /// Its proven value for the player to move at the root, if proven.
    pub proven: Option<Proven>,
}

/// A value the solver proved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proven {
    /// A forced win.
    Win,
    /// A forced draw.
    Draw,
    /// A forced loss.
    Loss,
}

impl<G: Game> MctsPlayer<G>
where
    G::State: State<View = G::State> + PartialEq,
{
    /// The settings.
    pub fn config(&self) -> MctsConfig {
        self.config
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
                proven: match n.proof {
                    search::WIN => Some(Proven::Win),
                    search::LOSS => Some(Proven::Loss),
                    search::DRAW => Some(Proven::Draw),
                    _ => None,
                },
            })
            .collect();
        out.sort_by_key(|c| c.action);
        out
    }

    /// Iterations through the root of the tree as it stands (after a
    /// search, or kept for the next one); 0 without a tree.
    pub fn root_visits(&self) -> u32 {
        self.nodes.first().map_or(0, |n| n.visits)
    }

    /// Nodes in the tree as it stands.
    pub fn tree_size(&self) -> usize {
        self.nodes.len()
    }

    /// The tree as it stands, root first (the root's children are
    /// `tree()[tree()[0].children()]`); empty without a tree.
    pub fn tree(&self) -> &[Node] {
        &self.nodes
    }

    /// Priors kept beside the nodes: one per node under PUCT, none under
    /// UCT.
    pub fn prior_count(&self) -> usize {
        self.priors.len()
    }
}

/// What [`MctsPlayer::tree`] shows of a node.
impl Node {
    /// The action from the parent into this node.
    pub fn action(&self) -> Action {
        self.action
    }

    /// Iterations through this node.
    pub fn visits(&self) -> u32 {
        self.visits
    }

    /// The seat that chose [`action`](Self::action) (`u8::MAX` at the root
    /// and below chance).
    pub fn player(&self) -> u8 {
        self.player
    }
}

impl<G: Game> Player<G> for MctsPlayer<G>
where
    G::State: State<View = G::State> + PartialEq,
{
    fn spec(&self) -> String {
        let mut s = format!("mcts:sims={}", self.config.sims);
        if self.config.c != DEFAULT_C {
            s.push_str(&format!(",c={}", self.config.c));
        }
        if let Some(t) = self.config.time {
            s.push_str(&format!(",ms={}", t.as_millis()));
        }
        if let Some(spec) = self.leaf.spec() {
            s.push_str(&format!(",rollout={spec}"));
        }
        for part in self.config.switches() {
            s.push(',');
            s.push_str(&part);
        }
        s
    }

    fn choose(&mut self, view: &ViewOf<G>, legal: &[Action], rng: &mut WoprRng) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        if !(self.config.reuse && self.reroot(view)) {
            self.clear();
        }
        let started = std::time::Instant::now();
        let budget = self.clock_share(view).or(self.config.time);
        let a = self.run(view, rng, budget);
        self.spend(started.elapsed());
        debug_assert!(legal.contains(&a), "mcts chose an action not in legal");
        a
    }

    fn new_game(&mut self) {
        self.clear();
        self.clock_left = self.config.clock;
        self.moves_made = 0;
    }

    fn share_best(&mut self, best: BestSoFar) {
        self.best_so_far = Some(best);
    }
}

/// Builds an `mcts` player from its typed settings: random rollouts, or
/// the value net at `rollout` (a path already checked by the caller) as the
/// leaf evaluation; with `exact=E`, the game's endgame solver proving
/// positions of E empty squares or fewer.
pub fn build<G>(
    game: &G,
    config: MctsConfig,
    rollout: Option<&str>,
) -> Result<Box<dyn Player<G>>, SpecError>
where
    G: Roster + Encodable,
    G::State: State<View = G::State> + PartialEq,
{
    let leaf = match rollout {
        None => Leaf::Random,
        Some(path) => value_net(game, path)?,
    };
    with_exact(game, MctsPlayer::new(game, config, leaf)?)
}

/// Builds an `mcts` player with random rollouts for a game that has no net
/// encoding (Pig).
pub fn build_random<G>(game: &G, config: MctsConfig) -> Result<Box<dyn Player<G>>, SpecError>
where
    G: Game,
    G::State: State<View = G::State> + PartialEq,
{
    if let Some(e) = config.exact {
        return Err(SpecError(format!(
            "'mcts': exact={e} needs an endgame solver; {} has none",
            game.spec()
        )));
    }
    Ok(Box::new(MctsPlayer::new(game, config, Leaf::Random)?))
}

/// [`parse_config_for`] with the UCT constant of a game that names none,
/// [`DEFAULT_C`].
pub fn parse_config(spec: &GameSpec) -> Result<(MctsConfig, Option<String>), SpecError> {
    parse_config_for(spec, DEFAULT_C)
}

/// Reads `sims`, `c`, `ms`, `rollout`, `select`, `solve`, `reuse`, `exact`, `clock` and `fpu` from an
/// `mcts` spec: the search settings and the net file of `rollout=net:FILE`
/// (`None` for random rollouts); `default_c` is the UCT constant when the
/// spec gives no `c` (the game's own). Opens nothing.
pub fn parse_config_for(
    spec: &GameSpec,
    default_c: f64,
) -> Result<(MctsConfig, Option<String>), SpecError> {
    spec.check_keys(&[
        "sims", "c", "ms", "rollout", "select", "solve", "reuse", "exact", "clock", "fpu",
    ])?;
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
    let select = keyword(
        spec,
        "select",
        &[("uct", Select::Uct), ("puct", Select::Puct)],
    )?;
    let on_off = [("on", true), ("off", false)];
    let (solve, reuse) = (
        keyword(spec, "solve", &on_off)?,
        keyword(spec, "reuse", &on_off)?,
    );
    let fpu = keyword(spec, "fpu", &[("even", Fpu::Even), ("mean", Fpu::Mean)])?;
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
        .unwrap_or(match select {
            Select::Uct => default_c,
            Select::Puct => DEFAULT_PUCT_C,
        });
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
    if select == Select::Puct && rollout.is_none() {
        return Err(SpecError(
            "'mcts': select=puct needs rollout=net:FILE (its priors are the net's values)".into(),
        ));
    }
    let exact = spec
        .get("exact")
        .map(|v| {
            v.parse::<u32>()
                .ok()
                .filter(|e| (1..=40).contains(e))
                .ok_or_else(|| {
                    SpecError(format!(
                        "'mcts': exact={v} is not an integer in 1..=40 (accepted: {ACCEPTED})"
                    ))
                })
        })
        .transpose()?;
    if exact.is_some() && !solve {
        return Err(SpecError(
            "'mcts': exact=E proves positions, so it needs solve=on".into(),
        ));
    }
    let time = super::ms_arg(spec)?;
    let clock = super::time_arg(spec, "clock")?;
    let config = MctsConfig {
        sims,
        c,
        time,
        select,
        solve,
        reuse,
        exact,
        clock,
        fpu,
    };
    Ok((config, rollout))
}

/// The value of `key` in `spec`, one of `options` (named without regard
/// to case; the first when the spec does not name the key), or an error
/// listing them all.
fn keyword<T: Copy>(spec: &GameSpec, key: &str, options: &[(&str, T)]) -> Result<T, SpecError> {
    let Some(v) = spec.get(key) else {
        return Ok(options[0].1);
    };
    options
        .iter()
        .find(|(name, _)| v.eq_ignore_ascii_case(name))
        .map(|&(_, value)| value)
        .ok_or_else(|| {
            let accepted: Vec<String> = options.iter().map(|(n, _)| format!("{key}={n}")).collect();
            SpecError(format!(
                "'mcts': {key}={v} is not known (accepted: {})",
                accepted.join(", ")
            ))
        })
}

/// Builds the `mcts` player a net file's own `player` line names
/// (`line`, e.g. `mcts:sims=1000,select=puct`; see
/// [`super::net::wrapper_line`]) around that file's net, loaded from
/// `path`: the line's settings with `default_c` (the game's constant)
/// where it names no `c`, `time` (the `net:` spec's `ms=`) over the
/// line's. The line may not
/// name a `rollout` of its own: the file is the rollout.
pub fn build_wrapper<G>(
    game: &G,
    file: NetFile,
    path: &str,
    line: &str,
    default_c: f64,
    time: Option<Duration>,
) -> Result<Box<dyn Player<G>>, SpecError>
where
    G: Roster + Encodable,
    G::State: State<View = G::State> + PartialEq,
{
    let bad = |e: SpecError| SpecError(format!("{path}: its player line '{line}': {}", e.0));
    let mut spec = GameSpec::parse(line).map_err(bad)?;
    if spec.get("rollout").is_some() {
        return Err(bad(SpecError(
            "rollout= is not accepted there: the file's own net is the rollout".into(),
        )));
    }
    spec.args.push(("rollout".into(), format!("net:{path}")));
    let (mut config, _) = parse_config_for(&spec, default_c).map_err(bad)?;
    config.time = time.or(config.time);
    let leaf = value_leaf(game, file, path)?;
    with_exact(game, MctsPlayer::new(game, config, leaf)?)
}

/// The player with the game's endgame solver attached where its settings
/// say `exact=E`.
fn with_exact<G>(game: &G, player: MctsPlayer<G>) -> Result<Box<dyn Player<G>>, SpecError>
where
    G: Roster,
    G::State: State<View = G::State> + PartialEq,
{
    let Some(empties) = player.config.exact else {
        return Ok(Box::new(player));
    };
    let solver = game.solver().ok_or_else(|| {
        SpecError(format!(
            "'mcts': exact={empties} needs an endgame solver; {} has none",
            game.spec()
        ))
    })?;
    Ok(Box::new(player.with_exact(solver, empties)?))
}
