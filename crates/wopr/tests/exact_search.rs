//! Issue 28, part 1: a net whose values are exact plays only optimal moves
//! however deep it is searched. The net is linear over Tic-Tac-Toe's
//! `table` encoding (one input per board), its weight for each board the
//! solver's value for the player to move (+1 won, 0 drawn, −1 lost): a
//! lookup table of the game's values. Searched by alpha-beta at ply 1 to 6
//! (`net:…,mode=alphabeta,ply=K`), it must keep the solver's value at
//! every position reachable from the start: any move it plays is one the
//! solver rates best. The finished positions the search meets are scored
//! by the rules, the others by the table, so a wrong sign, a misplaced
//! point of view or an encoding read from the wrong seat shows up here.

use std::collections::HashSet;

use wopr::game::encode::Encodable;
use wopr::game::rng::stream;
use wopr::games::tictactoe::solver::solved_value;
use wopr::games::tictactoe::{TicTacToe, TicTacToeState};
use wopr::{parse_player, Action, ActionList, Game, State};

/// Every position reachable from the start, finished ones included.
fn reachable() -> Vec<TicTacToeState> {
    let mut seen = HashSet::new();
    let mut stack = vec![TicTacToe.initial_state()];
    let mut out = Vec::new();
    while let Some(s) = stack.pop() {
        if !seen.insert((s.marks, s.to_move)) {
            continue;
        }
        out.push(s);
        let mut legal = ActionList::new();
        s.legal_actions(&mut legal);
        for &a in &legal {
            let mut c = s;
            c.apply(a);
            stack.push(c);
        }
    }
    out
}

#[test]
fn an_exact_table_searched_at_any_ply_plays_only_optimal_moves() {
    let positions = reachable();
    // 5,478 legal boards, 4,520 of them with a move to make (the
    // well-known counts of Tic-Tac-Toe).
    assert_eq!(positions.len(), 5478);
    let live: Vec<&TicTacToeState> = positions.iter().filter(|s| !s.is_terminal()).collect();
    assert_eq!(live.len(), 4520);

    let table = TicTacToe.encoding("table").unwrap();
    let mut weights = vec![0.0f32; table.size() + 1];
    let mut input = Vec::new();
    for s in &live {
        table.encode_sparse(s, &mut input);
        weights[input[0].0 as usize] = f32::from(solved_value(s).signum());
    }
    let text: Vec<String> = weights.iter().map(|w| format!("{w}")).collect();
    let dir = std::env::temp_dir().join(format!("wopr-exact-search-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("exact.json");
    std::fs::write(
        &path,
        format!(
            r#"{{"game": "tictactoe", "encoding": "table", "architecture": {{"type": "mlp", "layers": [{}, 1]}}, "activations": ["linear"], "weights": [{}]}}"#,
            table.size(),
            text.join(", ")
        ),
    )
    .unwrap();

    let mut rng = stream(28, &[]);
    for ply in 1..=6u32 {
        let spec = format!("net:{},mode=alphabeta,ply={ply}", path.display());
        let mut player = parse_player(&TicTacToe, &spec).unwrap();
        for s in &live {
            let mut legal = ActionList::new();
            s.legal_actions(&mut legal);
            // The value of a move for the mover: the negated value of the
            // position it leads to, or the result where it ends the game.
            let worth = |a: Action| -> i8 {
                let mut c = **s;
                c.apply(a);
                if c.is_terminal() {
                    wopr::game::result_sign(c.returns(usize::from(s.to_move))) as i8
                } else {
                    -solved_value(&c).signum()
                }
            };
            let best = legal.iter().map(|&a| worth(a)).max().unwrap();
            player.new_game();
            let a = player.choose(&s.view(usize::from(s.to_move)), &legal, &mut rng);
            assert_eq!(
                worth(a),
                best,
                "ply {ply}: at {s:?} the searched table played {} worth {}, not {best}",
                s.action_to_string(a),
                worth(a)
            );
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
