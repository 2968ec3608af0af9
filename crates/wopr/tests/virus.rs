//! Virus: hand-counted positions, and the bitboard rules against a slow
//! reference written straight from the rules (Naveed & Cowling §1) on a 2-D
//! array.

use rand::RngExt;
use wopr::game::perft::perft;
use wopr::game::rng::stream;
use wopr::game::GameSpec;
use wopr::games::virus::{Virus, VirusState};
use wopr::{Action, ActionList, Game, Searchable, State, Turn};

fn game(spec: &str) -> Virus {
    Virus::from_spec(&GameSpec::parse(spec).unwrap()).unwrap()
}

/// The reference: a board of `Option<seat>`, rules read off the page.
#[derive(Clone, Debug)]
struct Reference {
    n: usize,
    /// board[row][col]
    board: Vec<Vec<Option<usize>>>,
    to_move: usize,
    plies: usize,
    max_plies: usize,
}

fn chebyshev(a: (i32, i32), b: (i32, i32)) -> i32 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

impl Reference {
    fn from_state(s: &VirusState, max_plies: usize) -> Reference {
        let n = s.size();
        let board = (0..n)
            .map(|r| (0..n).map(|c| s.at(c, r)).collect())
            .collect();
        Reference {
            n,
            board,
            to_move: 0,
            plies: 0,
            max_plies,
        }
    }

    fn cells(&self) -> impl Iterator<Item = (i32, i32)> {
        let n = self.n as i32;
        (0..n).flat_map(move |r| (0..n).map(move |c| (r, c)))
    }

    fn get(&self, (r, c): (i32, i32)) -> Option<usize> {
        self.board[r as usize][c as usize]
    }

    /// Every move of `seat` as (origin for a jump, destination), with the
    /// action index computed from the documented scheme.
    fn moves(&self, seat: usize) -> Vec<Action> {
        let n = self.n as i32;
        let mut v = Vec::new();
        // Grows: an empty square with a piece of `seat` at distance 1.
        for to in self.cells() {
            if self.get(to).is_none()
                && self
                    .cells()
                    .any(|p| chebyshev(p, to) == 1 && self.get(p) == Some(seat))
            {
                v.push((to.0 * n + to.1) as Action);
            }
        }
        // Jumps: an own piece to an empty square at distance 2 with an empty
        // square at distance 1 from both.
        for from in self.cells() {
            if self.get(from) != Some(seat) {
                continue;
            }
            let mut k = 0;
            for dy in -2..=2 {
                for dx in -2..=2 {
                    if dy * dy <= 1 && dx * dx <= 1 {
                        continue;
                    }
                    let to = (from.0 + dy, from.1 + dx);
                    let inside = (0..n).contains(&to.0) && (0..n).contains(&to.1);
                    if inside
                        && self.get(to).is_none()
                        && self.cells().any(|m| {
                            chebyshev(m, from) == 1
                                && chebyshev(m, to) == 1
                                && self.get(m).is_none()
                        })
                    {
                        v.push((n * n + (from.0 * n + from.1) * 16 + k) as Action);
                    }
                    k += 1;
                }
            }
        }
        v.sort();
        v
    }

    fn terminal(&self) -> bool {
        self.plies >= self.max_plies || (self.moves(0).is_empty() && self.moves(1).is_empty())
    }

    fn legal(&self) -> Vec<Action> {
        if self.terminal() {
            return vec![];
        }
        let m = self.moves(self.to_move);
        if m.is_empty() {
            vec![(17 * self.n * self.n) as Action]
        } else {
            m
        }
    }

