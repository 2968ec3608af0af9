//! OpenSpiel's representations of the games both libraries have: under
//! OpenSpiel's game string (`tic_tac_toe`, `goofspiel(num_cards=5)`), a
//! state's `str`, observation and information-state strings and tensors,
//! action names and observers are OpenSpiel's, byte for byte and value for
//! value (`python/tests/test_openspiel_fidelity.py` compares them with
//! pyspiel's along random games).
//!
//! One module per game implements [`OpenSpielView`]: it downcasts the erased
//! state to wopr's concrete state ([`parts`]) and computes OpenSpiel's
//! representation from the board directly (no string round trips). This
//! module holds what the games share: OpenSpiel's observer types
//! ([`ObsType`]), the observer `Game::MakeObserver` picks for a type and
//! parameters ([`make_observer`]), and the named tensors an observer writes
//! ([`Tensors`], OpenSpiel's `Allocator`). wopr's own specs (`tictactoe`,
//! `kuhn`) never come here: they keep wopr's encodings and strings.

mod breakthrough;
mod connect_four;
mod dots_and_boxes;
mod goofspiel;
mod kuhn_poker;
mod othello;
mod pig;
mod tic_tac_toe;

use wopr::game::{Action, Game};

use crate::erased::{history_str, DynState, ErasedState};
use crate::spiel::{Facts, Param};

/// Whose private information an observation holds
/// (`pyspiel.PrivateInfoType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrivateInfo {
    /// No player's.
    None,
    /// The observing player's.
    SinglePlayer,
    /// Every player's.
    AllPlayers,
}

/// What an observation holds (`pyspiel.IIGObservationType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ObsType {
    /// Public information.
    pub public_info: bool,
    /// Everything the player has seen so far, not only now.
    pub perfect_recall: bool,
    /// Whose private information.
    pub private_info: PrivateInfo,
}

/// OpenSpiel's `kDefaultObsType`: what `observation_tensor` shows.
pub const DEFAULT_OBS: ObsType = ObsType {
    public_info: true,
    perfect_recall: false,
    private_info: PrivateInfo::SinglePlayer,
};

/// OpenSpiel's `kInfoStateObsType`: what `information_state_tensor` shows.
pub const INFO_STATE_OBS: ObsType = ObsType {
    public_info: true,
    perfect_recall: true,
    private_info: PrivateInfo::SinglePlayer,
};

/// An observer, as OpenSpiel's `Game::MakeObserver` makes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Observer {
    /// OpenSpiel's `DefaultObserver`: the observation tensor as one piece,
    /// `observation`, and the observation string.
    Default,
    /// OpenSpiel's `InformationStateObserver`: the information-state tensor
    /// as one piece, `info_state` (where the game has one), and the
    /// information-state string.
    InfoState {
        /// Whether the game has an information-state tensor.
        tensor: bool,
    },
    /// OpenSpiel's `NoPrivateObserver` of a perfect-information game asked
    /// for no public information: an empty tensor, an empty string.
    NoPrivate,
    /// The game's own observer of this type (Kuhn poker's, Goofspiel's).
    Own(ObsType),
}

impl Observer {
    /// Whether the observer has a tensor (`Observation.tensor` is not
    /// `None`).
    pub fn has_tensor(&self) -> bool {
        match self {
            Observer::InfoState { tensor } => *tensor,
            _ => true,
        }
    }
}

/// Named tensors, written one after the other into one buffer (OpenSpiel's
/// `TrackingVectorAllocator`): an observation's `dict` pieces and its flat
/// `tensor`.
#[derive(Clone, Debug, Default)]
pub struct Tensors {
    /// Each piece's name and shape, in order.
    pub pieces: Vec<(&'static str, Vec<usize>)>,
    /// Every piece's values, one after the other.
    pub data: Vec<f32>,
}

impl Tensors {
    /// A new zeroed piece `name` of `shape`, to be written.
    pub fn get(&mut self, name: &'static str, shape: &[usize]) -> &mut [f32] {
        let start = self.data.len();
        self.data
            .resize(start + shape.iter().product::<usize>(), 0.0);
        self.pieces.push((name, shape.to_vec()));
        &mut self.data[start..]
    }

