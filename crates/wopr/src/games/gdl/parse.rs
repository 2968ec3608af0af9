//! The reader of GDL rule sheets in KIF syntax: text in, a [`Sheet`] out.
//!
//! KIF as GDL uses it is a list of S-expressions: `;` starts a comment that
//! runs to the end of the line, parentheses make lists, `?x` is a variable,
//! and every other run of characters that is neither white space nor a
//! parenthesis is a symbol (numbers included: `100` is a constant like
//! `xplayer`). KIF is case-insensitive, so every name is lower-cased.
//!
//! Each top-level expression is a sentence:
//!
//! - `(<= head lit…)`, a rule (a rule with no body literal is a fact);
//! - `(rel t…)`, a fact, ground or not;
//! - `rel`, a bare name, a fact of a 0-ary relation (`(rel)` is read the
//!   same way, and so is `(f)` where a term belongs: the constant `f`; some
//!   old sheets write `(true (gameover))`).
//!
//! A body literal is an atom (`(rel t…)` or a bare `rel`), `(not L)`,
//! `(distinct t1 t2)` or `(or L…)`; `not`, `or` and `distinct` nest freely
//! here, and whether a nesting is valid GDL is left to
//! [`super::check`]. So are the names of heads: `(<= (not p) q)` reads as a
//! rule for a relation called `not`, which the checks then reject.
//!
//! The reader never panics: every malformed input gives a one-line
//! [`GdlError`] that names the line and says what was expected, and nesting
//! deeper than [`MAX_DEPTH`] is refused rather than overflowing the stack.

use std::collections::HashMap;

use super::ast::{Atom, Literal, Rule, Sheet, Sym, Term};
use super::GdlError;

/// How deeply lists may nest; deeper input is an error (no real rule sheet
/// comes close, and the reader recurses once per level).
pub const MAX_DEPTH: usize = 256;

/// Reads a rule sheet.
///
/// # Errors
///
/// A [`GdlError`] of one line, `line N: …`, for the first thing that is not
/// well-formed KIF or not a GDL sentence: unbalanced parentheses, an empty
/// list, a variable where a relation or function name belongs, `not` or
/// `distinct` with the wrong number of arguments, and so on.
///
/// # Examples
///
/// ```
/// use wopr::games::gdl::parse::parse;
///
/// let sheet = parse("(role x) ; the only player\n(<= (legal ?r go) (role ?r))").unwrap();
/// assert_eq!(sheet.rules.len(), 2);
/// assert_eq!(sheet.rules[1].line, 2);
/// assert_eq!(sheet.rules[1].to_string(), "(<= (legal ?r go) (role ?r))");
/// ```
pub fn parse(text: &str) -> Result<Sheet, GdlError> {
    let exprs = read_exprs(text)?;
    let mut reader = Reader::default();
    let rules = exprs
        .iter()
        .map(|e| reader.sentence(e))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Sheet { rules })
}

/// An S-expression with the line it starts on.
#[derive(Debug)]
enum Expr<'a> {
    /// A symbol or variable, as written.
    Sym(&'a str, usize),
    /// A parenthesised list.
    List(Vec<Expr<'a>>, usize),
}

impl Expr<'_> {
    fn line(&self) -> usize {
        match self {
            Expr::Sym(_, l) | Expr::List(_, l) => *l,
        }
    }
}

/// Shows an expression in an error message, cut short if it is long.
fn show(e: &Expr) -> String {
    fn write(e: &Expr, out: &mut String) {
        if out.len() > 60 {
            return;
        }
        match e {
            Expr::Sym(s, _) => out.push_str(s),
            Expr::List(items, _) => {
                out.push('(');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(' ');
                    }
                    write(item, out);
                }
                out.push(')');
            }
        }
    }
    let mut out = String::new();
    write(e, &mut out);
    if out.len() > 60 {
        let cut = (0..=60)
            .rev()
            .find(|&i| out.is_char_boundary(i))
            .unwrap_or(0);
        out.truncate(cut);
        out.push('…');
    }
    out
}

fn err(line: usize, msg: impl std::fmt::Display) -> GdlError {
    GdlError(format!("line {line}: {msg}"))
}

