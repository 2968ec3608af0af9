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
//! **GDL-II** (sheets with the `random` role or `sees`). A player of such a
//! match must not learn the others' moves, so `play` and `stop` carry what
//! the player itself may know instead of the joint move, in the form the
//! Dresden GGP server documents for GDL-II players ("The GDL-II
//! communication protocol", ggpserver.general-game-playing.de, the page
//! `gdlii_protocol.jsp`; the form Schiffel and Thielscher's GGP-II matches
//! are played in, and the one Steve Losh's cl-ggp player library reads):
//! - `(play ID TURN LASTMOVE PERCEPTS)`: `TURN` counts the joint moves
//!   made so far (0 on the first `play`, one more on every later `play` or
//!   `stop`); `LASTMOVE` is the move made *for this player* at the last
//!   turn (the manager's choice where the player's own answer was late or
//!   illegal), `nil` on turn 0; `PERCEPTS` is the list of what the sheet's
//!   `sees` rules gave this player for that joint move, `nil` on turn 0
//!   (and read as no percepts wherever it is `nil` or `()`).
//! - `(stop ID TURN LASTMOVE PERCEPTS)`: the same, after the last joint
//!   move; it answers `done`.
//!
//! `start`, `info` and `abort` are unchanged. The two forms are told apart
//! by the count of arguments (2 or 4), as cl-ggp does; a player checks that
//! the form fits its match's sheet. An earlier GDL-II server sent
//! `(play ID (PERCEPTS…))`, which cannot be told from a GDL joint move and
//! is not read. The `random` role is played by the manager itself.
//!
//! **Positions.** A [`Position`] is one step of GDL: every role moves at
//! every step, including a turn-taking game's `noop`s, which wopr's
//! [`Gdl`] game otherwise makes on its own ([`Gdl::state_at`] gives the
//! game's state at a position, for a player to search). On a GDL-II sheet
//! the manager follows the true position ([`Position::play_seen`] gives
//! each role's percepts); a player follows its information set instead
//! ([`Belief`]).

use std::fmt;
use std::time::Duration;

use super::ast::Term;
use super::game::{Gdl, GdlState};
use super::reasoner::Facts;
use super::sexp::{read, Sexp};

mod belief;

pub use belief::{Belief, MAX_STATES};

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
const KINDS: &str = "(info), (start ID ROLE (RULES) STARTCLOCK PLAYCLOCK), (play ID MOVES), (stop ID MOVES), (abort ID); GDL-II: (play ID TURN LASTMOVE PERCEPTS), (stop ID TURN LASTMOVE PERCEPTS)";

/// The highest turn a GDL-II message may name.
pub const MAX_TURN: u64 = 1_000_000_000;

/// What a GDL-II `play` or `stop` tells one player (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    /// Joint moves made so far: 0 on the first `play`.
    pub turn: u64,
    /// The move made for this player at the last turn; `None` (`nil`) on
    /// turn 0 only.
    pub last: Option<Term>,
    /// What this player sees after that joint move (empty on turn 0, or
    /// where it sees nothing).
    pub percepts: Vec<Term>,
}

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
    /// GDL-II's `(play ID TURN LASTMOVE PERCEPTS)`.
    PlayII {
        /// The match id.
        id: String,
        /// The turn, the player's last move and its percepts.
        seen: Seen,
    },
    /// GDL-II's `(stop ID TURN LASTMOVE PERCEPTS)`.
    StopII {
        /// The match id.
        id: String,
        /// The turn, the player's last move and its percepts.
        seen: Seen,
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
    /// move that is not a ground term; in GDL-II, a turn that is not a
    /// whole number, or a `LASTMOVE` that is `nil` on a turn other than 0
    /// or given on turn 0) and listing the accepted forms.
    ///
    /// # Examples
    ///
    /// ```
    /// use wopr_gdl::ggp::Message;
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
            "play" | "stop" if args.len() == 4 => 4,
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
                "({kind} …) takes {want} argument{}, not {}{} (accepted: {KINDS})",
                if want == 1 { "" } else { "s" },
                args.len(),
                if want == 2 { ", or 4 in GDL-II" } else { "" }
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
            "play" if want == 4 => Message::PlayII {
                id,
                seen: seen(&args[1..])?,
            },
            "stop" if want == 4 => Message::StopII {
                id,
                seen: seen(&args[1..])?,
            },
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

impl Message {
    /// Reads a message from the bytes of a request's body, as a player
    /// gets it: UTF-8 text, then [`Message::parse`].
    ///
    /// # Errors
    ///
    /// As [`Message::parse`], and a one-line [`GgpError`] naming the first
    /// byte that is not UTF-8.
    pub fn from_bytes(body: &[u8]) -> Result<Message, GgpError> {
        match std::str::from_utf8(body) {
            Ok(text) => Message::parse(text),
            Err(e) => fail(format!(
                "the message is not UTF-8 text (byte {} of {} is 0x{:02x})",
                e.valid_up_to(),
                body.len(),
                body[e.valid_up_to()]
            )),
        }
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
            Message::PlayII { id, seen } => write!(f, "(play {id} {seen})"),
            Message::StopII { id, seen } => write!(f, "(stop {id} {seen})"),
            Message::Abort { id } => write!(f, "(abort {id})"),
        }
    }
}

