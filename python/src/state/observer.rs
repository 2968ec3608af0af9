//! `wopr.Observer`, what `Game.make_py_observer` returns.

use std::sync::Arc;

use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::{PlayerArg, PyState};
use crate::erased::DynGame;
use crate::errors::value_error;
use crate::spiel::Facts;
use crate::views::{Observer, Tensors, View};

/// What `Game.make_py_observer` returns: `set_from(state, player)` fills
/// `tensor` (a float32 NumPy array, `None` for an observer without one)
/// with what the player sees, and `dict` holds its named pieces (views of
/// `tensor`, shaped); `string_from(state, player)` gives it as text. For
/// OpenSpiel's games these are OpenSpiel's observers, piece for piece;
/// for wopr's, the observation (`dict["observation"]`) or the information
/// state (`dict["info_state"]`).
#[pyclass(name = "Observer", module = "wopr")]
pub struct PyObserver {
    source: Source,
    #[pyo3(get)]
    tensor: Option<Py<PyArray1<f32>>>,
    #[pyo3(get)]
    dict: Py<PyDict>,
}

/// Where an observer's tensor and string come from.
enum Source {
    /// wopr's game: its information states (`info`) or observations.
    Wopr { info: bool },
    /// OpenSpiel's game: one of OpenSpiel's observers of it.
    OpenSpiel { view: View, observer: Observer },
}

impl PyObserver {
    /// An observer of wopr's game: of information states (`info`) or
    /// observations.
    pub fn new(
        py: Python<'_>,
        game: Arc<dyn DynGame>,
        facts: Arc<Facts>,
        info: bool,
    ) -> PyResult<PyObserver> {
        let start = game.new_state();
        let size = match info {
            true if facts.provides_information_state_tensor => {
                start.information_state_tensor(0).ok().map(|v| v.len())
            }
            true => None,
            false => start.observation(None, Some(0)).ok().map(|v| v.len()),
        };
        let tensor = size.map(|n| PyArray1::<f32>::zeros(py, n, false).unbind());
        let dict = PyDict::new(py);
        if let Some(t) = &tensor {
            dict.set_item(if info { "info_state" } else { "observation" }, t)?;
        }
        Ok(PyObserver {
            source: Source::Wopr { info },
            tensor,
            dict: dict.unbind(),
        })
    }

    /// OpenSpiel's `observer` of `game`, through `view`: its tensor and
    /// pieces laid out as OpenSpiel lays them out on the initial state.
    pub fn openspiel(
        py: Python<'_>,
        game: &Arc<dyn DynGame>,
        view: View,
        observer: Observer,
    ) -> PyResult<PyObserver> {
        let dict = PyDict::new(py);
        let mut tensor = None;
        if observer.has_tensor() {
            let mut layout = Tensors::default();
            view.write(&*game.new_state(), observer, 0, &mut layout)
                .map_err(value_error)?;
            let t = PyArray1::<f32>::zeros(py, layout.data.len(), false);
            let mut start = 0;
            for (name, shape) in &layout.pieces {
                let end = start + shape.iter().product::<usize>();
                let piece = t
                    .as_any()
                    .get_item(pyo3::types::PySlice::new(
                        py,
                        start as isize,
                        end as isize,
                        1,
                    ))?
                    .call_method1("reshape", (PyTuple::new(py, shape)?,))?;
                dict.set_item(name, piece)?;
                start = end;
            }
            tensor = Some(t.unbind());
        }
        Ok(PyObserver {
            source: Source::OpenSpiel { view, observer },
            tensor,
            dict: dict.unbind(),
        })
    }
}

#[pymethods]
impl PyObserver {
    /// Fills `tensor` with what `player` sees in `state`.
    fn set_from(&self, py: Python<'_>, state: &PyState, player: PlayerArg) -> PyResult<()> {
        let p = state.seat(player.0)?;
        let v = match &self.source {
            Source::Wopr { info: true } => state.inner.information_state_tensor(p),
            Source::Wopr { info: false } => state.inner.observation(None, Some(p)),
            Source::OpenSpiel { view, observer } => {
                same_game(view, state)?;
                if !observer.has_tensor() {
                    // As OpenSpiel's, which writes a tensor the game lacks.
                    return Err(value_error(format!(
                        "{} has no tensor for this observer (as in OpenSpiel)",
                        view.short_name()
                    )));
                }
                let mut t = Tensors::default();
                view.write(&*state.inner, *observer, p, &mut t)
                    .map(|_| t.data)
            }
        }
        .map_err(value_error)?;
        let Some(t) = &self.tensor else {
            return Err(value_error("this observer has no tensor"));
        };
        let t = t.bind(py);
        let mut rw = t.readwrite();
        let out = rw.as_slice_mut().map_err(value_error)?;
        if out.len() != v.len() {
            return Err(value_error(
                "the state is of another game than the observer",
            ));
        }
        out.copy_from_slice(&v);
        Ok(())
    }
    /// What `player` sees in `state`, as text.
    fn string_from(&self, state: &PyState, player: PlayerArg) -> PyResult<String> {
        match &self.source {
            Source::Wopr { info: true } => state.information_state_string(Some(player)),
            Source::Wopr { info: false } => state.observation_string(Some(player)),
            Source::OpenSpiel { view, observer } => {
                same_game(view, state)?;
                let p = state.seat(player.0)?;
                view.string_from(&*state.inner, *observer, p)
                    .map_err(value_error)
            }
        }
    }
}

/// Checks that `state` is of the game `view` shows.
fn same_game(view: &View, state: &PyState) -> PyResult<()> {
    match state.view() {
        Some(v) if v.short_name() == view.short_name() => Ok(()),
        _ => Err(value_error(format!(
            "the state is of another game than the observer ({})",
            view.short_name()
        ))),
    }
}