/// Splits the text into S-expressions, without recursion (so that deep
/// garbage cannot overflow the stack before the depth check sees it).
fn read_exprs(text: &str) -> Result<Vec<Expr<'_>>, GdlError> {
    // Lists still open: the line of their '(' and their items so far.
    let mut open: Vec<(usize, Vec<Expr>)> = Vec::new();
    let mut top = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let code = raw.split(';').next().unwrap_or("");
        let mut rest = code;
        while let Some(c) = rest.chars().next() {
            if c.is_whitespace() {
                rest = &rest[c.len_utf8()..];
                continue;
            }
            match c {
                '(' => {
                    if open.len() >= MAX_DEPTH {
                        return Err(err(
                            line,
                            format!("lists nest deeper than {MAX_DEPTH} levels"),
                        ));
                    }
                    open.push((line, Vec::new()));
                    rest = &rest[1..];
                }
                ')' => {
                    let Some((start, items)) = open.pop() else {
                        return Err(err(line, "unbalanced ')'"));
                    };
                    let list = Expr::List(items, start);
                    match open.last_mut() {
                        Some((_, parent)) => parent.push(list),
                        None => top.push(list),
                    }
                    rest = &rest[1..];
                }
                _ => {
                    let end = rest
                        .find(|c: char| c.is_whitespace() || c == '(' || c == ')')
                        .unwrap_or(rest.len());
                    let sym = Expr::Sym(&rest[..end], line);
                    match open.last_mut() {
                        Some((_, parent)) => parent.push(sym),
                        None => top.push(sym),
                    }
                    rest = &rest[end..];
                }
            }
        }
    }
    if let Some((start, _)) = open.first() {
        return Err(err(
            text.lines().count().max(1),
            format!("unclosed '(' opened at line {start}"),
        ));
    }
    Ok(top)
}

/// Turns S-expressions into sentences, sharing one [`Sym`] per name.
#[derive(Default)]
struct Reader {
    names: HashMap<String, Sym>,
}

impl Reader {
    fn intern(&mut self, name: &str) -> Sym {
        let lower = name.to_lowercase();
        if let Some(s) = self.names.get(&lower) {
            return s.clone();
        }
        let s: Sym = Sym::from(lower.as_str());
        self.names.insert(lower, s.clone());
        s
    }

    /// A top-level sentence: a rule or a fact.
    fn sentence(&mut self, e: &Expr) -> Result<Rule, GdlError> {
        let line = e.line();
        if let Expr::List(items, _) = e {
            if let Some(Expr::Sym(first, _)) = items.first() {
                if *first == "<=" {
                    let Some(head) = items.get(1) else {
                        return Err(err(line, "a rule (<= head body…) needs a head"));
                    };
                    let head = self.atom(head, "a rule's head")?;
                    let body = items[2..]
                        .iter()
                        .map(|l| self.literal(l))
                        .collect::<Result<Vec<_>, _>>()?;
                    return Ok(Rule { head, body, line });
                }
            }
        }
        let head = self.atom(e, "a sentence")?;
        Ok(Rule {
            head,
            body: Vec::new(),
            line,
        })
    }

    /// Checks that `name` may name a relation or function.
    fn name(&mut self, e: &Expr, what: &str) -> Result<Sym, GdlError> {
        match e {
            Expr::Sym(s, line) if s.starts_with('?') => Err(err(
                *line,
                format!("{what} must be a relation, found variable {s}"),
            )),
            Expr::Sym(s, line) if *s == "<=" => Err(err(
                *line,
                format!("{what} must be a relation, found a nested rule (<= …)"),
            )),
            Expr::Sym(s, _) => Ok(self.intern(s)),
            Expr::List(..) => Err(err(
                e.line(),
                format!("{what} must start with a name, found {}", show(e)),
            )),
        }
    }

