//! Systematic n-tuple networks as an encoding (Jaśkowski, 2014).
//!
//! An n-tuple network values a position by summing, over a set of n-tuples
//! (sequences of n squares), a table entry chosen by what the n squares hold.
//! Here every straight run of n neighbouring squares (across, down and both
//! diagonals) is a tuple, and tuples that the board's symmetries map onto
//! each other share one table ("symmetric sampling"): a *class* is the set
//! of ordered images `σ(T)` of one tuple `T` under the symmetries.
//!
//! wopr writes this as an encoding, so that the net kinds, training and
//! evolution need nothing new: input `c · 3ⁿ + k` counts the tuples of class
//! `c` whose squares read configuration `k = Σⱼ dⱼ·3ʲ` (`dⱼ` is 0 for
//! empty, 1 for the mover's piece, 2 for the opponent's on the tuple's
//! j-th square). A linear net over these inputs *is* the n-tuple network:
//! its weight `c · 3ⁿ + k` is the shared table entry. `ntuple1` is a weighted
//! piece counter with one weight per symmetry class of squares and piece
//! (own, opponent, empty); `ntuple2` on 8x8 is Jaśkowski's "all 2-tuples"
//! network: 32 classes, 288 inputs, as in his paper.

use super::encode::Encoding;

/// The encoding names `ntuple1` … `ntuple4`, by tuple length − 1.
pub const NTUPLE_NAMES: [&str; 4] = ["ntuple1", "ntuple2", "ntuple3", "ntuple4"];

/// The tuple length of encoding `name` (`ntuple3` → 3), `None` for other
/// names.
pub fn ntuple_length(name: &str) -> Option<usize> {
    NTUPLE_NAMES.iter().position(|&n| n == name).map(|i| i + 1)
}

/// The symmetries a board's tuples are shared under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    /// The eight rotations and reflections of a square board (Reversi).
    Dihedral,
    /// The identity and the left-right mirror (Connect-4: gravity breaks the
    /// others).
    Mirror,
}

/// An n-tuple encoding of a grid whose state keeps one bitboard per seat
/// (see the module docs): the straight runs of [`NTuples::new`], or random
/// walks ([`NTuples::walks`]).
pub struct NTuples<S> {
    name: &'static str,
    n: usize,
    classes: usize,
    /// Values a square reads: 3 (empty, own, opponent) or 4 (and empty
    /// squares `reachable` marks).
    states: usize,
    /// For every tuple image: the input where its class's table starts
    /// (`class · statesⁿ`).
    bases: Vec<usize>,
    /// For every tuple image, `n` bits: its squares in the bitboards.
    squares: Vec<u8>,
    seats: fn(&S) -> [u64; 2],
    to_move: fn(&S) -> Option<usize>,
    /// The empty squares that read 3 instead of 0 (Connect-4: the cells a
    /// disc can drop into next).
    reachable: Option<fn(&S) -> u64>,
    /// Whether each seat to move has its own tables (the inputs double).
    per_player: bool,
    /// Every square some tuple reads, as bits.
    used: u64,
}

/// A square as (column, row).
pub type Square = (usize, usize);

/// The images of `(c, r)` on a `width × height` grid under `symmetry`.
pub fn images(
    symmetry: Symmetry,
    width: usize,
    height: usize,
) -> Vec<Box<dyn Fn(Square) -> Square>> {
    let (w, h) = (width - 1, height - 1);
    let mut maps: Vec<Box<dyn Fn(Square) -> Square>> = vec![
        Box::new(|(c, r)| (c, r)),
        Box::new(move |(c, r)| (w - c, r)),
    ];
    if symmetry == Symmetry::Dihedral {
        assert_eq!(width, height, "dihedral symmetry needs a square board");
        maps.extend([
            Box::new(move |(c, r)| (c, h - r)) as Box<dyn Fn(Square) -> Square>,
            Box::new(move |(c, r)| (w - c, h - r)),
            Box::new(|(c, r)| (r, c)),
            Box::new(move |(c, r)| (w - r, c)),
            Box::new(move |(c, r)| (r, h - c)),
            Box::new(move |(c, r)| (w - r, h - c)),
        ]);
    }
    maps
}

