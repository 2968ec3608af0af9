//! Encodings: what a net sees of a position.
//!
//! An encoding turns a state into a fixed-length `f32` vector. Every encoding
//! here but Virus's `absolute` is from the point of view of the player to
//! move (the "own" side), so one net can play either seat; its doc states the size and the meaning of
//! every input. Each game implements [`Encodable`] in its folder (`encode.rs`);
//! the shared `raw` and `planes` layouts are built here ([`grid`]). Names, per
//! game (see [`Encodable::encoding_names`]):
//!
//! | game | name | size | inputs |
//! |---|---|---|---|
//! | every board game | `raw` | squares | +1 own, −1 opponent, 0 empty, row-major from the top-left (MIDI-Connect4, Naveed & Cowling); dots-and-boxes: one input per edge, 1 drawn, 0 not (Weaver: 24 on 3x3) |
//! | virus | `absolute` | squares | +1 Black, −1 White, 0 empty whoever is to move (Naveed & Cowling's reading); a value net reading it values positions for Black ([`Encoding::view`]) |
//! | every board game | `planes` | 2 + 2·squares | the thesis's one-hot planes: [first seat to move, second seat to move], then "first seat's piece here" per square, then "second seat's piece here" (20 for tictactoe); dots-and-boxes: the two side bits, then edge bits, then box owners (own, opponent) |
//! | tictactoe | `handa` | 7 | Handa & Horiuchi's attributes (our reading, the paper names only the first three): 0 marginals (edge-middle squares, own − opponent, /4), 1 corners (own − opponent, /4), 2 centre (+1 own, −1 opponent), 3 own lines with two marks and no opponent mark (/3), 4 the same for the opponent (/3), 5 own lines with one mark and no opponent mark (/8), 6 the same for the opponent (/8) |
//! | tictactoe | `table` | 19,683 | one input per board, 1 at `Σ dᵢ·3ⁱ` (cell `i`'s digit: 0 empty, 1 the mover's, 2 the opponent's): a linear net over it is a lookup table |
//! | reversi, connect4, virus | `ntuple1` … `ntuple4` (virus: to `ntuple3`) | classes · 3ⁿ | systematic straight n-tuples ([`super::ntuple`]): input `c·3ⁿ + k` counts the tuples of symmetry class `c` reading configuration `k` (0 empty, 1 own, 2 opponent per square); a linear net over it is an n-tuple network (Reversi 8x8 `ntuple2`: 32 classes, 288 inputs) |
//! | reversi | `handa+raw` | 9 + N² | the nine `handa` features, then the `raw` board (likewise `handa+ntuple2`, `handa+ntuple3`: the features, then the tuple counts) |
//! | virus | `features` | 20 | the hand-crafted players' ten features (pieces, grows, jumps, exposed, safe, edges, corners, centre, cluster, threat) counted for the mover (0–9) then the opponent (10–19); counts over N², cluster over 4N², threat over 8 |
//! | virus | `features+ntuple2` | 20 + 288 | `features`, then the `ntuple2` tuple counts |
//! | reversi | `handa` | 9 | Handa & Horiuchi's Reversi features: 0–4 own − opponent discs over the partition's size for five partitions (corners; X-squares, diagonal to a corner; C-squares, edge next to a corner; the rest of the edges; the inner squares), 5 disc difference over N², 6 game phase (discs on board over N²), 7 own mobility, 8 opponent mobility (legal placements over N²) |

use super::{Game, SpecError, State};

