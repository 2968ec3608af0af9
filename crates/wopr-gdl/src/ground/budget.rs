//! The memory budget of grounding: what a sheet's grounding may hold before
//! it is refused, and the estimate of what it holds, kept as it grows.
//!
//! The estimate prices what the grounder has made so far, item by item:
//! every hash-consed term (its node, its arguments, its entry in the table
//! of terms), every possible atom and each of its entries in the indexes by
//! argument (an index key the first time a value is seen there), every
//! ground rule and every literal of its body, and the match buffer of the
//! join under way. A ground rule and its literals are priced for what the
//! reasoner compiles them into as well, so that a sheet whose grounding
//! stays within the budget also loads within it; a join is stopped as soon
//! as its matches, priced as the ground rules they will become, would pass
//! the budget, before any of them is made. Where grounding passes the
//! budget, the reasoner drops the ground rules and carries the fixpoint on
//! for the possible atoms alone (the non-ground evaluator), within the same
//! budget.
//!
//! The prices were fitted to the peak resident memory of loading sheets
//! (`/usr/bin/time -f %M wopr gdl check SHEET`, less the program's own
//! 6 MB): on the 70 sheets of ggp-org's repository that load ground within
//! 15 s and peak above 12 MB (up to 420 MB), the measured peak is 0.48 to
//! 1.08 times the estimate, 0.80 at the median, so the estimate errs on
//! the side of refusing early; what it overprices most is literals that
//! compiling folds away. A refusal comes before compiling, with the
//! process at two thirds of the budget or so (chess: 660 to 750 MB at 1 GiB).
//! Measured again once terms no longer had a key allocated each (2026-11-29):
//! 0.34 to 1.20 times the estimate on the 60 sheets that ground, 0.74 at the
//! median (racer4 1.20, atariGo_7x7 1.10); the prices were kept.
//! `docs/results/gdl-speed.md` has the figures.
//!
//! The budget is [`DEFAULT_BUDGET`] (1 GiB) unless the game spec says
//! `memory=SIZE` or the environment variable [`BUDGET_ENV`] does: a fixed
//! size rather than a share of the machine's memory, so that whether a
//! sheet loads does not depend on where it is loaded.

use std::fmt;

use super::terms::FxMap;
use crate::GdlError;

/// A memory budget for loading a sheet, in bytes (see the module docs):
/// its size, and what reading the sheet already holds when grounding
/// starts ([`Budget::holding`]), which grounding may not use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Budget {
    bytes: u64,
    held: u64,
}

/// The budget when none is given: 1 GiB.
pub const DEFAULT_BUDGET: Budget = Budget {
    bytes: 1 << 30,
    held: 0,
};

/// The environment variable that sets the budget where a game spec's
/// `memory=` does not: `WOPR_GDL_MEMORY=4G`.
pub const BUDGET_ENV: &str = "WOPR_GDL_MEMORY";

/// The smallest and largest budgets accepted: 1 KiB and 1024 TiB.
const MIN: u64 = 1 << 10;
const MAX: u64 = 1 << 50;

/// The units of a size, each 1024 times the one before.
const UNITS: [&str; 5] = ["B", "K", "M", "G", "T"];

/// What a budget may be written as, for errors.
pub const ACCEPTED: &str = "a number and a unit B, K, M, G or T (powers of 1024; KB or KiB \
                            and so on too), such as 512M, 1.5G or 4GiB, from 1K to 1024T";

impl Default for Budget {
    fn default() -> Budget {
        DEFAULT_BUDGET
    }
}

impl Budget {
    /// A budget of `bytes` bytes (any number: this one is not checked
    /// against what [`Budget::parse`] accepts).
    pub const fn from_bytes(bytes: u64) -> Budget {
        Budget { bytes, held: 0 }
    }

    /// The budget in bytes.
    pub const fn bytes(self) -> u64 {
        self.bytes
    }

