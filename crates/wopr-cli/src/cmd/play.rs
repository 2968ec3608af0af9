//! `wopr play GAME --first SPEC --second SPEC`: games between two players.
//!
//! Seats are swapped every other game (game 1: first in seat 0, game 2: second
//! in seat 0, …). Without a human, games run in parallel; game `i` draws its
//! randomness from the stream (seed, i), so the results do not depend on the
//! thread count.

use std::fs::OpenOptions;
use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use wopr::eval::matches::{play_match_seated, OnForfeit, Seating};
use wopr::eval::openings::Openings;
use wopr::game::driver::{play_game_from, seats_swapped};
use wopr::game::rng::stream;
use wopr::game::GameRecord;
use wopr::players::{Player, PlayerSpec};
use wopr::{with_game, Game, Roster, State, Turn};

use super::music::LiveComposer;
use crate::human::HumanPlayer;

/// Arguments of `wopr play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    /// Game spec, e.g. `connect4:6x6`.
    game: String,
    /// The first player's spec (seat 0 in odd-numbered games): `random`,
    /// `first`, `human`, `alphabeta:depth=4`, …
    #[arg(long)]
    first: String,
    /// The second player's spec.
    #[arg(long)]
    second: String,
    /// Number of games (seats swapped every other game).
    #[arg(long, default_value_t = 1)]
    games: usize,
    /// Seed of the run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Append one JSON object per game to this file.
    #[arg(long)]
    record: Option<PathBuf>,
    /// Compose music from the (first) game as it is played, into this MIDI file.
    #[arg(long)]
    music: Option<PathBuf>,
    /// Print only the summary.
    #[arg(long, short)]
    quiet: bool,
    /// Openings.
    #[command(flatten)]
    openings: super::OpeningArgs,
}

/// Tallies of one player over a match.
#[derive(Default, Clone, Copy)]
struct Tally {
    wins: [u32; 2],
    draws: [u32; 2],
    losses: [u32; 2],
}

/// Plays the games and prints results.
pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    if args.games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    let game = super::parse_match_game(&args.game)?;
    with_game!(&game, g => play(g, args))
}

fn is_human(spec: &str) -> bool {
    spec.trim().eq_ignore_ascii_case("human")
}

/// A seat's player as read from its spec: `human`, or a typed spec, read
/// once and built where the games are played.
enum Seat {
    Human,
    Spec(PlayerSpec),
}

fn read<G: Roster>(game: &G, spec: &str) -> anyhow::Result<Seat> {
    if is_human(spec) {
        return Ok(Seat::Human);
    }
    PlayerSpec::parse(game, spec)
        .map(Seat::Spec)
        .map_err(|e| anyhow::anyhow!("bad player spec '{spec}': {e} (or human)"))
}

fn build<G: Roster>(
    game: &G,
    seat: &Seat,
    quit: &Arc<AtomicBool>,
) -> anyhow::Result<Box<dyn Player<G>>> {
    match seat {
        Seat::Human => Ok(Box::new(HumanPlayer::new(game, quit.clone()))),
        Seat::Spec(spec) => spec
            .build(game)
            .map_err(|e| anyhow::anyhow!("bad player spec '{spec}': {e}")),
    }
}

fn play<G: Roster>(game: &G, args: &PlayArgs) -> anyhow::Result<()> {
    let quit = Arc::new(AtomicBool::new(false));
    // Both specs are read once, before anything is played; the players
    // are built from the typed specs, once a worker (or once for games
    // played one by one).
    let seats = [read(game, &args.first)?, read(game, &args.second)?];
    let openings = args.openings.resolve(game)?;
    let records = if let (None, [Seat::Spec(first), Seat::Spec(second)]) = (&args.music, &seats) {
        let bar = progress(args.games);
        let done = || bar.inc(1);
        let records = play_match_seated(
            game,
            first,
            second,
            args.games,
            args.seed,
            &openings,
            Seating::Alternate,
            OnForfeit::Count,
            &done,
        )
        .map_err(|e| anyhow::anyhow!(e))?;
        bar.finish_and_clear();
        records
    } else {
        play_sequential(game, args, &seats, &openings, &quit)?
    };
    super::report_forfeits(&records);
    report(game, args, &records)?;
    Ok(())
}

fn progress(n: usize) -> ProgressBar {
    if n < 20 {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(n as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} elapsed, ETA {eta}")
            .expect("a valid template"),
    );
    bar
}

