//! Connect-4: perft counts, a property test against a slow reference
//! implementation, notation, specs, win detection and the search player.

use std::collections::HashMap;

use rand::RngExt;
use wopr::eval::matches::play_match;
use wopr::game::perft::perft;
use wopr::game::rng::stream;
use wopr::games::connect4::{Connect4, Connect4State};
use wopr::players::parse_player;
use wopr::{Action, ActionList, AnyGame, Game, Searchable, State, Turn};

fn game(columns: usize, rows: usize) -> Connect4 {
    Connect4::new(columns, rows).unwrap()
}

fn legal(s: &Connect4State) -> Vec<Action> {
    let mut out = ActionList::new();
    s.legal_actions(&mut out);
    out.to_vec()
}

// ---------------------------------------------------------------------------
// Perft.

#[test]
fn perft_7x6() {
    let s = game(7, 6).initial_state();
    // No game can end before ply 7 (X needs four discs), and no column can be
    // full before ply 6, so depths 1..6 are 7^d. At ply 6 exactly the 7
    // sequences that put all six discs into one column (X, O alternating: no
    // four) leave 6 moves instead of 7: perft(7) = 7^7 - 7 = 823_543 - 7.
    let expected = [7, 49, 343, 2_401, 16_807, 117_649, 823_536];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&s, d as u32 + 1), n, "7x6 depth {}", d + 1);
    }
}

#[test]
fn perft_6x6() {
    let s = game(6, 6).initial_state();
    // As for 7x6: 6^d up to depth 6, and perft(7) = 6^7 - 6 (the 6 sequences
    // that fill one column by ply 6).
    let expected = [6, 36, 216, 1_296, 7_776, 46_656, 279_930];
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&s, d as u32 + 1), n, "6x6 depth {}", d + 1);
    }
}

// ---------------------------------------------------------------------------
// The reference: a 2-D array and a direct reading of the rules.

/// `cells[col][height]` (height 0 = bottom): `Some(seat)` or empty.
type Cells = Vec<Vec<Option<usize>>>;

/// The reference position.
#[derive(Clone, Debug)]
struct Reference {
    cols: usize,
    rows: usize,
    cells: Cells,
    to_move: usize,
    winner: Option<usize>,
    plies: usize,
}

impl Reference {
    fn new(cols: usize, rows: usize) -> Reference {
        Reference {
            cols,
            rows,
            cells: vec![vec![None; rows]; cols],
            to_move: 0,
            winner: None,
            plies: 0,
        }
    }

    fn height(&self, col: usize) -> usize {
        self.cells[col].iter().filter(|c| c.is_some()).count()
    }

    fn full(&self) -> bool {
        self.plies == self.cols * self.rows
    }

    fn terminal(&self) -> bool {
        self.winner.is_some() || self.full()
    }

    fn legal(&self) -> Vec<Action> {
        if self.terminal() {
            return Vec::new();
        }
        (0..self.cols)
            .filter(|&c| self.height(c) < self.rows)
            .map(|c| c as Action)
            .collect()
    }

    fn get(&self, col: i64, height: i64) -> Option<usize> {
        if col < 0 || height < 0 || col >= self.cols as i64 || height >= self.rows as i64 {
            return None;
        }
        self.cells[col as usize][height as usize]
    }

    /// Whether `seat` has four in a row anywhere: scan every cell in every
    /// direction.
    fn has_four(&self, seat: usize) -> bool {
        for c in 0..self.cols as i64 {
            for h in 0..self.rows as i64 {
                for (dc, dh) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    if (0..4).all(|k| self.get(c + k * dc, h + k * dh) == Some(seat)) {
                        return true;
                    }
                }
            }
        }
        false
    }

    fn play(&mut self, col: usize) {
        let h = self.height(col);
        self.cells[col][h] = Some(self.to_move);
        if self.has_four(self.to_move) {
            self.winner = Some(self.to_move);
        }
        self.to_move = 1 - self.to_move;
        self.plies += 1;
    }

    fn returns(&self, seat: usize) -> f64 {
        match self.winner {
            None => 0.0,
            Some(w) if w == seat => 1.0,
            Some(_) => -1.0,
        }
    }

    /// The documented heuristic, window by window.
    fn evaluate(&self) -> i32 {
        let me = self.to_move;
        let side = |s: usize| -> i32 {
            let mut total = 0;
            for c in 0..self.cols as i64 {
                for h in 0..self.rows as i64 {
                    for (dc, dh) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                        let (ec, eh) = (c + 3 * dc, h + 3 * dh);
                        if ec >= self.cols as i64 || eh < 0 || eh >= self.rows as i64 {
                            continue;
                        }
                        let cells: Vec<_> =
                            (0..4).map(|k| self.get(c + k * dc, h + k * dh)).collect();
                        if cells.contains(&Some(1 - s)) {
                            continue;
                        }
                        total += match cells.iter().filter(|&&x| x == Some(s)).count() {
                            1 => 1,
                            2 => 3,
                            3 => 9,
                            _ => 0,
                        };
                    }
                }
            }
            let centre: Vec<usize> = if !self.cols.is_multiple_of(2) {
                vec![self.cols / 2]
            } else {
                vec![self.cols / 2 - 1, self.cols / 2]
            };
            for c in centre {
                total += 2 * self.cells[c].iter().filter(|&&x| x == Some(s)).count() as i32;
            }
            total
        };
        side(me) - side(1 - me)
    }
}

