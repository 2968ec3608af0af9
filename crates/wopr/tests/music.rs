#![cfg(feature = "music")]
//! The musicator (issue 6): the paper's worked examples, the invariants of
//! every bar, the MIDI file and the WAV rendering.
//!
//! Source of the expected notes: Miranda & Zhang, "Composition as game
//! strategy" (papers/midi-connect4.txt), §3: the two sequences that follow the
//! first move `{C2, E2, F2}`, and the caption of Figure 6. With the default
//! table (column k → k semitones, row k from the bottom → k semitones) they are
//! the moves written next to each example; the signs are read off the printed
//! notes.

use std::path::Path;

use rand::RngExt;
use wopr::game::rng::stream;
use wopr::game::{Game, GameRecord, State};
use wopr::games::connect4::Connect4;
use wopr::games::tictactoe::TicTacToe;
use wopr::music::{
    compose_record, grid_moves, grid_rows, note_name, parse_note, read_notes, render, to_midi,
    MidiOptions, MusicConfig, MusicError, Musicator, RenderOptions, ScoreBar, SignMode,
    DEFAULT_SOUNDFONT,
};
use wopr::{ActionList, Turn};

/// The cells of dropping discs into `columns` (0 = `a`) of an empty Connect-4
/// board with `rows` rows: a plain reference, independent of the game module.
fn drops(columns: &[usize], rows: usize) -> Vec<(usize, usize)> {
    let mut height = [0usize; 16];
    columns
        .iter()
        .map(|&c| {
            height[c] += 1;
            (c, rows - height[c])
        })
        .collect()
}

fn col(letter: char) -> usize {
    letter as usize - 'a' as usize
}

/// Plays `moves` (column letters) with forced `signs` ('+' up, '-' down) from
/// middle C with the default table on a 6-row board, returning the bars by
/// name.
fn paper_bars(moves: &str, signs: &[&str]) -> Vec<String> {
    let cols: Vec<usize> = moves.chars().map(col).collect();
    let mut m = Musicator::new(MusicConfig::default(), 6, 1).unwrap();
    drops(&cols, 6)
        .into_iter()
        .zip(signs)
        .map(|(cell, s)| {
            let s: Vec<bool> = s.chars().map(|c| c == '+').collect();
            m.bar_with_signs(cell, [s[0], s[1]]).names()
        })
        .collect()
}

#[test]
fn paper_worked_example_first_bar_and_the_next() {
    // §3: "the gamer made the first move: {C2, E2, F2}. Then, the n1 for the
    // next move by the opponent will be ... F2". Move d (column 4 → 4
    // semitones) on the bottom row (row 1 → 1 semitone), both signs up.
    let bars = paper_bars("de", &["++", "++"]);
    assert_eq!(bars[0], "C2 E2 F2");
    assert!(bars[1].starts_with("F2 "), "{}", bars[1]);
    // MIDI numbers: middle C = C2 = 60, so {C2, E2, F2} = {60, 64, 65}.
    let mut m = Musicator::new(MusicConfig::default(), 6, 1).unwrap();
    assert_eq!(m.bar_with_signs((3, 5), [true, true]).notes, [60, 64, 65]);
}

#[test]
fn paper_sequences_are_reproduced() {
    // §3, sequence 1: {C2,E2,F2}, {F2,A#2,B2}, {B2,G2,F2}, {F2,G#2,A2}, {A2,F#2,E2}
    // from the moves d e d c c (rows 1 1 2 1 2 from the bottom).
    assert_eq!(
        paper_bars("dedcc", &["++", "++", "--", "++", "--"]),
        [
            "C2 E2 F2",
            "F2 A#2 B2",
            "B2 G2 F2",
            "F2 G#2 A2",
            "A2 F#2 E2"
        ]
    );
    // §3, sequence 2: {C2,E2,F2}, {F2,C2,B1}, {B1,G1,F1}, {F1,D1,C#1}, {C#1,E1,F#1}.
    assert_eq!(
        paper_bars("dedcc", &["++", "--", "--", "--", "++"]),
        [
            "C2 E2 F2",
            "F2 C2 B1",
            "B1 G1 F1",
            "F1 D1 C#1",
            "C#1 E1 F#1"
        ]
    );
    // Figure 6: {C2,C#2,D2}, {D2,D#2,F2}, {F2,A#2,B2}, {B2,A#2,G2}, {G2,B2,C3},
    // {C3,G2,F2}, {F2,A#2,C#3}, {C#3,G#2,E2}: the moves a a e a d e e e.
    assert_eq!(
        paper_bars(
            "aaeadeee",
            &["++", "++", "++", "--", "++", "--", "++", "--"]
        ),
        [
            "C2 C#2 D2",
            "D2 D#2 F2",
            "F2 A#2 B2",
            "B2 A#2 G2",
            "G2 B2 C3",
            "C3 G2 F2",
            "F2 A#2 C#3",
            "C#3 G#2 E2"
        ]
    );
}

