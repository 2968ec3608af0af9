//! From a config's `[fitness]` table to a fitness function: the schemes of
//! `evolve::schemes` wired to the run's phenotype, opponents and seats.

use super::config::{EvolveConfig, PointsKind, ProgramScore, Scheme, Scoring};
use super::error::RunError;
use super::phenotype::NetPhenotype;
use crate::eval::openings::Openings;
use crate::evolve::schemes::{
    ExhaustiveLosses, FixedOpponents, ImplicitSharing, Opponent, Points, RoundRobin,
    RoundRobinScoring,
};
use crate::evolve::{Fitness, Genome, Scores};
use crate::game::encode::Encodable;
use crate::game::{Game, Searchable};
use crate::players::{PlayerSpec, Roster};

/// Adds up several fitness schemes (round-robin plus hall-of-fame games).
struct Sum<'a, Gn>(Vec<Box<dyn Fitness<Gn> + 'a>>);

impl<Gn> Fitness<Gn> for Sum<'_, Gn> {
    fn evaluate(&self, population: &[Gn], generation: u64, seed: u64) -> Vec<f64> {
        self.score(population, generation, seed).fitness
    }

    fn score(&self, population: &[Gn], generation: u64, seed: u64) -> Scores {
        let mut total = Scores::exact(vec![0.0; population.len()]);
        for f in &self.0 {
            total.add(&f.score(population, generation, seed));
        }
        total
    }
}

/// The openings of the config's `fitness.openings` (the start position when
/// unset).
pub(super) fn openings_of<G: Game>(game: &G, config: &EvolveConfig) -> Result<Openings, RunError> {
    match &config.fitness.openings {
        Some(spec) => {
            Openings::parse(game, spec).map_err(|e| RunError(format!("fitness.openings: {e}")))
        }
        None => Ok(Openings::None),
    }
}

/// The fitness scheme for this generation, and the games it plays.
pub(super) fn scheme<'a, G, Gn>(
    game: &G,
    config: &EvolveConfig,
    phenotype: &'a NetPhenotype<G>,
    hall_of_fame: &[Vec<f32>],
    population: usize,
) -> Result<(Box<dyn Fitness<Gn> + 'a>, u64), RunError>
where
    G: Encodable + Roster,
    G::State: Searchable,
    Gn: Genome + Sync + 'a,
{
    let f = &config.fitness;
    let n = population as u64;
    let hof: Vec<Opponent> = hall_of_fame
        .iter()
        .rev()
        .take(f.hall_of_fame)
        .map(|w| Opponent::Weights(w.clone()))
        .collect();
    let points = match f.points {
        PointsKind::Wins => Points::WINS,
        PointsKind::Naveed => Points::NAVEED,
        PointsKind::Midi => Points::MIDI_CONNECT4,
    };
    let openings = match &f.openings {
        Some(spec) => {
            Openings::parse(game, spec).map_err(|e| RunError(format!("fitness.openings: {e}")))?
        }
        None => Openings::None,
    };
    let fixed = |opponents: Vec<Opponent>| FixedOpponents {
        game: game.clone(),
        phenotype,
        games_per_seat: f.games_per_seat.max(1),
        opponents,
        points,
        seat: f.seat,
        logistic: (f.logistic > 0.0).then_some(f.logistic),
        raw_margin_vs_programs: false,
        openings: openings.clone(),
        common_seeds: f.common_seeds,
    };
    let seats = if f.seat.is_some() { 1 } else { 2 };
    let per_opponent = seats * f.games_per_seat.max(1) as u64;
    let hof_games = n * hof.len() as u64 * per_opponent;
    let (main, games): (Box<dyn Fitness<Gn> + 'a>, u64) = match f.scheme {
        Scheme::Fixed => {
            let mut opponents: Vec<Opponent> = f
                .opponents
                .iter()
                .map(|o| program(game, o))
                .collect::<Result<_, _>>()?;
            let games = n * opponents.len() as u64 * per_opponent;
            opponents.extend(hof.iter().cloned());
            return Ok((Box::new(fixed(opponents)), games + hof_games));
        }
        Scheme::RoundRobin => {
            let scoring = match f.scoring {
                Scoring::PerGame => RoundRobinScoring::PerGame,
                Scoring::PerMatch => RoundRobinScoring::PerMatch,
            };
            (
                Box::new(RoundRobin {
                    game: game.clone(),
                    phenotype,
                    scoring,
                    openings: openings.clone(),
                }),
                n * n.saturating_sub(1),
            )
        }
        Scheme::Sharing => {
            let antigens = ((n as f64 * f.antigens).round() as u64).clamp(1, n);
            let sample = ((n as f64 * f.sample).round() as u64).clamp(1, n);
            (
                Box::new(ImplicitSharing {
                    game: game.clone(),
                    phenotype,
                    antigen_fraction: f.antigens,
                    sample_fraction: f.sample,
                    points: f.share_points,
                    openings: openings.clone(),
                }),
                antigens * sample * 2,
            )
        }
        Scheme::TwoPopulations => {
            return Err(RunError(
                "internal: two-populations is built per population".into(),
            ))
        }
        Scheme::Exhaustive => (
            Box::new(ExhaustiveLosses {
                game: game.clone(),
                phenotype,
            }),
            0,
        ),
    };
    if hof.is_empty() {
        Ok((main, games))
    } else {
        let extra: Box<dyn Fitness<Gn> + 'a> = Box::new(fixed(hof));
        Ok((Box::new(Sum(vec![main, extra])), games + hof_games))
    }
}

/// Handa & Horiuchi's two coevolving populations: the population playing
/// `seat` meets the other population's champion once and each fixed program
/// (`opponents`) `games_per_seat` times, every game scored by a logistic of
/// its final margin (scale `logistic`, 1 if unset), or with `programs =
/// "margin"` the program games by their raw margin.
pub(super) fn two_population_scheme<'a, G, Gn>(
    game: &G,
    config: &EvolveConfig,
    phenotype: &'a NetPhenotype<G>,
    partner: Vec<f32>,
    seat: usize,
    population: usize,
) -> Result<(Box<dyn Fitness<Gn> + 'a>, u64), RunError>
where
    G: Encodable + Roster,
    G::State: Searchable,
    Gn: Genome + Sync + 'a,
{
    let f = &config.fitness;
    let mut opponents = vec![Opponent::Weights(partner)];
    for o in &f.opponents {
        let p = program(game, o)?;
        for _ in 0..f.games_per_seat.max(1) {
            opponents.push(p.clone());
        }
    }
    let games = (population * opponents.len()) as u64;
    Ok((
        Box::new(FixedOpponents {
            game: game.clone(),
            phenotype,
            opponents,
            games_per_seat: 1,
            points: Points::WINS,
            seat: Some(seat),
            logistic: Some(if f.logistic > 0.0 { f.logistic } else { 1.0 }),
            raw_margin_vs_programs: f.programs == ProgramScore::Margin,
            openings: openings_of(game, config)?,
            common_seeds: f.common_seeds,
        }),
        games,
    ))
}

/// A fixed opponent of the config, its spec parsed once and built once
/// here (a net file that cannot be read fails now, not in a worker).
fn program<G: Roster>(game: &G, spec: &str) -> Result<Opponent, RunError> {
    let bad = |e: crate::game::SpecError| RunError(format!("opponent '{spec}': {e}"));
    let parsed = PlayerSpec::parse(game, spec).map_err(bad)?;
    parsed.build(game).map_err(bad)?;
    Ok(Opponent::Spec(parsed))
}
