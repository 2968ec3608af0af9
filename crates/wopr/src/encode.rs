//! Encodings: what a net sees of a position.
//!
//! An encoding turns a state into a fixed-length `f32` vector. Every encoding
//! here is from the point of view of the player to move (the "own" side), so
//! one net can play either seat; its doc states the size and the meaning of
//! every input. Names, per game (see [`Encodable::encoding_names`]):
//!
//! | game | name | size | inputs |
//! |---|---|---|---|
//! | every board game | `raw` | squares | +1 own, −1 opponent, 0 empty, row-major from the top-left (MIDI-Connect4, Naveed & Cowling); dots-and-boxes: one input per edge, 1 drawn, 0 not (Weaver: 24 on 3x3) |
//! | every board game | `planes` | 2 + 2·squares | the thesis's one-hot planes: [first seat to move, second seat to move], then "first seat's piece here" per square, then "second seat's piece here" (20 for tictactoe); dots-and-boxes: the two side bits, then edge bits, then box owners (own, opponent) |
//! | tictactoe | `handa` | 7 | Handa & Horiuchi's attributes (our reading, the paper names only the first three): 0 marginals (edge-middle squares, own − opponent, /4), 1 corners (own − opponent, /4), 2 centre (+1 own, −1 opponent), 3 own lines with two marks and no opponent mark (/3), 4 the same for the opponent (/3), 5 own lines with one mark and no opponent mark (/8), 6 the same for the opponent (/8) |
//! | reversi | `handa` | 9 | Handa & Horiuchi's Reversi features: 0–4 own − opponent discs over the partition's size for five partitions (corners; X-squares, diagonal to a corner; C-squares, edge next to a corner; the rest of the edges; the inner squares), 5 disc difference over N², 6 game phase (discs on board over N²), 7 own mobility, 8 opponent mobility (legal placements over N²) |

use crate::game::SpecError;
use crate::games::bitboard::bits;
use crate::games::connect4::{Connect4, Connect4State};
use crate::games::dots_and_boxes::{DotsAndBoxes, DotsAndBoxesState};
use crate::games::reversi::{Reversi, ReversiState};
use crate::games::tictactoe::{TicTacToe, TicTacToeState, LINES};
use crate::games::virus::{Virus, VirusState};
use crate::Game;

/// Turns states into net inputs.
pub trait Encoding<S>: Send + Sync {
    /// The encoding's name, as given in specs and net files.
    fn name(&self) -> &'static str;
    /// Number of inputs.
    fn size(&self) -> usize;
    /// Writes the inputs for `state` into `out` (`out.len() == size()`).
    fn encode(&self, state: &S, out: &mut [f32]);
}

/// A boxed encoding for game `G`.
pub type EncodingOf<G> = Box<dyn Encoding<<G as Game>::State>>;

/// Games nets can play: the board games.
pub trait Encodable: Game {
    /// The encoding names this game accepts (the first is the default).
    fn encoding_names(&self) -> &'static [&'static str];
    /// Builds the encoding called `name`.
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError>;
}

fn unknown(game: &str, name: &str, names: &[&str]) -> SpecError {
    SpecError(format!(
        "unknown encoding '{name}' for {game} (accepted: {})",
        names.join(", ")
    ))
}

/// A board of `squares` squares read through `at(i) -> Option<seat>` from
/// the view of `me`, as `raw` inputs.
fn write_raw(out: &mut [f32], me: usize, at: impl Fn(usize) -> Option<usize>) {
    for (i, o) in out.iter_mut().enumerate() {
        *o = match at(i) {
            Some(p) if p == me => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
    }
}

/// The thesis's planes: two side-to-move bits, then one plane per seat.
fn write_planes(
    out: &mut [f32],
    squares: usize,
    to_move: Option<usize>,
    at: impl Fn(usize) -> Option<usize>,
) {
    out.fill(0.0);
    if let Some(p) = to_move {
        out[p] = 1.0;
    }
    for i in 0..squares {
        if let Some(p) = at(i) {
            out[2 + p * squares + i] = 1.0;
        }
    }
}

/// A grid encoding (`raw` or `planes`) for a game whose state can say who is on
/// square `i` (row-major) and who is to move.
struct Grid<S> {
    name: &'static str,
    squares: usize,
    at: fn(&S, usize) -> Option<usize>,
    to_move: fn(&S) -> Option<usize>,
}

impl<S: Send + Sync> Encoding<S> for Grid<S> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn size(&self) -> usize {
        if self.name == "raw" {
            self.squares
        } else {
            2 + 2 * self.squares
        }
    }
    fn encode(&self, state: &S, out: &mut [f32]) {
        let to_move = (self.to_move)(state);
        if self.name == "raw" {
            write_raw(out, to_move.unwrap_or(0), |i| (self.at)(state, i));
        } else {
            write_planes(out, self.squares, to_move, |i| (self.at)(state, i));
        }
    }
}

