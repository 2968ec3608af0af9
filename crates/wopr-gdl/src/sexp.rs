//! S-expressions as the GGP match protocol sends them: one expression of
//! symbols and parenthesised lists, read case-insensitively, with the byte
//! span of every list kept so that a part of the message (a `start`
//! message's rule sheet) can be handed on as text.
//!
//! `;` starts a comment that runs to the end of the line, as in KIF. The
//! reader never panics and never recurses while reading: nesting deeper
//! than [`super::parse::MAX_DEPTH`] is refused, like the rule-sheet reader
//! does.

use std::ops::Range;

use super::parse::MAX_DEPTH;

/// One S-expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sexp {
    /// A symbol, lower-cased (`nil`, `xplayer`, `10`, `?x`).
    Sym(String),
    /// A parenthesised list, and the bytes of the text it spans, both
    /// parentheses included.
    List(Vec<Sexp>, Range<usize>),
}

impl Sexp {
    /// The symbol, if this is one.
    pub fn sym(&self) -> Option<&str> {
        match self {
            Sexp::Sym(s) => Some(s),
            Sexp::List(..) => None,
        }
    }

    /// The items, if this is a list.
    pub fn items(&self) -> Option<&[Sexp]> {
        match self {
            Sexp::List(items, _) => Some(items),
            Sexp::Sym(_) => None,
        }
    }
}

impl std::fmt::Display for Sexp {
    /// The expression on one line, single spaces, lower case.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Sexp::Sym(s) => f.write_str(s),
            Sexp::List(items, _) => {
                f.write_str("(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Reads `text` as exactly one S-expression.
///
/// # Errors
///
/// A one-line message for empty text, unbalanced parentheses, nesting
/// deeper than [`MAX_DEPTH`], or more than one expression.
///
/// # Examples
///
/// ```
/// use wopr_gdl::sexp::{read, Sexp};
///
/// let e = read("(PLAY m1 ((Mark 1 1) noop))").unwrap();
/// assert_eq!(e.to_string(), "(play m1 ((mark 1 1) noop))");
/// assert!(read("(play m1").is_err());
/// ```
pub fn read(text: &str) -> Result<Sexp, String> {
    // Lists still open: where their '(' is and their items so far.
    let mut open: Vec<(usize, Vec<Sexp>)> = Vec::new();
    let mut top: Vec<Sexp> = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b';' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'(' => {
                if open.len() >= MAX_DEPTH {
                    return Err(format!("lists nest deeper than {MAX_DEPTH} levels"));
                }
                open.push((i, Vec::new()));
            }
            b')' => {
                let Some((start, items)) = open.pop() else {
                    return Err(format!("a ')' at byte {i} closes no list"));
                };
                let list = Sexp::List(items, start..i + 1);
                match open.last_mut() {
                    Some((_, outer)) => outer.push(list),
                    None => top.push(list),
                }
            }
            c if c.is_ascii_whitespace() => {}
            _ => {
                let start = i;
                while i < bytes.len()
                    && !bytes[i].is_ascii_whitespace()
                    && !matches!(bytes[i], b'(' | b')' | b';')
                {
                    i += 1;
                }
                // The run ends at an ASCII byte or the end, so it is whole
                // characters.
                let sym = Sexp::Sym(text[start..i].to_lowercase());
                match open.last_mut() {
                    Some((_, outer)) => outer.push(sym),
                    None => top.push(sym),
                }
                continue;
            }
        }
        i += 1;
    }
    if let Some((start, _)) = open.last() {
        return Err(format!("the list opened at byte {start} is never closed"));
    }
    match top.len() {
        0 => Err("an empty message (expected one S-expression)".to_string()),
        1 => Ok(top.pop().expect("one expression")),
        n => Err(format!(
            "{n} expressions where one belongs (a message is one S-expression)"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lists_symbols_and_spans() {
        let text = "(start m ; a comment\n X ((role x)) 10 1)";
        let e = read(text).unwrap();
        let items = e.items().unwrap();
        assert_eq!(items.len(), 6);
        assert_eq!(items[2].sym(), Some("x"));
        let Sexp::List(_, span) = &items[3] else {
            panic!("a list")
        };
        assert_eq!(&text[span.clone()], "((role x))");
    }

    #[test]
    fn refuses_bad_text() {
        for bad in ["", "  ; only a comment", "(a", "a)", "(a) (b)", "a b"] {
            assert!(read(bad).is_err(), "{bad:?} was read");
        }
        let deep = "(".repeat(MAX_DEPTH + 1);
        assert!(read(&deep).unwrap_err().contains("deeper"));
    }
}
