//! Tournaments: every pairing of a list of players (a round robin), or one
//! player against each of the others (a gauntlet), each pairing a match of
//! pairs of games from shared openings with seats swapped.
//!
//! Every pairing meets the same openings (pair `p` of every match starts
//! from the same position), drawn once from the tournament's seed; the games
//! of pairing `(i, j)` draw their own randomness from a seed derived from
//! `(seed, i, j)`. Results do not depend on the number of threads.

use serde_json::json;

use super::forfeits::SeatForfeits;
use super::matches::{play_games, OnForfeit, PlayerFactory, Seating};
use super::openings::Openings;
use super::rating::{FitOptions, Ratings, Results};
use super::Wdl;
use crate::game::driver::{seats_swapped, GameRecord};
use crate::game::rng::stream;
use crate::game::Game;
use crate::players::{PlayerSpec, Roster};
use rand::Rng;

/// The tag of pairing seeds.
const TAG: u64 = 0x544F_5552;

/// Which pairings a tournament plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every pair of players.
    RoundRobin,
    /// Player `k` against every other.
    Gauntlet(usize),
}

/// The results of a tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct Tournament {
    /// The players' specs.
    pub players: Vec<String>,
    /// `results[i][j]`: player `i`'s wins, draws and losses against `j`.
    pub results: Vec<Vec<Wdl>>,
    /// Games played in all.
    pub games: u64,
    /// Different games among them (equal move lists count once).
    pub distinct_games: usize,
    /// `forfeits[i]`: the games player `i` forfeited (lost in `results`),
    /// by seat and why.
    pub forfeits: Vec<SeatForfeits>,
    /// Tries of forfeited games played again ([`OnForfeit::Replay`]).
    pub replayed: u64,
}

impl Tournament {
    /// Player `i`'s results against everyone.
    pub fn total(&self, i: usize) -> Wdl {
        self.results[i].iter().fold(Wdl::default(), |a, w| Wdl {
            wins: a.wins + w.wins,
            draws: a.draws + w.draws,
            losses: a.losses + w.losses,
        })
    }
}

/// Plays a tournament among `players` (specs) on `game`: `games` games per
/// pairing (an even number is best: pairs of games with seats swapped),
/// starting from `openings`. `on_done` is called after every game. A
/// forfeited game is counted ([`OnForfeit::Count`]).
pub fn play_tournament<G: Roster>(
    game: &G,
    players: &[String],
    format: Format,
    games: usize,
    seed: u64,
    openings: &Openings,
    on_done: &(dyn Fn() + Sync),
) -> Result<Tournament, String> {
    play_tournament_on_forfeit(
        game,
        players,
        format,
        games,
        seed,
        openings,
        OnForfeit::Count,
        on_done,
    )
}

/// [`play_tournament`], a forfeited game counted, replayed or ending the
/// tournament as `on_forfeit` says.
#[allow(clippy::too_many_arguments)]
pub fn play_tournament_on_forfeit<G: Roster>(
    game: &G,
    players: &[String],
    format: Format,
    games: usize,
    seed: u64,
    openings: &Openings,
    on_forfeit: OnForfeit,
    on_done: &(dyn Fn() + Sync),
) -> Result<Tournament, String> {
    check_entrants(players.len(), format)?;
    // Each spec is read once, before any game; each worker builds its
    // players from the typed specs.
    let typed = players
        .iter()
        .map(|p| PlayerSpec::parse(game, p).map_err(|e| format!("player '{p}': {e}")))
        .collect::<Result<Vec<_>, String>>()?;
    let factories: Vec<Box<PlayerFactory<'_, G>>> = players
        .iter()
        .zip(&typed)
        .map(|(p, spec)| {
            Box::new(move || spec.build(game).map_err(|e| format!("player '{p}': {e}")))
                as Box<PlayerFactory<'_, G>>
        })
        .collect();
    let factories: Vec<&PlayerFactory<'_, G>> = factories.iter().map(|f| &**f).collect();
    play_pairings(
        game, players, &factories, format, games, seed, openings, on_forfeit, on_done,
    )
}

/// Checks that `n` players can play a tournament of `format`: at least
/// two, and a gauntlet's player among them.
fn check_entrants(n: usize, format: Format) -> Result<(), String> {
    if n < 2 {
        return Err("a tournament needs at least two players".into());
    }
    match format {
        Format::Gauntlet(k) if k >= n => {
            Err(format!("gauntlet player {k} is not among the {n} players"))
        }
        _ => Ok(()),
    }
}

