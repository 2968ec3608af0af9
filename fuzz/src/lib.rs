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
];

/// Game specs with parameters, fuzzed besides every registered game's
/// default spec (which [`game_specs`] lists first).
const EXTRA_SPECS: &[&str] = &[
    "connect4:6x6",
    "connect4:4x4",
    "connect4:9x5",
    "dots-and-boxes:1x1",
    "dots-and-boxes:2x2",
    "dots-and-boxes:5x5",
    "reversi:4x4",
    "reversi:6x6",
    "virus:4x4",
    "virus:5x5,max-plies=20",
    "virus:6x6,start=a1c3/f6d4",
    "pig:target=10,horizon=5",
    "goofspiel:cards=1",
    "goofspiel:cards=13",
];

/// The games the targets choose from: every registered game's default spec
/// (`wopr::registry::games()`), then [`EXTRA_SPECS`].
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
        .chain(EXTRA_SPECS.iter().map(|s| s.to_string()))
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

/// Target `move_notation`: the first byte chooses a game among
/// [`game_specs`], the second how many plies to play first (0..=63), the
/// next bytes choose those plies among the legal actions (chance outcomes
/// and simultaneous turns included); the rest, as UTF-8 text (invalid
/// sequences replaced), is parsed with `State::parse_action` and played with
/// `State::try_apply`, with `driver::apply_notation` as one move, and token
/// by token as `wopr position GAME --moves TEXT` does
/// (`crates/wopr-cli/src/cmd/position.rs`), and the position is then shown
/// as `position` shows it.
///
/// Asserts: every legal action's notation (and `#index`) parses back to it;
/// a parsed action is below `num_actions`; `try_apply` succeeds exactly for
/// legal actions at a player or chance turn and leaves the state unchanged
/// when it fails; `apply_notation` leaves the state unchanged when it fails.
pub fn check_move_notation(data: &[u8]) {
    let specs = game_specs();
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let game = game_of(&specs[pick as usize % specs.len()]);
    wopr::with_game!(&game, g => notation(g, rest));
}

/// Plays the plies `data` chooses, then parses its rest as moves.
fn notation<G: Game>(game: &G, data: &[u8]) {
    let (plies, rest) = match data.split_first() {
        Some((&k, rest)) => ((k % 64) as usize, rest),
        None => (0, data),
    };
    let mut state = game.initial_state();
    let mut bytes = rest.iter().copied();
    let mut used = 0;
    for _ in 0..plies {
        if !random_ply(game, &mut state, &mut || {
            used += 1;
            bytes.next().unwrap_or(0)
        }) {
            break;
        }
    }
    let text = String::from_utf8_lossy(&rest[used.min(rest.len())..]);
    notation_round_trips(game, &state);

    // One move through the state's own parser.
    if let Ok(a) = state.parse_action(&text) {
        assert!(
            (a as usize) < game.num_actions(),
            "parse_action({text:?}) gave action {a}, but {} has {} action indices",
            game.spec(),
            game.num_actions()
        );
        let mut legal = ActionList::new();
        state.legal_actions(&mut legal);
        let before = format!("{state:?}");
        let mut after = state.clone();
        match (after.try_apply(a), state.turn()) {
            (Ok(()), Turn::Player(_) | Turn::Chance) => assert!(
                legal.contains(&a),
                "try_apply accepted illegal action {a} ({text:?})"
            ),
            (Ok(()), turn) => panic!("try_apply accepted action {a} at a {turn:?} turn"),
            (Err(why), turn) => {
                assert!(
                    !legal.contains(&a) || !matches!(turn, Turn::Player(_) | Turn::Chance),
                    "try_apply refused legal action {a} ({text:?}): {why}"
                );
                assert_eq!(
                    format!("{after:?}"),
                    before,
                    "a refused try_apply changed the state"
                );
            }
        }
    }

    // The whole text as one move, as an opening or `--start` line does.
    let mut s = state.clone();
    let before = format!("{s:?}");
    match apply_notation(&mut s, game.num_players(), &text) {
        Ok(actions) => assert!(!actions.is_empty(), "apply_notation applied nothing"),
        Err(_) => assert_eq!(format!("{s:?}"), before, "a refused move changed the state"),
    }

    // Token by token, as `wopr position --moves` does, then shown.
    let mut s = state;
    for token in text.split_whitespace() {
        if apply_notation(&mut s, game.num_players(), token).is_err() {
            break;
        }
    }
    show(game, &s);
}