fn compare(s: &Connect4State, r: &Reference, context: &str) {
    assert_eq!(legal(s), r.legal(), "legal moves, {context}\n{s}");
    assert_eq!(s.is_terminal(), r.terminal(), "terminal, {context}\n{s}");
    let turn = if r.terminal() {
        Turn::Terminal
    } else {
        Turn::Player(r.to_move)
    };
    assert_eq!(s.turn(), turn, "turn, {context}\n{s}");
    assert_eq!(s.winner(), r.winner, "winner, {context}\n{s}");
    for seat in 0..2 {
        assert_eq!(s.returns(seat), r.returns(seat), "returns, {context}\n{s}");
    }
    for col in 0..r.cols {
        for h in 0..r.rows {
            assert_eq!(
                s.at(col, r.rows - 1 - h),
                r.cells[col][h],
                "cell, {context}"
            );
        }
        let cell = (r.height(col) < r.rows).then(|| (col, r.rows - 1 - r.height(col)));
        assert_eq!(
            s.action_cell(col as Action),
            cell,
            "action_cell {col}, {context}"
        );
    }
    if !r.terminal() {
        assert_eq!(s.evaluate(), r.evaluate(), "evaluate, {context}\n{s}");
    }
}

/// Random games on several sizes, checked against the reference after every
/// move; keys must be equal exactly for equal positions.
#[test]
fn random_games_match_reference() {
    for (i, &(cols, rows)) in [(7, 6), (6, 6), (4, 4), (5, 4), (9, 6), (8, 7)]
        .iter()
        .enumerate()
    {
        let g = game(cols, rows);
        let mut keys: HashMap<u64, (Cells, usize)> = HashMap::new();
        let mut decided = 0;
        let games = if cols * rows > 42 { 200 } else { 500 };
        for n in 0..games {
            let mut rng = stream(4, &[i as u64, n]);
            let mut s = g.initial_state();
            let mut r = Reference::new(cols, rows);
            compare(&s, &r, "start");
            while !r.terminal() {
                let moves = r.legal();
                let a = moves[rng.random_range(0..moves.len())];
                s.apply(a);
                r.play(a as usize);
                let context = format!("{cols}x{rows} game {n} ply {}", r.plies);
                compare(&s, &r, &context);
                let pos = (r.cells.clone(), r.to_move);
                let seen = keys.entry(s.key()).or_insert_with(|| pos.clone());
                assert_eq!(*seen, pos, "key collision, {context}");
            }
            assert!(s.plies() <= g.max_game_length());
            decided += r.winner.is_some() as usize;
        }
        // Random play on these boards ends with four in a row most of the time;
        // this guards against a reference that never detects a win.
        assert!(
            decided > games as usize / 2,
            "{cols}x{rows}: {decided} decided"
        );
    }
}

// ---------------------------------------------------------------------------
// Notation and specs.

#[test]
fn notation_round_trips_and_errors() {
    let g = game(7, 6);
    let s = g.initial_state();
    for a in 0..7 {
        let text = s.action_to_string(a);
        assert_eq!(text, (a + 1).to_string());
        assert_eq!(s.parse_action(&text).unwrap(), a);
        assert_eq!(s.parse_action(&format!("#{a}")).unwrap(), a);
    }
    assert_eq!(s.parse_action(" 4 ").unwrap(), 3);
    for bad in ["0", "8", "#7", "a", "", "-1", "4x"] {
        let e = s.parse_action(bad).unwrap_err();
        assert!(
            e.contains("1..7") && e.contains("#index 0..6"),
            "{bad}: {e}"
        );
    }
    let s6 = game(6, 6).initial_state();
    assert!(s6.parse_action("7").is_err());
    assert_eq!(s6.parse_action("6").unwrap(), 5);
}

