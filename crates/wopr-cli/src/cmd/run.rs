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

use anyhow::Context;
use wopr::experiment::LearnerKind;

use wopr::experiment::learn::td::TdConfig;
use wopr::experiment::learn::train::TrainConfig;
use wopr::experiment::learn::{self as layer};

use super::evolve;
use super::pretrain;
use wopr::experiment::learn::pretrain::PretrainConfig;

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
        (None, Some(path)) => start(path, args),
        (None, None) => anyhow::bail!("give a config file, or --resume DIR"),
    }
}

/// The learner a config names (`[learner] kind`; none: evolution).
fn kind_of(text: &str, path: &Path) -> anyhow::Result<LearnerKind> {
    // A file that is not TOML gets its one-line error from the learner's
    // own reader, with the line.
    let Ok(doc) = text.parse::<toml::Table>() else {
        return Ok(LearnerKind::Evolve);
    };
    match doc.get("learner").and_then(|l| l.get("kind")) {
        None => Ok(LearnerKind::Evolve),
        Some(toml::Value::String(k)) => LearnerKind::parse(k)
            .map_err(|e| anyhow::anyhow!("bad config {}: {e}", path.display())),
        Some(v) => anyhow::bail!(
            "bad config {}: [learner] kind = {v} is not a name (accepted: evolve, td, train, pretrain)",
            path.display()
        ),
    }
}

/// Refuses a learner that does not share its work between the ranks of an
/// MPI job (training's epochs each follow from the last, and so do TD's
/// games unless `learner.batch` above 1 learns them in rounds).
fn one_process(kind: LearnerKind, text: &str) -> anyhow::Result<()> {
    if wopr::dist::size() <= 1 {
        return Ok(());
    }
    if kind == LearnerKind::Td {
        let batch = text
            .parse::<toml::Table>()
            .ok()
            .and_then(|d| d.get("learner")?.get("batch")?.as_integer());
        if batch.is_some_and(|b| b > 1) {
            return Ok(());
        }
        anyhow::bail!(
            "a td run spreads over MPI ranks only in rounds (each game follows from the last): set learner.batch above 1, or run it as one process"
        );
    }
    anyhow::bail!(
        "a {} run does not spread over MPI ranks (each step follows from the last): run it as one process; evolution configs spread their games",
        kind.name()
    )
}

fn start(path: &Path, args: &Args) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read config {}", path.display()))?;
    let text_set =
        evolve::with_settings(&text, &args.set).map_err(|e| anyhow::anyhow!("bad --set: {e}"))?;
    let kind = kind_of(&text_set, path)?;
    if kind != LearnerKind::Evolve {
        one_process(kind, &text_set)?;
    }
    match kind {
        LearnerKind::Evolve => evolve::run(&evolve::Args {
            config: Some(path.to_path_buf()),
            out: args.out.clone(),
            seed: args.seed,
            generations: None,
            set: args.set.clone(),
            resume: None,
            quiet: args.quiet,
            print_config: false,
        }),
        LearnerKind::Td => {
            let mut config: TdConfig = evolve::parse_config(&text, &args.set, path)?;
            if let Some(s) = args.seed {
                config.seed = s;
            }
            let out = fresh_out(args.out.as_deref(), path, config.seed)?;
            super::td::run_config(&config, &out, args.quiet)
        }
        LearnerKind::Train => {
            let mut config: TrainConfig = evolve::parse_config(&text, &args.set, path)?;
            if let Some(s) = args.seed {
                config.seed = s;
            }
            let out = fresh_out(args.out.as_deref(), path, config.seed)?;
            train_config(&config, &out, args.quiet)
        }
        LearnerKind::Pretrain => {
            let mut config: PretrainConfig = evolve::parse_config(&text, &args.set, path)?;
            if let Some(s) = args.seed {
                config.seed = s;
            }
            let out = evolve::out_dir(args.out.as_deref(), path, config.seed);
            if out.join("pool.json").exists() || layer::is_run(&out) {
                anyhow::bail!(
                    "{} already holds a pre-trained pool (or part of one: wopr run --resume {}); choose another --out",
                    out.display(),
                    out.display()
                );
            }
            pretrain::run_config(&config, &out)
        }
    }
}

