//! Twenty hand-crafted Virus players, `ai:1` … `ai:20`.
//!
//! Naveed & Cowling evolve and pre-train their nets against ten "strong
//! hand-crafted (deterministic) AI players" and test them on ten more that
//! were unseen in training; the paper does not describe them. Ours stand in
//! for both sets: `ai:1` … `ai:10` are the training opponents, `ai:11` …
//! `ai:20` the unseen ones.
//!
//! **Spec** `ai:K[,depth=D][,ties=T]`: player `K` (1..=20) searching `D`
//! plies (1..=6, default 1, as in the paper, whose games are all played at 1
//! ply). At depth 1 the player scores the position after each of its moves;
//! deeper it runs alpha-beta negamax. Among moves of equal value it picks
//! one at random from the game's stream (`ties=random`, the default; ties
//! are common in the opening, where the board is symmetric), or always the
//! one of lowest action index (`ties=first`): then the player is
//! deterministic, as the paper's are ("fixed strong hand-crafted
//! (deterministic) AI players"), and two deterministic players from one
//! position always replay one game.
//!
//! **Evaluation.** Each player is a fixed linear evaluation: the dot product
//! of its weight vector with ten features, each the player's count minus the
//! opponent's ([`features`]); so a position is worth exactly minus as much to
//! the opponent. Finished games score ±(1,000,000 + piece margin), draws 0.
//! The features, for one side (its pieces `P`, the other side `Q`):
//!
//! | # | feature | counts |
//! |---|---------|--------|
//! | 0 | `pieces` | pieces of `P` |
//! | 1 | `grows` | empty squares next to a piece of `P`: its grow moves (mobility) |
//! | 2 | `jumps` | empty squares `P` reaches only by a jump (two away, through an empty square next to one of its pieces) |
//! | 3 | `exposed` | pieces of `P` next to an empty square `Q` can move to (by grow or jump): open to capture |
//! | 4 | `safe` | pieces of `P` without an empty neighbour (nothing can land next to them) |
//! | 5 | `edges` | pieces of `P` on the border, corners excluded |
//! | 6 | `corners` | pieces of `P` on the four corners |
//! | 7 | `centre` | pieces of `P` in the central half of the board (rows and columns N/4 … N−1−N/4) |
//! | 8 | `cluster` | pairs of adjacent pieces of `P` (each pair once) |
//! | 9 | `threat` | the most pieces of `Q` one move of `P` would convert |
//!
//! **The players** ([`AI_PLAYERS`], weights in feature order):
//!
//! | K | character | pieces | grows | jumps | exposed | safe | edges | corners | centre | cluster | threat |
//! |---|-----------|-----|-----|-----|-----|-----|-----|-----|-----|-----|-----|
//! | 1 | counter: pieces only | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |
//! | 2 | greedy capturer | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0 | 0.8 |
//! | 3 | mobility first | 0.3 | 1 | 0.5 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |
//! | 4 | defensive cluster | 1 | 0 | 0 | −0.6 | 0.5 | 0 | 0 | 0 | 0.3 | 0 |
//! | 5 | edge hugger | 1 | 0 | 0 | 0 | 0 | 0.8 | 1.5 | 0 | 0 | 0 |
//! | 6 | corner seeker | 1 | 0 | 0 | −0.2 | 0 | 0 | 4 | 0 | 0 | 0 |
//! | 7 | centre grabber | 1 | 0.2 | 0 | 0 | 0 | 0 | 0 | 0.8 | 0 | 0 |
//! | 8 | cautious | 1 | 0 | 0 | −1.5 | 0 | 0 | 0 | 0 | 0 | 0.3 |
//! | 9 | jumper | 0.6 | 0.4 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | 0 |
//! | 10 | balanced | 1 | 0.3 | 0.1 | −0.4 | 0.2 | 0.2 | 0.5 | 0.1 | 0.1 | 0.4 |
//! | 11 | raider | 0.5 | 0 | 0 | −0.2 | 0 | 0 | 0 | 0 | 0 | 1.5 |
//! | 12 | turtle | 0.7 | −0.2 | 0 | 0 | 1.2 | 0 | 0 | 0 | 0.5 | 0 |
//! | 13 | sprawler | 0.8 | 1 | 0 | 0 | 0 | 0 | 0 | 0 | −0.3 | 0 |
//! | 14 | rim walker | 1 | 0 | 0 | 0 | 0 | 1.2 | 0 | −0.3 | 0 | 0 |
//! | 15 | centre fortress | 1 | 0 | 0 | −0.5 | 0.6 | 0 | 0 | 0.6 | 0 | 0 |
//! | 16 | hunter | 1 | 0.5 | 0 | −0.5 | 0 | 0 | 0 | 0 | 0 | 1 |
//! | 17 | compact mass | 1 | −0.3 | 0 | 0 | 0 | 0 | 0 | 0 | 0.6 | 0 |
//! | 18 | fortified rim | 1 | 0 | 0 | −0.8 | 0 | 0.5 | 2 | 0 | 0 | 0 |
//! | 19 | opportunist | 1.2 | 0 | 0.3 | 0 | 0.3 | 0 | 0 | 0 | 0 | 0.6 |
//! | 20 | all-rounder | 1 | 0.5 | 0.3 | −0.8 | 0.4 | 0.3 | 1 | 0.2 | 0.2 | 0.6 |
//!
//! [`ai_evaluation`] gives a player's static evaluation of any position (the
//! targets Naveed & Cowling pre-train their nets on).

