//! The JSON API under `/api/` that the page (and any script) uses, and the
//! page's assets. Every failure is a 4xx (or 503 when the server is full)
//! with `{"error": "one line"}`; engine moves and audio rendering run on
//! blocking threads so the server keeps answering meanwhile.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use wopr::registry::games;
use wopr::{with_game, AnyGame, Game};

use super::engines::Engines;
use super::nets::OfferedNet;
use super::refusal::Refusal;
use super::session::{new_session, Held, NewGame};
use super::state::AppState;

/// Shared state as the handlers receive it.
pub type Shared = State<Arc<AppState>>;

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::BAD_REQUEST);
        let mut response = (status, Json(json!({"error": self.reason}))).into_response();
        if let Some(secs) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

/// A handler's answer: JSON, or a refusal.
type Answer = Result<Json<Value>, Refusal>;

/// The body's JSON, or a one-line refusal (400 malformed, 413 too large,
/// 415 not JSON).
fn body<T>(parsed: Result<Json<T>, JsonRejection>) -> Result<T, Refusal> {
    parsed
        .map(|Json(t)| t)
        .map_err(|e| Refusal::new(e.status().as_u16(), e.body_text().replace('\n', " ")))
}

/// Runs `f` on the held game `id` on a blocking thread (the game's lock may
/// be held by a searching engine, for at most the move deadline), then
/// answers with its snapshot. Engine work inside `f` takes an engine slot
/// ([`Engines::slots`]), so reading a game never waits for a slot.
async fn on_game(
    state: &AppState,
    id: &str,
    f: impl FnOnce(&mut dyn Held, &Engines) -> Result<(), Refusal> + Send + 'static,
) -> Answer {
    let game = state.games.get(id)?;
    let id = id.to_string();
    let engines = state.engines.clone();
    let out = tokio::task::spawn_blocking(move || {
        let mut g = game.lock().unwrap_or_else(|e| e.into_inner());
        f(g.as_mut(), &engines)?;
        Ok::<Value, Refusal>(with_id(g.snapshot(), &id))
    })
    .await
    .map_err(|e| Refusal::new(500, format!("internal error: {e}")))??;
    Ok(Json(out))
}

fn with_id(mut v: Value, id: &str) -> Value {
    if let Value::Object(m) = &mut v {
        m.insert("id".into(), Value::String(id.to_string()));
    }
    v
}

/// `GET /api/games`: every game with its parameters and default spec.
pub async fn list_games() -> Json<Value> {
    let mut list: Vec<Value> = games()
        .iter()
        .filter(|info| info.name != "gdl")
        .map(|info| {
            let spec = AnyGame::parse(info.name)
                .map(|g| g.spec())
                .unwrap_or_else(|_| info.name.to_string());
            json!({
                "name": info.name,
                "spec": spec,
                "about": info.about,
                "params": info.params.iter().map(|p| json!({"name": p.name, "default": p.default, "doc": p.doc})).collect::<Vec<_>>(),
            })
        })
        .collect();
    // Each GDL sheet the server plays is a game of its own.
    for spec in super::session::served_sheets() {
        if let Ok(game) = AnyGame::parse(&spec) {
            list.push(json!({
                "name": spec,
                "spec": game.spec(),
                "about": "a game written in GDL",
                "params": [],
            }));
        }
    }
    Json(json!({ "games": list }))
}

/// Query of `GET /api/players`.
#[derive(Deserialize)]
pub struct PlayersQuery {
    game: Option<String>,
}

/// Ready-made opponent specs for one spec syntax of a game's roster (`nets`:
/// the names of the offered nets).
fn expand(name: &str, nets: &[String]) -> Vec<String> {
    let base = name.split(['[', ' ', ':']).next().unwrap_or(name);
    match base {
        "alphabeta" => [1, 2, 4, 6]
            .iter()
            .map(|d| format!("alphabeta:depth={d}"))
            .collect(),
        "mcts" => vec!["mcts:sims=1000".into(), "mcts:sims=10000".into()],
        "net" => nets.iter().map(|p| format!("net:{p}")).collect(),
        "ai" => (1..=20).map(|k| format!("ai:{k}")).collect(),
        "standard" => (1..=4).map(|d| format!("standard:depth={d}")).collect(),
        // Reversi's engine reads a pattern net, which few offered nets are:
        // a custom spec names one (`engine:net=NAME`).
        "engine" => Vec::new(),
        _ => vec![base.to_string()],
    }
}

