//! Players driven by a neural network (the `net:` specs).
//!
//! Spec: `net:PATH[,mode=M][,ply=N][,temp=T][,reduce=R][,finished=F]`. The
//! net file says which encoding the net reads (`raw` if it does not say) and
//! may name a default mode in its `player` line (`greedy`, or
//! `mode=alphabeta,ply=4`). The spec's own keys win: a `mode=` in the spec
//! replaces the file's mode together with its options, so
//! `net:FILE,mode=greedy` is the net alone whatever the file's line says,
//! while `net:FILE,ply=2` keeps the file's mode at 2 plies. A built
//! player's `spec()` is the spec as played, the file's line resolved
//! (`net:FILE,mode=alphabeta,ply=4`). A line starting `mcts:` (e.g.
//! `mcts:sims=1000,select=puct`) wraps the net in that search instead
//! ([`wrapper_line`]; built by the roster): `net:FILE` is then the `mcts`
//! player with `rollout=net:FILE`, `ms=` its time budget, unless the spec
//! names a mode or its options, which play the net alone. Modes:
//!
//! - `greedy` — a value net (one output: the value of a position for its
//!   player to move) scores every successor and the best is played (the
//!   thesis's SimpleMaxPlayer; Handa & Horiuchi; Naveed & Cowling's 1-ply).
//! - `policy` — a move-ranking net (one output per action index): illegal
//!   actions are masked, the highest output is played (Weaver & Bossomaier).
//!   A policy-value net (AlphaZero's, `"heads": "policy-value"`) plays its
//!   policy head so, and only so: `net:FILE,ply=1` or `mode=policy` (its
//!   value head is read by `mcts:…,select=puct,rollout=net:FILE`).
//! - `minimax2` — MIDI-Connect4's 2-ply minimax over a move-ranking net: for
//!   each own move, every reply of the opponent is considered and the position
//!   after it is scored by the net (read from our side, we are to move again);
//!   the move whose worst reply scores best is played. The paper does not say
//!   how several outputs make one position value: `reduce=max` (default)
//!   takes the highest output over our legal moves there (the value of our
//!   best continuation), `reduce=mean` their mean.
//! - `alphabeta` — `ply=N` alpha-beta (the thesis's proposed hybrid) with the
//!   value net at the leaves; `greedy` is `ply=1`.
//! - `softmax` — the thesis's "distribution over choices" (§3.1): successor
//!   values v become probabilities ∝ exp(v / T), `temp=T` (default 0.1).
//!
//! **One value scale.** Every mode compares net outputs with each other and
//! with finished games on one scale, symmetric about the net's neutral value:
//! a sigmoid output `o` in (0, 1) counts as `2o - 1`, a tanh or linear output
//! as itself, so a position's value for the other player is its negation and
//! a sigmoid net's 0.5 means "even". With `finished=rules` (the default) a
//! successor that ends the game is scored by the rules, not the net: a win
//! above every net value, a loss below every one, a draw at the neutral 0
//! (±2 for bounded outputs, ±1e30 for linear and relu ones). With
//! `finished=net` the net is asked about finished positions too, so win
//! detection is left to what evolution learns (the WOPR thesis's view, and
//! MIDI-Connect4 as written). Nobody is to move in a finished position, so
//! the grid encodings present it from seat 0's view and it is read from
//! there; in `minimax2` its outputs are reduced over all actions (none is
//! legal there).
//!
//! Ties are broken at random. Searches evaluate their leaves in batches: all
//! successors at once (`greedy`, `softmax`), all positions after every reply
//! (`minimax2`), all children of each node one ply above the horizon
//! (`alphabeta`). Every mode but `alphabeta` is a [`ValuePlayer`]: its
//! values for many positions (of many games in lockstep, see
//! `eval::lockstep`) come from one call, whose leaves go through the net in
//! passes of a hundred or more, each position giving the same bits it gives
//! alone.

