//! The interface every player implements: pick an action from what the seat
//! may see. Concrete players live above the framework: the generic ones in
//! the `players` module, each game's heuristic opponents in its folder under
//! `games`.

use super::rng::WoprRng;
use super::{Action, Game, State};

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
