//! `wopr.SpielError`: what every bad action, index, player or spec
//! raises. It subclasses `ValueError`, so `except ValueError` catches it;
//! where OpenSpiel is installed it subclasses `pyspiel.SpielError` too
//! (itself a `RuntimeError`), so code written for pyspiel's errors catches
//! wopr's. A wrong type (a string for an action) is a `TypeError`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};

static SPIEL_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// Makes `SpielError` (on `pyspiel.SpielError` as well where pyspiel
/// imports) and adds it to the module.
pub fn init(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let value_error = py.get_type::<PyValueError>().into_any();
    let bases = match py.import("pyspiel") {
        Ok(pyspiel) => PyTuple::new(py, [pyspiel.getattr("SpielError")?, value_error])?,
        Err(_) => PyTuple::new(py, [value_error])?,
    };
    let dict = PyDict::new(py);
    dict.set_item("__module__", "wopr")?;
    dict.set_item(
        "__doc__",
        "A bad action, index, player or spec: a ValueError (and a pyspiel.SpielError \
         where OpenSpiel is installed).",
    )?;
    let ty = py
        .get_type::<PyType>()
        .call1(("SpielError", bases, dict))?
        .cast_into::<PyType>()?;
    m.add("SpielError", &ty)?;
    let _ = SPIEL_ERROR.set(py, ty.unbind());
    Ok(())
}

/// A `wopr.SpielError` with `e` as its message.
pub fn value_error(e: impl std::fmt::Display) -> PyErr {
    let msg = e.to_string();
    Python::attach(|py| match SPIEL_ERROR.get(py) {
        Some(ty) => PyErr::from_type(ty.bind(py).clone(), msg),
        None => PyValueError::new_err(msg),
    })
}
