//! Experiments: evolution runs configured by a file, with their run folders,
//! checkpoints and yardsticks. The papers' setups are config files in
//! `configs/`.

pub mod config;
pub mod run;

pub use config::EvolveConfig;
pub use run::{load_checkpoint, run, start, Checkpoint, Progress, RunError, RunFiles};
