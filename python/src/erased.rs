//! Every game behind one interface: a game is type-erased once, when it
//! is loaded ([`erase`], one arm for every registered game, no wildcard:
//! the board games through `board`), so each Python call is one
//! virtual call into the generic code every other wopr front end uses.

use std::any::Any;
use std::sync::Arc;

use pyo3::prelude::*;
use wopr::eval::match_stats;
use wopr::eval::matches::{play_match_from, play_match_with, PlayerFactory};
use wopr::eval::openings::Openings;
use wopr::eval::tournament::{play_tournament, play_tournament_with, Format};
use wopr::game::driver::{random_playout, replay, seats_swapped};
use wopr::game::encode::Encodable;
use wopr::game::player::ViewOf;
use wopr::game::rng::{stream, WoprRng};
use wopr::game::{Action, ActionList, Game, Player, State, Turn};
use wopr::games::gdl::game::{GdlHidden, GdlHiddenState};
use wopr::games::goofspiel::GoofspielState;
use wopr::games::kuhn::{KuhnPoker, KuhnState};
use wopr::games::pig::PigState;
use wopr::players::{parse_player, resolve_player, Roster};

use crate::bots::{BotPlayer, Entrant, ToPy};
use crate::kuhn;

/// A game behind one interface.
pub trait DynGame: Send + Sync {
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
    /// `wopr eval --json`'s rows: `player` against each of `against`
    /// (Python objects among them shown states made by `wrap`).
    fn eval(
        &self,
        player: &Entrant,
        against: &[Entrant],
        games: usize,
        seed: u64,
        openings: Option<&str>,
        wrap: &Wrap,
    ) -> Result<Vec<String>, String>;
    /// `wopr tournament --json` of `players` (a gauntlet of the player
    /// `gauntlet` when given; ratings anchored at `anchor` = `anchor_elo`).
    #[allow(clippy::too_many_arguments)]
    fn tournament(
        &self,
        players: &[Entrant],
        games: usize,
        seed: u64,
        openings: Option<&str>,
        gauntlet: Option<usize>,
        anchor: usize,
        anchor_elo: f64,
        wrap: &Wrap,
    ) -> Result<String, String>;
}

/// A state behind one interface, with the actions that led to it.
pub trait DynState: Send + Sync {
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
    /// What `player` sees, as text: OpenSpiel's observation string.
    fn observation_string(&self, player: usize) -> String;
    /// OpenSpiel's information-state string of `player` (the actions so
    /// far where every action is public).
    fn information_state_string(&self, player: usize) -> Result<String, String>;
    /// OpenSpiel's information-state tensor of `player`, where the game
    /// has one.
    fn information_state_tensor(&self, player: usize) -> Result<Vec<f32>, String>;
    /// `text` in the game's notation as an action here.
    fn parse_action(&self, text: &str) -> Result<Action, String>;
    fn boxed(&self) -> Box<dyn DynState>;
    fn as_any(&self) -> &dyn Any;
    /// wopr's game (`&G`), state (`&G::State`) and the actions that led to
    /// it (wopr's numbering, moves OpenSpiel plays by itself included):
    /// what a declared OpenSpiel game downcasts to read its
    /// representations from (`views`).
    fn typed(&self) -> (&dyn Any, &dyn Any, &[Action]);
}

/// A player of one game behind one interface.
pub trait DynPlayer: Send {
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
    strings: Strings<G>,
    /// The state a seat's view is, for the games whose players see the
    /// whole state (what a Python player is shown).
    state_of_view: Option<StateOfView<G>>,
}

/// The state a seat's view shows.
type StateOfView<G> = fn(&ViewOf<G>) -> <G as Game>::State;

