//! The generic player kinds, one row each ([`super::KINDS`]): its name, the
//! syntax help and errors show, one line on what it is, and which games it
//! plays ([`Plays`]). A game lists only its own players
//! ([`Roster::bot_names`]); what a game accepts of the generic kinds is
//! asked of the game itself, by reading a sample spec of the kind with its
//! [`Roster::parse_bot`], so the list cannot drift from what parses.
//!
//! A game that reads a kind with a syntax of its own (Pig's `mcts`, with no
//! net rollouts; Reversi's `perfect:empties=E`) lists that syntax among
//! its own players, and the row is then left out for it.
//!
//! # Adding a kind
//!
//! A searching kind is one file and one line in `table.rs`. The file
//! defines a type implementing [`GenericKind`]: its row, its typed settings
//! (which say what a move may cost, take a time limit and print as
//! canonical text: [`Settings`]), how a spec is read into them and how a
//! player is built from them for any [`BoardGame`]. The line adds the type
//! to the table's list, which makes its row of [`super::KINDS`], the
//! reading ([`super::table::parse_kind`], [`super::table::parse_text`]) and
//! the building ([`super::table::build_kind`]); a spec of the kind travels
//! as [`super::PlayerSpec::Kind`]. Nothing else changes: help, errors,
//! `wopr games`, the server's limits and the web page read the row and the
//! settings.

use std::any::Any;
use std::fmt;
use std::time::Duration;

use super::cost::Cost;
use super::Roster;
use crate::game::encode::Encodable;
use crate::game::{Game, GameSpec, Player, Searchable, SpecError};

/// Which games a generic kind plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plays {
    /// Every game.
    Every,
    /// The games whose [`Roster::parse_bot`] reads this sample spec (the
    /// board games read `alphabeta`, `mcts` and `net:` through
    /// [`super::board_parse`]); nothing is opened or built.
    Reads(&'static str),
    /// The games whose moves are GTP vertices ([`Roster::gtp_board`]).
    GtpBoard,
}

/// One generic player kind.
#[derive(Clone, Copy, Debug)]
pub struct Kind {
    /// Its name in a spec (`alphabeta`).
    pub name: &'static str,
    /// Its syntax, as help and errors show it.
    pub syntax: &'static str,
    /// What it is, in one line.
    pub about: &'static str,
    /// Which games it plays.
    pub plays: Plays,
}

impl Kind {
    /// Whether `game` plays this kind.
    pub fn plays_in<G: Roster>(&self, game: &G) -> bool {
        match self.plays {
            Plays::Every => true,
            Plays::Reads(sample) => GameSpec::parse(sample)
                .ok()
                .is_some_and(|spec| matches!(game.parse_bot(&spec), Ok(Some(_)))),
            Plays::GtpBoard => game.gtp_board().is_some(),
        }
    }
}

/// The games the searching kinds build players for: a [`Roster`] with
/// net encodings whose positions alpha-beta can search (every board game;
/// not Pig, Kuhn poker, Goofspiel or GDL sheets).
pub trait BoardGame: Roster + Encodable + Game<State: Searchable> {}

impl<G> BoardGame for G
where
    G: Roster + Encodable,
    G::State: Searchable,
{
}

/// A generic kind's typed settings, read from a spec by its
/// [`GenericKind`]: what [`super::PlayerSpec`] asks of every kind.
pub trait Settings: fmt::Debug + Send + Sync + AnySettings {
    /// What the player may cost per move.
    fn cost(&self) -> Cost;

    /// Gives the player at most `limit` per move (a larger budget is
    /// lowered to it; none becomes it).
    fn limit_time(&mut self, limit: Duration);

    /// The net files it would read, to be checked or rewritten.
    fn nets_mut(&mut self) -> Vec<&mut String> {
        Vec::new()
    }

    /// The canonical spec text, which reads back to the same settings.
    fn text(&self) -> String;
}

