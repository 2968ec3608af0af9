//! The memory budget of grounding a GDL sheet from the command line: the
//! spec's `memory=`, `wopr gdl check --memory`, `wopr gdl suite --memory`,
//! `wopr ggp match --memory` and the environment variable `WOPR_GDL_MEMORY`. A budget too small
//! refuses the sheet in one line naming the budget and how to raise it; a
//! larger one loads it; a value that is not a size is a one-line error
//! saying what is accepted.

mod cli_common;

use std::process::{Command, Output};

use cli_common::{fails_with, ok, wopr, Scratch};

const C4: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../gdl/connect4-6x6.kif");

/// `wopr ARGS` with `WOPR_GDL_MEMORY` set to `budget`.
fn wopr_env(budget: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wopr"))
        .env("WOPR_GDL_MEMORY", budget)
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn a_small_budget_refuses_a_sheet_in_one_line_and_a_large_one_loads_it() {
    let small = format!("gdl:{C4},memory=64K");
    let out = wopr(&["perft", &small, "2"]);
    fails_with(&out, "grounding exceeds the memory budget of 64 KiB");
    let err = String::from_utf8_lossy(&out.stderr);
    for says in [
        "too large to load within 64 KiB",
        "gdl:PATH.kif,memory=128K",
        "WOPR_GDL_MEMORY=128K",
    ] {
        assert!(err.contains(says), "'{err}' lacks '{says}'");
    }
    fails_with(
        &wopr(&["gdl", "check", C4, "--memory", "64K"]),
        "grounding exceeds the memory budget of 64 KiB",
    );
    fails_with(
        &wopr_env("64K", &["perft", &format!("gdl:{C4}"), "1"]),
        "grounding exceeds the memory budget of 64 KiB",
    );
    // The spec's `memory=` wins over the environment.
    let text = ok(&wopr_env(
        "64K",
        &["perft", &format!("gdl:{C4},memory=64M"), "2"],
    ));
    assert!(text.contains("2 36"), "{text}");
    let text = ok(&wopr(&["gdl", "check", C4, "--memory", "64M"]));
    let memory = text.lines().find(|l| l.starts_with("memory:")).unwrap();
    assert!(memory.ends_with("(budget 64 MiB)"), "{memory}");
    assert!(text.contains("the compiled ground program"), "{text}");
    let text = ok(&wopr_env("2G", &["gdl", "check", C4]));
    assert!(text.contains("(budget 2 GiB)"), "{text}");
}

#[test]
fn the_suite_passes_its_budget_to_each_sheet() {
    let dir = cli_common::Scratch::new("wopr-cli", "gdl-budget-suite", true);
    let manifest = dir.join("one.tsv");
    std::fs::write(
        &manifest,
        format!("{C4}\t-\t-\t6\t36\t216\tagreed\n")
            .replace(concat!(env!("CARGO_MANIFEST_DIR"), "/../../"), ""),
    )
    .unwrap();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
    let args = |budget: &'static str| {
        let m = cli_common::s(&manifest).to_string();
        let out = wopr(&[
            "gdl",
            "suite",
            &m,
            "--root",
            root,
            "--seconds",
            "30",
            "--memory",
            budget,
        ]);
        ok(&out)
    };
    let refused = args("64K");
    assert!(
        refused.contains("refused: line ")
            && refused.contains("grounding exceeds the memory budget of 64 KiB"),
        "{refused}"
    );
    let agrees = args("64M");
    assert!(agrees.contains("agrees"), "{agrees}");
}

#[test]
fn bad_budgets_are_one_line_errors_saying_what_is_accepted() {
    for value in ["lots", "512", "0M", "1e3G"] {
        let out = wopr(&["perft", &format!("gdl:{C4},memory={value}"), "1"]);
        fails_with(&out, &format!("memory='{value}'"));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("accepted: ") && err.contains("512M"), "{err}");
        let out = wopr_env(value, &["perft", &format!("gdl:{C4}"), "1"]);
        fails_with(&out, &format!("WOPR_GDL_MEMORY: '{value}'"));
        // clap's own error, with the same reason.
        let out = wopr(&["gdl", "check", C4, "--memory", value]);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--memory") && err.contains("512M"), "{err}");
    }
    fails_with(
        &wopr(&["perft", &format!("gdl:{C4},memroy=1G"), "1"]),
        "memory=…",
    );
}

/// The game manager grounds the match's sheet within `--memory` (else
/// the environment's budget) before it calls any player: too small a
/// budget refuses the sheet in one line, and a bad value is clap's error.
#[test]
fn the_game_manager_grounds_within_its_budget() {
    // The URLs are never called: the sheet is refused first.
    let args = [
        "ggp",
        "match",
        C4,
        "127.0.0.1:1",
        "127.0.0.1:2",
        "--memory",
        "64K",
    ];
    fails_with(
        &wopr(&args),
        "grounding exceeds the memory budget of 64 KiB",
    );
    let out = wopr_env("64K", &["ggp", "match", C4, "127.0.0.1:1", "127.0.0.1:2"]);
    fails_with(&out, "grounding exceeds the memory budget of 64 KiB");
    for cmd in [
        &["ggp", "--memory", "lots"][..],
        &["ggp", "match", C4, "x:1", "--memory", "lots"],
    ] {
        let out = wopr(cmd);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--memory") && err.contains("512M"), "{err}");
    }
}

/// A one-player count to 3 whose goal reads a relation of 10^5 atoms
/// (five digits): only the goal rules pass a 1 MiB budget, so the moves
/// and next states are grounded and goals and `terminal` resolved top
/// down; with 64 MiB all of it is grounded.
const BIG_GOAL: &str = "(role p) (init (count 0)) (succ 0 1) (succ 1 2) (succ 2 3)
(<= (legal p step) (true (count ?n)) (succ ?n ?m))
(<= (next (count ?m)) (true (count ?n)) (succ ?n ?m))
(<= terminal (true (count 3)))
(n 0) (n 1) (n 2) (n 3) (n 4) (n 5) (n 6) (n 7) (n 8) (n 9)
(<= (big ?a ?b ?c ?d ?e) (n ?a) (n ?b) (n ?c) (n ?d) (n ?e))
(<= (goal p 100) (true (count 3)) (big 1 2 3 4 5))
(<= (goal p 0) (not (true (count 3))))";

#[test]
fn goal_rules_too_large_to_ground_are_resolved_top_down() {
    let dir = Scratch::new("wopr-gdl-budget", "big-goal", true);
    let sheet = dir.join("big.kif");
    std::fs::write(&sheet, BIG_GOAL).unwrap();
    let path = sheet.to_str().unwrap();
    let text = ok(&wopr(&["gdl", "check", path, "--memory", "1M"]));
    assert!(
        text.contains("goals and terminal by top-down resolution")
            && text.contains("the rest by the compiled ground program"),
        "{text}"
    );
    let text = ok(&wopr(&["gdl", "check", path, "--memory", "64M"]));
    assert!(
        text.contains("reasoner:   the compiled ground program"),
        "{text}"
    );
    // One step a ply until the count reaches 3, where the game ends.
    let text = ok(&wopr(&["perft", &format!("gdl:{path},memory=1M"), "4"]));
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.contains(&"3 1") && lines.contains(&"4 0"), "{text}");
}
