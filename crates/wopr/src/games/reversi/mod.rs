//! Reversi, with the Othello rules.
//!
//! **Rules as implemented.** A square N×N board (N even). The start has four
//! discs on the centre squares: White on the top-left and bottom-right ones
//! (`d4` and `e5` on 8×8), Black on the other two (`e4` and `d5`). Black
//! (seat 0) moves first. A move puts a disc of the mover's colour on an empty
//! square so that, in at least one of the eight directions, an unbroken line of
//! opponent discs runs from it to another disc of the mover's; every such
//! flanked line (in all directions at once) is turned over. A player without
//! such a move must pass, and passing is then the only legal action; a player
//! with a move may not pass. The game ends when neither player can move (full
//! board included). The player with more discs wins; equal counts draw. Empty
//! squares at the end are not awarded to anyone.
//!
//! **Parameters.** `reversi[:NxN]`: the board, `8x8` by default; any square
//! board with an even side from 4 to 8 (`4x4`, `6x6`, `8x8`). The canonical
//! spec always names the size (`reversi:8x8`). `othello` is an alias.
//!
//! **Notation.** Squares `a1`…: the letter is the column (`a` = left), the
//! number the row (`1` = top), as in Othello literature; `pass`. Parsing is
//! case-insensitive and also takes `#index`.
//!
//! **Action indices** (OpenSpiel's `othello`): placing on column `c`, row `r`
//! is `r × N + c`; the pass is `N × N`. There are `N × N + 1` actions.
//!
//! **Game length.** At most `N² − 4` placements. A pass is always followed by a
//! placement (a pass happens only when the opponent can move, and two passes
//! in a row would mean neither can) and the first action is a placement, so
//! there are at most `N² − 5` passes: `max_game_length = 2(N² − 4) − 1`.
//!
//! **Heuristic** (for `alphabeta`), from the mover's view: the sum of a
//! positional weight over own discs minus the same over the opponent's, plus
//! 10 × (own legal moves − opponent's legal moves). The weights follow one
//! rule for every size: a corner 100; a C-square (edge square orthogonally next
//! to a corner) −20; an X-square (diagonally next to a corner) −50; any other
//! edge square 10; any other square of the second ring −2; inner squares 1.
//! On 8×8 this is the classic table:
//!
//! ```text
//!  100 -20  10  10  10  10 -20 100
//!  -20 -50  -2  -2  -2  -2 -50 -20
//!   10  -2   1   1   1   1  -2  10
//!   10  -2   1   1   1   1  -2  10
//!   (rows 5-8 mirror rows 4-1)
//! ```
//!
//! **Board representation.** One `u64` per colour, bit `r × N + c` (the action
//! index). Move generation shifts whole bitboards one step in each of the eight
//! directions, masking off squares that wrapped around a side and bits past the
//! board ("dumb7fill"), so the same code serves every size.
//!
//! **Players and solver** (in [`players`] and [`solver`]):
//! `alphabeta` with the heuristic above; `standard[:depth=D]`, our version
//! of Handa & Horiuchi's "standard program" (alpha-beta over its own weight
//! table and relative mobility); an exact endgame solver behind
//! [`Roster::solver`](crate::players::Roster::solver) (final disc margin); and `perfect[:empties=E]`, which
//! plays `standard` until `E` squares are empty and solves from then on.
//!
//! **Papers.** Handa & Horiuchi evolve feature-input evaluation nets for 6×6
//! Reversi (`reversi:6x6`) and measure them against a standard program.
//!
//! **References.**
//! - H. Handa and T. Horiuchi, "Evolutionary constitution of game player
//!   agents", *Proc. 41st SICE Annual Conference (SICE 2002)*, 2002.

pub mod encode;
pub mod engine;
mod openspiel;
mod oracle;
pub mod players;
pub mod solver;
pub mod text;

use std::fmt;

