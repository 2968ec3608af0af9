//! `wopr dataset` and `wopr train` end to end through the built binary: the
//! files they write, a trained net playing through `net:PATH`, and one-line
//! errors with a failing exit code.

mod cli_common;

use cli_common::{fails_with, ok, s, wopr, Scratch};

fn scratch(name: &str) -> Scratch {
    Scratch::new("wopr-cli-train", name, true)
}

#[test]
fn dataset_then_train_gives_a_net_that_plays() {
    let dir = scratch("flow");
    let csv = dir.join("ttt.csv");
    let net = dir.join("net.json");
    ok(&wopr(&[
        "dataset",
        "--game",
        "tictactoe",
        "--oracle",
        "perfect",
        "--positions",
        "200",
        "--seed",
        "3",
        "--out",
        s(&csv),
    ]));
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(header.starts_with("x0,") && header.contains(",y0,") && header.ends_with(",m8"));
    assert_eq!(lines.count(), 200);
    let info: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("ttt.csv.json")).unwrap()).unwrap();
    assert_eq!(info["game"], "tictactoe");
    assert_eq!(info["encoding"], "raw");
    assert_eq!(info["oracle"], "perfect");
    assert_eq!(info["kind"], "policy");

    let out = ok(&wopr(&[
        "train",
        "--data",
        s(&csv),
        "--hidden",
        "12",
        "--algo",
        "irprop+",
        "--epochs",
        "20",
        "--out",
        s(&net),
        "--json",
    ]));
    let report: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(report["epochs"], 20);
    assert!(report["loss"].as_f64().unwrap() < report["initial_loss"].as_f64().unwrap());
    for f in ["net.json", "net.loss.csv", "net.loss.png", "net.loss.svg"] {
        assert!(dir.join(f).is_file(), "{f} missing");
    }
    let log = std::fs::read_to_string(dir.join("net.loss.csv")).unwrap();
    assert!(log.starts_with("epoch,loss\n0,"));
    assert_eq!(log.lines().count(), 1 + 21, "a header and epochs 0..=20");
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&net).unwrap()).unwrap();
    assert_eq!(file["game"], "tictactoe");
    assert_eq!(file["player"], "policy");
    assert_eq!(
        file["architecture"]["layers"],
        serde_json::json!([9, 12, 9])
    );

    let spec = format!("net:{}", s(&net));
    let out = ok(&wopr(&[
        "play",
        "tictactoe",
        "--first",
        &spec,
        "--second",
        "random",
        "--games",
        "4",
        "-q",
    ]));
    assert!(out.contains("4 games"), "{out}");

    // A target loss stops early; a value dataset makes a greedy player.
    let vcsv = dir.join("v.csv");
    let vnet = dir.join("v.json");
    ok(&wopr(&[
        "dataset",
        "--game",
        "tictactoe",
        "--oracle",
        "alphabeta:depth=2",
        "--positions",
        "100",
        "--play",
        "alphabeta:depth=1",
        "--play",
        "random",
        "--encoding",
        "planes",
        "--out",
        s(&vcsv),
    ]));
    let out = ok(&wopr(&[
        "train",
        "--data",
        s(&vcsv),
        "--complete",
        "4",
        "--algo",
        "bp",
        "--lr",
        "0.05",
        "--momentum",
        "0.5",
        "--epochs",
        "5000",
        "--target-loss",
        "1e9",
        "--output",
        "tanh",
        "--out",
        s(&vnet),
        "--json",
    ]));
    let report: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(report["epochs"], 0, "the target is met before any epoch");
    assert_eq!(report["reached_target"], true);
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&vnet).unwrap()).unwrap();
    assert_eq!(file["encoding"], "planes");
    assert_eq!(file["player"], "greedy");
    assert_eq!(file["architecture"]["type"], "complete");
    let spec = format!("net:{}", s(&vnet));
    ok(&wopr(&[
        "play",
        "tictactoe",
        "--first",
        &spec,
        "--second",
        "random",
        "--games",
        "2",
        "-q",
    ]));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn dataset_oracle_strategy_lists_the_444_boards_of_the_thesis_set() {
    // The count is derived in crates/wopr/src/games/tictactoe/oracle.rs:
    // 444 symmetry-reduced boards, 210 to accept (target 0), 234 to reject.
    let dir = scratch("strategy");
    let csv = dir.join("thesis.csv");
    let out = ok(&wopr(&[
        "dataset",
        "--game",
        "tictactoe",
        "--oracle",
        "strategy",
        "--encoding",
        "planes",
        "--out",
        s(&csv),
    ]));
    assert!(out.contains("listed 444 boards"), "{out}");
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert!(lines.next().unwrap().ends_with(",x19,y0"));
    let targets: Vec<&str> = lines.map(|l| l.rsplit(',').next().unwrap()).collect();
    assert_eq!(targets.len(), 444);
    assert_eq!(targets.iter().filter(|&&t| t == "0").count(), 210);
    let info: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("thesis.csv.json")).unwrap())
            .unwrap();
    assert_eq!(
        (info["oracle"].as_str(), info["kind"].as_str()),
        (Some("strategy"), Some("value"))
    );

    let with = |extra: &[&str]| {
        let mut a = vec!["dataset", "--game", "tictactoe", "--out", s(&csv)];
        a.extend_from_slice(extra);
        wopr(&a)
    };
    fails_with(
        &with(&["--oracle", "strategy", "--positions", "5"]),
        "--positions does not apply to --oracle strategy",
    );
    fails_with(
        &with(&["--oracle", "strategy", "--play", "random"]),
        "do not apply to --oracle strategy",
    );
    fails_with(&with(&["--oracle", "perfect"]), "--positions is needed");
    fails_with(&with(&["--oracle", "strategy:x=1"]), "bad --oracle");
    fails_with(
        &wopr(&[
            "dataset",
            "--game",
            "connect4",
            "--oracle",
            "strategy",
            "--out",
            s(&csv),
        ]),
        "oracle 'strategy' does not apply to connect4",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn training_errors_are_one_line() {
    let dir = scratch("errors");
    let out_net = dir.join("n.json");
    let net = s(&out_net);
    let bad = dir.join("bad.csv");
    std::fs::write(&bad, "x0,x1,y0\n0,1,1\n1,oops,0\n").unwrap();
    fails_with(
        &wopr(&[
            "train",
            "--data",
            s(&bad),
            "--hidden",
            "2",
            "--epochs",
            "3",
            "--out",
            net,
        ]),
        "line 3, column 2 (x1): 'oops' is not a finite number",
    );
    let missing = dir.join("none.csv");
    fails_with(
        &wopr(&[
            "train",
            "--data",
            s(&missing),
            "--epochs",
            "3",
            "--out",
            net,
        ]),
        "cannot read",
    );
    let good = dir.join("xor.csv");
    std::fs::write(&good, "x0,x1,y0\n0,0,0\n0,1,1\n1,0,1\n1,1,0\n").unwrap();
    let g = s(&good);
    fails_with(
        &wopr(&[
            "train", "--data", g, "--algo", "irprop+", "--lr", "0.1", "--out", net,
        ]),
        "(--lr, --momentum) apply to algorithm bp only",
    );
    fails_with(
        &wopr(&["train", "--data", g, "--loss", "softmax-ce", "--out", net]),
        "needs at least two outputs",
    );
    fails_with(
        &wopr(&[
            "train",
            "--data",
            g,
            "--loss",
            "sigmoid-ce",
            "--output",
            "sigmoid",
            "--out",
            net,
        ]),
        "(--output linear)",
    );
    fails_with(
        &wopr(&["train", "--data", g, "--algo", "adam", "--out", net]),
        "accepted: bp",
    );
    fails_with(
        &wopr(&["train", "--data", g, "--hidden", "0", "--out", net]),
        "hidden layer 1 (--hidden) has 0 units",
    );
    // A description that does not match the CSV.
    std::fs::write(
        dir.join("xor.csv.json"),
        r#"{"game": "tictactoe", "encoding": "raw", "oracle": "perfect", "kind": "policy"}"#,
    )
    .unwrap();
    fails_with(
        &wopr(&["train", "--data", g, "--out", net]),
        "encoding raw of tictactoe has 9 inputs but the CSV has 2",
    );
    assert!(!out_net.exists(), "nothing written on errors");

    let csv = dir.join("d.csv");
    fails_with(
        &wopr(&[
            "dataset",
            "--game",
            "tictactoe",
            "--oracle",
            "level1",
            "--positions",
            "5",
            "--out",
            s(&csv),
        ]),
        "oracle 'level1' does not apply to tictactoe",
    );
    fails_with(
        &wopr(&[
            "dataset",
            "--game",
            "pig",
            "--oracle",
            "perfect",
            "--positions",
            "5",
            "--out",
            s(&csv),
        ]),
        "datasets need a board game",
    );
    fails_with(
        &wopr(&[
            "dataset",
            "--game",
            "tictactoe",
            "--oracle",
            "perfect",
            "--positions",
            "5",
            "--play",
            "random",
            "--play",
            "random",
            "--play",
            "random",
            "--out",
            s(&csv),
        ]),
        "give one or two players",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
