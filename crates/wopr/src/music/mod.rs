//! The musicator of MIDI-Connect4 (Miranda & Zhang, §3): every move of a game
//! becomes a bar of three notes, and a game becomes a piece of music.
//!
//! **The rule.** A move that occupies the square `(column, row)` gives the bar
//! `{n1, n2, n3}`: the column picks the interval `n1 → n2` and the row the
//! interval `n2 → n3` from a two-dimensional table
//! ([`MusicConfig::columns`], [`MusicConfig::rows`]); each interval goes up or
//! down at random ([`SignMode`]). `n1` of a bar is `n3` of the bar before; the
//! first `n1` is a reference note (middle C by default; a sequence of reference
//! notes can restart the chain every [`MusicConfig::phrase_bars`] bars). Every
//! bar lasts the same `c` ticks ([`MusicConfig::bar_ticks`]), split at random
//! among its three notes, each at least [`MusicConfig::min_ticks`]; velocities
//! are random in 20–100.
//!
//! **Pitch names and range.** We use the paper's octave naming, in which middle
//! C (MIDI 60) is `C2`; scientific pitch notation calls it C4. The paper's range
//! "C1 to B3" is therefore MIDI 48–83, three octaves. A step that would leave
//! the range is *reflected*: the interval's sign is flipped. Intervals of up to
//! 18 semitones always fit one way or the other in a three-octave range; for a
//! larger interval that fits neither way, the note is moved by octaves into the
//! range (its pitch class is kept).
//!
//! **The default table** is the paper's: the interval is the column number
//! (1 = left) in semitones for `n1 → n2` and the row number counted from the
//! bottom (1 = bottom row) in semitones for `n2 → n3`, for boards up to 12
//! squares a side (wider boards cycle through the table). With it, the moves
//! `d, e, d, c, c` of 6×6 Connect-4 and the signs of §3 give exactly the
//! paper's two example sequences (`{C2, E2, F2}, {F2, A#2, B2}, …`), and the
//! moves `a, a, e, a, d, e, e, e` give Figure 6's (see `tests/music.rs`).
//! Figure 4 (`F1, C3, G3` for `x = 19, y = 7`) only illustrates the Cartesian
//! idea with larger intervals.
//!
//! **Any grid game.** The square of a move is [`State::action_cell`]. A move
//! that occupies no square (a pass) is a silent bar: time goes on, the chain
//! of notes does not move. Chance moves are skipped. A game none of whose moves
//! occupy a square cannot be set to music and is refused.
//!
//! **Output.** [`to_midi`] writes a Standard MIDI File (format 1): a conductor
//! track (tempo, time signature) and one track per seat, each seat on its own
//! channel and panned apart (seat 0 left, seat 1 right), so the two players can
//! be told apart. [`render_wav`] plays it through the built-in synthesiser
//! ([`synth`]: additive tones with an envelope per General MIDI family, no
//! files needed) or, when given one, a General MIDI SoundFont (rustysynth;
//! `.sf2` only) and writes a 16-bit stereo WAV whose peak is normalised to
//! −1 dBFS.
//!
//! [`State::action_cell`]: crate::game::State::action_cell
//!
//! **References.**
//! - E. R. Miranda and Q. Zhang, "Composition as game strategy: making music
//!   by playing board games against evolved artificial neural networks", *Proc.
//!   International Computer Music Conference (ICMC)*, 2005.

mod midi;
mod musicator;
mod notes;
mod record;
mod render;
pub mod synth;
mod wav;

use std::path::PathBuf;

pub use midi::{read_notes, to_midi, MidiNote, MidiOptions};
pub use musicator::{Bar, MusicConfig, Musicator, RowOrigin, ScoreBar, SignMode};
pub use notes::{note_name, parse_note, Note, MIDDLE_C};
pub use record::{board_rows, compose_record, grid_moves, grid_rows, Composition, GridMove};
pub use render::{load_soundfont, render, render_wav, wav_bytes, write_wav, DEFAULT_SOUNDFONT};
pub use wav::{RenderOptions, WavInfo};

/// What went wrong while composing, writing or rendering music. Each message
/// is one line that says what was wrong and what is accepted.
#[derive(Debug, thiserror::Error)]
pub enum MusicError {
    /// A bad musicator configuration (table, references, durations, …).
    #[error("music config: {0}")]
    Config(String),
    /// A game record that cannot be set to music.
    #[error("{0}")]
    Record(String),
    /// Bad MIDI options or an unreadable MIDI file.
    #[error("MIDI: {0}")]
    Midi(String),
    /// The SoundFont could not be read.
    #[error(
        "cannot use SoundFont {}: {reason}; pass --soundfont FILE.sf2 a SoundFont 2 file (`apt-get install timgm6mb-soundfont` installs /usr/share/sounds/sf2/TimGM6mb.sf2), or leave --soundfont out for the built-in synthesiser",
        .path.display()
    )]
    SoundFont {
        /// The file that was tried.
        path: PathBuf,
        /// Why it could not be used.
        reason: String,
    },
    /// Rendering to audio failed.
    #[error("rendering audio: {0}")]
    Render(String),
    /// A file could not be written.
    #[error("cannot write {}: {reason}", .path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}
