//! The run folder: the checkpoint (the whole state of a run), the history
//! rows written to `generations.csv` and `yardsticks.csv`, the champion, and
//! atomic writes so that a kill never leaves half a file.

use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::config::EvolveConfig;
use super::engine::AnyEngine;
use super::error::{err, RunError};
use super::phenotype::NetPhenotype;

use crate::game::encode::Encodable;
use crate::game::Searchable;
use crate::players::Roster;

/// One line of `generations.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationRow {
    /// Generation (0-based).
    pub generation: u64,
    /// Best fitness.
    pub best: f64,
    /// Mean fitness.
    pub mean: f64,
    /// Lowest fitness.
    pub min: f64,
    /// Population diversity.
    pub diversity: f64,
    /// Games played this generation.
    pub games: u64,
    /// Wall-clock seconds for the generation (not part of the result).
    pub seconds: f64,
    /// Best, mean and lowest fitness of the second population
    /// (`two-populations` only).
    #[serde(default)]
    pub second: Option<(f64, f64, f64)>,
}

/// One line of `yardsticks.csv`: the champion of a generation against one
/// opponent (or exhaustively).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct YardstickRow {
    /// Generation measured.
    pub generation: u64,
    /// Opponent spec, or `exhaustive`.
    pub opponent: String,
    /// Games played (lines walked, for exhaustive).
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Wins over games.
    pub win_rate: f64,
}

/// The whole state of a run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The config as run.
    pub config: EvolveConfig,
    /// The engine.
    pub engine: AnyEngine,
    /// One row per evaluated generation.
    pub history: Vec<GenerationRow>,
    /// Yardstick results so far.
    pub yardsticks: Vec<YardstickRow>,
    /// Champions of past generations (weights), newest last.
    pub hall_of_fame: Vec<Vec<f32>>,
    /// The weights and fitness of the best champion so far (for absolute
    /// fitness schemes) and the generation it came from.
    pub best: Option<(f64, u64, Vec<f32>)>,
    /// The latest generation's champion.
    pub champion: Vec<f32>,
    /// Generations since the best fitness last improved.
    pub stall: u64,
    /// Whether a stopping rule has fired.
    pub finished: bool,
    /// The second population of the `two-populations` scheme (second movers).
    #[serde(default)]
    pub second: Option<AnyEngine>,
    /// The second population's latest champion.
    #[serde(default)]
    pub champion_second: Vec<f32>,
}

/// Writes `text` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), RunError> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, text).map_err(|e| RunError(format!("cannot write {}: {e}", tmp.display())))?;
    fs::rename(&tmp, path).map_err(|e| RunError(format!("cannot write {}: {e}", path.display())))
}

/// Reads a run folder's checkpoint.
pub fn load_checkpoint(dir: &Path) -> Result<Checkpoint, RunError> {
    let path = dir.join("checkpoint.json");
    let text = fs::read_to_string(&path).map_err(|e| {
        RunError(format!(
            "cannot read {}: {e} (is {} a run folder?)",
            path.display(),
            dir.display()
        ))
    })?;
    serde_json::from_str(&text)
        .map_err(|e| RunError(format!("{} is not a wopr checkpoint: {e}", path.display())))
}

/// The files of a run folder.
pub struct RunFiles {
    /// The folder.
    pub dir: PathBuf,
}

impl RunFiles {
    /// Writes the checkpoint, the CSV logs and the champion.
    pub fn save<G>(&self, cp: &Checkpoint, phenotype: &NetPhenotype<G>) -> Result<(), RunError>
    where
        G: Encodable + Roster,
        G::State: Searchable,
    {
        let two = cp.second.is_some();
        let mut csv = String::from("generation,best,mean,min,diversity,games,seconds");
        csv.push_str(if two { ",best2,mean2,min2\n" } else { "\n" });
        for r in &cp.history {
            csv.push_str(&format!(
                "{},{},{},{},{},{},{:.3}",
                r.generation, r.best, r.mean, r.min, r.diversity, r.games, r.seconds
            ));
            if let Some((b, m, l)) = r.second {
                csv.push_str(&format!(",{b},{m},{l}"));
            }
            csv.push('\n');
        }
        write_atomic(&self.dir.join("generations.csv"), &csv)?;
        let mut ys = String::from("generation,opponent,games,wins,draws,losses,win_rate\n");
        for r in &cp.yardsticks {
            ys.push_str(&format!(
                "{},{},{},{},{},{},{}\n",
                r.generation, r.opponent, r.games, r.wins, r.draws, r.losses, r.win_rate
            ));
        }
        write_atomic(&self.dir.join("yardsticks.csv"), &ys)?;
        if let Some(w) = champion_weights(cp) {
            let file = phenotype.net_file(w)?;
            write_atomic(&self.dir.join("champion.json"), &file.to_json())?;
        }
        if !cp.champion_second.is_empty() {
            let file = phenotype.net_file(&cp.champion_second)?;
            write_atomic(&self.dir.join("champion-second.json"), &file.to_json())?;
        }
        let json = serde_json::to_string(cp).map_err(err)?;
        write_atomic(&self.dir.join("checkpoint.json"), &json)
    }
}

/// The weights the run offers as its result: the best champion so far for
/// absolute fitness, the latest generation's otherwise.
pub fn champion_weights(cp: &Checkpoint) -> Option<&[f32]> {
    if cp.config.fitness.scheme.absolute() {
        cp.best.as_ref().map(|b| b.2.as_slice())
    } else if cp.champion.is_empty() {
        None
    } else {
        Some(&cp.champion)
    }
}
