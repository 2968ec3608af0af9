//! Bit-string genomes: a string cut into `k`-bit substrings, one per weight,
//! decoded through a [`BitCode`]; and their mutation (bit flips).

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::Genome;
use crate::evolve::operators::{self, for_each_chosen, Crossover, Mutation, Positional};
use crate::evolve::EvolveError;
use crate::game::rng::WoprRng;

/// How the integers read from `k`-bit substrings map onto weight values.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Levels {
    /// All `2^k` integers, evenly spaced from `lo` to `hi` inclusive.
    Full,
    /// `n` evenly spaced values from `lo` to `hi`; integer `v` takes level
    /// `round(v·(n−1)/(2^k−1))`, so every level is reachable, neighbouring
    /// integers give equal or neighbouring levels, and codes spread nearly
    /// evenly over the levels (each level gets one or two of the codes when
    /// `n > 2^(k−1)`).
    Scaled(u32),
    /// `n` evenly spaced values from `lo` to `hi`; integers from `n` up are
    /// clamped to the top level (which then takes all the spare codes).
    Clamped(u32),
}

/// How a `k`-bit substring becomes a weight: plain binary or Gray code, read
/// most significant bit first, then mapped onto `[lo, hi]`.
///
/// The thesis's mapping (Horner, §4.2 and Figure 4.2: weights in [−1, 1] to one
/// decimal place, 21 values, so 5 bits) is [`BitCode::thesis`]: 5-bit Gray code
/// with [`Levels::Scaled`]`(21)`. The thesis does not say what happens to the
/// 11 codes beyond 20; scaling keeps the mapping monotone in the Gray-decoded
/// integer (a one-bit step moves a weight by at most one level) and spreads the
/// codes almost evenly, where clamping ([`Levels::Clamped`]) would make 12 of
/// the 32 codes mean 1.0.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BitCode {
    /// Bits per weight, 1 to 32.
    pub bits: u32,
    /// The smallest weight.
    pub lo: f32,
    /// The largest weight.
    pub hi: f32,
    /// Read each substring as a Gray code (`true`) or plain binary.
    pub gray: bool,
    /// How integers map onto values.
    pub levels: Levels,
}

impl BitCode {
    /// Plain binary, all `2^bits` values evenly spaced over `[lo, hi]`.
    pub const fn binary(bits: u32, lo: f32, hi: f32) -> Self {
        BitCode {
            bits,
            lo,
            hi,
            gray: false,
            levels: Levels::Full,
        }
    }

    /// Gray code, all `2^bits` values evenly spaced over `[lo, hi]`.
    pub const fn gray(bits: u32, lo: f32, hi: f32) -> Self {
        BitCode {
            bits,
            lo,
            hi,
            gray: true,
            levels: Levels::Full,
        }
    }

    /// Gray code covering `[lo, hi]` to `decimals` decimal places, with the
    /// fewest bits that give every value (the thesis's mapper, which "reports
    /// the number of binary digits required to cover a range and precision").
    pub fn with_precision(lo: f32, hi: f32, decimals: u32) -> Self {
        let steps = ((hi as f64 - lo as f64) * 10f64.powi(decimals as i32)).round() as u64;
        let levels = steps + 1;
        let bits = (64 - (levels - 1).leading_zeros()).max(1);
        BitCode {
            bits,
            lo,
            hi,
            gray: true,
            levels: Levels::Scaled(levels as u32),
        }
    }

    /// Weaver & Bossomaier's code: 10-bit binary integers for 1024 evenly
    /// spaced values in [−64, 64] inclusive (so 0 itself is not one of them).
    pub const WEAVER: BitCode = BitCode::binary(10, -64.0, 64.0);

    /// MIDI-Connect4's weights lie in [0.5, 2.0] (Miranda & Zhang); the paper
    /// does not give the bits per weight, so 8-bit binary is used.
    pub const MIDI_CONNECT4: BitCode = BitCode::binary(8, 0.5, 2.0);

