//! `wopr.run`: a learner's config run into a run folder from Python, as
//! `wopr run` runs it, with progress and Ctrl-C.

use std::path::Path;

use pyo3::prelude::*;

use wopr::experiment::learn::pretrain::PretrainConfig;
use wopr::experiment::learn::td::TdConfig;
use wopr::experiment::learn::train::TrainConfig;
use wopr::experiment::learn::{self, LearnProgress, Row};
use wopr::experiment::{start, EvolveConfig};
use wopr::registry::AnyGame;
use wopr::with_board_game;

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

/// A learner's config from its JSON, with `seed` in place of its own.
fn parse<T: serde::de::DeserializeOwned>(
    value: serde_json::Value,
    seed: Option<u64>,
    seed_of: fn(&mut T) -> &mut u64,
) -> Result<T, String> {
    let mut config: T = serde_json::from_value(value).map_err(|e| format!("bad config: {e}"))?;
    if let Some(s) = seed {
        *seed_of(&mut config) = s;
    }
    Ok(config)
}

/// Runs the learner of `config` (evolution, TD, training or
/// pre-training) into `out`, as `wopr run`: the champion's path.
fn run_config(
    value: serde_json::Value,
    out: &Path,
    seed: Option<u64>,
    progress: &mut PyProgress,
) -> Result<std::path::PathBuf, String> {
    let kind = value
        .get("learner")
        .and_then(|l| l.get("kind"))
        .and_then(|k| k.as_str())
        .unwrap_or("evolve")
        .to_string();
    match kind.as_str() {
        "evolve" => {
            let config = parse(value, seed, |c: &mut EvolveConfig| &mut c.seed)?;
            config.check().map_err(|e| format!("bad config: {e}"))?;
            let game = AnyGame::parse(&config.game).map_err(|e| e.to_string())?;
            with_board_game!(&game, g => {
                let cp = start(g, config).map_err(|e| e.to_string())?;
                learn::evolve::run(g, cp, out, progress).map(|s| s.champion).map_err(|e| e.to_string())
            }, Err(format!("{} cannot be evolved: nets play the board games only", game.spec())))
        }
        "td" => {
            let config = parse(value, seed, |c: &mut TdConfig| &mut c.seed)?;
            learn::td::run(&config, out, progress)
                .map(|s| s.champion)
                .map_err(|e| e.to_string())
        }
        "train" => {
            let config = parse(value, seed, |c: &mut TrainConfig| &mut c.seed)?;
            learn::train::run(&config, out, progress)
                .map(|s| s.champion)
                .map_err(|e| e.to_string())
        }
        "pretrain" => {
            let config = parse(value, seed, |c: &mut PretrainConfig| &mut c.seed)?;
            learn::pretrain::run(&config, out, progress).map_err(|e| e.to_string())?;
            Ok(out.join("champion.json"))
        }
        other => Err(format!(
            "unknown [learner] kind '{other}' (accepted: evolve, td, train, pretrain)"
        )),
    }
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
    let value: serde_json::Value = if config.is_instance_of::<pyo3::types::PyDict>() {
        let text: String = py
            .import("json")?
            .call_method1("dumps", (config,))?
            .extract()?;
        serde_json::from_str(&text).map_err(value_error)?
    } else {
        let path: std::path::PathBuf = config.extract()?;
        let text = std::fs::read_to_string(&path)
            .map_err(|e| value_error(format!("cannot read {}: {e}", path.display())))?;
        let table: toml::Table = toml::from_str(&text)
            .map_err(|e| value_error(format!("bad config {}: {}", path.display(), e.message())))?;
        serde_json::to_value(table).map_err(value_error)?
    };
    let mut progress = PyProgress {
        callback: progress,
        unit: String::new(),
        stop: 0,
        last: std::time::Instant::now(),
        stopped: false,
        error: None,
    };
    let result = py.detach(|| run_config(value, &out, seed, &mut progress));
    if let Some(e) = progress.error.take() {
        return Err(e);
    }
    let champion = result.map_err(value_error)?;
    Ok(champion.display().to_string())
}
