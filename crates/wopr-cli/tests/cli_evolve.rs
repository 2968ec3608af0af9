//! `wopr evolve` killed in the middle of a run and resumed with `--resume`
//! finishes with exactly the champion of an uninterrupted run.

mod cli_common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use cli_common::Scratch;

const CONFIG: &str = r#"
game = "tictactoe"
seed = 3
[net]
encoding = "planes"
hidden = [6]
[algorithm]
kind = "ga"
preset = "thesis-real"
population = 16
[fitness]
scheme = "fixed"
opponents = ["random", "perfect"]
games_per_seat = 6
[stop]
generations = 60
"#;

fn wopr() -> Command {
    Command::new(env!("CARGO_BIN_EXE_wopr"))
}

fn dir(name: &str) -> Scratch {
    Scratch::new("wopr-cli", name, false)
}

fn generations_done(d: &Path) -> usize {
    std::fs::read_to_string(d.join("generations.csv"))
        .map(|t| t.lines().count().saturating_sub(1))
        .unwrap_or(0)
}

#[test]
fn killed_and_resumed_run_matches_a_straight_run() {
    let cfg_dir = dir("cfg");
    std::fs::create_dir_all(&*cfg_dir).unwrap();
    let cfg = cfg_dir.join("config.toml");
    std::fs::write(&cfg, CONFIG).unwrap();

    let straight = dir("straight");
    let ok = wopr()
        .args(["evolve", cfg.to_str().unwrap(), "--quiet", "--out"])
        .arg(&straight)
        .status()
        .unwrap();
    assert!(ok.success());

    let killed = dir("killed");
    let mut child = wopr()
        .args(["evolve", cfg.to_str().unwrap(), "--quiet", "--out"])
        .arg(&killed)
        .spawn()
        .unwrap();
    let t = Instant::now();
    while generations_done(&killed) < 5 && t.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let at_kill = generations_done(&killed);
    assert!(at_kill < 60, "the run finished before it could be killed");

    let ok = wopr()
        .args(["evolve", "--quiet", "--resume"])
        .arg(&killed)
        .status()
        .unwrap();
    assert!(ok.success());
    let a = std::fs::read_to_string(straight.join("champion.json")).unwrap();
    let b = std::fs::read_to_string(killed.join("champion.json")).unwrap();
    assert_eq!(a, b, "killed after {at_kill} generations");
    let rows = |d: &Path| -> Vec<String> {
        std::fs::read_to_string(d.join("generations.csv"))
            .unwrap()
            .lines()
            // Drop the wall-clock column.
            .map(|l| l.rsplit_once(',').unwrap().0.to_string())
            .collect()
    };
    assert_eq!(rows(&straight), rows(&killed));
}

#[test]
fn a_bad_config_is_a_one_line_error() {
    let cfg_dir = dir("bad");
    std::fs::create_dir_all(&*cfg_dir).unwrap();
    let cfg = cfg_dir.join("config.toml");
    std::fs::write(
        &cfg,
        "game = \"tictactoe\"\n[fitness]\nscheme = \"telepathy\"\n",
    )
    .unwrap();
    let out = wopr()
        .args(["evolve", cfg.to_str().unwrap(), "--out"])
        .arg(dir("badrun"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("telepathy") && err.contains("accepted"),
        "{err}"
    );
}

/// `--set SECTION.KEY=VALUE` changes one key of the config for this run (the
/// folder's `config.toml` records it); a malformed setting or an unknown key
/// is a one-line error.
#[test]
fn set_overrides_config_keys() {
    let cfg_dir = dir("set");
    std::fs::create_dir_all(&*cfg_dir).unwrap();
    let cfg = cfg_dir.join("config.toml");
    std::fs::write(&cfg, CONFIG).unwrap();
    let run = dir("setrun");
    let ok = wopr()
        .args([
            "evolve",
            cfg.to_str().unwrap(),
            "--quiet",
            "--generations",
            "1",
        ])
        .args(["--set", "net.hidden=[2]", "--set", "algorithm.population=4"])
        .args(["--set", "net.bias=\"none\"", "--out"])
        .arg(&run)
        .output()
        .unwrap();
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let as_run = std::fs::read_to_string(run.join("config.toml")).unwrap();
    let t: toml::Table = as_run.parse().unwrap();
    assert_eq!(t["net"]["hidden"].as_array().unwrap().len(), 1);
    assert_eq!(t["net"]["hidden"][0].as_integer(), Some(2));
    assert_eq!(t["net"]["bias"].as_str(), Some("none"));
    assert_eq!(t["algorithm"]["population"].as_integer(), Some(4));
    for (bad, says) in [
        ("net.hidden", "KEY=VALUE"),
        ("net.bias=none", "not a TOML value"),
        ("net.nope=1", "nope"),
        ("game.x=1", "not a section"),
    ] {
        let out = wopr()
            .args(["evolve", cfg.to_str().unwrap(), "--set", bad, "--out"])
            .arg(dir("setbad"))
            .output()
            .unwrap();
        assert!(!out.status.success(), "{bad}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(says), "{bad}: {err}");
    }
}
