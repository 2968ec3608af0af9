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
        let cfg = base.join(format!("bad{i}.toml"));
        std::fs::write(&cfg, text).unwrap();
        let out_dir = base.join(format!("run{i}"));
        let out = wopr(&[
            "evolve",
            cfg.to_str().unwrap(),
            "--quiet",
            "--out",
            out_dir.to_str().unwrap(),
        ]);
        one_line_error(&out, &says);
        assert!(!out_dir.exists(), "{text}");
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
