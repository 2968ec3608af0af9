//! `wopr bench --alphazero`: AlphaZero's self-play speed on one thread,
//! positions (moves played) a CPU-second, one game at a time and with
//! `--lockstep` games sharing each forward pass
//! (`wopr::train::alphazero::bench`).

use std::time::Instant;

use super::cpu_time::cpu_seconds;

/// What `wopr bench --alphazero` was asked for.
pub struct Settings<'a> {
    /// The `--game` specs (none: connect4:7x6).
    pub games: &'a [String],
    /// Seconds a measurement.
    pub seconds: f64,
    /// Simulations a move.
    pub sims: u32,
    /// Hidden layers' widths.
    pub hidden: &'a [usize],
    /// Games in lockstep.
    pub lockstep: usize,
    /// The net's input encoding.
    pub encoding: &'a str,
    /// One JSON object a line.
    pub json: bool,
}

/// Runs the benchmark on each `--game` and prints a line (or a JSON
/// object) for each lockstep width.
pub fn run(args: &Settings) -> anyhow::Result<()> {
    anyhow::ensure!(
        (1..=100_000).contains(&args.sims),
        "--sims must be in 1..=100000"
    );
    anyhow::ensure!(
        (1..=4096).contains(&args.lockstep),
        "--lockstep must be in 1..=4096"
    );
    anyhow::ensure!(
        !args.hidden.is_empty() && args.hidden.iter().all(|&h| (1..=4096).contains(&h)),
        "--hidden takes widths in 1..=4096, e.g. 128,128"
    );
    let games = if args.games.is_empty() {
        vec!["connect4:7x6".to_string()]
    } else {
        args.games.to_vec()
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    for spec in games {
        let widths = if args.lockstep == 1 {
            vec![1]
        } else {
            vec![1, args.lockstep]
        };
        for lockstep in widths {
            let (start, cpu) = (Instant::now(), cpu_seconds());
            let seconds = args.seconds;
            let played = pool.install(|| {
                wopr::train::alphazero::bench::selfplay_speed(
                    &spec,
                    args.encoding,
                    args.hidden,
                    args.sims,
                    lockstep,
                    &mut |_| start.elapsed().as_secs_f64() < seconds,
                )
            });
            let played = played.map_err(|e| anyhow::anyhow!("--alphazero: {e}"))?;
            let (wall, cpu) = (start.elapsed().as_secs_f64(), cpu_seconds() - cpu);
            let rate = played.positions as f64 / cpu;
            let shape: Vec<String> = std::iter::once(played.inputs)
                .chain(args.hidden.iter().copied())
                .map(|n| n.to_string())
                .collect();
            if args.json {
                println!(
                    "{}",
                    serde_json::json!({"game": spec, "encoding": args.encoding, "net": shape.join("-"), "sims": args.sims, "lockstep": lockstep, "games": played.games, "positions": played.positions, "wall_s": wall, "cpu_s": cpu, "positions_per_cpu_s": rate})
                );
            } else {
                println!(
                    "{spec}  net {}-A+1 ({})  sims {}  lockstep {lockstep:>4}: {} games, {} positions in {wall:.1} s ({cpu:.1} CPU-s): {rate:.0} positions a CPU-second",
                    shape.join("-"),
                    args.encoding,
                    args.sims,
                    played.games,
                    played.positions
                );
            }
        }
    }
    Ok(())
}
