//! What a game says of itself as OpenSpiel's game: the games both libraries
//! have declare, each in its own folder (`games/<game>/openspiel.rs`), one
//! [`OpenSpielGame`] implementation: OpenSpiel's name, parameters and
//! defaults and the wopr spec they become ([`Declaration`],
//! [`OpenSpielGame::openspiel_spec`]), OpenSpiel's sizes of the game
//! ([`Sizes`]), and OpenSpiel's representations of a position, computed from
//! wopr's typed state: `str(state)`, action names, observation and
//! information-state strings and tensors ([`Tensors`]), and the observers
//! OpenSpiel's `MakeObserver` gives ([`Observer`]).
//!
//! The registry lists the declared games (`registry::openspiel_games`)
//! and reads OpenSpiel's game strings (`connect_four(rows=6,columns=7)`)
//! with them ([`read_game_string`]); [`Entry`] is one declared game behind
//! one interface, its positions handed over as [`AnyPosition`] (a front end
//! that erases its states, such as the Python package, gives each state as
//! `&dyn Any` and the entry downcasts it).

use std::any::Any;
use std::marker::PhantomData;

use crate::game::{Action, Game};

pub use super::openspiel_types::{
    builtin_observer, flag, generic_observer, int, registered_observer, require, set, Declaration,
    ObsType, Observer, Param, Params, PrivateInfo, Tensors, DEFAULT_OBS, INFO_STATE_OBS,
    MIN_NUM_PLAYERS,
};

/// OpenSpiel's sizes of a game where they differ from wopr's numbering.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sizes {
    /// `num_distinct_actions`.
    pub num_distinct_actions: usize,
    /// `max_chance_outcomes`.
    pub max_chance_outcomes: usize,
    /// `max_game_length`.
    pub max_game_length: usize,
    /// What OpenSpiel's chance outcome 0 is in wopr's numbering (Pig's die
    /// faces: 2); wopr's actions from here up are chance outcomes.
    pub chance_offset: Action,
    /// OpenSpiel plays the last round by itself (Goofspiel: one card left
    /// in each hand and in the deck).
    pub auto_last_round: bool,
}

/// A position of `G` as OpenSpiel's representations read it: the game,
/// the state, the actions that led to it (wopr's numbering, moves
/// OpenSpiel plays by itself included) and OpenSpiel's parameters of the
/// game (every one, defaults filled in).
pub struct Position<'a, G: Game> {
    /// The game.
    pub game: &'a G,
    /// The state.
    pub state: &'a G::State,
    /// The actions so far.
    pub history: &'a [Action],
    /// OpenSpiel's parameters.
    pub params: &'a Params,
}

/// The actions so far as pyspiel writes them: `4, 0, 2`.
pub fn history_text(history: &[Action]) -> String {
    let h: Vec<String> = history.iter().map(|a| a.to_string()).collect();
    h.join(", ")
}

/// `player` as one of the two seats, or OpenSpiel's refusal.
pub fn seat_of(player: i64) -> Result<usize, String> {
    match player {
        0 | 1 => Ok(player as usize),
        _ => Err(format!("player {player} is not a seat (0..2)")),
    }
}

/// One of OpenSpiel's games, as wopr plays it. Actions are OpenSpiel's
/// numbers, players OpenSpiel's ids (-1 chance, -2 simultaneous); what
/// wopr cannot show as OpenSpiel does is an error, never a panic.
pub trait OpenSpielGame: Game {
    /// OpenSpiel's name, parameters and type.
    const OPENSPIEL: Declaration;

    /// The wopr spec that plays OpenSpiel's game with `params` (every one
    /// of [`Declaration::params`], defaults filled in); an error for values
    /// wopr's version does not play.
    fn openspiel_spec(params: &Params) -> Result<String, String>;

    /// OpenSpiel's sizes of this game: wopr's by default.
    fn openspiel_sizes(&self, params: &Params) -> Sizes {
        let _ = params;
        let n = self.num_actions();
        Sizes {
            num_distinct_actions: n,
            max_chance_outcomes: if Self::INFO.nature.chance { n } else { 0 },
            max_game_length: self.max_game_length(),
            chance_offset: 0,
            auto_last_round: false,
        }
    }

