//! Virus's hand-crafted players `ai:1` … `ai:20`: the features against a
//! plain 2-D-array reading of their definitions, a hand-counted position,
//! the search against plain minimax, and that the twenty really differ.

use rand::RngExt;
use wopr::eval::matches::play_match;
use wopr::game::rng::stream;
use wopr::game::GameSpec;
use wopr::games::virus::players::{
    ai_evaluation, ai_value, best_moves, features, AiPlayer, AI_PLAYERS, NUM_AI, NUM_FEATURES,
};
use wopr::games::virus::{Virus, VirusState};
use wopr::players::parse_player;
use wopr::{Action, ActionList, Game, State};

fn game(spec: &str) -> Virus {
    Virus::from_spec(&GameSpec::parse(spec).unwrap()).unwrap()
}

fn legal(s: &VirusState) -> ActionList {
    let mut l = ActionList::new();
    s.legal_actions(&mut l);
    l
}

/// The features computed straight from their definitions on a 2-D array.
fn reference_features(s: &VirusState, seat: usize) -> [f32; NUM_FEATURES] {
    let n = s.size() as i32;
    let at = |r: i32, c: i32| s.at(c as usize, r as usize);
    let cells: Vec<(i32, i32)> = (0..n).flat_map(|r| (0..n).map(move |c| (r, c))).collect();
    let dist = |a: (i32, i32), b: (i32, i32)| (a.0 - b.0).abs().max((a.1 - b.1).abs());
    let empty = |p: (i32, i32)| at(p.0, p.1).is_none();
    // Where `who` can move: grows (next to an own piece) and jumps (two away
    // from an own piece, through an empty square next to both).
    let grow_to = |who: usize, p: (i32, i32)| {
        empty(p)
            && cells
                .iter()
                .any(|&q| dist(p, q) == 1 && at(q.0, q.1) == Some(who))
    };
    let jump_to = |who: usize, p: (i32, i32)| {
        empty(p)
            && cells.iter().any(|&f| {
                dist(p, f) == 2
                    && at(f.0, f.1) == Some(who)
                    && cells
                        .iter()
                        .any(|&m| dist(m, f) == 1 && dist(m, p) == 1 && empty(m))
            })
    };
    let side = |who: usize| -> [i32; NUM_FEATURES] {
        let other = 1 - who;
        let mine: Vec<(i32, i32)> = cells
            .iter()
            .copied()
            .filter(|&p| at(p.0, p.1) == Some(who))
            .collect();
        let count = |f: &dyn Fn((i32, i32)) -> bool| mine.iter().filter(|&&p| f(p)).count() as i32;
        let opp_moves_next = |p: (i32, i32)| {
            cells
                .iter()
                .any(|&q| dist(p, q) == 1 && (grow_to(other, q) || jump_to(other, q)))
        };
        let border = |p: (i32, i32)| p.0 == 0 || p.0 == n - 1 || p.1 == 0 || p.1 == n - 1;
        let corner = |p: (i32, i32)| (p.0 == 0 || p.0 == n - 1) && (p.1 == 0 || p.1 == n - 1);
        let (lo, hi) = (n / 4, n - 1 - n / 4);
        let mut pairs = 0;
        for &a in &mine {
            for &b in &mine {
                if a < b && dist(a, b) == 1 {
                    pairs += 1;
                }
            }
        }
        let threat = cells
            .iter()
            .filter(|&&p| grow_to(who, p) || jump_to(who, p))
            .map(|&p| {
                cells
                    .iter()
                    .filter(|&&q| dist(p, q) == 1 && at(q.0, q.1) == Some(other))
                    .count() as i32
            })
            .max()
            .unwrap_or(0);
        [
            mine.len() as i32,
            cells.iter().filter(|&&p| grow_to(who, p)).count() as i32,
            cells
                .iter()
                .filter(|&&p| jump_to(who, p) && !grow_to(who, p))
                .count() as i32,
            count(&opp_moves_next),
            count(&|p| !cells.iter().any(|&q| dist(p, q) == 1 && empty(q))),
            count(&|p| border(p) && !corner(p)),
            count(&corner),
            count(&|p| (lo..=hi).contains(&p.0) && (lo..=hi).contains(&p.1)),
            pairs,
            threat,
        ]
    };
    let (a, b) = (side(seat), side(1 - seat));
    std::array::from_fn(|i| (a[i] - b[i]) as f32)
}

