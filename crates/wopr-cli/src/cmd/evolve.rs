//! `wopr evolve CONFIG.toml`: evolve players as a config file says, into a
//! run folder that survives being killed (`--resume DIR`).

use std::path::PathBuf;

use wopr::experiment::RunConfig;

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
