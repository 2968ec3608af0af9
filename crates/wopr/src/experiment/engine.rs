//! From a config to an evolution engine: which algorithm, which genome, which
//! starting point.

use serde::{Deserialize, Serialize};

use super::config::{AlgorithmKind, EvolveConfig, GenomeKind, Parents, Preset};
use super::error::{err, RunError};
use super::pretrain::{ExpectedNet, Pool};
use crate::evolve::{
    init_rng, BitCode, BitGenome, Cem, CemConfig, CmaEs, Engine, Ga, Levels, OnePlusLambda,
    OnePlusLambdaConfig, Pbil, PbilConfig, Plan, RealGenome, SelfAdaptiveConfig, SelfAdaptiveEs,
};

/// Any engine a config can ask for.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "engine", rename_all = "kebab-case")]
pub enum AnyEngine {
    /// A GA over bit strings.
    GaBits(Ga<BitGenome>),
    /// A GA over real vectors.
    GaReal(Ga<RealGenome>),
    /// (1+λ)-ES with the 1/5 rule and pruning.
    OnePlusLambda(OnePlusLambda),
    /// (μ,λ) or (μ+λ) with self-adaptive step sizes.
    SelfAdaptive(SelfAdaptiveEs),
    /// CMA-ES.
    CmaEs(CmaEs),
    /// PBIL over bit strings.
    Pbil(Pbil),
    /// The noisy cross-entropy method.
    Cem(Cem),
}

/// Runs an expression with `$x` bound to the engine inside an [`AnyEngine`].
macro_rules! with_engine {
    ($e:expr, $x:ident => $body:expr) => {
        match $e {
            $crate::experiment::engine::AnyEngine::GaBits($x) => $body,
            $crate::experiment::engine::AnyEngine::GaReal($x) => $body,
            $crate::experiment::engine::AnyEngine::OnePlusLambda($x) => $body,
            $crate::experiment::engine::AnyEngine::SelfAdaptive($x) => $body,
            $crate::experiment::engine::AnyEngine::CmaEs($x) => $body,
            $crate::experiment::engine::AnyEngine::Pbil($x) => $body,
            $crate::experiment::engine::AnyEngine::Cem($x) => $body,
        }
    };
}
pub(crate) use with_engine;

impl AnyEngine {
    /// Generations completed.
    pub fn generation(&self) -> u64 {
        with_engine!(self, e => e.generation())
    }
}

/// The weights of a `pretrained:DIR` first population of `n` (drawn from
/// the pool as Naveed & Cowling do, from the seed), checked against the
/// config's net; `None` for a random one.
fn pretrained(
    config: &EvolveConfig,
    seed: u64,
    weights: usize,
    n: usize,
) -> Result<Option<Vec<Vec<f32>>>, RunError> {
    let Some(dir) = config.init.pretrained().map_err(RunError)? else {
        return Ok(None);
    };
    let dir = std::path::Path::new(dir);
    if !dir.is_dir() {
        return Err(RunError(format!(
            "init.population: {} is not a folder (make one with `wopr pretrain --out {}`)",
            dir.display(),
            dir.display()
        )));
    }
    let pool = Pool::load(dir)?;
    // Our own stream: index u64::MAX is never a member's.
    let picks = pool.draw(n, &mut init_rng(seed, u64::MAX))?;
    // Net files name the canonical spec (`virus:8x8` for `virus`).
    let game = crate::registry::AnyGame::parse(&config.game)
        .map(|g| g.spec())
        .unwrap_or_else(|_| config.game.clone());
    let expect = ExpectedNet {
        game: &game,
        encoding: &config.net.encoding,
        hidden: &config.net.hidden,
        activation: config.net.activation,
        output: config.net.output,
        weights,
    };
    if config.net.complete > 0 {
        return Err(RunError(
            "init.population = \"pretrained:…\" needs a layered net (net.complete = 0)".into(),
        ));
    }
    pool.weights(dir, &picks, &expect).map(Some)
}

