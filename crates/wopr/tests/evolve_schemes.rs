//! Game-playing fitness schemes, with a phenotype simple enough to reason
//! about: nine weights, one per Tic-Tac-Toe square; the player takes the legal
//! square with the highest weight.

mod common;

use common::on_threads;
use wopr::eval::openings::Openings;
use wopr::evolve::schemes::{
    ExhaustiveLosses, FixedOpponents, ImplicitSharing, Opponent, Points, RoundRobin,
    RoundRobinScoring,
};
use wopr::evolve::{Fitness, RealGenome};
use wopr::game::rng::WoprRng;
use wopr::games::tictactoe::TicTacToe;
use wopr::players::{Player, PlayerSpec, ViewOf};
use wopr::Action;

struct Preference(Vec<f32>);

impl Player<TicTacToe> for Preference {
    fn spec(&self) -> String {
        "preference".into()
    }
    fn choose(&mut self, _: &ViewOf<TicTacToe>, legal: &[Action], _: &mut WoprRng) -> Action {
        *legal
            .iter()
            .max_by(|&&a, &&b| self.0[a as usize].total_cmp(&self.0[b as usize]))
            .unwrap()
    }
}

fn phenotype(w: &[f32]) -> Box<dyn Player<TicTacToe>> {
    Box::new(Preference(w.to_vec()))
}

fn population(n: usize) -> Vec<RealGenome> {
    (0..n)
        .map(|i| {
            let genes: Vec<f32> = (0..9).map(|k| ((k * 7 + i * 3) % 11) as f32).collect();
            RealGenome::new(genes)
        })
        .collect()
}

#[test]
fn round_robin_per_game_is_zero_sum_and_per_match_hands_out_one_point_per_pair() {
    let pop = population(6);
    let p = phenotype;
    let per_game = RoundRobin {
        game: TicTacToe,
        phenotype: &p,
        scoring: RoundRobinScoring::PerGame,
        openings: Openings::None,
    };
    let f = per_game.evaluate(&pop, 0, 1);
    assert!(f.iter().sum::<f64>().abs() < 1e-9, "{f:?}");
    let per_match = RoundRobin {
        game: TicTacToe,
        phenotype: &p,
        scoring: RoundRobinScoring::PerMatch,
        openings: Openings::None,
    };
    let f = per_match.evaluate(&pop, 0, 1);
    // 6·5/2 = 15 pairs, one point each.
    assert!((f.iter().sum::<f64>() - 15.0).abs() < 1e-9, "{f:?}");
}

#[test]
fn fixed_opponents_score_against_perfect_play_and_are_thread_independent() {
    let pop = population(5);
    let p = phenotype;
    let scheme = FixedOpponents {
        game: TicTacToe,
        phenotype: &p,
        opponents: vec![
            Opponent::Spec(PlayerSpec::parse(&TicTacToe, "perfect").unwrap()),
            Opponent::Spec(PlayerSpec::Random),
        ],
        games_per_seat: 3,
        points: Points::NAVEED,
        seat: None,
        logistic: None,
        raw_margin_vs_programs: false,
        openings: Openings::None,
        common_seeds: false,
    };
    let one = on_threads(1, || scheme.evaluate(&pop, 4, 9));
    let two = on_threads(2, || scheme.evaluate(&pop, 4, 9));
    assert_eq!(one, two);
    // 2 opponents × 2 seats × 3 games, at most 3 points each; the perfect
    // player never loses, so at most 6 games can be won.
    for &x in &one {
        assert!((0.0..=6.0 * 3.0 + 6.0).contains(&x), "{x}");
    }
}

#[test]
fn implicit_sharing_hands_out_the_points_of_beaten_antigens_only() {
    let pop = population(12);
    let p = phenotype;
    let scheme = ImplicitSharing {
        game: TicTacToe,
        phenotype: &p,
        antigen_fraction: 0.25,
        sample_fraction: 0.33,
        points: 33.0,
        openings: Openings::None,
    };
    let f = scheme.evaluate(&pop, 2, 5);
    let total: f64 = f.iter().sum();
    // 3 antigens: the total is 33 times the number of antigens beaten at least once.
    let beaten = (total / 33.0).round();
    assert!(
        (total - 33.0 * beaten).abs() < 1e-9 && beaten <= 3.0,
        "{total}"
    );
    assert_eq!(f, on_threads(1, || scheme.evaluate(&pop, 2, 5)));
}

#[test]
fn exhaustive_fitness_is_minus_the_losses() {
    // Weights decreasing with the square index: the "first legal square"
    // player, whose exhaustive losses are 58 as X and 429 as O (the
    // independent enumeration in tests/yardsticks.rs).
    let w: Vec<f32> = (0..9).map(|k| 9.0 - k as f32).collect();
    let p = phenotype;
    let scheme = ExhaustiveLosses {
        game: TicTacToe,
        phenotype: &p,
    };
    let f = scheme.evaluate(&[RealGenome::new(w)], 0, 0);
    assert_eq!(f, vec![-(58.0 + 429.0)]);
}

/// Handa & Horiuchi's fitness as printed, `F = f(d_e) + Σ d(j)`: against a
/// program that never loses, every game is a loss (margin −1) or a draw (0),
/// so the raw-margin reading is never positive and counts each loss −1,
/// while the logistic reading scores every game in (0, 1): a loss
/// 1/(1+e) = 0.269 and a draw 1/2 at scale 1.
#[test]
fn handa_fitness_counts_program_losses_negative() {
    let pop = population(4);
    let p = phenotype;
    let scheme = |raw: bool| FixedOpponents {
        game: TicTacToe,
        phenotype: &p,
        opponents: vec![Opponent::Spec(
            PlayerSpec::parse(&TicTacToe, "perfect").unwrap(),
        )],
        games_per_seat: 9,
        points: Points::WINS,
        seat: Some(0),
        logistic: Some(1.0),
        raw_margin_vs_programs: raw,
        openings: Openings::None,
        common_seeds: false,
    };
    let raw = scheme(true).evaluate(&pop, 0, 3);
    let logistic = scheme(false).evaluate(&pop, 0, 3);
    let loss = 1.0 / (1.0 + std::f64::consts::E);
    for (r, l) in raw.iter().zip(&logistic) {
        // Nine games: `losses` of them lost, the rest drawn.
        let losses = -r;
        assert!(
            (0.0..=9.0).contains(&losses) && losses.fract() == 0.0,
            "{r}"
        );
        let expected = losses * loss + (9.0 - losses) * 0.5;
        assert!((l - expected).abs() < 1e-9, "{l} vs {expected}");
    }
}
