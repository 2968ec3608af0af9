//! Tournaments: every pairing of a list of players (a round robin), or one
//! player against each of the others (a gauntlet), each pairing a match of
//! pairs of games from shared openings with seats swapped.
//!
//! Every pairing meets the same openings (pair `p` of every match starts
//! from the same position), drawn once from the tournament's seed; the games
//! of pairing `(i, j)` draw their own randomness from a seed derived from
//! `(seed, i, j)`. Results do not depend on the number of threads.

use super::matches::play_match_from;
use super::openings::Openings;
use super::Wdl;
use crate::game::driver::{seats_swapped, GameRecord};
use crate::game::rng::stream;
use crate::players::{parse_player, Roster};
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
/// starting from `openings`. `on_done` is called after every game.
pub fn play_tournament<G: Roster>(
    game: &G,
    players: &[String],
    format: Format,
    games: usize,
    seed: u64,
    openings: &Openings,
    on_done: &(dyn Fn() + Sync),
) -> Result<Tournament, String> {
    if players.len() < 2 {
        return Err("a tournament needs at least two players".into());
    }
    if let Format::Gauntlet(k) = format {
        if k >= players.len() {
            return Err(format!(
                "gauntlet player {k} is not among the {} players",
                players.len()
            ));
        }
    }
    for p in players {
        parse_player(game, p).map_err(|e| format!("player '{p}': {e}"))?;
    }
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
    let mut all: Vec<GameRecord> = Vec::new();
    for (i, j) in pairings {
        let s = stream(seed, &[TAG, i as u64, j as u64]).next_u64();
        let records = play_match_from(game, &players[i], &players[j], games, s, &shared, on_done)?;
        for (g, rec) in records.iter().enumerate() {
            let Some(r) = &rec.returns else { continue };
            let seat_i = usize::from(seats_swapped(g));
            results[i][j].add(r[seat_i]);
            results[j][i].add(r[1 - seat_i]);
        }
        all.extend(records);
    }
    Ok(Tournament {
        players: players.to_vec(),
        results,
        games: all.len() as u64,
        distinct_games: super::matches::distinct_games(&all),
    })
}
