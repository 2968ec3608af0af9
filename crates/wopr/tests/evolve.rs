//! The evolution engine: genome decoding against hand tables, operators'
//! invariants, selection counts, scaling by hand, convergence on benchmark
//! functions, the 1/5 rule by hand, determinism across thread counts, and
//! checkpoint/resume equality.

use rand::RngExt;
use wopr::evolve::cma::jacobi_eigen;
use wopr::evolve::selection::{linear_scaling, rank_weights, roulette, universal};
use wopr::evolve::{
    checkpoint, init_rng, restore, run, step, BitCode, BitGenome, CmaEs, Crossover, Engine,
    EvolveError, Fitness, Ga, Genome, Independent, Levels, Mutation, OnePlusLambda,
    OnePlusLambdaConfig, Plan, RealGenome, Recipe, Scaling, Selection, SelfAdaptiveConfig,
    SelfAdaptiveEs, Share,
};
use wopr::game::rng::{stream, WoprRng};

fn bits(s: &str) -> Vec<bool> {
    s.chars().map(|c| c == '1').collect()
}

fn sphere(x: &[f32]) -> f64 {
    x.iter().map(|&v| f64::from(v).powi(2)).sum()
}

fn rastrigin(x: &[f32]) -> f64 {
    x.iter()
        .map(|&v| {
            let v = f64::from(v);
            v * v - 10.0 * (std::f64::consts::TAU * v).cos() + 10.0
        })
        .sum()
}

fn rosenbrock(x: &[f32]) -> f64 {
    x.windows(2)
        .map(|w| {
            let (a, b) = (f64::from(w[0]), f64::from(w[1]));
            100.0 * (b - a * a).powi(2) + (1.0 - a).powi(2)
        })
        .sum()
}

/// Fitness = −f(decoded weights).
fn minimise<G: Genome>(
    f: fn(&[f32]) -> f64,
) -> Independent<impl Fn(&G, &mut WoprRng) -> f64 + Sync> {
    Independent(move |g: &G, _: &mut WoprRng| -f(&g.decode()))
}

// ---------------------------------------------------------------------------
// Genomes.

#[test]
fn gray_code_hand_table() {
    // The reflected binary code, written out: the k-th string is integer k.
    let table = [
        "00000", "00001", "00011", "00010", "00110", "00111", "00101", "00100", "01100", "01101",
        "01111", "01110", "01010", "01011", "01001", "01000", "11000",
    ];
    let code = BitCode::gray(5, 0.0, 31.0);
    for (k, s) in table.iter().enumerate() {
        let g = BitGenome::from_bits(code, &bits(s)).unwrap();
        assert_eq!(code.integer(g.read(0, 5)), k as u64, "{s}");
        assert_eq!(g.decode(), vec![k as f32], "{s}");
    }
    // All 32: the Gray code of k is k ^ (k >> 1).
    for k in 0..32u64 {
        assert_eq!(code.integer(k ^ (k >> 1)), k);
    }
    // Plain binary reads the same strings as themselves.
    let plain = BitCode::binary(5, 0.0, 31.0);
    let g = BitGenome::from_bits(plain, &bits("00011")).unwrap();
    assert_eq!(g.decode(), vec![3.0]);
}

#[test]
fn thesis_weight_mapping() {
    // Horner Figure 4.2: [-1, 1] to one decimal is 21 values, which needs 5 bits.
    let code = BitCode::thesis();
    assert_eq!(
        (code.bits, code.gray, code.levels),
        (5, true, Levels::Scaled(21))
    );
    // Level = round(v * 20 / 31) for the Gray-decoded integer v (hand-computed:
    // 1*20/31 = 0.65, 2*20/31 = 1.29, 3*20/31 = 1.94, 15*20/31 = 9.68,
    // 16*20/31 = 10.32, 30*20/31 = 19.35).
    let hand = [
        (0, -1.0),
        (1, -0.9),
        (2, -0.9),
        (3, -0.8),
        (15, 0.0),
        (16, 0.0),
        (30, 0.9),
        (31, 1.0),
    ];
    for (v, w) in hand {
        let gray = v ^ (v >> 1);
        assert!(
            (code.value(gray) - w).abs() < 1e-6,
            "v = {v}: {} vs {w}",
            code.value(gray)
        );
    }
    // Every one of the 21 values is reachable, by one or two of the 32 codes,
    // and the mapping never decreases with v.
    let mut count = [0; 21];
    let mut last = -1;
    for v in 0..32u64 {
        let (level, n) = code.level(v);
        assert_eq!(n, 21);
        assert!(level as i64 >= last);
        last = level as i64;
        count[level as usize] += 1;
    }
    assert!(count.iter().all(|&c| c == 1 || c == 2), "{count:?}");
    // Clamping instead: codes 20..31 all mean 1.0.
    let clamped = BitCode {
        levels: Levels::Clamped(21),
        ..code
    };
    assert!((clamped.value(19 ^ (19 >> 1)) - 0.9).abs() < 1e-6);
    for v in 20..32u64 {
        assert_eq!(clamped.value(v ^ (v >> 1)), 1.0);
    }
    assert_eq!(
        BitCode::with_precision(-10.0, 10.0, 2).bits,
        11,
        "the thesis: 2001 values need 11 bits"
    );
}

