//! What both renderers share: render options, the WAV summary, option
//! checks and peak normalisation (the SoundFont path in `render`, the
//! built-in synthesiser in `synth`).

use super::MusicError;

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

/// The end of every renderer: both channels (of equal length, `seconds`
/// long) normalised to the target peak, with their description.
pub(crate) fn finish(
    mut left: Vec<f32>,
    mut right: Vec<f32>,
    seconds: f64,
    opts: &RenderOptions,
) -> (Vec<f32>, Vec<f32>, WavInfo) {
    let (gain_db, silent) = normalise(&mut left, &mut right, opts.peak_dbfs);
    let info = WavInfo {
        frames: left.len(),
        sample_rate: opts.sample_rate,
        seconds,
        gain_db,
        silent,
    };
    (left, right, info)
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
