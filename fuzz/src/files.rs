//! The file targets: net files, checkpoints and game records, read, checked
//! and written back.

use super::*;

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
