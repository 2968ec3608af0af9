//! Every rule sheet shipped in the top-level `gdl/` folder (our own and the
//! ones vendored from ggp-base) parses and passes the GDL validity checks,
//! but those in a folder named `invalid` (ggp-base's sheets of invalid GDL),
//! which must fail them. `WOPR_GDL_DIR` points the test at another folder
//! instead.

use std::path::{Path, PathBuf};

use wopr::games::gdl::{check::check, parse::parse};

/// The `.kif` files under `dir`, in sorted order, at any depth.
fn kif_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|x| x == "kif") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_sheet_parses_and_checks() {
    let dir = std::env::var_os("WOPR_GDL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../gdl"));
    let files = kif_files(&dir);
    assert!(!files.is_empty(), "no .kif files under {}", dir.display());
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("a readable sheet");
        let result = parse(&text).and_then(|sheet| {
            assert!(!sheet.rules.is_empty(), "{} is empty", path.display());
            check(&sheet)
        });
        let invalid = path.parent().is_some_and(|p| p.ends_with("invalid"));
        match (result, invalid) {
            (Err(e), false) => failures.push(format!("{}: {e}", path.display())),
            (Ok(()), true) => failures.push(format!("{}: invalid, but accepted", path.display())),
            _ => {}
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