/// Plays one ply chosen by `byte()` (one byte per seat at a simultaneous
/// turn); false at the end of the game.
fn random_ply<G: Game>(game: &G, state: &mut G::State, byte: &mut dyn FnMut() -> u8) -> bool {
    let mut legal = ActionList::new();
    match state.turn() {
        Turn::Terminal => false,
        Turn::Player(_) | Turn::Chance => {
            state.legal_actions(&mut legal);
            assert!(!legal.is_empty(), "no legal action at {:?}", state.turn());
            let a = legal[byte() as usize % legal.len()];
            state.apply(a);
            true
        }
        Turn::Simultaneous => {
            let mut joint = Vec::new();
            for seat in 0..game.num_players() {
                legal.clear();
                state.legal_actions_of(seat, &mut legal);
                assert!(!legal.is_empty(), "seat {seat} has no legal action");
                joint.push(legal[byte() as usize % legal.len()]);
            }
            state.apply_joint(&joint);
            true
        }
    }
}

/// Every legal action of `state` (of every seat at a simultaneous turn) is
/// below `num_actions`, and its notation and `#index` parse back to it.
fn notation_round_trips<G: Game>(game: &G, state: &G::State) {
    let seats: Vec<Option<usize>> = match state.turn() {
        Turn::Terminal => return,
        Turn::Simultaneous => (0..game.num_players()).map(Some).collect(),
        _ => vec![None],
    };
    for seat in seats {
        let mut legal = ActionList::new();
        match seat {
            Some(s) => state.legal_actions_of(s, &mut legal),
            None => state.legal_actions(&mut legal),
        }
        for &a in &legal {
            assert!(
                (a as usize) < game.num_actions(),
                "legal action {a} is not below num_actions {}",
                game.num_actions()
            );
            let shown = state.action_to_string(a);
            assert_eq!(
                state.parse_action(&shown),
                Ok(a),
                "the notation {shown:?} of action {a} does not parse back in {}",
                game.spec()
            );
            assert_eq!(
                state.parse_action(&format!("#{a}")),
                Ok(a),
                "'#{a}' does not parse to action {a} in {}",
                game.spec()
            );
        }
    }
}

/// What `wopr position` prints: the board, the legal moves, the result.
fn show<G: Game>(game: &G, state: &G::State) {
    let mut out = format!("{state}");
    let mut legal = ActionList::new();
    match state.turn() {
        Turn::Simultaneous => {
            for seat in 0..game.num_players() {
                state.legal_actions_of(seat, &mut legal);
            }
        }
        _ => state.legal_actions(&mut legal),
    }
    for &a in &legal {
        out.push_str(&state.action_to_string(a));
    }
    if state.is_terminal() {
        for p in 0..game.num_players() {
            out.push_str(&format!("{} {:?}", state.returns(p), state.score(p)));
        }
    }
    std::hint::black_box(out);
}

// ---------------------------------------------------------------- game specs

/// Target `game_spec`: the input as a game spec, as every command's GAME
/// argument (`AnyGame::parse`, `crates/wopr-cli/src/cmd/mod.rs`).
///
/// Asserts: an accepted spec's canonical `spec()` parses back to a game
/// with the same canonical spec and the same parameters; a short playout of
/// the game keeps its actions below `num_actions`, its chance outcomes
/// summing to 1, and its length within `max_game_length`.
pub fn check_game_spec(data: &[u8]) {
    let Some(text) = text_of(data) else { return };
    let Some(game) = parse_game(text) else {
        return;
    };
    let spec = game.spec();
    let again = AnyGame::parse(&spec)
        .unwrap_or_else(|e| panic!("canonical spec '{spec}' of '{text}' does not parse: {e}"));
    assert_eq!(again.spec(), spec, "spec '{spec}' is not canonical");
    assert_eq!(
        format!("{again:?}"),
        format!("{game:?}"),
        "'{text}' and its canonical spec '{spec}' are different games"
    );
    let seed = data.iter().fold(0u64, |h, &b| h.rotate_left(5) ^ b as u64);
    wopr::with_game!(&game, g => playout(g, seed));
}

