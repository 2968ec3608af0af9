//! Matches: many games between two players, seats swapped every other game,
//! in parallel and reproducible by seed whatever the number of threads.
//!
//! A game a player forfeits (an outside engine out of time, playing an
//! illegal move or crashing: [`crate::game::Failure::Forfeit`]) is a lost
//! game for it, recorded in [`GameRecord::forfeit`]; [`OnForfeit`] says
//! whether the match counts it, plays it again or stops.

use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use super::openings::Openings;
use crate::game::driver::{play_game_from, seats_swapped, GameRecord};
use crate::game::rng::stream;
use crate::game::{Game, Player};
use crate::players::{PlayerSpec, Roster};

/// Plays `games` games between two player specs from the start position,
/// seats swapped every other game ([`seats_swapped`]), in parallel. Game `i`
/// draws all its randomness from `stream(seed, &[i])`, so the records are the
/// same whatever the number of threads. `on_done` is called once per
/// finished game (for progress bars).
pub fn play_match<G: Roster>(
    game: &G,
    first: &str,
    second: &str,
    games: usize,
    seed: u64,
    on_done: &(dyn Fn() + Sync),
) -> Result<Vec<GameRecord>, String> {
    play_match_from(game, first, second, games, seed, &Openings::None, on_done)
}

/// [`play_match`] from `openings`: games `2p` and `2p + 1` start from pair
/// `p`'s opening, with seats swapped.
pub fn play_match_from<G: Roster>(
    game: &G,
    first: &str,
    second: &str,
    games: usize,
    seed: u64,
    openings: &Openings,
    on_done: &(dyn Fn() + Sync),
) -> Result<Vec<GameRecord>, String> {
    let read = |spec: &str| PlayerSpec::parse(game, spec).map_err(|e| e.to_string());
    let (first, second) = (read(first)?, read(second)?);
    let seating = Seating::Alternate;
    play_match_seated(
        game,
        &first,
        &second,
        games,
        seed,
        openings,
        seating,
        OnForfeit::Count,
        on_done,
    )
}

/// Who sits where in a match's games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Seating {
    /// Seats swapped every other game ([`seats_swapped`]): games `2p` and
    /// `2p + 1` start from opening `p`, the first player in seat 0 in the
    /// even one.
    #[default]
    Alternate,
    /// The first player always in this seat: game `i` starts from opening
    /// `i` (a protocol that measures one side, e.g. a net moving first
    /// against a perfect player).
    Fixed(usize),
}

impl Seating {
    /// The first player's seat in game `i`.
    pub fn player_seat(self, i: usize) -> usize {
        match self {
            Seating::Alternate => usize::from(seats_swapped(i)),
            Seating::Fixed(seat) => seat,
        }
    }

    /// The opening game `i` starts from.
    fn opening(self, i: usize) -> u64 {
        match self {
            Seating::Alternate => (i / 2) as u64,
            Seating::Fixed(_) => i as u64,
        }
    }
}

/// [`play_match_from`] between two typed specs (each read once, by the
/// caller), the players seated by `seating`: each worker thread builds its
/// two players once, when it plays its first game, so an error building
/// one (a net file that does not read) ends the match with that error.
#[allow(clippy::too_many_arguments)]
pub fn play_match_seated<G: Roster>(
    game: &G,
    first: &PlayerSpec,
    second: &PlayerSpec,
    games: usize,
    seed: u64,
    openings: &Openings,
    seating: Seating,
    on_forfeit: OnForfeit,
    on_done: &(dyn Fn() + Sync),
) -> Result<Vec<GameRecord>, String> {
    let make = |spec: &PlayerSpec| spec.build(game).map_err(|e| e.to_string());
    let (first, second) = (&|| make(first), &|| make(second));
    play_games(
        game,
        first,
        second,
        0..games,
        seed,
        openings,
        seating,
        on_forfeit,
        on_done,
    )
}

/// What a match does with a game a player forfeited.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnForfeit {
    /// Count it: a loss for the side that forfeited, shown apart as a
    /// forfeit.
    #[default]
    Count,
    /// Play it again, from the same opening with the same random stream
    /// (so a game the forfeit did not change is the same game), up to
    /// [`MAX_REPLAYS`] times; the last try's forfeit counts.
    /// [`GameRecord::replayed`] keeps the earlier tries' forfeits.
    Replay,
    /// End the match with an error at the first forfeit.
    Stop,
}

/// The most times [`OnForfeit::Replay`] plays a forfeited game again.
pub const MAX_REPLAYS: usize = 3;

/// The values [`OnForfeit`] reads, for errors and help.
pub const ON_FORFEIT: &str = "count, replay, stop";

impl std::str::FromStr for OnForfeit {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "count" => Ok(OnForfeit::Count),
            "replay" => Ok(OnForfeit::Replay),
            "stop" => Ok(OnForfeit::Stop),
            _ => Err(format!(
                "'{text}' is not what to do with a forfeit (accepted: {ON_FORFEIT})"
            )),
        }
    }
}