    /// This budget with `held` bytes already taken (the sheet's syntax
    /// tree, and its text where it is still held, while the sheet is
    /// grounded): what grounding may use is the rest, [`Budget::room`];
    /// errors still name the whole budget.
    pub const fn holding(self, held: u64) -> Budget {
        Budget {
            bytes: self.bytes,
            held,
        }
    }

    /// What grounding may use: the budget less what is held
    /// ([`Budget::holding`]).
    pub const fn room(self) -> u64 {
        self.bytes.saturating_sub(self.held)
    }

    /// Reads a size such as `512M`, `1.5G` or `4GiB` (see [`ACCEPTED`]);
    /// the error says what was wrong and what is accepted, in one line.
    pub fn parse(text: &str) -> Result<Budget, String> {
        let bad = |why: &str| format!("'{text}' is {why} (accepted: {ACCEPTED})");
        let t = text.trim();
        let split = t
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(t.len());
        let (number, unit) = t.split_at(split);
        let unit = unit.trim_start().to_ascii_uppercase();
        let unit = unit
            .strip_suffix("IB")
            .or_else(|| unit.strip_suffix('B').filter(|u| !u.is_empty()))
            .unwrap_or(&unit);
        if number.is_empty() {
            return Err(bad("not a memory size"));
        }
        let Some(power) = UNITS.iter().position(|&u| u == unit) else {
            return Err(bad(if unit.is_empty() {
                "a number without a unit"
            } else {
                "not a memory size"
            }));
        };
        let value = match number.parse::<f64>() {
            Ok(v) if v.is_finite() => v * (1u64 << (10 * power)) as f64,
            _ => return Err(bad("not a memory size")),
        };
        if !(MIN as f64..=MAX as f64).contains(&value) {
            return Err(bad("out of range"));
        }
        Ok(Budget::from_bytes(value.round() as u64))
    }

    /// The budget [`BUDGET_ENV`] sets, else [`DEFAULT_BUDGET`]; a value it
    /// cannot read is a one-line error.
    pub fn from_env() -> Result<Budget, String> {
        match std::env::var(BUDGET_ENV) {
            Ok(v) => Budget::parse(&v).map_err(|e| format!("{BUDGET_ENV}: {e}")),
            Err(std::env::VarError::NotPresent) => Ok(DEFAULT_BUDGET),
            Err(std::env::VarError::NotUnicode(_)) => {
                Err(format!("{BUDGET_ENV} is not text (accepted: {ACCEPTED})"))
            }
        }
    }

    /// The budget as [`Budget::parse`] reads it back, in the largest unit
    /// that divides it: `2G`, `1536M`, `1000B`.
    pub fn short(self) -> String {
        let power = (0..UNITS.len())
            .rev()
            .find(|&p| self.bytes.is_multiple_of(1u64 << (10 * p)))
            .unwrap_or(0);
        format!("{}{}", self.bytes >> (10 * power), UNITS[power])
    }
}

impl fmt::Display for Budget {
    /// `1 GiB`, `1.5 GiB`, `512 MiB`, `1000 B`: the largest unit the budget
    /// reaches, with a decimal where it does not divide.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let power = (0..UNITS.len())
            .rev()
            .find(|&p| self.bytes >= 1u64 << (10 * p))
            .unwrap_or(0);
        if power == 0 {
            return write!(f, "{} B", self.bytes);
        }
        let unit = 1u64 << (10 * power);
        let name = format!("{}iB", UNITS[power]);
        if self.bytes.is_multiple_of(unit) {
            write!(f, "{} {name}", self.bytes / unit)
        } else {
            write!(f, "{:.1} {name}", self.bytes as f64 / unit as f64)
        }
    }
}

impl std::str::FromStr for Budget {
    type Err = String;
    fn from_str(s: &str) -> Result<Budget, String> {
        Budget::parse(s)
    }
}

