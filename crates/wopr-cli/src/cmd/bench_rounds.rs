//! `wopr bench --td ENCODING --batch B`: TD learning in rounds of `B`
//! games ([`wopr::train::td::TdRounds`]) against the one-thread learner,
//! on equal work: the same games, `0..N`, learned by
//! - the one-thread learner (game after game),
//! - rounds on 1 thread, on 2 threads, and on 2 ranks of 1 thread each
//!   (threads of this process standing in for MPI ranks, exchanging every
//!   round's changes as ranks do).
//!
//! For each: wall seconds, CPU seconds of the whole process, games per
//! wall second and per CPU second. On a machine shared with other work
//! the wall figures move with the load; the CPU figures do not, and the
//! speed-up two idle cores would give is about 2 × (games per CPU second
//! at 2 threads) / (games per CPU second at 1 thread), less what uneven
//! shares of a round cost (which only the wall time shows).

use std::rc::Rc;
use std::time::Instant;

use wopr::dist::{install, InProcess};
use wopr::game::encode::Encodable;
use wopr::nn::Activation;
use wopr::train::td::{TdLearner, TdOptions, TdRounds};

use super::cpu_time::cpu_seconds;

/// One row: what learned, its threads, wall and CPU seconds.
struct Timed {
    what: &'static str,
    threads: usize,
    wall: f64,
    cpu: f64,
}

/// The learner the TD bench times (its settings: TD(0.5), ε = 0.1, tanh,
/// α = 0.001, or 0.01 with TCL).
pub fn learner<G: Encodable>(
    game: &G,
    encoding: &str,
    trace_cut: f32,
    tcl: Option<f32>,
) -> anyhow::Result<TdLearner<G>> {
    let options = TdOptions {
        alpha: if tcl.is_some() { 0.01 } else { 0.001 },
        lambda: 0.5,
        epsilon: 0.1,
        trace_cut,
        tcl,
        ..TdOptions::default()
    };
    TdLearner::new(game.clone(), encoding, Activation::Tanh, options)
        .map_err(|e| anyhow::anyhow!("{e}"))
}

/// Times `games` games (a multiple of `batch`) each way and prints the
/// table (or JSON lines).
pub fn compare<G: Encodable>(
    game: &G,
    make: &(dyn Fn() -> anyhow::Result<TdLearner<G>> + Sync),
    games: u64,
    batch: u64,
    json: bool,
) -> anyhow::Result<()> {
    let mut rows = Vec::new();
    let mut main = make()?;
    rows.push(time("one game at a time", 1, || {
        for i in 0..games {
            main.learn_game(i);
        }
    }));
    let sequential = main.weights().to_vec();
    let mut results = Vec::new();
    for threads in [1, 2] {
        let mut main = make()?;
        let actors = (0..threads)
            .map(|_| make())
            .collect::<anyhow::Result<Vec<_>>>()?;
        let mut rounds = TdRounds::new(actors, batch);
        rows.push(time("rounds", threads, || {
            rounds.learn(&mut main, 0, games);
        }));
        results.push(main.weights().to_vec());
    }
    // Two ranks, one thread each: every rank learns every round's merge.
    let clock = (Instant::now(), cpu_seconds());
    let ranked: Vec<anyhow::Result<Vec<f32>>> = std::thread::scope(|scope| {
        let handles: Vec<_> = InProcess::ranks(2)
            .into_iter()
            .map(|comm| {
                scope.spawn(move || -> anyhow::Result<Vec<f32>> {
                    install(Some(Rc::new(comm)));
                    let mut main = make()?;
                    let mut rounds = TdRounds::new(vec![make()?], batch);
                    rounds.learn(&mut main, 0, games);
                    Ok(main.weights().to_vec())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a rank's thread"))
            .collect()
    });
    rows.push(Timed {
        what: "rounds, 2 ranks",
        threads: 2,
        wall: clock.0.elapsed().as_secs_f64(),
        cpu: cpu_seconds() - clock.1,
    });
    for r in ranked {
        results.push(r?);
    }
    // The bench's own check: every way of playing the rounds learned the
    // same weights.
    let same = results.windows(2).all(|w| w[0] == w[1]);
    anyhow::ensure!(
        same,
        "rounds learned other weights on other threads or ranks"
    );
    let base = &rows[0];
    let (base_wall, base_cpu) = (games as f64 / base.wall, games as f64 / base.cpu);
    let rounds_cpu = games as f64 / rows[1].cpu;
    if !json {
        println!(
            "{} {games} games, rounds of {batch} (same weights on every row of rounds: {same}; the one-game learner's weights {}):",
            game.spec(),
            if sequential == results[0] { "equal" } else { "differ" }
        );
        println!(
            "{:<20} {:>7} {:>9} {:>9} {:>10} {:>11} {:>9} {:>12}",
            "learner",
            "threads",
            "wall s",
            "cpu s",
            "games/s",
            "games/cpu s",
            "×wall",
            "×cpu-ideal"
        );
    }
    for r in &rows {
        let (wall_rate, cpu_rate) = (games as f64 / r.wall, games as f64 / r.cpu);
        // What `threads` idle cores would give over one thread of rounds,
        // by CPU time.
        let ideal = r.threads as f64 * cpu_rate / rounds_cpu;
        if json {
            println!(
                "{}",
                serde_json::json!({"game": game.spec(), "learner": r.what, "threads": r.threads, "batch": batch, "games": games, "wall_s": r.wall, "cpu_s": r.cpu, "games_per_s": wall_rate, "games_per_cpu_s": cpu_rate, "wall_ratio": wall_rate / base_wall, "cpu_ideal_ratio": ideal})
            );
        } else {
            println!(
                "{:<20} {:>7} {:>9.2} {:>9.2} {:>10.0} {:>11.0} {:>9.2} {:>12.2}",
                r.what,
                r.threads,
                r.wall,
                r.cpu,
                wall_rate,
                cpu_rate,
                wall_rate / base_wall,
                ideal
            );
        }
    }
    if !json {
        println!(
            "(×wall: games a wall second over the one-game learner's; ×cpu-ideal: threads × games a CPU second over one thread of rounds' {:.0}; the one-game learner: {:.0} a CPU second)",
            rounds_cpu, base_cpu
        );
    }
    Ok(())
}

/// Times `f` on the wall and in the process's CPU seconds.
fn time(what: &'static str, threads: usize, f: impl FnOnce()) -> Timed {
    let (t, c) = (Instant::now(), cpu_seconds());
    f();
    Timed {
        what,
        threads,
        wall: t.elapsed().as_secs_f64(),
        cpu: cpu_seconds() - c,
    }
}
