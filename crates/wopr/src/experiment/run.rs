//! An evolution in memory: the generation step and the yardsticks, wiring
//! together the engine ([`super::engine`]), the fitness scheme
//! (`super::fitness`) and the phenotype ([`super::phenotype`]). The run
//! layer ([`super::learn::evolve`]) drives it like any learner: run
//! folder, checkpoints, logs and resume.
//!
//! Every random choice derives from (seed, generation, …), and the state
//! ([`Checkpoint`]) holds everything else, so a run killed at any moment
//! and resumed from its last checkpoint ends exactly where an
//! uninterrupted run would.

use std::time::Instant;

use super::config::{EvolveConfig, Scheme, YardstickConfig};
use super::engine::{new_engine, with_engine};
use super::error::RunError;
use super::files::{champion_weights, Checkpoint, GenerationRow};
use super::fitness::{scheme, two_population_scheme};
use super::learn::{Measured, Row};
use super::phenotype::NetPhenotype;
use crate::eval::matches::play_match_with;
use crate::eval::openings::Openings;
use crate::eval::{exhaustive, exhaustive_limited, match_stats, Wdl};
use crate::evolve::schemes::Phenotype;
use crate::evolve::{step, Engine, Genome};
use crate::game::driver::seats_swapped;
use crate::game::encode::Encodable;
use crate::game::rng::stream;
use crate::game::Searchable;
use crate::players::{parse_player, Player, PlayerSpec, Roster};

/// A fresh run's state at generation 0.
pub fn start<G>(game: &G, config: EvolveConfig) -> Result<Checkpoint, RunError>
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    config.check().map_err(RunError)?;
    let phenotype = NetPhenotype::new(game, &config.net, config.genome.layout)?;
    config
        .check_budget(phenotype.num_params)
        .map_err(RunError)?;
    if config.fitness.scheme == Scheme::Exhaustive {
        exhaustive_fits(game)?;
    }
    let engine = new_engine(&config, config.seed, phenotype.num_params)?;
    // Check the fitness section (opponent specs, names) before anything runs.
    fn check<G, E>(
        game: &G,
        config: &EvolveConfig,
        p: &NetPhenotype<G>,
        e: &E,
    ) -> Result<(), RunError>
    where
        G: Encodable + Roster,
        G::State: Searchable,
        E: Engine,
        E::Genome: Sync,
    {
        scheme::<G, E::Genome>(game, config, p, &[], e.population().len()).map(|_| ())
    }
    let two = config.fitness.scheme == Scheme::TwoPopulations;
    let second = if two {
        for o in &config.fitness.opponents {
            parse_player(game, o).map_err(|e| RunError(format!("opponent '{o}': {e}")))?;
        }
        // The second population starts from its own random weights.
        let seed2 = crate::game::mix64(config.seed ^ 0x5345_434F_4E44);
        Some(new_engine(&config, seed2, phenotype.num_params)?)
    } else {
        with_engine!(&engine, e => check(game, &config, &phenotype, e))?;
        None
    };
    super::fitness::openings_of(game, &config)?;
    if let Some(y) = &config.yardsticks {
        if let Some(o) = &y.openings {
            Openings::parse(game, o).map_err(|e| RunError(format!("yardsticks.openings: {e}")))?;
        }
        for spec in &y.against {
            yardstick(game, spec)?
                .build(game)
                .map_err(|e| RunError(format!("yardstick '{spec}': {e}")))?;
        }
    }
    Ok(Checkpoint {
        config,
        engine,
        history: Vec::new(),
        yardsticks: Vec::new(),
        hall_of_fame: Vec::new(),
        best: None,
        champion: Vec::new(),
        stall: 0,
        finished: false,
        second,
        champion_second: Vec::new(),
        simd: Some(crate::nn::SimdLevel::detect().name().to_string()),
    })
}

/// The most opponent lines the exhaustive scheme may walk per seat:
/// Tic-Tac-Toe's whole game tree has 255,168 games.
const EXHAUSTIVE_LINES: u64 = 1_000_000;

