//! `wopr ggp --port PORT --player SPEC`: a GGP player over HTTP. Every
//! POST body is one message (`wopr::games::gdl::ggp::Message`); the answer
//! is `text/acl`. Matches are held by id (at most [`MAX_MATCHES`] at once,
//! the oldest dropped first); each follows its position one GDL step per
//! `play`, and its player thinks on a blocking thread under a deadline.
//!
//! **Clocks.** A move is answered within the play clock less a margin (a
//! fifth of the clock, 100 ms to 2 s) for the network: the player is built
//! with a time budget of the clock less twice the margin (a lower `ms=` in
//! the spec is kept), and a player still thinking at the clock less the
//! margin is left to finish alone while the best move it has found so far
//! is answered (`Player::share_best`: MCTS posts it as it searches), or a
//! random legal move where it has posted none; the match builds a fresh
//! player for its next move.
//!
//! **GDL-II.** A sheet with the `random` role or `sees` is played with
//! GDL-II's messages, and the player follows its information set instead
//! of the position (`gdl2.rs`).
//!
//! **Errors.** A malformed message (garbage, bytes that are not UTF-8, a
//! truncated S-expression, a sheet that does not load within the memory
//! budget) is a 400, an unknown match id (a `play` before its `start`) a
//! 404, a second `start` of a held id a 409, each with a one-line reason;
//! a body over 8 MiB is a 413, and bytes that are not HTTP get hyper's
//! 400. Nothing a request says ends the server or another match: the
//! messages are read by the library (`Message::from_bytes`,
//! `Position::start`, `Position::to_move`, which the fuzz target
//! `ggp_message` drives without a server).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use tokio::sync::Mutex;
use wopr::game::rng::stream;
use wopr::game::{ActionList, BestSoFar, Player, State, Turn};
use wopr::games::gdl::ast::Term;
use wopr::games::gdl::game::Gdl;
use wopr::games::gdl::ggp::{Belief, Message, Position};
use wopr::players::PlayerSpec;

use super::PlayerArgs;

mod gdl2;

/// The most matches held at once.
pub const MAX_MATCHES: usize = 16;

/// The default player's iterations: more than any clock allows, so time
/// ends the search.
const DEFAULT_PLAYER: &str = "mcts:sims=10000000";

/// One match in progress.
struct Match {
    /// The order the match was started in (for the streams and eviction).
    number: u64,
    position: Position,
    role: usize,
    play_clock: Duration,
    /// The player's spec, its time budget set.
    spec: PlayerSpec,
    /// The built player; `None` while it thinks past a deadline (a fresh
    /// one is built for the next move).
    player: Option<Box<dyn Player<Gdl>>>,
    /// A GDL-II match's information set and how moves are chosen over it
    /// (`None` on a GDL sheet).
    gdl2: Option<gdl2::Gdl2>,
}

struct Server {
    spec: Option<String>,
    /// The grounding budget of every match's sheet.
    budget: wopr::games::gdl::ground::Budget,
    name: String,
    seed: u64,
    matches: std::sync::Mutex<HashMap<String, Arc<Mutex<Match>>>>,
    started: std::sync::atomic::AtomicU64,
}

/// The part of the play clock kept back for the network.
fn margin(clock: Duration) -> Duration {
    (clock / 5).clamp(Duration::from_millis(100), Duration::from_secs(2))
}

/// A sheet every player spec of a two-player game fits, to check
/// `--player` before any match.
const CHECK_SHEET: &str = include_str!("../../../../../gdl/tictactoe.kif");

/// Runs the player until Ctrl-C.
pub fn run(args: &PlayerArgs) -> anyhow::Result<()> {
    if let Some(spec) = &args.player {
        let game = Gdl::from_text("gdl/tictactoe.kif", CHECK_SHEET, 10_000)?;
        PlayerSpec::parse(&game, spec).map_err(|e| anyhow::anyhow!("bad --player: {e}"))?;
    }
    let budget = super::budget_of(args.memory)?;
    let server = Arc::new(Server {
        spec: args.player.clone(),
        budget,
        name: args.name.clone(),
        seed: args.seed,
        matches: std::sync::Mutex::new(HashMap::new()),
        started: 0.into(),
    });
    crate::http::runtime()?.block_on(async move {
        let (listener, local) = crate::http::listen(args.host, args.port).await?;
        println!(
            "wopr ggp: a GGP player listening on http://{local}/ (player: {}; Ctrl-C stops)",
            args.player
                .as_deref()
                .unwrap_or("mcts, or random where it does not apply")
        );
        let app = axum::Router::new()
            .fallback(handle)
            .with_state(server)
            // A rule sheet of a large game is some hundred kilobytes.
            .layer(axum::extract::DefaultBodyLimit::max(8 << 20));
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .context("server failed")
    })
}

