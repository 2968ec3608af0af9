//! GDL-II sheets with `sees`: the same rules, seen through percepts.

use std::fmt;

use super::{Gdl, GdlState, INFO};
use wopr_core::game::{
    Action, ActionList, Game, GameInfo, GameSpec, Nature, SpecError, State, Turn,
};
use wopr_core::players::Roster;

/// A GDL-II game whose sheet has `sees`: the same rules as [`Gdl`], but a
/// player sees only its view ([`GdlView`]): its percepts, step by step,
/// and its legal moves. `AnyGame::parse` makes one of these for such a
/// sheet; its players are `random` and `first` (the searching players
/// would read the hidden state).
#[derive(Clone, Debug)]
pub struct GdlHidden(pub Gdl);

/// A position of a [`GdlHidden`] game (the whole state; players get
/// [`GdlView`]s of it).
#[derive(Clone, Debug, PartialEq)]
pub struct GdlHiddenState(pub GdlState);

/// What one seat knows in a GDL-II game: what `sees` told it at each joint
/// move so far, and its legal moves now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GdlView {
    /// The seat.
    pub seat: usize,
    /// The percepts (as the sheet writes them) at each joint move so far.
    pub seen: Vec<Vec<String>>,
    /// The seat's legal moves now, in notation.
    pub legal: Vec<String>,
}

impl fmt::Display for GdlView {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "seat {}", self.seat)?;
        for (i, step) in self.seen.iter().enumerate() {
            if !step.is_empty() {
                writeln!(f, "step {}: {}", i + 1, step.join(" "))?;
            }
        }
        write!(f, "legal: {}", self.legal.join(" "))
    }
}

impl fmt::Display for GdlHiddenState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl State for GdlHiddenState {
    type View = GdlView;

    fn turn(&self) -> Turn {
        self.0.turn()
    }
    fn legal_actions(&self, out: &mut ActionList) {
        self.0.legal_actions(out)
    }
    fn apply(&mut self, action: Action) {
        self.0.apply(action)
    }
    fn returns(&self, player: usize) -> f64 {
        self.0.returns(player)
    }
    fn view(&self, player: usize) -> GdlView {
        let rules = &self.0.rules;
        let role = rules.seats.get(player).copied();
        let seen = match (self.0.seen.get(player), role) {
            (Some(steps), Some(role)) => steps
                .iter()
                .map(|ids| {
                    ids.iter()
                        .map(|&p| rules.reasoner.percepts(role)[p as usize].to_string())
                        .collect()
                })
                .collect(),
            _ => Vec::new(),
        };
        let mut legal = ActionList::new();
        self.0.legal_actions_of(player, &mut legal);
        GdlView {
            seat: player,
            seen,
            legal: legal
                .iter()
                .map(|&a| self.0.seat_action_to_string(player, a))
                .collect(),
        }
    }
    fn action_to_string(&self, action: Action) -> String {
        self.0.action_to_string(action)
    }
    fn parse_action(&self, text: &str) -> Result<Action, String> {
        self.0.parse_action(text)
    }
    fn chance_outcomes(&self, out: &mut Vec<(Action, f64)>) {
        self.0.chance_outcomes(out)
    }
    fn legal_actions_of(&self, player: usize, out: &mut ActionList) {
        self.0.legal_actions_of(player, out)
    }
    fn joint_seats(&self) -> usize {
        self.0.joint_seats()
    }
    fn apply_joint(&mut self, actions: &[Action]) {
        self.0.apply_joint(actions)
    }
    fn try_apply(&mut self, action: Action) -> Result<(), String> {
        self.0.try_apply(action)
    }
}

impl Gdl {
    /// Whether the sheet has `sees` (GDL-II percepts): then it is played as
    /// a [`GdlHidden`] game.
    pub fn has_percepts(&self) -> bool {
        self.rules.hidden
    }
}

impl Game for GdlHidden {
    type State = GdlHiddenState;
    /// GDL's entry, with the hidden information a sheet with `sees` has.
    const INFO: GameInfo = GameInfo {
        nature: Nature {
            hidden: true,
            ..INFO.nature
        },
        ..INFO
    };

    fn from_spec(spec: &GameSpec) -> Result<GdlHidden, SpecError> {
        Gdl::from_spec(spec).map(GdlHidden)
    }
    fn spec(&self) -> String {
        self.0.spec()
    }
    fn num_players(&self) -> usize {
        self.0.num_players()
    }
    fn num_actions(&self) -> usize {
        self.0.num_actions()
    }
    fn max_game_length(&self) -> usize {
        self.0.max_game_length()
    }
    fn initial_state(&self) -> GdlHiddenState {
        GdlHiddenState(self.0.initial_state())
    }
    fn seat_names(&self) -> Vec<&'static str> {
        self.0.seat_names()
    }
}

/// GDL-II games offer the players every game has (`random`, `first`).
impl Roster for GdlHidden {
    fn perft(&self, state: &GdlHiddenState, depth: u32) -> u64 {
        crate::steps::step_perft(self.0.reasoner(), &self.0.step_root(&state.0), depth)
    }
}