/// Builds the engine a config asks for, with its initial population: random
/// weights, or pre-trained nets (`[init] population = "pretrained:DIR"`).
pub fn new_engine(config: &EvolveConfig, seed: u64, weights: usize) -> Result<AnyEngine, RunError> {
    let a = &config.algorithm;
    let g = &config.genome;
    let seeded = {
        let n = match a.kind {
            AlgorithmKind::MuLambda | AlgorithmKind::MuPlusLambda => {
                a.mu.unwrap_or(SelfAdaptiveConfig::blondie24().mu)
            }
            _ => a.population.max(2),
        };
        pretrained(config, seed, weights, n)?
    };
    let real = |i: u64| match &seeded {
        Some(w) => RealGenome::new(w[i as usize].clone()),
        None => RealGenome::uniform(weights, -g.init, g.init, &mut init_rng(seed, i)),
    };
    let bits = |code: BitCode, i: u64| BitGenome::random(code, weights, &mut init_rng(seed, i));
    let code = BitCode {
        bits: g.bits,
        lo: g.lo,
        hi: g.hi,
        gray: g.gray,
        levels: if g.levels > 0 {
            Levels::Scaled(g.levels as u32)
        } else {
            Levels::Full
        },
    };
    let n = a.population.max(2);
    let preset = a.preset.or(Preset::default_for(a.kind));
    let engine = match a.kind {
        AlgorithmKind::Ga => {
            let plan = match preset {
                Some(Preset::MidiConnect4) => Plan::midi_connect4(),
                Some(Preset::Weaver) => Plan::weaver(a.mutation_rate.unwrap_or(0.005), false, n),
                Some(Preset::WeaverDirect) => {
                    Plan::weaver(a.mutation_rate.unwrap_or(0.005), true, n)
                }
                Some(Preset::ThesisBinary) => Plan::thesis_binary(),
                Some(Preset::Naveed) => Plan::naveed_with(
                    a.crossover_rate.unwrap_or(0.2),
                    a.parents.unwrap_or(Parents::Paired) == Parents::Paired,
                ),
                Some(Preset::ThesisReal) | None => Plan::thesis_real(),
                Some(Preset::ThesisRealBlend) => Plan::thesis_real_blend(),
                Some(other) => {
                    return Err(RunError(format!("{} is not a GA preset", other.name())))
                }
            };
            match g.kind {
                GenomeKind::Bits => AnyEngine::GaBits(
                    Ga::new(plan, seed, (0..n as u64).map(|i| bits(code, i)).collect())
                        .map_err(err)?,
                ),
                GenomeKind::Real => {
                    let sigma = a.sigma.unwrap_or(0.05) as f32;
                    let pop: Vec<RealGenome> = (0..n as u64)
                        .map(|i| {
                            let r = real(i);
                            if preset == Some(Preset::Naveed) {
                                r.with_sigmas(sigma)
                            } else {
                                r
                            }
                        })
                        .collect();
                    AnyEngine::GaReal(Ga::new(plan, seed, pop).map_err(err)?)
                }
            }
        }
        AlgorithmKind::OnePlusLambda => {
            let mut c = match preset {
                Some(Preset::HandaReversi) => OnePlusLambdaConfig::handa_reversi(),
                _ => OnePlusLambdaConfig::handa_tictactoe(),
            };
            if let Some(l) = a.lambda {
                c.lambda = l;
            }
            if let Some(s) = a.sigma {
                c.sigma = s;
            }
            if let Some(r) = a.prune_rate {
                c.prune_rate = r;
            }
            AnyEngine::OnePlusLambda(OnePlusLambda::new(c, seed, real(0)).map_err(err)?)
        }
        AlgorithmKind::MuLambda | AlgorithmKind::MuPlusLambda => {
            let mut c = SelfAdaptiveConfig::blondie24();
            c.plus = a.kind == AlgorithmKind::MuPlusLambda;
            if let Some(m) = a.mu {
                c.mu = m;
            }
            if let Some(l) = a.lambda {
                c.lambda = l;
            }
            let sigma = a.sigma.unwrap_or(0.05) as f32;
            let parents = (0..c.mu as u64)
                .map(|i| real(i).with_sigmas(sigma))
                .collect();
            AnyEngine::SelfAdaptive(SelfAdaptiveEs::new(c, seed, parents).map_err(err)?)
        }
        AlgorithmKind::CmaEs => {
            let mean: Vec<f64> = real(0).genes.iter().map(|&x| x as f64).collect();
            AnyEngine::CmaEs(CmaEs::new(mean, a.sigma.unwrap_or(0.3), a.lambda, seed).map_err(err)?)
        }
        AlgorithmKind::Pbil => {
            let mut c = PbilConfig::baluja(n);
            c.best = a.mu.unwrap_or(c.best);
            c.learning_rate = a.learning_rate.unwrap_or(c.learning_rate);
            c.negative_learning_rate = a.negative_learning_rate.unwrap_or(c.negative_learning_rate);
            c.mutation_probability = a.mutation_rate.unwrap_or(c.mutation_probability);
            c.mutation_shift = a.mutation_shift.unwrap_or(c.mutation_shift);
            AnyEngine::Pbil(Pbil::new(c, code, weights, seed).map_err(err)?)
        }
        AlgorithmKind::Cem => {
            let d = CemConfig::szita_lorincz();
            let c = CemConfig {
                samples: n,
                elite_fraction: a.elite_fraction.unwrap_or(d.elite_fraction),
                noise_start: a.noise_start.unwrap_or(d.noise_start),
                noise_decay: a.noise_decay.unwrap_or(d.noise_decay),
            };
            // Szita & Lőrincz start from the zero vector.
            let mean = vec![0.0; weights];
            AnyEngine::Cem(Cem::new(c, mean, a.sigma.unwrap_or(0.5), seed).map_err(err)?)
        }
    };
    Ok(engine)
}
