//! `wopr music`: a recorded game as MIDI (and WAV), and live composition for
//! `wopr play --music`.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use wopr::game::GameRecord;
use wopr::music::{
    compose_record, grid_rows, render_wav, to_midi, MidiOptions, MusicConfig, Musicator,
    RenderOptions, ScoreBar,
};

/// Turn a recorded game into music (MIDI-Connect4's musicator): each move
/// becomes a bar of three notes.
#[derive(clap::Args, Debug)]
pub struct MusicArgs {
    /// Games recorded by `wopr play --record` (one JSON object a line).
    #[arg(long, value_name = "GAMES.jsonl")]
    pub record: PathBuf,
    /// Which game of the file to use (0 = the first).
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub game_index: usize,
    /// The Standard MIDI File to write.
    #[arg(long, value_name = "SONG.mid")]
    pub out: PathBuf,
    /// Also render a WAV file (built-in synthesiser, or --soundfont).
    #[arg(long, value_name = "SONG.wav")]
    pub wav: Option<PathBuf>,
    /// Seed for the random signs, durations and velocities.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Tempo in quarter notes per minute (a default bar is 4 quarters).
    #[arg(long, value_name = "BPM", default_value_t = 120.0)]
    pub tempo: f64,
    /// General MIDI program 0-127 (0 = piano); `N,M` gives one per seat.
    #[arg(long, value_name = "N", value_delimiter = ',', default_value = "0",
          value_parser = clap::value_parser!(u8).range(0..=127))]
    pub instrument: Vec<u8>,
    /// SoundFont 2 (.sf2) file for --wav, for General MIDI sound (Debian's
    /// `timgm6mb-soundfont` installs /usr/share/sounds/sf2/TimGM6mb.sf2);
    /// without it the built-in synthesiser plays.
    #[arg(long, value_name = "FILE")]
    pub soundfont: Option<PathBuf>,
    /// JSON file replacing musicator settings: interval table (columns, rows,
    /// rows_from), references, phrase_bars, low/high, signs, durations
    /// (bar_ticks, min_ticks, grid_ticks), velocities.
    #[arg(long, value_name = "TABLE.json")]
    pub config: Option<PathBuf>,
    /// Sample rate of the WAV file.
    #[arg(long, value_name = "HZ", default_value_t = 44_100)]
    pub sample_rate: u32,
    /// Do not list the bars.
    #[arg(long)]
    pub quiet: bool,
}

/// Reads game `index` (0-based, blank lines skipped) of a JSONL record file.
fn read_record(path: &Path, index: usize) -> anyhow::Result<GameRecord> {
    let file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut count = 0;
    for (ln, line) in BufReader::new(file).lines().enumerate() {
        let line = line.with_context(|| format!("cannot read {}", path.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        if count == index {
            return serde_json::from_str(&line).with_context(|| {
                format!(
                    "{} line {}: not a game record from `wopr play --record`",
                    path.display(),
                    ln + 1
                )
            });
        }
        count += 1;
    }
    bail!(
        "{} holds {count} game(s); --game-index {index} is out of range (0..{count})",
        path.display()
    )
}

fn check_parent(path: &Path) -> anyhow::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            bail!(
                "cannot write {}: directory {} does not exist",
                path.display(),
                dir.display()
            );
        }
    }
    Ok(())
}

fn write_file(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    std::fs::write(path, bytes).with_context(|| format!("cannot write {}", path.display()))
}

/// Runs `wopr music`.
pub fn run(args: &MusicArgs) -> anyhow::Result<()> {
    let config = match &args.config {
        Some(p) => MusicConfig::load(p)?,
        None => MusicConfig::default(),
    };
    check_parent(&args.out)?;
    if let Some(wav) = &args.wav {
        check_parent(wav)?;
        // Fail before any work if the SoundFont cannot even be opened.
        if let Some(sf) = &args.soundfont {
            if let Err(e) = File::open(sf) {
                return Err(wopr::music::MusicError::SoundFont {
                    path: sf.clone(),
                    reason: e.to_string(),
                }
                .into());
            }
        }
    }
    let rec = read_record(&args.record, args.game_index)?;
    let piece = compose_record(&rec, &config, args.seed)?;
    if !args.quiet {
        for (i, (mv, sb)) in piece.moves.iter().zip(&piece.bars).enumerate() {
            println!(
                "{}",
                bar_line(i + 1, &piece.seat_names, sb, Some(&mv.notation))
            );
        }
    }
    let opts = MidiOptions {
        tempo_bpm: args.tempo,
        instruments: args.instrument.clone(),
        seat_names: piece.seat_names.clone(),
        title: format!("{} ({})", rec.game, rec.players.join(" vs ")),
    };
    let midi = to_midi(&piece.bars, &config, &opts)?;
    write_file(&args.out, &midi)?;
    let bar_secs = config.bar_ticks as f64 / config.ticks_per_quarter as f64 * 60.0 / args.tempo;
    println!(
        "wrote {}: {} bars of {} ({}), {:.1} s at {} BPM; {}",
        args.out.display(),
        piece.bars.len(),
        rec.game,
        rec.players.join(" vs "),
        bar_secs * piece.bars.len() as f64,
        args.tempo,
        seat_layout(&piece.seat_names),
    );
    if let Some(wav) = &args.wav {
        let ropts = RenderOptions {
            sample_rate: args.sample_rate,
            ..RenderOptions::default()
        };
        let info = render_wav(&midi, args.soundfont.as_deref(), wav, &ropts)?;
        println!(
            "wrote {}: {:.1} s, {} Hz stereo 16-bit, peak normalised to {} dBFS (gain {:+.1} dB){}",
            wav.display(),
            info.seconds,
            info.sample_rate,
            ropts.peak_dbfs,
            info.gain_db,
            if info.silent {
                "; the SoundFont made no sound"
            } else {
                ""
            }
        );
    }
    Ok(())
}

