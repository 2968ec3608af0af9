//! `wopr evolve CONFIG.toml`: evolve players as a config file says, into a
//! run folder that survives being killed (`--resume DIR`).

use std::path::{Path, PathBuf};

use wopr::experiment::{load_checkpoint, Checkpoint, GenerationRow, RunConfig};

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
    /// Continue the run in this folder from its last checkpoint (as `wopr
    /// run --resume DIR`, with --generations as `stop.generations`).
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
    let path = match (&args.resume, &args.config) {
        (Some(dir), _) => {
            let set: Vec<String> = args
                .generations
                .map(|g| format!("stop.generations={g}"))
                .into_iter()
                .collect();
            return super::run::resume(dir, &set, args.quiet);
        }
        (None, Some(path)) => path,
        (None, None) => anyhow::bail!("give a config file, or --resume DIR"),
    };
    let mut config = match super::run::read_config(path, &args.set, args.seed)? {
        RunConfig::Evolve(c) => c,
        other => anyhow::bail!(
            "bad config {}: [learner] kind = \"{}\" is not an evolution; wopr run runs it",
            path.display(),
            other.kind()
        ),
    };
    if let Some(g) = args.generations {
        config.stop.generations = g;
    }
    let config = RunConfig::Evolve(config);
    if args.print_config {
        print!("{}", config.to_toml()?);
        return Ok(());
    }
    let dir = super::run::out_dir(args.out.as_deref(), path, config.seed());
    super::run::go(config, &dir, args.quiet)
}

/// Draws the plots of the evolution in `dir` and says how it ended (on
/// the first rank of an MPI job only, which speaks for the run).
pub(crate) fn show(dir: &Path) -> anyhow::Result<()> {
    if !wopr::dist::is_leader() {
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
