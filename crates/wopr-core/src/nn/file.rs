//! Either architecture behind one type, and the JSON network file.
//!
//! A file looks like this (fields in this order; `game`, `encoding`,
//! `player`, `heads` and `pruned` are optional):
//!
//! ```json
//! {
//!   "game": "connect4:6x6",
//!   "encoding": "cells",
//!   "player": "greedy",
//!   "architecture": {"type": "mlp", "layers": [36, 60, 6]},
//!   "activations": ["sigmoid", "linear"],
//!   "weights": [0.12, -0.4, ...],
//!   "pruned": [17, 250]
//! }
//! ```
//!
//! `player` is how `net:FILE` plays the file: a mode name (`greedy`),
//! `net:` settings (`mode=alphabeta,ply=4`), or a search around the net
//! (`mcts:sims=1000,select=puct`); see [`crate::players::net`].
//! `"heads": "policy-value"` (after `player`) marks AlphaZero's net: its
//! linear last layer is one logit per action, then the value
//! ([`Heads::PolicyValue`]).
//!
//! A complete net has `"architecture": {"type": "complete", "inputs": 18,
//! "nodes": 5, "outputs": 1}` and two activations, hidden then output.
//! `weights` is the flat parameter vector in the layout documented on
//! [`Mlp`] and [`CompleteNet`]; `pruned` lists the indices held at zero.

use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Activation, CompleteNet, Mlp, NetError, Network, Scratch, Segment};
use crate::game::rng::WoprRng;

/// The shape of a net, as written in files.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
pub enum Architecture {
    /// A layered net: inputs, hidden layers, outputs.
    Mlp {
        /// Units per layer, inputs first.
        layers: Vec<usize>,
    },
    /// The thesis's complete feed-forward net.
    Complete {
        /// Number of inputs.
        inputs: usize,
        /// Number of non-input nodes, outputs included.
        nodes: usize,
        /// Number of output nodes (the last ones).
        outputs: usize,
    },
}

/// The most weights a net file may describe (2^26, 256 MiB of `f32`): a
/// file is refused above it before anything is allocated.
pub const MAX_FILE_PARAMS: usize = 1 << 26;

impl Architecture {
    /// The number of weights (biases included) of this shape, computed
    /// without allocating; `None` on overflow.
    pub fn num_params(&self) -> Option<usize> {
        match self {
            Architecture::Mlp { layers } => layers.windows(2).try_fold(0usize, |acc, w| {
                w[0].checked_add(1)?.checked_mul(w[1])?.checked_add(acc)
            }),
            Architecture::Complete { inputs, nodes, .. } => {
                let edges = nodes.checked_mul(nodes.saturating_sub(1))? / 2;
                nodes
                    .checked_mul(inputs.checked_add(1)?)?
                    .checked_add(edges)
            }
        }
    }
    /// Parses `36-60-6` (a layered net: inputs, hidden layers, outputs) or
    /// `complete:18-5-1` (inputs, nodes, outputs of a complete net).
    pub fn parse(text: &str) -> Result<Architecture, NetError> {
        let t = text.trim();
        let (complete, body) = match t.split_once(':') {
            Some((kind, rest)) if kind.eq_ignore_ascii_case("complete") => (true, rest),
            Some((kind, rest)) if kind.eq_ignore_ascii_case("mlp") => (false, rest),
            Some((kind, _)) => {
                return Err(NetError(format!(
                    "unknown architecture kind '{kind}' in '{t}' (accepted: 36-60-6, mlp:36-60-6, complete:IN-NODES-OUT)"
                )))
            }
            None => (false, t),
        };
        let nums = body
            .split('-')
            .map(|p| p.trim().parse::<usize>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(|_| {
                NetError(format!(
                    "bad architecture '{t}': expected sizes joined by '-', e.g. 36-60-6 or complete:18-5-1"
                ))
            })?;
        if complete {
            match nums[..] {
                [inputs, nodes, outputs] => Ok(Architecture::Complete {
                    inputs,
                    nodes,
                    outputs,
                }),
                _ => Err(NetError(format!(
                    "bad architecture '{t}': a complete net is complete:INPUTS-NODES-OUTPUTS"
                ))),
            }
        } else if nums.len() < 2 {
            Err(NetError(format!(
                "bad architecture '{t}': a layered net needs at least inputs and outputs, e.g. 36-60-6"
            )))
        } else {
            Ok(Architecture::Mlp { layers: nums })
        }
    }

    /// Number of activations a net of this shape takes: one per non-input
    /// layer, or two (hidden, output) for a complete net.
    pub fn num_activations(&self) -> usize {
        match self {
            Architecture::Mlp { layers } => layers.len().saturating_sub(1),
            Architecture::Complete { .. } => 2,
        }
    }
}

impl fmt::Display for Architecture {
    /// The form [`Architecture::parse`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Architecture::Mlp { layers } => {
                let s: Vec<String> = layers.iter().map(|l| l.to_string()).collect();
                f.write_str(&s.join("-"))
            }
            Architecture::Complete {
                inputs,
                nodes,
                outputs,
            } => write!(f, "complete:{inputs}-{nodes}-{outputs}"),
        }
    }
}

