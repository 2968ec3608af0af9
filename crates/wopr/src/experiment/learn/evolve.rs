//! Evolution as a learner of the run layer: GA, ES, EP, CMA-ES and the
//! model-building algorithms, with every fitness scheme. The generation
//! step is [`Evolution::generation`]; this file only says what the layer
//! keeps of it.
//!
//! Its folder differs from TD's and training's only where an evolution
//! differs: the log is `generations.csv` (one row per generation, labelled
//! from 0), the yardsticks are measured after generation `g` when `g` is a
//! multiple of `yardsticks.every` (and at the end), the measured champions
//! are kept as `champions/gen-NNNN.json`, and `champion.json` (with
//! `champion-second.json` for two populations) is rewritten at every
//! checkpoint, since a run's result is its latest champion.

use std::path::Path;

use super::{
    drive, LearnProgress, Learner, Measured, NoYardsticks, RunPlan, RunSummary, Yardsticks,
};
use crate::experiment::atomic::write_atomic;
use crate::experiment::error::{err, RunError};
use crate::experiment::files::{
    champion_weights, checkpoint_from, generation_fields, generations_header, parse_state,
    read_old_yardsticks, Checkpoint, YardstickRow,
};
use crate::experiment::run::Evolution;
use crate::experiment::EvolveConfig;
use crate::game::encode::Encodable;
use crate::game::Searchable;
use crate::nn::NetFile;
use crate::players::Roster;

impl<G> Learner for Evolution<'_, G>
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    fn unit(&self) -> &'static str {
        "generations"
    }

    fn done(&self) -> u64 {
        self.cp.engine.generation()
    }

    fn advance(
        &mut self,
        until: u64,
        tick: &mut dyn FnMut(u64),
    ) -> Result<Vec<(u64, String)>, RunError> {
        let mut rows = Vec::new();
        while self.done() < until && !self.cp.finished {
            let row = self.generation()?;
            rows.push((row.generation, generation_fields(&row)));
            tick(self.done());
        }
        Ok(rows)
    }

    fn log_header(&self) -> String {
        generations_header(self.cp.second.is_some())
    }

    fn log_name(&self) -> &'static str {
        "generations.csv"
    }

    fn labels_from_zero(&self) -> bool {
        true
    }

    fn finished(&self) -> bool {
        self.cp.finished
    }

    fn net_file(&self) -> Result<NetFile, RunError> {
        self.phenotype().net_file(&self.champion())
    }

    /// The config's own yardsticks (`[yardsticks]` of an evolution config:
    /// exhaustive counts, each population's elite from its seat, population
    /// snapshots) rather than the layer's.
    fn measure(&self, _: &dyn Yardsticks, _: u64, label: u64) -> Result<Measured, RunError> {
        self.yardsticks(label)
    }

    fn checkpoint_files(&self) -> Result<Vec<(String, String)>, RunError> {
        let mut files = Vec::new();
        if let Some(w) = champion_weights(&self.cp) {
            files.push((
                "champion.json".to_string(),
                self.phenotype().net_file(w)?.to_json(),
            ));
        }
        if !self.cp.champion_second.is_empty() {
            files.push((
                "champion-second.json".to_string(),
                self.phenotype()
                    .net_file(&self.cp.champion_second)?
                    .to_json(),
            ));
        }
        Ok(files)
    }

    fn state(&self) -> Result<serde_json::Value, RunError> {
        serde_json::to_value(&self.cp).map_err(err)
    }

    /// The checkpoint's state with this config's stop rules (a resume may
    /// extend the run); the net is in the state already.
    fn restore(&mut self, state: serde_json::Value, _: &NetFile) -> Result<(), RunError> {
        let mut cp = parse_state(state)?;
        // A run stopped by its generation count (recorded as finished
        // before the layer counted generations) goes on when extended; one
        // stopped by its target or a stall stays stopped.
        if cp.finished && cp.engine.generation() >= cp.config.stop.generations {
            cp.finished = false;
        }
        cp.config.stop = self.cp.config.stop.clone();
        let phenotype_weights = self.phenotype().num_params;
        cp.validate(phenotype_weights)?;
        self.cp = cp;
        Ok(())
    }
}