/// Turns states into net inputs.
pub trait Encoding<S>: Send + Sync {
    /// The encoding's name, as given in specs and net files.
    fn name(&self) -> &'static str;
    /// Number of inputs.
    fn size(&self) -> usize;
    /// Writes the inputs for `state` into `out` (`out.len() == size()`).
    fn encode(&self, state: &S, out: &mut [f32]);
    /// The nonzero inputs for `state` as `(input, value)` pairs, replacing
    /// `out`'s contents; an input may appear more than once, and its value
    /// is then the sum of its pairs. A linear net reads a position through
    /// these in time proportional to the pairs, not to [`Encoding::size`]
    /// (the n-tuple encodings list one pair per tuple image). The default
    /// encodes densely and keeps the nonzero inputs.
    fn encode_sparse(&self, state: &S, out: &mut Vec<(u32, f32)>) {
        let mut dense = vec![0.0; self.size()];
        self.encode(state, &mut dense);
        out.clear();
        out.extend(
            dense
                .iter()
                .enumerate()
                .filter(|(_, &x)| x != 0.0)
                .map(|(i, &x)| (i as u32, x)),
        );
    }
    /// Whether a linear net should read this encoding through
    /// [`Encoding::encode_sparse`] rather than a dense product (large,
    /// sparse encodings; the default is dense, whose sums the existing
    /// results were measured with).
    fn prefers_sparse(&self) -> bool {
        false
    }
    /// `Some(seat)`: the inputs show every position from this fixed seat's
    /// view, whoever is to move, and a value net reading them values
    /// positions for that seat (Naveed & Cowling's absolute Virus input,
    /// Black = +1); `None` (the default): from the player to move's view.
    fn view(&self) -> Option<usize> {
        None
    }
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

/// The error for an encoding name `game` does not know.
pub fn unknown(game: &str, name: &str, names: &[&str]) -> SpecError {
    SpecError(format!(
        "unknown encoding '{name}' for {game} (accepted: {})",
        names.join(", ")
    ))
}

/// A board of `squares` squares read through `at(i) -> Option<seat>` from
/// the view of `me`, as `raw` inputs.
pub fn write_raw(out: &mut [f32], me: usize, at: impl Fn(usize) -> Option<usize>) {
    for (i, o) in out.iter_mut().enumerate() {
        *o = match at(i) {
            Some(p) if p == me => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        };
    }
}

/// The thesis's planes: two side-to-move bits, then one plane per seat.
pub fn write_planes(
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

/// The grid encodings' names as `'static` strings; `None` for other names.
fn grid_name(name: &str) -> Option<&'static str> {
    match name {
        "raw" => Some("raw"),
        "planes" => Some("planes"),
        _ => None,
    }
}

/// Inputs of grid encoding `name` over `squares` squares: one per square
/// (`raw`), or two side-to-move inputs and a plane per seat (`planes`).
fn grid_size(name: &str, squares: usize) -> usize {
    if name == "raw" {
        squares
    } else {
        2 + 2 * squares
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
        grid_size(self.name, self.squares)
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

/// The `raw` or `planes` encoding of a grid of `squares` squares (`None`
/// for other names): `at(state, i)` is the seat on square `i`, row-major
/// from the top-left, and `to_move(state)` the seat to move.
pub fn grid<S: Send + Sync + 'static>(
    name: &str,
    squares: usize,
    at: fn(&S, usize) -> Option<usize>,
    to_move: fn(&S) -> Option<usize>,
) -> Option<Box<dyn Encoding<S>>> {
    let name = grid_name(name)?;
    Some(Box::new(Grid {
        name,
        squares,
        at,
        to_move,
    }))
}

/// A grid encoding read from one occupancy bitboard per seat: the same
/// inputs as [`grid`] gives, without a call per square (the hot path of
/// net players: every leaf of a search is encoded). It clears the inputs
/// and visits the occupied squares only, one set bit at a time.
struct BitGrid<S> {
    name: &'static str,
    /// Whether this is `raw` (else `planes`).
    raw: bool,
    /// Number of squares.
    squares: usize,
    /// The encoding square of each bitboard bit (only bits of squares are
    /// ever set).
    square_of: [u8; 64],
    seats: fn(&S) -> [u64; 2],
    to_move: fn(&S) -> Option<usize>,
}

impl<S: Send + Sync> Encoding<S> for BitGrid<S> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn size(&self) -> usize {
        grid_size(self.name, self.squares)
    }
    fn encode(&self, state: &S, out: &mut [f32]) {
        let to_move = (self.to_move)(state);
        let seats = (self.seats)(state);
        out.fill(0.0);
        // The inputs of the set bits of `b`, `value` each, from `offset` on.
        let mut mark = |mut b: u64, offset: usize, value: f32| {
            while b != 0 {
                out[offset + self.square_of[b.trailing_zeros() as usize] as usize] = value;
                b &= b - 1;
            }
        };
        if self.raw {
            let me = to_move.unwrap_or(0) & 1;
            mark(seats[me], 0, 1.0);
            mark(seats[1 - me], 0, -1.0);
        } else {
            for (p, &b) in seats.iter().enumerate() {
                mark(b, 2 + p * self.squares, 1.0);
            }
            if let Some(p) = to_move {
                out[p] = 1.0;
            }
        }
    }
}

/// The `raw` or `planes` encoding of a grid whose state keeps one bitboard
/// per seat (`None` for other names): `index[i]` is the bit of square `i`
/// (row-major from the top-left, as in [`grid`]), `seats(state)` the two
/// seats' bitboards and `to_move(state)` the seat to move. Gives exactly
/// the inputs [`grid`] gives for the same board.
pub fn bit_grid<S: Send + Sync + 'static>(
    name: &str,
    index: Vec<u8>,
    seats: fn(&S) -> [u64; 2],
    to_move: fn(&S) -> Option<usize>,
) -> Option<Box<dyn Encoding<S>>> {
    let name = grid_name(name)?;
    let mut square_of = [0u8; 64];
    for (i, &k) in index.iter().enumerate() {
        square_of[usize::from(k)] = i as u8;
    }
    Some(Box::new(BitGrid {
        name,
        raw: name == "raw",
        squares: index.len(),
        square_of,
        seats,
        to_move,
    }))
}

