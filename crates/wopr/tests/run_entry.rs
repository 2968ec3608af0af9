//! The one entry for runs (`wopr::experiment::run` and `resume`): a run
//! stopped on the way and resumed from its folder ends byte for byte where
//! one uninterrupted run ends, for evolution and TD; the config is parsed
//! once, with `--set` settings and the seed applied to its table, and bad
//! ones are one-line errors.

use std::path::{Path, PathBuf};

use wopr::experiment::learn::{LearnProgress, Row};
use wopr::experiment::{self, LearnerKind, RunConfig};

/// Asks the run to stop once `after` units are done (never, if `None`).
struct StopAt {
    after: Option<u64>,
    done: u64,
}

impl LearnProgress for StopAt {
    fn start(&mut self, _: &str, done: u64, _: u64) {
        self.done = done;
    }
    fn tick(&mut self, done: u64) {
        self.done = done;
    }
    fn yardsticks(&mut self, _: u64, _: &[Row]) {}
    fn finish(&mut self) {}
    fn stopped(&self) -> bool {
        self.after.is_some_and(|a| self.done >= a)
    }
}

fn quiet() -> StopAt {
    StopAt {
        after: None,
        done: 0,
    }
}

/// A scratch folder, removed when the test is done with it.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let d = std::env::temp_dir().join(format!("wopr-run-entry-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        Scratch(d)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// An evolution of Tic-Tac-Toe nets: 6 generations of 8, measured every 2.
const EVOLVE: &str = r#"
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
[stop]
generations = 6
[yardsticks]
every = 2
against = ["random"]
games = 6
"#;

/// TD self-play on 4x4 Connect-4: 600 games, checkpoints every 200.
const TD: &str = r#"
game = "connect4:4x4"
seed = 3
[learner]
kind = "td"
[stop]
games = 600
[yardsticks]
every = 200
against = ["random"]
games = 10
"#;

/// The files a finished run leaves that must match an uninterrupted run's.
fn fingerprint(dir: &Path, files: &[&str]) -> Vec<(String, String)> {
    files
        .iter()
        .map(|f| {
            let text = std::fs::read_to_string(dir.join(f))
                .unwrap_or_else(|e| panic!("{}: {e}", dir.join(f).display()));
            // An evolution's log ends each row with its wall seconds.
            let text = if *f == "generations.csv" {
                text.lines()
                    .map(|l| l.rsplit_once(',').map_or(l, |(rest, _)| rest))
                    .collect::<Vec<_>>()
                    .join("\n")
            } else {
                text
            };
            (f.to_string(), text)
        })
        .collect()
}

/// Runs `text` straight through, and again stopped after `stop_at` units
/// and resumed; both folders' `files` must match.
fn stopped_and_resumed_match(
    name: &str,
    text: &str,
    kind: LearnerKind,
    stop_at: u64,
    files: &[&str],
) {
    let scratch = Scratch::new(name);
    let config = RunConfig::parse(text, "test.toml", &[], None).unwrap();
    assert_eq!(config.kind(), kind);
    let straight = scratch.0.join("straight");
    let summary = experiment::run(config.clone(), &straight, &mut quiet()).unwrap();
    assert_eq!(summary.learner, kind);
    assert!(summary.run.learned);
    let split = scratch.0.join("split");
    let mut stopping = StopAt {
        after: Some(stop_at),
        done: 0,
    };
    let err = experiment::run(config, &split, &mut stopping).unwrap_err();
    assert!(err.to_string().contains("stopped at"), "{err}");
    assert_ne!(
        fingerprint(&split, &files[..1]),
        fingerprint(&straight, &files[..1]),
        "the stopped run must not have finished"
    );
    let resumed = experiment::resume(&split, &[], &mut quiet()).unwrap();
    assert_eq!(resumed.learner, kind);
    assert_eq!(resumed.run.done, summary.run.done);
    assert_eq!(fingerprint(&split, files), fingerprint(&straight, files));
    // Resumed again once finished: nothing left to learn.
    let again = experiment::resume(&split, &[], &mut quiet()).unwrap();
    assert!(!again.run.learned);
}

