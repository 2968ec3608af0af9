//! The table of the generic player kinds: `random` and `first`, then one
//! line per searching kind, naming the type its file defines (see
//! [`super::kinds`] for what such a type is). From the list come
//! [`KINDS`], which help, errors and `wopr games` read, and the functions
//! that read a spec of a kind and build its player.

use super::kinds::{BoardGame, GenericKind, Kind, KindSpec, EVERY};
use super::spec::PlayerSpec;
use super::{alphabeta, gtp, mcts, net_kind, Roster};
use crate::game::{GameSpec, Player, SpecError};

/// Makes, from the list of the searching kinds' types, [`KINDS`] and the
/// functions that read and build them.
macro_rules! generic_kinds {
    ($($kind:ty),+ $(,)?) => {
        /// The generic player kinds, in the order help lists them.
        pub const KINDS: &[Kind] = &[EVERY[0], EVERY[1], $(<$kind as GenericKind>::ROW),+];

        /// Reads `spec` as a searching kind for `game`; `Ok(None)` when it
        /// names none. Board games call it through [`super::board_parse`].
        pub fn parse_kind<G: Roster>(
            game: &G,
            spec: &GameSpec,
        ) -> Result<Option<PlayerSpec>, SpecError> {
            $(
                if spec.name == <$kind as GenericKind>::ROW.name {
                    let settings = <$kind>::parse(game, spec)?;
                    return Ok(Some(PlayerSpec::kind::<$kind>(settings)));
                }
            )+
            Ok(None)
        }

        /// Reads `text` as a kind with a text of its own (`gtp:`), before
        /// the spec grammar; `None` when it is none.
        pub fn parse_text<G: Roster>(
            game: &G,
            text: &str,
        ) -> Option<Result<PlayerSpec, SpecError>> {
            $(
                if let Some(read) = <$kind>::parse_text(game, text) {
                    return Some(read.map(PlayerSpec::kind::<$kind>));
                }
            )+
            None
        }

        /// Builds the player of a searching kind's spec for `game`.
        pub fn build_kind<G: BoardGame>(
            game: &G,
            spec: &KindSpec,
        ) -> Result<Box<dyn Player<G>>, SpecError> {
            $(
                if let Some(settings) = spec.of::<$kind>() {
                    return <$kind>::build(game, settings);
                }
            )+
            Err(SpecError(format!("'{}' is of no kind wopr builds", spec.settings.text())))
        }
    };
}

generic_kinds!(
    alphabeta::AlphaBetaKind,
    mcts::MctsKind,
    net_kind::NetKind,
    gtp::GtpKind,
);
