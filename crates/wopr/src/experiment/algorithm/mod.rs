//! The `[algorithm]` section: one typed table per evolutionary algorithm,
//! chosen by its `kind`, each with its own fields, checks, costs and
//! engine. Adding an algorithm is its engine (`evolve/<name>.rs`), its
//! settings here (a file implementing [`Algorithm`]) and a variant of
//! [`AlgorithmConfig`] and of [`AnyEngine`] (`any.rs`).
//!
//! ```toml
//! [algorithm]
//! kind = "ga"               # ga, one-plus-lambda, mu-lambda, mu-plus-lambda,
//!                           # cma-es, pbil, cem: the other keys are the kind's own
//! ```

mod any;
mod cem;
mod cma;
mod es;
mod ga;
mod pbil;

use serde::de::value::MapAccessDeserializer;
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use super::config::{GenomeConfig, GenomeKind};
use super::error::RunError;
use crate::evolve::{BitCode, BitGenome, RealGenome};
pub(crate) use any::with_engine;
pub use any::AnyEngine;
pub use cem::CemSettings;
pub use cma::CmaSettings;
pub use es::{OnePlusLambdaSettings, SelfAdaptiveSettings};
pub use ga::{GaSettings, Parents};
pub use pbil::PbilSettings;

/// The evolutionary algorithm and its settings. It reads as a table
/// tagged by `kind` (`ga` when left out); with `kind` first (as wopr
/// writes it), every other key is read straight from the file, so an error
/// names its own line.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum AlgorithmConfig {
    /// A generational GA driven by a [`Preset`]'s plan.
    Ga(GaSettings),
    /// The (1+λ)-ES with the 1/5 rule and pruning (Handa & Horiuchi).
    OnePlusLambda(OnePlusLambdaSettings),
    /// (μ,λ) evolution with self-adaptive step sizes.
    MuLambda(SelfAdaptiveSettings),
    /// (μ+λ) evolution with self-adaptive step sizes.
    MuPlusLambda(SelfAdaptiveSettings),
    /// Hansen's CMA-ES.
    CmaEs(CmaSettings),
    /// Baluja's population-based incremental learning (bit genomes).
    Pbil(PbilSettings),
    /// The cross-entropy method with Szita & Lőrincz's noise (real genomes).
    Cem(CemSettings),
}

impl Default for AlgorithmConfig {
    /// The GA with its default preset and 50 members.
    fn default() -> Self {
        AlgorithmConfig::Ga(GaSettings::default())
    }
}

impl<'de> Deserialize<'de> for AlgorithmConfig {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(TableVisitor)
    }
}

/// Reads an `[algorithm]` table: its `kind`, then the kind's settings.
struct TableVisitor;

impl<'de> Visitor<'de> for TableVisitor {
    type Value = AlgorithmConfig;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an [algorithm] table with its kind")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<AlgorithmConfig, A::Error> {
        let Some(first) = map.next_key::<String>()? else {
            return Ok(AlgorithmConfig::default());
        };
        if first == "kind" {
            let kind: String = map.next_value()?;
            return settings_of(&kind, MapAccessDeserializer::new(map));
        }
        // `kind` comes later: the table is read whole first (its errors
        // then point at the table).
        let mut table = serde_json::Map::new();
        table.insert(first, map.next_value()?);
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value()?;
            table.insert(key, value);
        }
        let kind = match table.remove("kind") {
            Some(serde_json::Value::String(k)) => k,
            Some(other) => {
                return Err(de::Error::custom(format!(
                    "kind = {other} is not a name (accepted: {})",
                    KINDS.join(", ")
                )))
            }
            // No kind: the GA, as the table has always defaulted to.
            None => "ga".to_string(),
        };
        settings_of(&kind, serde_json::Value::Object(table)).map_err(de::Error::custom)
    }
}

