//! The driver (the thesis's GameDriver): plays one game between players.
//! Matches of many games (in parallel, by spec) are run one layer up, in
//! `eval::matches`.
//!
//! At each turn the driver asks the rules who moves, gives each moving player
//! its view and its legal actions, checks the answer, and applies it. Chance
//! nodes are sampled from the game's own random stream; simultaneous turns
//! collect one action per seat and apply them together.

use std::ops::ControlFlow;

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::player::{Failure, ForfeitKind, Player};
use super::rng::WoprRng;
use super::{Action, ActionList, Game, State, Turn};

/// One finished (or abandoned) game, as written by `wopr play --record`.
/// Two records are equal when they hold the same game: the time the
/// players took ([`thinking`](Self::thinking)) differs from run to run and
/// is not compared.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game spec, e.g. `connect4:6x6`.
    pub game: String,
    /// Player specs by seat.
    pub players: Vec<String>,
    /// Moves in notation; a simultaneous turn is written `a/b` (seat order),
    /// a chance outcome as the game notes it.
    pub moves: Vec<String>,
    /// The action indices, in order; a simultaneous turn contributes one index
    /// per seat, in seat order.
    pub actions: Vec<Action>,
    /// Returns per seat; `None` if the game was abandoned.
    pub returns: Option<Vec<f64>>,
    /// Score margin per seat, where the game keeps score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<Vec<i32>>,
    /// How many of `actions` are the opening the game was started from
    /// (played by no one; see `eval::openings`); 0 for a game from the
    /// start position.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub opening: usize,
    /// Why the game ended early where a player forfeited it (an outside
    /// engine out of time, playing an illegal move or crashing): who, why
    /// and a one-line message naming the player; its seat's return is −1,
    /// the others share +1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forfeit: Option<Forfeit>,
    /// The forfeits of earlier tries at this game, replayed from the same
    /// opening and random stream (`eval::matches::OnForfeit::Replay`);
    /// empty where the game was played once.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub replayed: Vec<Forfeit>,
    /// Per seat: the moves it chose at turns of its own (not the opening's,
    /// not chance's, not simultaneous turns) and the wall-clock seconds
    /// they took, from the move before to this one (so what the game
    /// itself costs between moves is counted too, a few microseconds);
    /// empty in records written before they were kept.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub thinking: Vec<Thinking>,
}

impl PartialEq for GameRecord {
    fn eq(&self, other: &Self) -> bool {
        self.game == other.game
            && self.players == other.players
            && self.moves == other.moves
            && self.actions == other.actions
            && self.returns == other.returns
            && self.score == other.score
            && self.opening == other.opening
            && self.forfeit == other.forfeit
            && self.replayed == other.replayed
    }
}

/// One seat's moves and the time it took to choose them ([`GameRecord::thinking`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Thinking {
    /// Moves chosen.
    pub moves: u32,
    /// Wall-clock seconds spent choosing them.
    pub seconds: f64,
}

/// A game a player forfeited ([`Failure::Forfeit`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Forfeit {
    /// The seat that forfeited.
    pub seat: usize,
    /// Why: out of time, an illegal move, a crash.
    pub kind: ForfeitKind,
    /// The player's one-line message (the engine, what it did not answer).
    pub message: String,
}