/// A net of either architecture (what a file holds).
#[derive(Clone, Debug, PartialEq)]
pub enum AnyNet {
    /// A layered perceptron.
    Mlp(Mlp),
    /// A complete feed-forward net.
    Complete(CompleteNet),
}

impl AnyNet {
    /// A net of the given shape with all parameters zero. `activations` has
    /// [`Architecture::num_activations`] entries.
    pub fn new(arch: &Architecture, activations: &[Activation]) -> Result<AnyNet, NetError> {
        match arch {
            Architecture::Mlp { layers } => Ok(AnyNet::Mlp(Mlp::new(layers, activations)?)),
            Architecture::Complete {
                inputs,
                nodes,
                outputs,
            } => match activations {
                &[hidden, output] => Ok(AnyNet::Complete(CompleteNet::new(
                    *inputs, *nodes, *outputs, hidden, output,
                )?)),
                _ => Err(NetError(format!(
                    "a complete net takes 2 activations (hidden, output), got {}",
                    activations.len()
                ))),
            },
        }
    }

    /// The net's shape.
    pub fn architecture(&self) -> Architecture {
        match self {
            AnyNet::Mlp(m) => Architecture::Mlp {
                layers: m.sizes().to_vec(),
            },
            AnyNet::Complete(c) => Architecture::Complete {
                inputs: c.num_inputs(),
                nodes: c.nodes(),
                outputs: c.num_outputs(),
            },
        }
    }

    /// The activations, as [`AnyNet::new`] takes them.
    pub fn activations(&self) -> Vec<Activation> {
        match self {
            AnyNet::Mlp(m) => m.activations().to_vec(),
            AnyNet::Complete(c) => vec![c.hidden_activation(), c.output_activation()],
        }
    }

    /// For a linear value net (a layered net with no hidden layer and one
    /// output, `f(b + Σ wᵢ·xᵢ)`), its output activation `f`; its
    /// parameters are then the input weights followed by the bias, as
    /// [`sparse_sum`] reads them. `None` for any other net.
    pub fn linear_value_output(&self) -> Option<Activation> {
        match self {
            AnyNet::Mlp(m) if m.sizes().len() == 2 && m.sizes()[1] == 1 => Some(m.activations()[0]),
            _ => None,
        }
    }
}

/// The weighted sum `b + Σ wᵢ·xᵢ` of a linear value net whose `params` are
/// the input weights followed by the bias, over inputs given as
/// `(input, value)` pairs (an input may appear more than once).
#[inline]
pub fn sparse_sum(params: &[f32], pairs: &[(u32, f32)]) -> f32 {
    let bias = params[params.len() - 1];
    pairs
        .iter()
        .fold(bias, |a, &(i, x)| a + params[i as usize] * x)
}

macro_rules! both {
    ($self:ident, $n:ident => $e:expr) => {
        match $self {
            AnyNet::Mlp($n) => $e,
            AnyNet::Complete($n) => $e,
        }
    };
}

