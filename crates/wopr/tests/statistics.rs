//! The statistics engine testers use: Elo differences with intervals, Wilson
//! intervals, tournament ratings by maximum likelihood, and the SPRT, checked
//! against hand calculations and on simulated games (results drawn straight
//! from their probabilities, deterministic by seed).

use rand::RngExt;
use wopr::eval::rating::{
    elo_diff, elo_to_score, los_head_to_head, normal_cdf, normal_quantile, score_to_elo, DrawModel,
    FitOptions, RatingError, Results, Z95,
};
use wopr::eval::sprt::{pair_counts, Pentanomial, Sprt, SprtError, SprtStatus};
use wopr::eval::{wilson, Wdl};
use wopr::game::rng::{stream, WoprRng};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

fn wdl(wins: u64, draws: u64, losses: u64) -> Wdl {
    Wdl {
        wins,
        draws,
        losses,
    }
}

/// One game with expected score `s` for the first player and draw
/// probability `draw`: +1, 0 or −1.
fn game(rng: &mut WoprRng, s: f64, draw: f64) -> f64 {
    let win = s - draw / 2.0;
    let u: f64 = rng.random::<f64>();
    if u < win {
        1.0
    } else if u < win + draw {
        0.0
    } else {
        -1.0
    }
}

#[test]
fn normal_distribution_matches_reference_values() {
    // References: Python's 0.5·erfc(−x/√2).
    assert!(close(normal_cdf(0.0), 0.5, 1e-15));
    assert!(close(normal_cdf(1.96), 0.975_002_104_851_779_5, 1e-14));
    assert!(close(normal_cdf(-1.0), 0.158_655_253_931_457_07, 1e-14));
    let tail = normal_cdf(-6.0);
    assert!(
        close(tail / 9.865_876_450_377_012e-10, 1.0, 1e-12),
        "{tail}"
    );
    let deep = normal_cdf(-10.0);
    assert!(
        close(deep / 7.619_853_024_160_593e-24, 1.0, 1e-12),
        "{deep}"
    );
    assert!(close(
        normal_cdf(6.0),
        1.0 - 9.865_876_450_377_012e-10,
        1e-15
    ));
    // Quantiles: the 95% two-sided z, and round trips.
    assert!(close(normal_quantile(0.975), Z95, 1e-13));
    assert!(close(normal_quantile(0.95), 1.644_853_626_951_472_2, 1e-13));
    assert!(close(
        normal_quantile(0.001),
        -3.090_232_306_167_813_5,
        1e-12
    ));
    for &p in &[1e-12, 1e-6, 0.01, 0.02425, 0.3, 0.5, 0.77, 0.99, 1.0 - 1e-7] {
        let x = normal_quantile(p);
        let back = normal_cdf(x);
        assert!(close(back / p, 1.0, 1e-8), "p {p}: x {x}, Φ(x) {back}");
    }
    assert_eq!(normal_quantile(0.0), f64::NEG_INFINITY);
    assert_eq!(normal_quantile(1.0), f64::INFINITY);
    assert!(normal_quantile(1.5).is_nan());
}

#[test]
fn elo_and_score_convert_both_ways() {
    assert_eq!(elo_to_score(0.0), 0.5);
    // 400 Elo is 10:1 odds: 10/11.
    assert!(close(elo_to_score(400.0), 10.0 / 11.0, 1e-15));
    assert!(close(score_to_elo(10.0 / 11.0), 400.0, 1e-9));
    assert!(close(score_to_elo(0.75), 400.0 * 3f64.log10(), 1e-9));
    for &e in &[-800.0, -35.0, 0.0, 12.5, 700.0] {
        assert!(close(score_to_elo(elo_to_score(e)), e, 1e-8));
    }
    assert_eq!(score_to_elo(1.0), f64::INFINITY);
    assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
}