/// Wraps a state as the Python object a Python player is shown.
pub type Wrap = Arc<dyn Fn(Python<'_>, Box<dyn DynState>) -> PyResult<Py<PyAny>> + Send + Sync>;

/// A seat's information-state string, from the state and the actions so far.
type InfoStringFn<S> = fn(&S, &[Action], usize) -> Result<String, String>;

/// A game's information states and observations as OpenSpiel gives them.
struct Strings<G: Game> {
    /// The information-state string of a seat, from the state and the
    /// actions so far.
    info_string: InfoStringFn<G::State>,
    info_tensor: fn(&G::State, usize) -> Result<Vec<f32>, String>,
    observation_string: fn(&G::State, usize) -> String,
}

impl<G: Game> Clone for Strings<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Strings<G> {}

/// The strings of a game whose actions are all public: the information
/// state is the actions so far (as OpenSpiel's perfect-information games
/// give it), the observation what the seat's view prints.
fn public<G: Game>() -> Strings<G> {
    Strings {
        info_string: |_, history, _| Ok(history_str(history)),
        info_tensor: |_, _| Err("this game has no information-state tensor".into()),
        observation_string: |s, p| s.view(p).to_string(),
    }
}

/// A GDL-II game's strings: a seat's percepts, never the whole history.
fn percepts<G: Game>() -> Strings<G> {
    Strings {
        info_string: |_, _, _| {
            Err(
                "a GDL-II game has no information-state string (a seat sees its percepts: \
                 observation_string)"
                    .into(),
            )
        },
        ..public()
    }
}

/// Kuhn poker's strings and tensor in OpenSpiel's layout.
fn kuhn_strings() -> Strings<KuhnPoker> {
    Strings {
        info_string: |s, _, p| Ok(kuhn::information_state_string(s, p)),
        info_tensor: |s, p| Ok(kuhn::information_state_tensor(s, p)),
        observation_string: kuhn::observation_string,
    }
}

/// Actions as OpenSpiel's `history_str` writes them: `4, 0, 2`.
pub fn history_str(history: &[Action]) -> String {
    wopr::games::openspiel::history_text(history)
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

pub struct ErasedState<G: Game> {
    erased: Erased<G>,
    state: G::State,
    history: Vec<Action>,
}

impl<G: Roster> Erased<G> {
    /// Checks a spec (a Python object can play only where its seat sees
    /// the whole state).
    fn check(&self, e: &Entrant) -> Result<(), String> {
        match e {
            Entrant::Spec(spec) => parse_player(&self.game, spec)
                .map(|_| ())
                .map_err(|e| e.to_string()),
            Entrant::Bot(_) => match self.state_of_view {
                Some(_) => Ok(()),
                None => Err(format!(
                    "a Python player needs a game whose players see the whole state, and {}'s \
                     players see their own view",
                    self.game.spec()
                )),
            },
        }
    }

    /// The player as it is played: a spec resolved, a Python object's name.
    fn resolved(&self, e: &Entrant) -> Result<String, String> {
        match e {
            Entrant::Spec(spec) => resolve_player(&self.game, spec)
                .map_err(|err| format!("bad player '{spec}': {err}")),
            Entrant::Bot(b) => Ok(b.name.clone()),
        }
    }

    /// Makes `e`'s player for each game's worker.
    fn factory<'a>(&'a self, e: &'a Entrant, wrap: &'a Wrap) -> Box<PlayerFactory<'a, G>> {
        match e {
            Entrant::Spec(spec) => {
                Box::new(move || parse_player(&self.game, spec).map_err(|e| e.to_string()))
            }
            Entrant::Bot(bot) => Box::new(move || {
                let of_view = self.state_of_view.ok_or("no Python players in this game")?;
                let erased = self.clone();
                let wrap = wrap.clone();
                let to_py: ToPy<ViewOf<G>> = Arc::new(move |py, view| {
                    let state = ErasedState {
                        erased: erased.clone(),
                        state: of_view(view),
                        history: Vec::new(),
                    };
                    wrap(py, Box::new(state))
                });
                Ok(Box::new(BotPlayer::new(bot.clone(), to_py)) as Box<dyn Player<G>>)
            }),
        }
    }
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
        player: &Entrant,
        against: &[Entrant],
        games: usize,
        seed: u64,
        openings: Option<&str>,
        wrap: &Wrap,
    ) -> Result<Vec<String>, String> {
        let game = &self.game;
        if games == 0 {
            return Err("games must be at least 1".into());
        }
        self.check(player).map_err(|e| format!("bad player: {e}"))?;
        for opp in against {
            self.check(opp)
                .map_err(|e| format!("bad opponent '{}': {e}", opp.name()))?;
        }
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
            let records = match (player, opp) {
                (Entrant::Spec(p), Entrant::Spec(o)) => {
                    play_match_from(game, p, o, games, s, &openings, &|| {})?
                }
                _ => {
                    let (first, second) = (self.factory(player, wrap), self.factory(opp, wrap));
                    // One game at a time: a Python object is called in the
                    // same order whatever the machine.
                    let pool = rayon::ThreadPoolBuilder::new()
                        .num_threads(1)
                        .build()
                        .map_err(|e| e.to_string())?;
                    pool.install(|| {
                        play_match_with(game, &*first, &*second, games, s, &openings, &|| {})
                    })?
                }
            };
            let (pn, on) = (player.name(), opp.name());
            let stats = match_stats(pn, on, &records, |i| usize::from(seats_swapped(i)));
            let mut row = serde_json::to_value(&stats).map_err(|e| e.to_string())?;
            // As the command line: each player as it is played.
            row["player_resolved"] = self.resolved(player)?.into();
            row["opponent_resolved"] = self.resolved(opp)?.into();
            rows.push(row.to_string());
        }
        Ok(rows)
    }
    fn tournament(
        &self,
        players: &[Entrant],
        games: usize,
        seed: u64,
        openings: Option<&str>,
        gauntlet: Option<usize>,
        anchor: usize,
        anchor_elo: f64,
        wrap: &Wrap,
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
        let names: Vec<String> = players.iter().map(|p| p.name().to_string()).collect();
        let t = if players.iter().all(|p| matches!(p, Entrant::Spec(_))) {
            play_tournament(game, &names, format, games, seed, &openings, &|| {})?
        } else {
            for p in players {
                self.check(p)
                    .map_err(|e| format!("player '{}': {e}", p.name()))?;
            }
            let made: Vec<_> = players.iter().map(|p| self.factory(p, wrap)).collect();
            let factories: Vec<&PlayerFactory<'_, G>> = made.iter().map(|f| &**f).collect();
            // One game at a time, as `eval` plays a Python player.
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(1)
                .build()
                .map_err(|e| e.to_string())?;
            pool.install(|| {
                play_tournament_with(
                    game,
                    &names,
                    &factories,
                    format,
                    games,
                    seed,
                    &openings,
                    &|| {},
                )
            })?
        };
        let ratings = t.ratings(anchor, anchor_elo)?;
        let mut v = t.to_json(&game.spec(), &ratings);
        v["resolved"] = players
            .iter()
            .map(|p| self.resolved(p))
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
    fn observation_string(&self, player: usize) -> String {
        (self.erased.strings.observation_string)(&self.state, player)
    }
    fn information_state_string(&self, player: usize) -> Result<String, String> {
        (self.erased.strings.info_string)(&self.state, &self.history, player)
    }
    fn information_state_tensor(&self, player: usize) -> Result<Vec<f32>, String> {
        (self.erased.strings.info_tensor)(&self.state, player)
    }
    fn parse_action(&self, text: &str) -> Result<Action, String> {
        self.state.parse_action(text)
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
    fn typed(&self) -> (&dyn Any, &dyn Any, &[Action]) {
        (&self.erased.game, &self.state, &self.history)
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

mod erase;
pub use erase::erase;
