//! `wopr.Game`: a loaded game with pyspiel's methods (type, sizes,
//! utilities, parameters, observers) and wopr's (encodings, native
//! playouts, matches and tournaments).

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyDict;

use wopr::game::Action;

use crate::args::{self, count};
use crate::bots::{Bot, Entrant};
use crate::erased::Wrap;
use crate::errors::value_error;
use crate::spiel::Param;
use crate::state::{PyObserver, PyState};
use crate::views::{self, ObsType, PrivateInfo, Tensors, View};

pub use crate::handle::PyGame;

impl PyGame {
    fn state(&self, inner: Box<dyn crate::erased::DynState>) -> PyState {
        PyState::new(inner, self.inner.clone(), self.facts.clone())
    }

    /// Wraps states of this game as `wopr.State`s for Python players.
    fn wrap(&self) -> Wrap {
        let (game, facts) = (self.inner.clone(), self.facts.clone());
        Arc::new(move |py, inner| {
            let state = PyState::new(inner, game.clone(), facts.clone());
            Ok(Py::new(py, state)?.into_any())
        })
    }
}

/// A player argument: a spec, or a Python object with `step`.
fn entrant(obj: &Bound<'_, PyAny>) -> PyResult<Entrant> {
    if let Ok(spec) = obj.extract::<String>() {
        return Ok(Entrant::Spec(spec));
    }
    if !obj.hasattr("step")? {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "a player is a spec or an object with step(state), not {}",
            obj.get_type().name()?
        )));
    }
    let name = match obj.getattr("name") {
        Ok(n) if n.is_instance_of::<pyo3::types::PyString>() => n.extract()?,
        _ => format!("python:{}", obj.get_type().name()?),
    };
    Ok(Entrant::Bot(Bot {
        object: Arc::new(obj.clone().unbind()),
        name,
    }))
}

/// `params` as a dict of Python values of OpenSpiel's parameter types.
fn params_dict<'py>(py: Python<'py>, params: &[(String, Param)]) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    for (k, v) in params {
        d.set_item(k, param_value(py, v)?)?;
    }
    Ok(d)
}

/// `p` as a Python value of OpenSpiel's parameter type.
fn param_value<'py>(py: Python<'py>, p: &Param) -> PyResult<Bound<'py, PyAny>> {
    Ok(match p {
        Param::Int(i) => i.into_pyobject(py)?.into_any(),
        Param::Bool(b) => pyo3::types::PyBool::new(py, *b).to_owned().into_any(),
        Param::Str(s) => s.into_pyobject(py)?.into_any(),
    })
}

