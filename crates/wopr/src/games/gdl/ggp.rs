//! The General Game Playing match protocol, without I/O: the messages a
//! game manager sends a player, read from and written as S-expressions,
//! and a match's position as both sides follow it, one GDL step per
//! message.
//!
//! **Messages** (as the Stanford GGP course and ggp-base define them; each
//! is the body of an HTTP POST, read case-insensitively):
//! - `(info)`: is the player there? It answers `((name NAME) (status
//!   available))`, or `busy`.
//! - `(start ID ROLE (RULES…) STARTCLOCK PLAYCLOCK)`: a new match `ID`
//!   where the player is `ROLE`, the rule sheet given inline, the clocks in
//!   whole seconds (the time to get ready; the time for each move). It
//!   answers `ready`.
//! - `(play ID MOVES)`: the player's move, as a GDL term. `MOVES` is `nil`
//!   on the first step and else the joint move just made, one term per
//!   role in the order of the sheet's `role` facts.
//! - `(stop ID MOVES)`: the match is over after the joint move `MOVES`;
//!   it answers `done`.
//! - `(abort ID)`: the match is abandoned; it answers `aborted`.
//!
//! **Positions.** A [`Position`] is one step of GDL: every role moves at
//! every step, including a turn-taking game's `noop`s, which wopr's
//! [`Gdl`] game otherwise makes on its own ([`Gdl::state_at`] gives the
//! game's state at a position, for a player to search). Sheets with
//! GDL-II's `random` role or `sees` are refused: they need the GDL-II
//! protocol, whose `play` carries percepts instead of moves.

use std::fmt;
use std::time::Duration;

use super::ast::Term;
use super::game::{Gdl, GdlState};
use super::reasoner::Facts;
use super::sexp::{read, Sexp};

/// The longest clock accepted, in seconds (a day).
pub const MAX_CLOCK_SECS: u64 = 86_400;

/// What was wrong with a message or a move, in one line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct GgpError(pub String);

fn fail<T>(msg: impl Into<String>) -> Result<T, GgpError> {
    Err(GgpError(msg.into()))
}

/// The message kinds, as the errors list them.
const KINDS: &str = "(info), (start ID ROLE (RULES) STARTCLOCK PLAYCLOCK), (play ID MOVES), (stop ID MOVES), (abort ID)";

/// A message from a game manager to a player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// `(info)`.
    Info,
    /// `(start ID ROLE (RULES…) STARTCLOCK PLAYCLOCK)`.
    Start {
        /// The match id, lower-cased.
        id: String,
        /// The player's role, lower-cased.
        role: String,
        /// The rule sheet, as KIF text (the list's contents).
        rules: String,
        /// The time to get ready.
        start_clock: Duration,
        /// The time for each move.
        play_clock: Duration,
    },
    /// `(play ID MOVES)`.
    Play {
        /// The match id.
        id: String,
        /// The joint move just made, one term per role; `None` (`nil`) on
        /// the first step.
        moves: Option<Vec<Term>>,
    },
    /// `(stop ID MOVES)`.
    Stop {
        /// The match id.
        id: String,
        /// The last joint move; `None` (`nil`) if the game ended before any.
        moves: Option<Vec<Term>>,
    },
    /// `(abort ID)`.
    Abort {
        /// The match id.
        id: String,
    },
}