/// Refuses the exhaustive scheme on a game whose opponent lines a player
/// cannot be walked through in a generation: the walk is tried once, for
/// a player that takes the first legal move, from each seat.
fn exhaustive_fits<G: Roster>(game: &G) -> Result<(), RunError>
where
    G::State: Searchable,
{
    for seat in 0..2 {
        let mut first = crate::players::FirstPlayer;
        let mut rng = stream(0, &[seat as u64]);
        if exhaustive_limited(game, &mut first, seat, &mut rng, EXHAUSTIVE_LINES).is_none() {
            return Err(RunError(format!(
                "the exhaustive scheme walks every line of the opponent: {} has more than \
                 {EXHAUSTIVE_LINES} from seat {seat} (games as small as tictactoe fit)",
                game.spec()
            )));
        }
    }
    Ok(())
}

/// Whose champion a yardstick measures, from which seats.
#[derive(Clone, Copy)]
enum Elite {
    /// The run's champion, from both seats (half the games each).
    Both,
    /// A two-populations champion from its own seat only (0: the first
    /// movers, 1: the second movers), as Handa & Horiuchi plot each
    /// population's elite; rows are labelled `SPEC (first movers)` or
    /// `SPEC (second movers)`.
    Seat(usize),
}

/// A yardstick's spec, parsed.
fn yardstick<G: Roster>(game: &G, spec: &str) -> Result<PlayerSpec, RunError> {
    PlayerSpec::parse(game, spec).map_err(|e| RunError(format!("yardstick '{spec}': {e}")))
}

/// The yardsticks' openings (the start position when unset).
fn yardstick_openings<G: Roster>(game: &G, y: &YardstickConfig) -> Result<Openings, RunError> {
    match &y.openings {
        Some(spec) => Openings::parse(game, spec).map_err(RunError),
        None => Ok(Openings::None),
    }
}

fn measure<G>(
    game: &G,
    phenotype: &NetPhenotype<G>,
    weights: &[f32],
    y: &YardstickConfig,
    seed: u64,
    generation: u64,
    who: Elite,
) -> Result<Vec<Row>, RunError>
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    let mut rows = Vec::new();
    let openings = yardstick_openings(game, y)?;
    let (label, seats, tag) = match who {
        Elite::Both => (String::new(), 0..2, 0),
        Elite::Seat(0) => (" (first movers)".to_string(), 0..1, 1),
        Elite::Seat(s) => (" (second movers)".to_string(), s..s + 1, 2),
    };
    for (j, spec) in y.against.iter().enumerate() {
        let parsed = yardstick(game, spec)?;
        let mine = || -> Result<Box<dyn Player<G>>, String> { Ok(phenotype.player(weights)) };
        let theirs = || parsed.build(game).map_err(|e| e.to_string());
        use rand::Rng;
        let path: &[u64] = if tag == 0 {
            &[0x5941_5244, generation, j as u64]
        } else {
            &[0x5941_5244, generation, j as u64, tag]
        };
        let s = stream(seed, path).next_u64();
        // One seat only: play both seats' games and keep that seat's (the
        // pairs share their openings, so the kept games stay varied).
        let games = y.games.max(1) * if tag == 0 { 1 } else { 2 };
        let records =
            play_match_with(game, &mine, &theirs, games, s, &openings, &|| {}).map_err(RunError)?;
        let m = match_stats("champion", spec, &records, |i| {
            usize::from(seats_swapped(i))
        });
        let wdl = match who {
            Elite::Both => Wdl {
                wins: m.as_first.wins + m.as_second.wins,
                draws: m.as_first.draws + m.as_second.draws,
                losses: m.as_first.losses + m.as_second.losses,
            },
            Elite::Seat(0) => m.as_first,
            Elite::Seat(_) => m.as_second,
        };
        rows.push(Row::sampled(format!("{spec}{label}"), wdl));
    }
    if y.exhaustive {
        let mut total = Wdl::default();
        for seat in seats.clone() {
            let mut p = phenotype.player(weights);
            let mut rng = stream(seed, &[0x4558_4841, generation, seat as u64]);
            let r = exhaustive(game, p.as_mut(), seat, &mut rng);
            total.wins += r.results.wins;
            total.draws += r.results.draws;
            total.losses += r.results.losses;
        }
        // Every line of the opponent, once: a count, not a sample.
        rows.push(Row::exact(format!("exhaustive{label}"), total));
    }
    Ok(rows)
}

