//! `wopr evolve CONFIG.toml`: evolve players as a config file says, into a
//! run folder that survives being killed (`--resume DIR`).

use std::path::{Path, PathBuf};

use anyhow::Context;
use wopr::experiment::learn as layer;
use wopr::experiment::{load_checkpoint, start, Checkpoint, EvolveConfig, GenerationRow};
use wopr::game::encode::Encodable;
use wopr::{with_board_game, Roster, Searchable};

use super::learn::Bar;
use crate::plot::{self, Series};

/// Arguments of `wopr evolve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The run's config (TOML); see `configs/` for the papers' setups.
    pub(crate) config: Option<PathBuf>,
    /// The run folder (default: runs/<config name>-seed<S>).
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
    /// Seed (overrides the config's).
    #[arg(long)]
    pub(crate) seed: Option<u64>,
    /// Generations (overrides the config's stop.generations).
    #[arg(long)]
    pub(crate) generations: Option<u64>,
    /// Sets one config key, `SECTION.KEY=VALUE` in TOML syntax (repeatable),
    /// e.g. `--set net.complete=10 --set algorithm.population=40`: grids of
    /// runs from one config file.
    #[arg(long = "set", value_name = "KEY=VALUE", conflicts_with = "resume")]
    pub(crate) set: Vec<String>,
    /// Continue the run in this folder from its last checkpoint.
    #[arg(long, conflicts_with_all = ["config", "out", "seed"])]
    pub(crate) resume: Option<PathBuf>,
    /// No progress bar.
    #[arg(long, short)]
    pub(crate) quiet: bool,
    /// Write the config this command runs (with --seed, --generations and
    /// --set applied, and `[learner] kind = "evolve"`) to stdout and exit;
    /// `wopr run` of it is this run.
    #[arg(long, conflicts_with = "resume")]
    pub(crate) print_config: bool,
}

/// Starts or resumes a run.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let (config, dir) = match (&args.resume, &args.config) {
        (Some(dir), _) => {
            layer::evolve::upgrade(dir)?;
            let cp = load_checkpoint(dir)?;
            if let Some((then, now)) = cp.simd_mismatch() {
                eprintln!(
                    "warning: this run started with {then} net kernels and goes on with {now}; \
                     they round differently, so it will not match an uninterrupted run bit for bit"
                );
            }
            let mut config = cp.config;
            if let Some(g) = args.generations {
                config.stop.generations = g;
            }
            (config, dir.clone())
        }
        (None, Some(path)) => {
            let mut config = load_config(path, &args.set)?;
            if let Some(s) = args.seed {
                config.seed = s;
            }
            if let Some(g) = args.generations {
                config.stop.generations = g;
            }
            if args.print_config {
                config.learner = Some(wopr::experiment::EvolveLearner {
                    kind: wopr::experiment::LearnerKind::Evolve,
                });
                return super::print_config(&config);
            }
            let dir = out_dir(args.out.as_deref(), path, config.seed);
            if layer::is_run(&dir) || dir.join("checkpoint.json").exists() {
                anyhow::bail!(
                    "{} already holds a run; continue it with --resume {} or choose another --out",
                    dir.display(),
                    dir.display()
                );
            }
            (config, dir)
        }
        (None, None) => anyhow::bail!("give a config file, or --resume DIR"),
    };
    let game = super::parse_game(&config.game)?;
    with_board_game!(&game, g => go(g, config, &dir, args.quiet),
        anyhow::bail!("{} cannot be evolved: nets play the board games only", config.game))
}

/// The config text with each `SECTION.KEY=VALUE` of `settings` applied
/// (the value in TOML syntax: `10`, `0.5`, `"raw"`, `[6]`, `true`).
pub(crate) fn with_settings(text: &str, settings: &[String]) -> Result<String, String> {
    if settings.is_empty() {
        return Ok(text.to_string());
    }
    let mut doc: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| format!("the config is not TOML: {}", e.message()))?;
    for s in settings {
        let (path, value) = s
            .split_once('=')
            .ok_or_else(|| format!("'{s}' is not KEY=VALUE (e.g. net.hidden=[6])"))?;
        let value: toml::Value = format!("v = {}", value.trim())
            .parse::<toml::Table>()
            .ok()
            .and_then(|mut t| t.remove("v"))
            .ok_or_else(|| {
                format!(
                    "'{s}': {} is not a TOML value (strings need quotes)",
                    value.trim()
                )
            })?;
        let keys: Vec<&str> = path.trim().split('.').collect();
        if keys.iter().any(|k| k.is_empty()) {
            return Err(format!("'{s}': the key must be SECTION.KEY or KEY"));
        }
        let (last, sections) = keys.split_last().expect("split gives one key at least");
        let mut table = &mut doc;
        for k in sections {
            let entry = table
                .entry(k.to_string())
                .or_insert_with(|| toml::Value::Table(toml::Table::new()));
            table = entry
                .as_table_mut()
                .ok_or_else(|| format!("'{s}': {k} is not a section"))?;
        }
        table.insert(last.to_string(), value);
    }
    toml::to_string(&doc).map_err(|e| e.to_string())
}