#[test]
fn elo_difference_of_a_hand_computed_match() {
    // W = 60, D = 20, L = 20, n = 100:
    // s̄ = (60 + 20/2)/100 = 0.7;
    // σ² = (60·0.3² + 20·0.2² + 20·0.7²)/100 = (5.4 + 0.8 + 9.8)/100 = 0.16;
    // se = √(0.16/100) = 0.04; 1.959964·0.04 = 0.0783986;
    // score interval (0.6216014, 0.7783986);
    // Elo = −400·log10(1/0.7 − 1) = 400·log10(7/3) = 147.1907;
    // interval: 400·log10(0.6216014/0.3783986) = 86.2250,
    //           400·log10(0.7783986/0.2216014) = 218.2518; ± 66.0134.
    // LOS (head to head) = Φ((60 − 20)/√80) = Φ(4.472136) = 0.99999613.
    let w = wdl(60, 20, 20);
    let d = elo_diff(&w).unwrap();
    assert_eq!(d.samples, 100);
    assert!(close(d.score, 0.7, 1e-12));
    assert!(close(d.score_se, 0.04, 1e-12));
    assert!(close(d.score_ci95.0, 0.621_601_4, 1e-7));
    assert!(close(d.score_ci95.1, 0.778_398_6, 1e-7));
    assert!(close(d.elo, 147.1907, 1e-4), "{}", d.elo);
    assert!(close(d.ci95.0, 86.2250, 1e-4), "{:?}", d.ci95);
    assert!(close(d.ci95.1, 218.2518, 1e-4), "{:?}", d.ci95);
    assert!(close(d.margin, 66.0134, 1e-4));
    assert!(close(los_head_to_head(&w), 0.999_996_13, 1e-8));
    // With the empirical variance: Φ(0.2/0.04) = Φ(5) = 0.99999971.
    assert!(close(d.los, 0.999_999_713, 1e-9));

    // Equal results: Elo 0, symmetric interval, LOS ½.
    let even = elo_diff(&wdl(30, 40, 30)).unwrap();
    assert!(close(even.elo, 0.0, 1e-12));
    assert!(close(even.ci95.0, -even.ci95.1, 1e-9));
    assert_eq!(los_head_to_head(&wdl(30, 40, 30)), 0.5);
    assert_eq!(los_head_to_head(&wdl(0, 7, 0)), 0.5);
    assert!(elo_diff(&Wdl::default()).is_none());
    // All won: infinite estimate, zero-width score interval.
    let all = elo_diff(&wdl(5, 0, 0)).unwrap();
    assert_eq!(all.elo, f64::INFINITY);
    assert_eq!(all.los, 1.0);
}

#[test]
fn elo_difference_of_hand_computed_pairs() {
    // Pairs LL, LD, DD/WL, WD, WW = 10, 20, 40, 20, 10: pair scores 0, ¼, ½,
    // ¾, 1; s̄ = 0.5; σ² = (10·¼ + 20·1/16 + 0 + 20·1/16 + 10·¼)/100 = 0.075;
    // se = √(0.075/100) = 0.0273861; score interval 0.5 ± 0.0536757;
    // Elo interval ±400·log10(0.5536757/0.4463243) = ±37.4421.
    let p = Pentanomial::from_counts([10, 20, 40, 20, 10]);
    let d = elo_diff(&p).unwrap();
    assert_eq!(d.samples, 100);
    assert!(close(d.elo, 0.0, 1e-12));
    assert!(close(d.score_se, 0.027_386_13, 1e-8));
    assert!(close(d.ci95.1, 37.4421, 1e-4), "{:?}", d.ci95);
    // Pairs from returns: (win, loss) is DD/WL, (draw, win) is WD.
    let (penta, tri) = pair_counts([(1.0, -1.0), (0.0, 1.0), (-1.0, -1.0), (0.0, 0.0)]);
    assert_eq!(penta.counts, [1, 0, 2, 1, 0]);
    assert_eq!(tri, wdl(2, 3, 3));
}

