//! `wopr serve`: a web page to play every game against wopr's players, hear
//! each move as the musicator's bar of three notes, and follow evolution
//! runs live; and the JSON API under `/api/` the page uses.
//!
//! - `api.rs`: the routes' handlers and the embedded assets;
//! - `session.rs`: one held game (state, seats, moves, music);
//! - `engines.rs`: engine specs checked on their typed form, engine slots
//!   with a bounded queue, players at rest;
//! - `nets.rs`: the net files offered, by name;
//! - `refusal.rs`: the 4xx/503 answer with its one-line reason;
//! - `board.rs`: the board and the click targets as JSON;
//! - `state.rs`: the bounded table of held games and the runs.
//!
//! What the server exposes and refuses (its threat model) is in the
//! README's `wopr serve` section.
//!
//! The page (`assets/`) is plain HTML, CSS and JavaScript compiled into the
//! binary; it knows no rules: the server sends the legal moves with where to
//! click them.

mod api;
mod board;
mod engines;
mod nets;
mod refusal;
mod session;
mod state;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;

use engines::{Engines, Pool, Slots};
use nets::Nets;
use state::{AppState, Games};
use wopr::players::Caps;

/// Arguments of `wopr serve`.
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// TCP port to listen on (0: any free port, printed at start).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Address to listen on (use 0.0.0.0 to serve other machines).
    #[arg(long, default_value = "127.0.0.1")]
    host: std::net::IpAddr,
    /// Folder of run folders (`wopr evolve --out`), shown on the runs pages.
    #[arg(long, default_value = "runs")]
    runs: PathBuf,
    /// Folder of champion net files offered as opponents.
    #[arg(long, default_value = "champions")]
    champions: PathBuf,
    /// Folder of GDL rule sheets offered as games (`NAME.kif` directly in
    /// it; no other sheet is ever read).
    #[arg(long, default_value = "gdl")]
    gdl: PathBuf,
    /// The most games held at once.
    #[arg(long, default_value_t = 10_000)]
    max_games: usize,
    /// Seconds without a request after which a held game is dropped.
    #[arg(long, default_value_t = 1800)]
    idle_secs: u64,
    /// The deadline of one engine move in milliseconds: a search stops and
    /// plays its best move so far; an `ms=` above it is lowered to it.
    #[arg(long, default_value_t = 3000)]
    move_ms: u64,
    /// Engine moves (and WAV renderings) computed at once [default: the
    /// number of cores].
    #[arg(long)]
    engines: Option<usize>,
    /// How long a request waits for a free engine slot before a 503 with
    /// `Retry-After` (milliseconds).
    #[arg(long, default_value_t = 1000)]
    queue_ms: u64,
    /// The most requests waiting for an engine slot; more get a 503 at once.
    #[arg(long, default_value_t = 256)]
    queue_len: usize,
}

/// The largest search depth (alpha-beta depth, a net's `ply`, a game
/// player's depth) an engine may ask for.
const MAX_DEPTH: u32 = 10;
/// The most MCTS simulations per move.
const MAX_SIMS: u32 = 200_000;
/// The longest move deadline `--move-ms` may set (milliseconds).
const MAX_MOVE_MS: u64 = 10_000;
/// The most empty squares from which Reversi's `perfect` solves (its solve
/// also stops at the move deadline).
const MAX_EMPTIES: u32 = 24;

/// The largest request body accepted (bytes).
const BODY_LIMIT: usize = 64 * 1024;

/// The router of the page and the API over `state`.
fn router(state: Arc<AppState>) -> Router {
    let api = Router::new()
        .route("/games", get(api::list_games).post(api::create_game))
        .route("/players", get(api::list_players))
        .route("/games/{id}", get(api::get_game).delete(api::delete_game))
        .route("/games/{id}/legal", get(api::get_legal))
        .route("/games/{id}/move", post(api::play_move))
        .route("/games/{id}/engine", post(api::engine_move))
        .route("/games/{id}/midi", get(api::get_midi))
        .route("/games/{id}/wav", get(api::get_wav))
        .route("/runs", get(api::list_runs))
        .route("/runs/{name}", get(api::get_run))
        .route("/runs/{name}/{file}", get(api::get_run_file))
        .fallback(api::not_found);
    Router::new()
        .route("/", get(api::index))
        .route("/app.js", get(api::app_js))
        .route("/style.css", get(api::style_css))
        .nest("/api", api)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .with_state(state)
}

/// Serves until interrupted (Ctrl-C).
pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    session::offer_sheets(&args.gdl);
    if args.max_games == 0 || args.idle_secs == 0 {
        anyhow::bail!("--max-games and --idle-secs must be at least 1");
    }
    if !(1..=MAX_MOVE_MS).contains(&args.move_ms) {
        anyhow::bail!(
            "--move-ms {} is not in 1..={MAX_MOVE_MS} milliseconds",
            args.move_ms
        );
    }
    let slots = match args.engines {
        Some(n) if !(1..=1024).contains(&n) => {
            anyhow::bail!("--engines {n} is not in 1..=1024")
        }
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(2, |n| n.get()),
    };
    if args.queue_len > 100_000 || args.queue_ms > 60_000 {
        anyhow::bail!("--queue-len is at most 100000 and --queue-ms at most 60000");
    }
    let move_time = Duration::from_millis(args.move_ms);
    let engines = Engines {
        caps: Caps {
            depth: MAX_DEPTH,
            sims: MAX_SIMS,
            time: move_time,
            empties: MAX_EMPTIES,
        },
        nets: Nets::new(args.champions.clone(), args.runs.clone()),
        // A refused request may retry once a move has had its time.
        slots: Slots::new(
            slots,
            args.queue_len,
            Duration::from_millis(args.queue_ms),
            args.move_ms.div_ceil(1000),
        ),
        // As many players rest as there are slots: with those at work, at
        // most twice the slots are held (a Connect-4 solver holds 64 MiB).
        pool: Pool::new(slots),
    };
    let state = Arc::new(AppState {
        games: Games::new(args.max_games, Duration::from_secs(args.idle_secs)),
        runs: args.runs.clone(),
        engines: Arc::new(engines),
    });
    crate::http::runtime()?.block_on(async move {
        let (listener, local) = crate::http::listen(args.host, args.port).await?;
        println!(
            "wopr serve: listening on http://{local}/ (runs: {}, champions: {}; {slots} engine slots, {} ms per move; Ctrl-C stops)",
            args.runs.display(),
            args.champions.display(),
            args.move_ms
        );
        // Drop idle games every half minute (or sooner for short limits).
        let sweeper = state.clone();
        let every = Duration::from_secs(args.idle_secs.clamp(1, 30));
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            loop {
                tick.tick().await;
                sweeper.games.expire();
            }
        });
        axum::serve(listener, router(state))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .context("server failed")
    })
}
