//! Champions say what they are (issue 43, part 5): `wopr eval` and
//! `wopr tournament` print each player as it is played, a net file's own
//! `player` line resolved and the spec's explicit keys winning over it;
//! and measuring with `perfect:book=FILE` leaves the book's bytes as they
//! were.

mod cli_common;

use cli_common::{ok, s, wopr, Scratch};

/// A champion whose file's `player` line is `mode=alphabeta,ply=4` (small:
/// 810 weights, 6x6 games, fast in a debug build).
fn ntuple4() -> String {
    format!(
        "{}/../../champions/reversi-6x6-ntuple4.json",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// The objects `wopr eval --json` prints, one per line.
fn json_rows(text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `wopr eval --json` of `player` against `random`, 2 short games.
fn eval_json(player: &str) -> serde_json::Value {
    let out = wopr(&[
        "eval",
        "--game",
        "reversi:6x6",
        "--player",
        player,
        "--against",
        "random",
        "--games",
        "2",
        "--openings",
        "plies=20",
        "--json",
    ]);
    json_rows(&ok(&out)).remove(0)
}

#[test]
fn eval_prints_the_spec_as_played_and_explicit_keys_win_over_the_files_line() {
    let net = ntuple4();
    // The file's line decides where the spec says nothing.
    let row = eval_json(&format!("net:{net}"));
    assert_eq!(row["player"], format!("net:{net}"));
    assert_eq!(
        row["player_resolved"],
        format!("net:{net},mode=alphabeta,ply=4")
    );
    assert_eq!(row["opponent_resolved"], "random");
    // An explicit mode is the user's: the net alone, not 4 plies.
    let row = eval_json(&format!("net:{net},mode=greedy"));
    assert_eq!(row["player_resolved"], format!("net:{net},mode=greedy"));
    // A ply without a mode tunes the file's mode.
    let row = eval_json(&format!("net:{net},ply=2"));
    assert_eq!(
        row["player_resolved"],
        format!("net:{net},mode=alphabeta,ply=2")
    );
    // The text says it before the results, and what was given.
    let out = wopr(&[
        "eval",
        "--game",
        "reversi:6x6",
        "--player",
        &format!("net:{net}"),
        "--against",
        "random,standard:depth=1",
        "--games",
        "2",
        "--openings",
        "plies=20",
    ]);
    let text = ok(&out);
    let lines: Vec<&str> = text.lines().collect();
    let at = |want: &str| lines.iter().position(|l| *l == want);
    let player = at(&format!(
        "player     net:{net},mode=alphabeta,ply=4  (given as net:{net})"
    ));
    let opponent = at("opponent   standard:depth=1");
    let table = lines
        .iter()
        .position(|l| l.starts_with("opponent   ") && l.contains("W/D/L"));
    assert!(player.is_some() && opponent.is_some(), "{text}");
    assert!(player < opponent && opponent < table, "{text}");
}

#[test]
fn a_tournament_prints_each_player_as_played() {
    let net = ntuple4();
    let players = format!("net:{net},mode=greedy,net:{net},random");
    let args = |json: bool| {
        let mut a = vec![
            "tournament",
            "--game",
            "reversi:6x6",
            "--players",
            players.as_str(),
            "--games",
            "2",
            "--openings",
            "plies=24",
        ];
        if json {
            a.push("--json");
        }
        wopr(&a)
    };
    let v: serde_json::Value = serde_json::from_str(&ok(&args(true))).unwrap();
    assert_eq!(
        v["resolved"],
        serde_json::json!([
            format!("net:{net},mode=greedy"),
            format!("net:{net},mode=alphabeta,ply=4"),
            "random"
        ])
    );
    let text = ok(&args(false));
    let lines: Vec<&str> = text.lines().take(3).collect();
    assert_eq!(
        lines,
        vec![
            format!("#1         net:{net},mode=greedy"),
            format!("#2         net:{net},mode=alphabeta,ply=4  (given as net:{net})"),
            "#3         random".to_string(),
        ]
    );
}

/// The bytes of `path`, hashed (FNV-1a) with their length.
fn fingerprint(path: &std::path::Path) -> (usize, u64) {
    let bytes = std::fs::read(path).unwrap();
    let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    (bytes.len(), hash)
}

#[test]
fn measuring_with_a_book_leaves_its_bytes_as_they_were() {
    let dir = Scratch::new("wopr-book", "eval", true);
    let shipped = format!(
        "{}/../../books/connect4-7x6.book",
        env!("CARGO_MANIFEST_DIR")
    );
    let copy = dir.join("copy.book");
    std::fs::copy(&shipped, &copy).unwrap();
    let before = fingerprint(&copy);
    // The 7x6 copy through a short run: looked up, never written.
    let out = wopr(&[
        "eval",
        "--game",
        "connect4:7x6",
        "--player",
        &format!("perfect:book={},ms=200", s(&copy)),
        "--against",
        "random",
        "--games",
        "2",
        "--json",
    ]);
    let row = json_rows(&ok(&out)).remove(0);
    assert_eq!(
        row["player_resolved"],
        format!("perfect:book={},ms=200", s(&copy))
    );
    assert_eq!(fingerprint(&copy), before, "the book was written");
    // A book that is not there is an error, not a new file.
    let missing = dir.join("missing.book");
    let out = wopr(&[
        "eval",
        "--game",
        "connect4:5x4",
        "--player",
        &format!("perfect:book={}", s(&missing)),
        "--against",
        "random",
        "--games",
        "2",
    ]);
    cli_common::fails_with(&out, "missing.book");
    assert!(!missing.exists());
}
