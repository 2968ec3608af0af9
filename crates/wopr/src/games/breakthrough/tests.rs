//! Breakthrough against OpenSpiel: perft, recorded random games (moves,
//! legal move counts, strings, tensors, returns), the start position and
//! the action numbering; then invariants along random games of our own,
//! notation, specs and finished positions of each kind.
//!
//! The OpenSpiel figures come from pyspiel (open_spiel 1.x) with the
//! scripts written beside them.

use super::*;
use crate::game::perft::perft;
use crate::game::rng::stream;
use crate::games::openspiel::{OpenSpielGame, Position, Tensors};

/// OpenSpiel's observation string and tensor of `s` for `player`, as the
/// game declares them ([`OpenSpielGame`]).
fn observed(game: &Breakthrough, s: &BreakthroughState, player: usize) -> (String, Tensors) {
    let at = Position {
        game,
        state: s,
        history: &[],
        params: &[],
    };
    let text = Breakthrough::observation_string(&at, player).unwrap();
    let mut t = Tensors::default();
    <Breakthrough as OpenSpielGame>::observation_tensor(&at, player, &mut t).unwrap();
    (text, t)
}

fn legal(s: &BreakthroughState) -> ActionList {
    let mut l = ActionList::new();
    s.legal_actions(&mut l);
    l
}

/// Perft from the start, depth 1 on.
fn perfts(game: &Breakthrough, depth: u32) -> Vec<u64> {
    let s = game.initial_state();
    (1..=depth).map(|d| perft(&s, d)).collect()
}

/// OpenSpiel's counts, from this script (`/tmp/bt_perft.py SPEC DEPTH`):
///
/// ```text
/// import pyspiel, sys
/// def perft(s, d):
///     if d == 0: return 1
///     if s.is_terminal(): return 0
///     la = s.legal_actions()
///     if d == 1: return len(la)
///     return sum(perft(s.child(a), d-1) for a in la)
/// spec, depth = sys.argv[1], int(sys.argv[2])
/// g = pyspiel.load_game(spec)
/// print(spec, [perft(g.new_initial_state(), d) for d in range(1, depth+1)])
/// ```
///
/// run as `python bt_perft.py breakthrough 4`,
/// `python bt_perft.py 'breakthrough(rows=6,columns=6)' 5` and
/// `python bt_perft.py 'breakthrough(rows=5,columns=4)' 6`.
#[test]
fn perft_equals_openspiel() {
    assert_eq!(
        perfts(&Breakthrough::default(), 4),
        [22, 484, 11_132, 256_036]
    );
    assert_eq!(
        perfts(&Breakthrough::new(6, 6).unwrap(), 5),
        [16, 256, 4_308, 71_478, 1_248_290]
    );
    assert_eq!(
        perfts(&Breakthrough::new(4, 5).unwrap(), 6),
        [10, 100, 840, 6_988, 57_278, 455_070]
    );
}

/// The counts the GDL conformance suite records for the GGP repository's
/// sheets (`gdl/conformance/repository.tsv`, both references agreeing):
/// `breakthrough.kif` is Breakthrough on 8x8 and `breakthroughSmall.kif`
/// on 6x6, each with a `noop` for the player waiting, so a GDL step is one
/// move and the counts are ours at depths 1 to 3. (The sheets themselves
/// are not vendored: the repository carries no licence.)
#[test]
fn perft_equals_the_ggp_repository_sheets() {
    let tsv = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../gdl/conformance/repository.tsv");
    let text = std::fs::read_to_string(&tsv).unwrap();
    let counts = |sheet: &str| -> Vec<u64> {
        let line = text
            .lines()
            .find(|l| l.split('\t').next() == Some(sheet))
            .unwrap_or_else(|| panic!("{sheet} not in {}", tsv.display()));
        let cols: Vec<&str> = line.split('\t').collect();
        assert_eq!(cols[6], "agreed", "{line}");
        cols[3..6].iter().map(|n| n.parse().unwrap()).collect()
    };
    let big = counts("war/root/games/breakthrough/breakthrough.kif");
    assert_eq!(big, perfts(&Breakthrough::default(), 3));
    let small = counts("war/root/games/breakthroughSmall/breakthroughSmall.kif");
    assert_eq!(small, perfts(&Breakthrough::new(6, 6).unwrap(), 3));
}

