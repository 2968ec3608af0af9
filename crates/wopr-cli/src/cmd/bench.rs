//! `wopr bench`: random playouts per second per game, on one thread.
//!
//! The loop is the library's `random_playout`, statically dispatched: no
//! allocation, no hashing and no trait objects inside a playout. The time
//! includes copying the start position and drawing random numbers. Each move
//! is the game's `State::random_action`: uniform over the legal moves and
//! the same move, from the same draws, as picking from the legal list, so
//! the games played are the same whether a game lists its moves or (as
//! Dots-and-Boxes and Virus do) picks from a bitboard.

use std::hint::black_box;
use std::time::{Duration, Instant};

use wopr::game::driver::{random_playout, random_playout_listed};
use wopr::game::rng::{stream, WoprRng};
use wopr::{with_game, Game};

/// Arguments of `wopr bench`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Games to measure (default: every game at its default size, plus
    /// connect4:6x6 and reversi:6x6).
    #[arg(long = "game")]
    games: Vec<String>,
    /// Seconds to measure each game.
    #[arg(long, default_value_t = 2.0)]
    seconds: f64,
    /// Print one JSON object per game.
    #[arg(long)]
    json: bool,
    /// Pick every move from the full legal list, as a framework that lists
    /// moves does, instead of the game's own random pick (the same games;
    /// shows what a game's bitboard pick saves).
    #[arg(long)]
    listed: bool,
}

const DEFAULT_GAMES: &[&str] = &[
    "tictactoe",
    "connect4",
    "connect4:6x6",
    "dots-and-boxes",
    "reversi",
    "reversi:6x6",
    "virus",
    "pig",
    "kuhn",
    "goofspiel",
];

/// Runs the benchmark and prints a table.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    if !(args.seconds > 0.0 && args.seconds <= 600.0) {
        anyhow::bail!("--seconds must be in (0, 600]");
    }
    let specs: Vec<String> = if args.games.is_empty() {
        DEFAULT_GAMES.iter().map(|s| s.to_string()).collect()
    } else {
        args.games.clone()
    };
    if !args.json {
        if args.listed {
            println!("(--listed: every move picked from the full legal list)");
        }
        println!(
            "{:<22} {:>14} {:>16} {:>10}",
            "game", "playouts/s", "actions/s", "plies/game"
        );
    }
    for spec in specs {
        let game = super::parse_game(&spec)?;
        let budget = Duration::from_secs_f64(args.seconds);
        let (playouts, actions, secs) = with_game!(&game, g => measure(g, budget, args.listed));
        let rate = playouts as f64 / secs;
        let arate = actions as f64 / secs;
        let plies = actions as f64 / playouts as f64;
        if args.json {
            println!(
                "{}",
                serde_json::json!({"game": game.spec(), "playouts_per_s": rate, "actions_per_s": arate, "plies_per_game": plies, "seconds": secs, "listed": args.listed})
            );
        } else {
            println!(
                "{:<22} {:>14.0} {:>16.0} {:>10.1}",
                game.spec(),
                rate,
                arate,
                plies
            );
        }
    }
    Ok(())
}

fn measure<G: Game>(game: &G, budget: Duration, listed: bool) -> (u64, u64, f64) {
    if listed {
        measure_with(game, budget, random_playout_listed)
    } else {
        measure_with(game, budget, random_playout)
    }
}

/// Times `playout`; generic over it, so that each loop is compiled with its
/// own playout called directly, not through a pointer.
fn measure_with<G: Game>(
    game: &G,
    budget: Duration,
    playout: impl Fn(&mut G::State, usize, &mut WoprRng) -> usize,
) -> (u64, u64, f64) {
    let start = game.initial_state();
    let players = game.num_players();
    let mut rng = stream(0, &[0]);
    let t = Instant::now();
    let (mut playouts, mut actions) = (0u64, 0u64);
    // Check the clock every batch so that reading it costs nothing measurable.
    while t.elapsed() < budget {
        for _ in 0..256 {
            let mut s = black_box(start.clone());
            actions += playout(&mut s, players, &mut rng) as u64;
            black_box(&s);
            playouts += 1;
        }
    }
    (playouts, actions, t.elapsed().as_secs_f64())
}
