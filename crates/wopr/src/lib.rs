//! wopr: evolve and train neural-network players for board games.
//!
//! The library holds every algorithm; the `wopr` command only parses, prints
//! and draws. The modules are layered, each using only those below it (see
//! `ARCHITECTURE.md` at the repository root); the first three floors are the
//! crate `wopr-core`, re-exported here under the same names, and
//! [`games::gdl`] is the crate `wopr-gdl`:
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

pub mod eval;
pub mod evolve;
pub mod experiment;
pub mod games;
#[cfg(feature = "music")]
pub mod music;
pub mod registry;
pub mod train;

// The framework, from `wopr-core`, under the names it has always had here.
pub use wopr_core::{dist, game, nn, players, search};

pub use game::encode::Encodable;
pub use game::{Action, ActionList, Game, GameSpec, Player, Searchable, State, Turn, WIN_SCORE};
pub use players::{parse_player, Roster};
pub use registry::AnyGame;