#[pymethods]
impl PyGame {
    /// The game's spec, as `load_game` takes it (wopr's spec of the game
    /// played, for OpenSpiel's games too).
    fn spec(&self) -> String {
        self.inner.spec()
    }
    /// Whether this is OpenSpiel's version of a game, loaded by its game
    /// string (`connect_four`, `pig()`): OpenSpiel's type, parameters,
    /// numbering and representations; false for wopr's specs.
    #[getter]
    fn is_openspiel(&self) -> bool {
        self.facts.openspiel
    }
    /// A state at the start of the game.
    fn new_initial_state(&self) -> PyState {
        self.state(self.inner.new_state())
    }
    /// The start states, as OpenSpiel's `new_initial_states` (one here).
    fn new_initial_states(&self) -> Vec<PyState> {
        vec![self.new_initial_state()]
    }
    /// The size of the players' action space (their actions are `0..n`).
    fn num_distinct_actions(&self) -> usize {
        self.facts.num_distinct_actions
    }
    /// The most outcomes a chance node has (0 for games without chance);
    /// chance outcomes are `0..n`.
    fn max_chance_outcomes(&self) -> usize {
        self.facts.max_chance_outcomes
    }
    /// The number of players.
    fn num_players(&self) -> usize {
        self.facts.num_players
    }
    /// The most moves a game can take (OpenSpiel counts a joint move of
    /// a simultaneous turn once).
    fn max_game_length(&self) -> usize {
        self.facts.max_game_length
    }
    /// The lowest return a player can get.
    fn min_utility(&self) -> f64 {
        self.facts.min_utility
    }
    /// The highest return a player can get.
    fn max_utility(&self) -> f64 {
        self.facts.max_utility
    }
    /// The sum of the players' returns, where it is fixed (0 for the
    /// zero-sum games); a SpielError for a general-sum game, as pyspiel.
    fn utility_sum(&self) -> PyResult<f64> {
        self.facts
            .utility_sum
            .ok_or_else(|| value_error(format!("{} is not a constant-sum game", self.inner.spec())))
    }
    /// The game's parameters: OpenSpiel's (every one, defaults filled in)
    /// for OpenSpiel's games, the spec's keys for wopr's.
    fn get_parameters<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        params_dict(py, &self.facts.parameters)
    }
    /// The game's `GameType`: a `pyspiel.GameType` where OpenSpiel is
    /// installed (so `get_type().dynamics == pyspiel.GameType.Dynamics.
    /// SEQUENTIAL` holds), otherwise an object with the same fields and
    /// enum names (`wopr.GameType`).
    fn get_type<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let f = &self.facts;
        let d = PyDict::new(py);
        d.set_item("short_name", &f.short_name)?;
        d.set_item("dynamics", f.dynamics)?;
        d.set_item("chance_mode", f.chance_mode)?;
        d.set_item("information", f.information)?;
        d.set_item("utility", f.utility)?;
        d.set_item("reward_model", "TERMINAL")?;
        d.set_item("provides_observation_string", true)?;
        d.set_item("provides_observation_tensor", f.provides_observation_tensor)?;
        match &f.spiel_type {
            // OpenSpiel's game: its type, field by field.
            Some(t) => {
                let decl = t.declaration();
                d.set_item("long_name", decl.long_name)?;
                d.set_item("max_num_players", decl.max_num_players)?;
                d.set_item("min_num_players", t.min_num_players())?;
                let info = (decl.information_state_string, decl.information_state_tensor);
                d.set_item("provides_information_state_string", info.0)?;
                d.set_item("provides_information_state_tensor", info.1)?;
                d.set_item(
                    "provides_factored_observation_string",
                    decl.factored_observation_string,
                )?;
                d.set_item("parameters", params_dict(py, &t.defaults())?)?;
            }
            None => {
                d.set_item("long_name", &f.long_name)?;
                d.set_item("max_num_players", f.num_players)?;
                d.set_item("min_num_players", f.num_players)?;
                d.set_item(
                    "provides_information_state_string",
                    f.provides_information_state_string,
                )?;
                d.set_item(
                    "provides_information_state_tensor",
                    f.provides_information_state_tensor,
                )?;
                d.set_item("provides_factored_observation_string", false)?;
                d.set_item("parameters", self.get_parameters(py)?)?;
            }
        }
        py.import("wopr._spiel")?.call_method1("game_type", (d,))
    }
    /// The encodings nets read, the default first.
    fn encodings(&self) -> Vec<&'static str> {
        self.inner.encodings()
    }
    /// Plays `n` uniformly random games from the start natively (the
    /// loop `wopr bench` times, chance sampled, the GIL released) and
    /// returns `{"games": n, "actions": actions played, "returns": the sum
    /// of each player's returns}`: the speed of wopr's games without a
    /// Python call per move.
    /// `n` and `seed` are whole numbers from 0 (a ValueError naming the
    /// value otherwise).
    #[pyo3(signature = (n, seed=None))]
    fn playouts<'py>(
        &self,
        py: Python<'py>,
        n: &Bound<'py, PyAny>,
        seed: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let n = count(n, "n", 0)? as u64;
        let seed = seed.map_or(Ok(1), |s| args::seed(s, "seed"))?;
        let (actions, returns) = py.detach(|| self.inner.playouts(n, seed));
        let d = PyDict::new(py);
        d.set_item("games", n)?;
        d.set_item("actions", actions)?;
        d.set_item("returns", returns)?;
        Ok(d)
    }
    /// The shape of an observation: OpenSpiel's for OpenSpiel's games
    /// (`tic_tac_toe`: `[3, 3, 3]`); one dimension for wopr's encodings
    /// (`encoding`, the game's own by default).
    #[pyo3(signature = (encoding=None))]
    fn observation_tensor_shape(&self, encoding: Option<&str>) -> PyResult<Vec<usize>> {
        if let (Some(view), None) = (self.view(), encoding) {
            return self.openspiel_shape(|s, t| view.observation_tensor(s, 0, t));
        }
        Ok(vec![self.observation_tensor_size(encoding)?])
    }
    /// The length of an observation (OpenSpiel's for OpenSpiel's games,
    /// else in `encoding`, the game's own by default).
    #[pyo3(signature = (encoding=None))]
    fn observation_tensor_size(&self, encoding: Option<&str>) -> PyResult<usize> {
        if let (Some(_), None) = (self.view(), encoding) {
            return Ok(self.observation_tensor_shape(None)?.iter().product());
        }
        self.inner.observation_size(encoding).map_err(value_error)
    }
    /// The shape of an information-state tensor (OpenSpiel's Kuhn poker:
    /// `[11]`); a SpielError for games without one, as pyspiel.
    fn information_state_tensor_shape(&self) -> PyResult<Vec<usize>> {
        if let Some(view) = self.view() {
            return self.openspiel_shape(|s, t| view.information_state_tensor(s, 0, t));
        }
        Ok(vec![self.information_state_tensor_size()?])
    }
    /// The length of an information-state tensor.
    fn information_state_tensor_size(&self) -> PyResult<usize> {
        if self.view().is_some() {
            return Ok(self.information_state_tensor_shape()?.iter().product());
        }
        if !self.facts.provides_information_state_tensor {
            return Err(value_error(format!(
                "{} has no information-state tensor (observation_tensor has its state)",
                self.inner.spec()
            )));
        }
        let s = self.inner.new_state();
        Ok(s.information_state_tensor(0).map_err(value_error)?.len())
    }
    /// An observer, as OpenSpiel's `make_py_observer`
    /// (`observation.make_observation` calls it). For OpenSpiel's games,
    /// OpenSpiel's observer of `iig_obs_type` (a
    /// `pyspiel.IIGObservationType`, or `None` for the default) and
    /// `params`, or `None` where OpenSpiel has none. For wopr's,
    /// `iig_obs_type` with `perfect_recall` true observes information
    /// states, otherwise observations (`params` must be empty).
    #[pyo3(signature = (iig_obs_type=None, params=None))]
    fn make_py_observer(
        &self,
        py: Python<'_>,
        iig_obs_type: Option<&Bound<'_, PyAny>>,
        params: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<PyObserver>> {
        if let Some(view) = self.view() {
            let ty = iig_obs_type
                .filter(|t| !t.is_none())
                .map(obs_type)
                .transpose()?;
            let params = match params {
                Some(p) if !p.is_none() => obs_params(p)?,
                _ => Vec::new(),
            };
            return match view.make_observer(ty, &params).map_err(value_error)? {
                Some(o) => PyObserver::openspiel(py, &self.inner, view, o).map(Some),
                None => Ok(None),
            };
        }
        if let Some(p) = params {
            if p.len().unwrap_or(0) > 0 {
                return Err(value_error("wopr's observers take no parameters"));
            }
        }
        let info = match iig_obs_type {
            Some(t) if !t.is_none() => t.getattr("perfect_recall")?.is_truthy()?,
            _ => false,
        };
        PyObserver::new(py, self.inner.clone(), self.facts.clone(), info).map(Some)
    }
    /// The same as `make_py_observer`.
    #[pyo3(signature = (iig_obs_type=None, params=None))]
    fn make_observer(
        &self,
        py: Python<'_>,
        iig_obs_type: Option<&Bound<'_, PyAny>>,
        params: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<PyObserver>> {
        self.make_py_observer(py, iig_obs_type, params)
    }
    /// The state `serialize()` wrote.
    fn deserialize_state(&self, text: &str) -> PyResult<PyState> {
        let actions = parse_actions(text)?;
        let mut s = self.new_initial_state();
        s.replay(&actions)?;
        Ok(s)
    }
    /// `wopr eval --json`'s rows (one JSON object per opponent): `player`
    /// and each of `against` a spec, or a Python object with
    /// `step(state)` (named by its `name` attribute, else its class).
    #[pyo3(signature = (player, against, games, seed, openings=None))]
    fn eval_json(
        &self,
        py: Python<'_>,
        player: &Bound<'_, PyAny>,
        against: Vec<Bound<'_, PyAny>>,
        games: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        openings: Option<&str>,
    ) -> PyResult<Vec<String>> {
        let (games, seed) = (count(games, "games", 1)?, args::seed(seed, "seed")?);
        let player = entrant(player)?;
        let against = against.iter().map(entrant).collect::<PyResult<Vec<_>>>()?;
        let wrap = self.wrap();
        py.detach(|| {
            self.inner
                .eval(&player, &against, games, seed, openings, &wrap)
        })
        .map_err(value_error)
    }
    /// `wopr tournament --json` (one JSON object): `players` are specs or
    /// Python objects with `step(state)`; `gauntlet` and `anchor` name
    /// one of them (a spec, or a Python player's name).
    #[pyo3(signature = (players, games, seed, openings=None, gauntlet=None, anchor=None, anchor_elo=0.0))]
    #[allow(clippy::too_many_arguments)]
    fn tournament_json(
        &self,
        py: Python<'_>,
        players: Vec<Bound<'_, PyAny>>,
        games: &Bound<'_, PyAny>,
        seed: &Bound<'_, PyAny>,
        openings: Option<&str>,
        gauntlet: Option<&str>,
        anchor: Option<&str>,
        anchor_elo: f64,
    ) -> PyResult<String> {
        let (games, seed) = (count(games, "games", 1)?, args::seed(seed, "seed")?);
        let players = players.iter().map(entrant).collect::<PyResult<Vec<_>>>()?;
        let index = |what: &str, name: Option<&str>| -> PyResult<Option<usize>> {
            name.map(|p| {
                players
                    .iter()
                    .position(|q| q.name() == p)
                    .ok_or_else(|| value_error(format!("{what} '{p}' is not one of the players")))
            })
            .transpose()
        };
        let gauntlet = index("gauntlet", gauntlet)?;
        let anchor = index("anchor", anchor)?.unwrap_or(0);
        let wrap = self.wrap();
        py.detach(|| {
            self.inner.tournament(
                &players, games, seed, openings, gauntlet, anchor, anchor_elo, &wrap,
            )
        })
        .map_err(value_error)
    }
    fn __str__(&self) -> String {
        self.name()
    }
    fn __repr__(&self) -> String {
        format!("wopr.load_game({:?})", self.name())
    }
    /// Pickles as the name it was loaded by.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let load = py.import("wopr._wopr")?.getattr("load_game")?;
        Ok((load, (self.name(),)))
    }
    fn __eq__(&self, other: &PyGame) -> bool {
        self.key() == other.key()
    }
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.key().hash(&mut h);
        h.finish()
    }
}