/// `GET /api/players?game=SPEC`: the opponents the page offers for a game
/// (random, the game's own players at a few levels, alpha-beta, MCTS,
/// perfect where a solver exists, the offered nets made for it, by name),
/// the spec syntaxes any custom spec may use, and the server's limits.
pub async fn list_players(State(state): Shared, Query(q): Query<PlayersQuery>) -> Answer {
    let spec = q.game.unwrap_or_else(|| "tictactoe".into());
    let game = super::session::parse_game(&spec)?;
    let canonical = game.spec();
    let engines = state.engines.clone();
    let nets: Vec<OfferedNet> = {
        let canonical = canonical.clone();
        // The list may be read from the folders: off the async threads.
        tokio::task::spawn_blocking(move || engines.nets.for_game(&canonical))
            .await
            .map_err(|e| Refusal::new(500, format!("internal error: {e}")))?
    };
    let names_of_nets: Vec<String> = nets.iter().map(|n| n.name.clone()).collect();
    // Outside engines are for the command line: the server starts no
    // program, so it does not offer `gtp:`.
    let names: Vec<&str> = with_game!(&game, g => wopr::players::player_names(g))
        .into_iter()
        .filter(|n| *n != wopr::players::gtp::GTP_PLAYER)
        .collect();
    let mut offered: Vec<String> = Vec::new();
    for n in &names {
        for s in expand(n, &names_of_nets) {
            if !offered.contains(&s) {
                offered.push(s);
            }
        }
    }
    let seats = with_game!(&game, g => g.seat_names());
    let caps = &state.engines.caps;
    Ok(Json(json!({
        "game": canonical,
        "seat_names": seats,
        "players": offered,
        "syntax": names,
        "nets": nets.iter().map(|n| json!({"name": n.name, "path": n.path})).collect::<Vec<_>>(),
        "limits": {
            "depth": caps.depth,
            "sims": caps.sims,
            "ms": caps.time.as_millis() as u64,
            "empties": caps.empties,
        },
    })))
}

/// Body of `POST /api/games`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGameBody {
    game: String,
    players: Vec<String>,
    #[serde(default)]
    seed: Option<u64>,
    /// Musicator settings: any keys of `MusicConfig` (references, columns, …).
    #[serde(default)]
    music: Option<Value>,
    #[serde(default)]
    tempo: Option<f64>,
    #[serde(default)]
    instruments: Option<Vec<u8>>,
}

/// `POST /api/games`: starts a game; answers 201 with its state and `id`.
pub async fn create_game(
    State(state): Shared,
    parsed: Result<Json<NewGameBody>, JsonRejection>,
) -> Result<(StatusCode, Json<Value>), Refusal> {
    let b = body(parsed)?;
    let music = match &b.music {
        None => wopr::music::MusicConfig::default(),
        Some(v) => wopr::music::MusicConfig::from_json(&v.to_string())
            .map_err(|e| Refusal::bad(format!("music: {e}")))?,
    };
    let req = NewGame {
        game: b.game,
        players: b.players,
        seed: b.seed.unwrap_or_else(rand::random),
        music,
        tempo: b.tempo.unwrap_or(120.0),
        instruments: b.instruments.unwrap_or_else(|| vec![0]),
    };
    // Checking the specs may read the list of nets, and building a net
    // player reads its file (in an engine slot): off the async threads.
    let engines = state.engines.clone();
    let held = tokio::task::spawn_blocking(move || new_session(&req, &engines))
        .await
        .map_err(|e| Refusal::new(500, format!("internal error: {e}")))??;
    let snapshot = held.snapshot();
    let id = state.games.insert(held)?;
    Ok((StatusCode::CREATED, Json(with_id(snapshot, &id))))
}

/// `GET /api/games/{id}`: the game's state.
pub async fn get_game(State(state): Shared, Path(id): Path<String>) -> Answer {
    on_game(&state, &id, |_, _| Ok(())).await
}

