//! `wopr._wopr`: the native half of the `wopr` Python package. Games and
//! states with OpenSpiel's method names, wopr's players, match evaluation
//! and net files; `python/wopr/__init__.py` adds NumPy arrays and the
//! PettingZoo environment on top.
//!
//! A game is type-erased once, when it is loaded ([`DynGame`], built for
//! every registered game: the board games by `with_board_game!`, the rest
//! by name), so each Python call is one
//! virtual call into the generic code every other wopr front end uses.

use std::any::Any;

use numpy::{IntoPyArray, PyReadonlyArrayDyn, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::Path;

use wopr::eval::match_stats;
use wopr::eval::matches::play_match_from;
use wopr::eval::openings::Openings;
use wopr::eval::tournament::{play_tournament, Format};
use wopr::experiment::learn::pretrain::PretrainConfig;
use wopr::experiment::learn::td::TdConfig;
use wopr::experiment::learn::train::TrainConfig;
use wopr::experiment::learn::{self, LearnProgress, Row};
use wopr::experiment::{start, EvolveConfig};
use wopr::game::driver::{random_playout, replay, seats_swapped};
use wopr::game::encode::Encodable;
use wopr::game::rng::{stream, WoprRng};
use wopr::game::{Action, ActionList, Game, Player, State, Turn};
use wopr::games::gdl::game::{GdlHidden, GdlHiddenState};
use wopr::games::goofspiel::GoofspielState;
use wopr::games::kuhn::KuhnState;
use wopr::games::pig::PigState;
use wopr::nn::{NetFile, Network, Scratch};
use wopr::players::{parse_player, resolve_player, Roster};
use wopr::registry::AnyGame;
use wopr::with_board_game;

/// OpenSpiel's player ids for the turns that are not one player's.
const CHANCE: i64 = -1;
const SIMULTANEOUS: i64 = -2;
const TERMINAL: i64 = -4;

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// `v` as a NumPy array without a copy: the vector's buffer becomes the
/// array's (rust-numpy keeps it alive as the array's base object).
fn numpy_vec<T: numpy::Element>(py: Python<'_>, v: Vec<T>) -> Bound<'_, PyAny> {
    v.into_pyarray(py).into_any()
}

/// A game behind one interface.
trait DynGame: Send + Sync {
    fn spec(&self) -> String;
    fn num_distinct_actions(&self) -> usize;
    fn num_players(&self) -> usize;
    fn max_game_length(&self) -> usize;
    fn new_state(&self) -> Box<dyn DynState>;
    fn replay(&self, actions: &[Action]) -> Result<Box<dyn DynState>, String>;
    /// The encodings nets read (none for games nets do not play).
    fn encodings(&self) -> Vec<&'static str>;
    fn observation_size(&self, encoding: Option<&str>) -> Result<usize, String>;
    fn player(&self, spec: &str) -> Result<Box<dyn DynPlayer>, String>;
    fn playouts(&self, n: u64, seed: u64) -> (u64, Vec<f64>);
    /// `wopr eval --json`'s rows: `player` against each of `against`.
    fn eval(
        &self,
        player: &str,
        against: &[String],
        games: usize,
        seed: u64,
        openings: Option<&str>,
    ) -> Result<Vec<String>, String>;
    /// `wopr tournament --json` of `players` (a gauntlet of the player
    /// `gauntlet` when given; ratings anchored at `anchor` = `anchor_elo`).
    #[allow(clippy::too_many_arguments)]
    fn tournament(
        &self,
        players: &[String],
        games: usize,
        seed: u64,
        openings: Option<&str>,
        gauntlet: Option<usize>,
        anchor: usize,
        anchor_elo: f64,
    ) -> Result<String, String>;
}

/// A state behind one interface, with the actions that led to it.
trait DynState: Send + Sync {
    fn turn(&self) -> Turn;
    fn legal_actions(&self, player: Option<usize>) -> Vec<Action>;
    fn apply(&mut self, action: Action) -> Result<(), String>;
    fn apply_joint(&mut self, actions: &[Action]) -> Result<(), String>;
    fn returns(&self) -> Vec<f64>;
    fn text(&self) -> String;
    fn action_to_string(&self, action: Action) -> String;
    fn history(&self) -> &[Action];
    fn num_actions(&self) -> usize;
    fn chance_outcomes(&self) -> Vec<(Action, f64)>;
    fn observation(
        &self,
        encoding: Option<&str>,
        observer: Option<usize>,
    ) -> Result<Vec<f32>, String>;
    fn boxed(&self) -> Box<dyn DynState>;
    fn as_any(&self) -> &dyn Any;
}

/// A player of one game behind one interface.
trait DynPlayer: Send {
    fn step(&mut self, state: &dyn DynState, rng: WoprRng) -> Result<Action, String>;
}

/// Encodes a state of `G` in the named encoding (the game's own if none),
/// as the given seat observes it.
type EncodeFn<G> = fn(&G, &<G as Game>::State, Option<&str>, usize) -> Result<Vec<f32>, String>;

/// A game and, for board games, its encodings.
#[derive(Clone)]
struct Erased<G: Game> {
    game: G,
    encode: EncodeFn<G>,
    encodings: fn(&G) -> Vec<&'static str>,
}

/// The observation of a board game's state: `encoding`, or the game's own
/// (its first). Board encodings are from the mover's side, whoever observes.
fn encode<G: Encodable>(
    game: &G,
    state: &G::State,
    name: Option<&str>,
    _observer: usize,
) -> Result<Vec<f32>, String> {
    let name = name.unwrap_or(game.encoding_names()[0]);
    let e = game.encoding(name).map_err(|e| e.to_string())?;
    let mut out = vec![0.0; e.size()];
    e.encode(state, &mut out);
    Ok(out)
}

fn board_encodings<G: Encodable>(game: &G) -> Vec<&'static str> {
    game.encoding_names().to_vec()
}

/// The one encoding of the games that are not board games: each game's
/// `observation_tensor(observer)` (Pig, Kuhn poker, Goofspiel).
const OBSERVATION: &str = "observation";

fn observation_encoding<G>(_: &G) -> Vec<&'static str> {
    vec![OBSERVATION]
}

