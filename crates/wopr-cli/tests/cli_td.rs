//! `wopr td` end to end through the built binary: a run stopped and resumed
//! learns exactly what one straight run learns, the yardsticks are logged,
//! the net plays through `net:PATH`, and bad settings give one-line errors.

mod cli_common;

use std::path::Path;
use std::process::Output;

use cli_common::{fails_with, ok, s, wopr, Scratch};

/// `wopr td` on Tic-Tac-Toe with a `raw` linear net, yardstick `random`,
/// as a command (to set its environment).
fn td_command(out: &Path, games: &str, extra: &[&str]) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_wopr"));
    cmd.args([
        "td",
        "--game",
        "tictactoe",
        "--encoding",
        "raw",
        "--games",
        games,
        "--every",
        "1000",
        "--alpha",
        "0.01",
        "--against",
        "random",
        "--eval-games",
        "100",
        "--out",
        s(out),
        "-q",
    ])
    .args(extra);
    cmd
}

/// [`td_command`], run.
fn td(out: &Path, games: &str, extra: &[&str]) -> Output {
    td_command(out, games, extra)
        .output()
        .expect("the wopr binary runs")
}

#[test]
fn a_resumed_run_learns_what_a_straight_run_learns() {
    let dir = Scratch::new("wopr-cli-td", "resume", true);
    let straight = dir.join("straight");
    let split = dir.join("split");
    ok(&td(&straight, "3000", &[]));
    ok(&td(&split, "1000", &[]));
    // Asking for fewer games than learned changes nothing.
    let again = ok(&td(&split, "1000", &[]));
    assert!(again.contains("nothing to do"), "{again}");
    // Killed while saving the next checkpoint: `net.json` already holds
    // other weights and the logs a row past `state.json`'s count. The resume
    // reads the checkpoint's own `net-1000.json` and drops the row.
    assert!(split.join("net-1000.json").exists());
    std::fs::write(split.join("net.json"), "not a net").unwrap();
    let log = split.join("learning.csv");
    let mut text = std::fs::read_to_string(&log).unwrap();
    text.push_str("2000,9,9,9,\n");
    std::fs::write(&log, text).unwrap();
    ok(&td(&split, "3000", &[]));
    assert!(!split.join("net-1000.json").exists() && split.join("net-3000.json").exists());
    let read = |d: &Path, f: &str| std::fs::read_to_string(d.join(f)).unwrap();
    assert_eq!(
        read(&straight, "learning.csv"),
        read(&split, "learning.csv")
    );
    assert_eq!(read(&straight, "net.json"), read(&split, "net.json"));
    assert_eq!(
        read(&straight, "yardsticks.csv"),
        read(&split, "yardsticks.csv")
    );
    assert!(read(&split, "state.json").contains("\"done\":3000"));
    // A yardstick row at games 0, 1000, 2000 and 3000:
    // games,opponent,played,wins,draws,losses,score,score_low,score_high.
    let progress = read(&straight, "yardsticks.csv");
    let rows: Vec<&str> = progress.lines().skip(1).collect();
    assert_eq!(rows.len(), 4, "{progress}");
    let score = |row: &str| -> f64 { row.split(',').nth(6).unwrap().parse().unwrap() };
    // The interval holds the score.
    for row in &rows {
        let f: Vec<f64> = row.split(',').skip(6).map(|x| x.parse().unwrap()).collect();
        assert!(f[1] <= f[0] && f[0] <= f[2], "{row}");
    }
    // The zero net plays the first legal move among equal values; learning
    // from 3,000 games must beat it against random.
    assert!(
        score(rows[3]) > score(rows[0]),
        "no progress against random: {progress}"
    );
    assert!(straight.join("yardsticks.png").exists());
    // The net plays as a greedy net player.
    let net = format!("net:{}", s(&straight.join("best.json")));
    let eval = ok(&wopr(&[
        "eval",
        "--game",
        "tictactoe",
        "--player",
        &net,
        "--against",
        "random",
        "--games",
        "20",
    ]));
    assert!(eval.contains("random"), "{eval}");
}

#[test]
fn tcl_and_learning_from_exploration_resume_exactly() {
    // TCL's sums are part of the checkpoint: a run stopped at 1,000 games
    // and resumed learns the straight run's weights bit for bit, and
    // learns something other than plain TD.
    let dir = Scratch::new("wopr-cli-td", "tcl", true);
    let extra = [
        "--tcl-beta",
        "2.7",
        "--explore",
        "learn-reset",
        "--lambda",
        "0.5",
    ];
    let (straight, split, plain) = (dir.join("straight"), dir.join("split"), dir.join("plain"));
    ok(&td(&straight, "2000", &extra));
    ok(&td(&split, "1000", &extra));
    let state = std::fs::read_to_string(split.join("state.json")).unwrap();
    assert!(state.contains("\"tcl_sum\""), "{state}");
    ok(&td(&split, "2000", &extra));
    ok(&td(&plain, "2000", &["--lambda", "0.5"]));
    let read = |d: &Path| std::fs::read_to_string(d.join("net.json")).unwrap();
    assert_eq!(read(&straight), read(&split));
    assert_ne!(read(&straight), read(&plain));
    fails_with(
        &td(&dir.join("bad"), "10", &["--explore", "often"]),
        "learn-reset",
    );
    fails_with(&td(&dir.join("bad2"), "10", &["--tcl-beta=-1"]), "beta");
    // FARL keeps no state across games beyond the weights: stopped and
    // resumed it learns the straight run's weights too, and its own ones.
    let farl = ["--farl", "--lambda", "0.5"];
    let (straight, split) = (dir.join("farl-straight"), dir.join("farl-split"));
    ok(&td(&straight, "2000", &farl));
    ok(&td(&split, "1000", &farl));
    ok(&td(&split, "2000", &farl));
    assert_eq!(read(&straight), read(&split));
    assert_ne!(read(&straight), read(&plain));
}