use crate::game::{
    mix64, parse_index, Action, ActionList, Game, GameInfo, GameSpec, Nature, ParamInfo,
    Searchable, SpecError, State, Turn,
};
use crate::games::bitboard::{bits, parse_square, square_name};

/// Registry entry.
pub const INFO: GameInfo = GameInfo {
    name: "reversi",
    aliases: &["othello"],
    about: "Reversi/Othello on an even square board; Black moves first, most discs wins",
    paper: "Handa & Horiuchi (6x6)",
    params: &[ParamInfo {
        name: "size",
        default: "8x8",
        doc: "board NxN with N even, 4 to 8 (4x4, 6x6, 8x8)",
    }],
    nature: Nature::BOARD,
    examples: &["reversi:4x4", "reversi:6x6"],
    bench: &["reversi", "reversi:6x6"],
};

/// Black's seat (moves first).
pub const BLACK: usize = 0;
/// White's seat.
pub const WHITE: usize = 1;

/// Masks and shifts for one board size.
#[derive(Clone, Copy, Debug)]
struct Geometry {
    /// Every square of the board.
    full: u64,
    /// The eight directions as (left shift amount, negative = right shift;
    /// mask of the squares a shifted disc may land on).
    dirs: [(i32, u64); 8],
    /// Positional weight of each square.
    weights: [i32; 64],
}

const fn geometry(n: usize) -> Geometry {
    let full = if n * n == 64 {
        u64::MAX
    } else {
        (1u64 << (n * n)) - 1
    };
    let mut col_first = 0u64;
    let mut col_last = 0u64;
    let mut r = 0;
    while r < n {
        col_first |= 1 << (r * n);
        col_last |= 1 << (r * n + n - 1);
        r += 1;
    }
    // A step towards higher columns must not land in column a (it wrapped
    // from the row above); a step towards lower columns not in the last one.
    let east = full & !col_first;
    let west = full & !col_last;
    let ni = n as i32;
    let dirs = [
        (1, east),
        (-1, west),
        (ni, full),
        (-ni, full),
        (ni + 1, east),
        (ni - 1, west),
        (-ni + 1, east),
        (-ni - 1, west),
    ];
    let mut weights = [0i32; 64];
    let mut s = 0;
    while s < n * n {
        weights[s] = square_weight(n, s % n, s / n);
        s += 1;
    }
    Geometry {
        full,
        dirs,
        weights,
    }
}

/// The positional weight of `(c, r)` on an `n`×`n` board (see the module doc).
const fn square_weight(n: usize, c: usize, r: usize) -> i32 {
    let last = n - 1;
    let edge_c = c == 0 || c == last;
    let edge_r = r == 0 || r == last;
    let near_c = c == 1 || c == last - 1;
    let near_r = r == 1 || r == last - 1;
    if edge_c && edge_r {
        100
    } else if (edge_c && near_r) || (near_c && edge_r) {
        -20
    } else if near_c && near_r {
        -50
    } else if edge_c || edge_r {
        10
    } else if near_c || near_r {
        -2
    } else {
        1
    }
}

/// Geometries for sides 0..=8 (only the even sides 4..=8 are used).
const GEOMETRY: [Geometry; 9] = {
    let mut g = [geometry(4); 9];
    g[6] = geometry(6);
    g[8] = geometry(8);
    g
};

/// For each square and direction (in the order of [`Geometry::dirs`]), the
/// squares beyond it in that direction, to the board's edge.
type Rays = [[u64; 8]; 64];

/// The rays of an `n`×`n` board.
const fn rays(n: usize) -> Rays {
    let dirs = geometry(n).dirs;
    let mut rays = [[0u64; 8]; 64];
    let mut s = 0;
    while s < n * n {
        let mut d = 0;
        while d < 8 {
            let mut x = shift(1 << s, dirs[d]);
            while x != 0 {
                rays[s][d] |= x;
                x = shift(x, dirs[d]);
            }
            d += 1;
        }
        s += 1;
    }
    rays
}

