//! `wopr ggp`: the General Game Playing match protocol over HTTP, both
//! sides. `wopr ggp --port PORT --player SPEC` is a GGP player
//! (`player.rs`: an axum server answering the game manager's messages);
//! `wopr ggp match SHEET URL…` is a game manager (`manager.rs`) that runs
//! one match between GGP players and records it as JSON; GDL-II sheets
//! are played with GDL-II's messages (percepts, never others' moves). The messages and
//! a match's position are the library's (`wopr::games::gdl::ggp`); here
//! are the network, the clocks and the records.

mod client;
mod manager;
mod player;

use std::net::IpAddr;
use std::path::PathBuf;

/// Arguments of `wopr ggp`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    what: Option<What>,
    #[command(flatten)]
    player: PlayerArgs,
}

#[derive(clap::Subcommand, Debug)]
enum What {
    /// Run one match between GGP players (a game manager) and record it
    /// as JSON: START to every player, PLAY until the game ends, STOP.
    Match(MatchArgs),
}

/// `wopr ggp`'s own options: the player.
#[derive(clap::Args, Debug)]
pub struct PlayerArgs {
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 9147)]
    port: u16,
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1")]
    host: IpAddr,
    /// The player, as a spec for the match's game (`mcts:c=1`,
    /// `alphabeta`, `random`, `net:FILE` for a sheet it was trained on).
    /// Every move is given at most the play clock less a margin (a fifth
    /// of the clock, 100 ms to 2 s), whatever the spec asks. Where the
    /// spec does not fit a match's sheet, or none is given: MCTS with
    /// random rollouts and the MCTS-Solver on two-player sheets whose
    /// turns are one player's, a random legal move elsewhere. On GDL-II
    /// sheets: `random` or `first`, else flat Monte Carlo over states
    /// drawn from the player's information set.
    #[arg(long)]
    player: Option<String>,
    /// The name `(info)` answers with.
    #[arg(long, default_value = "wopr")]
    name: String,
    /// The seed of the players' random choices (one stream per match and
    /// step).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The memory budget for grounding a match's sheet (`512M`, `2G`;
    /// default: WOPR_GDL_MEMORY, else 1G): a sheet over it is played by
    /// the non-ground evaluator, or refused in one line.
    #[arg(long, value_parser = crate::cmd::gdl::budget)]
    memory: Option<wopr::games::gdl::ground::Budget>,
}

/// `wopr ggp match`'s options.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// The rule sheet (KIF: GDL, or GDL-II with random and sees, played
    /// with GDL-II's messages).
    sheet: PathBuf,
    /// One player URL per role, in the order of the sheet's `role` facts
    /// (`http://HOST:PORT/` or `HOST:PORT`); GDL-II's `random` is played
    /// by the manager and takes none.
    #[arg(required = true)]
    urls: Vec<String>,
    /// Seconds each player has to get ready after START.
    #[arg(long, default_value_t = 10)]
    start_clock: u64,
    /// Seconds each player has for each move.
    #[arg(long, default_value_t = 1)]
    play_clock: u64,
    /// Milliseconds past a clock that the manager waits for an answer
    /// before giving up on it (an answer after the clock is late all the
    /// same: its move is replaced).
    #[arg(long, default_value_t = 1000)]
    grace_ms: u64,
    /// The match id (default: `wopr.` and the time in seconds).
    #[arg(long)]
    id: Option<String>,
    /// The most steps (joint moves) before the match is aborted.
    #[arg(long, default_value_t = 10_000)]
    max_steps: usize,
    /// The seed of the legal moves chosen for players that fail, and of
    /// GDL-II's `random` role.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Write the JSON record here instead of stdout.
    #[arg(long)]
    out: Option<PathBuf>,
    /// The memory budget for grounding a match's sheet (`512M`, `2G`;
    /// default: WOPR_GDL_MEMORY, else 1G): a sheet over it is played by
    /// the non-ground evaluator, or refused in one line.
    #[arg(long, value_parser = crate::cmd::gdl::budget)]
    memory: Option<wopr::games::gdl::ground::Budget>,
}

/// Runs `wopr ggp …`.
pub fn run(args: &Args) -> anyhow::Result<()> {
    match &args.what {
        Some(What::Match(m)) => manager::run(m),
        None => player::run(&args.player),
    }
}

/// The grounding budget of `--memory`, else of the environment
/// (`WOPR_GDL_MEMORY`), else the default.
fn budget_of(
    memory: Option<wopr::games::gdl::ground::Budget>,
) -> anyhow::Result<wopr::games::gdl::ground::Budget> {
    match memory {
        Some(b) => Ok(b),
        None => wopr::games::gdl::ground::Budget::from_env().map_err(anyhow::Error::msg),
    }
}
