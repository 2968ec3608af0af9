//! Note names in the paper's octave naming (middle C = `C2` = MIDI 60).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Middle C, MIDI 60, which the paper calls `C2`.
pub const MIDDLE_C: u8 = 60;

const NAMES: [&str; 12] = [
    "C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B",
];

/// The name of MIDI note `n` in the paper's naming: `60` → `C2`, `48` → `C1`,
/// `83` → `B3`, `59` → `B1`. Sharps are written `#`.
pub fn note_name(n: u8) -> String {
    format!("{}{}", NAMES[(n % 12) as usize], i32::from(n / 12) - 3)
}

/// Parses a MIDI number (`0`–`127`) or a note name in the paper's naming
/// (`C2` = middle C = 60; `F#1`, `Bb3`, `c-1`; case-insensitive).
pub fn parse_note(text: &str) -> Result<u8, String> {
    let t = text.trim();
    let bad = || {
        format!(
            "'{t}' is not a note: give a MIDI number 0..=127 or a name like C2, F#1, Bb3 \
             (C2 = middle C = MIDI 60)"
        )
    };
    if let Ok(n) = t.parse::<i64>() {
        return u8::try_from(n).ok().filter(|&n| n <= 127).ok_or_else(bad);
    }
    let mut chars = t.chars();
    let letter = chars.next().ok_or_else(bad)?.to_ascii_uppercase();
    let mut pc: i64 = match letter {
        'C' => 0,
        'D' => 2,
        'E' => 4,
        'F' => 5,
        'G' => 7,
        'A' => 9,
        'B' => 11,
        _ => return Err(bad()),
    };
    let mut rest = chars.as_str();
    if let Some(r) = rest.strip_prefix('#') {
        pc += 1;
        rest = r;
    } else if let Some(r) = rest.strip_prefix('b') {
        pc -= 1;
        rest = r;
    }
    let octave: i64 = rest.parse().map_err(|_| bad())?;
    let n = (octave + 3) * 12 + pc;
    u8::try_from(n).ok().filter(|&n| n <= 127).ok_or_else(bad)
}

/// A MIDI note number that reads and writes itself, in configuration files,
/// as a name (`"C2"`) or a number (`60`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Note(pub u8);

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&note_name(self.0))
    }
}

impl Serialize for Note {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&note_name(self.0))
    }
}

impl<'de> Deserialize<'de> for Note {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Note, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(i64),
            Name(String),
        }
        let text = match Raw::deserialize(d).map_err(|_| {
            serde::de::Error::custom("a note is a MIDI number 0..=127 or a name like \"C2\"")
        })? {
            Raw::Number(n) => n.to_string(),
            Raw::Name(s) => s,
        };
        parse_note(&text)
            .map(Note)
            .map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        assert_eq!(note_name(60), "C2");
        assert_eq!(note_name(48), "C1");
        assert_eq!(note_name(83), "B3");
        assert_eq!(note_name(70), "A#2");
        for n in 0..=127u8 {
            assert_eq!(parse_note(&note_name(n)), Ok(n));
        }
        assert_eq!(parse_note("bb3"), Ok(82));
        assert_eq!(parse_note(" 61 "), Ok(61));
        assert!(parse_note("H2").is_err());
        assert!(parse_note("128").is_err());
        assert!(parse_note("G8").is_err());
    }
}