/// The settings of algorithm `kind`, read from `d`.
fn settings_of<'de, D: Deserializer<'de>>(kind: &str, d: D) -> Result<AlgorithmConfig, D::Error> {
    Ok(match kind {
        "ga" => AlgorithmConfig::Ga(GaSettings::deserialize(d)?),
        "one-plus-lambda" => AlgorithmConfig::OnePlusLambda(Deserialize::deserialize(d)?),
        "mu-lambda" => AlgorithmConfig::MuLambda(Deserialize::deserialize(d)?),
        "mu-plus-lambda" => AlgorithmConfig::MuPlusLambda(Deserialize::deserialize(d)?),
        "cma-es" => AlgorithmConfig::CmaEs(Deserialize::deserialize(d)?),
        "pbil" => AlgorithmConfig::Pbil(Deserialize::deserialize(d)?),
        "cem" => AlgorithmConfig::Cem(Deserialize::deserialize(d)?),
        other => return Err(de::Error::unknown_variant(other, KINDS)),
    })
}

/// The kinds, by their names in a config.
pub const KINDS: &[&str] = &[
    "ga",
    "one-plus-lambda",
    "mu-lambda",
    "mu-plus-lambda",
    "cma-es",
    "pbil",
    "cem",
];

impl AlgorithmConfig {
    /// The settings as an [`Algorithm`] (the one place that lists every
    /// kind).
    pub fn with<R>(&self, f: impl FnOnce(&dyn Algorithm) -> R) -> R {
        match self {
            AlgorithmConfig::Ga(s) => f(s),
            AlgorithmConfig::OnePlusLambda(s) => f(s),
            AlgorithmConfig::MuLambda(s) => f(&es::SelfAdaptive {
                settings: s,
                plus: false,
            }),
            AlgorithmConfig::MuPlusLambda(s) => f(&es::SelfAdaptive {
                settings: s,
                plus: true,
            }),
            AlgorithmConfig::CmaEs(s) => f(s),
            AlgorithmConfig::Pbil(s) => f(s),
            AlgorithmConfig::Cem(s) => f(s),
        }
    }

    /// The kind's name in a config (`cma-es`).
    pub fn name(&self) -> &'static str {
        self.with(|a| a.name())
    }
}

/// What an evolutionary algorithm's settings do.
pub trait Algorithm {
    /// The kind's name in a config.
    fn name(&self) -> &'static str;
    /// The genome kinds it evolves.
    fn genomes(&self) -> &'static [GenomeKind];
    /// Checks its own settings' ranges and combinations; the error names
    /// the key, the value and what is accepted.
    fn check(&self) -> Result<(), String>;
    /// How many members a pre-trained pool seeds (`None`: the algorithm
    /// starts from one point, not a population).
    fn seeded(&self) -> Option<usize> {
        None
    }
    /// What its state holds for a net of `weights` weights.
    fn state(&self, weights: u64, genome: &GenomeConfig) -> StateSize;
    /// What to say when the state is over budget.
    fn budget_hint(&self) -> &'static str {
        "use a smaller population or net"
    }
    /// Builds the engine with its first population.
    fn build(&self, start: &Start) -> Result<AnyEngine, RunError>;
}

/// The size of an algorithm's state, for the memory and checkpoint budgets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StateSize {
    /// Genomes held.
    pub genomes: u64,
    /// Other numbers held (f64).
    pub extra_f64: u64,
    /// Whether each real genome carries a step size per gene.
    pub sigmas: bool,
    /// Copies of the population kept at once (a GA: parents and children).
    pub copies: u64,
}

/// What an engine is built from.
pub struct Start<'a> {
    /// The run's seed.
    pub seed: u64,
    /// Weights of the net.
    pub weights: usize,
    /// Member `i`'s real genome: a pre-trained net's weights, or uniform
    /// random ones from the seed.
    pub real: &'a dyn Fn(u64) -> RealGenome,
    /// Member `i`'s random bit genome.
    pub bits: &'a dyn Fn(u64) -> BitGenome,
    /// How bit genomes encode weights.
    pub code: BitCode,
    /// The genome section.
    pub genome: &'a GenomeConfig,
}

