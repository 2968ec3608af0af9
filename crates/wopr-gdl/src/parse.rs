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
//!
//! **Files as they come.** A line ends with LF, CRLF or a bare CR (old Mac
//! files), alike: a `;` comment ends there and line numbers count it. A
//! byte-order mark (U+FEFF) is white space, at the start of the file where
//! editors put it or anywhere else. The text is read as bytes: names must
//! be UTF-8 (a byte that is not is a one-line error naming its line), and
//! comments may hold any bytes.
//!
//! **Memory.** [`parse_within`] reads within a memory [`Budget`]: the text,
//! the expressions of the sentence being read, every sentence kept and
//! every distinct name are priced as they are made (their sizes as
//! allocated, from `size_of` and the vectors' capacities, plus
//! [`ALLOC`] a heap block), and reading stops with a one-line error
//! naming the budget the moment the total would pass it. A sentence
//! written twice is kept once (GDL's rules are a set), so a sheet of one
//! fact repeated costs what one fact costs.

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::mem::size_of;

use super::ast::{Atom, Literal, Rule, Sheet, Sym, Term};
use super::ground::budget::raise;
use super::ground::Budget;
use super::GdlError;

/// How deeply lists may nest; deeper input is an error (no real rule sheet
/// comes close, and the reader recurses once per level).
pub const MAX_DEPTH: usize = 256;

/// What a heap block costs beyond the bytes it holds (the allocator's
/// header and rounding), as the reader prices it.
pub const ALLOC: u64 = 16;

/// A kept sentence's price in the table that finds repeated sentences
/// (its hash and index, the table's slack and its growth).
const SEEN: u64 = 64;

/// A distinct name's price beyond its text: the shared string's counts
/// and block, its slot in the table of names, the table's growth.
const NAME: u64 = 96;

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
/// use wopr_gdl::parse::parse;
///
/// let sheet = parse("(role x) ; the only player\n(<= (legal ?r go) (role ?r))").unwrap();
/// assert_eq!(sheet.rules.len(), 2);
/// assert_eq!(sheet.rules[1].line, 2);
/// assert_eq!(sheet.rules[1].to_string(), "(<= (legal ?r go) (role ?r))");
/// // Old Mac files end their lines with a bare CR.
/// assert_eq!(parse("(role x) ; a comment\r(init a)").unwrap().rules[1].line, 2);
/// ```
pub fn parse(text: &str) -> Result<Sheet, GdlError> {
    parse_within(text.as_bytes(), Budget::from_bytes(u64::MAX)).map(|p| p.sheet)
}

/// A sheet read by [`parse_within`], with what its syntax tree holds.
#[derive(Debug)]
pub struct Parsed {
    /// The sheet.
    pub sheet: Sheet,
    /// The bytes its syntax tree and names hold, by the reader's prices
    /// (the text not included).
    pub bytes: u64,
}

/// Reads a rule sheet from its bytes within `budget`, which the text
/// itself counts against (the caller holds it while it is read).
///
/// # Errors
///
/// As [`parse`]; a name that is not UTF-8; and a one-line error naming
/// the line, the budget and how to raise it where the text and what
/// reading has made would pass the budget, before they do.
pub fn parse_within(text: &[u8], budget: Budget) -> Result<Parsed, GdlError> {
    let mut meter = Meter {
        held: text.len() as u64,
        text: text.len() as u64,
        pending: 0,
        limit: budget.room(),
        budget,
        sentences: 0,
    };
    meter.check(1)?;
    let mut lexer = Lexer {
        text,
        at: 0,
        line: 1,
        open: Vec::new(),
    };
    let mut reader = Reader::default();
    let mut rules: Vec<Rule> = Vec::new();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    while let Some(e) = lexer.sentence(&mut meter)? {
        let rule = reader.sentence(&e, &mut meter)?;
        let bytes = rule_bytes(&rule);
        meter.check_with(rule.line, bytes)?;
        drop(e);
        meter.pending = 0;
        let key = {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            rule.head.hash(&mut h);
            rule.body.hash(&mut h);
            h.finish()
        };
        match seen.get(&key) {
            Some(&i)
                if rules[i as usize].head == rule.head && rules[i as usize].body == rule.body =>
            {
                // Written before: GDL's rules are a set.
                continue;
            }
            Some(_) => {}
            None => {
                meter.check_with(rule.line, SEEN)?;
                meter.held += SEEN;
                seen.insert(key, rules.len() as u32);
            }
        }
        if rules.len() == rules.capacity() {
            // The vector grows by doubling; while it moves, both blocks
            // are held.
            let old = rules.capacity();
            let new = old + old.max(8);
            let block = (new * size_of::<Rule>()) as u64 + ALLOC;
            meter.check_with(rule.line, bytes + block)?;
            rules.reserve_exact(new - rules.len());
            let old_block = if old == 0 {
                0
            } else {
                (old * size_of::<Rule>()) as u64 + ALLOC
            };
            meter.held += block - old_block;
        }
        meter.held += bytes;
        meter.sentences += 1;
        rules.push(rule);
    }
    let bytes = meter.held - meter.text;
    Ok(Parsed {
        sheet: Sheet { rules },
        bytes,
    })
}