/// The distinct ordered images of `tuple` under `maps`, its squares listed
/// in the order `tuple` reads them; `None` if `tuple` (as a set of squares)
/// is an image of a tuple already seen. Every image's set joins `seen`.
pub fn orbit(
    tuple: &[Square],
    maps: &[Box<dyn Fn(Square) -> Square>],
    seen: &mut std::collections::HashSet<Vec<Square>>,
) -> Option<std::collections::BTreeSet<Vec<Square>>> {
    let mut key = tuple.to_vec();
    key.sort_unstable();
    if seen.contains(&key) {
        return None;
    }
    let mut ordered = std::collections::BTreeSet::new();
    for map in maps {
        let image: Vec<Square> = tuple.iter().map(|&s| map(s)).collect();
        let mut set = image.clone();
        set.sort_unstable();
        seen.insert(set);
        ordered.insert(image);
    }
    Some(ordered)
}

/// Every straight run of `n` neighbouring squares on the grid, each in the
/// order it is walked from its first square.
fn straight_runs(n: usize, width: usize, height: usize) -> Vec<Vec<Square>> {
    let directions: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
    let mut runs = Vec::new();
    for &(dc, dr) in &directions {
        if n == 1 && (dc, dr) != (1, 0) {
            continue; // a 1-tuple has no direction: list each square once
        }
        for r in 0..height as isize {
            for c in 0..width as isize {
                let run: Option<Vec<Square>> = (0..n as isize)
                    .map(|j| {
                        let (cc, rr) = (c + j * dc, r + j * dr);
                        let inside =
                            (0..width as isize).contains(&cc) && (0..height as isize).contains(&rr);
                        inside.then_some((cc as usize, rr as usize))
                    })
                    .collect();
                runs.extend(run);
            }
        }
    }
    runs
}

/// `count` random walks of `n` distinct squares, none an image of another
/// under `symmetry` (see [`NTuples::walks`]).
fn random_walks(
    n: usize,
    count: usize,
    (width, height): (usize, usize),
    symmetry: Symmetry,
    seed: u64,
) -> Vec<Vec<Square>> {
    use rand::RngExt;
    let mut rng = super::rng::stream(seed, &[0x7475_706c_6573]);
    let maps = images(symmetry, width, height);
    let mut seen = std::collections::HashSet::new();
    let mut walks = Vec::with_capacity(count);
    while walks.len() < count {
        let mut walk = vec![(rng.random_range(0..width), rng.random_range(0..height))];
        while walk.len() < n {
            let &(c, r) = walk.last().expect("a walk has a square");
            let next: Vec<Square> = (-1isize..=1)
                .flat_map(|dc| (-1isize..=1).map(move |dr| (dc, dr)))
                .filter_map(|(dc, dr)| {
                    let (cc, rr) = (c as isize + dc, r as isize + dr);
                    let inside =
                        (0..width as isize).contains(&cc) && (0..height as isize).contains(&rr);
                    inside.then_some((cc as usize, rr as usize))
                })
                .filter(|s| !walk.contains(s))
                .collect();
            if next.is_empty() {
                walk.truncate(1); // boxed in: walk again from the start
                continue;
            }
            walk.push(next[rng.random_range(0..next.len())]);
        }
        let mut key = walk.clone();
        key.sort_unstable();
        if seen.contains(&key) {
            continue;
        }
        for map in &maps {
            let mut set: Vec<Square> = walk.iter().map(|&s| map(s)).collect();
            set.sort_unstable();
            seen.insert(set);
        }
        walks.push(walk);
    }
    walks
}

/// Builds tuples on a square board of side `side` whose bitboards hold
/// square `(col, row)` at bit `row × side + col`, shared under the 8
/// symmetries and read from the mover's view.
fn on_square_board<S: crate::game::State>(
    side: usize,
    seats: fn(&S) -> [u64; 2],
    build: impl FnOnce(&TupleBoard<'_, S>) -> NTuples<S>,
) -> NTuples<S> {
    let index: Vec<u8> = (0..(side * side) as u8).collect();
    build(&TupleBoard {
        size: (side, side),
        symmetry: Symmetry::Dihedral,
        index: &index,
        seats,
        to_move: super::encode::mover,
    })
}

/// The board an n-tuple encoding reads: its size, the symmetries its
/// tuples are shared under, where each square lives in the bitboards, and
/// how to read them.
pub struct TupleBoard<'a, S> {
    /// Columns and rows.
    pub size: (usize, usize),
    /// The symmetries tuples are shared under.
    pub symmetry: Symmetry,
    /// `index[row * width + col]`: that square's bit in `seats(state)`.
    pub index: &'a [u8],
    /// Each seat's pieces as a bitboard.
    pub seats: fn(&S) -> [u64; 2],
    /// The player to move, whose pieces read 1 (the opponent's read 2).
    pub to_move: fn(&S) -> Option<usize>,
}