impl std::fmt::Display for Forfeit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "seat {} forfeits ({}): {}",
            self.seat, self.kind, self.message
        )
    }
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Why a game could not be played to the end.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PlayError {
    /// A player answered with an action that is not legal.
    #[error("player {seat} ({player}) chose illegal action {action} at ply {ply}")]
    Illegal {
        /// The seat that moved.
        seat: usize,
        /// The player's spec.
        player: String,
        /// The action chosen.
        action: Action,
        /// The ply (0-based) at which it happened.
        ply: usize,
    },
    /// The game has another number of seats than players were given.
    #[error("{players} players for a game of {seats} seats")]
    Seats {
        /// Players given.
        players: usize,
        /// Seats of the game.
        seats: usize,
    },
    /// The game ran past its maximum length (a bug in the game's rules).
    #[error("game exceeded its maximum length of {0} actions")]
    TooLong(usize),
    /// The opening the game was to start from is not a legal line.
    #[error("bad opening: {0}")]
    BadOpening(String),
    /// Games played in lockstep (`eval::lockstep`) reached a simultaneous
    /// turn, which they do not play.
    #[error("a simultaneous turn cannot be played in lockstep")]
    Simultaneous,
    /// A player forfeited the game ([`Failure::Forfeit`]); only
    /// [`play_out`], which returns a position, reports it as an error (a
    /// record holds it in `forfeit`).
    #[error("{}", .0.message)]
    Forfeit(Forfeit),
    /// A player could not go on ([`Failure::Fatal`]): the match ends.
    #[error("{message}")]
    Failed {
        /// The seat that failed.
        seat: usize,
        /// The player's one-line message.
        message: String,
    },
}

/// The returns of a game that seat `seat` of `players` forfeited: −1 for
/// it, the +1 shared by the others.
pub fn forfeit_returns(seat: usize, players: usize) -> Vec<f64> {
    let share = 1.0 / (players.max(2) - 1) as f64;
    (0..players)
        .map(|p| if p == seat { -1.0 } else { share })
        .collect()
}

/// Ends the drive where a player failed: `Ok(Some(..))` for a forfeit,
/// an error for a fatal failure, `Ok(None)` when it did not fail.
fn check_failure<G: Game>(
    player: &mut dyn Player<G>,
    seat: usize,
) -> Result<Option<Forfeit>, PlayError> {
    match player.failure() {
        None => Ok(None),
        Some(Failure::Forfeit(kind, message)) => Ok(Some(Forfeit {
            seat,
            kind,
            message,
        })),
        Some(Failure::Fatal(message)) => Err(PlayError::Failed { seat, message }),
    }
}

/// Samples a chance outcome of `state` by its probability, with `rng`.
pub fn sample_chance<S: State>(state: &S, rng: &mut WoprRng) -> Action {
    let mut outcomes = Vec::new();
    state.chance_outcomes(&mut outcomes);
    let mut x: f64 = rng.random();
    for &(a, p) in &outcomes {
        if x < p {
            return a;
        }
        x -= p;
    }
    outcomes.last().expect("a chance node has outcomes").0
}

/// How a game ended: the final position (returns and score come from it)
/// and whether an observer abandoned it.
struct Ending<S> {
    state: S,
    abandoned: bool,
    /// The forfeit that ended it.
    forfeit: Option<Forfeit>,
}

