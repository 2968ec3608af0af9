//! The `gtp:` player: an outside engine, started as a child process and
//! spoken to in the Go Text Protocol (GTP version 2), which Othello engines
//! such as GRhino (`/usr/games/gtp-rhino`) and wopr itself (`wopr gtp`)
//! speak.
//!
//! **Spec.** `gtp:COMMAND [ARGS…][,ms=T]`: everything after `gtp:` is the
//! command line, split at white space (no quoting, no shell), less one
//! trailing `,ms=T` setting: the engine's time to answer one `genmove`,
//! 1..=86,400,000 ms (default 60,000); every other command gets 10 s.
//! Other commas belong to the command line, so a wopr engine's own player
//! spec passes through whole (one that ends in `,ms=…` itself is followed
//! by the setting: `…,ms=50,ms=60000`). Examples: `"gtp:/usr/games/gtp-rhino -l
//! 3,ms=5000"`, `"gtp:wopr gtp reversi:6x6 --player net:F.json,mode=greedy"`.
//!
//! **Games.** Those whose moves are GTP vertices on a square board
//! ([`Roster::gtp_board`]): Reversi (`boardsize 8` for `reversi:8x8`,
//! squares `a1`…`h8` with `a1` top left as in Othello notation, `pass`)
//! and Tic-Tac-Toe (`boardsize 3`, `a1`…`c3`). Seat 0 is GTP's `black`,
//! seat 1 `white`. Connect-4 (a column is not a vertex), Dots-and-Boxes
//! (edges), Virus (from–to moves) and the games of chance or hidden
//! information have none.
//!
//! **Conversation.** At the first move of a game the engine is told
//! `boardsize N` and `clear_board`. Before each `genmove` it is told, with
//! `play COLOUR VERTEX`, every move made since it last knew the position:
//! the player sees positions, not moves, so it finds the moves by a
//! bounded search from the position the engine knows (a random opening of
//! up to about 8 plies, then one or two moves a turn, are found at once).
//! A pass is never sent: GRhino, like other Othello engines, rejects
//! `play COLOUR pass` and works out itself that a side with no move is not
//! played for; an engine answering `genmove` with `pass` passes.
//!
//! **Time.** `genmove` has `ms`; every other command (the first after
//! the engine starts included) has as long, but at least 1 s and at most
//! 10 s ([`GtpSpec::command_time`]). No answer is waited for past its
//! limit, whatever the engine does.
//!
//! **Failures** ([`Player::failure`]), each a one-line message naming the
//! engine, its command, what it did not answer and the last line it wrote
//! to stderr:
//! - *fatal* (the match ends with the error): the engine cannot be
//!   started, or it does not answer its first command since it started
//!   (`boardsize N`) with a GTP success: it exits, closes its pipes, echoes
//!   its input, writes what is not GTP, answers `?` (a board it cannot
//!   play) or does not answer in time. Such an engine cannot play any game.
//! - *forfeit* (it loses the game, [`ForfeitKind`]; the match goes on, or
//!   replays or stops as its `OnForfeit` says): after that first answer,
//!   `time`: no answer within the limit; `illegal`: a `genmove` answer that
//!   is not a legal move here (`resign` included); `crash`: it exits,
//!   closes its pipes, answers `?` or writes what is not GTP. The engine is
//!   killed and started afresh for the next game.
//!
//! **Guests.** The engine runs in a process group of its own, is written
//! to by a thread that blocks `SIGPIPE` (a write to an engine that has gone
//! is an error, never a signal that ends wopr) and read in lines of at most
//! 64 KiB (`lines.rs`); see `child.rs`. It is always reaped: told `quit`,
//! then killed with its group if it has not exited within a second, when
//! the player is dropped; killed at once after a failure.

mod child;
pub mod engine;
mod kind;
pub mod lines;

pub use kind::GtpKind;

use std::marker::PhantomData;
use std::time::Duration;

use child::{Engine, Trouble};

use super::{Player, Roster, ViewOf};
use crate::game::player::{Failure, ForfeitKind};
use crate::game::rng::WoprRng;
use crate::game::{Action, ActionList, Game, Searchable, SpecError, State, Turn};
use lines::shown;

/// The time an engine has to answer one `genmove` when the spec gives no
/// `ms`.
pub const DEFAULT_MOVE_MS: u64 = 60_000;

/// The most time an engine has to answer a command other than `genmove`
/// (and to start): see [`GtpSpec::command_time`].
pub const COMMAND_TIMEOUT: Duration = Duration::from_secs(10);

/// The least time an engine has to answer a command other than
/// `genmove`.
pub const COMMAND_TIMEOUT_MIN: Duration = Duration::from_secs(1);

