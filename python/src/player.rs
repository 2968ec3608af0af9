//! `wopr.Player` (any player spec wopr knows, for one game) and
//! `wopr.Net` (a net file and its batched forward pass).

use numpy::{PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::prelude::*;

use wopr::game::rng::stream;
use wopr::game::Action;
use wopr::nn::{NetFile, Network, Scratch};

use crate::erased::DynPlayer;
use crate::errors::value_error;
use crate::game::PyGame;
use crate::numpy_vec;
use crate::state::PyState;

/// A wopr player (`alphabeta:depth=4`, `mcts:sims=200`, `perfect`,
/// `net:FILE`, …) for one game.
#[pyclass(name = "Player", module = "wopr")]
pub struct PyPlayer {
    /// The player and the number of steps it has taken.
    inner: std::sync::Mutex<(Box<dyn DynPlayer>, u64)>,
    seed: u64,
}

#[pymethods]
impl PyPlayer {
    #[new]
    #[pyo3(signature = (spec, game, seed=None))]
    fn new(spec: &str, game: &PyGame, seed: Option<&Bound<'_, PyAny>>) -> PyResult<PyPlayer> {
        let seed = seed.map_or(Ok(0), |s| crate::args::seed(s, "seed"))?;
        Ok(PyPlayer {
            inner: std::sync::Mutex::new((game.inner.player(spec).map_err(value_error)?, 0)),
            seed,
        })
    }
    /// The player's action in `state` (one player to move). Step `k` of a
    /// player draws its random numbers from stream `k` of its seed: a
    /// player's moves are reproducible from its seed and the positions it
    /// was given, and a player with chance in it (`random`, `mcts`) varies
    /// its choice when it meets a position again.
    fn step(&self, py: Python<'_>, state: &PyState) -> PyResult<Action> {
        let seed = self.seed;
        let state = &*state.inner;
        // Searching players take a while: let other Python threads run.
        py.detach(|| {
            let mut inner = self
                .inner
                .lock()
                .map_err(|_| "the player broke in an earlier step".to_string())?;
            let (player, steps) = &mut *inner;
            *steps += 1;
            player.step(state, stream(seed, &[*steps - 1]))
        })
        .map_err(value_error)
    }
}

/// A net file (`NetFile`): its weights and a batched forward pass.
#[pyclass(name = "Net", module = "wopr", frozen)]
pub struct PyNet {
    file: NetFile,
}

#[pymethods]
impl PyNet {
    /// Reads a net file.
    #[staticmethod]
    fn load(path: &str) -> PyResult<PyNet> {
        Ok(PyNet {
            file: NetFile::load(path).map_err(value_error)?,
        })
    }
    /// Inputs per example.
    fn num_inputs(&self) -> usize {
        self.file.net.num_inputs()
    }
    /// Outputs per example.
    fn num_outputs(&self) -> usize {
        self.file.net.num_outputs()
    }
    /// The game, encoding and player mode the file names.
    fn meta(&self) -> (Option<String>, Option<String>, Option<String>) {
        (
            self.file.game.clone(),
            self.file.encoding.clone(),
            self.file.player.clone(),
        )
    }
    /// Every weight and bias, in the file's order, as a float32 NumPy array.
    #[getter]
    fn weights<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(numpy_vec(py, self.file.net.params().to_vec()))
    }
    /// The outputs for a batch `x` of shape (rows, num_inputs), or one
    /// example of shape (num_inputs,): a float32 NumPy array of shape
    /// (rows, num_outputs) or (num_outputs,).
    fn forward<'py>(&self, py: Python<'py>, x: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let np = py.import("numpy")?;
        let arr = np.call_method1("ascontiguousarray", (x, "float32"))?;
        let arr: PyReadonlyArrayDyn<'py, f32> = arr.extract()?;
        let shape: Vec<usize> = arr.shape().to_vec();
        let (n_in, n_out) = (self.num_inputs(), self.num_outputs());
        let rows = match shape[..] {
            [n] if n == n_in => 1,
            [rows, n] if n == n_in => rows,
            _ => {
                return Err(value_error(format!(
                    "an input of shape {shape:?} does not fit a net of {n_in} inputs"
                )))
            }
        };
        let x: &[f32] = arr.as_slice().map_err(value_error)?;
        let net = &self.file.net;
        let out = py.detach(|| {
            let mut out = vec![0.0f32; rows * n_out];
            let mut scratch = Scratch::new();
            for (i, o) in x.chunks_exact(n_in).zip(out.chunks_exact_mut(n_out)) {
                net.forward(i, o, &mut scratch);
            }
            out
        });
        let out = numpy_vec(py, out);
        if shape.len() == 1 {
            Ok(out)
        } else {
            out.call_method1("reshape", (rows, n_out))
        }
    }
}
