//! `wopr bench`: random playouts per second per game, on one thread; or,
//! with `--generation CONFIG`, the time of one generation of an evolution;
//! with `--td`, TD learning speed (with `--batch`, in rounds on threads
//! and ranks: `bench_rounds.rs`); with `--mcts`, MCTS simulations per
//! second from the start position (`mcts:sims=1` and `sims=10000`, the
//! defaults and plain UCT); with `--engine NET`, the Reversi engine's
//! search and net reading (the library's `games/reversi/engine/bench.rs`);
//! with `--solve FILE`, the Reversi endgame solver (`bench_solve.rs`).
//!
//! The loop is the library's `random_playout`, statically dispatched: no
//! allocation, no hashing and no trait objects inside a playout. The time
//! includes copying the start position and drawing random numbers. Each move
//! is the game's `State::random_action`: uniform over the legal moves and
//! the same move, from the same draws, as picking from the legal list, so
//! the games played are the same whether a game lists its moves or (as
//! Dots-and-Boxes and Virus do) picks from a bitboard.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::cpu_time::cpu_seconds;
use wopr::experiment::{start, Evolution, EvolveConfig, GenerationRow};
use wopr::game::driver::{random_playout, random_playout_listed};
use wopr::game::encode::Encodable;
use wopr::game::rng::{stream, WoprRng};
use wopr::players::PlayerSpec;
use wopr::{with_board_game, with_game, ActionList, Game, Roster, Searchable, State};

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
    /// Instead: time the first generation of this evolution config (its
    /// fitness games and selection, as the `seconds` column of
    /// `generations.csv` counts them; no yardsticks, nothing written but a
    /// temporary run folder), on the rayon threads (`RAYON_NUM_THREADS`).
    #[arg(long, value_name = "CONFIG")]
    generation: Option<PathBuf>,
    /// Instead: time TD self-play learning with this encoding on each
    /// `--game` (TD(0.5), α = 0.001, ε = 0.1, tanh output, as
    /// `configs/connect4-6x6-td-walk8.toml`): games, plies and positions
    /// updated per second on one thread (TD learns game after game from
    /// the weights the last one left, so it runs on one thread, and a
    /// seed gives one result whatever the thread count).
    #[arg(long, value_name = "ENCODING", conflicts_with = "generation")]
    td: Option<String>,
    /// With --td: the eligibility trace's horizon cut (GBG uses 0.01 on
    /// Connect-4).
    #[arg(long, default_value_t = wopr::train::td::TRACE_FLOOR, requires = "td")]
    trace_cut: f32,
    /// With --td: learn with TCL at this β (α raised to 0.01, as the
    /// Connect-4 ablation's TCL runs; `docs/results/connect4-td.md`).
    #[arg(long, value_name = "BETA", requires = "td")]
    tcl_beta: Option<f32>,
    /// With --td: compare the one-thread learner with learning in rounds
    /// of this many games (`wopr td --batch`) on 1 and 2 threads and on 2
    /// ranks of one thread, over the same games (as many as the one-thread
    /// learner does in --seconds, rounded up to whole rounds): wall and CPU
    /// seconds of each, and a check that every way of playing the rounds
    /// learned the same weights.
    #[arg(long, value_name = "B", requires = "td")]
    batch: Option<u64>,
    /// Instead: MCTS simulations per second on each `--game` (default
    /// connect4:7x6) from the start position, on one thread: a new game
    /// and one move of `mcts:sims=1` (what a move costs beyond its
    /// iterations), of `mcts:sims=10000` (the defaults: solver, kept tree,
    /// the game's `c`) and of `mcts:sims=10000,solve=off,reuse=off` (plain
    /// UCT), repeated for `--seconds` each.
    #[arg(long, conflicts_with_all = ["generation", "td"])]
    mcts: bool,
    /// Instead: the Reversi engine (`engine:net=NET`) on 20 positions of
    /// 20 random plies from the start of each `--game` (default
    /// reversi:8x8): its search to each depth up to --depth (positions
    /// visited and CPU seconds), the depths --ms reaches, and the pattern
    /// net read incrementally against afresh.
    #[arg(long, value_name = "NET", conflicts_with_all = ["generation", "td", "mcts"])]
    engine: Option<String>,
    /// With --engine: the deepest search timed.
    #[arg(long, default_value_t = 8, requires = "engine")]
    depth: u32,
    /// With --engine: the time budget whose depth is reported.
    #[arg(long, default_value_t = 1000, requires = "engine")]
    ms: u64,
    /// Instead: the Reversi endgame solver on each position of this file
    /// (FFO `.obf` lines: board, colour, `; MOVE:SCORE;`), on one thread:
    /// margin (checked against the file's first score), positions visited,
    /// seconds and positions a second (`--game`, default reversi:8x8).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["generation", "td", "mcts", "engine"])]
    solve: Option<PathBuf>,
    /// Instead: AlphaZero's self-play on each `--game` (default
    /// connect4:7x6, OpenSpiel's `connect_four`) with a fresh
    /// policy-value net, on one thread: positions a CPU-second with one
    /// game at a time and with `--lockstep` games sharing each forward
    /// pass (`docs/results/learning-paradigms.md` sets it beside
    /// OpenSpiel's Python AlphaZero).
    #[arg(long, conflicts_with_all = ["generation", "td", "mcts", "engine", "solve"])]
    alphazero: bool,
    /// With --alphazero: simulations a move.
    #[arg(long, default_value_t = 100, requires = "alphazero")]
    sims: u32,
    /// With --alphazero: the hidden layers' widths.
    #[arg(long, value_delimiter = ',', default_values_t = [128, 128], requires = "alphazero")]
    hidden: Vec<usize>,
    /// With --alphazero: games in lockstep.
    #[arg(long, default_value_t = 32, requires = "alphazero")]
    lockstep: usize,
    /// With --alphazero: the net's input encoding.
    #[arg(long, default_value = "planes", requires = "alphazero")]
    encoding: String,
    /// With --generation: how many times to run it (the median is
    /// reported).
    #[arg(long, default_value_t = 3, requires = "generation")]
    repeat: usize,
}

