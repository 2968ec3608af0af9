//! The data of `wopr.Game` objects, apart from their methods (`game.rs`):
//! a state hands out its game (`get_game`) and a game its states, so the
//! struct both need lives here and neither module imports the other.

use std::sync::Arc;

use pyo3::prelude::*;

use crate::erased::DynGame;
use crate::spiel::Facts;

/// A loaded game (`load_game("connect4:7x6")`).
#[pyclass(name = "Game", module = "wopr", frozen)]
pub struct PyGame {
    pub(crate) inner: Arc<dyn DynGame>,
    pub(crate) facts: Arc<Facts>,
}

impl PyGame {
    /// A game object for `inner` with its facts.
    pub fn new(inner: Arc<dyn DynGame>, facts: Arc<Facts>) -> PyGame {
        PyGame { inner, facts }
    }
}
