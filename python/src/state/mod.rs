//! `wopr.State`: a position with pyspiel's methods in OpenSpiel's
//! argument order (`action_to_string(player, action)`,
//! `observation_tensor(player)`), wopr's encodings as keywords, and
//! `wopr.Observer`, what `Game.make_py_observer` returns.
//!
//! Here the class and its Python methods; `play.rs` how it plays
//! (OpenSpiel's forced moves, numbering, joint actions and legal actions
//! by player id), `observer.rs` the `Observer` class.

use std::sync::Arc;

use pyo3::exceptions::{PyOverflowError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use wopr::game::{Action, Turn};

use crate::erased::{history_str, DynGame, DynState};
use crate::errors::value_error;
use crate::handle::PyGame;
use crate::numpy_vec;
use crate::spiel::Facts;
use crate::views;

/// OpenSpiel's player ids for the turns that are not one player's.
const CHANCE: i64 = -1;
const SIMULTANEOUS: i64 = -2;
const TERMINAL: i64 = -4;

/// A position of a game, with the actions that led to it.
#[pyclass(name = "State", module = "wopr")]
pub struct PyState {
    pub(crate) inner: Box<dyn DynState>,
    game: Arc<dyn DynGame>,
    facts: Arc<Facts>,
    /// Actions at the end of `inner`'s history that OpenSpiel's version of
    /// the game plays by itself (Goofspiel's last round): not in
    /// `history()`.
    auto: usize,
    /// Moves applied: each action and each joint action counts one.
    moves: usize,
}

/// `obj` as an action index: a TypeError for what is not an integer, a
/// SpielError for an integer out of every game's range.
pub fn action_arg(obj: &Bound<'_, PyAny>) -> PyResult<Action> {
    match obj.extract::<i64>() {
        Ok(a) => Action::try_from(a)
            .map_err(|_| value_error(format!("{a} is not an action (actions are 0 and up)"))),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
            Err(value_error(format!("{obj} is not an action (too large)")))
        }
        Err(_) => Err(PyTypeError::new_err(format!(
            "an action is an integer, not {}",
            obj.get_type().name()?
        ))),
    }
}

/// A player argument: an integer, where one too large for any seat is a
/// SpielError (not an OverflowError).
#[derive(Clone, Copy)]
pub struct PlayerArg(pub i64);