    /// The shape OpenSpiel gives these tensors as one: a lone piece's own,
    /// otherwise the length of them all.
    pub fn shape(&self) -> Vec<usize> {
        match &self.pieces[..] {
            [(_, shape)] => shape.clone(),
            _ => vec![self.data.len()],
        }
    }
}

/// What an OpenSpiel game provides, as its `GameType` says.
#[derive(Clone, Copy, Debug)]
pub struct Provides {
    /// `Information::kPerfectInformation`.
    pub perfect_information: bool,
    /// `provides_information_state_string`.
    pub info_string: bool,
    /// `provides_information_state_tensor`.
    pub info_tensor: bool,
    /// Whether OpenSpiel registers the `single_tensor` observer for the
    /// game (`RegisterSingleTensorObserver`).
    pub single_tensor: bool,
}

/// One of OpenSpiel's games as OpenSpiel shows it, read from wopr's state.
/// Actions are OpenSpiel's numbers, players OpenSpiel's ids (-1 chance, -2
/// simultaneous); a state of another game is an error, never a panic.
pub trait OpenSpielView: Sync {
    /// OpenSpiel's short name of the game.
    fn short_name(&self) -> &'static str;

    /// What the game provides.
    fn provides(&self) -> Provides;

    /// `str(state)`: OpenSpiel's `State::ToString`.
    fn state_string(&self, s: &dyn DynState) -> Result<String, String>;

    /// `action_to_string(player, action)`.
    fn action_to_string(
        &self,
        s: &dyn DynState,
        player: i64,
        action: Action,
    ) -> Result<String, String>;

    /// `observation_tensor(player)`, as the named pieces OpenSpiel's
    /// default observer writes.
    fn observation_tensor(
        &self,
        s: &dyn DynState,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String>;

    /// `observation_string(player)`.
    fn observation_string(&self, s: &dyn DynState, player: usize) -> Result<String, String> {
        let _ = player;
        self.state_string(s)
    }

    /// `information_state_tensor(player)`, where the game has one.
    fn information_state_tensor(
        &self,
        _s: &dyn DynState,
        _player: usize,
        _out: &mut Tensors,
    ) -> Result<(), String> {
        Err(format!(
            "{} has no information-state tensor (as in OpenSpiel)",
            self.short_name()
        ))
    }

    /// `information_state_string(player)`: the actions so far, as
    /// OpenSpiel's perfect-information games give it.
    fn information_state_string(&self, s: &dyn DynState, _player: usize) -> Result<String, String> {
        Ok(history_str(s.history()))
    }

    /// The observer `make_observation(game, ty, params)` gives (`None`
    /// where OpenSpiel gives none); OpenSpiel's generic rule unless the
    /// game has its own.
    fn make_observer(
        &self,
        ty: Option<ObsType>,
        params: &[(String, Param)],
    ) -> Result<Option<Observer>, String> {
        generic_observer(self.short_name(), self.provides(), ty, params)
    }

    /// What the game's own observer of type `ty` writes.
    fn own_tensor(
        &self,
        _s: &dyn DynState,
        _ty: ObsType,
        _player: usize,
        _out: &mut Tensors,
    ) -> Result<(), String> {
        Err(format!("{} has no observer of its own", self.short_name()))
    }

    /// What the game's own observer of type `ty` shows as text.
    fn own_string(
        &self,
        _s: &dyn DynState,
        _ty: ObsType,
        _player: usize,
    ) -> Result<String, String> {
        Err(format!("{} has no observer of its own", self.short_name()))
    }
}

/// The view of OpenSpiel's game `facts` describes (`None` for wopr's specs).
pub fn of(facts: &Facts) -> Option<&'static dyn OpenSpielView> {
    if !facts.openspiel {
        return None;
    }
    Some(match facts.short_name.as_str() {
        "tic_tac_toe" => &tic_tac_toe::View,
        "connect_four" => match facts.parameters.iter().any(|(k, v)| {
            k == "egocentric_obs_tensor" && matches!(v, crate::spiel::Param::Bool(true))
        }) {
            true => &connect_four::View { egocentric: true },
            false => &connect_four::View { egocentric: false },
        },
        "othello" => &othello::View,
        "dots_and_boxes" => &dots_and_boxes::View,
        "kuhn_poker" => &kuhn_poker::View,
        "goofspiel" => &goofspiel::View,
        "pig" => &pig::View,
        "breakthrough" => &breakthrough::View,
        _ => return None,
    })
}

/// wopr's game, state and actions so far behind `s`, a state of `G`.
pub fn parts<G: Game + 'static>(s: &dyn DynState) -> Result<(&G, &G::State, &[Action]), String> {
    s.as_any()
        .downcast_ref::<ErasedState<G>>()
        .map(ErasedState::parts)
        .ok_or_else(|| format!("the state is not one of {}'s", std::any::type_name::<G>()))
}

