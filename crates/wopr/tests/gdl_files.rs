//! GDL sheets as files come (issue 67, part 2): LF, CRLF and bare CR line
//! ends and a UTF-8 byte-order mark read alike, so every variant of a
//! vendored sheet loads and counts (perft in GDL steps) as the sheet does;
//! the memory budget holds from the first byte, so a file larger than the
//! budget, or one whose syntax tree would pass it, is refused in one line
//! before it does; and a role without a legal move in a state that is not
//! terminal is found.

use std::path::PathBuf;

use wopr::game::{Game, GameSpec};
use wopr::games::gdl::game::Gdl;
use wopr::games::gdl::steps::{roles_without_moves, step_perft, NoMove};

fn sheet_path(name: &str) -> String {
    format!("{}/../../gdl/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// A fresh folder for this test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wopr-gdl-files-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn load(spec: &str) -> Result<Gdl, String> {
    let spec = GameSpec::parse(spec).map_err(|e| e.0)?;
    Gdl::from_spec(&spec).map_err(|e| e.0)
}

/// Perft in GDL steps to depth 3.
fn counts(g: &Gdl) -> Vec<u64> {
    let r = g.reasoner();
    (1..=3).map(|d| step_perft(r, &r.initial(), d)).collect()
}

#[test]
fn every_line_end_and_a_byte_order_mark_load_and_count_alike() {
    let dir = scratch("ends");
    for name in ["tictactoe.kif", "connect4-6x6.kif", "nim.kif", "kuhn.kif"] {
        let text = std::fs::read_to_string(sheet_path(name)).unwrap();
        // The vendored sheets have LF line ends and comments: a bare CR
        // that did not end a comment would swallow the rest of the sheet.
        assert!(!text.contains('\r') && text.contains(';'), "{name}");
        let want = counts(&load(&format!("gdl:{}", sheet_path(name))).unwrap());
        assert!(want.iter().all(|&c| c > 0), "{name}: {want:?}");
        for (style, end, bom) in [
            ("crlf", "\r\n", false),
            ("cr", "\r", false),
            ("bom-lf", "\n", true),
            ("bom-crlf", "\r\n", true),
            ("bom-cr", "\r", true),
        ] {
            let mut bytes = if bom {
                vec![0xef, 0xbb, 0xbf]
            } else {
                Vec::new()
            };
            bytes.extend(text.replace('\n', end).into_bytes());
            let path = dir.join(format!("{style}-{name}"));
            std::fs::write(&path, &bytes).unwrap();
            let g = load(&format!("gdl:{}", path.display()))
                .unwrap_or_else(|e| panic!("{style} {name}: {e}"));
            assert_eq!(counts(&g), want, "{style} {name}");
        }
    }
}

#[test]
fn errors_name_the_same_line_whatever_the_line_ends() {
    let dir = scratch("lines");
    let text = "; a sheet\n(role x)\n\n(init a))\n";
    for end in ["\n", "\r\n", "\r"] {
        let path = dir.join("bad.kif");
        std::fs::write(&path, text.replace('\n', end)).unwrap();
        let err = load(&format!("gdl:{}", path.display())).unwrap_err();
        assert!(err.ends_with("line 4: unbalanced ')'"), "{end:?}: {err}");
    }
}

#[test]
fn the_budget_refuses_a_sheet_before_reading_passes_it() {
    let dir = scratch("size");
    // 1 MiB of one fact repeated: kept once, so it loads within 4 MiB
    // (the text, 1 MiB, is held only while it is read).
    let head = "(role p) (init s) (<= (legal p go) (true s)) (<= terminal (true s)) (goal p 0)\n";
    let repeated = dir.join("repeated.kif");
    std::fs::write(
        &repeated,
        format!("{head}{}", "(cell 1 2 b)\n".repeat(80_000)),
    )
    .unwrap();
    let g = load(&format!("gdl:{},memory=4M", repeated.display())).unwrap();
    assert_eq!(g.reasoner().roles().len(), 1);
    // A file larger than the budget is refused before any of it is read.
    let err = load(&format!("gdl:{},memory=512K", repeated.display())).unwrap_err();
    assert!(
        err.contains("bytes pass the memory budget of 512 KiB before it is read")
            && err.contains("memory=1M"),
        "{err}"
    );
    // 1 MiB of distinct facts: refused while reading, at the line where
    // the budget would pass, in one line naming it.
    let distinct = dir.join("distinct.kif");
    let facts: String = (0..80_000).map(|i| format!("(cell {i})\n")).collect();
    std::fs::write(&distinct, format!("{head}{facts}")).unwrap();
    let err = load(&format!("gdl:{},memory=4M", distinct.display())).unwrap_err();
    assert!(
        err.contains(": line ")
            && err.contains("reading the sheet exceeds the memory budget of 4 MiB"),
        "{err}"
    );
    assert!(!err.contains('\n'), "{err}");
    assert!(load(&format!("gdl:{},memory=64M", distinct.display())).is_ok());
}

#[test]
fn a_role_with_no_legal_move_is_named_where_it_has_none() {
    // tictactoe's roles always have a move; a sheet where o never has one.
    let g = load(&format!("gdl:{}", sheet_path("tictactoe.kif"))).unwrap();
    assert_eq!(roles_without_moves(g.reasoner(), g.max_game_length()), []);
    let text = "(role x) (role o) (init (c 0)) (<= (legal x go) (true (c 0)))
                (<= (next (c 1)) (true (c 0))) (<= terminal (true (c 1)))
                (<= (goal x 100) terminal) (<= (goal o 0) terminal)";
    let g = Gdl::from_text("stuck.kif", text, 100).unwrap();
    assert_eq!(
        roles_without_moves(g.reasoner(), 100),
        [NoMove {
            role: 1,
            step: 0,
            game: 0
        }]
    );
}