/// A paper's settings for an algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// GA: MIDI-Connect4's plan.
    MidiConnect4,
    /// GA: Weaver & Bossomaier's coevolution plan.
    Weaver,
    /// GA: Weaver & Bossomaier's plan for direct evolution.
    WeaverDirect,
    /// GA: the thesis's binary GA.
    ThesisBinary,
    /// GA: the thesis's real-valued GA (our Laplace crossover).
    ThesisReal,
    /// GA: the thesis's real-valued GA with its LX as it describes it, a
    /// uniform blend between the parents.
    ThesisRealBlend,
    /// GA: Naveed & Cowling's plan.
    Naveed,
    /// (1+λ)-ES: Handa & Horiuchi's Tic-Tac-Toe settings.
    HandaTictactoe,
    /// (1+λ)-ES: Handa & Horiuchi's Reversi settings.
    HandaReversi,
    /// (μ,λ)/(μ+λ): Blondie24's self-adaptive settings.
    Blondie24,
}

impl Preset {
    /// The name in a config.
    pub fn name(self) -> &'static str {
        match self {
            Preset::MidiConnect4 => "midi-connect4",
            Preset::Weaver => "weaver",
            Preset::WeaverDirect => "weaver-direct",
            Preset::ThesisBinary => "thesis-binary",
            Preset::ThesisReal => "thesis-real",
            Preset::ThesisRealBlend => "thesis-real-blend",
            Preset::Naveed => "naveed",
            Preset::HandaTictactoe => "handa-tictactoe",
            Preset::HandaReversi => "handa-reversi",
            Preset::Blondie24 => "blondie24",
        }
    }

    /// Checks that `preset` (if set) is one of `accepted`, the presets of
    /// algorithm `kind`.
    fn check(preset: Option<Preset>, kind: &str, accepted: &[Preset]) -> Result<(), String> {
        match preset {
            Some(p) if !accepted.contains(&p) => {
                let names: Vec<&str> = accepted.iter().map(|p| p.name()).collect();
                Err(format!(
                    "algorithm.preset = \"{}\" is not a preset of {kind} (accepted: {})",
                    p.name(),
                    names.join(", ")
                ))
            }
            _ => Ok(()),
        }
    }
}

/// `Ok` when `ok`, else the message `what` makes.
fn need(ok: bool, what: impl FnOnce() -> String) -> Result<(), String> {
    if ok {
        Ok(())
    } else {
        Err(what())
    }
}

/// Checks an optional count in 1..=1,000,000.
fn count(key: &str, v: Option<usize>) -> Result<(), String> {
    match v {
        Some(v) => need((1..=1_000_000).contains(&v), || {
            format!("algorithm.{key} = {v}: accepted 1..=1000000")
        }),
        None => Ok(()),
    }
}

/// Checks a population size in 2..=1,000,000.
fn population(v: usize) -> Result<(), String> {
    need((2..=1_000_000).contains(&v), || {
        format!("algorithm.population = {v}: accepted 2..=1000000")
    })
}

/// Checks an optional positive step size.
fn sigma(v: Option<f64>) -> Result<(), String> {
    match v {
        Some(s) => need(s.is_finite() && s > 0.0, || {
            format!("algorithm.sigma = {s}: must be > 0")
        }),
        None => Ok(()),
    }
}

/// Checks an optional value against a range, naming it in the error.
fn within(key: &str, v: Option<f64>, ok: fn(f64) -> bool, accepted: &str) -> Result<(), String> {
    match v {
        Some(v) => need(ok(v), || {
            format!("algorithm.{key} = {v}: accepted {accepted}")
        }),
        None => Ok(()),
    }
}

/// Checks an optional probability in [0, 1].
fn rate(key: &str, v: Option<f64>) -> Result<(), String> {
    within(key, v, |v| (0.0..=1.0).contains(&v), "0..=1")
}

