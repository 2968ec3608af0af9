//! The move-notation target: moves in notation played from random
//! positions, and their round trips.

use super::*;

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
pub(crate) fn random_ply<G: Game>(
    game: &G,
    state: &mut G::State,
    byte: &mut dyn FnMut() -> u8,
) -> bool {
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