#[test]
fn wilson_interval_of_a_hand_computed_case() {
    // 30 of 50, z = 1.96: p = 0.6, z² = 3.8416;
    // centre = 0.6 + 3.8416/100 = 0.638416;
    // half = 1.96·√(0.24/50 + 3.8416/10000) = 1.96·√0.00518416 = 0.1411222;
    // denominator = 1 + 3.8416/50 = 1.076832
    // → (0.497194/1.076832, 0.779538/1.076832) = (0.461812, 0.723918).
    let (lo, hi) = wilson(30, 50, 1.96);
    assert!(close(lo, 0.461_812, 1e-6), "{lo}");
    assert!(close(hi, 0.723_918, 1e-6), "{hi}");
}

#[test]
fn results_keep_both_views() {
    let mut r = Results::with_names(["a", "b", "c"]);
    r.add(0, 1, wdl(3, 2, 1));
    r.add(2, 0, wdl(1, 0, 4));
    r.add_game(1, 2, 1.0);
    r.add_game(1, 2, 0.0);
    assert_eq!(r.head_to_head(1, 0), wdl(1, 2, 3));
    assert_eq!(r.head_to_head(0, 2), wdl(4, 0, 1));
    assert_eq!(r.head_to_head(2, 1), wdl(0, 1, 1));
    assert_eq!(r.totals(0), wdl(7, 2, 2));
    assert_eq!(r.games(), 13);
    assert_eq!(r.index_of("c"), Some(2));
    assert_eq!(r.len(), 3);
}

#[test]
fn two_players_fit_the_hand_computed_rating_and_interval() {
    // 30 wins, 20 draws, 10 losses, no prior: the fitted expected score is
    // the score 40/60 = 2/3, so the rating is 400·log10(2) = 120.412 Elo.
    // Information n·p(1−p) = 60·(2/3)(1/3) = 13.333 per natural unit², so
    // se = 400/ln10 / √13.333 = 173.71779·0.2738613 = 47.57458 Elo.
    let mut r = Results::new(2);
    r.add(1, 0, wdl(30, 20, 10));
    let opts = FitOptions {
        prior_draws: 0.0,
        ..FitOptions::default()
    };
    let fit = r.fit(&opts).unwrap();
    assert_eq!(fit.rating(0), 0.0);
    assert_eq!(fit.players[0].se, 0.0);
    assert!(close(fit.rating(1), 120.411_998, 1e-5), "{}", fit.rating(1));
    assert!(
        close(fit.players[1].se, 47.574_58, 1e-4),
        "{}",
        fit.players[1].se
    );
    assert!(close(
        fit.players[1].ci95.1 - fit.rating(1),
        Z95 * 47.574_58,
        1e-3
    ));
    assert_eq!(fit.players[1].score, Some(2.0 / 3.0));
    assert!(close(fit.expected_score(1, 0), 2.0 / 3.0, 1e-9));
    // LOS from the fit: Φ(120.412/47.57458) = Φ(2.531).
    assert!(close(
        fit.los(1, 0),
        normal_cdf(120.411_998 / 47.574_58),
        1e-6
    ));
    // One virtual draw against the anchor pulls the rating a little to 0.
    let shrunk = r.fit(&FitOptions::default()).unwrap();
    assert!(shrunk.rating(1) < fit.rating(1) && shrunk.rating(1) > fit.rating(1) - 5.0);
    // Anchored elsewhere, at 1000: the same difference.
    let moved = r
        .fit(&FitOptions {
            anchor: 1,
            anchor_rating: 1000.0,
            ..opts
        })
        .unwrap();
    assert_eq!(moved.rating(1), 1000.0);
    assert!(close(moved.rating(1) - moved.rating(0), 120.411_998, 1e-5));
}

/// A round robin between players of these true ratings, `games` per pair,
/// draws with probability 0.6·min(s, 1 − s) (30% between equals), so that
/// the expected score is exactly the Elo formula's.
fn round_robin(truth: &[f64], games: u64, seed: u64) -> Results {
    let mut r = Results::new(truth.len());
    for i in 0..truth.len() {
        for j in i + 1..truth.len() {
            let mut rng = stream(seed, &[i as u64, j as u64]);
            let s = elo_to_score(truth[i] - truth[j]);
            let draw = 0.6 * s.min(1.0 - s);
            for _ in 0..games {
                r.add_game(i, j, game(&mut rng, s, draw));
            }
        }
    }
    r
}

