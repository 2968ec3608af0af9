//! The GDL conformance suite's manifests and verdicts: which rule sheets,
//! which perft counts the independent references found for them, and how
//! what wopr did compares (`wopr gdl suite`, and the test
//! `crates/wopr-cli/tests/gdl_conformance.rs` on the sheets in `gdl/`).
//!
//! A manifest is a tab-separated file, one sheet a line (`#` starts a
//! comment line, blank lines are skipped), seven columns:
//!
//! ```text
//! path  commit  sha256  depth1  depth2  depth3  reference
//! ```
//!
//! - `path`: the sheet, relative to the suite's root folder (no `..`);
//! - `commit`: the commit of the collection the sheet comes from (40 hex
//!   digits), or `-`;
//! - `sha256`: the sheet's SHA-256 (64 hex digits), or `-` not to check;
//! - `depth1..3`: perft counts in GDL steps (one joint move of every role
//!   a ply, forced `noop` steps and `random` included; a terminal state is
//!   not extended), recorded only where both references (SWI-Prolog on
//!   `wopr gdl prolog`'s translation, and `tools/gdl-perft/gdl_perft.py`)
//!   reached that depth and agree; `-` where not;
//! - `reference`: a kind, then optionally `:` and a note: `agreed` (the
//!   counts given are both references'), `invalid` (the sheet is not valid
//!   GDL: wopr must refuse it), `disagreed` (the references differ past the
//!   counts given), `unknown` (neither reached depth 1, or another reason).

use std::fmt;

use super::GdlError;

/// Depths a manifest records counts for.
pub const DEPTHS: usize = 3;

/// What the references say of a sheet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Both references agree on the counts given.
    Agreed,
    /// Not valid GDL: wopr should refuse it.
    Invalid,
    /// The references disagree beyond the counts given.
    Disagreed,
    /// No reference count (both timed out, or another reason in the note).
    Unknown,
}

impl Kind {
    fn parse(s: &str) -> Option<Kind> {
        Some(match s {
            "agreed" => Kind::Agreed,
            "invalid" => Kind::Invalid,
            "disagreed" => Kind::Disagreed,
            "unknown" => Kind::Unknown,
            _ => return None,
        })
    }
}

/// One sheet of a manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The manifest line it was read from (1-based).
    pub line: usize,
    /// The sheet's path under the suite's root.
    pub path: String,
    /// The collection's commit, if given.
    pub commit: Option<String>,
    /// The sheet's SHA-256 in lower-case hex, if given.
    pub sha256: Option<String>,
    /// The references' agreed count at depths 1..=3, where known.
    pub counts: [Option<u64>; DEPTHS],
    /// What the references say.
    pub kind: Kind,
    /// The note after the kind (may be empty).
    pub note: String,
}

impl Entry {
    /// The deepest depth with a recorded count (0 if none).
    pub fn known_depth(&self) -> usize {
        self.counts.iter().take_while(|c| c.is_some()).count()
    }
}

/// Reads a manifest; a bad line is a one-line error naming its line.
pub fn parse_manifest(text: &str) -> Result<Vec<Entry>, GdlError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim_end_matches('\r');
        if l.trim().is_empty() || l.trim_start().starts_with('#') {
            continue;
        }
        let bad = |what: String| GdlError(format!("manifest line {line}: {what}"));
        let cols: Vec<&str> = l.split('\t').collect();
        if cols.len() != 4 + DEPTHS {
            return Err(bad(format!(
                "{} tab-separated columns, expected {} (path commit sha256 depth1 depth2 depth3 reference)",
                cols.len(),
                4 + DEPTHS
            )));
        }
        let path = cols[0].trim();
        if path.is_empty() || path.starts_with('/') || path.split(['/', '\\']).any(|p| p == "..") {
            return Err(bad(format!(
                "path '{path}' must be relative to the root, without '..'"
            )));
        }
        let hex = |s: &str, len: usize, what: &str| -> Result<Option<String>, GdlError> {
            let s = s.trim();
            if s == "-" {
                Ok(None)
            } else if s.len() == len && s.bytes().all(|b| b.is_ascii_hexdigit()) {
                Ok(Some(s.to_ascii_lowercase()))
            } else {
                Err(bad(format!("{what} '{s}' is not {len} hex digits or '-'")))
            }
        };
        let commit = hex(cols[1], 40, "commit")?;
        let sha256 = hex(cols[2], 64, "sha256")?;
        let mut counts = [None; DEPTHS];
        for (d, c) in counts.iter_mut().enumerate() {
            let s = cols[3 + d].trim();
            if s != "-" {
                *c = Some(s.parse::<u64>().map_err(|_| {
                    bad(format!(
                        "depth {} count '{s}' is not a number or '-'",
                        d + 1
                    ))
                })?);
            }
        }
        if let Some(d) = (1..DEPTHS).find(|&d| counts[d].is_some() && counts[d - 1].is_none()) {
            return Err(bad(format!(
                "a count at depth {} but none at depth {d}",
                d + 1
            )));
        }
        let reference = cols[3 + DEPTHS].trim();
        let (word, note) = match reference.split_once(':') {
            Some((w, n)) => (w.trim(), n.trim()),
            None => (reference, ""),
        };
        let kind = Kind::parse(word).ok_or_else(|| {
            bad(format!(
                "reference '{word}' is not agreed, invalid, disagreed or unknown"
            ))
        })?;
        if kind == Kind::Invalid && counts.iter().any(Option::is_some) {
            return Err(bad("an invalid sheet with counts".into()));
        }
        if kind == Kind::Agreed && counts[0].is_none() {
            return Err(bad("'agreed' but no count at depth 1".into()));
        }
        out.push(Entry {
            line,
            path: path.to_string(),
            commit,
            sha256,
            counts,
            kind,
            note: note.to_string(),
        });
    }
    Ok(out)
}