    /// `str(state)`: OpenSpiel's `State::ToString`.
    fn state_string(at: &Position<'_, Self>) -> Result<String, String>;

    /// `action_to_string(player, action)`.
    fn action_string(
        at: &Position<'_, Self>,
        player: i64,
        action: Action,
    ) -> Result<String, String>;

    /// `observation_tensor(player)`, as the named pieces OpenSpiel's
    /// default observer writes.
    fn observation_tensor(
        at: &Position<'_, Self>,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String>;

    /// `observation_string(player)`: `str(state)` by default.
    fn observation_string(at: &Position<'_, Self>, player: usize) -> Result<String, String> {
        let _ = player;
        Self::state_string(at)
    }

    /// `information_state_tensor(player)`, where the game has one.
    fn information_state_tensor(
        at: &Position<'_, Self>,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        let _ = (at, player, out);
        Err(format!(
            "{} has no information-state tensor (as in OpenSpiel)",
            Self::OPENSPIEL.name
        ))
    }

    /// `information_state_string(player)`: by default the actions so far,
    /// as OpenSpiel's perfect-information games give it.
    fn information_state_string(at: &Position<'_, Self>, player: usize) -> Result<String, String> {
        let _ = player;
        Ok(history_text(at.history))
    }

    /// The observer `make_observation(game, ty, params)` gives (`None`
    /// where OpenSpiel gives none): OpenSpiel's generic rule unless the
    /// game has its own.
    fn make_observer(ty: Option<ObsType>, params: &Params) -> Result<Option<Observer>, String> {
        generic_observer(&Self::OPENSPIEL, ty, params)
    }

    /// What the game's own observer of type `ty` writes.
    fn own_tensor(
        at: &Position<'_, Self>,
        ty: ObsType,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        let _ = (at, ty, player, out);
        Err(format!(
            "{} has no observer of its own",
            Self::OPENSPIEL.name
        ))
    }

    /// What the game's own observer of type `ty` shows as text.
    fn own_string(at: &Position<'_, Self>, ty: ObsType, player: usize) -> Result<String, String> {
        let _ = (at, ty, player);
        Err(format!(
            "{} has no observer of its own",
            Self::OPENSPIEL.name
        ))
    }
}

/// A position of a declared game with its game and state erased: what a
/// front end that erases its states hands an [`Entry`].
pub struct AnyPosition<'a> {
    /// The game (`&G`).
    pub game: &'a dyn Any,
    /// The state (`&G::State`).
    pub state: &'a dyn Any,
    /// The actions so far.
    pub history: &'a [Action],
    /// OpenSpiel's parameters of the game.
    pub params: &'a Params,
}

/// One declared game behind one interface: [`OpenSpielGame`] over erased
/// games and positions, each downcast to the game's types (a position of
/// another game is an error).
pub trait Entry: Sync {
    /// The game's declaration.
    fn declaration(&self) -> &'static Declaration;
    /// See [`OpenSpielGame::openspiel_spec`].
    fn spec(&self, params: &Params) -> Result<String, String>;
    /// See [`OpenSpielGame::openspiel_sizes`]; `game` is the game the spec
    /// made.
    fn sizes(&self, game: &dyn Any, params: &Params) -> Result<Sizes, String>;
    /// See [`OpenSpielGame::state_string`].
    fn state_string(&self, at: &AnyPosition<'_>) -> Result<String, String>;
    /// See [`OpenSpielGame::action_string`].
    fn action_string(
        &self,
        at: &AnyPosition<'_>,
        player: i64,
        action: Action,
    ) -> Result<String, String>;
    /// See [`OpenSpielGame::observation_tensor`].
    fn observation_tensor(
        &self,
        at: &AnyPosition<'_>,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String>;
    /// See [`OpenSpielGame::observation_string`].
    fn observation_string(&self, at: &AnyPosition<'_>, player: usize) -> Result<String, String>;
    /// See [`OpenSpielGame::information_state_tensor`].
    fn information_state_tensor(
        &self,
        at: &AnyPosition<'_>,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String>;
    /// See [`OpenSpielGame::information_state_string`].
    fn information_state_string(
        &self,
        at: &AnyPosition<'_>,
        player: usize,
    ) -> Result<String, String>;
    /// See [`OpenSpielGame::make_observer`].
    fn make_observer(
        &self,
        ty: Option<ObsType>,
        params: &Params,
    ) -> Result<Option<Observer>, String>;
    /// See [`OpenSpielGame::own_tensor`].
    fn own_tensor(
        &self,
        at: &AnyPosition<'_>,
        ty: ObsType,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String>;
    /// See [`OpenSpielGame::own_string`].
    fn own_string(
        &self,
        at: &AnyPosition<'_>,
        ty: ObsType,
        player: usize,
    ) -> Result<String, String>;

    /// Writes what `observer` shows `player` of the position.
    fn write(
        &self,
        at: &AnyPosition<'_>,
        observer: Observer,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        match observer {
            Observer::Default => {
                let mut t = Tensors::default();
                self.observation_tensor(at, player, &mut t)?;
                out.get("observation", &t.shape()).copy_from_slice(&t.data);
            }
            Observer::InfoState { tensor: true } => {
                let mut t = Tensors::default();
                self.information_state_tensor(at, player, &mut t)?;
                out.get("info_state", &t.shape()).copy_from_slice(&t.data);
            }
            Observer::InfoState { tensor: false } | Observer::NoPrivate => {}
            Observer::Own(ty) => self.own_tensor(at, ty, player, out)?,
        }
        Ok(())
    }

    /// What `observer` shows `player` of the position, as text.
    fn string_from(
        &self,
        at: &AnyPosition<'_>,
        observer: Observer,
        player: usize,
    ) -> Result<String, String> {
        match observer {
            Observer::Default => self.observation_string(at, player),
            Observer::InfoState { .. } => self.information_state_string(at, player),
            Observer::NoPrivate => Ok(String::new()),
            Observer::Own(ty) => self.own_string(at, ty, player),
        }
    }
}

impl std::fmt::Debug for dyn Entry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Entry({})", self.declaration().name)
    }
}

/// The [`Entry`] of `G`.
pub fn entry<G: OpenSpielGame>() -> &'static dyn Entry {
    Typed::<G>::ENTRY
}

/// `G` as an [`Entry`].
struct Typed<G>(PhantomData<fn() -> G>);

impl<G: OpenSpielGame> Typed<G> {
    const ENTRY: &'static Typed<G> = &Typed(PhantomData);

    /// The typed position behind `at`.
    fn typed<'a>(at: &AnyPosition<'a>) -> Result<Position<'a, G>, String> {
        let wrong = || format!("the state is not one of {}'s", std::any::type_name::<G>());
        Ok(Position {
            game: at.game.downcast_ref::<G>().ok_or_else(wrong)?,
            state: at.state.downcast_ref::<G::State>().ok_or_else(wrong)?,
            history: at.history,
            params: at.params,
        })
    }
}

impl<G: OpenSpielGame> Entry for Typed<G> {
    fn declaration(&self) -> &'static Declaration {
        &G::OPENSPIEL
    }
    fn spec(&self, params: &Params) -> Result<String, String> {
        G::openspiel_spec(params)
    }
    fn sizes(&self, game: &dyn Any, params: &Params) -> Result<Sizes, String> {
        let g = game
            .downcast_ref::<G>()
            .ok_or_else(|| format!("the game is not {}", std::any::type_name::<G>()))?;
        Ok(g.openspiel_sizes(params))
    }
    fn state_string(&self, at: &AnyPosition<'_>) -> Result<String, String> {
        G::state_string(&Self::typed(at)?)
    }
    fn action_string(
        &self,
        at: &AnyPosition<'_>,
        player: i64,
        action: Action,
    ) -> Result<String, String> {
        G::action_string(&Self::typed(at)?, player, action)
    }
    fn observation_tensor(
        &self,
        at: &AnyPosition<'_>,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        <G as OpenSpielGame>::observation_tensor(&Self::typed(at)?, player, out)
    }
    fn observation_string(&self, at: &AnyPosition<'_>, player: usize) -> Result<String, String> {
        <G as OpenSpielGame>::observation_string(&Self::typed(at)?, player)
    }
    fn information_state_tensor(
        &self,
        at: &AnyPosition<'_>,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        G::information_state_tensor(&Self::typed(at)?, player, out)
    }
    fn information_state_string(
        &self,
        at: &AnyPosition<'_>,
        player: usize,
    ) -> Result<String, String> {
        G::information_state_string(&Self::typed(at)?, player)
    }
    fn make_observer(
        &self,
        ty: Option<ObsType>,
        params: &Params,
    ) -> Result<Option<Observer>, String> {
        G::make_observer(ty, params)
    }
    fn own_tensor(
        &self,
        at: &AnyPosition<'_>,
        ty: ObsType,
        player: usize,
        out: &mut Tensors,
    ) -> Result<(), String> {
        G::own_tensor(&Self::typed(at)?, ty, player, out)
    }
    fn own_string(
        &self,
        at: &AnyPosition<'_>,
        ty: ObsType,
        player: usize,
    ) -> Result<String, String> {
        G::own_string(&Self::typed(at)?, ty, player)
    }
}

