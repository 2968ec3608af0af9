//! The engine's speed on fixed positions (`wopr bench --engine NET`): its
//! midgame search to each depth (positions visited, CPU seconds,
//! positions a second), the depth a move's time budget reaches, and the
//! pattern net read incrementally against read afresh.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::super::{Reversi, ReversiState};
use super::eval::PatternEval;
use super::search::Search;
use crate::game::rng::stream;
use crate::game::{ActionList, Game, SpecError, State};

/// The positions: `count` games of `plies` random moves from the start
/// (seeded; games that end sooner are skipped).
fn positions(game: &Reversi, count: usize, plies: usize) -> Vec<ReversiState> {
    let mut out = Vec::new();
    let mut rng = stream(20261128, &[]);
    let mut legal = ActionList::new();
    while out.len() < count {
        let mut s = game.initial_state();
        for _ in 0..plies {
            if s.is_terminal() {
                break;
            }
            legal.clear();
            s.legal_actions(&mut legal);
            s.apply(legal[rand::RngExt::random_range(&mut rng, 0..legal.len())]);
        }
        if !s.is_terminal() && s.placements() != 0 {
            out.push(s);
        }
    }
    out
}

/// Runs the benchmark for the net file `path` on `game`, searching to
/// `depth` and for `ms` a position; `cpu_seconds` reads the process's CPU
/// time. Returns the report's lines.
pub fn report(
    game: &Reversi,
    path: &str,
    depth: u32,
    ms: u64,
    cpu_seconds: fn() -> f64,
) -> Result<Vec<String>, SpecError> {
    let game = *game;
    let file = crate::players::net::load_checked(&game, path)?;
    let eval = Arc::new(PatternEval::new(&game, &file)?);
    let mut out = Vec::new();
    let list = positions(&game, 20, 20);
    out.push(format!(
        "{} positions after 20 random plies of {} (seed 20261128), net {path}",
        list.len(),
        game.spec()
    ));
    out.push(format!(
        "{:>6} {:>14} {:>10} {:>14}",
        "depth", "positions", "CPU s", "positions/s"
    ));
    let mut rng = stream(1, &[]);
    for d in 1..=depth {
        let mut search = Search::new(eval.clone());
        let (mut nodes, t0) = (0u64, cpu_seconds());
        for s in &list {
            search.clear();
            nodes += search.run(s, d, None, &mut rng).nodes;
        }
        let secs = cpu_seconds() - t0;
        out.push(format!(
            "{d:>6} {nodes:>14} {secs:>10.3} {:>14.0}",
            nodes as f64 / secs.max(1e-9)
        ));
    }
    let mut search = Search::new(eval.clone());
    let mut depths = Vec::new();
    for s in &list {
        search.clear();
        let deadline = Instant::now() + Duration::from_millis(ms);
        depths.push(search.run(s, 60, Some(deadline), &mut rng).depth);
    }
    depths.sort_unstable();
    out.push(format!(
        "ms={ms}: depths reached {}..{}, median {} (wall clock, so the load moves it)",
        depths[0],
        depths[depths.len() - 1],
        depths[depths.len() / 2]
    ));
    // Reading the net: each position's configurations read afresh, against
    // played in from its parent (one move's update), then the weights.
    let mut children = Vec::new();
    let mut legal = ActionList::new();
    for s in &list {
        legal.clear();
        s.legal_actions(&mut legal);
        for &a in &legal {
            let d = s.discs();
            let me = s.to_move();
            let flips = game.flips(d[me], d[1 - me], a as usize);
            let mut c = *s;
            c.apply(a);
            children.push((eval.indices(s), me, a as usize, flips, c));
        }
    }
    let same = children.iter().all(|(parent, me, sq, flips, c)| {
        let mut idx = *parent;
        eval.play(&mut idx, *me, *sq, *flips);
        idx == eval.indices(c)
    });
    if !same {
        return Err(SpecError(
            "the incremental configurations differ from a fresh reading".into(),
        ));
    }
    let reps = 2000;
    let t0 = cpu_seconds();
    let mut sum = 0.0f32;
    for _ in 0..reps {
        for (_, _, _, _, c) in &children {
            let idx = eval.indices(black_box(c));
            let d = c.discs();
            sum += eval.value(&idx, c.to_move(), (d[0] | d[1]).count_ones());
        }
    }
    let fresh = cpu_seconds() - t0;
    let t0 = cpu_seconds();
    for _ in 0..reps {
        for (parent, me, sq, flips, c) in &children {
            let mut idx = *black_box(parent);
            eval.play(&mut idx, *me, *sq, *flips);
            let d = c.discs();
            sum -= eval.value(&idx, c.to_move(), (d[0] | d[1]).count_ones());
        }
    }
    let incremental = cpu_seconds() - t0;
    let n = (reps * children.len()) as f64;
    out.push(format!(
        "net readings a CPU second over {} positions' children: afresh {:.0}, incremental {:.0}, ×{:.2} ({sum:.0})",
        list.len(),
        n / fresh,
        n / incremental,
        fresh / incremental,
    ));
    Ok(out)
}
