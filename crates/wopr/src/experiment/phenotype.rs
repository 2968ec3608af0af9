//! How a genome's weights become a player: the config's net (architecture,
//! encoding, activation) and play mode.

use std::sync::Arc;

use super::config::{BiasSign, FinishedBy, Layout, Outputs};
use super::error::{err, RunError};
use crate::evolve::schemes::Phenotype;
use crate::game::encode::Encodable;
use crate::game::player::ValuePlayer;
use crate::game::Searchable;
use crate::nn::{Activation, AnyNet, Architecture, NetFile, Network, Segment, SegmentKind};
use crate::players::net::{Finished, NetMode, NetPlayer, NetSettings};
use crate::players::Player;

/// Turns weights into net players for a game, as the config says.
pub struct NetPhenotype<G: Encodable> {
    game: G,
    arch: Architecture,
    activations: Vec<Activation>,
    encoding: String,
    mode: NetMode,
    finished: Finished,
    /// Parameter ranges (offset, length) whose genes are negated: the
    /// biases when the config reads them as thresholds.
    negated: Vec<(usize, usize)>,
    /// Parameter ranges held at 0: the biases of a net without them.
    zeroed: Vec<(usize, usize)>,
    /// Where each gene goes among the net's parameters (`order[g]` is the
    /// parameter of gene `g`); empty for the net's own order.
    order: Vec<usize>,
    /// Number of weights.
    pub num_params: usize,
}

/// The parameter index of each gene when a genome lists every unit's
/// incoming weights and then its bias, unit by unit ([`Layout::PerNode`]),
/// for a net whose segments are laid out as `segments` says. Every
/// parameter appears exactly once.
pub fn per_node_order(segments: &[Segment]) -> Vec<usize> {
    let mut order = Vec::new();
    let mut k = 0;
    while k < segments.len() {
        let s = &segments[k];
        match s.kind {
            SegmentKind::Weights { sources, units } => {
                // The biases of these units, when the next segment holds them.
                let biases = segments
                    .get(k + 1)
                    .filter(|b| b.kind == SegmentKind::Biases && b.len == units)
                    .map(|b| b.offset);
                for j in 0..units {
                    order.extend((0..sources).map(|i| s.offset + i * units + j));
                    if let Some(b) = biases {
                        order.push(b + j);
                    }
                }
                k += if biases.is_some() { 2 } else { 1 };
            }
            SegmentKind::Biases => {
                order.extend(s.offset..s.offset + s.len);
                k += 1;
            }
        }
    }
    order
}