/// The `gtp:` spec syntax, for player lists and errors.
pub const GTP_PLAYER: &str = "gtp:COMMAND [ARGS…][,ms=T]";

/// The most positions searched to find the moves that led from the
/// position the engine knows to the one it is asked about.
const PATH_BUDGET: usize = 4_000_000;

/// A `gtp:` spec in typed form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GtpSpec {
    /// The program and its arguments.
    pub command: Vec<String>,
    /// The time to answer one `genmove`.
    pub move_time: Duration,
}

impl GtpSpec {
    /// Reads the text after `gtp:` (see the module docs).
    pub fn parse(rest: &str) -> Result<GtpSpec, SpecError> {
        let accepted = "accepted: gtp:COMMAND [ARGS…][,ms=T] with T in 1..=86400000";
        let mut line = rest.trim();
        let mut move_time = None;
        // Settings are peeled off the end; every other comma belongs to
        // the command line (`--player net:F,mode=greedy`).
        while let Some((head, last)) = line.rsplit_once(',') {
            let Some((key, value)) = last.split_once('=') else {
                break;
            };
            if !key.trim().eq_ignore_ascii_case("ms") || move_time.is_some() {
                break;
            }
            let ms = value
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|n| (1..=86_400_000).contains(n))
                .ok_or_else(|| {
                    SpecError(format!(
                        "'gtp:': ms={} is not an integer in 1..=86400000 ({accepted})",
                        value.trim()
                    ))
                })?;
            move_time = Some(Duration::from_millis(ms));
            line = head.trim();
        }
        let command: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        if command.is_empty() {
            return Err(SpecError(format!("'gtp:' names no command ({accepted})")));
        }
        Ok(GtpSpec {
            command,
            move_time: move_time.unwrap_or(Duration::from_millis(DEFAULT_MOVE_MS)),
        })
    }
}

impl GtpSpec {
    /// The time to answer a command other than `genmove` (the first after
    /// the engine starts included): the move time, but at least
    /// [`COMMAND_TIMEOUT_MIN`] and at most [`COMMAND_TIMEOUT`].
    pub fn command_time(&self) -> Duration {
        self.move_time.clamp(COMMAND_TIMEOUT_MIN, COMMAND_TIMEOUT)
    }
}

impl std::fmt::Display for GtpSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The time is always written: a command line ending in `,ms=…` of
        // its own then reads back the same.
        write!(
            f,
            "gtp:{},ms={}",
            self.command.join(" "),
            self.move_time.as_millis()
        )
    }
}

/// GTP's name of seat `seat`'s colour: `black` moves first.
pub fn colour_name(seat: usize) -> &'static str {
    if seat == 0 {
        "black"
    } else {
        "white"
    }
}

/// The seat of a GTP colour (`b`, `black`, `w`, `white`, any case).
pub fn parse_colour(text: &str) -> Option<usize> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(0),
        "w" | "white" => Some(1),
        _ => None,
    }
}

/// Whether `action` is a pass in `state`'s notation.
pub fn is_pass<S: State>(state: &S, action: Action) -> bool {
    state.action_to_string(action).eq_ignore_ascii_case("pass")
}

/// An outside engine as a player; see the module docs.
pub struct GtpPlayer<G: Game> {
    spec: GtpSpec,
    size: usize,
    engine: Option<Engine>,
    /// The position the engine knows; `None` before a game's first move.
    known: Option<G::State>,
    initial: G::State,
    failure: Option<Failure>,
    /// Whether the engine has answered a command since it started: until
    /// it has, any trouble is fatal (it does not speak GTP).
    spoke: bool,
    _game: PhantomData<G>,
}

