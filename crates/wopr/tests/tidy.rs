//! House rules checked on the source tree (issue 27): no source file under
//! `crates/*/src/`, `python/src/` or `fuzz/src/` is longer than 700 lines, so that a module stays one idea
//! a reader can hold; and only the games' folders and the registry name a
//! concrete game (ARCHITECTURE.md). Tests are exempt.

use std::path::{Path, PathBuf};

/// The longest a source file may be, in lines.
const MAX_LINES: usize = 700;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The folder of the crates, and every source file under `crates/*/src/`.
fn source_files() -> (PathBuf, Vec<PathBuf>) {
    let crates = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for krate in std::fs::read_dir(&crates).unwrap() {
        let src = krate.unwrap().path().join("src");
        if src.is_dir() {
            rust_files(&src, &mut files);
        }
    }
    (crates, files)
}

#[test]
fn no_source_file_is_over_700_lines() {
    let (crates, mut files) = source_files();
    assert!(files.len() > 50, "only {} source files found", files.len());
    // The Python package's native module too (issue 45).
    let python = crates.join("..").join("python").join("src");
    let before = files.len();
    rust_files(&python, &mut files);
    assert!(files.len() > before + 5, "python/src/ has too few files");
    // And the fuzz targets' bodies (issue 45).
    let fuzz = crates.join("..").join("fuzz").join("src");
    let before = files.len();
    rust_files(&fuzz, &mut files);
    assert!(files.len() > before + 3, "fuzz/src/ has too few files");
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let n = std::fs::read_to_string(f).unwrap().lines().count();
            (n > MAX_LINES).then(|| format!("{} ({n} lines)", f.display()))
        })
        .collect();
    assert!(
        long.is_empty(),
        "over {MAX_LINES} lines: {} (split them into modules)",
        long.join(", ")
    );
}

/// The concrete games' type names, read from the registry's `AnyGame`
/// enum (a variant names its game); outside `games/` and the registry only
/// `AnyGame` and generic code may stand for them. GDL is left out: it is a
/// general game engine whose public API the CLI's `gdl` and `ggp` commands
/// use.
fn game_types() -> Vec<String> {
    let registry = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/registry.rs");
    let text = std::fs::read_to_string(registry).unwrap();
    let start = text
        .find("pub enum AnyGame {")
        .expect("registry.rs has AnyGame");
    let body = &text[start..start + text[start..].find("\n}").unwrap()];
    let types: Vec<String> = body
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("//"))
        .filter_map(|l| l.split_once('(').map(|(v, _)| v.trim().to_string()))
        .filter(|v| !v.starts_with("Gdl"))
        .collect();
    assert!(types.len() >= 8, "AnyGame read as {types:?}");
    types
}

/// The games' module paths: every folder under `games/` but GDL's.
fn game_modules() -> Vec<String> {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/games");
    let mut modules: Vec<String> = std::fs::read_dir(games)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .filter(|name| name != "gdl")
        .map(|name| format!("games::{name}"))
        .collect();
    modules.sort();
    assert!(modules.len() >= 8, "games/ read as {modules:?}");
    modules
}

/// The code of a source file without comments, string literals and its
/// `#[cfg(test)]` module (tests may name any game).
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut out = String::new();
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or("");
        let mut in_string = false;
        for c in line.chars() {
            if c == '"' {
                in_string = !in_string;
            } else if !in_string {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

/// Whether `code` names `word` as a whole identifier, or a type made of it
/// and `State` (`TicTacToeState`).
fn names(code: &str, word: &str) -> bool {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    code.match_indices(word).any(|(i, _)| {
        let before_ok = !code[..i].chars().next_back().is_some_and(ident);
        let rest = &code[i + word.len()..];
        let after_ok = !rest.chars().next().is_some_and(ident) || rest.starts_with("State");
        before_ok && after_ok
    })
}

/// ARCHITECTURE.md: "the registry is the one list of games". No source file
/// outside `games/` and `registry.rs` names a concrete game's type or
/// module (tests and docs excepted), so a new game is added in its folder
/// and one registry entry, and nothing else learns its name.
#[test]
fn only_the_games_and_the_registry_name_concrete_games() {
    let (crates, files) = source_files();
    let (types, modules) = (game_types(), game_modules());
    let mut offenders = Vec::new();
    for f in &files {
        let rel = f
            .strip_prefix(&crates)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        // A module's tests in a file of their own (`mod tests;`) are tests.
        if rel.starts_with("wopr/src/games/")
            || rel == "wopr/src/registry.rs"
            || rel.ends_with("/tests.rs")
        {
            continue;
        }
        let code = code_of(&std::fs::read_to_string(f).unwrap());
        let named: Vec<&str> = types
            .iter()
            .map(String::as_str)
            .filter(|t| names(&code, t))
            .chain(
                modules
                    .iter()
                    .map(String::as_str)
                    .filter(|m| code.contains(m)),
            )
            .collect();
        if !named.is_empty() {
            offenders.push(format!("{rel} ({})", named.join(", ")));
        }
    }
    assert!(
        offenders.is_empty(),
        "outside games/ and the registry, these name concrete games: {}",
        offenders.join("; ")
    );
}

/// The README is the front door (issue 68): what wopr is, set-up, a short
/// tour and where to read on, in at most 250 lines; results live in
/// `docs/results/` and `champions/README.md`.
#[test]
fn the_readme_is_at_most_250_lines() {
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let lines = std::fs::read_to_string(readme).unwrap().lines().count();
    assert!(lines <= 250, "README.md has {lines} lines (at most 250)");
}

/// The guide pages that ARCHITECTURE.md sends a contributor to exist.
#[test]
fn the_architecture_guide_pages_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let map = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    for page in [
        "docs/guide/adding-a-game.md",
        "docs/guide/adding-a-player.md",
    ] {
        assert!(map.contains(page), "ARCHITECTURE.md does not link {page}");
        assert!(root.join(page).is_file(), "{page} is missing");
    }
}
