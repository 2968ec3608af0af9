//! The bodies of wopr's fuzz targets: one `check_*` function per target.
//!
//! Each function feeds its input to the library the way the `wopr` command
//! does (the command's own module is named on each function) and asserts
//! what must hold for any input: no panic, and where the input is accepted,
//! its round trips (a canonical spec parses back to itself, a legal move
//! applies, a file written back reads back). The binaries under
//! `fuzz_targets/` are one `fuzz_target!` each over these functions, and
//! `tests/corpus.rs` replays the committed corpora through them on stable
//! Rust.
//!
//! Nothing here plays an unbounded amount: inputs that would make the
//! library search deeply, build huge nets or run long evolutions are parsed
//! and checked but not run (each guard says what it skips).

use std::cell::Cell;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use wopr::experiment::config::{NetConfig, Outputs, Scheme};
use wopr::experiment::learn::{LearnProgress, Row};
use wopr::experiment::{load_checkpoint, start, Checkpoint, EvolveConfig, NetPhenotype};
use wopr::game::driver::{apply_notation, replay};
use wopr::game::encode::Encodable;
use wopr::game::rng::stream;
use wopr::game::{GameRecord, GameSpec, Turn};
use wopr::music::{compose_record, grid_moves, to_midi, MidiOptions, MusicConfig};
use wopr::nn::{Architecture, NetFile, Network, Scratch};
use wopr::players::{parse_player, Caps, PlayerSpec};
use wopr::registry::{games, AnyGame};
use wopr::{Action, ActionList, Game, Roster, Searchable, State};

mod config;
mod files;
mod gdl;
mod gtp;
mod notation;
mod serve;
mod specs;

pub use config::check_config;
use config::planned_weights;
pub use files::{check_checkpoint, check_game_record, check_net_file};
pub use gdl::{check_gdl_sheet, check_ggp_message};
pub use gtp::check_gtp_line;
pub use notation::check_move_notation;
use notation::random_ply;
pub use serve::check_serve_request;
pub use specs::{check_game_spec, check_player_spec};

/// A target's body: takes the fuzzer's bytes, panics on a broken invariant.
pub type Check = fn(&[u8]);

/// Every target, by name, with its check: what the corpus test replays.
pub const TARGETS: &[(&str, Check)] = &[
    ("move_notation", check_move_notation),
    ("game_spec", check_game_spec),
    ("player_spec", check_player_spec),
    ("config", check_config),
    ("net_file", check_net_file),
    ("checkpoint", check_checkpoint),
    ("game_record", check_game_record),
    ("serve_request", check_serve_request),
    ("gdl_sheet", check_gdl_sheet),
    ("ggp_message", check_ggp_message),
    ("gtp_line", check_gtp_line),
];

/// The games the targets choose from: every registered game's default spec
/// (`wopr::registry::games()`), then every game's examples with
/// parameters (`GameInfo::examples`), in the registry's order.
pub fn game_specs() -> Vec<String> {
    games()
        .iter()
        .map(|g| match g.name {
            // A GDL game needs a sheet: the repository's Tic-Tac-Toe.
            "gdl" => {
                concat!("gdl:", env!("CARGO_MANIFEST_DIR"), "/../gdl/tictactoe.kif").to_string()
            }
            name => name.to_string(),
        })
        .chain(
            games()
                .iter()
                .flat_map(|g| g.examples.iter().map(|s| s.to_string())),
        )
        .collect()
}

thread_local! {
    static SKIP_KNOWN: Cell<bool> = const { Cell::new(true) };
}

/// Whether the targets step around the library crashes already found and
/// reported (kept in `fuzz/artifacts-found/`), so that fuzzing goes on
/// past them; on by default, per thread. The test that replays the found
/// crashes turns it off to see whether the library is fixed.
pub fn skip_known_crashes(skip: bool) {
    SKIP_KNOWN.with(|s| s.set(skip));
}

/// Whether `text` is a game spec that hits a crash already found: a virus
/// `start=` list with a non-ASCII character panics in
/// `games/virus/mod.rs` `parse_squares` (it slices the text at a byte that
/// is not a character boundary;
/// `artifacts-found/game_spec/virus-start-non-ascii`).
fn known_crash_spec(text: &str) -> bool {
    SKIP_KNOWN.with(Cell::get)
        && GameSpec::parse(text)
            .is_ok_and(|s| s.name == "virus" && s.get("start").is_some_and(|v| !v.is_ascii()))
}

/// `AnyGame::parse`, as every command parses its GAME argument, except for
/// the specs of [`known_crash_spec`] while those are skipped.
fn parse_game(text: &str) -> Option<AnyGame> {
    if known_crash_spec(text) {
        return None;
    }
    AnyGame::parse(text).ok()
}

/// Parses one of [`game_specs`]; they are all valid.
fn game_of(spec: &str) -> AnyGame {
    AnyGame::parse(spec).unwrap_or_else(|e| panic!("listed game spec '{spec}' fails: {e}"))
}

/// The input as text, as a file read with `read_to_string` or a command
/// line argument gives it: `None` when it is not UTF-8 (the command refuses
/// it before the library sees it).
fn text_of(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// A folder of this process and thread for the files a target must write
/// (a net file to load through `net:PATH`, a run folder).
fn scratch_dir(what: &str) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    thread_local! {
        static SLOT: u64 = NEXT.fetch_add(1, Ordering::Relaxed);
    }
    let slot = SLOT.with(|s| *s);
    let dir = std::env::temp_dir().join(format!("wopr-fuzz-{}-{slot}-{what}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

/// Removes the folders [`scratch_dir`] made for this process (the corpus
/// test calls it at the end; a fuzzing process leaves them in the temporary
/// folder, a few KiB).
pub fn remove_scratch_dirs() {
    let prefix = format!("wopr-fuzz-{}-", std::process::id());
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.flatten() {
        if entry.file_name().to_string_lossy().starts_with(&prefix) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

// ---------------------------------------------------------------- moves