/// Reads the file at `path` as bytes for [`parse_within`] under
/// `budget`: a file larger than the budget is refused before any of it is
/// read, and no more than the budget is ever read (a file that grows, or
/// a pipe).
///
/// # Errors
///
/// One line: the file cannot be read, or its size passes the budget
/// (naming both and how to raise the budget).
pub fn read_file(path: &std::path::Path, budget: Budget) -> Result<Vec<u8>, GdlError> {
    use std::io::Read;
    let cannot = |e: std::io::Error| GdlError(format!("cannot read the rule sheet: {e}"));
    let file = std::fs::File::open(path).map_err(cannot)?;
    let size = file.metadata().map_err(cannot)?.len();
    let room = budget.room();
    let over = |size: u64| {
        GdlError(format!(
            "the sheet's {size} bytes pass the memory budget of {} before it is read; {}",
            budget,
            raise(budget)
        ))
    };
    if size > room {
        return Err(over(size));
    }
    let mut bytes = Vec::with_capacity(size as usize);
    file.take(room.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > room {
        return Err(over(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The price of one expression in its list (its slot, twice over for the
/// list's growth by doubling).
const EXPR: u64 = 2 * size_of::<Expr>() as u64;
/// The price of a list, its items aside: its vector's first block.
const LIST: u64 = ALLOC + 4 * size_of::<Expr>() as u64;

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

/// The character that starts at `text[i]` (not ASCII), if the bytes there
/// are UTF-8; with its length.
fn char_at(text: &[u8], i: usize) -> Option<(char, usize)> {
    let width = match text[i] {
        0xc2..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf4 => 4,
        _ => return None,
    };
    let c = std::str::from_utf8(text.get(i..i + width)?)
        .ok()?
        .chars()
        .next()?;
    Some((c, width))
}

/// Whether `c` separates symbols: white space, or a byte-order mark.
fn is_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// Splits the text into top-level S-expressions, one at a time and
/// without recursion (so that deep garbage cannot overflow the stack
/// before the depth check sees it). A line ends with LF, CRLF or CR.
struct Lexer<'a> {
    text: &'a [u8],
    /// The next byte to read.
    at: usize,
    /// Its line.
    line: usize,
    /// Lists still open: the line of their '(' and their items so far.
    open: Vec<(usize, Vec<Expr<'a>>)>,
}

impl<'a> Lexer<'a> {
    /// The next top-level expression, `None` at the end of the text; the
    /// expressions it makes are priced in `meter.pending`.
    fn sentence(&mut self, meter: &mut Meter) -> Result<Option<Expr<'a>>, GdlError> {
        let text = self.text;
        while let Some(&b) = text.get(self.at) {
            let line = self.line;
            match b {
                b'\n' => {
                    self.line += 1;
                    self.at += 1;
                }
                b'\r' => {
                    self.line += 1;
                    self.at += 1;
                    if text.get(self.at) == Some(&b'\n') {
                        self.at += 1;
                    }
                }
                b';' => {
                    // A comment, to the end of the line (any bytes).
                    self.at += text[self.at..]
                        .iter()
                        .position(|&c| c == b'\n' || c == b'\r')
                        .unwrap_or(text.len() - self.at);
                }
                b'(' => {
                    if self.open.len() >= MAX_DEPTH {
                        return Err(err(
                            line,
                            format!("lists nest deeper than {MAX_DEPTH} levels"),
                        ));
                    }
                    meter.pending += LIST;
                    meter.check(line)?;
                    self.open.push((line, Vec::new()));
                    self.at += 1;
                }
                b')' => {
                    let Some((start, items)) = self.open.pop() else {
                        return Err(err(line, "unbalanced ')'"));
                    };
                    self.at += 1;
                    let list = Expr::List(items, start);
                    match self.open.last_mut() {
                        Some((_, parent)) => parent.push(list),
                        None => return Ok(Some(list)),
                    }
                }
                b' ' | b'\t' | 0x0b | 0x0c => self.at += 1,
                _ if b >= 0x80 && char_at(text, self.at).is_some_and(|(c, _)| is_space(c)) => {
                    self.at += char_at(text, self.at).map_or(1, |(_, w)| w);
                }
                _ => {
                    let sym = Expr::Sym(self.symbol()?, line);
                    meter.pending += EXPR;
                    meter.check(line)?;
                    match self.open.last_mut() {
                        Some((_, parent)) => parent.push(sym),
                        None => return Ok(Some(sym)),
                    }
                }
            }
        }
        if let Some((start, _)) = self.open.first() {
            // The last line with something on it.
            let ends = matches!(text.last(), Some(b'\n' | b'\r'));
            let last = if ends { self.line - 1 } else { self.line };
            return Err(err(
                last.max(1),
                format!("unclosed '(' opened at line {start}"),
            ));
        }
        Ok(None)
    }

    /// The symbol that starts here: up to white space, a parenthesis or a
    /// `;`.
    fn symbol(&mut self) -> Result<&'a str, GdlError> {
        let text = self.text;
        let start = self.at;
        while let Some(&b) = text.get(self.at) {
            if b < 0x80 {
                if b.is_ascii_whitespace() || matches!(b, 0x0b | b'(' | b')' | b';') {
                    break;
                }
                self.at += 1;
                continue;
            }
            match char_at(text, self.at) {
                Some((c, _)) if is_space(c) => break,
                Some((_, w)) => self.at += w,
                None => {
                    return Err(err(
                        self.line,
                        format!(
                            "byte 0x{b:02x} is not UTF-8 text (names are ASCII or UTF-8; comments \
                             may hold any bytes)"
                        ),
                    ))
                }
            }
        }
        // Every byte was checked above, a character at a time.
        std::str::from_utf8(&text[start..self.at])
            .map_err(|_| err(self.line, "a name is not UTF-8 text"))
    }
}

/// Turns S-expressions into sentences, sharing one [`Sym`] per name.
#[derive(Default)]
struct Reader {
    names: HashSet<Sym>,
}

/// Whether `e` is the symbol `word` or a list that starts with it, in any
/// case.
fn keyword(e: &Expr, word: &str) -> bool {
    let first = match e {
        Expr::Sym(s, _) => s,
        Expr::List(items, _) => match items.first() {
            Some(Expr::Sym(s, _)) => s,
            _ => return false,
        },
    };
    first.eq_ignore_ascii_case(word)
}

impl Reader {
    /// The shared name `name`, lower-cased; a new name is priced in
    /// `meter`.
    fn intern(&mut self, name: &str, line: usize, meter: &mut Meter) -> Result<Sym, GdlError> {
        let lower;
        let key = if name.is_ascii() && !name.bytes().any(|b| b.is_ascii_uppercase()) {
            name
        } else {
            lower = name.to_lowercase();
            &lower
        };
        if let Some(s) = self.names.get(key) {
            return Ok(s.clone());
        }
        let price = NAME + key.len() as u64;
        meter.check_with(line, price)?;
        meter.held += price;
        let s: Sym = Sym::from(key);
        self.names.insert(s.clone());
        Ok(s)
    }

    /// A top-level sentence: a rule or a fact.
    fn sentence(&mut self, e: &Expr, m: &mut Meter) -> Result<Rule, GdlError> {
        let line = e.line();
        if let Expr::List(items, _) = e {
            if let Some(Expr::Sym(first, _)) = items.first() {
                if *first == "<=" {
                    let Some(head) = items.get(1) else {
                        return Err(err(line, "a rule (<= head body…) needs a head"));
                    };
                    let head = self.atom(head, "a rule's head", m)?;
                    let mut body = Vec::with_capacity(items.len() - 2);
                    for l in &items[2..] {
                        body.push(self.literal(l, m)?);
                    }
                    return Ok(Rule { head, body, line });
                }
            }
        }
        let head = self.atom(e, "a sentence", m)?;
        Ok(Rule {
            head,
            body: Vec::new(),
            line,
        })
    }

    /// Checks that `name` may name a relation or function.
    fn name(&mut self, e: &Expr, what: &str, m: &mut Meter) -> Result<Sym, GdlError> {
        match e {
            Expr::Sym(s, line) if s.starts_with('?') => Err(err(
                *line,
                format!("{what} must be a relation, found variable {s}"),
            )),
            Expr::Sym(s, line) if *s == "<=" => Err(err(
                *line,
                format!("{what} must be a relation, found a nested rule (<= …)"),
            )),
            Expr::Sym(s, line) => self.intern(s, *line, m),
            Expr::List(..) => Err(err(
                e.line(),
                format!("{what} must start with a name, found {}", show(e)),
            )),
        }
    }

    /// Terms read from `items`, in a vector of exactly their number.
    fn terms(&mut self, items: &[Expr], m: &mut Meter) -> Result<Vec<Term>, GdlError> {
        let mut out = Vec::with_capacity(items.len());
        for t in items {
            out.push(self.term(t, m)?);
        }
        Ok(out)
    }

    /// An atom: `rel`, `(rel)` or `(rel t…)`.
    fn atom(&mut self, e: &Expr, what: &str, m: &mut Meter) -> Result<Atom, GdlError> {
        match e {
            Expr::Sym(..) => Ok(Atom {
                rel: self.name(e, what, m)?,
                args: Vec::new(),
            }),
            Expr::List(items, line) => {
                let Some(first) = items.first() else {
                    return Err(err(*line, format!("empty list () where {what} belongs")));
                };
                let rel = self.name(first, what, m)?;
                let args = self.terms(&items[1..], m)?;
                Ok(Atom { rel, args })
            }
        }
    }

    /// A body literal.
    fn literal(&mut self, e: &Expr, m: &mut Meter) -> Result<Literal, GdlError> {
        let line = e.line();
        let args = match e {
            Expr::List(items, _) if !items.is_empty() => &items[1..],
            _ => &[][..],
        };
        let bare = matches!(e, Expr::Sym(..));
        if keyword(e, "not") {
            if bare {
                return Err(err(line, "(not …) takes one literal, found bare not"));
            }
            return match args {
                [inner] => Ok(Literal::Not(Box::new(self.literal(inner, m)?))),
                _ => Err(err(
                    line,
                    format!(
                        "(not …) takes one literal, found {} in {}",
                        args.len(),
                        show(e)
                    ),
                )),
            };
        }
        if keyword(e, "or") {
            if bare {
                return Err(err(line, "(or …) takes literals, found bare or"));
            }
            if args.is_empty() {
                // A disjunction of nothing is false, as in KIF and in
                // Prolog (`fail`), which runs such sheets: read it as a
                // literal that never holds, `(distinct or or)`, so that
                // no later stage meets an empty `or`.
                let or = Term::Const(self.intern("or", line, m)?);
                return Ok(Literal::Distinct(or.clone(), or));
            }
            let mut ls = Vec::with_capacity(args.len());
            for l in args {
                ls.push(self.literal(l, m)?);
            }
            return Ok(Literal::Or(ls));
        }
        if keyword(e, "distinct") {
            if bare {
                return Err(err(
                    line,
                    "(distinct …) takes two terms, found bare distinct",
                ));
            }
            return match args {
                [a, b] => Ok(Literal::Distinct(self.term(a, m)?, self.term(b, m)?)),
                _ => Err(err(
                    line,
                    format!(
                        "(distinct …) takes two terms, found {} in {}",
                        args.len(),
                        show(e)
                    ),
                )),
            };
        }
        Ok(Literal::Pos(self.atom(e, "a literal", m)?))
    }

    /// A term: a constant, a variable or a function term.
    fn term(&mut self, e: &Expr, m: &mut Meter) -> Result<Term, GdlError> {
        match e {
            Expr::Sym(s, line) => match s.strip_prefix('?') {
                Some("") => Err(err(*line, "a variable needs a name after '?'")),
                Some(v) => Ok(Term::Var(self.intern(v, *line, m)?)),
                None if *s == "<=" => Err(err(*line, "a term cannot be <=")),
                None => Ok(Term::Const(self.intern(s, *line, m)?)),
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
                    Expr::Sym(s, l) => self.intern(s, *l, m)?,
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
                let args = self.terms(&items[1..], m)?;
                Ok(Term::Fn(f, args))
            }
        }
    }
}

mod meter;
use meter::{rule_bytes, Meter};
#[cfg(test)]
mod tests;