/// Resumes the run in `dir`, whichever learner made it.
fn resume(dir: &Path, set: &[String], quiet: bool) -> anyhow::Result<()> {
    let stop_key = |allowed: &str| -> anyhow::Result<Option<u64>> {
        let mut value = None;
        for s in set {
            let (k, v) = s.split_once('=').unwrap_or((s, ""));
            if k.trim() != allowed {
                anyhow::bail!("bad --set '{s}': a resumed run takes only {allowed}=N");
            }
            value = Some(v.trim().parse::<u64>().map_err(|_| {
                anyhow::anyhow!("bad --set '{s}': {allowed} must be a whole number")
            })?);
        }
        Ok(value)
    };
    if layer::is_run(dir) {
        let path = dir.join("config.toml");
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let kind = layer::run_kind(dir)?;
        if kind != "evolve" {
            let learner = LearnerKind::parse(&kind).map_err(|e| anyhow::anyhow!("{e}"))?;
            one_process(learner, &text)?;
        }
        return match kind.as_str() {
            "evolve" => resume_evolution(dir, stop_key("stop.generations")?, quiet),
            "pretrain" => {
                let config: PretrainConfig = evolve::parse_config(&text, &[], &path)?;
                stop_key("none")?;
                pretrain::run_config(&config, dir)
            }
            "td" => {
                let mut config: TdConfig = evolve::parse_config(&text, &[], &path)?;
                if let Some(games) = stop_key("stop.games")? {
                    config.stop.games = games;
                }
                super::td::run_config(&config, dir, quiet)
            }
            "train" => {
                let mut config: TrainConfig = evolve::parse_config(&text, &[], &path)?;
                if let Some(epochs) = stop_key("stop.epochs")? {
                    config.stop.epochs = epochs;
                }
                train_config(&config, dir, quiet)
            }
            other => anyhow::bail!(
                "{} holds a run of an unknown learner '{other}'",
                dir.display()
            ),
        };
    }
    if wopr::experiment::pretrain::upgrade(dir)? {
        // A pre-training run of an older wopr killed on the way
        // (`pool.partial.json`): its finished nets are kept.
        return resume(dir, set, quiet);
    }
    if layer::evolve::upgrade(dir)? {
        // An evolution run of an older wopr (`checkpoint.json`).
        return resume(dir, set, quiet);
    }
    if dir.join("td.json").is_file() && dir.join("config.toml").is_file() {
        // A TD run of an older wopr: its checkpoint becomes the layer's.
        layer::td::upgrade(dir)?;
        return resume(dir, set, quiet);
    }
    if dir.join("pool.json").is_file() {
        anyhow::bail!(
            "{} holds a finished pre-trained pool: nothing to resume",
            dir.display()
        );
    }
    anyhow::bail!(
        "{} holds no run to resume (no state.json of a run, no checkpoint.json of an older evolution run)",
        dir.display()
    )
}

/// Resumes the evolution in `dir`, to `generations` when given.
fn resume_evolution(dir: &Path, generations: Option<u64>, quiet: bool) -> anyhow::Result<()> {
    evolve::run(&evolve::Args {
        config: None,
        out: None,
        seed: None,
        generations,
        set: Vec::new(),
        resume: Some(dir.to_path_buf()),
        quiet,
        print_config: false,
    })
}

/// The run folder of a new run: `--out` or the default, which must not
/// hold a run already.
fn fresh_out(out: Option<&Path>, config: &Path, seed: u64) -> anyhow::Result<PathBuf> {
    let out = evolve::out_dir(out, config, seed);
    if layer::is_run(&out) {
        anyhow::bail!(
            "{} already holds a run; continue it with wopr run --resume {} or choose another --out",
            out.display(),
            out.display()
        );
    }
    Ok(out)
}

/// Runs (or resumes) the training run of `config` in `out`.
fn train_config(config: &TrainConfig, out: &Path, quiet: bool) -> anyhow::Result<()> {
    let start = std::time::Instant::now();
    let summary = layer::train::run(config, out, &mut super::learn::Bar::new(quiet))?;
    super::learn::finish(out, "epochs", &summary, start.elapsed().as_secs_f64())
}
