//! `wopr music --wav` with no SoundFont installed: the built-in synthesiser
//! renders; a SoundFont is used only when named.

use std::process::Command;

fn wopr(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_wopr"))
        .args(args)
        .output()
        .expect("run wopr")
}

#[test]
fn music_wav_renders_without_a_soundfont() {
    let dir = std::env::temp_dir().join(format!("wopr-cli-music-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("g.jsonl");
    let (mid, wav) = (dir.join("s.mid"), dir.join("s.wav"));
    let p = |x: &std::path::Path| x.to_str().unwrap().to_string();
    let out = wopr(&[
        "play",
        "tictactoe",
        "--first",
        "first",
        "--second",
        "first",
        "--games",
        "1",
        "-q",
        "--record",
        &p(&rec),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = wopr(&[
        "music",
        "--record",
        &p(&rec),
        "--out",
        &p(&mid),
        "--wav",
        &p(&wav),
        "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(&wav).unwrap();
    assert_eq!(&bytes[..4], b"RIFF");
    // `first` against `first` is a1 b1 c1 a2 b2 c2 a3 (X wins at ply 7):
    // 7 bars of 2 s at 120 BPM plus the 2 s tail, 44.1 kHz, 16-bit stereo.
    assert_eq!((bytes.len() - 44) / 4, 16 * 44_100);
    // A SoundFont that is not there is an error naming it.
    let out = wopr(&[
        "music",
        "--record",
        &p(&rec),
        "--out",
        &p(&mid),
        "--wav",
        &p(&wav),
        "--soundfont",
        "/nonexistent/x.sf2",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("/nonexistent/x.sf2") && err.lines().count() == 1,
        "{err}"
    );
    std::fs::remove_dir_all(&dir).ok();
}
