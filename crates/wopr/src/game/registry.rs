//! The one list of games: names, parameters, defaults, and the spec parser.
//!
//! Front ends turn a spec string into an [`AnyGame`] once and then hand the
//! concrete game to generic code with [`with_game!`](crate::with_game), so no
//! dynamic dispatch reaches the hot loops.

use super::spec::{GameSpec, SpecError};
use crate::games::{
    connect4::Connect4, dots_and_boxes::DotsAndBoxes, goofspiel::Goofspiel, kuhn::KuhnPoker,
    pig::Pig, reversi::Reversi, tictactoe::TicTacToe, virus::Virus,
};

/// One parameter of a game.
#[derive(Clone, Copy, Debug)]
pub struct ParamInfo {
    /// The key in a spec (`size` is written bare, as `CxR`).
    pub name: &'static str,
    /// The default value, as written in a spec.
    pub default: &'static str,
    /// What values are accepted and what they mean.
    pub doc: &'static str,
}

/// What the registry knows about a game.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// The spec name.
    pub name: &'static str,
    /// One line on the game.
    pub about: &'static str,
    /// Which paper uses it, if any.
    pub paper: &'static str,
    /// Its parameters.
    pub params: &'static [ParamInfo],
}

/// Any registered game, chosen at run time.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Tic-Tac-Toe.
    TicTacToe(TicTacToe),
    /// Connect-4 on any board up to 64 bits.
    Connect4(Connect4),
    /// Dots-and-Boxes.
    DotsAndBoxes(DotsAndBoxes),
    /// Reversi (Othello rules).
    Reversi(Reversi),
    /// The Virus game.
    Virus(Virus),
    /// Pig, the dice game (chance).
    Pig(Pig),
    /// Kuhn poker (hidden information and chance).
    Kuhn(KuhnPoker),
    /// Goofspiel (simultaneous moves).
    Goofspiel(Goofspiel),
}

/// Every registered game, in the order `wopr games` lists them.
pub fn games() -> Vec<GameInfo> {
    vec![
        crate::games::tictactoe::INFO,
        crate::games::connect4::INFO,
        crate::games::dots_and_boxes::INFO,
        crate::games::reversi::INFO,
        crate::games::virus::INFO,
        crate::games::pig::INFO,
        crate::games::kuhn::INFO,
        crate::games::goofspiel::INFO,
    ]
}

impl AnyGame {
    /// Parses a game spec such as `connect4:6x6`.
    pub fn parse(text: &str) -> Result<AnyGame, SpecError> {
        let spec = GameSpec::parse(text)?;
        Ok(match spec.name.as_str() {
            "tictactoe" | "tic-tac-toe" => AnyGame::TicTacToe(TicTacToe::from_spec(&spec)?),
            "connect4" | "connect-4" => AnyGame::Connect4(Connect4::from_spec(&spec)?),
            "dots-and-boxes" | "dotsandboxes" => {
                AnyGame::DotsAndBoxes(DotsAndBoxes::from_spec(&spec)?)
            }
            "reversi" | "othello" => AnyGame::Reversi(Reversi::from_spec(&spec)?),
            "virus" => AnyGame::Virus(Virus::from_spec(&spec)?),
            "pig" => AnyGame::Pig(Pig::from_spec(&spec)?),
            "kuhn" | "kuhn-poker" => AnyGame::Kuhn(KuhnPoker::from_spec(&spec)?),
            "goofspiel" => AnyGame::Goofspiel(Goofspiel::from_spec(&spec)?),
            other => {
                let names: Vec<&str> = games().iter().map(|g| g.name).collect();
                return Err(SpecError(format!(
                    "unknown game '{other}' (accepted: {})",
                    names.join(", ")
                )));
            }
        })
    }

    /// The canonical spec of the game inside.
    pub fn spec(&self) -> String {
        crate::with_game!(self, g => crate::game::Game::spec(g))
    }
}

/// Runs an expression with `$g` bound to the concrete game inside an
/// [`AnyGame`]: `with_game!(any, g => perft(&g.initial_state(), 3))`.
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::game::AnyGame::TicTacToe($g) => $body,
            $crate::game::AnyGame::Connect4($g) => $body,
            $crate::game::AnyGame::DotsAndBoxes($g) => $body,
            $crate::game::AnyGame::Reversi($g) => $body,
            $crate::game::AnyGame::Virus($g) => $body,
            $crate::game::AnyGame::Pig($g) => $body,
            $crate::game::AnyGame::Kuhn($g) => $body,
            $crate::game::AnyGame::Goofspiel($g) => $body,
        }
    };
}

/// Like [`with_game!`] but only for the perfect-information board games
/// (those whose states are [`Searchable`](crate::game::Searchable)); `$other`
/// is evaluated for the rest.
#[macro_export]
macro_rules! with_board_game {
    ($any:expr, $g:ident => $body:expr, $other:expr) => {
        match $any {
            $crate::game::AnyGame::TicTacToe($g) => $body,
            $crate::game::AnyGame::Connect4($g) => $body,
            $crate::game::AnyGame::DotsAndBoxes($g) => $body,
            $crate::game::AnyGame::Reversi($g) => $body,
            $crate::game::AnyGame::Virus($g) => $body,
            _ => $other,
        }
    };
}
