//! Outside engines that misbehave (issue 67): each gives a one-line error
//! naming the engine and what it did not answer (it cannot start, or does
//! not speak GTP at its first command), or a counted forfeit (time, an
//! illegal move, a crash mid-game) shown apart in the table and the JSON;
//! never a signal death, never a wait past the limit. And `wopr gtp` reads
//! on past any line it cannot read.

mod cli_common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use cli_common::{fails_with, ok, wopr, Scratch};

/// Writes an executable shell script `name` in `dir` with `body`; returns
/// its path.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path.to_str().unwrap().to_string()
}

/// An engine that answers every command with `=` and `genmove` as
/// `genmove` says (shell commands).
fn engine(dir: &Path, name: &str, genmove: &str) -> String {
    script(
        dir,
        name,
        &format!(
            "while read cmd rest; do\n\
               case \"$cmd\" in\n\
                 genmove) {genmove} ;;\n\
                 quit) printf '=\\n\\n'; exit 0 ;;\n\
                 *) printf '=\\n\\n' ;;\n\
               esac\n\
             done"
        ),
    )
}

/// `wopr eval` of `first` against `opponent` on Reversi 8x8, `games`
/// games, with `extra` arguments; also returns how long it ran.
fn eval(opponent: &str, games: usize, extra: &[&str]) -> (Output, Duration) {
    let games = games.to_string();
    let mut args = vec![
        "eval",
        "--game",
        "reversi:8x8",
        "--player",
        "first",
        "--against",
        opponent,
        "--games",
        &games,
    ];
    args.extend_from_slice(extra);
    let start = Instant::now();
    let out = wopr(&args);
    (out, start.elapsed())
}