    /// The thesis's code: 5-bit Gray code for the 21 values −1.0, −0.9, …, 1.0.
    pub fn thesis() -> Self {
        BitCode::with_precision(-1.0, 1.0, 1)
    }

    /// Checks the parameters: 1 to 32 bits, finite `lo < hi`, and 2 to `2^bits`
    /// levels.
    pub fn validate(&self) -> Result<(), EvolveError> {
        if !(1..=32).contains(&self.bits) {
            return Err(EvolveError::Config(format!(
                "bits per weight must be 1 to 32, not {}",
                self.bits
            )));
        }
        if !(self.lo.is_finite() && self.hi.is_finite() && self.lo < self.hi) {
            return Err(EvolveError::Config(format!(
                "weight range needs finite lo < hi, not [{}, {}]",
                self.lo, self.hi
            )));
        }
        if let Levels::Scaled(n) | Levels::Clamped(n) = self.levels {
            if n < 2 || u64::from(n) > 1u64 << self.bits {
                return Err(EvolveError::Config(format!(
                    "{} bits give 2 to {} levels, not {n}",
                    self.bits,
                    1u64 << self.bits
                )));
            }
        }
        Ok(())
    }

    /// The integer a substring stands for: itself in plain binary, its
    /// Gray-code rank otherwise (`00000 → 0, 00001 → 1, 00011 → 2, 00010 → 3`).
    pub fn integer(&self, raw: u64) -> u64 {
        if !self.gray {
            return raw;
        }
        let mut v = raw;
        let mut shift = 1;
        while shift < 64 {
            v ^= v >> shift;
            shift <<= 1;
        }
        v
    }

    /// The level (0-based) and number of levels an integer maps to.
    pub fn level(&self, v: u64) -> (u64, u64) {
        let top = (1u64 << self.bits) - 1;
        match self.levels {
            Levels::Full => (v, top + 1),
            Levels::Scaled(n) => {
                let n = u64::from(n);
                // round(v·(n−1)/top); top is odd, so there is never a tie.
                ((2 * v * (n - 1) + top) / (2 * top), n)
            }
            Levels::Clamped(n) => (v.min(u64::from(n) - 1), u64::from(n)),
        }
    }

    /// The weight a `bits`-bit substring stands for.
    pub fn value(&self, raw: u64) -> f32 {
        let (level, n) = self.level(self.integer(raw));
        let (lo, hi) = (f64::from(self.lo), f64::from(self.hi));
        (lo + (hi - lo) * level as f64 / (n - 1) as f64) as f32
    }
}

/// A bit string decoded `code.bits` bits per weight.
///
/// Bit `i` lives in word `i / 64` at bit `i % 64`; bits past the end are kept
/// zero. Each weight's substring is read most significant bit first, so the
/// string `00011` written in position order is the integer 3.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "StoredBitGenome")]
pub struct BitGenome {
    code: BitCode,
    len: usize,
    words: Vec<u64>,
}

/// A bit genome as read from a file, before its shape is checked.
#[derive(Deserialize)]
struct StoredBitGenome {
    code: BitCode,
    len: usize,
    words: Vec<u64>,
}

impl TryFrom<StoredBitGenome> for BitGenome {
    type Error = String;

    /// A genome read back must hold exactly `len` bits (one word per 64,
    /// the bits past the end zero) in whole weights of `code.bits` bits, as
    /// every operator assumes: a checkpoint that says otherwise is corrupt.
    fn try_from(g: StoredBitGenome) -> Result<Self, String> {
        if g.words.len() != g.len.div_ceil(64) {
            return Err(format!(
                "a bit genome of {} bits needs {} words, it has {}",
                g.len,
                g.len.div_ceil(64),
                g.words.len()
            ));
        }
        g.code.validate().map_err(|e| e.to_string())?;
        if !g.len.is_multiple_of(g.code.bits as usize) {
            return Err(format!(
                "a bit genome of {} bits is not a whole number of {}-bit weights",
                g.len, g.code.bits
            ));
        }
        let r = g.len % 64;
        if r != 0 && g.words.last().is_some_and(|w| w >> r != 0) {
            return Err(format!(
                "a bit genome of {} bits has bits set past its end",
                g.len
            ));
        }
        Ok(BitGenome {
            code: g.code,
            len: g.len,
            words: g.words,
        })
    }
}