/// An answer: the status and one line of text.
fn reply(status: StatusCode, text: impl Into<String>) -> Response {
    (
        status,
        [
            (header::CONTENT_TYPE, "text/acl"),
            // Browser-based managers post across origins.
            (header::ACCESS_CONTROL_ALLOW_ORIGIN, "*"),
        ],
        text.into(),
    )
        .into_response()
}

async fn handle(
    axum::extract::State(server): axum::extract::State<Arc<Server>>,
    method: axum::http::Method,
    body: axum::body::Bytes,
) -> Response {
    if method == axum::http::Method::OPTIONS {
        return reply(StatusCode::OK, "");
    }
    let arrived = Instant::now();
    let message = match Message::from_bytes(&body) {
        Ok(m) => m,
        Err(e) => return reply(StatusCode::BAD_REQUEST, format!("bad message: {e}")),
    };
    match message {
        Message::Info => {
            let busy = !server.lock().is_empty();
            let status = if busy { "busy" } else { "available" };
            reply(
                StatusCode::OK,
                format!("((name {}) (status {status}))", server.name),
            )
        }
        Message::Start {
            id,
            role,
            rules,
            play_clock,
            ..
        } => start(&server, id, role, rules, play_clock).await,
        Message::Play { id, moves } => {
            let Some(m) = server.find(&id) else {
                return unknown(&id);
            };
            let mut m = m.lock().await;
            if m.gdl2.is_some() {
                return gdl2::wrong_form(&id, true);
            }
            play(&server, &mut m, &id, moves, arrived).await
        }
        Message::PlayII { id, seen } => {
            let Some(m) = server.find(&id) else {
                return unknown(&id);
            };
            let mut m = m.lock().await;
            gdl2::play(&server, &mut m, &id, seen, arrived).await
        }
        Message::StopII { id, seen } => {
            let Some(m) = server.remove(&id) else {
                return unknown(&id);
            };
            let m = m.lock().await;
            gdl2::stop(&m, &id, &seen);
            reply(StatusCode::OK, "done")
        }
        Message::Stop { id, moves } => {
            let Some(m) = server.remove(&id) else {
                return unknown(&id);
            };
            let mut m = m.lock().await;
            if m.gdl2.is_some() {
                // A GDL stop of a GDL-II match: over all the same.
                eprintln!("match {id}: stopped with a GDL stop message");
                return reply(StatusCode::OK, "done");
            }
            if let Some(moves) = moves {
                // A last joint move that does not fit is only logged: the
                // match is over either way.
                if let Err(e) = m.position.play(&moves) {
                    eprintln!("match {id}: the last moves do not fit ({e})");
                }
            }
            eprintln!(
                "match {id}: over after {} steps; goals {}",
                m.position.step(),
                m.position.goal_summary()
            );
            reply(StatusCode::OK, "done")
        }
        Message::Abort { id } => match server.remove(&id) {
            Some(_) => {
                eprintln!("match {id}: aborted");
                reply(StatusCode::OK, "aborted")
            }
            None => unknown(&id),
        },
    }
}

fn unknown(id: &str) -> Response {
    reply(
        StatusCode::NOT_FOUND,
        format!("no match '{id}' is being played here (start it first)"),
    )
}

impl Server {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Mutex<Match>>>> {
        self.matches.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn find(&self, id: &str) -> Option<Arc<Mutex<Match>>> {
        self.lock().get(id).cloned()
    }

    fn remove(&self, id: &str) -> Option<Arc<Mutex<Match>>> {
        self.lock().remove(id)
    }

