//! Load: 200 clients play Connect-4 at once against `alphabeta:depth=2`
//! through the API; every request must succeed and the server's memory stay
//! bounded. Prints the wall time and the server's peak resident memory.
//! `WOPR_LOAD_CLIENTS=N` changes the number of clients,
//! `WOPR_LOAD_OPPONENT=SPEC` the opponent.

mod serve_common;

use std::time::Instant;

use serde_json::{json, Value};
use serve_common::{call, client, Http, Server};

/// The server's peak resident memory must stay below this (MiB). Measured
/// 34 MiB for 200 clients and 71 MiB for 1000 (2-core machine): held games
/// are a few KiB each, and the alpha-beta players (about 4 MiB of table
/// each) are pooled, at most 2 per core working at once.
const PEAK_RSS_LIMIT_MIB: u64 = 128;

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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_clients_play_at_once_without_errors() {
    let clients: usize = std::env::var("WOPR_LOAD_CLIENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let opponent =
        std::env::var("WOPR_LOAD_OPPONENT").unwrap_or_else(|_| "alphabeta:depth=2".into());
    let server = Server::start(&[]);
    let http = client();
    let start = Instant::now();
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
    let wall = start.elapsed().as_secs_f64();
    let peak = server.peak_rss_kib().unwrap_or(0);
    println!(
        "load: {clients} clients against {opponent}, {requests} requests, {errors} errors, {wall:.2} s wall, server peak RSS {:.1} MiB",
        peak as f64 / 1024.0
    );
    assert_eq!(errors, 0);
    assert!(
        peak / 1024 < PEAK_RSS_LIMIT_MIB,
        "peak RSS {peak} KiB is over {PEAK_RSS_LIMIT_MIB} MiB"
    );
}
