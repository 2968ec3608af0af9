//! Evolution runs: the same result with one thread or two, and a run stopped
//! and resumed from its checkpoint ends exactly where a straight run ends.

use wopr::experiment::learn::{evolve, LearnProgress, Row};
use wopr::experiment::{load_checkpoint, start, Checkpoint, EvolveConfig};
use wopr::games::tictactoe::TicTacToe;

struct Quiet;

impl LearnProgress for Quiet {
    fn start(&mut self, _: &str, _: u64, _: u64) {}
    fn tick(&mut self, _: u64) {}
    fn yardsticks(&mut self, _: u64, _: &[Row]) {}
    fn finish(&mut self) {}
}

fn config(generations: u64) -> EvolveConfig {
    let text = format!(
        r#"
game = "tictactoe"
seed = 7
[net]
encoding = "planes"
hidden = [4]
[algorithm]
kind = "ga"
preset = "thesis-real"
population = 8
[fitness]
scheme = "fixed"
opponents = ["random"]
games_per_seat = 2
hall_of_fame = 2
[stop]
generations = {generations}
[yardsticks]
every = 2
against = ["random"]
games = 6
"#
    );
    toml::from_str(&text).unwrap()
}

/// Runs `cp` (fresh, or resumed when `dir` holds its run) to its stop
/// through the run layer, and reads the folder back.
fn run_to_end(cp: Checkpoint, dir: &std::path::Path) -> Checkpoint {
    evolve::run(&TicTacToe, cp, dir, &mut Quiet).unwrap();
    load_checkpoint(dir).unwrap()
}

/// (generation, best, mean, min) per generation, the champion, the yardsticks.
type Fingerprint = (Vec<(u64, f64, f64, f64)>, Vec<f32>, String);

fn fingerprint(cp: &Checkpoint) -> Fingerprint {
    (
        cp.history
            .iter()
            .map(|r| (r.generation, r.best, r.mean, r.min))
            .collect(),
        cp.champion.clone(),
        serde_json::to_string(&cp.yardsticks).unwrap(),
    )
}

/// A scratch run folder, removed when the test is done with it.
struct TempDir(std::path::PathBuf);