    /// The spec played in a match of `game`: `--player` where it fits the
    /// sheet, else MCTS, else random; its time budget set from the clock.
    fn spec_for(&self, game: &Gdl, id: &str, clock: Duration) -> PlayerSpec {
        let given = self
            .spec
            .as_deref()
            .and_then(|s| match PlayerSpec::parse(game, s) {
                Ok(spec) => Some(spec),
                Err(e) => {
                    eprintln!(
                        "match {id}: --player does not fit this sheet ({e}); playing the default"
                    );
                    None
                }
            });
        let mut spec = given
            .or_else(|| PlayerSpec::parse(game, DEFAULT_PLAYER).ok())
            .unwrap_or(PlayerSpec::Random);
        let budget = clock.saturating_sub(2 * margin(clock));
        spec.limit_time(budget.max(Duration::from_millis(10)));
        spec
    }
}

async fn start(
    server: &Arc<Server>,
    id: String,
    role: String,
    rules: String,
    play_clock: Duration,
) -> Response {
    if server.find(&id).is_some() {
        return reply(
            StatusCode::CONFLICT,
            format!("match '{id}' is already being played here"),
        );
    }
    // Grounding a sheet can take a while: off the async workers.
    let name = format!("match {id}");
    let budget = server.budget;
    let role_of = role.clone();
    let loaded =
        tokio::task::spawn_blocking(move || Position::start(&name, &rules, &role_of, budget)).await;
    let (position, r) = match loaded {
        Ok(Ok(started)) => started,
        Ok(Err(e)) => return reply(StatusCode::BAD_REQUEST, e.to_string()),
        Err(_) => {
            return reply(
                StatusCode::INTERNAL_SERVER_ERROR,
                "loading the rules failed",
            )
        }
    };
    let (spec, player, gdl2) = if position.is_gdl2() {
        let how = gdl2::Gdl2::new(
            Belief::new(position.game().clone(), r),
            server.spec.as_deref(),
            position.game(),
            &id,
        );
        (PlayerSpec::Random, None, Some(how))
    } else {
        let spec = server.spec_for(position.game(), &id, play_clock);
        let player = match spec.build(position.game()) {
            Ok(p) => Some(p),
            Err(e) => {
                eprintln!("match {id}: cannot build '{spec}' ({e}); playing random moves");
                None
            }
        };
        (spec, player, None)
    };
    let played = match &gdl2 {
        Some(g) => g.describe(),
        None => spec.to_string(),
    };
    eprintln!(
        "match {id}: {role} of {} roles, {} s per move, player {played}",
        position.roles().len(),
        play_clock.as_secs()
    );
    let number = server
        .started
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let m = Match {
        number,
        position,
        role: r,
        play_clock,
        spec,
        player,
        gdl2,
    };
    let mut matches = server.lock();
    if matches.len() >= MAX_MATCHES {
        // The oldest match held is dropped (a manager that never stopped it).
        let oldest = matches
            .iter()
            .filter_map(|(k, v)| Some((v.try_lock().ok()?.number, k.clone())))
            .min()
            .map(|(_, k)| k);
        if let Some(k) = oldest {
            matches.remove(&k);
        }
    }
    matches.insert(id, Arc::new(Mutex::new(m)));
    reply(StatusCode::OK, "ready")
}

async fn play(
    server: &Server,
    m: &mut Match,
    id: &str,
    moves: Option<Vec<Term>>,
    arrived: Instant,
) -> Response {
    let legal = match m.position.to_move(id, moves.as_deref(), m.role) {
        Ok(legal) => legal,
        Err(e) => return reply(StatusCode::BAD_REQUEST, e.to_string()),
    };
    let step = m.position.step() as u64;
    let mut rng = stream(server.seed, &[m.number, step]);
    let fallback = |rng: &mut wopr::game::rng::WoprRng| {
        legal[rand::RngExt::random_range(rng, 0..legal.len())].clone()
    };
    if legal.len() == 1 {
        return reply(StatusCode::OK, legal[0].to_string());
    }
    let state = m.position.state();
    if state.turn() != Turn::Player(m.role) {
        // Another role chooses too (a simultaneous step): the players
        // search turns of one player, so a random legal move is played.
        return reply(StatusCode::OK, fallback(&mut rng).to_string());
    }
    let player = match m.player.take() {
        Some(p) => Some(p),
        None => m.spec.build(m.position.game()).ok(),
    };
    let Some(mut player) = player else {
        return reply(StatusCode::OK, fallback(&mut rng).to_string());
    };
    let hard = m.play_clock.saturating_sub(margin(m.play_clock));
    let left = hard.saturating_sub(arrived.elapsed());
    let mut think_rng = rng.clone();
    // The move the player would play if stopped now, for a deadline it
    // overruns (MCTS posts as it searches; other players leave it empty).
    let best = BestSoFar::new();
    player.share_best(best.clone());
    // The actions' move terms are read at this position (ranked actions
    // name a move only together with it).
    let here = state.clone();
    let thinking = tokio::task::spawn_blocking(move || {
        let mut acts = ActionList::new();
        state.legal_actions(&mut acts);
        let a = player.choose(&state, &acts, &mut think_rng);
        let failed = player.failure();
        (player, a, failed)
    });
    let chosen = match tokio::time::timeout(left, thinking).await {
        Ok(Ok((player, a, None))) => {
            m.player = Some(player);
            here.action_term(a).cloned()
        }
        Ok(Ok((_, _, Some(f)))) => {
            eprintln!("match {id}: the player failed ({f:?}); a random legal move");
            None
        }
        Ok(Err(_)) => {
            eprintln!("match {id}: the player stopped; a random legal move");
            None
        }
        Err(_) => {
            let so_far = best.get().and_then(|a| here.action_term(a).cloned());
            eprintln!(
                "match {id}: the player was still thinking at {} ms; {}",
                hard.as_millis(),
                if so_far.is_some() {
                    "its best move so far"
                } else {
                    "a random legal move"
                }
            );
            so_far
        }
    };
    let answer = chosen
        .filter(|t| legal.contains(t))
        .unwrap_or_else(|| fallback(&mut rng));
    reply(StatusCode::OK, answer.to_string())
}