/// The specs timed when none are named: each registered game's own list
/// (`GameInfo::bench`).
fn default_games() -> Vec<String> {
    wopr::registry::games()
        .iter()
        .flat_map(|g| g.bench.iter().map(|s| s.to_string()))
        .collect()
}

/// Runs the benchmark and prints a table.
pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    if let Some(config) = &args.generation {
        return generation(config, args.repeat);
    }
    if !(args.seconds > 0.0 && args.seconds <= 600.0) {
        anyhow::bail!("--seconds must be in (0, 600]");
    }
    if let Some(encoding) = &args.td {
        return td(args, encoding);
    }
    if args.mcts {
        return mcts(args);
    }
    if args.alphazero {
        return super::bench_alphazero::run(&super::bench_alphazero::Settings {
            games: &args.games,
            seconds: args.seconds,
            sims: args.sims,
            hidden: &args.hidden,
            lockstep: args.lockstep,
            encoding: &args.encoding,
            json: args.json,
        });
    }
    if let Some(file) = &args.solve {
        let game = args.games.first().map_or("reversi:8x8", |g| g.as_str());
        return super::bench_solve::run(game, file, args.json);
    }
    if let Some(net) = &args.engine {
        if !(1..=20).contains(&args.depth) {
            anyhow::bail!("--depth must be in 1..=20");
        }
        let games = if args.games.is_empty() {
            vec!["reversi:8x8".to_string()]
        } else {
            args.games.clone()
        };
        for g in games {
            for line in wopr::registry::engine_bench(&g, net, args.depth, args.ms, cpu_seconds)? {
                println!("{line}");
            }
        }
        return Ok(());
    }
    let specs: Vec<String> = if args.games.is_empty() {
        default_games()
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

/// `--generation CONFIG`: runs generation 0 of the config `repeat` times
/// and prints its wall and CPU seconds each time, then the medians. Under
/// `mpirun` (feature `mpi`) the ranks share the generation's games; rank
/// 0 prints, its CPU seconds its own.
fn generation(path: &Path, repeat: usize) -> anyhow::Result<()> {
    if !(1..=100).contains(&repeat) {
        anyhow::bail!("--repeat must be in 1..=100");
    }
    let mut config = match super::run::read_config(path, &[], None)? {
        wopr::experiment::RunConfig::Evolve(c) => c,
        other => anyhow::bail!(
            "bad config {}: --generation times an evolution's generation, not a {} run",
            path.display(),
            other.kind()
        ),
    };
    config.yardsticks = None;
    config.stop.generations = 1;
    let game = super::parse_game(&config.game)?;
    let say = |text: String| {
        if wopr::dist::is_leader() {
            println!("{text}");
        }
    };
    say(format!(
        "{}: one generation ({} rank(s) × {} threads)",
        config.name.as_deref().unwrap_or(&config.game),
        wopr::dist::size(),
        rayon::current_num_threads()
    ));
    say(format!(
        "{:>4} {:>8} {:>8} {:>8}",
        "run", "wall s", "cpu s", "games"
    ));
    let mut times = Vec::new();
    let mut last = None;
    for k in 1..=repeat {
        let timed = with_board_game!(&game, g => time_one(g, &config),
            anyhow::bail!("{} cannot be evolved: nets play the board games only", config.game));
        let (row, cpu) = timed?;
        say(format!(
            "{k:>4} {:>8.3} {cpu:>8.3} {:>8}",
            row.seconds, row.games
        ));
        times.push((row.seconds, cpu));
        last = Some(row);
    }
    let median = |f: fn(&(f64, f64)) -> f64| {
        let mut v: Vec<f64> = times.iter().map(f).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let row = last.expect("at least one run");
    say(format!(
        "median: wall {:.3} s, cpu {:.3} s; fitness best {}, mean {}, min {}",
        median(|t| t.0),
        median(|t| t.1),
        row.best,
        row.mean,
        row.min
    ));
    Ok(())
}

/// One generation 0 of `config`: its row and CPU seconds.
fn time_one<G>(game: &G, config: &EvolveConfig) -> anyhow::Result<(GenerationRow, f64)>
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    let mut evolution = Evolution::new(game, start(game, config.clone())?)?;
    let before = cpu_seconds();
    let row = evolution.generation()?;
    Ok((row, cpu_seconds() - before))
}

/// `wopr bench --td ENCODING`: TD learning speed on each `--game`.
fn td(args: &BenchArgs, encoding: &str) -> anyhow::Result<()> {
    let specs = if args.games.is_empty() {
        vec!["connect4:7x6".to_string()]
    } else {
        args.games.clone()
    };
    let budget = Duration::from_secs_f64(args.seconds);
    if let Some(batch) = args.batch {
        anyhow::ensure!(batch >= 1, "--batch must be at least 1 (games a round)");
        for spec in &specs {
            let game = super::parse_game(spec)?;
            with_board_game!(&game, g => {
                let (games, ..) = measure_td(g, encoding, args.trace_cut, args.tcl_beta, budget)?;
                let games = games.div_ceil(batch).max(1) * batch;
                let make = || super::bench_rounds::learner(g, encoding, args.trace_cut, args.tcl_beta);
                super::bench_rounds::compare(g, &make, games, batch, args.json)?
            }, anyhow::bail!("TD learns board games; {spec} is not one"));
        }
        return Ok(());
    }
    if !args.json {
        println!(
            "{:<16} {:<10} {:>10} {:>12} {:>14}",
            "game", "encoding", "games/s", "plies/s", "updates/s"
        );
    }
    for spec in specs {
        let game = super::parse_game(&spec)?;
        let (games, plies, updates, secs) = with_board_game!(&game, g => measure_td(g, encoding, args.trace_cut, args.tcl_beta, budget)?,
            anyhow::bail!("TD learns board games; {spec} is not one"));
        let rate = |n: u64| n as f64 / secs;
        if args.json {
            println!(
                "{}",
                serde_json::json!({"game": game.spec(), "encoding": encoding, "games_per_s": rate(games), "plies_per_s": rate(plies), "updates_per_s": rate(updates), "seconds": secs})
            );
        } else {
            println!(
                "{:<16} {:<10} {:>10.0} {:>12.0} {:>14.0}",
                game.spec(),
                encoding,
                rate(games),
                rate(plies),
                rate(updates)
            );
        }
    }
    Ok(())
}

/// Learns games until `budget` has passed: (games, plies, positions
/// updated, seconds). The net is built before the clock starts.
fn measure_td<G: Encodable>(
    game: &G,
    encoding: &str,
    trace_cut: f32,
    tcl: Option<f32>,
    budget: Duration,
) -> anyhow::Result<(u64, u64, u64, f64)> {
    let mut learner = super::bench_rounds::learner(game, encoding, trace_cut, tcl)?;
    let t = Instant::now();
    let (mut games, mut plies, mut updates) = (0u64, 0u64, 0u64);
    while t.elapsed() < budget {
        let g = learner.learn_game(games);
        games += 1;
        plies += g.plies as u64;
        updates += g.updates as u64;
    }
    Ok((games, plies, updates, t.elapsed().as_secs_f64()))
}

/// The specs `wopr bench --mcts` times, with their iterations per move.
const MCTS_SPECS: &[(&str, u64)] = &[
    ("mcts:sims=1", 1),
    ("mcts:sims=10000", 10_000),
    ("mcts:sims=10000,solve=off,reuse=off", 10_000),
];

/// `wopr bench --mcts`: MCTS simulations per second on each `--game`.
fn mcts(args: &BenchArgs) -> anyhow::Result<()> {
    let specs = if args.games.is_empty() {
        vec!["connect4:7x6".to_string()]
    } else {
        args.games.clone()
    };
    if !args.json {
        println!(
            "{:<16} {:<40} {:>10} {:>14}",
            "game", "player", "moves/s", "simulations/s"
        );
    }
    let budget = Duration::from_secs_f64(args.seconds);
    for spec in specs {
        let game = super::parse_game(&spec)?;
        for &(player, sims) in MCTS_SPECS {
            let (moves, secs, shown) = with_board_game!(&game, g => measure_mcts(g, player, budget)?,
                anyhow::bail!("mcts benches board games; {spec} is not one"));
            let rate = moves as f64 / secs;
            if args.json {
                println!(
                    "{}",
                    serde_json::json!({"game": game.spec(), "player": shown, "moves_per_s": rate, "simulations_per_s": rate * sims as f64, "seconds": secs})
                );
            } else {
                println!(
                    "{:<16} {:<40} {:>10.1} {:>14.0}",
                    game.spec(),
                    shown,
                    rate,
                    rate * sims as f64
                );
            }
        }
    }
    Ok(())
}

/// Plays the first move of a new game with `spec` until `budget` has
/// passed: (moves, seconds, the player's spec as it prints itself). Every
/// move starts from a cleared tree, so none reuses another's iterations.
fn measure_mcts<G: Roster>(
    game: &G,
    spec: &str,
    budget: Duration,
) -> anyhow::Result<(u64, f64, String)>
where
    G::State: Searchable,
{
    let mut player = PlayerSpec::parse(game, spec)?.build(game)?;
    let start = game.initial_state();
    let mut legal = ActionList::new();
    start.legal_actions(&mut legal);
    let t = Instant::now();
    let mut moves = 0u64;
    while moves == 0 || t.elapsed() < budget {
        player.new_game();
        black_box(player.choose(&start, &legal, &mut stream(moves, &[1])));
        moves += 1;
    }
    Ok((moves, t.elapsed().as_secs_f64(), player.spec()))
}