/// Checks that `name` is the one encoding of a game that is not a board game.
fn only_observation(game: &impl Game, name: Option<&str>) -> Result<(), String> {
    match name {
        None | Some(OBSERVATION) => Ok(()),
        Some(other) => Err(format!(
            "{} has no encoding '{other}' (accepted: {OBSERVATION})",
            game.spec()
        )),
    }
}

/// GDL-II games (sheets with `sees`) have no observation tensor: a seat
/// knows only its percepts (`State.__str__` shows the whole state).
fn no_observation(
    g: &GdlHidden,
    _: &GdlHiddenState,
    _: Option<&str>,
    _: usize,
) -> Result<Vec<f32>, String> {
    Err(format!(
        "{} has no observation tensor (a GDL-II sheet: each seat sees only its percepts)",
        g.spec()
    ))
}

/// States with their own observation tensor (the games that are not board
/// games), each as its module documents it.
trait Observed {
    fn observation_tensor(&self, observer: usize) -> Vec<f32>;
}

impl Observed for PigState {
    fn observation_tensor(&self, observer: usize) -> Vec<f32> {
        PigState::observation_tensor(self, observer)
    }
}

impl Observed for KuhnState {
    fn observation_tensor(&self, observer: usize) -> Vec<f32> {
        KuhnState::observation_tensor(self, observer)
    }
}

impl Observed for GoofspielState {
    fn observation_tensor(&self, observer: usize) -> Vec<f32> {
        GoofspielState::observation_tensor(self, observer)
    }
}

/// The observation of a game that is not a board game: its one encoding.
fn observation<G: Game<State: Observed>>(
    g: &G,
    s: &G::State,
    name: Option<&str>,
    observer: usize,
) -> Result<Vec<f32>, String> {
    only_observation(g, name).map(|_| s.observation_tensor(observer))
}

