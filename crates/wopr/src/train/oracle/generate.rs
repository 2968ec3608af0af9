//! Making a dataset: play games between two players, pick positions, have
//! the oracle judge them, in parallel and reproducibly by seed.

use std::collections::HashSet;
use std::sync::Mutex;

use rayon::prelude::*;

use super::strategy::strategy_set;
use super::{judge_for, DatasetInfo, Generated, OracleGame};
use crate::game::driver::{play_game_observed, seats_swapped};
use crate::game::oracle::{Judge, Oracle, OracleError, OracleKind};
use crate::game::rng::stream;
use crate::game::{mover, ActionList, Game, State};
use crate::players::{parse_player, Player, Roster};
use crate::train::Dataset;

/// How to make a dataset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatasetOptions {
    /// Number of positions (rows) to record.
    pub positions: usize,
    /// Seed of the games and of the oracle's random choices.
    pub seed: u64,
    /// Encoding name; `None` = the game's default (`raw`).
    pub encoding: Option<String>,
    /// Player specs: none = `random` in both seats, one = that player in
    /// both seats, two = the first against the second, seats swapped every
    /// other game.
    pub players: Vec<String>,
    /// Leave out a position whose inputs equal an earlier row's.
    pub unique: bool,
    /// Record only the positions where this player (0: the first of
    /// `players`, 1: the second) is to move; `None` records both seats.
    /// Weaver & Bossomaier §3.7 record the level-1 player's moves only.
    pub only_player: Option<usize>,
}

impl Default for DatasetOptions {
    fn default() -> Self {
        DatasetOptions {
            positions: 1000,
            seed: 1,
            encoding: None,
            players: Vec::new(),
            unique: false,
            only_player: None,
        }
    }
}

/// Consecutive windows of games without a new row before giving up.
const DRY_WINDOWS: usize = 16;
/// Most games played at once.
const MAX_WINDOW: u64 = 64;

/// One recorded position before judging.
pub(super) struct Candidate<S> {
    state: S,
    game: u64,
    ply: u64,
    inputs: Vec<f32>,
}

/// A judged position's targets, and its mask for a per-move oracle.
pub(super) struct Judged {
    targets: Vec<f32>,
    mask: Option<Vec<bool>>,
}

/// Plays games and records `options.positions` positions judged by
/// `oracle`; `progress` is called with the number of rows so far after each
/// window of games. The `strategy` oracle lists its boards instead
/// ([`Oracles::strategy_boards`](crate::game::oracle::Oracles::strategy_boards)):
/// it plays no games and reads only `options.encoding`.
pub fn generate<G: OracleGame>(
    game: &G,
    oracle: &Oracle,
    options: &DatasetOptions,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Generated, OracleError> {
    let oracle = oracle.resolved(game);
    let kind = oracle.kind();
    let encoding_name = options
        .encoding
        .clone()
        .unwrap_or_else(|| game.encoding_names()[0].to_string());
    if oracle == Oracle::Strategy {
        if let Some(made) = strategy_set(game, &encoding_name) {
            return made;
        }
    }
    judge_for(game, &oracle)?;
    let encoding = game.encoding(&encoding_name)?;
    let view = encoding.view();
    let players: Vec<String> = match options.players.len() {
        0 => vec!["random".into(), "random".into()],
        1 => vec![options.players[0].clone(), options.players[0].clone()],
        2 => options.players.clone(),
        n => {
            return Err(OracleError(format!(
                "give one or two players, not {n} (one plays both seats)"
            )))
        }
    };
    for p in &players {
        parse_player(game, p).map_err(|e| OracleError(format!("bad player '{p}': {e}")))?;
    }
    if let Some(p) = options.only_player {
        if p > 1 {
            return Err(OracleError(format!(
                "only the positions of player 1 or 2 can be recorded, not {}",
                p + 1
            )));
        }
    }
    if options.positions == 0 {
        return Err(OracleError("ask for at least one position".into()));
    }
    let (ni, no) = (
        encoding.size(),
        match kind {
            OracleKind::Policy => game.num_actions(),
            OracleKind::Value => 1,
        },
    );
    let mut data = Dataset::new(ni, no, kind == OracleKind::Policy);
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    let seat_pool = PerThread::new();
    let judge_pool = PerThread::new();
    let mut next_game = 0u64;
    let mut dry = 0;
    let mut exhausted = false;
    while data.len() < options.positions {
        let need = options.positions - data.len();
        // Enough games for what is needed at the yield so far (a few for the
        // first window); the yield is counted, so the split is deterministic.
        let window = match (next_game, data.len()) {
            (0, _) => 2,
            (_, 0) => MAX_WINDOW,
            (g, rows) => (need as u64 * g).div_ceil(rows as u64).clamp(2, MAX_WINDOW),
        };
        let games = next_game..next_game + window;
        next_game += window;

        // Play the window's games in parallel, keeping every position with a
        // single player to move.
        let played: Vec<Result<Vec<G::State>, OracleError>> = games
            .clone()
            .into_par_iter()
            .map(|g| {
                seat_pool.with(
                    || build_players(game, &players),
                    |seats| play_one(game, seats, options.seed, g, options.only_player),
                )
            })
            .collect();

        // In game order: encode, skip repeats, stop at what is needed (an
        // oracle that leaves positions out sees them all).
        let mut candidates = Vec::new();
        'games: for (g, states) in games.zip(played) {
            for (ply, state) in states?.into_iter().enumerate() {
                if candidates.len() == need && !oracle.drops_positions() {
                    break 'games;
                }
                let mut inputs = vec![0.0f32; ni];
                encoding.encode(&state, &mut inputs);
                if options.unique && !seen.insert(inputs.iter().map(|x| x.to_bits()).collect()) {
                    continue;
                }
                candidates.push(Candidate {
                    state,
                    game: g,
                    ply: ply as u64,
                    inputs,
                });
            }
        }

        // Judge in parallel, keep in order.
        let judged: Vec<Result<Option<Judged>, OracleError>> = candidates
            .par_iter()
            .map(|c| {
                judge_pool.with(
                    || judge_for(game, &oracle),
                    |judge| {
                        let judge = judge.as_mut().map_err(|e| e.clone())?;
                        judge_one(judge.as_mut(), c, options.seed, kind, no, view)
                    },
                )
            })
            .collect();
        let before = data.len();
        for (c, j) in candidates.iter().zip(judged) {
            if data.len() == options.positions {
                break;
            }
            if let Some(j) = j? {
                data.push(&c.inputs, &j.targets, j.mask.as_deref())
                    .map_err(|e| OracleError(e.0))?;
            }
        }
        progress(data.len());
        if data.len() == before {
            dry += 1;
            if dry == DRY_WINDOWS {
                exhausted = true;
                break;
            }
        } else {
            dry = 0;
        }
    }
    if data.is_empty() {
        return Err(OracleError(format!(
            "no positions recorded in {next_game} games (oracle '{oracle}' left them all out)"
        )));
    }
    let info = DatasetInfo {
        game: game.spec(),
        encoding: encoding_name,
        oracle: oracle.to_string(),
        kind,
        positions: data.len(),
        games: next_game as usize,
        seed: options.seed,
        play: players,
        unique: options.unique,
        only_player: options.only_player,
    };
    Ok(Generated {
        data,
        info,
        exhausted,
    })
}

