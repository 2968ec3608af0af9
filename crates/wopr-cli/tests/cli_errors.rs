//! Bad input to `wopr evolve` and `wopr eval` (issue 11): a one-line error,
//! a non-zero exit, and nothing left behind.

mod cli_common;

use std::process::{Command, Output};

fn wopr(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wopr"))
        .args(args)
        .output()
        .unwrap()
}

fn one_line_error(out: &Output, says: &[&str]) {
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    for s in says {
        assert!(err.contains(s), "'{err}' lacks '{s}'");
    }
}

/// `wopr COMMAND CONFIG` with `text` as the config (file `NAME.toml` in
/// `base`) fails with one line saying each of `says`, and makes no run
/// folder.
fn refused_before_a_folder(
    base: &std::path::Path,
    command: &str,
    name: &str,
    text: &str,
    says: &[&str],
) {
    let cfg = base.join(format!("{name}.toml"));
    std::fs::write(&cfg, text).unwrap();
    let out_dir = base.join(format!("{name}-run"));
    let out = wopr(&[
        command,
        cfg.to_str().unwrap(),
        "--quiet",
        "--out",
        out_dir.to_str().unwrap(),
    ]);
    one_line_error(&out, says);
    assert!(!out_dir.exists(), "{text}");
}

#[test]
fn bad_configs_stop_before_a_run_folder_exists() {
    let base = cli_common::Scratch::new("wopr-cli", "errors", true);
    std::fs::create_dir_all(&base).unwrap();
    for (i, (text, says)) in [
        (
            "game = 'tictactoe'\n[genome]\nkind = 'bits'\nbits = 0\n",
            vec!["genome.bits = 0", "1..=32"],
        ),
        (
            "game = 'tictactoe'\n[algorithm]\nkind = 'one-plus-lambda'\npreset = 'no-such-preset'\n",
            vec!["line 4", "no-such-preset", "accepted", "handa-tictactoe"],
        ),
        (
            "game = 'virus'\n[net]\nhidden = [58, 27]\n[algorithm]\nkind = 'cma-es'\n",
            vec!["5391 weights", "MiB", "CMA-ES"],
        ),
    ]
    .into_iter()
    .enumerate()
    {
        refused_before_a_folder(&base, "evolve", &format!("bad{i}"), text, &says);
    }
}

#[test]
fn bad_alphazero_configs_are_one_line_errors_before_a_run_folder() {
    let base = cli_common::Scratch::new("wopr-cli", "az-errors", true);
    std::fs::create_dir_all(&base).unwrap();
    let head = "game = 'tictactoe'\n[learner]\nkind = 'alphazero'\n";
    for (i, (text, says)) in [
        (
            format!("{head}games = 0\n[stop]\nrounds = 2\n"),
            vec!["learner.games must be at least 1"],
        ),
        (
            format!("{head}noise = 2.0\n[stop]\nrounds = 2\n"),
            vec!["learner.noise = 2", "0..=1"],
        ),
        (
            format!("{head}encoding = 'nope'\n[stop]\nrounds = 2\n"),
            vec!["nope", "raw"],
        ),
        (
            format!("{head}sim = 5\n[stop]\nrounds = 2\n"),
            vec!["line 4", "sim"],
        ),
        (
            "game = 'pig'\n[learner]\nkind = 'alphazero'\n[stop]\nrounds = 2\n".to_string(),
            vec!["alphazero learns board games", "pig"],
        ),
    ]
    .into_iter()
    .enumerate()
    {
        refused_before_a_folder(&base, "run", &format!("az{i}"), &text, &says);
    }
}

#[test]
fn exhaustive_evaluation_gives_up_on_large_games() {
    let out = wopr(&[
        "eval",
        "--game",
        "connect4:6x6",
        "--player",
        "first",
        "--exhaustive",
    ]);
    one_line_error(&out, &["gave up", "connect4:6x6", "tictactoe"]);
}

