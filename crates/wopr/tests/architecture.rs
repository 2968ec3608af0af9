//! ARCHITECTURE.md's claims about imports, checked on the source (issue 68).
//!
//! **No circles.** In every folder of a crate, the folder's files and
//! subfolders import one another without a circle, re-exports included: a
//! path such as `super::Roster` counts as an import of the file that
//! defines `Roster`, not of the `mod.rs` that re-exports it. The test reads
//! `use` declarations and paths written inline (`crate::a::b`,
//! `super::x`), resolves each to the file defining the item through every
//! `pub use` on the way, and looks for circles among a folder's children.
//!
//! **Layers.** The library's top-level modules import downward only, in the
//! order ARCHITECTURE.md's "Layers" section draws.
//!
//! To see the edges behind a circle, set `WOPR_ARCH_EDGES` to part of a
//! module path (`experiment::learn`): the test prints the edges and the
//! resolved references that mention it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path from the crate root: `["players", "roster"]`.
type ModPath = Vec<String>;

/// One source file: its module path and its code with comments, strings
/// and `#[cfg(test)]` parts removed.
struct Module {
    path: ModPath,
    code: String,
}

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

/// Code without comments, string and char literals, and test modules.
fn code_of(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    let mut out = String::new();
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or("");
        let mut in_string = false;
        let mut prev = ' ';
        for c in line.chars() {
            if c == '"' && prev != '\\' {
                in_string = !in_string;
            } else if !in_string {
                out.push(c);
            }
            prev = c;
        }
        out.push('\n');
    }
    out
}

/// The modules of the crate whose sources are under `src`.
fn modules(src: &Path) -> Vec<Module> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files
        .into_iter()
        .filter(|f| !f.ends_with("tests.rs") && !f.to_string_lossy().contains("/tests/"))
        .filter(|f| !f.to_string_lossy().contains("/bin/"))
        .map(|f| {
            let rel = f.strip_prefix(src).unwrap().with_extension("");
            let mut path: ModPath = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(
                path.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                path.pop();
            }
            let code = code_of(&std::fs::read_to_string(&f).unwrap());
            Module { path, code }
        })
        .collect()
}

/// Expands a `use` tree (`crate::a::{b, c::{d, e as f}}`) into its paths,
/// with the name each brings in.
fn expand(tree: &str, prefix: &str, out: &mut Vec<(String, String)>) {
    let tree = tree.trim();
    if let Some(open) = tree.find('{') {
        let head = format!("{prefix}{}", &tree[..open]);
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&inner[start..i], &head, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand(&inner[start..], &head, out);
    } else if !tree.is_empty() {
        let (path, alias) = match tree.split_once(" as ") {
            Some((p, a)) => (p.trim(), a.trim()),
            None => (tree, tree.rsplit("::").next().unwrap_or(tree)),
        };
        let full = format!("{prefix}{path}");
        let full = full.strip_suffix("::self").unwrap_or(&full).to_string();
        let alias = if alias == "self" {
            full.rsplit("::").next().unwrap_or("").to_string()
        } else {
            alias.to_string()
        };
        out.push((full.split_whitespace().collect(), alias));
    }
}

/// The `use` declarations of `code`: (is it `pub`, path, name brought in).
fn uses(code: &str) -> Vec<(bool, String, String)> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = find_word(rest, "use") {
        let before = rest[..i].trim_end();
        let public = before.ends_with("pub") || before.ends_with(')');
        let Some(end) = rest[i..].find(';') else {
            break;
        };
        let mut trees = Vec::new();
        expand(&rest[i + 3..i + end], "", &mut trees);
        out.extend(trees.into_iter().map(|(p, a)| (public, p, a)));
        rest = &rest[i + end..];
    }
    out
}

/// The index of `word` as a whole word in `text`.
fn find_word(text: &str, word: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find(word) {
        let at = from + i;
        let ok_before = text[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':'));
        let ok_after = text[at + word.len()..]
            .chars()
            .next()
            .is_none_or(|c| c.is_whitespace());
        if ok_before && ok_after {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// Paths written inline: `crate::a::b`, `super::x`, `self::y`.
fn inline_paths(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    for root in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(i) = code[from..].find(root) {
            let at = from + i;
            let start_ok = code[..at]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '$'));
            let len = code[at..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(code.len() - at);
            // `crate::a::{b, c}` is a use tree, whose leaves `uses` reads.
            let group = code[at + len..].starts_with('{');
            if start_ok && !group {
                out.push(code[at..at + len].trim_end_matches(':').to_string());
            }
            from = at + len.max(1);
        }
    }
    out
}

/// Resolves `path` written in module `here` to absolute segments.
fn absolute(here: &ModPath, path: &str) -> Option<ModPath> {
    let mut segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let mut base: ModPath = match segs.first()? {
        &"crate" => {
            segs.remove(0);
            Vec::new()
        }
        &"super" | &"self" => {
            // `super` in `a/b.rs` or `a/b/mod.rs` is `a`.
            let mut base = here.clone();
            while segs.first() == Some(&"super") {
                segs.remove(0);
                base.pop()?;
            }
            if segs.first() == Some(&"self") {
                segs.remove(0);
            }
            base
        }
        // A path relative to this module (`pub use roster::Roster`); an
        // outside crate's (`std::fmt`) resolves to this module itself.
        _ => here.clone(),
    };
    base.extend(segs.iter().map(|s| s.to_string()));
    Some(base)
}

