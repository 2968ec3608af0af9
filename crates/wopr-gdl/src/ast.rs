//! The syntax tree of a GDL rule sheet, as the parser ([`super::parse`])
//! makes it and the checks ([`super::check`]) and the grounder read it.
//!
//! GDL (the Stanford Game Description Language, KIF syntax) describes a game
//! as a logic program: facts and `<=` rules over the relations `role`,
//! `init`, `true`, `does`, `next`, `legal`, `goal`, `terminal` (and in GDL-II
//! `random` as a role and `sees`), plus any relations of the sheet's own.
//! Names are case-insensitive in KIF; the parser lower-cases them, so two
//! spellings of one name are one symbol. Numbers are constants like any other.

use std::fmt;

/// A name (relation, function or constant), lower-cased, or a variable's name
/// without its `?`.
pub type Sym = std::sync::Arc<str>;

/// A term: a constant, a variable, or a function applied to terms.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Term {
    /// A constant (an object constant or a number).
    Const(Sym),
    /// A variable (`?x` in the sheet).
    Var(Sym),
    /// A function term `(f t1 … tn)`, `n ≥ 1`.
    Fn(Sym, Vec<Term>),
}

/// An atomic sentence: a relation applied to terms; `args` is empty for a
/// 0-ary relation such as `terminal`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Atom {
    /// The relation's name.
    pub rel: Sym,
    /// Its arguments.
    pub args: Vec<Term>,
}

/// A literal of a rule's body.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Literal {
    /// An atom that must hold.
    Pos(Atom),
    /// `(not L)`: the literal must not hold (negation as failure). GDL
    /// allows `not` around an atom; the parser also accepts it around `or`
    /// and `distinct`, keeping the inner literal.
    Not(Box<Literal>),
    /// `(distinct t1 t2)`: the two terms differ.
    Distinct(Term, Term),
    /// `(or L1 … Ln)`: at least one holds.
    Or(Vec<Literal>),
}

/// A fact (`body` empty) or a rule `(<= head body…)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rule {
    /// The head.
    pub head: Atom,
    /// The body's literals, in the sheet's order.
    pub body: Vec<Literal>,
    /// The 1-based line of the sheet where the rule starts (for errors).
    pub line: usize,
}

/// A whole rule sheet.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sheet {
    /// Every fact and rule, in the sheet's order.
    pub rules: Vec<Rule>,
}

impl Term {
    /// Pushes every variable of the term to `out`, in order of appearance,
    /// with repeats.
    pub fn push_vars<'a>(&'a self, out: &mut Vec<&'a Sym>) {
        match self {
            Term::Const(_) => {}
            Term::Var(v) => out.push(v),
            Term::Fn(_, args) => args.iter().for_each(|a| a.push_vars(out)),
        }
    }
}

impl Atom {
    /// Pushes every variable of the atom's arguments to `out`, in order of
    /// appearance, with repeats.
    pub fn push_vars<'a>(&'a self, out: &mut Vec<&'a Sym>) {
        self.args.iter().for_each(|t| t.push_vars(out));
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Const(c) => write!(f, "{c}"),
            Term::Var(v) => write!(f, "?{v}"),
            Term::Fn(name, args) => {
                write!(f, "({name}")?;
                for a in args {
                    write!(f, " {a}")?;
                }
                write!(f, ")")
            }
        }
    }
}

impl fmt::Display for Atom {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.args.is_empty() {
            return write!(f, "{}", self.rel);
        }
        write!(f, "({}", self.rel)?;
        for a in &self.args {
            write!(f, " {a}")?;
        }
        write!(f, ")")
    }
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Pos(a) => write!(f, "{a}"),
            Literal::Not(l) => write!(f, "(not {l})"),
            Literal::Distinct(a, b) => write!(f, "(distinct {a} {b})"),
            Literal::Or(ls) => {
                write!(f, "(or")?;
                for l in ls {
                    write!(f, " {l}")?;
                }
                write!(f, ")")
            }
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.body.is_empty() {
            return write!(f, "{}", self.head);
        }
        write!(f, "(<= {}", self.head)?;
        for l in &self.body {
            write!(f, " {l}")?;
        }
        write!(f, ")")
    }
}