/// Plays at most 300 plies of `game` with choices drawn from `seed`,
/// checking the rules' bookkeeping.
fn playout<G: Game>(game: &G, seed: u64) {
    let mut state = game.initial_state();
    assert_eq!(game.seat_names().len(), game.num_players());
    let mut rng = seed;
    let mut plies = 0;
    for _ in 0..300 {
        match state.turn() {
            Turn::Terminal => return,
            Turn::Chance => {
                let mut outcomes = Vec::new();
                state.chance_outcomes(&mut outcomes);
                let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
                assert!(
                    (total - 1.0).abs() < 1e-9,
                    "chance outcomes sum to {total} in {}",
                    game.spec()
                );
            }
            _ => {}
        }
        let mut legal = ActionList::new();
        state.legal_actions(&mut legal);
        assert!(legal.iter().all(|&a| (a as usize) < game.num_actions()));
        std::hint::black_box(format!("{state}"));
        plies += if state.turn() == Turn::Simultaneous {
            game.num_players()
        } else {
            1
        };
        assert!(
            random_ply(game, &mut state, &mut || {
                rng = wopr::game::mix64(rng);
                rng as u8
            }),
            "the game ended without a terminal turn"
        );
        assert!(
            plies <= game.max_game_length(),
            "{} ran past its max_game_length {}",
            game.spec(),
            game.max_game_length()
        );
    }
}

// ---------------------------------------------------------------- players

/// Target `player_spec`: the input as a player spec (`--first`, `--second`,
/// `--against`, config opponents) for every game of [`game_specs`], through
/// `wopr::players::parse_player`. Specs naming `net` are skipped (they open
/// a file; the `net_file` target covers those). Players are built, never
/// asked to move, so `alphabeta:depth=1000` costs nothing.
///
/// Asserts: an accepted player's `spec()` parses back to a player with the
/// same spec.
pub fn check_player_spec(data: &[u8]) {
    let Some(text) = text_of(data) else { return };
    if GameSpec::parse(text).is_ok_and(|s| s.name == "net") {
        return;
    }
    for spec in game_specs() {
        let game = game_of(&spec);
        wopr::with_game!(&game, g => player_round_trip(g, text));
    }
}

/// Parses `text` as a player of `game`; checks the spec round trip.
fn player_round_trip<G: Roster>(game: &G, text: &str) {
    if let Ok(p) = parse_player(game, text) {
        let spec = p.spec();
        let again = parse_player(game, &spec).unwrap_or_else(|e| {
            panic!(
                "player '{text}' of {} calls itself '{spec}', which does not parse: {e}",
                game.spec()
            )
        });
        assert_eq!(again.spec(), spec, "player spec '{spec}' is not stable");
    }
}

// ---------------------------------------------------------- serve requests

/// The caps `wopr serve` puts on engines by default
/// (`crates/wopr-cli/src/serve/mod.rs`: depth 10, 200,000 sims, 24
/// empties, a 3,000 ms move deadline).
const SERVE_CAPS: Caps = Caps {
    depth: 10,
    sims: 200_000,
    time: std::time::Duration::from_millis(3000),
    empties: 24,
};

/// The body of `POST /api/games` as the server reads it (the music
/// settings are the `config` of `wopr music`, fuzzed elsewhere).
#[derive(serde::Deserialize)]
struct NewGameBody {
    game: String,
    players: Vec<String>,
}