#[test]
fn weaver_code_and_multiword_decoding() {
    // 1024 evenly spaced values in [-64, 64]: integer v is -64 + 128 v / 1023.
    let code = BitCode::WEAVER;
    assert_eq!(code.value(0), -64.0);
    assert_eq!(code.value(1023), 64.0);
    assert!((code.value(512) - (-64.0 + 128.0 * 512.0 / 1023.0)).abs() < 1e-5);
    // 13 weights of 10 bits cross word boundaries; compare with a bit-by-bit read.
    let mut rng = stream(1, &[0]);
    let g = BitGenome::random(code, 13, &mut rng);
    assert_eq!((g.len(), g.weights()), (130, 13));
    let w = g.decode();
    for (j, &x) in w.iter().enumerate() {
        let v = (0..10).fold(0u64, |v, b| v << 1 | u64::from(g.get(j * 10 + b)));
        assert_eq!(x, code.value(v), "weight {j}");
    }
    assert_eq!(g.to_string().len(), 130);
    assert!(matches!(
        BitGenome::from_bits(code, &[true; 15]),
        Err(EvolveError::Config(_))
    ));
    assert!(BitCode { bits: 0, ..code }.validate().is_err());
    assert!(BitCode {
        levels: Levels::Scaled(2000),
        ..code
    }
    .validate()
    .is_err());
}

// ---------------------------------------------------------------------------
// Operators.

#[test]
fn crossover_preserves_genes_per_position() {
    let code = BitCode::binary(1, 0.0, 1.0);
    let zeros = BitGenome::zeros(code, 150);
    let ones = BitGenome::from_bits(code, &[true; 150]).unwrap();
    for seed in 0..200 {
        let mut rng = stream(seed, &[1]);
        // One-point: child 1 is 0…01…1 with one cut inside, child 2 its complement.
        let (a, b) = zeros.crossover(&ones, &Crossover::OnePoint, &mut rng);
        let s = a.to_string();
        let cut = s.find('1').expect("a cut inside");
        assert!(cut >= 1 && s[cut..].chars().all(|c| c == '1'), "{s}");
        assert_eq!(a.count_ones() + b.count_ones(), 150);
        assert_eq!(a.hamming(&b), 150);
        // Two-point: child 1 is 0…01…10…0 (or with the middle reaching the end never: cuts are interior).
        let (a, b) = zeros.crossover(&ones, &Crossover::TwoPoint, &mut rng);
        let s = a.to_string();
        let (i, j) = (s.find('1').unwrap(), s.rfind('1').unwrap());
        assert!(
            i >= 1 && j <= 148 && s[i..=j].chars().all(|c| c == '1'),
            "{s}"
        );
        assert_eq!(a.hamming(&b), 150);
        // Uniform: complementary children.
        let (a, b) = zeros.crossover(&ones, &Crossover::Uniform, &mut rng);
        assert_eq!(a.hamming(&b), 150);
    }
    // Random parents: at every position the children hold the parents' genes.
    let code = BitCode::WEAVER;
    let mut rng = stream(2, &[0]);
    let (p, q) = (
        BitGenome::random(code, 20, &mut rng),
        BitGenome::random(code, 20, &mut rng),
    );
    for op in [Crossover::OnePoint, Crossover::TwoPoint, Crossover::Uniform] {
        let (a, b) = p.crossover(&q, &op, &mut rng);
        for i in 0..p.len() {
            let mut kids = [a.get(i), b.get(i)];
            let mut parents = [p.get(i), q.get(i)];
            kids.sort();
            parents.sort();
            assert_eq!(kids, parents, "{op:?} bit {i}");
        }
    }
    let (p, q) = (
        RealGenome::uniform(37, -1.0, 1.0, &mut rng),
        RealGenome::uniform(37, -1.0, 1.0, &mut rng),
    );
    for op in [Crossover::OnePoint, Crossover::TwoPoint, Crossover::Uniform] {
        let (a, b) = p.crossover(&q, &op, &mut rng);
        for i in 0..37 {
            let kids = [a.genes[i], b.genes[i]];
            assert!(
                kids == [p.genes[i], q.genes[i]] || kids == [q.genes[i], p.genes[i]],
                "{op:?} gene {i}"
            );
        }
    }
}

#[test]
fn blending_crossovers() {
    let mut rng = stream(3, &[0]);
    let p = RealGenome::uniform(50, -1.0, 1.0, &mut rng);
    let q = RealGenome::uniform(50, -1.0, 1.0, &mut rng);
    let (a, b) = p.crossover(&q, &Crossover::Blx { alpha: 0.5 }, &mut rng);
    for i in 0..50 {
        let (lo, hi) = (p.genes[i].min(q.genes[i]), p.genes[i].max(q.genes[i]));
        let d = 0.5 * (hi - lo) + 1e-6;
        for c in [a.genes[i], b.genes[i]] {
            assert!(
                c >= lo - d && c <= hi + d,
                "BLX gene {i}: {c} outside [{lo}, {hi}] ± {d}"
            );
        }
    }
    // LX moves both children by the same beta·|x − y|: child − parent agrees.
    let (a, b) = p.crossover(
        &q,
        &Crossover::Laplace {
            location: 0.0,
            scale: 0.15,
        },
        &mut rng,
    );
    for i in 0..50 {
        assert!(((a.genes[i] - p.genes[i]) - (b.genes[i] - q.genes[i])).abs() < 1e-5);
    }
}