impl std::ops::Deref for TempDir {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(name: &str) -> TempDir {
    let d = std::env::temp_dir().join(format!("wopr-test-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    TempDir(d)
}

#[test]
fn one_thread_or_two_give_the_same_run() {
    let on = |threads: usize| {
        let dir = temp_dir(&format!("threads{threads}"));
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| run_to_end(start(&TicTacToe, config(5)).unwrap(), &dir))
    };
    assert_eq!(fingerprint(&on(1)), fingerprint(&on(2)));
}

#[test]
fn a_resumed_run_ends_where_a_straight_run_ends() {
    let straight = run_to_end(start(&TicTacToe, config(6)).unwrap(), &temp_dir("straight"));
    // Stop after 3 generations, read the checkpoint back from disk, go on to 6.
    let dir = temp_dir("resumed");
    run_to_end(start(&TicTacToe, config(3)).unwrap(), &dir);
    let mut cp = load_checkpoint(&dir).unwrap();
    assert_eq!(cp.history.len(), 3);
    cp.config.stop.generations = 6;
    cp.finished = false;
    let resumed = run_to_end(cp, &dir);
    assert_eq!(fingerprint(&straight), fingerprint(&resumed));
    let champion = std::fs::read_to_string(dir.join("champion.json")).unwrap();
    assert!(champion.contains("\"game\": \"tictactoe\""));
}

/// Every algorithm kind's run resumes from its checkpoint on disk to the
/// end a straight run reaches (the engine state is the whole state).
#[test]
fn every_algorithm_resumes_exactly() {
    for (genome, algorithm) in [
        ("real", "kind = \"ga\"\npopulation = 6"),
        (
            "bits",
            "kind = \"ga\"\npreset = \"thesis-binary\"\npopulation = 6",
        ),
        ("real", "kind = \"one-plus-lambda\"\nlambda = 4"),
        ("real", "kind = \"mu-lambda\"\nmu = 3\nlambda = 6"),
        ("real", "kind = \"mu-plus-lambda\"\nmu = 3\nlambda = 6"),
        ("real", "kind = \"cma-es\"\nlambda = 6"),
        ("bits", "kind = \"pbil\"\npopulation = 6"),
        ("real", "kind = \"cem\"\npopulation = 6"),
    ] {
        let cfg = |generations: u64| -> EvolveConfig {
            toml::from_str(&format!(
                "game = \"tictactoe\"\nseed = 5\n[net]\nhidden = [3]\n[genome]\nkind = \"{genome}\"\n\
                 [algorithm]\n{algorithm}\n[fitness]\nscheme = \"fixed\"\nopponents = [\"random\"]\n\
                 [stop]\ngenerations = {generations}\n"
            ))
            .unwrap()
        };
        let name = algorithm.split('"').nth(1).unwrap();
        let straight = run_to_end(
            start(&TicTacToe, cfg(4)).unwrap(),
            &temp_dir(&format!("kind-{name}-{genome}-straight")),
        );
        let dir = temp_dir(&format!("kind-{name}-{genome}-resumed"));
        run_to_end(start(&TicTacToe, cfg(2)).unwrap(), &dir);
        let mut cp = load_checkpoint(&dir).unwrap();
        cp.config.stop.generations = 4;
        cp.finished = false;
        let resumed = run_to_end(cp, &dir);
        assert_eq!(fingerprint(&straight), fingerprint(&resumed), "{algorithm}");
        let engine = |cp: &Checkpoint| serde_json::to_string(&cp.engine).unwrap();
        assert_eq!(engine(&straight), engine(&resumed), "{algorithm}");
    }
}

#[test]
fn two_populations_resume_exactly_and_keep_both_champions() {
    let cfg = |generations: u64| -> EvolveConfig {
        toml::from_str(&format!(
            r#"
game = "tictactoe"
seed = 11
[net]
encoding = "handa"
hidden = [3]
[algorithm]
kind = "one-plus-lambda"
preset = "handa-tictactoe"
[fitness]
scheme = "two-populations"
opponents = ["perfect"]
games_per_seat = 2
logistic = 0.5
[stop]
generations = {generations}
"#
        ))
        .unwrap()
    };
    let straight = run_to_end(
        start(&TicTacToe, cfg(4)).unwrap(),
        &temp_dir("two-straight"),
    );
    let dir = temp_dir("two-resumed");
    run_to_end(start(&TicTacToe, cfg(2)).unwrap(), &dir);
    let mut cp = load_checkpoint(&dir).unwrap();
    cp.config.stop.generations = 4;
    cp.finished = false;
    let resumed = run_to_end(cp, &dir);
    assert_eq!(fingerprint(&straight), fingerprint(&resumed));
    assert_eq!(straight.champion_second, resumed.champion_second);
    assert!(!resumed.champion_second.is_empty());
    assert!(resumed.history.iter().all(|r| r.second.is_some()));
    // 9 children (plus the parent) per population, each meeting the other's
    // champion once and the perfect player twice: (1 + 9) × 3 × 2 games.
    assert_eq!(resumed.history[1].games, 60);
    assert!(dir.join("champion-second.json").exists());
}

/// Handa & Horiuchi plot each population's elite from its own seat: the
/// yardsticks measure the first movers' champion as the first player and
/// the second movers' as the second, every game from that seat, and keep
/// both champions' snapshots; each row logs both champions' pruned weights
/// per layer (a 7-3-1 net on the `handa` encoding: two weight layers).
#[test]
fn two_populations_measure_each_elite_from_its_own_seat() {
    let config: EvolveConfig = toml::from_str(
        "game = 'tictactoe'\nseed = 4\n[net]\nencoding = 'handa'\nhidden = [3]\n\
         [algorithm]\nkind = 'one-plus-lambda'\nprune_rate = 0.3\n\
         [fitness]\nscheme = 'two-populations'\nopponents = ['perfect']\n\
         [stop]\ngenerations = 3\n\
         [yardsticks]\nevery = 2\nagainst = ['perfect']\ngames = 10\nexhaustive = true\n",
    )
    .unwrap();
    let dir = temp_dir("two-seats");
    let cp = run_to_end(start(&TicTacToe, config).unwrap(), &dir);
    let labels: Vec<&str> = cp.yardsticks.iter().map(|r| r.opponent.as_str()).collect();
    assert_eq!(
        labels[..4],
        [
            "perfect (first movers)",
            "exhaustive (first movers)",
            "perfect (second movers)",
            "exhaustive (second movers)"
        ]
    );
    for r in &cp.yardsticks {
        if r.opponent.starts_with("perfect") {
            // 10 games, every one from the elite's seat; perfect play never
            // loses, so no wins.
            assert_eq!((r.games, r.wins), (10, 0), "{r:?}");
        }
    }
    // As the first player (X) the lines of the opponent are fewer than as
    // the second (O moves after X's first move, so O faces 9 replies more).
    let ex: Vec<u64> = cp
        .yardsticks
        .iter()
        .filter(|r| r.opponent.starts_with("exhaustive") && r.generation == 0)
        .map(|r| r.games)
        .collect();
    assert!(ex[0] < ex[1], "{ex:?}");
    assert!(dir.join("champions/gen-0002-second.json").exists());
    // A 7-3-1 net has 21 + 3 weights; pruning at 0.3 zeroes some of them
    // in most children, and the counts stay within each layer's size.
    for r in &cp.history {
        assert_eq!(r.pruned.len(), 2);
        assert_eq!(r.pruned_second.len(), 2);
        assert!(r.pruned[0] <= 21 && r.pruned[1] <= 3, "{:?}", r.pruned);
    }
    assert!(cp
        .history
        .iter()
        .any(|r| r.pruned[0] + r.pruned_second[0] > 0));
}

/// A finished 3-generation run in a fresh folder.
fn three_generations(name: &str) -> TempDir {
    let dir = temp_dir(name);
    run_to_end(start(&TicTacToe, config(3)).unwrap(), &dir);
    dir
}

/// Resumes the run in `dir` to `generations` and returns the error, if any.
fn resume(dir: &std::path::Path, generations: u64) -> Result<Checkpoint, String> {
    let mut cp = load_checkpoint(dir).map_err(|e| e.to_string())?;
    cp.config.stop.generations = generations;
    cp.finished = false;
    evolve::run(&TicTacToe, cp, dir, &mut Quiet).map_err(|e| e.to_string())?;
    load_checkpoint(dir).map_err(|e| e.to_string())
}

#[test]
fn the_checkpoint_is_compact_and_the_logs_grow_by_appending() {
    let dir = three_generations("compact");
    let json = std::fs::read_to_string(dir.join("state.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let v = &v["learner"];
    assert!(v.get("history").is_none() && v.get("yardsticks").is_none());
    assert!(v["config"].get("yardsticks").is_some());
    // A killed run may have logged a generation its checkpoint never
    // reached: that row is dropped when the run goes on.
    let log = dir.join("generations.csv");
    let mut text = std::fs::read_to_string(&log).unwrap();
    text.push_str("3,9,9,9,9,0,0,0,0,,0.000\n");
    std::fs::write(&log, text).unwrap();
    let cp = resume(&dir, 5).unwrap();
    assert_eq!(cp.history.len(), 5);
    let rows: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap().to_string())
        .collect();
    assert_eq!(rows, ["0", "1", "2", "3", "4"]);
    assert!(!std::fs::read_to_string(&log).unwrap().contains("3,9,9,9"));
}

#[test]
fn corrupt_checkpoints_are_one_line_errors() {
    // Truncated: not JSON any more.
    let dir = three_generations("truncated");
    let path = dir.join("state.json");
    let json = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, &json[..json.len() / 2]).unwrap();
    let e = resume(&dir, 5).unwrap_err();
    assert!(e.contains("is not a wopr checkpoint"), "{e}");
    assert_eq!(e.lines().count(), 1);

    // Weights of the wrong length (used to panic in the first generation).
    let dir = three_generations("short-champion");
    let path = dir.join("state.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    v["learner"]["champion"].as_array_mut().unwrap().pop();
    std::fs::write(&path, v.to_string()).unwrap();
    let e = resume(&dir, 5).unwrap_err();
    assert!(e.contains("corrupt checkpoint: the champion has"), "{e}");

    // An empty population (used to panic).
    let dir = three_generations("empty-population");
    let path = dir.join("state.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let population = v["learner"]["engine"]
        .as_object_mut()
        .and_then(|e| e.get_mut("population"))
        .expect("a GA engine keeps its population");
    *population = serde_json::Value::Array(vec![]);
    std::fs::write(&path, v.to_string()).unwrap();
    let e = resume(&dir, 5).unwrap_err();
    assert!(e.contains("population is empty"), "{e}");
}

#[test]
fn every_fitness_scheme_takes_openings_and_stays_reproducible() {
    for (scheme, extra) in [
        ("fixed", "opponents = ['random']\ncommon_seeds = true"),
        ("round-robin", ""),
        ("sharing", ""),
        ("two-populations", "opponents = ['random']"),
    ] {
        let algorithm = if scheme == "two-populations" {
            "kind = 'one-plus-lambda'"
        } else {
            "kind = 'ga'\npopulation = 6"
        };
        let text = format!(
            "game = 'tictactoe'\nseed = 3\n[net]\nhidden = [3]\n[algorithm]\n{algorithm}\n\
             [fitness]\nscheme = '{scheme}'\nopenings = 'plies=2'\n{extra}\n[stop]\ngenerations = 2\n\
             [yardsticks]\nevery = 1\nagainst = ['first']\ngames = 4\nopenings = 'plies=3'\n"
        );
        let config: EvolveConfig = toml::from_str(&text).unwrap();
        let on = |threads: usize| {
            let dir = temp_dir(&format!("openings-{scheme}-{threads}"));
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| run_to_end(start(&TicTacToe, config.clone()).unwrap(), &dir))
        };
        let (one, two) = (on(1), on(2));
        assert_eq!(fingerprint(&one), fingerprint(&two), "{scheme}");
        // One yardstick row per measured generation (0 and 1), and with
        // two populations one per population's elite.
        let rows = if scheme == "two-populations" { 4 } else { 2 };
        assert_eq!(one.yardsticks.len(), rows, "{scheme}");
    }
    // The exhaustive count walks every line from the start: no openings.
    let bad: EvolveConfig = toml::from_str(
        "game = 'tictactoe'\n[fitness]\nscheme = 'exhaustive'\nopenings = 'plies=2'\n",
    )
    .unwrap();
    assert!(bad.check().unwrap_err().contains("fitness.openings"));
    // An opening longer than the game is refused when the run starts.
    let long: EvolveConfig =
        toml::from_str("game = 'tictactoe'\n[fitness]\nopenings = 'plies=12'\n").unwrap();
    let e = start(&TicTacToe, long).unwrap_err().to_string();
    assert!(
        e.contains("fitness.openings") && e.contains("at most 9"),
        "{e}"
    );
}

/// Fitness reports its own sampling error: none for the exhaustive count
/// (it is exact); against `random`, a positive half-width that grows as the
/// square root of the games (16 times the games: about 4 times the error,
/// while the fitness grows 16 times), and never above what 8 results in
/// {0, ½, 1} allow: 1.96 · √8 · 0.535 = 5.93 (0.535 = √(2/7), the largest
/// sample SD of 8 such results: four 0s and four 1s).
#[test]
fn fitness_reports_its_sampling_error() {
    let run = |fitness: &str| {
        let text = format!(
            "game = 'tictactoe'\nseed = 5\n[net]\nhidden = [3]\n[algorithm]\nkind = 'ga'\n\
             population = 6\n[fitness]\n{fitness}\n[stop]\ngenerations = 2\n"
        );
        let config: EvolveConfig = toml::from_str(&text).unwrap();
        let dir = temp_dir(&format!("errors-{}", fitness.len()));
        run_to_end(start(&TicTacToe, config).unwrap(), &dir)
    };
    let exact = run("scheme = 'exhaustive'");
    assert!(exact
        .history
        .iter()
        .all(|r| r.best_error == 0.0 && r.mean_error == 0.0));
    let few = run("scheme = 'fixed'\nopponents = ['random']\ngames_per_seat = 4");
    let bound = 1.96 * 8f64.sqrt() * (2.0f64 / 7.0).sqrt();
    assert!(few
        .history
        .iter()
        .all(|r| r.mean_error > 0.0 && r.best_error <= bound + 1e-9));
    let many = run("scheme = 'fixed'\nopponents = ['random']\ngames_per_seat = 64");
    let ratio = many.history[0].mean_error / few.history[0].mean_error;
    assert!((2.5..6.0).contains(&ratio), "error ratio {ratio}");
}

/// `[net] bias = "none"`: the thesis's complete nets have no biases, so the
/// net built from any genome has every bias at 0 while its weights are the
/// genes (a complete 2-node net on the 20 `planes` inputs: node 0 has 20
/// weights and a bias, node 1 21 weights and a bias).
#[test]
fn nets_without_biases_ignore_their_bias_genes() {
    use wopr::nn::{Network, SegmentKind};
    let cfg: EvolveConfig = toml::from_str(
        "game = 'tictactoe'\n[net]\nencoding = 'planes'\ncomplete = 2\noutputs = 'value'\nbias = 'none'\n",
    )
    .unwrap();
    let p = wopr::experiment::NetPhenotype::new(&TicTacToe, &cfg.net, cfg.genome.layout).unwrap();
    assert_eq!(p.num_params, 20 + 1 + 21 + 1);
    let genes: Vec<f32> = (1..=p.num_params).map(|i| i as f32 / 10.0).collect();
    let file = p.net_file(&genes).unwrap();
    let mut biases = 0;
    for s in file.net.segments() {
        let values = &file.net.params()[s.offset..s.offset + s.len];
        if s.kind == SegmentKind::Biases {
            biases += 1;
            assert!(values.iter().all(|&b| b == 0.0), "{}", s.name);
        } else {
            assert_eq!(values, &genes[s.offset..s.offset + s.len], "{}", s.name);
        }
    }
    assert_eq!(biases, 2);
}

#[test]
fn the_champion_is_the_run_best_or_the_latest_best_as_configured() {
    use wopr::experiment::champion_weights;
    use wopr::experiment::config::ChampionRule;
    let mut cfg = config(6);
    let best = run_to_end(
        start(&TicTacToe, cfg.clone()).unwrap(),
        &temp_dir("champ-best"),
    );
    cfg.fitness.champion = ChampionRule::Latest;
    let dir = temp_dir("champ-latest");
    let latest = run_to_end(start(&TicTacToe, cfg).unwrap(), &dir);
    // The rule picks the file, not the search: the same generations.
    let rows = |cp: &Checkpoint| fingerprint(cp).0;
    assert_eq!(rows(&best), rows(&latest));
    // This seed's best-scoring generation is not the last one, so the two
    // rules keep different members (the precondition of the test).
    let (_, at, run_best) = best.best.clone().unwrap();
    assert!(at < 5, "best at generation {at}");
    assert_ne!(run_best, best.champion);
    assert_eq!(champion_weights(&best), Some(run_best.as_slice()));
    assert_eq!(champion_weights(&latest), Some(latest.champion.as_slice()));
    let file = std::fs::read_to_string(dir.join("champion.json")).unwrap();
    let net: serde_json::Value = serde_json::from_str(&file).unwrap();
    let weights: Vec<f32> = serde_json::from_value(net["weights"].clone()).unwrap();
    assert_eq!(weights, latest.champion);
}

/// One run over three ranks (threads standing in for MPI processes, each
/// running the whole program with its own `InProcess` handle) writes the
/// folder a single process writes, byte for byte; and a run begun on three
/// ranks and resumed on one ends where a straight single-process run ends.
#[test]
fn ranks_share_the_games_and_give_the_single_process_run() {
    use std::rc::Rc;
    use wopr::dist::{install, InProcess};
    let on_ranks = |ranks: usize, generations: u64, dir: &std::path::Path| {
        let handles: Vec<_> = InProcess::ranks(ranks)
            .into_iter()
            .map(|comm| {
                let dir = dir.to_path_buf();
                std::thread::spawn(move || {
                    install(Some(Rc::new(comm)));
                    let cp = start(&TicTacToe, config(generations)).unwrap();
                    evolve::run(&TicTacToe, cp, &dir, &mut Quiet).unwrap();
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    };
    // The logs without the wall-clock column (the last of a one-population
    // row).
    let same = |a: &std::path::Path, b: &std::path::Path, names: &[&str]| {
        for name in names {
            let read = |dir: &std::path::Path| {
                let text = std::fs::read_to_string(dir.join(name)).unwrap();
                if *name != "generations.csv" {
                    return text;
                }
                text.lines()
                    .map(|l| l.rsplit_once(',').unwrap().0.to_string() + "\n")
                    .collect()
            };
            assert!(read(a) == read(b), "{name} differs");
        }
    };
    let single = temp_dir("ranks-single");
    run_to_end(start(&TicTacToe, config(4)).unwrap(), &single);
    let three = temp_dir("ranks-three");
    on_ranks(3, 4, &three);
    let all = [
        "champion.json",
        "state.json",
        "yardsticks.csv",
        "net.json",
        "generations.csv",
    ];
    same(&single, &three, &all);
    // Begun on three ranks, resumed on one: the same evolution (the
    // yardsticks also measured the end of the first part, generation 1).
    let mixed = temp_dir("ranks-mixed");
    on_ranks(3, 2, &mixed);
    let mut cp = load_checkpoint(&mixed).unwrap();
    cp.config.stop.generations = 4;
    let resumed = run_to_end(cp, &mixed);
    same(
        &single,
        &mixed,
        &["champion.json", "net.json", "generations.csv"],
    );
    let straight = load_checkpoint(&single).unwrap();
    assert_eq!(
        serde_json::to_string(&straight.engine).unwrap(),
        serde_json::to_string(&resumed.engine).unwrap()
    );
}
