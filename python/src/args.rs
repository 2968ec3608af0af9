//! Counts and seeds from Python: whole numbers checked before use, so that
//! a negative, too large or too small one is a `SpielError` (a
//! `ValueError`) naming the argument and the value given (`games=-1 is
//! not a count: 1 to 18446744073709551615`), never an `OverflowError`;
//! what is not an integer at all (a float, a string, a bool) is a
//! `TypeError`.

use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyBool;

use crate::errors::value_error;

/// `obj` as a count of `what` (`games`, `n`): a whole number from `min`
/// up.
pub fn count(obj: &Bound<'_, PyAny>, what: &str, min: usize) -> PyResult<usize> {
    let accepted = || format!("a count: {min} to {}", usize::MAX);
    whole(obj, what, &accepted).and_then(|v| {
        usize::try_from(v)
            .ok()
            .filter(|&n| n >= min)
            .ok_or_else(|| value_error(format!("{what}={v} is not {}", accepted())))
    })
}

/// `obj` as a seed of `what`: a whole number from 0 to 2^64 - 1.
pub fn seed(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<u64> {
    let accepted = || format!("a seed: 0 to {}", u64::MAX);
    whole(obj, what, &accepted).and_then(|v| {
        u64::try_from(v).map_err(|_| value_error(format!("{what}={v} is not {}", accepted())))
    })
}

/// `obj` as a whole number (one too large even for `i128` is an error
/// saying what `accepted` is).
fn whole(obj: &Bound<'_, PyAny>, what: &str, accepted: &dyn Fn() -> String) -> PyResult<i128> {
    // Booleans are integers to Python; as a count or a seed they are a
    // mistake.
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{what} is a whole number, not {}",
            obj.str()?
        )));
    }
    match obj.extract::<i128>() {
        Ok(v) => Ok(v),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(value_error(format!(
            "{what}={} is not {}",
            obj.str()?,
            accepted()
        ))),
        Err(_) => Err(PyTypeError::new_err(format!(
            "{what} is a whole number, not {}",
            obj.get_type().name()?
        ))),
    }
}
