//! Connect-4's encodings for nets: `raw` (MIDI-Connect4's 36 inputs on 6x6)
//! `planes`, the straight n-tuples `ntuple1` to `ntuple4` shared under
//! the left-right mirror ([`crate::game::ntuple`]; `ntuple4` tables every
//! line a four can be made on), and Thill, Koch & Konen's random-walk
//! n-tuples, also mirror-shared: `walk8`, 70 walks of 8 cells reading
//! empty / own / opponent (70 · 3⁸ = 459,270 inputs), and `walk6r`, 70
//! walks of 6 cells that also tell the empty cells a disc can drop into
//! next (70 · 4⁶ = 286,720 inputs); `walk8r`, 70 walks of 8 cells with
//! those four states (70 · 4⁸ = 4,587,520 inputs), and `walk8rp`, the same
//! with separate tables for each player to move (9,175,040 inputs: Thill,
//! Koch & Konen's and GBG's network); `walk8rp140` is that network with
//! twice the walks (140, 18,350,080 inputs). The walks are drawn from a fixed
//! seed, so a name always means the same tuples on a board size (`walk8`,
//! `walk8r` and `walk8rp` the same 70 walks). `planes+threats` is `planes`
//! followed by three hand-made planes of the board's cells: the cells a disc
//! can drop into now, and the empty cells where one more disc would complete
//! four for the player to move, then for the opponent (Allis's threats;
//! `6x6`: 74 + 3 · 36 = 182 inputs). `planes+tactics` is `planes+threats`
//! followed by two more: the threats a disc can drop into now, the player
//! to move's wins in one, then the opponent's (the fours to complete or to
//! stop this ply; 74 + 5 · 36 = 254 inputs on `6x6`).

use super::{Connect4, Connect4State};
use crate::game::encode::{bit_grid, concat, mover, unknown, Encodable, Encoding, EncodingOf};
use crate::game::ntuple::{ntuple_length, NTuples, Symmetry, TupleBoard, NTUPLE_NAMES};
use crate::game::{Game, SpecError};

/// Random-walk tuples per walk encoding (Thill, Koch & Konen's 70).
const WALKS: usize = 70;
/// The seed the walks are drawn from (fixed: the encoding names stand for
/// these tuples).
const WALK_SEED: u64 = 2012;

impl Encodable for Connect4 {
    fn encoding_names(&self) -> &'static [&'static str] {
        &[
            "raw",
            "planes",
            "planes+threats",
            "planes+tactics",
            "ntuple1",
            "ntuple2",
            "ntuple3",
            "ntuple4",
            "walk8",
            "walk6r",
            "walk8r",
            "walk8rp",
            "walk8rp140",
        ]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        // Square i is row-major from the top (as `Connect4State::at` reads
        // it); the bitboard holds column c, row r (from the top) at bit
        // c * (rows + 1) + (rows - 1 - r).
        let (columns, rows) = (self.columns(), self.rows());
        let index: Vec<u8> = (0..columns * rows)
            .map(|i| ((i % columns) * (rows + 1) + (rows - 1 - i / columns)) as u8)
            .collect();
        let board = TupleBoard {
            size: (columns, rows),
            symmetry: Symmetry::Mirror,
            index: &index,
            seats: Connect4State::seat_bitboards,
            to_move: mover,
        };
        if let Some((name, now)) = match name {
            "planes+threats" => Some(("planes+threats", false)),
            "planes+tactics" => Some(("planes+tactics", true)),
            _ => None,
        } {
            let planes = bit_grid(
                "planes",
                index.clone(),
                Connect4State::seat_bitboards,
                mover,
            )
            .expect("planes is a grid encoding");
            return Ok(concat(name, planes, Box::new(Threats { index, now })));
        }
        if let Some(n) = ntuple_length(name) {
            return Ok(Box::new(NTuples::new(NTUPLE_NAMES[n - 1], n, &board)));
        }
        let walks = |name, n, count| NTuples::walks(name, (n, count, WALK_SEED), &board);
        let per_player = |name, count| {
            walks(name, 8, count)
                .with_reachable(Connect4State::playable_cells)
                .per_player()
        };
        match name {
            "walk8" => return Ok(Box::new(walks("walk8", 8, WALKS))),
            "walk6r" => {
                let tuples =
                    walks("walk6r", 6, WALKS).with_reachable(Connect4State::playable_cells);
                return Ok(Box::new(tuples));
            }
            "walk8r" => {
                let tuples =
                    walks("walk8r", 8, WALKS).with_reachable(Connect4State::playable_cells);
                return Ok(Box::new(tuples));
            }
            "walk8rp" => return Ok(Box::new(per_player("walk8rp", WALKS))),
            "walk8rp140" => return Ok(Box::new(per_player("walk8rp140", 2 * WALKS))),
            _ => {}
        }
        bit_grid(name, index, Connect4State::seat_bitboards, mover)
            .ok_or_else(|| unknown(&self.spec(), name, self.encoding_names()))
    }
}