/// Random positions: random play from the start for a random number of plies.
fn random_positions(g: &Virus, count: usize, max_plies: usize, seed: u64) -> Vec<VirusState> {
    let mut out = Vec::new();
    let mut i = 0;
    while out.len() < count {
        let mut rng = stream(seed, &[i]);
        i += 1;
        let plies = rng.random_range(1..=max_plies);
        let mut s = g.initial_state();
        for _ in 0..plies {
            if s.is_terminal() {
                break;
            }
            let l = legal(&s);
            s.apply(l[rng.random_range(0..l.len())]);
        }
        if !s.is_terminal() {
            out.push(s);
        }
    }
    out
}

#[test]
fn features_of_a_hand_counted_position() {
    // 4x4, Black a1 b1, White c2, Black to move:
    //    a b c d
    //  1 B B . .
    //  2 . . W .
    // Black grows a2 b2 c1 (3), White c1 d1 b2 d2 b3 c3 d3 (7). Jumps only:
    // Black a3 b3 c3 d1 d2 (5); White reaches every one of the 13 empty
    // squares, 6 of them only by jumping. Exposed: a1 and b1 (next to a2),
    // c2 (next to b2): 2 vs 1. Safe: none. Edges: b1 vs none; corners: a1
    // vs none; centre (b2..c3): none vs c2; clusters: a1-b1 vs none. Threat:
    // Black converts at most 1 (c2); White 2 (a1 and b1 from a2 or b2).
    let g = game("virus:4x4,start=a1b1/c2");
    let s = g.initial_state();
    let want = [1., -4., -1., 1., 0., 1., 1., -1., 1., -1.];
    assert_eq!(features(&s, 0), want);
    assert_eq!(features(&s, 1), want.map(|x: f32| -x));
    assert_eq!(reference_features(&s, 0), want);
    // ai:1 counts pieces only; ai:2 adds 0.8 × threat.
    assert_eq!(ai_evaluation(1, &s, 0), 1.0);
    assert!((ai_evaluation(2, &s, 0) - 0.2).abs() < 1e-6);
}

#[test]
fn features_match_the_definitions() {
    for (spec, max) in [("virus:8x8", 120), ("virus:6x6", 60), ("virus:5x5", 40)] {
        let g = game(spec);
        for s in random_positions(&g, 40, max, 11) {
            for seat in 0..2 {
                assert_eq!(features(&s, seat), reference_features(&s, seat), "\n{s}");
            }
            for k in 1..=NUM_AI {
                assert_eq!(ai_evaluation(k, &s, 0), -ai_evaluation(k, &s, 1));
            }
        }
    }
}

/// Plain depth-limited minimax over a player's search value.
fn minimax(k: usize, s: &VirusState, depth: u32) -> f32 {
    if depth == 0 || s.is_terminal() {
        return ai_value(k, s);
    }
    legal(s)
        .iter()
        .map(|&a| {
            let mut c = *s;
            c.apply(a);
            -minimax(k, &c, depth - 1)
        })
        .fold(f32::NEG_INFINITY, f32::max)
}

#[test]
fn search_picks_exactly_the_minimax_best_moves() {
    let g = game("virus:5x5");
    for (i, s) in random_positions(&g, 8, 30, 5).iter().enumerate() {
        let k = 1 + (i * 7) % NUM_AI;
        for depth in 1..=2 {
            let vals: Vec<(Action, f32)> = legal(s)
                .iter()
                .map(|&a| {
                    let mut c = *s;
                    c.apply(a);
                    (a, -minimax(k, &c, depth - 1))
                })
                .collect();
            let top = vals.iter().map(|x| x.1).fold(f32::NEG_INFINITY, f32::max);
            let want: Vec<Action> = vals.iter().filter(|x| x.1 == top).map(|x| x.0).collect();
            let (v, got) = best_moves(s, depth, &|x: &VirusState| ai_value(k, x));
            assert_eq!(v, top);
            assert_eq!(got.to_vec(), want, "ai:{k} depth {depth}\n{s}");
            let p = AiPlayer::new(k, depth).unwrap();
            assert_eq!(p.best_moves(s).to_vec(), want);
        }
    }
}

