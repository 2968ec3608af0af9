//! [`erase`]: each registered game behind [`DynGame`], one arm a game.

use std::sync::Arc;

use wopr::game::encode::Encodable;
use wopr::game::State;
use wopr::players::Roster;
use wopr::registry::AnyGame;

use super::{
    board_encodings, encode, kuhn_strings, no_observation, observation, observation_encoding,
    percepts, public, DynGame, Erased,
};

/// A perfect-information board game erased: its encodings, public strings,
/// and the whole state as each seat's view.
#[allow(clippy::clone_on_copy)] // some games are Copy, some are not
fn board<G>(g: &G) -> Arc<dyn DynGame>
where
    G: Roster + Encodable + Clone,
    G::State: State<View = G::State>,
{
    Arc::new(Erased {
        game: g.clone(),
        encode,
        encodings: board_encodings,
        strings: public(),
        state_of_view: Some(|v| v.clone()),
    })
}

/// `game` behind one interface. The match names every game: one added to
/// the registry and left out here does not compile.
#[allow(clippy::clone_on_copy)] // some games are Copy, some are not
pub fn erase(game: &AnyGame) -> Arc<dyn DynGame> {
    match game {
        AnyGame::TicTacToe(g) => board(g),
        AnyGame::Connect4(g) => board(g),
        AnyGame::DotsAndBoxes(g) => board(g),
        AnyGame::Reversi(g) => board(g),
        AnyGame::Virus(g) => board(g),
        AnyGame::Gdl(g) => board(g),
        AnyGame::Pig(g) => Arc::new(Erased {
            game: g.clone(),
            encode: observation,
            encodings: observation_encoding,
            strings: public(),
            state_of_view: Some(|v| v.clone()),
        }),
        AnyGame::Kuhn(g) => Arc::new(Erased {
            game: g.clone(),
            encode: observation,
            encodings: observation_encoding,
            strings: kuhn_strings(),
            state_of_view: None,
        }),
        AnyGame::Goofspiel(g) => Arc::new(Erased {
            game: g.clone(),
            encode: observation,
            encodings: observation_encoding,
            strings: public(),
            state_of_view: Some(|v| v.clone()),
        }),
        AnyGame::GdlHidden(g) => Arc::new(Erased {
            game: g.clone(),
            encode: no_observation,
            encodings: |_| Vec::new(),
            strings: percepts(),
            state_of_view: None,
        }),
    }
}