impl std::fmt::Display for OnForfeit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            OnForfeit::Count => "count",
            OnForfeit::Replay => "replay",
            OnForfeit::Stop => "stop",
        })
    }
}

/// Makes a player for a match (one per worker thread).
pub type PlayerFactory<'a, G> = dyn Fn() -> Result<Box<dyn Player<G>>, String> + Sync + 'a;

/// [`play_match_from`] with players built by factories (nets held in memory,
/// evolved champions) instead of specs.
pub fn play_match_with<G: Game>(
    game: &G,
    first: &PlayerFactory<'_, G>,
    second: &PlayerFactory<'_, G>,
    games: usize,
    seed: u64,
    openings: &Openings,
    on_done: &(dyn Fn() + Sync),
) -> Result<Vec<GameRecord>, String> {
    let seating = Seating::Alternate;
    play_games(
        game,
        first,
        second,
        0..games,
        seed,
        openings,
        seating,
        OnForfeit::Count,
        on_done,
    )
}

/// Games `range` of the match [`play_match_with`] would play (the same
/// games: game `i` depends on `i` and the seed only), for matches played in
/// batches until a test decides (`wopr eval --sprt`), the players seated by
/// `seating`, a forfeited game counted, replayed or ending the match as
/// `on_forfeit` says.
#[allow(clippy::too_many_arguments)]
pub fn play_games<G: Game>(
    game: &G,
    first: &PlayerFactory<'_, G>,
    second: &PlayerFactory<'_, G>,
    range: std::ops::Range<usize>,
    seed: u64,
    openings: &Openings,
    seating: Seating,
    on_forfeit: OnForfeit,
    on_done: &(dyn Fn() + Sync),
) -> Result<Vec<GameRecord>, String> {
    // Each worker builds its two players once and reuses them for all its
    // games (a `net:` file is read, a solver's table allocated, once per
    // worker); every game starts them afresh with `Player::new_game`.
    type Pair<G> = (Option<Box<dyn Player<G>>>, Option<Box<dyn Player<G>>>);
    // The lowest game that failed (or forfeited under `OnForfeit::Stop`):
    // later games are skipped, earlier ones still played, so the error
    // reported is the first game's in order, whatever the threads did.
    let stop_at = AtomicUsize::new(usize::MAX);
    let results: Vec<Result<GameRecord, String>> = range
        .into_par_iter()
        .map_init(
            || -> Pair<G> { (None, None) },
            |(a, b), i| {
                if i > stop_at.load(Ordering::Relaxed) {
                    // Never reported: game `stop_at`'s error comes first.
                    return Err(String::new());
                }
                let r = play_one(
                    game, a, b, first, second, i, seed, openings, seating, on_forfeit,
                );
                match &r {
                    Ok(_) => on_done(),
                    Err(_) => {
                        stop_at.fetch_min(i, Ordering::Relaxed);
                    }
                }
                r
            },
        )
        .collect();
    results.into_iter().collect()
}

/// Game `i` of [`play_games`], its players built on first use.
#[allow(clippy::too_many_arguments)]
fn play_one<G: Game>(
    game: &G,
    a: &mut Option<Box<dyn Player<G>>>,
    b: &mut Option<Box<dyn Player<G>>>,
    first: &PlayerFactory<'_, G>,
    second: &PlayerFactory<'_, G>,
    i: usize,
    seed: u64,
    openings: &Openings,
    seating: Seating,
    on_forfeit: OnForfeit,
) -> Result<GameRecord, String> {
    let a = match a {
        Some(p) => p,
        None => a.insert(first()?),
    };
    let b = match b {
        Some(p) => p,
        None => b.insert(second()?),
    };
    let opening = openings.opening(game, seed, seating.opening(i))?;
    let mut seats: [&mut dyn Player<G>; 2] = if seating.player_seat(i) == 1 {
        [b.as_mut(), a.as_mut()]
    } else {
        [a.as_mut(), b.as_mut()]
    };
    let mut replayed = Vec::new();
    loop {
        // Every try draws from game i's stream, from its start.
        let mut rng = stream(seed, &[i as u64]);
        let mut record = play_game_from(game, &opening, &mut seats, &mut rng, |_, _| {
            std::ops::ControlFlow::Continue(())
        })
        .map_err(|e| e.to_string())?;
        match (record.forfeit.take(), on_forfeit) {
            (Some(f), OnForfeit::Stop) => {
                return Err(format!(
                    "game {}: {} (the match stops at the first forfeit)",
                    i + 1,
                    f.message
                ))
            }
            (Some(f), OnForfeit::Replay) if replayed.len() < MAX_REPLAYS => {
                replayed.push(f);
            }
            (f, _) => {
                record.forfeit = f;
                record.replayed = replayed;
                return Ok(record);
            }
        }
    }
}