/// `X on channel 1 (left), O on channel 2 (right)`.
fn seat_layout(names: &[String]) -> String {
    let n = names.len();
    names
        .iter()
        .enumerate()
        .map(|(s, name)| {
            let side = match (n, s) {
                (1, _) => "",
                (_, 0) => " (left)",
                (_, s) if s + 1 == n => " (right)",
                _ => "",
            };
            let ch = if s < 9 { s + 1 } else { s + 2 };
            format!("{name} on channel {ch}{side}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `bar 3 (O): E2 G2 C3`, with the move's notation when known.
fn bar_line(n: usize, names: &[String], sb: &ScoreBar, notation: Option<&str>) -> String {
    let seat = names
        .get(sb.seat)
        .cloned()
        .unwrap_or_else(|| format!("seat {}", sb.seat));
    let mv = notation.map(|m| format!(" {m}")).unwrap_or_default();
    match &sb.bar {
        Some(bar) => format!("bar {n} ({seat}){mv}: {}", bar.names()),
        None => format!("bar {n} ({seat}){mv}: rest"),
    }
}

/// Composes while a game is played (`wopr play … --music FILE`): every move
/// becomes a bar at once, and [`LiveComposer::finish`] writes the MIDI file.
/// Defaults: the paper's musicator settings, a 6-row board, seats `X` and
/// `O`, 120 BPM, piano; [`LiveComposer::with_game`] adapts it to the game.
pub struct LiveComposer {
    out: PathBuf,
    seed: u64,
    musicator: Musicator,
    bars: Vec<ScoreBar>,
    options: MidiOptions,
}

impl LiveComposer {
    /// A composer writing to `out`; fails at once if `out`'s directory does
    /// not exist.
    pub fn new(out: PathBuf, seed: u64) -> anyhow::Result<LiveComposer> {
        check_parent(&out)?;
        Ok(LiveComposer {
            out,
            seed,
            musicator: Musicator::new(MusicConfig::default(), 6, seed)?,
            bars: Vec::new(),
            options: MidiOptions {
                seat_names: vec!["X".into(), "O".into()],
                ..MidiOptions::default()
            },
        })
    }

    /// Adapts to `game`: its board's rows (for counting rows from the
    /// bottom), its seat names and its spec as the title. Call before the
    /// first move, e.g. `LiveComposer::new(path, seed)?.with_game(game)`.
    #[allow(dead_code)] // optional; without it: 6 rows, seats X and O
    pub fn with_game<G: wopr::Game>(mut self, game: &G) -> LiveComposer {
        let rows = grid_rows(game).unwrap_or(6);
        let config = self.musicator.config().clone();
        self.musicator = Musicator::new(config, rows, self.seed).expect("config already checked");
        self.options.seat_names = game.seat_names().iter().map(|s| s.to_string()).collect();
        self.options.title = game.spec();
        self
    }

    /// Replaces the musicator settings (e.g. from `--config`). Call before
    /// the first move.
    #[allow(dead_code)] // optional; `wopr play` may not need it
    pub fn with_config(mut self, config: MusicConfig) -> anyhow::Result<LiveComposer> {
        let rows = self.musicator.board_rows();
        self.musicator = Musicator::new(config, rows, self.seed)?;
        Ok(self)
    }

    /// Sets tempo (BPM) and General MIDI programs (one, or one per seat).
    #[allow(dead_code)] // optional; `wopr play` may not need it
    pub fn with_midi(
        mut self,
        tempo_bpm: f64,
        instruments: Vec<u8>,
    ) -> anyhow::Result<LiveComposer> {
        self.options.tempo_bpm = tempo_bpm;
        self.options.instruments = instruments;
        self.options.validate()?;
        Ok(self)
    }

    /// Called for every move with the square `(col, row)` it occupies (row 0
    /// = top; `None` for a pass, which is a silent bar) and the seat that
    /// moved; returns the line to show, like `bar 3 (O): E2 G2 C3`.
    pub fn on_move(&mut self, cell: Option<(usize, usize)>, seat: usize) -> Option<String> {
        let sb = ScoreBar {
            seat,
            cell,
            bar: self.musicator.next(cell),
        };
        self.bars.push(sb);
        Some(bar_line(
            self.bars.len(),
            &self.options.seat_names,
            &sb,
            None,
        ))
    }

    /// Writes the MIDI file of the bars so far (at the end of the game, or
    /// when it is abandoned); may be called again. Returns the path written.
    pub fn finish(&mut self) -> anyhow::Result<PathBuf> {
        let midi = to_midi(&self.bars, self.musicator.config(), &self.options)?;
        write_file(&self.out, &midi)?;
        Ok(self.out.clone())
    }
}
