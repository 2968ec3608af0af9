//! A GDL position as text: a board where the sheet has `cell` facts.

use std::fmt;

use super::super::ast::Term;
use super::GdlState;
use wopr_core::game::{State, Turn};

impl fmt::Display for GdlState {
    /// A grid where the sheet has `(cell X Y V)` facts (X, Y numbers or
    /// names; V's first letter, `.` for `b`/blank), then every other true
    /// fact, then whose turn it is.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = &self.rules.reasoner;
        let mut cells = Vec::new();
        let mut rest = Vec::new();
        for b in self.facts.iter() {
            match r.base(b) {
                Term::Fn(name, args) if &**name == "cell" && args.len() == 3 => cells.push((
                    args[1].to_string(),
                    args[0].to_string(),
                    args[2].to_string(),
                )),
                t => rest.push(t.to_string()),
            }
        }
        if !cells.is_empty() {
            let key = |s: &String| (s.parse::<i64>().unwrap_or(i64::MAX), s.clone());
            let mut rows: Vec<String> = cells.iter().map(|c| c.0.clone()).collect();
            let mut cols: Vec<String> = cells.iter().map(|c| c.1.clone()).collect();
            rows.sort_by_key(key);
            rows.dedup();
            cols.sort_by_key(key);
            cols.dedup();
            for row in rows.iter().rev() {
                let line: Vec<String> = cols
                    .iter()
                    .map(|col| {
                        cells.iter().find(|c| &c.0 == row && &c.1 == col).map_or(
                            " ".to_string(),
                            |c| match c.2.as_str() {
                                "b" | "blank" | "empty" => ".".to_string(),
                                v => v.chars().next().unwrap_or('?').to_string(),
                            },
                        )
                    })
                    .collect();
                writeln!(f, "{}", line.join(" "))?;
            }
        }
        for t in rest {
            writeln!(f, "{t}")?;
        }
        match self.turn {
            Turn::Player(p) => write!(f, "{} to move", self.rules.names[p]),
            Turn::Chance => write!(f, "chance to move"),
            Turn::Simultaneous => write!(f, "everyone moves"),
            Turn::Terminal => write!(f, "game over"),
        }
    }
}

/// Whether a `cell` fact's value means an empty square.
fn blank(v: &Term) -> bool {
    matches!(v, Term::Const(c) if matches!(&**c, "b" | "blank" | "empty"))
}

/// Sorts a grid coordinate: numbers numerically, then names.
fn coordinate_key(t: &Term) -> (i64, String) {
    let s = t.to_string();
    (s.parse::<i64>().unwrap_or(i64::MAX), s)
}

impl GdlState {
    /// The square `(column, row)` (row 0 = the top, the largest row
    /// coordinate) that becomes occupied when `action` is played here: the
    /// one `(cell X Y V)` fact with a non-blank `V` that the move makes
    /// true; `None` where there is none or more than one, or the sheet has
    /// no `cell` facts.
    pub(super) fn occupied_cell(&self, action: wopr_core::game::Action) -> Option<(usize, usize)> {
        if !matches!(self.turn, Turn::Player(_)) {
            return None;
        }
        let r = &self.rules.reasoner;
        let cell = |b: usize| match r.base(b) {
            Term::Fn(name, args) if &**name == "cell" && args.len() == 3 => Some(args),
            _ => None,
        };
        let mut after = self.clone();
        after.apply(action);
        let mut new = after
            .facts
            .iter()
            .filter(|&b| !self.facts.contains(b))
            .filter_map(cell)
            .filter(|args| !blank(&args[2]));
        let (first, None) = (new.next()?, new.next()) else {
            return None;
        };
        let mut cols: Vec<(i64, String)> = Vec::new();
        let mut rows: Vec<(i64, String)> = Vec::new();
        for args in (0..r.num_base()).filter_map(cell) {
            cols.push(coordinate_key(&args[0]));
            rows.push(coordinate_key(&args[1]));
        }
        cols.sort();
        cols.dedup();
        rows.sort();
        rows.dedup();
        let col = cols.binary_search(&coordinate_key(&first[0])).ok()?;
        let row = rows.binary_search(&coordinate_key(&first[1])).ok()?;
        Some((col, rows.len() - 1 - row))
    }
}