/// Runs (or resumes) the evolution of `config` in `dir` through the run
/// layer, then draws its plots and says how it ended.
fn go<G>(game: &G, config: EvolveConfig, dir: &Path, quiet: bool) -> anyhow::Result<()>
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    let fresh = start(game, config)?;
    let leader = wopr::dist::is_leader();
    layer::evolve::run(game, fresh, dir, &mut Bar::new(quiet || !leader))?;
    if !leader {
        // Rank 0 of an MPI job writes the folder and speaks for the run.
        return Ok(());
    }
    let cp = load_checkpoint(dir)?;
    draw(&cp, dir)?;
    let last = cp.history.last();
    println!(
        "{}: {} generations of {}; last best {:.4}, mean {:.4}",
        dir.display(),
        cp.history.len(),
        cp.config.game,
        last.map_or(f64::NAN, |r| r.best),
        last.map_or(f64::NAN, |r| r.mean)
    );
    if let Some(b) = &cp.best {
        println!("best fitness {:.4} (generation {})", b.0, b.1);
    }
    println!(
        "champion: {}   play it: wopr play {} --first human --second net:{}",
        dir.join("champion.json").display(),
        cp.config.game,
        dir.join("champion.json").display()
    );
    Ok(())
}

fn draw(cp: &Checkpoint, dir: &Path) -> anyhow::Result<()> {
    let pts = |f: fn(&GenerationRow) -> f64| -> Vec<(f64, f64)> {
        cp.history
            .iter()
            .map(|r| (r.generation as f64, f(r)))
            .collect()
    };
    plot::lines(
        &dir.join("fitness"),
        &format!(
            "fitness, {}",
            cp.config
                .name
                .clone()
                .unwrap_or_else(|| cp.config.game.clone())
        ),
        "generation",
        "fitness",
        &[
            Series {
                name: "best".into(),
                points: pts(|r| r.best),
            },
            Series {
                name: "mean".into(),
                points: pts(|r| r.mean),
            },
            Series {
                name: "min".into(),
                points: pts(|r| r.min),
            },
        ],
    )?;
    if !cp.yardsticks.is_empty() {
        let mut names: Vec<&str> = cp.yardsticks.iter().map(|r| r.opponent.as_str()).collect();
        names.dedup();
        names.sort();
        names.dedup();
        let series: Vec<Series> = names
            .iter()
            .map(|&n| Series {
                name: if n == "exhaustive" {
                    "exhaustive losses / lines".into()
                } else {
                    format!("wins vs {n}")
                },
                points: cp
                    .yardsticks
                    .iter()
                    .filter(|r| r.opponent == n)
                    .map(|r| {
                        let y = if n == "exhaustive" {
                            r.losses as f64 / r.games.max(1) as f64
                        } else {
                            r.win_rate
                        };
                        (r.generation as f64, y)
                    })
                    .collect(),
            })
            .collect();
        plot::lines(
            &dir.join("yardsticks"),
            "champion against yardsticks",
            "generation",
            "fraction of games",
            &series,
        )?;
    }
    Ok(())
}

/// Reads, applies the `--set` settings to, parses and checks the config at
/// `path`: a one-line error naming the file (and the line, without
/// settings) for anything wrong.
pub fn load_config(path: &std::path::Path, set: &[String]) -> anyhow::Result<EvolveConfig> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read config {}", path.display()))?;
    let config: EvolveConfig = parse_config(&text, set, path)?;
    config
        .check()
        .map_err(|e| anyhow::anyhow!("bad config {}: {e}", path.display()))?;
    Ok(config)
}

/// Parses a config's `text` (read from `path`) with the `--set` settings
/// applied, into any learner's config type: a one-line error naming the
/// file, and the line when no `--set` rewrote it.
pub(crate) fn parse_config<T: serde::de::DeserializeOwned>(
    text: &str,
    set: &[String],
    path: &Path,
) -> anyhow::Result<T> {
    let text = with_settings(text, set).map_err(|e| anyhow::anyhow!("bad --set: {e}"))?;
    toml::from_str(&text).map_err(|e| {
        // Lines of the file mean nothing once --set rewrote it.
        let line = match e.span() {
            Some(s) if set.is_empty() => {
                format!(" line {}:", text[..s.start].matches('\n').count() + 1)
            }
            _ if !set.is_empty() => " (with --set)".to_string(),
            _ => String::new(),
        };
        anyhow::anyhow!(
            "bad config {}:{line} {}",
            path.display(),
            e.message().replace("expected one of", "accepted:")
        )
    })
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
