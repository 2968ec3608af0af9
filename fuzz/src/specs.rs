//! The game-spec and player-spec targets: specs parsed, printed back, and
//! (where small) played.

use super::*;

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