/// Target `serve_request`: the input as the JSON body of `wopr serve`'s
/// `POST /api/games` (`{"game": SPEC, "players": [SPEC, …]}`), or, when it
/// is not such a body, as one player spec for every game; each player is
/// checked the way the server checks it (`crates/wopr-cli/src/serve/
/// engines.rs`): `PlayerSpec::parse` for the game, then
/// `PlayerSpec::check_caps`. Nothing is built and no file is read (a
/// server resolves `net:` names against its own list).
///
/// Asserts: a parsed spec's canonical text parses back to the same typed
/// spec, before and after the caps; a spec the caps accept costs no more
/// than they allow, and every player that takes a time budget then has one
/// no longer than the deadline; the nets a spec names are the nets its cost
/// lists.
pub fn check_serve_request(data: &[u8]) {
    if let Ok(body) = serde_json::from_slice::<NewGameBody>(data) {
        let Ok(game) = AnyGame::parse(&body.game) else {
            return;
        };
        for text in body.players.iter().take(8) {
            wopr::with_game!(&game, g => serve_check(g, text));
        }
        return;
    }
    let Some(text) = text_of(data) else { return };
    for spec in game_specs() {
        let game = game_of(&spec);
        wopr::with_game!(&game, g => serve_check(g, text));
    }
}

/// Checks one player spec as the server does; see [`check_serve_request`].
fn serve_check<G: Roster>(game: &G, text: &str) {
    let Ok(mut spec) = PlayerSpec::parse(game, text) else {
        return;
    };
    let round_trip = |spec: &PlayerSpec| {
        let canonical = spec.to_string();
        let again = PlayerSpec::parse(game, &canonical).unwrap_or_else(|e| {
            panic!(
                "'{text}' on {} reads as '{canonical}', which does not parse: {e}",
                game.spec()
            )
        });
        assert_eq!(
            &again,
            spec,
            "'{canonical}' on {} is not stable",
            game.spec()
        );
    };
    round_trip(&spec);
    let nets = spec.cost().nets;
    let named: Vec<String> = spec.nets_mut().into_iter().map(|n| n.clone()).collect();
    assert_eq!(
        named, nets,
        "'{text}': the nets named are not the nets read"
    );
    if spec.check_caps(&SERVE_CAPS).is_err() {
        return;
    }
    round_trip(&spec);
    let cost = spec.cost();
    assert!(cost.depth.is_none_or(|d| d <= SERVE_CAPS.depth), "{spec}");
    assert!(cost.sims.is_none_or(|n| n <= SERVE_CAPS.sims), "{spec}");
    assert!(
        cost.empties.is_none_or(|e| e <= SERVE_CAPS.empties),
        "{spec}"
    );
    assert!(cost.time.is_none_or(|t| t <= SERVE_CAPS.time), "{spec}");
    let timed = matches!(
        spec,
        PlayerSpec::AlphaBeta(_)
            | PlayerSpec::Mcts { .. }
            | PlayerSpec::Net(_)
            | PlayerSpec::Perfect { .. }
    ) || matches!(&spec, PlayerSpec::Own(o) if o.timed);
    assert_eq!(cost.time.is_some(), timed, "{spec}: no move deadline");
}

// ---------------------------------------------------------------- configs

/// Target `config`: the input as an evolution config, read as
/// `wopr evolve CONFIG.toml` reads it (`toml::from_str` into `EvolveConfig`,
/// then `EvolveConfig::check`, `crates/wopr-cli/src/cmd/evolve.rs`), and,
/// for a board game and a config small enough to set up quickly,
/// `wopr::experiment::start` (which builds the first population and checks
/// names of encodings, players and openings).
///
/// Asserts: a checked config writes back as TOML (the run folder's
/// `config.toml`) that reads back to the same config; the checkpoint of a
/// started run writes as JSON that reads back to the same checkpoint (what
/// `--resume` needs).
pub fn check_config(data: &[u8]) {
    let Some(text) = text_of(data) else { return };
    let Ok(config) = toml::from_str::<EvolveConfig>(text) else {
        return;
    };
    if config.check().is_err() {
        return;
    }
    let written = toml::to_string_pretty(&config).expect("a checked config writes as TOML");
    let back: EvolveConfig = toml::from_str(&written)
        .unwrap_or_else(|e| panic!("config.toml as written does not read back: {e}\n{written}"));
    assert_eq!(
        toml::to_string_pretty(&back).expect("TOML"),
        written,
        "config.toml does not read back to the same config"
    );
    let Some(game) = parse_game(&config.game) else {
        return;
    };
    wopr::with_board_game!(&game, g => start_small(g, config), ());
}

