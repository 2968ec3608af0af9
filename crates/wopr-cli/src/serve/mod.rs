//! `wopr serve`: a web page to play every game against wopr's players, hear
//! each move as the musicator's bar of three notes, and follow evolution
//! runs live; and the JSON API under `/api/` the page uses.
//!
//! - `api.rs`: the routes' handlers and the embedded assets;
//! - `session.rs`: one held game (state, seats, moves, music);
//! - `board.rs`: the board and the click targets as JSON;
//! - `state.rs`: the bounded table of held games, runs and net files.
//!
//! The page (`assets/`) is plain HTML, CSS and JavaScript compiled into the
//! binary; it knows no rules: the server sends the legal moves with where to
//! click them.

mod api;
mod board;
mod session;
mod state;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;

use state::{AppState, Games};

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
    /// The most games held at once.
    #[arg(long, default_value_t = 10_000)]
    max_games: usize,
    /// Seconds without a request after which a held game is dropped.
    #[arg(long, default_value_t = 1800)]
    idle_secs: u64,
}

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

/// How many jobs on held games run at once: twice the cores, from 4 to 16.
fn workers() -> usize {
    std::thread::available_parallelism().map_or(4, |n| (2 * n.get()).clamp(4, 16))
}

/// Serves until interrupted (Ctrl-C).
pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    if args.max_games == 0 || args.idle_secs == 0 {
        anyhow::bail!("--max-games and --idle-secs must be at least 1");
    }
    let state = Arc::new(AppState {
        games: Games::new(args.max_games, Duration::from_secs(args.idle_secs)),
        runs: args.runs.clone(),
        champions: args.champions.clone(),
        workers: tokio::sync::Semaphore::new(workers()),
        pool: Arc::new(session::Pool::new(workers())),
    });
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    rt.block_on(async move {
        let addr = SocketAddr::new(args.host, args.port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let local = listener.local_addr()?;
        println!(
            "wopr serve: listening on http://{local}/ (runs: {}, champions: {}; Ctrl-C stops)",
            args.runs.display(),
            args.champions.display()
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
