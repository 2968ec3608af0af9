//! The one entry for runs: [`run`] starts (or goes on with) the run of a
//! [`RunConfig`] in a folder, whichever learner it names, and [`resume`]
//! goes on with the run a folder holds, whichever learner made it (the
//! folder records it: `state.json`'s `kind`, or the files of an older
//! wopr, upgraded first). `wopr run`, `wopr evolve|td|pretrain` and
//! Python's `wopr.run` call these and add only their arguments and what
//! they show.

use std::path::Path;

use super::error::RunError;
use super::learn::{self, LearnProgress, RunSummary};
use super::learner::LearnerKind;
use super::pretrain::Pool;
use super::run_config::RunConfig;
use crate::registry::AnyGame;
use crate::with_board_game;

/// How a run ended.
#[derive(Clone, Debug)]
pub struct Summary {
    /// The learner that ran.
    pub learner: LearnerKind,
    /// What it counts (`generations`, `games`, `epochs`, `nets`).
    pub unit: &'static str,
    /// The count done, whether this call learned anything, the best
    /// yardstick score, the champion's file.
    pub run: RunSummary,
    /// A pre-training run's pool (`pool.json`).
    pub pool: Option<Pool>,
}

impl Summary {
    /// The champion's file.
    pub fn champion(&self) -> &Path {
        &self.run.champion
    }
}

impl LearnerKind {
    /// What a run of this learner counts, the key of its `[stop]` table
    /// (`nets` for pre-training, which has none).
    pub fn unit(self) -> &'static str {
        match self {
            LearnerKind::Evolve => "generations",
            LearnerKind::Td => "games",
            LearnerKind::Train => "epochs",
            LearnerKind::Pretrain => "nets",
            LearnerKind::Alphazero => "rounds",
        }
    }
}

/// Runs `config` in the run folder `dir`, through the run layer
/// ([`learn::drive`]): a fresh run, or where `dir` holds this run
/// already, its continuation from the last checkpoint (a caller that
/// wants a fresh folder checks it with [`holds_run`] first). Refuses, in
/// an MPI job, a learner that does not share its work between ranks.
pub fn run(
    config: RunConfig,
    dir: &Path,
    progress: &mut dyn LearnProgress,
) -> Result<Summary, RunError> {
    config.one_process()?;
    let learner = config.kind();
    let (run, pool) = match config {
        RunConfig::Evolve(c) => {
            let game = AnyGame::parse(&c.game)
                .map_err(|e| RunError(format!("bad game spec '{}': {e}", c.game)))?;
            let summary = with_board_game!(&game, g => {
                let cp = super::run::start(g, c)?;
                learn::evolve::run(g, cp, dir, progress)
            }, Err(RunError(format!(
                "{} cannot be evolved: nets play the board games only",
                c.game
            ))))?;
            (summary, None)
        }
        RunConfig::Td(c) => (learn::td::run(&c, dir, progress)?, None),
        RunConfig::Train(c) => (learn::train::run(&c, dir, progress)?, None),
        RunConfig::Alphazero(c) => (learn::alphazero::run(&c, dir, progress)?, None),
        RunConfig::Pretrain(c) => {
            let (summary, pool) = learn::pretrain::run_summary(&c, dir, progress)?;
            (summary, Some(pool))
        }
    };
    Ok(Summary {
        learner,
        unit: learner.unit(),
        run,
        pool,
    })
}

/// Goes on with the run in `dir` from its last checkpoint, whichever
/// learner made it, with the config it holds; `sets` may only raise the
/// stop count (`stop.generations=N`, `stop.games=N`, `stop.epochs=N`,
/// none for pre-training), which extends a finished run. A folder of an
/// older wopr (`checkpoint.json`, `td.json`, `pool.partial.json`) is
/// upgraded first.
pub fn resume(
    dir: &Path,
    sets: &[String],
    progress: &mut dyn LearnProgress,
) -> Result<Summary, RunError> {
    run(resumed_config(dir, sets, progress)?, dir, progress)
}

/// Whether `dir` holds a run (of the run layer, or an older wopr's
/// evolution), so that a fresh run there would go on with it instead.
pub fn holds_run(dir: &Path) -> bool {
    learn::is_run(dir) || dir.join("checkpoint.json").exists()
}

/// The config to resume the run in `dir` with, its stop count set from
/// `sets`.
fn resumed_config(
    dir: &Path,
    sets: &[String],
    progress: &mut dyn LearnProgress,
) -> Result<RunConfig, RunError> {
    if !learn::is_run(dir) {
        let upgraded = super::pretrain::upgrade(dir)?
            || learn::evolve::upgrade(dir)?
            || (dir.join("td.json").is_file()
                && dir.join("config.toml").is_file()
                && learn::td::upgrade(dir)?);
        if !upgraded {
            return Err(RunError(if dir.join("pool.json").is_file() {
                format!(
                    "{} holds a finished pre-trained pool: nothing to resume",
                    dir.display()
                )
            } else {
                format!(
                    "{} holds no run to resume (no state.json of a run, no checkpoint.json of an older evolution run)",
                    dir.display()
                )
            }));
        }
    }
    let kind = learn::run_kind(dir)?;
    let learner = LearnerKind::parse(&kind).map_err(|_| {
        RunError(format!(
            "{} holds a run of an unknown learner '{kind}'",
            dir.display()
        ))
    })?;
    let stop = stop_count(learner, sets)?;
    if learner == LearnerKind::Evolve {
        // An evolution's config is in its checkpoint.
        let cp = super::load_checkpoint(dir)?;
        if let Some((then, now)) = cp.simd_mismatch() {
            progress.warn(&format!(
                "this run started with {then} net kernels and goes on with {now}; \
                 they round differently, so it will not match an uninterrupted run bit for bit"
            ));
        }
        let mut config = cp.config;
        if let Some(g) = stop {
            config.stop.generations = g;
        }
        return Ok(RunConfig::Evolve(config));
    }
    let path = dir.join("config.toml");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| RunError(format!("cannot read {}: {e}", path.display())))?;
    let mut config = RunConfig::parse(&text, &path.display().to_string(), &[], None)?;
    match (&mut config, stop) {
        (RunConfig::Td(c), Some(games)) => c.stop.games = games,
        (RunConfig::Train(c), Some(epochs)) => c.stop.epochs = epochs,
        (RunConfig::Alphazero(c), Some(rounds)) => c.stop.rounds = rounds,
        _ => {}
    }
    if config.kind() != learner {
        return Err(RunError(format!(
            "{} holds a {kind} run, but its config.toml is a {} config",
            dir.display(),
            config.kind()
        )));
    }
    Ok(config)
}

/// The stop count `sets` gives a resumed run of `learner`: only its stop
/// key is accepted.
fn stop_count(learner: LearnerKind, sets: &[String]) -> Result<Option<u64>, RunError> {
    let mut value = None;
    for s in sets {
        if learner == LearnerKind::Pretrain {
            return Err(RunError(format!(
                "bad --set '{s}': a resumed pre-training run takes no settings"
            )));
        }
        let allowed = format!("stop.{}", learner.unit());
        let (k, v) = s.split_once('=').unwrap_or((s, ""));
        if k.trim() != allowed {
            return Err(RunError(format!(
                "bad --set '{s}': a resumed run takes only {allowed}=N"
            )));
        }
        value =
            Some(v.trim().parse::<u64>().map_err(|_| {
                RunError(format!("bad --set '{s}': {allowed} must be a whole number"))
            })?);
    }
    Ok(value)
}
