//! wopr-core: the framework every wopr game, player and learner builds on,
//! knowing no concrete game.
//!
//! The modules are layered, each using only those below it (see
//! `ARCHITECTURE.md` at the repository root):
//!
//! 1. [`game`]: the traits ([`Game`], [`State`], [`Player`]), the driver,
//!    specs, encodings and random streams;
//! 2. [`search`] (alpha-beta), [`nn`] (networks) and [`dist`] (a run's
//!    tasks shared out between processes);
//! 3. [`players`]: the players every game can use (random, first,
//!    alpha-beta, MCTS, nets, exact play, outside GTP engines), the table of
//!    their kinds, and the [`Roster`] each game fills.
//!
//! The `wopr` library re-exports every module here under the same name
//! (`wopr::game`, `wopr::players`…), with the games above them; the GDL
//! engine (`wopr-gdl`) builds on this crate alone.

#![warn(missing_docs)]

pub mod dist;
pub mod game;
pub mod nn;
pub mod players;
pub mod search;

pub use game::encode::Encodable;
pub use game::{Action, ActionList, Game, GameSpec, Player, Searchable, State, Turn, WIN_SCORE};
pub use players::{parse_player, Roster};
