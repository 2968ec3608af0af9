//! Load benchmark of `wopr serve` (issue 26): N clients at once each load
//! the page, ask for the players, and play a whole game through the API
//! against the strongest engine the server allows, on Connect-4 7x6
//! (`perfect`) and Reversi 8x8 (`perfect:empties=24`), and, for scale,
//! against `alphabeta:depth=4` on Connect-4 7x6. The person's moves
//! are random (seeded per client); a 503 is waited out as its `Retry-After`
//! says. Reports the latency of page/API requests and of engine moves (p50,
//! p99, max), the 5xx answers (503 with `Retry-After` apart), and the
//! server's peak resident memory.
//!
//! `cargo bench -p wopr-cli --bench serve_load`; `WOPR_BENCH_CLIENTS`
//! (default 200), `WOPR_BENCH_MOVE_MS` (the server's `--move-ms`, default
//! 100) and `WOPR_BENCH_ENGINES` (`--engines`, default the cores) change the
//! run.

#[path = "../tests/serve_common/mod.rs"]
mod serve_common;

use std::time::{Duration, Instant};

use rand::RngExt;
use serde_json::{json, Value};
use serve_common::{call_full, client, Http, Server};

/// What one client saw.
#[derive(Default)]
struct Seen {
    /// Latencies of page and API requests other than engine moves (ms).
    api: Vec<f64>,
    /// Latencies of engine moves that were answered 200, waits for a slot
    /// included (ms).
    engine: Vec<f64>,
    /// 503 answers with `Retry-After`.
    busy: usize,
    /// Other 5xx answers.
    errors_5xx: usize,
    /// Any other unexpected answer.
    other: usize,
    /// Games played to the end.
    finished: usize,
}

/// Sends a request, timing it; the status, `Retry-After` and JSON body.
async fn timed(
    http: &Http,
    method: &str,
    url: &str,
    body: Option<&str>,
) -> (u16, Option<u64>, Value, f64) {
    let start = Instant::now();
    let (s, retry, bytes) = call_full(http, method, url, body).await;
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let v = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (s, retry, v, ms)
}

/// Counts a failed answer; whether to wait and retry.
fn failed(seen: &mut Seen, status: u16, retry: Option<u64>) -> Option<u64> {
    match (status, retry) {
        (503, Some(secs)) => {
            seen.busy += 1;
            return Some(secs);
        }
        (500..=599, _) => seen.errors_5xx += 1,
        _ => seen.other += 1,
    }
    None
}

/// One client's whole game of `game` against `engine`.
async fn one_client(http: Http, base: String, k: u64, game: &str, engine: &str) -> Seen {
    let mut seen = Seen::default();
    let mut rng = wopr::game::rng::stream(k, &[]);
    for url in ["/".to_string(), format!("/api/players?game={game}")] {
        let (s, r, _, ms) = timed(&http, "GET", &format!("{base}{url}"), None).await;
        seen.api.push(ms);
        if s != 200 {
            failed(&mut seen, s, r);
        }
    }
    let seats = if k.is_multiple_of(2) {
        ["human", engine]
    } else {
        [engine, "human"]
    };
    let body = json!({"game": game, "players": seats, "seed": k}).to_string();
    let mut g = loop {
        let (s, r, g, ms) = timed(&http, "POST", &format!("{base}/api/games"), Some(&body)).await;
        seen.api.push(ms);
        match s {
            201 => break g,
            _ => match failed(&mut seen, s, r) {
                Some(secs) => tokio::time::sleep(Duration::from_secs(secs)).await,
                None => return seen,
            },
        }
    };
    let id = g["id"].as_str().unwrap_or_default().to_string();
    for _ in 0..500 {
        if !g["result"].is_null() {
            seen.finished += 1;
            break;
        }
        let person = g["human_to_move"] == json!(true);
        let (s, r, next, ms) = if person {
            let legal = g["legal"].as_array().cloned().unwrap_or_default();
            let a = &legal[rng.random_range(0..legal.len().max(1))]["action"];
            let body = json!({ "action": a }).to_string();
            timed(
                &http,
                "POST",
                &format!("{base}/api/games/{id}/move"),
                Some(&body),
            )
            .await
        } else {
            timed(
                &http,
                "POST",
                &format!("{base}/api/games/{id}/engine"),
                None,
            )
            .await
        };
        if s == 200 {
            if person {
                seen.api.push(ms);
            } else {
                seen.engine.push(ms);
            }
            g = next;
            // The page polls the game's state after each move.
            let (s, r, _, ms) = timed(&http, "GET", &format!("{base}/api/games/{id}"), None).await;
            seen.api.push(ms);
            if s != 200 {
                failed(&mut seen, s, r);
            }
            continue;
        }
        // A refused engine move is counted as a 503, not timed as a move.
        if person {
            seen.api.push(ms);
        }
        match failed(&mut seen, s, r) {
            Some(secs) => tokio::time::sleep(Duration::from_secs(secs)).await,
            None => break,
        }
    }
    seen
}

