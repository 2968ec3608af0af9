//! The player registry: which player specs a game accepts, and the parser
//! that builds a player from one.
//!
//! Every game implements [`Roster`] in its own folder: its heuristic
//! opponents (`level1`, `standard`, `ai:K`, …), then the players every board
//! game gets ([`board_parse`] and [`board_build`]: `alphabeta`, `mcts`,
//! `net:`, `perfect`). Games without such players implement it with the
//! defaults (only `random` and `first`). A spec is read in two steps: parsed
//! into a typed [`PlayerSpec`] (nothing opened), then built.

use super::kinds::{kind_name, BoardGame};
use super::spec::PlayerSpec;
use super::table::{self, KINDS};
use super::{ms_arg, perfect, FirstPlayer, RandomPlayer, Roster};
use crate::game::{GameSpec, Player, SpecError};

/// Reading and building a spec for one game: [`PlayerSpec::parse`] parses
/// the generic players here and asks the game's [`Roster`] for the rest.
impl PlayerSpec {
    /// Parses `text` as a player of `game`, checking every key and value;
    /// opens no file and builds nothing.
    pub fn parse<G: Roster>(game: &G, text: &str) -> Result<PlayerSpec, SpecError> {
        // A kind with a text of its own (a GTP command line keeps its
        // spaces, colons and case) is read before the `name:key=value`
        // grammar.
        if let Some(read) = table::parse_text(game, text) {
            return read;
        }
        let parsed = GameSpec::parse(text)?;
        match parsed.name.as_str() {
            "random" => {
                parsed.check_keys(&[])?;
                Ok(PlayerSpec::Random)
            }
            "first" => {
                parsed.check_keys(&[])?;
                Ok(PlayerSpec::First)
            }
            _ => game.parse_bot(&parsed)?.ok_or_else(|| {
                SpecError(format!(
                    "unknown player '{}' for {} (accepted: {})",
                    text.trim(),
                    game.spec(),
                    player_names(game).join(", ")
                ))
            }),
        }
    }

    /// Builds the player (this may read a net file or allocate tables).
    pub fn build<G: Roster>(&self, game: &G) -> Result<Box<dyn Player<G>>, SpecError> {
        match self {
            PlayerSpec::Random => Ok(Box::new(RandomPlayer)),
            PlayerSpec::First => Ok(Box::new(FirstPlayer)),
            _ => game.build_bot(self),
        }
    }
}

/// Builds a player for `game` from its spec: [`PlayerSpec::parse`], then
/// [`PlayerSpec::build`].
pub fn parse_player<G: Roster>(game: &G, spec: &str) -> Result<Box<dyn Player<G>>, SpecError> {
    PlayerSpec::parse(game, spec)?.build(game)
}

/// The spec `spec` is played as, every setting named: a `net:` player's
/// built `spec()` (the net file's own player line resolved), any other
/// player's canonical typed spec (which keeps what a built player's
/// `spec()` may leave out, such as `perfect`'s book). The player is built,
/// so a bad spec or file is an error here. What `wopr eval`, `wopr
/// tournament` and the Python package print as `resolved`.
pub fn resolve_player<G: Roster>(game: &G, spec: &str) -> Result<String, SpecError> {
    resolve_spec(game, &PlayerSpec::parse(game, spec)?)
}

/// [`resolve_player`] for a spec already read.
pub fn resolve_spec<G: Roster>(game: &G, typed: &PlayerSpec) -> Result<String, SpecError> {
    let built = typed.build(game)?;
    Ok(match typed.settings::<super::net_kind::NetKind>() {
        Some(_) => built.spec(),
        None => typed.to_string(),
    })
}

/// Every player spec syntax `game` accepts (without `human`, which the
/// command line adds): the generic kinds it plays ([`KINDS`], each asked of
/// the game), then its own players ([`Roster::bot_names`]), whose syntax
/// for a generic kind (Pig's `mcts`) replaces the kind's row.
pub fn player_names<G: Roster>(game: &G) -> Vec<&'static str> {
    let own = game.bot_names();
    let mut names: Vec<&'static str> = KINDS
        .iter()
        .filter(|k| !own.iter().any(|o| kind_name(o) == k.name))
        .filter(|k| k.plays_in(game))
        .map(|k| k.syntax)
        .collect();
    names.extend_from_slice(own);
    names
}

/// Reads the players every board game gets: the searching kinds of
/// [`KINDS`] (`alphabeta`, `mcts`, `net:`, …: [`table::parse_kind`]), and
/// `perfect` where the game has a solver ([`Roster::solver`]). Board games
/// call this from [`Roster::parse_bot`] after their own names.
pub fn board_parse<G: Roster>(game: &G, spec: &GameSpec) -> Result<Option<PlayerSpec>, SpecError> {
    if spec.name != "perfect" {
        return table::parse_kind(game, spec);
    }
    spec.check_keys(&["ms"])?;
    if game.solver().is_none() {
        return Err(SpecError(format!("{} has no exact solver", game.spec())));
    }
    Ok(Some(PlayerSpec::Perfect {
        empties: None,
        book: None,
        time: ms_arg(spec)?,
    }))
}

/// Builds the board players [`board_parse`] reads. Board games call this
/// from [`Roster::build_bot`] for every spec that is not their own.
pub fn board_build<G: BoardGame>(
    game: &G,
    spec: &PlayerSpec,
) -> Result<Box<dyn Player<G>>, SpecError> {
    match spec {
        PlayerSpec::Perfect { time, .. } => perfect::perfect_player(game, *time),
        PlayerSpec::Kind(k) => table::build_kind(game, k),
        other => Err(SpecError(format!(
            "{} has no player '{other}' (accepted: {})",
            game.spec(),
            player_names(game).join(", ")
        ))),
    }
}
