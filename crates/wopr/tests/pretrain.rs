//! The pre-training-then-evolution pipeline (Naveed & Cowling §2.3–2.4) end
//! to end on a tiny case: `pretrain` writes a pool, a config starts a run
//! from it, and bad folders or shapes are one-line errors.

use wopr::evolve::Engine;
use wopr::experiment::learn::{evolve, LearnProgress, Row};
use wopr::experiment::pretrain::{pretrain, Pool, PretrainOptions};
use wopr::experiment::{load_checkpoint, start, AnyEngine, EvolveConfig};
use wopr::game::{Game, GameSpec};
use wopr::games::virus::Virus;
use wopr::nn::{NetFile, Network};

struct Quiet;

impl LearnProgress for Quiet {
    fn start(&mut self, _: &str, _: u64, _: u64) {}
    fn tick(&mut self, _: u64) {}
    fn yardsticks(&mut self, _: u64, _: &[Row]) {}
    fn finish(&mut self) {}
}

fn config(dir: &std::path::Path, population: usize, hidden: &str) -> EvolveConfig {
    let text = format!(
        r#"
game = "virus:4x4,max-plies=400"
seed = 3
[net]
hidden = {hidden}
activation = "sigmoid"
output = "linear"
mode = "greedy"
[init]
population = "pretrained:{}"
[algorithm]
kind = "ga"
preset = "naveed"
population = {population}
crossover_rate = 0.2
[fitness]
opponents = ["ai:1,ties=first", "ai:2,ties=first"]
points = "naveed"
[stop]
generations = 1
"#,
        dir.display()
    );
    toml::from_str(&text).unwrap()
}

#[test]
fn pretrained_pool_seeds_an_evolution_run() {
    let game = Virus::from_spec(&GameSpec::parse("virus:4x4").unwrap()).unwrap();
    let tmp = std::env::temp_dir().join(format!("wopr-test-pretrain-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let dir = tmp.join("pool");
    let options = PretrainOptions {
        teachers: vec!["ai:1".into(), "ai:2".into()],
        per_teacher: 2,
        positions: 60,
        epochs: 5,
        hidden: vec![5, 3],
        ..PretrainOptions::default()
    };
    let pool = pretrain(&game, &options, &dir, "", &mut Quiet).unwrap();
    // Two teachers × two nets, each trained (iRPROP: the first two of the
    // paper's cycle) to a lower error than it started from.
    assert_eq!(pool.nets.len(), 4);
    assert_eq!(pool.architecture, "16-5-3-1");
    assert!(pool.nets.iter().all(|e| e.algorithm == "irprop+"));
    assert!(pool.nets.iter().all(|e| e.loss < e.initial_loss));
    assert_eq!(Pool::load(&dir).unwrap(), pool);

    // A population of 3 from 2 teachers: one net of each teacher, plus one.
    let cp = start(&game, config(&dir, 3, "[5, 3]")).unwrap();
    let AnyEngine::GaReal(ga) = &cp.engine else {
        panic!("a real-valued GA")
    };
    let nets: Vec<(String, Vec<f32>)> = pool
        .nets
        .iter()
        .map(|e| {
            let f = NetFile::load(dir.join(&e.file)).unwrap();
            (e.teacher.clone(), f.net.params().to_vec())
        })
        .collect();
    let mut teachers = Vec::new();
    let mut seen = Vec::new();
    for g in ga.population() {
        let i = nets
            .iter()
            .position(|(_, w)| *w == g.genes)
            .expect("every member is a pre-trained net");
        assert!(!seen.contains(&i), "no net drawn twice");
        seen.push(i);
        teachers.push(nets[i].0.clone());
    }
    assert!(teachers.contains(&"ai:1".to_string()) && teachers.contains(&"ai:2".to_string()));

    // And the run goes on from there.
    let out = tmp.join("run");
    std::fs::create_dir_all(&out).unwrap();
    evolve::run(&game, cp, &out, &mut Quiet).unwrap();
    let cp = load_checkpoint(&out).unwrap();
    assert_eq!(cp.history.len(), 1);
    assert!(out.join("champion.json").exists());

    // One-line errors: a population larger than the pool, a net of another
    // shape, a folder that is not there.
    let e = start(&game, config(&dir, 5, "[5, 3]")).unwrap_err().0;
    assert!(e.contains("cannot be drawn from a pool of 4"), "{e}");
    let e = start(&game, config(&dir, 3, "[6]")).unwrap_err().0;
    assert!(e.contains("does not fit the run's net"), "{e}");
    assert!(!e.contains('\n'));
    let e = start(&game, config(&tmp.join("nowhere"), 3, "[5, 3]"))
        .unwrap_err()
        .0;
    assert!(e.contains("is not a folder"), "{e}");
    let mut bad = config(&dir, 3, "[5, 3]");
    bad.init.population = "trained:x".into();
    let e = start(&game, bad).unwrap_err().0;
    assert!(
        e.contains("accepted \"random\" or \"pretrained:DIR\""),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&tmp);
}