/// The price of a hash-consed term, its arguments aside: its node and depth
/// (16 bytes), its place in the atom table and the reasoner's numbering (8),
/// its key in the table of terms (a boxed slice, 32 bytes as allocated, and
/// a 24-byte slot at a load of about 0.6).
pub(super) const TERM: u64 = 96;
/// The price of one argument of a term (in the node's list and its key).
pub(super) const ARG: u64 = 8;
/// The price of a possible atom, its index entries aside: its place in its
/// relation's list and the reasoner's tables over atoms (its rules by head,
/// its edges in the dependency graph, its component, its value).
pub(super) const ATOM: u64 = 48;
/// The price of one entry of an index by argument (a posting, with the
/// growth of its list).
pub(super) const POSTING: u64 = 8;
/// The price of a new key of an index by argument: its slot in the map and
/// its posting list's first allocation.
pub(super) const KEY: u64 = 96;
/// The price of a ground rule: head, start and end of its body (12 bytes),
/// kept twice while the negative literals that never hold are dropped,
/// and what the reasoner compiles it into (its rule, its place in the
/// order by head and in the occurrence lists, its step).
pub(super) const RULE: u64 = 64;
/// The price of one body literal of a ground rule: kept twice while
/// grounding ends (8 bytes), then, where compiling does not fold it away,
/// in the compiled body, the dependency graph and the occurrence lists.
pub(super) const LITERAL: u64 = 14;

/// Adds posting `p` to `key`'s list in an index by argument; returns its
/// price ([`POSTING`], and [`KEY`] if the key is new).
pub(super) fn post(index: &mut FxMap<u32, Vec<u32>>, key: u32, p: u32) -> u64 {
    let list = index.entry(key).or_default();
    list.push(p);
    if list.len() == 1 {
        POSTING + KEY
    } else {
        POSTING
    }
}

/// The estimated bytes of a grounding of `terms` terms with `args`
/// arguments in all, `atoms` possible atoms, `rules` ground rules with
/// `literals` body literals in all, and `extra` bytes priced as they were
/// made (index entries, match buffers).
pub(super) fn estimate(
    terms: usize,
    args: usize,
    atoms: usize,
    rules: usize,
    literals: usize,
    extra: u64,
) -> u64 {
    let n = |x: usize, price: u64| (x as u64).saturating_mul(price);
    n(terms, TERM)
        .saturating_add(n(args, ARG))
        .saturating_add(n(atoms, ATOM))
        .saturating_add(n(rules, RULE))
        .saturating_add(n(literals, LITERAL))
        .saturating_add(extra)
}

/// Where grounding passed its budget: the rule being grounded, what had
/// been made so far, and the matches its join had found in the round where
/// the join's were what passed it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Over {
    pub(crate) line: usize,
    pub(crate) rules: usize,
    pub(crate) atoms: usize,
    pub(crate) matches: usize,
    pub(crate) budget: Budget,
}

impl Over {
    /// What was exceeded, where, and how far grounding had got.
    fn what(&self) -> String {
        format!(
            "line {}: grounding exceeds the memory budget of {} at this rule ({})",
            self.line,
            self.budget,
            self.so_far(true)
        )
    }

    /// How far grounding had got: its ground rules if `rules`, atoms, and
    /// the join's matches if they passed the budget.
    fn so_far(&self, rules: bool) -> String {
        let mut s = if rules {
            format!("{} ground rules and ", digits(self.rules))
        } else {
            String::new()
        };
        s += &format!("{} atoms so far", digits(self.atoms));
        if self.matches > 0 {
            s += &format!(", {} matches of its join", digits(self.matches));
        }
        s
    }

    /// The error when, the ground rules dropped, the possible atoms alone,
    /// which the non-ground evaluator needs, passed the budget too (`atoms`
    /// says where).
    fn and_atoms(&self, atoms: &Over) -> String {
        format!(
            "{}, and the possible atoms alone, which the non-ground evaluator needs, exceed it \
             too (line {}, {}): the game is too large to load within {}; {}",
            self.what(),
            atoms.line,
            atoms.so_far(false),
            self.budget,
            self.raise()
        )
    }

    /// How to raise the budget.
    fn raise(&self) -> String {
        raise(self.budget)
    }
}

