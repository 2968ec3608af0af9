//! A Dots-and-Boxes position: its edges and boxes, the queries the players
//! and the solver use, the rules of play on it, the search heuristic and the
//! board as text.

use std::fmt;
use std::hint::select_unpredictable;

use super::geometry::{EdgeBoxes, Geometry, GEOMETRY};
use super::{edge_count, DotsAndBoxes};
use crate::game::{mix64, parse_index, Action, ActionList, Searchable, State, Turn};
use crate::games::bitboard::{byte_prefix_counts, select_bit_with};

/// A Dots-and-Boxes position: the drawn edges as a bitboard (bit = action
/// index), the boxes each seat owns (bit = `row × cols + col`), and the seat to
/// move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DotsAndBoxesState {
    edges: u64,
    owned: [u32; 2],
    cols: u8,
    rows: u8,
    to_move: u8,
    /// Undrawn edges: the number of legal moves, kept so that a random move
    /// need not count them (a popcount on the path from one move to the next).
    free: u8,
    /// `byte_prefix_counts` of the undrawn edges, kept for the same reason:
    /// a random move selects the k-th undrawn edge with it.
    free_prefix: u64,
}

/// Whether an edge is horizontal or vertical, with the edge's first dot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Edge {
    /// From dot `(row, col)` to `(row, col + 1)`.
    H {
        /// Dot row, `0..=rows`.
        row: usize,
        /// Dot column, `0..cols`.
        col: usize,
    },
    /// From dot `(row, col)` to `(row + 1, col)`.
    V {
        /// Dot row, `0..rows`.
        row: usize,
        /// Dot column, `0..=cols`.
        col: usize,
    },
}

impl DotsAndBoxesState {
    /// The empty board of `game`, seat 0 to move.
    pub fn new(game: &DotsAndBoxes) -> DotsAndBoxesState {
        DotsAndBoxesState {
            edges: 0,
            owned: [0, 0],
            cols: game.cols,
            rows: game.rows,
            to_move: 0,
            free: edge_count(game.cols(), game.rows()) as u8,
            free_prefix: byte_prefix_counts(GEOMETRY[game.cols()][game.rows()].full),
        }
    }

    /// Columns of boxes.
    #[inline]
    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    /// Rows of boxes.
    #[inline]
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// Number of horizontal edges, `(rows + 1) × cols` (the first vertical
    /// edge's index).
    #[inline]
    pub fn horizontal_edges(&self) -> usize {
        (self.rows() + 1) * self.cols()
    }

    /// Number of edges on the board.
    #[inline]
    pub fn num_edges(&self) -> usize {
        edge_count(self.cols(), self.rows())
    }

    #[inline]
    pub(super) fn geometry(&self) -> &'static Geometry {
        &GEOMETRY[self.cols as usize][self.rows as usize]
    }

    #[inline]
    fn full(&self) -> u64 {
        self.geometry().full
    }

    /// The drawn edges (bit = action index).
    #[inline]
    pub fn edges(&self) -> u64 {
        self.edges
    }

    /// Whether edge (action) `e` is drawn.
    #[inline]
    pub fn has_edge(&self, e: usize) -> bool {
        self.edges >> e & 1 == 1
    }

    /// The boxes `seat` owns (bit = `row × cols + col`).
    #[inline]
    pub fn owned(&self, seat: usize) -> u32 {
        self.owned[seat]
    }

    /// How many boxes `seat` owns.
    #[inline]
    pub fn boxes(&self, seat: usize) -> u32 {
        self.owned[seat].count_ones()
    }

    /// The owner of box `(row, col)`, if it is complete.
    pub fn owner(&self, row: usize, col: usize) -> Option<usize> {
        let bit = 1u32 << (row * self.cols() + col);
        (0..2).find(|&s| self.owned[s] & bit != 0)
    }

    /// The seat to move (meaningless once the game is over).
    #[inline]
    pub fn to_move(&self) -> usize {
        self.to_move as usize
    }

    /// The index of the horizontal edge from dot `(row, col)`.
    #[inline]
    pub fn h_index(&self, row: usize, col: usize) -> usize {
        row * self.cols() + col
    }

    /// The index of the vertical edge from dot `(row, col)`.
    #[inline]
    pub fn v_index(&self, row: usize, col: usize) -> usize {
        self.horizontal_edges() + row * (self.cols() + 1) + col
    }

    /// Which edge action `e` draws.
    pub fn edge(&self, e: usize) -> Edge {
        let h = self.horizontal_edges();
        if e < h {
            Edge::H {
                row: e / self.cols(),
                col: e % self.cols(),
            }
        } else {
            let c1 = self.cols() + 1;
            Edge::V {
                row: (e - h) / c1,
                col: (e - h) % c1,
            }
        }
    }

    /// The four edges of box `(row, col)` as a mask.
    #[inline]
    pub fn box_mask(&self, row: usize, col: usize) -> u64 {
        let top = self.h_index(row, col);
        let bottom = self.h_index(row + 1, col);
        let left = self.v_index(row, col);
        1u64 << top | 1u64 << bottom | 1u64 << left | 1u64 << (left + 1)
    }

    /// The (up to two) boxes that edge `e` borders, as `(row, col)`.
    #[inline]
    pub fn boxes_of_edge(&self, e: usize) -> [Option<(usize, usize)>; 2] {
        match self.edge(e) {
            Edge::H { row, col } => [
                (row > 0).then(|| (row - 1, col)),
                (row < self.rows()).then_some((row, col)),
            ],
            Edge::V { row, col } => [
                (col > 0).then(|| (row, col - 1)),
                (col < self.cols()).then_some((row, col)),
            ],
        }
    }

    /// How many boxes (0, 1 or 2) drawing the undrawn edge `e` would complete.
    pub fn completed_by(&self, e: usize) -> u32 {
        let after = self.edges | 1u64 << e;
        self.geometry().edges[e]
            .masks
            .iter()
            .filter(|&&m| after & m == m)
            .count() as u32
    }

    /// Whether drawing the undrawn edge `e` leaves a box beside it with exactly
    /// three sides, which the next player could take.
    pub fn makes_third_side(&self, e: usize) -> bool {
        let after = self.edges | 1u64 << e;
        // A missing box's mask has one bit, never three.
        self.geometry().edges[e]
            .masks
            .iter()
            .any(|&m| (after & m).count_ones() == 3)
    }

    /// Number of undrawn boxes with exactly three sides drawn.
    pub fn three_sided(&self) -> u32 {
        let mut n = 0;
        for r in 0..self.rows() {
            for c in 0..self.cols() {
                if (self.edges & self.box_mask(r, c)).count_ones() == 3 {
                    n += 1;
                }
            }
        }
        n
    }
}

