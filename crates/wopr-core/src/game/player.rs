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

    /// Why the player could not give a move, asked by the driver after
    /// every [`Player::choose`] (and taken: the next call says `None`
    /// until something fails again). Players that cannot fail (all but
    /// outside engines) keep the default, `None`.
    fn failure(&mut self) -> Option<Failure> {
        None
    }

    /// Gives the player a cell where, while [`Player::choose`] thinks, it
    /// posts the move it would play if stopped now, so that a caller with a
    /// hard deadline (a GGP play clock) can answer with it. Players that
    /// search anytime (MCTS) post as they go; the default ignores the cell.
    fn share_best(&mut self, best: BestSoFar) {
        let _ = best;
    }
}

/// The move a thinking player would play if stopped now (see
/// [`Player::share_best`]): a shared cell, empty until the player posts.
#[derive(Clone, Debug, Default)]
pub struct BestSoFar(std::sync::Arc<std::sync::atomic::AtomicU32>);

impl BestSoFar {
    /// An empty cell.
    pub fn new() -> BestSoFar {
        BestSoFar::default()
    }

    /// Posts `action` as the best move so far.
    pub fn set(&self, action: Action) {
        self.0
            .store(u32::from(action) + 1, std::sync::atomic::Ordering::Relaxed);
    }

    /// The last move posted, `None` before the first.
    pub fn get(&self) -> Option<Action> {
        match self.0.load(std::sync::atomic::Ordering::Relaxed) {
            0 => None,
            a => Some((a - 1) as Action),
        }
    }
}

/// How a player failed to give a move (an outside engine: `players::gtp`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The player loses this game; the match goes on (or replays the game,
    /// or stops: `eval::matches::OnForfeit`). The text is a one-line
    /// message naming the player and what it did not answer.
    Forfeit(ForfeitKind, String),
    /// The match cannot go on (the engine cannot be started, or does not
    /// speak GTP at its first command); a one-line message naming the
    /// player.
    Fatal(String),
}

/// Why a player forfeited a game: what the tallies count apart.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum ForfeitKind {
    /// No answer within its time (a `genmove` within `ms`, another command
    /// within its limit).
    Time,
    /// A move that is not legal in the position, or not a move at all.
    Illegal,
    /// The engine exited, closed its pipes, answered an error or stopped
    /// speaking GTP in the middle of a game.
    Crash,
}

impl ForfeitKind {
    /// Every kind, in the order tables list them.
    pub const ALL: [ForfeitKind; 3] = [ForfeitKind::Time, ForfeitKind::Illegal, ForfeitKind::Crash];

    /// The kind's name in tables and JSON: `time`, `illegal`, `crash`.
    pub fn name(self) -> &'static str {
        match self {
            ForfeitKind::Time => "time",
            ForfeitKind::Illegal => "illegal",
            ForfeitKind::Crash => "crash",
        }
    }
}

impl std::fmt::Display for ForfeitKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A player whose every choice comes in two steps: a value for each legal
/// action, computed from the position alone (no randomness, nothing kept
/// from earlier moves or games), then a pick among those values, which may
/// draw from the game's stream. Splitting the steps lets many games be
/// played in lockstep, the values of all their positions computed in one
/// call (for a net player, one batched pass over all their leaves; see
/// `eval::lockstep`).
///
/// Contract with [`Player::choose`]: with one legal action `choose` plays it
/// without drawing; with more it plays `pick(values, legal, rng)` where
/// `values` is what [`ValuePlayer::values`] gives for that position, so a
/// game played either way is the same game.
pub trait ValuePlayer<G: Game>: Send {
    /// Appends to `out`, for each of `views` (each with a player to move and
    /// more than one legal action), the values of its legal actions in the
    /// order [`State::legal_actions`] lists them, view after view.
    fn values(&mut self, views: &[ViewOf<G>], out: &mut Vec<f32>);

    /// Picks one of `legal` given `values` (one per action), drawing from
    /// `rng` as [`Player::choose`] would.
    fn pick(&self, values: &[f32], legal: &[Action], rng: &mut WoprRng) -> Action;
}