fn grid<S: Send + Sync + 'static>(
    name: &str,
    squares: usize,
    at: fn(&S, usize) -> Option<usize>,
    to_move: fn(&S) -> Option<usize>,
) -> Option<Box<dyn Encoding<S>>> {
    let name = match name {
        "raw" => "raw",
        "planes" => "planes",
        _ => return None,
    };
    Some(Box::new(Grid {
        name,
        squares,
        at,
        to_move,
    }))
}

fn mover<S: crate::State>(s: &S) -> Option<usize> {
    crate::game::mover(s)
}

// ---------------------------------------------------------------- tictactoe

/// Handa & Horiuchi's seven Tic-Tac-Toe attributes (see the module table).
struct TicTacToeHanda;

const CORNERS: u16 = 0b101_000_101;
const MARGINALS: u16 = 0b010_101_010;
const CENTRE: u16 = 0b000_010_000;

impl Encoding<TicTacToeState> for TicTacToeHanda {
    fn name(&self) -> &'static str {
        "handa"
    }
    fn size(&self) -> usize {
        7
    }
    fn encode(&self, s: &TicTacToeState, out: &mut [f32]) {
        let me = s.to_move as usize;
        let (own, opp) = (s.marks[me], s.marks[1 - me]);
        let diff = |mask: u16| (own & mask).count_ones() as f32 - (opp & mask).count_ones() as f32;
        let open = |a: u16, b: u16, n: u32| {
            LINES
                .iter()
                .filter(|&&l| b & l == 0 && (a & l).count_ones() == n)
                .count() as f32
        };
        out[0] = diff(MARGINALS) / 4.0;
        out[1] = diff(CORNERS) / 4.0;
        out[2] = diff(CENTRE);
        out[3] = open(own, opp, 2) / 3.0;
        out[4] = open(opp, own, 2) / 3.0;
        out[5] = open(own, opp, 1) / 8.0;
        out[6] = open(opp, own, 1) / 8.0;
    }
}

impl Encodable for TicTacToe {
    fn encoding_names(&self) -> &'static [&'static str] {
        &["raw", "planes", "handa"]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        if name == "handa" {
            return Ok(Box::new(TicTacToeHanda));
        }
        grid(name, 9, |s: &TicTacToeState, i| s.at(i), mover)
            .ok_or_else(|| unknown("tictactoe", name, self.encoding_names()))
    }
}

// ---------------------------------------------------------------- connect4

impl Encodable for Connect4 {
    fn encoding_names(&self) -> &'static [&'static str] {
        &["raw", "planes"]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        grid(
            name,
            self.columns() * self.rows(),
            |s: &Connect4State, i| s.at(i % s.columns(), i / s.columns()),
            mover,
        )
        .ok_or_else(|| unknown(&self.spec(), name, self.encoding_names()))
    }
}

// ---------------------------------------------------------------- reversi

impl Encodable for Reversi {
    fn encoding_names(&self) -> &'static [&'static str] {
        &["raw", "planes", "handa"]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        if name == "handa" {
            return Ok(Box::new(ReversiHanda::new(self.size())));
        }
        grid(
            name,
            self.size() * self.size(),
            |s: &ReversiState, i| s.at(i % s.size(), i / s.size()),
            mover,
        )
        .ok_or_else(|| unknown(&self.spec(), name, self.encoding_names()))
    }
}

/// Handa & Horiuchi's Reversi features (see the module table).
struct ReversiHanda {
    n: usize,
    partitions: [u64; 5],
}

