//! The Virus game (Naveed & Cowling, §1; Cowling, CIG 2005).
//!
//! **Rules as implemented.** A square N×N board. Black (seat 0) moves first;
//! the players alternate, and each move is one of:
//! - a **grow**: a new piece of the mover's colour on an empty square adjacent
//!   (sides or corners) to one of the mover's pieces; the growing piece stays,
//!   so the result depends only on the destination;
//! - a **jump**: one of the mover's pieces moves to an empty square two away
//!   (Chebyshev distance 2, so knight-shaped jumps are included) "via an empty
//!   square": at least one square adjacent to both the origin and the
//!   destination must be empty. The origin becomes empty.
//!
//! After either move every opposing piece adjacent (sides or corners) to the
//! destination changes colour. A player with no legal move passes (the pass is
//! then the only legal action). The game ends when neither player can move,
//! and the player with more pieces wins; equal counts draw. A player without a
//! grow has no jump either (the empty square a jump passes through would be a
//! grow), so "can move" is "has an empty square next to a piece".
//!
//! **Our decision: a ply limit.** Jumps add no pieces, so play can cycle
//! forever. After `max-plies` actions (passes included) the game ends and is
//! scored by pieces as usual.
//!
//! **Parameters.** `virus[:NxN][,start=B/W][,max-plies=P]`:
//! - size `NxN`, square, N from 4 to 8; default `8x8`;
//! - `start`: Black's squares, a slash, White's squares, each list of square
//!   names written together, e.g. `start=a1h8/h1a8`. Default: Black on the
//!   top-left and bottom-right corners, White on the other two (`a1h8/h1a8`
//!   on 8×8). Both lists must be non-empty, on the board and disjoint;
//! - `max-plies`: 1 to 10000, default 400.
//!
//! The canonical spec names the size and the non-default parameters
//! (`virus:8x8`, `virus:6x6,max-plies=200`).
//!
//! **Notation.** Squares `a1`… as in Othello (letter = column, `a` = left;
//! number = row, `1` = top). A grow is its destination (`c3`), a jump its
//! origin and destination (`a1c3`; `a1-c3` is also read), and `pass`.
//! Parsing is case-insensitive and also takes `#index`.
//!
//! **Action indices** (our choice). With squares numbered `s = row × N + col`:
//! - grow to `s`: `s`, for `s` in `0..N²`;
//! - jump from `f` with offset `k`: `N² + 16f + k`, where `k` numbers the
//!   sixteen offsets `(dy, dx)` at Chebyshev distance 2 in row-major order
//!   (dy from −2 to 2, then dx from −2 to 2, skipping |dy|, |dx| ≤ 1):
//!   `k = 0..=4` are `(−2, −2…2)`, `5, 6` are `(−1, ∓2)`, `7, 8` are
//!   `(0, ∓2)`, `9, 10` are `(1, ∓2)`, `11..=15` are `(2, −2…2)`. Indices
//!   whose destination is off the board are never legal;
//! - pass: `17 N²`.
//!
//! There are `17 N² + 1` actions (1089 on 8×8). At most 336 jumps (the
//! number of square pairs at distance 2 on 8×8, each usable in one direction
//! at a time) plus 64 grows are ever legal, under [`MAX_ACTIONS`](crate::game::MAX_ACTIONS).
//!
//! **Heuristic** (for `alphabeta`), from the mover's view:
//! 10 × (own pieces − opponent pieces) + (empty squares next to own pieces −
//! empty squares next to opponent pieces); the second term counts grow moves,
//! a cheap measure of mobility and room.
//!
//! **Board representation.** One `u64` per colour, bit `row × N + col`, and
//! precomputed tables of each square's neighbours, of the squares two away
//! and of each jump's destination. Grows are the mover's pieces dilated by a
//! king step; jumps are sixteen sets of origins, one per offset, from shifts
//! of the empty squares (as Ataxx engines do), so neither the legal list nor
//! a random move loops over pieces.
//!
//! **Players** (in [`players`]): `alphabeta`
//! with the heuristic above, and the twenty hand-crafted players
//! `ai:1` … `ai:20[,depth=D]` (linear evaluations over ten documented
//! features), whose static evaluations are also available as training targets.
//!
//! **Papers.** Naveed & Cowling evolve and train 64-58-27-1 evaluation nets for
//! 8×8 Virus against ten hand-crafted players, and test them on ten more.
//!
//! **References.**
//! - M. H. Naveed and P. I. Cowling, "Using coevolution and gradient-based
//!   learning for the Virus game", University of Bradford (also as Cowling,
//!   Naveed and Hossain, "A coevolutionary model for the Virus game", *IEEE
//!   Symposium on Computational Intelligence and Games (CIG)*, 2006).

pub mod encode;
mod oracle;
pub mod players;
mod rules;
mod state;
mod tables;

use crate::game::{Game, GameInfo, GameSpec, Nature, ParamInfo, SpecError};
use crate::games::bitboard::{bits, parse_square, square_name};
pub use state::VirusState;
pub use tables::JUMP_OFFSETS;