/// What wopr did with one sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// Whether the sheet loaded (parsed, checked, ground, probed).
    pub loaded: bool,
    /// wopr's perft counts at depths 1, 2, … as far as it got.
    pub counts: Vec<u64>,
    /// wopr's one-line refusal, if it refused the sheet.
    pub refused: Option<String>,
    /// Whether it ran out of time (while loading or counting).
    pub timed_out: bool,
}

/// The verdict on one sheet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The sheet is not there or not the one counted.
    Missing(String),
    /// wopr refused the sheet; `expected` when the references call it
    /// invalid.
    Refused {
        /// wopr's reason.
        reason: String,
        /// Whether the sheet is invalid GDL.
        expected: bool,
    },
    /// wopr loaded a sheet the references call invalid.
    Accepted(String),
    /// wopr's count differs from the references' at `depth`.
    Disagrees {
        /// The first depth that differs.
        depth: usize,
        /// wopr's count.
        wopr: u64,
        /// The references' count.
        reference: u64,
    },
    /// wopr's counts equal every reference count it reached (`depth` of
    /// them, up to `known`); `timed_out` if it ran out of time before
    /// `known` (not when it was asked for fewer depths).
    Agrees {
        /// The deepest depth compared.
        depth: usize,
        /// The deepest depth with a reference count.
        known: usize,
        /// Whether wopr ran out of time before `known`.
        timed_out: bool,
    },
    /// wopr timed out before any count to compare (`loaded`: after loading).
    TimedOut {
        /// Whether the sheet had loaded.
        loaded: bool,
    },
    /// Loaded, and no reference count to compare with.
    Loaded {
        /// wopr's counts.
        counts: Vec<u64>,
    },
}

impl Verdict {
    /// A short word for the summary: `agrees`, `disagrees`, `refused`,
    /// `timed out`, `loaded`, `accepted invalid`, `missing`.
    pub fn word(&self) -> &'static str {
        match self {
            Verdict::Missing(_) => "missing",
            Verdict::Refused { .. } => "refused",
            Verdict::Accepted(_) => "accepted invalid",
            Verdict::Disagrees { .. } => "disagrees",
            Verdict::Agrees {
                timed_out: false, ..
            } => "agrees",
            Verdict::Agrees { .. } | Verdict::TimedOut { .. } => "timed out",
            Verdict::Loaded { .. } => "loaded",
        }
    }

    /// Whether this verdict is a wrong answer by wopr (a wrong count, or
    /// an invalid sheet accepted), as opposed to coverage (refusals of
    /// valid sheets, timeouts).
    pub fn is_wrong(&self) -> bool {
        matches!(self, Verdict::Disagrees { .. } | Verdict::Accepted(_))
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Missing(why) => write!(f, "missing: {why}"),
            Verdict::Refused {
                reason,
                expected: true,
            } => write!(f, "refused (invalid GDL, as expected): {reason}"),
            Verdict::Refused { reason, .. } => write!(f, "refused: {reason}"),
            Verdict::Accepted(note) => {
                write!(f, "accepted, but the references call it invalid: {note}")
            }
            Verdict::Disagrees {
                depth,
                wopr,
                reference,
            } => write!(
                f,
                "disagrees at depth {depth}: wopr {wopr}, references {reference}"
            ),
            Verdict::Agrees {
                depth,
                timed_out: false,
                ..
            } => write!(f, "agrees to depth {depth}"),
            Verdict::Agrees { depth, known, .. } => {
                write!(f, "timed out; agrees to depth {depth} of {known}")
            }
            Verdict::TimedOut { loaded: true } => write!(f, "timed out (loaded, counting depth 1)"),
            Verdict::TimedOut { loaded: false } => write!(f, "timed out while loading"),
            Verdict::Loaded { counts } => {
                let c: Vec<String> = counts.iter().map(u64::to_string).collect();
                write!(f, "loaded, no reference counts (wopr: {})", c.join(" "))
            }
        }
    }
}

