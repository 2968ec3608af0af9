//! The musicator proper: squares to bars of three notes.

use std::path::Path;

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::notes::{note_name, Note, MIDDLE_C};
use super::MusicError;
use crate::game::rng::{stream, WoprRng};

/// The tag of the musicator's random stream under the run seed ("MUSIC").
const MUSIC_STREAM: u64 = 0x004D_5553_4943;

/// How the signs of a bar's two intervals are drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SignMode {
    /// Each interval goes up or down independently, with probability 1/2
    /// (the issue's reading of §3: "the values of x and y may be negative or
    /// positive; this is determined by the system randomly").
    #[default]
    Independent,
    /// One sign per bar for both intervals: every example bar printed in the
    /// paper (13 of them) has this form.
    Shared,
}

/// Which way rows are counted for the row table.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RowOrigin {
    /// Row 1 is the bottom row (the paper's Figure 5; Connect-4 fills from it).
    #[default]
    Bottom,
    /// Row 1 is the top row.
    Top,
}

/// The musicator's settings: the interval table, the reference notes, the
/// range, the rhythm and the dynamics. `Default` is the paper's; a JSON file
/// with any subset of the keys replaces those settings
/// ([`MusicConfig::from_json`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MusicConfig {
    /// Semitones of the interval `n1 → n2` by column (index 0 = left column);
    /// boards wider than the table cycle through it. Default `1, 2, …, 12`.
    pub columns: Vec<u8>,
    /// Semitones of the interval `n2 → n3` by row, counted from
    /// [`MusicConfig::rows_from`] (index 0 = first row); cycled like
    /// `columns`. Default `1, 2, …, 12`.
    pub rows: Vec<u8>,
    /// Where row counting starts. Default bottom.
    pub rows_from: RowOrigin,
    /// Reference notes: the first bar starts on the first. Default `["C2"]`.
    pub references: Vec<Note>,
    /// Every `phrase_bars` bars, `n1` restarts from the next reference note
    /// (cycling); 0 (the default) never restarts, so only the first reference
    /// is used and every `n1` is the `n3` before it.
    pub phrase_bars: usize,
    /// The lowest note allowed. Default `C1` (MIDI 48).
    pub low: Note,
    /// The highest note allowed. Default `B3` (MIDI 83).
    pub high: Note,
    /// How interval signs are drawn. Default independent.
    pub signs: SignMode,
    /// MIDI resolution, ticks per quarter note. Default 480.
    pub ticks_per_quarter: u16,
    /// The duration `c` of every bar, in ticks. Default 1920 (4/4).
    pub bar_ticks: u32,
    /// The shortest note, in ticks. Default 240 (an eighth).
    pub min_ticks: u32,
    /// Note lengths are multiples of this, in ticks. Default 120 (a sixteenth).
    pub grid_ticks: u32,
    /// The lowest velocity drawn. Default 20.
    pub velocity_min: u8,
    /// The highest velocity drawn. Default 100.
    pub velocity_max: u8,
}

impl Default for MusicConfig {
    fn default() -> MusicConfig {
        MusicConfig {
            columns: (1..=12).collect(),
            rows: (1..=12).collect(),
            rows_from: RowOrigin::Bottom,
            references: vec![Note(MIDDLE_C)],
            phrase_bars: 0,
            low: Note(48),
            high: Note(83),
            signs: SignMode::Independent,
            ticks_per_quarter: 480,
            bar_ticks: 1920,
            min_ticks: 240,
            grid_ticks: 120,
            velocity_min: 20,
            velocity_max: 100,
        }
    }
}

impl MusicConfig {
    /// Parses a JSON object with any of the fields (the others keep their
    /// defaults) and checks it.
    pub fn from_json(text: &str) -> Result<MusicConfig, MusicError> {
        let c: MusicConfig =
            serde_json::from_str(text).map_err(|e| MusicError::Config(e.to_string()))?;
        c.validate()?;
        Ok(c)
    }

