//! The Virus game's encodings for nets: `raw` (64 inputs, +1 for the
//! mover's pieces), `absolute` (Naveed & Cowling's 64 inputs as the paper
//! gives them: +1 Black, −1 White, whoever is to move), `planes`, the
//! straight n-tuples `ntuple1` to `ntuple3` shared under the board's 8
//! symmetries ([`crate::game::ntuple`]), the hand-crafted players' ten
//! features counted for each side (`features`, [`VirusFeatures`]), and
//! those features followed by `ntuple2` (`features+ntuple2`).

use super::players::{side_counts, NUM_FEATURES};
use super::{Virus, VirusState};
use crate::game::encode::{bit_grid, concat, mover, unknown, Encodable, Encoding, EncodingOf};
use crate::game::ntuple::{ntuple_length, NTuples};
use crate::game::{Game, SpecError};

impl Encodable for Virus {
    fn encoding_names(&self) -> &'static [&'static str] {
        &[
            "raw",
            "absolute",
            "planes",
            "ntuple1",
            "ntuple2",
            "ntuple3",
            "features",
            "features+ntuple2",
        ]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        if name == "features" {
            return Ok(Box::new(VirusFeatures { n: self.size() }));
        }
        if name == "features+ntuple2" {
            return Ok(concat(
                "features+ntuple2",
                Box::new(VirusFeatures { n: self.size() }),
                self.encoding("ntuple2")?,
            ));
        }
        if let Some(n) = ntuple_length(name).filter(|&n| n <= 3) {
            // Grows and jumps look the same from every side: the tuples are
            // shared under the board's 8 symmetries.
            return Ok(Box::new(NTuples::square(
                n,
                self.size(),
                VirusState::pieces,
            )));
        }
        if name == "absolute" {
            return Ok(Box::new(Absolute {
                squares: self.size() * self.size(),
            }));
        }
        // Square i (row-major from the top-left) is bit i of the bitboards.
        let index = (0..self.size() * self.size()).map(|i| i as u8).collect();
        bit_grid(name, index, VirusState::pieces, mover)
            .ok_or_else(|| unknown(&self.spec(), name, self.encoding_names()))
    }
}

/// Naveed & Cowling's input: one per square, +1 Black, −1 White, 0 empty,
/// row-major from the top-left, whoever is to move; values are Black's.
struct Absolute {
    squares: usize,
}

impl Encoding<VirusState> for Absolute {
    fn name(&self) -> &'static str {
        "absolute"
    }
    fn size(&self) -> usize {
        self.squares
    }
    fn encode(&self, state: &VirusState, out: &mut [f32]) {
        let [black, white] = state.pieces();
        for (k, o) in out.iter_mut().enumerate() {
            *o = ((black >> k) & 1) as f32 - ((white >> k) & 1) as f32;
        }
    }
    fn view(&self) -> Option<usize> {
        Some(super::BLACK)
    }
}

/// The ten features the hand-crafted players weigh
/// ([`super::players`]: pieces, grows, jumps, exposed, safe, edges,
/// corners, centre, cluster, threat), counted for each side and not
/// differenced: inputs 0–9 are the player to move's, 10–19 the
/// opponent's. Each count is scaled to about [0, 1]: the square counts
/// (the first eight) by the board's N² squares, `cluster` (pairs of
/// adjacent pieces, at most about 4 per piece) by 4N², and `threat` (at
/// most 8 converted pieces) by 8. A linear net over it can weigh the
/// features as any of `ai:1`…`ai:20` does, and more: the two sides'
/// counts apart, so "my capture threat" and "the opponent's" get
/// weights of their own.
#[derive(Clone, Copy, Debug)]
pub struct VirusFeatures {
    /// Board side N.
    n: usize,
}

impl VirusFeatures {
    /// The divisor that brings feature `i`'s count to about [0, 1].
    fn scale(&self, i: usize) -> f32 {
        let squares = (self.n * self.n) as f32;
        match i {
            8 => 4.0 * squares,
            9 => 8.0,
            _ => squares,
        }
    }
}

impl Encoding<VirusState> for VirusFeatures {
    fn name(&self) -> &'static str {
        "features"
    }
    fn size(&self) -> usize {
        2 * NUM_FEATURES
    }
    fn encode(&self, state: &VirusState, out: &mut [f32]) {
        let counts = side_counts(state);
        let me = state.to_move();
        for (side, seat) in [me, 1 - me].into_iter().enumerate() {
            for (i, &c) in counts[seat].iter().enumerate() {
                out[side * NUM_FEATURES + i] = c as f32 / self.scale(i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::encode::Encodable;
    use crate::game::{GameSpec, State};
    use crate::games::virus::players::{ai_evaluation, AI_PLAYERS};

    /// `raw` and `planes` read from the bitboards give the inputs the
    /// square-by-square reading gives, on every board size, along random
    /// games to the end (the finished position included).
    #[test]
    fn bitboard_grids_equal_square_reading() {
        for n in 4..=8 {
            let spec = GameSpec::parse(&format!("virus:{n}x{n}")).unwrap();
            crate::game::encode::assert_grids_read_squares(
                &Virus::from_spec(&spec).unwrap(),
                n * n,
                |s: &VirusState, i| s.at(i % s.size(), i / s.size()),
                n as u64,
            );
        }
    }

    /// Along a random game: the `features` inputs, unscaled, are the two
    /// sides' counts with the mover first; so every hand-crafted player's
    /// evaluation is a linear function of them (its weights on the
    /// mover's counts, minus them on the opponent's), and `features+ntuple2`
    /// is `features` then `ntuple2`.
    #[test]
    fn features_are_the_players_counts_from_the_movers_side() {
        let game = Virus::from_spec(&GameSpec::parse("virus").unwrap()).unwrap();
        let enc = game.encoding("features").unwrap();
        let both = game.encoding("features+ntuple2").unwrap();
        let tuples = game.encoding("ntuple2").unwrap();
        assert_eq!(enc.size(), 20);
        assert_eq!(both.size(), 20 + tuples.size());
        let f = VirusFeatures { n: 8 };
        let mut s = game.initial_state();
        let mut rng = crate::game::rng::stream(7, &[]);
        let mut plies = 0;
        while !s.is_terminal() {
            let mut x = vec![0.0; 20];
            enc.encode(&s, &mut x);
            let me = s.to_move();
            let counts = side_counts(&s);
            for i in 0..NUM_FEATURES {
                assert_eq!(x[i] * f.scale(i), counts[me][i] as f32);
                assert_eq!(x[10 + i] * f.scale(i), counts[1 - me][i] as f32);
            }
            for k in 1..=AI_PLAYERS.len() {
                let w = &AI_PLAYERS[k - 1].weights;
                let linear: f32 = (0..NUM_FEATURES)
                    .map(|i| w[i] * f.scale(i) * (x[i] - x[10 + i]))
                    .sum();
                let direct = ai_evaluation(k, &s, me);
                assert!(
                    (linear - direct).abs() < 1e-3,
                    "ai:{k}: {linear} vs {direct}"
                );
            }
            let mut xy = vec![0.0; both.size()];
            let mut y = vec![0.0; tuples.size()];
            both.encode(&s, &mut xy);
            tuples.encode(&s, &mut y);
            assert_eq!(xy[..20], x[..]);
            assert_eq!(xy[20..], y[..]);
            let a = s.random_action(&mut rng);
            s.apply(a);
            plies += 1;
        }
        assert!(plies > 20);
    }
}
