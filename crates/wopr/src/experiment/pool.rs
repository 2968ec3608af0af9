//! A pool of pre-trained nets (`pool.json` and its net files): what
//! [`super::pretrain`] writes and an evolution run seeds its population
//! from ([`Pool::draw`], [`Pool::weights`]), apart from the pre-training
//! learner so that the run's engine reads a pool without depending on it.

use std::path::{Path, PathBuf};

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::error::RunError;
use crate::game::rng::WoprRng;
use crate::nn::{Activation, Architecture, NetFile};

/// The name of a pool's list inside its folder.
pub const POOL_FILE: &str = "pool.json";

/// One net of a pool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoolEntry {
    /// Its net file, relative to the pool's folder.
    pub file: String,
    /// The teacher's oracle spec.
    pub teacher: String,
    /// The training algorithm.
    pub algorithm: String,
    /// The seed of its initial weights.
    pub seed: u64,
    /// Mean error before training.
    pub initial_loss: f64,
    /// Mean error after training.
    pub loss: f64,
}

/// A folder of pre-trained nets and what they are (`pool.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pool {
    /// The game spec.
    pub game: String,
    /// The encoding the nets read.
    pub encoding: String,
    /// The architecture, e.g. `64-58-27-1`.
    pub architecture: String,
    /// Positions per teacher's dataset.
    pub positions: usize,
    /// Epochs per net.
    pub epochs: usize,
    /// The seed.
    pub seed: u64,
    /// The nets, teacher by teacher.
    pub nets: Vec<PoolEntry>,
}

impl Pool {
    /// Reads `DIR/pool.json`.
    pub fn load(dir: &Path) -> Result<Pool, RunError> {
        let path = dir.join(POOL_FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            RunError(format!(
                "pretrained population {}: cannot read {} ({e}); make one with `wopr pretrain --out {}`",
                dir.display(),
                path.display(),
                dir.display()
            ))
        })?;
        let pool: Pool = serde_json::from_str(&text)
            .map_err(|e| RunError(format!("{}: not a pool list: {e}", path.display())))?;
        if pool.nets.is_empty() {
            return Err(RunError(format!(
                "{}: the pool has no nets",
                path.display()
            )));
        }
        Ok(pool)
    }

    /// The paper's draw of a population of `n` (§2.4): with `n` at most the
    /// number of teachers, one net of each of `n` different teachers; with
    /// more, one net of every teacher and the rest drawn from the other nets.
    /// Indices into `nets`, without repeats; an error if `n` exceeds the pool.
    pub fn draw(&self, n: usize, rng: &mut WoprRng) -> Result<Vec<usize>, RunError> {
        if n > self.nets.len() {
            return Err(RunError(format!(
                "a population of {n} cannot be drawn from a pool of {} pre-trained nets",
                self.nets.len()
            )));
        }
        let mut teachers: Vec<&str> = Vec::new();
        for e in &self.nets {
            if !teachers.contains(&e.teacher.as_str()) {
                teachers.push(&e.teacher);
            }
        }
        shuffle(&mut teachers, rng);
        let mut chosen = Vec::with_capacity(n);
        for t in teachers.iter().take(n) {
            let of: Vec<usize> = (0..self.nets.len())
                .filter(|&i| self.nets[i].teacher == *t)
                .collect();
            chosen.push(of[rng.random_range(0..of.len())]);
        }
        let mut rest: Vec<usize> = (0..self.nets.len())
            .filter(|i| !chosen.contains(i))
            .collect();
        shuffle(&mut rest, rng);
        chosen.extend(rest.into_iter().take(n - chosen.len()));
        Ok(chosen)
    }

    /// The weights of the nets `draw` picked, checked against the run's net:
    /// same game, encoding, architecture and activations, `weights`
    /// parameters each.
    pub fn weights(
        &self,
        dir: &Path,
        picks: &[usize],
        expect: &ExpectedNet<'_>,
    ) -> Result<Vec<Vec<f32>>, RunError> {
        picks
            .iter()
            .map(|&i| {
                let path: PathBuf = dir.join(&self.nets[i].file);
                let file = NetFile::load(&path)
                    .map_err(|e| RunError(format!("{}: {e}", path.display())))?;
                expect.check(&file, &path)?;
                Ok(crate::nn::Network::params(&file.net).to_vec())
            })
            .collect()
    }
}

/// What a run's net is, for checking pre-trained net files against it.
pub struct ExpectedNet<'a> {
    /// The game spec.
    pub game: &'a str,
    /// The encoding name.
    pub encoding: &'a str,
    /// Hidden layer sizes.
    pub hidden: &'a [usize],
    /// Hidden activation.
    pub activation: Activation,
    /// Output activation.
    pub output: Activation,
    /// Number of parameters.
    pub weights: usize,
}

impl ExpectedNet<'_> {
    fn check(&self, file: &NetFile, path: &Path) -> Result<(), RunError> {
        let bad = |what: String| {
            Err(RunError(format!(
                "pretrained net {} does not fit the run's net: {what}",
                path.display()
            )))
        };
        if let Some(g) = &file.game {
            if g != self.game {
                return bad(format!("game {g}, the run plays {}", self.game));
            }
        }
        let enc = file.encoding.as_deref().unwrap_or("raw");
        if enc != self.encoding {
            return bad(format!("encoding {enc}, the run's is {}", self.encoding));
        }
        let arch = file.net.architecture();
        let hidden_ok = match &arch {
            Architecture::Mlp { layers } => {
                layers.len() == self.hidden.len() + 2 && layers[1..layers.len() - 1] == *self.hidden
            }
            Architecture::Complete { .. } => false,
        };
        let n = crate::nn::Network::params(&file.net).len();
        if !hidden_ok || n != self.weights {
            let mut want = vec!["…".to_string()];
            want.extend(self.hidden.iter().map(|h| h.to_string()));
            want.push("…".into());
            return bad(format!(
                "architecture {arch} ({n} weights), the run's is {} ({} weights)",
                want.join("-"),
                self.weights
            ));
        }
        let mut acts = vec![self.activation; self.hidden.len()];
        acts.push(self.output);
        if file.net.activations() != acts {
            return bad(format!(
                "activations {:?}, the run's are {:?}",
                file.net.activations(),
                acts
            ));
        }
        Ok(())
    }
}

fn shuffle<T>(v: &mut [T], rng: &mut WoprRng) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.random_range(0..=i));
    }
}
