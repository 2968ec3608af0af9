//! The fast part of the GDL conformance suite (issue 46, part 1): every
//! sheet listed in `gdl/conformance/counts.tsv` (the repository's own
//! sheets and those vendored from ggp-base) is loaded, and wopr's perft
//! counts in GDL steps equal the counts both independent references
//! (SWI-Prolog on the sheet's translation, and `tools/gdl-perft`'s Python
//! reasoner) agreed on; every sheet the references call invalid GDL is
//! refused in one line naming the rule's line. The counts come from the
//! references (`tools/gdl-perft/references.py`, then `manifest.py`), never
//! from wopr. Then `wopr gdl suite` itself: its verdicts, totals and exit
//! codes on a small manifest, and its errors on bad ones.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use wopr::games::gdl::conformance::{parse_manifest, sha256_hex, Kind, DEPTHS};
use wopr::games::gdl::game::Gdl;
use wopr::{Game, Roster};

/// Sheets too slow to count fully in a debug build: the deepest depth the
/// test counts (0: not loaded at all). `wopr gdl suite` counts them all.
const SLOW: &[(&str, usize)] = &[
    // Four roles on a star of 121 holes: about 20 s to load in debug.
    ("gdl/ggp-base/chineseCheckers4p.kif", 0),
    // 256 joint moves a step: 50,640 states at depth 2.
    ("gdl/ggp-base/blocker.kif", 1),
];

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn manifest() -> Vec<wopr::games::gdl::conformance::Entry> {
    let path = repo().join("gdl/conformance/counts.tsv");
    let text = std::fs::read_to_string(&path).expect("gdl/conformance/counts.tsv");
    parse_manifest(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn vendored_sheets_count_as_the_references_do() {
    let mut checked_depths = 0;
    let mut refused = 0;
    for entry in manifest() {
        let path = repo().join(&entry.path);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", entry.path));
        if let Some(sha) = &entry.sha256 {
            assert_eq!(&sha256_hex(&bytes), sha, "{} changed", entry.path);
        }
        let cap = SLOW
            .iter()
            .find(|(p, _)| *p == entry.path)
            .map_or(usize::MAX, |&(_, d)| d);
        if cap == 0 {
            continue;
        }
        let text = String::from_utf8(bytes).expect("a UTF-8 sheet");
        let loaded = Gdl::from_text(&entry.path, &text, 10_000);
        if entry.kind == Kind::Invalid {
            let e = match loaded {
                Ok(_) => panic!("{}: loaded, but it is invalid ({})", entry.path, entry.note),
                Err(e) => e.to_string(),
            };
            assert!(
                !e.contains('\n') && e.contains("line "),
                "{}: the refusal should be one line naming the rule's line: {e}",
                entry.path
            );
            refused += 1;
            continue;
        }
        let g = loaded.unwrap_or_else(|e| panic!("{}: refused: {e}", entry.path));
        let start = g.initial_state();
        for (d, want) in entry.counts.iter().enumerate().take(cap) {
            let Some(want) = *want else { break };
            let got = g.perft(&start, d as u32 + 1);
            assert_eq!(
                got,
                want,
                "{}: perft {} (manifest line {})",
                entry.path,
                d + 1,
                entry.line
            );
            checked_depths += 1;
        }
    }
    assert!(refused >= 5, "only {refused} invalid sheets refused");
    assert!(
        checked_depths >= 90,
        "only {checked_depths} counts compared"
    );
}

/// Every `.kif` file under `gdl/` is in the manifest, so a sheet added
/// there gets reference counts.
#[test]
fn the_manifest_lists_every_sheet_in_gdl() {
    let listed: Vec<String> = manifest().into_iter().map(|e| e.path).collect();
    let mut todo = vec![repo().join("gdl")];
    let mut missing = Vec::new();
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).expect("a folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|x| x == "kif") {
                let rel = path
                    .strip_prefix(repo())
                    .expect("under the repository")
                    .to_string_lossy()
                    .replace('\\', "/");
                if !listed.contains(&rel) {
                    missing.push(rel);
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "not in gdl/conformance/counts.tsv: {missing:?}"
    );
}

/// Manifest rows whose second reference is a calculation written in the
/// row's note, where the Python reasoner got nowhere: sudoku's 81 empty
/// cells take 9 marks each, one cell fewer a ply (729, then 729 · 720);
/// laikLee_hex's 25 cells take one mark a ply and no game can end before
/// ply 9 (25, 25 · 24, 25 · 24 · 23).
const CALCULATED: &[(&str, &str)] = &[
    ("repository.tsv", "war/root/games/sudoku/sudoku.kif"),
    (
        "repository.tsv",
        "war/root/games/laikLee_hex/laikLee_hex.kif",
    ),
];

/// Every manifest in `gdl/conformance/` says what its references found:
/// each sheet is in the references' file (`references/`, the same name;
/// `vendored.tsv` for `counts.tsv`) with the same SHA-256, a count is
/// recorded at a depth only where both references reached it with that
/// count, and a sheet is `invalid` exactly where the Python reasoner
/// refused it. Nothing here runs wopr: a manifest edited by hand, or made
/// from another references file, fails. The exceptions are named in
/// [`CALCULATED`].
#[test]
fn every_manifest_records_what_both_references_found() {
    let dir = repo().join("gdl/conformance");
    let mut manifests = 0;
    for entry in std::fs::read_dir(&dir).expect("gdl/conformance") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|x| x != "tsv") {
            continue;
        }
        let name = path.file_name().expect("a name").to_string_lossy();
        let refs_name = if name == "counts.tsv" {
            "vendored.tsv".to_string()
        } else {
            name.to_string()
        };
        let text = std::fs::read_to_string(&path).expect("a manifest");
        let entries = parse_manifest(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let refs = std::fs::read_to_string(dir.join("references").join(&refs_name))
            .unwrap_or_else(|e| panic!("{name}: its references/{refs_name}: {e}"));
        // path -> (sha256, Prolog's counts, Python's counts, Python's end).
        let mut found = std::collections::HashMap::new();
        for line in refs.lines().filter(|l| !l.trim().is_empty()) {
            let cols: Vec<&str> = line.split('\t').collect();
            assert_eq!(cols.len(), 4, "{refs_name}: {line}");
            let split = |col: &str| {
                let (counts, end) = col.split_once(';').expect("counts;end");
                let counts: Vec<u64> = counts
                    .split(',')
                    .filter(|c| !c.is_empty())
                    .map(|c| c.parse().expect("a count"))
                    .collect();
                (counts, end.to_string())
            };
            let (prolog, _) = split(cols[2]);
            let (python, end) = split(cols[3]);
            found.insert(
                cols[0].to_string(),
                (cols[1].to_string(), prolog, python, end),
            );
        }
        let mut paths = std::collections::HashSet::new();
        for e in &entries {
            assert!(paths.insert(e.path.clone()), "{name}: {} twice", e.path);
            let Some((sha, prolog, python, end)) = found.get(&e.path) else {
                panic!("{name}: {} is not in references/{refs_name}", e.path)
            };
            assert_eq!(e.sha256.as_ref(), Some(sha), "{name}: {}", e.path);
            // A count worked out by hand stands in for the Python
            // reasoner's: SWI-Prolog's alone must equal it.
            let calculated = CALCULATED.contains(&(&*name, &*e.path));
            if calculated {
                assert!(e.note.contains("a calculation"), "{name}: {}", e.path);
                for (d, count) in e.counts.iter().enumerate() {
                    assert_eq!(count.as_ref(), prolog.get(d), "{name}: {}", e.path);
                }
                continue;
            }
            for (d, count) in e.counts.iter().enumerate() {
                if let Some(c) = count {
                    assert_eq!(
                        (prolog.get(d), python.get(d)),
                        (Some(c), Some(c)),
                        "{name}: {} at depth {}",
                        e.path,
                        d + 1
                    );
                }
            }
            // And every depth where both agree, from depth 1 on.
            let agree = prolog
                .iter()
                .zip(python)
                .take_while(|(a, b)| a == b)
                .count()
                .min(DEPTHS);
            assert_eq!(e.known_depth(), agree, "{name}: {}", e.path);
            assert_eq!(
                e.kind == Kind::Invalid,
                end.starts_with("invalid"),
                "{name}: {} is {:?}, the Python reasoner ended '{end}'",
                e.path,
                e.kind
            );
        }
        manifests += 1;
    }
    // counts.tsv, repository.tsv, repository-versions.tsv,
    // ggp-base-rulesheets.tsv, libgdl.tsv.
    assert_eq!(manifests, 5);
}

fn wopr(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wopr"))
        .args(args)
        .current_dir(repo())
        .output()
        .expect("run wopr")
}

fn temp_manifest(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("wopr-gdl-suite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp folder");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write the manifest");
    path
}

#[test]
fn suite_command_gives_a_verdict_per_sheet_and_the_totals() {
    // Tic-Tac-Toe's counts are the references' (and the native game's);
    // nim's depth 3 is altered to 9 (the references say 8) so that the
    // suite must report a disagreement.
    let m = temp_manifest(
        "small.tsv",
        "# a comment\n\
         gdl/tictactoe.kif\t-\t-\t9\t72\t504\tagreed\n\
         gdl/nim.kif\t-\t-\t2\t4\t9\tagreed\n\
         gdl/ggp-base/invalid/test_case_3e.kif\t-\t-\t-\t-\t-\tinvalid: unsafe\n\
         gdl/ggp-base/hanoi.kif\t-\t0000000000000000000000000000000000000000000000000000000000000000\t2\t-\t-\tagreed\n",
    );
    let out = wopr(&["gdl", "suite", m.to_str().unwrap(), "--root", "."]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with("gdl/tictactoe.kif: agrees to depth 3"),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with("gdl/nim.kif: disagrees at depth 3: wopr 8, references 9"),
        "{stdout}"
    );
    assert!(
        lines[2].contains("refused (invalid GDL, as expected): line 8: unsafe rule"),
        "{stdout}"
    );
    assert!(lines[3].contains("missing: sha256 "), "{stdout}");
    assert!(
        lines[4].starts_with("4 sheets: 2 loaded; 1 agree (to depth 3: 1, 2: 0, 1: 0); 1 disagree; 1 refused (1 invalid GDL, as expected)"),
        "{stdout}"
    );
    assert_eq!(
        stderr.trim(),
        "error: 1 of 4 sheets answered wrongly, 1 missing or changed"
    );

    // All agree: exit 0. A sheet that cannot load in 0.3 s times out.
    let m = temp_manifest(
        "ok.tsv",
        "gdl/tictactoe.kif\t-\t-\t9\t72\t504\tagreed\n\
         gdl/ggp-base/chineseCheckers4p.kif\t-\t-\t6\t36\t-\tagreed\n",
    );
    let out = wopr(&[
        "gdl",
        "suite",
        m.to_str().unwrap(),
        "--seconds",
        "0.3",
        "--depth",
        "2",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("chineseCheckers4p.kif: timed out while loading"),
        "{stdout}"
    );
    assert!(stdout.contains("1 timed out"), "{stdout}");
}

#[test]
fn suite_command_refuses_bad_manifests_in_one_line() {
    let m = temp_manifest("bad.tsv", "gdl/tictactoe.kif\t-\t-\t9\t72\tagreed\n");
    for (args, says) in [
        (
            vec!["gdl", "suite", m.to_str().unwrap()],
            "manifest line 1: 6 tab-separated columns, expected 7",
        ),
        (
            vec!["gdl", "suite", "no/such.tsv"],
            "cannot read no/such.tsv",
        ),
        (
            vec![
                "gdl",
                "suite",
                "gdl/conformance/counts.tsv",
                "--seconds",
                "0",
            ],
            "is not a number of seconds",
        ),
    ] {
        let out = wopr(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        // The error is its first line (clap adds a hint to try --help).
        let first = stderr.lines().next().unwrap_or("");
        assert!(
            first.starts_with("error: ") && first.contains(says),
            "{args:?}: {stderr}"
        );
    }
}
