//! The vocabulary of OpenSpiel's games that [`openspiel`](super::openspiel)
//! re-exports: parameters ([`Param`]), what a game declares
//! ([`Declaration`]), observation types and observers ([`ObsType`],
//! [`Observer`], OpenSpiel's rule for its built-in ones) and the named
//! tensors an observer writes ([`Tensors`]).

use std::borrow::Cow;

/// A parameter's value, as OpenSpiel types it.
#[derive(Clone, Debug, PartialEq)]
pub enum Param {
    /// An integer.
    Int(i64),
    /// A flag (`True`, `False`).
    Bool(bool),
    /// A string.
    Str(Cow<'static, str>),
}

impl std::fmt::Display for Param {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Param::Int(i) => write!(f, "{i}"),
            Param::Bool(b) => write!(f, "{}", if *b { "True" } else { "False" }),
            Param::Str(s) => write!(f, "{s}"),
        }
    }
}

/// A game's or an observer's parameters, by name.
pub type Params = [(String, Param)];

/// The integer parameter `key`: an error naming it when it is absent or
/// not an integer.
pub fn int(params: &Params, key: &str) -> Result<i64, String> {
    match params.iter().find(|(k, _)| k == key) {
        Some((_, Param::Int(i))) => Ok(*i),
        Some((_, v)) => Err(format!("{key}={v} is not an integer")),
        None => Err(format!("no parameter '{key}'")),
    }
}

/// Whether the flag `key` is given and true.
pub fn flag(params: &Params, key: &str) -> bool {
    params
        .iter()
        .any(|(k, v)| k == key && *v == Param::Bool(true))
}

/// Checks that the parameter `key`, where given, is `want`, the only value
/// wopr's version of game `name` plays.
pub fn require(name: &str, params: &Params, key: &str, want: Param) -> Result<(), String> {
    match params.iter().find(|(k, _)| k == key) {
        Some((_, v)) if *v != want => Err(format!(
            "wopr plays {name} only with {key}={want} (not {v})"
        )),
        _ => Ok(()),
    }
}

/// What `pyspiel.GameType` says of one of OpenSpiel's games, beyond what
/// the game's [`Nature`](crate::game::Nature) gives.
#[derive(Clone, Copy, Debug)]
pub struct Declaration {
    /// OpenSpiel's short name (`tic_tac_toe`).
    pub name: &'static str,
    /// OpenSpiel's long name (`Tic Tac Toe`).
    pub long_name: &'static str,
    /// Whether the bare name (no parentheses) is wopr's own spec, as the
    /// command line reads it (`pig`, `goofspiel`): OpenSpiel's game is
    /// then loaded only by a string with parentheses (`pig()`).
    pub bare_is_wopr: bool,
    /// The most players OpenSpiel's game can be loaded for (Kuhn poker:
    /// 10); the fewest is 2 for every declared game.
    pub max_num_players: usize,
    /// OpenSpiel's parameters and their defaults
    /// (`parameter_specification`), sorted by name.
    pub params: &'static [(&'static str, Param)],
    /// `Information::kPerfectInformation`, as OpenSpiel's built-in
    /// observers read it.
    pub perfect_information: bool,
    /// `provides_information_state_string`.
    pub information_state_string: bool,
    /// `provides_information_state_tensor`.
    pub information_state_tensor: bool,
    /// `provides_factored_observation_string`.
    pub factored_observation_string: bool,
    /// Whether OpenSpiel registers the `single_tensor` observer for the
    /// game (`RegisterSingleTensorObserver`).
    pub single_tensor: bool,
}

/// The fewest players any declared game is loaded for.
pub const MIN_NUM_PLAYERS: usize = 2;

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

/// OpenSpiel's `Game::MakeObserver` for games without an observer of their
/// own: the built-in observers without parameters, the registered
/// `single_tensor` observer (the same ones) with `name=single_tensor`.
pub fn generic_observer(
    game: &Declaration,
    ty: Option<ObsType>,
    params: &Params,
) -> Result<Option<Observer>, String> {
    if params.is_empty() {
        return Ok(builtin_observer(game, ty));
    }
    registered_observer(game, ty, params)
}

/// OpenSpiel's `Game::MakeRegisteredObserver`: the observer named by the
/// `name` parameter.
pub fn registered_observer(
    game: &Declaration,
    ty: Option<ObsType>,
    params: &Params,
) -> Result<Option<Observer>, String> {
    match params.iter().find(|(k, _)| k == "name") {
        None => Err(
            "a 'name' parameter is expected to create a registered observer \
                     (OpenSpiel's observers take params only with name='single_tensor')"
                .into(),
        ),
        Some((_, Param::Str(n))) if n == "single_tensor" && game.single_tensor => {
            Ok(builtin_observer(game, ty))
        }
        Some((_, v)) => Err(format!("no observer '{v}' found for game '{}'", game.name)),
    }
}

/// OpenSpiel's `Game::MakeBuiltInObserver`.
pub fn builtin_observer(game: &Declaration, ty: Option<ObsType>) -> Option<Observer> {
    let (info_string, info_tensor) = (game.information_state_string, game.information_state_tensor);
    let info = Observer::InfoState {
        tensor: info_tensor,
    };
    let Some(t) = ty else {
        return Some(Observer::Default);
    };
    if game.perfect_information {
        if !t.public_info {
            return Some(Observer::NoPrivate);
        }
        if (info_string || info_tensor) && t.perfect_recall {
            return Some(info);
        }
        if !t.perfect_recall {
            return Some(Observer::Default);
        }
    }
    if t == DEFAULT_OBS {
        return Some(Observer::Default);
    }
    if t == INFO_STATE_OBS && (info_string || info_tensor) {
        return Some(info);
    }
    None
}