#[test]
fn rounds_learn_the_same_on_one_thread_or_two_and_resume_exactly() {
    // `--batch 50`: 50 games a round from the same weights. The net after
    // 2,000 games is the same on 1 and 2 threads, and after a stop at
    // 1,000 games and a resume; and it differs from the one-game-at-a-time
    // learner's.
    let dir = Scratch::new("wopr-cli-td", "batch", true);
    let batch = ["--batch", "50", "--lambda", "0.5", "--tcl-beta", "2.7"];
    let threaded = |out: &Path, games: &str, threads: &str| -> Output {
        td_command(out, games, &batch)
            .env("RAYON_NUM_THREADS", threads)
            .output()
            .unwrap()
    };
    let (one, two, split) = (dir.join("one"), dir.join("two"), dir.join("split"));
    ok(&threaded(&one, "2000", "1"));
    ok(&threaded(&two, "2000", "2"));
    ok(&threaded(&split, "1000", "2"));
    ok(&threaded(&split, "2000", "1"));
    let plain = dir.join("plain");
    ok(&td(
        &plain,
        "2000",
        &["--lambda", "0.5", "--tcl-beta", "2.7"],
    ));
    let read = |d: &Path, f: &str| std::fs::read_to_string(d.join(f)).unwrap();
    assert_eq!(read(&one, "net.json"), read(&two, "net.json"));
    assert_eq!(read(&one, "net.json"), read(&split, "net.json"));
    assert_eq!(read(&one, "learning.csv"), read(&split, "learning.csv"));
    assert_ne!(read(&one, "net.json"), read(&plain, "net.json"));
    fails_with(
        &td(&dir.join("bad"), "1000", &["--batch", "300"]),
        "learner.batch = 300 must divide yardsticks.every = 1000",
    );
    fails_with(
        &td(&dir.join("bad0"), "1000", &["--batch", "0"]),
        "learner.batch must be at least 1",
    );
}

/// A folder of an older `wopr td` (`td.json`, no `state.json`) resumes:
/// its checkpoint is read into the run layer's.
#[test]
fn a_run_of_an_older_wopr_td_resumes() {
    let dir = Scratch::new("wopr-cli-td", "legacy", true);
    let (straight, old) = (dir.join("straight"), dir.join("old"));
    ok(&td(&straight, "2000", &[]));
    ok(&td(&old, "1000", &[]));
    std::fs::remove_file(old.join("state.json")).unwrap();
    std::fs::write(
        old.join("td.json"),
        r#"{"game": "tictactoe", "games_done": 1000, "best_score": 0.5, "best_games": 0, "net_file": "net-1000.json"}"#,
    )
    .unwrap();
    ok(&td(&old, "2000", &[]));
    let read = |d: &Path, f: &str| std::fs::read_to_string(d.join(f)).unwrap();
    assert_eq!(read(&straight, "net.json"), read(&old, "net.json"));
    assert!(read(&old, "state.json").contains("\"done\":2000"));
}

#[test]
fn bad_settings_are_one_line_errors() {
    let dir = Scratch::new("wopr-cli-td", "errors", true);
    let out = dir.join("run");
    fails_with(
        &td(&out, "10", &["--lambda", "2"]),
        "lambda must be in [0, 1]",
    );
    fails_with(&td(&out, "10", &["--output", "sigmoid"]), "tanh or linear");
    fails_with(
        &td(&out, "10", &["--reward", "margin:9"]),
        "margin needs a game that keeps score; tictactoe does not",
    );
    fails_with(
        &wopr(&[
            "td",
            "--game",
            "tictactoe",
            "--encoding",
            "raw",
            "--output",
            "linear",
            "--alpha",
            "1000000",
            "--games",
            "3000",
            "--out",
            s(&dir.join("diverges")),
            "-q",
        ]),
        "TD diverged: the values stopped being finite in game",
    );
    fails_with(
        &td(&out, "10", &["--reward", "margin"]),
        "accepted: result, margin:S",
    );
    fails_with(
        &td(&out, "10", &["--alpha-final", "0.0001"]),
        "decay games > 0",
    );
    let ntuple9 = wopr(&[
        "td",
        "--game",
        "reversi:6x6",
        "--encoding",
        "ntuple9",
        "--out",
        s(&out),
    ]);
    fails_with(&ntuple9, "unknown encoding 'ntuple9'");
    fails_with(
        &td(&out, "10", &["--against", "nobody"]),
        "yardsticks.against 'nobody'",
    );
    ok(&td(&out, "10", &[]));
    fails_with(
        &td(&out, "20", &["--epsilon", "0.2"]),
        "holds a run with other settings",
    );
    let kuhn = wopr(&["td", "--game", "kuhn", "--out", s(&dir.join("kuhn"))]);
    fails_with(&kuhn, "needs a board game");
}