#[test]
fn specs_parse_and_round_trip() {
    let AnyGame::Connect4(g) = AnyGame::parse("connect4").unwrap() else {
        panic!("not connect4")
    };
    assert_eq!((g.columns(), g.rows()), (7, 6));
    assert_eq!(g.spec(), "connect4:7x6");
    assert_eq!(g.num_actions(), 7);
    assert_eq!(g.max_game_length(), 42);
    assert_eq!(g.seat_names(), vec!["X", "O"]);

    let AnyGame::Connect4(g) = AnyGame::parse("Connect4:6X6").unwrap() else {
        panic!("not connect4")
    };
    assert_eq!((g.columns(), g.rows()), (6, 6));
    assert_eq!(g.spec(), "connect4:6x6");
    assert_eq!(g.max_game_length(), 36);

    for spec in [
        "connect4:7x6",
        "connect4:4x4",
        "connect4:8x7",
        "connect4:9x6",
        "connect4:6x9",
    ] {
        assert_eq!(AnyGame::parse(spec).unwrap().spec(), spec);
    }
    for bad in [
        "connect4:3x6",
        "connect4:10x6",
        "connect4:7x3",
        "connect4:9x7",
        "connect4:8x8",
    ] {
        let e = AnyGame::parse(bad).unwrap_err().to_string();
        assert!(
            e.contains("not supported") && e.contains("4..9") && e.contains("<= 64"),
            "{bad}: {e}"
        );
    }
    let e = AnyGame::parse("connect4:7by6").unwrap_err().to_string();
    assert!(e.contains("CxR"), "{e}");
    let e = AnyGame::parse("connect4:rows=6").unwrap_err().to_string();
    assert!(e.contains("accepted: CxR"), "{e}");
}

// ---------------------------------------------------------------------------
// Hand-built wins.

/// Plays `moves` (column digits); the last move must win for `winner` and no
/// earlier one may end the game.
fn assert_win(g: &Connect4, moves: &str, winner: usize) {
    let before = g.state_from_moves(&moves[..moves.len() - 1]).unwrap();
    assert!(!before.is_terminal(), "{moves} ended early\n{before}");
    let s = g.state_from_moves(moves).unwrap();
    assert_eq!(s.winner(), Some(winner), "{moves}\n{s}");
    assert_eq!(s.turn(), Turn::Terminal);
    assert_eq!(s.returns(winner), 1.0);
    assert_eq!(s.returns(1 - winner), -1.0);
    assert!(legal(&s).is_empty());
}

#[test]
fn wins_in_every_direction() {
    let g = game(7, 6);
    // Horizontal: X on the bottom of columns 1-4, O on top of 1-3.
    assert_win(&g, "1122334", 0);
    // Vertical: X four high in column 1.
    assert_win(&g, "1212121", 0);
    // Rising diagonal: X at (1,0) (2,1) (3,2) (4,3), heights from the bottom.
    assert_win(&g, "12234334644", 0);
    // Falling diagonal: the mirror image, X at (7,0) (6,1) (5,2) (4,3).
    assert_win(&g, "76654554244", 0);
    // O wins too: horizontal on the bottom row, columns 2-5.
    assert_win(&g, "12137475", 1);
    // O vertical in column 1.
    assert_win(&g, "71212131", 1);
    // The diagrams agree.
    let s = g.state_from_moves("12234334644").unwrap();
    assert_eq!(
        s.to_string(),
        ". . . . . . .\n\
         . . . . . . .\n\
         . . . X . . .\n\
         . . X O . . .\n\
         . X O O . . .\n\
         X O O X . X .\n\
         1 2 3 4 5 6 7\n"
    );
}

#[test]
fn wins_do_not_wrap_between_columns() {
    // On 4x4 the bits of column 1's top two cells and column 2's bottom two are
    // adjacent but for the sentinel: X there is not four in a row.
    let g = game(4, 4);
    // Column 1 holds O, O, X, X from the bottom and column 2 X, X.
    let s = g.state_from_moves("2121131").unwrap();
    assert_eq!(s.at(0, 0), Some(0));
    assert_eq!(s.at(0, 1), Some(0));
    assert_eq!(s.at(1, 3), Some(0));
    assert_eq!(s.at(1, 2), Some(0));
    assert!(!s.is_terminal(), "\n{s}");
}

