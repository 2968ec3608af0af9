//! `mpirun -n N wopr run CONFIG.toml` (issue 30; cargo feature `mpi`, so
//! this file builds only with `--features mpi`, as `.ci/run` does): the
//! ranks share each generation's games and the run folder is the
//! single-process folder byte for byte; a run stopped on some ranks
//! resumes on another number of ranks to the same result.
#![cfg(feature = "mpi")]

mod cli_common;

use std::path::Path;
use std::process::{Command, Output};

use cli_common::{ok, s, wopr, Scratch};

/// `mpirun -n RANKS wopr ARGS` (allowed as root and on fewer cores than
/// ranks, as in CI), one rayon thread per rank.
fn mpirun(ranks: usize, args: &[&str]) -> Output {
    Command::new("mpirun")
        .args(["--allow-run-as-root", "--oversubscribe", "-n"])
        .arg(ranks.to_string())
        .arg(env!("CARGO_BIN_EXE_wopr"))
        .args(args)
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .expect("mpirun runs (Debian: openmpi-bin)")
}

/// A run folder's files as run, the wall-clock column of
/// `generations.csv` (its last) left out.
fn folder(dir: &Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    for name in [
        "champion.json",
        "champion-second.json",
        "state.json",
        "net.json",
        "best.json",
        "yardsticks.csv",
        "generations.csv",
        "config.toml",
    ] {
        let Ok(text) = std::fs::read_to_string(dir.join(name)) else {
            continue;
        };
        let text = if name == "generations.csv" {
            text.lines()
                .map(|l| {
                    let f: Vec<&str> = l.split(',').collect();
                    // `seconds` is the 11th column; a second population's
                    // columns follow it.
                    let mut kept = f[..10].to_vec();
                    kept.extend(&f[11..]);
                    kept.join(",") + "\n"
                })
                .collect()
        } else {
            text
        };
        files.push((name.to_string(), text));
    }
    files
}

fn config(name: &str) -> String {
    format!("{}/../../configs/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn three_ranks_write_the_single_process_folder() {
    let dir = Scratch::new("wopr-mpi", "three", true);
    for (name, generations) in [
        // Two populations, each against the other's elite and `perfect`.
        ("tictactoe-handa-es.toml", 4),
        // Exhaustive losses, a member per task.
        ("tictactoe-thesis-binary-exhaustive.toml", 2),
    ] {
        let stop = format!("stop.generations={generations}");
        let one = dir.join(format!("{name}-one"));
        let three = dir.join(format!("{name}-three"));
        ok(&wopr(&[
            "run",
            &config(name),
            "--set",
            &stop,
            "--out",
            s(&one),
            "-q",
        ]));
        ok(&mpirun(
            3,
            &[
                "run",
                &config(name),
                "--set",
                &stop,
                "--out",
                s(&three),
                "-q",
            ],
        ));
        let (a, b) = (folder(&one), folder(&three));
        assert!(
            a.len() >= 6,
            "{name}: {:?}",
            a.iter().map(|f| &f.0).collect::<Vec<_>>()
        );
        for ((file, x), (_, y)) in a.iter().zip(&b) {
            assert!(
                x == y,
                "{name}: {file} differs between 1 process and 3 ranks"
            );
        }
        assert_eq!(a.len(), b.len());
    }
}

#[test]
fn a_run_begun_on_two_ranks_resumes_on_three() {
    let dir = Scratch::new("wopr-mpi", "resume", true);
    let name = "tictactoe-handa-es.toml";
    let straight = dir.join("straight");
    ok(&wopr(&[
        "run",
        &config(name),
        "--set",
        "stop.generations=4",
        "--out",
        s(&straight),
        "-q",
    ]));
    let split = dir.join("split");
    ok(&mpirun(
        2,
        &[
            "run",
            &config(name),
            "--set",
            "stop.generations=2",
            "--out",
            s(&split),
            "-q",
        ],
    ));
    ok(&mpirun(
        3,
        &[
            "run",
            "--resume",
            s(&split),
            "--set",
            "stop.generations=4",
            "-q",
        ],
    ));
    let pick = |files: Vec<(String, String)>| -> Vec<(String, String)> {
        files
            .into_iter()
            .filter(|(f, _)| f.starts_with("champion") || f == "generations.csv")
            .collect()
    };
    assert_eq!(pick(folder(&straight)), pick(folder(&split)));
    // TD one game after another does not spread: refused on several
    // ranks, with the reason.
    let td = dir.join("td.toml");
    std::fs::write(
        &td,
        "game = 'tictactoe'\n[learner]\nkind = 'td'\nencoding = 'planes'\n[stop]\ngames = 10\n",
    )
    .unwrap();
    let out = mpirun(2, &["run", s(&td), "--out", s(&dir.join("td")), "-q"]);
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        text.contains("spreads over MPI ranks only in rounds"),
        "{text}"
    );
    // In rounds (`learner.batch`) it does, and 2 ranks learn the single
    // process's weights bit for bit.
    let rounds = dir.join("rounds.toml");
    std::fs::write(
        &rounds,
        "game = 'reversi:6x6'\n[learner]\nkind = 'td'\nencoding = 'ntuple3'\nalpha = 0.01\nlambda = 0.5\nbatch = 8\n[stop]\ngames = 800\n[yardsticks]\nevery = 400\n",
    )
    .unwrap();
    let (ranked, single) = (dir.join("rounds-2"), dir.join("rounds-1"));
    let out = mpirun(2, &["run", s(&rounds), "--out", s(&ranked), "-q"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = wopr(&["run", s(&rounds), "--out", s(&single), "-q"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let net = |d: &Path| std::fs::read_to_string(d.join("net.json")).unwrap();
    assert_eq!(net(&ranked), net(&single));
}

/// AlphaZero shares each round's self-play games between the ranks: 3
/// ranks write the single process's folder byte for byte, and a run begun
/// on 2 ranks resumes on 3 to the straight run's net.
#[test]
fn alphazero_rounds_spread_over_ranks() {
    let dir = Scratch::new("wopr-mpi", "alphazero", true);
    let cfg = dir.join("az.toml");
    std::fs::write(
        &cfg,
        "game = 'tictactoe'\nseed = 3\n[learner]\nkind = 'alphazero'\nhidden = [16]\nsims = 10\ngames = 9\nlockstep = 2\nwindow = 40\nsteps = 4\nbatch = 16\nrandom_plies = 2\n[stop]\nrounds = 4\n[yardsticks]\nevery = 2\nagainst = ['random']\ngames = 10\n",
    )
    .unwrap();
    let files = |d: &Path| -> Vec<String> {
        [
            "champion.json",
            "net.json",
            "state.json",
            "learning.csv",
            "yardsticks.csv",
        ]
        .iter()
        .map(|f| std::fs::read_to_string(d.join(f)).unwrap())
        .collect()
    };
    let (one, three) = (dir.join("az-1"), dir.join("az-3"));
    ok(&wopr(&["run", s(&cfg), "--out", s(&one), "-q"]));
    ok(&mpirun(3, &["run", s(&cfg), "--out", s(&three), "-q"]));
    assert!(files(&one) == files(&three), "3 ranks wrote another folder");
    let split = dir.join("az-split");
    ok(&mpirun(
        2,
        &[
            "run",
            s(&cfg),
            "--set",
            "stop.rounds=2",
            "--out",
            s(&split),
            "-q",
        ],
    ));
    ok(&mpirun(
        3,
        &["run", "--resume", s(&split), "--set", "stop.rounds=4", "-q"],
    ));
    assert_eq!(files(&one)[0], files(&split)[0]);
}