impl Network for AnyNet {
    fn num_inputs(&self) -> usize {
        both!(self, n => n.num_inputs())
    }
    fn num_outputs(&self) -> usize {
        both!(self, n => n.num_outputs())
    }
    fn params(&self) -> &[f32] {
        both!(self, n => n.params())
    }
    fn params_mut(&mut self) -> &mut [f32] {
        both!(self, n => n.params_mut())
    }
    fn segments(&self) -> Vec<Segment> {
        both!(self, n => n.segments())
    }
    fn mask(&self) -> Option<&[bool]> {
        both!(self, n => n.mask())
    }
    fn set_mask(&mut self, mask: Option<Vec<bool>>) -> Result<(), NetError> {
        both!(self, n => n.set_mask(mask))
    }
    fn prune(&mut self, index: usize) {
        both!(self, n => n.prune(index))
    }
    fn apply_mask(&mut self) {
        both!(self, n => n.apply_mask())
    }
    fn randomize(&mut self, rng: &mut WoprRng, range: f32) {
        both!(self, n => n.randomize(rng, range))
    }
    fn forward(&self, input: &[f32], out: &mut [f32], scratch: &mut Scratch) {
        both!(self, n => n.forward(input, out, scratch))
    }
    fn forward_batch(&self, inputs: &[f32], out: &mut [f32], scratch: &mut Scratch) {
        both!(self, n => n.forward_batch(inputs, out, scratch))
    }
    fn backward(&self, out_grad: &[f32], grad: &mut [f32], scratch: &mut Scratch) {
        both!(self, n => n.backward(out_grad, grad, scratch))
    }
}

/// A net with what it is for: the contents of a network file.
#[derive(Clone, Debug, PartialEq)]
pub struct NetFile {
    /// The game spec the net plays, e.g. `connect4:6x6`.
    pub game: Option<String>,
    /// The name of the input encoding the net expects.
    pub encoding: Option<String>,
    /// How a player uses the net (e.g. `greedy`, `minimax:2`, `softmax`).
    pub player: Option<String>,
    /// What the outputs mean: one value, one score per action, or
    /// (`"heads": "policy-value"`) a policy's logits and a value.
    pub heads: Heads,
    /// The net.
    pub net: AnyNet,
}

/// What a net's outputs mean, as a file says (`"heads"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Heads {
    /// As the output count says: one output is a value, one per action a
    /// move ranking (the field is then left out of the file).
    #[default]
    Plain,
    /// AlphaZero's two heads over one trunk: outputs `0..A` are the
    /// policy's logits over the game's `A` action indices, output `A` the
    /// value of the position for its player to move, read through `tanh`
    /// (see [`super::policy_value`]). The last layer is linear.
    PolicyValue,
}

/// The file as serde sees it, before shape checks.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    game: Option<String>,
    #[serde(default)]
    encoding: Option<String>,
    #[serde(default)]
    player: Option<String>,
    #[serde(default)]
    heads: Heads,
    architecture: Architecture,
    activations: Vec<Activation>,
    weights: Vec<f32>,
    #[serde(default)]
    pruned: Vec<usize>,
}

impl NetFile {
    /// A file holding just `net`.
    pub fn new(net: AnyNet) -> NetFile {
        NetFile {
            game: None,
            encoding: None,
            player: None,
            heads: Heads::Plain,
            net,
        }
    }

    /// The file as JSON: one field per line, weights ten to a line.
    pub fn to_json(&self) -> String {
        let mut out = String::from("{\n");
        let field = |out: &mut String, key: &str, value: String| {
            out.push_str(&format!("  \"{key}\": {value},\n"));
        };
        if let Some(g) = &self.game {
            field(&mut out, "game", js(g));
        }
        if let Some(e) = &self.encoding {
            field(&mut out, "encoding", js(e));
        }
        if let Some(p) = &self.player {
            field(&mut out, "player", js(p));
        }
        if self.heads != Heads::Plain {
            field(&mut out, "heads", js(&self.heads));
        }
        field(&mut out, "architecture", js(&self.net.architecture()));
        field(&mut out, "activations", js(&self.net.activations()));
        let lines: Vec<String> = self
            .net
            .params()
            .chunks(10)
            .map(|c| {
                let s: Vec<String> = c.iter().map(js).collect();
                s.join(", ")
            })
            .collect();
        let pruned: Vec<usize> = self
            .net
            .mask()
            .map(|m| (0..m.len()).filter(|&i| !m[i]).collect())
            .unwrap_or_default();
        out.push_str("  \"weights\": [\n    ");
        out.push_str(&lines.join(",\n    "));
        out.push_str("\n  ]");
        if !pruned.is_empty() {
            out.push_str(",\n");
            out.push_str(&format!("  \"pruned\": {}", js(&pruned)));
        }
        out.push_str("\n}\n");
        out
    }

