//! Players driven by a neural network (the `net:` specs).
//!
//! Spec: `net:PATH[,mode=M][,ply=N][,temp=T][,reduce=R][,finished=F]`. The
//! net file says which encoding the net reads (`raw` if it does not say) and
//! may name a default mode. Modes:
//!
//! - `greedy` — a value net (one output: the value of a position for its
//!   player to move) scores every successor and the best is played (the
//!   thesis's SimpleMaxPlayer; Handa & Horiuchi; Naveed & Cowling's 1-ply).
//! - `policy` — a move-ranking net (one output per action index): illegal
//!   actions are masked, the highest output is played (Weaver & Bossomaier).
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
//! (`alphabeta`).

use std::sync::Arc;

use rand::RngExt;

use super::{Player, ViewOf};
use crate::game::encode::{Encodable, EncodingOf};
use crate::game::rng::WoprRng;
use crate::game::{mover, Action, ActionList, GameSpec, Searchable, SpecError, State};
use crate::nn::{Activation, AnyNet, NetFile, Network, Scratch};
use crate::search::{AlphaBeta, Evaluator, Limits};

/// How a net chooses moves; see the module docs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NetMode {
    /// Greedy over successor values.
    Greedy,
    /// Highest output among the legal actions.
    Policy,
    /// MIDI-Connect4's 2-ply minimax over the outputs.
    Minimax2 {
        /// How outputs become a position value.
        reduce: Reduce,
    },
    /// Alpha-beta to `ply` with the net at the leaves.
    AlphaBeta {
        /// Search depth.
        ply: u32,
    },
    /// Sample successors with probability ∝ exp(value / temperature).
    Softmax {
        /// The temperature.
        temperature: f32,
    },
}

/// How a move-ranking net's outputs become one position value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    /// The highest output over the legal actions.
    Max,
    /// The mean output over the legal actions.
    Mean,
}

impl NetMode {
    /// The mode's spec text (`mode=…` plus its options).
    pub fn spec(&self) -> String {
        match self {
            NetMode::Greedy => "mode=greedy".into(),
            NetMode::Policy => "mode=policy".into(),
            NetMode::Minimax2 { reduce } => format!(
                "mode=minimax2,reduce={}",
                if *reduce == Reduce::Max {
                    "max"
                } else {
                    "mean"
                }
            ),
            NetMode::AlphaBeta { ply } => format!("mode=alphabeta,ply={ply}"),
            NetMode::Softmax { temperature } => format!("mode=softmax,temp={temperature}"),
        }
    }

    /// Reads the mode from spec arguments, falling back to `default` (the
    /// net file's `player` field, or what the output count suggests).
    pub fn from_spec(spec: &GameSpec, default: &str) -> Result<NetMode, SpecError> {
        let name = spec.get("mode").unwrap_or(default).to_ascii_lowercase();
        let ply = spec.int("ply", 0, 1, 32)?;
        let mode = match name.as_str() {
            "greedy" | "value" if ply > 1 => NetMode::AlphaBeta { ply: ply as u32 },
            "greedy" | "value" => NetMode::Greedy,
            "policy" | "rank" => NetMode::Policy,
            "minimax2" | "minimax" => NetMode::Minimax2 {
                reduce: match spec.get("reduce").unwrap_or("max") {
                    "max" => Reduce::Max,
                    "mean" => Reduce::Mean,
                    other => {
                        return Err(SpecError(format!(
                            "reduce={other} is not known (accepted: max, mean)"
                        )))
                    }
                },
            },
            "alphabeta" => NetMode::AlphaBeta {
                ply: if ply == 0 { 2 } else { ply as u32 },
            },
            "softmax" => {
                let t: f32 = spec
                    .get("temp")
                    .unwrap_or("0.1")
                    .parse()
                    .ok()
                    .filter(|t: &f32| *t > 0.0 && t.is_finite())
                    .ok_or_else(|| SpecError("temp= must be a positive number".into()))?;
                NetMode::Softmax { temperature: t }
            }
            other => {
                return Err(SpecError(format!(
                    "unknown net mode '{other}' (accepted: greedy, policy, minimax2, alphabeta, softmax)"
                )))
            }
        };
        Ok(mode)
    }
}

/// The value of a won successor for bounded outputs (sigmoid, tanh): beyond
/// every net value on the symmetric scale (-1, 1).
const RESULT_VALUE: f32 = 2.0;

/// The value of a won successor for unbounded outputs (linear, relu).
const RESULT_VALUE_UNBOUNDED: f32 = 1e30;