impl State for DotsAndBoxesState {
    type View = Self;

    #[inline]
    fn turn(&self) -> Turn {
        if self.free == 0 {
            Turn::Terminal
        } else {
            Turn::Player(self.to_move as usize)
        }
    }

    fn legal_actions(&self, out: &mut ActionList) {
        let mut free = !self.edges & self.full();
        while free != 0 {
            out.push(free.trailing_zeros() as Action);
            free &= free - 1;
        }
    }

    /// The `k`-th undrawn edge for a random `k`: the legal list's pick,
    /// without the list.
    #[inline]
    fn random_action<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Action {
        debug_assert_eq!(self.free as u32, (!self.edges & self.full()).count_ones());
        let k = rand::RngExt::random_range(rng, 0..self.free as usize);
        select_bit_with(!self.edges & self.full(), self.free_prefix, k as u32) as Action
    }

    #[inline]
    fn apply(&mut self, action: Action) {
        let e = action as usize;
        debug_assert!(e < self.num_edges() && !self.has_edge(e));
        self.edges |= 1u64 << e;
        self.free -= 1;
        self.free_prefix -= 0x0101_0101_0101_0101 << (e & 56);
        // Without branches: in random play whether a box closes is a coin
        // toss, and a mispredicted branch costs more than the whole move
        // (LLVM turns plain selects on table loads into branches).
        let EdgeBoxes { masks, bits } = self.geometry().edges[e & 63];
        let gained = select_unpredictable(self.edges & masks[0] == masks[0], bits[0], 0)
            | select_unpredictable(self.edges & masks[1] == masks[1], bits[1], 0);
        self.owned[self.to_move as usize & 1] |= gained;
        self.to_move ^= (gained == 0) as u8;
    }

    fn returns(&self, player: usize) -> f64 {
        if !self.is_terminal() {
            return 0.0;
        }
        match self.score(player) {
            Some(s) if s > 0 => 1.0,
            Some(s) if s < 0 => -1.0,
            _ => 0.0,
        }
    }

    fn score(&self, player: usize) -> Option<i32> {
        Some(self.boxes(player) as i32 - self.boxes(1 - player) as i32)
    }

    fn view(&self, _player: usize) -> Self {
        *self
    }

    fn board(&self) -> crate::game::board::Board {
        let (cols, rows) = (self.cols(), self.rows());
        crate::game::board::Board::Dots {
            cols,
            rows,
            h: (0..=rows)
                .map(|r| {
                    (0..cols)
                        .map(|c| self.has_edge(self.h_index(r, c)))
                        .collect()
                })
                .collect(),
            v: (0..rows)
                .map(|r| {
                    (0..=cols)
                        .map(|c| self.has_edge(self.v_index(r, c)))
                        .collect()
                })
                .collect(),
            owners: (0..rows)
                .map(|r| (0..cols).map(|c| self.owner(r, c)).collect())
                .collect(),
        }
    }

    /// A line is clicked between its two dots.
    fn target(&self, action: Action) -> crate::game::board::Target {
        if (action as usize) >= self.num_edges() {
            return crate::game::board::Target::Button;
        }
        match self.edge(action as usize) {
            Edge::H { row, col } => crate::game::board::Target::Edge { dir: "h", row, col },
            Edge::V { row, col } => crate::game::board::Target::Edge { dir: "v", row, col },
        }
    }

