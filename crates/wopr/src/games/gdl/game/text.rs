//! A GDL position as text: a board where the sheet has `cell` facts.

use std::fmt;

use super::super::ast::Term;
use super::GdlState;
use crate::game::Turn;

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
