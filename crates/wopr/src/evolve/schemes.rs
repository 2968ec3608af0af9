//! Fitness schemes that play games: how a population of genomes becomes a
//! vector of fitnesses.
//!
//! A scheme knows a game and a [`Phenotype`] (weights → player); genomes are
//! decoded to weights once per generation. Every game draws its randomness
//! from `stream(seed, &[generation, tag, …])` with its own coordinates, and
//! all games of a generation are played in parallel, so fitness does not
//! depend on the number of threads.
//!
//! **References.**
//! - L. Weaver and T. Bossomaier, "Evolution of neural networks to play the
//!   game of Dots-and-Boxes", arXiv:cs/9809111, 1998.
//! - H. Handa and T. Horiuchi, "Evolutionary constitution of game player
//!   agents", *Proc. 41st SICE Annual Conference (SICE 2002)*, 2002.
//! - M. H. Naveed and P. I. Cowling, "Using coevolution and gradient-based
//!   learning for the Virus game", University of Bradford (also as Cowling,
//!   Naveed and Hossain, "A coevolutionary model for the Virus game", *IEEE
//!   Symposium on Computational Intelligence and Games (CIG)*, 2006).

use rand::seq::SliceRandom;
use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::fitness::{Fitness, Scores, Tally};
use super::genome::Genome;
use crate::eval::exhaustive;
use crate::eval::lockstep::{play_lockstep, LockstepGame};
use crate::eval::openings::Openings;
use crate::game::driver::play_out;
use crate::game::player::ValuePlayer;
use crate::game::rng::stream;
use crate::game::{Action, Game, State};
use crate::players::{Player, PlayerSpec, Roster};

/// Builds a player from decoded weights (a net of a fixed architecture,
/// encoding and play mode).
pub trait Phenotype<G: Game>: Sync {
    /// The player whose parameters are `weights`.
    fn player(&self, weights: &[f32]) -> Box<dyn Player<G>>;

    /// The same player as a [`ValuePlayer`], where it is one: a scheme
    /// then plays its games in lockstep with the others'
    /// ([`crate::eval::lockstep`]), the same games, faster. `None` (the
    /// default): its games are played one at a time.
    fn value_player(&self, _weights: &[f32]) -> Option<Box<dyn ValuePlayer<G>>> {
        None
    }
}

impl<G: Game, F: Fn(&[f32]) -> Box<dyn Player<G>> + Sync> Phenotype<G> for F {
    fn player(&self, weights: &[f32]) -> Box<dyn Player<G>> {
        self(weights)
    }
}

/// Points for a game's result.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Points {
    /// Points for a win.
    pub win: f64,
    /// Points for a draw.
    pub draw: f64,
    /// Points for a loss.
    pub loss: f64,
}

impl Points {
    /// Naveed & Cowling: 3 for a win, 1 for a draw, 0 for a loss.
    pub const NAVEED: Points = Points {
        win: 3.0,
        draw: 1.0,
        loss: 0.0,
    };
    /// MIDI-Connect4: +2 to the winner, −2 to the loser.
    pub const MIDI_CONNECT4: Points = Points {
        win: 2.0,
        draw: 0.0,
        loss: -2.0,
    };
    /// One point per win, half per draw.
    pub const WINS: Points = Points {
        win: 1.0,
        draw: 0.5,
        loss: 0.0,
    };

    fn of(&self, r: f64) -> f64 {
        if r > 0.0 {
            self.win
        } else if r < 0.0 {
            self.loss
        } else {
            self.draw
        }
    }
}

/// Who an individual plays against in [`FixedOpponents`].
#[derive(Clone, Debug, PartialEq)]
pub enum Opponent {
    /// A player (`level1`, `ai:3`, `perfect`, …), parsed once; each worker
    /// builds its own.
    Spec(PlayerSpec),
    /// A fixed set of weights for the same phenotype (a hall-of-fame champion,
    /// the other population's parent).
    Weights(Vec<f32>),
}

