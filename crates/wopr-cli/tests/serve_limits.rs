//! `wopr serve`'s limits (issue 26): crafted player specs are refused with a
//! 4xx and one line before any file is opened or any search starts; offered
//! nets are taken by name or by their listed path only; an `ms` above the
//! move deadline is lowered to it; and engine moves at the largest settings
//! the server allows come back within the deadline.

mod serve_common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use serve_common::{call, client, Http, Server};

/// A small Connect-4 6x6 net shipped with wopr.
const C4_NET: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../champions/connect4-6x6-cmaes.json"
);

/// A scratch folder with a champions folder holding one offered net
/// (`c4.json`) and the traps: a symbolic link to a net outside, a JSON file
/// that is no net, a nested net, and a named pipe (opening it for reading
/// would block the server for ever, so a request that touched it would not
/// come back).
fn champions_with_traps(tag: &str) -> (PathBuf, PathBuf) {
    let root = std::env::temp_dir().join(format!("wopr-serve-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let champions = root.join("champions");
    std::fs::create_dir_all(champions.join("sub")).unwrap();
    std::fs::copy(C4_NET, champions.join("c4.json")).unwrap();
    std::fs::copy(C4_NET, champions.join("sub/deep.json")).unwrap();
    std::fs::copy(C4_NET, root.join("outside.json")).unwrap();
    std::fs::write(champions.join("notes.json"), "{\"x\": 1}").unwrap();
    std::os::unix::fs::symlink(root.join("outside.json"), champions.join("link.json")).unwrap();
    let fifo = champions.join("pipe.json");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success(), "mkfifo {}", fifo.display());
    (root, champions)
}

/// POSTs a new game; fails the test if the server does not answer within
/// 20 s (it would hang on the named pipe).
async fn new_game(http: &Http, base: &str, game: &str, players: [&str; 2]) -> (u16, Value) {
    let body = json!({"game": game, "players": players, "seed": 1}).to_string();
    tokio::time::timeout(
        Duration::from_secs(20),
        call(http, "POST", &format!("{base}/api/games"), Some(&body)),
    )
    .await
    .unwrap_or_else(|_| panic!("no answer to {players:?} on {game}"))
}

#[tokio::test]
async fn crafted_specs_are_refused_before_any_file_or_search() {
    let (root, champions) = champions_with_traps("crafted");
    let dir = champions.display().to_string();
    let server = Server::start(&[
        "--champions",
        &dir,
        "--runs",
        root.join("none").to_str().unwrap(),
        "--move-ms",
        "2000",
    ]);
    let (http, base) = (client(), server.base.clone());
    let c4 = "connect4:6x6";
    let outside = root.join("outside.json").display().to_string();
    let dotdot = format!("{dir}/../champions/c4.json");
    let crafted: Vec<(&str, String, &str)> = vec![
        // Mixed-case keys and kinds, values over the caps.
        (c4, "alphabeta:DEPTH=64".into(), "limit of 10"),
        (c4, "AlphaBeta:Depth=11".into(), "limit of 10"),
        (c4, "alphabeta:Depth=40,MS=999999".into(), "limit of 10"),
        (c4, "mcts:Sims=5000000".into(), "limit of 200000"),
        (c4, "MCTS:SIMS=200001".into(), "limit of 200000"),
        (c4, "Net:c4,PLY=12".into(), "limit of 10"),
        (c4, "NET:c4,Mode=AlphaBeta,Ply=11".into(), "limit of 10"),
        ("reversi:8x8", "PERFECT:Empties=25".into(), "limit of 24"),
        ("reversi:8x8", "Standard:DEPTH=11".into(), "limit of 10"),
        ("virus", "AI:3,Depth=7".into(), "1..=6"),
        // Files the server does not offer, in any case of `net`.
        (c4, "NET:/etc/passwd".into(), "not one this server offers"),
        (c4, "net:/etc/passwd".into(), "not one this server offers"),
        (c4, format!("net:{dotdot}"), "not one this server offers"),
        (c4, format!("net:{outside}"), "not one this server offers"),
        (
            c4,
            format!("net:{dir}/./c4.json"),
            "not one this server offers",
        ),
        (
            c4,
            format!("net:{dir}//c4.json"),
            "not one this server offers",
        ),
        (
            c4,
            format!("net:{dir}/link.json"),
            "not one this server offers",
        ),
        (c4, "net:link".into(), "not one this server offers"),
        (
            c4,
            format!("net:{dir}/notes.json"),
            "not one this server offers",
        ),
        (c4, "net:Cargo.toml".into(), "not one this server offers"),
        (
            c4,
            format!("net:{dir}/sub/deep.json"),
            "not one this server offers",
        ),
        (
            c4,
            format!("net:{dir}/pipe.json"),
            "not one this server offers",
        ),
        (c4, "net:pipe".into(), "not one this server offers"),
        (c4, "net:C4".into(), "not one this server offers"),
        // The same inside an MCTS rollout.
        (
            c4,
            "mcts:rollout=NET:/etc/passwd".into(),
            "not one this server offers",
        ),
        (
            c4,
            "MCTS:Sims=100,Rollout=Net:/etc/passwd".into(),
            "not one this server offers",
        ),
        (
            c4,
            format!("mcts:rollout=net:{dir}/pipe.json"),
            "not one this server offers",
        ),
        (
            c4,
            format!("mcts:rollout=net:{dotdot}"),
            "not one this server offers",
        ),
        (
            c4,
            "mcts:sims=200001,rollout=net:c4".into(),
            "limit of 200000",
        ),
        // An offered net for another game.
        ("connect4:7x6", "net:c4".into(), "made for connect4:6x6"),
        // Not a player at all.
        (c4, "mcts:rollout=mcts".into(), "rollout"),
        (c4, "alphabeta:depth=3,ms=0".into(), "ms"),
        // An outside engine: no request starts a program (issue 43), in
        // any case of the kind, the marker file never made.
        (
            "reversi:8x8",
            "gtp:/usr/bin/touch /tmp/wopr-serve-gtp-ran".into(),
            "starts no programs",
        ),
        (
            "reversi:8x8",
            "GTP:/usr/games/gtp-rhino -l 1,ms=100".into(),
            "starts no programs",
        ),
        // GDL sheets other than the server's own gdl/NAME.kif, in any case.
        (
            "gdl:/etc/passwd",
            "random".into(),
            "only the GDL sheets it offers",
        ),
        (
            "GDL:/etc/passwd",
            "random".into(),
            "only the GDL sheets it offers",
        ),
        (
            "gdl:gdl/../Cargo.toml",
            "random".into(),
            "only the GDL sheets it offers",
        ),
        (
            "gdl:gdl/sub/x.kif",
            "random".into(),
            "only the GDL sheets it offers",
        ),
        (
            "gdl:gdl/pipe",
            "random".into(),
            "only the GDL sheets it offers",
        ),
        (
            "Gdl:./gdl/tictactoe.kif",
            "random".into(),
            "only the GDL sheets it offers",
        ),
    ];
    let _ = std::fs::remove_file("/tmp/wopr-serve-gtp-ran");
    for (game, spec, says) in &crafted {
        let (s, e) = new_game(&http, &base, game, ["human", spec]).await;
        let reason = e["error"].as_str().unwrap_or_default();
        assert!((400..500).contains(&s), "{spec} on {game}: {s} {e}");
        assert!(
            !reason.contains('\n') && reason.contains(says),
            "{spec} on {game}: {reason:?} should say {says:?}"
        );
    }
    assert!(
        !std::path::Path::new("/tmp/wopr-serve-gtp-ran").exists(),
        "a gtp: spec in a request started a program"
    );

    // The offered net, by name and by its listed path, in any case of the
    // kind; an `ms` above the deadline is lowered to it.
    let listed = format!("{dir}/c4.json");
    let accepted: Vec<(String, Vec<String>)> = vec![
        ("NET:c4".into(), vec![format!("net:{listed}")]),
        (
            format!("net:{listed},ply=2"),
            vec![format!("net:{listed}"), "ply=2".into()],
        ),
        (
            "mcts:Sims=100,Rollout=net:c4".into(),
            vec![
                "mcts:sims=100,".into(),
                "ms=2000".into(),
                format!("rollout=net:{listed}"),
            ],
        ),
        (
            "AlphaBeta:Depth=4,MS=999999".into(),
            vec!["alphabeta:depth=4,ms=2000".into()],
        ),
    ];
    for (spec, runs_as) in &accepted {
        let (s, g) = new_game(&http, &base, c4, [spec, "human"]).await;
        assert_eq!(s, 201, "{spec}: {g}");
        let engine = g["engines"][0].as_str().unwrap();
        for part in runs_as {
            assert!(
                engine.contains(part.as_str()),
                "{spec} runs as {engine}: no {part}"
            );
        }
        let id = g["id"].as_str().unwrap();
        let (s, g) = call(
            &http,
            "POST",
            &format!("{base}/api/games/{id}/engine"),
            None,
        )
        .await;
        assert_eq!(s, 200, "{spec} moves: {g}");
        assert_eq!(g["moves"].as_array().unwrap().len(), 1);
    }

    // The page lists the offered nets by name.
    let (s, p) = call(&http, "GET", &format!("{base}/api/players?game={c4}"), None).await;
    assert_eq!(s, 200);
    assert_eq!(p["nets"], json!([{"name": "c4", "path": listed}]));
    assert!(p["players"].as_array().unwrap().contains(&json!("net:c4")));
    assert_eq!(p["limits"]["ms"], json!(2000));
    std::fs::remove_dir_all(&root).unwrap();
}

/// The move deadline of the deadline test (ms), and what a loaded machine
/// may add to it before the answer is back.
const DEADLINE_MS: u64 = 300;
const SLACK_MS: u64 = 1500;

/// Asks the engine to move in `id` and returns the snapshot, failing the
/// test when the answer takes longer than the deadline and slack.
async fn timed_engine_move(http: &Http, base: &str, id: &str, what: &str) -> Value {
    let start = Instant::now();
    let (s, g) = call(http, "POST", &format!("{base}/api/games/{id}/engine"), None).await;
    let took = start.elapsed();
    println!("{what}: {took:?}");
    assert_eq!(s, 200, "{what}: {g}");
    assert!(
        took < Duration::from_millis(DEADLINE_MS + SLACK_MS),
        "{what}: the move took {took:?}, over the {DEADLINE_MS} ms deadline"
    );
    g
}

#[tokio::test]
async fn engine_moves_at_the_largest_settings_keep_the_deadline() {
    let server = Server::start(&[
        "--champions",
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../champions"),
        "--move-ms",
        &DEADLINE_MS.to_string(),
    ]);
    let (http, base) = (client(), server.base.clone());
    // Each of these searches for long without the deadline (measured in
    // release builds: Connect-4 7x6 `perfect` over a minute for its first
    // move, `alphabeta` without a depth goes on to 64 plies, Virus `ai` at
    // depth 6 took 32 s for two games, Reversi `standard` at depth 12 19 s).
    let largest = [
        ("connect4:7x6", "alphabeta:depth=10"),
        ("connect4:7x6", "alphabeta"),
        ("connect4:7x6", "mcts:sims=200000"),
        ("connect4:7x6", "perfect"),
        (
            "connect4:6x6",
            "net:connect4-6x6-walk8,mode=alphabeta,ply=10",
        ),
        ("reversi:8x8", "standard:depth=10"),
        ("reversi:8x8", "alphabeta:depth=10"),
        ("virus", "ai:1,depth=6"),
    ];
    for (game, spec) in largest {
        let (s, g) = new_game(&http, &base, game, [spec, "random"]).await;
        assert_eq!(s, 201, "{spec}: {g}");
        let id = g["id"].as_str().unwrap().to_string();
        timed_engine_move(&http, &base, &id, &format!("{spec} on {game}")).await;
    }
    // Reversi's endgame solve from 24 empties: play a game out against a
    // quick opponent, each perfect move within the deadline.
    let (s, g) = new_game(
        &http,
        &base,
        "reversi:8x8",
        ["perfect:empties=24", "standard:depth=1"],
    )
    .await;
    assert_eq!(s, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let mut g = g;
    while g["result"].is_null() {
        g = timed_engine_move(&http, &base, &id, "perfect:empties=24 on reversi:8x8").await;
    }
}