/// One random game as OpenSpiel played it.
struct Recorded {
    /// `pyspiel.load_game` spec.
    spec: &'static str,
    /// Ours.
    ours: &'static str,
    history: &'static [Action],
    names: &'static str,
    counts: &'static [usize],
    returns: [f64; 2],
    final_str: &'static str,
    final_tensor0: &'static str,
    after7_str: &'static str,
    after7_tensor1: &'static str,
}

/// From this script (`/tmp/bt_record.py`):
///
/// ```text
/// import random, pyspiel
/// def record(spec, seed):
///     g = pyspiel.load_game(spec); rng = random.Random(seed)
///     s = g.new_initial_state(); hist, counts, mid = [], [], None
///     while not s.is_terminal():
///         la = s.legal_actions(); counts.append(len(la))
///         a = rng.choice(la); hist.append(a); s.apply_action(a)
///         if len(hist) == 7:
///             mid = (str(s), "".join(str(int(x)) for x in s.observation_tensor(1)))
///     names, t = [], g.new_initial_state()
///     for a in hist: names.append(t.action_to_string(a)); t.apply_action(a)
///     print(hist, " ".join(names), counts, s.returns(), repr(str(s)),
///           "".join(str(int(x)) for x in s.observation_tensor(0)), mid)
/// for spec, seed in [("breakthrough", 1), ("breakthrough(rows=6,columns=5)", 2),
///                    ("breakthrough(rows=4,columns=3)", 3)]:
///     record(spec, seed)
/// ```
const RECORDED: [Recorded; 3] = [
    Recorded {
        spec: "breakthrough",
        ours: "breakthrough",
        history: &[
            112, 656, 24, 606, 110, 642, 172, 634, 218, 584, 122, 536, 160, 440, 314, 718, 144,
            632, 4, 740, 72, 694, 278, 503, 220, 414, 132, 306, 16, 203, 324, 596, 38, 762, 216,
            610, 132, 526, 410, 114,
        ],
        names: "b7c6 g2g3 c8b7 c2b3 b7b6 f2e3 g7h6 e2f3 c6c5 a2a3 c7c6 e3e4 f7g6 e4e5 c5c4 d1e2 \
                e7d6 e2e3 a8b7 f1f2 g8f7 b1c2 h6h5 b3c4* c6d5 c4b5 d7c6 b5a6 b8c7 a6b7* d5c4 \
                b2b3 d8d7 h1g2 c6b5 c2d3 d7c6 d3e4 c4c3 b7a8",
        counts: &[
            22, 22, 23, 23, 22, 24, 23, 26, 24, 30, 25, 32, 26, 32, 28, 33, 30, 31, 32, 33, 31, 28,
            29, 27, 26, 29, 26, 28, 27, 27, 25, 29, 27, 31, 25, 30, 25, 31, 25, 29,
        ],
        returns: [-1.0, 1.0],
        final_str: "8w...bb.b\n7b.b..b.b\n6.bbb..b.\n5.b..w..b\n4....w...\n3wwb.www.\n\
                    2...w.www\n1w.w.w.w.\n abcdefgh\n",
        final_tensor0: "0000110110100101011100100100000100000000001000000000000000000000\
                        1000000000000000000000000000100000001000110011100001011110101010\
                        0111001001011010100011011011011011110111000100011110100001010101",
        after7_str: "8bb.bbbbb\n7b.bbbb.b\n6.bb....b\n5........\n4........\n3.w..w.w.\n\
                     2ww.ww..w\n1wwwwwwww\n abcdefgh\n",
        after7_tensor1: "1101111110111101011000010000000000000000000000000000000000000000\
                         0000000000000000000000000000000000000000010010101101100111111111\
                         0010000001000010100111101111111111111111101101010010011000000000",
    },
    Recorded {
        spec: "breakthrough(rows=6,columns=5)",
        ours: "breakthrough:columns=5,rows=6",
        history: &[
            62, 250, 12, 272, 76, 318, 148, 296, 216, 212, 88, 262, 36, 284, 4, 215, 100, 343, 122,
            198, 109, 272, 157, 227, 28, 131, 97, 310, 88, 250, 158, 356, 206, 82,
        ],
        names: "a5a4 a2b3 b6a5 c2c3 b5c4 b1a2 c4d3 e2e3 d3c2 c3c4 c5d4 b2c3 d6c5 d2d3 a6b5 \
                c3d4* d5e4 d1c2* a4a3 b3a4 e5d4* c2c3 d4c3* d3e4* c6d5 a4b5* d5c4* a1b2 c5d4 \
                a2b3 d4d3 e1e2 c3c2 b5c6",
        counts: &[
            13, 13, 14, 14, 13, 15, 13, 13, 15, 14, 14, 15, 15, 15, 13, 18, 13, 17, 11, 14, 11, 13,
            12, 13, 13, 13, 12, 13, 12, 14, 13, 15, 13, 13,
        ],
        returns: [-1.0, 1.0],
        final_str: "6..w.b\n5b....\n4..b.w\n3bw.bw\n2.wb.w\n1..w..\n abcde\n",
        final_tensor0: "000011000000100100100010000000001000000000001010010100100100\
                        110100111111010001001001011011",
        after7_str: "6b.bbb\n5b.bbb\n4b....\n3.wwb.\n2ww.ww\n1w.www\n abcde\n",
        after7_tensor1: "101111011110000000100000000000000000000000000011001101110111\
                         010000100001111100010010001000",
    },
    Recorded {
        spec: "breakthrough(rows=4,columns=3)",
        ours: "breakthrough:3x4",
        history: &[4, 130, 50, 104, 17, 140, 24, 119, 48, 102, 74],
        names: "a4b3 b1c2 b3b2 c2c3 b4c3* c1c2 c4b3 a1b2* b3a2 c2b3 a2a1",
        counts: &[7, 7, 6, 5, 7, 4, 4, 3, 3, 4, 4],
        returns: [1.0, -1.0],
        final_str: "4...\n3.wb\n2.w.\n1b..\n abc\n",
        final_tensor0: "000001000100000010010000111100101011",
        after7_str: "4...\n3.bb\n2.bw\n1w..\n abc\n",
        after7_tensor1: "000011010000000000001100111100100011",
    },
];

