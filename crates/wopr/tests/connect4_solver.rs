//! The exact Connect-4 solver: agreement with a plain, memoised full-depth
//! minimax written here (on small boards, on every board shape, and on 7×6
//! end games), Pascal Pons's published end-game scores, known values of whole
//! boards, and the `perfect` player.

use std::collections::HashMap;
use std::time::Instant;

use rand::RngExt;
use wopr::eval::matches::play_match;
use wopr::game::rng::{stream, WoprRng};
use wopr::game::solver::{SolveError, Solver};
use wopr::games::connect4::solver::Connect4Solver;
use wopr::games::connect4::{Connect4, Connect4State};
use wopr::players::{parse_player, player_names};
use wopr::Roster;
use wopr::{Action, ActionList, Game, State};

fn game(columns: usize, rows: usize) -> Connect4 {
    Connect4::new(columns, rows).unwrap()
}

/// A solver with a small table: the tests' positions need little, and a
/// small table also exercises collisions and replacement.
fn small_solver(g: &Connect4) -> Connect4Solver {
    Connect4Solver::with_table_entries(g, 1 << 16)
}

// ---------------------------------------------------------------------------
// The reference: a 2-D grid, a direct reading of the rules, and plain
// minimax over every move to the end of the game (memoised by position, which
// changes nothing but the running time).

#[derive(Clone)]
struct Grid {
    cols: usize,
    rows: usize,
    /// `cells[col][height]`, height 0 = bottom: 0 empty, 1 = X, 2 = O.
    cells: Vec<Vec<u8>>,
    plies: usize,
}

impl Grid {
    fn new(cols: usize, rows: usize) -> Grid {
        Grid {
            cols,
            rows,
            cells: vec![vec![0; rows]; cols],
            plies: 0,
        }
    }

    fn height(&self, col: usize) -> usize {
        self.cells[col].iter().filter(|&&c| c != 0).count()
    }

    fn mover(&self) -> u8 {
        1 + (self.plies % 2) as u8
    }

    fn at(&self, col: i64, h: i64) -> u8 {
        if col < 0 || h < 0 || col >= self.cols as i64 || h >= self.rows as i64 {
            0
        } else {
            self.cells[col as usize][h as usize]
        }
    }

    /// Drops the mover's disc into `col`; returns whether it makes four in a
    /// row (counting the same colour outwards from the new disc both ways).
    fn play(&mut self, col: usize) -> bool {
        let h = self.height(col);
        let me = self.mover();
        self.cells[col][h] = me;
        self.plies += 1;
        let (c, h) = (col as i64, h as i64);
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dh)| {
            let run = |s: i64| {
                (1..4)
                    .take_while(|&k| self.at(c + s * k * dc, h + s * k * dh) == me)
                    .count()
            };
            run(1) + run(-1) >= 3
        })
    }

    fn undo(&mut self, col: usize) {
        let h = self.height(col);
        self.cells[col][h - 1] = 0;
        self.plies -= 1;
    }

    fn key(&self) -> (u64, u64) {
        let mut k = (0, 0);
        for c in 0..self.cols {
            for h in 0..self.rows {
                let bit = 1u64 << (c * self.rows + h);
                match self.cells[c][h] {
                    1 => k.0 |= bit,
                    2 => k.1 |= bit,
                    _ => {}
                }
            }
        }
        k
    }

    /// The score of every legal move for the mover, on Pons's scale: a win
    /// with the disc that goes down when `n` discs are already on the board
    /// is worth `(cells + 1 − n) / 2`, a draw 0, a loss minus the winner's.
    fn move_scores(&mut self, memo: &mut HashMap<(u64, u64), i32>) -> Vec<(Action, i32)> {
        let cells = self.cols * self.rows;
        let mut out = Vec::new();
        for col in 0..self.cols {
            if self.height(col) == self.rows {
                continue;
            }
            let n = self.plies;
            let v = if self.play(col) {
                ((cells + 1 - n) / 2) as i32
            } else if self.plies == cells {
                0
            } else {
                -self.score(memo)
            };
            self.undo(col);
            out.push((col as Action, v));
        }
        out
    }

    /// The minimax score of a position that is not over.
    fn score(&mut self, memo: &mut HashMap<(u64, u64), i32>) -> i32 {
        let key = self.key();
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let v = self.move_scores(memo).iter().map(|m| m.1).max().unwrap();
        memo.insert(key, v);
        v
    }
}

/// The reference grid for a list of actions from the start.
fn grid_of(g: &Connect4, actions: &[Action]) -> Grid {
    let mut grid = Grid::new(g.columns(), g.rows());
    for &a in actions {
        assert!(!grid.play(a as usize), "position already won");
    }
    grid
}

