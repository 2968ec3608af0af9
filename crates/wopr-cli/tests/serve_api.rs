//! `wopr serve`'s JSON API: a whole game through the API, every game against
//! every kind of opponent, the refusals (4xx with a one-line reason), the
//! music downloads, and the bounded, expiring table of held games.

mod serve_common;

use serde_json::{json, Value};
use serve_common::{call, call_raw, client, Http, Server};

/// Plays `id` to the end: the person always takes the legal move with the
/// lowest action index, engines are asked when they are to move. Returns
/// the final snapshot.
async fn play_out(http: &Http, base: &str, first: Value) -> Value {
    let id = first["id"].as_str().unwrap().to_string();
    let mut g = first;
    for _ in 0..2000 {
        if !g["result"].is_null() {
            return g;
        }
        let (status, next) = if g["human_to_move"] == json!(true) {
            let a = g["legal"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["action"].as_u64().unwrap())
                .min()
                .expect("a person to move has legal moves");
            let body = json!({ "action": a }).to_string();
            call(
                http,
                "POST",
                &format!("{base}/api/games/{id}/move"),
                Some(&body),
            )
            .await
        } else {
            assert_eq!(g["engine_to_move"], json!(true), "nobody to move in {g}");
            call(http, "POST", &format!("{base}/api/games/{id}/engine"), None).await
        };
        assert_eq!(status, 200, "{next}");
        g = next;
    }
    panic!("game {id} did not end in 2000 requests");
}

async fn new_game(http: &Http, base: &str, body: Value) -> (u16, Value) {
    call(
        http,
        "POST",
        &format!("{base}/api/games"),
        Some(&body.to_string()),
    )
    .await
}