/// Weaver & Bossomaier's population snapshot: every member of `population`
/// plays `y.games` games against each yardstick opponent. Two rows per
/// opponent: `mean:SPEC` sums every member's games (its score is the
/// population's mean), `best:SPEC` is the member that won most (the first
/// such member).
fn measure_population<G>(
    game: &G,
    phenotype: &NetPhenotype<G>,
    population: &[Vec<f32>],
    y: &YardstickConfig,
    seed: u64,
    generation: u64,
) -> Result<Vec<Row>, RunError>
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    let mut rows = Vec::new();
    let openings = yardstick_openings(game, y)?;
    for (j, spec) in y.against.iter().enumerate() {
        let parsed = yardstick(game, spec)?;
        let theirs = || parsed.build(game).map_err(|e| e.to_string());
        let mut total = Wdl::default();
        let mut best: Option<Wdl> = None;
        for (k, weights) in population.iter().enumerate() {
            let mine = || -> Result<Box<dyn Player<G>>, String> { Ok(phenotype.player(weights)) };
            use rand::Rng;
            let s = stream(seed, &[0x504F_5055, generation, j as u64, k as u64]).next_u64();
            let records =
                play_match_with(game, &mine, &theirs, y.games.max(1), s, &openings, &|| {})
                    .map_err(RunError)?;
            let m = match_stats("member", spec, &records, |i| usize::from(seats_swapped(i)));
            let wdl = Wdl {
                wins: m.as_first.wins + m.as_second.wins,
                draws: m.as_first.draws + m.as_second.draws,
                losses: m.as_first.losses + m.as_second.losses,
            };
            total.wins += wdl.wins;
            total.draws += wdl.draws;
            total.losses += wdl.losses;
            if best.as_ref().is_none_or(|b| wdl.wins > b.wins) {
                best = Some(wdl);
            }
        }
        rows.push(Row::sampled(format!("mean:{spec}"), total));
        rows.extend(best.map(|b| Row::sampled(format!("best:{spec}"), b)));
    }
    Ok(rows)
}

/// An evolution in memory: its game, its phenotype and its state.
pub struct Evolution<'g, G: Encodable + Roster> {
    game: &'g G,
    phenotype: NetPhenotype<G>,
    /// The state: what a checkpoint keeps.
    pub cp: Checkpoint,
    /// The population the last generation evaluated, for a population
    /// snapshot (kept only when the yardsticks ask for one).
    members: Vec<Vec<f32>>,
}

