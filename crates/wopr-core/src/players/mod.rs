//! Players: anything that picks an action from what it may see.
//!
//! The [`Player`] interface is part of the framework ([`crate::game::player`]);
//! this module holds the players every game can use and the roster that turns
//! a spec string into a player:
//! - `random` and `first` ([`RandomPlayer`], [`FirstPlayer`]) for every game;
//! - `alphabeta` search ([`alphabeta`]), Monte-Carlo tree search
//!   (`mcts`, [`mcts`]), `net:` players ([`net`]) and `perfect` ([`perfect`],
//!   where the game has an exact solver) for the perfect-information board
//!   games, and outside engines spoken to in GTP (`gtp:`, [`gtp`]) for
//!   those whose moves are GTP vertices;
//! - [`Roster`]: each game's list of the players it accepts, implemented in
//!   the game's folder (its heuristic opponents first, then
//!   [`board_parse`]/[`board_build`]); [`PlayerSpec`] is a spec in typed
//!   form (parsed, checked, nothing opened) and [`parse_player`] builds any
//!   of them from a spec.
//!
//! Terminal play (`human`) belongs to the command line, not to this library.

pub mod alphabeta;
pub mod cost;
pub mod gtp;
pub mod kinds;
pub mod mcts;
pub mod net;
pub mod net_kind;
pub mod perfect;
mod roster;
pub mod spec;
pub mod table;

use rand::RngExt;

use crate::game::rng::WoprRng;
use crate::game::solver::Solver;
use crate::game::{Action, Game, GameSpec, SpecError};

pub use crate::game::{Player, ViewOf};
pub use alphabeta::AlphaBetaPlayer;
pub use cost::{BookFiles, Cost};
pub use kinds::{BoardGame, GenericKind, Kind, KindSpec, Plays, Settings};
pub use mcts::{MctsConfig, MctsPlayer};
pub use perfect::{perfect_player, perfect_player_with, PerfectPlayer};
pub use roster::{
    board_build, board_parse, parse_player, player_names, resolve_player, resolve_spec,
};
pub use spec::{Caps, OwnSpec, PlayerSpec};
pub use table::KINDS;

/// Picks uniformly among the legal actions.
#[derive(Clone, Debug, Default)]
pub struct RandomPlayer;

impl<G: Game> Player<G> for RandomPlayer {
    fn spec(&self) -> String {
        "random".into()
    }
    fn choose(&mut self, _: &ViewOf<G>, legal: &[Action], rng: &mut WoprRng) -> Action {
        legal[rng.random_range(0..legal.len())]
    }
}

/// Always plays the first legal action (lowest index): a deterministic
/// opponent for tests.
#[derive(Clone, Debug, Default)]
pub struct FirstPlayer;

impl<G: Game> Player<G> for FirstPlayer {
    fn spec(&self) -> String {
        "first".into()
    }
    fn choose(&mut self, _: &ViewOf<G>, legal: &[Action], _: &mut WoprRng) -> Action {
        legal[0]
    }
}

/// The players (and the exact solver) a game offers beyond `random` and
/// `first`.
pub trait Roster: Game {
    /// Reads a spec naming one of this game's players into its typed form,
    /// checking every key and value, opening no file and building nothing;
    /// `Ok(None)` when the name is not one of them.
    fn parse_bot(&self, spec: &GameSpec) -> Result<Option<PlayerSpec>, SpecError> {
        let _ = spec;
        Ok(None)
    }

    /// Builds a player from a typed spec [`Roster::parse_bot`] made.
    fn build_bot(&self, spec: &PlayerSpec) -> Result<Box<dyn Player<Self>>, SpecError> {
        Err(SpecError(format!(
            "{} has no player '{spec}' (accepted: {})",
            self.spec(),
            player_names(self).join(", ")
        )))
    }

    /// The spec syntaxes [`Roster::parse_bot`] accepts, for help and errors.
    fn bot_names(&self) -> &'static [&'static str] {
        &[]
    }

    /// The side of the square board whose GTP vertices are this game's
    /// moves (its notation writes squares `a1`…, and `pass` where the game
    /// passes), for the `gtp:` player and `wopr gtp`; `None` (the default)
    /// where moves are not GTP vertices.
    fn gtp_board(&self) -> Option<usize> {
        None
    }

    /// The UCT exploration constant of a plain `mcts` spec for this game
    /// (one that names no `c`): [`mcts::DEFAULT_C`] (√2) unless the game
    /// chose its own by a tournament (`docs/results/mcts.md`).
    fn mcts_c(&self) -> f64 {
        mcts::DEFAULT_C
    }

    /// The position `text` writes, for games that read positions as text
    /// (Reversi: the squares row by row and the colour to move, as
    /// endgame test suites write them); this default reads none.
    fn position(&self, text: &str) -> Result<Self::State, SpecError> {
        let _ = text;
        Err(SpecError(format!(
            "{} reads no position from text (positions as text: reversi); give the moves that reach it",
            self.spec()
        )))
    }

    /// The number of move sequences of `depth` plies from `state`, as this
    /// game counts plies: [`crate::game::perft::perft`] (a ply is one
    /// seat's choice, or one joint choice at a simultaneous turn) unless
    /// the game counts otherwise (GDL sheets: GDL steps,
    /// `wopr_gdl::steps`).
    fn perft(&self, state: &Self::State, depth: u32) -> u64 {
        crate::game::perft::perft(state, depth)
    }

    /// An exact solver for this game's positions, where one exists.
    fn solver(&self) -> Option<Box<dyn Solver<Self>>> {
        None
    }

    /// The exact solver reading a book of solved positions first (`book`:
    /// the file read only, the file grown), where the game keeps books
    /// (Connect-4).
    fn book_solver(&self, book: &BookFiles) -> Result<Box<dyn Solver<Self>>, SpecError> {
        let _ = book;
        Err(SpecError(format!(
            "{} keeps no book of solved positions (books: connect4)",
            self.spec()
        )))
    }
}

/// The `ms=T` argument of a spec (1..=86,400,000 ms), if given.
pub fn ms_arg(spec: &GameSpec) -> Result<Option<std::time::Duration>, SpecError> {
    time_arg(spec, "ms")
}

/// A time argument `key=T` in ms (1..=86,400,000), if given.
pub fn time_arg(spec: &GameSpec, key: &str) -> Result<Option<std::time::Duration>, SpecError> {
    match spec.get(key) {
        None => Ok(None),
        Some(_) => Ok(Some(std::time::Duration::from_millis(
            spec.int(key, 0, 1, 86_400_000)? as u64,
        ))),
    }
}
