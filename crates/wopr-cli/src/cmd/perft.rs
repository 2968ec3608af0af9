//! `wopr perft GAME DEPTH`: action-sequence counts, one line per depth.

use std::time::Instant;

use wopr::{with_game, Game, Roster};

/// Arguments of `wopr perft`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Game spec, e.g. `connect4:6x6`.
    game: String,
    /// Deepest depth to count (1..=20).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
    depth: u32,
    /// Also print the time per depth on standard error.
    #[arg(long)]
    time: bool,
}

/// Prints `d count` for d = 1..=DEPTH.
pub fn run(args: &PerftArgs) -> anyhow::Result<()> {
    let game = super::parse_game(&args.game)?;
    with_game!(&game, g => {
        let start = g.initial_state();
        for d in 1..=args.depth {
            let t = Instant::now();
            let n = g.perft(&start, d);
            println!("{d} {n}");
            if args.time {
                eprintln!("depth {d}: {:.3} s", t.elapsed().as_secs_f64());
            }
        }
    });
    Ok(())
}
