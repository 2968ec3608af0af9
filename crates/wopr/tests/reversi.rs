//! Reversi: published perft counts, and the bitboard rules against a slow
//! reference written straight from the rules on a 2-D array.

use rand::RngExt;
use wopr::game::perft::perft;
use wopr::game::rng::stream;
use wopr::game::GameSpec;
use wopr::games::reversi::{Reversi, ReversiState};
use wopr::{Action, ActionList, Game, Searchable, State, Turn};

fn game(spec: &str) -> Reversi {
    Reversi::from_spec(&GameSpec::parse(spec).unwrap()).unwrap()
}

/// The reference: a board of `Option<seat>`, rules read off the page.
#[derive(Clone, Debug)]
struct Reference {
    n: usize,
    board: Vec<Vec<Option<usize>>>,
    to_move: usize,
}

const DIRS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

impl Reference {
    fn new(n: usize) -> Reference {
        let mut board = vec![vec![None; n]; n];
        let (a, b) = (n / 2 - 1, n / 2);
        // board[row][col]; White on the top-left and bottom-right centre squares.
        board[a][a] = Some(1);
        board[b][b] = Some(1);
        board[a][b] = Some(0);
        board[b][a] = Some(0);
        Reference {
            n,
            board,
            to_move: 0,
        }
    }

    fn get(&self, r: i32, c: i32) -> Option<Option<usize>> {
        let n = self.n as i32;
        (r >= 0 && r < n && c >= 0 && c < n).then(|| self.board[r as usize][c as usize])
    }

    /// Squares flipped when `seat` places on (r, c); empty if not a move.
    fn flips(&self, seat: usize, r: usize, c: usize) -> Vec<(usize, usize)> {
        let mut all = Vec::new();
        if self.board[r][c].is_some() {
            return all;
        }
        for (dr, dc) in DIRS {
            let mut line = Vec::new();
            let (mut y, mut x) = (r as i32 + dr, c as i32 + dc);
            while self.get(y, x) == Some(Some(1 - seat)) {
                line.push((y as usize, x as usize));
                y += dr;
                x += dc;
            }
            if !line.is_empty() && self.get(y, x) == Some(Some(seat)) {
                all.extend(line);
            }
        }
        all
    }

    fn placements(&self, seat: usize) -> Vec<Action> {
        let mut v = Vec::new();
        for r in 0..self.n {
            for c in 0..self.n {
                if !self.flips(seat, r, c).is_empty() {
                    v.push((r * self.n + c) as Action);
                }
            }
        }
        v
    }

    fn terminal(&self) -> bool {
        self.placements(0).is_empty() && self.placements(1).is_empty()
    }

    fn legal(&self) -> Vec<Action> {
        if self.terminal() {
            return vec![];
        }
        let p = self.placements(self.to_move);
        if p.is_empty() {
            vec![(self.n * self.n) as Action]
        } else {
            p
        }
    }

    fn apply(&mut self, a: Action) {
        let a = a as usize;
        if a < self.n * self.n {
            let (r, c) = (a / self.n, a % self.n);
            let f = self.flips(self.to_move, r, c);
            assert!(!f.is_empty());
            for (y, x) in f {
                self.board[y][x] = Some(self.to_move);
            }
            self.board[r][c] = Some(self.to_move);
        }
        self.to_move = 1 - self.to_move;
    }

    fn count(&self, seat: usize) -> i32 {
        self.board
            .iter()
            .flatten()
            .filter(|&&s| s == Some(seat))
            .count() as i32
    }

    fn returns(&self, seat: usize) -> f64 {
        if !self.terminal() {
            return 0.0;
        }
        (self.count(seat) - self.count(1 - seat)).signum() as f64
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        self.legal()
            .into_iter()
            .map(|a| {
                let mut c = self.clone();
                c.apply(a);
                c.perft(depth - 1)
            })
            .sum()
    }
}

fn legal(s: &ReversiState) -> Vec<Action> {
    let mut l = ActionList::new();
    s.legal_actions(&mut l);
    l.to_vec()
}

fn assert_same(s: &ReversiState, r: &Reference, ctx: &str) {
    for row in 0..r.n {
        for col in 0..r.n {
            assert_eq!(
                s.at(col, row),
                r.board[row][col],
                "{ctx}: square {col},{row}\n{s}"
            );
        }
    }
    assert_eq!(legal(s), r.legal(), "{ctx}: legal actions\n{s}");
    assert_eq!(s.is_terminal(), r.terminal(), "{ctx}: terminal\n{s}");
    if !r.terminal() {
        assert_eq!(s.turn(), Turn::Player(r.to_move), "{ctx}: mover");
    }
    for seat in 0..2 {
        assert_eq!(s.returns(seat), r.returns(seat), "{ctx}: returns");
        assert_eq!(
            s.score(seat),
            Some(r.count(seat) - r.count(1 - seat)),
            "{ctx}: score"
        );
    }
}