/// The net's weight count as `NetPhenotype::new` will build it, computed
/// without allocating; `Some(0)` when the encoding is unknown (set-up fails
/// before building anything), `None` on overflow.
fn planned_weights<G: Encodable>(game: &G, net: &NetConfig) -> Option<usize> {
    let Ok(encoding) = game.encoding(&net.encoding) else {
        return Some(0);
    };
    let inputs = encoding.size();
    let outputs = match net.outputs {
        Outputs::Value => 1,
        Outputs::Policy => game.num_actions(),
    };
    let arch = if net.complete > 0 {
        Architecture::Complete {
            inputs,
            nodes: net.complete,
            outputs,
        }
    } else {
        let mut layers = vec![inputs];
        layers.extend(&net.hidden);
        layers.push(outputs);
        Architecture::Mlp { layers }
    };
    arch.num_params()
}

/// The player specs a config plays against are ones the fuzzer may build
/// (no `net:` files) and openings are random plies, not files.
fn harmless_names(config: &EvolveConfig) -> bool {
    let specs = config
        .fitness
        .opponents
        .iter()
        .chain(config.yardsticks.iter().flat_map(|y| y.against.iter()));
    let openings = config
        .fitness
        .openings
        .iter()
        .chain(config.yardsticks.iter().flat_map(|y| y.openings.iter()));
    specs
        .into_iter()
        .all(|s| GameSpec::parse(s).is_ok_and(|s| s.name != "net"))
        && openings.into_iter().all(|o| o.trim().starts_with("plies="))
}

/// `start` for configs whose first population is small (at most a million
/// weights in all, a few hundred for CMA-ES's n x n covariance).
fn start_small<G>(game: &G, config: EvolveConfig)
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    let Some(weights) = planned_weights(game, &config.net) else {
        return;
    };
    let state = config
        .algorithm
        .with(|a| a.state(weights as u64, &config.genome));
    let genomes = usize::try_from(state.genomes).unwrap_or(usize::MAX);
    let small = weights <= 20_000
        && genomes <= 2_000
        && genomes.saturating_mul(weights.max(1)) <= 1_000_000
        && (config.algorithm.name() != "cma-es" || weights <= 300)
        && config.net.hidden.len() <= 64;
    if !small || !harmless_names(&config) {
        return;
    }
    let Ok(cp) = start(game, config) else { return };
    // What a checkpoint writes (`state.json`) and `load_checkpoint` reads.
    let json = serde_json::to_string(&cp).expect("a checkpoint writes as JSON");
    let back: Checkpoint = serde_json::from_str(&json).unwrap_or_else(|e| {
        panic!(
            "the checkpoint of a fresh run does not read back: {e}\nconfig: {:?}",
            cp.config
        )
    });
    assert_eq!(
        serde_json::to_string(&back).expect("JSON"),
        json,
        "the checkpoint of a fresh run does not read back to itself"
    );
}

// ---------------------------------------------------------------- net files

/// Target `net_file`: the input as a network file (`NetFile::from_json`, the
/// parser behind `NetFile::load` and `net:PATH`, `wopr train --init`). An
/// accepted file's net runs one forward pass on zeros of its input size;
/// the file is written back (`to_json`) and read again; and where it names
/// a board game, it is loaded as that game's `net:PATH` player (as
/// `wopr play` loads it) which, for files without a search depth, chooses
/// one move from the start position.
///
/// Asserts: the written file reads back to an equal file; the forward pass
/// gives one value per output; a loaded player chooses a legal move.
pub fn check_net_file(data: &[u8]) {
    let Some(text) = text_of(data) else { return };
    let Ok(file) = NetFile::from_json(text) else {
        return;
    };
    let net = &file.net;
    let inputs = vec![0.0f32; net.num_inputs()];
    let mut out = vec![f32::NAN; net.num_outputs()];
    net.forward(&inputs, &mut out, &mut Scratch::new());
    std::hint::black_box(&out);
    let written = file.to_json();
    let back = NetFile::from_json(&written)
        .unwrap_or_else(|e| panic!("a net file written back does not read: {e}\n{written}"));
    assert_eq!(back, file, "a net file written back reads differently");

    let Some(game) = file.game.as_deref().and_then(parse_game) else {
        return;
    };
    // Search-driven modes cost exponentially in `ply`: load, do not move.
    let searches = file.player.as_deref().is_some_and(|p| {
        let p = p.to_ascii_lowercase();
        p.contains("ply") || p.contains("alphabeta")
    });
    let movable = !searches && net.num_params() <= 100_000;
    let path = scratch_dir("net").join("net.json");
    std::fs::write(&path, text).expect("write the net file");
    wopr::with_board_game!(&game, g => load_net_player(g, &path, movable), ());
}