/// The tensor as the recorded digits.
fn digits(t: &[f32]) -> String {
    t.iter()
        .map(|&x| if x == 1.0 { '1' } else { '0' })
        .collect()
}

#[test]
fn recorded_games_replay_as_openspiel_played_them() {
    for r in &RECORDED {
        let game = Breakthrough::from_spec(&GameSpec::parse(r.ours).unwrap()).unwrap();
        let mut s = game.initial_state();
        let names: Vec<&str> = r.names.split_whitespace().collect();
        assert_eq!(names.len(), r.history.len(), "{}", r.spec);
        for (i, &a) in r.history.iter().enumerate() {
            let l = legal(&s);
            assert_eq!(l.len(), r.counts[i], "{} move {i}", r.spec);
            assert!(l.contains(&a), "{} move {i}: {a}", r.spec);
            assert_eq!(s.action_to_string(a), names[i], "{} move {i}", r.spec);
            assert_eq!(s.parse_action(names[i]), Ok(a));
            s.apply(a);
            if i == 6 {
                assert_eq!(s.to_string(), r.after7_str, "{}", r.spec);
                let (text, tensor) = observed(&game, &s, 1);
                assert_eq!(text, r.after7_str);
                assert_eq!(digits(&tensor.data), r.after7_tensor1);
            }
        }
        assert!(s.is_terminal(), "{}", r.spec);
        assert_eq!([s.returns(0), s.returns(1)], r.returns, "{}", r.spec);
        assert_eq!(s.to_string(), r.final_str, "{}", r.spec);
        let (text, tensor) = observed(&game, &s, 0);
        assert_eq!(text, r.final_str);
        assert_eq!(digits(&tensor.data), r.final_tensor0);
        assert_eq!(tensor.data, observed(&game, &s, 1).1.data);
    }
}