    /// An atom: `rel`, `(rel)` or `(rel t…)`.
    fn atom(&mut self, e: &Expr, what: &str) -> Result<Atom, GdlError> {
        match e {
            Expr::Sym(..) => Ok(Atom {
                rel: self.name(e, what)?,
                args: Vec::new(),
            }),
            Expr::List(items, line) => {
                let Some(first) = items.first() else {
                    return Err(err(*line, format!("empty list () where {what} belongs")));
                };
                let rel = self.name(first, what)?;
                let args = items[1..]
                    .iter()
                    .map(|t| self.term(t))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Atom { rel, args })
            }
        }
    }

    /// A body literal.
    fn literal(&mut self, e: &Expr) -> Result<Literal, GdlError> {
        let keyword = match e {
            Expr::Sym(s, _) => Some(s.to_lowercase()),
            Expr::List(items, _) => match items.first() {
                Some(Expr::Sym(s, _)) => Some(s.to_lowercase()),
                _ => None,
            },
        };
        let line = e.line();
        let args = match e {
            Expr::List(items, _) if !items.is_empty() => &items[1..],
            _ => &[][..],
        };
        match (keyword.as_deref(), e) {
            (Some("not"), Expr::Sym(..)) => {
                Err(err(line, "(not …) takes one literal, found bare not"))
            }
            (Some("or"), Expr::Sym(..)) => Err(err(line, "(or …) takes literals, found bare or")),
            (Some("distinct"), Expr::Sym(..)) => Err(err(
                line,
                "(distinct …) takes two terms, found bare distinct",
            )),
            (Some("not"), _) => match args {
                [inner] => Ok(Literal::Not(Box::new(self.literal(inner)?))),
                _ => Err(err(
                    line,
                    format!(
                        "(not …) takes one literal, found {} in {}",
                        args.len(),
                        show(e)
                    ),
                )),
            },
            (Some("distinct"), _) => match args {
                [a, b] => Ok(Literal::Distinct(self.term(a)?, self.term(b)?)),
                _ => Err(err(
                    line,
                    format!(
                        "(distinct …) takes two terms, found {} in {}",
                        args.len(),
                        show(e)
                    ),
                )),
            },
            (Some("or"), _) => {
                if args.is_empty() {
                    return Err(err(line, "(or …) needs at least one literal"));
                }
                Ok(Literal::Or(
                    args.iter()
                        .map(|l| self.literal(l))
                        .collect::<Result<Vec<_>, _>>()?,
                ))
            }
            _ => Ok(Literal::Pos(self.atom(e, "a literal")?)),
        }
    }

    /// A term: a constant, a variable or a function term.
    fn term(&mut self, e: &Expr) -> Result<Term, GdlError> {
        match e {
            Expr::Sym(s, line) => match s.strip_prefix('?') {
                Some("") => Err(err(*line, "a variable needs a name after '?'")),
                Some(v) => Ok(Term::Var(self.intern(v))),
                None if *s == "<=" => Err(err(*line, "a term cannot be <=")),
                None => Ok(Term::Const(self.intern(s))),
            },
            Expr::List(items, line) => {
                let Some(first) = items.first() else {
                    return Err(err(*line, "empty list () where a term belongs"));
                };
                let f = match first {
                    Expr::Sym(s, l) if s.starts_with('?') => {
                        return Err(err(
                            *l,
                            format!("a function term must start with a name, found variable {s}"),
                        ))
                    }
                    Expr::Sym(s, l) if *s == "<=" => {
                        return Err(err(*l, "a term cannot be a rule (<= …)"))
                    }
                    Expr::Sym(s, _) => self.intern(s),
                    Expr::List(..) => {
                        return Err(err(
                            *line,
                            format!("a function term must start with a name, found {}", show(e)),
                        ))
                    }
                };
                if items.len() == 1 {
                    // Some old sheets write `(true (gameover))`; a function
                    // of no arguments is a constant.
                    return Ok(Term::Const(f));
                }
                let args = items[1..]
                    .iter()
                    .map(|t| self.term(t))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Term::Fn(f, args))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(text: &str) -> String {
        parse(text).unwrap_err().0
    }

    #[test]
    fn reads_facts_rules_and_comments() {
        let sheet = parse(
            "; Tic-tac-toe, a fragment\n\
             (ROLE xplayer)\n\
             (init (cell 1 1 b)) ; a comment\n\
             terminal\n\
             (<= (legal ?W (mark ?X ?Y))\n\
                 (true (cell ?x ?y b))\n\
                 (not (true (control ?w)))\n\
                 (distinct ?x 3)\n\
                 (or open (not (distinct ?y 1))))\n",
        )
        .unwrap();
        let shown: Vec<String> = sheet.rules.iter().map(|r| r.to_string()).collect();
        assert_eq!(
            shown,
            [
                "(role xplayer)",
                "(init (cell 1 1 b))",
                "terminal",
                "(<= (legal ?w (mark ?x ?y)) (true (cell ?x ?y b)) (not (true (control ?w))) \
                 (distinct ?x 3) (or open (not (distinct ?y 1))))",
            ]
        );
        let lines: Vec<usize> = sheet.rules.iter().map(|r| r.line).collect();
        assert_eq!(lines, [2, 3, 4, 5]);
        assert_eq!(sheet.rules[2].head.args.len(), 0);
        // Names are shared: one allocation per distinct name.
        let r = &sheet.rules[3];
        let Term::Var(w1) = &r.head.args[0] else {
            panic!()
        };
        let Literal::Not(inner) = &r.body[1] else {
            panic!()
        };
        let Literal::Pos(a) = &**inner else { panic!() };
        let Term::Fn(_, args) = &a.args[0] else {
            panic!()
        };
        let Term::Var(w2) = &args[0] else { panic!() };
        assert!(std::sync::Arc::ptr_eq(w1, w2));
    }

    #[test]
    fn zero_ary_forms() {
        let sheet = parse("(<= (terminal) (line x))\n(<= terminal open)").unwrap();
        assert_eq!(sheet.rules[0].head, sheet.rules[1].head);
        assert_eq!(sheet.rules[1].body[0].to_string(), "open");
        // A function term with no arguments is a constant.
        let sheet = parse("(<= (next (over)) (true over))").unwrap();
        assert_eq!(sheet.rules[0].to_string(), "(<= (next over) (true over))");
        let sheet = parse("(<= done)").unwrap();
        assert!(sheet.rules[0].body.is_empty());
    }

    #[test]
    fn windows_line_ends() {
        let sheet = parse("(role x)\r\n; note\r\n(init\r\n a)\r\n").unwrap();
        let lines: Vec<usize> = sheet.rules.iter().map(|r| r.line).collect();
        assert_eq!(lines, [1, 3]);
        assert_eq!(sheet.rules[1].to_string(), "(init a)");
    }

    #[test]
    fn one_line_errors() {
        assert_eq!(msg("(role x)\n(init a))"), "line 2: unbalanced ')'");
        assert_eq!(
            msg("(role x)\n\n(<= (p ?x)\n (q ?x)"),
            "line 4: unclosed '(' opened at line 3"
        );
        assert_eq!(
            msg("(role x)\n(<= ?x (q ?x))"),
            "line 2: a rule's head must be a relation, found variable ?x"
        );
        assert_eq!(
            msg("(role x)\n\n\n\n\n\n()"),
            "line 7: empty list () where a sentence belongs"
        );
        assert_eq!(
            msg("(<= p\n  (not q r))"),
            "line 2: (not …) takes one literal, found 2 in (not q r)"
        );
        assert_eq!(
            msg("(<= p (distinct ?x))"),
            "line 1: (distinct …) takes two terms, found 1 in (distinct ?x)"
        );
        assert_eq!(
            msg("(<= p (or))"),
            "line 1: (or …) needs at least one literal"
        );
        assert_eq!(msg("(<=)"), "line 1: a rule (<= head body…) needs a head");
        assert_eq!(
            msg("?x"),
            "line 1: a sentence must be a relation, found variable ?x"
        );
        assert_eq!(msg("(p ())"), "line 1: empty list () where a term belongs");
        assert_eq!(msg("(p ?)"), "line 1: a variable needs a name after '?'");
        assert_eq!(
            msg("(<= p (?r a))"),
            "line 1: a literal must be a relation, found variable ?r"
        );
        assert_eq!(
            msg("(<= p ((q) a))"),
            "line 1: a literal must start with a name, found (q)"
        );
        assert_eq!(
            msg("(<= p (<= q r))"),
            "line 1: a literal must be a relation, found a nested rule (<= …)"
        );
        assert!(msg(&"(".repeat(10_000)).contains("nest deeper than 256"));
    }

    #[test]
    fn errors_are_single_lines() {
        for bad in ["(p\n(q", "(<= (p\n?x) (not\na b))", ")"] {
            let m = msg(bad);
            assert!(!m.contains('\n'), "{m}");
            assert!(m.starts_with("line "), "{m}");
        }
    }

    /// Every prefix of a real sheet, and some byte-level garbage made from
    /// it, must give a sheet or an error, never a panic.
    #[test]
    fn never_panics() {
        let text = "; héllo\n(role xplayer) (role oplayer)\n\
                    (<= (next (cell ?m ?n x)) (does xplayer (mark ?m ?n)) (true (cell ?m ?n b)))\n\
                    (<= (legal ?w noop) (not (true (control ?w))) (or (p ?w) (not (distinct ?w a))))\n\
                    (<= terminal (not open))\n";
        for (end, _) in text.char_indices() {
            let _ = parse(&text[..end]);
            let _ = parse(&text[end..]);
        }
        // A small xorshift generator makes reproducible garbage.
        let alphabet: Vec<char> = "()?;<= \n\tabxyz19é(".chars().collect();
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for len in 0..400 {
            let s: String = (0..len % 60)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    alphabet[(state % alphabet.len() as u64) as usize]
                })
                .collect();
            if let Err(e) = parse(&s) {
                assert!(
                    e.0.starts_with("line ") && !e.0.contains('\n'),
                    "{s:?}: {e}"
                );
            }
        }
    }
}