/// `wopr pretrain --hidden 0` means a linear net and must stand alone.
#[test]
fn pretrain_hidden_zero_stands_alone() {
    let base = cli_common::Scratch::new("wopr-cli", "pretrain-hidden", false);
    let out = wopr(&[
        "pretrain",
        "--game",
        "virus",
        "--teachers",
        "ai:1",
        "--hidden",
        "0",
        "--hidden",
        "5",
        "--out",
        base.to_str().unwrap(),
    ]);
    one_line_error(&out, &["--hidden 0", "stands alone", "[0, 5]"]);
    assert!(!base.exists(), "nothing written");
}

#[test]
fn bad_gdl_sheets_are_one_line_errors_naming_the_rule() {
    let base = cli_common::Scratch::new("wopr-cli", "gdl-errors", true);
    std::fs::create_dir_all(&base).unwrap();
    let good = "(role a) (role b) (init (c 1)) (<= (legal ?r go) (role ?r))\n\
                (<= (next (c 2)) (true (c 1))) (<= terminal (true (c 2)))\n\
                (goal a 100) (goal b 0)\n";
    for (i, (text, says)) in [
        // Unbalanced parentheses.
        (format!("{good}(role c"), vec!["line 4", "unclosed"]),
        // An unsafe rule: ?x appears only under `not`.
        (
            format!("{good}(<= (next (c ?x)) (not (true (c ?x))))"),
            vec!["line 4", "?x"],
        ),
        // Negation through recursion: not stratified.
        (
            format!("{good}(<= p (not q)) (<= q (not p))"),
            vec!["line 4", "negation in a cycle"],
        ),
        // `legal` depending on `does`.
        (
            "(role a) (init (c 1)) (<= (legal a go) (does a go)) (<= (next (c 2)) (true (c 1)))\n\
             (<= terminal (true (c 2))) (goal a 100)"
                .to_string(),
            vec!["line 1", "does"],
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let sheet = base.join(format!("bad{i}.kif"));
        std::fs::write(&sheet, text).unwrap();
        let spec = format!("gdl:{}", sheet.display());
        one_line_error(&wopr(&["perft", &spec, "2"]), &says);
        one_line_error(&wopr(&["gdl", "check", sheet.to_str().unwrap()]), &says);
    }
    // A missing sheet, and players a sheet's turns do not allow.
    one_line_error(
        &wopr(&["perft", "gdl:/no/such/sheet.kif", "2"]),
        &["cannot read"],
    );
    let kuhn = concat!(env!("CARGO_MANIFEST_DIR"), "/../../gdl/kuhn.kif");
    let roshambo = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../gdl/ggp-base/roshambo2.kif"
    );
    for (sheet, player) in [(kuhn, "alphabeta"), (kuhn, "mcts"), (roshambo, "mcts")] {
        let out = wopr(&[
            "eval",
            "--game",
            &format!("gdl:{sheet}"),
            "--player",
            player,
            "--against",
            "random",
            "--games",
            "2",
        ]);
        one_line_error(&out, &[player]);
    }
}

/// `wopr games`, the README tour's first command, exits 0 and lists the
/// GDL entry with the spec form it needs (it has no default spec).
#[test]
fn wopr_games_lists_every_game_and_exits_zero() {
    let out = cli_common::wopr(&["games"]);
    let text = cli_common::ok(&out);
    assert!(text.contains("gdl:PATH.kif"), "{text}");
    let json = cli_common::ok(&cli_common::wopr(&["games", "--json"]));
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"gdl") && names.contains(&"reversi"),
        "{names:?}"
    );
}