#[test]
fn bit_flip_rates() {
    let code = BitCode::binary(1, 0.0, 1.0);
    let mut rng = stream(4, &[0]);
    let mut g = BitGenome::zeros(code, 1000);
    g.mutate(&Mutation::BitFlip { rate: 0.0 }, &mut rng);
    assert_eq!(g.count_ones(), 0);
    g.mutate(&Mutation::BitFlip { rate: 1.0 }, &mut rng);
    assert_eq!(g.count_ones(), 1000);
    // 200 genomes of 1000 bits at rate 0.01: 2000 flips expected, standard
    // deviation sqrt(200000 · 0.01 · 0.99) ≈ 44.5; allow 5 of them.
    let flips: u32 = (0..200)
        .map(|_| {
            let mut g = BitGenome::zeros(code, 1000);
            g.mutate(&Mutation::BitFlip { rate: 0.01 }, &mut rng);
            g.count_ones()
        })
        .sum();
    assert!((flips as f64 - 2000.0).abs() < 5.0 * 44.5, "{flips} flips");
}

#[test]
fn pruned_genes_stay_zero() {
    let mut rng = stream(5, &[0]);
    let mut g = RealGenome::uniform(200, 0.5, 1.0, &mut rng).with_sigmas(0.3);
    g.mutate(&Mutation::Prune { rate: 0.25 }, &mut rng);
    let pruned: Vec<usize> = (0..200).filter(|&i| g.is_pruned(i)).collect();
    assert_eq!(pruned.len(), g.pruned_count());
    assert!(
        pruned.len() > 20 && pruned.len() < 80,
        "{} pruned at rate 0.25",
        pruned.len()
    );
    let other = RealGenome::uniform(200, 0.5, 1.0, &mut rng).with_sigmas(0.3);
    let ops = [
        Mutation::Gaussian {
            rate: 1.0,
            sigma: 1.0,
        },
        Mutation::Creep {
            rate: 1.0,
            step: 0.5,
            lo: -2.0,
            hi: 2.0,
        },
        Mutation::SelfAdaptive {
            tau_scale: 1.0,
            tau_prime_scale: 1.0,
            min_sigma: 0.0,
        },
    ];
    for _ in 0..5 {
        for op in &ops {
            g.mutate(op, &mut rng);
        }
        let (a, _) = g.crossover(&other, &Crossover::Blx { alpha: 0.5 }, &mut rng);
        let (b, _) = g.crossover(
            &other,
            &Crossover::Laplace {
                location: 0.0,
                scale: 0.15,
            },
            &mut rng,
        );
        for i in &pruned {
            assert_eq!(
                (g.genes[*i], a.genes[*i], b.genes[*i]),
                (0.0, 0.0, 0.0),
                "gene {i}"
            );
            assert!(a.is_pruned(*i) && b.is_pruned(*i));
        }
    }
    assert!(g.genes.iter().filter(|&&x| x != 0.0).count() >= 200 - pruned.len() - 1);
    // Positional crossover: a pruned gene moves with its position and stays zero.
    for op in [Crossover::OnePoint, Crossover::TwoPoint, Crossover::Uniform] {
        let (a, b) = g.crossover(&other, &op, &mut rng);
        for i in &pruned {
            assert!(a.is_pruned(*i) != b.is_pruned(*i));
            let kid = if a.is_pruned(*i) { &a } else { &b };
            assert_eq!(kid.genes[*i], 0.0);
        }
        assert_eq!(a.pruned_count() + b.pruned_count(), pruned.len());
    }
}

#[test]
fn operators_check_their_genome() {
    let code = BitCode::WEAVER;
    let bit = BitGenome::zeros(code, 3);
    let real = RealGenome::new(vec![0.0; 3]);
    assert!(bit
        .check_mutation(&Mutation::Gaussian {
            rate: 0.1,
            sigma: 0.1
        })
        .is_err());
    assert!(bit.check_crossover(&Crossover::Blx { alpha: 0.5 }).is_err());
    assert!(real
        .check_mutation(&Mutation::BitFlip { rate: 0.1 })
        .is_err());
    let err = real
        .check_mutation(&Mutation::SelfAdaptive {
            tau_scale: 1.0,
            tau_prime_scale: 0.0,
            min_sigma: 0.0,
        })
        .unwrap_err();
    assert!(err.to_string().contains("with_sigmas"), "{err}");
    assert!(bit
        .check_mutation(&Mutation::BitFlip { rate: 1.5 })
        .is_err());
    let plan = Plan::thesis_real();
    assert!(Ga::new(plan, 0, vec![bit.clone()]).is_err());
    assert!(
        Ga::new(Plan::naveed(0.2), 0, vec![real.clone()]).is_err(),
        "Naveed needs step sizes"
    );
    assert!(Ga::new(Plan::naveed(0.2), 0, vec![real.with_sigmas(0.05)]).is_ok());
    assert!(Ga::new(Plan::weaver(0.005, true, 100), 0, vec![bit]).is_ok());
}

// ---------------------------------------------------------------------------
// Selection and scaling.