/// Plays one game between `a` (seat `seat_a`) and `b`; returns a's return and
/// a's score margin (0 where the game keeps no score).
fn duel<G: Game>(
    game: &G,
    opening: &[Action],
    a: &mut dyn Player<G>,
    b: &mut dyn Player<G>,
    seat_a: usize,
    path: &[u64],
    seed: u64,
) -> (f64, f64) {
    let mut rng = stream(seed, path);
    let mut seats: [&mut dyn Player<G>; 2] = if seat_a == 0 { [a, b] } else { [b, a] };
    match play_out(game, opening, &mut seats, &mut rng) {
        Ok(end) => {
            let r = end.returns(seat_a);
            let m = end.score(seat_a).map_or(r, |s| s as f64);
            (r, m)
        }
        // A player that forfeits (an outside engine out of time, playing an
        // illegal move or crashing) loses the game.
        Err(crate::game::driver::PlayError::Forfeit(f)) if f.seat != seat_a => (1.0, 1.0),
        // A player that breaks the rules loses the game.
        Err(_) => (-1.0, -1.0),
    }
}

/// The opening of the games played at `path` (both seats of a pair), from
/// the run's openings: the same for every individual that plays there.
/// Openings are checked when the run is configured; one that cannot be drawn
/// now falls back to the start position rather than stopping the run.
fn opening_at<G: Game>(
    openings: &Openings,
    game: &G,
    seed: u64,
    path: &[u64],
    index: u64,
) -> Vec<Action> {
    if openings.is_none() {
        return Vec::new();
    }
    let derived = stream(seed, path).random::<u64>();
    openings.opening(game, derived, index).unwrap_or_default()
}

/// A worker's player for one individual (or opponent), kept while
/// consecutive tasks need the same one: tasks are ordered so that a worker
/// meets the same individual many times in a row, and a player is built
/// once for all those games instead of once per game. Players start every
/// game afresh (`Player::new_game`), so reuse does not change any result.
struct Kept<G: Game> {
    key: Option<usize>,
    player: Option<Box<dyn Player<G>>>,
}

impl<G: Game> Kept<G> {
    fn new() -> Self {
        Kept {
            key: None,
            player: None,
        }
    }

    /// The player for `key`, built by `build` unless it is the one kept.
    fn get(
        &mut self,
        key: usize,
        build: impl FnOnce() -> Box<dyn Player<G>>,
    ) -> &mut dyn Player<G> {
        if self.key != Some(key) {
            self.player = Some(build());
            self.key = Some(key);
        }
        self.player.as_deref_mut().expect("just built")
    }
}

const TAG_FIXED: u64 = 0x4649_5845;
const TAG_ROUND: u64 = 0x524F_554E;
const TAG_SHARE: u64 = 0x5348_4152;
const TAG_EXHAUSTIVE: u64 = 0x4558_4841;
const TAG_OPENING: u64 = 0x4F50_454E;

/// Fitness against fixed opponents: every individual plays each opponent
/// `games_per_seat` times from each seat and sums the points (Weaver's direct
/// evolution; Naveed & Cowling's ten hand-crafted players scored 3/1/0, one
/// game per colour). With `seats: Some(s)` the individual only plays seat `s`
/// (Handa's first-mover and second-mover populations). With `logistic:
/// Some(k)` a game scores `1 / (1 + exp(−margin / k))` instead of `points`
/// (Handa & Horiuchi weigh each result by a logistic of the final margin).
pub struct FixedOpponents<'a, G: Game, P> {
    /// The game.
    pub game: G,
    /// Weights → player.
    pub phenotype: &'a P,
    /// The opponents.
    pub opponents: Vec<Opponent>,
    /// Games per opponent and seat.
    pub games_per_seat: usize,
    /// Points per result.
    pub points: Points,
    /// Only this seat, if given.
    pub seat: Option<usize>,
    /// Logistic scale of the margin, if results are weighed by margin.
    pub logistic: Option<f64>,
    /// With `logistic`, games against [`Opponent::Spec`] players (programs)
    /// score their raw margin instead, and only games against evolved nets
    /// the logistic: Handa & Horiuchi's `F = f(d_e) + Σ d(j)` as printed.
    pub raw_margin_vs_programs: bool,
    /// Where the games start: opponent `j`'s repetition `k` starts both
    /// seats' games from the same opening, for every individual.
    pub openings: Openings,
    /// Common random numbers: every individual's game against opponent `j`,
    /// seat `s`, repetition `k` uses the same random stream, so fitness
    /// differences come from the individuals, not from luck.
    pub common_seeds: bool,
}