struct ErasedState<G: Game> {
    erased: Erased<G>,
    state: G::State,
    history: Vec<Action>,
}

impl<G: Roster> DynGame for Erased<G> {
    fn spec(&self) -> String {
        self.game.spec()
    }
    fn num_distinct_actions(&self) -> usize {
        self.game.num_actions()
    }
    fn num_players(&self) -> usize {
        self.game.num_players()
    }
    fn max_game_length(&self) -> usize {
        self.game.max_game_length()
    }
    fn new_state(&self) -> Box<dyn DynState> {
        Box::new(ErasedState {
            erased: self.clone(),
            state: self.game.initial_state(),
            history: Vec::new(),
        })
    }
    fn replay(&self, actions: &[Action]) -> Result<Box<dyn DynState>, String> {
        let state = replay(&self.game, actions)?;
        Ok(Box::new(ErasedState {
            erased: self.clone(),
            state,
            history: actions.to_vec(),
        }))
    }
    fn encodings(&self) -> Vec<&'static str> {
        (self.encodings)(&self.game)
    }
    fn observation_size(&self, encoding: Option<&str>) -> Result<usize, String> {
        Ok(self.new_state().observation(encoding, None)?.len())
    }
    fn player(&self, spec: &str) -> Result<Box<dyn DynPlayer>, String> {
        let player = parse_player(&self.game, spec).map_err(|e| e.to_string())?;
        Ok(Box::new(ErasedPlayer::<G> { player }))
    }
    fn playouts(&self, n: u64, seed: u64) -> (u64, Vec<f64>) {
        let players = self.game.num_players();
        let start = self.game.initial_state();
        let mut rng = stream(seed, &[0]);
        let (mut actions, mut returns) = (0u64, vec![0.0; players]);
        for _ in 0..n {
            let mut s = start.clone();
            actions += random_playout(&mut s, players, &mut rng) as u64;
            for (p, r) in returns.iter_mut().enumerate() {
                *r += s.returns(p);
            }
        }
        (actions, returns)
    }
    fn eval(
        &self,
        player: &str,
        against: &[String],
        games: usize,
        seed: u64,
        openings: Option<&str>,
    ) -> Result<Vec<String>, String> {
        let game = &self.game;
        if games == 0 {
            return Err("games must be at least 1".into());
        }
        parse_player(game, player).map_err(|e| format!("bad player: {e}"))?;
        let openings = match openings {
            Some(spec) => Openings::parse(game, spec).map_err(|e| format!("bad openings: {e}"))?,
            None => Openings::None,
        };
        // As `wopr eval --json`: opponent j's games are seeded from the
        // seed's stream j, half of them from each seat.
        let mut rows = Vec::new();
        for (j, opp) in against.iter().enumerate() {
            use rand::Rng;
            let s = stream(seed, &[j as u64]).next_u64();
            let records = play_match_from(game, player, opp, games, s, &openings, &|| {})?;
            let stats = match_stats(player, opp, &records, |i| usize::from(seats_swapped(i)));
            let mut row = serde_json::to_value(&stats).map_err(|e| e.to_string())?;
            // As the command line: each player as it is played.
            row["player_resolved"] = resolve_player(game, player)
                .map_err(|e| format!("bad player: {e}"))?
                .into();
            row["opponent_resolved"] = resolve_player(game, opp)
                .map_err(|e| format!("bad opponent '{opp}': {e}"))?
                .into();
            rows.push(row.to_string());
        }
        Ok(rows)
    }
    fn tournament(
        &self,
        players: &[String],
        games: usize,
        seed: u64,
        openings: Option<&str>,
        gauntlet: Option<usize>,
        anchor: usize,
        anchor_elo: f64,
    ) -> Result<String, String> {
        let game = &self.game;
        if players.len() < 2 || games == 0 {
            return Err("a tournament needs two players or more and a game per pairing".into());
        }
        let openings = match openings {
            Some(spec) => Openings::parse(game, spec).map_err(|e| format!("bad openings: {e}"))?,
            None => Openings::None,
        };
        let format = gauntlet.map_or(Format::RoundRobin, Format::Gauntlet);
        let t = play_tournament(game, players, format, games, seed, &openings, &|| {})?;
        let ratings = t.ratings(anchor, anchor_elo)?;
        let mut v = t.to_json(&game.spec(), &ratings);
        v["resolved"] = players
            .iter()
            .map(|p| resolve_player(game, p).map_err(|e| format!("bad player '{p}': {e}")))
            .collect::<Result<Vec<_>, _>>()?
            .into();
        Ok(v.to_string())
    }
}