struct Crate {
    modules: BTreeMap<ModPath, usize>,
    /// Per module: name brought in by `pub use` -> absolute target path.
    reexports: Vec<BTreeMap<String, ModPath>>,
    /// Per module: every path it refers to, absolute.
    refs: Vec<Vec<ModPath>>,
}

impl Crate {
    fn read(src: &Path) -> Crate {
        let mods = modules(src);
        let modules = mods
            .iter()
            .enumerate()
            .map(|(i, m)| (m.path.clone(), i))
            .collect();
        let mut reexports = Vec::new();
        let mut refs = Vec::new();
        for m in &mods {
            let mut re = BTreeMap::new();
            let mut r = Vec::new();
            for (public, path, alias) in uses(&m.code) {
                if let Some(abs) = absolute(&m.path, &path) {
                    if public {
                        re.insert(alias, abs);
                    } else {
                        r.push(abs);
                    }
                }
            }
            for p in inline_paths(&m.code) {
                if let Some(abs) = absolute(&m.path, &p) {
                    r.push(abs);
                }
            }
            reexports.push(re);
            refs.push(r);
        }
        Crate {
            modules,
            reexports,
            refs,
        }
    }

    /// The module defining what `path` names, following re-exports.
    fn definer(&self, path: &ModPath, depth: usize) -> Option<ModPath> {
        // The longest prefix that is a module.
        let mut n = path.len();
        while n > 0 && !self.modules.contains_key(&path[..n]) {
            n -= 1;
        }
        let module = path[..n].to_vec();
        let idx = *self.modules.get(&module)?;
        if n < path.len() && depth < 16 {
            if let Some(target) = self.reexports[idx].get(&path[n]) {
                let mut next = target.clone();
                next.extend(path[n + 1..].iter().cloned());
                if &next != path {
                    return self.definer(&next, depth + 1).or(Some(module));
                }
            }
        }
        Some(module)
    }

    /// Every import edge between modules, re-exports resolved.
    fn edges(&self) -> BTreeSet<(ModPath, ModPath)> {
        let mut edges = BTreeSet::new();
        for (from, &i) in &self.modules {
            for r in &self.refs[i] {
                if let Some(to) = self.definer(r, 0) {
                    if &to != from {
                        edges.insert((from.clone(), to));
                    }
                }
            }
        }
        edges
    }
}

/// The circles among the children of every folder: each as the child
/// names in order, prefixed by the folder.
fn circles(src: &Path) -> Vec<String> {
    let krate = Crate::read(src);
    let edges = krate.edges();
    if let Ok(want) = std::env::var("WOPR_ARCH_EDGES") {
        for (a, b) in &edges {
            let line = format!("{} -> {}", a.join("::"), b.join("::"));
            if line.contains(&want) {
                eprintln!("{line}");
            }
        }
        for (m, &i) in &krate.modules {
            if m.join("::").contains(&want) {
                for r in &krate.refs[i] {
                    eprintln!("{m:?} refers to {r:?} -> {:?}", krate.definer(r, 0));
                }
            }
        }
    }
    let folders: BTreeSet<ModPath> = krate
        .modules
        .keys()
        .filter(|p| !p.is_empty())
        .map(|p| p[..p.len() - 1].to_vec())
        .collect();
    let mut found = Vec::new();
    for folder in folders {
        let d = folder.len();
        // Children: the next segment under `folder`. The folder's own
        // `mod.rs` is the folder itself, not a child: a child may use what
        // its folder defines (as it uses the floors below), and the folder
        // composes its children.
        let child = |p: &ModPath| -> Option<String> {
            (p.len() > d && p[..d] == folder[..]).then(|| p[d].clone())
        };
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (a, b) in &edges {
            if let (Some(ca), Some(cb)) = (child(a), child(b)) {
                if ca != cb {
                    graph.entry(ca).or_default().insert(cb);
                }
            }
        }
        for cycle in find_cycles(&graph) {
            let at = if folder.is_empty() {
                "crate".to_string()
            } else {
                folder.join("::")
            };
            found.push(format!("{at}: {}", cycle.join(" -> ")));
        }
    }
    found
}

/// One circle through each strongly connected part of `graph` that has one.
fn find_cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut done: BTreeSet<String> = BTreeSet::new();
    for start in graph.keys() {
        if done.contains(start) {
            continue;
        }
        // Depth-first search for a path back to `start`.
        let mut stack = vec![(start.clone(), vec![start.clone()])];
        let mut seen = BTreeSet::new();
        while let Some((node, path)) = stack.pop() {
            for next in graph.get(&node).into_iter().flatten() {
                if next == start {
                    let mut c = path.clone();
                    c.push(start.clone());
                    done.extend(c.iter().cloned());
                    out.push(c);
                    stack.clear();
                    break;
                }
                if seen.insert(next.clone()) {
                    let mut p = path.clone();
                    p.push(next.clone());
                    stack.push((next.clone(), p));
                }
            }
        }
        done.insert(start.clone());
    }
    out
}