/// Judges one position with its own random stream; masks illegal actions
/// for a per-move oracle.
fn judge_one<G: Game>(
    judge: &mut dyn Judge<G>,
    c: &Candidate<G::State>,
    seed: u64,
    kind: OracleKind,
    outputs: usize,
    view: Option<usize>,
) -> Result<Option<Judged>, OracleError> {
    let mut legal = ActionList::new();
    c.state.legal_actions(&mut legal);
    let mut rng = stream(seed, &[1, c.game, c.ply]);
    let mut targets = vec![0.0f32; outputs];
    if !judge.judge(&c.state, &legal, &mut rng, &mut targets)? {
        return Ok(None);
    }
    // Values are judged for the player to move; an encoding with a fixed
    // view (Virus's `absolute`) wants them for its seat.
    if let (OracleKind::Value, Some(v), Some(m)) = (kind, view, mover(&c.state)) {
        if v != m {
            targets.iter_mut().for_each(|t| *t = -*t);
        }
    }
    let mask = (kind == OracleKind::Policy).then(|| {
        let mut mask = vec![false; outputs];
        for &a in &legal {
            mask[a as usize] = true;
        }
        for (t, &m) in targets.iter_mut().zip(&mask) {
            if !m {
                *t = 0.0;
            }
        }
        mask
    });
    Ok(Some(Judged { targets, mask }))
}

/// One value per worker thread, built on first use and kept from window to
/// window, so solvers keep their tables. Results never depend on it: players
/// start each game afresh and judges are pure functions of the position.
pub(super) struct PerThread<T> {
    slots: Vec<Mutex<Option<T>>>,
}

impl<T> PerThread<T> {
    fn new() -> PerThread<T> {
        PerThread {
            slots: (0..rayon::current_num_threads().max(1))
                .map(|_| Mutex::new(None))
                .collect(),
        }
    }

    /// Runs `f` on this thread's value, built by `make` the first time.
    fn with<R>(&self, make: impl FnOnce() -> T, f: impl FnOnce(&mut T) -> R) -> R {
        let i = rayon::current_thread_index().unwrap_or(0) % self.slots.len();
        let mut slot = self.slots[i].lock().unwrap_or_else(|e| e.into_inner());
        f(slot.get_or_insert_with(make))
    }
}

type Seats<G> = Result<[Box<dyn Player<G>>; 2], OracleError>;

/// Both seats' players for one worker (or why they cannot be built).
fn build_players<G: Roster>(game: &G, specs: &[String]) -> Seats<G> {
    let one = |s: &String| parse_player(game, s).map_err(|e| OracleError(e.0));
    Ok([one(&specs[0])?, one(&specs[1])?])
}

/// Plays game `g` and returns its positions with a single player to move
/// (with `only`, only those where player `only` of the two is to move).
fn play_one<G: Game>(
    game: &G,
    seats: &mut Seats<G>,
    seed: u64,
    g: u64,
    only: Option<usize>,
) -> Result<Vec<G::State>, OracleError> {
    let swapped = seats_swapped(g as usize);
    let [a, b] = seats.as_mut().map_err(|e| e.clone())?;
    let mut order: [&mut dyn Player<G>; 2] = if swapped {
        [b.as_mut(), a.as_mut()]
    } else {
        [a.as_mut(), b.as_mut()]
    };
    let mut rng = stream(seed, &[0, g]);
    let mut states = Vec::new();
    play_game_observed(game, &mut order, &mut rng, |s, _| {
        if let Some(seat) = mover(s) {
            // Player p sits in seat p, or in the other seat when swapped.
            let player = if swapped { 1 - seat } else { seat };
            if only.is_none_or(|p| p == player) {
                states.push(s.clone());
            }
        }
        std::ops::ControlFlow::Continue(())
    })
    .map_err(|e| OracleError(format!("game {g}: {e}")))?;
    Ok(states)
}
