//! Replays every committed corpus file through its target's check, so that
//! stable Rust (and CI) runs what the fuzzer found interesting.

use std::path::Path;

use wopr_fuzz::TARGETS;

/// Runs `check` on every file of `fuzz/<folder>/<target>/`; returns how
/// many there were.
fn replay(folder: &str, target: &str, check: wopr_fuzz::Check) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(folder)
        .join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return 0;
    };
    let mut files: Vec<_> = entries
        .map(|e| e.expect("a readable corpus folder").path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    for path in &files {
        let data = std::fs::read(path).expect("a readable corpus file");
        eprintln!("{}", path.display());
        check(&data);
    }
    files.len()
}

#[test]
fn every_corpus_replays_without_a_panic() {
    let mut total = 0;
    for &(target, check) in TARGETS {
        let n = replay("corpus", target, check);
        assert!(n > 0, "no corpus for target {target}");
        total += n;
    }
    wopr_fuzz::remove_scratch_dirs();
    eprintln!("{total} corpus files replayed");
}

/// The crashing inputs the fuzzer found (`fuzz/artifacts-found/<target>/`)
/// replay without a panic now that the library is fixed.
#[test]
fn found_crashes_are_fixed() {
    wopr_fuzz::skip_known_crashes(false);
    for &(target, check) in TARGETS {
        replay("artifacts-found", target, check);
    }
    wopr_fuzz::remove_scratch_dirs();
}