impl<S> NTuples<S> {
    /// The straight `n`-tuples of `board`, shared under its symmetry.
    pub fn new(name: &'static str, n: usize, board: &TupleBoard<'_, S>) -> NTuples<S> {
        assert!((1..=6).contains(&n), "tuples of 1 to 6 squares");
        let (width, height) = board.size;
        NTuples::from_tuples(name, straight_runs(n, width, height), board)
    }

    /// `count` tuples of `n` squares, each a random walk over neighbouring
    /// squares (diagonals included) drawn from `seed`, shared under the
    /// board's symmetry as [`NTuples::new`]'s are: Thill, Koch & Konen's
    /// Connect-4 network (70 walks of 8 squares). Walks that are images of
    /// one already drawn are drawn again, so there are `count` classes.
    pub fn walks(
        name: &'static str,
        (n, count, seed): (usize, usize, u64),
        board: &TupleBoard<'_, S>,
    ) -> NTuples<S> {
        let (width, height) = board.size;
        assert!(
            n <= width * height,
            "a walk cannot hold more squares than the board"
        );
        let walks = random_walks(n, count, board.size, board.symmetry, seed);
        NTuples::from_tuples(name, walks, board)
    }

    /// The encoding of the classes `tuples` (and their images) make.
    fn from_tuples(
        name: &'static str,
        tuples: Vec<Vec<Square>>,
        board: &TupleBoard<'_, S>,
    ) -> NTuples<S> {
        let (width, height) = board.size;
        let index = board.index;
        assert_eq!(index.len(), width * height, "one bit per square");
        let n = tuples.first().map_or(1, Vec::len);
        let maps = images(board.symmetry, width, height);
        let mut seen = std::collections::HashSet::new();
        let (mut classes_of, mut squares) = (Vec::new(), Vec::new());
        let mut classes = 0;
        for run in tuples {
            let Some(ordered) = orbit(&run, &maps, &mut seen) else {
                continue; // this run is an image of a class already made
            };
            for image in ordered {
                classes_of.push(classes);
                squares.extend(image.iter().map(|&(c, r)| index[r * width + c]));
            }
            classes += 1;
        }
        let table = 3usize.pow(n as u32);
        let used = squares.iter().fold(0, |m, &b| m | 1u64 << b);
        NTuples {
            name,
            n,
            classes,
            states: 3,
            bases: classes_of.iter().map(|&c| c * table).collect(),
            squares,
            seats: board.seats,
            to_move: board.to_move,
            reachable: None,
            per_player: false,
            used,
        }
    }

    /// Reads a fourth value, 3, on the empty squares `reachable(state)`
    /// marks (Thill et al.'s "empty and playable next" Connect-4 cells):
    /// tables grow from 3ⁿ to 4ⁿ entries.
    pub fn with_reachable(mut self, reachable: fn(&S) -> u64) -> NTuples<S> {
        let (old, new) = (3usize.pow(self.n as u32), 4usize.pow(self.n as u32));
        self.bases.iter_mut().for_each(|b| *b = *b / old * new);
        self.states = 4;
        self.reachable = Some(reachable);
        self
    }

    /// Gives each seat to move its own tables (Thill, Koch & Konen's
    /// separate value tables per player): the first mover's positions read
    /// the first half of the inputs, the second mover's the second.
    pub fn per_player(mut self) -> NTuples<S> {
        self.per_player = true;
        self
    }

    /// `ntuple{n}` on a square board of side `side` whose bitboards hold
    /// square `(col, row)` at bit `row × side + col`, shared under the 8
    /// symmetries and read from the mover's view (Reversi, Virus).
    pub fn square(n: usize, side: usize, seats: fn(&S) -> [u64; 2]) -> NTuples<S>
    where
        S: crate::game::State,
    {
        on_square_board(side, seats, |board| {
            NTuples::new(NTUPLE_NAMES[n - 1], n, board)
        })
    }

    /// `count` random walks of `n` squares drawn from `seed` on a square
    /// board of side `side` laid out as [`NTuples::square`]'s, shared under
    /// the 8 symmetries and read from the mover's view (Lucas's random
    /// "snakes" for Othello).
    pub fn square_walks(
        name: &'static str,
        (n, count, seed): (usize, usize, u64),
        side: usize,
        seats: fn(&S) -> [u64; 2],
    ) -> NTuples<S>
    where
        S: crate::game::State,
    {
        on_square_board(side, seats, |board| {
            NTuples::walks(name, (n, count, seed), board)
        })
    }

    /// The number of tuple classes (tables); the encoding has `classes ·
    /// statesⁿ` inputs.
    pub fn classes(&self) -> usize {
        self.classes
    }