impl BitGenome {
    /// All zeros, long enough for `weights` weights.
    pub fn zeros(code: BitCode, weights: usize) -> Self {
        let len = weights * code.bits as usize;
        BitGenome {
            code,
            len,
            words: vec![0; len.div_ceil(64)],
        }
    }

    /// Uniformly random bits for `weights` weights.
    pub fn random(code: BitCode, weights: usize, rng: &mut WoprRng) -> Self {
        let mut g = Self::zeros(code, weights);
        for w in &mut g.words {
            *w = rng.random::<u64>();
        }
        g.clear_tail();
        g
    }

    /// The genome with these bits, in position order; the length must be a
    /// multiple of `code.bits`.
    pub fn from_bits(code: BitCode, bits: &[bool]) -> Result<Self, EvolveError> {
        if !bits.len().is_multiple_of(code.bits as usize) {
            return Err(EvolveError::Config(format!(
                "{} bits is not a whole number of {}-bit weights",
                bits.len(),
                code.bits
            )));
        }
        let mut g = Self::zeros(code, bits.len() / code.bits as usize);
        for (i, &b) in bits.iter().enumerate() {
            g.set(i, b);
        }
        Ok(g)
    }

    /// The code that decodes this genome.
    pub fn code(&self) -> &BitCode {
        &self.code
    }

    /// Length in bits.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the genome has no bits.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The packed words (bits past the end are zero).
    pub fn words(&self) -> &[u64] {
        &self.words
    }

    /// Bit `i`.
    pub fn get(&self, i: usize) -> bool {
        assert!(i < self.len, "bit {i} of a {}-bit genome", self.len);
        self.words[i / 64] >> (i % 64) & 1 == 1
    }

    /// Sets bit `i`.
    pub fn set(&mut self, i: usize, value: bool) {
        assert!(i < self.len, "bit {i} of a {}-bit genome", self.len);
        let mask = 1u64 << (i % 64);
        if value {
            self.words[i / 64] |= mask;
        } else {
            self.words[i / 64] &= !mask;
        }
    }

    /// Flips bit `i`.
    pub fn flip(&mut self, i: usize) {
        assert!(i < self.len, "bit {i} of a {}-bit genome", self.len);
        self.words[i / 64] ^= 1u64 << (i % 64);
    }

    /// Number of set bits (the OneMax fitness).
    pub fn count_ones(&self) -> u32 {
        self.words.iter().map(|w| w.count_ones()).sum()
    }

    /// Number of positions where `self` and `other` differ.
    pub fn hamming(&self, other: &Self) -> u32 {
        self.words
            .iter()
            .zip(&other.words)
            .map(|(a, b)| (a ^ b).count_ones())
            .sum()
    }

    /// The `k` bits from `start`, first bit most significant.
    pub fn read(&self, start: usize, k: u32) -> u64 {
        debug_assert!((1..=64).contains(&k) && start + k as usize <= self.len);
        let (w, b) = (start / 64, start % 64);
        let mut raw = self.words[w] >> b;
        if b != 0 && b + k as usize > 64 {
            raw |= self.words[w + 1] << (64 - b);
        }
        // raw holds the bits first-position-lowest; reverse the low k.
        raw.reverse_bits() >> (64 - k)
    }

    fn clear_tail(&mut self) {
        let r = self.len % 64;
        if r != 0 {
            if let Some(last) = self.words.last_mut() {
                *last &= (1u64 << r) - 1;
            }
        }
    }

    /// Word-level access for the operators (keeps the tail clear).
    pub(super) fn words_mut(&mut self) -> &mut [u64] {
        &mut self.words
    }
}

