//! A small built-in synthesiser, so that a game's MIDI file becomes a WAV
//! with no SoundFont installed: each note is an additive tone (a few sine
//! harmonics in a wavetable) under an ADSR envelope, shaped by the General
//! MIDI program's family (piano, organ, guitar, strings, brass, …), panned
//! as the file's pan controllers say and scaled by velocity.
//!
//! It is not General MIDI's sound; [`super::render`] through a SoundFont
//! still gives that for those who have one.

use midly::{MetaMessage, MidiMessage, Smf, Timing, TrackEventKind};

use super::wav::{check_options, finish, RenderOptions, WavInfo};
use super::MusicError;

/// How one family of General MIDI programs sounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Voice {
    /// Relative amplitudes of harmonics 1, 2, 3, …
    pub harmonics: [f32; 6],
    /// Attack time in seconds.
    pub attack: f32,
    /// Decay time (to the sustain level) in seconds.
    pub decay: f32,
    /// Sustain level, 0–1, while the note is held.
    pub sustain: f32,
    /// Release time after the note ends, in seconds.
    pub release: f32,
}

/// The voice of General MIDI program `program` (0–127), by its family of
/// eight: pianos and plucked strings ring and fade, organs and reeds hold,
/// strings and pads swell.
pub fn voice(program: u8) -> Voice {
    let v = |harmonics, attack, decay, sustain, release| Voice {
        harmonics,
        attack,
        decay,
        sustain,
        release,
    };
    match program / 8 {
        // Piano, chromatic percussion: bright strike, fading.
        0 => v([1.0, 0.5, 0.25, 0.12, 0.06, 0.03], 0.005, 0.9, 0.25, 0.35),
        1 => v([1.0, 0.1, 0.35, 0.0, 0.1, 0.0], 0.002, 0.5, 0.05, 0.4),
        // Organ: steady, many harmonics.
        2 => v([1.0, 0.6, 0.4, 0.3, 0.2, 0.1], 0.01, 0.05, 0.9, 0.08),
        // Guitar, bass: plucked.
        3 => v([1.0, 0.45, 0.3, 0.15, 0.08, 0.04], 0.003, 0.7, 0.15, 0.25),
        4 => v([1.0, 0.3, 0.1, 0.05, 0.0, 0.0], 0.005, 0.5, 0.3, 0.2),
        // Strings, ensemble: slow swell, sustained.
        5 | 6 => v([1.0, 0.5, 0.33, 0.25, 0.2, 0.16], 0.12, 0.2, 0.8, 0.3),
        // Brass, reed, pipe: breathy onset, held.
        7 => v([1.0, 0.7, 0.5, 0.35, 0.2, 0.1], 0.04, 0.1, 0.85, 0.15),
        8 => v([1.0, 0.05, 0.5, 0.05, 0.3, 0.05], 0.03, 0.1, 0.8, 0.12),
        9 => v([1.0, 0.15, 0.05, 0.0, 0.0, 0.0], 0.05, 0.1, 0.8, 0.15),
        // Synth lead and pad.
        10 => v([1.0, 0.5, 0.33, 0.25, 0.2, 0.17], 0.01, 0.1, 0.8, 0.1),
        11 => v([1.0, 0.3, 0.2, 0.1, 0.05, 0.02], 0.3, 0.3, 0.8, 0.6),
        // Effects, ethnic, percussive, sound effects: short and plucked.
        _ => v([1.0, 0.2, 0.4, 0.1, 0.2, 0.05], 0.002, 0.3, 0.1, 0.2),
    }
}

impl Voice {
    /// The envelope level `t` seconds after the note starts, for a note held
    /// `held` seconds (the release starts then, from the level reached).
    pub fn envelope(&self, t: f32, held: f32) -> f32 {
        let adsr = |t: f32| {
            if t < self.attack {
                t / self.attack
            } else if t < self.attack + self.decay {
                1.0 - (1.0 - self.sustain) * (t - self.attack) / self.decay
            } else {
                self.sustain
            }
        };
        if t < held {
            adsr(t)
        } else {
            let r = (t - held) / self.release;
            if r >= 1.0 {
                0.0
            } else {
                adsr(held) * (1.0 - r)
            }
        }
    }
}

/// Samples in one wavetable cycle.
const TABLE: usize = 2048;

fn wavetable(v: &Voice) -> Vec<f32> {
    let norm: f32 = v.harmonics.iter().sum();
    (0..TABLE)
        .map(|i| {
            let x = i as f32 / TABLE as f32 * std::f32::consts::TAU;
            v.harmonics
                .iter()
                .enumerate()
                .map(|(h, a)| a * (x * (h + 1) as f32).sin())
                .sum::<f32>()
                / norm
        })
        .collect()
}

/// A note to play, in seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Sounding {
    start: f64,
    end: f64,
    key: u8,
    velocity: u8,
    program: u8,
    pan: u8,
}

