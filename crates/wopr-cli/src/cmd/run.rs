//! `wopr run CONFIG.toml`: one command for every learner. The config's
//! `[learner] kind` chooses: none or `"evolve"` is an evolution config
//! (every file in `configs/` runs as it is, as `wopr evolve` runs it),
//! `"td"` a TD self-play run, `"train"` supervised training, `"pretrain"`
//! a pre-trained pool (the configs `wopr td|train|pretrain
//! --print-config` write). `wopr run --resume DIR` goes on with a killed
//! run, or extends a finished one with `--set stop.generations=N`
//! (evolution), `stop.games=N` (TD) or `stop.epochs=N` (training); a
//! killed pre-training run goes on from the nets it finished.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use wopr::experiment::{self, LearnerKind, RunConfig, Summary};

use super::learn::Bar;

/// Arguments of `wopr run`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The run's config (TOML): an evolution config (`configs/`) or one with
    /// `[learner] kind = "td"`.
    #[arg(required_unless_present = "resume")]
    config: Option<PathBuf>,
    /// The run folder (default: runs/<config name>-seed<S>).
    #[arg(long, conflicts_with = "resume")]
    out: Option<PathBuf>,
    /// Seed (overrides the config's).
    #[arg(long, conflicts_with = "resume")]
    seed: Option<u64>,
    /// Sets one config key, `SECTION.KEY=VALUE` in TOML syntax (repeatable);
    /// with --resume only `stop.generations` / `stop.games`.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Continue the run in this folder from its last checkpoint.
    #[arg(long, conflicts_with = "config")]
    resume: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// Starts or resumes a run of any learner.
pub fn run(args: &Args) -> anyhow::Result<()> {
    match (&args.resume, &args.config) {
        (Some(dir), _) => resume(dir, &args.set, args.quiet),
        (None, Some(path)) => {
            let config = read_config(path, &args.set, args.seed)?;
            let out = out_dir(args.out.as_deref(), path, config.seed());
            go(config, &out, args.quiet)
        }
        (None, None) => anyhow::bail!("give a config file, or --resume DIR"),
    }
}

/// Reads the config file at `path` and parses it once, with the `--set`
/// settings and the seed applied.
pub(crate) fn read_config(
    path: &Path,
    set: &[String],
    seed: Option<u64>,
) -> anyhow::Result<RunConfig> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read config {}", path.display()))?;
    Ok(RunConfig::parse(
        &text,
        &path.display().to_string(),
        set,
        seed,
    )?)
}

/// Runs `config` as a fresh run in `out`, which must not hold a run
/// already, and says how it ended.
pub(crate) fn go(config: RunConfig, out: &Path, quiet: bool) -> anyhow::Result<()> {
    if config.kind() == LearnerKind::Pretrain {
        if out.join("pool.json").exists() || experiment::holds_run(out) {
            anyhow::bail!(
                "{} already holds a pre-trained pool (or part of one: wopr run --resume {}); choose another --out",
                out.display(),
                out.display()
            );
        }
    } else if experiment::holds_run(out) {
        anyhow::bail!(
            "{} already holds a run; continue it with wopr run --resume {} or choose another --out",
            out.display(),
            out.display()
        );
    }
    run_in(config, out, quiet)
}

/// Runs `config` in `dir` (a fresh run, or the one `dir` holds going on)
/// and says how it ended.
pub(crate) fn run_in(config: RunConfig, dir: &Path, quiet: bool) -> anyhow::Result<()> {
    let start = Instant::now();
    let summary = experiment::run(config, dir, &mut bar(quiet))?;
    show(dir, &summary, start.elapsed().as_secs_f64())
}

/// Resumes the run in `dir`, whichever learner made it, and says how it
/// ended.
pub(crate) fn resume(dir: &Path, set: &[String], quiet: bool) -> anyhow::Result<()> {
    let start = Instant::now();
    let summary = experiment::resume(dir, set, &mut bar(quiet))?;
    show(dir, &summary, start.elapsed().as_secs_f64())
}

/// The progress bar: hidden when quiet, and on every rank of an MPI job
/// but the first, which speaks for the run.
fn bar(quiet: bool) -> Bar {
    Bar::new(quiet || !wopr::dist::is_leader())
}

/// Says how a run ended, as its learner's command does.
fn show(dir: &Path, summary: &Summary, seconds: f64) -> anyhow::Result<()> {
    match summary.learner {
        LearnerKind::Evolve => super::summary::evolution(dir),
        LearnerKind::Td | LearnerKind::Train | LearnerKind::Alphazero => {
            super::learn::finish(dir, summary.unit, &summary.run, seconds)
        }
        LearnerKind::Pretrain => match &summary.pool {
            Some(pool) => super::summary::pool(pool, dir, seconds),
            None => Ok(()),
        },
    }
}

/// The run folder of `--out`, or by default `runs/<config name>-seed<S>`.
pub(crate) fn out_dir(out: Option<&Path>, config: &Path, seed: u64) -> PathBuf {
    let stem = config
        .file_stem()
        .map_or("run".into(), |s| s.to_string_lossy().to_string());
    out.map_or_else(
        || PathBuf::from(format!("runs/{stem}-seed{seed}")),
        Path::to_path_buf,
    )
}
