//! Players: anything that picks an action from what it may see.
//!
//! A player is built from a spec string (`random`, `first`,
//! `alphabeta:depth=4`, …) for one game by [`parse_player`]. The generic players
//! live here; a game adds its own (search, heuristic opponents) through
//! [`Game::make_player`](crate::game::Game). Terminal play (`human`) belongs to
//! the command line, not to this library.

pub mod alphabeta;
pub mod net;

use rand::RngExt;

use crate::game::rng::WoprRng;
use crate::game::{Action, Game, GameSpec, SpecError, State};

pub use alphabeta::AlphaBetaPlayer;

/// The view a player of game `G` receives.
pub type ViewOf<G> = <<G as Game>::State as State>::View;

/// A decision maker for game `G`.
pub trait Player<G: Game>: Send {
    /// The spec that rebuilds this player (used in records and reports).
    fn spec(&self) -> String;

    /// Picks one of `legal` (never empty) given what this seat sees. Any
    /// randomness comes from `rng`, the game's own stream.
    fn choose(&mut self, view: &ViewOf<G>, legal: &[Action], rng: &mut WoprRng) -> Action;

    /// Called before each new game.
    fn new_game(&mut self) {}
}

/// Picks uniformly among the legal actions.
#[derive(Clone, Debug, Default)]
pub struct RandomPlayer;

impl<G: Game> Player<G> for RandomPlayer {
    fn spec(&self) -> String {
        "random".into()
    }
    fn choose(&mut self, _: &ViewOf<G>, legal: &[Action], rng: &mut WoprRng) -> Action {
        legal[rng.random_range(0..legal.len())]
    }
}

/// Always plays the first legal action (lowest index): a deterministic
/// opponent for tests.
#[derive(Clone, Debug, Default)]
pub struct FirstPlayer;

impl<G: Game> Player<G> for FirstPlayer {
    fn spec(&self) -> String {
        "first".into()
    }
    fn choose(&mut self, _: &ViewOf<G>, legal: &[Action], _: &mut WoprRng) -> Action {
        legal[0]
    }
}

/// The player specs every game accepts, for help texts and error messages.
pub const GENERIC_PLAYERS: &[&str] = &["random", "first"];

/// Builds a player for `game` from its spec.
pub fn parse_player<G: Game>(game: &G, spec: &str) -> Result<Box<dyn Player<G>>, SpecError> {
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
        _ => match game.make_player(&parsed)? {
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
pub fn player_names<G: Game>(game: &G) -> Vec<&'static str> {
    let mut names = GENERIC_PLAYERS.to_vec();
    names.extend_from_slice(game.player_names());
    names
}

/// The players every board game gets: `alphabeta` search, `net:` players,
/// and `perfect` where the game has a solver ([`Game::solver`]). Board games
/// call this from [`Game::make_player`] after their own names.
pub fn board_player<G>(game: &G, spec: &GameSpec) -> Result<Option<Box<dyn Player<G>>>, SpecError>
where
    G: crate::encode::Encodable,
    G::State: crate::game::Searchable,
{
    if spec.name == "perfect" {
        spec.check_keys(&[])?;
        return crate::solve::perfect_player(game).map(Some);
    }
    if let Some(p) = alphabeta::search_player(spec)? {
        return Ok(Some(p));
    }
    net::net_player(game, spec)
}
