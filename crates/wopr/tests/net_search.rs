//! A net searched by alpha-beta plays the minimax move of the net's own
//! values (issue 28, part 1). A linear n-tuple network's outputs run to the
//! hundreds; the search once clamped every value to the bounded range, so
//! almost all leaves tied and a net searched at two plies played about as
//! well as a random player. Here random nets (a linear one with outputs in
//! the hundreds on Reversi 4x4, a tanh one on Dots-and-Boxes 2x2, where a
//! completed box gives the mover another turn) are searched at 1 to 3 plies,
//! and each move is checked against a plain minimax over the same values.

use std::sync::Arc;

use rand::RngExt;
use wopr::game::encode::Encodable;
use wopr::game::mover;
use wopr::game::rng::stream;
use wopr::nn::NetFile;
use wopr::players::net::NetEval;
use wopr::{parse_player, ActionList, AnyGame, Roster, Searchable, State};

/// A one-layer net over `encoding` with weights uniform in ±`scale`
/// (seeded), as a net file's text.
fn random_net<G: Encodable>(game: &G, encoding: &str, output: &str, scale: f32) -> String {
    let inputs = game.encoding(encoding).unwrap().size();
    let mut rng = stream(28, &[]);
    let weights: Vec<String> = (0..=inputs)
        .map(|_| format!("{:.4}", rng.random_range(-scale..scale)))
        .collect();
    format!(
        r#"{{"game": "{}", "encoding": "{encoding}", "architecture": {{"type": "mlp", "layers": [{inputs}, 1]}}, "activations": ["{output}"], "weights": [{}]}}"#,
        game.spec(),
        weights.join(", ")
    )
}

/// The minimax value for `me` of `s` searched `depth` plies with the net's
/// values at the leaves (finished positions by the rules, beyond any net
/// value; whoever is to move chooses, so extra turns are followed).
fn minimax<G: Encodable>(eval: &mut NetEval<G>, s: &G::State, depth: u32, me: usize) -> f64 {
    let Some(m) = mover(s) else {
        return 1e12 * f64::from(wopr::game::result_sign(s.returns(me)));
    };
    if depth == 0 {
        let o = eval.run(std::slice::from_ref(s))[0];
        return f64::from(eval.sign_for(s, me) * eval.centred(o));
    }
    let mut legal = ActionList::new();
    s.legal_actions(&mut legal);
    let values = legal.iter().map(|&a| {
        let mut c = s.clone();
        c.apply(a);
        minimax(eval, &c, depth - 1, me)
    });
    if m == me {
        values.fold(f64::NEG_INFINITY, f64::max)
    } else {
        values.fold(f64::INFINITY, f64::min)
    }
}

/// Checks the searched net's move at plies 1–3 on positions from random
/// play of `spec`; returns how many positions were checked.
fn check<G>(game: &G, encoding: &str, output: &str, scale: f32) -> usize
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    let dir = std::env::temp_dir().join(format!(
        "wopr-net-search-{}-{}",
        G::INFO.name,
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.json");
    std::fs::write(&path, random_net(game, encoding, output, scale)).unwrap();
    let file = NetFile::load(&path).unwrap();
    let mut eval: NetEval<G> =
        NetEval::new(Arc::new(file.net), game.encoding(encoding).unwrap()).unwrap();
    let mut rng = stream(2026, &[]);
    let mut checked = 0;
    for ply in [1u32, 2, 3] {
        let spec = format!("net:{},mode=alphabeta,ply={ply}", path.display());
        let mut player = parse_player(game, &spec).unwrap();
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
                    let mut c = s.clone();
                    c.apply(a);
                    minimax(&mut eval, &c, ply - 1, me)
                })
                .collect();
            let best = values.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
            player.new_game();
            let a = player.choose(&s.view(me), &legal, &mut rng);
            let i = legal.iter().position(|&x| x == a).unwrap();
            // The search's integer values keep a relative resolution of
            // about 2e-4 (linear) or 1e-4 absolute (tanh): a move within
            // 1e-3 of the best value is the best.
            assert!(
                values[i] >= best - 1e-3 * best.abs().max(1.0),
                "{} ply {ply}, {s:?}: played {} worth {} (best {best}, all {values:?})",
                game.spec(),
                s.action_to_string(a),
                values[i]
            );
            checked += 1;
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
    checked
}

#[test]
fn a_searched_linear_net_plays_the_minimax_move_of_its_values() {
    let g = AnyGame::parse("reversi:4x4").unwrap();
    let n = wopr::with_board_game!(&g, game => check(game, "ntuple2", "linear", 100.0),
        unreachable!("reversi is a board game"));
    assert!(n >= 30, "only {n} positions");
}

#[test]
fn a_searched_net_follows_extra_turns_in_dots_and_boxes() {
    let g = AnyGame::parse("dots-and-boxes:2x2").unwrap();
    let n = wopr::with_board_game!(&g, game => check(game, "chains", "tanh", 1.0),
        unreachable!("dots-and-boxes is a board game"));
    assert!(n >= 30, "only {n} positions");
}