const TRUTH: [f64; 6] = [0.0, 50.0, 100.0, 200.0, 300.0, 500.0];

#[test]
fn the_fit_recovers_planted_strengths() {
    let r = round_robin(&TRUTH, 400, 1);
    let fit = r.fit(&FitOptions::default()).unwrap();
    assert!(fit.iterations < 20, "{} Newton steps", fit.iterations);
    let mut inside = 0;
    for (i, p) in fit.players.iter().enumerate().skip(1) {
        let (lo, hi) = p.ci95;
        println!(
            "player {i}: truth {:5.0}, fit {:7.1} ({lo:7.1}, {hi:7.1}), score {:.3}",
            TRUTH[i],
            p.rating,
            p.score.unwrap()
        );
        if (lo..=hi).contains(&TRUTH[i]) {
            inside += 1;
        }
        assert_eq!(p.games, 2000);
    }
    assert!(inside >= 4, "{inside} of 5 intervals hold the truth");
    assert_eq!(fit.ranking(), vec![5, 4, 3, 2, 1, 0]);
    // 50 Elo apart at 2,000 games each: player 2 is surely above player 1.
    assert!(fit.los(2, 1) > 0.99, "{}", fit.los(2, 1));
    assert!(close(fit.los(2, 1) + fit.los(1, 2), 1.0, 1e-12));

    // Coverage over 30 tournaments: the half-point intervals (a little
    // conservative with draws) hold the truth about 95% of the time or more.
    let (mut held, mut total) = (0, 0);
    for seed in 100..130 {
        let fit = round_robin(&TRUTH, 100, seed)
            .fit(&FitOptions::default())
            .unwrap();
        for (i, p) in fit.players.iter().enumerate().skip(1) {
            total += 1;
            if (p.ci95.0..=p.ci95.1).contains(&TRUTH[i]) {
                held += 1;
            }
        }
    }
    println!("coverage {held}/{total}");
    assert!(held as f64 >= 0.9 * total as f64, "coverage {held}/{total}");
}

#[test]
fn intervals_shrink_as_one_over_root_games() {
    let few = round_robin(&TRUTH, 50, 2)
        .fit(&FitOptions::default())
        .unwrap();
    let many = round_robin(&TRUTH, 800, 3)
        .fit(&FitOptions::default())
        .unwrap();
    // 16 times the games: a quarter of the width.
    for i in 1..TRUTH.len() {
        let ratio = few.players[i].se / many.players[i].se;
        println!(
            "player {i}: se {:.1} → {:.1}, ratio {ratio:.2}",
            few.players[i].se, many.players[i].se
        );
        assert!((3.4..=4.6).contains(&ratio), "player {i}: ratio {ratio}");
    }
}

