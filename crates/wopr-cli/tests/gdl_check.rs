//! `wopr gdl check` on sheets as files come (issue 67, part 2): a sheet
//! with bare CR line ends and a byte-order mark checks as its LF copy
//! does; a role with no legal move in a state that is not terminal is a
//! warning naming the role (the sheet still loads); a file larger than
//! the memory budget is refused in one line before it is read.

mod cli_common;

use cli_common::{fails_with, ok, s, wopr, Scratch};

const TTT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../gdl/tictactoe.kif");

#[test]
fn a_cr_sheet_with_a_byte_order_mark_checks_as_its_lf_copy() {
    let dir = Scratch::new("wopr-gdl-check", "cr", true);
    let text = std::fs::read_to_string(TTT).unwrap();
    let mac = dir.join("mac.kif");
    let mut bytes = vec![0xef, 0xbb, 0xbf];
    bytes.extend(text.replace('\n', "\r").into_bytes());
    std::fs::write(&mac, bytes).unwrap();
    let strip = |out: String, path: &str| out.replace(path, "SHEET");
    let want = strip(ok(&wopr(&["gdl", "check", TTT])), TTT);
    let got = strip(ok(&wopr(&["gdl", "check", s(&mac)])), s(&mac));
    assert_eq!(got, want);
    assert!(
        want.contains("legal:      every role has a legal move"),
        "{want}"
    );
    let perft = |p: &str| ok(&wopr(&["perft", &format!("gdl:{p}"), "3"]));
    assert_eq!(perft(s(&mac)), perft(TTT));
}

#[test]
fn a_role_without_a_legal_move_is_a_warning_naming_it() {
    let dir = Scratch::new("wopr-gdl-check", "stuck", true);
    let sheet = dir.join("stuck.kif");
    // `white` can move at the start; `black` never can.
    std::fs::write(
        &sheet,
        "(role white) (role black) (init (c 0))
         (<= (legal white go) (true (c 0)))
         (<= (next (c 1)) (true (c 0)))
         (<= terminal (true (c 1)))
         (<= (goal white 100) terminal) (<= (goal black 0) terminal)",
    )
    .unwrap();
    let out = wopr(&["gdl", "check", s(&sheet)]);
    let text = ok(&out);
    assert!(text.contains("(valid GDL)"), "{text}");
    assert!(
        text.contains("legal:      no legal move for black"),
        "{text}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning:")).collect();
    assert_eq!(
        warnings,
        [
            "warning: role black has no legal move in the initial state, which is not terminal; \
          GDL asks every role to have a legal move in every state that is not terminal"
        ],
        "{err}"
    );
}

#[test]
fn a_sheet_larger_than_the_budget_is_refused_before_it_is_read() {
    let dir = Scratch::new("wopr-gdl-check", "large", true);
    let sheet = dir.join("large.kif");
    std::fs::write(&sheet, "(role p)\n".repeat(300_000)).unwrap();
    let out = wopr(&["gdl", "check", s(&sheet), "--memory", "1M"]);
    fails_with(
        &out,
        "bytes pass the memory budget of 1 MiB before it is read",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("memory=2M"), "{err}");
}
