//! From a config to an evolution engine: which algorithm, which genome, which
//! starting point.

use super::algorithm::Start;
use super::config::EvolveConfig;
use super::error::RunError;
use super::pretrain::{ExpectedNet, Pool};
use crate::evolve::{init_rng, BitCode, BitGenome, Levels, RealGenome};

pub(crate) use super::algorithm::with_engine;
pub use super::algorithm::AnyEngine;

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
    let g = &config.genome;
    let seeded = match config.algorithm.with(|a| a.seeded()) {
        Some(n) => pretrained(config, seed, weights, n)?,
        None => None,
    };
    let real = |i: u64| match &seeded {
        Some(w) => RealGenome::new(w[i as usize].clone()),
        None => RealGenome::uniform(weights, -g.init, g.init, &mut init_rng(seed, i)),
    };
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
    let bits = |i: u64| BitGenome::random(code, weights, &mut init_rng(seed, i));
    let start = Start {
        seed,
        weights,
        real: &real,
        bits: &bits,
        code,
        genome: g,
    };
    config.algorithm.with(|a| a.build(&start))
}