impl<G: Encodable> NetPhenotype<G>
where
    G::State: Searchable,
{
    /// Builds the phenotype from the `[net]` section, reading genes in the
    /// order `layout` gives.
    pub fn new(game: &G, cfg: &super::config::NetConfig, layout: Layout) -> Result<Self, RunError> {
        let encoding = game.encoding(&cfg.encoding).map_err(err)?;
        let inputs = encoding.size();
        let outputs = match cfg.outputs {
            Outputs::Value => 1,
            Outputs::Policy => game.num_actions(),
        };
        let (hidden, output) = (cfg.activation, cfg.output);
        let (arch, activations) = if cfg.complete > 0 {
            (
                Architecture::Complete {
                    inputs,
                    nodes: cfg.complete,
                    outputs,
                },
                vec![hidden, output],
            )
        } else {
            let mut layers = vec![inputs];
            layers.extend(&cfg.hidden);
            layers.push(outputs);
            let mut acts = vec![hidden; cfg.hidden.len()];
            acts.push(output);
            (Architecture::Mlp { layers }, acts)
        };
        let net = AnyNet::new(&arch, &activations).map_err(err)?;
        let mode_name = if cfg.mode.is_empty() {
            if outputs == 1 {
                "greedy".to_string()
            } else {
                "policy".to_string()
            }
        } else {
            cfg.mode.clone()
        };
        // `ply` matters to alpha-beta only (a greedy net with ply > 1 would
        // turn into one).
        let settings = NetSettings {
            mode: Some(mode_name.to_ascii_lowercase()),
            ply: (mode_name == "alphabeta").then_some(cfg.ply.max(1)),
            temp: Some(cfg.temp),
            reduce: Some(cfg.reduce.parse().map_err(err)?),
            ..NetSettings::default()
        };
        let mode = settings.mode(&mode_name).map_err(err)?;
        let biases: Vec<(usize, usize)> = net
            .segments()
            .iter()
            .filter(|s| s.kind == SegmentKind::Biases)
            .map(|s| (s.offset, s.len))
            .collect();
        let (negated, zeroed) = match cfg.bias {
            BiasSign::Add => (Vec::new(), Vec::new()),
            BiasSign::Subtract => (biases, Vec::new()),
            BiasSign::None => (Vec::new(), biases),
        };
        let finished = match cfg.finished {
            FinishedBy::Rules => Finished::Rules,
            FinishedBy::Net => Finished::Net,
        };
        let order = match layout {
            Layout::BySource => Vec::new(),
            Layout::PerNode => per_node_order(&net.segments()),
        };
        debug_assert!(order.is_empty() || order.len() == net.num_params());
        let phenotype = NetPhenotype {
            order,
            game: game.clone(),
            finished,
            negated,
            zeroed,
            num_params: net.num_params(),
            arch,
            activations,
            encoding: cfg.encoding.clone(),
            mode,
        };
        // Check that the mode fits the outputs once, now.
        phenotype.try_player(&vec![0.0; phenotype.num_params])?;
        Ok(phenotype)
    }

    /// The net a genome describes (thresholds negated into biases).
    fn net(&self, weights: &[f32]) -> Result<AnyNet, RunError> {
        let mut net = AnyNet::new(&self.arch, &self.activations).map_err(err)?;
        if self.order.is_empty() || weights.len() != self.order.len() {
            net.set_params(weights).map_err(err)?;
        } else {
            let mut params = vec![0.0; weights.len()];
            for (&p, &w) in self.order.iter().zip(weights) {
                params[p] = w;
            }
            net.set_params(&params).map_err(err)?;
        }
        if !self.negated.is_empty() || !self.zeroed.is_empty() {
            let params = net.params_mut();
            for &(offset, len) in &self.negated {
                params[offset..offset + len]
                    .iter_mut()
                    .for_each(|p| *p = -*p);
            }
            for &(offset, len) in &self.zeroed {
                params[offset..offset + len].fill(0.0);
            }
            net.apply_mask();
        }
        Ok(net)
    }

    fn try_player(&self, weights: &[f32]) -> Result<NetPlayer<G>, RunError> {
        let net = self.net(weights)?;
        let encoding = self.game.encoding(&self.encoding).map_err(err)?;
        Ok(NetPlayer::new(
            &self.game,
            Arc::new(net),
            encoding,
            self.mode,
            "evolved".into(),
        )
        .map_err(err)?
        .with_finished(self.finished))
    }

    /// Weights set to zero (pruned connections), per weight layer of a
    /// layered net (input → first hidden layer first), or in all for a
    /// complete net; biases are not counted. Handa & Horiuchi's Figure 4
    /// plots these for the elite.
    pub fn pruned(&self, weights: &[f32]) -> Vec<u64> {
        let Ok(net) = AnyNet::new(&self.arch, &self.activations) else {
            return Vec::new();
        };
        let zeros = |offset: usize, len: usize| {
            weights
                .get(offset..offset + len)
                .map_or(0, |w| w.iter().filter(|&&x| x == 0.0).count() as u64)
        };
        let counts: Vec<u64> = net
            .segments()
            .iter()
            .filter(|s| matches!(s.kind, SegmentKind::Weights { .. }))
            .map(|s| zeros(s.offset, s.len))
            .collect();
        match self.arch {
            Architecture::Mlp { .. } => counts,
            Architecture::Complete { .. } => vec![counts.iter().sum()],
        }
    }

    /// The net file of `weights`, playable through `net:` specs.
    pub fn net_file(&self, weights: &[f32]) -> Result<NetFile, RunError> {
        let mut file = NetFile::new(self.net(weights)?);
        file.game = Some(self.game.spec());
        file.encoding = Some(self.encoding.clone());
        file.player = Some(match self.finished {
            Finished::Rules => self.mode.spec(),
            Finished::Net => format!("{},finished=net", self.mode.spec()),
        });
        Ok(file)
    }
}

impl<G: Encodable> Phenotype<G> for NetPhenotype<G>
where
    G::State: Searchable,
{
    fn player(&self, weights: &[f32]) -> Box<dyn Player<G>> {
        Box::new(
            self.try_player(weights)
                .expect("weights have the length checked when the run was configured"),
        )
    }

    fn value_player(&self, weights: &[f32]) -> Option<Box<dyn ValuePlayer<G>>> {
        let player = self
            .try_player(weights)
            .expect("weights have the length checked when the run was configured");
        player
            .values_alone()
            .then(|| Box::new(player) as Box<dyn ValuePlayer<G>>)
    }
}
