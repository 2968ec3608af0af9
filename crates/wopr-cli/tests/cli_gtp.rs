//! GTP both ways (issue 43): `wopr gtp` as an engine, the `gtp:` player
//! driving it and GRhino, and an engine out of time losing the game; the
//! other faults of outside engines are `cli_gtp_faults.rs`.

mod cli_common;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use cli_common::{fails_with, ok, s, wopr, Scratch};

/// Runs `wopr gtp ARGS` with `input` on stdin; returns stdout.
fn gtp_session(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wopr"))
        .arg("gtp")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    ok(&child.wait_with_output().unwrap())
}

/// The answers of a GTP session, one per command (the text after `=`/`?`
/// with the status character kept).
fn answers(out: &str) -> Vec<String> {
    out.split("\n\n")
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn wopr_gtp_answers_the_protocol() {
    let out = gtp_session(
        &["reversi:8x8", "--player", "first"],
        "protocol_version\n1 name\nknown_command genmove\nknown_command fly\n\
         boardsize 6\nboardsize 8\nclear_board\nplay black d3\n\
         play black c4\n# a comment\n\ngenmove white\nundo\nundo\nundo\n\
         final_score\nfoo\nquit\n",
    );
    let a = answers(&out);
    assert_eq!(a[0], "= 2");
    assert_eq!(a[1], "=1 wopr", "the id is echoed");
    assert_eq!(a[2], "= true");
    assert_eq!(a[3], "= false");
    assert!(a[4].starts_with("? unacceptable size"), "{}", a[4]);
    assert_eq!(a[5], "=");
    assert_eq!(a[6], "=");
    assert_eq!(a[7], "=", "d3 is one of black's four opening moves");
    assert!(
        a[8].starts_with("? illegal move"),
        "black is not to move: {}",
        a[8]
    );
    // After d3 (black takes d4), white's moves are c3, e3 and c5; `first`
    // plays the lowest action index (row by row from a1): c3.
    assert_eq!(a[9], "= C3");
    assert_eq!(a[10], "=");
    assert_eq!(a[11], "=");
    assert_eq!(a[12], "? cannot undo");
    assert!(a[13].starts_with("? cannot score"), "{}", a[13]);
    assert_eq!(a[14], "? unknown command");
    assert_eq!(a[15], "=");
}

/// A Reversi 6x6 net shipped with wopr: played greedily it is
/// deterministic and draws nothing from the game's stream.
const NET: &str = concat!(
    "net:",
    env!("CARGO_MANIFEST_DIR"),
    "/../../champions/reversi-6x6.json"
);

#[test]
fn the_gtp_player_driving_wopr_gtp_replays_the_direct_games() {
    // A deterministic player played directly and through `wopr gtp` (the
    // gtp: player telling it every move, it answering genmove) plays the
    // same games from the same openings, passes included. Its opponent,
    // `first`, draws nothing from the game's stream, so the direct games'
    // stream is the net's alone, as the engine's is.
    let dir = Scratch::new("wopr-gtp", "replay", true);
    let engine = format!(
        "gtp:{} gtp reversi:6x6 --player {NET},mode=greedy",
        env!("CARGO_BIN_EXE_wopr")
    );
    let direct = dir.as_path().join("direct.jsonl");
    let through = dir.as_path().join("through.jsonl");
    let net = format!("{NET},mode=greedy");
    for (second, record) in [(net.as_str(), &direct), (engine.as_str(), &through)] {
        ok(&wopr(&[
            "play",
            "reversi:6x6",
            "--first",
            "first",
            "--second",
            second,
            "--games",
            "6",
            "--openings",
            "plies=4",
            "--seed",
            "7",
            "--quiet",
            "--record",
            s(record),
        ]));
    }
    let actions = |p: &Path| -> Vec<serde_json::Value> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["actions"].clone())
            .collect()
    };
    let (a, b) = (actions(&direct), actions(&through));
    assert_eq!(a.len(), 6);
    assert_eq!(a, b);
}

/// A fake engine: a shell script answering every command with `=`, and
/// `genmove` as `behaviour` says.
fn fake_engine(dir: &Path, name: &str, genmove: &str) -> String {
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\n\
             while read cmd rest; do\n\
               case \"$cmd\" in\n\
                 genmove) {genmove} ;;\n\
                 quit) printf '=\\n\\n'; exit 0 ;;\n\
                 *) printf '=\\n\\n' ;;\n\
               esac\n\
             done\n"
        ),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path.to_str().unwrap().to_string()
}

#[test]
fn an_engine_out_of_time_loses_the_game_and_the_match_goes_on() {
    let dir = Scratch::new("wopr-gtp", "slow", true);
    let slow = fake_engine(dir.as_path(), "slow.sh", "sleep 30");
    let out = wopr(&[
        "eval",
        "--game",
        "tictactoe",
        "--player",
        "first",
        "--against",
        &format!("gtp:{slow},ms=200"),
        "--games",
        "2",
        "--json",
    ]);
    let stdout = ok(&out);
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    // Both games are won by `first`, one from each seat: the engine
    // forfeits each.
    assert_eq!(v["score"], 1.0, "{v}");
    assert_eq!(v["as_first"]["wins"], 1, "{v}");
    assert_eq!(v["as_second"]["wins"], 1, "{v}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("engine slow.sh") && err.contains("within 200 ms"),
        "{err}"
    );
}

#[test]
fn gtp_specs_are_checked_before_anything_starts() {
    let out = wopr(&[
        "eval",
        "--game",
        "connect4:7x6",
        "--player",
        "first",
        "--against",
        "gtp:/usr/games/gtp-rhino",
    ]);
    fails_with(&out, "connect4:7x6 has none");
    let out = wopr(&[
        "eval",
        "--game",
        "reversi",
        "--player",
        "first",
        "--against",
        "gtp:/usr/games/gtp-rhino,ms=0",
    ]);
    fails_with(&out, "ms=0 is not an integer in 1..=86400000");
    let out = Command::new(env!("CARGO_BIN_EXE_wopr"))
        .args(["gtp", "connect4:7x6", "--player", "first"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    fails_with(&out, "GTP vertices");
}

/// GRhino, the Debian Othello engine (`.ci/run` installs `grhino`): a
/// short match, both seats, through the `gtp:` player. Skipped only where
/// it is not installed and this is not CI.
#[test]
fn a_short_match_against_grhino() {
    let rhino = "/usr/games/gtp-rhino";
    if !Path::new(rhino).exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI installs grhino (.ci/run); {rhino} is missing"
        );
        eprintln!("skipped: {rhino} is not installed");
        return;
    }
    let out = wopr(&[
        "eval",
        "--game",
        "reversi:8x8",
        "--player",
        "alphabeta:depth=1",
        "--against",
        &format!("gtp:{rhino} -l 1,ms=20000"),
        "--games",
        "2",
        "--openings",
        "plies=2",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&ok(&out)).unwrap();
    let text = v.to_string();
    // Two games, each ended by the rules (a forfeit would be on stderr).
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains("loses this game"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("\"games\":2"), "{text}");
}