/// pyspiel on the 8x8 start: `g = pyspiel.load_game('breakthrough');
/// s = g.new_initial_state(); s.legal_actions(); str(s)`; and
/// `g.num_distinct_actions()` (768), `g.max_game_length()` (209),
/// `g.observation_tensor_shape()` ([3, 8, 8]); for
/// `breakthrough(rows=6,columns=5)` 360, 91 and [3, 6, 5].
#[test]
fn start_and_sizes_are_openspiel_s() {
    let game = Breakthrough::default();
    let s = game.initial_state();
    assert_eq!(
        legal(&s).as_slice(),
        [
            98, 100, 108, 110, 112, 120, 122, 124, 132, 134, 136, 144, 146, 148, 156, 158, 160,
            168, 170, 172, 180, 182
        ]
    );
    assert_eq!(
        s.to_string(),
        "8bbbbbbbb\n7bbbbbbbb\n6........\n5........\n4........\n3........\n2wwwwwwww\n\
         1wwwwwwww\n abcdefgh\n"
    );
    assert_eq!((game.num_actions(), game.max_game_length()), (768, 209));
    assert_eq!(observed(&game, &s, 0).1.shape(), [3, 8, 8]);
    let small = Breakthrough::new(5, 6).unwrap();
    assert_eq!((small.num_actions(), small.max_game_length()), (360, 91));
    // Fewer than 6 rows: one home row a side (pyspiel's str of
    // breakthrough(rows=4,columns=3)).
    assert_eq!(
        Breakthrough::new(3, 4).unwrap().initial_state().to_string(),
        "4bbb\n3...\n2...\n1www\n abc\n"
    );
}

/// Along random games on several boards: legal actions strictly
/// increasing and below `num_actions`, each move's notation read back to
/// it (with and without `*`), one pawn moved a row forward, a pawn taken
/// exactly on a capture, the game over within `max_game_length` with the
/// last mover the winner, and keys equal exactly on equal positions.
#[test]
fn random_games_keep_the_invariants() {
    for (k, (c, r)) in [(8, 8), (6, 6), (5, 6), (2, 9), (26, 2), (7, 9)]
        .into_iter()
        .enumerate()
    {
        let game = Breakthrough::new(c, r).unwrap();
        for g in 0..20u64 {
            let mut rng = stream(68, &[k as u64, g]);
            let mut s = game.initial_state();
            let mut plies = 0;
            while !s.is_terminal() {
                let l = legal(&s);
                assert!(!l.is_empty());
                assert!(l.windows(2).all(|w| w[0] < w[1]));
                assert!(l.iter().all(|&a| (a as usize) < game.num_actions()));
                for &a in &l {
                    let text = s.action_to_string(a);
                    assert_eq!(s.parse_action(&text), Ok(a), "{text}");
                    assert_eq!(s.parse_action(text.trim_end_matches('*')), Ok(a));
                    assert_eq!(s.parse_action(&text.to_uppercase()), Ok(a));
                }
                let a = s.random_action(&mut rng);
                let before = s;
                let me = s.to_move();
                s.apply(a);
                plies += 1;
                let [b0, b1] = before.pieces().map(u64::count_ones);
                let [a0, a1] = s.pieces().map(u64::count_ones);
                let taken = (b0 - a0) + (b1 - a1);
                assert_eq!(taken, u32::from(a & 1 == 1));
                assert_eq!([b0, b1][me], [a0, a1][me]);
                let (col, row) = s.action_cell(a).unwrap();
                assert_eq!(s.at(col, row), Some(me));
                assert_ne!(s.key(), before.key());
            }
            assert!(plies <= game.max_game_length());
            let winner = s.winner().unwrap();
            assert_eq!(1 - s.to_move(), winner);
            assert_eq!(s.returns(winner), 1.0);
            assert_eq!(s.returns(1 - winner), -1.0);
            assert!(legal(&s).is_empty());
        }
    }
}