/// The three threat planes of `planes+threats`, or the five of
/// `planes+tactics` (`now`; the module docs), square `i` at bit `index[i]`
/// of the state's bitboards.
struct Threats {
    index: Vec<u8>,
    now: bool,
}

impl Encoding<Connect4State> for Threats {
    fn name(&self) -> &'static str {
        if self.now {
            "tactics"
        } else {
            "threats"
        }
    }
    fn size(&self) -> usize {
        (if self.now { 5 } else { 3 }) * self.index.len()
    }
    fn encode(&self, state: &Connect4State, out: &mut [f32]) {
        let me = state.to_move();
        let (playable, mine, theirs) = (
            state.playable_cells(),
            state.winning_cells(me),
            state.winning_cells(1 - me),
        );
        let planes = [playable, mine, theirs, playable & mine, playable & theirs];
        let planes = &planes[..if self.now { 5 } else { 3 }];
        let n = self.index.len();
        for (plane, &bits) in out.chunks_exact_mut(n).zip(planes) {
            for (x, &bit) in plane.iter_mut().zip(&self.index) {
                *x = f32::from(u8::from(bits >> bit & 1 == 1));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::State;

    /// The walk encodings' sizes: 70 classes of 3⁸ or 4⁶ entries (the
    /// module docs), the same tuples each time they are built, and one
    /// image per walk and mirror image at most.
    #[test]
    fn walk_encodings_have_seventy_tables() {
        let game = Connect4::new(6, 6).unwrap();
        let w8 = game.encoding("walk8").unwrap();
        assert_eq!(w8.size(), 70 * 6561);
        let w6 = game.encoding("walk6r").unwrap();
        assert_eq!(w6.size(), 70 * 4096);
        assert!(w8.prefers_sparse() && !game.encoding("ntuple4").unwrap().prefers_sparse());
        let s = game.initial_state();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        w8.encode_sparse(&s, &mut a);
        game.encoding("walk8").unwrap().encode_sparse(&s, &mut b);
        assert_eq!(a, b);
        assert!((70..=140).contains(&a.len()), "{} images", a.len());
    }

    /// GBG's network: `walk8r` has 70 tables of 4⁸ entries, `walk8rp` two
    /// such sets, one per player to move. The first mover's positions read
    /// the first set only, the second mover's the second, each at the
    /// places `walk8r` reads.
    #[test]
    fn per_player_tables_split_the_inputs_by_the_mover() {
        let game = Connect4::new(6, 6).unwrap();
        let (r, rp) = (
            game.encoding("walk8r").unwrap(),
            game.encoding("walk8rp").unwrap(),
        );
        let table = 70 * 65_536;
        assert_eq!((r.size(), rp.size()), (table, 2 * table));
        let mut s = game.initial_state();
        for mover in 0..2u32 {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            r.encode_sparse(&s, &mut a);
            rp.encode_sparse(&s, &mut b);
            let shifted: Vec<(u32, f32)> = a
                .iter()
                .map(|&(i, x)| (i + mover * table as u32, x))
                .collect();
            assert_eq!(b, shifted, "mover {mover}");
            s.apply(3);
        }
        // `walk8rp140`: twice the walks (every one a class of its own), so
        // twice the inputs, and more of them read on a board.
        let wide = game.encoding("walk8rp140").unwrap();
        assert_eq!(wide.size(), 2 * rp.size());
        let s = game.initial_state();
        let (mut narrow_in, mut wide_in) = (Vec::new(), Vec::new());
        rp.encode_sparse(&s, &mut narrow_in);
        wide.encode_sparse(&s, &mut wide_in);
        assert!(wide_in.len() > narrow_in.len());
    }

    /// On the empty board only the bottom row is playable: `walk6r` reads
    /// 3 there and 0 on the other empty cells, so a position and the same
    /// discs with the bottom cells read as plain empty differ.
    #[test]
    fn walk6r_tells_playable_cells() {
        let game = Connect4::new(6, 6).unwrap();
        let s = game.initial_state();
        // Bottom row: column c's bit c · 7 (height 0).
        let bottom: u64 = (0..6).map(|c| 1u64 << (c * 7)).sum();
        assert_eq!(s.playable_cells(), bottom);
        let mut t = s;
        t.apply(2);
        assert_eq!(t.playable_cells(), bottom ^ (1 << 14) | 1 << 15);
        let enc = game.encoding("walk6r").unwrap();
        let mut pairs = Vec::new();
        enc.encode_sparse(&s, &mut pairs);
        // Every configuration index is a base-4 number of 6 digits, and
        // some tuple holds a bottom cell, so some digit is 3.
        let digits = |i: u32| (0..6).map(move |j| (i % 4096) / 4u32.pow(j) % 4);
        assert!(pairs.iter().any(|&(i, _)| digits(i).any(|d| d == 3)));
        assert!(pairs
            .iter()
            .all(|&(i, _)| digits(i).all(|d| d == 0 || d == 3)));
    }

    /// The 6x6 squares set in hand-made plane `plane` of `x` (the planes
    /// after `planes`' 74 inputs).
    fn on(x: &[f32], plane: usize) -> Vec<usize> {
        (0..36).filter(|&i| x[74 + plane * 36 + i] == 1.0).collect()
    }

    /// `planes+threats`: `planes`, then the playable cells and each side's
    /// completing cells, here after X's three discs in column 1 (O to move:
    /// X's threat is the fourth cell of column 1, row 2 from the top), and
    /// along random games the threat planes equal a plain scan of every
    /// empty cell's four lines through `at`.
    #[test]
    fn threat_planes_mark_the_cells_that_complete_four() {
        let game = Connect4::new(6, 6).unwrap();
        let enc = game.encoding("planes+threats").unwrap();
        assert_eq!(enc.size(), 74 + 3 * 36);
        let s = game.state_from_moves("12121").unwrap();
        let mut x = vec![0.0; enc.size()];
        enc.encode(&s, &mut x);
        assert_eq!(on(&x, 0), [12, 19, 32, 33, 34, 35]);
        assert_eq!(on(&x, 1), Vec::<usize>::new(), "O, to move, has no threat");
        assert_eq!(on(&x, 2), [12], "X completes four in column 1");
        // A plain scan: an empty cell completes four for `seat` when a line
        // of four through it holds three of the seat's discs.
        let scan = |s: &Connect4State, seat: usize| -> Vec<usize> {
            let own = |c: i32, r: i32| {
                (0..6).contains(&c)
                    && (0..6).contains(&r)
                    && s.at(c as usize, r as usize) == Some(seat)
            };
            let mut cells = Vec::new();
            for i in 0..36 {
                let (c, r) = ((i % 6) as i32, (i / 6) as i32);
                if s.at(c as usize, r as usize).is_some() {
                    continue;
                }
                let wins = [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
                    (-3..=0).any(|k| {
                        (0..4).all(|j| {
                            let (cc, rr) = (c + (k + j) * dc, r + (k + j) * dr);
                            (cc, rr) == (c, r) || own(cc, rr)
                        })
                    })
                });
                if wins {
                    cells.push(i);
                }
            }
            cells
        };
        let mut rng = crate::game::rng::stream(7, &[]);
        let mut checked = 0;
        for _ in 0..200 {
            let mut s = game.initial_state();
            while !s.is_terminal() {
                enc.encode(&s, &mut x);
                let me = s.to_move();
                assert_eq!(on(&x, 1), scan(&s, me));
                assert_eq!(on(&x, 2), scan(&s, 1 - me));
                checked += 1;
                let a = s.random_action(&mut rng);
                s.apply(a);
            }
        }
        assert!(checked > 1000);
    }

    /// `planes+tactics`: `planes+threats`, then the threats that can be
    /// played now, each side's. After "12121" O must stop X's four in
    /// column 1 (square 12, the second row from the top); after "1212"
    /// with X to move, X's third disc there would not yet be a win, so
    /// both planes are empty; and along random games the two planes are
    /// the threat planes limited to the playable cells.
    #[test]
    fn tactic_planes_mark_the_fours_to_complete_or_stop_now() {
        let game = Connect4::new(6, 6).unwrap();
        let enc = game.encoding("planes+tactics").unwrap();
        assert_eq!(enc.size(), 74 + 5 * 36);
        let mut x = vec![0.0; enc.size()];
        enc.encode(&game.state_from_moves("12121").unwrap(), &mut x);
        assert_eq!((on(&x, 3), on(&x, 4)), (vec![], vec![12]));
        enc.encode(&game.state_from_moves("1212").unwrap(), &mut x);
        assert_eq!((on(&x, 3), on(&x, 4)), (vec![], vec![]));
        let threats = game.encoding("planes+threats").unwrap();
        let mut t = vec![0.0; threats.size()];
        let mut rng = crate::game::rng::stream(8, &[]);
        let mut wins = 0;
        for _ in 0..200 {
            let mut s = game.initial_state();
            while !s.is_terminal() {
                enc.encode(&s, &mut x);
                threats.encode(&s, &mut t);
                assert_eq!(x[..t.len()], t[..]);
                let playable = on(&x, 0);
                for (now, of) in [(3, 1), (4, 2)] {
                    let want: Vec<usize> = on(&x, of)
                        .into_iter()
                        .filter(|i| playable.contains(i))
                        .collect();
                    assert_eq!(on(&x, now), want);
                }
                wins += on(&x, 3).len();
                let a = s.random_action(&mut rng);
                s.apply(a);
            }
        }
        assert!(wins > 100, "random games leave wins in one: {wins}");
    }

    /// `ntuple4` tables the lines a four can be made on: a position and its
    /// left-right mirror image (every move played in the mirrored column)
    /// give the same inputs, and every input counts tuples of the board.
    #[test]
    fn ntuple4_sees_a_position_and_its_mirror_alike() {
        let game = Connect4::new(7, 6).unwrap();
        let enc = game.encoding("ntuple4").unwrap();
        // Lines of four on 7x6: 6·4 across, 7·3 down, 2·4·3 diagonal = 69;
        // each is counted at least once.
        let (mut a, mut b) = (vec![0.0; enc.size()], vec![0.0; enc.size()]);
        let (mut s, mut m) = (game.initial_state(), game.initial_state());
        let mut rng = crate::game::rng::stream(9, &[]);
        while !s.is_terminal() {
            enc.encode(&s, &mut a);
            enc.encode(&m, &mut b);
            assert_eq!(a, b);
            assert!(a.iter().sum::<f32>() >= 69.0);
            let col = s.random_action(&mut rng);
            s.apply(col);
            m.apply(6 - col);
        }
    }
}