/// Rays for sides 0..=8 (only the even sides 4..=8 are used); a static,
/// not a constant, being 4 KiB a side.
static RAYS: [Rays; 9] = {
    let mut r = [[[0u64; 8]; 64]; 9];
    r[4] = rays(4);
    r[6] = rays(6);
    r[8] = rays(8);
    r
};

#[inline(always)]
const fn shift(x: u64, (amount, mask): (i32, u64)) -> u64 {
    let y = if amount > 0 {
        x << amount
    } else {
        x >> -amount
    };
    y & mask
}

/// The squares where the side owning `own` may place against `opp`.
#[inline(always)]
fn placements(g: &Geometry, own: u64, opp: u64, n: usize) -> u64 {
    let empty = g.full & !(own | opp);
    let mut moves = 0;
    for &d in &g.dirs {
        // A flanked line holds at most n − 2 opponent discs.
        let mut run = shift(own, d) & opp;
        for _ in 0..n - 3 {
            run |= shift(run, d) & opp;
        }
        moves |= shift(run, d) & empty;
    }
    moves
}

/// The opponent discs turned over by placing on `sq`. Along each ray out
/// of `sq`, the first square that is not the opponent's closes the line if
/// it is our own: towards higher squares it is the ray's lowest such bit,
/// towards lower squares its highest, so each direction costs a few bit
/// operations and no loop.
#[inline(always)]
fn flips(g: &Geometry, rays: &Rays, own: u64, opp: u64, sq: usize) -> u64 {
    let rays = &rays[sq];
    let mut all = 0;
    for (d, &(amount, _)) in g.dirs.iter().enumerate() {
        let ray = rays[d];
        let stops = ray & !opp;
        if amount > 0 {
            let first = stops & stops.wrapping_neg();
            if first & own != 0 {
                all |= ray & (first - 1);
            }
        } else if stops != 0 {
            let first = 63 - stops.leading_zeros();
            if own >> first & 1 != 0 {
                all |= ray & (u64::MAX << first << 1);
            }
        }
    }
    all
}

/// Every square of an `n`×`n` board (`n` even, 4..=8).
#[inline]
pub(crate) fn board_mask(n: usize) -> u64 {
    GEOMETRY[n].full
}

/// The opponent discs turned over when the side owning `own` places on `sq`.
#[inline]
pub(crate) fn flips_for(n: usize, own: u64, opp: u64, sq: usize) -> u64 {
    flips(&GEOMETRY[n], &RAYS[n], own, opp, sq)
}

/// The squares where the side owning `own` may place against `opp`, for a
/// board side known at compile time (the solver's hot
/// loop: masks and loop bounds become constants).
#[inline(always)]
pub(crate) fn moves_n<const N: usize>(own: u64, opp: u64) -> u64 {
    placements(&GEOMETRY[N], own, opp, N)
}

/// The squares next to (in any of the eight directions) a square of `x`,
/// for a board side known at compile time.
#[inline(always)]
pub(crate) fn neighbours_n<const N: usize>(x: u64) -> u64 {
    GEOMETRY[N].dirs.iter().fold(0, |acc, &d| acc | shift(x, d))
}

/// [`flips_for`] for a board side known at compile time.
#[inline(always)]
pub(crate) fn flips_n<const N: usize>(own: u64, opp: u64, sq: usize) -> u64 {
    flips(&GEOMETRY[N], &RAYS[N], own, opp, sq)
}

/// The game: the board side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reversi {
    n: u8,
}

impl Default for Reversi {
    fn default() -> Self {
        Reversi { n: 8 }
    }
}

impl Reversi {
    /// The opponent discs turned over when the side owning `own` places
    /// on square `sq` (bit `row × n + col`) against `opp`.
    pub fn flips(&self, own: u64, opp: u64, sq: usize) -> u64 {
        flips_for(self.size(), own, opp, sq)
    }