fn crate_src(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(name)
        .join("src")
}

#[test]
fn no_module_imports_another_in_a_circle_reexports_included() {
    let mut found = Vec::new();
    for krate in ["wopr-core", "wopr-gdl", "wopr", "wopr-cli"] {
        found.extend(
            circles(&crate_src(krate))
                .into_iter()
                .map(|c| format!("{krate}: {c}")),
        );
    }
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../python/src");
    found.extend(circles(&python).into_iter().map(|c| format!("python: {c}")));
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

/// The checker sees a circle made through a re-export.
#[test]
fn a_circle_through_a_reexport_is_found() {
    let dir = std::env::temp_dir().join(format!("wopr-arch-{}", std::process::id()));
    let folder = dir.join("players");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(dir.join("lib.rs"), "pub mod players;\n").unwrap();
    std::fs::write(
        folder.join("mod.rs"),
        "mod roster;\nmod spec;\npub use roster::Roster;\npub use spec::Spec;\n",
    )
    .unwrap();
    std::fs::write(
        folder.join("roster.rs"),
        "use super::Spec;\npub trait Roster {}\n",
    )
    .unwrap();
    std::fs::write(
        folder.join("spec.rs"),
        "pub struct Spec(Box<dyn super::Roster>);\n",
    )
    .unwrap();
    let found = circles(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("players: "), "{found:?}");
    assert!(
        found[0].contains("roster") && found[0].contains("spec"),
        "{found:?}"
    );
}

/// The library's floors, from the bottom, as ARCHITECTURE.md's "Layers"
/// section draws them: a module uses only modules on floors below its own.
/// The first three are the crate `wopr-core`, which the library re-exports
/// under the same names; the rest are the library's own.
const FLOORS: &[&[&str]] = &[
    &["game"],
    &["search", "nn", "dist"],
    &["players"],
    &["games"],
    &["registry"],
    &["eval"],
    &["evolve", "train", "music"],
    &["experiment"],
];

/// The floors of `wopr-core`, where cargo already keeps out every module
/// above `players`.
const CORE_FLOORS: usize = 3;

#[test]
fn the_library_imports_downward_only() {
    downward_only("wopr-core", &FLOORS[..CORE_FLOORS]);
    downward_only("wopr", FLOORS);
}

fn downward_only(name: &str, floors: &[&[&str]]) {
    let krate = Crate::read(&crate_src(name));
    let floor_of = |m: &ModPath| -> Option<usize> {
        let top = m.first()?;
        floors.iter().position(|f| f.contains(&top.as_str()))
    };
    let mut upward = BTreeSet::new();
    for (from, to) in krate.edges() {
        let (Some(a), Some(b)) = (floor_of(&from), floor_of(&to)) else {
            continue;
        };
        if from[0] != to[0] && b >= a {
            upward.insert(format!("{} -> {}", from.join("::"), to.join("::")));
        }
    }
    let unplaced: Vec<&String> = krate
        .modules
        .keys()
        .filter_map(|m| m.first())
        .filter(|top| !floors.iter().any(|f| f.contains(&top.as_str())))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    assert!(
        unplaced.is_empty(),
        "{name}: modules on no floor: {unplaced:?}"
    );
    assert!(
        upward.is_empty(),
        "{name}: imports that do not run downward:\n{}",
        upward.into_iter().collect::<Vec<_>>().join("\n")
    );
}

/// The names a crate's `Cargo.toml` lists under `[dependencies]`.
fn dependencies(name: &str) -> BTreeSet<String> {
    let path = crate_src(name).join("../Cargo.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let mut out = BTreeSet::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with('[') {
            inside = line.trim() == "[dependencies]" || line.ends_with(".dependencies]");
            inside &= !line.contains("dev-dependencies");
        } else if inside {
            if let Some((key, _)) = line.split_once('=') {
                out.insert(key.trim().split('.').next().unwrap().to_string());
            }
        }
    }
    out
}

/// **The framework knows no game, and GDL only the framework.** The crates
/// stack `wopr-core` < `wopr-gdl` < `wopr` < `wopr-cli`, and each names
/// only crates below it.
#[test]
fn the_crates_stack_framework_gdl_library_command() {
    let stack = ["wopr-core", "wopr-gdl", "wopr", "wopr-cli"];
    for (i, name) in stack.iter().enumerate() {
        let deps = dependencies(name);
        for above in &stack[i..] {
            assert!(
                !deps.contains(*above),
                "{name} depends on {above}: {deps:?}"
            );
        }
    }
    assert!(dependencies("wopr-gdl").contains("wopr-core"));
    assert!(!dependencies("wopr-gdl").contains("wopr"));
}