/// `player` as one of the two seats, or OpenSpiel's refusal.
pub fn seat_of(player: i64) -> Result<usize, String> {
    match player {
        0 | 1 => Ok(player as usize),
        _ => Err(format!("player {player} is not a seat (0..2)")),
    }
}

/// OpenSpiel's `Game::MakeObserver` for games without an observer of their
/// own: the built-in observers without parameters, the registered
/// `single_tensor` observer (the same ones) with `name=single_tensor`.
pub fn generic_observer(
    short_name: &str,
    provides: Provides,
    ty: Option<ObsType>,
    params: &[(String, Param)],
) -> Result<Option<Observer>, String> {
    if params.is_empty() {
        return Ok(builtin_observer(provides, ty));
    }
    registered_observer(short_name, provides, ty, params)
}

/// OpenSpiel's `Game::MakeRegisteredObserver`: the observer named by the
/// `name` parameter.
pub fn registered_observer(
    short_name: &str,
    provides: Provides,
    ty: Option<ObsType>,
    params: &[(String, Param)],
) -> Result<Option<Observer>, String> {
    match params.iter().find(|(k, _)| k == "name") {
        None => Err(
            "a 'name' parameter is expected to create a registered observer \
                     (OpenSpiel's observers take params only with name='single_tensor')"
                .into(),
        ),
        Some((_, Param::Str(n))) if n == "single_tensor" && provides.single_tensor => {
            Ok(builtin_observer(provides, ty))
        }
        Some((_, v)) => Err(format!("no observer '{v}' found for game '{short_name}'")),
    }
}

/// OpenSpiel's `Game::MakeBuiltInObserver`.
pub fn builtin_observer(p: Provides, ty: Option<ObsType>) -> Option<Observer> {
    let info = InfoState {
        tensor: p.info_tensor,
    };
    use Observer::{Default, InfoState, NoPrivate};
    let Some(t) = ty else {
        return Some(Default);
    };
    if p.perfect_information {
        if !t.public_info {
            return Some(NoPrivate);
        }
        if (p.info_string || p.info_tensor) && t.perfect_recall {
            return Some(info);
        }
        if !t.perfect_recall {
            return Some(Default);
        }
    }
    if t == DEFAULT_OBS {
        return Some(Default);
    }
    if t == INFO_STATE_OBS && (p.info_string || p.info_tensor) {
        return Some(info);
    }
    None
}

/// Writes what `observer` shows `player` of `s`.
pub fn write(
    view: &dyn OpenSpielView,
    s: &dyn DynState,
    observer: Observer,
    player: usize,
    out: &mut Tensors,
) -> Result<(), String> {
    match observer {
        Observer::Default => {
            let mut t = Tensors::default();
            view.observation_tensor(s, player, &mut t)?;
            out.get("observation", &t.shape()).copy_from_slice(&t.data);
        }
        Observer::InfoState { tensor: true } => {
            let mut t = Tensors::default();
            view.information_state_tensor(s, player, &mut t)?;
            out.get("info_state", &t.shape()).copy_from_slice(&t.data);
        }
        Observer::InfoState { tensor: false } | Observer::NoPrivate => {}
        Observer::Own(ty) => view.own_tensor(s, ty, player, out)?,
    }
    Ok(())
}

/// What `observer` shows `player` of `s`, as text.
pub fn string_from(
    view: &dyn OpenSpielView,
    s: &dyn DynState,
    observer: Observer,
    player: usize,
) -> Result<String, String> {
    match observer {
        Observer::Default => view.observation_string(s, player),
        Observer::InfoState { .. } => view.information_state_string(s, player),
        Observer::NoPrivate => Ok(String::new()),
        Observer::Own(ty) => view.own_string(s, ty, player),
    }
}

/// The flat values of `f`'s tensors (a state's `observation_tensor`).
pub fn flat(f: impl FnOnce(&mut Tensors) -> Result<(), String>) -> Result<Vec<f32>, String> {
    let mut t = Tensors::default();
    f(&mut t)?;
    Ok(t.data)
}

/// Sets the 1 of a one-hot piece of `shape` at `index` (row-major), as
/// OpenSpiel's `TensorView` does.
pub fn set(out: &mut [f32], shape: &[usize], index: &[usize]) {
    let mut at = 0;
    for (&i, &n) in index.iter().zip(shape) {
        debug_assert!(i < n, "index {index:?} outside shape {shape:?}");
        at = at * n + i;
    }
    out[at] = 1.0;
}
