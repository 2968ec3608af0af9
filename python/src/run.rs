//! `wopr.run` and `wopr.resume`: a learner's config run into a run folder
//! from Python, as `wopr run` runs it ([`wopr::experiment::run`] and
//! [`wopr::experiment::resume`]), with progress and Ctrl-C.

use pyo3::prelude::*;

use wopr::experiment::learn::{LearnProgress, Row};
use wopr::experiment::{self, RunConfig, RunError, Summary};

use crate::errors::value_error;

/// What `run` reports while a run goes on: Ctrl-C (checked under the GIL
/// a few times a second) stops it at its next checkpoint; `callback`, if
/// any, hears `(unit, done, stop)` as often.
struct PyProgress {
    callback: Option<Py<PyAny>>,
    unit: String,
    stop: u64,
    last: std::time::Instant,
    stopped: bool,
    error: Option<PyErr>,
}

impl PyProgress {
    fn new(callback: Option<Py<PyAny>>) -> PyProgress {
        PyProgress {
            callback,
            unit: String::new(),
            stop: 0,
            last: std::time::Instant::now(),
            stopped: false,
            error: None,
        }
    }

    fn poll(&mut self, done: u64, force: bool) {
        if !force && self.last.elapsed() < std::time::Duration::from_millis(200) {
            return;
        }
        self.last = std::time::Instant::now();
        Python::attach(|py| {
            if let Err(e) = py.check_signals() {
                self.stopped = true;
                self.error.get_or_insert(e);
                return;
            }
            if let Some(cb) = &self.callback {
                if let Err(e) = cb.call1(py, (self.unit.as_str(), done, self.stop)) {
                    self.stopped = true;
                    self.error.get_or_insert(e);
                }
            }
        });
    }
}

impl LearnProgress for PyProgress {
    fn start(&mut self, unit: &str, done: u64, stop: u64) {
        self.unit = unit.to_string();
        self.stop = stop;
        self.poll(done, true);
    }
    fn tick(&mut self, done: u64) {
        self.poll(done, false);
    }
    fn yardsticks(&mut self, _: u64, _: &[Row]) {}
    fn finish(&mut self) {}
    fn stopped(&self) -> bool {
        self.stopped
    }
}

/// JSON's nulls dropped (a key set to `None` is a key left out), so the
/// rest is a TOML table.
fn without_nulls(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(m) => {
            m.retain(|_, v| !v.is_null());
            m.values_mut().for_each(without_nulls);
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(without_nulls),
        _ => {}
    }
}

/// The config `config` names: a TOML file's path, or the same as a dict;
/// parsed once, with `seed` in place of its own.
fn read_config(
    py: Python<'_>,
    config: &Bound<'_, PyAny>,
    seed: Option<u64>,
) -> PyResult<RunConfig> {
    let parsed = if config.is_instance_of::<pyo3::types::PyDict>() {
        let text: String = py
            .import("json")?
            .call_method1("dumps", (config,))?
            .extract()?;
        let mut value: serde_json::Value = serde_json::from_str(&text).map_err(value_error)?;
        without_nulls(&mut value);
        let table = match toml::Value::try_from(value) {
            Ok(toml::Value::Table(t)) => t,
            Ok(_) => return Err(value_error("bad config: not a table")),
            Err(e) => return Err(value_error(format!("bad config: {e}"))),
        };
        RunConfig::from_table(table, "", seed)
    } else {
        let path: std::path::PathBuf = config.extract()?;
        let text = std::fs::read_to_string(&path)
            .map_err(|e| value_error(format!("cannot read {}: {e}", path.display())))?;
        RunConfig::parse(&text, &path.display().to_string(), &[], seed)
    };
    parsed.map_err(value_error)
}

/// Runs a config (a TOML file's path, or the same as a dict) into the run
/// folder `out`, as `wopr run CONFIG --out OUT [--seed S]`; a folder that
/// holds the run already resumes it. The GIL is released while it works;
/// `progress(unit, done, stop)` is called a few times a second; Ctrl-C
/// stops it after the checkpoint under way (`KeyboardInterrupt`). Returns
/// the champion's path.
#[pyfunction]
#[pyo3(signature = (config, out, seed=None, progress=None))]
pub fn run(
    py: Python<'_>,
    config: &Bound<'_, PyAny>,
    out: std::path::PathBuf,
    seed: Option<&Bound<'_, PyAny>>,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    let seed = seed
        .filter(|s| !s.is_none())
        .map(|s| crate::args::seed(s, "seed"))
        .transpose()?;
    let config = read_config(py, config, seed)?;
    let mut progress = PyProgress::new(progress);
    let result = py.detach(|| experiment::run(config, &out, &mut progress));
    finish(result, progress)
}

/// Goes on with the run in the folder `out` from its last checkpoint,
/// whichever learner made it, as `wopr run --resume OUT [--set KEY=N]`:
/// `set`, a list of `"stop.KEY=N"`, may only raise the stop count
/// (`stop.generations`, `stop.games`, `stop.epochs`), which extends a
/// finished run. Progress and Ctrl-C as in `run`. Returns the champion's
/// path.
#[pyfunction]
#[pyo3(signature = (out, set=None, progress=None))]
pub fn resume(
    py: Python<'_>,
    out: std::path::PathBuf,
    set: Option<Vec<String>>,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
    let sets = set.unwrap_or_default();
    let mut progress = PyProgress::new(progress);
    let result = py.detach(|| experiment::resume(&out, &sets, &mut progress));
    finish(result, progress)
}

/// The champion's path, or the error (Ctrl-C's or the callback's first).
fn finish(result: Result<Summary, RunError>, mut progress: PyProgress) -> PyResult<String> {
    if let Some(e) = progress.error.take() {
        return Err(e);
    }
    let summary = result.map_err(value_error)?;
    Ok(summary.champion().display().to_string())
}