    fn action_to_string(&self, action: Action) -> String {
        match self.edge(action as usize) {
            Edge::H { row, col } => format!("h{row},{col}"),
            Edge::V { row, col } => format!("v{row},{col}"),
        }
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        let n = self.num_edges();
        if let Some(a) = parse_index(text, n) {
            return Ok(a);
        }
        let (r, c) = (self.rows(), self.cols());
        let err = || {
            format!(
                "'{}' is not an edge: h<row>,<col> (row 0..={r}, col 0..{c}), \
                 v<row>,<col> (row 0..{r}, col 0..={c}) or #index 0..{}",
                text.trim(),
                n - 1
            )
        };
        let t = text.trim().to_ascii_lowercase();
        let (kind, rest) = t.split_at_checked(1).ok_or_else(err)?;
        let (row, col) = rest.split_once(',').ok_or_else(err)?;
        let row: usize = row.trim().parse().map_err(|_| err())?;
        let col: usize = col.trim().parse().map_err(|_| err())?;
        match kind {
            "h" if row <= r && col < c => Ok(self.h_index(row, col) as Action),
            "v" if row < r && col <= c => Ok(self.v_index(row, col) as Action),
            _ => Err(err()),
        }
    }
}

impl Searchable for DotsAndBoxesState {
    fn key(&self) -> u64 {
        // Chained, not xored: `mix64(a) ^ mix64(b)` is 0 whenever the two
        // words are equal (edge 50 alone, nobody's boxes, B to move).
        let rest =
            self.owned[0] as u64 | (self.owned[1] as u64) << 25 | (self.to_move as u64) << 50;
        mix64(self.edges ^ mix64(rest))
    }

    fn evaluate(&self) -> i32 {
        100 * self.score(self.to_move as usize).unwrap_or(0) + 75 * self.three_sided() as i32
    }
}

const SEATS: [char; 2] = ['A', 'B'];

impl fmt::Display for DotsAndBoxesState {
    /// Dots are `.`, drawn edges `---` and `|`, a completed box shows its
    /// owner's letter; dot rows and columns are numbered for the notation.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (rows, cols) = (self.rows(), self.cols());
        let mut line = String::from("  ");
        for c in 0..=cols {
            line.push_str(&format!(" {c}  "));
        }
        writeln!(f, "{}", line.trim_end())?;
        for r in 0..=rows {
            line = format!("{r}  .");
            for c in 0..cols {
                let drawn = self.has_edge(self.h_index(r, c));
                line.push_str(if drawn { "---." } else { "   ." });
            }
            writeln!(f, "{line}")?;
            if r < rows {
                line = String::from("   ");
                for c in 0..=cols {
                    line.push(if self.has_edge(self.v_index(r, c)) {
                        '|'
                    } else {
                        ' '
                    });
                    if c < cols {
                        let owner = self.owner(r, c).map_or(' ', |s| SEATS[s]);
                        line.push_str(&format!(" {owner} "));
                    }
                }
                writeln!(f, "{}", line.trim_end())?;
            }
        }
        write!(f, "A {} - B {}", self.boxes(0), self.boxes(1))?;
        if self.is_terminal() {
            writeln!(f, ", game over")
        } else {
            writeln!(f, ", {} to move", SEATS[self.to_move as usize])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::perft::perft;
    use crate::game::Game;

    #[test]
    fn perft_one_box() {
        // 1x1 has 4 edges and only the last completes the box: 4, 4·3, 4·3·2, 4!.
        let s = DotsAndBoxes::new(1, 1).unwrap().initial_state();
        assert_eq!(perft(&s, 1), 4);
        assert_eq!(perft(&s, 2), 12);
        assert_eq!(perft(&s, 3), 24);
        assert_eq!(perft(&s, 4), 24);
        assert_eq!(perft(&s, 5), 0);
    }

    #[test]
    fn double_box_move_scores_two_and_moves_again() {
        // On 2x1, v0,1 is the shared side: drawn last, it completes both boxes.
        let g = DotsAndBoxes::new(2, 1).unwrap();
        let mut s = g.initial_state();
        for m in ["h0,0", "h0,1", "h1,0", "h1,1", "v0,0", "v0,2"] {
            s.apply(s.parse_action(m).unwrap());
        }
        // Six plies, none scoring: seat A (0) is to move again.
        assert_eq!(s.to_move(), 0);
        s.apply(s.parse_action("v0,1").unwrap());
        assert_eq!((s.boxes(0), s.boxes(1)), (2, 0));
        assert_eq!(s.owned(0), 0b11);
        assert!(s.is_terminal());
    }

    #[test]
    fn display_draws_edges_and_owners() {
        let g = DotsAndBoxes::new(1, 1).unwrap();
        let mut s = g.initial_state();
        for m in ["h0,0", "h1,0", "v0,0", "v0,1"] {
            s.apply(s.parse_action(m).unwrap());
        }
        let text = s.to_string();
        assert!(text.contains(".---."), "{text}");
        assert!(text.contains("| B |"), "{text}");
        assert!(text.contains("A 0 - B 1, game over"), "{text}");
    }
}