    /// Reversi on an `n`×`n` board; `n` must be even and in 4..=8.
    pub fn new(n: usize) -> Result<Reversi, SpecError> {
        check_size(n, n)
            .map_err(|why| SpecError(format!("'reversi': size {n}x{n} is not supported: {why}")))?;
        Ok(Reversi { n: n as u8 })
    }

    /// The board side N.
    pub fn size(&self) -> usize {
        self.n as usize
    }
}

fn check_size(c: usize, r: usize) -> Result<(), String> {
    if c == r && c.is_multiple_of(2) && (4..=8).contains(&c) {
        Ok(())
    } else {
        Err("accepted: square boards with an even side from 4 to 8 (4x4, 6x6, 8x8)".into())
    }
}

/// A Reversi position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ReversiState {
    discs: [u64; 2],
    /// Legal placements of the side to move (cached; zero means pass or end).
    moves: u64,
    n: u8,
    to_move: u8,
    over: bool,
}

impl ReversiState {
    /// The start position on an `n`×`n` board, Black to move.
    ///
    /// # Panics
    /// If `n` is not even and in 4..=8 (use [`Reversi::new`] for checked input).
    pub fn new(n: usize) -> ReversiState {
        assert!(
            check_size(n, n).is_ok(),
            "reversi side {n} is not supported"
        );
        let (a, b) = (n / 2 - 1, n / 2);
        let white = 1u64 << (a * n + a) | 1u64 << (b * n + b);
        let black = 1u64 << (a * n + b) | 1u64 << (b * n + a);
        let mut s = ReversiState {
            discs: [black, white],
            moves: 0,
            n: n as u8,
            to_move: BLACK as u8,
            over: false,
        };
        s.settle();
        s
    }

    /// A position from bitboards (bit `row × N + col`; Black = 0, White = 1)
    /// and the seat to move. Any disjoint placement on the board is accepted,
    /// reachable or not; if the seat to move has no placement the position is
    /// one where it must pass (or the game is over).
    pub fn from_discs(n: usize, discs: [u64; 2], to_move: usize) -> Result<ReversiState, String> {
        check_size(n, n)?;
        if discs[0] & discs[1] != 0 {
            return Err("a square holds discs of both colours".into());
        }
        if (discs[0] | discs[1]) & !GEOMETRY[n].full != 0 {
            return Err(format!("discs lie off the {n}x{n} board"));
        }
        if to_move > 1 {
            return Err(format!("seat {to_move} is not 0 (Black) or 1 (White)"));
        }
        let mut s = ReversiState {
            discs,
            moves: 0,
            n: n as u8,
            to_move: to_move as u8,
            over: false,
        };
        s.settle();
        Ok(s)
    }

    /// The number of empty squares.
    pub fn empties(&self) -> u32 {
        (self.geo().full & !(self.discs[0] | self.discs[1])).count_ones()
    }

    fn geo(&self) -> &'static Geometry {
        &GEOMETRY[self.n as usize]
    }

    /// The board side N.
    pub fn size(&self) -> usize {
        self.n as usize
    }

    /// The discs of each seat (Black = 0, White = 1), bit `row × N + col`.
    pub fn discs(&self) -> [u64; 2] {
        self.discs
    }

    /// The seat to move (also after the game is over: the seat that would).
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }

    /// The disc on `(col, row)`: `Some(seat)` or `None` for an empty square.
    pub fn at(&self, col: usize, row: usize) -> Option<usize> {
        let bit = 1u64 << (row * self.size() + col);
        (0..2).find(|&s| self.discs[s] & bit != 0)
    }

    /// The squares where the side to move may place (bit `row × N + col`);
    /// zero when it must pass or the game is over.
    pub fn placements(&self) -> u64 {
        self.moves
    }

    /// The pass action, `N × N`.
    pub fn pass_action(&self) -> Action {
        (self.size() * self.size()) as Action
    }

    /// The squares where `seat` could place a disc now (whoever is to move).
    pub fn placements_of(&self, seat: usize) -> u64 {
        placements(
            self.geo(),
            self.discs[seat],
            self.discs[1 - seat],
            self.size(),
        )
    }

    /// Recomputes the cached moves of the side to move and whether the game
    /// has ended.
    fn settle(&mut self) {
        self.moves = self.placements_of(self.to_move as usize);
        self.over = self.moves == 0 && self.placements_of(1 - self.to_move as usize) == 0;
    }
}