impl PyGame {
    /// OpenSpiel's view of the game, for OpenSpiel's games.
    fn view(&self) -> Option<View> {
        views::of(&self.facts)
    }

    /// The shape of the tensors `write` gives player 0 at the start, as
    /// OpenSpiel computes a game's tensor shapes.
    fn openspiel_shape(
        &self,
        write: impl FnOnce(&dyn crate::erased::DynState, &mut Tensors) -> Result<(), String>,
    ) -> PyResult<Vec<usize>> {
        let mut t = Tensors::default();
        write(&*self.inner.new_state(), &mut t).map_err(value_error)?;
        Ok(t.shape())
    }

    /// The name it was loaded by: wopr's spec, or OpenSpiel's game string
    /// as pyspiel writes it (`str(game)`: the parameters given, sorted).
    pub fn name(&self) -> String {
        match &self.facts.spiel_type {
            Some(t) => self.game_string(&t.given),
            None => self.inner.spec(),
        }
    }

    /// The game string with every parameter, defaults included: one
    /// game, one key (`goofspiel()` and `goofspiel(num_cards=13)` are
    /// equal).
    fn key(&self) -> String {
        match self.facts.openspiel {
            true => self.game_string(&self.facts.parameters),
            false => self.inner.spec(),
        }
    }