use std::time::{Duration, Instant};

use rand::RngExt;

use super::{Virus, VirusState};
use crate::game::rng::WoprRng;
use crate::game::{Action, ActionList, GameSpec, Player, SpecError, State, ViewOf, WIN_SCORE};
use crate::players::{board_build, board_parse, OwnSpec, PlayerSpec, Roster};

/// The number of evaluation features.
pub const NUM_FEATURES: usize = 10;

/// The features' names, in order (see the module docs).
pub const FEATURE_NAMES: [&str; NUM_FEATURES] = [
    "pieces", "grows", "jumps", "exposed", "safe", "edges", "corners", "centre", "cluster",
    "threat",
];

/// One hand-crafted player: a one-line character and its feature weights.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AiProfile {
    /// What the weights make it do.
    pub character: &'static str,
    /// Weights in [`FEATURE_NAMES`] order.
    pub weights: [f32; NUM_FEATURES],
}

const fn ai(character: &'static str, weights: [f32; NUM_FEATURES]) -> AiProfile {
    AiProfile { character, weights }
}

/// The twenty players; `ai:K` is `AI_PLAYERS[K − 1]`. 1–10 train, 11–20 test.
#[rustfmt::skip]
pub const AI_PLAYERS: [AiProfile; 20] = [
    //   pieces grows jumps exposed safe edges corners centre cluster threat
    ai("counter: pieces only",
       [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ai("greedy capturer",
       [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.8]),
    ai("mobility first",
       [0.3, 1.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ai("defensive cluster",
       [1.0, 0.0, 0.0, -0.6, 0.5, 0.0, 0.0, 0.0, 0.3, 0.0]),
    ai("edge hugger",
       [1.0, 0.0, 0.0, 0.0, 0.0, 0.8, 1.5, 0.0, 0.0, 0.0]),
    ai("corner seeker",
       [1.0, 0.0, 0.0, -0.2, 0.0, 0.0, 4.0, 0.0, 0.0, 0.0]),
    ai("centre grabber",
       [1.0, 0.2, 0.0, 0.0, 0.0, 0.0, 0.0, 0.8, 0.0, 0.0]),
    ai("cautious",
       [1.0, 0.0, 0.0, -1.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.3]),
    ai("jumper",
       [0.6, 0.4, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ai("balanced",
       [1.0, 0.3, 0.1, -0.4, 0.2, 0.2, 0.5, 0.1, 0.1, 0.4]),
    ai("raider",
       [0.5, 0.0, 0.0, -0.2, 0.0, 0.0, 0.0, 0.0, 0.0, 1.5]),
    ai("turtle",
       [0.7, -0.2, 0.0, 0.0, 1.2, 0.0, 0.0, 0.0, 0.5, 0.0]),
    ai("sprawler",
       [0.8, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.3, 0.0]),
    ai("rim walker",
       [1.0, 0.0, 0.0, 0.0, 0.0, 1.2, 0.0, -0.3, 0.0, 0.0]),
    ai("centre fortress",
       [1.0, 0.0, 0.0, -0.5, 0.6, 0.0, 0.0, 0.6, 0.0, 0.0]),
    ai("hunter",
       [1.0, 0.5, 0.0, -0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]),
    ai("compact mass",
       [1.0, -0.3, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.6, 0.0]),
    ai("fortified rim",
       [1.0, 0.0, 0.0, -0.8, 0.0, 0.5, 2.0, 0.0, 0.0, 0.0]),
    ai("opportunist",
       [1.2, 0.0, 0.3, 0.0, 0.3, 0.0, 0.0, 0.0, 0.0, 0.6]),
    ai("all-rounder",
       [1.0, 0.5, 0.3, -0.8, 0.4, 0.3, 1.0, 0.2, 0.2, 0.6]),
];

/// The number of hand-crafted players.
pub const NUM_AI: usize = AI_PLAYERS.len();

/// The depth of `ai:K` when the spec gives none (the paper's 1 ply).
pub const AI_DEPTH: u32 = 1;

/// Border, corner and centre squares of an `n`×`n` board.
#[derive(Clone, Copy, Debug)]
struct Regions {
    edges: u64,
    corners: u64,
    centre: u64,
}

const fn regions(n: usize) -> Regions {
    let (mut edges, mut corners, mut centre) = (0u64, 0u64, 0u64);
    let (lo, hi) = (n / 4, n - 1 - n / 4);
    let mut s = 0;
    while s < n * n {
        let (r, c) = (s / n, s % n);
        let er = r == 0 || r == n - 1;
        let ec = c == 0 || c == n - 1;
        if er && ec {
            corners |= 1 << s;
        } else if er || ec {
            edges |= 1 << s;
        }
        if r >= lo && r <= hi && c >= lo && c <= hi {
            centre |= 1 << s;
        }
        s += 1;
    }
    Regions {
        edges,
        corners,
        centre,
    }
}

static REGIONS: [Regions; 9] = {
    let mut t = [regions(4); 9];
    t[5] = regions(5);
    t[6] = regions(6);
    t[7] = regions(7);
    t[8] = regions(8);
    t
};

/// One side's raw feature counts (see the module docs).
#[inline(always)]
fn side_features(state: &VirusState, seat: usize, reach: [u64; 2], grows: [u64; 2]) -> [i32; 10] {
    let own = state.pieces()[seat];
    let opp = state.pieces()[1 - seat];
    let empty = state.empty();
    let reg = &REGIONS[state.size()];
    let cluster = state.adjacent_pairs(own);
    let threat = state.max_adjacent(reach[seat], opp);
    [
        own.count_ones() as i32,
        grows[seat].count_ones() as i32,
        (reach[seat] & !grows[seat]).count_ones() as i32,
        (own & state.around(reach[1 - seat])).count_ones() as i32,
        (own & !state.around(empty)).count_ones() as i32,
        (own & reg.edges).count_ones() as i32,
        (own & reg.corners).count_ones() as i32,
        (own & reg.centre).count_ones() as i32,
        cluster as i32,
        threat as i32,
    ]
}

/// The ten features of `state` for `seat`: its count minus the opponent's,
/// in [`FEATURE_NAMES`] order.
pub fn features(state: &VirusState, seat: usize) -> [f32; NUM_FEATURES] {
    let counts = side_counts(state);
    let (a, b) = (counts[seat], counts[1 - seat]);
    std::array::from_fn(|i| (a[i] - b[i]) as f32)
}

/// Each seat's own counts of the ten features (not differenced), in
/// [`FEATURE_NAMES`] order: `side_counts(s)[seat][i]` is seat's count of
/// feature `i`, and [`features`] is the difference of the two rows.
pub fn side_counts(state: &VirusState) -> [[i32; NUM_FEATURES]; 2] {
    // About two dozen popcounts a position: the portable x86-64 build does
    // them in software, so use the instruction where the processor has it
    // (the standard library caches the detection; the counts are the same
    // either way).
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor was just found to have `popcnt`.
        return unsafe { side_counts_popcnt(state) };
    }
    side_counts_inline(state)
}

/// [`side_counts_inline`] compiled with the `popcnt` instruction.
///
/// # Safety
/// The processor must support `popcnt`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn side_counts_popcnt(state: &VirusState) -> [[i32; NUM_FEATURES]; 2] {
    side_counts_inline(state)
}

/// [`side_counts`]' body, inlined into each build of it.
#[inline(always)]
fn side_counts_inline(state: &VirusState) -> [[i32; NUM_FEATURES]; 2] {
    let empty = state.empty();
    let grows = [state.grows(0), state.grows(1)];
    // Grow destinations and, one step further through them, jump destinations.
    let reach = [
        state.around(grows[0]) & empty,
        state.around(grows[1]) & empty,
    ];
    [
        side_features(state, 0, reach, grows),
        side_features(state, 1, reach, grows),
    ]
}

/// The profile of `ai:k` (`k` in 1..=20).
///
/// # Panics
/// If `k` is not in 1..=20.
pub fn ai_profile(k: usize) -> &'static AiProfile {
    assert!(
        (1..=NUM_AI).contains(&k),
        "ai:{k} does not exist (1..={NUM_AI})"
    );
    &AI_PLAYERS[k - 1]
}

/// Player `ai:k`'s static evaluation of `state` for `seat` (the weighted
/// sum of [`features`]); `ai_evaluation(k, s, 0) == −ai_evaluation(k, s, 1)`.
/// Finished games are evaluated like any other position here; the search
/// scores them by their result ([`ai_value`]).
///
/// # Panics
/// If `k` is not in 1..=20.
pub fn ai_evaluation(k: usize, state: &VirusState, seat: usize) -> f32 {
    let w = &ai_profile(k).weights;
    features(state, seat)
        .iter()
        .zip(w)
        .map(|(f, w)| f * w)
        .sum()
}

/// `ai:k`'s search value of `state` for the side to move: ±(1,000,000 +
/// piece margin) or 0 for a finished game, else [`ai_evaluation`].
pub fn ai_value(k: usize, state: &VirusState) -> f32 {
    let me = state.to_move();
    if state.is_terminal() {
        let m = state.score(me).unwrap_or(0);
        return match m.signum() {
            1 => (WIN_SCORE + m) as f32,
            -1 => (-WIN_SCORE + m) as f32,
            _ => 0.0,
        };
    }
    ai_evaluation(k, state, me)
}

/// When a search must stop: never ([`Endless`]) or at a wall-clock deadline
/// ([`Clock`]). Generic, so the endless searches of experiments pay nothing.
trait Stop {
    /// Whether the search must stop now (then its values mean nothing).
    fn stop(&mut self) -> bool;
}

/// A search that runs to its depth.
struct Endless;

impl Stop for Endless {
    #[inline(always)]
    fn stop(&mut self) -> bool {
        false
    }
}

/// A search that stops at a deadline; the clock is read every 1024 nodes.
struct Clock {
    deadline: Instant,
    nodes: u32,
    out: bool,
}

impl Stop for Clock {
    fn stop(&mut self) -> bool {
        if !self.out {
            self.nodes = self.nodes.wrapping_add(1);
            self.out = self.nodes & 1023 == 0 && Instant::now() >= self.deadline;
        }
        self.out
    }
}

/// The negamax value of `state` for the side to move, `depth` plies deep,
/// with fail-soft alpha-beta in the window `(alpha, beta)`; `eval` scores
/// the leaves (depth 0 and finished games) for the side that is (or would
/// be) to move. Virus alternates strictly (a pass is an action).
fn negamax(
    state: &VirusState,
    depth: u32,
    mut alpha: f32,
    beta: f32,
    eval: &impl Fn(&VirusState) -> f32,
    stop: &mut impl Stop,
) -> f32 {
    if depth == 0 || state.is_terminal() || stop.stop() {
        return eval(state);
    }
    let mut moves = ActionList::new();
    state.legal_actions(&mut moves);
    let mut best = f32::NEG_INFINITY;
    for &m in &moves {
        let mut child = *state;
        child.apply(m);
        let v = -negamax(&child, depth - 1, -beta, -alpha, eval, stop);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// Searches every legal move of `state` (not finished) `depth` plies deep
/// (1 = score the position each move leads to) with `eval` at the leaves,
/// and returns the best value with **every** move that reaches it, in
/// increasing action order. Moves after the first are searched with the
/// window (just below the best so far, +∞), exact for every move at least
/// as good.
pub fn best_moves(
    state: &VirusState,
    depth: u32,
    eval: &impl Fn(&VirusState) -> f32,
) -> (f32, ActionList) {
    best_moves_until(state, depth, eval, &mut Endless)
}

/// [`best_moves`] that gives up when `stop` says so (the result is then
/// meaningless: check `stop` after).
fn best_moves_until(
    state: &VirusState,
    depth: u32,
    eval: &impl Fn(&VirusState) -> f32,
    stop: &mut impl Stop,
) -> (f32, ActionList) {
    let mut moves = ActionList::new();
    state.legal_actions(&mut moves);
    let mut best = f32::NEG_INFINITY;
    let mut chosen = ActionList::new();
    for &m in &moves {
        let mut child = *state;
        child.apply(m);
        let alpha = if chosen.is_empty() {
            f32::NEG_INFINITY
        } else {
            best.next_down()
        };
        let v = -negamax(
            &child,
            depth.max(1) - 1,
            f32::NEG_INFINITY,
            -alpha,
            eval,
            stop,
        );
        if v > best || chosen.is_empty() {
            best = v;
            chosen.clear();
            chosen.push(m);
        } else if v == best {
            chosen.push(m);
        }
    }
    (best, chosen)
}

/// Player `ai:K` (see the module docs).
#[derive(Clone, Debug)]
pub struct AiPlayer {
    k: usize,
    depth: u32,
    deterministic: bool,
    /// A wall-clock budget per move (`ms=T`): the search then deepens one
    /// ply at a time up to `depth` and plays the deepest finished one.
    time: Option<Duration>,
}

impl AiPlayer {
    /// Player `k` (1..=20) searching `depth` plies (1..=6).
    pub fn new(k: usize, depth: u32) -> Result<AiPlayer, SpecError> {
        if !(1..=NUM_AI).contains(&k) {
            return Err(SpecError(format!(
                "'ai': there is no player {k} (accepted: ai:1 … ai:{NUM_AI}, optionally ,depth=D)"
            )));
        }
        if !(1..=6).contains(&depth) {
            return Err(SpecError(format!(
                "'ai': depth={depth} is not an integer in 1..=6"
            )));
        }
        Ok(AiPlayer {
            k,
            depth,
            deterministic: false,
            time: None,
        })
    }

    /// The same player breaking ties by lowest action index (`true`,
    /// `ties=first`) or at random (`false`, `ties=random`).
    pub fn deterministic(mut self, yes: bool) -> AiPlayer {
        self.deterministic = yes;
        self
    }

    /// The same player with a wall-clock budget per move: it then searches
    /// depth 1, 2, … up to its depth and plays the best moves of the deepest
    /// search finished in time (depth 1 always finishes). Not reproducible
    /// when the budget cuts a move short.
    pub fn with_time_limit(mut self, time: Option<Duration>) -> AiPlayer {
        self.time = time;
        self
    }

    /// The search depth of `ai:K[,depth=D]…` (checked), read without
    /// building the player.
    pub fn spec_depth(spec: &GameSpec) -> Result<u32, SpecError> {
        Self::from_spec(spec).map(|p| p.depth)
    }

    /// Reads `ai:K[,depth=D][,ties=random|first][,ms=T]`.
    pub fn from_spec(spec: &GameSpec) -> Result<AiPlayer, SpecError> {
        spec.check_keys(&["", "depth", "ties", "ms"])?;
        let k = spec.get("").ok_or_else(|| {
            SpecError(format!(
                "'ai' needs a player number: ai:1 … ai:{NUM_AI} (optionally ,depth=D)"
            ))
        })?;
        let k: usize = k.parse().map_err(|_| {
            SpecError(format!(
                "'ai': '{k}' is not a player number 1..={NUM_AI} (e.g. ai:7 or ai:7,depth=3)"
            ))
        })?;
        let depth = spec.int("depth", AI_DEPTH as i64, 1, 6)?;
        let deterministic = match spec.get("ties").unwrap_or("random") {
            "random" => false,
            "first" => true,
            other => {
                return Err(SpecError(format!(
                    "'ai': ties={other} is not accepted (accepted: random, first)"
                )))
            }
        };
        let time = crate::players::ms_arg(spec)?;
        Ok(AiPlayer::new(k, depth as u32)?
            .deterministic(deterministic)
            .with_time_limit(time))
    }

    /// Every move of best value for this player, in action order.
    pub fn best_moves(&self, state: &VirusState) -> ActionList {
        let k = self.k;
        let eval = |s: &VirusState| ai_value(k, s);
        let Some(time) = self.time else {
            return best_moves(state, self.depth, &eval).1;
        };
        let mut clock = Clock {
            deadline: Instant::now() + time,
            nodes: 0,
            out: false,
        };
        let mut found = best_moves(state, 1, &eval).1;
        for depth in 2..=self.depth {
            let (_, moves) = best_moves_until(state, depth, &eval, &mut clock);
            if clock.out {
                break;
            }
            found = moves;
        }
        found
    }
}

impl Player<Virus> for AiPlayer {
    fn spec(&self) -> String {
        let mut s = format!("ai:{}", self.k);
        if self.depth != AI_DEPTH {
            s += &format!(",depth={}", self.depth);
        }
        if self.deterministic {
            s += ",ties=first";
        }
        if let Some(t) = self.time {
            s += &format!(",ms={}", t.as_millis());
        }
        s
    }

    fn choose(&mut self, view: &ViewOf<Virus>, legal: &[Action], rng: &mut WoprRng) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        let best = self.best_moves(view);
        if self.deterministic {
            best[0]
        } else {
            best[rng.random_range(0..best.len())]
        }
    }
}

/// Virus's players: the twenty hand-crafted AIs (`ai:K`), then the board
/// players. Virus has no exact solver.
impl Roster for Virus {
    fn bot_names(&self) -> &'static [&'static str] {
        &["ai:K[,depth=D][,ties=random|first][,ms=T] (K = 1..20)"]
    }

    fn parse_bot(&self, spec: &GameSpec) -> Result<Option<PlayerSpec>, SpecError> {
        match spec.name.as_str() {
            "ai" => {
                let depth = AiPlayer::spec_depth(spec)?;
                Ok(Some(PlayerSpec::Own(OwnSpec::new(
                    spec,
                    Some(depth),
                    true,
                )?)))
            }
            _ => board_parse(self, spec),
        }
    }

    fn build_bot(&self, spec: &PlayerSpec) -> Result<Box<dyn Player<Virus>>, SpecError> {
        match spec {
            PlayerSpec::Own(own) => Ok(Box::new(
                AiPlayer::from_spec(&own.spec)?.with_time_limit(own.time),
            )),
            _ => board_build(self, spec),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_of_8x8() {
        let r = REGIONS[8];
        assert_eq!(r.corners.count_ones(), 4);
        assert_eq!(r.edges.count_ones(), 24);
        assert_eq!(r.centre.count_ones(), 16);
        // c3..f6 is the centre: bit of c3 = 2*8+2.
        assert!(r.centre >> 18 & 1 == 1 && r.centre >> 17 & 1 == 0);
    }

    #[test]
    fn ties_first_replays_one_game_and_random_does_not() {
        use crate::game::driver::play_game;
        use crate::game::rng::stream;
        use crate::game::Game;
        let game = Virus::from_spec(&GameSpec::parse("virus").unwrap()).unwrap();
        let play = |spec: &str, seed: u64| {
            let spec = GameSpec::parse(spec).unwrap();
            let mut a = AiPlayer::from_spec(&spec).unwrap();
            let mut b = AiPlayer::new(2, 1).unwrap().deterministic(true);
            let mut rng = stream(seed, &[7]);
            let mut players: [&mut dyn Player<Virus>; 2] = [&mut a, &mut b];
            play_game(&game, &mut players, &mut rng).unwrap().actions
        };
        // Deterministic: the same game whatever the stream.
        let first: Vec<_> = (0..4).map(|s| play("ai:1,ties=first", s)).collect();
        assert!(first.windows(2).all(|w| w[0] == w[1]));
        // Random ties: the opening's symmetric choices make games differ.
        let random: Vec<_> = (0..4).map(|s| play("ai:1", s)).collect();
        assert!(random.windows(2).any(|w| w[0] != w[1]));
        assert!(AiPlayer::from_spec(&GameSpec::parse("ai:1,ties=last").unwrap()).is_err());
        assert_eq!(
            AiPlayer::from_spec(&GameSpec::parse("ai:3,ties=first").unwrap())
                .unwrap()
                .spec(),
            "ai:3,ties=first"
        );
    }

    #[test]
    fn profiles_are_distinct() {
        for (i, a) in AI_PLAYERS.iter().enumerate() {
            for b in &AI_PLAYERS[..i] {
                assert_ne!(a.weights, b.weights);
            }
        }
    }
}