/// Whether the player to move in `s` can win with one disc.
fn can_win_now(s: &Connect4State) -> bool {
    let mut legal = ActionList::new();
    s.legal_actions(&mut legal);
    legal.iter().any(|&a| {
        let mut t = *s;
        t.apply(a);
        t.winner().is_some()
    })
}

/// A random position `plies` discs deep that is not over: each move is drawn
/// among those that do not complete four (so the game lasts), and with
/// `calm`, that leave the opponent no win with their next disc (so the
/// position is not decided by a one-move tactic); `None` if a dead end comes
/// first.
fn random_position(
    g: &Connect4,
    plies: usize,
    calm: bool,
    rng: &mut WoprRng,
) -> Option<(Connect4State, Vec<Action>)> {
    let mut s = g.initial_state();
    let mut actions = Vec::new();
    for _ in 0..plies {
        let mut legal = ActionList::new();
        s.legal_actions(&mut legal);
        let quiet: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|&a| {
                let mut t = s;
                t.apply(a);
                if t.is_terminal() {
                    return false;
                }
                !calm || !can_win_now(&t)
            })
            .collect();
        if quiet.is_empty() {
            return None;
        }
        let a = quiet[rng.random_range(0..quiet.len())];
        s.apply(a);
        actions.push(a);
    }
    Some((s, actions))
}

/// Checks the solver against the reference on `state`: the score, the value,
/// the best-move set, and `score: None`.
fn check_against_reference(
    solver: &mut Connect4Solver,
    g: &Connect4,
    state: &Connect4State,
    actions: &[Action],
) {
    let mut grid = grid_of(g, actions);
    let scores = grid.move_scores(&mut HashMap::new());
    let top = scores.iter().map(|m| m.1).max().unwrap();
    let best: Vec<Action> = scores.iter().filter(|m| m.1 == top).map(|m| m.0).collect();
    let at = || format!("{} after {:?}", g.spec(), actions);
    assert_eq!(solver.score(state).unwrap(), top, "score of {}", at());
    let sol = solver.solve(state).unwrap();
    assert_eq!(sol.value, top.signum(), "value of {}", at());
    assert_eq!(sol.best, best, "best moves of {} (scores {scores:?})", at());
    assert_eq!(sol.score, None);
}

// ---------------------------------------------------------------------------
// Agreement with the reference.

#[test]
fn agrees_with_minimax_on_small_boards() {
    // 4x4 and 5x4 from random openings, including short ones where the
    // reference still searches a large part of the game.
    for (cols, rows, min_plies, count) in [(4, 4, 2, 300), (5, 4, 7, 200), (6, 4, 11, 60)] {
        let g = game(cols, rows);
        let mut solver = small_solver(&g);
        let mut done = 0;
        for i in 0..count * 4 {
            let mut rng = stream(1, &[cols as u64, i]);
            let plies = rng.random_range(min_plies..cols * rows - 1);
            if let Some((s, actions)) = random_position(&g, plies, i % 2 == 0, &mut rng) {
                check_against_reference(&mut solver, &g, &s, &actions);
                done += 1;
                if done == count {
                    break;
                }
            }
        }
        assert_eq!(done, count, "{cols}x{rows}: too few random positions");
    }
}

#[test]
fn agrees_with_minimax_on_7x6_end_games() {
    // 7x6 positions with at most 14 empty cells, none decided by a one-move
    // tactic; all three outcomes must be among them.
    let g = game(7, 6);
    let mut solver = small_solver(&g);
    let mut values = [0; 3];
    for i in 0..2000 {
        let mut rng = stream(2, &[i]);
        let plies = rng.random_range(28..41);
        if let Some((s, actions)) = random_position(&g, plies, true, &mut rng) {
            check_against_reference(&mut solver, &g, &s, &actions);
            values[(solver.solve(&s).unwrap().value + 1) as usize] += 1;
            if values.iter().sum::<usize>() == 200 {
                break;
            }
        }
    }
    assert_eq!(values.iter().sum::<usize>(), 200);
    assert!(
        values.iter().all(|&n| n >= 10),
        "losses, draws, wins: {values:?}"
    );
}