/// The driver's loop: plays `game` from its start with `players[s]` in seat
/// `s`. `on_move` sees every state before it changes with the actions about
/// to be applied (and once more at the end with none) and may abandon the
/// game; `log` is told each applied turn (its state and actions), for
/// records. Chance and the players draw from `rng` only.
fn drive<G: Game>(
    game: &G,
    opening: &[Action],
    players: &mut [&mut dyn Player<G>],
    rng: &mut WoprRng,
    mut on_move: impl FnMut(&G::State, &[Action]) -> ControlFlow<()>,
    mut log: impl FnMut(&G::State, &[Action]),
) -> Result<Ending<G::State>, PlayError> {
    if players.len() != game.num_players() {
        return Err(PlayError::Seats {
            players: players.len(),
            seats: game.num_players(),
        });
    }
    for p in players.iter_mut() {
        p.new_game();
    }
    let mut state = game.initial_state();
    let mut plies = 0usize;
    let mut legal = ActionList::new();
    let mut joint = Vec::with_capacity(players.len());
    // The opening: its moves are shown and logged like any others, but no
    // player is asked.
    while plies < opening.len() {
        let n = match state.turn() {
            Turn::Simultaneous => game.num_players(),
            Turn::Terminal => {
                return Err(PlayError::BadOpening(format!(
                    "the game is over after {plies} of its {} actions",
                    opening.len()
                )))
            }
            _ => 1,
        };
        let next = opening
            .get(plies..plies + n)
            .ok_or_else(|| PlayError::BadOpening("it ends inside a simultaneous turn".into()))?;
        for (seat, &a) in next.iter().enumerate() {
            legal.clear();
            if n == 1 {
                state.legal_actions(&mut legal);
            } else {
                state.legal_actions_of(seat, &mut legal);
            }
            if !legal.contains(&a) {
                return Err(PlayError::BadOpening(format!(
                    "action {a} at ply {} is not legal",
                    plies + 1
                )));
            }
        }
        if on_move(&state, next).is_break() {
            return Ok(Ending {
                state,
                abandoned: true,
                forfeit: None,
            });
        }
        log(&state, next);
        plies += n;
        if n == 1 {
            state.apply(next[0]);
        } else {
            state.apply_joint(next);
        }
    }
    loop {
        if plies > game.max_game_length() {
            return Err(PlayError::TooLong(game.max_game_length()));
        }
        joint.clear();
        match state.turn() {
            Turn::Terminal => break,
            Turn::Chance => joint.push(sample_chance(&state, rng)),
            Turn::Player(seat) => {
                legal.clear();
                state.legal_actions(&mut legal);
                joint.push(players[seat].choose(&state.view(seat), &legal, rng));
                if let Some(forfeit) = check_failure(&mut *players[seat], seat)? {
                    let _ = on_move(&state, &[]);
                    return Ok(Ending {
                        state,
                        abandoned: false,
                        forfeit: Some(forfeit),
                    });
                }
                if !legal.contains(&joint[0]) {
                    return Err(PlayError::Illegal {
                        seat,
                        player: players[seat].spec(),
                        action: joint[0],
                        ply: plies,
                    });
                }
            }
            Turn::Simultaneous => {
                for (seat, player) in players.iter_mut().enumerate() {
                    legal.clear();
                    state.legal_actions_of(seat, &mut legal);
                    let a = player.choose(&state.view(seat), &legal, rng);
                    if let Some(forfeit) = check_failure(&mut **player, seat)? {
                        let _ = on_move(&state, &[]);
                        return Ok(Ending {
                            state,
                            abandoned: false,
                            forfeit: Some(forfeit),
                        });
                    }
                    if !legal.contains(&a) {
                        return Err(PlayError::Illegal {
                            seat,
                            player: player.spec(),
                            action: a,
                            ply: plies,
                        });
                    }
                    joint.push(a);
                }
            }
        }
        if on_move(&state, &joint).is_break() {
            return Ok(Ending {
                state,
                abandoned: true,
                forfeit: None,
            });
        }
        log(&state, &joint);
        plies += joint.len();
        if joint.len() == 1 {
            state.apply(joint[0]);
        } else {
            state.apply_joint(&joint);
        }
    }
    let _ = on_move(&state, &[]);
    Ok(Ending {
        state,
        abandoned: false,
        forfeit: None,
    })
}

/// Plays one game of `game` from its start; `players[s]` sits in seat `s`.
/// `on_move` sees every state before it changes, with the actions about to be
/// applied (for live display and music), and once more at the end with no
/// actions; returning `ControlFlow::Break` abandons the game, which then ends
/// with `returns: None`.
pub fn play_game_observed<G: Game>(
    game: &G,
    players: &mut [&mut dyn Player<G>],
    rng: &mut WoprRng,
    on_move: impl FnMut(&G::State, &[Action]) -> ControlFlow<()>,
) -> Result<GameRecord, PlayError> {
    play_game_from(game, &[], players, rng, on_move)
}

