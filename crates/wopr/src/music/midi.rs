//! Standard MIDI File output (and reading notes back) with midly.

use midly::num::{u15, u24, u28, u4, u7};
use midly::{Format, Header, MetaMessage, MidiMessage, Smf, Timing, TrackEvent, TrackEventKind};

use super::musicator::{MusicConfig, ScoreBar};
use super::MusicError;

/// How the piece is played: tempo, instruments, names.
#[derive(Clone, Debug, PartialEq)]
pub struct MidiOptions {
    /// Quarter notes per minute, 4–1000. Default 120 (a default bar of 1920
    /// ticks then lasts 2 s).
    pub tempo_bpm: f64,
    /// General MIDI programs (0–127) by seat, cycled if there are more seats;
    /// default `[0]` (Acoustic Grand Piano for everyone).
    pub instruments: Vec<u8>,
    /// Track names by seat (e.g. `X`, `O`); missing ones are `seat N`.
    pub seat_names: Vec<String>,
    /// The piece's name, on the conductor track.
    pub title: String,
}

impl Default for MidiOptions {
    fn default() -> MidiOptions {
        MidiOptions {
            tempo_bpm: 120.0,
            instruments: vec![0],
            seat_names: Vec::new(),
            title: "MIDI-Connect4".to_string(),
        }
    }
}

impl MidiOptions {
    /// Checks the tempo (4–1000 BPM) and the programs (0–127, at least one).
    pub fn validate(&self) -> Result<(), MusicError> {
        if !(4.0..=1000.0).contains(&self.tempo_bpm) {
            return Err(MusicError::Midi(format!(
                "tempo {} BPM is not in 4..=1000",
                self.tempo_bpm
            )));
        }
        if self.instruments.is_empty() || self.instruments.iter().any(|&p| p > 127) {
            return Err(MusicError::Midi(format!(
                "instruments {:?}: give General MIDI programs 0..=127",
                self.instruments
            )));
        }
        Ok(())
    }
}

/// The MIDI channel of seat `s`: `s`, skipping channel 10 (index 9, the
/// General MIDI percussion channel).
fn channel_of(seat: usize) -> u8 {
    if seat < 9 {
        seat as u8
    } else {
        seat as u8 + 1
    }
}

/// Pan position of seat `s` of `n`: spread from 32 (left) to 96 (right).
fn pan_of(seat: usize, n: usize) -> u8 {
    if n <= 1 {
        64
    } else {
        (32 + 64 * seat / (n - 1)) as u8
    }
}

/// Encodes the piece as a Standard MIDI File (format 1): track 0 holds the
/// title, tempo and time signature; track `1 + s` holds seat `s`'s bars on
/// channel `s` (skipping the percussion channel) with its program and pan.
/// Bar `i` starts at tick `i × bar_ticks`; every track ends with the last bar.
pub fn to_midi(
    bars: &[ScoreBar],
    config: &MusicConfig,
    opts: &MidiOptions,
) -> Result<Vec<u8>, MusicError> {
    config.validate()?;
    opts.validate()?;
    let seats = bars
        .iter()
        .map(|b| b.seat + 1)
        .max()
        .unwrap_or(1)
        .max(opts.seat_names.len());
    if seats > 15 {
        return Err(MusicError::Midi(format!(
            "{seats} seats, but MIDI has 15 melodic channels"
        )));
    }
    let bar_ticks = config.bar_ticks;
    let end = bar_ticks as u64 * bars.len() as u64;
    if end >= 1 << 31 {
        return Err(MusicError::Midi(format!(
            "{} bars are too long for a MIDI file",
            bars.len()
        )));
    }
    let end = end as u32;

    let name_of = |s: usize| {
        opts.seat_names
            .get(s)
            .cloned()
            .unwrap_or_else(|| format!("seat {s}"))
    };
    let names: Vec<String> = (0..seats).map(name_of).collect();
    let micros = (60_000_000.0 / opts.tempo_bpm).round() as u32;

    // Conductor track.
    let mut conductor: Vec<(u32, u8, TrackEventKind)> = vec![
        (
            0,
            0,
            TrackEventKind::Meta(MetaMessage::TrackName(opts.title.as_bytes())),
        ),
        (
            0,
            0,
            TrackEventKind::Meta(MetaMessage::Tempo(u24::new(micros))),
        ),
    ];
    if let Some(ts) = time_signature(bar_ticks, config.ticks_per_quarter as u32) {
        conductor.push((0, 0, TrackEventKind::Meta(ts)));
    }
    let mut tracks = vec![finish_track(conductor, end)];

    for (s, name) in names.iter().enumerate() {
        let ch = u4::new(channel_of(s));
        let program = opts.instruments[s % opts.instruments.len()];
        let midi = |message| TrackEventKind::Midi {
            channel: ch,
            message,
        };
        let mut ev: Vec<(u32, u8, TrackEventKind)> = vec![
            (
                0,
                0,
                TrackEventKind::Meta(MetaMessage::TrackName(name.as_bytes())),
            ),
            (
                0,
                0,
                midi(MidiMessage::ProgramChange {
                    program: u7::new(program),
                }),
            ),
            (
                0,
                0,
                midi(MidiMessage::Controller {
                    controller: u7::new(7),
                    value: u7::new(100),
                }),
            ),
            (
                0,
                0,
                midi(MidiMessage::Controller {
                    controller: u7::new(10),
                    value: u7::new(pan_of(s, seats)),
                }),
            ),
        ];
        for (i, sb) in bars.iter().enumerate() {
            let (Some(bar), true) = (sb.bar, sb.seat == s) else {
                continue;
            };
            let mut t = i as u32 * bar_ticks;
            for k in 0..3 {
                let key = u7::new(bar.notes[k].min(127));
                // Note-offs sort before note-ons at the same tick (order 1 < 2).
                ev.push((
                    t,
                    2,
                    midi(MidiMessage::NoteOn {
                        key,
                        vel: u7::new(bar.velocities[k].clamp(1, 127)),
                    }),
                ));
                t += bar.durations[k];
                ev.push((
                    t,
                    1,
                    midi(MidiMessage::NoteOff {
                        key,
                        vel: u7::new(64),
                    }),
                ));
            }
        }
        tracks.push(finish_track(ev, end));
    }

    let smf = Smf {
        header: Header {
            format: Format::Parallel,
            timing: Timing::Metrical(u15::new(config.ticks_per_quarter)),
        },
        tracks,
    };
    let mut out = Vec::new();
    smf.write_std(&mut out)
        .map_err(|e| MusicError::Midi(format!("encoding failed: {e}")))?;
    Ok(out)
}