/// `GET /api/games/{id}/legal`: who is to move and the legal moves.
pub async fn get_legal(State(state): Shared, Path(id): Path<String>) -> Answer {
    let Json(v) = on_game(&state, &id, |_, _| Ok(())).await?;
    Ok(Json(json!({
        "id": id,
        "turn": v["turn"],
        "to_move": v["to_move"],
        "human_to_move": v["human_to_move"],
        "engine_to_move": v["engine_to_move"],
        "legal": v["legal"],
    })))
}

/// Body of `POST /api/games/{id}/move`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveBody {
    /// An action index.
    #[serde(default)]
    action: Option<i64>,
    /// A move in the game's notation.
    #[serde(default, rename = "move")]
    notation: Option<String>,
}

/// `POST /api/games/{id}/move`: a person's move.
pub async fn play_move(
    State(state): Shared,
    Path(id): Path<String>,
    parsed: Result<Json<MoveBody>, JsonRejection>,
) -> Answer {
    let b = body(parsed)?;
    on_game(&state, &id, move |g, engines| {
        g.play(b.action, b.notation.as_deref(), engines)
    })
    .await
}

/// `POST /api/games/{id}/engine`: the engine to move makes one move.
pub async fn engine_move(State(state): Shared, Path(id): Path<String>) -> Answer {
    on_game(&state, &id, |g, engines| g.engine_move(engines)).await
}

/// `DELETE /api/games/{id}`: forgets the game.
pub async fn delete_game(State(state): Shared, Path(id): Path<String>) -> Answer {
    if state.games.remove(&id) {
        Ok(Json(json!({"deleted": id})))
    } else {
        Err(Refusal::new(404, format!("no game '{id}'")))
    }
}

fn download(bytes: Vec<u8>, mime: &'static str, name: &str) -> Response {
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{name}\""))
        .unwrap_or(HeaderValue::from_static("attachment"));
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(mime)),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        bytes,
    )
        .into_response()
}

/// The longest music the server renders as WAV, in seconds.
const MAX_WAV_SECS: f64 = 1800.0;

/// The sample rate of the server's WAVs (half CD rate keeps a long game's
/// file and memory small; the synthesiser's tones are well below 11 kHz).
const WAV_RATE: u32 = 22_050;

/// The game's MIDI file and its length in seconds, made on a blocking
/// thread (the game may be locked by a searching engine).
async fn midi_of(state: &AppState, id: &str) -> Result<(Vec<u8>, f64), Refusal> {
    let game = state.games.get(id)?;
    tokio::task::spawn_blocking(move || {
        let g = game.lock().unwrap_or_else(|e| e.into_inner());
        Ok((g.midi()?, g.music_seconds()))
    })
    .await
    .map_err(|e| Refusal::new(500, format!("internal error: {e}")))?
}

/// `GET /api/games/{id}/midi`: the game so far as a MIDI file.
pub async fn get_midi(State(state): Shared, Path(id): Path<String>) -> Result<Response, Refusal> {
    let (midi, _) = midi_of(&state, &id).await?;
    Ok(download(midi, "audio/midi", &format!("wopr-{id}.mid")))
}

/// `GET /api/games/{id}/wav`: the game so far as a WAV file (22,050 Hz,
/// 16-bit stereo), rendered by the built-in synthesiser; at most
/// [`MAX_WAV_SECS`] of music.
pub async fn get_wav(State(state): Shared, Path(id): Path<String>) -> Result<Response, Refusal> {
    let (midi, seconds) = midi_of(&state, &id).await?;
    if seconds > MAX_WAV_SECS {
        return Err(Refusal::conflict(format!(
            "the music lasts {seconds:.0} s; the server renders at most {MAX_WAV_SECS:.0} s as WAV (download the MIDI file, or raise the tempo)"
        )));
    }
    // Rendering is CPU-heavy: it takes an engine slot.
    let engines = state.engines.clone();
    let wav = tokio::task::spawn_blocking(move || {
        let _slot = engines.slots.enter()?;
        let opts = wopr::music::RenderOptions {
            sample_rate: WAV_RATE,
            ..wopr::music::RenderOptions::default()
        };
        let rendered = wopr::music::synth::render(&midi, &opts)
            .and_then(|(l, r, _)| wopr::music::wav_bytes(&l, &r, opts.sample_rate));
        rendered.map_err(|e| Refusal::new(500, format!("rendering failed: {e}")))
    })
    .await
    .map_err(|e| Refusal::new(500, format!("internal error: {e}")))??;
    Ok(download(wav, "audio/wav", &format!("wopr-{id}.wav")))
}