#[test]
fn perft_8x8_matches_published_counts() {
    // Othello perft from the standard start, passes counted as moves: Aart
    // Bik's table (archived at
    // https://web.archive.org/web/20120129063410/http://othello.dk/book/index.php/Aart_Bik).
    // No game can end before ply 9, so the tables' conventions for finished
    // games do not matter up to depth 9.
    let s = game("reversi").initial_state();
    let expected = [4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288];
    for (d, &e) in expected.iter().enumerate() {
        assert_eq!(perft(&s, d as u32 + 1), e, "depth {}", d + 1);
    }
    // The reference agrees on the shallow depths.
    let r = Reference::new(8);
    for d in 1..=4 {
        assert_eq!(r.perft(d), expected[d as usize - 1]);
    }
}

#[test]
fn perft_small_boards_match_reference() {
    // No published table for 6x6 or 4x4 that we could cite: the counts are
    // checked against the reference only.
    for (n, depth) in [(6, 6), (4, 8)] {
        let s = game(&format!("reversi:{n}x{n}")).initial_state();
        let r = Reference::new(n);
        for d in 1..=depth {
            assert_eq!(perft(&s, d), r.perft(d), "{n}x{n} depth {d}");
        }
    }
    // The first two depths are the same on every board (four symmetric
    // openings, three replies each).
    let s6 = game("reversi:6x6").initial_state();
    assert_eq!(perft(&s6, 1), 4);
    assert_eq!(perft(&s6, 2), 12);
}

#[test]
fn random_games_match_reference() {
    for (n, games) in [(8, 300), (6, 400), (4, 600)] {
        let g = game(&format!("reversi:{n}x{n}"));
        let mut passes = 0;
        let mut longest = 0;
        for i in 0..games {
            let mut rng = stream(20, &[n as u64, i]);
            let mut s = g.initial_state();
            let mut r = Reference::new(n);
            let mut ply = 0;
            loop {
                let ctx = format!("{n}x{n} game {i} ply {ply}");
                assert_same(&s, &r, &ctx);
                let l = legal(&s);
                if l.is_empty() {
                    break;
                }
                let a = l[rng.random_range(0..l.len())];
                if a as usize == n * n {
                    passes += 1;
                }
                // Notation round-trips.
                assert_eq!(s.parse_action(&s.action_to_string(a)).unwrap(), a);
                let cell = (a as usize % n, a as usize / n);
                assert_eq!(s.action_cell(a), (a as usize != n * n).then_some(cell));
                s.apply(a);
                r.apply(a);
                ply += 1;
            }
            assert!(ply <= g.max_game_length(), "{ply} > max length");
            longest = longest.max(ply);
        }
        // Random games do reach passes, so the pass rule is exercised.
        assert!(passes > 0, "{n}x{n}: no pass in {games} games");
        assert!(longest >= n * n - 4, "{n}x{n}: longest game {longest}");
    }
}

#[test]
fn heuristic_is_from_the_movers_view_and_bounded() {
    let g = game("reversi");
    let s = g.initial_state();
    // Symmetric start: the four centre squares weigh the same and both sides
    // have four moves.
    assert_eq!(s.evaluate(), 0);
    let mut rng = stream(21, &[]);
    for _ in 0..50 {
        let mut s = g.initial_state();
        while !s.is_terminal() {
            assert!(s.evaluate().abs() < 500_000);
            let l = legal(&s);
            s.apply(l[rng.random_range(0..l.len())]);
        }
    }
}

#[test]
fn alphabeta_beats_random() {
    use wopr::game::play_game;
    use wopr::players::parse_player;
    let g = game("reversi:6x6");
    let mut wins = 0;
    let n = 20;
    for i in 0..n {
        let mut ab = parse_player(&g, "alphabeta:depth=3").unwrap();
        let mut rnd = parse_player(&g, "random").unwrap();
        let seat = (i % 2) as usize;
        let mut rng = stream(22, &[i]);
        let rec = if seat == 0 {
            play_game(&g, &mut [ab.as_mut(), rnd.as_mut()], &mut rng)
        } else {
            play_game(&g, &mut [rnd.as_mut(), ab.as_mut()], &mut rng)
        }
        .unwrap();
        if rec.returns.unwrap()[seat] > 0.0 {
            wins += 1;
        }
    }
    assert!(wins >= 18, "alphabeta won {wins}/{n}");
}