/// What every [`Settings`] type has for being `Clone + PartialEq`: copying
/// and comparing behind a `Box<dyn Settings>`, and downcasting to the
/// kind's own type. Implemented for every such type; never by hand.
pub trait AnySettings: Any {
    /// A boxed copy.
    fn clone_box(&self) -> Box<dyn Settings>;
    /// Whether `other` is the same type with equal settings.
    fn same(&self, other: &dyn Settings) -> bool;
    /// The settings as [`Any`], to downcast.
    fn as_any(&self) -> &dyn Any;
}

impl<T: Settings + Clone + PartialEq> AnySettings for T {
    fn clone_box(&self) -> Box<dyn Settings> {
        Box::new(self.clone())
    }

    fn same(&self, other: &dyn Settings) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A spec of a generic kind: the kind's row and its settings.
#[derive(Debug)]
pub struct KindSpec {
    /// The kind's row in [`super::KINDS`].
    pub kind: Kind,
    /// The settings, of the kind's [`GenericKind::Settings`] type.
    pub settings: Box<dyn Settings>,
}

impl KindSpec {
    /// The spec of kind `K` with `settings`.
    pub fn new<K: GenericKind>(settings: K::Settings) -> KindSpec {
        KindSpec {
            kind: K::ROW,
            settings: Box::new(settings),
        }
    }

    /// The settings, if this is a spec of kind `K`.
    pub fn of<K: GenericKind>(&self) -> Option<&K::Settings> {
        self.settings.as_any().downcast_ref()
    }
}

impl Clone for KindSpec {
    fn clone(&self) -> KindSpec {
        KindSpec {
            kind: self.kind,
            settings: self.settings.clone_box(),
        }
    }
}

impl PartialEq for KindSpec {
    fn eq(&self, other: &KindSpec) -> bool {
        self.kind.name == other.kind.name && self.settings.same(other.settings.as_ref())
    }
}

/// One searching kind, implemented in its own file.
pub trait GenericKind: 'static {
    /// Its row in [`super::KINDS`].
    const ROW: Kind;

    /// Its settings, read from a spec; nothing opened.
    type Settings: Settings + Clone + PartialEq;

    /// Reads a spec named [`Kind::name`] for `game`, checking every key and
    /// value (with the game's defaults, such as its UCT constant).
    fn parse<G: Roster>(game: &G, spec: &GameSpec) -> Result<Self::Settings, SpecError>;

    /// Reads a spec whose text does not follow the `name:key=value`
    /// grammar (`gtp:COMMAND ARGS…`), before that grammar is tried:
    /// `None` when `text` is not of this kind. Most kinds read none.
    fn parse_text<G: Roster>(game: &G, text: &str) -> Option<Result<Self::Settings, SpecError>> {
        let _ = (game, text);
        None
    }

    /// Builds the player (this may read a net file or start a process).
    fn build<G: BoardGame>(
        game: &G,
        settings: &Self::Settings,
    ) -> Result<Box<dyn Player<G>>, SpecError>;
}

/// The rows of `random` and `first`, which every game plays.
pub const EVERY: [Kind; 2] = [
    Kind {
        name: "random",
        syntax: "random",
        about: "a uniformly random legal move",
        plays: Plays::Every,
    },
    Kind {
        name: "first",
        syntax: "first",
        about: "the legal move of lowest index (deterministic, for tests)",
        plays: Plays::Every,
    },
];

/// `name` with `parts` as its arguments: `name:a,b`, or `name` alone.
pub fn spec_text(name: &str, parts: &[String]) -> String {
    if parts.is_empty() {
        name.to_string()
    } else {
        format!("{name}:{}", parts.join(","))
    }
}

/// `ms=T` for a time budget, where there is one.
pub fn ms_text(time: Option<Duration>) -> Option<String> {
    time.map(|t| format!("ms={}", t.as_millis()))
}

/// Lowers a time budget to `limit` (none becomes `limit`).
pub fn clamp_time(time: &mut Option<Duration>, limit: Duration) {
    *time = Some(time.map_or(limit, |t| t.min(limit)));
}

/// The kind a syntax line names (`mcts[:sims=N]…` is `mcts`).
pub fn kind_name(syntax: &str) -> &str {
    syntax.split([':', '[', ' ']).next().unwrap_or(syntax)
}