    /// The number of tuple images counted per position.
    pub fn images(&self) -> usize {
        self.bases.len()
    }
}

impl<S> NTuples<S> {
    /// Calls `f` with the input each tuple image of `state` counts in
    /// (its table's start plus the configuration it reads).
    #[inline]
    fn for_each_image(&self, state: &S, mut f: impl FnMut(usize)) {
        let me = (self.to_move)(state).unwrap_or(0) & 1;
        let half = if self.per_player {
            me * self.classes * self.states.pow(self.n as u32)
        } else {
            0
        };
        let seats = (self.seats)(state);
        let (own, other) = (seats[me], seats[1 - me]);
        // Empty squares that read 3 (none unless `reachable` is given).
        let next = self.reachable.map_or(0, |r| r(state) & !(own | other));
        // Each square's reading, once, then each image is `n` look-ups.
        let mut digits = [0u8; 64];
        let mut used = self.used;
        while used != 0 {
            let b = used.trailing_zeros();
            digits[b as usize] =
                (((own >> b) & 1) + 2 * ((other >> b) & 1) + 3 * ((next >> b) & 1)) as u8;
            used &= used - 1;
        }
        // Tuple lengths and cell-state counts the compiler can unroll and
        // turn into shifts (4 states: two bits a square).
        match (self.n, self.states) {
            (8, 4) => self.images_of::<8, 4>(&digits, half, f),
            (8, 3) => self.images_of::<8, 3>(&digits, half, f),
            (6, 4) => self.images_of::<6, 4>(&digits, half, f),
            (6, 3) => self.images_of::<6, 3>(&digits, half, f),
            (n, _) => {
                let states = self.states;
                for (&base, bits) in self.bases.iter().zip(self.squares.chunks_exact(n)) {
                    let k = bits
                        .iter()
                        .rev()
                        .fold(0, |k, &b| k * states + digits[b as usize] as usize);
                    f(half + base + k);
                }
            }
        }
    }

    /// [`NTuples::for_each_image`]'s loop for tuples of `N` squares of
    /// `STATES` states each (constants the compiler can unroll).
    #[inline]
    fn images_of<const N: usize, const STATES: usize>(
        &self,
        digits: &[u8; 64],
        half: usize,
        mut f: impl FnMut(usize),
    ) {
        for (&base, bits) in self.bases.iter().zip(self.squares.chunks_exact(N)) {
            let bits: &[u8; N] = bits.try_into().expect("chunks of N");
            let mut k = 0;
            for j in (0..N).rev() {
                k = k * STATES + digits[bits[j] as usize] as usize;
            }
            f(half + base + k);
        }
    }
}