impl fmt::Display for Seen {
    /// `TURN LASTMOVE PERCEPTS` as a manager sends them: `nil` for no last
    /// move, `nil` for the percepts on turn 0 and `()` for none later.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.turn)?;
        match &self.last {
            Some(m) => write!(f, "{m} ")?,
            None => f.write_str("nil ")?,
        }
        if self.turn == 0 && self.percepts.is_empty() {
            return f.write_str("nil");
        }
        let ps: Vec<String> = self.percepts.iter().map(Term::to_string).collect();
        write!(f, "({})", ps.join(" "))
    }
}

/// GDL-II's `TURN LASTMOVE PERCEPTS`.
fn seen(args: &[Sexp]) -> Result<Seen, GgpError> {
    let turn = match args[0].sym().and_then(|s| s.parse::<u64>().ok()) {
        Some(t) if t <= MAX_TURN => t,
        _ => {
            return fail(format!(
                "the turn must be a whole number, 0..={MAX_TURN}, not '{}'",
                cut(&args[0])
            ))
        }
    };
    let last = match &args[1] {
        Sexp::Sym(s) if s == "nil" => None,
        e => Some(term(e)?),
    };
    match (turn, &last) {
        (0, Some(m)) => {
            return fail(format!(
                "LASTMOVE must be nil on turn 0 (no move has been made), not '{m}'"
            ))
        }
        (t, None) if t > 0 => {
            return fail(format!(
                "LASTMOVE is nil on turn 0 only; turn {t} needs the player's last move"
            ))
        }
        _ => {}
    }
    let percepts = match &args[2] {
        Sexp::Sym(s) if s == "nil" => Vec::new(),
        Sexp::Sym(_) => {
            return fail(format!(
                "the percepts must be nil or a list of ground terms, not '{}'",
                cut(&args[2])
            ))
        }
        Sexp::List(items, _) => items.iter().map(term).collect::<Result<_, _>>()?,
    };
    if turn == 0 && !percepts.is_empty() {
        return fail("the percepts must be nil on turn 0 (nothing has been seen yet)");
    }
    Ok(Seen {
        turn,
        last,
        percepts,
    })
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
    /// The initial position of `game`, a GDL or GDL-II sheet
    /// ([`Position::is_gdl2`]).
    ///
    /// # Errors
    ///
    /// None today; kept for sheets a match cannot be played on.
    pub fn new(game: Gdl) -> Result<Position, GgpError> {
        let facts = game.reasoner().initial();
        Ok(Position {
            game,
            facts,
            step: 0,
        })
    }

    /// A player's match from a `start` message: the sheet `rules` loaded
    /// within `budget` (named `name` in errors), its initial position, and
    /// the index of the player's `role`.
    ///
    /// # Errors
    ///
    /// One line: the rules do not load (with the sheet's reason), `role`
    /// is not one of its roles (listing them), or `role` is GDL-II's
    /// `random`, which the manager plays.
    pub fn start(
        name: &str,
        rules: &str,
        role: &str,
        budget: super::ground::Budget,
    ) -> Result<(Position, usize), GgpError> {
        let game = Gdl::from_text_within(name, rules, 10_000, budget)
            .map_err(|e| GgpError(format!("bad rules: {e}")))?;
        let position = Position::new(game)?;
        let Some(r) = position.role_index(role) else {
            return fail(format!(
                "'{role}' is not a role of the sheet (its roles: {})",
                position.roles().join(" ")
            ));
        };
        if position.is_gdl2() && Some(r) == position.random_role() {
            return fail(
                "'random' is GDL-II's chance role, which the game manager plays; a player takes \
                 another role",
            );
        }
        Ok((position, r))
    }

    /// What a player does with a GDL `(play ID MOVES)`: makes the joint
    /// move (`None`, `nil`, on the first step only), then gives `role`'s
    /// legal moves, never empty.
    ///
    /// # Errors
    ///
    /// One line naming the match `id`: the moves do not fit
    /// ([`Position::play`]; the position is then unchanged), `nil` after
    /// the first step, or the game is over (terminal, or a role has no
    /// legal move) so that a `stop` was due.
    pub fn to_move(
        &mut self,
        id: &str,
        moves: Option<&[Term]>,
        role: usize,
    ) -> Result<Vec<Term>, GgpError> {
        match moves {
            Some(moves) => self
                .play(moves)
                .map_err(|e| GgpError(format!("match {id}: {e}")))?,
            None if self.step > 0 => {
                return fail(format!(
                    "match {id}: nil moves at step {} (nil is for the first step only)",
                    self.step
                ))
            }
            None => {}
        }
        let legal = self.legal(role);
        if legal.is_empty() || self.is_terminal() {
            return fail(format!(
                "match {id}: the game is over at step {}; expected (stop {id} MOVES)",
                self.step
            ));
        }
        Ok(legal)
    }

    /// The game.
    pub fn game(&self) -> &Gdl {
        &self.game
    }

    /// Whether the sheet is GDL-II (it has the `random` role or `sees`):
    /// its matches are played with GDL-II's messages ([`Message::PlayII`]).
    pub fn is_gdl2(&self) -> bool {
        is_gdl2(&self.game)
    }

    /// The `random` role, which a GDL-II manager plays itself.
    pub fn random_role(&self) -> Option<usize> {
        self.game.reasoner().random_role()
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
        let joint = self.joint(moves)?;
        self.facts = self.game.reasoner().next(&self.facts, &joint);
        self.step += 1;
        Ok(())
    }

    /// Makes the joint move `moves` as [`Position::play`] does, and returns
    /// what each role sees by it (GDL-II's `sees`, per role in role order;
    /// empty lists on a GDL sheet).
    ///
    /// # Errors
    ///
    /// As [`Position::play`]; the position is then unchanged.
    pub fn play_seen(&mut self, moves: &[Term]) -> Result<Vec<Vec<Term>>, GgpError> {
        let joint = self.joint(moves)?;
        let r = self.game.reasoner();
        let mut ids = Vec::new();
        let seen = (0..r.roles().len())
            .map(|role| {
                r.sees(&self.facts, &joint, role, &mut ids);
                ids.iter()
                    .map(|&p| r.percepts(role)[p as usize].clone())
                    .collect()
            })
            .collect();
        self.facts = r.next(&self.facts, &joint);
        self.step += 1;
        Ok(seen)
    }

    /// The MoveIds of the joint move `moves`, each checked legal.
    fn joint(&self, moves: &[Term]) -> Result<Vec<u32>, GgpError> {
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
        Ok(joint)
    }

    /// The game's state here, for a player to search ([`Gdl::state_at`]).
    pub fn state(&self) -> GdlState {
        self.game.state_at(self.facts.clone())
    }
}

/// Whether `game` is GDL-II: the `random` role, or `sees` for some role.
fn is_gdl2(game: &Gdl) -> bool {
    let r = game.reasoner();
    game.has_random() || (0..r.roles().len()).any(|i| !r.percepts(i).is_empty())
}

#[cfg(test)]
mod tests;
