//! Matches: many games between two players, seats swapped every other game,
//! in parallel and reproducible by seed whatever the number of threads.

use rayon::prelude::*;

use super::openings::Openings;
use crate::game::driver::{play_game_from, seats_swapped, GameRecord};
use crate::game::rng::stream;
use crate::game::{Game, Player};
use crate::players::{parse_player, Roster};

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
    let seating = Seating::Alternate;
    play_match_seated(game, first, second, games, seed, openings, seating, on_done)
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

/// [`play_match_from`] with the players seated by `seating`.
#[allow(clippy::too_many_arguments)]
pub fn play_match_seated<G: Roster>(
    game: &G,
    first: &str,
    second: &str,
    games: usize,
    seed: u64,
    openings: &Openings,
    seating: Seating,
    on_done: &(dyn Fn() + Sync),
) -> Result<Vec<GameRecord>, String> {
    // Check both specs once, up front, so errors are reported before any play.
    parse_player(game, first).map_err(|e| e.to_string())?;
    parse_player(game, second).map_err(|e| e.to_string())?;
    let make = |spec: &str| parse_player(game, spec).map_err(|e| e.to_string());
    let (first, second) = (&|| make(first), &|| make(second));
    play_games(
        game,
        first,
        second,
        0..games,
        seed,
        openings,
        seating,
        on_done,
    )
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
        on_done,
    )
}

/// Games `range` of the match [`play_match_with`] would play (the same
/// games: game `i` depends on `i` and the seed only), for matches played in
/// batches until a test decides (`wopr eval --sprt`), the players seated by
/// `seating`.
#[allow(clippy::too_many_arguments)]
pub fn play_games<G: Game>(
    game: &G,
    first: &PlayerFactory<'_, G>,
    second: &PlayerFactory<'_, G>,
    range: std::ops::Range<usize>,
    seed: u64,
    openings: &Openings,
    seating: Seating,
    on_done: &(dyn Fn() + Sync),
) -> Result<Vec<GameRecord>, String> {
    // Each worker builds its two players once and reuses them for all its
    // games (a `net:` file is read, a solver's table allocated, once per
    // worker); every game starts them afresh with `Player::new_game`.
    type Pair<G> = (Option<Box<dyn Player<G>>>, Option<Box<dyn Player<G>>>);
    range
        .into_par_iter()
        .map_init(
            || -> Pair<G> { (None, None) },
            |(a, b), i| {
                let a = match a {
                    Some(p) => p,
                    None => a.insert(first()?),
                };
                let b = match b {
                    Some(p) => p,
                    None => b.insert(second()?),
                };
                let opening = openings.opening(game, seed, seating.opening(i))?;
                let mut rng = stream(seed, &[i as u64]);
                let mut seats: [&mut dyn Player<G>; 2] = if seating.player_seat(i) == 1 {
                    [b.as_mut(), a.as_mut()]
                } else {
                    [a.as_mut(), b.as_mut()]
                };
                let r = play_game_from(game, &opening, &mut seats, &mut rng, |_, _| {
                    std::ops::ControlFlow::Continue(())
                })
                .map_err(|e| e.to_string());
                on_done();
                r
            },
        )
        .collect()
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