/// Old run folders keep their config in the checkpoint with every key of
/// the one flat `[algorithm]` table of earlier versions (unset ones as
/// `null`, unused ones with their defaults): this drops the keys that are
/// not the kind's, so that such a checkpoint resumes. The old code ignored
/// them too.
pub(crate) fn upgrade_checkpoint_algorithm(algorithm: &mut serde_json::Value) {
    let Some(table) = algorithm.as_object_mut() else {
        return;
    };
    table.retain(|_, v| !v.is_null());
    for _ in 0..32 {
        let Err(e) =
            serde_json::from_value::<AlgorithmConfig>(serde_json::Value::Object(table.clone()))
        else {
            return;
        };
        let text = e.to_string();
        let Some(key) = text
            .strip_prefix("unknown field `")
            .and_then(|rest| rest.split('`').next())
        else {
            return;
        };
        if table.remove(key).is_none() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A checkpoint of an earlier version holds the flat table, every key
    /// present: the kind's own keys are kept, the rest dropped.
    #[test]
    fn an_old_checkpoints_flat_table_reads_as_its_kind() {
        let mut old = serde_json::json!({
            "kind": "cma-es", "preset": null, "population": 50, "lambda": 20,
            "mu": null, "sigma": 0.5, "mutation_rate": null, "crossover_rate": null
        });
        upgrade_checkpoint_algorithm(&mut old);
        let a: AlgorithmConfig = serde_json::from_value(old).unwrap();
        assert_eq!(
            a,
            AlgorithmConfig::CmaEs(CmaSettings {
                sigma: Some(0.5),
                lambda: Some(20),
            })
        );
        let mut ga = serde_json::json!({
            "kind": "ga", "preset": "weaver", "population": 100, "lambda": null,
            "mu": null, "sigma": null, "mutation_rate": 0.005, "crossover_rate": null
        });
        upgrade_checkpoint_algorithm(&mut ga);
        let a: AlgorithmConfig = serde_json::from_value(ga).unwrap();
        let AlgorithmConfig::Ga(g) = a else {
            panic!("not a GA: {a:?}")
        };
        assert_eq!(
            (g.preset, g.population, g.mutation_rate),
            (Some(Preset::Weaver), 100, Some(0.005))
        );
    }

    #[derive(Debug, Deserialize)]
    struct Doc {
        #[allow(dead_code)]
        algorithm: AlgorithmConfig,
    }

    /// With `kind` first an error names the key's own line; with `kind`
    /// later the table still reads.
    #[test]
    fn errors_name_their_line_and_kind_may_come_later() {
        let e = toml::from_str::<Doc>("\n[algorithm]\nkind = \"ga\"\npopulaton = 5\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 4") && e.contains("populaton"), "{e}");
        let e = toml::from_str::<Doc>("[algorithm]\nkind = \"cma-es\"\nsigma = \"big\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 3"), "{e}");
        let e = toml::from_str::<Doc>("[algorithm]\nkind = \"evolve-harder\"\n")
            .unwrap_err()
            .to_string();
        assert!(e.contains("evolve-harder") && e.contains("cma-es"), "{e}");
        let later: Doc = toml::from_str("[algorithm]\nsigma = 0.5\nkind = \"cma-es\"\n").unwrap();
        assert_eq!(
            later.algorithm,
            AlgorithmConfig::CmaEs(CmaSettings {
                sigma: Some(0.5),
                lambda: None
            })
        );
        // What wopr writes reads back.
        let text = toml::to_string(&later.algorithm).unwrap();
        assert!(text.starts_with("kind = \"cma-es\""), "{text}");
    }

    /// Every kind named in [`KINDS`] reads with its defaults and names
    /// itself back.
    #[test]
    fn every_kind_reads_with_its_defaults() {
        for kind in KINDS {
            let a: AlgorithmConfig =
                serde_json::from_value(serde_json::json!({ "kind": kind })).unwrap();
            assert_eq!(a.name(), *kind);
            a.with(|a| a.check()).unwrap();
        }
    }
}