#[test]
fn universal_sampling_gives_floor_or_ceiling() {
    // Weights 1:2:3:4 and 10 picks: exactly 1, 2, 3, 4 copies, whatever the spin.
    for seed in 0..100 {
        let picks = universal(&[1.0, 2.0, 3.0, 4.0], 10, &mut stream(seed, &[0]));
        let mut count = [0; 4];
        picks.iter().for_each(|&i| count[i] += 1);
        assert_eq!(count, [1, 2, 3, 4]);
    }
    // Expected copies 7·w/6 = 0.583, 1.75, 3.5, 1.167, 0: floor or ceiling.
    let w = [0.5, 1.5, 3.0, 1.0, 0.0];
    for seed in 0..1000 {
        let picks = universal(&w, 7, &mut stream(seed, &[1]));
        let mut count = [0; 5];
        picks.iter().for_each(|&i| count[i] += 1);
        for (i, &c) in count.iter().enumerate() {
            let e = 7.0 * w[i] / 6.0;
            assert!(c == e.floor() as i32 || c == e.ceil() as i32, "{count:?}");
        }
    }
    // Through Selection: same counts, shuffled order.
    let picks = Selection::Universal.select(&[1.0, 2.0, 3.0, 4.0], 10, &mut stream(9, &[0]));
    assert_eq!(picks.iter().filter(|&&i| i == 3).count(), 4);
}

#[test]
fn roulette_frequencies() {
    // Weights 1:2:3:4 → probabilities 0.1 … 0.4. Over 100 000 draws the standard
    // error is at most sqrt(0.25 / 1e5) = 0.0016; allow 0.008 (5 of them).
    let n = 100_000;
    let picks = roulette(&[1.0, 2.0, 3.0, 4.0], n, &mut stream(6, &[0]));
    for (i, p) in [0.1, 0.2, 0.3, 0.4].iter().enumerate() {
        let f = picks.iter().filter(|&&x| x == i).count() as f64 / n as f64;
        assert!((f - p).abs() < 0.008, "index {i}: {f} vs {p}");
    }
    // Negative weights count as zero; all zero falls back to uniform.
    let picks = roulette(&[-5.0, 0.0, 2.0], 1000, &mut stream(6, &[1]));
    assert!(picks.iter().all(|&i| i == 2));
    let picks = roulette(&[0.0, 0.0], 1000, &mut stream(6, &[2]));
    assert!(picks.contains(&0) && picks.contains(&1));
}

#[test]
fn rank_truncation_and_tournament() {
    // Fitness 5, 1, 3, 3: ranks (0 = worst) 3, 0, 1.5, 1.5 (the tie shares 1 and 2).
    let f = [5.0, 1.0, 3.0, 3.0];
    assert_eq!(rank_weights(&f, None), vec![4.0, 1.0, 2.5, 2.5]);
    // Baker with pressure 2: (2 − 2) + 2·(2 − 1)·rank/3.
    assert_eq!(rank_weights(&f, Some(2.0)), vec![2.0, 0.0, 1.0, 1.0]);
    assert_eq!(rank_weights(&f, Some(1.0)), vec![1.0; 4]);
    let mut rng = stream(7, &[0]);
    let picks =
        Selection::Truncation { fraction: 0.5 }.select(&[5.0, 1.0, 3.0, 4.0], 500, &mut rng);
    assert!(picks.iter().all(|&i| i == 0 || i == 3));
    assert!(picks.contains(&0) && picks.contains(&3));
    // A tournament as large as… any size ≥ 2 never picks the worst of two.
    let picks = Selection::Tournament { size: 2 }.select(&[1.0, 2.0], 200, &mut rng);
    let best = picks.iter().filter(|&&i| i == 1).count();
    // P(best) = 1 − 1/4 = 0.75 per draw: 150 expected, sd 6.1.
    assert!((best as f64 - 150.0).abs() < 31.0, "{best}");
    // Rank selection by SUS: proportional to rank 1..4 over 10 picks → 1, 2, 3, 4.
    let picks = Selection::Rank {
        pressure: None,
        universal: true,
    }
    .select(&[0.1, 0.2, 0.3, 0.4], 10, &mut rng);
    let mut count = [0; 4];
    picks.iter().for_each(|&i| count[i] += 1);
    assert_eq!(count, [1, 2, 3, 4]);
}

#[test]
fn goldberg_linear_scaling_by_hand() {
    // avg 4, max 10, min 1, c = 2: the normal case, a = (c−1)·avg/(max−avg) = 2/3,
    // b = avg·(max − c·avg)/(max − avg) = 4/3.
    let mut f = vec![1.0, 2.0, 3.0, 4.0, 10.0];
    linear_scaling(&mut f, 2.0);
    let want = [2.0, 8.0 / 3.0, 10.0 / 3.0, 4.0, 8.0];
    for (x, w) in f.iter().zip(want) {
        assert!((x - w).abs() < 1e-12, "{f:?}");
    }
    // avg 7.4, max 9, min 1: (2·7.4 − 9)/1 = 5.8 ≥ 1, so the worst would go
    // negative; the fallback maps 1 → 0 keeping the mean: a = 7.4/6.4, b = −7.4/6.4.
    let mut f = vec![1.0, 9.0, 9.0, 9.0, 9.0];
    linear_scaling(&mut f, 2.0);
    assert!(f[0].abs() < 1e-12 && (f[1] - 9.25).abs() < 1e-12, "{f:?}");
    assert!((f.iter().sum::<f64>() / 5.0 - 7.4).abs() < 1e-12);
    // Weaver: a small constant keeps an all-zero population selectable.
    let s = Scaling {
        offset: 0.01,
        ..Scaling::goldberg()
    };
    assert_eq!(s.apply(&[0.0, 0.0]), vec![0.01, 0.01]);
    let s = Scaling {
        shift_min: true,
        offset: 1.0,
        linear: None,
    };
    assert_eq!(s.apply(&[-4.0, 2.0, 0.0]), vec![1.0, 7.0, 5.0]);
}

// ---------------------------------------------------------------------------
// Engines on benchmark functions.