/// Registry entry.
pub const INFO: GameInfo = GameInfo {
    name: "virus",
    aliases: &[],
    about: "the Virus game: grow or jump, convert the neighbours; most pieces wins",
    paper: "Naveed & Cowling",
    params: &[
        ParamInfo {
            name: "size",
            default: "8x8",
            doc: "board NxN, N from 4 to 8",
        },
        ParamInfo {
            name: "start",
            default: "corners (a1h8/h1a8 on 8x8)",
            doc: "Black's squares / White's squares, e.g. a1h8/h1a8; non-empty, disjoint",
        },
        ParamInfo {
            name: "max-plies",
            default: "400",
            doc: "the game ends after this many actions (passes included), 1..=10000",
        },
    ],
    nature: Nature::BOARD,
    examples: &[
        "virus:4x4",
        "virus:5x5,max-plies=20",
        "virus:6x6,start=a1c3/f6d4",
    ],
    bench: &["virus"],
};

/// Black's seat (moves first).
pub const BLACK: usize = 0;

/// White's seat.
pub const WHITE: usize = 1;

/// The default ply limit.
pub const DEFAULT_MAX_PLIES: usize = 400;

/// The game: board side, start position and ply limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Virus {
    n: u8,
    start: [u64; 2],
    max_plies: u16,
}

impl Default for Virus {
    fn default() -> Self {
        Virus {
            n: 8,
            start: corners(8),
            max_plies: DEFAULT_MAX_PLIES as u16,
        }
    }
}

/// The default start on an `n`×`n` board: Black on the top-left and
/// bottom-right corners, White on the other two.
fn corners(n: usize) -> [u64; 2] {
    let sq = |c: usize, r: usize| 1u64 << (r * n + c);
    [sq(0, 0) | sq(n - 1, n - 1), sq(n - 1, 0) | sq(0, n - 1)]
}

fn check_size(c: usize, r: usize) -> Result<(), String> {
    if c == r && (4..=8).contains(&c) {
        Ok(())
    } else {
        Err("accepted: square boards NxN with N from 4 to 8".into())
    }
}

/// Parses squares written together (`a1h8`) into a bitboard.
fn parse_squares(text: &str, n: usize, who: &str) -> Result<u64, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err(format!("{who}'s list of squares is empty"));
    }
    // Squares are ASCII (a letter and digits); anything else would also cut
    // a multi-byte character in two below.
    if let Some(bad) = t.chars().find(|c| !c.is_ascii_alphanumeric()) {
        return Err(format!(
            "'{bad}' in {who}'s list is not part of a square (squares are written a1..{})",
            square_name(n - 1, n - 1)
        ));
    }
    let bytes = t.as_bytes();
    let mut set = 0u64;
    let mut i = 0;
    while i < bytes.len() {
        let mut j = i + 1;
        while j < bytes.len() && bytes[j].is_ascii_digit() {
            j += 1;
        }
        let name = &t[i..j];
        let (c, r) = parse_square(name, n, n).ok_or_else(|| {
            format!(
                "'{name}' in {who}'s list is not a square a1..{}",
                square_name(n - 1, n - 1)
            )
        })?;
        let bit = 1u64 << (r * n + c);
        if set & bit != 0 {
            return Err(format!("{name} is listed twice for {who}"));
        }
        set |= bit;
        i = j;
    }
    Ok(set)
}

fn squares_text(set: u64, n: usize) -> String {
    bits(set).map(|s| square_name(s % n, s / n)).collect()
}

impl Virus {
    /// The board side N.
    pub fn size(&self) -> usize {
        self.n as usize
    }

    /// The ply limit.
    pub fn max_plies(&self) -> usize {
        self.max_plies as usize
    }

    /// The start pieces of each seat, bit `row × N + col`.
    pub fn start(&self) -> [u64; 2] {
        self.start
    }
}

impl Game for Virus {
    type State = VirusState;
    const INFO: GameInfo = INFO;

    /// Builds the game from a parsed spec
    /// (`virus[:NxN][,start=B/W][,max-plies=P]`).
    fn from_spec(spec: &GameSpec) -> Result<Virus, SpecError> {
        spec.check_keys(&["size", "start", "max-plies"])?;
        let (n, _) = spec.size((8, 8), check_size)?;
        let max_plies = spec.int("max-plies", DEFAULT_MAX_PLIES as i64, 1, 10_000)? as u16;
        let start = match spec.get("start") {
            None => corners(n),
            Some(v) => {
                let bad = |why: String| {
                    SpecError(format!(
                        "'virus': start={v}: {why} (accepted: Black's squares/White's squares, \
                         e.g. start=a1h8/h1a8)"
                    ))
                };
                let (b, w) = v
                    .split_once('/')
                    .ok_or_else(|| bad("no '/' between the two lists".into()))?;
                let black = parse_squares(b, n, "Black").map_err(bad)?;
                let white = parse_squares(w, n, "White").map_err(bad)?;
                if black & white != 0 {
                    return Err(bad(format!(
                        "{} given to both players",
                        squares_text(black & white, n)
                    )));
                }
                [black, white]
            }
        };
        Ok(Virus {
            n: n as u8,
            start,
            max_plies,
        })
    }