impl<'a, 'py> FromPyObject<'a, 'py> for PlayerArg {
    type Error = PyErr;
    fn extract(obj: pyo3::Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<i64>() {
            Ok(p) => Ok(PlayerArg(p)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => Err(value_error(format!(
                "player {} is not a seat",
                obj.as_any()
            ))),
            Err(e) => Err(e),
        }
    }
}

mod observer;
mod play;

pub use observer::PyObserver;

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
    /// The legal actions, ascending: the player's to move, the chance
    /// outcomes at a chance node, OpenSpiel's flat joint actions at a
    /// simultaneous turn (`apply_action` takes them: player 0's choice
    /// varies fastest, each among its legal actions ascending). With `player`: that player's, `[]` for a seat not to
    /// move (as pyspiel); -1 is chance. A SpielError for a player that is
    /// not a seat.
    /// Under OpenSpiel's names, every player id answers as pyspiel's game
    /// does (see `openspiel_legal`).
    #[pyo3(signature = (player=None))]
    fn legal_actions(&self, player: Option<PlayerArg>) -> PyResult<Vec<Action>> {
        let player = player.map(|p| p.0);
        if let (Some(p), true) = (player, self.facts.openspiel) {
            return self.openspiel_legal(p);
        }
        let p = match player {
            None => None,
            Some(CHANCE) => {
                return Ok(match self.inner.turn() {
                    Turn::Chance => self.legal_actions(None)?,
                    _ => Vec::new(),
                })
            }
            Some(p) => Some(self.seat(p)?),
        };
        let mut v = match (self.inner.turn(), p) {
            (Turn::Simultaneous, None) => {
                // OpenSpiel's flat joint actions.
                let count: usize = self.each_legal().iter().map(Vec::len).product();
                return Ok((0..count).map(|a| a as Action).collect());
            }
            (Turn::Chance | Turn::Terminal, Some(_)) => Vec::new(),
            (Turn::Player(me), Some(p)) if me != p => Vec::new(),
            _ => self.inner.legal_actions(p),
        };
        v.iter_mut().for_each(|a| *a = self.os_action(*a));
        v.sort_unstable();
        Ok(v)
    }
    /// A 0/1 int8 NumPy array marking the legal actions of
    /// `legal_actions(player)`: over the players' actions
    /// (`num_distinct_actions`), or the chance outcomes at a chance node
    /// (`max_chance_outcomes`).
    #[pyo3(signature = (player=None))]
    fn legal_actions_mask<'py>(
        &self,
        py: Python<'py>,
        player: Option<PlayerArg>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let player = player.map(|p| p.0);
        let chance = match self.facts.openspiel {
            // pyspiel's `LegalActionsMask(player)`: over the chance
            // outcomes for player -1 (the player to move by default).
            true => player.unwrap_or_else(|| self.current_player()) == CHANCE,
            false => self.inner.turn() == Turn::Chance && matches!(player, None | Some(CHANCE)),
        };
        let n = match chance {
            true => self.facts.max_chance_outcomes,
            false => self.facts.num_distinct_actions,
        };
        let mut mask = vec![0i8; n];
        for a in self.legal_actions(player.map(PlayerArg))? {
            if let Some(m) = mask.get_mut(usize::from(a)) {
                *m = 1;
            }
        }
        Ok(numpy_vec(py, mask))
    }
    /// Applies one action: a player's, or a chance outcome (a SpielError
    /// if it is not legal here, a TypeError if it is not an integer).
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let action = action_arg(action)?;
        match self.inner.turn() {
            Turn::Simultaneous => {
                let joint = self.joint(action)?;
                self.apply_joint(&joint)
            }
            _ => self.apply_one(action),
        }
    }
    /// Applies every player's action at a simultaneous turn.
    fn apply_actions(&mut self, actions: Vec<Bound<'_, PyAny>>) -> PyResult<()> {
        let joint = actions
            .iter()
            .map(action_arg)
            .collect::<PyResult<Vec<_>>>()?;
        self.apply_joint(&joint)
    }
    /// The state after `action`, this one unchanged.
    fn child(&self, action: &Bound<'_, PyAny>) -> PyResult<PyState> {
        let mut s = self.copy();
        s.apply_action(action)?;
        Ok(s)
    }
    /// Takes back the last action, which `player` made (as pyspiel's
    /// `undo_action(player, action)`; a SpielError for any other).
    fn undo_action(&mut self, player: PlayerArg, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let player = player.0;
        let action = action_arg(action)?;
        let own = self.own_history();
        if own.last() != Some(&action) {
            return Err(value_error(format!(
                "{action} is not the last action (the actions so far: {})",
                history_str(&own)
            )));
        }
        let mut prev = PyState::new(self.game.new_state(), self.game.clone(), self.facts.clone());
        prev.replay(&own[..own.len() - 1])?;
        let mover = prev.current_player();
        if mover != player {
            return Err(value_error(format!(
                "action {action} was made by player {mover}, not {player}"
            )));
        }
        *self = prev;
        Ok(())
    }
    /// A copy.
    fn clone(&self) -> PyState {
        self.copy()
    }
    fn __copy__(&self) -> PyState {
        self.copy()
    }
    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.copy()
    }
    /// The game this state is a position of.
    fn get_game(&self) -> PyGame {
        PyGame::new(self.game.clone(), self.facts.clone())
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
    /// Whether one player is to move.
    fn is_player_node(&self) -> bool {
        matches!(self.inner.turn(), Turn::Player(_))
    }
    /// Whether no move has been made.
    fn is_initial_state(&self) -> bool {
        self.own_len() == 0
    }
    /// Each player's return (0 before the end).
    fn returns(&self) -> Vec<f64> {
        self.inner.returns()
    }
    /// Each player's reward for the last move: wopr's games reward only
    /// at the end, so the returns once the game is over, 0 before.
    fn rewards(&self) -> Vec<f64> {
        match self.inner.turn() {
            Turn::Terminal => self.inner.returns(),
            _ => vec![0.0; self.facts.num_players],
        }
    }
    /// `player`'s return.
    fn player_return(&self, player: PlayerArg) -> PyResult<f64> {
        let player = player.0;
        Ok(self.inner.returns()[self.seat(player)?])
    }
    /// `player`'s reward for the last move (see `rewards`).
    fn player_reward(&self, player: PlayerArg) -> PyResult<f64> {
        let player = player.0;
        Ok(self.rewards()[self.seat(player)?])
    }
    /// Chance outcomes with their probabilities (at a chance node).
    /// Under OpenSpiel's names a SpielError at a node that is not
    /// chance's, as pyspiel (wopr's specs: `[]` there).
    fn chance_outcomes(&self) -> PyResult<Vec<(Action, f64)>> {
        let turn = self.inner.turn();
        if self.facts.openspiel && turn != Turn::Chance {
            return Err(value_error(format!(
                "chance_outcomes at a node that is not chance's (player {} is to move)",
                self.current_player()
            )));
        }
        Ok(self.outcomes())
    }
    /// An action in the game's notation: `action_to_string(player,
    /// action)` as pyspiel (the player is checked, the name does not
    /// depend on it) or `action_to_string(action)`.
    #[pyo3(signature = (*args, player=None, action=None))]
    fn action_to_string(
        &self,
        args: &Bound<'_, PyTuple>,
        player: Option<PlayerArg>,
        action: Option<Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let player = player.map(|p| p.0);
        let (player, action) = match (args.len(), action) {
            (2, None) => (
                Some(args.get_item(0)?.extract::<PlayerArg>()?.0),
                args.get_item(1)?,
            ),
            (1, None) => (player, args.get_item(0)?),
            (0, Some(a)) => (player, a),
            _ => {
                return Err(PyTypeError::new_err(
                    "action_to_string(player, action) or action_to_string(action)",
                ))
            }
        };
        if let Some(view) = self.view() {
            // OpenSpiel's names, its players (-1 chance, -2 a flat joint
            // action) and its numbers.
            let player = player.unwrap_or_else(|| self.current_player());
            return view
                .action_to_string(&*self.inner, player, action_arg(&action)?)
                .map_err(value_error);
        }
        // A flat joint action's player (-2) is taken at a simultaneous turn.
        let joint = player == Some(SIMULTANEOUS) && self.inner.turn() == Turn::Simultaneous;
        if let Some(p) = player.filter(|&p| p != CHANCE && !joint) {
            self.seat(p)?;
        }
        let chance = match player {
            Some(p) => p == CHANCE,
            None => self.inner.turn() == Turn::Chance,
        };
        let action = self.wopr_action(action_arg(&action)?, chance);
        Ok(self.inner.action_to_string(action))
    }
    /// The action `text` names (as `action_to_string` writes it):
    /// `string_to_action(text)` or `string_to_action(player, text)`. For
    /// OpenSpiel's games, as pyspiel: the legal action of `player` (the
    /// player to move by default) whose OpenSpiel name is `text`; for
    /// wopr's, any action in the game's notation.
    #[pyo3(signature = (*args))]
    fn string_to_action(&self, args: &Bound<'_, PyTuple>) -> PyResult<Action> {
        if let Some(view) = self.view() {
            let (player, text) = match args.len() {
                1 => (self.current_player(), args.get_item(0)?),
                2 => (
                    args.get_item(0)?.extract::<PlayerArg>()?.0,
                    args.get_item(1)?,
                ),
                _ => {
                    return Err(PyTypeError::new_err(
                        "string_to_action(text) or string_to_action(player, text)",
                    ))
                }
            };
            let text: String = text.extract()?;
            let legal = match player == self.current_player() {
                true => self.legal_actions(None)?,
                false => self.legal_actions(Some(PlayerArg(player)))?,
            };
            for a in legal {
                if view.action_to_string(&*self.inner, player, a).as_deref() == Ok(text.as_str()) {
                    return Ok(a);
                }
            }
            return Err(value_error(format!(
                "'{text}' names no legal action of player {player} here (as \
                 action_to_string writes them)"
            )));
        }
        let text = match args.len() {
            1 => args.get_item(0)?,
            2 => {
                let p = args.get_item(0)?.extract::<PlayerArg>()?.0;
                if p != CHANCE {
                    self.seat(p)?;
                }
                args.get_item(1)?
            }
            _ => {
                return Err(PyTypeError::new_err(
                    "string_to_action(text) or string_to_action(player, text)",
                ))
            }
        };
        let text: String = text.extract()?;
        let a = self.inner.parse_action(&text).map_err(value_error)?;
        Ok(self.os_action(a))
    }
    /// The actions so far (a joint action as one action per player).
    fn history(&self) -> Vec<Action> {
        self.own_history()
    }
    /// The actions so far as pyspiel writes them: `4, 0, 2`.
    fn history_str(&self) -> String {
        history_str(&self.own_history())
    }
    /// The moves made (a joint action counts one).
    fn move_number(&self) -> usize {
        self.moves
    }
    /// The state as text `Game.deserialize_state` reads back (its
    /// actions): under OpenSpiel's names pyspiel's text (each action on
    /// its line, `4\n0\n`), else separated by spaces.
    fn serialize(&self) -> String {
        let h: Vec<String> = self.history().iter().map(|a| a.to_string()).collect();
        match self.facts.openspiel {
            true => h.join("\n") + "\n",
            false => h.join(" "),
        }
    }
    /// The observation as a float32 NumPy array: as pyspiel,
    /// `observation_tensor(player)` (the player to move by default);
    /// wopr's `encoding=` keyword picks one of `Game.encodings()` (a
    /// string in first place is read as the encoding too). The board
    /// games' encodings are from the mover's side whoever observes (their
    /// state is public); Pig, Kuhn poker and Goofspiel observe from
    /// `player`'s seat, Kuhn hiding the other card (OpenSpiel's layout).
    #[pyo3(signature = (*args, encoding=None, player=None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        args: &Bound<'py, PyTuple>,
        encoding: Option<String>,
        player: Option<PlayerArg>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let player = player.map(|p| p.0);
        let (mut encoding, mut player) = (encoding, player);
        for a in args.iter() {
            if a.is_none() {
                continue;
            }
            if a.is_instance_of::<PyString>() && encoding.is_none() {
                encoding = Some(a.extract()?);
            } else if player.is_none() && !a.is_instance_of::<PyString>() {
                player = Some(a.extract::<PlayerArg>()?.0);
            } else {
                return Err(PyTypeError::new_err(
                    "observation_tensor(player, encoding=None): one player, one encoding",
                ));
            }
        }
        let observer = self.observer(player)?;
        let v = match (self.view(), encoding) {
            (Some(view), None) => {
                views::flat(|t| view.observation_tensor(&*self.inner, observer, t))
            }
            (_, encoding) => self.inner.observation(encoding.as_deref(), Some(observer)),
        }
        .map_err(value_error)?;
        Ok(numpy_vec(py, v))
    }
    /// What `player` (the player to move by default) sees, as text.
    #[pyo3(signature = (player=None))]
    fn observation_string(&self, player: Option<PlayerArg>) -> PyResult<String> {
        let p = self.observer(player.map(|p| p.0))?;
        match self.view() {
            Some(view) => view
                .observation_string(&*self.inner, p)
                .map_err(value_error),
            None => Ok(self.inner.observation_string(p)),
        }
    }
    /// `player`'s information state as text: the actions so far where
    /// every action is public (as OpenSpiel's board games), OpenSpiel's
    /// string for Kuhn poker (`2pb`: card, then passes and bets).
    #[pyo3(signature = (player=None))]
    fn information_state_string(&self, player: Option<PlayerArg>) -> PyResult<String> {
        let player = player.map(|p| p.0);
        let p = self.observer(player)?;
        if let Some(view) = self.view() {
            return view
                .information_state_string(&*self.inner, p)
                .map_err(value_error);
        }
        let s = self
            .inner
            .information_state_string(p)
            .map_err(value_error)?;
        // After moves OpenSpiel makes by itself (which it does not list),
        // the actions the players made; OpenSpiel's numbers, where they
        // differ.
        let renumbered = self.auto > 0 || self.facts.chance_offset > 0;
        Ok(
            if renumbered && self.facts.provides_information_state_string {
                self.history_str()
            } else {
                s
            },
        )
    }
    /// `player`'s information state as a float32 NumPy array (Kuhn
    /// poker: OpenSpiel's 11 values); a SpielError for games without one.
    #[pyo3(signature = (player=None))]
    fn information_state_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Option<PlayerArg>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let player = player.map(|p| p.0);
        let p = self.observer(player)?;
        let v = match self.view() {
            Some(view) => views::flat(|t| view.information_state_tensor(&*self.inner, p, t)),
            None => self.inner.information_state_tensor(p),
        }
        .map_err(value_error)?;
        Ok(numpy_vec(py, v))
    }
    /// Pickles as its game and its actions (`Game.deserialize_state`).
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let game = Py::new(py, self.get_game())?;
        let restore = game.bind(py).getattr("deserialize_state")?;
        Ok((restore, (self.serialize(),)))
    }
    /// The state as text: OpenSpiel's `ToString` for OpenSpiel's games,
    /// wopr's board otherwise.
    fn __str__(&self) -> PyResult<String> {
        match self.view() {
            Some(view) => view.state_string(&*self.inner).map_err(value_error),
            None => Ok(self.inner.text()),
        }
    }
    fn __repr__(&self) -> String {
        format!("<wopr.State after {} actions>", self.own_len())
    }
}