/// The seat to move, as a plain function to hand to [`grid`].
pub fn mover<S: State>(s: &S) -> Option<usize> {
    super::mover(s)
}

/// Encoding `first`'s inputs followed by `rest`'s, under `name` (e.g.
/// Reversi's `handa+ntuple2`, Virus's `features+ntuple2`): hand-made
/// features beside a board or tuple encoding, so a linear net weighs both.
pub fn concat<S: 'static>(
    name: &'static str,
    first: Box<dyn Encoding<S>>,
    rest: Box<dyn Encoding<S>>,
) -> Box<dyn Encoding<S>> {
    Box::new(Concat { name, first, rest })
}

/// See [`concat`].
struct Concat<S> {
    name: &'static str,
    first: Box<dyn Encoding<S>>,
    rest: Box<dyn Encoding<S>>,
}

impl<S> Encoding<S> for Concat<S> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn size(&self) -> usize {
        self.first.size() + self.rest.size()
    }
    fn encode(&self, state: &S, out: &mut [f32]) {
        let (first, rest) = out.split_at_mut(self.first.size());
        self.first.encode(state, first);
        self.rest.encode(state, rest);
    }
}

/// Test support: along a random game of `game` to its end (the finished
/// position included), its `raw` and `planes` encodings give the inputs
/// that reading the board square by square through `at` gives.
pub fn assert_grids_read_squares<G: Encodable>(
    game: &G,
    squares: usize,
    at: fn(&G::State, usize) -> Option<usize>,
    seed: u64,
) where
    G::State: Send + Sync + 'static,
{
    for name in ["raw", "planes"] {
        let fast = game.encoding(name).unwrap();
        let slow = grid(name, squares, at, mover).unwrap();
        assert_eq!(fast.size(), slow.size());
        let mut s = game.initial_state();
        let mut rng = super::rng::stream(seed, &[]);
        loop {
            let (mut a, mut b) = (vec![9.0; fast.size()], vec![7.0; slow.size()]);
            fast.encode(&s, &mut a);
            slow.encode(&s, &mut b);
            assert_eq!(a, b, "{name} on {}", game.spec());
            if s.is_terminal() {
                break;
            }
            let m = s.random_action(&mut rng);
            s.apply(m);
        }
    }
}
