//! `wopr._wopr`: the native half of the `wopr` Python package. Games and
//! states with OpenSpiel's names and argument order, wopr's players, match
//! evaluation and net files; `python/wopr/__init__.py` adds NumPy arrays
//! and the PettingZoo environment on top, `python/wopr/openspiel.py` the
//! games as `pyspiel.Game` subclasses.
//!
//! The files, by concept: `erased.rs` (every game behind one interface),
//! `spiel.rs` (OpenSpiel's game types and game strings), `kuhn.rs` (Kuhn
//! poker's information states in OpenSpiel's layout), `game.rs` and
//! `state/` (the `Game` and `State` classes), `player.rs` (`Player` and
//! `Net`), `bots.rs` (Python objects as players in wopr's matches),
//! `run.rs` (`run`, `resume`), `optimal.rs` (`optimal_moves_json`), `errors.rs` (`SpielError`), `args.rs` (counts and
//! seeds checked), `views/` (OpenSpiel's
//! strings, tensors and observers of its games, which each game declares
//! in its library folder, through one adaptor).

use std::sync::Arc;

use numpy::IntoPyArray;
use pyo3::prelude::*;

use wopr::registry::AnyGame;

mod args;
mod bots;
mod erased;
mod errors;
mod game;
mod handle;
mod kuhn;
mod optimal;
mod player;
mod run;
mod spiel;
mod state;
mod views;

use errors::value_error;
use game::PyGame;

/// `v` as a NumPy array without a copy: the vector's buffer becomes the
/// array's (rust-numpy keeps it alive as the array's base object).
fn numpy_vec<T: numpy::Element>(py: Python<'_>, v: Vec<T>) -> Bound<'_, PyAny> {
    v.into_pyarray(py).into_any()
}

/// The names `load_game` takes: wopr's registered games' names (`gdl` is
/// not among them: a GDL game is loaded from its rule sheet,
/// `load_game("gdl:PATH.kif")`), then OpenSpiel's names of the games wopr
/// plays as OpenSpiel does (`tic_tac_toe`, `connect_four`, ...).
#[pyfunction]
fn registered_games() -> Vec<String> {
    let mut names: Vec<String> = wopr::registry::games()
        .iter()
        .filter(|g| g.name != "gdl")
        .map(|g| g.name.to_string())
        .collect();
    for n in wopr::registry::openspiel_names() {
        if !names.iter().any(|m| m == n) {
            names.push(n.to_string());
        }
    }
    names
}

/// Loads a game: wopr's spec (`tictactoe`, `connect4:7x6`, `reversi:8x8`,
/// `pig`) or OpenSpiel's game string (`connect_four`,
/// `goofspiel(num_cards=5)`, `dots_and_boxes(num_rows=3,num_cols=3)`),
/// which loads OpenSpiel's version of the game (its parameters, action
/// numbering and sizes). `params`, a dict, gives OpenSpiel's parameters
/// as `pyspiel.load_game(name, params)` does.
#[pyfunction]
#[pyo3(signature = (spec, params=None))]
fn load_game(spec: &str, params: Option<&Bound<'_, pyo3::types::PyDict>>) -> PyResult<PyGame> {
    let text = match params {
        Some(d) => {
            let mut kv = Vec::new();
            for (k, v) in d.iter() {
                let v = match v.extract::<bool>() {
                    Ok(b) if v.is_instance_of::<pyo3::types::PyBool>() => b.to_string(),
                    _ => v.str()?.to_string(),
                };
                kv.push((k.str()?.to_string(), v));
            }
            spiel::game_string(spec, &kv)
        }
        None => spec.to_string(),
    };
    let (game, os) = match wopr::registry::parse_openspiel(&text) {
        Some(os) => {
            let (game, read, sizes) = os.map_err(value_error)?;
            (game, Some((read, sizes)))
        }
        None => (AnyGame::parse(&text).map_err(value_error)?, None),
    };
    let os = os.as_ref().map(|(read, sizes)| (read, *sizes));
    Ok(PyGame::new(
        erased::erase(&game),
        Arc::new(spiel::facts(&game, os)),
    ))
}

#[pymodule]
fn _wopr(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::init(m)?;
    m.add_function(wrap_pyfunction!(registered_games, m)?)?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(run::run, m)?)?;
    m.add_function(wrap_pyfunction!(run::resume, m)?)?;
    m.add_function(wrap_pyfunction!(optimal::optimal_moves_json, m)?)?;
    m.add_class::<PyGame>()?;
    m.add_class::<state::PyState>()?;
    m.add_class::<state::PyObserver>()?;
    m.add_class::<player::PyPlayer>()?;
    m.add_class::<player::PyNet>()?;
    Ok(())
}