#[tokio::test]
async fn a_tictactoe_game_through_the_api_and_its_music() {
    let server = Server::start(&[]);
    let (http, base) = (client(), server.base.clone());
    let (status, g) = new_game(
        &http,
        &base,
        json!({"game": "tictactoe", "players": ["human", "first"], "seed": 1}),
    )
    .await;
    assert_eq!(status, 201, "{g}");
    assert_eq!(g["legal"].as_array().unwrap().len(), 9);
    assert_eq!(g["legal"][4]["notation"], "b2");
    assert_eq!(
        g["legal"][4]["target"],
        json!({"kind": "cell", "col": 1, "row": 1})
    );
    let id = g["id"].as_str().unwrap().to_string();

    // The engine may not move for the person, nor the person on the
    // engine's turn; an occupied square is refused with the legal list.
    let (s, e) = call(
        &http,
        "POST",
        &format!("{base}/api/games/{id}/engine"),
        None,
    )
    .await;
    assert_eq!(s, 409, "{e}");
    let url = format!("{base}/api/games/{id}/move");
    let (s, g) = call(&http, "POST", &url, Some(r#"{"move": "a1"}"#)).await;
    assert_eq!(s, 200, "{g}");
    assert_eq!(g["engine_to_move"], json!(true));
    let (s, e) = call(&http, "POST", &url, Some(r#"{"action": 4}"#)).await;
    assert_eq!(s, 409, "{e}");
    let (s, g) = call(
        &http,
        "POST",
        &format!("{base}/api/games/{id}/engine"),
        None,
    )
    .await;
    assert_eq!(s, 200, "{g}");
    let (s, e) = call(&http, "POST", &url, Some(r#"{"move": "a1"}"#)).await;
    assert_eq!(s, 400, "{e}");
    let reason = e["error"].as_str().unwrap();
    assert!(
        reason.contains("not legal") && reason.contains("c1"),
        "{reason}"
    );
    let (s, e) = call(&http, "POST", &url, Some(r#"{"action": 99999}"#)).await;
    assert_eq!(s, 400, "{e}");

    // The person always takes the lowest free square and `first` does the
    // same, so X fills a1 c1 b2 a3 and wins on the c1-a3 diagonal at ply 7.
    let g = play_out(&http, &base, g).await;
    let moves: Vec<&str> = g["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["notation"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["a1", "b1", "c1", "a2", "b2", "c2", "a3"]);
    assert_eq!(g["result"]["winner"], json!(0));
    assert_eq!(g["result"]["returns"], json!([1.0, -1.0]));
    assert_eq!(g["result"]["text"], "X (human) wins");
    // Every move sounds as a bar of three notes; the first starts on C2
    // (MIDI 60), the musicator's default reference note.
    for m in g["moves"].as_array().unwrap() {
        assert_eq!(m["bar"]["notes"].as_array().unwrap().len(), 3, "{m}");
    }
    assert_eq!(g["moves"][0]["bar"]["notes"][0], json!(60));
    let (s, e) = call(&http, "POST", &url, Some(r#"{"move": "c3"}"#)).await;
    assert_eq!(s, 409, "{e}");
    assert!(e["error"].as_str().unwrap().contains("over"), "{e}");

    let (s, midi) = call_raw(&http, "GET", &format!("{base}/api/games/{id}/midi"), None).await;
    assert_eq!(s, 200);
    assert_eq!(&midi[..4], b"MThd");
    let notes = wopr::music::read_notes(&midi).unwrap();
    assert_eq!(notes.len(), 7 * 3, "three notes per move");
    let (s, wav) = call_raw(&http, "GET", &format!("{base}/api/games/{id}/wav"), None).await;
    assert_eq!(s, 200);
    assert_eq!(&wav[..4], b"RIFF");
    // 7 bars of 2 s at 120 BPM plus the 2 s tail, 22,050 Hz, 16-bit stereo.
    let frames = (wav.len() - 44) / 4;
    assert_eq!(frames, 16 * 22_050);

    // A game whose music would last too long is not rendered as WAV.
    let slow = json!({"game": "tictactoe", "players": ["first", "first"], "tempo": 4,
        "music": {"bar_ticks": 19_200}});
    let (_, g) = new_game(&http, &base, slow).await;
    let g = play_out(&http, &base, g).await;
    let url = format!("{base}/api/games/{}/wav", g["id"].as_str().unwrap());
    let (s, e) = call(&http, "GET", &url, None).await;
    assert_eq!(s, 409, "7 bars of 40 quarters at 4 BPM, 600 s each: {e}");

    let (s, _) = call(&http, "DELETE", &format!("{base}/api/games/{id}"), None).await;
    assert_eq!(s, 200);
    let (s, e) = call(&http, "GET", &format!("{base}/api/games/{id}"), None).await;
    assert_eq!(s, 404, "{e}");
}

#[tokio::test]
async fn bad_requests_get_a_4xx_with_one_line() {
    let server = Server::start(&[]);
    let (http, base) = (client(), server.base.clone());
    let cases: Vec<(&str, String, u16, &str)> = vec![
        ("POST", r#"{"game": "chess", "players": ["human", "random"]}"#.into(), 400, "unknown game"),
        ("POST", r#"{"game": "connect4:3x3", "players": ["human", "random"]}"#.into(), 400, "connect4"),
        ("POST", r#"{"game": "tictactoe", "players": ["human", "grandmaster"]}"#.into(), 400, "unknown player"),
        ("POST", r#"{"game": "tictactoe", "players": ["human"]}"#.into(), 400, "2 player specs"),
        ("POST", r#"{"game": "tictactoe", "players": ["human", "alphabeta:depth=40"]}"#.into(), 400, "over this server's limit"),
        ("POST", r#"{"game": "tictactoe", "players": ["human", "net:/etc/passwd"]}"#.into(), 400, "not one this server offers"),
        ("POST", r#"{"game": "connect4:5x4", "players": ["human", "perfect:BOOK=/tmp/x"]}"#.into(), 400, "opens no book files"),
        ("POST", r#"{"game": "tictactoe", "players": ["human", "random"], "tempo": 0}"#.into(), 400, "tempo"),
        ("POST", r#"{"game": "tictactoe", "players": ["human", "random"], "music": {"references": ["H9"]}}"#.into(), 400, "music"),
        ("POST", r#"{"game": "tictactoe", "players": ["human", "random"], "colour": 1}"#.into(), 422, "colour"),
        ("POST", "{not json".into(), 400, ""),
        ("POST", format!(r#"{{"game": "{}", "players": []}}"#, "x".repeat(100_000)), 413, ""),
    ];
    for (method, body, want, says) in cases {
        let (s, e) = call(&http, method, &format!("{base}/api/games"), Some(&body)).await;
        assert_eq!(s, want, "{} -> {e}", &body[..body.len().min(80)]);
        let reason = e["error"]
            .as_str()
            .unwrap_or_else(|| panic!("no error line: {e}"));
        assert!(!reason.contains('\n') && !reason.is_empty(), "{reason:?}");
        assert!(reason.contains(says), "{reason:?} should say {says:?}");
    }
    let (s, e) = call(&http, "GET", &format!("{base}/api/games/0123"), None).await;
    assert_eq!(s, 404, "{e}");
    let (s, e) = call(&http, "GET", &format!("{base}/api/nothing"), None).await;
    assert_eq!(s, 404, "{e}");
    let (s, e) = call(&http, "GET", &format!("{base}/api/players?game=go"), None).await;
    assert_eq!(s, 400, "{e}");
    let (s, e) = call(&http, "GET", &format!("{base}/api/runs/..%2Fetc"), None).await;
    assert_eq!(s, 404, "{e}");
    // The server is still answering.
    let (s, _) = call(&http, "GET", &format!("{base}/api/games"), None).await;
    assert_eq!(s, 200);
}

/// A small, quick instance of each game (the defaults' solvers and longest
/// games would make the test slow).
const SMALL: &[&str] = &[
    "tictactoe",
    "connect4:5x4",
    "dots-and-boxes:2x2",
    "reversi:4x4",
    "virus:5x5",
    "breakthrough:3x4",
    "pig:target=10",
    "kuhn",
    "goofspiel:cards=4",
];

/// The kind of a player spec (`alphabeta`, `mcts`, `level1`, …), and a quick
/// instance of it.
fn quick(spec: &str) -> (String, String) {
    let kind = spec.split(':').next().unwrap().to_string();
    let quick = match kind.as_str() {
        "alphabeta" => "alphabeta:depth=2".to_string(),
        "mcts" => "mcts:sims=50".to_string(),
        _ => spec.to_string(),
    };
    (kind, quick)
}

#[tokio::test]
async fn the_offered_gdl_sheets_play_to_the_end() {
    let sheets = concat!(env!("CARGO_MANIFEST_DIR"), "/../../gdl");
    let server = Server::start(&["--gdl", sheets]);
    let (http, base) = (client(), server.base.clone());
    let (s, list) = call(&http, "GET", &format!("{base}/api/games"), None).await;
    assert_eq!(s, 200);
    let specs: Vec<String> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["spec"].as_str().unwrap().to_string())
        .filter(|s| s.starts_with("gdl:"))
        .collect();
    // The sheets directly in gdl/ (not ggp-base/): connect4 ×2, kuhn, nim,
    // tictactoe.
    assert_eq!(specs.len(), 5, "{specs:?}");
    for spec in &specs {
        let url = format!("{base}/api/players?game={spec}");
        let (s, p) = call(&http, "GET", &url, None).await;
        assert_eq!(s, 200, "{p}");
        for seats in [["human", "random"], ["random", "human"]] {
            let body = json!({"game": spec, "players": seats, "seed": 3});
            let (s, g) = new_game(&http, &base, body).await;
            assert_eq!(s, 201, "{spec} {seats:?}: {g}");
            let g = play_out(&http, &base, g).await;
            assert!(!g["result"].is_null(), "{spec}: {g}");
        }
    }
    // The same sheet by another path is refused.
    let body =
        json!({"game": format!("gdl:{sheets}/../gdl/nim.kif"), "players": ["human", "random"]});
    let (s, e) = new_game(&http, &base, body).await;
    assert_eq!(s, 400, "{e}");
}

#[tokio::test]
async fn every_game_plays_to_the_end_against_every_kind_of_opponent() {
    let server = Server::start(&[]);
    let (http, base) = (client(), server.base.clone());
    let (s, list) = call(&http, "GET", &format!("{base}/api/games"), None).await;
    assert_eq!(s, 200);
    // Every registered game but `gdl`, whose sheets are listed one by one
    // (none here: no `gdl/` folder beside the test).
    assert_eq!(
        list["games"].as_array().unwrap().len(),
        wopr::registry::games().len() - 1
    );
    let mut played = 0;
    for &spec in SMALL {
        let url = format!("{base}/api/players?game={spec}");
        let (s, p) = call(&http, "GET", &url, None).await;
        assert_eq!(s, 200, "{p}");
        let mut kinds: Vec<String> = Vec::new();
        for offered in p["players"].as_array().unwrap() {
            let (kind, player) = quick(offered.as_str().unwrap());
            if kinds.contains(&kind) {
                continue;
            }
            kinds.push(kind);
            for seats in [["human", player.as_str()], [player.as_str(), "human"]] {
                let body = json!({"game": spec, "players": seats, "seed": 7});
                let (s, g) = new_game(&http, &base, body).await;
                assert_eq!(s, 201, "{spec} {seats:?}: {g}");
                let g = play_out(&http, &base, g).await;
                let r = &g["result"];
                let sum: f64 = r["returns"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_f64().unwrap())
                    .sum();
                assert_eq!(sum, 0.0, "{spec} {seats:?}: zero-sum returns {r}");
                assert!(!g["moves"].as_array().unwrap().is_empty());
                played += 1;
            }
        }
        // Where the game has a solver, `perfect` is offered; the board
        // games offer alpha-beta.
        let offered: Vec<&str> = p["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        let has = |k: &str| offered.iter().any(|o| o.starts_with(k));
        let board = [
            "tictactoe",
            "connect4",
            "dots",
            "reversi",
            "virus",
            "breakthrough",
        ]
        .iter()
        .any(|b| spec.starts_with(b));
        assert_eq!(has("alphabeta"), board, "{spec}: {offered:?}");
        if spec.starts_with("tictactoe") || spec.starts_with("connect4") {
            assert!(has("perfect"), "{spec}: {offered:?}");
        }
    }
    // At least random and first for each of the 9 games, both seats.
    assert!(played >= 9 * 2 * 2, "{played}");
}

#[tokio::test]
async fn board_targets_cover_columns_edges_jumps_and_buttons() {
    let server = Server::start(&[]);
    let (http, base) = (client(), server.base.clone());
    let target_kinds = |g: &Value| -> Vec<String> {
        let mut k: Vec<String> = g["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["target"]["kind"].as_str().unwrap().to_string())
            .collect();
        k.dedup();
        k
    };
    let (_, g) = new_game(
        &http,
        &base,
        json!({"game": "connect4:6x6", "players": ["human", "random"]}),
    )
    .await;
    assert_eq!(target_kinds(&g), ["column"]);
    assert_eq!(g["board"]["cols"], 6);
    let (_, g) = new_game(
        &http,
        &base,
        json!({"game": "dots-and-boxes", "players": ["human", "random"]}),
    )
    .await;
    assert_eq!(target_kinds(&g), ["edge"]);
    assert_eq!(
        g["legal"].as_array().unwrap().len(),
        24,
        "3x3 boxes have 24 edges"
    );
    // Virus's first moves from a1: grows to the neighbours and jumps to the
    // squares two away.
    let (_, g) = new_game(
        &http,
        &base,
        json!({"game": "virus", "players": ["human", "random"]}),
    )
    .await;
    let kinds = target_kinds(&g);
    assert!(
        kinds.contains(&"cell".to_string()) && kinds.contains(&"jump".to_string()),
        "{kinds:?}"
    );
    let jump = g["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["target"]["kind"] == "jump")
        .unwrap();
    assert_eq!(jump["target"]["from"], json!([0, 0]), "{jump}");
    let (_, g) = new_game(
        &http,
        &base,
        json!({"game": "pig", "players": ["human", "random"]}),
    )
    .await;
    assert_eq!(target_kinds(&g), ["button"]);
    assert_eq!(g["board"]["kind"], "text");
    // Kuhn: the person sees their own card only.
    let (_, g) = new_game(
        &http,
        &base,
        json!({"game": "kuhn", "players": ["human", "random"], "seed": 3}),
    )
    .await;
    assert_eq!(target_kinds(&g), ["button"]);
    assert!(
        g["moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["seat"].is_null()),
        "the deal is a chance move: {g}"
    );
}

#[tokio::test]
async fn held_games_are_limited_and_expire_when_idle() {
    let server = Server::start(&["--max-games", "3", "--idle-secs", "1"]);
    let (http, base) = (client(), server.base.clone());
    let body = json!({"game": "tictactoe", "players": ["human", "random"]});
    let mut ids = Vec::new();
    for _ in 0..3 {
        let (s, g) = new_game(&http, &base, body.clone()).await;
        assert_eq!(s, 201);
        ids.push(g["id"].as_str().unwrap().to_string());
    }
    let (s, e) = new_game(&http, &base, body.clone()).await;
    assert_eq!(s, 503, "{e}");
    assert!(e["error"].as_str().unwrap().contains("limit of 3"), "{e}");
    tokio::time::sleep(std::time::Duration::from_millis(2500)).await;
    let (s, _) = call(&http, "GET", &format!("{base}/api/games/{}", ids[0]), None).await;
    assert_eq!(s, 404, "an idle game expires");
    let (s, _) = new_game(&http, &base, body).await;
    assert_eq!(s, 201);
}

#[tokio::test]
async fn a_run_folder_shows_its_tables_plots_and_champion() {
    let root = std::env::temp_dir().join(format!("wopr-serve-runs-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let runs = root.join("runs");
    std::fs::create_dir_all(&runs).unwrap();
    let config = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../configs/tictactoe-exhaustive-cmaes.toml"
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wopr"))
        .args(["evolve", config, "--generations", "1", "--out"])
        .arg(runs.join("r1"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let server = Server::start(&[
        "--runs",
        runs.to_str().unwrap(),
        "--champions",
        root.join("none").to_str().unwrap(),
    ]);
    let (http, base) = (client(), server.base.clone());
    let (s, list) = call(&http, "GET", &format!("{base}/api/runs"), None).await;
    assert_eq!(s, 200);
    assert_eq!(list["runs"], json!(["r1"]));
    let (s, r) = call(&http, "GET", &format!("{base}/api/runs/r1"), None).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["game"], "tictactoe");
    assert_eq!(r["live"], json!(true), "generations.csv was just written");
    assert_eq!(r["generations"]["rows"].as_array().unwrap().len(), 1);
    assert!(r["generations"]["header"]
        .as_array()
        .unwrap()
        .contains(&json!("best")));
    assert_eq!(r["plots"], json!(["fitness.png", "yardsticks.png"]));
    let (s, png) = call_raw(
        &http,
        "GET",
        &format!("{base}/api/runs/r1/fitness.png"),
        None,
    )
    .await;
    assert_eq!(s, 200);
    assert_eq!(&png[1..4], b"PNG");
    let (s, e) = call(
        &http,
        "GET",
        &format!("{base}/api/runs/r1/checkpoint.json"),
        None,
    )
    .await;
    assert_eq!(s, 404, "{e}");
    // The champion is offered for its game only, and plays.
    let champion = r["champion"].as_str().unwrap().to_string();
    let (_, p) = call(
        &http,
        "GET",
        &format!("{base}/api/players?game=tictactoe"),
        None,
    )
    .await;
    assert!(
        p["players"].as_array().unwrap().contains(&json!(champion)),
        "{p}"
    );
    let (_, p) = call(
        &http,
        "GET",
        &format!("{base}/api/players?game=connect4"),
        None,
    )
    .await;
    assert!(
        !p["players"].as_array().unwrap().contains(&json!(champion)),
        "{p}"
    );
    let body = json!({"game": "tictactoe", "players": ["human", champion]});
    let (s, g) = new_game(&http, &base, body).await;
    assert_eq!(s, 201, "{g}");
    let g = play_out(&http, &base, g).await;
    assert!(!g["result"].is_null());
    drop(server);
    std::fs::remove_dir_all(&root).ok();
}