impl<G, P, Gn> Fitness<Gn> for FixedOpponents<'_, G, P>
where
    G: Roster,
    P: Phenotype<G>,
    Gn: Genome + Sync,
{
    fn evaluate(&self, population: &[Gn], generation: u64, seed: u64) -> Vec<f64> {
        self.score(population, generation, seed).fitness
    }

    fn score(&self, population: &[Gn], generation: u64, seed: u64) -> Scores {
        let weights: Vec<Vec<f32>> = population.iter().map(|g| g.decode()).collect();
        let seats: Vec<usize> = match self.seat {
            Some(s) => vec![s],
            None => (0..2).collect(),
        };
        // One task per (individual, opponent, seat, repetition).
        let mut tasks = Vec::new();
        for i in 0..population.len() {
            for j in 0..self.opponents.len() {
                for &s in &seats {
                    for k in 0..self.games_per_seat {
                        tasks.push((i, j, s, k));
                    }
                }
            }
        }
        // Each worker keeps its current individual's player and one player
        // per opponent, built on first use: an opponent spec is parsed (a
        // `perfect` player allocates its table, a `net:` file is read) once
        // per worker and generation, not once per game.
        let reps = self.games_per_seat as u64;
        let openings: Vec<Vec<Action>> = (0..self.opponents.len() as u64)
            .flat_map(|j| (0..reps).map(move |k| (j, k)))
            .map(|(j, k)| {
                let path = [generation, TAG_FIXED, TAG_OPENING, j, k];
                opening_at(&self.openings, &self.game, seed, &path, j * reps + k)
            })
            .collect();
        let scores: Vec<(usize, f64)> = crate::dist::map_init(
            &tasks,
            || {
                (
                    Kept::new(),
                    (0..self.opponents.len()).map(|_| None).collect::<Vec<_>>(),
                )
            },
            |(me, them), _, &(i, j, s, k)| {
                let me = me.get(i, || self.phenotype.player(&weights[i]));
                let them: &mut Box<dyn Player<G>> =
                    them[j].get_or_insert_with(|| match &self.opponents[j] {
                        Opponent::Spec(spec) => spec
                            .build(&self.game)
                            .expect("opponent specs are checked when the run is configured"),
                        Opponent::Weights(w) => self.phenotype.player(w),
                    });
                let who = if self.common_seeds {
                    u64::MAX
                } else {
                    i as u64
                };
                let path = [generation, TAG_FIXED, who, j as u64, s as u64, k as u64];
                let opening = &openings[j * self.games_per_seat + k];
                let (r, m) = duel(&self.game, opening, me, them.as_mut(), s, &path, seed);
                let program = matches!(self.opponents[j], Opponent::Spec(_));
                let v = match self.logistic {
                    Some(_) if program && self.raw_margin_vs_programs => m,
                    Some(scale) => 1.0 / (1.0 + (-m / scale).exp()),
                    None => self.points.of(r),
                };
                (i, v)
            },
        );
        let mut tallies = vec![Tally::default(); population.len()];
        for (i, v) in scores {
            tallies[i].add(v);
        }
        Scores::from_tallies(&tallies)
    }
}

/// How a round-robin scores a pair's two games.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RoundRobinScoring {
    /// MIDI-Connect4: each game +2 to the winner and −2 to the loser.
    PerGame,
    /// Weaver: per two-game match, 1 to the player who won more of the two
    /// games, ½ each if they won equally many, 0 to the other.
    PerMatch,
}

/// Every pair of the population plays twice, seats swapped.
pub struct RoundRobin<'a, G: Game, P> {
    /// The game.
    pub game: G,
    /// Weights → player.
    pub phenotype: &'a P,
    /// Scoring.
    pub scoring: RoundRobinScoring,
    /// Where each pair's two games start.
    pub openings: Openings,
}