#[test]
fn agrees_with_minimax_on_every_board_shape() {
    // The extremes of the accepted sizes, including 8x7 whose bitboard uses
    // all 64 bits, with at most 11 empty cells (the shifts of the threat
    // detection are the part that depends on the shape).
    for (cols, rows) in [
        (4, 9),
        (9, 4),
        (9, 6),
        (8, 7),
        (7, 7),
        (6, 9),
        (5, 9),
        (4, 5),
    ] {
        let g = game(cols, rows);
        let mut solver = small_solver(&g);
        let mut done = 0;
        for i in 0..200 {
            let mut rng = stream(3, &[(cols * 10 + rows) as u64, i]);
            let cells = cols * rows;
            let plies = rng.random_range(cells - 11..cells);
            if let Some((s, actions)) = random_position(&g, plies, true, &mut rng) {
                check_against_reference(&mut solver, &g, &s, &actions);
                done += 1;
                if done == 20 {
                    break;
                }
            }
        }
        assert_eq!(done, 20, "{cols}x{rows}: too few random positions");
    }
}

#[test]
fn one_solver_follows_the_board_size() {
    // The same solver value on two sizes in turn: its table must not carry
    // positions over from one size to the other.
    let small = game(4, 4);
    let mut solver = small_solver(&small);
    for (cols, rows) in [(4, 4), (5, 4), (4, 4), (7, 6)] {
        let g = game(cols, rows);
        let mut rng = stream(4, &[cols as u64]);
        let cells = cols * rows;
        let (s, actions) = (0..)
            .find_map(|_| random_position(&g, cells - 8, true, &mut rng))
            .unwrap();
        check_against_reference(&mut solver, &g, &s, &actions);
    }
}

// ---------------------------------------------------------------------------
// Published and known values.

/// Lines of Pascal Pons's end-game benchmark `Test_L3_R1` ("moves score",
/// 7x6, 29 to 41 discs down; blog.gamesolver.org, part 2 "Benchmarking
/// solvers"), scores on the scale the solver uses.
const PONS_L3_R1: &[(&str, i32)] = &[
    ("2252576253462244111563365343671351441", -1),
    ("7422341735647741166133573473242566", 1),
    ("23163416124767223154467471272416755633", 0),
    ("71255763773133525731261364622167124446454", 0),
    ("65214673556155731566316327373221417", -1),
    ("52677675164321472411331752454", 0),
    ("3135151421347443544172316522225776773566", 0),
    ("562154564361751726662253737734213275114", 0),
    ("233377345754465174223731671122611552", 1),
    ("6763525635134453444361412671365712", -1),
    ("211376455663355325112113664364524722", 0),
    ("3146762114467714356347741621375222", -1),
    ("67152117737262713366376314254", 6),
    ("2762751722231276466633475674533", 5),
    ("3642756176227637211322113551637574556", 2),
    ("22647455554314246733661634615122372377511", 0),
    ("427566236745127177115664464254", 2),
    ("7172212567451542223676134464437761515", 0),
    ("641154574541323641152467137655232232366", 0),
    ("5775265212657176476365522624313714333", 2),
    ("3575316255751336464276636772271112", -3),
];

#[test]
fn pons_end_game_scores() {
    let g = game(7, 6);
    let mut solver = small_solver(&g);
    for &(moves, score) in PONS_L3_R1 {
        let s = g.state_from_moves(moves).unwrap();
        assert_eq!(solver.score(&s).unwrap(), score, "{moves}");
        assert_eq!(solver.solve(&s).unwrap().value, score.signum(), "{moves}");
        // And the published score is what plain minimax finds.
        let actions: Vec<Action> = moves.bytes().map(|b| (b - b'1') as Action).collect();
        let top = grid_of(&g, &actions)
            .move_scores(&mut HashMap::new())
            .iter()
            .map(|m| m.1)
            .max()
            .unwrap();
        assert_eq!(top, score, "reference on {moves}");
    }
}

#[test]
fn small_empty_boards_are_draws() {
    // 4x4 and 5x4 are draws with perfect play (John Tromp's table of results
    // for other board sizes; consistent with Allis 1988, who shows that the
    // first player cannot win on boards with at most 6 columns and an even
    // number of rows). Checked here against the reference's full minimax
    // of the whole game, so the test does not rest on the citation alone.
    for (cols, rows) in [(4, 4), (5, 4)] {
        let g = game(cols, rows);
        let s = g.initial_state();
        let mut solver = small_solver(&g);
        check_against_reference(&mut solver, &g, &s, &[]);
        assert_eq!(solver.solve(&s).unwrap().value, 0, "{cols}x{rows}");
    }
}