impl<G> GtpPlayer<G>
where
    G: Roster,
    G::State: Searchable,
{
    /// A player for `game` speaking to the engine `spec` names (started at
    /// its first move).
    pub fn new(game: &G, spec: GtpSpec) -> Result<Self, SpecError> {
        let size = check_game(game)?;
        Ok(GtpPlayer {
            spec,
            size,
            engine: None,
            known: None,
            initial: game.initial_state(),
            failure: None,
            spoke: false,
            _game: PhantomData,
        })
    }

    /// A one-line description of a failure: the engine, its command, what
    /// happened and its last stderr line.
    fn describe(&self, what: &str) -> String {
        let stderr = self
            .engine
            .as_ref()
            .map(Engine::last_stderr)
            .unwrap_or_default();
        let name = self
            .spec
            .command
            .first()
            .map(|c| c.rsplit('/').next().unwrap_or(c).to_string())
            .unwrap_or_default();
        let tail = if stderr.is_empty() {
            "its stderr is empty".to_string()
        } else {
            format!("its last stderr line: '{stderr}'")
        };
        format!(
            "engine {name} (command '{}'): {what}; {tail}",
            self.spec.command.join(" ")
        )
    }

    /// Ends the engine after a failure and records it.
    fn fail(&mut self, failure: Failure) {
        if let Some(engine) = self.engine.take() {
            engine.stop(false);
        }
        self.known = None;
        self.failure = Some(failure);
    }

    /// Sends `command` and waits up to `timeout` for its answer; trouble
    /// is fatal before the engine's first answer, a forfeit after it (see
    /// the module docs).
    fn ask(&mut self, command: &str, timeout: Duration) -> Result<String, Failure> {
        let engine = self.engine.as_mut().expect("the engine is running");
        let trouble = match engine.ask(command, timeout) {
            Ok(answer) => {
                self.spoke = true;
                return Ok(answer);
            }
            Err(trouble) => trouble,
        };
        let what = trouble.describe(command, timeout);
        if !self.spoke {
            return Err(Failure::Fatal(self.describe(&format!(
                "{what}, the first command since it started: it does not speak GTP"
            ))));
        }
        let kind = match trouble {
            Trouble::Timeout => ForfeitKind::Time,
            Trouble::Gone(_) | Trouble::NotGtp(_) | Trouble::Refused(_) => ForfeitKind::Crash,
        };
        Err(Failure::Forfeit(
            kind,
            self.describe(&format!("{what}; it loses this game ({kind})")),
        ))
    }

    /// Tells the engine every move from the position it knows to `view`.
    fn catch_up(&mut self, view: &G::State) -> Result<(), Failure> {
        if self.engine.is_none() {
            let engine =
                Engine::start(&self.spec.command).map_err(|e| Failure::Fatal(self.describe(&e)))?;
            self.engine = Some(engine);
            self.known = None;
            self.spoke = false;
        }
        let limit = self.spec.command_time();
        let known = match self.known.take() {
            Some(k) => k,
            None => {
                self.ask(&format!("boardsize {}", self.size), limit)?;
                self.ask("clear_board", limit)?;
                self.initial.clone()
            }
        };
        let Some(path) = path_between(&known, view, PATH_BUDGET) else {
            return Err(Failure::Fatal(
                self.describe(
                    &format!(
                "cannot tell which moves led from the position it knows to this one:\n{view}"
            )
                    .replace('\n', " "),
                ),
            ));
        };
        let mut state = known;
        for a in path {
            let Turn::Player(seat) = state.turn() else {
                unreachable!("a path steps only where a player moves")
            };
            if !is_pass(&state, a) {
                let vertex = state.action_to_string(a).to_ascii_uppercase();
                self.ask(&format!("play {} {vertex}", colour_name(seat)), limit)?;
            }
            state.apply(a);
        }
        self.known = Some(state);
        Ok(())
    }

    /// One move: catch up, `genmove`, read and check the answer.
    fn genmove(&mut self, view: &G::State, legal: &[Action]) -> Result<Action, Failure> {
        self.catch_up(view)?;
        let Turn::Player(seat) = view.turn() else {
            unreachable!("a player is asked only where one moves")
        };
        let answer = self.ask(
            &format!("genmove {}", colour_name(seat)),
            self.spec.move_time,
        )?;
        let word = answer.split_whitespace().next().unwrap_or("");
        let action = if word.eq_ignore_ascii_case("pass") {
            legal.iter().copied().find(|&a| is_pass(view, a))
        } else {
            view.parse_action(word)
                .ok()
                .filter(|_| !word.starts_with('#'))
                .filter(|a| legal.contains(a))
        };
        let Some(action) = action else {
            let legal = legal
                .iter()
                .map(|&a| view.action_to_string(a))
                .collect::<Vec<_>>()
                .join(" ");
            let played = if word.eq_ignore_ascii_case("resign") {
                "it resigned".to_string()
            } else {
                format!(
                    "it played '{}', which is not a legal move here",
                    shown(&answer)
                )
            };
            let what = format!(
                "to 'genmove {}' {played} (legal: {legal}); it loses this game (illegal)",
                colour_name(seat)
            );
            return Err(Failure::Forfeit(ForfeitKind::Illegal, self.describe(&what)));
        };
        let mut known = view.clone();
        known.apply(action);
        self.known = Some(known);
        Ok(action)
    }
}

/// The board side of `game`'s GTP vertices, or the one-line error saying
/// which games have them.
pub fn check_game<G: Roster>(game: &G) -> Result<usize, SpecError> {
    game.gtp_board().ok_or_else(|| {
        SpecError(format!(
            "gtp: plays games whose moves are GTP vertices (reversi, tictactoe); {} has none",
            game.spec()
        ))
    })
}