/// How to raise `budget` (to twice it, for instance), for errors.
pub(crate) fn raise(budget: Budget) -> String {
    let twice = Budget::from_bytes(budget.bytes.saturating_mul(2).min(MAX)).short();
    format!(
        "raise the budget with memory=SIZE in the game spec (gdl:PATH.kif,memory={twice}) \
         or the environment variable {BUDGET_ENV}={twice}"
    )
}

/// Why grounding stopped: the sheet (unsafe, nested without end, …) or the
/// budget.
pub(crate) enum Refusal {
    /// What is wrong with the sheet.
    Sheet(GdlError),
    /// Where the budget was passed.
    Over(Over),
    /// Where the budget was passed with the ground rules, then with the
    /// possible atoms alone.
    Both(Over, Over),
}

impl From<GdlError> for Refusal {
    fn from(e: GdlError) -> Refusal {
        Refusal::Sheet(e)
    }
}

impl From<Refusal> for GdlError {
    fn from(r: Refusal) -> GdlError {
        match r {
            Refusal::Sheet(e) => e,
            Refusal::Over(o) => GdlError(format!("{}; {}", o.what(), o.raise())),
            Refusal::Both(rules, atoms) => GdlError(rules.and_atoms(&atoms)),
        }
    }
}

/// `n` with its thousands separated by commas.
fn digits(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_with_their_units() {
        let b = |t: &str| Budget::parse(t).unwrap().bytes();
        assert_eq!(b("512M"), 512 << 20);
        assert_eq!(b("1.5G"), 3 << 29);
        assert_eq!(b("4GiB"), 4 << 30);
        assert_eq!(b("4 gb"), 4 << 30);
        assert_eq!(b("64k"), 64 << 10);
        assert_eq!(b("2048B"), 2048);
        assert_eq!(b("1T"), 1 << 40);
        assert_eq!(b(" 1024T "), 1 << 50);
    }

    #[test]
    fn bad_sizes_are_one_line_errors_saying_what_is_accepted() {
        for (text, why) in [
            ("", "not a memory size"),
            ("512", "without a unit"),
            ("lots", "not a memory size"),
            ("G", "not a memory size"),
            ("12Q", "not a memory size"),
            ("1.2.3M", "not a memory size"),
            ("-1G", "not a memory size"),
            ("0M", "out of range"),
            ("100B", "out of range"),
            ("2000T", "out of range"),
            ("1e9B", "not a memory size"),
            ("MB", "not a memory size"),
        ] {
            let e = Budget::parse(text).unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
            assert!(e.contains("accepted: ") && e.contains("512M"), "{e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }

    #[test]
    fn budgets_print_for_people_and_for_specs() {
        assert_eq!(DEFAULT_BUDGET.to_string(), "1 GiB");
        assert_eq!(DEFAULT_BUDGET.short(), "1G");
        let b = Budget::parse("1.5G").unwrap();
        assert_eq!(
            (b.to_string(), b.short()),
            ("1.5 GiB".into(), "1536M".into())
        );
        assert_eq!(Budget::from_bytes(1000).to_string(), "1000 B");
        assert_eq!(Budget::from_bytes(1000).short(), "1000B");
        for text in ["3G", "1536M", "5000B", "7K"] {
            assert_eq!(Budget::parse(text).unwrap().short(), text);
        }
        assert_eq!(digits(1_234_567), "1,234,567");
        assert_eq!(digits(999), "999");
    }

    #[test]
    fn estimates_grow_with_every_item_and_do_not_overflow() {
        let base = estimate(10, 20, 5, 3, 9, 0);
        assert!(estimate(11, 20, 5, 3, 9, 0) > base);
        assert!(estimate(10, 20, 5, 4, 9, 0) > base);
        assert!(estimate(10, 20, 5, 3, 10, 0) > base);
        assert_eq!(estimate(usize::MAX, 1, 1, 1, 1, 1), u64::MAX);
    }
}