#[test]
fn an_evolution_stopped_and_resumed_ends_as_one_run() {
    stopped_and_resumed_match(
        "evolve",
        EVOLVE,
        LearnerKind::Evolve,
        3,
        &["generations.csv", "champion.json", "yardsticks.csv"],
    );
}

#[test]
fn a_td_run_stopped_and_resumed_ends_as_one_run() {
    stopped_and_resumed_match(
        "td",
        TD,
        LearnerKind::Td,
        200,
        &[
            "net.json",
            "champion.json",
            "yardsticks.csv",
            "learning.csv",
        ],
    );
}

#[test]
fn settings_and_the_seed_apply_before_the_one_parse() {
    let sets = ["stop.games=20".to_string(), "learner.alpha=0.5".to_string()];
    let RunConfig::Td(td) = RunConfig::parse(TD, "td.toml", &sets, Some(9)).unwrap() else {
        panic!("a td config")
    };
    assert_eq!((td.stop.games, td.learner.alpha, td.seed), (20, 0.5, 9));
    let evolve = RunConfig::parse(EVOLVE, "e.toml", &[], Some(11)).unwrap();
    assert_eq!((evolve.kind(), evolve.seed()), (LearnerKind::Evolve, 11));
    // Printed with its kind, it parses back to itself.
    let printed = evolve.to_toml().unwrap();
    assert!(printed.contains("kind = \"evolve\""), "{printed}");
    let back = RunConfig::parse(&printed, "p.toml", &[], None).unwrap();
    assert_eq!(back.to_toml().unwrap(), printed);
}

#[test]
fn bad_configs_are_one_line_errors_naming_the_value() {
    let bad = |text: &str, sets: &[&str], seed: Option<u64>| {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        RunConfig::parse(text, "c.toml", &sets, seed)
            .unwrap_err()
            .to_string()
    };
    let cases = [
        (
            bad("[learner]\nkind = \"genetic\"\n", &[], None),
            "bad config c.toml: unknown [learner] kind 'genetic' (accepted: evolve, td, train, pretrain, alphazero)",
        ),
        (
            bad("[learner]\nkind = 3\n", &[], None),
            "bad config c.toml: [learner] kind = 3 is not a name",
        ),
        // The file's line (TD's 7th: it opens with a blank line), with a
        // seed applied too (the seed rewrites no line of it).
        (bad(&TD.replace("games = 600", "gamez = 600"), &[], Some(5)), "bad config c.toml: line 7:"),
        (bad(TD, &["stop.games"], None), "bad --set: 'stop.games' is not KEY=VALUE"),
        (bad(TD, &["stop.games=\"x"], None), "is not a TOML value"),
        (bad(TD, &["stop.games=\"x\""], None), "bad config c.toml: (with --set)"),
        (bad("game = ", &[], None), "bad config c.toml: line 1:"),
        (bad(TD, &[], Some(u64::MAX)), "seed 18446744073709551615 is too large"),
        (bad(EVOLVE, &["algorithm.population=1"], None), "population"),
    ];
    for (err, says) in cases {
        assert!(err.contains(says), "{says} not in: {err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
}

#[test]
fn resume_refuses_what_is_not_a_run_and_settings_besides_the_stop() {
    let scratch = Scratch::new("refuse");
    let err = experiment::resume(&scratch.0, &[], &mut quiet()).unwrap_err();
    assert!(err.to_string().contains("holds no run to resume"), "{err}");
    let dir = scratch.0.join("td");
    let config = RunConfig::parse(TD, "td.toml", &["stop.games=10".into()], None).unwrap();
    experiment::run(config, &dir, &mut quiet()).unwrap();
    let err = experiment::resume(&dir, &["learner.alpha=0.5".into()], &mut quiet()).unwrap_err();
    assert!(err.to_string().contains("takes only stop.games=N"), "{err}");
    let err = experiment::resume(&dir, &["stop.games=x".into()], &mut quiet()).unwrap_err();
    assert!(err.to_string().contains("must be a whole number"), "{err}");
    // Its stop raised, it goes on.
    let more = experiment::resume(&dir, &["stop.games=20".into()], &mut quiet()).unwrap();
    assert_eq!((more.run.done, more.unit), (20, "games"));
}