impl State for ReversiState {
    /// One ply an empty square (passes aside).
    fn plies_left(&self) -> Option<u32> {
        Some(self.empties())
    }

    type View = Self;

    fn turn(&self) -> Turn {
        if self.over {
            Turn::Terminal
        } else {
            Turn::Player(self.to_move as usize)
        }
    }

    fn legal_actions(&self, out: &mut ActionList) {
        if self.over {
            return;
        }
        if self.moves == 0 {
            out.push(self.pass_action());
        } else {
            out.extend(bits(self.moves).map(|s| s as Action));
        }
    }

    fn apply(&mut self, action: Action) {
        let me = self.to_move as usize;
        if action != self.pass_action() {
            let sq = action as usize;
            debug_assert!(self.moves >> sq & 1 == 1, "illegal reversi move {sq}");
            let f = flips(
                self.geo(),
                &RAYS[self.n as usize],
                self.discs[me],
                self.discs[1 - me],
                sq,
            );
            self.discs[me] |= f | 1u64 << sq;
            self.discs[1 - me] &= !f;
        }
        self.to_move ^= 1;
        self.settle();
    }

    fn returns(&self, player: usize) -> f64 {
        if !self.over {
            return 0.0;
        }
        crate::game::result_of_margin(self.score(player).unwrap_or(0))
    }

    fn score(&self, player: usize) -> Option<i32> {
        Some(self.discs[player].count_ones() as i32 - self.discs[1 - player].count_ones() as i32)
    }

    fn view(&self, _player: usize) -> Self {
        *self
    }

    fn action_to_string(&self, action: Action) -> String {
        let n = self.size();
        if action == self.pass_action() {
            "pass".into()
        } else if (action as usize) < n * n {
            square_name(action as usize % n, action as usize / n)
        } else {
            format!("#{action}")
        }
    }

    fn action_cell(&self, action: Action) -> Option<(usize, usize)> {
        let n = self.size();
        ((action as usize) < n * n).then(|| (action as usize % n, action as usize / n))
    }

    fn board(&self) -> crate::game::board::Board {
        crate::game::board::Board::grid(self.size(), self.size(), |c, r| self.at(c, r))
    }

    /// A disc is clicked on its square; a pass is a button.
    fn target(&self, action: Action) -> crate::game::board::Target {
        match self.action_cell(action) {
            Some((col, row)) => crate::game::board::Target::Cell { col, row },
            None => crate::game::board::Target::Button,
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        let n = self.size();
        if let Some(a) = parse_index(text, n * n + 1) {
            return Ok(a);
        }
        if text.trim().eq_ignore_ascii_case("pass") {
            return Ok(self.pass_action());
        }
        parse_square(text, n, n)
            .map(|(c, r)| (r * n + c) as Action)
            .ok_or_else(|| {
                format!(
                    "'{}' is not a square a1..{} or 'pass' (or #index 0..{})",
                    text.trim(),
                    square_name(n - 1, n - 1),
                    n * n
                )
            })
    }
}

impl Searchable for ReversiState {
    fn key(&self) -> u64 {
        mix64(self.discs[0] ^ mix64(self.discs[1] ^ self.to_move as u64))
    }

