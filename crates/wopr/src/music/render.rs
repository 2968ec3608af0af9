//! Rendering a MIDI file to a WAV: through a SoundFont (rustysynth) when one
//! is given, otherwise through the built-in synthesiser (`synth.rs`); WAV
//! encoding (hound).

use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::sync::Arc;

use rustysynth::{MidiFile, MidiFileSequencer, SoundFont, Synthesizer, SynthesizerSettings};

use super::MusicError;

/// Where Debian's `timgm6mb-soundfont` package installs its General MIDI
/// SoundFont (pass it as `--soundfont` for General MIDI sound).
pub const DEFAULT_SOUNDFONT: &str = "/usr/share/sounds/sf2/TimGM6mb.sf2";

/// How audio is rendered.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RenderOptions {
    /// Samples per second, 16000–192000. Default 44100.
    pub sample_rate: u32,
    /// Seconds rendered after the last bar, for the notes to die away.
    /// Default 2.
    pub tail_secs: f64,
    /// The peak level the audio is normalised to, in dBFS. Default −1.
    pub peak_dbfs: f64,
}

impl Default for RenderOptions {
    fn default() -> RenderOptions {
        RenderOptions {
            sample_rate: 44_100,
            tail_secs: 2.0,
            peak_dbfs: -1.0,
        }
    }
}

/// What was rendered.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WavInfo {
    /// Stereo frames written.
    pub frames: usize,
    /// Samples per second.
    pub sample_rate: u32,
    /// Length in seconds (the MIDI file's length plus the tail).
    pub seconds: f64,
    /// The gain applied to reach the target peak, in dB (0 if silent).
    pub gain_db: f64,
    /// Whether the rendered audio was all zeros.
    pub silent: bool,
}

/// Checks the sample rate (16000–192000), the tail (0–60 s) and the peak
/// level (−60–0 dBFS).
pub(crate) fn check_options(opts: &RenderOptions) -> Result<(), MusicError> {
    if !(16_000..=192_000).contains(&opts.sample_rate) {
        return Err(MusicError::Render(format!(
            "sample rate {} is not in 16000..=192000",
            opts.sample_rate
        )));
    }
    if !(0.0..=60.0).contains(&opts.tail_secs) || !(-60.0..=0.0).contains(&opts.peak_dbfs) {
        return Err(MusicError::Render(format!(
            "tail {} s must be in 0..=60 and peak {} dBFS in -60..=0",
            opts.tail_secs, opts.peak_dbfs
        )));
    }
    Ok(())
}

/// Scales both channels so that the largest finite sample reaches
/// `peak_dbfs` (non-finite samples become 0); returns the gain in dB and
/// whether the audio was silent (then nothing is scaled).
pub(crate) fn normalise(left: &mut [f32], right: &mut [f32], peak_dbfs: f64) -> (f64, bool) {
    let peak =
        left.iter()
            .chain(right.iter())
            .fold(0f32, |m, &x| if x.is_finite() { m.max(x.abs()) } else { m });
    let silent = peak == 0.0;
    let mut gain_db = 0.0;
    if !silent {
        let target = 10f64.powf(peak_dbfs / 20.0);
        let gain = target / f64::from(peak);
        gain_db = 20.0 * gain.log10();
        let gain = gain as f32;
        for x in left.iter_mut().chain(right.iter_mut()) {
            *x = if x.is_finite() { *x * gain } else { 0.0 };
        }
    }
    (gain_db, silent)
}

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
    let (gain_db, silent) = normalise(&mut left, &mut right, opts.peak_dbfs);
    let info = WavInfo {
        frames,
        sample_rate: opts.sample_rate,
        seconds,
        gain_db,
        silent,
    };
    Ok((left, right, info))
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