impl<S: Send + Sync> Encoding<S> for NTuples<S> {
    fn name(&self) -> &'static str {
        self.name
    }
    fn size(&self) -> usize {
        let tables = if self.per_player { 2 } else { 1 };
        tables * self.classes * self.states.pow(self.n as u32)
    }
    fn encode(&self, state: &S, out: &mut [f32]) {
        out.fill(0.0);
        self.for_each_image(state, |i| out[i] += 1.0);
    }
    fn encode_sparse(&self, state: &S, out: &mut Vec<(u32, f32)>) {
        out.clear();
        self.for_each_image(state, |i| out.push((i as u32, 1.0)));
    }
    fn prefers_sparse(&self) -> bool {
        // Random-walk tables are large (Connect-4 `walk8`: 459,270 inputs):
        // a linear net reads them by look-up, not by a dense product.
        self.n > 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bare board: two bitboards and the mover.
    struct Board([u64; 2], usize);

    fn tuples(n: usize, side: usize, symmetry: Symmetry) -> NTuples<Board> {
        let index: Vec<u8> = (0..(side * side) as u8).collect();
        let board = TupleBoard {
            size: (side, side),
            symmetry,
            index: &index,
            seats: |b: &Board| b.0,
            to_move: |b: &Board| Some(b.1),
        };
        NTuples::new("t", n, &board)
    }

    /// The distinct square sets among a tuple encoding's images.
    fn sets(enc: &NTuples<Board>) -> std::collections::HashSet<Vec<u8>> {
        enc.squares
            .chunks_exact(enc.n)
            .map(|bits| {
                let mut set = bits.to_vec();
                set.sort_unstable();
                set
            })
            .collect()
    }

    #[test]
    fn class_counts_follow_from_the_board_symmetries() {
        // 1-tuples on 8x8 under the 8 symmetries: the squares of one
        // triangle, 4 + 3 + 2 + 1 = 10 classes; every square is one image
        // of its class, so 64 images.
        let one = tuples(1, 8, Symmetry::Dihedral);
        assert_eq!((one.classes(), one.images()), (10, 64));
        // 6x6: 3 + 2 + 1 = 6 classes.
        assert_eq!(tuples(1, 6, Symmetry::Dihedral).classes(), 6);
        // 2-tuples on 8x8: 2·8·7 = 112 orthogonal and 2·7·7 = 98 diagonal
        // runs, each covered; a run that a symmetry maps onto itself
        // reversed is also walked backwards, so there are more images.
        let two = tuples(2, 8, Symmetry::Dihedral);
        assert_eq!(sets(&two).len(), 210);
        assert!(two.images() > 210 && two.images() <= 420);
        assert_eq!(two.classes(), CLASSES_8X8_PAIRS);
        // Straight 4-tuples on 6 columns × 6 rows under the mirror only:
        // 6·3 across, 3·6 down, 2·3·3 diagonal = 54 runs.
        let four = tuples(4, 6, Symmetry::Mirror);
        assert_eq!(sets(&four).len(), 54);
    }

    /// Classes of neighbouring pairs on 8x8 under the 8 symmetries:
    /// Jaśkowski (2014) gives his "all 2-tuples" network 288 weights, 9 per
    /// tuple, so 288 / 9 = 32 tuples.
    const CLASSES_8X8_PAIRS: usize = 32;

    #[test]
    fn every_image_is_counted_once_with_its_configuration() {
        let enc = tuples(2, 4, Symmetry::Dihedral);
        let mut out = vec![0.0; enc.size()];
        // An empty board: every image reads configuration 0.
        enc.encode(&Board([0, 0], 0), &mut out);
        let total: f32 = out.iter().sum();
        assert_eq!(total as usize, enc.images());
        for c in 0..enc.classes() {
            let counts = &out[c * 9..(c + 1) * 9];
            assert!(counts[1..].iter().all(|&x| x == 0.0));
        }
        // One own piece in a corner: an image holding the corner reads
        // (own, empty) = 1 when it starts there and (empty, own) = 3 when
        // it ends there. The corner lies on 3 runs (across, down, diagonal).
        let with_corner = enc
            .squares
            .chunks_exact(2)
            .filter(|b| b.contains(&0))
            .count();
        assert!(with_corner >= 3);
        enc.encode(&Board([1, 0], 0), &mut out);
        assert_eq!(out.iter().sum::<f32>() as usize, enc.images());
        let at =
            |out: &[f32], k: usize| -> f32 { (0..enc.classes()).map(|c| out[c * 9 + k]).sum() };
        assert_eq!((at(&out, 1) + at(&out, 3)) as usize, with_corner);
        // The same piece read by the other seat is an opponent's piece
        // (2 first, 6 second).
        enc.encode(&Board([1, 0], 1), &mut out);
        assert_eq!((at(&out, 2) + at(&out, 6)) as usize, with_corner);
    }

    #[test]
    fn sparse_pairs_add_up_to_the_dense_inputs() {
        let enc = tuples(3, 6, Symmetry::Dihedral);
        let board = Board([0b1011 | 1 << 21, 1 << 7 | 1 << 30], 1);
        let mut dense = vec![0.0; enc.size()];
        enc.encode(&board, &mut dense);
        let mut pairs = Vec::new();
        enc.encode_sparse(&board, &mut pairs);
        // One pair per image, each adding 1 to its input.
        assert_eq!(pairs.len(), enc.images());
        let mut summed = vec![0.0; enc.size()];
        for (i, x) in pairs {
            summed[i as usize] += x;
        }
        assert_eq!(summed, dense);
    }

    #[test]
    fn symmetric_positions_encode_alike() {
        // Tuples shared under the symmetries see a board and its mirror
        // image alike.
        let enc = tuples(3, 6, Symmetry::Dihedral);
        let own = 0b000011u64 | 1 << 14;
        let other = 1u64 << 20 | 1 << 35;
        let mirror = |b: u64| {
            (0..36)
                .filter(|i| b >> i & 1 == 1)
                .map(|i| 1u64 << ((i / 6) * 6 + 5 - i % 6))
                .fold(0, |a, x| a | x)
        };
        let (mut a, mut b) = (vec![0.0; enc.size()], vec![0.0; enc.size()]);
        enc.encode(&Board([own, other], 0), &mut a);
        enc.encode(&Board([mirror(own), mirror(other)], 0), &mut b);
        assert_eq!(a, b);
    }
}
