//! [`erase`]: each registered game behind [`DynGame`]: the board games
//! alike, the others one arm each.

use std::sync::Arc;

use wopr::game::encode::Encodable;
use wopr::game::State;
use wopr::players::Roster;
use wopr::registry::{AnyGame, NonBoard};

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

/// `game` behind one interface. Every board game of the registry is
/// erased alike ([`board`]); the others are named one by one through
/// [`NonBoard`], so one added to the registry and left out here does not
/// compile.
#[allow(clippy::clone_on_copy)] // some games are Copy, some are not
pub fn erase(game: &AnyGame) -> Arc<dyn DynGame> {
    wopr::with_board_game!(game, g => board(g), else other => match other {
        NonBoard::Pig(g) => Arc::new(Erased {
            game: g.clone(),
            encode: observation,
            encodings: observation_encoding,
            strings: public(),
            state_of_view: Some(|v| v.clone()),
        }),
        NonBoard::Kuhn(g) => Arc::new(Erased {
            game: g.clone(),
            encode: observation,
            encodings: observation_encoding,
            strings: kuhn_strings(),
            state_of_view: None,
        }),
        NonBoard::Goofspiel(g) => Arc::new(Erased {
            game: g.clone(),
            encode: observation,
            encodings: observation_encoding,
            strings: public(),
            state_of_view: Some(|v| v.clone()),
        }),
        NonBoard::GdlHidden(g) => Arc::new(Erased {
            game: g.clone(),
            encode: no_observation,
            encodings: |_| Vec::new(),
            strings: percepts(),
            state_of_view: None,
        }),
    })
}