/// Asserts that `out` ended by itself (an exit status, not a signal).
fn exited(out: &Output) {
    assert!(
        out.status.code().is_some(),
        "ended by a signal: {:?} {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_engine_that_cannot_start_or_speak_gtp_is_a_one_line_error() {
    let dir = Scratch::new("wopr-gtp-faults", "fatal", true);
    let d = dir.as_path();
    let closes = script(d, "closes.sh", "exec <&- >&-; sleep 30");
    let refuses = script(
        d,
        "refuses.sh",
        "read x; printf '? no such board\\n\\n'; sleep 30",
    );
    let cases: [(String, &str, &str); 6] = [
        (
            "gtp:/bin/false".into(),
            "engine false (command '/bin/false')",
            "it exited with status 1 before answering 'boardsize 8'",
        ),
        (
            "gtp:/bin/cat".into(),
            "engine cat",
            "it answered 'boardsize 8' with 'boardsize 8', which is not a GTP answer",
        ),
        (
            "gtp:sleep 1000,ms=300".into(),
            "engine sleep (command 'sleep 1000')",
            "no answer to 'boardsize 8' within 1000 ms",
        ),
        (
            format!("gtp:{closes},ms=300"),
            "engine closes.sh",
            "it closed its pipes before answering 'boardsize 8'",
        ),
        (
            format!("gtp:{refuses},ms=300"),
            "engine refuses.sh",
            "it answered 'boardsize 8' with '? no such board'",
        ),
        (
            "gtp:/no/such/engine -x".into(),
            "engine engine (command '/no/such/engine -x')",
            "cannot start it",
        ),
    ];
    for (spec, who, what) in cases {
        let (out, took) = eval(&spec, 2, &[]);
        exited(&out);
        assert_eq!(out.status.code(), Some(1), "{spec}");
        fails_with(&out, who);
        fails_with(&out, what);
        // The command limit is 1 s for ms=300 (at least 1 s, at most
        // 10 s), and the engine is killed at once after it; 5 s allows for
        // a loaded machine.
        assert!(took < Duration::from_secs(5), "{spec}: {took:?}");
    }
}

#[test]
fn faults_mid_game_are_forfeits_counted_apart_in_the_table_and_json() {
    let dir = Scratch::new("wopr-gtp-faults", "forfeit", true);
    let d = dir.as_path();
    // (engine, genmove's behaviour, the kind counted, the message's words)
    let cases = [
        ("slow.sh", "sleep 30", "time", "no answer to 'genmove"),
        (
            "garbage.sh",
            "printf '= xyzzy\\n\\n'",
            "illegal",
            "it played 'xyzzy', which is not a legal move",
        ),
        (
            "resigns.sh",
            "printf '= resign\\n\\n'",
            "illegal",
            "it resigned",
        ),
        (
            "errs.sh",
            "printf '? no idea\\n\\n'",
            "crash",
            "with '? no idea'",
        ),
        (
            "dies.sh",
            "exit 3",
            "crash",
            "it exited with status 3 before answering 'genmove",
        ),
        (
            "chatters.sh",
            "echo hello",
            "crash",
            "with 'hello', which is not a GTP answer",
        ),
        (
            "floods.sh",
            "head -c 100000 /dev/zero | tr '\\0' x",
            "crash",
            "a line longer than 65536 bytes",
        ),
    ];
    // An engine that plays (it is `wopr gtp`) and dies mid-game: its
    // controller hands it 8 lines, then exits, so it reads the end of its
    // input and goes, after a few moves of each game.
    let wopr_bin = env!("CARGO_BIN_EXE_wopr");
    let midway = script(
        d,
        "midway.sh",
        &format!(
            "n=0\n\
             while read line; do\n\
               n=$((n + 1)); [ $n -gt 8 ] && exit 4\n\
               echo \"$line\"\n\
             done | {wopr_bin} gtp reversi:8x8 --player first"
        ),
    );
    let mut specs: Vec<(&str, String, &str, &str)> = cases
        .iter()
        .map(|&(name, genmove, kind, words)| (name, engine(d, name, genmove), kind, words))
        .collect();
    specs.push(("midway.sh", midway, "crash", "before answering '"));
    for (name, path, kind, words) in specs {
        let spec = format!("gtp:{path},ms=300");
        let (out, took) = eval(&spec, 2, &["--json"]);
        exited(&out);
        let v: serde_json::Value = serde_json::from_str(&ok(&out)).unwrap();
        // The engine forfeits both games, one from each seat; `first`
        // wins both, and the forfeits say who, where and why.
        assert_eq!(v["score"], 1.0, "{name}: {v}");
        let f = &v["forfeits"];
        assert_eq!(f["opponent"]["as_first"][kind], 1, "{name}: {f}");
        assert_eq!(f["opponent"]["as_second"][kind], 1, "{name}: {f}");
        assert_eq!(f["player"]["as_first"]["time"], 0, "{name}: {f}");
        assert_eq!(f["replayed"], 0, "{name}: {f}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 2, "one line a forfeit: {err}");
        for line in err.lines() {
            assert!(
                line.contains(&format!("forfeits ({kind}): engine {name}")) && line.contains(words),
                "{name}: {line}"
            );
        }
        // Each game waits at most ms=300 for its genmove.
        assert!(took < Duration::from_secs(5), "{name}: {took:?}");
    }
    // The table: a forfeits column (the player's / the opponent's), and
    // a line saying who forfeited from which seat and why.
    let slow = format!("gtp:{},ms=200", engine(d, "slow2.sh", "sleep 30"));
    let (out, _) = eval(&slow, 2, &[]);
    let table = ok(&out);
    assert!(table.contains("forfeits"), "{table}");
    let row = table.lines().find(|l| l.starts_with("gtp:")).unwrap();
    assert!(row.trim_end().ends_with("0/2"), "{row}");
    assert!(
        table.contains("(as black: time 1; as white: time 1)"),
        "{table}"
    );
}

#[test]
fn forfeits_stop_ends_the_match_and_replay_plays_the_game_again() {
    let dir = Scratch::new("wopr-gtp-faults", "policy", true);
    let d = dir.as_path();
    let slow = format!("gtp:{},ms=200", engine(d, "slow.sh", "sleep 30"));
    let (out, took) = eval(&slow, 4, &["--forfeits", "stop"]);
    exited(&out);
    fails_with(&out, "the match stops at the first forfeit");
    fails_with(&out, "engine slow.sh");
    assert!(took < Duration::from_secs(5), "{took:?}");

    // Replayed at most 3 times, the last try's forfeit counted.
    let (out, _) = eval(&slow, 2, &["--forfeits", "replay", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&ok(&out)).unwrap();
    assert_eq!(v["forfeits"]["replayed"], 6, "{v}");
    assert_eq!(v["forfeits"]["opponent"]["as_first"]["time"], 1, "{v}");

    // An engine that crashes once, then plays as `wopr gtp` does: the
    // replayed game is the game played without the crash (same opening,
    // same stream), so the match's result is the direct match's.
    let wopr_bin = env!("CARGO_BIN_EXE_wopr");
    let once = script(
        d,
        "once.sh",
        &format!(
            "if ! mkdir '{}/crashed' 2>/dev/null; then exec {wopr_bin} gtp tictactoe --player first; fi\n\
             while read cmd rest; do\n\
               case \"$cmd\" in genmove) exit 3 ;; *) printf '=\\n\\n' ;; esac\n\
             done",
            d.display()
        ),
    );
    let run = |against: &str, extra: &[&str]| {
        let mut args = vec![
            "eval",
            "--game",
            "tictactoe",
            "--player",
            "random",
            "--against",
            against,
            "--games",
            "4",
            "--seed",
            "5",
            "--json",
        ];
        args.extend_from_slice(extra);
        let v: serde_json::Value = serde_json::from_str(&ok(&wopr(&args))).unwrap();
        v
    };
    let replayed = run(&format!("gtp:{once}"), &["--forfeits", "replay"]);
    let direct = run("first", &[]);
    assert_eq!(replayed["forfeits"]["replayed"], 1, "{replayed}");
    assert_eq!(replayed["forfeits"]["opponent"]["as_first"]["crash"], 0);
    assert_eq!(replayed["forfeits"]["opponent"]["as_second"]["crash"], 0);
    for key in ["as_first", "as_second", "score"] {
        assert_eq!(replayed[key], direct[key], "{key}: {replayed} vs {direct}");
    }

    let (out, _) = eval(&slow, 2, &["--forfeits", "sometimes"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("accepted: count, replay, stop"), "{err}");
}

#[test]
fn tournaments_count_forfeits_per_player() {
    let dir = Scratch::new("wopr-gtp-faults", "tournament", true);
    let slow = format!(
        "gtp:{},ms=200",
        engine(dir.as_path(), "slow.sh", "sleep 30")
    );
    let out = wopr(&[
        "tournament",
        "--game",
        "tictactoe",
        "--players",
        "first",
        "--players",
        &slow,
        "--games",
        "2",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&ok(&out)).unwrap();
    let rows = v["ratings"].as_array().unwrap();
    let engine = rows.iter().find(|r| r["player"] == slow.as_str()).unwrap();
    assert_eq!(engine["forfeits"]["as_first"]["time"], 1, "{v}");
    assert_eq!(engine["forfeits"]["as_second"]["time"], 1, "{v}");
    let first = rows.iter().find(|r| r["player"] == "first").unwrap();
    assert_eq!(first["forfeits"]["as_first"]["time"], 0, "{v}");
}

/// A small deterministic generator (SplitMix64) for the random bytes.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
fn random_bytes_never_end_wopr_gtp() {
    // Lines of random bytes (NULs, bytes that are not UTF-8, a line of
    // 100,000 bytes, CRs, tabs, `#`), some starting with an id or a real
    // command, then one last command that must still be answered.
    let mut state = 67;
    let mut input = Vec::new();
    let words: [&[u8]; 6] = [
        b"play b ",
        b"genmove w ",
        b"7 ",
        b"boardsize ",
        b"undo",
        b"showboard",
    ];
    for line in 0..400 {
        if line % 5 == 0 {
            input.extend_from_slice(words[(splitmix(&mut state) % 6) as usize]);
        }
        let len = if line == 200 {
            100_000
        } else {
            splitmix(&mut state) % 40
        };
        for _ in 0..len {
            let b = splitmix(&mut state) as u8;
            input.push(if b == b'\n' { 0xff } else { b });
        }
        input.push(b'\n');
    }
    input.extend_from_slice(b"99 name\n");
    let mut child = Command::new(env!("CARGO_BIN_EXE_wopr"))
        .args(["gtp", "reversi:6x6", "--player", "random"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // wopr reads all of it (a `quit` among the bytes would end it
        // early: none is).
        stdin.write_all(&input).unwrap();
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    exited(&out);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Vec<&str> = stdout.split_terminator("\n\n").collect();
    assert!(answers.len() > 100, "{}", answers.len());
    for a in &answers {
        assert!(a.starts_with('=') || a.starts_with('?'), "{a:?}");
    }
    assert_eq!(answers.last(), Some(&"=99 wopr"));
    assert!(answers.contains(&"? the line is longer than 65536 bytes"));
}