impl<G: Roster> DynState for ErasedState<G> {
    fn turn(&self) -> Turn {
        self.state.turn()
    }
    fn legal_actions(&self, player: Option<usize>) -> Vec<Action> {
        let mut out = ActionList::new();
        match (self.state.turn(), player) {
            (Turn::Simultaneous, Some(p)) => self.state.legal_actions_of(p, &mut out),
            (Turn::Player(me), Some(p)) if me != p => {}
            (Turn::Chance, _) => {
                let mut outcomes = Vec::new();
                self.state.chance_outcomes(&mut outcomes);
                return outcomes.into_iter().map(|(a, _)| a).collect();
            }
            _ => self.state.legal_actions(&mut out),
        }
        out.to_vec()
    }
    fn apply(&mut self, action: Action) -> Result<(), String> {
        match self.state.turn() {
            Turn::Terminal => return Err("the game is over".into()),
            Turn::Simultaneous => {
                return Err("a simultaneous turn takes every player's action: apply_actions".into())
            }
            Turn::Chance => {
                if !self.legal_actions(None).contains(&action) {
                    return Err(format!("{action} is not a chance outcome here"));
                }
                self.state.apply(action);
            }
            Turn::Player(_) => {
                let legal = self.legal_actions(None);
                if !legal.contains(&action) {
                    return Err(format!(
                        "action {action} is not legal here (legal: {legal:?})"
                    ));
                }
                self.state.apply(action);
            }
        }
        self.history.push(action);
        Ok(())
    }
    fn apply_joint(&mut self, actions: &[Action]) -> Result<(), String> {
        if self.state.turn() != Turn::Simultaneous {
            return Err("not a simultaneous turn: apply_action".into());
        }
        let n = self.erased.game.num_players();
        if actions.len() != n {
            return Err(format!("{} actions for {n} players", actions.len()));
        }
        for (p, a) in actions.iter().enumerate() {
            if !self.legal_actions(Some(p)).contains(a) {
                return Err(format!("{a} is not legal for player {p}"));
            }
        }
        self.state.apply_joint(actions);
        self.history.extend_from_slice(actions);
        Ok(())
    }
    fn returns(&self) -> Vec<f64> {
        (0..self.erased.game.num_players())
            .map(|p| self.state.returns(p))
            .collect()
    }
    fn text(&self) -> String {
        self.state.to_string()
    }
    fn action_to_string(&self, action: Action) -> String {
        self.state.action_to_string(action)
    }
    fn history(&self) -> &[Action] {
        &self.history
    }
    fn num_actions(&self) -> usize {
        self.erased.game.num_actions()
    }
    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        let mut out = Vec::new();
        self.state.chance_outcomes(&mut out);
        out
    }
    fn observation(
        &self,
        encoding: Option<&str>,
        observer: Option<usize>,
    ) -> Result<Vec<f32>, String> {
        let seats = self.erased.game.num_players();
        let observer = match (observer, self.state.turn()) {
            (Some(p), _) if p < seats => p,
            (Some(p), _) => return Err(format!("player {p} is not a seat (0..{seats})")),
            (None, Turn::Player(p)) => p,
            (None, _) => 0,
        };
        (self.erased.encode)(&self.erased.game, &self.state, encoding, observer)
    }
    fn boxed(&self) -> Box<dyn DynState> {
        Box::new(ErasedState {
            erased: self.erased.clone(),
            state: self.state.clone(),
            history: self.history.clone(),
        })
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

struct ErasedPlayer<G: Game> {
    player: Box<dyn Player<G>>,
}

impl<G: Roster> DynPlayer for ErasedPlayer<G> {
    fn step(&mut self, state: &dyn DynState, mut rng: WoprRng) -> Result<Action, String> {
        let state = state
            .as_any()
            .downcast_ref::<ErasedState<G>>()
            .ok_or("the state is of another game than the player")?;
        let Turn::Player(seat) = state.state.turn() else {
            return Err("the player steps only where one player is to move".into());
        };
        let mut legal = ActionList::new();
        state.state.legal_actions(&mut legal);
        Ok(self
            .player
            .choose(&state.state.view(seat), &legal, &mut rng))
    }
}

#[allow(clippy::clone_on_copy)] // some games are Copy, some are not
fn erase(game: &AnyGame) -> Box<dyn DynGame> {
    with_board_game!(game, g => Box::new(Erased {
        game: g.clone(),
        encode,
        encodings: board_encodings,
    }) as Box<dyn DynGame>,
    match game {
        AnyGame::Pig(g) => Box::new(Erased {
            game: g.clone(),
            encode: observation,
            encodings: observation_encoding,
        }),
        AnyGame::Kuhn(g) => Box::new(Erased {
            game: g.clone(),
            encode: observation,
            encodings: observation_encoding,
        }),
        AnyGame::Goofspiel(g) => Box::new(Erased {
            game: g.clone(),
            encode: observation,
            encodings: observation_encoding,
        }),
        AnyGame::GdlHidden(g) => Box::new(Erased {
            game: g.clone(),
            encode: no_observation,
            encodings: |_| Vec::new(),
        }),
        _ => unreachable!("with_board_game! takes every board game"),
    })
}

/// A loaded game (`load_game("connect4:7x6")`).
#[pyclass(name = "Game", module = "wopr", frozen)]
struct PyGame {
    inner: Box<dyn DynGame>,
}

#[pymethods]
impl PyGame {
    /// The game's spec, as `load_game` takes it.
    fn spec(&self) -> String {
        self.inner.spec()
    }
    /// A state at the start of the game.
    fn new_initial_state(&self) -> PyState {
        PyState {
            inner: self.inner.new_state(),
        }
    }
    /// The size of the action space (actions are `0..n`).
    fn num_distinct_actions(&self) -> usize {
        self.inner.num_distinct_actions()
    }
    /// The number of players.
    fn num_players(&self) -> usize {
        self.inner.num_players()
    }
    /// The most actions a game can take.
    fn max_game_length(&self) -> usize {
        self.inner.max_game_length()
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
    #[pyo3(signature = (n, seed=1))]
    fn playouts<'py>(&self, py: Python<'py>, n: u64, seed: u64) -> PyResult<Bound<'py, PyDict>> {
        let (actions, returns) = py.detach(|| self.inner.playouts(n, seed));
        let d = PyDict::new(py);
        d.set_item("games", n)?;
        d.set_item("actions", actions)?;
        d.set_item("returns", returns)?;
        Ok(d)
    }
    /// The length of an observation in `encoding` (the game's own by
    /// default), as a shape.
    #[pyo3(signature = (encoding=None))]
    fn observation_tensor_shape(&self, encoding: Option<&str>) -> PyResult<Vec<usize>> {
        Ok(vec![self
            .inner
            .observation_size(encoding)
            .map_err(value_error)?])
    }
    /// The state `serialize()` wrote.
    fn deserialize_state(&self, text: &str) -> PyResult<PyState> {
        let actions = parse_actions(text)?;
        Ok(PyState {
            inner: self.inner.replay(&actions).map_err(value_error)?,
        })
    }
    /// `wopr eval --json`'s rows (one JSON object per opponent).
    #[pyo3(signature = (player, against, games, seed, openings=None))]
    fn eval_json(
        &self,
        py: Python<'_>,
        player: &str,
        against: Vec<String>,
        games: usize,
        seed: u64,
        openings: Option<&str>,
    ) -> PyResult<Vec<String>> {
        py.detach(|| self.inner.eval(player, &against, games, seed, openings))
            .map_err(value_error)
    }
    /// `wopr tournament --json` (one JSON object): `players` are specs;
    /// `gauntlet` and `anchor` name one of them.
    #[pyo3(signature = (players, games, seed, openings=None, gauntlet=None, anchor=None, anchor_elo=0.0))]
    #[allow(clippy::too_many_arguments)]
    fn tournament_json(
        &self,
        py: Python<'_>,
        players: Vec<String>,
        games: usize,
        seed: u64,
        openings: Option<&str>,
        gauntlet: Option<&str>,
        anchor: Option<&str>,
        anchor_elo: f64,
    ) -> PyResult<String> {
        let index = |what: &str, spec: Option<&str>| -> PyResult<Option<usize>> {
            spec.map(|p| {
                players
                    .iter()
                    .position(|q| q == p)
                    .ok_or_else(|| value_error(format!("{what} '{p}' is not one of the players")))
            })
            .transpose()
        };
        let gauntlet = index("gauntlet", gauntlet)?;
        let anchor = index("anchor", anchor)?.unwrap_or(0);
        py.detach(|| {
            self.inner.tournament(
                &players, games, seed, openings, gauntlet, anchor, anchor_elo,
            )
        })
        .map_err(value_error)
    }
    fn __str__(&self) -> String {
        self.inner.spec()
    }
    fn __repr__(&self) -> String {
        format!("wopr.load_game({:?})", self.inner.spec())
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

/// A position of a game, with the actions that led to it.
#[pyclass(name = "State", module = "wopr")]
struct PyState {
    inner: Box<dyn DynState>,
}

#[pymethods]
impl PyState {
    /// The player to move, or OpenSpiel's -1 (chance), -2 (simultaneous),
    /// -4 (terminal).
    fn current_player(&self) -> i64 {
        match self.inner.turn() {
            Turn::Player(p) => p as i64,
            Turn::Chance => CHANCE,
            Turn::Simultaneous => SIMULTANEOUS,
            Turn::Terminal => TERMINAL,
        }
    }
    /// The legal actions (of `player` at a simultaneous turn; the chance
    /// outcomes at a chance node), ascending.
    #[pyo3(signature = (player=None))]
    fn legal_actions(&self, player: Option<usize>) -> Vec<Action> {
        let mut v = self.inner.legal_actions(player);
        v.sort_unstable();
        v
    }
    /// A 0/1 int8 NumPy array over the game's actions marking the legal
    /// ones (`player`'s at a simultaneous turn).
    #[pyo3(signature = (player=None))]
    fn legal_actions_mask<'py>(
        &self,
        py: Python<'py>,
        player: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut mask = vec![0i8; self.inner.num_actions()];
        for a in self.inner.legal_actions(player) {
            if let Some(m) = mask.get_mut(usize::from(a)) {
                *m = 1;
            }
        }
        Ok(numpy_vec(py, mask))
    }
    /// Applies one action (a ValueError if it is not legal).
    fn apply_action(&mut self, action: Action) -> PyResult<()> {
        self.inner.apply(action).map_err(value_error)
    }
    /// Applies every player's action at a simultaneous turn.
    fn apply_actions(&mut self, actions: Vec<Action>) -> PyResult<()> {
        self.inner.apply_joint(&actions).map_err(value_error)
    }
    /// The state after `action`, this one unchanged.
    fn child(&self, action: Action) -> PyResult<PyState> {
        let mut inner = self.inner.boxed();
        inner.apply(action).map_err(value_error)?;
        Ok(PyState { inner })
    }
    /// A copy.
    fn clone(&self) -> PyState {
        PyState {
            inner: self.inner.boxed(),
        }
    }
    fn __copy__(&self) -> PyState {
        self.clone()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone()
    }
    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.inner.turn() == Turn::Terminal
    }
    /// Whether chance moves next.
    fn is_chance_node(&self) -> bool {
        self.inner.turn() == Turn::Chance
    }
    /// Whether every player moves at once.
    fn is_simultaneous_node(&self) -> bool {
        self.inner.turn() == Turn::Simultaneous
    }
    /// Each player's return (0 before the end).
    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }
    /// Chance outcomes with their probabilities (at a chance node).
    fn chance_outcomes(&self) -> Vec<(Action, f64)> {
        self.inner.chance_outcomes()
    }
    /// `action` in the game's notation.
    #[pyo3(signature = (action, player=None))]
    fn action_to_string(&self, action: Action, player: Option<i64>) -> String {
        let _ = player;
        self.inner.action_to_string(action)
    }
    /// The actions so far.
    fn history(&self) -> Vec<Action> {
        self.inner.history().to_vec()
    }
    /// The state as text `Game.deserialize_state` reads back (its actions).
    fn serialize(&self) -> String {
        let h: Vec<String> = self.inner.history().iter().map(|a| a.to_string()).collect();
        h.join(" ")
    }
    /// The observation as a float32 NumPy array (handed over without a
    /// copy): the game's own encoding, or `encoding` (one of
    /// `Game.encodings()`), as seat `player` sees it (the player to move by
    /// default). The board games' encodings are from the mover's side
    /// whoever observes (their state is public); Pig, Kuhn poker and
    /// Goofspiel observe from `player`'s seat, Kuhn hiding the other card.
    #[pyo3(signature = (encoding=None, player=None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        encoding: Option<&str>,
        player: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let v = self
            .inner
            .observation(encoding, player)
            .map_err(value_error)?;
        Ok(numpy_vec(py, v))
    }
    fn __str__(&self) -> String {
        self.inner.text()
    }
    fn __repr__(&self) -> String {
        format!("<wopr.State after {} actions>", self.inner.history().len())
    }
}