impl Message {
    /// Reads a message.
    ///
    /// # Errors
    ///
    /// A one-line [`GgpError`] naming what was wrong (not one
    /// S-expression, an unknown kind, a wrong count of arguments, a clock
    /// that is not a whole number of seconds up to [`MAX_CLOCK_SECS`], a
    /// move that is not a ground term) and listing the accepted forms.
    ///
    /// # Examples
    ///
    /// ```
    /// use wopr::games::gdl::ggp::Message;
    ///
    /// let m = Message::parse("(PLAY match.1 ((mark 1 1) NOOP))").unwrap();
    /// assert_eq!(m.to_string(), "(play match.1 ((mark 1 1) noop))");
    /// assert!(Message::parse("(play match.1)").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Message, GgpError> {
        let e = read(text).map_err(|e| GgpError(format!("not one S-expression: {e}")))?;
        if e.sym() == Some("info") {
            return Ok(Message::Info);
        }
        let Some([head, args @ ..]) = e.items() else {
            return fail(format!(
                "'{}' is not a message (accepted: {KINDS})",
                cut(&e)
            ));
        };
        let kind = head.sym().unwrap_or("");
        let want = match kind {
            "info" => 0,
            "start" => 5,
            "play" | "stop" => 2,
            "abort" => 1,
            _ => {
                return fail(format!(
                    "unknown message '{}' (accepted: {KINDS})",
                    cut(head)
                ))
            }
        };
        if args.len() != want {
            return fail(format!(
                "({kind} …) takes {want} argument{}, not {} (accepted: {KINDS})",
                if want == 1 { "" } else { "s" },
                args.len()
            ));
        }
        if kind == "info" {
            return Ok(Message::Info);
        }
        let id = symbol(&args[0], "the match id")?;
        Ok(match kind {
            "start" => {
                let role = symbol(&args[1], "the role")?;
                let Sexp::List(_, span) = &args[2] else {
                    return fail(format!(
                        "the rules must be a list of GDL sentences, not '{}'",
                        cut(&args[2])
                    ));
                };
                let rules = text[span.start + 1..span.end - 1].to_string();
                Message::Start {
                    id,
                    role,
                    rules,
                    start_clock: clock(&args[3], "the start clock", 0)?,
                    play_clock: clock(&args[4], "the play clock", 1)?,
                }
            }
            "play" => Message::Play {
                id,
                moves: moves(&args[1])?,
            },
            "stop" => Message::Stop {
                id,
                moves: moves(&args[1])?,
            },
            _ => Message::Abort { id },
        })
    }
}

impl fmt::Display for Message {
    /// The message as a manager sends it (lower case; the rules as given).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let joint = |moves: &Option<Vec<Term>>| match moves {
            None => "nil".to_string(),
            Some(ms) => {
                let ms: Vec<String> = ms.iter().map(Term::to_string).collect();
                format!("({})", ms.join(" "))
            }
        };
        match self {
            Message::Info => f.write_str("(info)"),
            Message::Start {
                id,
                role,
                rules,
                start_clock,
                play_clock,
            } => write!(
                f,
                "(start {id} {role} ({rules}) {} {})",
                start_clock.as_secs(),
                play_clock.as_secs()
            ),
            Message::Play { id, moves } => write!(f, "(play {id} {})", joint(moves)),
            Message::Stop { id, moves } => write!(f, "(stop {id} {})", joint(moves)),
            Message::Abort { id } => write!(f, "(abort {id})"),
        }
    }
}

/// An expression for an error message, cut at 60 characters.
fn cut(e: &Sexp) -> String {
    let s = e.to_string();
    match s.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s,
    }
}

fn symbol(e: &Sexp, what: &str) -> Result<String, GgpError> {
    match e.sym() {
        Some(s) => Ok(s.to_string()),
        None => fail(format!("{what} must be a symbol, not '{}'", cut(e))),
    }
}

fn clock(e: &Sexp, what: &str, least: u64) -> Result<Duration, GgpError> {
    match e.sym().and_then(|s| s.parse::<u64>().ok()) {
        Some(s) if (least..=MAX_CLOCK_SECS).contains(&s) => Ok(Duration::from_secs(s)),
        _ => fail(format!(
            "{what} must be a whole number of seconds, {least}..={MAX_CLOCK_SECS}, not '{}'",
            cut(e)
        )),
    }
}

/// A joint move: `nil` (or `()`) for none, else a list of ground terms.
fn moves(e: &Sexp) -> Result<Option<Vec<Term>>, GgpError> {
    match e {
        Sexp::Sym(s) if s == "nil" => Ok(None),
        Sexp::Sym(_) => fail(format!(
            "the moves must be nil or a list of one move per role, not '{}'",
            cut(e)
        )),
        Sexp::List(items, _) if items.is_empty() => Ok(None),
        Sexp::List(items, _) => items.iter().map(term).collect::<Result<_, _>>().map(Some),
    }
}

/// A ground GDL term: a symbol is a constant, `(f a…)` a function term
/// (`(f)` the constant `f`, as the rule-sheet reader takes it).
fn term(e: &Sexp) -> Result<Term, GgpError> {
    match e {
        Sexp::Sym(s) if s.starts_with('?') => fail(format!(
            "a move must be a ground term, not the variable '{s}'"
        )),
        Sexp::Sym(s) => Ok(Term::Const(s.as_str().into())),
        Sexp::List(items, _) => match items.split_first() {
            Some((Sexp::Sym(f), [])) => Ok(Term::Const(f.as_str().into())),
            Some((Sexp::Sym(f), args)) if !f.starts_with('?') => Ok(Term::Fn(
                f.as_str().into(),
                args.iter().map(term).collect::<Result<_, _>>()?,
            )),
            _ => fail(format!(
                "'{}' is not a move (a symbol, or (NAME ARG…))",
                cut(e)
            )),
        },
    }
}