    fn spec(&self) -> String {
        let n = self.size();
        let mut s = format!("virus:{n}x{n}");
        if self.start != corners(n) {
            s += &format!(
                ",start={}/{}",
                squares_text(self.start[0], n),
                squares_text(self.start[1], n)
            );
        }
        if self.max_plies as usize != DEFAULT_MAX_PLIES {
            s += &format!(",max-plies={}", self.max_plies);
        }
        s
    }
    fn num_actions(&self) -> usize {
        17 * self.size() * self.size() + 1
    }
    fn max_game_length(&self) -> usize {
        self.max_plies as usize
    }
    fn initial_state(&self) -> VirusState {
        VirusState {
            pieces: self.start,
            plies: 0,
            max_plies: self.max_plies,
            n: self.n,
            to_move: BLACK as u8,
        }
    }
    fn seat_names(&self) -> Vec<&'static str> {
        vec!["black", "white"]
    }
}

#[cfg(test)]
mod tests {
    use super::tables::{jump_origins, OFF_BOARD};
    use super::*;
    use crate::game::{Action, ActionList, State};

    fn game(spec: &str) -> Virus {
        Virus::from_spec(&GameSpec::parse(spec).unwrap()).unwrap()
    }

    #[test]
    fn specs_round_trip_and_errors_explain() {
        assert_eq!(game("virus").spec(), "virus:8x8");
        assert_eq!(game("virus:8x8,start=a1h8/h1a8").spec(), "virus:8x8");
        for s in [
            "virus:5x5",
            "virus:6x6,max-plies=50",
            "virus:4x4,start=b2/c3d4",
        ] {
            assert_eq!(game(s).spec(), s);
            assert_eq!(game(&game(s).spec()), game(s));
        }
        assert_eq!(game("virus").num_actions(), 1089);
        for (bad, says) in [
            ("virus:9x9", "N from 4 to 8"),
            ("virus:6x5", "N from 4 to 8"),
            ("virus:start=a1h8", "no '/'"),
            ("virus:start=/h1", "Black's list of squares is empty"),
            ("virus:start=a1/", "White's list of squares is empty"),
            ("virus:start=a1b2/b2", "b2 given to both"),
            ("virus:start=a1a1/b2", "listed twice"),
            ("virus:start=a9/b2", "not a square"),
            // Found by the game-spec fuzz target: a multi-byte character used
            // to be cut in two (a panic).
            ("virus:start=aé1/b2", "not part of a square"),
            ("virus:max-plies=0", "1..=10000"),
        ] {
            let e = Virus::from_spec(&GameSpec::parse(bad).unwrap()).unwrap_err();
            assert!(e.0.contains(says), "{bad}: {e}");
        }
    }

    #[test]
    fn jump_origins_follow_the_rule() {
        // The sixteen shifted sets against the rule square by square, from the
        // neighbour tables: a piece, an empty destination two away, and an
        // empty square adjacent to both. From the start and along a line of
        // play on every size.
        let mut jumps = 0;
        for n in 4..=8 {
            let g = game(&format!("virus:{n}x{n}"));
            let mut s = g.initial_state();
            for ply in 0..40 {
                let (me, t, empty) = (s.to_move(), s.tables(), s.empty());
                let origins = jump_origins(s.pieces[me], empty, n, t);
                for f in 0..n * n {
                    for (k, o) in origins.iter().enumerate() {
                        let to = t.jump_to[f][k];
                        let rule = s.pieces[me] >> f & 1 == 1
                            && to != OFF_BOARD
                            && empty >> to & 1 == 1
                            && t.adjacent[f] & t.adjacent[to as usize] & empty != 0;
                        assert_eq!(o >> f & 1 == 1, rule, "{n}x{n} ply {ply} f {f} k {k}\n{s}");
                        jumps += rule as usize;
                    }
                }
                let mut legal = ActionList::new();
                s.legal_actions(&mut legal);
                if legal.is_empty() {
                    break;
                }
                // The middle move of the list: varied positions, the same every run.
                s.apply(legal[legal.len() / 2]);
            }
        }
        // The lines are long enough to reach positions with jumps.
        assert!(jumps > 100, "only {jumps} jumps seen");
    }

    #[test]
    fn notation_round_trips() {
        let g = game("virus");
        let s = g.initial_state();
        for a in 0..g.num_actions() as Action {
            let text = s.action_to_string(a);
            if !text.starts_with('#') {
                assert_eq!(s.parse_action(&text).unwrap(), a, "{text}");
            }
        }
        assert_eq!(s.parse_action("A1C3").unwrap(), 64 + 15);
        assert_eq!(s.parse_action("a1-c3").unwrap(), 64 + 15);
        assert_eq!(s.parse_action("b2").unwrap(), 9);
        assert_eq!(s.parse_action("Pass").unwrap(), 1088);
        assert!(s.parse_action("a1b2").is_err());
        assert!(s.parse_action("a1a4").is_err());
        assert!(s.parse_action("i1").is_err());
    }
}