    fn apply(&mut self, a: Action) {
        let n = self.n as i32;
        let a = a as i32;
        let me = self.to_move;
        let to = if a < n * n {
            Some((a / n, a % n))
        } else if a < 17 * n * n {
            let (f, k) = ((a - n * n) / 16, (a - n * n) % 16);
            let from = (f / n, f % n);
            // The k-th square at distance 2, counted row-major.
            let mut offsets = Vec::new();
            for dy in -2..=2 {
                for dx in -2..=2 {
                    if dy * dy > 1 || dx * dx > 1 {
                        offsets.push((dy, dx));
                    }
                }
            }
            let (dy, dx) = offsets[k as usize];
            assert_eq!(self.get(from), Some(me));
            self.board[from.0 as usize][from.1 as usize] = None;
            Some((from.0 + dy, from.1 + dx))
        } else {
            None
        };
        if let Some(to) = to {
            assert_eq!(self.get(to), None);
            self.board[to.0 as usize][to.1 as usize] = Some(me);
            for p in self.cells().collect::<Vec<_>>() {
                if chebyshev(p, to) == 1 && self.get(p) == Some(1 - me) {
                    self.board[p.0 as usize][p.1 as usize] = Some(me);
                }
            }
        }
        self.to_move = 1 - me;
        self.plies += 1;
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

fn legal(s: &VirusState) -> Vec<Action> {
    let mut l = ActionList::new();
    s.legal_actions(&mut l);
    l.to_vec()
}

fn names(s: &VirusState) -> Vec<String> {
    legal(s).iter().map(|&a| s.action_to_string(a)).collect()
}

fn assert_same(s: &VirusState, r: &Reference, ctx: &str) {
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
fn first_moves_by_hand() {
    let s = game("virus").initial_state();
    // Black on a1 and h8. Grows: the 3 empty neighbours of each corner (a2,
    // b1, b2 and g7, h7, g8) = 6. Jumps from a1: the squares at distance 2
    // on the board are a3, b3, c3, c2, c1 (5); each has an empty common
    // neighbour (a2 or b2 or b1, all empty), so all 5 are legal; the same
    // for h8 (h6, g6, f6, f7, f8). 6 + 10 = 16.
    assert_eq!(
        names(&s),
        [
            "b1", "a2", "b2", "g7", "h7", "g8", "a1c1", "a1c2", "a1a3", "a1b3", "a1c3", "h8f6",
            "h8g6", "h8h6", "h8f7", "h8f8"
        ]
    );
    assert_eq!(perft(&s, 1), 16);
    // Every Black move stays within two squares of a1 or h8, so it neither
    // touches nor blocks anything of White's corners (h1, a8), which are the
    // mirror image: White always has 16 replies, 16 x 16 = 256.
    assert_eq!(perft(&s, 2), 256);
}

#[test]
fn perft_matches_reference() {
    for (spec, depth) in [
        ("virus", 3),
        ("virus:6x6", 3),
        ("virus:5x5", 4),
        ("virus:4x4", 4),
    ] {
        let g = game(spec);
        let s = g.initial_state();
        let r = Reference::from_state(&s, g.max_plies());
        for d in 1..=depth {
            assert_eq!(perft(&s, d), r.perft(d), "{spec} depth {d}");
        }
    }
}

#[test]
fn jumps_need_an_empty_square_between() {
    // Black a1; White b1 and b2. Squares adjacent to a1 and to each target:
    // a3: a2, b2; b3: a2, b2; c3: b2 only; c2: b1, b2; c1: b1, b2.
    // a2 is empty, so a3 and b3 are open; c3, c2 and c1 are blocked. The
    // only grow is a2.
    let s = game("virus:5x5,start=a1/b1b2").initial_state();
    assert_eq!(names(&s), ["a2", "a1a3", "a1b3"]);
    // With b1 empty instead, c1 and c2 open (via b1) but c3 stays blocked.
    let s = game("virus:5x5,start=a1/b2e5").initial_state();
    assert_eq!(names(&s), ["b1", "a2", "a1c1", "a1c2", "a1a3", "a1b3"]);
    // Own pieces block too: Black a1 and b2, White e5. From a1 the common
    // neighbours of c3 are b2 (own) only, so a1c3 is illegal.
    let s = game("virus:5x5,start=a1b2/e5").initial_state();
    assert!(!names(&s).contains(&"a1c3".to_string()));
    assert!(names(&s).contains(&"a1c1".to_string()));
}

#[test]
fn moves_convert_neighbours_and_jumps_vacate() {
    // 5x5: Black a1; White c2 and d3. A grow to b2 converts c2 (adjacent)
    // but not d3 (two columns away).
    let mut s = game("virus:5x5,start=a1/c2d3").initial_state();
    s.apply(s.parse_action("b2").unwrap());
    assert_eq!(
        (s.at(1, 1), s.at(2, 1), s.at(3, 2)),
        (Some(0), Some(0), Some(1))
    );
    assert_eq!(s.at(0, 0), Some(0));
    assert_eq!(s.score(0), Some(2));
    // A jump leaves its origin empty.
    let mut s = game("virus:5x5,start=a1/c2d3").initial_state();
    s.apply(s.parse_action("a1a3").unwrap());
    assert_eq!((s.at(0, 0), s.at(0, 2)), (None, Some(0)));
    assert_eq!(s.score(1), Some(1));
}

#[test]
fn passes_and_blocked_starts() {
    // 4x4: Black a1 is walled in by White a2, b1, b2: no grow, so no jump
    // either; Black must pass, then White moves.
    let s = game("virus:4x4,start=a1/a2b1b2").initial_state();
    assert_eq!(names(&s), ["pass"]);
    let mut s2 = s;
    s2.apply(s.pass_action());
    assert_eq!(s2.turn(), Turn::Player(1));
    // A full board: nobody can move, the game is over at once (8 each: draw).
    let s = game("virus:4x4,start=a1b1c1d1a2b2c2d2/a3b3c3d3a4b4c4d4").initial_state();
    assert!(s.is_terminal());
    assert_eq!((s.returns(0), s.returns(1)), (0.0, 0.0));
}

#[test]
fn max_plies_ends_the_game() {
    let g = game("virus:max-plies=3");
    assert_eq!(g.max_game_length(), 3);
    let mut s = g.initial_state();
    // Black grows b2 (3 v 2), White grows g2 (3 v 3), Black grows c3 (4 v 3);
    // no piece is adjacent to another side's, so nothing converts.
    for m in ["b2", "g2", "c3"] {
        assert!(!s.is_terminal());
        s.apply(s.parse_action(m).unwrap());
    }
    assert!(s.is_terminal());
    assert!(legal(&s).is_empty());
    assert_eq!((s.returns(0), s.returns(1)), (1.0, -1.0));
    assert_eq!(s.score(0), Some(1));
}

#[test]
fn random_games_match_reference() {
    let (mut passes, mut natural_ends, mut limit_ends) = (0, 0, 0);
    for (j, (spec, games)) in [
        ("virus", 40),
        ("virus:6x6", 80),
        ("virus:5x5", 150),
        ("virus:5x5,max-plies=30", 100),
        ("virus:4x4,start=b2/c3", 200),
    ]
    .into_iter()
    .enumerate()
    {
        let g = game(spec);
        for i in 0..games {
            let mut rng = stream(30, &[j as u64, i]);
            let mut s = g.initial_state();
            let mut r = Reference::from_state(&s, g.max_plies());
            let mut ply = 0;
            loop {
                let ctx = format!("{spec} game {i} ply {ply}");
                assert_same(&s, &r, &ctx);
                let l = legal(&s);
                if l.is_empty() {
                    break;
                }
                let a = l[rng.random_range(0..l.len())];
                if a == s.pass_action() {
                    passes += 1;
                }
                assert_eq!(s.parse_action(&s.action_to_string(a)).unwrap(), a);
                assert_eq!(s.action_cell(a).is_some(), a != s.pass_action());
                assert!(s.evaluate().abs() < 500_000);
                s.apply(a);
                r.apply(a);
                ply += 1;
            }
            assert!(ply <= g.max_game_length());
            if ply < g.max_plies() {
                natural_ends += 1;
            } else {
                limit_ends += 1;
            }
        }
    }
    // Both ways of ending and the pass rule are exercised.
    assert!(passes > 0 && natural_ends > 0 && limit_ends > 0);
}

#[test]
fn alphabeta_beats_random() {
    use wopr::game::play_game;
    use wopr::players::parse_player;
    let g = game("virus:6x6");
    let mut wins = 0;
    let n = 20;
    for i in 0..n {
        let mut ab = parse_player(&g, "alphabeta:depth=2").unwrap();
        let mut rnd = parse_player(&g, "random").unwrap();
        let seat = (i % 2) as usize;
        let mut rng = stream(31, &[i]);
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