/// The moves that lead from `from` to `to`, found by iterative deepening
/// over at most `budget` positions: `None` where no line of play within
/// the budget reaches it.
pub fn path_between<S: Searchable>(from: &S, to: &S, budget: usize) -> Option<Vec<Action>> {
    fn dive<S: Searchable>(
        s: &S,
        to: &S,
        depth: usize,
        line: &mut Vec<Action>,
        budget: &mut usize,
    ) -> bool {
        if s == to {
            return true;
        }
        if depth == 0 || *budget == 0 || !matches!(s.turn(), Turn::Player(_)) {
            return false;
        }
        let mut legal = ActionList::new();
        s.legal_actions(&mut legal);
        for &a in &legal {
            if *budget == 0 {
                return false;
            }
            *budget -= 1;
            let mut next = s.clone();
            next.apply(a);
            line.push(a);
            if dive(&next, to, depth - 1, line, budget) {
                return true;
            }
            line.pop();
        }
        false
    }
    let mut budget = budget;
    let mut line = Vec::new();
    for depth in 0..=64 {
        if dive(from, to, depth, &mut line, &mut budget) {
            return Some(line);
        }
        if budget == 0 {
            return None;
        }
    }
    None
}

impl<G> Player<G> for GtpPlayer<G>
where
    G: Roster,
    G::State: Searchable,
{
    fn spec(&self) -> String {
        self.spec.to_string()
    }

    fn choose(&mut self, view: &ViewOf<G>, legal: &[Action], _: &mut WoprRng) -> Action {
        match self.genmove(view, legal) {
            Ok(a) => a,
            Err(failure) => {
                self.fail(failure);
                legal[0]
            }
        }
    }

    fn new_game(&mut self) {
        // The engine (if running) is told `clear_board` at the next move.
        self.known = None;
        self.failure = None;
    }

    fn failure(&mut self) -> Option<Failure> {
        self.failure.take()
    }
}

impl<G: Game> Drop for GtpPlayer<G> {
    fn drop(&mut self) {
        if let Some(engine) = self.engine.take() {
            engine.stop(true);
        }
    }
}

/// Builds a `gtp:` player for a board game.
pub fn build<G>(game: &G, spec: &GtpSpec) -> Result<Box<dyn Player<G>>, SpecError>
where
    G: Roster,
    G::State: Searchable,
{
    Ok(Box::new(GtpPlayer::new(game, spec.clone())?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_trailing_ms_is_a_setting() {
        let s = GtpSpec::parse("wopr gtp reversi --player net:f.json,mode=greedy,ms=70").unwrap();
        assert_eq!(
            s.command,
            [
                "wopr",
                "gtp",
                "reversi",
                "--player",
                "net:f.json,mode=greedy"
            ]
        );
        assert_eq!(s.move_time, Duration::from_millis(70));
        // A command line ending in an `ms=` of its own is followed by the
        // setting: only the last one is peeled off.
        let s = GtpSpec::parse("wopr gtp reversi --player alphabeta:depth=2,ms=9,ms=500").unwrap();
        assert_eq!(s.command.last().unwrap(), "alphabeta:depth=2,ms=9");
        assert_eq!(s.move_time, Duration::from_millis(500));
        assert_eq!(GtpSpec::parse(&s.to_string()[4..]).unwrap(), s);
    }

    #[test]
    fn the_command_and_its_arguments() {
        let s = GtpSpec::parse("/usr/games/gtp-rhino -l 3,ms=500").unwrap();
        assert_eq!(s.command, ["/usr/games/gtp-rhino", "-l", "3"]);
        assert_eq!(s.move_time, Duration::from_millis(500));
        assert_eq!(s.to_string(), "gtp:/usr/games/gtp-rhino -l 3,ms=500");
        let d = GtpSpec::parse("  engine  ").unwrap();
        assert_eq!(d.move_time, Duration::from_millis(DEFAULT_MOVE_MS));
        assert_eq!(d.to_string(), "gtp:engine,ms=60000");
    }

    #[test]
    fn bad_settings_are_one_line_errors() {
        for bad in ["", " ,ms=5", "x,ms=0", "x,ms=abc", "x,ms=99999999999"] {
            let e = GtpSpec::parse(bad).unwrap_err().0;
            assert!(!e.contains('\n') && e.contains("accepted"), "{bad}: {e}");
        }
    }

    #[test]
    fn colours() {
        assert_eq!(parse_colour("B"), Some(0));
        assert_eq!(parse_colour("white"), Some(1));
        assert_eq!(parse_colour("red"), None);
        assert_eq!(colour_name(0), "black");
    }
}