#[test]
fn full_board_is_a_draw() {
    // Columns from the bottom: 1 = X X O O, 2 = O O X X, 3 = X X O O,
    // 4 = O O X X. Rows alternate X O X O or O X O X and no diagonal is one
    // colour, so nobody has four.
    let g = game(4, 4);
    let s = g.state_from_moves("1212343421214343").unwrap();
    assert_eq!(s.turn(), Turn::Terminal, "\n{s}");
    assert_eq!(s.winner(), None);
    assert_eq!(s.returns(0), 0.0);
    assert_eq!(s.returns(1), 0.0);
    assert!(legal(&s).is_empty());
    assert_eq!(s.plies(), g.max_game_length());
}

#[test]
fn bad_move_lists_are_rejected() {
    let g = game(4, 4);
    assert!(g.state_from_moves("5").unwrap_err().contains("1..4"));
    assert!(g
        .state_from_moves("11111")
        .unwrap_err()
        .contains("not legal"));
    assert!(g.state_from_moves("12121212").unwrap_err().contains("over"));
}

// ---------------------------------------------------------------------------
// Search.

#[test]
fn alphabeta_wins_and_blocks() {
    let g = game(7, 6);
    let mut legal_now = ActionList::new();
    for seed in 0..8 {
        let mut rng = stream(seed, &[]);
        let mut p = parse_player(&g, "alphabeta:depth=4").unwrap();
        // X to move with three on the bottom row (1-3): 4 wins at once.
        let s = g.state_from_moves("112233").unwrap();
        legal_now.clear();
        s.legal_actions(&mut legal_now);
        assert_eq!(p.choose(&s, &legal_now, &mut rng), 3, "win, seed {seed}");
        // O to move; X threatens 4 on the bottom row: O must block there.
        let s = g.state_from_moves("17273").unwrap();
        legal_now.clear();
        s.legal_actions(&mut legal_now);
        assert_eq!(p.choose(&s, &legal_now, &mut rng), 3, "block, seed {seed}");
        // X to move; O has three up column 7: X must cover it.
        let s = g.state_from_moves("172757").unwrap();
        legal_now.clear();
        s.legal_actions(&mut legal_now);
        assert_eq!(
            p.choose(&s, &legal_now, &mut rng),
            6,
            "block vertical, seed {seed}"
        );
    }
}

#[test]
fn alphabeta_beats_random() {
    // The common bar for every game's heuristic: depth-4 search wins at least
    // 95% of its games against random play (seats alternate).
    for spec in ["connect4:7x6", "connect4:6x6"] {
        let AnyGame::Connect4(g) = AnyGame::parse(spec).unwrap() else {
            panic!("not connect4")
        };
        let records = play_match(&g, "alphabeta:depth=4", "random", 40, 11, &|| {}).unwrap();
        let wins = records
            .iter()
            .enumerate()
            .filter(|(i, r)| {
                let seat = i % 2; // alphabeta sits in seat 0 of even games
                r.returns.as_ref().unwrap()[seat] > 0.0
            })
            .count();
        assert!(wins * 100 >= 95 * records.len(), "{spec}: {wins}/40");
    }
}

// ---------------------------------------------------------------------------
// Encodings: the bitboard fast path gives exactly the per-square reading.

#[test]
fn bitboard_encodings_match_the_square_by_square_reading() {
    use wopr::game::encode::{grid, mover, Encodable};
    for (c, r) in [(6, 6), (7, 6), (4, 4)] {
        let g = game(c, r);
        for name in ["raw", "planes"] {
            let fast = g.encoding(name).unwrap();
            let slow = grid(
                name,
                c * r,
                |s: &Connect4State, i| s.at(i % s.columns(), i / s.columns()),
                mover,
            )
            .unwrap();
            assert_eq!(fast.size(), slow.size());
            let mut rng = stream(7, &[c as u64, r as u64]);
            let (mut a, mut b) = (vec![0.0; fast.size()], vec![0.0; fast.size()]);
            for _ in 0..200 {
                let mut s = g.initial_state();
                loop {
                    fast.encode(&s, &mut a);
                    slow.encode(&s, &mut b);
                    assert_eq!(a, b, "{name} on {c}x{r}");
                    let l = legal(&s);
                    if l.is_empty() {
                        break;
                    }
                    s.apply(l[rng.random_range(0..l.len())]);
                }
            }
        }
    }
}