/// The time signature of a bar of `bar` ticks: `n/4`, `n/8` or `n/16` when the
/// bar is a whole number of such beats (at most 255), else none.
fn time_signature(bar: u32, tpq: u32) -> Option<MetaMessage<'static>> {
    [(tpq, 2u8), (tpq / 2, 3), (tpq / 4, 4)]
        .into_iter()
        .find(|&(beat, _)| beat > 0 && bar.is_multiple_of(beat) && bar / beat <= 255)
        .map(|(beat, pow)| MetaMessage::TimeSignature((bar / beat) as u8, pow, 24, 8))
}

/// Sorts `(tick, order, event)` and turns it into a track with delta times,
/// ending at `end`.
fn finish_track(mut ev: Vec<(u32, u8, TrackEventKind<'_>)>, end: u32) -> Vec<TrackEvent<'_>> {
    ev.sort_by_key(|&(t, o, _)| (t, o));
    let mut out = Vec::with_capacity(ev.len() + 1);
    let mut now = 0;
    for (t, _, kind) in ev {
        out.push(TrackEvent {
            delta: u28::new(t - now),
            kind,
        });
        now = t;
    }
    out.push(TrackEvent {
        delta: u28::new(end.saturating_sub(now)),
        kind: TrackEventKind::Meta(MetaMessage::EndOfTrack),
    });
    out
}

/// A note read back from a MIDI file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MidiNote {
    /// The track it is on.
    pub track: usize,
    /// Its channel.
    pub channel: u8,
    /// The MIDI key.
    pub key: u8,
    /// The note-on velocity.
    pub velocity: u8,
    /// Start tick.
    pub start: u32,
    /// End tick.
    pub end: u32,
}

/// Reads the notes of a Standard MIDI File, in order of start (then track).
/// A note-on with velocity 0 counts as a note-off.
pub fn read_notes(bytes: &[u8]) -> Result<Vec<MidiNote>, MusicError> {
    let smf = Smf::parse(bytes).map_err(|e| MusicError::Midi(format!("not a MIDI file: {e}")))?;
    let mut notes = Vec::new();
    for (track, events) in smf.tracks.iter().enumerate() {
        let mut t = 0u32;
        let mut open: Vec<(u8, u8, u8, u32)> = Vec::new();
        for e in events {
            t += e.delta.as_int();
            if let TrackEventKind::Midi { channel, message } = e.kind {
                let ch = channel.as_int();
                match message {
                    MidiMessage::NoteOn { key, vel } if vel.as_int() > 0 => {
                        open.push((ch, key.as_int(), vel.as_int(), t));
                    }
                    MidiMessage::NoteOn { key, .. } | MidiMessage::NoteOff { key, .. } => {
                        if let Some(i) = open.iter().position(|o| o.0 == ch && o.1 == key.as_int())
                        {
                            let (channel, key, velocity, start) = open.remove(i);
                            notes.push(MidiNote {
                                track,
                                channel,
                                key,
                                velocity,
                                start,
                                end: t,
                            });
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    notes.sort_by_key(|n| (n.start, n.track));
    Ok(notes)
}