    /// Reads a file's JSON, checking that the weights fit the architecture
    /// and activations, that every weight is finite, and that pruned indices
    /// are in range and hold zero.
    pub fn from_json(text: &str) -> Result<NetFile, NetError> {
        let raw: RawFile =
            serde_json::from_str(text).map_err(|e| NetError(format!("bad network file: {e}")))?;
        let arch = raw.architecture;
        // Size the shape before building it: a file must not make us
        // allocate more than it could hold. (Small shapes are built first,
        // so their own checks name what is wrong with them.)
        let count = arch.num_params().filter(|&n| n <= MAX_FILE_PARAMS);
        match count {
            None => {
                return Err(NetError(format!(
                    "architecture {arch} is too large (at most {MAX_FILE_PARAMS} weights)"
                )))
            }
            Some(n) if n > 1 << 20 && n != raw.weights.len() => {
                return Err(NetError(format!(
                    "architecture {arch} has {n} weights, the file has {}",
                    raw.weights.len()
                )))
            }
            Some(_) => {}
        }
        let mut net = AnyNet::new(&arch, &raw.activations)?;
        if raw.weights.len() != net.num_params() {
            return Err(NetError(format!(
                "architecture {arch} has {} weights, the file has {}",
                net.num_params(),
                raw.weights.len()
            )));
        }
        if let Some(i) = raw.weights.iter().position(|w| !w.is_finite()) {
            return Err(NetError(format!("weight {i} is not a finite number")));
        }
        net.params_mut().copy_from_slice(&raw.weights);
        if !raw.pruned.is_empty() {
            let n = net.num_params();
            let mut mask = vec![true; n];
            for &i in &raw.pruned {
                if i >= n {
                    return Err(NetError(format!(
                        "pruned index {i} is out of range (the net has {n} weights)"
                    )));
                }
                if raw.weights[i] != 0.0 {
                    return Err(NetError(format!(
                        "weight {i} is listed as pruned but is {}, not 0",
                        raw.weights[i]
                    )));
                }
                mask[i] = false;
            }
            net.set_mask(Some(mask))?;
        }
        if raw.heads == Heads::PolicyValue
            && (net.num_outputs() < 2 || net.activations().last() != Some(&Activation::Linear))
        {
            return Err(NetError(format!(
                "a policy-value net needs a linear last layer of at least 2 outputs (the actions' logits, then the value); this one is {arch} with {:?} outputs",
                net.activations().last().map(|a| a.name())
            )));
        }
        Ok(NetFile {
            game: raw.game,
            encoding: raw.encoding,
            player: raw.player,
            heads: raw.heads,
            net,
        })
    }

