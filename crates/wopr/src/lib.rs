//! wopr: evolve and train neural-network players for board games.
//!
//! The library holds every algorithm; the `wopr` command only parses, prints
//! and draws. The modules are layered, each using only those below it (see
//! `ARCHITECTURE.md` at the repository root):
//!
//! 1. [`game`]: the framework ([`Game`], [`State`], [`Player`], the driver,
//!    specs, random streams), knowing no concrete game;
//! 2. [`search`] (alpha-beta), [`nn`] (networks) and [`dist`] (a run's
//!    tasks shared out between processes);
//! 3. [`players`]: the players every game can use, and the [`Roster`] each
//!    game fills;
//! 4. [`games`]: one folder per game (rules, encodings, heuristic players,
//!    exact solver);
//! 5. [`registry`]: the one list of games ([`AnyGame`]);
//! 6. [`eval`], [`evolve`], [`train`], [`music`] (cargo feature `music`);
//! 7. [`experiment`]: config-driven evolution runs.

#![warn(missing_docs)]

pub mod dist;
pub mod eval;
pub mod evolve;
pub mod experiment;
pub mod game;
pub mod games;
#[cfg(feature = "music")]
pub mod music;
pub mod nn;
pub mod players;
pub mod registry;
pub mod search;
pub mod train;

pub use game::encode::Encodable;
pub use game::{Action, ActionList, Game, GameSpec, Player, Searchable, State, Turn, WIN_SCORE};
pub use players::{parse_player, Roster};
pub use registry::AnyGame;