impl std::fmt::Display for BitGenome {
    /// The bits as `0`/`1` characters in position order.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for i in 0..self.len {
            f.write_str(if self.get(i) { "1" } else { "0" })?;
        }
        Ok(())
    }
}

impl Positional for BitGenome {
    fn positions(&self) -> usize {
        self.len
    }

    fn swap_range(&mut self, other: &mut Self, start: usize, end: usize) {
        let mut i = start;
        while i < end {
            let (w, b) = (i / 64, i % 64);
            let n = (64 - b).min(end - i);
            let mask = if n == 64 {
                u64::MAX
            } else {
                ((1u64 << n) - 1) << b
            };
            let d = (self.words[w] ^ other.words[w]) & mask;
            self.words[w] ^= d;
            other.words[w] ^= d;
            i += n;
        }
    }

    fn swap_uniform(&mut self, other: &mut Self, rng: &mut WoprRng) {
        for (a, b) in self.words.iter_mut().zip(other.words.iter_mut()) {
            let d = (*a ^ *b) & rng.random::<u64>();
            *a ^= d;
            *b ^= d;
        }
    }
}

impl Genome for BitGenome {
    fn genes(&self) -> usize {
        self.len
    }

    fn weights(&self) -> usize {
        self.len / self.code.bits as usize
    }

    fn decode_into(&self, out: &mut [f32]) {
        let k = self.code.bits;
        assert_eq!(out.len(), self.weights(), "decode buffer length");
        for (j, o) in out.iter_mut().enumerate() {
            *o = self.code.value(self.read(j * k as usize, k));
        }
    }

    fn check_mutation(&self, op: &Mutation) -> Result<(), EvolveError> {
        match op {
            Mutation::BitFlip { rate } => operators::check_rate("bit-flip rate", *rate),
            _ => Err(EvolveError::Config(format!(
                "{} applies to real-valued genomes, not bit strings",
                op.name()
            ))),
        }
    }

    fn check_crossover(&self, op: &Crossover) -> Result<(), EvolveError> {
        match op {
            Crossover::OnePoint | Crossover::TwoPoint | Crossover::Uniform => Ok(()),
            _ => Err(EvolveError::Config(format!(
                "{} blends real values; bit strings take one-point, two-point or uniform crossover",
                op.name()
            ))),
        }
    }

    fn mutate(&mut self, op: &Mutation, rng: &mut WoprRng) {
        match op {
            Mutation::BitFlip { rate } => bit_flip(self, *rate, rng),
            _ => panic!("{} does not apply to bit strings", op.name()),
        }
    }

    fn crossover(&self, other: &Self, op: &Crossover, rng: &mut WoprRng) -> (Self, Self) {
        assert_eq!(
            self.len, other.len,
            "crossover of genomes of different lengths"
        );
        let (mut a, mut b) = (self.clone(), other.clone());
        operators::positional_crossover(&mut a, &mut b, op, rng);
        (a, b)
    }

    /// Mean Hamming distance to the centroid (the per-bit mean), per bit:
    /// `Σ_j 2·p_j·(1−p_j) / L` where `p_j` is the share of ones at bit `j`;
    /// 0 for a converged population, at most 0.5.
    fn diversity(population: &[Self]) -> f64 {
        let Some(first) = population.first() else {
            return 0.0;
        };
        if population.len() < 2 || first.len == 0 {
            return 0.0;
        }
        let n = population.len() as f64;
        let mut total = 0.0;
        for i in 0..first.len {
            let ones = population.iter().filter(|g| g.get(i)).count() as f64;
            let p = ones / n;
            total += 2.0 * p * (1.0 - p);
        }
        total / first.len as f64
    }
}

/// Bit-flip mutation: each bit flips with probability `rate`.
pub(crate) fn bit_flip(g: &mut BitGenome, rate: f64, rng: &mut WoprRng) {
    let len = g.len();
    let words = g.words_mut();
    for_each_chosen(len, rate, rng, |i, _| words[i / 64] ^= 1u64 << (i % 64));
}
