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
pub mod gtp;
pub mod mcts;
pub mod net;
pub mod perfect;
mod roster;
pub mod spec;

use rand::RngExt;

use crate::game::rng::WoprRng;
use crate::game::{Action, Game};

pub use crate::game::{Player, ViewOf};
pub use alphabeta::AlphaBetaPlayer;
pub use mcts::{MctsConfig, MctsPlayer};
pub use perfect::{perfect_player, perfect_player_with, PerfectPlayer};
pub use roster::{
    board_build, board_parse, ms_arg, parse_player, player_names, resolve_player, Roster,
    GENERIC_PLAYERS,
};
pub use spec::{BookFiles, Caps, Cost, OwnSpec, PlayerSpec};

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