/// How many different games `records` hold (equal action lists count once):
/// two deterministic players from the same position replay one game.
pub fn distinct_games(records: &[GameRecord]) -> usize {
    let mut lines: Vec<&[crate::game::Action]> =
        records.iter().map(|r| r.actions.as_slice()).collect();
    lines.sort_unstable();
    lines.dedup();
    lines.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::player::{Failure, ForfeitKind};
    use crate::game::rng::WoprRng;
    use crate::game::spec::GameSpec;
    use crate::game::{Action, ViewOf};
    use crate::games::tictactoe::TicTacToe;

    /// A player that forfeits every game at its first move (`crash`).
    struct Quitter(bool);

    impl Player<TicTacToe> for Quitter {
        fn spec(&self) -> String {
            "quitter".into()
        }
        fn choose(&mut self, _: &ViewOf<TicTacToe>, legal: &[Action], _: &mut WoprRng) -> Action {
            self.0 = true;
            legal[0]
        }
        fn failure(&mut self) -> Option<Failure> {
            std::mem::take(&mut self.0)
                .then(|| Failure::Forfeit(ForfeitKind::Crash, "quitter gives up".into()))
        }
    }

    fn run(on_forfeit: OnForfeit, games: usize) -> Result<Vec<GameRecord>, String> {
        let game = TicTacToe::from_spec(&GameSpec::parse("tictactoe").unwrap()).unwrap();
        let first = || -> Result<Box<dyn Player<TicTacToe>>, String> {
            crate::players::parse_player(&game, "first").map_err(|e| e.0)
        };
        let quitter =
            || -> Result<Box<dyn Player<TicTacToe>>, String> { Ok(Box::new(Quitter(false))) };
        let openings = Openings::default();
        play_games(
            &game,
            &first,
            &quitter,
            0..games,
            3,
            &openings,
            Seating::Alternate,
            on_forfeit,
            &|| {},
        )
    }

    #[test]
    fn stop_names_the_first_forfeited_game_whatever_the_threads() {
        // Every game is forfeited; the first in order is game 1.
        for _ in 0..5 {
            let e = run(OnForfeit::Stop, 32).unwrap_err();
            assert!(e.starts_with("game 1: quitter gives up"), "{e}");
        }
    }

    #[test]
    fn replay_tries_again_then_counts_the_last_try() {
        let records = run(OnForfeit::Replay, 4).unwrap();
        for (i, r) in records.iter().enumerate() {
            let f = r.forfeit.as_ref().expect("the last try forfeits too");
            // The quitter sits in seat 1 in even games, seat 0 in odd ones.
            assert_eq!(f.seat, 1 - i % 2);
            assert_eq!(
                (f.kind, r.replayed.len()),
                (ForfeitKind::Crash, MAX_REPLAYS)
            );
            let mut want = [-1.0; 2];
            want[1 - f.seat] = 1.0;
            assert_eq!(r.returns.as_deref(), Some(&want[..]));
        }
        let counted = run(OnForfeit::Count, 2).unwrap();
        assert!(counted
            .iter()
            .all(|r| r.forfeit.is_some() && r.replayed.is_empty()));
    }

    /// A player that takes 4 ms a move, then plays its first legal move.
    struct Slow;

    impl Player<TicTacToe> for Slow {
        fn spec(&self) -> String {
            "slow".into()
        }
        fn choose(&mut self, _: &ViewOf<TicTacToe>, legal: &[Action], _: &mut WoprRng) -> Action {
            std::thread::sleep(std::time::Duration::from_millis(4));
            legal[0]
        }
    }

    /// Each record keeps, per seat, the moves chosen at its own turns (the
    /// opening's left out) and their time; the match's summary gives each
    /// side's mean: the slow player's at least the 4 ms it sleeps, `first`'s
    /// far less.
    #[test]
    fn records_keep_each_sides_moves_and_time() {
        let game = TicTacToe::from_spec(&GameSpec::parse("tictactoe").unwrap()).unwrap();
        let first = || -> Result<Box<dyn Player<TicTacToe>>, String> {
            crate::players::parse_player(&game, "first").map_err(|e| e.0)
        };
        let slow = || -> Result<Box<dyn Player<TicTacToe>>, String> { Ok(Box::new(Slow)) };
        let openings = Openings::parse(&game, "plies=2").unwrap();
        let records = play_games(
            &game,
            &slow,
            &first,
            0..4,
            9,
            &openings,
            Seating::Alternate,
            OnForfeit::Count,
            &|| {},
        )
        .unwrap();
        for r in &records {
            let moves: u32 = r.thinking.iter().map(|t| t.moves).sum();
            assert_eq!(moves as usize, r.actions.len() - r.opening, "{r:?}");
        }
        let [p, o] = crate::eval::seconds_per_move(&records, |i| Seating::Alternate.player_seat(i))
            .map(Option::unwrap);
        assert!(p >= 0.004, "{p}");
        assert!(o < p / 2.0, "{o} vs {p}");
    }

    #[test]
    fn on_forfeit_reads_its_three_words() {
        assert_eq!("Replay".parse(), Ok(OnForfeit::Replay));
        assert_eq!(OnForfeit::Stop.to_string(), "stop");
        let e = "sometimes".parse::<OnForfeit>().unwrap_err();
        assert!(e.contains("'sometimes'") && e.contains(ON_FORFEIT), "{e}");
    }
}