#[test]
fn empty_6x6_is_a_loss_for_the_first_player() {
    // John Tromp's table of Connect-4 results for other board sizes: width 6,
    // height 6 is a win for the second player. (Allis 1988 shows the first
    // player cannot win on 6 columns and an even number of rows.)
    // About 5 s in the test profile.
    let g = game(6, 6);
    let mut solver = Connect4Solver::new(&g);
    let sol = solver.solve(&g.initial_state()).unwrap();
    assert_eq!(sol.value, -1);
    // README, "Yardsticks and exact play": "`wopr solve connect4:6x6` — a
    // second-player win (Tromp), 57 M nodes" (the command runs this solver
    // and prints this count).
    assert_eq!(sol.nodes, 56_935_982);
    assert_eq!(sol.best, [2, 3], "columns 3 and 4");
    // The empty board is symmetric, so the best moves are too.
    assert!(!sol.best.is_empty());
    for &a in &sol.best {
        assert!(sol.best.contains(&(5 - a)), "{:?}", sol.best);
    }
}

#[test]
fn terminal_positions_and_node_limit() {
    let g = game(7, 6);
    let mut solver = small_solver(&g);
    let won = g.state_from_moves("1212121").unwrap();
    assert_eq!(solver.solve(&won), Err(SolveError::Terminal));
    assert_eq!(solver.score(&won), Err(SolveError::Terminal));
    let mut limited = small_solver(&g).with_node_limit(Some(10_000));
    let err = limited.solve(&g.initial_state()).unwrap_err();
    assert!(err.to_string().contains("node limit"), "{err}");
    // A later solve within the limit still works and is still exact.
    let s = g.state_from_moves(PONS_L3_R1[0].0).unwrap();
    assert_eq!(limited.score(&s).unwrap(), PONS_L3_R1[0].1);
}

// ---------------------------------------------------------------------------
// The `perfect` player.

#[test]
fn perfect_player_is_offered_and_never_loses_a_drawn_game() {
    let g = game(5, 4);
    assert!(player_names(&g).iter().any(|n| n.starts_with("perfect")));
    assert!(g.solver().is_some());
    assert!(parse_player(&g, "perfect").is_ok());
    assert!(parse_player(&g, "perfect:depth=3").is_err());
    // 5x4 is a draw (above), so the perfect player never loses, in either
    // seat, against anyone.
    for opponent in ["alphabeta:depth=3", "random"] {
        let records = play_match(&g, "perfect", opponent, 8, 5, &|| {}).unwrap();
        for (i, r) in records.iter().enumerate() {
            let seat = i % 2; // perfect sits in seat 0 of even games
            assert!(r.returns.as_ref().unwrap()[seat] >= 0.0, "{:?}", r.moves);
        }
    }
}

// ---------------------------------------------------------------------------
// Timings (release: `cargo test --release -p wopr --test connect4_solver --
// --ignored --nocapture`).

//
// README, "Yardsticks and exact play": "7x6 Connect-4 positions with 14 moves
// left take 0.05 ms on average" is the third line this prints. The times are
// the machine's; the values and node counts printed beside them are asserted.

#[test]
#[ignore = "timing report; run in release"]
fn timings() {
    let g = game(6, 6);
    let mut solver = Connect4Solver::new(&g);
    let t = Instant::now();
    let sol = solver.solve(&g.initial_state()).unwrap();
    println!(
        "6x6 empty: value {} best {:?} nodes {} in {:.2?}",
        sol.value,
        sol.best,
        sol.nodes,
        t.elapsed()
    );
    assert_eq!((sol.value, sol.nodes), (-1, 56_935_982));
    let mut fresh = Connect4Solver::new(&g);
    let t = Instant::now();
    let score = fresh.score(&g.initial_state()).unwrap();
    println!(
        "6x6 empty score only: {score}, nodes {} in {:.2?}",
        fresh.nodes(),
        t.elapsed()
    );
    assert_eq!((score, fresh.nodes()), (-1, 45_593_059));

    let g = game(7, 6);
    let mut solver = Connect4Solver::new(&g);
    let (mut worst, mut total, mut n, mut nodes) = (0.0f64, 0.0, 0, 0);
    for i in 0..200 {
        let mut rng = stream(9, &[i]);
        let Some((s, _)) = random_position(&g, 28, true, &mut rng) else {
            continue;
        };
        let t = Instant::now();
        let sol = solver.solve(&s).unwrap();
        let dt = t.elapsed().as_secs_f64();
        worst = worst.max(dt);
        total += dt;
        nodes += sol.nodes;
        n += 1;
    }
    println!(
        "7x6, 14 moves left: {n} positions, mean {:.2} ms, worst {:.2} ms, mean nodes {}",
        total / n as f64 * 1e3,
        worst * 1e3,
        nodes / n as u64
    );
    assert_eq!((n, nodes / n as u64), (103, 517));
    let mut pons = Vec::new();
    for &(moves, _) in PONS_L3_R1.iter().filter(|l| l.0.len() <= 30) {
        let s = g.state_from_moves(moves).unwrap();
        let t = Instant::now();
        let sol = Connect4Solver::new(&g).solve(&s).unwrap();
        println!(
            "{moves}: value {} best {:?} nodes {} in {:.2?}",
            sol.value,
            sol.best,
            sol.nodes,
            t.elapsed()
        );
        pons.push((sol.value, sol.best, sol.nodes));
    }
    assert_eq!(
        pons,
        [
            (0, vec![1, 2, 3, 5, 6], 2095),
            (1, vec![4], 9),
            (1, vec![0, 1, 4, 6], 301)
        ]
    );
}