#[test]
fn paper_sequence_through_the_connect4_game() {
    // The same moves played by the real Connect-4 module (its action_cell) give
    // the same squares as the plain drop reference, hence the paper's notes.
    let game = Connect4::from_spec(&wopr::game::GameSpec::parse("connect4:6x6").unwrap()).unwrap();
    assert_eq!(grid_rows(&game), Some(6));
    let actions: Vec<u16> = "dedcc".chars().map(|c| col(c) as u16).collect();
    let moves = grid_moves(&game, &actions).unwrap();
    let cells: Vec<_> = moves.iter().map(|m| m.cell.unwrap()).collect();
    assert_eq!(cells, drops(&[3, 4, 3, 2, 2], 6));
    assert_eq!(
        moves.iter().map(|m| m.seat).collect::<Vec<_>>(),
        [0, 1, 0, 1, 0]
    );
    let mut m = Musicator::new(MusicConfig::default(), 6, 1).unwrap();
    let signs = [
        [true, true],
        [true, true],
        [false, false],
        [true, true],
        [false, false],
    ];
    let names: Vec<String> = cells
        .iter()
        .zip(signs)
        .map(|(&c, s)| m.bar_with_signs(c, s).names())
        .collect();
    assert_eq!(
        names,
        [
            "C2 E2 F2",
            "F2 A#2 B2",
            "B2 G2 F2",
            "F2 G#2 A2",
            "A2 F#2 E2"
        ]
    );
}

/// Every invariant of a bar under `config`, given the previous `n3`.
fn check_bar(m: &Musicator, prev: Option<u8>, cell: (usize, usize), bar: &wopr::music::Bar) {
    let c = m.config();
    let (lo, hi) = (c.low.0, c.high.0);
    assert_eq!(bar.durations.iter().sum::<u32>(), c.bar_ticks, "{bar:?}");
    for &d in &bar.durations {
        assert!(d >= c.min_ticks && d % c.grid_ticks == 0, "{bar:?}");
    }
    for &v in &bar.velocities {
        assert!((c.velocity_min..=c.velocity_max).contains(&v), "{bar:?}");
    }
    for &n in &bar.notes {
        assert!((lo..=hi).contains(&n), "{bar:?}");
    }
    match prev {
        Some(p) => assert_eq!(bar.notes[0], p, "n1 must be the previous n3"),
        None => assert_eq!(bar.notes[0], c.references[0].0),
    }
    // An interval d with 2d <= high - low + 1 always fits one way or the
    // other (18 semitones in the default C1..B3), so reflection keeps its size.
    let want = m.intervals(cell);
    #[allow(clippy::needless_range_loop)]
    for k in 0..2 {
        if 2 * u32::from(want[k]) <= u32::from(hi - lo) + 1 {
            assert_eq!(
                bar.intervals[k].unsigned_abs(),
                u32::from(want[k]),
                "{bar:?}"
            );
        }
        assert_eq!(
            bar.intervals[k],
            i32::from(bar.notes[k + 1]) - i32::from(bar.notes[k])
        );
    }
}