/// [`play_game_observed`] from the position `opening` leads to: the opening's
/// actions (one per seat at a simultaneous turn, chance outcomes included)
/// are played first, asking no player, and recorded at the start of the
/// record (`GameRecord::opening` counts them). An illegal opening is
/// [`PlayError::BadOpening`].
pub fn play_game_from<G: Game>(
    game: &G,
    opening: &[Action],
    players: &mut [&mut dyn Player<G>],
    rng: &mut WoprRng,
    on_move: impl FnMut(&G::State, &[Action]) -> ControlFlow<()>,
) -> Result<GameRecord, PlayError> {
    let mut record = GameRecord {
        game: game.spec(),
        players: players.iter().map(|p| p.spec()).collect(),
        moves: Vec::new(),
        actions: Vec::new(),
        returns: None,
        score: None,
        opening: opening.len(),
        forfeit: None,
        replayed: Vec::new(),
        thinking: vec![Thinking::default(); players.len()],
    };
    // The clock restarts at every move logged, the opening's included, so
    // a player's time is from the move before its own to its own.
    let mut last = std::time::Instant::now();
    let ending = drive(game, opening, players, rng, on_move, |state, joint| {
        let now = std::time::Instant::now();
        if record.actions.len() >= opening.len() {
            if let Turn::Player(seat) = state.turn() {
                let t = &mut record.thinking[seat];
                t.moves += 1;
                t.seconds += now.duration_since(last).as_secs_f64();
            }
        }
        last = now;
        let notation: Vec<String> = joint.iter().map(|&a| state.action_to_string(a)).collect();
        record.moves.push(notation.join("/"));
        record.actions.extend_from_slice(joint);
    })?;
    if let Some(forfeit) = ending.forfeit {
        record.returns = Some(forfeit_returns(forfeit.seat, game.num_players()));
        record.forfeit = Some(forfeit);
    } else if !ending.abandoned {
        let state = ending.state;
        record.returns = Some((0..game.num_players()).map(|p| state.returns(p)).collect());
        if state.score(0).is_some() {
            record.score = Some(
                (0..game.num_players())
                    .map(|p| state.score(p).unwrap_or(0))
                    .collect(),
            );
        }
    }
    Ok(record)
}

/// Plays one game of `game`; `players[s]` sits in seat `s`.
pub fn play_game<G: Game>(
    game: &G,
    players: &mut [&mut dyn Player<G>],
    rng: &mut WoprRng,
) -> Result<GameRecord, PlayError> {
    play_game_observed(game, players, rng, |_, _| ControlFlow::Continue(()))
}

/// Plays one game like [`play_game_from`] but keeps no record: it returns the
/// final position only (read its returns and score from it). The same
/// random draws as [`play_game`], so the same game; fitness evaluation uses
/// it to play millions of games without formatting a move.
pub fn play_out<G: Game>(
    game: &G,
    opening: &[Action],
    players: &mut [&mut dyn Player<G>],
    rng: &mut WoprRng,
) -> Result<G::State, PlayError> {
    drive(
        game,
        opening,
        players,
        rng,
        |_, _| ControlFlow::Continue(()),
        |_, _| {},
    )
    .and_then(|ending| match ending.forfeit {
        Some(forfeit) => Err(PlayError::Forfeit(forfeit)),
        None => Ok(ending.state),
    })
}

/// Which player sits in seat 0 of game `index` of a match: the first named
/// player in even games, the second in odd ones.
pub fn seats_swapped(index: usize) -> bool {
    index % 2 == 1
}

/// Replays `actions` from the start (one index per seat at a simultaneous
/// turn), checking each; the error names the ply and the reason.
pub fn replay<G: Game>(game: &G, actions: &[Action]) -> Result<G::State, String> {
    let mut state = game.initial_state();
    let mut i = 0;
    while i < actions.len() {
        if state.turn() == Turn::Simultaneous {
            let n = game.num_players();
            let joint = actions
                .get(i..i + n)
                .ok_or_else(|| format!("ply {}: a simultaneous turn needs {n} actions", i + 1))?;
            for (seat, a) in joint.iter().enumerate() {
                let mut legal = ActionList::new();
                state.legal_actions_of(seat, &mut legal);
                if !legal.contains(a) {
                    return Err(format!(
                        "ply {}: action {a} is not legal for seat {seat}",
                        i + 1
                    ));
                }
            }
            state.apply_joint(joint);
            i += n;
        } else {
            state
                .try_apply(actions[i])
                .map_err(|e| format!("ply {}: {e}", i + 1))?;
            i += 1;
        }
    }
    Ok(state)
}