/// One of OpenSpiel's games, read from its game string.
#[derive(Clone, Debug)]
pub struct GameString {
    /// The declared game.
    pub entry: &'static dyn Entry,
    /// The wopr spec that plays it.
    pub spec: String,
    /// Every parameter OpenSpiel reports, defaults filled in, sorted by
    /// name.
    pub parameters: Vec<(String, Param)>,
    /// The parameters the game string gave, sorted by name: what
    /// `str(game)` writes (`connect_four(columns=7,rows=6)`).
    pub given: Vec<(String, Param)>,
}

/// Reads `text` as one of OpenSpiel's game strings of the `games`
/// declared: `None` when it is wopr's spec (a name OpenSpiel does not use,
/// or a bare name that is wopr's), an error when it is OpenSpiel's but
/// wopr cannot play it as OpenSpiel does.
pub fn read_game_string(
    text: &str,
    games: &[&'static dyn Entry],
) -> Option<Result<GameString, String>> {
    let text = text.trim();
    let (name, args) = match text.find('(') {
        Some(i) => {
            let Some(inner) = text[i + 1..].strip_suffix(')') else {
                return Some(Err(format!(
                    "'{text}': an OpenSpiel game string ends with ')'"
                )));
            };
            (&text[..i], Some(inner))
        }
        None => (text, None),
    };
    let entry = *games.iter().find(|e| e.declaration().name == name)?;
    if args.is_none() && entry.declaration().bare_is_wopr {
        return None;
    }
    let mut given = Vec::new();
    for part in args
        .unwrap_or("")
        .split(',')
        .filter(|p| !p.trim().is_empty())
    {
        let Some((k, v)) = part.split_once('=') else {
            return Some(Err(format!(
                "'{text}': parameter '{part}' is not key=value"
            )));
        };
        given.push((k.trim().to_string(), v.trim().to_string()));
    }
    Some(with_params(entry, &given).map_err(|e| format!("'{text}': {e}")))
}

/// `entry`'s parameters with the values `given` (text), and its spec.
fn with_params(
    entry: &'static dyn Entry,
    given: &[(String, String)],
) -> Result<GameString, String> {
    let defaults = entry.declaration().params;
    let mut params: Vec<(String, Param)> = defaults
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    let mut written: Vec<(String, Param)> = Vec::new();
    for (k, v) in given {
        let Some(slot) = params.iter_mut().find(|(name, _)| name == k) else {
            let keys: Vec<&str> = defaults.iter().map(|(k, _)| *k).collect();
            return Err(format!(
                "unknown parameter '{k}' (accepted: {})",
                if keys.is_empty() {
                    "none".into()
                } else {
                    keys.join(", ")
                }
            ));
        };
        slot.1 = match &slot.1 {
            Param::Int(_) => Param::Int(
                v.parse()
                    .map_err(|_| format!("{k}={v} is not an integer"))?,
            ),
            Param::Bool(_) => Param::Bool(match v.to_ascii_lowercase().as_str() {
                "true" | "1" => true,
                "false" | "0" => false,
                _ => return Err(format!("{k}={v} is not true or false")),
            }),
            Param::Str(_) => Param::Str(v.clone().into()),
        };
        written.retain(|(name, _)| name != k);
        written.push((k.clone(), slot.1.clone()));
    }
    written.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(GameString {
        entry,
        spec: entry.spec(&params)?,
        parameters: params,
        given: written,
    })
}
