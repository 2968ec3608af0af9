//! The game framework: what every game provides and what every algorithm uses.
//!
//! The shape follows the WOPR thesis (chapter 2: rules, players, views, choices,
//! a driver) in the form OpenSpiel made common: an immutable [`Game`] value holds
//! the parameters and makes [`State`]s; a state knows whose [`Turn`] it is, the
//! legal actions, how to apply one, and the returns once the game is over.
//!
//! The thesis's less common concepts are carried by the same two traits:
//! - **chance**: a state whose turn is [`Turn::Chance`] lists its outcomes with
//!   probabilities ([`State::chance_outcomes`]); the driver samples one.
//! - **hidden information**: a player never sees the state, only its
//!   [`State::view`] for that seat (for perfect-information games the view is the
//!   state itself).
//! - **simultaneous moves**: at [`Turn::Simultaneous`] every player with legal
//!   actions ([`State::legal_actions_of`]) chooses, and [`State::apply_joint`]
//!   resolves all choices at once.
//!
//! Algorithms are generic over `G: Game`, so the hot loops (playouts, search)
//! are statically dispatched; the command line turns a spec string into a
//! concrete game once, through the registry's `AnyGame`.
//!
//! This module is the floor of the library: it knows no concrete game,
//! player or solver. It holds the interfaces the games implement ([`Game`],
//! [`State`], [`Searchable`], [`encode::Encodable`], [`solver::Solver`],
//! [`oracle::Oracles`]) and the ones players implement ([`player::Player`]),
//! the spec parser, the random streams, perft and the driver that plays one
//! game.
//!
//! **References.**
//! - B. Horner, *WOPR in search of better strategies for board games*, M.S.
//!   thesis, University of Nebraska at Omaha, 2011.

pub mod board;
pub mod driver;
pub mod encode;
pub mod info;
pub mod ntuple;
pub mod oracle;
pub mod patterns;
pub mod perft;
pub mod player;
pub mod rng;
pub mod solver;
pub mod spec;

use std::fmt::{Debug, Display};

pub use driver::{play_game, Forfeit, GameRecord, Thinking};
pub use info::{GameInfo, Nature, ParamInfo};
pub use player::{BestSoFar, Failure, ForfeitKind, Player, ValuePlayer, ViewOf};
pub use spec::{GameSpec, SpecError};

/// An action index: a number in `0..game.num_actions()`. Its meaning is fixed
/// per game and documented in the game's module (nets and files use it).
pub type Action = u16;

/// The most legal actions any position of any registered game can have
/// (virus on 8x8 stays below 400: at most 336 jumps plus 64 grows).
pub const MAX_ACTIONS: usize = 512;

/// A list of actions on the stack: move generation never allocates.
pub type ActionList = arrayvec::ArrayVec<Action, MAX_ACTIONS>;

/// Who acts next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Turn {
    /// One player (a seat index, `0..num_players`) chooses an action.
    Player(usize),
    /// Chance picks an outcome from [`State::chance_outcomes`].
    Chance,
    /// Every player with legal actions chooses at once; see [`State::apply_joint`].
    Simultaneous,
    /// The game is over.
    Terminal,
}

/// A position plus everything the rules need to continue from it.
///
/// States are values: cloning one is cheap (board games are a few machine
/// words) and [`apply`](State::apply) changes it in place.
pub trait State: Clone + Debug + Display + Send + Sync + 'static {
    /// What one player may know of the state. Perfect-information games use
    /// `Self`.
    type View: Clone + Debug + Display + Send + Sync;

    /// Whose turn it is.
    fn turn(&self) -> Turn;

    /// The legal actions of the player to move, or the chance outcomes at a
    /// chance node, in increasing order. Empty exactly when the state is
    /// terminal or simultaneous.
    fn legal_actions(&self, out: &mut ActionList);

    /// A uniformly random legal action of the player to move, at a
    /// [`Turn::Player`] turn: `legal[rng.random_range(0..legal.len())]` over
    /// the list [`State::legal_actions`] makes.
    ///
    /// Random playouts (`wopr bench`, MCTS rollouts) call this once per move.
    /// A game may override it to pick without listing its moves, but the
    /// override must draw from `rng` exactly as this default does (one
    /// `random_range(0..n)`, `n` the number of legal actions, also when `n`
    /// is 1) and return the action the default would: then a seed plays the
    /// same games whichever is used. `tests/playout.rs` checks every game.
    fn random_action<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Action {
        let mut legal = ActionList::new();
        self.legal_actions(&mut legal);
        legal[rand::RngExt::random_range(rng, 0..legal.len())]
    }

    /// Plays one action (or one chance outcome). The action must be legal;
    /// callers that hold unchecked input use [`State::try_apply`].
    fn apply(&mut self, action: Action);

    /// The return of `player` in a terminal state: +1 win, 0 draw, −1 loss for
    /// the board games. Zero before the end.
    fn returns(&self, player: usize) -> f64;

    /// The score margin of `player` (own score minus the opponent's) where the
    /// game keeps score; `None` where it does not.
    fn score(&self, _player: usize) -> Option<i32> {
        None
    }

    /// What `player` sees of this state.
    fn view(&self, player: usize) -> Self::View;

    /// Human-readable notation of `action` in this state.
    fn action_to_string(&self, action: Action) -> String;

    /// Parses notation (case-insensitively) or a plain action index into an
    /// action. Parsing does not check legality.
    fn parse_action(&self, text: &str) -> Result<Action, String>;

    /// The square `(column, row)` that `action` occupies when played here
    /// (column 0 = left, row 0 = top), for games played on a grid; `None` for
    /// actions that occupy no square (passes) and games without a grid. The
    /// musicator turns these squares into music.
    fn action_cell(&self, _action: Action) -> Option<(usize, usize)> {
        None
    }

    /// The position as a board to draw ([`board::Board`]); games without a
    /// board keep the default, their text drawing.
    fn board(&self) -> board::Board {
        board::Board::Text
    }

    /// Where `action` is clicked on [`State::board`] ([`board::Target`]);
    /// by default a button.
    fn target(&self, _action: Action) -> board::Target {
        board::Target::Button
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.turn() == Turn::Terminal
    }

    /// About how many plies the game has left, where the game knows
    /// (Reversi: its empty squares); what a player on a game clock shares
    /// its time by. `None` (the default): the player reckons from
    /// [`Game::max_game_length`].
    fn plies_left(&self) -> Option<u32> {
        None
    }

    /// Chance outcomes with their probabilities; empty except at chance nodes.
    fn chance_outcomes(&self, _out: &mut Vec<(Action, f64)>) {}

    /// The legal actions of `player`; differs from [`State::legal_actions`]
    /// only at simultaneous nodes, where every player has a list.
    fn legal_actions_of(&self, player: usize, out: &mut ActionList) {
        if self.turn() == Turn::Player(player) {
            self.legal_actions(out);
        }
    }

    /// How many seats choose at a simultaneous node (each has a list from
    /// [`State::legal_actions_of`], and [`State::apply_joint`] takes one
    /// action each): 2 unless a game with more seats says so.
    fn joint_seats(&self) -> usize {
        2
    }

    /// Resolves one action per player at a simultaneous node (index = seat).
    /// Only simultaneous games override this.
    fn apply_joint(&mut self, actions: &[Action]) {
        let _ = actions;
        unreachable!("apply_joint called on a game without simultaneous moves")
    }

    /// Plays `action` if it is legal here; otherwise says why not and leaves
    /// the state unchanged.
    fn try_apply(&mut self, action: Action) -> Result<(), String> {
        match self.turn() {
            Turn::Terminal => return Err("the game is over".into()),
            Turn::Simultaneous => return Err("this is a simultaneous turn; use apply_joint".into()),
            _ => {}
        }
        let mut legal = ActionList::new();
        self.legal_actions(&mut legal);
        if legal.contains(&action) {
            self.apply(action);
            Ok(())
        } else {
            Err(format!(
                "{} is not legal here (legal: {})",
                self.action_to_string(action),
                legal
                    .iter()
                    .map(|&a| self.action_to_string(a))
                    .collect::<Vec<_>>()
                    .join(" ")
            ))
        }
    }
}

