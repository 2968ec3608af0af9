//! `wopr grid` (issue 30, part 1): a grid file's tasks are every
//! combination of its axes; a task is the `wopr run` of the base config
//! with its settings, byte for byte; finished tasks are skipped and
//! started ones resumed; bad grids are one-line errors.

mod cli_common;

use std::path::Path;

use cli_common::{fails_with, ok, s, wopr, Scratch};

const CMAES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../configs/tictactoe-exhaustive-cmaes.toml"
);

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

#[test]
fn a_grid_runs_every_combination_once() {
    let dir = Scratch::new("wopr-cli-grid", "run", true);
    let out = dir.join("out");
    let grid = dir.join("grid.toml");
    std::fs::write(
        &grid,
        format!(
            "base = \"{CMAES}\"\nout = \"{}\"\n[axes]\nseed = [3, 4]\n\"stop.generations\" = [1, 2]\n\"yardsticks.games\" = [4]\n",
            s(&out)
        ),
    )
    .unwrap();
    // 2 × 2 × 1 tasks, the last key varying fastest (keys sorted).
    let list = ok(&wopr(&["grid", s(&grid), "--list"]));
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(lines.len(), 4, "{list}");
    assert!(
        lines[0].starts_with("0\t")
            && lines[0].contains("seed=3,stop.generations=1,yardsticks.games=4"),
        "{list}"
    );
    assert!(lines[3].contains("seed=4,stop.generations=2"), "{list}");
    assert!(lines.iter().all(|l| l.contains("to run")), "{list}");
    // One task, as a Slurm array job runs it: the same champion as the
    // plain `wopr run` with those settings.
    ok(&wopr(&["grid", s(&grid), "--task", "3"]));
    let task = out.join("seed=4,stop.generations=2,yardsticks.games=4");
    let plain = dir.join("plain");
    ok(&wopr(&[
        "run",
        CMAES,
        "--set",
        "seed=4",
        "--set",
        "stop.generations=2",
        "--set",
        "yardsticks.games=4",
        "--out",
        s(&plain),
        "-q",
    ]));
    assert_eq!(
        read(&task.join("champion.json")),
        read(&plain.join("champion.json"))
    );
    // A started task without its mark resumes; the finished one is skipped.
    let started = out.join("seed=3,stop.generations=1,yardsticks.games=4");
    ok(&wopr(&["grid", s(&grid), "--task", "0"]));
    std::fs::remove_file(started.join("grid-task-done")).unwrap();
    let all = ok(&wopr(&["grid", s(&grid), "--jobs", "2"]));
    assert!(
        all.contains("task 3 seed=4,stop.generations=2,yardsticks.games=4: done already"),
        "{all}"
    );
    assert!(
        all.contains("task 0 seed=3,stop.generations=1,yardsticks.games=4: resuming"),
        "{all}"
    );
    assert!(all.contains("4 tasks done"), "{all}");
    let list = ok(&wopr(&["grid", s(&grid), "--list"]));
    assert_eq!(list.matches("\tdone\t").count(), 4, "{list}");
    // The grid's report: a cell per generation count, two seeds each.
    let page = dir.join("grid.md");
    ok(&wopr(&["report", "--grid", s(&grid), "--out", s(&page)]));
    let md = read(&page);
    for cell in ["stop.generations=1", "stop.generations=2"] {
        let row = md
            .lines()
            .find(|l| {
                l.starts_with(&format!(
                    "| {cell}, yardsticks.games=4 | best fitness | 2 |"
                ))
            })
            .unwrap_or_else(|| panic!("no best-fitness row for {cell}: {md}"));
        assert!(row.contains('['), "{row}");
    }
}

#[test]
fn bad_grids_are_one_line_errors() {
    let dir = Scratch::new("wopr-cli-grid", "bad", true);
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let cases = [
        (
            write("nobase.toml", "base = \"none.toml\"\nout = \"o\"\n"),
            "is not a file",
        ),
        (
            write(
                "scalar.toml",
                &format!("base = \"{CMAES}\"\nout = \"o\"\n[axes]\nseed = 3\n"),
            ),
            "must be a list",
        ),
        (
            write("typo.toml", &format!("base = \"{CMAES}\"\nouts = \"o\"\n")),
            "unknown field",
        ),
    ];
    for (path, says) in &cases {
        fails_with(&wopr(&["grid", s(path), "--list"]), says);
    }
    let one = write(
        "one.toml",
        &format!("base = \"{CMAES}\"\nout = \"o\"\n[axes]\nseed = [1]\n"),
    );
    fails_with(&wopr(&["grid", s(&one), "--task", "5"]), "tasks 0 to 0");
}

/// Every grid in `configs/grids/` reads, and its tasks' configs set up
/// (the first task of each, for zero generations).
#[test]
fn every_shipped_grid_lists_its_tasks() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs/grids");
    let scratch = Scratch::new("wopr-cli-grid", "shipped", true);
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let list = ok(&wopr(&["grid", s(&path), "--list"]));
        let first = list.lines().next().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let base = text
            .lines()
            .find_map(|l| l.strip_prefix("base = \""))
            .and_then(|l| l.strip_suffix('"'))
            .unwrap();
        let mut args = vec![
            "run".to_string(),
            s(&path.parent().unwrap().join(base)).to_string(),
        ];
        for setting in first.split('\t').nth(3).unwrap().split(' ') {
            args.push("--set".into());
            args.push(setting.into());
        }
        let out = scratch.join(format!("task{seen}"));
        args.extend([
            "--set".into(),
            "stop.generations=0".into(),
            "--out".into(),
            s(&out).into(),
            "-q".into(),
        ]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(&wopr(&args));
        seen += 1;
    }
    assert!(seen >= 3, "only {seen} grids");
}