/// [`play_tournament`] among players built by `factories` (evolved nets
/// held in memory, players from another language), named by `players`:
/// the same pairings, openings and seeds, so the same games for the same
/// players.
#[allow(clippy::too_many_arguments)]
pub fn play_tournament_with<G: Game>(
    game: &G,
    players: &[String],
    factories: &[&PlayerFactory<'_, G>],
    format: Format,
    games: usize,
    seed: u64,
    openings: &Openings,
    on_done: &(dyn Fn() + Sync),
) -> Result<Tournament, String> {
    let on_forfeit = OnForfeit::Count;
    play_pairings(
        game, players, factories, format, games, seed, openings, on_forfeit, on_done,
    )
}

/// The pairings of a tournament (see [`play_tournament_with`]).
#[allow(clippy::too_many_arguments)]
fn play_pairings<G: Game>(
    game: &G,
    players: &[String],
    factories: &[&PlayerFactory<'_, G>],
    format: Format,
    games: usize,
    seed: u64,
    openings: &Openings,
    on_forfeit: OnForfeit,
    on_done: &(dyn Fn() + Sync),
) -> Result<Tournament, String> {
    if factories.len() != players.len() {
        return Err("a tournament needs one factory for each player".into());
    }
    check_entrants(players.len(), format)?;
    // One list of openings for every pairing.
    let pairs = games.div_ceil(2) as u64;
    let shared = match openings {
        Openings::Random { .. } => Openings::Lines(
            (0..pairs)
                .map(|p| openings.opening(game, seed, p))
                .collect::<Result<_, _>>()?,
        ),
        other => other.clone(),
    };
    let n = players.len();
    let pairings: Vec<(usize, usize)> = match format {
        Format::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
        Format::Gauntlet(k) => (0..n).filter(|&j| j != k).map(|j| (k, j)).collect(),
    };
    let mut results = vec![vec![Wdl::default(); n]; n];
    let mut forfeits = vec![SeatForfeits::default(); n];
    let mut replayed = 0;
    let mut all: Vec<GameRecord> = Vec::new();
    for (i, j) in pairings {
        let s = stream(seed, &[TAG, i as u64, j as u64]).next_u64();
        let records = play_games(
            game,
            factories[i],
            factories[j],
            0..games,
            s,
            &shared,
            Seating::Alternate,
            on_forfeit,
            on_done,
        )?;
        for (g, rec) in records.iter().enumerate() {
            replayed += rec.replayed.len() as u64;
            let Some(r) = &rec.returns else { continue };
            let seat_i = usize::from(seats_swapped(g));
            results[i][j].add(r[seat_i]);
            results[j][i].add(r[1 - seat_i]);
            if let Some(f) = &rec.forfeit {
                let who = if f.seat == seat_i { i } else { j };
                forfeits[who].add(f.seat, f.kind);
            }
        }
        all.extend(records);
    }
    Ok(Tournament {
        players: players.to_vec(),
        results,
        games: all.len() as u64,
        distinct_games: super::matches::distinct_games(&all),
        forfeits,
        replayed,
    })
}

impl Tournament {
    /// Ratings fitted to the results by maximum likelihood, anchored at
    /// player `anchor` = `anchor_elo`.
    pub fn ratings(&self, anchor: usize, anchor_elo: f64) -> Result<Ratings, String> {
        let n = self.players.len();
        let mut results = Results::with_names(self.players.iter().cloned());
        for i in 0..n {
            for j in i + 1..n {
                if self.results[i][j].games() > 0 {
                    results.add(i, j, self.results[i][j]);
                }
            }
        }
        results
            .fit(&FitOptions {
                anchor,
                anchor_rating: anchor_elo,
                ..FitOptions::default()
            })
            .map_err(|e| format!("cannot fit ratings: {e}"))
    }

    /// `wopr tournament --json`: the cross table and the ranking.
    pub fn to_json(&self, game: &str, ratings: &Ratings) -> serde_json::Value {
        let n = self.players.len();
        json!({
            "game": game,
            "games": self.games,
            "distinct_games": self.distinct_games,
            "players": self.players,
            "replayed": self.replayed,
            "cross": (0..n).map(|i| (0..n).map(|j| {
                let w = self.results[i][j];
                json!({"wins": w.wins, "draws": w.draws, "losses": w.losses})
            }).collect::<Vec<_>>()).collect::<Vec<_>>(),
            "ratings": ranked(ratings).into_iter().map(|Ranked { index: i, elo, ci95: (low, high), los_next: los }| json!({
                "player": self.players[i],
                "elo": elo,
                "elo_ci95": [low, high],
                "games": self.total(i).games(),
                "score": self.total(i).score(),
                "los_next": los,
                "forfeits": self.forfeits[i],
            })).collect::<Vec<_>>(),
        })
    }
}

/// One line of a ranking.
pub struct Ranked {
    /// The player's index.
    pub index: usize,
    /// Its rating.
    pub elo: f64,
    /// The rating's 95% interval.
    pub ci95: (f64, f64),
    /// The likelihood that it is better than the next player down.
    pub los_next: Option<f64>,
}

/// Players by rating, best first.
pub fn ranked(ratings: &Ratings) -> Vec<Ranked> {
    let order = ratings.ranking();
    order
        .iter()
        .enumerate()
        .map(|(k, &i)| Ranked {
            index: i,
            elo: ratings.players[i].rating,
            ci95: ratings.players[i].ci95,
            los_next: order.get(k + 1).map(|&next| ratings.los(i, next)),
        })
        .collect()
}