#[test]
fn davidson_fit_recovers_strengths_and_the_draw_rate() {
    // Simulate Davidson's model with ν = 1 (a third of games between equals
    // drawn): P(win) = e^{d/2}/Z, P(draw) = ν/Z, d in natural units.
    let nu = 1.0f64;
    let truth = [0.0, 100.0, 250.0, 400.0];
    let mut r = Results::new(truth.len());
    for i in 0..truth.len() {
        for j in i + 1..truth.len() {
            let mut rng = stream(4, &[i as u64, j as u64]);
            let d = (truth[i] - truth[j]) * std::f64::consts::LN_10 / 400.0;
            let z = (d / 2.0).exp() + (-d / 2.0).exp() + nu;
            let (pw, pd) = ((d / 2.0).exp() / z, nu / z);
            for _ in 0..600 {
                r.add_game(i, j, game(&mut rng, pw + pd / 2.0, pd));
            }
        }
    }
    let opts = FitOptions {
        draw_model: DrawModel::Davidson,
        ..FitOptions::default()
    };
    let fit = r.fit(&opts).unwrap();
    let fitted_nu = fit.draw_nu.unwrap();
    println!("ν = {fitted_nu:.3}, {} steps", fit.iterations);
    assert!(close(fitted_nu, nu, 0.15), "ν {fitted_nu}");
    let mut inside = 0;
    for (i, p) in fit.players.iter().enumerate().skip(1) {
        println!(
            "player {i}: truth {}, fit {:.1} ± {:.1}",
            truth[i],
            p.rating,
            Z95 * p.se
        );
        if (p.ci95.0..=p.ci95.1).contains(&truth[i]) {
            inside += 1;
        }
    }
    assert!(inside >= 2, "{inside} of 3");
    assert_eq!(fit.ranking(), vec![3, 2, 1, 0]);
    // The half-point model on the same games gives smaller differences.
    let half = r.fit(&FitOptions::default()).unwrap();
    assert!(half.rating(3) < fit.rating(3));
    // Without draws Davidson is the plain model (ν = 0).
    let mut decisive = Results::new(2);
    decisive.add(0, 1, wdl(7, 0, 3));
    let a = decisive.fit(&opts).unwrap();
    let b = decisive.fit(&FitOptions::default()).unwrap();
    assert_eq!(a.draw_nu, Some(0.0));
    assert!(close(a.rating(1), b.rating(1), 1e-9));
    // Only draws: no ν.
    let mut drawn = Results::new(2);
    drawn.add(0, 1, wdl(0, 5, 0));
    assert_eq!(drawn.fit(&opts), Err(RatingError::AllDraws));
}

#[test]
fn perfect_players_get_finite_ratings_and_wide_intervals() {
    // Four ordinary players, a fifth who won all its games (20 against each),
    // a sixth who lost all of its (10 against each of the first four) and a
    // seventh who never played.
    let base = round_robin(&[0.0, 100.0, 200.0, 300.0], 100, 5);
    let mut r = Results::new(7);
    for i in 0..4 {
        for j in 0..4 {
            if i < j {
                r.add(i, j, base.head_to_head(i, j));
            }
        }
        r.add(4, i, wdl(20, 0, 0));
        r.add(5, i, wdl(0, 0, 10));
    }
    let fit = r.fit(&FitOptions::default()).unwrap();
    for p in &fit.players {
        println!(
            "{}: {:.1} ({:.1}, {:.1})",
            p.name, p.rating, p.ci95.0, p.ci95.1
        );
        assert!(p.rating.is_finite() && p.ci95.0.is_finite() && p.ci95.1.is_finite());
    }
    let top = &fit.players[4];
    let best_other = (0..4).map(|i| fit.rating(i)).fold(f64::MIN, f64::max);
    assert!(
        top.rating > best_other + 100.0,
        "{} vs {best_other}",
        top.rating
    );
    assert!(top.ci95.1 - top.ci95.0 > 200.0, "{:?}", top.ci95);
    assert_eq!(fit.ranking()[0], 4);
    assert_eq!(*fit.ranking().last().unwrap(), 5);
    let bottom = &fit.players[5];
    assert!(bottom.ci95.1 - bottom.ci95.0 > 200.0);
    // The player without games sits at the anchor with the prior's width:
    // one virtual draw, information ¼, se = 2·400/ln10 = 347.4 Elo.
    let idle = &fit.players[6];
    assert!(close(idle.rating, 0.0, 1e-6));
    assert!(
        close(idle.se, 2.0 * 400.0 / std::f64::consts::LN_10, 1e-3),
        "{}",
        idle.se
    );
    assert_eq!(idle.score, None);
    // Without the prior there is no finite maximum.
    let bare = FitOptions {
        prior_draws: 0.0,
        ..FitOptions::default()
    };
    assert!(matches!(
        r.fit(&bare),
        Err(RatingError::NotConverged(_) | RatingError::Singular)
    ));
    assert!(matches!(
        r.fit(&FitOptions {
            anchor: 9,
            ..FitOptions::default()
        }),
        Err(RatingError::BadAnchor { .. })
    ));
}