    /// The mean of several nets' weights, weight by weight (a "model soup":
    /// nets learned from one start, or linear nets over one encoding,
    /// averaged into one whose value is steadier than any of theirs). The
    /// nets must agree on game, encoding, architecture and activations;
    /// the result takes the first file's player, and keeps a weight pruned
    /// only where every input has it pruned. Sums run in `f64` in the
    /// order given, so one list of files gives one result.
    pub fn average(files: &[NetFile]) -> Result<NetFile, NetError> {
        let Some(first) = files.first() else {
            return Err(NetError("averaging needs at least one net file".into()));
        };
        for (i, f) in files.iter().enumerate().skip(1) {
            let differs = |what: &str, a: String, b: String| {
                NetError(format!(
                    "net {} has {what} {b}, net 1 has {a}: only nets of one game, encoding and shape average",
                    i + 1
                ))
            };
            let name = |x: &Option<String>| x.clone().unwrap_or_else(|| "none".into());
            if f.game != first.game {
                return Err(differs("game", name(&first.game), name(&f.game)));
            }
            if f.encoding != first.encoding {
                return Err(differs(
                    "encoding",
                    name(&first.encoding),
                    name(&f.encoding),
                ));
            }
            let (a, b) = (first.net.architecture(), f.net.architecture());
            if a != b {
                return Err(differs("architecture", a.to_string(), b.to_string()));
            }
            let (a, b) = (first.net.activations(), f.net.activations());
            if a != b {
                return Err(differs("activations", format!("{a:?}"), format!("{b:?}")));
            }
            if f.heads != first.heads {
                let heads = |h: Heads| format!("{h:?}");
                return Err(differs("heads", heads(first.heads), heads(f.heads)));
            }
        }
        let n = first.net.num_params();
        let mut sum = vec![0f64; n];
        for f in files {
            for (s, &w) in sum.iter_mut().zip(f.net.params()) {
                *s += f64::from(w);
            }
        }
        let mut out = first.clone();
        let count = files.len() as f64;
        for (w, s) in out.net.params_mut().iter_mut().zip(&sum) {
            *w = (s / count) as f32;
        }
        let masks: Vec<Option<&[bool]>> = files.iter().map(|f| f.net.mask()).collect();
        let mask = if masks.iter().any(Option::is_none) {
            None
        } else {
            Some(
                (0..n)
                    .map(|i| masks.iter().flatten().any(|m| m[i]))
                    .collect::<Vec<bool>>(),
            )
        };
        out.net.set_mask(mask)?;
        Ok(out)
    }

    /// Writes the file: gzip-compressed JSON where the path ends in `.gz`
    /// (a large n-tuple net is mostly zeros: a 7x6 Connect-4 net's 55 MB
    /// of JSON are 4 MB compressed), plain JSON otherwise.
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), NetError> {
        use std::io::Write;
        let path = path.as_ref();
        let cannot = |e: std::io::Error| NetError(format!("cannot write {}: {e}", path.display()));
        let json = self.to_json();
        if path.extension().is_some_and(|x| x == "gz") {
            let file = std::fs::File::create(path).map_err(cannot)?;
            let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::default());
            gz.write_all(json.as_bytes()).map_err(cannot)?;
            gz.finish().map_err(cannot)?;
            Ok(())
        } else {
            std::fs::write(path, json).map_err(cannot)
        }
    }

    /// Reads and checks a file (see [`NetFile::from_json`]), plain JSON or
    /// gzip-compressed JSON (told by its first bytes, whatever its name).
    pub fn load(path: impl AsRef<Path>) -> Result<NetFile, NetError> {
        use std::io::Read;
        let path = path.as_ref();
        let cannot = |e: std::io::Error| NetError(format!("cannot read {}: {e}", path.display()));
        let bytes = std::fs::read(path).map_err(cannot)?;
        let text = if is_gzip(&bytes) {
            let mut text = String::new();
            flate2::read::GzDecoder::new(&bytes[..])
                .read_to_string(&mut text)
                .map_err(|e| {
                    NetError(format!(
                        "{}: not a readable gzip file of JSON ({e})",
                        path.display()
                    ))
                })?;
            text
        } else {
            String::from_utf8(bytes).map_err(|_| {
                NetError(format!(
                    "{}: not a net file (neither UTF-8 JSON nor gzip)",
                    path.display()
                ))
            })?
        };
        NetFile::from_json(&text).map_err(|e| NetError(format!("{}: {e}", path.display())))
    }
}

/// Whether a file starting with `bytes` is gzip-compressed (its two magic
/// bytes): how [`NetFile::load`] tells a compressed net file, whatever its
/// name.
pub fn is_gzip(bytes: &[u8]) -> bool {
    bytes.starts_with(&[0x1f, 0x8b])
}

/// One value as compact JSON.
fn js<T: Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v).expect("plain values serialise")
}