/// Who scores a successor that ends the game; see the module docs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Finished {
    /// The rules: a win above every net value, a loss below, a draw at 0.
    #[default]
    Rules,
    /// The net, like any other position.
    Net,
}

impl Finished {
    /// Parses `rules` or `net`.
    pub fn parse(text: &str) -> Result<Finished, SpecError> {
        match text.to_ascii_lowercase().as_str() {
            "rules" => Ok(Finished::Rules),
            "net" => Ok(Finished::Net),
            other => Err(SpecError(format!(
                "finished={other} is not known (accepted: rules, net)"
            ))),
        }
    }

    /// The spec text (`rules` or `net`).
    pub fn name(self) -> &'static str {
        match self {
            Finished::Rules => "rules",
            Finished::Net => "net",
        }
    }
}

/// Net values are scaled to integers for the alpha-beta search.
const SEARCH_SCALE: f32 = 10_000.0;

/// A net, its encoding and its working memory.
pub struct NetEval<G: Encodable> {
    net: Arc<AnyNet>,
    encoding: EncodingOf<G>,
    scratch: Scratch,
    inputs: Vec<f32>,
    outputs: Vec<f32>,
    /// `(scale, shift)`: an output `o` is worth `scale * o - shift` on the
    /// symmetric value scale.
    centre: (f32, f32),
    /// Whether the output activation is bounded (sigmoid, tanh).
    bounded: bool,
    /// The seat whose view a fixed-view encoding gives (values are that
    /// seat's); `None`: the player to move's.
    view: Option<usize>,
}

impl<G: Encodable> NetEval<G> {
    /// Pairs a net with an encoding; fails if the sizes differ.
    pub fn new(net: Arc<AnyNet>, encoding: EncodingOf<G>) -> Result<Self, SpecError> {
        if net.num_inputs() != encoding.size() {
            return Err(SpecError(format!(
                "the net has {} inputs but encoding '{}' gives {}",
                net.num_inputs(),
                encoding.name(),
                encoding.size()
            )));
        }
        let output = net.activations().last().copied();
        let centre = match output {
            Some(Activation::Sigmoid) => (2.0, 1.0),
            _ => (1.0, 0.0),
        };
        let bounded = matches!(output, Some(Activation::Sigmoid | Activation::Tanh));
        let view = encoding.view();
        Ok(NetEval {
            view,
            net,
            encoding,
            scratch: Scratch::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            centre,
            bounded,
        })
    }

    /// An output on the symmetric value scale (see the module docs): a
    /// sigmoid's `o` becomes `2o - 1`, other outputs stay as they are.
    #[inline]
    pub fn centred(&self, o: f32) -> f32 {
        self.centre.0 * o - self.centre.1
    }

    /// The value of a finished game with return `r` for the player judging
    /// it: a win above every net value, a loss below every one, a draw 0.
    pub fn result_value(&self, r: f64) -> f32 {
        let win = if self.bounded {
            RESULT_VALUE
        } else {
            RESULT_VALUE_UNBOUNDED
        };
        win * r.signum_or_zero()
    }

    /// Runs the net on every state; returns the outputs, `num_outputs` per
    /// state, row by row.
    pub fn run(&mut self, states: &[G::State]) -> &[f32] {
        let n_in = self.encoding.size();
        self.inputs.resize(states.len() * n_in, 0.0);
        for (s, row) in states.iter().zip(self.inputs.chunks_exact_mut(n_in)) {
            self.encoding.encode(s, row);
        }
        self.outputs
            .resize(states.len() * self.net.num_outputs(), 0.0);
        if !states.is_empty() {
            self.net
                .forward_batch(&self.inputs, &mut self.outputs, &mut self.scratch);
        }
        &self.outputs
    }

    /// The number of outputs.
    pub fn num_outputs(&self) -> usize {
        self.net.num_outputs()
    }

    /// The sign that turns the net's value of `c` into a value for `me`:
    /// positions are valued for their player to move (finished ones, left
    /// to the net, for seat 0), or for the encoding's fixed seat.
    pub fn sign_for(&self, c: &G::State, me: usize) -> f32 {
        if self.view.unwrap_or_else(|| mover(c).unwrap_or(0)) == me {
            1.0
        } else {
            -1.0
        }
    }

    /// The sign that turns the net's value of `s` into one for its player
    /// to move (1 unless the encoding has a fixed view of another seat).
    fn mover_sign(&self, s: &G::State) -> f32 {
        match (self.view, mover(s)) {
            (Some(v), Some(m)) if v != m => -1.0,
            _ => 1.0,
        }
    }
}