/// Loads the file at `path` as `net:PATH` for `game`; if `movable`, lets it
/// choose a move from the start.
fn load_net_player<G>(game: &G, path: &std::path::Path, movable: bool)
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    let Ok(mut player) = parse_player(game, &format!("net:{}", path.display())) else {
        return;
    };
    if !movable {
        return;
    }
    let state = game.initial_state();
    let Turn::Player(seat) = state.turn() else {
        return;
    };
    let mut legal = ActionList::new();
    state.legal_actions(&mut legal);
    let mut rng = stream(0, &[]);
    let a: Action = player.choose(&state.view(seat), &legal, &mut rng);
    assert!(legal.contains(&a), "net player chose illegal action {a}");
}

// ---------------------------------------------------------------- checkpoints

/// Reports nothing: a run driven by the fuzzer is silent.
struct Quiet;

impl LearnProgress for Quiet {
    fn start(&mut self, _: &str, _: u64, _: u64) {}
    fn tick(&mut self, _: u64) {}
    fn yardsticks(&mut self, _: u64, _: &[Row]) {}
    fn finish(&mut self) {}
}

/// Target `checkpoint`: the input as an evolution's state (the `learner`
/// of a run's `state.json`, or an older wopr's `checkpoint.json`), read as
/// `load_checkpoint` reads it (`serde_json` into `Checkpoint`) for
/// `wopr evolve --resume DIR`; then what resuming does before and during a
/// generation: the SIMD check, the game, the phenotype of the config's net,
/// `Checkpoint::validate`, and, when the run is small (a tiny net, a few
/// individuals, a few cheap games; see `cheap_generation`), exactly one
/// more generation through the run layer (`wopr::experiment::learn::evolve::run`,
/// as `--generations` one past the checkpoint's) into a scratch run folder.
///
/// Asserts: the checkpoint a resumed generation saves loads back with
/// `load_checkpoint`.
pub fn check_checkpoint(data: &[u8]) {
    let Some(text) = text_of(data) else { return };
    let Ok(mut cp) = serde_json::from_str::<Checkpoint>(text) else {
        return;
    };
    std::hint::black_box(cp.simd_mismatch());
    let generation = cp.engine.generation();
    let Some(game) = parse_game(&cp.config.game) else {
        return;
    };
    let Some(weights) =
        wopr::with_board_game!(&game, g => planned_weights(g, &cp.config.net), None)
    else {
        return;
    };
    if weights > 100_000 || cp.config.net.hidden.len() > 64 {
        return;
    }
    // As `wopr evolve --resume DIR --generations G` with G one more.
    let next = generation.saturating_add(1);
    cp.config.stop.generations = next;
    cp.finished = generation >= next;
    wopr::with_board_game!(&game, g => resume(g, cp, weights), ());
}

/// Resumes `cp` for one generation if it is cheap.
fn resume<G>(game: &G, cp: Checkpoint, weights: usize)
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    let Ok(phenotype) = NetPhenotype::new(game, &cp.config.net, cp.config.genome.layout) else {
        return;
    };
    assert_eq!(phenotype.num_params, weights, "weights planned as built");
    if cp.validate(phenotype.num_params).is_err() {
        return;
    }
    if !cheap_generation(game, &cp, weights) || known_crash_checkpoint(&cp) {
        return;
    }
    let dir = scratch_dir("run");
    let _ = std::fs::remove_dir_all(&dir);
    let Ok(summary) = wopr::experiment::learn::evolve::run(game, cp, &dir, &mut Quiet) else {
        return;
    };
    let back = load_checkpoint(&dir)
        .unwrap_or_else(|e| panic!("the checkpoint a resumed run saved does not load: {e}"));
    assert_eq!(
        back.engine.generation(),
        summary.done,
        "the saved checkpoint is at another generation"
    );
}

