//! A net searched by alpha-beta plays the minimax move of the net's own
//! values (issue 28, part 1). A linear n-tuple network's outputs run to the
//! hundreds; the search once clamped every value to the bounded range, so
//! almost all leaves tied and a net searched at two plies played about as
//! well as a random player. Here a linear net with outputs in the hundreds
//! is searched at 2 and 3 plies on Reversi 4x4, and its move is checked
//! against a plain minimax over the same values.

use std::sync::Arc;

use rand::RngExt;
use wopr::game::encode::Encodable;
use wopr::game::mover;
use wopr::game::rng::stream;
use wopr::games::reversi::{Reversi, ReversiState};
use wopr::nn::NetFile;
use wopr::players::net::NetEval;
use wopr::{parse_player, ActionList, Game, State};

/// A linear net over `ntuple2` with weights uniform in ±100 (seeded).
fn big_linear_net(game: &Reversi) -> String {
    let inputs = game.encoding("ntuple2").unwrap().size();
    let mut rng = stream(28, &[]);
    let weights: Vec<String> = (0..=inputs)
        .map(|_| format!("{:.3}", rng.random_range(-100.0f32..100.0)))
        .collect();
    format!(
        r#"{{"game": "{}", "encoding": "ntuple2", "architecture": {{"type": "mlp", "layers": [{inputs}, 1]}}, "activations": ["linear"], "weights": [{}]}}"#,
        game.spec(),
        weights.join(", ")
    )
}

/// The minimax value for `me` of `s` searched `depth` plies with the net's
/// values at the leaves (finished positions by the rules, beyond any net
/// value).
fn minimax(eval: &mut NetEval<Reversi>, s: &ReversiState, depth: u32, me: usize) -> f64 {
    let Some(m) = mover(s) else {
        return 1e12 * s.returns(me).signum();
    };
    if depth == 0 {
        let o = eval.run(std::slice::from_ref(s))[0];
        return f64::from(eval.sign_for(s, me) * eval.centred(o));
    }
    let mut legal = ActionList::new();
    s.legal_actions(&mut legal);
    let values = legal.iter().map(|&a| {
        let mut c = *s;
        c.apply(a);
        minimax(eval, &c, depth - 1, me)
    });
    if m == me {
        values.fold(f64::NEG_INFINITY, f64::max)
    } else {
        values.fold(f64::INFINITY, f64::min)
    }
}

#[test]
fn a_searched_linear_net_plays_the_minimax_move_of_its_values() {
    let game = Reversi::from_spec(&wopr::GameSpec::parse("reversi:4x4").unwrap()).unwrap();
    let dir = std::env::temp_dir().join(format!("wopr-net-search-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("big.json");
    std::fs::write(&path, big_linear_net(&game)).unwrap();
    let file = NetFile::load(&path).unwrap();
    let mut eval = NetEval::new(Arc::new(file.net), game.encoding("ntuple2").unwrap()).unwrap();
    let mut rng = stream(2026, &[]);
    let mut checked = 0;
    for ply in [1u32, 2, 3] {
        let spec = format!("net:{},mode=alphabeta,ply={ply}", path.display());
        let mut player = parse_player(&game, &spec).unwrap();
        // Positions from random play, each asked of the searched net.
        for g in 0..30 {
            let mut s = game.initial_state();
            let mut legal = ActionList::new();
            for _ in 0..(g % 9) {
                legal.clear();
                s.legal_actions(&mut legal);
                if mover(&s).is_none() || legal.is_empty() {
                    break;
                }
                s.apply(legal[rng.random_range(0..legal.len())]);
            }
            let Some(me) = mover(&s) else { continue };
            legal.clear();
            s.legal_actions(&mut legal);
            if legal.len() < 2 {
                continue;
            }
            let values: Vec<f64> = legal
                .iter()
                .map(|&a| {
                    let mut c = s;
                    c.apply(a);
                    minimax(&mut eval, &c, ply - 1, me)
                })
                .collect();
            let best = values.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            let worst = values.iter().cloned().fold(f64::INFINITY, f64::min);
            player.new_game();
            let view = s.view(me);
            let a = player.choose(&view, &legal, &mut rng);
            let i = legal.iter().position(|&x| x == a).unwrap();
            // The search's integer values keep a relative resolution of
            // about 2e-4: a move within 1e-3 of the best value is the best.
            assert!(
                values[i] >= best - 1e-3 * best.abs().max(1.0),
                "ply {ply}, position {s:?}: played {} worth {} (best {best}, worst {worst}, all {values:?})",
                s.action_to_string(a),
                values[i]
            );
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} positions");
    std::fs::remove_dir_all(&dir).unwrap();
}