fn play_sequential<G: Roster>(
    game: &G,
    args: &PlayArgs,
    seats: &[Seat; 2],
    openings: &Openings,
    quit: &Arc<AtomicBool>,
) -> anyhow::Result<Vec<GameRecord>> {
    let mut records = Vec::new();
    let names = game.seat_names();
    let mut composer = match &args.music {
        Some(path) => Some(LiveComposer::new(path.clone(), args.seed)?.with_game(game)),
        None => None,
    };
    let watching = seats.iter().any(|s| matches!(s, Seat::Human));
    // Built once; the driver starts each game with `Player::new_game`.
    let mut a = build(game, &seats[0], quit)?;
    let mut b = build(game, &seats[1], quit)?;
    for i in 0..args.games {
        let mut seats: [&mut dyn Player<G>; 2] = if seats_swapped(i) {
            [b.as_mut(), a.as_mut()]
        } else {
            [a.as_mut(), b.as_mut()]
        };
        let mut rng = stream(args.seed, &[i as u64]);
        let composing = i == 0;
        let opening = openings
            .opening(game, args.seed, (i / 2) as u64)
            .map_err(|e| anyhow::anyhow!(e))?;
        let record = play_game_from(game, &opening, &mut seats, &mut rng, |state, actions| {
            if quit.load(Ordering::SeqCst) {
                return ControlFlow::Break(());
            }
            let seat = match state.turn() {
                Turn::Player(p) => Some(p),
                _ => None,
            };
            for &act in actions {
                if watching {
                    let who = seat.map_or("chance".to_string(), |p| names[p].to_string());
                    println!("{who} plays {}", state.action_to_string(act));
                }
                if let (Some(c), true, Some(p)) = (composer.as_mut(), composing, seat) {
                    if let Some(line) = c.on_move(state.action_cell(act), p) {
                        println!("  {line}");
                    }
                    // Written after every move, so an interrupted game keeps its music.
                    if let Err(e) = c.finish() {
                        eprintln!("warning: could not write music: {e}");
                    }
                }
            }
            if actions.is_empty() && watching {
                println!("\n{state}");
            }
            ControlFlow::Continue(())
        })
        .map_err(|e| anyhow::anyhow!(e))?;
        let abandoned = record.returns.is_none();
        records.push(record);
        if abandoned {
            println!("game abandoned");
            break;
        }
    }
    if let Some(c) = composer.as_mut() {
        let path = c.finish()?;
        println!("music written to {}", path.display());
    }
    Ok(records)
}

fn outcome_text(names: &[&str], returns: &Option<Vec<f64>>) -> String {
    match returns {
        None => "abandoned".into(),
        Some(r) if r[0] > r[1] => format!("{} wins", names[0]),
        Some(r) if r[1] > r[0] => format!("{} wins", names[1]),
        Some(_) => "draw".into(),
    }
}

fn report<G: Game>(game: &G, args: &PlayArgs, records: &[GameRecord]) -> anyhow::Result<()> {
    let names = game.seat_names();
    let mut tallies = [Tally::default(); 2];
    let mut margin_sum = [0i64; 2];
    let mut scored = 0usize;
    for (i, rec) in records.iter().enumerate() {
        let swapped = seats_swapped(i);
        if !args.quiet {
            let score = rec
                .score
                .as_ref()
                .map(|s| format!(" (margin {:+})", s[0]))
                .unwrap_or_default();
            println!(
                "game {}: {} ({}) vs {} ({}): {}{score}, {} moves",
                i + 1,
                rec.players[0],
                names[0],
                rec.players[1],
                names[1],
                outcome_text(&names, &rec.returns),
                rec.moves.len()
            );
        }
        let Some(r) = &rec.returns else { continue };
        for (player, tally) in tallies.iter_mut().enumerate() {
            // Which seat the named player (0 = --first) sat in.
            let seat = if swapped { 1 - player } else { player };
            let v = r[seat];
            if v > 0.0 {
                tally.wins[seat] += 1;
            } else if v < 0.0 {
                tally.losses[seat] += 1;
            } else {
                tally.draws[seat] += 1;
            }
            if let Some(s) = &rec.score {
                margin_sum[player] += s[seat] as i64;
            }
        }
        if rec.score.is_some() {
            scored += 1;
        }
    }
    if let Some(path) = &args.record {
        let mut f = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot open record file {}", path.display()))?;
        for rec in records {
            writeln!(f, "{}", serde_json::to_string(rec)?)?;
        }
    }
    println!("summary over {} games of {}:", records.len(), game.spec());
    for (player, spec) in [&args.first, &args.second].into_iter().enumerate() {
        let t = tallies[player];
        let total = |x: [u32; 2]| x[0] + x[1];
        let n = total(t.wins) + total(t.draws) + total(t.losses);
        let rate = if n > 0 {
            100.0 * total(t.wins) as f64 / n as f64
        } else {
            0.0
        };
        let margin = if scored > 0 {
            format!(
                ", mean margin {:+.2}",
                margin_sum[player] as f64 / scored as f64
            )
        } else {
            String::new()
        };
        println!(
            "  {spec}: {} wins, {} draws, {} losses ({rate:.1}% wins; as {}: {}/{}/{}, as {}: {}/{}/{}){margin}",
            total(t.wins),
            total(t.draws),
            total(t.losses),
            names[0],
            t.wins[0],
            t.draws[0],
            t.losses[0],
            names[1],
            t.wins[1],
            t.draws[1],
            t.losses[1],
        );
    }
    Ok(())
}