impl<G, P, Gn> Fitness<Gn> for RoundRobin<'_, G, P>
where
    G: Game,
    P: Phenotype<G>,
    Gn: Genome + Sync,
{
    fn evaluate(&self, population: &[Gn], generation: u64, seed: u64) -> Vec<f64> {
        self.score(population, generation, seed).fitness
    }

    /// A member's fitness is a sum over its meetings (per game or per
    /// match); its error treats the opponents it met as a sample of those it
    /// could meet.
    fn score(&self, population: &[Gn], generation: u64, seed: u64) -> Scores {
        let weights: Vec<Vec<f32>> = population.iter().map(|g| g.decode()).collect();
        let n = population.len();
        let pairs: Vec<(usize, usize)> = (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect();
        let opening = |i: usize, j: usize| {
            let path = [generation, TAG_ROUND, TAG_OPENING, i as u64, j as u64];
            opening_at(&self.openings, &self.game, seed, &path, (i * n + j) as u64)
        };
        // Game k of pair (i, j) puts i in seat k.
        let path =
            |i: usize, j: usize, k: usize| [generation, TAG_ROUND, i as u64, j as u64, k as u64];
        let lockstep: Option<Vec<Box<dyn ValuePlayer<G>>>> = weights
            .iter()
            .map(|w| self.phenotype.value_player(w))
            .collect();
        // Each rank plays its block of pairs; every rank gets every result.
        let results: Vec<(usize, usize, [f64; 2])> = if let Some(mut players) = lockstep {
            crate::dist::map_block(&pairs, |_, pairs| {
                let openings: Vec<Vec<Action>> =
                    pairs.iter().map(|&(i, j)| opening(i, j)).collect();
                let games = pairs
                    .iter()
                    .zip(&openings)
                    .flat_map(|(&(i, j), opening)| {
                        (0..2).map(move |k| LockstepGame {
                            seats: if k == 0 { vec![i, j] } else { vec![j, i] },
                            opening,
                            rng: stream(seed, &path(i, j, k)),
                        })
                    })
                    .collect();
                let ends = play_lockstep(&self.game, &mut players, games);
                pairs
                    .iter()
                    .zip(ends.chunks_exact(2))
                    .map(|(&(i, j), ends)| {
                        // A player that breaks the rules loses the game.
                        let r = |k: usize| ends[k].as_ref().map_or(-1.0, |end| end.returns(k));
                        (i, j, [r(0), r(1)])
                    })
                    .collect()
            })
        } else {
            // Pairs come ordered by their first member: a worker keeps that
            // player across its pairs and builds the second once per pair.
            crate::dist::map_init(&pairs, Kept::new, |kept, _, &(i, j)| {
                let a = kept.get(i, || self.phenotype.player(&weights[i]));
                let mut b = self.phenotype.player(&weights[j]);
                let opening = opening(i, j);
                let mut r = [0.0; 2];
                for (k, slot) in r.iter_mut().enumerate() {
                    *slot = duel(
                        &self.game,
                        &opening,
                        &mut *a,
                        b.as_mut(),
                        k,
                        &path(i, j, k),
                        seed,
                    )
                    .0;
                }
                (i, j, r)
            })
        };
        let mut tallies = vec![Tally::default(); n];
        for (i, j, r) in results {
            match self.scoring {
                RoundRobinScoring::PerGame => {
                    for x in r {
                        let p = Points::MIDI_CONNECT4.of(x);
                        tallies[i].add(p);
                        tallies[j].add(-p);
                    }
                }
                RoundRobinScoring::PerMatch => {
                    let wins_i = r.iter().filter(|&&x| x > 0.0).count();
                    let wins_j = r.iter().filter(|&&x| x < 0.0).count();
                    let (a, b) = match wins_i.cmp(&wins_j) {
                        std::cmp::Ordering::Greater => (1.0, 0.0),
                        std::cmp::Ordering::Less => (0.0, 1.0),
                        std::cmp::Ordering::Equal => (0.5, 0.5),
                    };
                    tallies[i].add(a);
                    tallies[j].add(b);
                }
            }
        }
        Scores::from_tallies(&tallies)
    }
}

/// Weaver & Bossomaier's antibody/antigen coevolution with implicit fitness
/// sharing (§3.4): a fraction of the population (25%) are antigens; each meets
/// a random sample (33%) of the population as antibodies in two-game matches;
/// `points` (33) per antigen are shared among the antibodies that beat it in
/// proportion to their shares: 4 for winning both games, 1 for winning one.
/// Only antibodies are rewarded. Antigens and antibodies are drawn from
/// `stream(seed, &[generation, tag])`; an antigen never meets itself.
pub struct ImplicitSharing<'a, G: Game, P> {
    /// The game.
    pub game: G,
    /// Weights → player.
    pub phenotype: &'a P,
    /// Fraction of the population chosen as antigens.
    pub antigen_fraction: f64,
    /// Fraction of the population that meets each antigen.
    pub sample_fraction: f64,
    /// Points shared per antigen.
    pub points: f64,
    /// Where each meeting's two games start.
    pub openings: Openings,
}