#[test]
fn every_bar_keeps_the_rules_over_many_random_games() {
    // Random squares on boards up to 9x9, several configs, 200 bars each.
    let configs = [
        MusicConfig::default(),
        MusicConfig {
            signs: SignMode::Shared,
            ..MusicConfig::default()
        },
        MusicConfig::from_json(
            r#"{"columns": [7, 12, 18, 5], "rows": [3, 16, 9], "rows_from": "top",
                "low": "A0", "high": "G#2", "references": ["E1"],
                "bar_ticks": 1440, "min_ticks": 120, "grid_ticks": 60,
                "velocity_min": 30, "velocity_max": 90}"#,
        )
        .unwrap(),
        // Intervals that fit neither way in the range are folded by octaves.
        MusicConfig::from_json(r#"{"columns": [25, 30, 35], "rows": [19, 1]}"#).unwrap(),
    ];
    let mut rng = stream(2024, &[6]);
    let mut ups = [0usize; 2];
    let mut total = 0usize;
    for (ci, config) in configs.iter().enumerate() {
        for seed in 0..20u64 {
            let size = rng.random_range(3..=9usize);
            let mut m = Musicator::new(config.clone(), size, seed).unwrap();
            let mut prev = None;
            for _ in 0..200 {
                let cell = (rng.random_range(0..size), rng.random_range(0..size));
                let n1 = m.next_n1();
                let bar = m.bar(cell);
                check_bar(&m, prev, cell, &bar);
                assert_eq!(bar.notes[0], n1);
                if ci == 1 {
                    // Shared signs: the same direction for both intervals
                    // unless the edge of the range reflected one.
                    let (lo, hi) = (i32::from(config.low.0), i32::from(config.high.0));
                    let n = i32::from(n1);
                    if n - lo >= 24 && hi - n >= 24 {
                        assert_eq!(bar.intervals[0] > 0, bar.intervals[1] > 0, "{bar:?}");
                    }
                }
                if ci == 0 {
                    total += 1;
                    for (u, &i) in ups.iter_mut().zip(&bar.intervals) {
                        *u += usize::from(i > 0);
                    }
                }
                prev = Some(bar.notes[2]);
            }
        }
    }
    // Signs are random: both directions occur often (reflection at the edges
    // of the range biases them a little towards the middle).
    for u in ups {
        assert!(u > total / 4 && u < total * 3 / 4, "{u} ups of {total}");
    }
}

#[test]
fn same_seed_same_music_other_seed_other_music() {
    let cells = drops(&[3, 3, 2, 4, 1, 5, 0, 3], 6);
    let play = |seed| {
        let mut m = Musicator::new(MusicConfig::default(), 6, seed).unwrap();
        cells.iter().map(|&c| m.bar(c)).collect::<Vec<_>>()
    };
    assert_eq!(play(7), play(7));
    assert_ne!(play(7), play(8));
}

