//! The `[genome]` table of an evolution config: how a net's weights are
//! written as genes ([`GenomeConfig`]: real or bit-string genes, their
//! range and order). The algorithms read it ([`super::algorithm`]) as the
//! config does, so it lives apart from both.

use serde::{Deserialize, Serialize};

/// The genome.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GenomeConfig {
    /// Real-valued weights or bit strings.
    pub kind: GenomeKind,
    /// Real genomes start uniform in `[-init, init]`.
    pub init: f32,
    /// Bits per weight.
    pub bits: u32,
    /// Smallest weight.
    pub lo: f32,
    /// Largest weight.
    pub hi: f32,
    /// Gray code instead of binary.
    pub gray: bool,
    /// Number of evenly spread values (0: all `2^bits`).
    pub levels: u64,
    /// The order of the weights along the genome (what one-point crossover
    /// keeps together).
    pub layout: Layout,
}

/// The order of a net's weights along a genome (`[genome] layout`).
///
/// One-point crossover cuts the genome once, so the layout decides which
/// weights travel together from a parent to a child.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// The net's own parameter order: layer by layer, each layer's weights
    /// grouped by source unit (a source's outgoing weights together), then
    /// the layer's biases.
    #[default]
    BySource,
    /// Weaver & Bossomaier §3.3: "every weight (and threshold) for each node
    /// in turn": each unit's incoming weights followed by its bias, unit by
    /// unit, layer by layer.
    PerNode,
}

impl Default for GenomeConfig {
    fn default() -> Self {
        GenomeConfig {
            kind: GenomeKind::Real,
            init: 0.5,
            bits: 10,
            lo: -1.0,
            hi: 1.0,
            gray: false,
            levels: 0,
            layout: Layout::BySource,
        }
    }
}

/// How weights are encoded in a genome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GenomeKind {
    /// One real gene per weight.
    Real,
    /// A bit string decoded into weights (the GA, PBIL).
    Bits,
}

impl GenomeKind {
    /// The name in a config.
    pub fn name(self) -> &'static str {
        match self {
            GenomeKind::Real => "real",
            GenomeKind::Bits => "bits",
        }
    }
}
