//! The `wopr` command: a thin front end over the `wopr` library. Each
//! subcommand lives in its own module under `cmd/`; they parse, print and
//! draw, and leave every algorithm to the library.

mod cmd;
mod http;
mod human;
mod plot;
#[cfg(feature = "mpi")]
mod ranks;
mod serve;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Evolve, train and measure neural-network players for board games.
#[derive(Parser, Debug)]
#[command(name = "wopr", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List the games, their parameters and defaults.
    Games(cmd::games::GamesArgs),
    /// Count action sequences from the start, depth by depth.
    ///
    /// A ply is one action: a move of the player to move, a chance outcome
    /// (a `random` role's move in GDL-II), or at a simultaneous turn one
    /// joint move (every role's choice; the count is their product). On a
    /// `gdl:` sheet a ply is one GDL step, as GGP reasoners count: the joint
    /// move of every role (the product of their legal moves), a step where
    /// every role has one forced move (`noop`) included, and GDL-II's
    /// `random` one role among the others.
    Perft(cmd::perft::PerftArgs),
    /// Play moves from the start and show the position, its legal moves and result.
    Position(cmd::position::PositionArgs),
    /// Play games between two players and report the results.
    Play(cmd::play::PlayArgs),
    /// Measure random playouts per second for each game on one thread.
    Bench(cmd::bench::BenchArgs),
    /// Measure a player against opponents (or exhaustively, for tictactoe).
    Eval(cmd::eval::EvalArgs),
    /// Play a round robin (or a gauntlet) and fit ratings with intervals.
    Tournament(cmd::tournament::TournamentArgs),
    /// Write a Markdown report on run folders of one config.
    Report(cmd::report::ReportArgs),
    /// Solve a position exactly: value, score margin, optimal moves.
    Solve(cmd::solve::SolveArgs),
    /// Record positions with an oracle's judgement as a training set (CSV).
    Dataset(cmd::dataset::Args),
    /// Train a net on a dataset by back-propagation or RPROP.
    Train(cmd::train::Args),
    /// Pre-train a pool of nets on teachers' judgements (a seed population
    /// for `[init] population = "pretrained:DIR"`).
    Pretrain(cmd::pretrain::Args),
    /// Run a learner from a config file (evolution, TD, training,
    /// pre-training), or resume a run.
    Run(cmd::run::Args),
    /// Run a grid of runs of one config (every combination of some keys'
    /// values), here or one task at a time (a Slurm array job).
    Grid(cmd::grid::Args),
    /// Evolve players from a config file.
    Evolve(cmd::evolve::Args),
    /// Learn a linear value net (an n-tuple network) by TD self-play.
    Td(cmd::td::Args),
    /// Draw CSV logs (loss curves, generations.csv) as lines, PNG and SVG.
    Plot(cmd::plot::Args),
    /// Average net files weight by weight into one (a model soup).
    Average(cmd::average::Args),
    /// Turn a recorded game into music (MIDI, optionally WAV).
    Music(cmd::music::MusicArgs),
    /// Serve a web page to play the games, hear them and follow runs.
    Serve(serve::ServeArgs),
    /// Check a GDL rule sheet, or write it as Prolog.
    Gdl(cmd::gdl::Args),
    /// Play in General Game Playing matches over HTTP (a GGP player), or
    /// run a match between GGP players (`wopr ggp match`).
    Ggp(cmd::ggp::Args),
    /// Speak the Go Text Protocol on stdin/stdout as an engine playing a
    /// player (for GUIs and other programs).
    Gtp(cmd::gtp::GtpArgs),
}

/// A failure with the exit code it should produce; anything else exits 1.
#[derive(Debug)]
pub struct ExitError {
    /// The process exit code.
    pub code: u8,
    /// The one-line message.
    pub message: String,
}

impl std::fmt::Display for ExitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ExitError {}

fn main() -> ExitCode {
    // Behave like other command-line tools when the reader of our output goes
    // away (`wopr perft … | head`): end quietly instead of panicking on EPIPE.
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE before any thread
    // starts has no preconditions.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    // One run over the ranks of an MPI job (`mpirun -n N wopr run …`).
    #[cfg(feature = "mpi")]
    let _universe = match &cli.command {
        Command::Run(_) | Command::Evolve(_) | Command::Bench(_) => ranks::start(),
        _ => None,
    };
    let result = match &cli.command {
        Command::Games(a) => cmd::games::run(a),
        Command::Perft(a) => cmd::perft::run(a),
        Command::Gdl(a) => cmd::gdl::run(a),
        Command::Ggp(a) => cmd::ggp::run(a),
        Command::Position(a) => cmd::position::run(a),
        Command::Play(a) => cmd::play::run(a),
        Command::Bench(a) => cmd::bench::run(a),
        Command::Eval(a) => cmd::eval::run(a),
        Command::Tournament(a) => cmd::tournament::run(a),
        Command::Report(a) => cmd::report::run(a),
        Command::Solve(a) => cmd::solve::run(a),
        Command::Dataset(a) => cmd::dataset::run(a),
        Command::Train(a) => cmd::train::run(a),
        Command::Pretrain(a) => cmd::pretrain::run(a),
        Command::Run(a) => cmd::run::run(a),
        Command::Grid(a) => cmd::grid::run(a),
        Command::Evolve(a) => cmd::evolve::run(a),
        Command::Td(a) => cmd::td::run(a),
        Command::Plot(a) => cmd::plot::run(a),
        Command::Average(a) => cmd::average::run(a),
        Command::Music(a) => cmd::music::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Gtp(a) => cmd::gtp::run(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let code = e.downcast_ref::<ExitError>().map_or(1, |x| x.code);
            // One line: the chain of causes joined, never a backtrace.
            let msg = e
                .chain()
                .map(|c| c.to_string())
                .collect::<Vec<_>>()
                .join(": ");
            eprintln!("error: {msg}");
            ExitCode::from(code)
        }
    }
}
