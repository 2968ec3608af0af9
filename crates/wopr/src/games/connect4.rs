//! Connect4: placeholder, being written (see issue 2).
#![allow(missing_docs, unused)]
use crate::game::registry::GameInfo;
use crate::game::{Action, ActionList, Game, GameSpec, SpecError, State, Turn};
use std::fmt;

pub const INFO: GameInfo = GameInfo {
    name: "connect4",
    about: "",
    paper: "",
    params: &[],
};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Connect4;

impl Connect4 {
    pub fn from_spec(spec: &GameSpec) -> Result<Connect4, SpecError> {
        spec.check_keys(&[])?;
        Ok(Connect4)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Connect4State;

impl fmt::Display for Connect4State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        todo!()
    }
}

impl State for Connect4State {
    type View = Self;
    fn turn(&self) -> Turn {
        todo!()
    }
    fn legal_actions(&self, out: &mut ActionList) {
        todo!()
    }
    fn apply(&mut self, action: Action) {
        todo!()
    }
    fn returns(&self, player: usize) -> f64 {
        todo!()
    }
    fn view(&self, player: usize) -> Self {
        *self
    }
    fn action_to_string(&self, action: Action) -> String {
        todo!()
    }
    fn parse_action(&self, text: &str) -> Result<Action, String> {
        todo!()
    }
}

impl Game for Connect4 {
    type State = Connect4State;
    fn spec(&self) -> String {
        "connect4".into()
    }
    fn num_actions(&self) -> usize {
        todo!()
    }
    fn max_game_length(&self) -> usize {
        todo!()
    }
    fn initial_state(&self) -> Connect4State {
        todo!()
    }
}
