//! Experiments: evolution runs configured by a file, with their run folders,
//! checkpoints and yardsticks. The papers' setups are config files in
//! `configs/`.
//!
//! - [`config`]: the TOML config, checked before anything runs;
//! - [`algorithm`]: the `[algorithm]` table, one typed settings per
//!   algorithm (checks, costs, its engine);
//! - [`engine`]: config to evolution engine;
//! - [`phenotype`]: weights to a net player;
//! - [`pretrain`]: pre-trained seed populations (`wopr pretrain`);
//! - `fitness`: config to fitness scheme;
//! - [`files`]: an evolution's state and log rows, read back from its
//!   run folder;
//! - `learner`: the `[learner]` table naming how a config learns;
//! - [`run`](mod@run): the generation step and the yardsticks;
//! - [`learn`]: the run layer every learner runs through (run folder,
//!   checkpoints, logs, resume, yardsticks), with evolution, TD and
//!   training as its learners;
//! - `run_config`: [`RunConfig`], a run's config parsed once into the
//!   typed config of the learner it names;
//! - `entry`: the one entry for runs, [`run()`] and [`resume`], which
//!   choose the learner (of the config; of the folder).

pub mod algorithm;
mod atomic;
pub mod config;
mod csv;
pub mod engine;
mod entry;
mod error;
pub mod files;
mod fitness;
mod genome;
pub mod learn;
mod pool;
/// Pre-trained seed populations (the pre-training learner's work; at
/// home in [`learn::pretrain::pretraining`]).
pub use learn::pretrain::pretraining as pretrain;
mod learner;
pub mod phenotype;
pub mod run;
mod run_config;
mod yardsticks;

pub use atomic::write_atomic;
pub use config::EvolveConfig;
pub use engine::{new_engine, AnyEngine};
pub use entry::{holds_run, resume, run, Summary};
pub use error::RunError;
pub use files::{champion_weights, Checkpoint, GenerationRow, YardstickRow};
pub use learn::evolve::load_checkpoint;
pub use learner::{EvolveLearner, LearnerKind};
pub use phenotype::NetPhenotype;
pub use run::{start, Evolution};
pub use run_config::RunConfig;
