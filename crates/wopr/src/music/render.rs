//! Rendering a MIDI file to a WAV: through a SoundFont (rustysynth) when one
//! is given, otherwise through the built-in synthesiser (`synth.rs`); WAV
//! encoding (hound).

use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::sync::Arc;

use rustysynth::{MidiFile, MidiFileSequencer, SoundFont, Synthesizer, SynthesizerSettings};

use super::wav::{check_options, finish, RenderOptions, WavInfo};
use super::MusicError;

/// Where Debian's `timgm6mb-soundfont` package installs its General MIDI
/// SoundFont (pass it as `--soundfont` for General MIDI sound).
pub const DEFAULT_SOUNDFONT: &str = "/usr/share/sounds/sf2/TimGM6mb.sf2";

/// Loads a SoundFont 2 file; the error names the file and says how to get one.
pub fn load_soundfont(path: &Path) -> Result<Arc<SoundFont>, MusicError> {
    let bad = |reason: String| MusicError::SoundFont {
        path: path.to_path_buf(),
        reason,
    };
    let file = File::open(path).map_err(|e| bad(e.to_string()))?;
    let sf = SoundFont::new(&mut BufReader::new(file))
        .map_err(|e| bad(format!("not a SoundFont 2 (.sf2) file ({e})")))?;
    Ok(Arc::new(sf))
}

/// Plays a MIDI file through `soundfont`; returns the left and right channels,
/// `ceil((length + tail) × rate)` frames long, normalised to the target peak,
/// and what was done.
pub fn render(
    midi: &[u8],
    soundfont: &Arc<SoundFont>,
    opts: &RenderOptions,
) -> Result<(Vec<f32>, Vec<f32>, WavInfo), MusicError> {
    check_options(opts)?;
    let midi = MidiFile::new(&mut &midi[..])
        .map_err(|e| MusicError::Midi(format!("rustysynth cannot read it: {e}")))?;
    let midi = Arc::new(midi);
    let settings = SynthesizerSettings::new(opts.sample_rate as i32);
    let synth =
        Synthesizer::new(soundfont, &settings).map_err(|e| MusicError::Render(e.to_string()))?;
    let mut seq = MidiFileSequencer::new(synth);
    seq.play(&midi, false);
    let seconds = midi.get_length() + opts.tail_secs;
    let frames = (seconds * f64::from(opts.sample_rate)).ceil() as usize;
    let mut left = vec![0f32; frames];
    let mut right = vec![0f32; frames];
    seq.render(&mut left, &mut right);
    Ok(finish(left, right, seconds, opts))
}

/// Encodes stereo samples in −1..1 as a 16-bit PCM WAV file in memory.
pub fn wav_bytes(left: &[f32], right: &[f32], sample_rate: u32) -> Result<Vec<u8>, MusicError> {
    let mut cursor = std::io::Cursor::new(Vec::new());
    let werr = |e: hound::Error| MusicError::Render(format!("cannot encode the WAV: {e}"));
    let mut w = hound::WavWriter::new(&mut cursor, wav_spec(sample_rate)).map_err(werr)?;
    for (&l, &r) in left.iter().zip(right) {
        w.write_sample(quantise(l)).map_err(werr)?;
        w.write_sample(quantise(r)).map_err(werr)?;
    }
    w.finalize().map_err(werr)?;
    Ok(cursor.into_inner())
}

fn wav_spec(sample_rate: u32) -> hound::WavSpec {
    hound::WavSpec {
        channels: 2,
        sample_rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    }
}

fn quantise(x: f32) -> i16 {
    (x.clamp(-1.0, 1.0) * 32767.0).round() as i16
}

/// Writes stereo samples in −1..1 as a 16-bit PCM WAV file.
pub fn write_wav(
    path: &Path,
    left: &[f32],
    right: &[f32],
    sample_rate: u32,
) -> Result<(), MusicError> {
    let werr = |e: hound::Error| MusicError::Write {
        path: path.to_path_buf(),
        reason: e.to_string(),
    };
    let mut w = hound::WavWriter::create(path, wav_spec(sample_rate)).map_err(werr)?;
    for (&l, &r) in left.iter().zip(right) {
        w.write_sample(quantise(l)).map_err(werr)?;
        w.write_sample(quantise(r)).map_err(werr)?;
    }
    w.finalize().map_err(werr)
}

/// Renders a MIDI file into the WAV file `out` (16-bit stereo, peak
/// normalised): through the SoundFont at `soundfont` if one is given,
/// otherwise through the built-in synthesiser ([`super::synth`]).
pub fn render_wav(
    midi: &[u8],
    soundfont: Option<&Path>,
    out: &Path,
    opts: &RenderOptions,
) -> Result<WavInfo, MusicError> {
    let (left, right, info) = match soundfont {
        Some(path) => render(midi, &load_soundfont(path)?, opts)?,
        None => super::synth::render(midi, opts)?,
    };
    write_wav(out, &left, &right, opts.sample_rate)?;
    Ok(info)
}