/// Whether resuming `cp` hits a crash already found (while those are
/// skipped, see [`skip_known_crashes`]); the engine's state is not checked
/// when a checkpoint is read, so:
/// - a self-adaptive engine with a genome lacking a step size per gene
///   panics in `evolve/genome/real.rs` `mutate_real` (`assert_eq!` on
///   `sigmas`; `artifacts-found/checkpoint/self-adaptive-genomes-without-sigmas.json`);
/// - a CMA-ES whose vectors do not fit its `n`, `mu` and `lambda` panics in
///   `evolve/cma.rs` `CmaEs::tell` (index out of bounds;
///   `artifacts-found/checkpoint/cma-es-covariance-of-wrong-length.json`).
fn known_crash_checkpoint(cp: &Checkpoint) -> bool {
    if !SKIP_KNOWN.with(Cell::get) {
        return false;
    }
    let engines = std::iter::once(&cp.engine).chain(cp.second.as_ref());
    engines.into_iter().any(|e| {
        let Ok(v) = serde_json::to_value(e) else {
            return false;
        };
        let self_adaptive = v.to_string().contains("\"self_adaptive\"");
        (self_adaptive && genomes(&v).any(|g| g.sigmas != g.genes)) || !cma_consistent(&v)
    })
}

/// Whether a CMA-ES's state (in JSON) has the lengths its `n`, `mu` and
/// `lambda` say; true for the other engines.
fn cma_consistent(v: &serde_json::Value) -> bool {
    use serde_json::Value;
    if v.get("engine").and_then(Value::as_str) != Some("cma-es") {
        return true;
    }
    let num = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0) as usize;
    let len = |k: &str| v.get(k).and_then(Value::as_array).map(Vec::len);
    let (n, mu, lambda) = (num("n"), num("mu"), num("lambda"));
    let rows_of = |k: &str, inner: &dyn Fn(&Value) -> Option<usize>| {
        v.get(k)
            .and_then(Value::as_array)
            .is_some_and(|rows| rows.len() == lambda && rows.iter().all(|r| inner(r) == Some(n)))
    };
    n >= 1
        && (1..=lambda).contains(&mu)
        && ["mean", "pc", "ps", "d"].iter().all(|k| len(k) == Some(n))
        && ["c", "b"].iter().all(|k| len(k) == n.checked_mul(n))
        && len("weights") == Some(mu)
        && rows_of("steps", &|r| r.as_array().map(Vec::len))
        && rows_of("population", &|r| {
            r.get("genes").and_then(Value::as_array).map(Vec::len)
        })
}

/// The lengths of a real genome's genes and step sizes, found in JSON.
struct GenomeLens {
    genes: usize,
    sigmas: usize,
}

/// Every real genome (an object with `genes`) inside an engine's JSON.
fn genomes(v: &serde_json::Value) -> Box<dyn Iterator<Item = GenomeLens> + '_> {
    use serde_json::Value;
    let len = |x: Option<&Value>| x.and_then(Value::as_array).map_or(0, Vec::len);
    match v {
        Value::Object(map) if map.contains_key("genes") => Box::new(std::iter::once(GenomeLens {
            genes: len(map.get("genes")),
            sigmas: len(map.get("sigmas")),
        })),
        Value::Object(map) => Box::new(map.values().flat_map(genomes)),
        Value::Array(items) => Box::new(items.iter().flat_map(genomes)),
        _ => Box::new(std::iter::empty()),
    }
}