    /// Reads and checks a JSON config file.
    pub fn load(path: &Path) -> Result<MusicConfig, MusicError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| MusicError::Config(format!("cannot read {}: {e}", path.display())))?;
        MusicConfig::from_json(&text).map_err(|e| match e {
            MusicError::Config(m) => MusicError::Config(format!("{}: {m}", path.display())),
            e => e,
        })
    }

    /// Checks that the settings make sense; says what is accepted if not.
    pub fn validate(&self) -> Result<(), MusicError> {
        let err = |m: String| Err(MusicError::Config(m));
        for (name, table) in [("columns", &self.columns), ("rows", &self.rows)] {
            if table.is_empty() {
                return err(format!(
                    "'{name}' is empty; give one interval (semitones) per {}",
                    &name[..name.len() - 1]
                ));
            }
            if let Some(&x) = table.iter().find(|&&x| x > 127) {
                return err(format!(
                    "'{name}' has interval {x}; intervals are 0..=127 semitones"
                ));
            }
        }
        let (lo, hi) = (self.low.0, self.high.0);
        if lo > 127 || hi > 127 || hi < lo || hi - lo < 11 {
            return err(format!(
                "range {}..{} ({lo}..{hi}) must hold at least an octave (12 notes) of MIDI 0..=127",
                self.low, self.high
            ));
        }
        if self.references.is_empty() {
            return err("'references' is empty; give at least one note, e.g. [\"C2\"]".into());
        }
        if let Some(r) = self.references.iter().find(|r| r.0 < lo || r.0 > hi) {
            return err(format!(
                "reference note {r} ({}) is outside the range {}..{}",
                r.0, self.low, self.high
            ));
        }
        if self.references.len() > 1 && self.phrase_bars == 0 {
            return err(format!(
                "{} reference notes but phrase_bars is 0, so only the first would be used; set phrase_bars",
                self.references.len()
            ));
        }
        if self.ticks_per_quarter == 0 || self.ticks_per_quarter > 0x7FFF {
            return err(format!(
                "ticks_per_quarter {} is not in 1..=32767",
                self.ticks_per_quarter
            ));
        }
        let g = self.grid_ticks;
        if g == 0
            || self.min_ticks < g
            || !self.min_ticks.is_multiple_of(g)
            || !self.bar_ticks.is_multiple_of(g)
        {
            return err(format!(
                "grid_ticks ({g}) must be positive and divide min_ticks ({}) and bar_ticks ({}), with min_ticks >= grid_ticks",
                self.min_ticks, self.bar_ticks
            ));
        }
        if self.bar_ticks > 1 << 24 || u64::from(self.min_ticks) * 3 > u64::from(self.bar_ticks) {
            return err(format!(
                "bar_ticks ({}) must hold three notes of min_ticks ({}) and be at most 2^24",
                self.bar_ticks, self.min_ticks
            ));
        }
        if self.velocity_min == 0
            || self.velocity_min > self.velocity_max
            || self.velocity_max > 127
        {
            return err(format!(
                "velocities {}..={} must satisfy 1 <= velocity_min <= velocity_max <= 127",
                self.velocity_min, self.velocity_max
            ));
        }
        Ok(())
    }
}

/// One bar: the three notes a move makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bar {
    /// MIDI notes `n1, n2, n3`.
    pub notes: [u8; 3],
    /// Their durations in ticks; they sum to [`MusicConfig::bar_ticks`].
    pub durations: [u32; 3],
    /// Their MIDI velocities.
    pub velocities: [u8; 3],
    /// The signed intervals `n2 − n1` and `n3 − n2` actually played (after any
    /// reflection at the edges of the range).
    pub intervals: [i32; 2],
}

impl Bar {
    /// The notes by name, e.g. `C2 E2 F2`.
    pub fn names(&self) -> String {
        self.notes.map(note_name).join(" ")
    }
}

/// A bar of the piece with the seat that made it; `bar` is `None` for a
/// silent bar (a move without a square, such as a pass).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreBar {
    /// The seat that moved.
    pub seat: usize,
    /// The square of the move, `(column, row)` with row 0 = top.
    pub cell: Option<(usize, usize)>,
    /// The notes, or `None` for a rest.
    pub bar: Option<Bar>,
}

/// Turns the squares of successive moves into bars, keeping the chain of
/// notes and drawing signs, durations and velocities from one seeded stream.
#[derive(Clone, Debug)]
pub struct Musicator {
    config: MusicConfig,
    board_rows: usize,
    rng: WoprRng,
    last: Option<u8>,
    bars: usize,
}

impl Musicator {
    /// A musicator for a board with `board_rows` rows (needed to count rows
    /// from the bottom), drawing from `stream(seed, ["MUSIC"])`. Fails if the
    /// config is not valid.
    pub fn new(config: MusicConfig, board_rows: usize, seed: u64) -> Result<Musicator, MusicError> {
        config.validate()?;
        Ok(Musicator {
            config,
            board_rows: board_rows.max(1),
            rng: stream(seed, &[MUSIC_STREAM]),
            last: None,
            bars: 0,
        })
    }

    /// The settings in use.
    pub fn config(&self) -> &MusicConfig {
        &self.config
    }

    /// The number of rows assumed for the board.
    pub fn board_rows(&self) -> usize {
        self.board_rows
    }

    /// Bars made so far (rests included).
    pub fn bars_made(&self) -> usize {
        self.bars
    }

    /// The unsigned intervals (semitones) that `cell` = `(column, row from the
    /// top)` maps to: `[n1 → n2, n2 → n3]`.
    pub fn intervals(&self, cell: (usize, usize)) -> [u8; 2] {
        let c = &self.config;
        let (col, row) = cell;
        let y = match c.rows_from {
            RowOrigin::Top => row,
            RowOrigin::Bottom => self.board_rows.saturating_sub(row + 1),
        };
        [c.columns[col % c.columns.len()], c.rows[y % c.rows.len()]]
    }