// ---------------------------------------------------------------------------
// The book of solved positions.

/// Every position up to `depth` plies from the start, once each.
fn positions_to(g: &Connect4, depth: usize) -> Vec<Connect4State> {
    let mut out = vec![g.initial_state()];
    let mut frontier = out.clone();
    for _ in 0..depth {
        let mut next = Vec::new();
        for s in &frontier {
            let mut legal = ActionList::new();
            s.legal_actions(&mut legal);
            for &a in &legal {
                let mut c = *s;
                c.apply(a);
                if !c.is_terminal() && !next.contains(&c) {
                    next.push(c);
                }
            }
        }
        out.extend(next.iter().cloned());
        frontier = next;
    }
    out
}

#[test]
fn a_book_answers_what_the_search_answered_and_survives_the_process() {
    use wopr::games::connect4::book::Book;
    let g = game(5, 5);
    let path = std::env::temp_dir().join(format!("wopr-c4-book-{}.txt", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let positions = positions_to(&g, 3);
    let mut plain = small_solver(&g);
    let expected: Vec<_> = positions.iter().map(|s| plain.solve(s).unwrap()).collect();
    {
        // Writing every position solved (the default writes long searches
        // only), through a solver the book is shared with.
        let book = Book::open(&path, 5, 5).unwrap();
        let mut writer = small_solver(&g).with_book(book.clone()).recording_from(0);
        for (s, e) in positions.iter().zip(&expected) {
            assert_eq!(writer.solve(s).unwrap().best, e.best);
        }
        // Mirror images share a line: fewer lines than positions.
        let n = book.lock().unwrap().len();
        assert!(n > 1 && n < positions.len(), "{n} of {}", positions.len());
    }
    // Read back from the file (the solvers above are gone): every answer
    // comes from the book, searching nothing, and equals the search's.
    let book = Book::open(&path, 5, 5).unwrap();
    let mut reader = small_solver(&g).with_book(book);
    for (s, e) in positions.iter().zip(&expected) {
        let got = reader.solve(s).unwrap();
        assert_eq!((got.value, &got.best, got.nodes), (e.value, &e.best, 0));
    }
    // A book of another size is refused by name.
    let e = Book::open(&path, 7, 6).unwrap_err();
    assert!(e.contains("5x5 positions, not 7x6"), "{e}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn perfect_takes_a_book_where_a_file_is_named() {
    let g = game(5, 4);
    let path = std::env::temp_dir().join(format!("wopr-c4-book-spec-{}.txt", std::process::id()));
    // A book to grow (`learn=`) is made on the first long search only; a
    // 5x4 board has none.
    let spec = format!("perfect:learn={}", path.display());
    assert!(parse_player(&g, &spec).is_ok());
    assert!(!path.exists());
    // A book to read (`book=`) must be there: it is never made.
    let spec = format!("perfect:book={}", path.display());
    let e = parse_player(&g, &spec).err().unwrap().to_string();
    assert!(e.contains("no such file") && e.contains("learn="), "{e}");
    assert!(!path.exists());
    let e = parse_player(&g, "perfect:book=").err().unwrap().to_string();
    assert!(e.contains("book= needs a file"), "{e}");
    let e = parse_player(&g, "perfect:learn=")
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("learn= needs a file"), "{e}");
    // A server opens no book a request names, to read or to grow.
    let caps = wopr::players::Caps {
        depth: 8,
        sims: 1000,
        time: std::time::Duration::from_secs(1),
        empties: 10,
    };
    for spec in ["perfect:book=/tmp/x.book", "perfect:learn=/tmp/x.book"] {
        let e = wopr::players::PlayerSpec::parse(&g, spec)
            .unwrap()
            .check_caps(&caps)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("opens no book files") && e.contains("learn="),
            "{e}"
        );
    }
    let e = parse_player(&g, "perfect:depth=3")
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("book") && e.contains("ms"), "{e}");
}
