//! Python objects as players in wopr's matches: anything with a
//! `step(state)` method that returns an action (an OpenSpiel bot, the
//! user's own agent) plays `wopr.eval` and `wopr.tournament` beside
//! wopr's player specs, with wopr's openings, seats and intervals.
//!
//! The object is called under the GIL with a `wopr.State` of the position
//! it is to move in (its own seat's view: the whole state, for the games
//! whose players see everything; the state it is given has no history).
//! Matches with a Python player are played one game at a time, so an
//! object with its own random generator gives the same games for the same
//! seeds. An exception, a non-integer or an illegal action ends the match
//! with a one-line error naming the player.

use std::sync::Arc;

use pyo3::prelude::*;

use wopr::game::player::{Failure, ViewOf};
use wopr::game::rng::WoprRng;
use wopr::game::{Action, Game, Player};

/// One side of a match: a player spec, or a Python object.
#[derive(Clone)]
pub enum Entrant {
    Spec(String),
    Bot(Bot),
}

impl Entrant {
    /// The name results give it: the spec, or the object's name.
    pub fn name(&self) -> &str {
        match self {
            Entrant::Spec(s) => s,
            Entrant::Bot(b) => &b.name,
        }
    }
}

/// A Python object with `step(state)`, and the name results give it.
#[derive(Clone)]
pub struct Bot {
    pub object: Arc<Py<PyAny>>,
    pub name: String,
}

/// Makes the Python object (a `wopr.State`) a bot is shown for a view.
pub type ToPy<V> = Arc<dyn Fn(Python<'_>, &V) -> PyResult<Py<PyAny>> + Send + Sync>;

/// A [`Bot`] as a player of `G`.
pub struct BotPlayer<G: Game> {
    bot: Bot,
    to_py: ToPy<ViewOf<G>>,
    failure: Option<Failure>,
}

impl<G: Game> BotPlayer<G> {
    /// `bot`, shown positions made by `to_py`.
    pub fn new(bot: Bot, to_py: ToPy<ViewOf<G>>) -> BotPlayer<G> {
        BotPlayer {
            bot,
            to_py,
            failure: None,
        }
    }

    fn step(&self, view: &ViewOf<G>, legal: &[Action]) -> Result<Action, String> {
        let name = &self.bot.name;
        Python::attach(|py| {
            let state = (self.to_py)(py, view).map_err(|e| format!("{name}: {e}"))?;
            let answer = self
                .bot
                .object
                .bind(py)
                .call_method1("step", (state,))
                .map_err(|e| format!("{name}: step raised {e}"))?;
            let a: i64 = answer
                .extract()
                .map_err(|_| format!("{name}: step returned {answer}, not an action"))?;
            Action::try_from(a)
                .ok()
                .filter(|a| legal.contains(a))
                .ok_or_else(|| format!("{name}: step returned {a}, not a legal action {legal:?}"))
        })
    }
}

impl<G: Game> Player<G> for BotPlayer<G> {
    fn spec(&self) -> String {
        self.bot.name.clone()
    }
    fn choose(&mut self, view: &ViewOf<G>, legal: &[Action], _rng: &mut WoprRng) -> Action {
        match self.step(view, legal) {
            Ok(a) => a,
            Err(e) => {
                // The driver asks for the failure at once and ends the match.
                self.failure = Some(Failure::Fatal(e));
                legal[0]
            }
        }
    }
    fn failure(&mut self) -> Option<Failure> {
        self.failure.take()
    }
}
