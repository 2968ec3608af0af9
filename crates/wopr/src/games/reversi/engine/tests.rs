use rand::seq::IndexedRandom;

use super::eval::Indices;
use super::search::WIN;
use super::*;
use crate::game::encode::Encodable;
use crate::game::rng::stream;
use crate::game::{ActionList, Game, State};
use crate::nn::NetFile;
use crate::nn::{sparse_sum, Activation, AnyNet, Architecture, Network};
use crate::players::parse_player;

/// A net over `encoding` with random weights in ±0.1.
fn random_net(game: &Reversi, encoding: &str, seed: u64) -> NetFile {
    let inputs = game.encoding(encoding).unwrap().size();
    let arch = Architecture::Mlp {
        layers: vec![inputs, 1],
    };
    let mut net = AnyNet::new(&arch, &[Activation::Tanh]).unwrap();
    net.randomize(&mut stream(seed, &[]), 0.1);
    let mut file = NetFile::new(net);
    file.encoding = Some(encoding.into());
    file.game = Some(game.spec());
    file
}

/// Positions of random games from the start, each with the configurations
/// the engine reached by playing the moves into them.
fn random_positions(game: &Reversi, eval: &PatternEval, seed: u64) -> Vec<(ReversiState, Indices)> {
    let mut rng = stream(seed, &[]);
    let mut out = Vec::new();
    for _ in 0..20 {
        let mut s = game.initial_state();
        let mut idx = eval.indices(&s);
        while !s.is_terminal() {
            out.push((s, idx));
            let mut legal = ActionList::new();
            s.legal_actions(&mut legal);
            let a = *legal.choose(&mut rng).unwrap();
            if s.placements() != 0 {
                let d = s.discs();
                let me = s.to_move();
                let flips = super::super::flips_for(game.size(), d[me], d[1 - me], a as usize);
                eval.play(&mut idx, me, a as usize, flips);
            }
            s.apply(a);
        }
    }
    out
}

#[test]
fn incremental_configurations_match_a_fresh_reading_and_the_net() {
    for (n, encoding) in [(6, "logistello4"), (8, "logistello12")] {
        let game = Reversi::new(n).unwrap();
        let file = random_net(&game, encoding, 3);
        let eval = PatternEval::new(&game, &file).unwrap();
        let enc = game.encoding(encoding).unwrap();
        let mut pairs = Vec::new();
        for (s, idx) in random_positions(&game, &eval, 4) {
            assert_eq!(idx, eval.indices(&s), "{n}x{n}: incremental ≠ fresh");
            // The net's own reading, from the mover's side.
            enc.encode_sparse(&s, &mut pairs);
            let want = sparse_sum(file.net.params(), &pairs);
            let d = s.discs();
            let got = eval.value(&idx, s.to_move(), (d[0] | d[1]).count_ones());
            assert!(
                (want - got).abs() < 1e-4,
                "{n}x{n}: net {want}, engine {got}"
            );
        }
    }
}

/// Plain negamax to `depth` plies over the engine's leaf values, a pass
/// using no depth (as the engine's search does).
fn minimax(search: &Search, s: &ReversiState, depth: u32) -> i32 {
    let d = s.discs();
    let me = s.to_move();
    let (own, opp) = (d[me], d[1 - me]);
    let finished = |own: u64, opp: u64| {
        let m = own.count_ones() as i32 - opp.count_ones() as i32;
        match m.signum() {
            1 => WIN + m,
            -1 => m - WIN,
            _ => 0,
        }
    };
    if s.is_terminal() {
        return finished(own, opp);
    }
    if depth == 0 {
        return search.static_value(s);
    }
    let mut legal = ActionList::new();
    s.legal_actions(&mut legal);
    let next = if s.placements() == 0 {
        depth
    } else {
        depth - 1
    };
    legal
        .iter()
        .map(|&a| {
            let mut c = *s;
            c.apply(a);
            -minimax(search, &c, next)
        })
        .max()
        .unwrap()
}

#[test]
fn principal_variation_search_gives_the_minimax_value() {
    let game = Reversi::new(6).unwrap();
    let file = random_net(&game, "logistello4", 5);
    let eval = Arc::new(PatternEval::new(&game, &file).unwrap());
    let positions = random_positions(&game, &eval, 6);
    let mut rng = stream(7, &[]);
    let mut checked = 0;
    for (s, _) in positions.iter().step_by(7) {
        if s.placements() == 0 {
            continue;
        }
        for depth in [1, 2, 3, 4] {
            let mut search = Search::new(eval.clone());
            let found = search.run(s, depth, None, &mut rng);
            let want = minimax(&search, s, depth);
            assert_eq!(found.value, want, "depth {depth} at\n{s}");
            // The chosen move reaches that value.
            let mut c = *s;
            c.apply(found.square as Action);
            let next = depth - 1;
            assert_eq!(-minimax(&search, &c, next), want);
        }
        checked += 1;
    }
    assert!(checked > 50, "only {checked} positions");
}

fn write(file: &NetFile, name: &str) -> String {
    let path = std::env::temp_dir().join(format!("wopr-engine-{}-{name}", std::process::id()));
    file.save(&path).unwrap();
    path.to_string_lossy().into_owned()
}

#[test]
fn the_endgame_is_played_by_the_solver() {
    let game = Reversi::new(6).unwrap();
    let path = write(&random_net(&game, "logistello", 8), "endgame.json");
    let mut player = parse_player(&game, &format!("engine:net={path},empties=12")).unwrap();
    let mut solver = ReversiSolver::new(6, 12);
    let mut rng = stream(9, &[]);
    let mut checked = 0;
    for (s, _) in random_positions(&game, &player_eval(&game, &path), 10) {
        let mut legal = ActionList::new();
        s.legal_actions(&mut legal);
        if s.empties() > 12 || legal.len() < 2 {
            continue;
        }
        let best = solver.solve(&s).unwrap().best;
        let chosen = player.choose(&s, &legal, &mut rng);
        assert!(best.contains(&chosen), "{chosen} is not one of {best:?}");
        checked += 1;
    }
    assert!(checked > 20, "only {checked} positions");
    std::fs::remove_file(path).ok();
}

fn player_eval(game: &Reversi, path: &str) -> PatternEval {
    PatternEval::new(game, &crate::nn::NetFile::load(path).unwrap()).unwrap()
}

#[test]
fn specs_name_the_net_and_refuse_other_nets() {
    let game = Reversi::new(6).unwrap();
    let err = |spec: &str| parse_player(&game, spec).err().unwrap().to_string();
    assert!(err("engine").contains("engine:net=PATH"));
    assert!(err("engine:net=x.json,depth=0").contains("depth"));
    assert!(err("engine:net=x.json,plies=3").contains("plies"));
    let raw = write(&random_net(&game, "raw", 1), "raw.json");
    assert!(err(&format!("engine:net={raw}")).contains("Logistello"));
    // A file whose line names the engine makes `net:FILE` the engine.
    let mut file = random_net(&game, "logistello", 2);
    file.player = Some("engine:depth=3".into());
    let path = write(&file, "line.json");
    let played = parse_player(&game, &format!("net:{path},ms=200"))
        .unwrap()
        .spec();
    assert_eq!(
        played,
        format!("engine:net={path},depth=3,empties=16,ms=200")
    );
    // A mode in the spec plays the net alone.
    let alone = parse_player(&game, &format!("net:{path},mode=greedy"))
        .unwrap()
        .spec();
    assert!(
        alone.starts_with(&format!("net:{path},mode=greedy")),
        "{alone}"
    );
    for p in [raw, path] {
        std::fs::remove_file(p).ok();
    }
}