impl<G: Encodable> Evaluator<G::State> for NetEval<G>
where
    G::State: Searchable,
{
    fn evaluate(&mut self, state: &G::State) -> i32 {
        let o = self.run(std::slice::from_ref(state))[0];
        let v = self.mover_sign(state) * self.centred(o);
        (v.clamp(-RESULT_VALUE, RESULT_VALUE) * SEARCH_SCALE) as i32
    }
    fn batched(&self) -> bool {
        true
    }
    fn evaluate_batch(&mut self, states: &[G::State], out: &mut Vec<i32>) {
        let k = self.num_outputs();
        let (scale, shift) = self.centre;
        let signs: Vec<f32> = states.iter().map(|s| self.mover_sign(s)).collect();
        let values = self.run(states);
        out.extend(values.chunks_exact(k).zip(signs).map(|(o, sign)| {
            ((sign * (scale * o[0] - shift)).clamp(-RESULT_VALUE, RESULT_VALUE) * SEARCH_SCALE)
                as i32
        }));
    }
}

/// A player that chooses with a net.
pub struct NetPlayer<G: Encodable> {
    spec: String,
    eval: NetEval<G>,
    mode: NetMode,
    finished: Finished,
    search: Option<AlphaBeta>,
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
        let outputs = net.num_outputs();
        match mode {
            NetMode::Policy | NetMode::Minimax2 { .. } if outputs != game.num_actions() => {
                return Err(SpecError(format!(
                    "{} needs a net with one output per action ({} for {}), this one has {outputs}",
                    mode.spec(),
                    game.num_actions(),
                    game.spec()
                )))
            }
            NetMode::Greedy | NetMode::AlphaBeta { .. } | NetMode::Softmax { .. }
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
        })
    }

    /// The same player, with finished positions scored as `finished` says
    /// (the rules by default). Alpha-beta always scores finished positions
    /// by the rules: its search knows the returns.
    pub fn with_finished(mut self, finished: Finished) -> Self {
        self.finished = finished;
        self
    }

    /// Loads `net:PATH[,…]` for `game`.
    pub fn from_spec(game: &G, spec: &GameSpec) -> Result<Self, SpecError> {
        spec.check_keys(&["", "mode", "ply", "temp", "reduce", "finished"])?;
        let path = spec
            .args
            .iter()
            .find(|(k, _)| k.is_empty())
            .map(|(_, v)| v.clone())
            .ok_or_else(|| SpecError("net: needs a file, as net:PATH".into()))?;
        let file = NetFile::load(&path).map_err(|e| SpecError(e.to_string()))?;
        check_game(game, &file, &path).map_err(SpecError)?;
        let encoding = game.encoding(file.encoding.as_deref().unwrap_or("raw"))?;
        // The file's `player` field gives defaults: a mode name (`greedy`) or
        // mode arguments (`mode=alphabeta,ply=3`); the spec's arguments win.
        let default_mode = if file.net.num_outputs() == 1 {
            "greedy"
        } else {
            "policy"
        };
        let mut merged = GameSpec {
            name: "net".into(),
            args: Vec::new(),
        };
        if let Some(p) = &file.player {
            let text = if p.contains('=') {
                format!("net:{p}")
            } else {
                format!("net:mode={p}")
            };
            merged.args = GameSpec::parse(&text)?.args;
        }
        merged
            .args
            .extend(spec.args.iter().filter(|(k, _)| !k.is_empty()).cloned());
        let mode = NetMode::from_spec(&merged, default_mode)?;
        let finished = Finished::parse(merged.get("finished").unwrap_or("rules"))?;
        Ok(
            NetPlayer::new(game, Arc::new(file.net), encoding, mode, spec.to_string())?
                .with_finished(finished),
        )
    }

    /// Whether a successor `c` is left to the rules rather than the net.
    fn scored_by_rules(&self, c: &G::State) -> bool {
        self.finished == Finished::Rules && mover(c).is_none()
    }

    /// Values of the successors (for the player to move here), one per legal
    /// action.
    fn successor_values(&mut self, state: &G::State, legal: &[Action]) -> Vec<f32> {
        let me = mover(state).expect("a player to move");
        let mut values = vec![0.0; legal.len()];
        let mut pending = Vec::new();
        let mut children = Vec::new();
        for (i, &a) in legal.iter().enumerate() {
            let mut c = state.clone();
            c.apply(a);
            if self.scored_by_rules(&c) {
                values[i] = self.eval.result_value(c.returns(me));
            } else {
                pending.push(i);
                children.push(c);
            }
        }
        let out = self.eval.run(&children).to_vec();
        for ((&i, c), o) in pending.iter().zip(&children).zip(out) {
            values[i] = self.eval.sign_for(c, me) * self.eval.centred(o);
        }
        values
    }

    fn minimax2(&mut self, state: &G::State, legal: &[Action], reduce: Reduce) -> Vec<f32> {
        let me = mover(state).expect("a player to move");
        // Positions after (own move, reply), and which own move each belongs to.
        let mut values = vec![f32::INFINITY; legal.len()];
        let mut owner = Vec::new();
        let mut leaves: Vec<G::State> = Vec::new();
        let mut list = ActionList::new();
        for (i, &a) in legal.iter().enumerate() {
            let mut c = state.clone();
            c.apply(a);
            if self.scored_by_rules(&c) {
                values[i] = self.eval.result_value(c.returns(me));
            } else if mover(&c).is_none() {
                // Finished, and left to the net: the position itself is the leaf.
                owner.push(i);
                leaves.push(c);
            } else {
                list.clear();
                c.legal_actions(&mut list);
                for &r in &list {
                    let mut d = c.clone();
                    d.apply(r);
                    if self.scored_by_rules(&d) {
                        let v = self.eval.result_value(d.returns(me));
                        values[i] = values[i].min(v);
                    } else {
                        owner.push(i);
                        leaves.push(d);
                    }
                }
            }
        }
        let k = self.eval.num_outputs();
        let out = self.eval.run(&leaves).to_vec();
        for ((leaf, &i), o) in leaves.iter().zip(&owner).zip(out.chunks_exact(k)) {
            list.clear();
            leaf.legal_actions(&mut list);
            if list.is_empty() {
                // A finished leaf: no action is legal, so all outputs count.
                list.extend((0..k).map(|a| a as Action));
            }
            let outs = list.iter().map(|&a| self.eval.centred(o[a as usize]));
            let v = match reduce {
                Reduce::Max => outs.fold(f32::NEG_INFINITY, f32::max),
                Reduce::Mean => outs.sum::<f32>() / list.len().max(1) as f32,
            };
            // The leaf's net view is that of its player to move.
            let v = self.eval.sign_for(leaf, me) * v;
            values[i] = values[i].min(v);
        }
        values
    }
}