    fn game_string(&self, params: &[(String, Param)]) -> String {
        let params: Vec<(String, String)> = params
            .iter()
            .map(|(k, v)| (k.clone(), v.to_string()))
            .collect();
        crate::spiel::game_string(&self.facts.short_name, &params)
    }
}

fn parse_actions(text: &str) -> PyResult<Vec<Action>> {
    text.split_whitespace()
        .map(|t| {
            t.parse::<Action>()
                .map_err(|_| value_error(format!("'{t}' in a serialized state is not an action")))
        })
        .collect()
}

/// A `pyspiel.IIGObservationType` (or an object with its three fields) as
/// an observer type.
fn obs_type(t: &Bound<'_, PyAny>) -> PyResult<ObsType> {
    let private = t.getattr("private_info")?;
    let name = match private.getattr("name") {
        Ok(n) => n.extract::<String>()?,
        Err(_) => private.str()?.to_string(),
    };
    let private_info = match name.rsplit('.').next().unwrap_or("") {
        "NONE" | "kNone" | "0" => PrivateInfo::None,
        "SINGLE_PLAYER" | "kSinglePlayer" | "1" => PrivateInfo::SinglePlayer,
        "ALL_PLAYERS" | "kAllPlayers" | "2" => PrivateInfo::AllPlayers,
        other => {
            return Err(value_error(format!(
                "private_info {other} is not one of NONE, SINGLE_PLAYER, ALL_PLAYERS"
            )))
        }
    };
    Ok(ObsType {
        public_info: t.getattr("public_info")?.is_truthy()?,
        perfect_recall: t.getattr("perfect_recall")?.is_truthy()?,
        private_info,
    })
}

/// Observer parameters (a dict) as OpenSpiel types them.
fn obs_params(p: &Bound<'_, PyAny>) -> PyResult<Vec<(String, Param)>> {
    let mut out = Vec::new();
    for item in p.call_method0("items")?.try_iter()? {
        let (k, v): (String, Bound<'_, PyAny>) = item?.extract()?;
        let v = if v.is_instance_of::<pyo3::types::PyBool>() {
            Param::Bool(v.is_truthy()?)
        } else if let Ok(i) = v.extract::<i64>() {
            Param::Int(i)
        } else {
            Param::Str(v.str()?.to_string().into())
        };
        out.push((k, v));
    }
    Ok(out)
}