/// A win on the far row and a win by capturing every pawn (pyspiel:
/// `/tmp/bt_captureall.py`, a random game of
/// `breakthrough(rows=5,columns=3)` with `random.Random(4)` that ends by
/// capture; `str(state)` of its end).
#[test]
fn finished_positions_of_each_kind() {
    // The 4x3 recorded game ends with Black's a2a1 onto White's home row.
    let game = Breakthrough::new(3, 4).unwrap();
    let s = game.state_from_moves(RECORDED[2].names).unwrap();
    assert_eq!((s.winner(), s.pieces()[0].count_ones()), (Some(BLACK), 2));
    // White takes Black's last pawn on b2, far from rank 5.
    let game = Breakthrough::new(3, 5).unwrap();
    let mut s = game
        .state_from_moves("a5b4 b1a2 b5a4 c1b2 b4a3 b2a3* c5b4 a3b4* a4a3 a2b3 a3b2 a1b2*")
        .unwrap();
    assert_eq!(s.to_string(), "5...\n4.w.\n3.w.\n2.w.\n1...\n abc\n");
    assert_eq!((s.winner(), s.pieces()[0]), (Some(WHITE), 0));
    assert!(s.is_terminal());
    assert_eq!(s.returns(WHITE), 1.0);
    let err = s.try_apply(s.parse_action("b4b5").unwrap()).unwrap_err();
    assert!(err.contains("over"), "{err}");
}

#[test]
fn notation_and_specs() {
    let game = Breakthrough::default();
    let s = game.initial_state();
    assert_eq!(s.parse_action("A7A6"), Ok(98));
    assert_eq!(s.parse_action("#98"), Ok(98));
    assert_eq!(s.action_to_string(98), "a7a6");
    for bad in ["", "a7", "a7a5", "a7b7", "i7i6", "a9a8", "#768", "a7a6x"] {
        let e = s.parse_action(bad).unwrap_err();
        assert!(!e.contains('\n') && e.contains(bad.trim()), "{bad}: {e}");
    }
    // Parsed but not legal: a7a6 is Black's, not White's.
    let mut t = s;
    t.apply(98);
    assert!(t.try_apply(t.parse_action("a6a5").unwrap()).is_err());
    let spec = |t: &str| Breakthrough::from_spec(&GameSpec::parse(t).unwrap());
    assert_eq!(spec("breakthrough").unwrap().spec(), "breakthrough:8x8");
    assert_eq!(spec("breakthrough:6x5").unwrap().spec(), "breakthrough:6x5");
    assert_eq!(
        spec("breakthrough:rows=6").unwrap().spec(),
        "breakthrough:8x6"
    );
    for bad in [
        "breakthrough:1x8",
        "breakthrough:9x9",
        "breakthrough:2x10",
        "breakthrough:rows=1",
        "breakthrough:6x6,rows=6",
        "breakthrough:depth=3",
        "breakthrough:columns=10,rows=8",
    ] {
        let e = spec(bad).unwrap_err().0;
        assert!(!e.contains('\n'), "{bad}: {e}");
    }
    assert_eq!(game.seat_names(), ["black", "white"]);
}

/// The heuristic from the mover's view: even at the start; a capture is a
/// pawn's worth and more to the side that made it.
#[test]
fn heuristic_counts_material_and_advance() {
    let game = Breakthrough::default();
    assert_eq!(game.initial_state().evaluate(), 0);
    // a7a6 takes a pawn from 1 row advanced (11) to 2 (14): 3 to Black,
    // so −3 for White, to move.
    let s = game.state_from_moves("a7a6").unwrap();
    assert_eq!(s.evaluate(), -((10 + 4) - (10 + 1)));
}