fn onemax_population(seed: u64, n: usize, len: usize) -> Vec<BitGenome> {
    let code = BitCode::binary(1, 0.0, 1.0);
    (0..n)
        .map(|i| BitGenome::random(code, len, &mut init_rng(seed, i as u64)))
        .collect()
}

fn onemax() -> Independent<impl Fn(&BitGenome, &mut WoprRng) -> f64 + Sync> {
    Independent(|g: &BitGenome, _: &mut WoprRng| f64::from(g.count_ones()))
}

#[test]
fn onemax_reaches_the_optimum() {
    // 100 bits. The thesis's plan (best half survives, rank-proportional SUS
    // parents, one-point crossover then mutation) with a 1/L mutation rate.
    let plan = Plan {
        recipes: vec![Recipe::new(
            1.0,
            Some(Crossover::OnePoint),
            vec![Mutation::BitFlip { rate: 0.01 }],
        )],
        ..Plan::thesis_binary()
    };
    let mut ga = Ga::new(plan, 11, onemax_population(11, 50, 100)).unwrap();
    let stats = run(&mut ga, &onemax(), 200);
    let hit = stats
        .iter()
        .position(|s| s.best == 100.0)
        .expect("OneMax optimum within 200 generations");
    assert!(stats[hit].diversity < stats[0].diversity);
    // Weaver's plan (roulette, single elitism, one-point 0.6) with tournament
    // selection instead of roulette, for pressure near the optimum.
    let plan = Plan {
        selection: Selection::Tournament { size: 3 },
        ..Plan::weaver(0.01, false, 50)
    };
    let mut ga = Ga::new(plan, 12, onemax_population(12, 50, 100)).unwrap();
    let stats = run(&mut ga, &onemax(), 200);
    assert!(
        stats.iter().any(|s| s.best == 100.0),
        "best {}",
        stats.last().unwrap().best
    );
    // Best never drops under elitism.
    assert!(stats.windows(2).all(|w| w[1].best >= w[0].best));
}

#[test]
fn real_ga_on_sphere() {
    // The thesis's real-valued plan on a 10-D sphere within [-1, 1]^10: below
    // 0.01 after 300 generations (seeds 0-9 end between 1.5e-3 and 7.7e-3).
    let pop: Vec<RealGenome> = (0..40)
        .map(|i| RealGenome::uniform(10, -1.0, 1.0, &mut init_rng(21, i)))
        .collect();
    let start = pop
        .iter()
        .map(|g| sphere(&g.genes))
        .fold(f64::INFINITY, f64::min);
    let mut ga = Ga::new(Plan::thesis_real(), 21, pop).unwrap();
    let stats = run(&mut ga, &minimise::<RealGenome>(sphere), 300);
    let end = -stats.last().unwrap().best;
    assert!(
        end < 1e-2 && end < start / 100.0,
        "sphere: {start} -> {end}"
    );
    // Naveed & Cowling's plan (top third, two-point crossover 0.2,
    // self-adaptive Gaussian mutation) on the same sphere, from step size 0.1.
    let pop: Vec<RealGenome> = (0..30)
        .map(|i| RealGenome::uniform(10, -1.0, 1.0, &mut init_rng(23, i)).with_sigmas(0.1))
        .collect();
    let mut ga = Ga::new(Plan::naveed(0.2), 23, pop).unwrap();
    let stats = run(&mut ga, &minimise::<RealGenome>(sphere), 300);
    assert!(
        -stats.last().unwrap().best < 1e-4,
        "naveed sphere: {}",
        -stats.last().unwrap().best
    );
}

/// Rastrigin-lite: the 2-D Rastrigin function on [-5.12, 5.12]², global
/// minimum 0 at the origin, other local minima at least 0.995.
#[test]
fn real_ga_on_rastrigin_lite() {
    // A GA with BLX-0.5 and Gaussian mutation (thesis survival and selection):
    // 8 of seeds 0-9 find the global minimum's basin; ask for 6.
    let plan = Plan {
        recipes: vec![Recipe::new(
            1.0,
            Some(Crossover::Blx { alpha: 0.5 }),
            vec![Mutation::Gaussian {
                rate: 0.5,
                sigma: 0.1,
            }],
        )],
        ..Plan::thesis_real()
    };
    let hits = (0..10)
        .filter(|&seed| {
            let pop: Vec<RealGenome> = (0..60)
                .map(|i| RealGenome::uniform(2, -5.12, 5.12, &mut init_rng(seed, i)))
                .collect();
            let mut ga = Ga::new(plan.clone(), seed, pop).unwrap();
            let stats = run(&mut ga, &minimise::<RealGenome>(rastrigin), 200);
            -stats.last().unwrap().best < 1e-3
        })
        .count();
    assert!(hits >= 6, "{hits} of 10 runs found the global minimum");
}