/// Reads an evolution run folder back: its state (from the run layer's
/// `state.json`, or the `checkpoint.json` of a folder written before it),
/// with the rows of its logs up to that checkpoint.
pub fn load_checkpoint(dir: &Path) -> Result<Checkpoint, RunError> {
    let layer = super::is_run(dir);
    let path = dir.join(if layer {
        "state.json"
    } else {
        "checkpoint.json"
    });
    let text = std::fs::read_to_string(&path).map_err(|e| {
        RunError(format!(
            "cannot read {}: {e} (is {} a run folder?)",
            path.display(),
            dir.display()
        ))
    })?;
    let not_ours = |e: serde_json::Error| {
        RunError(format!("{} is not a wopr checkpoint: {e}", path.display()))
    };
    let mut value: serde_json::Value = serde_json::from_str(&text).map_err(not_ours)?;
    if layer {
        let kind = value.get("kind").and_then(|k| k.as_str()).unwrap_or("?");
        if kind != "evolve" {
            return Err(RunError(format!(
                "{} holds a {kind} run, not an evolution",
                dir.display()
            )));
        }
        value = value["learner"].take();
    }
    let mut cp =
        checkpoint_from(dir, value).map_err(|e| RunError(format!("{}: {e}", path.display())))?;
    cp.yardsticks = read_yardsticks(dir)?;
    let done = cp.engine.generation();
    cp.yardsticks.retain(|r| r.generation < done);
    Ok(cp)
}

/// `yardsticks.csv` of an evolution, in the run layer's columns (with the
/// score and its interval) or in the older ones (`win_rate`).
fn read_yardsticks(dir: &Path) -> Result<Vec<YardstickRow>, RunError> {
    let path = dir.join("yardsticks.csv");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(Vec::new());
    };
    if text.lines().next().unwrap_or_default().contains("win_rate") {
        return read_old_yardsticks(&path);
    }
    Ok(super::read_rows(dir)?
        .into_iter()
        .map(|(generation, r)| YardstickRow {
            generation,
            games: r.wdl.games(),
            wins: r.wdl.wins,
            draws: r.wdl.draws,
            losses: r.wdl.losses,
            win_rate: r.wdl.wins as f64 / r.wdl.games().max(1) as f64,
            opponent: r.opponent,
        })
        .collect())
}

/// Runs (or resumes, when `dir` holds its checkpoint) the evolution of
/// state `cp` (a fresh one from [`crate::experiment::start`]).
pub fn run<G>(
    game: &G,
    cp: Checkpoint,
    dir: &Path,
    progress: &mut dyn LearnProgress,
) -> Result<RunSummary, RunError>
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    upgrade(dir)?;
    let config: &EvolveConfig = &cp.config;
    let text = toml::to_string_pretty(config).map_err(err)?;
    let every = config.checkpoint_every.max(1);
    let measure_every = config.yardsticks.as_ref().map_or(every, |y| y.every.max(1));
    let stop = config.stop.generations;
    let mut evolution = Evolution::new(game, cp)?;
    let plan = RunPlan {
        kind: "evolve",
        dir,
        config: &text,
        stop,
        every,
        measure_every,
        keep_nets: false,
    };
    drive(&mut evolution, &plan, &NoYardsticks, progress)
}

/// Turns the folder of an evolution run made before the run layer
/// (`checkpoint.json`, `yardsticks.csv` with a `win_rate` column) into
/// one the layer resumes: `state.json` naming a copy of its champion,
/// and the yardstick rows in the layer's columns (the score with draws as
/// half, and its 95% interval). Returns whether it did.
pub fn upgrade(dir: &Path) -> Result<bool, RunError> {
    let old = dir.join("checkpoint.json");
    if super::is_run(dir) || !old.is_file() {
        return Ok(false);
    }
    let text = std::fs::read_to_string(&old)
        .map_err(|e| RunError(format!("cannot read {}: {e}", old.display())))?;
    let value: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| RunError(format!("{} is not a wopr checkpoint: {e}", old.display())))?;
    let cp = load_checkpoint(dir)?;
    let done = cp.engine.generation();
    let mut rows = format!("generation,{}\n", super::Row::HEADER);
    for r in &cp.yardsticks {
        let wdl = crate::eval::Wdl {
            wins: r.wins,
            draws: r.draws,
            losses: r.losses,
        };
        let row = if r.opponent.starts_with("exhaustive") {
            super::Row::exact(r.opponent.clone(), wdl)
        } else {
            super::Row::sampled(r.opponent.clone(), wdl)
        };
        rows.push_str(&format!("{},{}\n", r.generation, row.csv()));
    }
    write_atomic(&dir.join("yardsticks.csv"), &rows)?;
    let champion = dir.join("champion.json");
    let net = std::fs::read_to_string(&champion).map_err(|e| {
        RunError(format!(
            "cannot read {} to upgrade the run: {e}",
            champion.display()
        ))
    })?;
    super::adopt(dir, "evolve", done, &net, value)?;
    let _ = std::fs::remove_file(&old);
    Ok(true)
}