/// The `q` quantile of `xs` (nearest rank).
fn quantile(xs: &mut [f64], q: f64) -> f64 {
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.sort_by(|a, b| a.total_cmp(b));
    let i = ((q * xs.len() as f64).ceil() as usize).clamp(1, xs.len()) - 1;
    xs[i]
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let clients = env_or("WOPR_BENCH_CLIENTS", 200);
    let move_ms = env_or("WOPR_BENCH_MOVE_MS", 100).to_string();
    let mut args = vec!["--move-ms", move_ms.as_str()];
    let engines = std::env::var("WOPR_BENCH_ENGINES").unwrap_or_default();
    if !engines.is_empty() {
        args.extend(["--engines", engines.as_str()]);
    }
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    println!(
        "wopr serve load: {clients} clients, --move-ms {move_ms}{}",
        if engines.is_empty() {
            String::new()
        } else {
            format!(", --engines {engines}")
        }
    );
    println!("game          engine              games  api p50/p99/max ms      engine p50/p99/max ms     503+RA  other 5xx  other  peak RSS");
    for (game, engine) in [
        // The load the page sees most: a mid-strength engine.
        ("connect4:7x6", "alphabeta:depth=4"),
        ("connect4:7x6", "perfect"),
        ("reversi:8x8", "perfect:empties=24"),
    ] {
        let server = Server::start(&args);
        let http = client();
        let start = Instant::now();
        let mut all = rt.block_on(async {
            let tasks: Vec<_> = (0..clients)
                .map(|k| {
                    tokio::spawn(one_client(
                        http.clone(),
                        server.base.clone(),
                        k,
                        game,
                        engine,
                    ))
                })
                .collect();
            let mut all = Seen::default();
            for t in tasks {
                let s = t.await.expect("client task");
                all.api.extend(s.api);
                all.engine.extend(s.engine);
                all.busy += s.busy;
                all.errors_5xx += s.errors_5xx;
                all.other += s.other;
                all.finished += s.finished;
            }
            all
        });
        let peak = server.peak_rss_kib().unwrap_or(0) as f64 / 1024.0;
        let (a50, a99, amax) = (
            quantile(&mut all.api, 0.5),
            quantile(&mut all.api, 0.99),
            quantile(&mut all.api, 1.0),
        );
        let (e50, e99, emax) = (
            quantile(&mut all.engine, 0.5),
            quantile(&mut all.engine, 0.99),
            quantile(&mut all.engine, 1.0),
        );
        println!(
            "{game:<13} {engine:<19} {:>5}  {a50:>6.1}/{a99:>6.1}/{amax:>7.1}   {e50:>6.1}/{e99:>6.1}/{emax:>7.1}   {:>6}  {:>9}  {:>5}  {peak:.1} MiB   ({:.0} s)",
            all.finished,
            all.busy,
            all.errors_5xx,
            all.other,
            start.elapsed().as_secs_f64()
        );
    }
}