#[test]
fn one_plus_lambda_on_sphere() {
    let mut config = OnePlusLambdaConfig::handa_tictactoe();
    config.prune_rate = 0.0;
    config.sigma = 0.5;
    let parent = RealGenome::uniform(10, -3.0, 3.0, &mut init_rng(31, 0));
    let start = sphere(&parent.genes);
    let mut es = OnePlusLambda::new(config, 31, parent).unwrap();
    run(&mut es, &minimise::<RealGenome>(sphere), 1500);
    let end = sphere(&es.parent().genes);
    assert!(end < 1e-6, "{start} -> {end}, sigma {}", es.sigma());
    assert!(
        es.sigma() < 0.01,
        "sigma shrinks near the optimum: {}",
        es.sigma()
    );
    // With pruning, the parent accumulates pruned (zero) weights, harmless here.
    let parent = RealGenome::uniform(10, -3.0, 3.0, &mut init_rng(32, 0));
    let mut es = OnePlusLambda::new(OnePlusLambdaConfig::handa_reversi(), 32, parent).unwrap();
    run(&mut es, &minimise::<RealGenome>(sphere), 300);
    assert!(es.parent().pruned_count() > 0);
    assert_eq!(es.population().len(), 20);
}

#[test]
fn one_fifth_rule_by_hand() {
    let config = OnePlusLambdaConfig {
        window: 1,
        lambda: 10,
        ..OnePlusLambdaConfig::handa_tictactoe()
    };
    let mut es = OnePlusLambda::new(config, 1, RealGenome::new(vec![0.0; 4])).unwrap();
    let told = |successes: usize| -> Vec<f64> {
        // Parent scores 0; `successes` children score 1, the rest −1.
        let mut f = vec![0.0];
        f.extend((0..10).map(|i| if i < successes { 1.0 } else { -1.0 }));
        f
    };
    // 3 of 10 > 1/5: σ = 0.05 / 0.817.
    es.tell(&told(3));
    assert!((es.sigma() - 0.05 / 0.817).abs() < 1e-12);
    // 1 of 10 < 1/5: σ = 0.05 / 0.817 · 0.817 = 0.05.
    es.tell(&told(1));
    assert!((es.sigma() - 0.05).abs() < 1e-12);
    // Exactly 2 of 10 = 1/5: unchanged.
    es.tell(&told(2));
    assert!((es.sigma() - 0.05).abs() < 1e-12);
    // A tie with the parent is no success but still replaces it.
    let child = es.population()[1].clone();
    let mut f = vec![0.0; 11];
    f[0] = 0.0;
    es.tell(&f);
    assert!((es.sigma() - 0.05 * 0.817).abs() < 1e-12);
    assert_eq!(es.parent(), &child);
    // Window of 2 generations: 1 then 4 successes = 5 of 20 > 1/5 → σ/0.817,
    // and nothing changes after the first generation of the window.
    let config = OnePlusLambdaConfig {
        window: 2,
        lambda: 10,
        ..OnePlusLambdaConfig::handa_tictactoe()
    };
    let mut es = OnePlusLambda::new(config, 1, RealGenome::new(vec![0.0; 4])).unwrap();
    es.tell(&told(1));
    assert_eq!((es.sigma(), es.window_counts()), (0.05, (1, 10)));
    es.tell(&told(4));
    assert!((es.sigma() - 0.05 / 0.817).abs() < 1e-12);
    assert_eq!(es.window_counts(), (0, 0));
}

#[test]
fn self_adaptive_es_on_sphere() {
    // (μ,λ) = (10, 70) with Yao & Liu's learning rates on a 10-D sphere.
    let config = SelfAdaptiveConfig {
        mu: 10,
        lambda: 70,
        plus: false,
        mutation: Mutation::SelfAdaptive {
            tau_scale: 1.0,
            tau_prime_scale: 1.0,
            min_sigma: 0.0,
        },
    };
    let parents: Vec<RealGenome> = (0..10)
        .map(|i| RealGenome::uniform(10, -3.0, 3.0, &mut init_rng(41, i)).with_sigmas(1.0))
        .collect();
    let mut es = SelfAdaptiveEs::new(config, 41, parents).unwrap();
    assert_eq!(es.population().len(), 70);
    let stats = run(&mut es, &minimise::<RealGenome>(sphere), 400);
    assert!(
        -stats.last().unwrap().best < 1e-6,
        "sphere: {}",
        -stats.last().unwrap().best
    );
    // Blondie24's (15+15) with τ alone: slower, but 300 generations cut the
    // best value by more than 100 (seeds 0-9: by 234 to 2.6e5).
    let parents: Vec<RealGenome> = (0..15)
        .map(|i| RealGenome::uniform(10, -3.0, 3.0, &mut init_rng(42, i)).with_sigmas(0.5))
        .collect();
    let mut es = SelfAdaptiveEs::new(SelfAdaptiveConfig::blondie24(), 42, parents).unwrap();
    assert_eq!(es.population().len(), 30);
    let stats = run(&mut es, &minimise::<RealGenome>(sphere), 300);
    let (start, end) = (-stats[0].best, -stats.last().unwrap().best);
    assert!(end < start / 100.0, "blondie24 sphere: {start} -> {end}");
    assert_eq!(es.parents().len(), 15);
}

#[test]
fn jacobi_eigendecomposition() {
    // [[2, 1], [1, 2]] has eigenvalues 1 and 3.
    let (mut values, _) = jacobi_eigen(&[2.0, 1.0, 1.0, 2.0], 2);
    values.sort_by(f64::total_cmp);
    assert!((values[0] - 1.0).abs() < 1e-12 && (values[1] - 3.0).abs() < 1e-12);
    // A random symmetric 6×6: A·v = λ·v for every pair.
    let n = 6;
    let mut rng = stream(8, &[0]);
    let mut a = vec![0.0; n * n];
    for i in 0..n {
        for j in i..n {
            let x: f64 = rng.random::<f64>() - 0.5;
            a[i * n + j] = x;
            a[j * n + i] = x;
        }
    }
    let (values, vectors) = jacobi_eigen(&a, n);
    for k in 0..n {
        for i in 0..n {
            let av: f64 = (0..n).map(|j| a[i * n + j] * vectors[j * n + k]).sum();
            assert!((av - values[k] * vectors[i * n + k]).abs() < 1e-10);
        }
    }
}