    fn evaluate(&self) -> i32 {
        let me = self.to_move as usize;
        let w = &self.geo().weights;
        let side = |s: usize| -> i32 { bits(self.discs[s]).map(|i| w[i]).sum() };
        let mobility =
            self.moves.count_ones() as i32 - self.placements_of(1 - me).count_ones() as i32;
        side(me) - side(1 - me) + 10 * mobility
    }
}

impl fmt::Display for ReversiState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.size();
        crate::games::bitboard::draw_grid(f, n, n, |c, r| match self.at(c, r) {
            Some(BLACK) => 'B',
            Some(_) => 'W',
            None => '.',
        })
    }
}

impl Game for Reversi {
    type State = ReversiState;
    const INFO: GameInfo = INFO;

    /// Builds the game from a parsed spec (`reversi[:NxN]`).
    fn from_spec(spec: &GameSpec) -> Result<Reversi, SpecError> {
        spec.check_keys(&["size"])?;
        let (n, _) = spec.size((8, 8), check_size)?;
        Ok(Reversi { n: n as u8 })
    }

    fn spec(&self) -> String {
        format!("reversi:{0}x{0}", self.n)
    }
    fn num_actions(&self) -> usize {
        self.size() * self.size() + 1
    }
    fn max_game_length(&self) -> usize {
        2 * (self.size() * self.size() - 4) - 1
    }
    fn initial_state(&self) -> ReversiState {
        ReversiState::new(self.size())
    }
    fn seat_names(&self) -> Vec<&'static str> {
        vec!["black", "white"]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_and_first_moves() {
        let s = Reversi::default().initial_state();
        // Standard Othello: d4 and e5 White, d5 and e4 Black; Black's four
        // openings are d3, c4, f5 and e6.
        assert_eq!(s.at(3, 3), Some(WHITE));
        assert_eq!(s.at(4, 4), Some(WHITE));
        assert_eq!(s.at(3, 4), Some(BLACK));
        assert_eq!(s.at(4, 3), Some(BLACK));
        let mut l = ActionList::new();
        s.legal_actions(&mut l);
        let names: Vec<String> = l.iter().map(|&a| s.action_to_string(a)).collect();
        assert_eq!(names, ["d3", "c4", "f5", "e6"]);
    }

    #[test]
    fn specs_and_notation() {
        let g = Reversi::from_spec(&GameSpec::parse("reversi").unwrap()).unwrap();
        assert_eq!(g.spec(), "reversi:8x8");
        let g6 = Reversi::from_spec(&GameSpec::parse("reversi:6x6").unwrap()).unwrap();
        assert_eq!(g6.spec(), "reversi:6x6");
        assert_eq!(g6.num_actions(), 37);
        for bad in ["reversi:5x5", "reversi:8x6", "reversi:10x10", "reversi:2x2"] {
            let e = Reversi::from_spec(&GameSpec::parse(bad).unwrap()).unwrap_err();
            assert!(e.0.contains("even side from 4 to 8"), "{e}");
        }
        let s = g.initial_state();
        for a in 0..g.num_actions() as Action {
            assert_eq!(s.parse_action(&s.action_to_string(a)).unwrap(), a);
        }
        assert_eq!(s.parse_action("PASS").unwrap(), 64);
        assert_eq!(s.parse_action("H8").unwrap(), 63);
        assert_eq!(s.parse_action("#5").unwrap(), 5);
        assert!(s.parse_action("i1").is_err());
        assert!(g6.initial_state().parse_action("g1").is_err());
    }

    #[test]
    fn weights_follow_the_rule() {
        let w = &GEOMETRY[8].weights;
        assert_eq!(&w[0..8], &[100, -20, 10, 10, 10, 10, -20, 100]);
        assert_eq!(&w[8..16], &[-20, -50, -2, -2, -2, -2, -50, -20]);
        assert_eq!(&w[16..24], &[10, -2, 1, 1, 1, 1, -2, 10]);
        let w6 = &GEOMETRY[6].weights;
        assert_eq!(&w6[6..12], &[-20, -50, -2, -2, -50, -20]);
        assert_eq!(&w6[12..18], &[10, -2, 1, 1, -2, 10]);
    }
}
