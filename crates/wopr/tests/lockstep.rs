//! Round-robin fitness played in lockstep (all games of a generation at
//! once, each net valuing all its positions of a step together) is the
//! fitness of the same games played one by one through the driver: the same
//! games, the same random tie-breaks, at any number of threads.

mod common;

use common::on_threads;
use rand::RngExt;
use wopr::eval::openings::Openings;
use wopr::evolve::schemes::{Phenotype, RoundRobin, RoundRobinScoring};
use wopr::evolve::{Fitness, RealGenome, Scores};
use wopr::experiment::{EvolveConfig, NetPhenotype};
use wopr::game::rng::stream;
use wopr::games::connect4::Connect4;
use wopr::players::Player;

/// The same players, offered only one at a time: the round-robin then plays
/// their games one by one, as before lockstep play existed.
struct OneByOne<'a>(&'a NetPhenotype<Connect4>);

impl Phenotype<Connect4> for OneByOne<'_> {
    fn player(&self, weights: &[f32]) -> Box<dyn Player<Connect4>> {
        self.0.player(weights)
    }
}

fn game() -> Connect4 {
    Connect4::new(6, 6).unwrap()
}

/// MIDI-Connect4's 36-60-6 nets in `mode`, finished games scored as
/// `finished` says.
fn phenotype(mode: &str, finished: &str) -> NetPhenotype<Connect4> {
    let text = format!(
        "game = 'connect4:6x6'\n[net]\nencoding = 'raw'\nhidden = [60]\nactivation = 'sigmoid'\n\
         output = 'sigmoid'\noutputs = 'policy'\nmode = '{mode}'\nfinished = '{finished}'\n"
    );
    let cfg: EvolveConfig = toml::from_str(&text).unwrap();
    NetPhenotype::new(&game(), &cfg.net, cfg.genome.layout).unwrap()
}

/// `n` members with weights uniform in `[lo, hi)`.
fn population(n: usize, params: usize, lo: f32, hi: f32, seed: u64) -> Vec<RealGenome> {
    let mut rng = stream(seed, &[]);
    (0..n)
        .map(|_| RealGenome::new((0..params).map(|_| rng.random_range(lo..hi)).collect()))
        .collect()
}

fn round_robin<'a, P: Phenotype<Connect4>>(
    phenotype: &'a P,
    openings: &Openings,
) -> RoundRobin<'a, Connect4, P> {
    RoundRobin {
        game: game(),
        phenotype,
        scoring: RoundRobinScoring::PerGame,
        openings: openings.clone(),
    }
}

/// Lockstep and one-by-one scores of `pop`, on `threads` threads.
fn both(
    p: &NetPhenotype<Connect4>,
    pop: &[RealGenome],
    openings: &Openings,
    threads: usize,
) -> (Scores, Scores) {
    let lockstep = on_threads(threads, || round_robin(p, openings).score(pop, 3, 11));
    let one = OneByOne(p);
    let one_by_one = on_threads(threads, || round_robin(&one, openings).score(pop, 3, 11));
    (lockstep, one_by_one)
}

#[test]
fn lockstep_round_robin_plays_the_games_one_by_one_play() {
    let plies4 = Openings::parse(&game(), "plies=4").unwrap();
    for (mode, finished) in [
        ("minimax2", "net"),
        ("minimax2", "rules"),
        ("policy", "rules"),
    ] {
        let p = phenotype(mode, finished);
        assert!(p.value_player(&vec![0.0; p.num_params]).is_some());
        // Mixed-sign weights give nets of many distinct values; the
        // paper's range [0.5, 2] saturates most outputs at exactly 1, so
        // most choices are ties broken from the games' streams.
        for (lo, hi) in [(-1.0, 1.0), (0.5, 2.0)] {
            let pop = population(10, p.num_params, lo, hi, 5);
            for openings in [&Openings::None, &plies4] {
                let (lockstep, one_by_one) = both(&p, &pop, openings, 2);
                assert_eq!(
                    lockstep, one_by_one,
                    "{mode} finished={finished} [{lo}, {hi})"
                );
                // Not a population of equals: the games decided something.
                assert!(
                    lockstep.fitness.iter().any(|&f| f != lockstep.fitness[0]),
                    "{mode} [{lo}, {hi}): {:?}",
                    lockstep.fitness
                );
            }
        }
    }
}

#[test]
fn lockstep_fitness_is_the_same_on_any_number_of_threads() {
    let p = phenotype("minimax2", "net");
    let pop = population(12, p.num_params, 0.5, 2.0, 9);
    let rr = round_robin(&p, &Openings::None);
    let one = on_threads(1, || rr.score(&pop, 0, 1));
    let three = on_threads(3, || rr.score(&pop, 0, 1));
    assert_eq!(one, three);
    // Per-game scoring is zero-sum: +2 and -2 for each decided game.
    assert_eq!(one.fitness.iter().sum::<f64>(), 0.0);
}

#[test]
fn alpha_beta_nets_are_played_one_by_one() {
    // A value net searched by alpha-beta draws its tie-breaks inside the
    // search: it has no values to batch.
    let text = "game = 'connect4:6x6'\n[net]\nencoding = 'raw'\nhidden = [8]\n\
                outputs = 'value'\nmode = 'alphabeta'\nply = 2\n";
    let cfg: EvolveConfig = toml::from_str(text).unwrap();
    let p = NetPhenotype::new(&game(), &cfg.net, cfg.genome.layout).unwrap();
    assert!(p.value_player(&vec![0.0; p.num_params]).is_none());
    let greedy = "game = 'connect4:6x6'\n[net]\nencoding = 'raw'\nhidden = [8]\n\
                  outputs = 'value'\nmode = 'greedy'\n";
    let cfg: EvolveConfig = toml::from_str(greedy).unwrap();
    let p = NetPhenotype::new(&game(), &cfg.net, cfg.genome.layout).unwrap();
    let pop = population(8, p.num_params, -1.0, 1.0, 3);
    let (lockstep, one_by_one) = both(&p, &pop, &Openings::None, 2);
    assert_eq!(lockstep, one_by_one, "greedy");
}
