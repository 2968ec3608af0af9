//! Property tests: random legal games of every registered game, replayed and
//! checked at every step against what the rules promise.
//!
//! A case is a [`Script`]: a list of numbers that picks each move (an index
//! into the legal list; for chance, a point in `[0, 1)` of the outcome
//! distribution; at a simultaneous turn one pick per seat), continued by a
//! seeded stream once the list runs out. Every game in [`SPECS`] (every
//! registered game, at several sizes or parameters) is played to the end
//! under each script. The properties:
//!
//! 1. [`generic_invariants_hold_at_every_step`]: what the `State` trait
//!    promises of every game. Legal lists strictly increasing, below
//!    `num_actions`, empty exactly at terminal and simultaneous states, equal
//!    to `legal_actions_of` of the mover; `try_apply` accepts every legal
//!    action (with the same result as `apply`) and refuses non-legal ones
//!    leaving the state unchanged; chance probabilities positive, summing to
//!    1, over the legal outcomes; notation (also upper-cased, and `#index`)
//!    parses back to the action; the game ends within `max_game_length`;
//!    returns 0 before the end, zero-sum at the end and in the game's set of
//!    results; `score` margins opposite and agreeing in sign with the return;
//!    views equal the state for perfect-information games; `Searchable` keys
//!    change with every move.
//! 2. [`game_rules_hold_at_every_step`]: each game's own rules (turn order,
//!    piece counts, captures, scoring, the square `action_cell` names), each
//!    against an independent reference written from the game's module docs;
//!    the doc rule behind each check is named next to it.
//! 3. [`replay_reproduces_the_game`]: `driver::replay` of the recorded
//!    actions gives the same final state, any prefix gives the state
//!    recorded there, an action past the end or an illegal one is refused
//!    with the ply named.
//! 4. [`transpositions_share_a_key`]: for the `Searchable` games, a line with
//!    two of its moves swapped that reaches an equal position has an equal
//!    `key()`, and one that reaches a different position a different key.
//!
//! Cases per property and game spec are stated in [`CASES`] and next to each
//! property; the runner is seeded per spec (fully deterministic) and writes
//! no failure-persistence files. A failure prints the game, the moves in
//! notation and the action indices, ready to paste into a `#[test]`.
//!
//! Bugs the properties found are kept as `#[ignore]`d tests named `bug_…`
//! with their move sequence (run them with `--ignored`); the properties skip
//! only what such a test covers, and say so where they do.

use std::cell::Cell;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, RngSeed, TestCaseError, TestRunner};
use wopr::game::driver::replay;
use wopr::games::breakthrough::{Breakthrough, BreakthroughState};
use wopr::games::connect4::{Connect4, Connect4State};
use wopr::games::dots_and_boxes::{DotsAndBoxes, DotsAndBoxesState};
use wopr::games::gdl::game::{Gdl, GdlHidden, GdlHiddenState, GdlState};
use wopr::games::goofspiel::{Goofspiel, GoofspielState};
use wopr::games::kuhn::{KuhnPoker, KuhnState, BET, PASS};
use wopr::games::pig::{Pig, PigState, HOLD, ROLL};
use wopr::games::reversi::{Reversi, ReversiState};
use wopr::games::tictactoe::{TicTacToe, TicTacToeState};
use wopr::games::virus::{Virus, VirusState};
use wopr::registry::games;
use wopr::{with_game, Action, ActionList, AnyGame, Game, Searchable, State, Turn};

/// The games every property plays: every registered game, at the sizes and
/// parameters that exercise different code (non-square Dots-and-Boxes, a
/// Virus ply limit that is reached, a Pig horizon that draws, Goofspiel with
/// one card and with the most).
const SPECS: &[&str] = &[
    "tictactoe",
    "connect4:7x6",
    "connect4:6x6",
    "connect4:4x4",
    "connect4:8x7",
    "connect4:9x6",
    "connect4:4x9",
    "dots-and-boxes:3x3",
    "dots-and-boxes:2x2",
    "dots-and-boxes:1x1",
    "dots-and-boxes:3x2",
    "dots-and-boxes:5x5",
    "reversi:8x8",
    "reversi:6x6",
    "reversi:4x4",
    "virus:8x8",
    "virus:5x5",
    "virus:4x4,max-plies=30",
    "virus:6x6,start=c3/d4",
    "breakthrough:8x8",
    "breakthrough:3x4",
    "breakthrough:columns=5,rows=6",
    "pig",
    "pig:target=10,horizon=4",
    "kuhn",
    "goofspiel:cards=5",
    "goofspiel:cards=1",
    "goofspiel:cards=13",
    // GDL sheets (paths from this crate): alternating, GDL-II with
    // percepts, simultaneous.
    "gdl:../../gdl/tictactoe.kif",
    "gdl:../../gdl/connect4-6x6.kif",
    "gdl:../../gdl/kuhn.kif",
    "gdl:../../gdl/ggp-base/roshambo2.kif",
];

/// Cases per property and game spec (so each property plays
/// `CASES × SPECS.len()` games).
const CASES: u32 = 128;

// ---------------------------------------------------------------------------
// Scripts, lines and failure messages
// ---------------------------------------------------------------------------

/// The choices of one game: `picks` first, then a stream seeded by `seed`.
#[derive(Clone, Debug)]
struct Script {
    picks: Vec<u32>,
    seed: u64,
}

/// SplitMix64's finaliser: the stream that continues a script.
fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Script {
    /// The `i`-th choice.
    fn pick(&self, i: usize) -> u32 {
        match self.picks.get(i) {
            Some(&p) => p,
            None => {
                (splitmix(self.seed ^ (i as u64).wrapping_mul(0xA24B_AED4_963E_E407)) >> 32) as u32
            }
        }
    }
}

/// Scripts: up to 160 explicit picks, mostly uniform but sometimes the
/// first or the last legal choice (systematic play reaches corners uniform
/// play rarely does), then the seeded stream.
fn scripts() -> impl Strategy<Value = Script> {
    let pick = prop_oneof![4 => any::<u32>(), 1 => Just(0u32), 1 => Just(u32::MAX)];
    (proptest::collection::vec(pick, 0..160), any::<u64>())
        .prop_map(|(picks, seed)| Script { picks, seed })
}

/// A game played under a script, turn by turn.
struct Line<S> {
    spec: String,
    /// `states[i]` is the state before turn `i`; the last is the final state.
    states: Vec<S>,
    /// The actions of each turn: one, or one per seat at a simultaneous turn.
    turns: Vec<Vec<Action>>,
    /// Each turn in notation (`a/b` at a simultaneous turn).
    moves: Vec<String>,
    /// `starts[i]`: actions played before turn `i` (one entry per state).
    starts: Vec<usize>,
    /// Every action index, in order (the format of `driver::replay`).
    actions: Vec<Action>,
}

impl<S> Line<S> {
    /// A failure at turn `turn`, with the line that led there.
    fn fail(&self, turn: usize, msg: String) -> TestCaseError {
        TestCaseError::fail(format!(
            "{msg}\n  game: {}\n  at turn {turn}, after: {}\n  whole game, action indices: {:?}",
            self.spec,
            self.moves[..turn.min(self.moves.len())].join(" "),
            self.actions
        ))
    }

    fn final_state(&self) -> &S {
        self.states.last().expect("a line has a start state")
    }
}

/// `ensure!(line, turn, condition, "format", args…)`: fails the case with the
/// line's moves unless `condition` holds.
macro_rules! ensure {
    ($line:expr, $turn:expr, $cond:expr, $($fmt:tt)+) => {
        {
            let holds: bool = $cond;
            if !holds {
                return Err($line.fail($turn, format!($($fmt)+)));
            }
        }
    };
}

type Res = Result<(), TestCaseError>;

/// Draws an outcome from `outcomes` at the point `x` of `[0, 1)`.
fn sample(outcomes: &[(Action, f64)], x: f64) -> Action {
    let mut rest = x;
    for &(a, p) in outcomes {
        if rest < p {
            return a;
        }
        rest -= p;
    }
    outcomes.last().expect("outcomes are not empty").0
}

/// Plays `game` under `script` until it ends, gets stuck (no legal action,
/// which property 1 reports) or runs one action past `max_game_length`.
fn play<G: Game>(game: &G, script: &Script) -> Line<G::State> {
    let mut s = game.initial_state();
    let mut line = Line {
        spec: game.spec(),
        states: vec![s.clone()],
        turns: Vec::new(),
        moves: Vec::new(),
        starts: vec![0],
        actions: Vec::new(),
    };
    let mut k = 0;
    let mut legal = ActionList::new();
    while line.actions.len() <= game.max_game_length() {
        let joint: Vec<Action> = match s.turn() {
            Turn::Terminal => break,
            Turn::Simultaneous => {
                let mut joint = Vec::new();
                for seat in 0..game.num_players() {
                    legal.clear();
                    s.legal_actions_of(seat, &mut legal);
                    if legal.is_empty() {
                        return line;
                    }
                    joint.push(legal[script.pick(k) as usize % legal.len()]);
                    k += 1;
                }
                joint
            }
            Turn::Chance => {
                let mut outcomes = Vec::new();
                s.chance_outcomes(&mut outcomes);
                if outcomes.is_empty() {
                    return line;
                }
                let x = script.pick(k) as f64 / 4_294_967_296.0;
                k += 1;
                vec![sample(&outcomes, x)]
            }
            Turn::Player(_) => {
                legal.clear();
                s.legal_actions(&mut legal);
                if legal.is_empty() {
                    return line;
                }
                let a = legal[script.pick(k) as usize % legal.len()];
                k += 1;
                vec![a]
            }
        };
        let notation: Vec<String> = joint.iter().map(|&a| s.action_to_string(a)).collect();
        if joint.len() == 1 {
            s.apply(joint[0]);
        } else {
            s.apply_joint(&joint);
        }
        line.moves.push(notation.join("/"));
        line.actions.extend_from_slice(&joint);
        line.turns.push(joint);
        line.starts.push(line.actions.len());
        line.states.push(s.clone());
    }
    line
}