#[test]
fn cma_es_on_sphere_and_rosenbrock() {
    // 10-D sphere from x0 = (1, …, 1), σ0 = 0.5, default λ = 10: f < 1e-8
    // within 3000 evaluations (measured, seeds 0-9: 1220-1440).
    let mut es = CmaEs::new(vec![1.0; 10], 0.5, None, 51).unwrap();
    assert_eq!(es.lambda(), 10);
    let fitness = minimise::<RealGenome>(sphere);
    let mut reached = None;
    while es.evaluations() < 3000 {
        let s = step(&mut es, &fitness).stats;
        if -s.best < 1e-8 {
            reached = Some(s.evaluations);
            break;
        }
    }
    assert!(
        reached.is_some(),
        "sphere not at 1e-8 after 3000 evaluations: sigma {}",
        es.sigma()
    );
    // 10-D Rosenbrock from the origin, σ0 = 0.5: reaches the optimum (1, …, 1)
    // (f < 1e-8) within 20 000 evaluations (measured, seeds 0-9: 5620-6920).
    let mut es = CmaEs::new(vec![0.0; 10], 0.5, None, 52).unwrap();
    let fitness = minimise::<RealGenome>(rosenbrock);
    let mut best = f64::INFINITY;
    while es.evaluations() < 20_000 && best >= 1e-8 {
        best = best.min(-step(&mut es, &fitness).stats.best);
    }
    assert!(
        best < 1e-8,
        "rosenbrock {best} after {} evaluations",
        es.evaluations()
    );
    assert!(
        es.mean().iter().all(|m| (m - 1.0).abs() < 1e-3),
        "{:?}",
        es.mean()
    );
    // Rastrigin-lite from (3, 3), σ0 = 2, λ = 20: 7 of seeds 0-9 end at the
    // global minimum after 100 generations; ask for 5.
    let hits = (0..10)
        .filter(|&seed| {
            let mut es = CmaEs::new(vec![3.0; 2], 2.0, Some(20), seed).unwrap();
            let stats = run(&mut es, &minimise::<RealGenome>(rastrigin), 100);
            -stats.last().unwrap().best < 1e-3
        })
        .count();
    assert!(hits >= 5, "{hits} of 10");
}

// ---------------------------------------------------------------------------
// Determinism and checkpoints.

/// OneMax with noise drawn from each genome's evaluation stream.
fn noisy_onemax() -> Independent<impl Fn(&BitGenome, &mut WoprRng) -> f64 + Sync> {
    Independent(|g: &BitGenome, rng: &mut WoprRng| {
        f64::from(g.count_ones()) + rng.random::<f64>() * 3.0
    })
}

#[test]
fn same_seed_same_run_on_one_and_two_threads() {
    let go = |threads: usize| -> String {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                let mut ga =
                    Ga::new(Plan::midi_connect4(), 61, onemax_population(61, 40, 64)).unwrap();
                let stats = run(&mut ga, &noisy_onemax(), 30);
                format!("{}\n{stats:?}", checkpoint(&ga).unwrap())
            })
    };
    let one = go(1);
    assert_eq!(one, go(2));
    assert_eq!(one, go(1));
    // A different seed gives a different run.
    let other = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap()
        .install(|| {
            let mut ga = Ga::new(Plan::midi_connect4(), 62, onemax_population(61, 40, 64)).unwrap();
            run(&mut ga, &noisy_onemax(), 30);
            checkpoint(&ga).unwrap()
        });
    assert_ne!(one.lines().next().unwrap(), other);
}

/// Runs `total` generations straight and as `k`, checkpoint, restore, the
/// rest; the final states and all statistics must agree exactly.
fn resume_matches<E, F>(make: impl Fn() -> E, fitness: &F, total: u64, k: u64)
where
    E: Engine,
    F: Fitness<E::Genome>,
{
    let mut straight = make();
    let all = run(&mut straight, fitness, total);
    let mut first = make();
    let mut stats = run(&mut first, fitness, k);
    let json = checkpoint(&first).unwrap();
    drop(first);
    let mut resumed: E = restore(&json).unwrap();
    assert_eq!(resumed.generation(), k);
    stats.extend(run(&mut resumed, fitness, total - k));
    assert_eq!(stats, all);
    assert_eq!(
        checkpoint(&resumed).unwrap(),
        checkpoint(&straight).unwrap()
    );
}

