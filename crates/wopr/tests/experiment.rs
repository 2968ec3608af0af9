//! Evolution runs: the same result with one thread or two, and a run stopped
//! and resumed from its checkpoint ends exactly where a straight run ends.

use wopr::experiment::{run, start, Checkpoint, EvolveConfig, Progress, RunFiles};
use wopr::experiment::{GenerationRow, YardstickRow};
use wopr::games::tictactoe::TicTacToe;

struct Quiet;

impl Progress for Quiet {
    fn generation(&mut self, _: &GenerationRow, _: &Checkpoint) {}
    fn yardsticks(&mut self, _: &[YardstickRow]) {}
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

fn run_to_end(mut cp: Checkpoint, dir: &std::path::Path) -> Checkpoint {
    let files = RunFiles {
        dir: dir.to_path_buf(),
    };
    run(&TicTacToe, &mut cp, &files, &mut Quiet).unwrap();
    cp
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

fn temp_dir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("wopr-test-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
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
    let mut cp = wopr::experiment::load_checkpoint(&dir).unwrap();
    assert_eq!(cp.history.len(), 3);
    cp.config.stop.generations = 6;
    cp.finished = false;
    let resumed = run_to_end(cp, &dir);
    assert_eq!(fingerprint(&straight), fingerprint(&resumed));
    let champion = std::fs::read_to_string(dir.join("champion.json")).unwrap();
    assert!(champion.contains("\"game\": \"tictactoe\""));
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
    let mut cp = wopr::experiment::load_checkpoint(&dir).unwrap();
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
