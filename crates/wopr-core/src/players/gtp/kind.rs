//! The `gtp:` kind: its row in the table of kinds, its settings
//! ([`GtpSpec`]) and how a spec becomes a player. Its text keeps the
//! command line's spaces, colons and case, so it is read before the
//! `name:key=value` grammar ([`GenericKind::parse_text`]).

use std::time::Duration;

use super::{build, check_game, GtpSpec, GTP_PLAYER};
use crate::game::{GameSpec, SpecError};
use crate::players::cost::Cost;
use crate::players::kinds::{BoardGame, GenericKind, Kind, Plays, Settings};
use crate::players::{Player, Roster};

/// The `gtp:` kind.
pub struct GtpKind;

impl GenericKind for GtpKind {
    const ROW: Kind = Kind {
        name: "gtp",
        syntax: GTP_PLAYER,
        about: "an outside engine spoken to in GTP",
        plays: Plays::GtpBoard,
    };
    type Settings = GtpSpec;

    /// `gtp` with no command after it (a text with one is read by
    /// [`GtpKind::parse_text`]): the error saying what is accepted.
    fn parse<G: Roster>(game: &G, _: &GameSpec) -> Result<GtpSpec, SpecError> {
        check_game(game)?;
        GtpSpec::parse("")
    }

    fn parse_text<G: Roster>(game: &G, text: &str) -> Option<Result<GtpSpec, SpecError>> {
        let trimmed = text.trim_start();
        let head = trimmed.get(..4)?;
        head.eq_ignore_ascii_case("gtp:").then(|| {
            check_game(game)?;
            GtpSpec::parse(&trimmed[4..])
        })
    }

    fn build<G: BoardGame>(game: &G, spec: &GtpSpec) -> Result<Box<dyn Player<G>>, SpecError> {
        build(game, spec)
    }
}

impl Settings for GtpSpec {
    fn cost(&self) -> Cost {
        Cost {
            time: Some(self.move_time),
            process: Some(self.command.join(" ")),
            ..Cost::default()
        }
    }

    fn limit_time(&mut self, limit: Duration) {
        self.move_time = self.move_time.min(limit);
    }

    fn text(&self) -> String {
        self.to_string()
    }
}