    /// The note the next bar starts on: the reference note at the start of
    /// the piece (and of each phrase), otherwise `n3` of the last bar.
    pub fn next_n1(&self) -> u8 {
        let c = &self.config;
        let phrase_start = c.phrase_bars > 0 && self.bars.is_multiple_of(c.phrase_bars);
        match self.last {
            Some(n) if !phrase_start => n,
            _ => {
                let phrase = self.bars.checked_div(c.phrase_bars).unwrap_or(0);
                c.references[phrase % c.references.len()].0
            }
        }
    }

    /// The bar for a move to `cell` = `(column, row from the top)`, with
    /// random signs.
    pub fn bar(&mut self, cell: (usize, usize)) -> Bar {
        let signs = match self.config.signs {
            SignMode::Independent => [self.rng.random::<bool>(), self.rng.random::<bool>()],
            SignMode::Shared => [self.rng.random::<bool>(); 2],
        };
        self.bar_with_signs(cell, signs)
    }

    /// The bar for a move to `cell` with the given signs (`true` = up) instead
    /// of random ones; durations and velocities are still drawn. For worked
    /// examples and tests.
    pub fn bar_with_signs(&mut self, cell: (usize, usize), signs: [bool; 2]) -> Bar {
        let [x, y] = self.intervals(cell);
        let n1 = self.next_n1();
        let n2 = self.step(n1, x, signs[0]);
        let n3 = self.step(n2, y, signs[1]);
        let durations = self.durations();
        let (vlo, vhi) = (self.config.velocity_min, self.config.velocity_max);
        let velocities = [(); 3].map(|_| self.rng.random_range(vlo..=vhi));
        self.last = Some(n3);
        self.bars += 1;
        Bar {
            notes: [n1, n2, n3],
            durations,
            velocities,
            intervals: [i32::from(n2) - i32::from(n1), i32::from(n3) - i32::from(n2)],
        }
    }

    /// A silent bar (a move without a square): time advances, the chain of
    /// notes does not.
    pub fn rest(&mut self) {
        self.bars += 1;
    }

    /// A bar for a move that may have no square: `None` (a rest) if it has
    /// none.
    pub fn next(&mut self, cell: Option<(usize, usize)>) -> Option<Bar> {
        match cell {
            Some(cell) => Some(self.bar(cell)),
            None => {
                self.rest();
                None
            }
        }
    }

    /// One step of `d` semitones from `from`, up if `up`, reflected (sign
    /// flipped) if it would leave the range, folded by octaves into the range
    /// if neither direction fits.
    fn step(&self, from: u8, d: u8, up: bool) -> u8 {
        let (lo, hi) = (i32::from(self.config.low.0), i32::from(self.config.high.0));
        let (from, d) = (i32::from(from), i32::from(d));
        let want = if up { from + d } else { from - d };
        let other = if up { from - d } else { from + d };
        let mut n = if (lo..=hi).contains(&want) {
            want
        } else if (lo..=hi).contains(&other) {
            other
        } else {
            want
        };
        while n > hi {
            n -= 12;
        }
        while n < lo {
            n += 12;
        }
        n as u8
    }

    /// Splits the bar into three notes: two cut points drawn uniformly on the
    /// grid between the minimum lengths.
    fn durations(&mut self) -> [u32; 3] {
        let c = &self.config;
        let (g, min) = (c.grid_ticks, c.min_ticks);
        let spare = (c.bar_ticks - 3 * min) / g;
        let a = self.rng.random_range(0..=spare);
        let b = self.rng.random_range(0..=spare);
        let (p, q) = (a.min(b), a.max(b));
        [min + p * g, min + (q - p) * g, min + (spare - q) * g]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reflection_and_folding_stay_in_range() {
        let cfg = MusicConfig {
            columns: vec![30],
            rows: vec![7],
            ..MusicConfig::default()
        };
        let m = Musicator::new(cfg, 6, 1).unwrap();
        // 60 + 7 fits; 80 + 7 = 87 > 83 is reflected to 73.
        assert_eq!(m.step(60, 7, true), 67);
        assert_eq!(m.step(80, 7, true), 73);
        assert_eq!(m.step(50, 7, false), 57);
        // 60 ± 30 = 90 / 30 both leave 48..=83; 90 folds down an octave to 78.
        assert_eq!(m.step(60, 30, true), 78);
        assert_eq!(m.step(60, 30, false), 54);
    }

    #[test]
    fn config_errors_are_one_line() {
        for bad in [
            r#"{"columns": []}"#,
            r#"{"low": "C2", "high": "E2"}"#,
            r#"{"references": ["C2", "G2"]}"#,
            r#"{"references": ["C5"]}"#,
            r#"{"min_ticks": 700}"#,
            r#"{"grid_ticks": 7}"#,
            r#"{"velocity_min": 0}"#,
            r#"{"signs": "sometimes"}"#,
            r#"{"colums": [1]}"#,
            r#"{"low": "H1"}"#,
        ] {
            let e = MusicConfig::from_json(bad).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
        }
        let ok = MusicConfig::from_json(r#"{"references": ["C2", 67], "phrase_bars": 4}"#).unwrap();
        assert_eq!(ok.references, vec![Note(60), Note(67)]);
    }
}