/// An immutable game: its parameters, and a factory for initial states.
pub trait Game: Clone + Debug + Send + Sync + 'static {
    /// The game's state type.
    type State: State;

    /// What the registry lists about the game: its spec name and aliases, a
    /// line on it, the paper that uses it, its parameters.
    const INFO: GameInfo;

    /// Builds the game from a parsed spec whose name is one of
    /// [`GameInfo::names`]; checks the parameters.
    fn from_spec(spec: &GameSpec) -> Result<Self, SpecError>
    where
        Self: Sized;

    /// The canonical spec string, e.g. `connect4:7x6`; parsing it gives back
    /// an equal game.
    fn spec(&self) -> String;

    /// Number of players (seats). Seat 0 moves first.
    fn num_players(&self) -> usize {
        2
    }

    /// Number of distinct action indices (the size of a policy output).
    fn num_actions(&self) -> usize;

    /// An upper bound on the number of actions (including passes and chance
    /// outcomes) in one game.
    fn max_game_length(&self) -> usize;

    /// The start position.
    fn initial_state(&self) -> Self::State;

    /// Names of the seats, e.g. `["X", "O"]`.
    fn seat_names(&self) -> Vec<&'static str> {
        vec!["P1", "P2"]
    }
}

/// Perfect-information, deterministic, turn-based games: what minimax-style
/// search needs. Every method works from the point of view of the player to
/// move. Positions compare with `==`, so that a batched net player can
/// evaluate each distinct position once (found by [`Searchable::key`],
/// confirmed by `==`).
pub trait Searchable: State<View = Self> + PartialEq {
    /// A 64-bit key identifying the position (for transposition tables). Equal
    /// positions give equal keys; distinct positions collide rarely.
    fn key(&self) -> u64;

    /// A heuristic value of the position for the player to move, in the range
    /// ±[`WIN_SCORE`]/2. Each game documents its heuristic.
    fn evaluate(&self) -> i32;
}

/// The search value of a won terminal position (minus the plies to reach it).
pub const WIN_SCORE: i32 = 1_000_000;

/// The seat to move, if a single player is to move.
pub fn mover<S: State>(state: &S) -> Option<usize> {
    match state.turn() {
        Turn::Player(p) => Some(p),
        _ => None,
    }
}

/// The return of a finished game from a score margin: +1, 0 or −1.
#[inline]
pub fn result_of_margin(margin: i32) -> f64 {
    match margin {
        m if m > 0 => 1.0,
        m if m < 0 => -1.0,
        _ => 0.0,
    }
}

/// The sign of a return: +1, −1, or 0 for a draw (`f64::signum` gives +1
/// for 0, which would count a draw as a win).
#[inline]
pub fn result_sign(r: f64) -> f32 {
    if r > 0.0 {
        1.0
    } else if r < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// Mixes a 64-bit value into a well-spread hash (SplitMix64's finaliser).
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Parses a plain action index (`"#12"` or `"12"` when the game's notation
/// does not use bare numbers) into an action below `limit`.
pub fn parse_index(text: &str, limit: usize) -> Option<Action> {
    let t = text.trim().strip_prefix('#')?;
    let n: usize = t.parse().ok()?;
    (n < limit).then_some(n as Action)
}