/// Reads a move as a player answers it: one ground term (`noop`, `(mark 1
/// 1)`), case-insensitively.
///
/// # Errors
///
/// A one-line [`GgpError`] when the text is not one S-expression or not a
/// ground term.
pub fn parse_move(text: &str) -> Result<Term, GgpError> {
    let e = read(text).map_err(|e| GgpError(format!("not one S-expression: {e}")))?;
    term(&e)
}

/// A match's position, one GDL step at a time: the true facts, and how many
/// joint moves made them.
#[derive(Clone, Debug)]
pub struct Position {
    game: Gdl,
    facts: Facts,
    step: usize,
}

impl Position {
    /// The initial position of `game`.
    ///
    /// # Errors
    ///
    /// A [`GgpError`] if the sheet has GDL-II's `random` role or `sees`.
    pub fn new(game: Gdl) -> Result<Position, GgpError> {
        let r = game.reasoner();
        if game.has_random() || (0..r.roles().len()).any(|i| !r.percepts(i).is_empty()) {
            return fail(
                "the sheet is GDL-II (a random role or sees), which needs the GDL-II protocol; wopr ggp plays GDL sheets",
            );
        }
        let facts = r.initial();
        Ok(Position {
            game,
            facts,
            step: 0,
        })
    }

    /// The game.
    pub fn game(&self) -> &Gdl {
        &self.game
    }

    /// The roles, in the sheet's order.
    pub fn roles(&self) -> Vec<String> {
        let roles = self.game.reasoner().roles();
        roles.iter().map(|r| r.to_string()).collect()
    }

    /// The index of role `name` (lower case).
    pub fn role_index(&self, name: &str) -> Option<usize> {
        self.game.reasoner().role_index(name)
    }

    /// Joint moves made so far.
    pub fn step(&self) -> usize {
        self.step
    }

    /// Whether the game is over (`terminal` holds, or some role has no
    /// legal move: the sheet is stuck).
    pub fn is_terminal(&self) -> bool {
        let r = self.game.reasoner();
        r.is_terminal(&self.facts) || (0..r.roles().len()).any(|i| self.legal(i).is_empty())
    }

    /// `role`'s legal moves here.
    pub fn legal(&self, role: usize) -> Vec<Term> {
        let r = self.game.reasoner();
        let mut ids = Vec::new();
        r.legal(&self.facts, role, &mut ids);
        ids.iter()
            .map(|&m| r.moves(role)[m as usize].clone())
            .collect()
    }

    /// Each role's goal value here (0..=100; 0 where none holds).
    pub fn goals(&self) -> Vec<u32> {
        let r = self.game.reasoner();
        (0..r.roles().len())
            .map(|i| r.goal(&self.facts, i).unwrap_or(0))
            .collect()
    }

    /// Each role with its goal value here, `"role goal"` joined by `", "`
    /// (for logs and records).
    pub fn goal_summary(&self) -> String {
        let goals = self.goals();
        let roles = self.roles();
        let pairs: Vec<String> = roles
            .iter()
            .zip(&goals)
            .map(|(r, g)| format!("{r} {g}"))
            .collect();
        pairs.join(", ")
    }

    /// Makes the joint move `moves`, one legal term per role in role order.
    ///
    /// # Errors
    ///
    /// A [`GgpError`] naming the role when a move is not legal for it, or
    /// when the count is not the number of roles; the position is then
    /// unchanged.
    pub fn play(&mut self, moves: &[Term]) -> Result<(), GgpError> {
        let roles = self.roles();
        if moves.len() != roles.len() {
            return fail(format!(
                "{} moves for {} roles (one per role, in the order {})",
                moves.len(),
                roles.len(),
                roles.join(" ")
            ));
        }
        let r = self.game.reasoner();
        let mut joint = Vec::with_capacity(moves.len());
        let mut legal = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            r.legal(&self.facts, i, &mut legal);
            match r.find_move(i, m).filter(|id| legal.contains(id)) {
                Some(id) => joint.push(id),
                None => {
                    return fail(format!(
                        "{m} is not a legal move of {} at step {}",
                        roles[i], self.step
                    ))
                }
            }
        }
        self.facts = r.next(&self.facts, &joint);
        self.step += 1;
        Ok(())
    }

    /// The game's state here, for a player to search ([`Gdl::state_at`]).
    pub fn state(&self) -> GdlState {
        self.game.state_at(self.facts.clone())
    }
}

#[cfg(test)]
mod tests;