impl<'g, G> Evolution<'g, G>
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    /// The evolution of state `cp` (from [`start`] or a checkpoint),
    /// checked against its net.
    pub fn new(game: &'g G, cp: Checkpoint) -> Result<Self, RunError> {
        let phenotype = NetPhenotype::new(game, &cp.config.net, cp.config.genome.layout)?;
        cp.validate(phenotype.num_params)?;
        Ok(Evolution {
            game,
            phenotype,
            cp,
            members: Vec::new(),
        })
    }

    /// The weights → player map.
    pub fn phenotype(&self) -> &NetPhenotype<G> {
        &self.phenotype
    }

    /// Evaluates and breeds one generation: its row of `generations.csv`.
    /// Sets [`Checkpoint::finished`] when the fitness target is reached or
    /// the best has stalled (the generation count is the run layer's).
    pub fn generation(&mut self) -> Result<GenerationRow, RunError> {
        let t = Instant::now();
        let game = self.game;
        let phenotype = &self.phenotype;
        let cp = &mut self.cp;
        let config = &cp.config;
        let generation = cp.engine.generation();
        let mut second_stats = None;
        let snapshot = config.yardsticks.as_ref().is_some_and(|y| y.population);
        let (stats, champion, games) = if let Some(second) = cp.second.as_mut() {
            // Each population meets the other's champion of the previous
            // generation (its first member before any generation).
            let first_partner = if cp.champion_second.is_empty() {
                with_engine!(&*second, e => e.population()[0].decode())
            } else {
                cp.champion_second.clone()
            };
            let second_partner = if cp.champion.is_empty() {
                with_engine!(&cp.engine, e => e.population()[0].decode())
            } else {
                cp.champion.clone()
            };
            let (s1, c1, g1) = with_engine!(&mut cp.engine, e => {
                let (fitness, games) = two_population_scheme(game, config, phenotype, first_partner, 0, e.population().len())?;
                let ev = step(e, fitness.as_ref());
                (ev.stats, ev.champion.decode(), games)
            });
            let (s2, c2, g2) = with_engine!(second, e => {
                let (fitness, games) = two_population_scheme(game, config, phenotype, second_partner, 1, e.population().len())?;
                let ev = step(e, fitness.as_ref());
                (ev.stats, ev.champion.decode(), games)
            });
            second_stats = Some((s2.best, s2.mean, s2.min));
            cp.champion_second = c2;
            (s1, c1, g1 + g2)
        } else {
            let members = &mut self.members;
            with_engine!(&mut cp.engine, e => {
                let (fitness, games) = scheme(game, config, phenotype, &cp.hall_of_fame, e.population().len())?;
                if snapshot {
                    *members = e.population().iter().map(|g| g.decode()).collect();
                }
                let ev = step(e, fitness.as_ref());
                (ev.stats, ev.champion.decode(), games)
            })
        };
        let row = GenerationRow {
            generation,
            best: stats.best,
            mean: stats.mean,
            min: stats.min,
            median: stats.median,
            diversity: stats.diversity,
            games,
            best_error: stats.best_error,
            mean_error: stats.mean_error,
            pruned: phenotype.pruned(&champion),
            pruned_second: if cp.second.is_some() {
                phenotype.pruned(&cp.champion_second)
            } else {
                Vec::new()
            },
            seconds: t.elapsed().as_secs_f64(),
            second: second_stats,
        };
        let improved = cp.best.as_ref().is_none_or(|b| stats.best > b.0);
        if improved {
            cp.best = Some((stats.best, generation, champion.clone()));
            cp.stall = 0;
        } else {
            cp.stall += 1;
        }
        cp.champion = champion;
        if config.fitness.hall_of_fame > 0 {
            cp.hall_of_fame.push(cp.champion.clone());
            let keep = config.fitness.hall_of_fame;
            if cp.hall_of_fame.len() > keep {
                cp.hall_of_fame.drain(..cp.hall_of_fame.len() - keep);
            }
        }
        let reached = config.stop.target.is_some_and(|t| stats.best >= t);
        let stalled = config.stop.stall > 0 && cp.stall >= config.stop.stall;
        cp.finished = reached || stalled;
        Ok(row)
    }

    /// The weights the run offers now: the champion, or before any
    /// generation the first member.
    pub fn champion(&self) -> Vec<f32> {
        match champion_weights(&self.cp) {
            Some(w) => w.to_vec(),
            None => with_engine!(&self.cp.engine, e => e.population()[0].decode()),
        }
    }

    /// The yardsticks of generation `generation` (the last one run): the
    /// rows, and the measured champions as files to keep under
    /// `champions/` (`gen-NNNN.json`, `gen-NNNN-second.json`).
    pub fn yardsticks(&self, generation: u64) -> Result<Measured, RunError> {
        let Some(y) = &self.cp.config.yardsticks else {
            return Ok(Measured::default());
        };
        let (game, phenotype, seed) = (self.game, &self.phenotype, self.cp.config.seed);
        let w = champion_weights(&self.cp)
            .map(<[f32]>::to_vec)
            .unwrap_or_default();
        // Each elite with the seats it plays: both for one population, its
        // own for each of two.
        let w2 = self.cp.champion_second.clone();
        let two = self.cp.second.is_some();
        let measured = if two {
            vec![(&w, Elite::Seat(0)), (&w2, Elite::Seat(1))]
        } else {
            vec![(&w, Elite::Both)]
        };
        let mut rows = Vec::new();
        for (weights, who) in measured {
            rows.extend(measure(game, phenotype, weights, y, seed, generation, who)?);
        }
        if !self.members.is_empty() {
            rows.extend(measure_population(
                game,
                phenotype,
                &self.members,
                y,
                seed,
                generation,
            )?);
        }
        let mut files = Vec::new();
        for (suffix, weights) in [("", &w), ("-second", &w2)] {
            if !weights.is_empty() && (suffix.is_empty() || two) {
                files.push((
                    format!("champions/gen-{generation:04}{suffix}.json"),
                    phenotype.net_file(weights)?.to_json(),
                ));
            }
        }
        Ok(Measured { rows, files })
    }
}