#[test]
fn every_two_players_choose_differently_somewhere() {
    // A fixed set of random 8x8 positions; for each pair of players, some
    // position where their sets of best 1-ply moves differ.
    let g = game("virus:8x8");
    let positions = random_positions(&g, 60, 150, 3);
    let choices: Vec<Vec<ActionList>> = (1..=NUM_AI)
        .map(|k| {
            let p = AiPlayer::new(k, 1).unwrap();
            positions.iter().map(|s| p.best_moves(s)).collect()
        })
        .collect();
    for i in 0..NUM_AI {
        for j in 0..i {
            let differ = (0..positions.len())
                .filter(|&x| choices[i][x] != choices[j][x])
                .count();
            assert!(differ > 0, "ai:{} and ai:{} always agree", i + 1, j + 1);
        }
    }
}

#[test]
fn specs_parse_and_explain() {
    let g = game("virus");
    assert_eq!(parse_player(&g, "ai:7").unwrap().spec(), "ai:7");
    assert_eq!(
        parse_player(&g, "ai:7,depth=3").unwrap().spec(),
        "ai:7,depth=3"
    );
    assert_eq!(parse_player(&g, "AI:20,depth=1").unwrap().spec(), "ai:20");
    for (bad, says) in [
        ("ai", "needs a player number"),
        ("ai:0", "no player 0"),
        ("ai:21", "no player 21"),
        ("ai:x", "not a player number"),
        ("ai:3,depth=9", "1..=6"),
        ("ai:3,nodes=9", "accepted"),
        ("ai:3,ms=0", "ms"),
        ("nosuch", "ai:K[,depth=D]"),
    ] {
        let e = parse_player(&g, bad).err().unwrap();
        assert!(e.to_string().contains(says), "{bad}: {e}");
    }
    assert_eq!(AI_PLAYERS.len(), 20);
}

/// The round-robin table of the README ("Yardsticks and exact play", Virus:
/// 8x8, every pair 4 games, 2 from each seat), printed by `cargo test
/// --release -p wopr --test virus_players -- --nocapture round_robin` and
/// asserted here, player by player.
#[test]
fn round_robin() {
    // README: (wins, draws, losses) of ai:1 … ai:20.
    const README: [(u32, u32, u32); NUM_AI] = [
        (40, 3, 33),
        (64, 0, 12),
        (17, 1, 58),
        (45, 4, 27),
        (44, 1, 31),
        (57, 1, 18),
        (55, 1, 20),
        (13, 0, 63),
        (27, 2, 47),
        (51, 0, 25),
        (20, 1, 55),
        (21, 1, 54),
        (14, 0, 62),
        (25, 3, 48),
        (49, 1, 26),
        (35, 3, 38),
        (30, 4, 42),
        (45, 0, 31),
        (44, 0, 32),
        (51, 0, 25),
    ];
    let g = game("virus:8x8");
    let games = 4;
    // (wins, draws, losses) per player
    let mut table = vec![(0u32, 0u32, 0u32); NUM_AI];
    let mut plies = 0usize;
    let mut total = 0usize;
    for i in 1..=NUM_AI {
        for j in i + 1..=NUM_AI {
            let seed = (i * 100 + j) as u64;
            let records = play_match(
                &g,
                &format!("ai:{i}"),
                &format!("ai:{j}"),
                games,
                seed,
                &|| {},
            )
            .unwrap();
            for (x, r) in records.iter().enumerate() {
                let seat_i = x % 2; // ai:i sits in seat 1 in odd games
                let ret = r.returns.as_ref().unwrap()[seat_i];
                let (a, b) = (i - 1, j - 1);
                match ret {
                    v if v > 0.0 => {
                        table[a].0 += 1;
                        table[b].2 += 1;
                    }
                    v if v < 0.0 => {
                        table[a].2 += 1;
                        table[b].0 += 1;
                    }
                    _ => {
                        table[a].1 += 1;
                        table[b].1 += 1;
                    }
                }
                plies += r.actions.len();
                total += 1;
            }
        }
    }
    println!("virus:8x8 round robin, {games} games per pair (seats alternate), {total} games, mean length {:.1} plies", plies as f64 / total as f64);
    println!("| player | character | wins | draws | losses | points (3/1/0) |");
    println!("|---|---|---|---|---|---|");
    let mut order: Vec<usize> = (0..NUM_AI).collect();
    order.sort_by_key(|&k| std::cmp::Reverse(3 * table[k].0 + table[k].1));
    for k in order {
        let (w, d, l) = table[k];
        println!(
            "| ai:{} | {} | {w} | {d} | {l} | {} |",
            k + 1,
            AI_PLAYERS[k].character,
            3 * w + d
        );
    }
    assert_eq!(table, README);
}
