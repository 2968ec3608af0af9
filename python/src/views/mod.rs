//! OpenSpiel's representations of the games both libraries have: under
//! OpenSpiel's game string (`tic_tac_toe`, `goofspiel(num_cards=5)`), a
//! state's `str`, observation and information-state strings and tensors,
//! action names and observers are OpenSpiel's, byte for byte and value for
//! value (`python/tests/test_openspiel_fidelity.py` compares them with
//! pyspiel's along random games).
//!
//! Each game computes them from its own typed state, in its folder
//! (`wopr::games::<game>/openspiel.rs`, the `OpenSpielGame` trait); the
//! registry's entry of the game (`wopr::games::openspiel::Entry`) downcasts
//! the game and state a [`DynState`] holds to the game's types. [`View`] is
//! the one adaptor: the entry, with the game's OpenSpiel parameters. The
//! observer types, OpenSpiel's rule for the observer `MakeObserver` picks
//! and the named tensors an observer writes are the library's
//! ([`ObsType`], [`Observer`], [`Tensors`]). wopr's own specs (`tictactoe`,
//! `kuhn`) never come here: they keep wopr's encodings and strings.

use std::sync::Arc;

use wopr::game::Action;
use wopr::games::openspiel::{AnyPosition, Entry};
pub use wopr::games::openspiel::{ObsType, Observer, PrivateInfo, Tensors};

use crate::erased::DynState;
use crate::spiel::{Facts, Param};

/// OpenSpiel's view of a game loaded by OpenSpiel's game string: its
/// declared entry and the facts it was loaded with (its parameters).
#[derive(Clone)]
pub struct View {
    entry: &'static dyn Entry,
    facts: Arc<Facts>,
}

/// The view of OpenSpiel's game `facts` describes (`None` for wopr's specs).
pub fn of(facts: &Arc<Facts>) -> Option<View> {
    let t = facts.spiel_type.as_ref()?;
    Some(View {
        entry: t.entry,
        facts: facts.clone(),
    })
}

impl View {
    /// The position `s` holds, erased, with the game's parameters.
    fn at<'a>(&'a self, s: &'a dyn DynState) -> AnyPosition<'a> {
        let (game, state, history) = s.typed();
        AnyPosition {
            game,
            state,
            history,
            params: &self.facts.parameters,
        }
    }

    /// OpenSpiel's short name of the game.
    pub fn short_name(&self) -> &'static str {
        self.entry.declaration().name
    }

    /// `str(state)`: OpenSpiel's `State::ToString`.
    pub fn state_string(&self, s: &dyn DynState) -> Result<String, String> {
        self.entry.state_string(&self.at(s))
    }

    /// `action_to_string(player, action)`, OpenSpiel's player ids (-1
    /// chance, -2 a flat joint action) and numbers.
    pub fn action_to_string(
        &self,
        s: &dyn DynState,
        player: i64,
        action: Action,
    ) -> Result<String, String> {
        self.entry.action_string(&self.at(s), player, action)
    }

    /// `observation_tensor(player)`, as the named pieces OpenSpiel's
    /// default observer writes.
    pub fn observation_tensor(
        &self,
        s: &dyn DynState,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        self.entry.observation_tensor(&self.at(s), player, out)
    }

    /// `observation_string(player)`.
    pub fn observation_string(&self, s: &dyn DynState, player: usize) -> Result<String, String> {
        self.entry.observation_string(&self.at(s), player)
    }

    /// `information_state_tensor(player)`, where the game has one.
    pub fn information_state_tensor(
        &self,
        s: &dyn DynState,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        self.entry
            .information_state_tensor(&self.at(s), player, out)
    }

    /// `information_state_string(player)`.
    pub fn information_state_string(
        &self,
        s: &dyn DynState,
        player: usize,
    ) -> Result<String, String> {
        self.entry.information_state_string(&self.at(s), player)
    }

    /// The observer `make_observation(game, ty, params)` gives (`None`
    /// where OpenSpiel gives none).
    pub fn make_observer(
        &self,
        ty: Option<ObsType>,
        params: &[(String, Param)],
    ) -> Result<Option<Observer>, String> {
        self.entry.make_observer(ty, params)
    }

    /// Writes what `observer` shows `player` of `s`.
    pub fn write(
        &self,
        s: &dyn DynState,
        observer: Observer,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        self.entry.write(&self.at(s), observer, player, out)
    }

    /// What `observer` shows `player` of `s`, as text.
    pub fn string_from(
        &self,
        s: &dyn DynState,
        observer: Observer,
        player: usize,
    ) -> Result<String, String> {
        self.entry.string_from(&self.at(s), observer, player)
    }
}

/// The flat values of `f`'s tensors (a state's `observation_tensor`).
pub fn flat(f: impl FnOnce(&mut Tensors) -> Result<(), String>) -> Result<Vec<f32>, String> {
    let mut t = Tensors::default();
    f(&mut t)?;
    Ok(t.data)
}