/// Runs `property` on `cases` scripts for every spec, each spec with its own
/// fixed seed; panics with the minimal failing script.
fn run_property(name: &str, cases: u32, property: impl Fn(&AnyGame, &Script) -> Res) {
    for (k, spec) in SPECS.iter().enumerate() {
        let game = AnyGame::parse(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
        let config = Config {
            cases,
            failure_persistence: None,
            rng_algorithm: RngAlgorithm::ChaCha,
            rng_seed: RngSeed::Fixed(0x1D1E_5EED + k as u64),
            max_shrink_iters: 2048,
            ..Config::default()
        };
        let mut runner = TestRunner::new(config);
        if let Err(e) = runner.run(&scripts(), |script| property(&game, &script)) {
            panic!("{name}, {spec}: {e}");
        }
    }
}

// ---------------------------------------------------------------------------
// What each game adds: its result set, its view, its key, its own rules
// ---------------------------------------------------------------------------

/// Per-game knowledge the properties need. `history` is every action played
/// before `state` (one per seat at a simultaneous turn).
trait Rules: Game<State: PartialEq> {
    /// The returns a finished game may give a seat.
    const RESULTS: &'static [f64];
    /// Whether the final score margin alone decides the result (so its sign
    /// is the return's); otherwise only a non-zero return must agree.
    const SCORE_DECIDES: bool;

    /// The `Searchable` key, for the games that have one.
    fn key(&self, _s: &Self::State) -> Option<u64> {
        None
    }

    /// The square `(column, row)` the legal action `a` occupies, as the
    /// module docs define action indices; `None` for actions on no square.
    fn cell(&self, _s: &Self::State, _a: Action) -> Option<(usize, usize)> {
        None
    }

    /// Checks what each seat's view shows.
    fn check_view(&self, line: &Line<Self::State>, turn: usize) -> Res;

    /// Checks the game's rules on one position.
    fn check_position(&self, line: &Line<Self::State>, turn: usize) -> Res;

    /// Checks the game's rules on turn `turn` (state `turn` to `turn + 1`).
    fn check_step(&self, line: &Line<Self::State>, turn: usize) -> Res;

    /// Checks the game's rules on the finished game.
    fn check_end(&self, line: &Line<Self::State>) -> Res;
}

/// The view of a perfect-information game is the state itself, for both
/// seats (`State::view` docs).
fn view_is_state<S: State<View = S> + PartialEq>(line: &Line<S>, turn: usize) -> Res {
    let s = &line.states[turn];
    for p in 0..2 {
        ensure!(
            line,
            turn,
            s.view(p) == *s,
            "seat {p}'s view differs from the state"
        );
    }
    Ok(())
}

/// The (before, action, after) of a one-action turn.
fn step<S>(line: &Line<S>, turn: usize) -> (&S, Action, &S) {
    (
        &line.states[turn],
        line.turns[turn][0],
        &line.states[turn + 1],
    )
}

/// The actions played before state `turn`.
fn history<S>(line: &Line<S>, turn: usize) -> &[Action] {
    &line.actions[..line.starts[turn]]
}

/// Squares `(col, row)` in the eight directions (sides and corners).
const DIRS8: [(i32, i32); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// Whether `(col, row)` lies on a `cols`×`rows` board.
fn inside(c: i32, r: i32, cols: usize, rows: usize) -> bool {
    (0..cols as i32).contains(&c) && (0..rows as i32).contains(&r)
}

/// Whether `owner(col, row) == Some(seat)` has four in a line somewhere
/// (rows, columns, both diagonals), looking at every cell.
fn has_run(
    cols: usize,
    rows: usize,
    need: usize,
    owner: impl Fn(usize, usize) -> Option<usize>,
    seat: usize,
) -> bool {
    for r in 0..rows as i32 {
        for c in 0..cols as i32 {
            for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                let full = (0..need as i32).all(|k| {
                    let (cc, rr) = (c + k * dc, r + k * dr);
                    inside(cc, rr, cols, rows) && owner(cc as usize, rr as usize) == Some(seat)
                });
                if full {
                    return true;
                }
            }
        }
    }
    false
}

// --- Tic-Tac-Toe ----------------------------------------------------------

impl Rules for TicTacToe {
    const RESULTS: &'static [f64] = &[-1.0, 0.0, 1.0];
    const SCORE_DECIDES: bool = true;

    fn key(&self, s: &TicTacToeState) -> Option<u64> {
        Some(s.key())
    }

    /// "Action indices. `row × 3 + col`."
    fn cell(&self, _s: &TicTacToeState, a: Action) -> Option<(usize, usize)> {
        Some((a as usize % 3, a as usize / 3))
    }

    fn check_view(&self, line: &Line<TicTacToeState>, turn: usize) -> Res {
        view_is_state(line, turn)
    }

    fn check_position(&self, line: &Line<TicTacToeState>, turn: usize) -> Res {
        let s = &line.states[turn];
        let plies = history(line, turn).len();
        let (x, o) = (s.marks[0], s.marks[1]);
        // "each putting a mark on an empty square": marks never overlap and
        // stay on the 3×3 board.
        ensure!(
            line,
            turn,
            x & o == 0 && (x | o) >> 9 == 0,
            "marks overlap or leave the board: {x:#b} {o:#b}"
        );
        // One mark per move: marks = plies.
        let (nx, no) = (x.count_ones() as usize, o.count_ones() as usize);
        ensure!(
            line,
            turn,
            nx + no == plies,
            "{} marks after {plies} plies",
            nx + no
        );
        // "X (seat 0) moves first; the players alternate": X − O ∈ {0, 1}.
        ensure!(
            line,
            turn,
            nx == no || nx == no + 1,
            "X has {nx} marks, O {no}"
        );
        // "Three marks of one player in a row … win at once; a full board
        // without such a line is a draw."
        let line_of = |p: usize| has_run(3, 3, 3, |c, r| s.at(r * 3 + c), p);
        let (lx, lo) = (line_of(0), line_of(1));
        ensure!(line, turn, !(lx && lo), "both players have three in a row");
        let expected_winner = if lx {
            Some(0)
        } else if lo {
            Some(1)
        } else {
            None
        };
        ensure!(
            line,
            turn,
            s.winner.map(usize::from) == expected_winner,
            "winner {:?} but lines X {lx} O {lo}",
            s.winner
        );
        let expected_turn = if expected_winner.is_some() || plies == 9 {
            Turn::Terminal
        } else {
            Turn::Player(plies % 2)
        };
        ensure!(
            line,
            turn,
            s.turn() == expected_turn,
            "turn {:?}, expected {expected_turn:?}",
            s.turn()
        );
        Ok(())
    }

    fn check_step(&self, line: &Line<TicTacToeState>, turn: usize) -> Res {
        let (b, a, s) = step(line, turn);
        let me = history(line, turn).len() % 2;
        // A move marks exactly the chosen empty square for the mover.
        ensure!(
            line,
            turn,
            b.at(a as usize).is_none(),
            "square {a} was taken"
        );
        ensure!(
            line,
            turn,
            s.marks[me] == b.marks[me] | 1 << a && s.marks[1 - me] == b.marks[1 - me],
            "the move changed other squares"
        );
        // Only the mover can have completed a line.
        ensure!(
            line,
            turn,
            s.winner.is_none() || s.winner == Some(me as u8),
            "a move made the opponent win"
        );
        Ok(())
    }

    fn check_end(&self, line: &Line<TicTacToeState>) -> Res {
        let s = line.final_state();
        let t = line.turns.len();
        let want = match s.winner {
            Some(w) => {
                if w == 0 {
                    1.0
                } else {
                    -1.0
                }
            }
            None => 0.0,
        };
        ensure!(
            line,
            t,
            s.returns(0) == want,
            "X's return {} for winner {:?}",
            s.returns(0),
            s.winner
        );
        Ok(())
    }
}

// --- Connect-4 ------------------------------------------------------------

impl Rules for Connect4 {
    const RESULTS: &'static [f64] = &[-1.0, 0.0, 1.0];
    const SCORE_DECIDES: bool = true;

    fn key(&self, s: &Connect4State) -> Option<u64> {
        Some(s.key())
    }

    /// "`action_cell` gives `(column, row from the top)` of the cell the disc
    /// lands in".
    fn cell(&self, s: &Connect4State, a: Action) -> Option<(usize, usize)> {
        let c = a as usize;
        Some((c, self.rows() - 1 - s.height(c)))
    }

    fn check_view(&self, line: &Line<Connect4State>, turn: usize) -> Res {
        view_is_state(line, turn)
    }

    fn check_position(&self, line: &Line<Connect4State>, turn: usize) -> Res {
        let s = &line.states[turn];
        let plies = history(line, turn).len();
        let (cols, rows) = (self.columns(), self.rows());
        ensure!(
            line,
            turn,
            s.plies() == plies,
            "plies() {} after {plies} discs",
            s.plies()
        );
        let (d0, d1) = (s.discs(0), s.discs(1));
        ensure!(line, turn, d0 & d1 == 0, "the two colours overlap");
        // One disc per move: discs = plies; X moves first and they alternate.
        let (n0, n1) = (d0.count_ones() as usize, d1.count_ones() as usize);
        ensure!(
            line,
            turn,
            n0 + n1 == plies,
            "{} discs after {plies} plies",
            n0 + n1
        );
        ensure!(
            line,
            turn,
            n0 == n1 || n0 == n1 + 1,
            "X has {n0} discs, O {n1}"
        );
        // "it falls to the lowest empty cell": each column is filled from the
        // bottom, as high as its height, and no higher than the rows.
        let mut total = 0;
        let (mut c0, mut c1) = (0, 0);
        for c in 0..cols {
            let h = s.height(c);
            ensure!(line, turn, h <= rows, "column {c} has height {h} > {rows}");
            total += h;
            for r in 0..rows {
                let cell = s.at(c, r);
                let filled = rows - 1 - r < h;
                ensure!(
                    line,
                    turn,
                    cell.is_some() == filled,
                    "column {c} row {r}: {cell:?} with height {h}"
                );
                match cell {
                    Some(0) => c0 += 1,
                    Some(_) => c1 += 1,
                    None => {}
                }
            }
        }
        ensure!(
            line,
            turn,
            total == plies,
            "heights sum to {total} after {plies} plies"
        );
        ensure!(
            line,
            turn,
            (c0, c1) == (n0, n1),
            "at() shows {c0}/{c1} discs, discs() {n0}/{n1}"
        );
        // "Four discs of one player in a row … win at once": a winner has
        // four in a row and no one else does.
        let four = |p: usize| has_run(cols, rows, 4, |c, r| s.at(c, r), p);
        let (f0, f1) = (four(0), four(1));
        ensure!(line, turn, !(f0 && f1), "both colours have four in a row");
        let expected = if f0 {
            Some(0)
        } else if f1 {
            Some(1)
        } else {
            None
        };
        ensure!(
            line,
            turn,
            s.winner() == expected,
            "winner {:?} but fours X {f0} O {f1}",
            s.winner()
        );
        // "a full board without such a line is a draw"; otherwise the players
        // alternate and may play any column that is not full.
        let expected_turn = if expected.is_some() || plies == cols * rows {
            Turn::Terminal
        } else {
            Turn::Player(plies % 2)
        };
        ensure!(
            line,
            turn,
            s.turn() == expected_turn,
            "turn {:?}, expected {expected_turn:?}",
            s.turn()
        );
        let mut legal = ActionList::new();
        s.legal_actions(&mut legal);
        let open: Vec<Action> = if expected_turn == Turn::Terminal {
            Vec::new()
        } else {
            (0..cols)
                .filter(|&c| s.height(c) < rows)
                .map(|c| c as Action)
                .collect()
        };
        ensure!(
            line,
            turn,
            legal.as_slice() == open.as_slice(),
            "legal {legal:?}, open columns {open:?}"
        );
        Ok(())
    }

    fn check_step(&self, line: &Line<Connect4State>, turn: usize) -> Res {
        let (b, a, s) = step(line, turn);
        let (c, rows) = (a as usize, self.rows());
        let me = b.to_move();
        let h = b.height(c);
        // The disc lands on the lowest empty cell of its column, and
        // action_cell says where beforehand.
        ensure!(
            line,
            turn,
            b.action_cell(a) == Some((c, rows - 1 - h)),
            "action_cell {:?}, height {h}",
            b.action_cell(a)
        );
        ensure!(
            line,
            turn,
            s.height(c) == h + 1 && s.at(c, rows - 1 - h) == Some(me),
            "the disc did not land on top of column {c}"
        );
        for other in (0..self.columns()).filter(|&o| o != c) {
            ensure!(
                line,
                turn,
                s.height(other) == b.height(other),
                "column {other} changed"
            );
        }
        ensure!(
            line,
            turn,
            s.winner().is_none() || s.winner() == Some(me),
            "a move made the opponent win"
        );
        Ok(())
    }

    fn check_end(&self, line: &Line<Connect4State>) -> Res {
        let s = line.final_state();
        let want = match s.winner() {
            Some(0) => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
        ensure!(
            line,
            line.turns.len(),
            s.returns(0) == want,
            "X's return {} for winner {:?}",
            s.returns(0),
            s.winner()
        );
        Ok(())
    }
}

// --- Reversi --------------------------------------------------------------

/// The opponent discs a disc of `me` on `(col, row)` would turn over: every
/// unbroken line of opponent discs ending on a disc of `me`, in all eight
/// directions (module docs, "Rules as implemented"). Bit `row × N + col`.
fn reversi_flips(s: &ReversiState, me: usize, col: usize, row: usize) -> u64 {
    let n = s.size();
    if s.at(col, row).is_some() {
        return 0;
    }
    let mut all = 0;
    for (dc, dr) in DIRS8 {
        let (mut c, mut r) = (col as i32 + dc, row as i32 + dr);
        let mut run = 0u64;
        while inside(c, r, n, n) && s.at(c as usize, r as usize) == Some(1 - me) {
            run |= 1 << (r as usize * n + c as usize);
            c += dc;
            r += dr;
        }
        if run != 0 && inside(c, r, n, n) && s.at(c as usize, r as usize) == Some(me) {
            all |= run;
        }
    }
    all
}

/// The squares (bit `row × N + col`) where `me` may place.
fn reversi_moves(s: &ReversiState, me: usize) -> u64 {
    let n = s.size();
    let mut moves = 0;
    for r in 0..n {
        for c in 0..n {
            if reversi_flips(s, me, c, r) != 0 {
                moves |= 1 << (r * n + c);
            }
        }
    }
    moves
}

impl Rules for Reversi {
    const RESULTS: &'static [f64] = &[-1.0, 0.0, 1.0];
    const SCORE_DECIDES: bool = true;

    fn key(&self, s: &ReversiState) -> Option<u64> {
        Some(s.key())
    }

    /// "placing on column `c`, row `r` is `r × N + c`; the pass is `N × N`".
    fn cell(&self, _s: &ReversiState, a: Action) -> Option<(usize, usize)> {
        let n = self.size();
        ((a as usize) < n * n).then(|| (a as usize % n, a as usize / n))
    }

    fn check_view(&self, line: &Line<ReversiState>, turn: usize) -> Res {
        view_is_state(line, turn)
    }

    fn check_position(&self, line: &Line<ReversiState>, turn: usize) -> Res {
        let s = &line.states[turn];
        let hist = history(line, turn);
        let n = self.size();
        let pass = (n * n) as Action;
        let [black, white] = s.discs();
        ensure!(
            line,
            turn,
            black & white == 0,
            "a square holds both colours"
        );
        // Disc counts sum to the occupied squares (and the rest are empty).
        let occupied = (0..n * n).filter(|&i| s.at(i % n, i / n).is_some()).count();
        let total = (black | white).count_ones() as usize;
        ensure!(
            line,
            turn,
            total == occupied && s.empties() as usize == n * n - occupied,
            "{total} discs, {occupied} occupied squares, {} empties",
            s.empties()
        );
        // "The start has four discs"; a move puts one disc, a pass none:
        // discs = 4 + placements.
        let placements = hist.iter().filter(|&&a| a != pass).count();
        ensure!(
            line,
            turn,
            total == 4 + placements,
            "{total} discs after {placements} placements"
        );
        // "A pass is always followed by a placement … and the first action is
        // a placement" (module docs, "Game length").
        ensure!(
            line,
            turn,
            hist.first() != Some(&pass),
            "the game opened with a pass"
        );
        ensure!(
            line,
            turn,
            !hist.windows(2).any(|w| w == [pass, pass]),
            "two passes in a row"
        );
        // Every action, pass included, hands the move over: strict
        // alternation, Black first.
        ensure!(
            line,
            turn,
            s.to_move() == hist.len() % 2,
            "seat {} to move after {} actions",
            s.to_move(),
            hist.len()
        );
        // Legal moves: the flanking placements; a player without one must
        // pass; "the game ends when neither player can move".
        let me = s.to_move();
        let mine = reversi_moves(s, me);
        let theirs = reversi_moves(s, 1 - me);
        let mut legal = ActionList::new();
        s.legal_actions(&mut legal);
        let expected: Vec<Action> = if mine != 0 {
            (0..n * n)
                .filter(|&i| mine >> i & 1 == 1)
                .map(|i| i as Action)
                .collect()
        } else if theirs != 0 {
            vec![pass]
        } else {
            Vec::new()
        };
        ensure!(
            line,
            turn,
            legal.as_slice() == expected.as_slice(),
            "legal {legal:?}, expected {expected:?}"
        );
        let expected_turn = if mine == 0 && theirs == 0 {
            Turn::Terminal
        } else {
            Turn::Player(me)
        };
        ensure!(
            line,
            turn,
            s.turn() == expected_turn,
            "turn {:?}, expected {expected_turn:?}",
            s.turn()
        );
        Ok(())
    }

    fn check_step(&self, line: &Line<ReversiState>, turn: usize) -> Res {
        let (b, a, s) = step(line, turn);
        let n = self.size();
        let me = b.to_move();
        let (bd, sd) = (b.discs(), s.discs());
        if a as usize == n * n {
            // A pass puts no disc and turns none.
            ensure!(line, turn, sd == bd, "a pass changed the board");
            return Ok(());
        }
        let (c, r) = (a as usize % n, a as usize / n);
        let flips = reversi_flips(b, me, c, r);
        // "every such flanked line (in all directions at once) is turned
        // over", and a placement must flank at least one line.
        ensure!(line, turn, flips != 0, "placement {a} turns nothing over");
        ensure!(
            line,
            turn,
            sd[me] == bd[me] | flips | 1 << a && sd[1 - me] == bd[1 - me] & !flips,
            "placement {a} turned over {:#x}, expected {flips:#x}",
            bd[1 - me] & !sd[1 - me]
        );
        let k = flips.count_ones();
        ensure!(
            line,
            turn,
            sd[me].count_ones() == bd[me].count_ones() + 1 + k
                && sd[1 - me].count_ones() + k == bd[1 - me].count_ones(),
            "disc counts do not add up"
        );
        Ok(())
    }

    fn check_end(&self, line: &Line<ReversiState>) -> Res {
        let s = line.final_state();
        let [b, w] = s.discs().map(u64::count_ones);
        // "The player with more discs wins; equal counts draw."
        let want = if b > w {
            1.0
        } else if b < w {
            -1.0
        } else {
            0.0
        };
        ensure!(
            line,
            line.turns.len(),
            s.returns(0) == want,
            "Black {b} White {w} but Black's return {}",
            s.returns(0)
        );
        Ok(())
    }
}

// --- Dots-and-Boxes -------------------------------------------------------

/// The four edges of box `(row, col)` from the module docs' action indices:
/// `h r,c = r·C + c`, `v r,c = H + r·(C+1) + c`, `H = (R+1)·C`.
fn box_sides(cols: usize, rows: usize, row: usize, col: usize) -> [usize; 4] {
    let h = (rows + 1) * cols;
    [
        row * cols + col,
        (row + 1) * cols + col,
        h + row * (cols + 1) + col,
        h + row * (cols + 1) + col + 1,
    ]
}

/// Whether box `(row, col)` has all four sides in `edges`.
fn box_closed(edges: u64, cols: usize, rows: usize, row: usize, col: usize) -> bool {
    box_sides(cols, rows, row, col)
        .iter()
        .all(|&e| edges >> e & 1 == 1)
}

/// The number of closed boxes in `edges`.
fn closed_boxes(edges: u64, cols: usize, rows: usize) -> u32 {
    let mut n = 0;
    for r in 0..rows {
        for c in 0..cols {
            n += box_closed(edges, cols, rows, r, c) as u32;
        }
    }
    n
}

impl Rules for DotsAndBoxes {
    const RESULTS: &'static [f64] = &[-1.0, 0.0, 1.0];
    const SCORE_DECIDES: bool = true;

    fn key(&self, s: &DotsAndBoxesState) -> Option<u64> {
        Some(s.key())
    }

    fn check_view(&self, line: &Line<DotsAndBoxesState>, turn: usize) -> Res {
        view_is_state(line, turn)
    }

    fn check_position(&self, line: &Line<DotsAndBoxesState>, turn: usize) -> Res {
        let s = &line.states[turn];
        let plies = history(line, turn).len();
        let (cols, rows) = (self.cols(), self.rows());
        let num_edges = (rows + 1) * cols + rows * (cols + 1);
        // "A move draws one undrawn edge": drawn edges = plies, all on the
        // board.
        ensure!(
            line,
            turn,
            s.edges().count_ones() as usize == plies && s.edges() >> num_edges == 0,
            "{} edges drawn after {plies} plies ({:#x})",
            s.edges().count_ones(),
            s.edges()
        );
        // Boxes owned = boxes with four drawn sides, each owned once.
        let (o0, o1) = (s.owned(0), s.owned(1));
        ensure!(
            line,
            turn,
            o0 & o1 == 0 && (o0 | o1) >> (rows * cols) == 0,
            "box ownership overlaps or leaves the board"
        );
        for r in 0..rows {
            for c in 0..cols {
                let closed = box_closed(s.edges(), cols, rows, r, c);
                let owner = s.owner(r, c);
                ensure!(
                    line,
                    turn,
                    closed == owner.is_some(),
                    "box ({r}, {c}): closed {closed}, owner {owner:?}"
                );
                let bit = 1u32 << (r * cols + c);
                ensure!(
                    line,
                    turn,
                    owner.is_none() || s.owned(owner.unwrap()) & bit != 0,
                    "owner() and owned() disagree on ({r}, {c})"
                );
            }
        }
        // "score is own boxes minus the opponent's, at any time".
        ensure!(
            line,
            turn,
            s.score(0) == Some(s.boxes(0) as i32 - s.boxes(1) as i32),
            "score {:?} for boxes {}-{}",
            s.score(0),
            s.boxes(0),
            s.boxes(1)
        );
        // "The game ends when every edge is drawn."
        let expected_turn = if plies == num_edges {
            Turn::Terminal
        } else {
            Turn::Player(s.to_move())
        };
        ensure!(
            line,
            turn,
            s.turn() == expected_turn,
            "turn {:?}, expected {expected_turn:?}",
            s.turn()
        );
        Ok(())
    }

    fn check_step(&self, line: &Line<DotsAndBoxesState>, turn: usize) -> Res {
        let (b, a, s) = step(line, turn);
        let (cols, rows) = (self.cols(), self.rows());
        let me = b.to_move();
        let before = closed_boxes(b.edges(), cols, rows);
        let after = closed_boxes(s.edges(), cols, rows);
        let completed = after.wrapping_sub(before);
        // "A move draws one undrawn edge": exactly edge `a` is added.
        ensure!(
            line,
            turn,
            !b.has_edge(a as usize) && s.edges() == b.edges() | 1 << a,
            "edge {a} was drawn already or other edges changed"
        );
        ensure!(
            line,
            turn,
            completed <= 2,
            "one edge completed {completed} boxes"
        );
        // "An edge that completes the fourth side of one box, or of two boxes
        // at once, scores them for the mover".
        ensure!(
            line,
            turn,
            s.boxes(me) == b.boxes(me) + completed && s.boxes(1 - me) == b.boxes(1 - me),
            "{completed} boxes completed, the mover went {} -> {}",
            b.boxes(me),
            s.boxes(me)
        );
        // "… and the same player moves again; any other edge passes the turn."
        if !s.is_terminal() {
            let again = s.to_move() == me;
            ensure!(
                line,
                turn,
                again == (completed > 0),
                "completed {completed} boxes, mover moves again: {again}"
            );
        }
        Ok(())
    }

    fn check_end(&self, line: &Line<DotsAndBoxesState>) -> Res {
        let s = line.final_state();
        let t = line.turns.len();
        let (b0, b1) = (s.boxes(0), s.boxes(1));
        // Every box is owned at the end: the final scores sum to the boxes.
        ensure!(
            line,
            t,
            (b0 + b1) as usize == self.cols() * self.rows(),
            "final boxes {b0} + {b1}"
        );
        // "more boxes wins, equal counts … are a draw".
        let want = if b0 > b1 {
            1.0
        } else if b0 < b1 {
            -1.0
        } else {
            0.0
        };
        ensure!(
            line,
            t,
            s.returns(0) == want,
            "boxes {b0}-{b1} but return {}",
            s.returns(0)
        );
        Ok(())
    }
}

// --- Virus ----------------------------------------------------------------

/// The sixteen jump offsets `(dy, dx)` in the module docs' order: row-major,
/// dy then dx from −2 to 2, keeping Chebyshev distance 2.
fn jump_offsets() -> Vec<(i32, i32)> {
    let mut v = Vec::new();
    for dy in -2..=2i32 {
        for dx in -2..=2i32 {
            if dy.abs().max(dx.abs()) == 2 {
                v.push((dy, dx));
            }
        }
    }
    v
}

/// Squares next to square `sq` (sides or corners) on an `n`×`n` board.
fn virus_adjacent(n: usize, sq: usize) -> u64 {
    let (r, c) = ((sq / n) as i32, (sq % n) as i32);
    DIRS8
        .iter()
        .filter(|&&(dc, dr)| inside(c + dc, r + dr, n, n))
        .fold(0, |m, &(dc, dr)| {
            m | 1 << ((r + dr) as usize * n + (c + dc) as usize)
        })
}

/// A Virus move decoded by the module docs' action indices.
#[derive(Debug, PartialEq)]
enum VirusMove {
    Grow(usize),
    Jump(usize, usize),
    Pass,
}

fn virus_decode(n: usize, a: Action) -> Option<VirusMove> {
    let a = a as usize;
    if a < n * n {
        return Some(VirusMove::Grow(a));
    }
    if a == 17 * n * n {
        return Some(VirusMove::Pass);
    }
    if a > 17 * n * n {
        return None;
    }
    let (f, k) = ((a - n * n) / 16, (a - n * n) % 16);
    let (dy, dx) = jump_offsets()[k];
    let (r, c) = ((f / n) as i32 + dy, (f % n) as i32 + dx);
    inside(c, r, n, n).then(|| VirusMove::Jump(f, r as usize * n + c as usize))
}

/// The legal moves of `me`, from the rules: grows to empty squares next to
/// an own piece, jumps two away via an empty square next to both ends, and
/// the pass when there is no grow (and the game is not over).
fn virus_moves(n: usize, pieces: [u64; 2], me: usize) -> Vec<Action> {
    let empty = !(pieces[0] | pieces[1]) & if n == 8 { u64::MAX } else { (1 << (n * n)) - 1 };
    let mut out = Vec::new();
    for sq in 0..n * n {
        if empty >> sq & 1 == 1 && virus_adjacent(n, sq) & pieces[me] != 0 {
            out.push(sq as Action);
        }
    }
    if out.is_empty() {
        return out;
    }
    for (k, (dy, dx)) in jump_offsets().into_iter().enumerate() {
        for f in (0..n * n).filter(|&f| pieces[me] >> f & 1 == 1) {
            let (r, c) = ((f / n) as i32 + dy, (f % n) as i32 + dx);
            if !inside(c, r, n, n) {
                continue;
            }
            let to = r as usize * n + c as usize;
            let via = virus_adjacent(n, f) & virus_adjacent(n, to) & empty;
            if empty >> to & 1 == 1 && via != 0 {
                out.push((n * n + 16 * f + k) as Action);
            }
        }
    }
    out.sort_unstable();
    out
}

impl Rules for Virus {
    const RESULTS: &'static [f64] = &[-1.0, 0.0, 1.0];
    const SCORE_DECIDES: bool = true;

    fn key(&self, s: &VirusState) -> Option<u64> {
        Some(s.key())
    }

    /// A grow or a jump occupies its destination; the pass no square.
    fn cell(&self, _s: &VirusState, a: Action) -> Option<(usize, usize)> {
        let n = self.size();
        match virus_decode(n, a)? {
            VirusMove::Grow(t) | VirusMove::Jump(_, t) => Some((t % n, t / n)),
            VirusMove::Pass => None,
        }
    }

    fn check_view(&self, line: &Line<VirusState>, turn: usize) -> Res {
        view_is_state(line, turn)
    }

    fn check_position(&self, line: &Line<VirusState>, turn: usize) -> Res {
        let s = &line.states[turn];
        let plies = history(line, turn).len();
        let n = self.size();
        let [p0, p1] = s.pieces();
        // Pieces never overlap and stay on the board.
        ensure!(line, turn, p0 & p1 == 0, "a square holds both colours");
        ensure!(
            line,
            turn,
            (p0 | p1) & !s.board() == 0,
            "pieces off the board"
        );
        let shown = (0..n * n).filter(|&i| s.at(i % n, i / n).is_some()).count();
        ensure!(
            line,
            turn,
            shown == (p0 | p1).count_ones() as usize,
            "at() and pieces() disagree"
        );
        // "the players alternate", passes included; plies count every action.
        ensure!(
            line,
            turn,
            s.plies() == plies && s.to_move() == plies % 2,
            "plies {} / seat {} to move after {plies} actions",
            s.plies(),
            s.to_move()
        );
        // "The game ends when neither player can move" or after max-plies
        // actions; "a player with no legal move passes".
        let mine = virus_moves(n, [p0, p1], s.to_move());
        let theirs = virus_moves(n, [p0, p1], 1 - s.to_move());
        let over = plies >= self.max_plies() || (mine.is_empty() && theirs.is_empty());
        let expected_turn = if over {
            Turn::Terminal
        } else {
            Turn::Player(s.to_move())
        };
        ensure!(
            line,
            turn,
            s.turn() == expected_turn,
            "turn {:?}, expected {expected_turn:?}",
            s.turn()
        );
        let expected: Vec<Action> = match (over, mine.is_empty()) {
            (true, _) => Vec::new(),
            (false, true) => vec![s.pass_action()],
            (false, false) => mine,
        };
        let mut legal = ActionList::new();
        s.legal_actions(&mut legal);
        ensure!(
            line,
            turn,
            legal.as_slice() == expected.as_slice(),
            "legal {legal:?}, expected {expected:?}"
        );
        Ok(())
    }

    fn check_step(&self, line: &Line<VirusState>, turn: usize) -> Res {
        let (b, a, s) = step(line, turn);
        let n = self.size();
        let me = b.to_move();
        let (bp, sp) = (b.pieces(), s.pieces());
        let count = |p: [u64; 2], i: usize| p[i].count_ones();
        let mv = virus_decode(n, a);
        let to = match mv {
            Some(VirusMove::Grow(t)) | Some(VirusMove::Jump(_, t)) => t,
            Some(VirusMove::Pass) => {
                ensure!(line, turn, sp == bp, "a pass changed the board");
                return Ok(());
            }
            None => return Err(line.fail(turn, format!("action {a} names no move"))),
        };
        // "every opposing piece adjacent (sides or corners) to the
        // destination changes colour".
        let converted = virus_adjacent(n, to) & bp[1 - me];
        let k = converted.count_ones();
        ensure!(
            line,
            turn,
            sp[1 - me] == bp[1 - me] & !converted,
            "the opponent lost {:#x}, expected {converted:#x}",
            bp[1 - me] & !sp[1 - me]
        );
        if let Some(VirusMove::Jump(from, _)) = mv {
            // A jump: "The origin becomes empty"; own count + conversions.
            ensure!(
                line,
                turn,
                sp[me] == (bp[me] & !(1 << from)) | 1 << to | converted,
                "jump {from}->{to} left the wrong pieces"
            );
            ensure!(
                line,
                turn,
                count(sp, me) == count(bp, me) + k,
                "a jump changed the own count by other than the conversions"
            );
            ensure!(
                line,
                turn,
                count(sp, 0) + count(sp, 1) == count(bp, 0) + count(bp, 1),
                "a jump changed the number of pieces"
            );
        } else {
            // A grow: "the growing piece stays": one more own piece plus the
            // conversions, so the total grows by exactly one.
            ensure!(
                line,
                turn,
                sp[me] == bp[me] | 1 << to | converted,
                "grow to {to} left the wrong pieces"
            );
            ensure!(
                line,
                turn,
                count(sp, me) == count(bp, me) + 1 + k,
                "a grow added other than one piece plus the conversions"
            );
            ensure!(
                line,
                turn,
                count(sp, 0) + count(sp, 1) == count(bp, 0) + count(bp, 1) + 1,
                "a grow did not add exactly one piece"
            );
        }
        Ok(())
    }

    fn check_end(&self, line: &Line<VirusState>) -> Res {
        let s = line.final_state();
        let [b, w] = s.pieces().map(u64::count_ones);
        // "the player with more pieces wins; equal counts draw".
        let want = if b > w {
            1.0
        } else if b < w {
            -1.0
        } else {
            0.0
        };
        ensure!(
            line,
            line.turns.len(),
            s.returns(0) == want,
            "pieces {b}-{w} but return {}",
            s.returns(0)
        );
        Ok(())
    }
}

// --- Breakthrough ---------------------------------------------------------

/// Breakthrough's action index: `((square × 6) + direction) × 2 + capture`
/// (the module docs); the square reached, from the directions' offsets.
fn breakthrough_reached(s: &BreakthroughState, a: Action) -> Option<(usize, usize)> {
    const OFFSETS: [(i32, i32); 6] = [(1, -1), (1, 0), (1, 1), (-1, -1), (-1, 0), (-1, 1)];
    let (c, a) = (s.columns(), a as usize);
    let (from, (dr, dc)) = (a / 12, OFFSETS[a / 2 % 6]);
    let (col, row) = ((from % c) as i32 + dc, (from / c) as i32 + dr);
    inside(col, row, c, s.rows()).then_some((col as usize, row as usize))
}

impl Rules for Breakthrough {
    const RESULTS: &'static [f64] = &[-1.0, 1.0];
    const SCORE_DECIDES: bool = false;

    fn key(&self, s: &BreakthroughState) -> Option<u64> {
        Some(s.key())
    }

    /// A move occupies the square its pawn reaches.
    fn cell(&self, s: &BreakthroughState, a: Action) -> Option<(usize, usize)> {
        breakthrough_reached(s, a)
    }

    fn check_view(&self, line: &Line<BreakthroughState>, turn: usize) -> Res {
        view_is_state(line, turn)
    }

    fn check_position(&self, line: &Line<BreakthroughState>, turn: usize) -> Res {
        let s = &line.states[turn];
        let [b, w] = s.pieces();
        let n = self.columns() * self.rows();
        ensure!(line, turn, b & w == 0, "a square holds both colours");
        ensure!(
            line,
            turn,
            n == 64 || (b | w) >> n == 0,
            "pawns off the board"
        );
        let shown = (0..n).filter(|&i| s.at(i % self.columns(), i / self.columns()).is_some());
        ensure!(
            line,
            turn,
            shown.count() == (b | w).count_ones() as usize,
            "at() and pieces() disagree"
        );
        // Black moves first; the players alternate.
        ensure!(
            line,
            turn,
            s.to_move() == turn % 2,
            "seat {} to move at turn {turn}",
            s.to_move()
        );
        Ok(())
    }

    /// One of the mover's pawns goes one row forward (Black down, White
    /// up) to a square it did not hold; an opposing pawn there is taken,
    /// exactly when the capture bit is set.
    fn check_step(&self, line: &Line<BreakthroughState>, turn: usize) -> Res {
        let (before, a, after) = step(line, turn);
        let me = before.to_move();
        let c = self.columns();
        let (col, row) = breakthrough_reached(before, a).unwrap();
        let from = a as usize / 12;
        let forward = if me == 0 { 1 } else { -1 };
        ensure!(
            line,
            turn,
            row as i32 - (from / c) as i32 == forward,
            "not one row forward"
        );
        ensure!(
            line,
            turn,
            before.at(from % c, from / c) == Some(me),
            "no own pawn moved"
        );
        ensure!(
            line,
            turn,
            after.at(col, row) == Some(me) && after.at(from % c, from / c).is_none(),
            "the pawn did not arrive"
        );
        let took = before.at(col, row) == Some(1 - me);
        ensure!(
            line,
            turn,
            took == (a & 1 == 1),
            "capture bit {} but took {took}",
            a & 1
        );
        ensure!(
            line,
            turn,
            took || before.at(col, row).is_none(),
            "moved onto a pawn"
        );
        ensure!(line, turn, !(took && from % c == col), "a straight capture");
        let lost = before.pieces()[1 - me].count_ones() - after.pieces()[1 - me].count_ones();
        ensure!(line, turn, lost == u32::from(took), "{lost} pawns lost");
        ensure!(
            line,
            turn,
            before.pieces()[me].count_ones() == after.pieces()[me].count_ones(),
            "own pawns changed"
        );
        Ok(())
    }

    /// The winner has a pawn on the far row or the loser has none.
    fn check_end(&self, line: &Line<BreakthroughState>) -> Res {
        let s = line.final_state();
        let t = line.turns.len();
        if !s.is_terminal() {
            return Ok(());
        }
        let w = s.winner().unwrap();
        let goal = if w == 0 { self.rows() - 1 } else { 0 };
        let reached = (0..self.columns()).any(|col| s.at(col, goal) == Some(w));
        ensure!(
            line,
            t,
            reached || s.pieces()[1 - w] == 0,
            "{w} won without breaking through or capturing all"
        );
        ensure!(
            line,
            t,
            s.returns(w) == 1.0 && s.returns(1 - w) == -1.0,
            "returns"
        );
        Ok(())
    }
}

// --- Pig ------------------------------------------------------------------

impl Rules for Pig {
    const RESULTS: &'static [f64] = &[-1.0, 0.0, 1.0];
    // A draw at the horizon keeps whatever margin was banked.
    const SCORE_DECIDES: bool = false;

    fn check_view(&self, line: &Line<PigState>, turn: usize) -> Res {
        view_is_state(line, turn)
    }

    fn check_position(&self, line: &Line<PigState>, turn: usize) -> Res {
        let s = &line.states[turn];
        let target = self.target();
        let (b0, b1) = (s.banked(0), s.banked(1));
        // "score is own banked points minus the opponent's".
        ensure!(
            line,
            turn,
            s.score(0) == Some(b0 as i32 - b1 as i32),
            "score {:?} for banked {b0}/{b1}",
            s.score(0)
        );
        // "As soon as your banked points plus the turn total reach the target
        // … you win": no one else reaches it, and no one is past it unnoticed.
        match s.winner() {
            Some(w) => ensure!(
                line,
                turn,
                s.banked(w) >= target && s.banked(1 - w) < target,
                "winner {w} with banked {b0}/{b1}"
            ),
            None => ensure!(
                line,
                turn,
                b0 < target && b1 < target && s.banked(s.to_move()) + s.turn_total() < target,
                "banked {b0}/{b1} + turn {} reach {target} with no winner",
                s.turn_total()
            ),
        }
        // "If horizon turns end without a winner the game is a draw".
        ensure!(
            line,
            turn,
            s.turns() <= self.horizon(),
            "{} turns past the horizon",
            s.turns()
        );
        let roll_pending = history(line, turn).last() == Some(&ROLL);
        let expected_turn = if s.winner().is_some() || s.turns() >= self.horizon() {
            Turn::Terminal
        } else if roll_pending {
            Turn::Chance
        } else {
            Turn::Player(s.to_move())
        };
        ensure!(
            line,
            turn,
            s.turn() == expected_turn,
            "turn {:?}, expected {expected_turn:?}",
            s.turn()
        );
        if expected_turn == Turn::Chance {
            // "a fair die is thrown".
            let mut out = Vec::new();
            s.chance_outcomes(&mut out);
            let fair: Vec<(Action, f64)> = (1..=6).map(|f| (f + 1, 1.0 / 6.0)).collect();
            ensure!(line, turn, out == fair, "die outcomes {out:?}");
        }
        Ok(())
    }

    fn check_step(&self, line: &Line<PigState>, turn: usize) -> Res {
        let (b, a, s) = step(line, turn);
        let p = b.to_move();
        let banked = |x: &PigState| [x.banked(0), x.banked(1)];
        // Banked points never go down.
        ensure!(
            line,
            turn,
            s.banked(0) >= b.banked(0) && s.banked(1) >= b.banked(1),
            "banked points went down"
        );
        match (b.turn(), a) {
            (Turn::Player(_), ROLL) => {
                ensure!(
                    line,
                    turn,
                    banked(s) == banked(b) && s.turn_total() == b.turn_total() && s.to_move() == p,
                    "a roll changed the totals"
                );
            }
            (Turn::Player(_), HOLD) => {
                // "Holding banks the turn total and passes the turn": only the
                // holder's total changes.
                let mut want = banked(b);
                want[p] += b.turn_total();
                ensure!(
                    line,
                    turn,
                    banked(s) == want,
                    "hold: banked {:?}, expected {want:?}",
                    banked(s)
                );
                ensure!(
                    line,
                    turn,
                    s.turn_total() == 0 && s.to_move() == 1 - p && s.turns() == b.turns() + 1,
                    "hold did not pass the turn"
                );
            }
            (Turn::Chance, 2) => {
                // "a 1 loses the turn total and passes the turn".
                ensure!(
                    line,
                    turn,
                    banked(s) == banked(b)
                        && s.turn_total() == 0
                        && s.to_move() == 1 - p
                        && s.turns() == b.turns() + 1,
                    "a 1 did not end the turn"
                );
            }
            (Turn::Chance, face) if (3..=7).contains(&face) => {
                // "2–6 adds the face to the turn total and you choose again",
                // unless that reaches the target.
                let face = (face - 1) as u32;
                let reach = b.banked(p) + b.turn_total() + face;
                if reach >= self.target() {
                    ensure!(
                        line,
                        turn,
                        s.winner() == Some(p)
                            && s.banked(p) == reach
                            && s.banked(1 - p) == b.banked(1 - p),
                        "reaching the target did not bank and win"
                    );
                } else {
                    ensure!(
                        line,
                        turn,
                        banked(s) == banked(b)
                            && s.turn_total() == b.turn_total() + face
                            && s.to_move() == p
                            && s.turn() == Turn::Player(p),
                        "face {face} not added to the turn total"
                    );
                }
            }
            (t, _) => return Err(line.fail(turn, format!("action {a} at {t:?}"))),
        }
        Ok(())
    }

    fn check_end(&self, line: &Line<PigState>) -> Res {
        let s = line.final_state();
        let want = match s.winner() {
            Some(0) => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
        ensure!(
            line,
            line.turns.len(),
            s.returns(0) == want,
            "winner {:?} but return {}",
            s.winner(),
            s.returns(0)
        );
        ensure!(
            line,
            line.turns.len(),
            s.winner().is_some() || s.turns() == self.horizon(),
            "a draw before the horizon"
        );
        Ok(())
    }
}

// --- Kuhn poker -----------------------------------------------------------

impl Rules for KuhnPoker {
    const RESULTS: &'static [f64] = &[-2.0, -1.0, 1.0, 2.0];
    const SCORE_DECIDES: bool = true;

    fn check_view(&self, line: &Line<KuhnState>, turn: usize) -> Res {
        // "A player sees only its own card and the betting".
        let s = &line.states[turn];
        for p in 0..2 {
            let v = s.view(p);
            ensure!(
                line,
                turn,
                v.player == p && v.card == s.card(p) && v.betting == s.betting(),
                "seat {p}'s view {v:?}"
            );
        }
        Ok(())
    }

    fn check_position(&self, line: &Line<KuhnState>, turn: usize) -> Res {
        let s = &line.states[turn];
        let plies = history(line, turn).len();
        let mut out = Vec::new();
        s.chance_outcomes(&mut out);
        match plies {
            0 => {
                // "Chance deals one card to seat 0": J, Q or K alike.
                let want: Vec<(Action, f64)> = (0..3).map(|c| (c, 1.0 / 3.0)).collect();
                ensure!(
                    line,
                    turn,
                    s.turn() == Turn::Chance && out == want,
                    "first deal {out:?}"
                );
            }
            1 => {
                // "then one of the two left to seat 1".
                let c0 = s.card(0).map(|c| c.0 as Action);
                let want: Vec<(Action, f64)> = (0..3)
                    .filter(|&c| Some(c) != c0)
                    .map(|c| (c, 0.5))
                    .collect();
                ensure!(
                    line,
                    turn,
                    c0.is_some() && s.card(1).is_none() && s.turn() == Turn::Chance && out == want,
                    "second deal {out:?} after {c0:?}"
                );
            }
            _ => {
                // Each player holds a distinct card.
                let (c0, c1) = (s.card(0), s.card(1));
                ensure!(
                    line,
                    turn,
                    c0.is_some() && c1.is_some() && c0 != c1,
                    "cards {c0:?} {c1:?}"
                );
                ensure!(
                    line,
                    turn,
                    c0.unwrap().0 < 3 && c1.unwrap().0 < 3,
                    "cards {c0:?} {c1:?}"
                );
                let bets = s.betting();
                ensure!(
                    line,
                    turn,
                    bets.len() == plies - 2,
                    "{} betting actions after {plies}",
                    bets.len()
                );
                // Seat 0 acts first and the seats alternate.
                if !bets.is_over() {
                    ensure!(
                        line,
                        turn,
                        s.turn() == Turn::Player(bets.len() % 2),
                        "turn {:?} after {} bets",
                        s.turn(),
                        bets.len()
                    );
                }
            }
        }
        Ok(())
    }

    fn check_step(&self, line: &Line<KuhnState>, turn: usize) -> Res {
        let (b, a, s) = step(line, turn);
        if b.turn() == Turn::Chance {
            return Ok(());
        }
        // A betting action is appended to the betting, the cards stay.
        let bets = s.betting();
        ensure!(
            line,
            turn,
            bets.len() == b.betting().len() + 1 && bets.get(bets.len() - 1) == a,
            "betting {bets} after {a}"
        );
        ensure!(
            line,
            turn,
            s.card(0) == b.card(0) && s.card(1) == b.card(1),
            "the cards changed"
        );
        Ok(())
    }

    fn check_end(&self, line: &Line<KuhnState>) -> Res {
        let s = line.final_state();
        let t = line.turns.len();
        let bets: Vec<Action> = s.betting().actions().collect();
        let high = if s.card(0) > s.card(1) { 1.0 } else { -1.0 };
        // The module docs' table of outcomes (seat 0's chips).
        let want = match bets.as_slice() {
            [PASS, PASS] => high,
            [PASS, BET, PASS] => -1.0,
            [PASS, BET, BET] => 2.0 * high,
            [BET, PASS] => 1.0,
            [BET, BET] => 2.0 * high,
            other => return Err(line.fail(t, format!("the game ended on betting {other:?}"))),
        };
        ensure!(
            line,
            t,
            s.returns(0) == want,
            "betting {bets:?}, cards {:?}/{:?}: return {}, expected {want}",
            s.card(0),
            s.card(1),
            s.returns(0)
        );
        // Hidden information: a deal that gives the other seat the unseen
        // card, with the same betting, looks the same to this seat and
        // different to the other.
        let (c0, c1) = (
            s.card(0).unwrap().0 as Action,
            s.card(1).unwrap().0 as Action,
        );
        let unseen = 3 - c0 - c1;
        for (seat, deal) in [(0, [c0, unseen]), (1, [unseen, c1])] {
            let mut alt = deal.to_vec();
            alt.extend_from_slice(&bets);
            let other = replay(self, &alt)
                .map_err(|e| line.fail(t, format!("alternative deal {alt:?}: {e}")))?;
            ensure!(
                line,
                t,
                other.view(seat) == s.view(seat),
                "seat {seat} sees the other seat's card"
            );
            ensure!(
                line,
                t,
                other.view(1 - seat) != s.view(1 - seat),
                "seat {} does not see its own card",
                1 - seat
            );
        }
        Ok(())
    }
}

// --- Goofspiel ------------------------------------------------------------

/// What a Goofspiel history adds up to: bids per seat, prizes turned up,
/// points won, the value of tied prizes.
struct GoofTally {
    bids: [Vec<Action>; 2],
    prizes: Vec<Action>,
    points: [u32; 2],
    discarded: u32,
}

/// Reads a history by the module docs' structure: each round is a prize
/// (chance) then one bid per seat.
fn goof_tally(hist: &[Action]) -> GoofTally {
    let mut t = GoofTally {
        bids: [Vec::new(), Vec::new()],
        prizes: Vec::new(),
        points: [0, 0],
        discarded: 0,
    };
    for round in hist.chunks(3) {
        t.prizes.push(round[0]);
        if let [prize, a, b] = *round {
            t.bids[0].push(a);
            t.bids[1].push(b);
            let value = prize as u32 + 1;
            // "The higher bid wins the prize's value in points; equal bids
            // discard the prize."
            match a.cmp(&b) {
                std::cmp::Ordering::Greater => t.points[0] += value,
                std::cmp::Ordering::Less => t.points[1] += value,
                std::cmp::Ordering::Equal => t.discarded += value,
            }
        }
    }
    t
}

impl Rules for Goofspiel {
    const RESULTS: &'static [f64] = &[-1.0, 0.0, 1.0];
    const SCORE_DECIDES: bool = true;

    fn check_view(&self, line: &Line<GoofspielState>, turn: usize) -> Res {
        // "The view is the whole state".
        view_is_state(line, turn)
    }

    fn check_position(&self, line: &Line<GoofspielState>, turn: usize) -> Res {
        let s = &line.states[turn];
        let n = self.cards();
        let all: u16 = ((1u32 << n) - 1) as u16;
        let t = goof_tally(history(line, turn));
        let mask = |cards: &[Action]| cards.iter().fold(0u16, |m, &c| m | 1 << c);
        for seat in 0..2 {
            // "Bid cards are gone for good": each card bid at most once, and
            // the hand is what was not bid.
            let bids = &t.bids[seat];
            ensure!(
                line,
                turn,
                mask(bids).count_ones() as usize == bids.len(),
                "seat {seat} bid a card twice: {bids:?}"
            );
            ensure!(
                line,
                turn,
                s.hand(seat) == all & !mask(bids),
                "seat {seat} holds {:#b} after bidding {bids:?}",
                s.hand(seat)
            );
            ensure!(
                line,
                turn,
                s.points(seat) == t.points[seat],
                "seat {seat} has {} points, expected {}",
                s.points(seat),
                t.points[seat]
            );
        }
        // "chance turns up one prize card, uniformly among those not yet
        // shown".
        ensure!(
            line,
            turn,
            mask(&t.prizes).count_ones() as usize == t.prizes.len()
                && s.deck() == all & !mask(&t.prizes),
            "deck {:#b} after prizes {:?}",
            s.deck(),
            t.prizes
        );
        let pending =
            (t.prizes.len() > t.bids[0].len()).then(|| *t.prizes.last().unwrap() as u32 + 1);
        ensure!(
            line,
            turn,
            s.prize() == pending,
            "prize up {:?}, expected {pending:?}",
            s.prize()
        );
        // The prize total is conserved: won + discarded + up for bids + still
        // in the deck = 1 + … + N.
        let in_deck: u32 = (0..n)
            .filter(|&c| s.deck() >> c & 1 == 1)
            .map(|c| c as u32 + 1)
            .sum();
        let sum = s.points(0) + s.points(1) + t.discarded + s.prize().unwrap_or(0) + in_deck;
        ensure!(
            line,
            turn,
            sum as usize == n * (n + 1) / 2,
            "prizes add up to {sum}"
        );
        let expected_turn = if pending.is_some() {
            Turn::Simultaneous
        } else if s.deck() == 0 {
            Turn::Terminal
        } else {
            Turn::Chance
        };
        ensure!(
            line,
            turn,
            s.turn() == expected_turn,
            "turn {:?}, expected {expected_turn:?}",
            s.turn()
        );
        Ok(())
    }

    fn check_step(&self, line: &Line<GoofspielState>, turn: usize) -> Res {
        let b = &line.states[turn];
        let s = &line.states[turn + 1];
        let joint = &line.turns[turn];
        // A round is one chance action then one joint action.
        let shape_ok = match b.turn() {
            Turn::Chance => joint.len() == 1 && s.turn() == Turn::Simultaneous,
            Turn::Simultaneous => joint.len() == 2 && s.turn() != Turn::Simultaneous,
            _ => false,
        };
        ensure!(
            line,
            turn,
            shape_ok,
            "turn {:?} played {joint:?} and led to {:?}",
            b.turn(),
            s.turn()
        );
        Ok(())
    }

    fn check_end(&self, line: &Line<GoofspielState>) -> Res {
        let s = line.final_state();
        let t = line.turns.len();
        // "After N rounds": a game has exactly 3N action indices.
        ensure!(
            line,
            t,
            line.actions.len() == 3 * self.cards(),
            "{} actions for {} cards",
            line.actions.len(),
            self.cards()
        );
        let (p0, p1) = (s.points(0), s.points(1));
        let want = if p0 > p1 {
            1.0
        } else if p0 < p1 {
            -1.0
        } else {
            0.0
        };
        ensure!(
            line,
            t,
            s.returns(0) == want,
            "points {p0}-{p1} but return {}",
            s.returns(0)
        );
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Property 1: the State trait's promises, for every game
// ---------------------------------------------------------------------------

/// The sign of a return: 1, 0 or −1.
fn sign(x: f64) -> i32 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

fn sorted_below(list: &[Action], limit: usize) -> bool {
    list.windows(2).all(|w| w[0] < w[1]) && list.iter().all(|&a| (a as usize) < limit)
}

/// Checks the notation of `a` in `s` round-trips, upper-cased and as `#a`.
fn check_notation<S: State>(line: &Line<S>, turn: usize, s: &S, a: Action) -> Res {
    let text = s.action_to_string(a);
    for form in [text.clone(), text.to_uppercase(), format!("#{a}")] {
        ensure!(
            line,
            turn,
            s.parse_action(&form) == Ok(a),
            "'{form}' (action {a}) parses to {:?}",
            s.parse_action(&form)
        );
    }
    Ok(())
}

/// Checks that `try_apply(a)` is refused and leaves the state unchanged.
fn check_refused<S: State + PartialEq>(line: &Line<S>, turn: usize, s: &S, a: Action) -> Res {
    let mut t = s.clone();
    let r = t.try_apply(a);
    ensure!(
        line,
        turn,
        r.is_err(),
        "try_apply accepted non-legal action {a} at {:?}",
        s.turn()
    );
    ensure!(
        line,
        turn,
        t == *s,
        "a refused try_apply({a}) changed the state"
    );
    Ok(())
}

fn generic_state<G: Rules>(game: &G, line: &Line<G::State>, turn: usize, script: &Script) -> Res {
    let s = &line.states[turn];
    let (np, na) = (game.num_players(), game.num_actions());
    let mut legal = ActionList::new();
    s.legal_actions(&mut legal);
    let mut outcomes = Vec::new();
    s.chance_outcomes(&mut outcomes);
    let of = |p: usize| {
        let mut l = ActionList::new();
        s.legal_actions_of(p, &mut l);
        l
    };
    ensure!(
        line,
        turn,
        sorted_below(&legal, na),
        "legal actions {legal:?} not increasing or not below {na}"
    );
    ensure!(
        line,
        turn,
        s.is_terminal() == (s.turn() == Turn::Terminal),
        "is_terminal disagrees with turn"
    );
    // "Empty exactly when the state is terminal or simultaneous."
    let silent = matches!(s.turn(), Turn::Terminal | Turn::Simultaneous);
    ensure!(
        line,
        turn,
        legal.is_empty() == silent,
        "{} legal actions at {:?}",
        legal.len(),
        s.turn()
    );
    // Chance outcomes exist only at chance nodes.
    ensure!(
        line,
        turn,
        outcomes.is_empty() == (s.turn() != Turn::Chance),
        "{} chance outcomes at {:?}",
        outcomes.len(),
        s.turn()
    );
    match s.turn() {
        Turn::Terminal => {
            for p in 0..np {
                ensure!(
                    line,
                    turn,
                    of(p).is_empty(),
                    "seat {p} has actions after the end"
                );
            }
            check_refused(line, turn, s, 0)?;
        }
        Turn::Player(p) => {
            ensure!(line, turn, p < np, "seat {p} of {np} to move");
            for q in 0..np {
                let want: &[Action] = if q == p { &legal } else { &[] };
                ensure!(
                    line,
                    turn,
                    of(q).as_slice() == want,
                    "legal_actions_of({q}) = {:?} with seat {p} to move",
                    of(q)
                );
            }
        }
        Turn::Chance => {
            // Probabilities positive, summing to 1, over the legal outcomes.
            let total: f64 = outcomes.iter().map(|o| o.1).sum();
            ensure!(
                line,
                turn,
                outcomes.iter().all(|o| o.1 > 0.0) && (total - 1.0).abs() < 1e-9,
                "chance outcomes {outcomes:?} sum to {total}"
            );
            let listed: Vec<Action> = outcomes.iter().map(|o| o.0).collect();
            ensure!(
                line,
                turn,
                listed.as_slice() == legal.as_slice(),
                "outcomes {listed:?}, legal {legal:?}"
            );
        }
        Turn::Simultaneous => {
            for p in 0..np {
                let l = of(p);
                ensure!(
                    line,
                    turn,
                    !l.is_empty() && sorted_below(&l, na),
                    "seat {p}'s actions {l:?} at a simultaneous turn"
                );
                for &a in &l {
                    check_notation(line, turn, s, a)?;
                }
            }
            check_refused(line, turn, s, of(0)[0])?;
        }
    }
    // Returns are 0 before the end; margins are opposite.
    if !s.is_terminal() {
        for p in 0..np {
            ensure!(
                line,
                turn,
                s.returns(p) == 0.0,
                "seat {p}'s return {} before the end",
                s.returns(p)
            );
        }
    }
    if let (Some(m0), Some(m1)) = (s.score(0), s.score(1)) {
        ensure!(line, turn, m0 == -m1, "score margins {m0} and {m1}");
    }
    // try_apply accepts every legal action (a spread of them on long lists)
    // with the result of apply, and notation round-trips.
    let stride = legal.len().div_ceil(24).max(1);
    for (i, &a) in legal.iter().enumerate() {
        check_notation(line, turn, s, a)?;
        if i % stride != 0 && i + 1 != legal.len() {
            continue;
        }
        let (mut t, mut u) = (s.clone(), s.clone());
        ensure!(
            line,
            turn,
            t.try_apply(a).is_ok(),
            "try_apply refused legal action {a}"
        );
        u.apply(a);
        ensure!(line, turn, t == u, "try_apply({a}) and apply({a}) differ");
    }
    // …and refuses non-legal ones: the first and a drawn index outside the
    // legal list, and the first index past num_actions.
    if !legal.is_empty() {
        let first_out = (0..na as Action).find(|a| !legal.contains(a));
        let drawn = (script.pick((1 << 20) | turn) as usize % na) as Action;
        for a in first_out.into_iter().chain([drawn, na as Action]) {
            if !legal.contains(&a) {
                check_refused(line, turn, s, a)?;
            }
        }
    }
    game.check_view(line, turn)?;
    Ok(())
}

fn generic_invariants<G: Rules>(game: &G, script: &Script) -> Res {
    let line = play(game, script);
    for turn in 0..line.states.len() {
        generic_state(game, &line, turn, script)?;
        if turn < line.turns.len() {
            // A Searchable key changes with every move.
            let (k0, k1) = (
                game.key(&line.states[turn]),
                game.key(&line.states[turn + 1]),
            );
            ensure!(
                line,
                turn,
                k0.is_none() || k0 != k1,
                "the key did not change after a move"
            );
        }
    }
    // The game ends within max_game_length actions.
    let t = line.turns.len();
    let end = line.final_state();
    ensure!(
        line,
        t,
        line.actions.len() <= game.max_game_length(),
        "{} actions > max_game_length {}",
        line.actions.len(),
        game.max_game_length()
    );
    ensure!(
        line,
        t,
        end.is_terminal(),
        "the game stopped before its end (no move could be chosen)"
    );
    // Zero-sum, in the game's result set; the score margin agrees in sign.
    let r: Vec<f64> = (0..game.num_players()).map(|p| end.returns(p)).collect();
    ensure!(
        line,
        t,
        r.iter().sum::<f64>().abs() < 1e-9,
        "returns {r:?} do not sum to 0"
    );
    for (p, &rp) in r.iter().enumerate() {
        ensure!(
            line,
            t,
            G::RESULTS.contains(&rp),
            "seat {p}'s return {rp} not in {:?}",
            G::RESULTS
        );
        if let Some(m) = end.score(p) {
            let agree = m.signum() == sign(rp);
            let must = G::SCORE_DECIDES || rp != 0.0;
            ensure!(
                line,
                t,
                !must || agree,
                "seat {p}: score {m} but return {rp}"
            );
        }
    }
    Ok(())
}

/// Property 1, `CASES` cases per game spec.
#[test]
fn generic_invariants_hold_at_every_step() {
    run_property(
        "generic invariants",
        CASES,
        |game, script| with_game!(game, g => generic_invariants(g, script)),
    );
}

// ---------------------------------------------------------------------------
// Property 2: each game's own rules
// ---------------------------------------------------------------------------

fn game_rules<G: Rules>(game: &G, script: &Script) -> Res {
    let line = play(game, script);
    for turn in 0..line.states.len() {
        game.check_position(&line, turn)?;
        // `action_cell`: the square each legal action occupies, per the
        // game's notation and action-index docs.
        let s = &line.states[turn];
        let mut legal = ActionList::new();
        s.legal_actions(&mut legal);
        for &a in &legal {
            let (cell, want) = (s.action_cell(a), game.cell(s, a));
            ensure!(
                line,
                turn,
                cell == want,
                "action_cell({a}) = {cell:?}, expected {want:?}"
            );
        }
        if turn < line.turns.len() {
            game.check_step(&line, turn)?;
        }
    }
    if line.final_state().is_terminal() {
        game.check_end(&line)?;
    }
    Ok(())
}

/// Property 2, `CASES` cases per game spec.
#[test]
fn game_rules_hold_at_every_step() {
    run_property(
        "game rules",
        CASES,
        |game, script| with_game!(game, g => game_rules(g, script)),
    );
}

// ---------------------------------------------------------------------------
// Property 3: replay
// ---------------------------------------------------------------------------

fn replays<G: Rules>(game: &G, script: &Script) -> Res {
    let line = play(game, script);
    let t = line.turns.len();
    // The whole game replays to the same final state.
    match replay(game, &line.actions) {
        Ok(s) => ensure!(
            line,
            t,
            s == *line.final_state(),
            "replay ends in a different state:\n{s}"
        ),
        Err(e) => return Err(line.fail(t, format!("replay refused the game: {e}"))),
    }
    // A prefix ending at a turn boundary replays to the state recorded there.
    let k = script.pick(1 << 21) as usize % line.states.len();
    match replay(game, &line.actions[..line.starts[k]]) {
        Ok(s) => ensure!(
            line,
            k,
            s == line.states[k],
            "replay of the first {k} turns differs"
        ),
        Err(e) => return Err(line.fail(k, format!("replay refused a prefix: {e}"))),
    }
    // An action past the end is refused.
    if line.final_state().is_terminal() {
        let mut longer = line.actions.clone();
        longer.push(0);
        ensure!(
            line,
            t,
            replay(game, &longer).is_err(),
            "replay accepted an action after the end"
        );
    }
    // An illegal action at a single-action turn is refused, naming its ply.
    if k < t && line.turns[k].len() == 1 {
        let s = &line.states[k];
        let mut legal = ActionList::new();
        s.legal_actions(&mut legal);
        if let Some(bad) = (0..=game.num_actions() as Action).find(|a| !legal.contains(a)) {
            let mut wrong = line.actions[..line.starts[k]].to_vec();
            wrong.push(bad);
            let ply = format!("ply {}:", wrong.len());
            match replay(game, &wrong) {
                Ok(_) => return Err(line.fail(k, format!("replay accepted illegal action {bad}"))),
                Err(e) => ensure!(
                    line,
                    k,
                    e.starts_with(&ply),
                    "replay's error '{e}' does not name {ply}"
                ),
            }
        }
    }
    Ok(())
}

/// Property 3, `CASES` cases per game spec.
#[test]
fn replay_reproduces_the_game() {
    run_property(
        "replay",
        CASES,
        |game, script| with_game!(game, g => replays(g, script)),
    );
}

// ---------------------------------------------------------------------------
// Property 4: transpositions and keys (Searchable games)
// ---------------------------------------------------------------------------

/// Swaps moves `i < j` of the line (both one-action turns) and plays turns
/// `i..=j` again from state `i`; `None` if a move is then illegal or the game
/// ends early.
fn swapped<S: State>(line: &Line<S>, i: usize, j: usize) -> Option<S> {
    let mut s = line.states[i].clone();
    let mut legal = ActionList::new();
    for k in i..=j {
        let a = if k == i {
            line.turns[j][0]
        } else if k == j {
            line.turns[i][0]
        } else {
            line.turns[k][0]
        };
        legal.clear();
        s.legal_actions(&mut legal);
        if !legal.contains(&a) {
            return None;
        }
        s.apply(a);
    }
    Some(s)
}

/// Tries every swap of two moves at most six turns apart; counts the
/// transpositions found in `found`.
fn transpositions<G: Rules>(game: &G, script: &Script, found: &Cell<usize>) -> Res {
    let line = play(game, script);
    if game.key(&line.states[0]).is_none() {
        return Ok(());
    }
    for j in 0..line.turns.len() {
        for i in j.saturating_sub(6)..j {
            if line.turns[i] == line.turns[j] {
                continue;
            }
            let Some(s) = swapped(&line, i, j) else {
                continue;
            };
            let orig = &line.states[j + 1];
            let (ks, ko) = (game.key(&s), game.key(orig));
            if s == *orig {
                // "Equal positions give equal keys."
                found.set(found.get() + 1);
                ensure!(
                    line,
                    j,
                    ks == ko,
                    "turns {i} and {j} swapped reach the same position with another key"
                );
            } else {
                // "distinct positions collide rarely": at 64 bits, never in
                // the few thousand pairs compared here.
                ensure!(
                    line,
                    j,
                    ks != ko,
                    "turns {i} and {j} swapped reach a different position with the same key:\n{s}"
                );
            }
        }
    }
    Ok(())
}

/// Property 4, `CASES` cases per game spec (only the Searchable games do any
/// work); Tic-Tac-Toe and Connect-4 must have shown transpositions.
#[test]
fn transpositions_share_a_key() {
    let found = Cell::new(0);
    let mut per_game: Vec<(String, usize)> = Vec::new();
    for spec in SPECS {
        let before = found.get();
        let game = AnyGame::parse(spec).unwrap();
        let config = Config {
            cases: CASES,
            failure_persistence: None,
            rng_algorithm: RngAlgorithm::ChaCha,
            rng_seed: RngSeed::Fixed(0x7A05 + per_game.len() as u64),
            ..Config::default()
        };
        let mut runner = TestRunner::new(config);
        let run = runner.run(
            &scripts(),
            |script| with_game!(&game, g => transpositions(g, &script, &found)),
        );
        if let Err(e) = run {
            panic!("transpositions, {spec}: {e}");
        }
        per_game.push((spec.to_string(), found.get() - before));
    }
    eprintln!("transpositions found per game: {per_game:?}");
    for (spec, n) in &per_game {
        if spec.starts_with("tictactoe") || spec.starts_with("connect4") {
            assert!(*n > 0, "{spec}: no transposition found in {CASES} games");
        }
    }
}

// ---------------------------------------------------------------------------
// Fixed cases
// ---------------------------------------------------------------------------

/// Every registered game is among the specs the properties play, and each
/// spec is canonical-stable.
#[test]
fn specs_cover_every_registered_game() {
    for info in games() {
        assert!(
            SPECS.iter().any(|s| s.split(':').next() == Some(info.name)),
            "{} is not played by the properties",
            info.name
        );
    }
    for spec in SPECS {
        let g = AnyGame::parse(spec).unwrap();
        assert_eq!(AnyGame::parse(&g.spec()).unwrap().spec(), g.spec());
    }
}

/// Known transpositions: the same position by two move orders has one key;
/// the same squares with the owners exchanged have different keys.
#[test]
fn known_transpositions_share_keys() {
    let ttt = |moves: &[Action]| replay(&TicTacToe, moves).unwrap();
    // X a1, O b2, X c3 against X c3, O b2, X a1.
    assert_eq!(ttt(&[0, 4, 8]), ttt(&[8, 4, 0]));
    assert_eq!(ttt(&[0, 4, 8]).key(), ttt(&[8, 4, 0]).key());
    assert_ne!(ttt(&[0, 4]).key(), ttt(&[4, 0]).key());
    let c4 = Connect4::new(7, 6).unwrap();
    let a = c4.state_from_moves("1234").unwrap();
    let b = c4.state_from_moves("3214").unwrap();
    assert_eq!(a, b);
    assert_eq!(a.key(), b.key());
    assert_ne!(
        c4.state_from_moves("12").unwrap().key(),
        c4.state_from_moves("21").unwrap().key()
    );
}

/// Found by the properties: Dots-and-Boxes' key used to be `mix64(edges) ^
/// mix64(owned[0] | owned[1] << 25 | to_move << 50)`, whose halves cancel to
/// 0 whenever the two packed words are equal. On 5x5 (60 edges) drawing
/// `v3,2` (edge 50) first, with no box and B to move, packed both words to
/// `1 << 50`, so the position after one move had the start position's key
/// (the `Searchable` docs: a key must change with a move). Fixed by chaining
/// the two words through `mix64`.
#[test]
fn dots_and_boxes_key_changes_with_the_move_that_used_to_cancel() {
    let game = DotsAndBoxes::new(5, 5).unwrap();
    let start = game.initial_state();
    let after = replay(&game, &[50]).unwrap();
    assert_eq!(start.action_to_string(50), "v3,2");
    assert_ne!(start, after);
    assert_ne!(start.key(), after.key(), "both keys are {:#x}", start.key());
}

// ---------------------------------------------------------------------------
// GDL sheets: what holds of any sheet
// ---------------------------------------------------------------------------

/// Every return a GDL seat can get: `(goal − 50) / 50` for goals 0..=100.
const GDL_RESULTS: [f64; 101] = {
    let mut r = [0.0; 101];
    let mut g = 0;
    while g <= 100 {
        r[g] = (g as f64 - 50.0) / 50.0;
        g += 1;
    }
    r
};

/// A GDL position's legal actions are increasing and name moves of the
/// game; a one-player turn has at least one.
fn gdl_position<S: State>(line: &Line<S>, turn: usize, actions: usize) -> Res {
    let s = &line.states[turn];
    let mut legal = ActionList::new();
    s.legal_actions(&mut legal);
    ensure!(
        line,
        turn,
        legal.windows(2).all(|w| w[0] < w[1]) && legal.iter().all(|&a| (a as usize) < actions),
        "legal actions {legal:?} not increasing below {actions}"
    );
    if let Turn::Player(_) = s.turn() {
        ensure!(
            line,
            turn,
            !legal.is_empty(),
            "a player's turn without moves"
        );
    }
    Ok(())
}

impl Rules for Gdl {
    const RESULTS: &'static [f64] = &GDL_RESULTS;
    const SCORE_DECIDES: bool = false;

    fn key(&self, s: &GdlState) -> Option<u64> {
        Some(s.key())
    }
    /// Tic-Tac-Toe's `mark(c,r)` fills column c, row r of rows 1..3 (row
    /// 3 the top); other sheets' squares are checked by the game's unit
    /// test (`a_move_names_the_square_it_fills`), so here they are taken
    /// as the game gives them.
    fn cell(&self, s: &GdlState, a: Action) -> Option<(usize, usize)> {
        let notation = s.action_to_string(a);
        match notation
            .strip_prefix("mark(")
            .and_then(|r| r.strip_suffix(')'))
        {
            Some(args) => {
                let (c, r) = args.split_once(',')?;
                Some((c.parse::<usize>().ok()? - 1, 3 - r.parse::<usize>().ok()?))
            }
            None => s.action_cell(a),
        }
    }
    fn check_view(&self, line: &Line<GdlState>, turn: usize) -> Res {
        view_is_state(line, turn)
    }
    fn check_position(&self, line: &Line<GdlState>, turn: usize) -> Res {
        gdl_position(line, turn, self.num_actions())
    }
    fn check_step(&self, _line: &Line<GdlState>, _turn: usize) -> Res {
        Ok(())
    }
    fn check_end(&self, _line: &Line<GdlState>) -> Res {
        Ok(())
    }
}

impl Rules for GdlHidden {
    const RESULTS: &'static [f64] = &GDL_RESULTS;
    const SCORE_DECIDES: bool = false;

    fn check_view(&self, line: &Line<GdlHiddenState>, turn: usize) -> Res {
        // A seat's view lists its own legal moves and one entry of
        // percepts per joint move so far.
        let s = &line.states[turn];
        for p in 0..self.num_players() {
            let v = s.view(p);
            let mut legal = ActionList::new();
            s.legal_actions_of(p, &mut legal);
            let names: Vec<String> = legal.iter().map(|&a| s.action_to_string(a)).collect();
            ensure!(
                line,
                turn,
                v.seat == p && v.legal == names,
                "seat {p}'s view {v:?}"
            );
            if turn > 0 {
                let before = line.states[turn - 1].view(p).seen.len();
                ensure!(
                    line,
                    turn,
                    v.seen.len() >= before,
                    "seat {p} forgot percepts"
                );
            }
        }
        Ok(())
    }
    fn check_position(&self, line: &Line<GdlHiddenState>, turn: usize) -> Res {
        gdl_position(line, turn, self.num_actions())
    }
    fn check_step(&self, _line: &Line<GdlHiddenState>, _turn: usize) -> Res {
        Ok(())
    }
    fn check_end(&self, _line: &Line<GdlHiddenState>) -> Res {
        Ok(())
    }
}