impl<G, P, Gn> Fitness<Gn> for ImplicitSharing<'_, G, P>
where
    G: Game,
    P: Phenotype<G>,
    Gn: Genome + Sync,
{
    fn evaluate(&self, population: &[Gn], generation: u64, seed: u64) -> Vec<f64> {
        self.score(population, generation, seed).fitness
    }

    /// An antibody's fitness is a sum over the antigens it met (its share
    /// of each, 0 where it lost); members that met none have error 0.
    fn score(&self, population: &[Gn], generation: u64, seed: u64) -> Scores {
        let weights: Vec<Vec<f32>> = population.iter().map(|g| g.decode()).collect();
        let n = population.len();
        let mut rng = stream(seed, &[generation, TAG_SHARE]);
        let mut order: Vec<usize> = (0..n).collect();
        order.shuffle(&mut rng);
        let antigens = ((n as f64 * self.antigen_fraction).round() as usize).clamp(1, n);
        let sample = ((n as f64 * self.sample_fraction).round() as usize).clamp(1, n);
        let mut meetings = Vec::new();
        for &ag in &order[..antigens] {
            let mut others: Vec<usize> = (0..n).filter(|&x| x != ag).collect();
            others.shuffle(&mut rng);
            for &ab in others.iter().take(sample) {
                meetings.push((ag, ab));
            }
        }
        let wins: Vec<(usize, usize, usize)> =
            crate::dist::map_init(&meetings, Kept::new, |kept, m, &(ag, ab)| {
                // Meetings come grouped by antigen: keep its player.
                let b = kept.get(ag, || self.phenotype.player(&weights[ag]));
                let mut a = self.phenotype.player(&weights[ab]);
                let path = [generation, TAG_SHARE, TAG_OPENING, m as u64];
                let opening = opening_at(&self.openings, &self.game, seed, &path, m as u64);
                let mut w = 0;
                for k in 0..2 {
                    let path = [generation, TAG_SHARE, m as u64, k as u64];
                    if duel(&self.game, &opening, a.as_mut(), &mut *b, k, &path, seed).0 > 0.0 {
                        w += 1;
                    }
                }
                (ag, ab, w)
            });
        let mut tallies = vec![Tally::default(); n];
        for &ag in &order[..antigens] {
            let met: Vec<(usize, f64)> = wins
                .iter()
                .filter(|x| x.0 == ag)
                .map(|x| {
                    let share = match x.2 {
                        2 => 4.0,
                        1 => 1.0,
                        _ => 0.0,
                    };
                    (x.1, share)
                })
                .collect();
            let total: f64 = met.iter().map(|s| s.1).sum();
            for (ab, s) in met {
                tallies[ab].add(if s > 0.0 {
                    self.points * s / total
                } else {
                    0.0
                });
            }
        }
        Scores::from_tallies(&tallies)
    }
}

/// The thesis's independent fitness for small games (§4.3): minus the number of
/// games lost when the individual meets every line of the opponent, as the
/// first and as the second player.
pub struct ExhaustiveLosses<'a, G: Game, P> {
    /// The game (small enough to enumerate).
    pub game: G,
    /// Weights → player.
    pub phenotype: &'a P,
}

impl<G, P, Gn> Fitness<Gn> for ExhaustiveLosses<'_, G, P>
where
    G: Game,
    G::State: State<View = G::State>,
    P: Phenotype<G>,
    Gn: Genome + Sync,
{
    fn evaluate(&self, population: &[Gn], generation: u64, seed: u64) -> Vec<f64> {
        crate::dist::map_init(
            population,
            || (),
            |_, i, g| {
                let mut p = self.phenotype.player(&g.decode());
                let mut losses = 0;
                for seat in 0..2 {
                    let mut rng = stream(seed, &[generation, TAG_EXHAUSTIVE, i as u64, seat]);
                    losses += exhaustive(&self.game, p.as_mut(), seat as usize, &mut rng)
                        .results
                        .losses;
                }
                0.0 - losses as f64
            },
        )
    }
}