impl ReversiHanda {
    fn new(n: usize) -> ReversiHanda {
        let mut p = [0u64; 5];
        let last = n - 1;
        for r in 0..n {
            for c in 0..n {
                let bit = 1u64 << (r * n + c);
                let edge_r = r == 0 || r == last;
                let edge_c = c == 0 || c == last;
                let near = |x: usize| x == 1 || x == last - 1;
                let k = if edge_r && edge_c {
                    0 // corner
                } else if near(r) && near(c) {
                    1 // X-square: diagonal neighbour of a corner
                } else if (edge_r && near(c)) || (edge_c && near(r)) {
                    2 // C-square: edge square next to a corner
                } else if edge_r || edge_c {
                    3 // other edge squares
                } else {
                    4 // inner squares
                };
                p[k] |= bit;
            }
        }
        ReversiHanda { n, partitions: p }
    }
}

impl Encoding<ReversiState> for ReversiHanda {
    fn name(&self) -> &'static str {
        "handa"
    }
    fn size(&self) -> usize {
        9
    }
    fn encode(&self, s: &ReversiState, out: &mut [f32]) {
        let me = mover(s).unwrap_or(s.to_move());
        let d = s.discs();
        let (own, opp) = (d[me], d[1 - me]);
        for (k, &mask) in self.partitions.iter().enumerate() {
            let diff = (own & mask).count_ones() as f32 - (opp & mask).count_ones() as f32;
            // On 4x4 every inner square is an X-square: an empty partition reads 0.
            out[k] = diff / mask.count_ones().max(1) as f32;
        }
        let squares = (self.n * self.n) as f32;
        out[5] = (own.count_ones() as f32 - opp.count_ones() as f32) / squares;
        out[6] = (own | opp).count_ones() as f32 / squares;
        out[7] = s.placements_of(me).count_ones() as f32 / squares;
        out[8] = s.placements_of(1 - me).count_ones() as f32 / squares;
    }
}

// ---------------------------------------------------------------- virus

impl Encodable for Virus {
    fn encoding_names(&self) -> &'static [&'static str] {
        &["raw", "planes"]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        grid(
            name,
            self.size() * self.size(),
            |s: &VirusState, i| s.at(i % s.size(), i / s.size()),
            mover,
        )
        .ok_or_else(|| unknown(&self.spec(), name, self.encoding_names()))
    }
}

// ---------------------------------------------------------------- dots-and-boxes

/// Weaver's edge inputs (`raw`), or edges plus side and box owners (`planes`).
struct DotsEncoding {
    planes: bool,
    edges: usize,
    boxes: usize,
}

impl Encoding<DotsAndBoxesState> for DotsEncoding {
    fn name(&self) -> &'static str {
        if self.planes {
            "planes"
        } else {
            "raw"
        }
    }
    fn size(&self) -> usize {
        if self.planes {
            2 + self.edges + 2 * self.boxes
        } else {
            self.edges
        }
    }
    fn encode(&self, s: &DotsAndBoxesState, out: &mut [f32]) {
        out.fill(0.0);
        let off = if self.planes { 2 } else { 0 };
        for e in bits(s.edges()) {
            out[off + e] = 1.0;
        }
        if self.planes {
            let me = mover(s);
            if let Some(p) = me {
                out[p] = 1.0;
            }
            let me = me.unwrap_or(s.to_move());
            let cols = s.cols();
            for b in 0..self.boxes {
                if let Some(o) = s.owner(b / cols, b % cols) {
                    let plane = usize::from(o != me);
                    out[2 + self.edges + plane * self.boxes + b] = 1.0;
                }
            }
        }
    }
}

impl Encodable for DotsAndBoxes {
    fn encoding_names(&self) -> &'static [&'static str] {
        &["raw", "planes"]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        let s = self.initial_state();
        let (edges, boxes) = (s.num_edges(), self.cols() * self.rows());
        match name {
            "raw" | "edges" => Ok(Box::new(DotsEncoding {
                planes: false,
                edges,
                boxes,
            })),
            "planes" => Ok(Box::new(DotsEncoding {
                planes: true,
                edges,
                boxes,
            })),
            _ => Err(unknown(&self.spec(), name, self.encoding_names())),
        }
    }
}
