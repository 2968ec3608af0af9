//! Load: 200 clients play Connect-4 at once against `alphabeta:depth=2`
//! through the API while engine-heavy clients keep asking for the strongest
//! engines the server allows (each move runs to the deadline); every light
//! request must succeed, heavy ones may only be told to retry (503 with
//! `Retry-After`), and the server's memory must stay bounded. Prints the
//! wall time and the server's peak resident memory. `WOPR_LOAD_CLIENTS=N`
//! changes the number of light clients, `WOPR_LOAD_OPPONENT=SPEC` their
//! opponent. Latency figures come from the benchmark (`cargo bench -p
//! wopr-cli --bench serve_load`), not from this test.

mod serve_common;

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use serve_common::{call, call_full, client, Http, Server};

/// The server's peak resident memory must stay below this (MiB). Measured
/// 34 MiB for 200 light clients alone and 71 MiB for 1000 (2-core
/// machine): held games are a few KiB each, and players are pooled, at
/// most two per engine slot. The heavy clients add a Connect-4 `perfect`
/// player (a 64 MiB solver table) and a 200,000-simulation MCTS tree:
/// 115 MiB measured with both; the limit leaves room for a second solver
/// table resting in the pool.
const PEAK_RSS_LIMIT_MIB: u64 = 200;

/// One client: a new game, then the person's moves (a fixed pattern per
/// client) and the engine's until the end. Returns the errors met and the
/// requests made.
async fn one_client(http: Http, base: String, k: usize, opponent: String) -> (usize, usize) {
    let body = json!({"game": "connect4", "players": ["human", opponent], "seed": k});
    let (s, mut g) = call(
        &http,
        "POST",
        &format!("{base}/api/games"),
        Some(&body.to_string()),
    )
    .await;
    let mut requests = 1;
    if s != 201 {
        eprintln!("client {k}: new game: {s} {g}");
        return (1, requests);
    }
    let id = g["id"].as_str().unwrap_or_default().to_string();
    let mut ply = 0usize;
    while g["result"].is_null() {
        let (s, next): (u16, Value) = if g["human_to_move"] == json!(true) {
            let legal = g["legal"].as_array().cloned().unwrap_or_default();
            if legal.is_empty() {
                return (1, requests);
            }
            let a = &legal[(k + ply * 3) % legal.len()]["action"];
            let body = json!({ "action": a }).to_string();
            call(
                &http,
                "POST",
                &format!("{base}/api/games/{id}/move"),
                Some(&body),
            )
            .await
        } else {
            call(
                &http,
                "POST",
                &format!("{base}/api/games/{id}/engine"),
                None,
            )
            .await
        };
        requests += 1;
        ply += 1;
        if s != 200 {
            eprintln!("client {k}: {s} {next}");
            return (1, requests);
        }
        g = next;
        if ply > 200 {
            eprintln!("client {k}: no end after 200 plies");
            return (1, requests);
        }
    }
    (0, requests)
}

/// Engine-heavy clients: games against the strongest engines the server
/// allows, whose moves all run to the deadline.
const HEAVY: &[(&str, &str)] = &[
    ("connect4:7x6", "perfect"),
    ("reversi:8x8", "mcts:sims=200000"),
];

/// Engine moves each heavy client asks for.
const HEAVY_MOVES: usize = 4;

/// One heavy client: engine moves in a game of two engines, waiting as told
/// when the server is busy. Returns the errors met (any answer but 200, or
/// a 503 without `Retry-After`) and the 503s.
async fn heavy_client(http: Http, base: String, k: usize) -> (usize, usize) {
    let (game, engine) = HEAVY[k % HEAVY.len()];
    let body = json!({"game": game, "players": [engine, engine], "seed": k});
    let (s, g) = call(
        &http,
        "POST",
        &format!("{base}/api/games"),
        Some(&body.to_string()),
    )
    .await;
    if s != 201 {
        eprintln!("heavy client {k}: new game: {s} {g}");
        return (1, 0);
    }
    let id = g["id"].as_str().unwrap_or_default().to_string();
    let (mut moved, mut busy) = (0, 0);
    while moved < HEAVY_MOVES {
        let (s, retry, body) = call_full(
            &http,
            "POST",
            &format!("{base}/api/games/{id}/engine"),
            None,
        )
        .await;
        match (s, retry) {
            (200, _) => moved += 1,
            (503, Some(secs)) => {
                busy += 1;
                tokio::time::sleep(Duration::from_secs(secs.min(2))).await;
            }
            _ => {
                eprintln!("heavy client {k}: {s} {}", String::from_utf8_lossy(&body));
                return (1, busy);
            }
        }
    }
    (0, busy)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_clients_play_at_once_beside_heavy_engines() {
    let clients: usize = std::env::var("WOPR_LOAD_CLIENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let opponent =
        std::env::var("WOPR_LOAD_OPPONENT").unwrap_or_else(|_| "alphabeta:depth=2".into());
    // Four engine slots, two heavy clients: a slot is always left for the
    // light clients, whose moves then wait at most one light move.
    let server = Server::start(&["--engines", "4", "--move-ms", "500"]);
    let http = client();
    let start = Instant::now();
    let heavy: Vec<_> = (0..HEAVY.len())
        .map(|k| tokio::spawn(heavy_client(http.clone(), server.base.clone(), k)))
        .collect();
    let tasks: Vec<_> = (0..clients)
        .map(|k| {
            tokio::spawn(one_client(
                http.clone(),
                server.base.clone(),
                k,
                opponent.clone(),
            ))
        })
        .collect();
    let (mut errors, mut requests) = (0, 0);
    for t in tasks {
        let (e, r) = t.await.expect("client task");
        errors += e;
        requests += r;
    }
    let (mut heavy_errors, mut busy) = (0, 0);
    for t in heavy {
        let (e, b) = t.await.expect("heavy client task");
        heavy_errors += e;
        busy += b;
    }
    let wall = start.elapsed().as_secs_f64();
    let peak = server.peak_rss_kib().unwrap_or(0);
    println!(
        "load: {clients} clients against {opponent}, {requests} requests, {errors} errors; {} heavy clients, {heavy_errors} errors, {busy} told to retry; {wall:.2} s wall, server peak RSS {:.1} MiB",
        HEAVY.len(),
        peak as f64 / 1024.0
    );
    assert_eq!(errors, 0);
    assert_eq!(heavy_errors, 0);
    assert!(
        peak / 1024 < PEAK_RSS_LIMIT_MIB,
        "peak RSS {peak} KiB is over {PEAK_RSS_LIMIT_MIB} MiB"
    );
}
