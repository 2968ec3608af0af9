//! `wopr eval --optimal-moves N`: how often a player's move keeps the exact
//! value of the position, on positions from random play, measured by
//! [`wopr::eval::optimal`]; this module shows it. Two readings: **exact**
//! (the move among the solver's best; printed first, and the JSON's
//! `rate`) and **value** (the move keeps the win, draw or loss), each with
//! a random legal move's rate beside it.

use indicatif::{ProgressBar, ProgressStyle};
use wopr::eval::optimal::{optimal_moves, Reading};
use wopr::Roster;

/// Measures `player`'s optimal-move rate on `n` positions and prints it.
pub fn run<G: Roster>(
    game: &G,
    player: &str,
    n: usize,
    seed: u64,
    json: bool,
) -> anyhow::Result<()> {
    if n == 0 {
        anyhow::bail!("--optimal-moves must be at least 1");
    }
    if game.solver().is_none() {
        anyhow::bail!(
            "{} has no exact solver (solvers: tictactoe, connect4, dots-and-boxes, reversi endgames)",
            game.spec()
        );
    }
    let played = super::resolve(game, player, &format!("--player '{player}'"))?;
    let bar = if json {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(n as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("solving {pos}/{len} {bar:30} {elapsed}")
            .expect("a valid template"),
    );
    let measured = optimal_moves(game, player, n, seed, &|done, total| {
        bar.set_length(total);
        bar.set_position(done);
    })
    .map_err(anyhow::Error::msg);
    bar.finish_and_clear();
    let m = measured?;
    let total = m.positions;
    let (exact, value, gaps) = (&m.exact, &m.value, m.gaps);
    if json {
        println!("{}", m.json(player, &played, seed));
    } else {
        super::print_resolved("player", player, &played);
        println!(
            "{player}: optimal move on {} of {total} positions from random play \
             ({}); a random legal move: {:.1}% (seed {seed})",
            exact.hits,
            describe(exact, total),
            100.0 * exact.random(total)
        );
        println!(
            "  keeps the win/draw/loss value (any win, however slow or narrow) on {} of {total} \
             ({}); a random legal move: {:.1}%",
            value.hits,
            describe(value, total),
            100.0 * value.random(total)
        );
        for (name, c) in ["won", "drawn", "lost"].iter().zip(&m.classes) {
            if c.positions > 0 {
                println!(
                    "  {name} positions: {} ({} optimal, {} keep the value)",
                    c.positions, c.exact, c.value
                );
            }
        }
        if let Some([one, two, more]) = gaps {
            println!(
                "  the misses that keep the value fall short of the best exact score by 1: {one}, \
                 2: {two}, 3 or more: {more} (Connect-4: a unit is one of the winner's discs, \
                 two plies)"
            );
        }
    }
    Ok(())
}

/// "r% [lo, hi]".
fn describe(r: &Reading, total: u64) -> String {
    let (lo, hi) = r.interval(total);
    format!(
        "{:.1}% [{:.1}, {:.1}]",
        100.0 * r.rate(total),
        100.0 * lo,
        100.0 * hi
    )
}