#[test]
fn checkpoint_and_resume_give_the_same_run() {
    let fit = noisy_onemax();
    resume_matches(
        || {
            Ga::new(
                Plan::weaver(0.005, true, 30),
                71,
                onemax_population(71, 30, 80),
            )
            .unwrap()
        },
        &fit,
        12,
        5,
    );
    resume_matches(
        || Ga::new(Plan::thesis_binary(), 72, onemax_population(72, 20, 80)).unwrap(),
        &fit,
        12,
        7,
    );
    let real = |seed: u64, n: u64, sigma: f32| -> Vec<RealGenome> {
        (0..n)
            .map(|i| RealGenome::uniform(8, -1.0, 1.0, &mut init_rng(seed, i)).with_sigmas(sigma))
            .collect()
    };
    let sph = minimise::<RealGenome>(sphere);
    resume_matches(
        || Ga::new(Plan::naveed(0.2), 73, real(73, 15, 0.1)).unwrap(),
        &sph,
        10,
        4,
    );
    resume_matches(
        || Ga::new(Plan::thesis_real(), 74, real(74, 12, 0.1)).unwrap(),
        &sph,
        10,
        3,
    );
    resume_matches(
        || {
            OnePlusLambda::new(
                OnePlusLambdaConfig::handa_tictactoe(),
                75,
                real(75, 1, 0.1).remove(0),
            )
            .unwrap()
        },
        &sph,
        25,
        13,
    );
    resume_matches(
        || SelfAdaptiveEs::new(SelfAdaptiveConfig::blondie24(), 76, real(76, 15, 0.05)).unwrap(),
        &sph,
        10,
        6,
    );
    let ros = minimise::<RealGenome>(rosenbrock);
    resume_matches(
        || CmaEs::new(vec![0.0; 8], 0.5, None, 77).unwrap(),
        &ros,
        40,
        17,
    );
}

#[test]
fn plans_round_trip_through_json() {
    for plan in [
        Plan::midi_connect4(),
        Plan::weaver(0.00072, false, 100),
        Plan::thesis_binary(),
        Plan::thesis_real(),
        Plan::naveed(0.0),
    ] {
        let json = serde_json::to_string(&plan).unwrap();
        let back: Plan = serde_json::from_str(&json).unwrap();
        assert_eq!(back, plan);
    }
    // Presets say what the papers say.
    let midi = Plan::midi_connect4();
    assert_eq!((midi.pool.of(200), midi.elites.of(200)), (100, 0));
    let w: Vec<f64> = midi.recipes.iter().map(|r| r.weight).collect();
    assert_eq!(w, vec![0.7, 0.25, 0.05]);
    assert_eq!(Plan::weaver(0.005, true, 100).scaling.linear, Some(10.0));
    assert_eq!(Plan::weaver(0.005, false, 100).scaling.linear, None);
    assert_eq!(Plan::thesis_binary().elites.of(40), 20);
    assert_eq!(Plan::naveed(0.2).elites.of(30), 10);
    assert_eq!(Share::Fraction(0.5).of(5), 3);
}

/// Found by the `checkpoint` fuzz target: a stored bit genome whose words
/// do not hold its length (89 bits in one word) panicked when decoded on
/// resume. Reading one back now checks its shape.
#[test]
fn bit_genomes_read_back_only_with_a_consistent_shape() {
    let g = BitGenome::zeros(BitCode::binary(3, -1.0, 1.0), 30);
    let json = serde_json::to_string(&g).unwrap();
    assert_eq!(serde_json::from_str::<BitGenome>(&json).unwrap(), g);
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["words"].as_array_mut().unwrap().pop();
    let e = serde_json::from_value::<BitGenome>(v)
        .unwrap_err()
        .to_string();
    assert!(e.contains("needs 2 words, it has 1"), "{e}");
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["len"] = 89.into();
    let e = serde_json::from_value::<BitGenome>(v)
        .unwrap_err()
        .to_string();
    assert!(e.contains("whole number of 3-bit weights"), "{e}");
    let mut v: serde_json::Value = serde_json::from_str(&json).unwrap();
    v["words"][1] = u64::MAX.into();
    let e = serde_json::from_value::<BitGenome>(v)
        .unwrap_err()
        .to_string();
    assert!(e.contains("past its end"), "{e}");
}

/// Found by the `checkpoint` fuzz target: a gene beyond f32's range read
/// back as an infinity, which the next save wrote as JSON `null` and the
/// run then could not load. Real genomes now read back only when finite.
#[test]
fn real_genomes_read_back_only_when_finite() {
    // Refused whichever way the reader meets it: as out of range, or (a
    // reader that rounds to infinity) as not finite.
    let json = r#"{"genes":[0.5,-1.44e58]}"#;
    let e = serde_json::from_str::<wopr::evolve::RealGenome>(json)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("outside the finite f32 range") || e.contains("out of range"),
        "{e}"
    );
    let g: wopr::evolve::RealGenome = serde_json::from_str(r#"{"genes":[0.5,-1.5]}"#).unwrap();
    assert_eq!(g.genes, vec![0.5, -1.5]);
}

/// The thesis's LX as it describes it ("a random number between the parent
/// values", preset `thesis-real-blend`) is BLX with alpha 0: every child
/// gene lies between its parents' genes.
#[test]
fn blx_zero_children_lie_between_their_parents() {
    let mut rng = stream(4, &[0]);
    let p = RealGenome::uniform(200, -1.0, 1.0, &mut rng);
    let q = RealGenome::uniform(200, -1.0, 1.0, &mut rng);
    let (a, b) = p.crossover(&q, &Crossover::Blx { alpha: 0.0 }, &mut rng);
    let mut inside_strictly = 0;
    for i in 0..200 {
        let (lo, hi) = (p.genes[i].min(q.genes[i]), p.genes[i].max(q.genes[i]));
        for c in [a.genes[i], b.genes[i]] {
            assert!(c >= lo && c <= hi, "gene {i}: {c} outside [{lo}, {hi}]");
            inside_strictly += usize::from(c > lo && c < hi);
        }
    }
    // A blend, not a copy of either parent: almost every gene is new.
    assert!(
        inside_strictly > 390,
        "{inside_strictly} of 400 strictly inside"
    );
}