/// Plays uniformly random actions (and samples chance) from `state` to the
/// end; returns the number of actions played. The benchmark's inner loop: no
/// allocation except at chance nodes, no dynamic dispatch; a player's move is
/// [`State::random_action`], which games may pick without listing moves.
pub fn random_playout<S: State>(state: &mut S, num_players: usize, rng: &mut WoprRng) -> usize {
    playout_with(state, num_players, rng, |s, rng| s.random_action(rng))
}

/// [`random_playout`] with every move picked from the list
/// [`State::legal_actions`] makes, never a game's own
/// [`State::random_action`]: the same games from the same draws (the two
/// pick alike), at the cost of listing every move, as a framework without
/// the shortcut plays. `wopr bench --listed` measures it.
pub fn random_playout_listed<S: State>(
    state: &mut S,
    num_players: usize,
    rng: &mut WoprRng,
) -> usize {
    let mut legal = ActionList::new();
    playout_with(state, num_players, rng, |s, rng| {
        legal.clear();
        s.legal_actions(&mut legal);
        legal[rng.random_range(0..legal.len())]
    })
}

/// The random playout loop, with `pick` choosing a player's move.
#[inline(always)]
fn playout_with<S: State>(
    state: &mut S,
    num_players: usize,
    rng: &mut WoprRng,
    mut pick: impl FnMut(&S, &mut WoprRng) -> Action,
) -> usize {
    let mut legal = ActionList::new();
    let mut n = 0;
    loop {
        match state.turn() {
            Turn::Terminal => return n,
            Turn::Chance => {
                let a = sample_chance(state, rng);
                state.apply(a);
            }
            Turn::Player(_) => {
                let a = pick(state, rng);
                state.apply(a);
            }
            Turn::Simultaneous => {
                let mut joint = [0 as Action; 8];
                for (seat, slot) in joint.iter_mut().enumerate().take(num_players) {
                    legal.clear();
                    state.legal_actions_of(seat, &mut legal);
                    *slot = legal[rng.random_range(0..legal.len())];
                }
                state.apply_joint(&joint[..num_players]);
            }
        }
        n += 1;
    }
}

/// Plays one move given in notation (or `#index`): a simultaneous turn takes
/// one move per seat separated by `/`. Returns the actions applied; on error
/// the state is unchanged and the message says why.
pub fn apply_notation<S: State>(
    state: &mut S,
    num_players: usize,
    text: &str,
) -> Result<Vec<Action>, String> {
    match state.turn() {
        Turn::Terminal => Err("the game is already over".into()),
        Turn::Simultaneous => {
            let parts: Vec<&str> = text.split('/').collect();
            if parts.len() != num_players {
                return Err(format!(
                    "a simultaneous turn needs {num_players} moves separated by '/'"
                ));
            }
            let mut joint = Vec::with_capacity(num_players);
            for (seat, part) in parts.iter().enumerate() {
                let a = state.parse_action(part)?;
                let mut legal = ActionList::new();
                state.legal_actions_of(seat, &mut legal);
                if !legal.contains(&a) {
                    return Err(format!("{} is not legal for seat {seat}", part.trim()));
                }
                joint.push(a);
            }
            state.apply_joint(&joint);
            Ok(joint)
        }
        _ => {
            let a = state.parse_action(text)?;
            state.try_apply(a)?;
            Ok(vec![a])
        }
    }
}