#[test]
fn sprt_checks_its_arguments_and_bounds() {
    assert_eq!(
        Sprt::new(0.0, 5.0, 0.5, 0.05),
        Err(SprtError::BadAlpha(0.5))
    );
    assert_eq!(Sprt::new(0.0, 5.0, 0.05, 0.0), Err(SprtError::BadBeta(0.0)));
    assert!(matches!(
        Sprt::new(5.0, 5.0, 0.05, 0.05),
        Err(SprtError::BadElo { .. })
    ));
    assert!(Sprt::new(0.0, f64::NAN, 0.05, 0.05).is_err());
    let t = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    // ln(0.05/0.95) = −2.944439, ln(0.95/0.05) = 2.944439.
    assert!(close(t.lower(), -2.944_439, 1e-6));
    assert!(close(t.upper(), 2.944_439, 1e-6));
    let u = Sprt::new(-3.0, 1.0, 0.1, 0.02).unwrap();
    assert!(close(u.lower(), (0.02f64 / 0.9).ln(), 1e-15));
    assert!(close(u.upper(), (0.98f64 / 0.1).ln(), 1e-15));
}

#[test]
fn sprt_llr_of_a_hand_computed_case() {
    // elo0 = 0, elo1 = 10: s0 = 0.5, s1 = 1/(1 + 10^(−1/40)) = 0.5143872.
    // W = 1050, D = 1000, L = 950, n = 3000: s̄ = 1550/3000 = 0.5166667;
    // σ² = (1050·0.4833333² + 1000·0.0166667² + 950·0.5166667²)/3000
    //    = 0.1663889;
    // LLR = 3000·0.0143872·(1.0333333 − 1.0143872)/(2·0.1663889) = 2.457331,
    // below 2.944439: continue.
    let t = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    let w = wdl(1050, 1000, 950);
    assert!(close(t.llr(&w), 2.457_331, 1e-5), "{}", t.llr(&w));
    assert_eq!(t.status(&w), SprtStatus::Continue);
    assert_eq!(t.status(&wdl(1150, 1000, 850)), SprtStatus::AcceptH1);
    assert_eq!(t.status(&wdl(950, 1000, 1050)), SprtStatus::AcceptH0);
    assert_eq!(t.llr(&Wdl::default()), 0.0);
    assert_eq!(t.llr(&wdl(0, 9, 0)), 0.0);
    // The exact GSPRT agrees closely, on games and on pairs.
    let exact = t.llr_exact(&w);
    assert!(close(exact, 2.457_331, 0.03), "{exact}");
    let p = Pentanomial::from_counts([40, 260, 700, 300, 50]);
    let (a, e) = (t.llr(&p), t.llr_exact(&p));
    println!("pairs: approx {a:.4}, exact {e:.4}");
    assert!(close(a, e, 0.02 * a.abs() + 0.01));
    assert_eq!(t.status_of(t.upper()), SprtStatus::AcceptH1);
    assert_eq!(t.status_of(t.lower()), SprtStatus::AcceptH0);
}

/// What a batch of simulated tests did.
#[derive(Debug, Default)]
struct Batch {
    h0: u32,
    h1: u32,
    capped: u32,
    games: u64,
}

const CAP: u64 = 100_000;

/// `tests` trinomial SPRTs on single games at the true Elo: draw rate 40%.
fn run_trinomial(t: &Sprt, elo: f64, tests: u64, seed: u64) -> Batch {
    let s = elo_to_score(elo);
    let mut b = Batch::default();
    for k in 0..tests {
        let mut rng = stream(seed, &[k]);
        let mut w = Wdl::default();
        let status = loop {
            match game(&mut rng, s, 0.4) {
                r if r > 0.0 => w.wins += 1,
                r if r < 0.0 => w.losses += 1,
                _ => w.draws += 1,
            }
            let st = t.status(&w);
            if st != SprtStatus::Continue || w.games() >= CAP {
                break st;
            }
        };
        b.games += w.games();
        match status {
            SprtStatus::AcceptH0 => b.h0 += 1,
            SprtStatus::AcceptH1 => b.h1 += 1,
            SprtStatus::Continue => b.capped += 1,
        }
    }
    b
}

