//! The player registry: which player specs a game accepts, and the parser
//! that builds a player from one.
//!
//! Every game implements [`Roster`] in its own folder: its heuristic
//! opponents (`level1`, `standard`, `ai:K`, …), then the players every board
//! game gets ([`board_player`]: `alphabeta`, `mcts`, `net:`, `perfect`). Games
//! without such players implement it with the defaults (only `random` and
//! `first`).

use super::{alphabeta, mcts, net, perfect, FirstPlayer, RandomPlayer};
use crate::game::encode::Encodable;
use crate::game::solver::Solver;
use crate::game::{Game, GameSpec, Player, Searchable, SpecError};

/// The players (and the exact solver) a game offers beyond `random` and
/// `first`.
pub trait Roster: Game {
    /// Builds one of this game's players from a parsed spec; `Ok(None)` when
    /// the name is not one of them.
    fn bot(&self, spec: &GameSpec) -> Result<Option<Box<dyn Player<Self>>>, SpecError> {
        let _ = spec;
        Ok(None)
    }

    /// The spec syntaxes [`Roster::bot`] accepts, for help and errors.
    fn bot_names(&self) -> &'static [&'static str] {
        &[]
    }

    /// An exact solver for this game's positions, where one exists.
    fn solver(&self) -> Option<Box<dyn Solver<Self>>> {
        None
    }
}

/// The player specs every game accepts, for help texts and error messages.
pub const GENERIC_PLAYERS: &[&str] = &["random", "first"];

/// Builds a player for `game` from its spec.
pub fn parse_player<G: Roster>(game: &G, spec: &str) -> Result<Box<dyn Player<G>>, SpecError> {
    let parsed = GameSpec::parse(spec)?;
    match parsed.name.as_str() {
        "random" => {
            parsed.check_keys(&[])?;
            Ok(Box::new(RandomPlayer))
        }
        "first" => {
            parsed.check_keys(&[])?;
            Ok(Box::new(FirstPlayer))
        }
        _ => match game.bot(&parsed)? {
            Some(p) => Ok(p),
            None => Err(SpecError(format!(
                "unknown player '{}' for {} (accepted: {})",
                spec.trim(),
                game.spec(),
                player_names(game).join(", ")
            ))),
        },
    }
}

/// Every player spec syntax `game` accepts (without `human`, which the command
/// line adds).
pub fn player_names<G: Roster>(game: &G) -> Vec<&'static str> {
    let mut names = GENERIC_PLAYERS.to_vec();
    names.extend_from_slice(game.bot_names());
    names
}

/// The players every board game gets: `alphabeta` search, `mcts`
/// (Monte-Carlo tree search), `net:` players, and `perfect` where the game
/// has a solver ([`Roster::solver`]). Board
/// games call this from [`Roster::bot`] after their own names.
pub fn board_player<G>(game: &G, spec: &GameSpec) -> Result<Option<Box<dyn Player<G>>>, SpecError>
where
    G: Roster + Encodable,
    G::State: Searchable,
{
    if spec.name == "perfect" {
        spec.check_keys(&[])?;
        return perfect::perfect_player(game).map(Some);
    }
    if let Some(p) = alphabeta::search_player(spec)? {
        return Ok(Some(p));
    }
    if let Some(p) = mcts::mcts_player(game, spec)? {
        return Ok(Some(p));
    }
    net::net_player(game, spec)
}