/// Reads a CSV file as `{"header": [...], "rows": [[...], ...]}`.
fn csv_json(path: &std::path::Path) -> Value {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Value::Null;
    };
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header: Vec<&str> = lines
        .next()
        .map(|h| h.split(',').collect())
        .unwrap_or_default();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    json!({"header": header, "rows": rows})
}

/// `GET /api/runs`: the run folders.
pub async fn list_runs(State(state): Shared) -> Json<Value> {
    Json(json!({"runs": state.run_names(), "folder": state.runs.display().to_string()}))
}

/// `GET /api/runs/{name}`: a run's tables, plots and champion; `live` is
/// true while `generations.csv` changed in the last minute.
pub async fn get_run(State(state): Shared, Path(name): Path<String>) -> Answer {
    let dir = state.run_dir(&name)?;
    let gens = dir.join("generations.csv");
    let live = std::fs::metadata(&gens)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age.as_secs() < 60);
    // The run's champion, by the name the server offers it under.
    let offered = format!("run:{name}");
    let (champion_spec, game) = match state.engines.nets.list().iter().find(|n| n.name == offered) {
        Some(n) => (Some(format!("net:{}", n.name)), Some(n.game.clone())),
        None => (None, None),
    };
    let plots: Vec<&str> = ["fitness.png", "yardsticks.png"]
        .into_iter()
        .filter(|p| dir.join(p).is_file())
        .collect();
    Ok(Json(json!({
        "name": name,
        "generations": csv_json(&gens),
        "yardsticks": csv_json(&dir.join("yardsticks.csv")),
        "champion": champion_spec,
        "game": game,
        "plots": plots,
        "live": live,
        "config": std::fs::read_to_string(dir.join("config.toml")).ok(),
    })))
}

/// `GET /api/runs/{name}/{file}`: a run's plot or table file.
pub async fn get_run_file(
    State(state): Shared,
    Path((name, file)): Path<(String, String)>,
) -> Result<Response, Refusal> {
    const FILES: &[(&str, &str)] = &[
        ("fitness.png", "image/png"),
        ("yardsticks.png", "image/png"),
        ("fitness.svg", "image/svg+xml"),
        ("yardsticks.svg", "image/svg+xml"),
        ("generations.csv", "text/csv"),
        ("yardsticks.csv", "text/csv"),
        ("config.toml", "text/plain"),
    ];
    let Some(&(_, mime)) = FILES.iter().find(|(f, _)| *f == file) else {
        let names: Vec<&str> = FILES.iter().map(|(f, _)| *f).collect();
        return Err(Refusal::new(
            404,
            format!("no file '{file}' (accepted: {})", names.join(", ")),
        ));
    };
    let dir = state.run_dir(&name)?;
    let bytes = tokio::fs::read(dir.join(&file))
        .await
        .map_err(|e| Refusal::new(404, format!("run '{name}' has no {file} yet ({e})")))?;
    Ok((
        [
            (header::CONTENT_TYPE, mime),
            (header::CACHE_CONTROL, "no-store"),
        ],
        Bytes::from(bytes),
    )
        .into_response())
}

/// Any other path under `/api/`: a 404 naming the routes.
pub async fn not_found() -> Refusal {
    Refusal::new(404, "no such API route (see the README's `wopr serve` section: /api/games, /api/players, /api/games/{id}[/legal|/move|/engine|/midi|/wav], /api/runs[/{name}])")
}

/// The page.
pub async fn index() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("assets/index.html"),
    )
}

/// The page's script.
pub async fn app_js() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("assets/app.js"),
    )
}

/// The page's style sheet.
pub async fn style_css() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("assets/style.css"),
    )
}