/// Compares what wopr did with the references' entry.
pub fn judge(entry: &Entry, run: &Run) -> Verdict {
    if let Some(reason) = &run.refused {
        return Verdict::Refused {
            reason: reason.clone(),
            expected: entry.kind == Kind::Invalid,
        };
    }
    if entry.kind == Kind::Invalid && run.loaded {
        return Verdict::Accepted(entry.note.clone());
    }
    for (d, (&w, r)) in run.counts.iter().zip(&entry.counts).enumerate() {
        if let Some(r) = *r {
            if w != r {
                return Verdict::Disagrees {
                    depth: d + 1,
                    wopr: w,
                    reference: r,
                };
            }
        }
    }
    let known = entry.known_depth();
    let depth = known.min(run.counts.len());
    if known == 0 {
        if run.timed_out && run.counts.is_empty() {
            return Verdict::TimedOut { loaded: run.loaded };
        }
        return Verdict::Loaded {
            counts: run.counts.clone(),
        };
    }
    if depth == 0 {
        return Verdict::TimedOut { loaded: run.loaded };
    }
    Verdict::Agrees {
        depth,
        known,
        timed_out: run.timed_out && depth < known,
    }
}

/// The SHA-256 of `data` in lower-case hex, to tell whether a sheet is the
/// one a manifest counted.
pub fn sha256_hex(data: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_known_strings() {
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            sha256_hex(b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        );
    }

    #[test]
    fn manifest_lines_and_their_errors() {
        let text = "# a comment\n\
            a/b.kif\t-\t-\t9\t72\t-\tagreed\n\
            \n\
            c.kif\t-\t-\t-\t-\t-\tinvalid: unsafe rule\n";
        let m = parse_manifest(text).unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].counts, [Some(9), Some(72), None]);
        assert_eq!(m[0].known_depth(), 2);
        assert_eq!(
            (m[1].kind, m[1].note.as_str(), m[1].line),
            (Kind::Invalid, "unsafe rule", 4)
        );
        for (bad, says) in [
            ("a.kif\t-\t-\t1\t2\tagreed", "6 tab-separated columns"),
            ("../a.kif\t-\t-\t1\t2\t3\tagreed", "without '..'"),
            ("a.kif\tabc\t-\t1\t2\t3\tagreed", "commit 'abc'"),
            ("a.kif\t-\t-\tx\t2\t3\tagreed", "depth 1 count 'x'"),
            (
                "a.kif\t-\t-\t1\t-\t3\tagreed",
                "a count at depth 3 but none at depth 2",
            ),
            ("a.kif\t-\t-\t1\t2\t3\tmaybe", "reference 'maybe'"),
            ("a.kif\t-\t-\t1\t-\t-\tinvalid", "invalid sheet with counts"),
        ] {
            let e = parse_manifest(bad).unwrap_err().to_string();
            assert!(
                e.starts_with("manifest line 1: ") && e.contains(says),
                "{e}"
            );
        }
    }

    #[test]
    fn verdicts() {
        let entry = parse_manifest("a.kif\t-\t-\t9\t72\t504\tagreed")
            .unwrap()
            .remove(0);
        let run = |counts: Vec<u64>, timed_out| Run {
            loaded: true,
            counts,
            refused: None,
            timed_out,
        };
        assert_eq!(
            judge(&entry, &run(vec![9, 72, 504], false)).to_string(),
            "agrees to depth 3"
        );
        assert_eq!(
            judge(&entry, &run(vec![9, 70], true)),
            Verdict::Disagrees {
                depth: 2,
                wopr: 70,
                reference: 72
            }
        );
        let v = judge(&entry, &run(vec![9], true));
        assert_eq!(
            (v.word(), v.to_string().as_str()),
            ("timed out", "timed out; agrees to depth 1 of 3")
        );
        let refused = Run {
            loaded: false,
            counts: vec![],
            refused: Some("line 3: unsafe".into()),
            timed_out: false,
        };
        assert_eq!(judge(&entry, &refused).word(), "refused");
        let invalid = parse_manifest("a.kif\t-\t-\t-\t-\t-\tinvalid: x")
            .unwrap()
            .remove(0);
        assert!(judge(&invalid, &run(vec![1], false)).is_wrong());
        assert!(!judge(&invalid, &refused).is_wrong());
    }
}