use std::collections::hash_map::{Entry, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;
use std::time::Duration;

use rand::RngExt;

use super::{Player, ViewOf};
use crate::game::encode::{Encodable, EncodingOf};
use crate::game::player::ValuePlayer;
use crate::game::rng::WoprRng;
use crate::game::{mover, Action, ActionList, GameSpec, Searchable, SpecError, State};
use crate::nn::{AnyNet, Heads, NetFile, Network};
use crate::search::{AlphaBeta, Limits};

mod eval;
mod settings;

pub use eval::NetEval;
pub use settings::{line_names_a_player, Finished, NetMode, NetSettings, Reduce};

/// A player that chooses with a net.
pub struct NetPlayer<G: Encodable> {
    spec: String,
    eval: NetEval<G>,
    mode: NetMode,
    finished: Finished,
    search: Option<AlphaBeta>,
    /// The alpha-beta mode's wall-clock budget per move.
    time: Option<Duration>,
    work: Work<G::State>,
    /// The values of one decision, reused.
    single: Vec<f32>,
}

/// Leaves a net player sends through one forward pass, at most (plus the
/// leaves of one more position): past the batched kernel's full speed,
/// and small enough that its inputs stay in cache.
const CHUNK: usize = 128;

/// A hasher for keys that are already well mixed ([`Searchable::key`]):
/// the key is its own hash.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// Positions by key, as indices into a list of distinct positions.
type KeyMap = HashMap<u64, usize, BuildHasherDefault<KeyHasher>>;

/// The index of `s` in `list`, adding it if it is new (then `true`). Found
/// by key and confirmed by `==`: a position whose key another one already
/// holds is added again, unmapped, so a collision costs work, not a wrong
/// value.
fn intern<S: Searchable>(map: &mut KeyMap, list: &mut Vec<S>, s: &S) -> (usize, bool) {
    match map.entry(s.key()) {
        Entry::Occupied(e) if list[*e.get()] == *s => return (*e.get(), false),
        Entry::Occupied(_) => {}
        Entry::Vacant(e) => {
            e.insert(list.len());
        }
    }
    list.push(s.clone());
    (list.len() - 1, true)
}

/// The working memory of one [`NetPlayer::values_of`] call, kept between
/// calls so that a warm player does not allocate.
struct Work<S> {
    /// The distinct positions asked about.
    roots: Vec<S>,
    root_keys: KeyMap,
    /// For each position asked about, its index in `roots`.
    which: Vec<usize>,
    /// Where each distinct position's values start in `slots` (one more
    /// entry at the end).
    starts: Vec<usize>,
    /// The values of every distinct position's legal actions, back to back.
    slots: Vec<f32>,
    /// `(slot, leaf, sign)`: slot's value takes `sign` times the leaf's
    /// value, in the order the search meets its leaves.
    parts: Vec<(usize, usize, f32)>,
    /// The leaves not evaluated yet; in policy mode (where a root is its
    /// own leaf) with the slot of each one's first value.
    leaves: Vec<S>,
    policy: Vec<usize>,
    /// The value of every leaf met, by number.
    leaf_value: Vec<f32>,
}

impl<S> Work<S> {
    fn new() -> Self {
        Work {
            roots: Vec::new(),
            root_keys: KeyMap::default(),
            which: Vec::new(),
            starts: Vec::new(),
            slots: Vec::new(),
            parts: Vec::new(),
            leaves: Vec::new(),
            policy: Vec::new(),
            leaf_value: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.roots.clear();
        self.root_keys.clear();
        self.which.clear();
        self.starts.clear();
        self.slots.clear();
        self.parts.clear();
        self.policy.clear();
        self.leaves.clear();
        self.leaf_value.clear();
    }
}

impl<G: Encodable> NetPlayer<G>
where
    G::State: Searchable,
{
    /// A player using `net` (read through `encoding`) in `mode`; `spec` is what
    /// records show.
    pub fn new(
        game: &G,
        net: Arc<AnyNet>,
        encoding: EncodingOf<G>,
        mode: NetMode,
        spec: String,
    ) -> Result<Self, SpecError> {
        Self::with_heads(game, net, encoding, mode, spec, Heads::Plain)
    }

    /// [`NetPlayer::new`] for a net whose outputs mean what `heads` says:
    /// a policy-value net ([`Heads::PolicyValue`]) plays its policy alone
    /// (`mode=policy`, the masked logits' best); other modes are refused.
    pub fn with_heads(
        game: &G,
        net: Arc<AnyNet>,
        encoding: EncodingOf<G>,
        mode: NetMode,
        spec: String,
        heads: Heads,
    ) -> Result<Self, SpecError> {
        let outputs = net.num_outputs();
        match (heads, mode) {
            (Heads::PolicyValue, NetMode::Policy) if outputs != game.num_actions() + 1 => {
                return Err(SpecError(format!(
                    "a policy-value net for {} needs {} outputs (one per action, then the value), this one has {outputs}",
                    game.spec(),
                    game.num_actions() + 1
                )))
            }
            (Heads::PolicyValue, NetMode::Policy) => {}
            (Heads::PolicyValue, _) => {
                return Err(SpecError(format!(
                    "{} is not a mode of a policy-value net (accepted: mode=policy or ply=1, the policy alone; or mcts:…,select=puct,rollout=net:FILE)",
                    mode.spec()
                )))
            }
            (_, NetMode::Policy | NetMode::Minimax2 { .. }) if outputs != game.num_actions() => {
                return Err(SpecError(format!(
                    "{} needs a net with one output per action ({} for {}), this one has {outputs}",
                    mode.spec(),
                    game.num_actions(),
                    game.spec()
                )))
            }
            (_, NetMode::Greedy | NetMode::AlphaBeta { .. } | NetMode::Softmax { .. })
                if outputs != 1 =>
            {
                return Err(SpecError(format!(
                    "{} needs a value net with one output, this one has {outputs}",
                    mode.spec()
                )))
            }
            _ => {}
        }
        let search = match mode {
            NetMode::AlphaBeta { .. } => Some(AlphaBeta::new(16)),
            _ => None,
        };
        Ok(NetPlayer {
            spec,
            eval: NetEval::new(net, encoding)?,
            mode,
            finished: Finished::Rules,
            search,
            time: None,
            work: Work::new(),
            single: Vec::new(),
        })
    }

    /// The same player, with finished positions scored as `finished` says
    /// (the rules by default). Alpha-beta always scores finished positions
    /// by the rules: its search knows the returns.
    pub fn with_finished(mut self, finished: Finished) -> Self {
        self.finished = finished;
        self
    }

    /// The same player, with a wall-clock budget per move for the alpha-beta
    /// mode (its search then plays the deepest fully searched move); other
    /// modes do not search and ignore it.
    pub fn with_time_limit(mut self, time: Option<Duration>) -> Self {
        self.time = time;
        self
    }

    /// Loads `net:PATH[,…]` for `game`.
    pub fn from_spec(game: &G, spec: &GameSpec) -> Result<Self, SpecError> {
        Self::from_settings(game, &NetSettings::parse(spec)?)
    }

    /// Loads the net of `settings.path` for `game`. The file's `player` field
    /// gives defaults (a mode name, `greedy`, or mode arguments,
    /// `mode=alphabeta,ply=3`); the settings win, a `mode=` in them with
    /// its options ([`NetSettings::over`]). The player's
    /// [`Player::spec`] is the resolved spec, every setting it plays with
    /// named ([`NetSettings::played`]).
    pub fn from_settings(game: &G, settings: &NetSettings) -> Result<Self, SpecError> {
        Self::from_loaded(game, load_checked(game, &settings.path)?, settings)
    }

    /// A player of a net file already in memory (a learner's net, measured
    /// as it learns), in the mode its `player` field names; `label` is what
    /// records show.
    pub fn from_file(game: &G, file: NetFile, label: &str) -> Result<Self, SpecError> {
        check_game(game, &file, label).map_err(SpecError)?;
        let settings = NetSettings {
            path: label.to_string(),
            ..NetSettings::default()
        };
        Self::from_loaded(game, file, &settings)
    }

    /// The player of a loaded `file` with `settings` over the file's own
    /// (a line naming a player around the net, [`line_names_a_player`],
    /// leaves the net alone to its default mode here).
    pub fn from_loaded(game: &G, file: NetFile, settings: &NetSettings) -> Result<Self, SpecError> {
        let encoding = game.encoding(file.encoding.as_deref().unwrap_or("raw"))?;
        let default_mode = if file.net.num_outputs() == 1 && file.heads == Heads::Plain {
            "greedy"
        } else {
            "policy"
        };
        let defaults = match &file.player {
            Some(p) if line_names_a_player(p) => NetSettings::default(),
            Some(p) if p.contains('=') => {
                NetSettings::options(&GameSpec::parse(&format!("net:{p}"))?)?
            }
            Some(p) => NetSettings {
                mode: Some(p.to_ascii_lowercase()),
                ..NetSettings::default()
            },
            None => NetSettings::default(),
        };
        let merged = settings.over(&defaults);
        let mode = merged.mode(default_mode)?;
        let finished = merged.finished.unwrap_or_default();
        // What records show: the settings as played, the file's line
        // resolved, so that `net:FILE` says how many plies it searches.
        let played = NetSettings::played(&settings.path, mode, finished, merged.time);
        let net = Arc::new(file.net);
        Ok(
            NetPlayer::with_heads(game, net, encoding, mode, played.to_string(), file.heads)?
                .with_finished(finished)
                .with_time_limit(merged.time),
        )
    }

    /// Whether a successor `c` is left to the rules rather than the net.
    fn scored_by_rules(&self, c: &G::State) -> bool {
        self.finished == Finished::Rules && mover(c).is_none()
    }

    /// Whether every choice is [`ValuePlayer::values`] then
    /// [`ValuePlayer::pick`]: every mode but alpha-beta, whose search
    /// draws its own tie-breaks.
    pub fn values_alone(&self) -> bool {
        !matches!(self.mode, NetMode::AlphaBeta { .. })
    }

    /// The values of the legal actions at each of `roots` for its player to
    /// move (see [`ValuePlayer::values`]), for every mode but alpha-beta.
    ///
    /// Each distinct root is searched once (games in lockstep often meet the
    /// same position: a net's first move is the same in all its games as
    /// the first player), and the leaves of all the searches are evaluated
    /// in forward passes of about [`CHUNK`] leaves. (Leaves shared by
    /// different roots are rare enough that finding them costs more than
    /// it saves.) The batched pass computes every position on its
    /// own (the same operations whatever else is in the batch), so a value
    /// is the same bits whether its position was asked about alone or with
    /// thousands of others.
    ///
    /// The modes, per legal action `a` of a root (the player to move there
    /// is `me`): `greedy` and `softmax` value the successor after `a`;
    /// `minimax2` takes the least value over the positions after `a` and
    /// each reply, a leaf's value being its outputs reduced over its legal
    /// actions; `policy` reads the root's own output for `a`. A successor
    /// that ends the game is scored by the rules unless `finished=net`.
    fn values_of(&mut self, roots: &[G::State], out: &mut Vec<f32>) {
        debug_assert!(self.values_alone(), "alpha-beta has no values");
        let mut work = std::mem::replace(&mut self.work, Work::new());
        work.clear();
        for root in roots {
            let (d, new) = intern(&mut work.root_keys, &mut work.roots, root);
            work.which.push(d);
            if new {
                self.expand(&mut work, d);
                if work.leaves.len() >= CHUNK {
                    self.evaluate_leaves(&mut work);
                }
            }
        }
        self.evaluate_leaves(&mut work);
        work.starts.push(work.slots.len());
        // Minimax keeps the least of a slot's parts; the other modes have
        // one part per slot.
        let least = matches!(self.mode, NetMode::Minimax2 { .. });
        for &(slot, leaf, sign) in &work.parts {
            let v = sign * work.leaf_value[leaf];
            work.slots[slot] = if least { work.slots[slot].min(v) } else { v };
        }
        for &d in &work.which {
            out.extend_from_slice(&work.slots[work.starts[d]..work.starts[d + 1]]);
        }
        self.work = work;
    }

    /// Lists the leaves of distinct root `d` and the parts of its values.
    fn expand(&self, work: &mut Work<G::State>, d: usize) {
        let root = work.roots[d].clone();
        let me = mover(&root).expect("a player to move");
        let mut legal = ActionList::new();
        root.legal_actions(&mut legal);
        let start = work.slots.len();
        work.starts.push(start);
        work.slots
            .extend(std::iter::repeat_n(f32::INFINITY, legal.len()));
        let leaf = |work: &mut Work<G::State>, slot: usize, s: &G::State| {
            let sign = self.eval.sign_for(s, me);
            work.parts
                .push((slot, work.leaf_value.len() + work.leaves.len(), sign));
            work.leaves.push(s.clone());
        };
        match self.mode {
            NetMode::Policy => {
                work.leaves.push(root);
                work.policy.push(start);
            }
            NetMode::Minimax2 { .. } => {
                let mut replies = ActionList::new();
                for (i, &a) in legal.iter().enumerate() {
                    let mut c = root.clone();
                    c.apply(a);
                    if self.scored_by_rules(&c) {
                        work.slots[start + i] = self.eval.result_value(c.returns(me));
                    } else if mover(&c).is_none() {
                        // Finished, and left to the net: the position itself
                        // is the leaf.
                        leaf(work, start + i, &c);
                    } else {
                        replies.clear();
                        c.legal_actions(&mut replies);
                        for &r in &replies {
                            let mut g = c.clone();
                            g.apply(r);
                            if self.scored_by_rules(&g) {
                                let v = self.eval.result_value(g.returns(me));
                                work.slots[start + i] = work.slots[start + i].min(v);
                            } else {
                                leaf(work, start + i, &g);
                            }
                        }
                    }
                }
            }
            _ => {
                for (i, &a) in legal.iter().enumerate() {
                    let mut c = root.clone();
                    c.apply(a);
                    if self.scored_by_rules(&c) {
                        work.slots[start + i] = self.eval.result_value(c.returns(me));
                    } else {
                        leaf(work, start + i, &c);
                    }
                }
            }
        }
    }

    /// Runs the net on the leaves waiting and values them. A leaf's value
    /// is read from its own view (its player to move's, or the encoding's
    /// seat): in `minimax2` its outputs over its legal actions reduced
    /// (over all of them in a finished leaf, where none is legal), else its
    /// one output; in `policy` mode its root's values are its outputs for
    /// the root's legal actions.
    fn evaluate_leaves(&mut self, work: &mut Work<G::State>) {
        if work.leaves.is_empty() {
            return;
        }
        let k = self.eval.num_outputs();
        let (scale, shift) = self.eval.centre;
        let centred = |o: f32| scale * o - shift;
        let out = self.eval.run(&work.leaves);
        let mut list = ActionList::new();
        for (l, (leaf, o)) in work.leaves.iter().zip(out.chunks_exact(k)).enumerate() {
            let v = match self.mode {
                NetMode::Minimax2 { reduce } => {
                    list.clear();
                    leaf.legal_actions(&mut list);
                    if list.is_empty() {
                        list.extend((0..k).map(|a| a as Action));
                    }
                    let outs = list.iter().map(|&a| centred(o[a as usize]));
                    match reduce {
                        Reduce::Max => outs.fold(f32::NEG_INFINITY, f32::max),
                        Reduce::Mean => outs.sum::<f32>() / list.len().max(1) as f32,
                    }
                }
                NetMode::Policy => {
                    list.clear();
                    leaf.legal_actions(&mut list);
                    let start = work.policy[l];
                    for (slot, &a) in work.slots[start..].iter_mut().zip(&list) {
                        *slot = o[a as usize];
                    }
                    0.0
                }
                _ => centred(o[0]),
            };
            work.leaf_value.push(v);
        }
        work.leaves.clear();
        work.policy.clear();
    }
}

/// Index of a random maximum of `values` (any index when all are NaN).
fn argmax_random(values: &[f32], rng: &mut WoprRng) -> usize {
    let top = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let best = values.iter().filter(|&&v| v >= top).count();
    if best == 0 {
        return rng.random_range(0..values.len());
    }
    let k = rng.random_range(0..best);
    values
        .iter()
        .enumerate()
        .filter(|(_, &v)| v >= top)
        .nth(k)
        .map_or(0, |(i, _)| i)
}

impl<G: Encodable> Player<G> for NetPlayer<G>
where
    G::State: Searchable,
{
    fn spec(&self) -> String {
        self.spec.clone()
    }

    fn choose(&mut self, view: &ViewOf<G>, legal: &[Action], rng: &mut WoprRng) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        if let NetMode::AlphaBeta { ply } = self.mode {
            let search = self
                .search
                .as_mut()
                .expect("alpha-beta mode has a searcher");
            let limits = Limits {
                depth: Some(ply),
                time: self.time,
            };
            return search.search_with(view, limits, rng, &mut self.eval).best;
        }
        let mut values = std::mem::take(&mut self.single);
        values.clear();
        self.values_of(std::slice::from_ref(view), &mut values);
        let a = ValuePlayer::pick(self, &values, legal, rng);
        self.single = values;
        a
    }

    fn new_game(&mut self) {
        if let Some(s) = self.search.as_mut() {
            s.clear();
        }
    }
}

impl<G: Encodable> ValuePlayer<G> for NetPlayer<G>
where
    G::State: Searchable,
{
    fn values(&mut self, views: &[ViewOf<G>], out: &mut Vec<f32>) {
        self.values_of(views, out);
    }

    /// The best value, ties broken at random; in `softmax` mode a draw
    /// with probability ∝ exp(value / T).
    fn pick(&self, values: &[f32], legal: &[Action], rng: &mut WoprRng) -> Action {
        let NetMode::Softmax { temperature } = self.mode else {
            return legal[argmax_random(values, rng)];
        };
        let top = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let w: Vec<f64> = values
            .iter()
            .map(|&x| (((x - top) / temperature) as f64).exp())
            .collect();
        let total: f64 = w.iter().sum();
        let mut x = rng.random::<f64>() * total;
        for (i, wi) in w.iter().enumerate() {
            if x < *wi {
                return legal[i];
            }
            x -= wi;
        }
        legal[legal.len() - 1]
    }
}

/// The `net:` spec syntax, for player lists.
pub const NET_PLAYERS: &[&str] = &[
    "net:PATH[,mode=greedy|policy|minimax2|alphabeta|softmax][,ply=N][,temp=T][,ms=T][,finished=rules|net]",
];

/// Loads the net file at `path` and checks that it is for `game`.
pub fn load_checked<G: crate::game::Game>(game: &G, path: &str) -> Result<NetFile, SpecError> {
    let file = NetFile::load(path).map_err(|e| SpecError(e.to_string()))?;
    check_game(game, &file, path).map_err(SpecError)?;
    Ok(file)
}

/// The search a net file's `player` line wraps the net in, where it names
/// one: a line starting `mcts:` (e.g. `mcts:sims=1000,select=puct`) is
/// the `mcts` player with this file as its `rollout=net:`, which is what
/// `net:FILE` then plays unless the spec names a mode of its own (see
/// [`NetSettings::names_a_mode`]). Any other line holds `net:` settings.
pub fn wrapper_line(file: &NetFile) -> Option<&str> {
    file.player
        .as_deref()
        .filter(|p| p.get(..5).is_some_and(|k| k.eq_ignore_ascii_case("mcts:")))
}

/// Checks that a net file loaded from `path` is for `game` (files without a
/// game are accepted). The file names its game by spec; canonical forms are
/// compared where it names this kind of game at all.
pub fn check_game<G: crate::game::Game>(
    game: &G,
    file: &NetFile,
    path: &str,
) -> Result<(), String> {
    let Some(g) = &file.game else { return Ok(()) };
    let want = GameSpec::parse(g)
        .ok()
        .filter(|s| G::INFO.names(&s.name))
        .and_then(|s| G::from_spec(&s).ok())
        .map_or_else(|| g.clone(), |other| other.spec());
    if want == game.spec() {
        Ok(())
    } else {
        Err(format!(
            "{path} is a net for {want}, not for {}",
            game.spec()
        ))
    }
}