/// Reads the notes of a MIDI file with their times in seconds (following
/// its tempo changes), programs and pans; and the file's length in seconds.
fn sounding_notes(midi: &[u8]) -> Result<(Vec<Sounding>, f64), MusicError> {
    let smf = Smf::parse(midi).map_err(|e| MusicError::Midi(format!("not a MIDI file: {e}")))?;
    let Timing::Metrical(tpq) = smf.header.timing else {
        return Err(MusicError::Midi(
            "SMPTE timing is not supported; give a file with ticks per quarter".into(),
        ));
    };
    let tpq = f64::from(tpq.as_int().max(1));
    // The tempo map (tick, microseconds per quarter), from every track.
    let mut tempos: Vec<(u64, u32)> = vec![(0, 500_000)];
    let mut events: Vec<(u64, usize, TrackEventKind)> = Vec::new();
    for (track, evs) in smf.tracks.iter().enumerate() {
        let mut t = 0u64;
        for e in evs {
            t += u64::from(e.delta.as_int());
            match e.kind {
                TrackEventKind::Meta(MetaMessage::Tempo(us)) => tempos.push((t, us.as_int())),
                k @ TrackEventKind::Midi { .. } => events.push((t, track, k)),
                _ => {}
            }
        }
    }
    tempos.sort_by_key(|&(t, _)| t);
    let seconds = |tick: u64| {
        let mut s = 0.0;
        let mut prev = (0u64, 500_000u32);
        for &(t, us) in &tempos {
            if t > tick {
                break;
            }
            s += (t - prev.0) as f64 / tpq * f64::from(prev.1) / 1e6;
            prev = (t, us);
        }
        s + (tick - prev.0) as f64 / tpq * f64::from(prev.1) / 1e6
    };
    events.sort_by_key(|&(t, track, _)| (t, track));
    let mut program = [0u8; 16];
    let mut pan = [64u8; 16];
    let mut open: Vec<(u8, u8, u8, u64)> = Vec::new();
    let mut notes = Vec::new();
    let mut last = 0u64;
    for (t, _, kind) in events {
        last = last.max(t);
        let TrackEventKind::Midi { channel, message } = kind else {
            continue;
        };
        let ch = channel.as_int();
        match message {
            MidiMessage::ProgramChange { program: p } => program[ch as usize] = p.as_int(),
            MidiMessage::Controller { controller, value } if controller.as_int() == 10 => {
                pan[ch as usize] = value.as_int();
            }
            // Channel 10 (index 9) is General MIDI percussion: left out.
            MidiMessage::NoteOn { .. } if ch == 9 => {}
            MidiMessage::NoteOn { key, vel } if vel.as_int() > 0 => {
                open.push((ch, key.as_int(), vel.as_int(), t));
            }
            MidiMessage::NoteOn { key, .. } | MidiMessage::NoteOff { key, .. } => {
                if let Some(i) = open.iter().position(|o| o.0 == ch && o.1 == key.as_int()) {
                    let (ch, key, velocity, start) = open.remove(i);
                    notes.push(Sounding {
                        start: seconds(start),
                        end: seconds(t),
                        key,
                        velocity,
                        program: program[ch as usize],
                        pan: pan[ch as usize],
                    });
                }
            }
            _ => {}
        }
    }
    Ok((notes, seconds(last)))
}

/// Plays a MIDI file through the built-in synthesiser; returns the left and
/// right channels, `ceil((length + tail) × rate)` frames long, normalised to
/// the target peak, and what was done (as [`super::render`] does with a
/// SoundFont). Percussion (channel 10) is left silent.
pub fn render(
    midi: &[u8],
    opts: &RenderOptions,
) -> Result<(Vec<f32>, Vec<f32>, WavInfo), MusicError> {
    check_options(opts)?;
    let (notes, length) = sounding_notes(midi)?;
    let rate = f64::from(opts.sample_rate);
    let seconds = length + opts.tail_secs;
    let frames = (seconds * rate).ceil() as usize;
    let mut left = vec![0f32; frames];
    let mut right = vec![0f32; frames];
    let mut tables: Vec<Option<(Voice, Vec<f32>)>> = vec![None; 16];
    for n in &notes {
        let family = usize::from(n.program / 8);
        let (v, table) = tables[family].get_or_insert_with(|| {
            let v = voice(n.program);
            let t = wavetable(&v);
            (v, t)
        });
        let freq = 440.0 * 2f64.powf((f64::from(n.key) - 69.0) / 12.0);
        let step = freq * TABLE as f64 / rate;
        let held = (n.end - n.start) as f32;
        let gain = f32::from(n.velocity) / 127.0;
        // Equal-power pan: 0 = left, 127 = right.
        let angle = f32::from(n.pan) / 127.0 * std::f32::consts::FRAC_PI_2;
        let (gl, gr) = (angle.cos(), angle.sin());
        let first = (n.start * rate).round() as usize;
        let count = ((f64::from(held) + f64::from(v.release)) * rate).ceil() as usize;
        let mut phase = 0f64;
        for i in 0..count {
            let Some(k) = first.checked_add(i).filter(|&k| k < frames) else {
                break;
            };
            let t = (i as f64 / rate) as f32;
            let idx = phase as usize;
            let frac = (phase - idx as f64) as f32;
            let a = table[idx % TABLE];
            let b = table[(idx + 1) % TABLE];
            let s = (a + (b - a) * frac) * v.envelope(t, held) * gain;
            left[k] += s * gl;
            right[k] += s * gr;
            phase = (phase + step) % TABLE as f64;
        }
    }
    Ok(finish(left, right, seconds, opts))
}