trait SignumOrZero {
    fn signum_or_zero(self) -> f32;
}

impl SignumOrZero for f64 {
    fn signum_or_zero(self) -> f32 {
        if self > 0.0 {
            1.0
        } else if self < 0.0 {
            -1.0
        } else {
            0.0
        }
    }
}

/// Index of a random maximum of `values`.
fn argmax_random(values: &[f32], rng: &mut WoprRng) -> usize {
    let top = values.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let best: Vec<usize> = (0..values.len()).filter(|&i| values[i] >= top).collect();
    if best.is_empty() {
        return rng.random_range(0..values.len());
    }
    best[rng.random_range(0..best.len())]
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
        match self.mode {
            NetMode::Greedy => {
                let v = self.successor_values(view, legal);
                legal[argmax_random(&v, rng)]
            }
            NetMode::Policy => {
                let out = self.eval.run(std::slice::from_ref(view)).to_vec();
                let v: Vec<f32> = legal.iter().map(|&a| out[a as usize]).collect();
                legal[argmax_random(&v, rng)]
            }
            NetMode::Minimax2 { reduce } => {
                let v = self.minimax2(view, legal, reduce);
                legal[argmax_random(&v, rng)]
            }
            NetMode::Softmax { temperature } => {
                let v = self.successor_values(view, legal);
                let top = v.iter().copied().fold(f32::NEG_INFINITY, f32::max);
                let w: Vec<f64> = v
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
            NetMode::AlphaBeta { ply } => {
                let search = self
                    .search
                    .as_mut()
                    .expect("alpha-beta mode has a searcher");
                let limits = Limits {
                    depth: Some(ply),
                    time: None,
                };
                search.search_with(view, limits, rng, &mut self.eval).best
            }
        }
    }

    fn new_game(&mut self) {
        if let Some(s) = self.search.as_mut() {
            s.clear();
        }
    }
}

/// The `net:` spec syntax, for player lists.
pub const NET_PLAYERS: &[&str] = &[
    "net:PATH[,mode=greedy|policy|minimax2|alphabeta|softmax][,ply=N][,temp=T][,finished=rules|net]",
];

/// Builds a `net:` player, or `Ok(None)` for other names.
pub fn net_player<G: Encodable>(
    game: &G,
    spec: &GameSpec,
) -> Result<Option<Box<dyn Player<G>>>, SpecError>
where
    G::State: Searchable,
{
    if spec.name != "net" {
        return Ok(None);
    }
    Ok(Some(Box::new(NetPlayer::from_spec(game, spec)?)))
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