/// `wopr gdl check` on a GDL-II sheet (with `sees`: Kuhn poker) reports it
/// instead of panicking, and names the kinds of turn truly: chance and
/// hidden information for Kuhn, and a one-role puzzle is one player at a
/// time with no chance.
#[test]
fn gdl_check_reports_gdl_ii_sheets_and_names_the_turns() {
    let kuhn = concat!(env!("CARGO_MANIFEST_DIR"), "/../../gdl/kuhn.kif");
    let text = cli_common::ok(&cli_common::wopr(&["gdl", "check", kuhn]));
    let turns = text.lines().find(|l| l.starts_with("turns:")).unwrap();
    assert!(
        turns.contains("chance") && turns.contains("hidden information"),
        "{turns}"
    );
    let dir = std::env::temp_dir().join(format!("wopr-gdl-turns-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let solo = dir.join("solo.kif");
    std::fs::write(
        &solo,
        "(role p) (init (n 0)) (legal p go) (legal p stay)\n\
         (<= (next (n 1)) (true (n 0)) (does p go))\n\
         (<= (next (n 0)) (true (n 0)) (does p stay))\n\
         (<= terminal (true (n 1))) (goal p 100)\n",
    )
    .unwrap();
    let text = cli_common::ok(&cli_common::wopr(&["gdl", "check", solo.to_str().unwrap()]));
    let turns = text.lines().find(|l| l.starts_with("turns:")).unwrap();
    assert_eq!(turns, "turns:      one player at a time", "{text}");
    std::fs::remove_dir_all(&dir).ok();
}

/// `wopr solve --position`: FFO endgame #40 (Edax's
/// `problem/fforum-40-59.obf`, first line; 20 empty squares, Black to
/// move) is +38 for Black, reached only by a2, as the suite gives it; bad
/// text, a game that reads no positions, and `--empties` on a solver
/// without that limit are one-line errors.
#[test]
fn solve_reads_a_reversi_position_as_the_ffo_suite_writes_it() {
    let ffo40 =
        "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36;";
    let out = wopr(&["solve", "reversi:8x8", "--position", ffo40, "--json"]);
    assert!(out.status.success(), "{out:?}");
    let out = String::from_utf8(out.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(v["score"], 38, "{out}");
    // a2 is square 8 (row by row from a1).
    assert_eq!(v["best"], serde_json::json!([8]), "{out}");
    // One more empty square than the 8x8 solver takes by default: refused
    // unless --empties lets it (not solved here: it would take seconds).
    let ffo40_less_h1 = ffo40.replacen("O--OOOOX", "O--OOOO-", 1);
    one_line_error(
        &wopr(&["solve", "reversi:8x8", "--position", &ffo40_less_h1]),
        &["21 empty squares is beyond the endgame solver's limit of 20 (--empties N raises it)"],
    );
    one_line_error(
        &wopr(&["solve", "reversi:8x8", "--position", "XO X"]),
        &["--position: the board has 2 squares, not 64"],
    );
    // FFO #41 starts with an empty square, written `-`: read as the
    // position, not as a flag (solving it, 22 empty squares, would take
    // seconds; refused by the default limit instead).
    let ffo41 = "-OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X";
    one_line_error(
        &wopr(&["solve", "reversi:8x8", "--position", ffo41]),
        &["22 empty squares is beyond"],
    );
    one_line_error(
        &wopr(&["solve", "tictactoe", "--position", "x"]),
        &["tictactoe reads no position from text"],
    );
    one_line_error(
        &wopr(&["solve", "tictactoe", "--empties", "9"]),
        &["has no limit on empty squares"],
    );
}

/// `wopr bench --solve FILE`: the solver's speed on `.obf` lines, each
/// margin checked against the file's score. FFO #40 (+38 for Black, the
/// suite's value) passes; the same board given +36 makes the run fail and
/// name the position, after printing both rows; a game other than reversi
/// is refused.
#[test]
fn bench_solve_times_the_solver_and_checks_each_score() {
    let dir = std::env::temp_dir().join(format!("wopr-bench-solve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("ffo.obf");
    let ffo40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
    std::fs::write(&file, format!("{ffo40}; A2:+38;\n")).unwrap();
    let f = file.to_str().unwrap();
    let out = wopr(&["bench", "--solve", f, "--json"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert_eq!(rows[0]["empties"], 20, "{text}");
    assert_eq!(rows[0]["margin"], 38, "{text}");
    assert!(rows[1]["nodes"].as_u64().unwrap() > 0, "{text}");
    std::fs::write(&file, format!("{ffo40}; A2:+38;\n{ffo40}; A2:+36;\n")).unwrap();
    let out = wopr(&["bench", "--solve", f]);
    one_line_error(&out, &["differs from the file's score at position(s) [2]"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 4);
    one_line_error(
        &wopr(&["bench", "--solve", f, "--game", "connect4"]),
        &["--solve times the reversi endgame solver", "not connect4"],
    );
    std::fs::remove_dir_all(&dir).ok();
}
