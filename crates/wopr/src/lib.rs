//! wopr: evolve and train neural-network players for board games.
//!
//! The library holds every algorithm; the `wopr` command only parses, prints
//! and draws. Start with [`game`] (the framework: [`game::Game`],
//! [`game::State`], the driver) and [`games`] (the rules of each game).

#![warn(missing_docs)]

pub mod encode;
pub mod eval;
pub mod evolve;
pub mod experiment;
pub mod game;
pub mod games;
pub mod music;
pub mod nn;
pub mod players;
pub mod search;
pub mod solve;
pub mod train;

pub use game::{Action, ActionList, AnyGame, Game, Searchable, State, Turn, WIN_SCORE};
