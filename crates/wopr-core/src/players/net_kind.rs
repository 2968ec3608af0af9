//! The `net:` kind: its row in the table of kinds, its settings
//! ([`NetSettings`]) and how a spec becomes a player: the net alone in
//! a mode, the search its file's `player` line names around it (so this
//! file stands above both `net/` and `mcts/`), or one of the game's own
//! players that reads a net.

use std::time::Duration;

use super::cost::Cost;
use super::kinds::{clamp_time, BoardGame, GenericKind, Kind, Plays, Settings};
use super::net::{load_checked, wrapper_line, NetPlayer, NetSettings};
use super::spec::PlayerSpec;
use super::{mcts, Player, Roster};
use crate::game::{GameSpec, SpecError};
use crate::nn::NetFile;

/// The `net:` kind.
pub struct NetKind;

impl GenericKind for NetKind {
    const ROW: Kind = Kind {
        name: "net",
        syntax: "net:PATH[,mode=M][,ply=N][,temp=T][,ms=T]",
        about: "a net file, greedy, in a search, or as a distribution",
        plays: Plays::Reads("net:PATH"),
    };
    type Settings = NetSettings;

    fn parse<G: Roster>(_: &G, spec: &GameSpec) -> Result<NetSettings, SpecError> {
        NetSettings::parse(spec)
    }

    /// The net alone in the mode its settings and its file's line give,
    /// or, where the file's line names a search around the net
    /// ([`wrapper_line`]) and the spec names no mode of its own, that
    /// search (its time budget the spec's `ms=` where given). The file is
    /// read once.
    fn build<G: BoardGame>(
        game: &G,
        settings: &NetSettings,
    ) -> Result<Box<dyn Player<G>>, SpecError> {
        let file = load_checked(game, &settings.path)?;
        if let Some(own) = own_line(game, &file, settings) {
            return game.build_bot(&own);
        }
        match wrapper_line(&file).filter(|_| !settings.names_a_mode()) {
            Some(line) => {
                let line = line.to_string();
                mcts::build_wrapper(
                    game,
                    file,
                    &settings.path,
                    &line,
                    game.mcts_c(),
                    settings.time,
                )
            }
            None => Ok(Box::new(NetPlayer::from_loaded(game, file, settings)?)),
        }
    }
}

/// Where a net file's `player` line names one of the game's own players
/// that reads a net (`engine:ms=1000` on Reversi) and the spec names no
/// mode of its own: that player over this file (`net=PATH` added, the
/// spec's `ms=` replacing the line's).
fn own_line<G: Roster>(game: &G, file: &NetFile, settings: &NetSettings) -> Option<PlayerSpec> {
    if settings.names_a_mode() {
        return None;
    }
    let mut spec = GameSpec::parse(file.player.as_deref()?).ok()?;
    spec.args
        .retain(|(k, _)| k != "net" && (settings.time.is_none() || k != "ms"));
    spec.args.push(("net".into(), settings.path.clone()));
    if let Some(t) = settings.time {
        spec.args.push(("ms".into(), t.as_millis().to_string()));
    }
    match game.parse_bot(&spec) {
        Ok(Some(own @ PlayerSpec::Own(_))) => Some(own),
        _ => None,
    }
}

impl Settings for NetSettings {
    fn cost(&self) -> Cost {
        Cost {
            depth: self.search_ply(),
            time: self.time,
            nets: vec![self.path.clone()],
            ..Cost::default()
        }
    }

    fn limit_time(&mut self, limit: Duration) {
        clamp_time(&mut self.time, limit);
    }

    fn nets_mut(&mut self) -> Vec<&mut String> {
        vec![&mut self.path]
    }

    fn text(&self) -> String {
        self.to_string()
    }
}