/// `tests` SPRTs on game pairs at the true Elo: each pair's opening favours
/// one side by δ ~ U(−0.12, 0.12) in expected score (the tested player gets
/// s + δ in one game and s − δ in the other), draw rate 40%. Counted as
/// pentanomial pairs, or as the same games trinomially.
fn run_pairs(t: &Sprt, elo: f64, tests: u64, seed: u64, pentanomial: bool) -> Batch {
    let s = elo_to_score(elo);
    let mut b = Batch::default();
    for k in 0..tests {
        let mut rng = stream(seed, &[k]);
        let mut p = Pentanomial::new();
        let mut w = Wdl::default();
        let status = loop {
            let delta = (rng.random::<f64>() - 0.5) * 0.24;
            let (g1, g2) = (
                game(&mut rng, s + delta, 0.4),
                game(&mut rng, s - delta, 0.4),
            );
            p.add_pair(g1, g2);
            for r in [g1, g2] {
                match r {
                    r if r > 0.0 => w.wins += 1,
                    r if r < 0.0 => w.losses += 1,
                    _ => w.draws += 1,
                }
            }
            let st = if pentanomial {
                t.status(&p)
            } else {
                t.status(&w)
            };
            if st != SprtStatus::Continue || w.games() >= CAP {
                break st;
            }
        };
        b.games += w.games();
        match status {
            SprtStatus::AcceptH0 => b.h0 += 1,
            SprtStatus::AcceptH1 => b.h1 += 1,
            SprtStatus::Continue => b.capped += 1,
        }
    }
    b
}

const TESTS: u64 = 1000;

#[test]
fn trinomial_sprt_keeps_its_error_rates() {
    // elo0 = 0, elo1 = 10, α = β = 0.05; a test still running after
    // 100,000 games counts as a failure.
    let t = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    let at0 = run_trinomial(&t, 0.0, TESTS, 10);
    let at1 = run_trinomial(&t, 10.0, TESTS, 11);
    println!(
        "trinomial: at elo0 H0 {} H1 {} capped {}, mean {} games; at elo1 H0 {} H1 {} capped {}, mean {} games",
        at0.h0, at0.h1, at0.capped, at0.games / TESTS, at1.h0, at1.h1, at1.capped, at1.games / TESTS
    );
    assert!(at0.h0 >= 930, "{at0:?}");
    assert!(at1.h1 >= 930, "{at1:?}");
}

#[test]
fn pentanomial_sprt_keeps_its_error_rates_in_fewer_games() {
    let t = Sprt::new(0.0, 10.0, 0.05, 0.05).unwrap();
    let at0 = run_pairs(&t, 0.0, TESTS, 20, true);
    let at1 = run_pairs(&t, 10.0, TESTS, 21, true);
    println!(
        "pentanomial: at elo0 H0 {} H1 {} capped {}, mean {} games; at elo1 H0 {} H1 {} capped {}, mean {} games",
        at0.h0, at0.h1, at0.capped, at0.games / TESTS, at1.h0, at1.h1, at1.capped, at1.games / TESTS
    );
    assert!(at0.h0 >= 930, "{at0:?}");
    assert!(at1.h1 >= 930, "{at1:?}");
    // The same unbalanced pairs counted trinomially: still valid (the
    // variance is overstated, so the errors are if anything smaller) but
    // longer.
    let tri0 = run_pairs(&t, 0.0, TESTS, 20, false);
    let tri1 = run_pairs(&t, 10.0, TESTS, 21, false);
    println!(
        "same pairs, trinomial: at elo0 H0 {} capped {}, mean {} games; at elo1 H1 {} capped {}, mean {} games",
        tri0.h0, tri0.capped, tri0.games / TESTS, tri1.h1, tri1.capped, tri1.games / TESTS
    );
    assert!(tri0.h0 >= 930 && tri1.h1 >= 930);
    assert!(tri0.games > at0.games && tri1.games > at1.games);
}