#[test]
fn passes_are_rests_and_references_restart_phrases() {
    let mut m = Musicator::new(MusicConfig::default(), 6, 3).unwrap();
    let a = m.next(Some((3, 5))).unwrap();
    assert!(m.next(None).is_none());
    let b = m.next(Some((0, 5))).unwrap();
    assert_eq!(b.notes[0], a.notes[2], "a rest does not move the chain");
    assert_eq!(m.bars_made(), 3);

    // Two reference notes, a new phrase every 2 bars: bars 0 and 1 chain from
    // C2, bar 2 starts on G2, bar 4 on C2 again.
    let cfg = MusicConfig::from_json(r#"{"references": ["C2", "G2"], "phrase_bars": 2}"#).unwrap();
    let mut m = Musicator::new(cfg, 6, 3).unwrap();
    let bars: Vec<_> = (0..5).map(|_| m.bar((2, 5))).collect();
    assert_eq!(bars[0].notes[0], 60);
    assert_eq!(bars[1].notes[0], bars[0].notes[2]);
    assert_eq!(bars[2].notes[0], parse_note("G2").unwrap());
    assert_eq!(bars[3].notes[0], bars[2].notes[2]);
    assert_eq!(bars[4].notes[0], 60);
}

/// A random Tic-Tac-Toe game as `wopr play --record` would write it.
fn random_tictactoe_record(seed: u64) -> GameRecord {
    let game = TicTacToe;
    let mut s = game.initial_state();
    let mut rng = stream(seed, &[0]);
    let (mut moves, mut actions) = (Vec::new(), Vec::new());
    while let Turn::Player(_) = s.turn() {
        let mut legal = ActionList::new();
        s.legal_actions(&mut legal);
        let a = legal[rng.random_range(0..legal.len())];
        moves.push(s.action_to_string(a));
        actions.push(a);
        s.apply(a);
    }
    GameRecord {
        game: game.spec(),
        players: vec!["random".into(), "random".into()],
        moves,
        actions,
        returns: Some(vec![s.returns(0), s.returns(1)]),
        score: None,
        opening: 0,
        forfeit: None,
        replayed: Vec::new(),
        thinking: Vec::new(),
    }
}

#[test]
fn a_record_becomes_a_midi_file_that_parses_back() {
    let config = MusicConfig::default();
    for seed in 0..10 {
        let rec = random_tictactoe_record(seed);
        // The record survives JSON, as in a GAMES.jsonl file.
        let rec: GameRecord = serde_json::from_str(&serde_json::to_string(&rec).unwrap()).unwrap();
        let piece = compose_record(&rec, &config, seed).unwrap();
        assert_eq!(piece.board_rows, 3);
        assert_eq!(piece.bars.len(), rec.actions.len());
        assert_eq!(piece.seat_names, ["X", "O"]);
        for (i, (sb, &a)) in piece.bars.iter().zip(&rec.actions).enumerate() {
            assert_eq!(sb.seat, i % 2);
            assert_eq!(sb.cell, Some((a as usize % 3, a as usize / 3)));
        }
        let opts = MidiOptions {
            tempo_bpm: 90.0,
            instruments: vec![11, 73],
            seat_names: piece.seat_names.clone(),
            title: "test".into(),
        };
        let bytes = to_midi(&piece.bars, &config, &opts).unwrap();

        // Parse with midly directly: format 1, conductor + one track per seat.
        let smf = midly::Smf::parse(&bytes).unwrap();
        assert_eq!(smf.header.format, midly::Format::Parallel);
        assert_eq!(smf.header.timing, midly::Timing::Metrical(480.into()));
        assert_eq!(smf.tracks.len(), 3);
        let tempo = smf.tracks[0].iter().find_map(|e| match e.kind {
            midly::TrackEventKind::Meta(midly::MetaMessage::Tempo(t)) => Some(t.as_int()),
            _ => None,
        });
        assert_eq!(tempo, Some(666_667)); // 60e6 / 90 µs per quarter
        for (t, program) in [(1, 11), (2, 73)] {
            let p = smf.tracks[t].iter().find_map(|e| match e.kind {
                midly::TrackEventKind::Midi {
                    message: midly::MidiMessage::ProgramChange { program },
                    channel,
                } => Some((channel.as_int(), program.as_int())),
                _ => None,
            });
            assert_eq!(p, Some((t as u8 - 1, program)));
        }

        // Three notes a bar, in order, on the mover's track and channel.
        let notes = read_notes(&bytes).unwrap();
        assert_eq!(notes.len(), 3 * piece.bars.len());
        let want: Vec<_> = piece
            .bars
            .iter()
            .enumerate()
            .flat_map(|(i, sb)| {
                let bar = sb.bar.unwrap();
                let mut t = i as u32 * config.bar_ticks;
                (0..3).map(move |k| {
                    let start = t;
                    t += bar.durations[k];
                    (
                        sb.seat + 1,
                        sb.seat as u8,
                        bar.notes[k],
                        bar.velocities[k],
                        start,
                        t,
                    )
                })
            })
            .collect();
        let got: Vec<_> = notes
            .iter()
            .map(|n| (n.track, n.channel, n.key, n.velocity, n.start, n.end))
            .collect();
        assert_eq!(got, want);
    }
}

#[test]
fn rests_are_silent_in_the_midi_file() {
    let config = MusicConfig::default();
    let mut m = Musicator::new(config.clone(), 6, 9).unwrap();
    let bars: Vec<ScoreBar> = [Some((0, 5)), None, Some((1, 5))]
        .iter()
        .enumerate()
        .map(|(i, &cell)| ScoreBar {
            seat: i % 2,
            cell,
            bar: m.next(cell),
        })
        .collect();
    let notes = read_notes(&to_midi(&bars, &config, &MidiOptions::default()).unwrap()).unwrap();
    assert_eq!(notes.len(), 6);
    let c = config.bar_ticks;
    assert!(notes.iter().all(|n| n.end <= c || n.start >= 2 * c));
    assert_eq!(notes[3].start, 2 * c);
    assert_eq!(notes[3].track, 1, "bar 3 is seat 0's");
}

#[test]
fn bad_records_and_options_are_one_line_errors() {
    let config = MusicConfig::default();
    let mut rec = random_tictactoe_record(1);
    rec.actions[1] = rec.actions[0]; // the same square twice
    let e = compose_record(&rec, &config, 0).unwrap_err().to_string();
    assert!(e.contains("ply 2") && !e.contains('\n'), "{e}");
    rec.game = "chess".into();
    let e = compose_record(&rec, &config, 0).unwrap_err().to_string();
    assert!(e.contains("chess") && !e.contains('\n'), "{e}");
    // A game without squares (Pig: dice and holds) cannot be set to music.
    rec.game = "pig".into();
    rec.actions.clear();
    let e = compose_record(&rec, &config, 0).unwrap_err().to_string();
    assert!(e.contains("grid") && !e.contains('\n'), "{e}");
    let opts = MidiOptions {
        tempo_bpm: 0.0,
        ..MidiOptions::default()
    };
    assert!(to_midi(&[], &config, &opts).is_err());
}

#[test]
fn missing_soundfont_error_names_the_file_and_the_fix() {
    let e = wopr::music::load_soundfont(Path::new("/nonexistent/x.sf2")).unwrap_err();
    assert!(matches!(e, MusicError::SoundFont { .. }));
    let msg = e.to_string();
    assert!(!msg.contains('\n'), "{msg}");
    assert!(msg.contains("/nonexistent/x.sf2"), "{msg}");
    assert!(msg.contains("apt-get install timgm6mb-soundfont"), "{msg}");
    assert!(msg.contains("--soundfont"), "{msg}");
}

#[test]
fn wav_has_the_expected_length_and_is_not_silent() {
    let sf_path = Path::new(DEFAULT_SOUNDFONT);
    if !sf_path.exists() {
        eprintln!(
            "NOTE: skipping the WAV test: {DEFAULT_SOUNDFONT} is absent (apt-get install timgm6mb-soundfont)"
        );
        return;
    }
    let config = MusicConfig::default();
    let mut m = Musicator::new(config.clone(), 6, 5).unwrap();
    let bars: Vec<ScoreBar> = drops(&[3, 4, 3], 6)
        .into_iter()
        .enumerate()
        .map(|(i, cell)| ScoreBar {
            seat: i % 2,
            cell: Some(cell),
            bar: Some(m.bar(cell)),
        })
        .collect();
    // 3 bars of 4 quarters at 240 BPM = 3 s, plus a 1 s tail.
    let opts = MidiOptions {
        tempo_bpm: 240.0,
        ..MidiOptions::default()
    };
    let midi = to_midi(&bars, &config, &opts).unwrap();
    let ropts = RenderOptions {
        sample_rate: 22_050,
        tail_secs: 1.0,
        peak_dbfs: -1.0,
    };
    let dir = std::env::temp_dir().join(format!("wopr-music-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("song.wav");
    let info = wopr::music::render_wav(&midi, Some(sf_path), &out, &ropts).unwrap();
    assert_eq!(info.frames, 4 * 22_050);
    assert!(!info.silent);

    let mut reader = hound::WavReader::open(&out).unwrap();
    let spec = reader.spec();
    assert_eq!(
        (spec.channels, spec.sample_rate, spec.bits_per_sample),
        (2, 22_050, 16)
    );
    assert_eq!(reader.duration() as usize, 4 * 22_050);
    let samples: Vec<i16> = reader.samples::<i16>().map(|s| s.unwrap()).collect();
    // Peak normalised to -1 dBFS: 32767 × 10^(-1/20) = 29204.
    let peak = samples.iter().map(|s| s.unsigned_abs()).max().unwrap();
    assert!((29_150..=29_260).contains(&peak), "peak {peak}");
    // Sound in every bar, not just somewhere: RMS of each second of the music.
    for sec in 0..3 {
        let w = &samples[sec * 2 * 22_050..(sec + 1) * 2 * 22_050];
        let rms = (w.iter().map(|&s| f64::from(s).powi(2)).sum::<f64>() / w.len() as f64).sqrt();
        assert!(rms > 300.0, "second {sec}: rms {rms}");
    }
    std::fs::remove_dir_all(&dir).ok();

    // The same through the in-memory renderer: identical length, and both
    // seats' channels reach the output (seat 0 panned left, seat 1 right).
    let sf = wopr::music::load_soundfont(sf_path).unwrap();
    let (l, r, _) = render(&midi, &sf, &ropts).unwrap();
    assert_eq!((l.len(), r.len()), (4 * 22_050, 4 * 22_050));
}

#[test]
fn builtin_synth_renders_a_wav_without_a_soundfont() {
    let config = MusicConfig::default();
    let mut m = Musicator::new(config.clone(), 6, 5).unwrap();
    let bars: Vec<ScoreBar> = drops(&[3, 4, 3], 6)
        .into_iter()
        .enumerate()
        .map(|(i, cell)| ScoreBar {
            seat: i % 2,
            cell: Some(cell),
            bar: Some(m.bar(cell)),
        })
        .collect();
    // 3 bars of 4 quarters at 240 BPM = 3 s, plus a 1 s tail.
    let opts = MidiOptions {
        tempo_bpm: 240.0,
        instruments: vec![0, 40],
        ..MidiOptions::default()
    };
    let midi = to_midi(&bars, &config, &opts).unwrap();
    let ropts = RenderOptions {
        sample_rate: 22_050,
        tail_secs: 1.0,
        peak_dbfs: -1.0,
    };
    let dir = std::env::temp_dir().join(format!("wopr-synth-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("song.wav");
    let info = wopr::music::render_wav(&midi, None, &out, &ropts).unwrap();
    assert_eq!(info.frames, 4 * 22_050);
    assert!(!info.silent);
    let samples: Vec<i16> = hound::WavReader::open(&out)
        .unwrap()
        .samples::<i16>()
        .map(|s| s.unwrap())
        .collect();
    assert_eq!(samples.len(), 2 * 4 * 22_050);
    // Peak normalised to -1 dBFS: 32767 × 10^(-1/20) = 29204.
    let peak = samples.iter().map(|s| s.unsigned_abs()).max().unwrap();
    assert!((29_150..=29_260).contains(&peak), "peak {peak}");
    for sec in 0..3 {
        let w = &samples[sec * 2 * 22_050..(sec + 1) * 2 * 22_050];
        let rms = (w.iter().map(|&s| f64::from(s).powi(2)).sum::<f64>() / w.len() as f64).sqrt();
        assert!(rms > 300.0, "second {sec}: rms {rms}");
    }
    std::fs::remove_dir_all(&dir).ok();
    // The in-memory WAV is the same file.
    let (l, r, _) = wopr::music::synth::render(&midi, &ropts).unwrap();
    let bytes = wopr::music::wav_bytes(&l, &r, 22_050).unwrap();
    assert_eq!(bytes.len(), 44 + samples.len() * 2);
}

/// The power of `x` at `freq` Hz (Goertzel).
fn power_at(x: &[f32], freq: f64, rate: f64) -> f64 {
    let w = 2.0 * std::f64::consts::PI * freq / rate;
    let (mut s1, mut s2) = (0.0, 0.0);
    for &v in x {
        let s = f64::from(v) + 2.0 * w.cos() * s1 - s2;
        s2 = s1;
        s1 = s;
    }
    s1 * s1 + s2 * s2 - 2.0 * w.cos() * s1 * s2
}

#[test]
fn builtin_synth_plays_the_right_pitch_on_the_seat_s_side() {
    // One bar of A4 (MIDI 69, 440 Hz) three times, by seat 0 (panned left).
    let config = MusicConfig::default();
    let bar = wopr::music::Bar {
        notes: [69, 69, 69],
        durations: [480, 480, 960],
        velocities: [100, 100, 100],
        intervals: [0, 0],
    };
    let bars = [ScoreBar {
        seat: 0,
        cell: Some((0, 0)),
        bar: Some(bar),
    }];
    let opts = MidiOptions {
        seat_names: vec!["X".into(), "O".into()],
        ..MidiOptions::default()
    };
    let midi = to_midi(&bars, &config, &opts).unwrap();
    let rate = 22_050.0;
    let ropts = RenderOptions {
        sample_rate: 22_050,
        tail_secs: 0.5,
        peak_dbfs: -1.0,
    };
    let (l, r, info) = wopr::music::synth::render(&midi, &ropts).unwrap();
    // One bar of 4 quarters at 120 BPM is 2 s.
    assert_eq!(info.frames, (2.5 * rate) as usize);
    let held = &l[2205..22_050];
    let a4 = power_at(held, 440.0, rate);
    for other in [415.3, 466.2, 220.0] {
        assert!(
            a4 > 20.0 * power_at(held, other, rate),
            "440 Hz vs {other} Hz"
        );
    }
    // Seat 0 is panned left (MIDI pan 32 of 127).
    let energy = |x: &[f32]| x.iter().map(|v| f64::from(*v).powi(2)).sum::<f64>();
    assert!(energy(&l) > 2.0 * energy(&r));
}

#[test]
fn note_names_follow_the_paper() {
    // §3: "middle C (i.e., C2)"; the range "from C1 to B3".
    assert_eq!(note_name(60), "C2");
    assert_eq!((parse_note("C1"), parse_note("B3")), (Ok(48), Ok(83)));
    let d = MusicConfig::default();
    assert_eq!((d.low.0, d.high.0, d.references[0].0), (48, 83, 60));
    assert_eq!((d.velocity_min, d.velocity_max), (20, 100));
}