/// A wopr player (`alphabeta:depth=4`, `mcts:sims=200`, `perfect`,
/// `net:FILE`, …) for one game.
#[pyclass(name = "Player", module = "wopr")]
struct PyPlayer {
    /// The player and the number of steps it has taken.
    inner: std::sync::Mutex<(Box<dyn DynPlayer>, u64)>,
    seed: u64,
}

#[pymethods]
impl PyPlayer {
    #[new]
    #[pyo3(signature = (spec, game, seed=0))]
    fn new(spec: &str, game: &PyGame, seed: u64) -> PyResult<PyPlayer> {
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
struct PyNet {
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
fn run(
    py: Python<'_>,
    config: &Bound<'_, PyAny>,
    out: std::path::PathBuf,
    seed: Option<u64>,
    progress: Option<Py<PyAny>>,
) -> PyResult<String> {
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

/// The specs of the registered games, as `load_game` takes them.
/// The registered games' spec names (`gdl` is not among them: a GDL game
/// is loaded from its rule sheet, `load_game("gdl:PATH.kif")`).
#[pyfunction]
fn registered_games() -> Vec<String> {
    wopr::registry::games()
        .iter()
        .filter(|g| g.name != "gdl")
        .map(|g| g.name.to_string())
        .collect()
}

/// Loads a game from its spec (`tictactoe`, `connect4:7x6`, `reversi:8x8`).
#[pyfunction]
fn load_game(spec: &str) -> PyResult<PyGame> {
    let game = AnyGame::parse(spec).map_err(value_error)?;
    Ok(PyGame {
        inner: erase(&game),
    })
}

#[pymodule]
fn _wopr(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(registered_games, m)?)?;
    m.add_function(wrap_pyfunction!(load_game, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add_class::<PyPlayer>()?;
    m.add_class::<PyNet>()?;
    Ok(())
}