/// Whether one generation of `cp` is quick: a net of at most 2000 weights,
/// at most 24 individuals per population, engine sizes (`lambda`, `mu`, `n`)
/// of at most 64, short games against `random`/`first`, few of them, and
/// no deep search.
fn cheap_generation<G: Game>(game: &G, cp: &Checkpoint, weights: usize) -> bool {
    let c = &cp.config;
    let engines = std::iter::once(&cp.engine).chain(cp.second.as_ref());
    let small_engines = engines.into_iter().all(|e| {
        e.population_len() <= 24 && serde_json::to_value(e).is_ok_and(|v| sizes_at_most(&v, 64))
    });
    let cheap_player = |s: &String| matches!(s.trim(), "random" | "first");
    let cheap_openings = |o: &Option<String>| {
        o.as_deref().is_none_or(|o| {
            o.trim()
                .strip_prefix("plies=")
                .and_then(|k| k.trim().parse::<usize>().ok())
                .is_some_and(|k| k <= 8)
        })
    };
    let f = &c.fitness;
    let yardsticks_ok = c.yardsticks.as_ref().is_none_or(|y| {
        y.games <= 4
            && y.against.len() <= 2
            && y.against.iter().all(cheap_player)
            && (!y.exhaustive || game.spec() == "tictactoe")
            && cheap_openings(&y.openings)
    });
    weights <= 2_000
        && small_engines
        && game.max_game_length() <= 64
        && c.net.ply <= 2
        && c.net.complete <= 64
        && f.games_per_seat <= 2
        && f.hall_of_fame <= 3
        && f.opponents.len() <= 3
        && f.opponents.iter().all(cheap_player)
        && (f.scheme != Scheme::Exhaustive || game.spec() == "tictactoe")
        && cheap_openings(&f.openings)
        && yardsticks_ok
        && cp.hall_of_fame.len() <= 8
}

/// Whether every number stored under a size key (`lambda`, `mu`, `n`,
/// `len`, `population`) of an engine's JSON is at most `limit` (`len` of a
/// bit genome: `limit` × 32 bits).
fn sizes_at_most(v: &serde_json::Value, limit: u64) -> bool {
    use serde_json::Value;
    match v {
        Value::Object(map) => map.iter().all(|(k, v)| {
            let bound = match k.as_str() {
                "lambda" | "mu" | "n" | "population" => Some(limit),
                "len" => Some(limit * 32 * 2_000),
                _ => None,
            };
            let ok = match (bound, v.as_u64()) {
                (Some(b), Some(x)) => x <= b,
                (Some(_), None) => !v.is_number(),
                _ => true,
            };
            ok && sizes_at_most(v, limit)
        }),
        Value::Array(items) => items.iter().all(|x| sizes_at_most(x, limit)),
        _ => true,
    }
}

// ---------------------------------------------------------------- records

/// Target `game_record`: the input as a file of game records (one JSON
/// object a line, as `wopr play --record` writes), read as `wopr music
/// --record FILE` reads game 0 (`crates/wopr-cli/src/cmd/music.rs`: the
/// first non-blank line into `GameRecord`), then set to music with
/// `compose_record` and the default musicator, and written as MIDI; the
/// record's actions are also replayed with `driver::replay`.
///
/// Asserts: `replay` and the musicator's `grid_moves` agree on whether the
/// record replays; a composed record writes a MIDI file that reads back.
pub fn check_game_record(data: &[u8]) {
    let Some(text) = text_of(data) else { return };
    let Some(line) = text.lines().find(|l| !l.trim().is_empty()) else {
        return;
    };
    let Ok(rec) = serde_json::from_str::<GameRecord>(line) else {
        return;
    };
    if known_crash_spec(&rec.game) {
        return;
    }
    if let Some(game) = parse_game(&rec.game) {
        let (replayed, listed) = wopr::with_game!(&game, g => (
            replay(g, &rec.actions).map(|_| ()),
            grid_moves(g, &rec.actions).map(|_| ()),
        ));
        assert_eq!(
            replayed.is_ok(),
            listed.is_ok(),
            "replay says {replayed:?}, the musicator says {listed:?}"
        );
    }
    let config = MusicConfig::default();
    let Ok(piece) = compose_record(&rec, &config, 0) else {
        return;
    };
    let opts = MidiOptions {
        tempo_bpm: 120.0,
        instruments: vec![0],
        seat_names: piece.seat_names.clone(),
        title: format!("{} ({})", rec.game, rec.players.join(" vs ")),
    };
    let midi = to_midi(&piece.bars, &config, &opts)
        .unwrap_or_else(|e| panic!("a composed record does not write as MIDI: {e}"));
    wopr::music::read_notes(&midi)
        .unwrap_or_else(|e| panic!("the MIDI file written does not read back: {e}"));
}
