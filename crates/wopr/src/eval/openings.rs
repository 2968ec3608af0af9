//! Openings: where measurement games start.
//!
//! Two deterministic players replay one game however many are asked for;
//! engine testers make every pair of games start from its own opening and
//! swap seats within the pair, so each pair measures the players on a new
//! position from both sides. [`Openings`] says where each pair starts:
//!
//! - `plies=K` ([`Openings::Random`]): K uniformly random legal plies (turns)
//!   from the start (chance outcomes drawn by their probabilities, a
//!   simultaneous turn one uniform action per seat), drawn from the seed's own stream, never
//!   ending in a finished game (a line that ends the game is drawn again);
//! - a file of move lists in the game's notation, one opening per line
//!   ([`Openings::Lines`], used in order, cycling); blank lines and lines
//!   starting with `#` are skipped;
//! - one given position (`--start "MOVES"`), a list of one line;
//! - [`Openings::None`]: the start position, as before openings existed.
//!
//! Pair `p` (games `2p` and `2p + 1`) gets opening `p`.

use std::path::Path;

use rand::RngExt;

use crate::game::driver::{apply_notation, sample_chance};
use crate::game::rng::{stream, WoprRng};
use crate::game::{Action, ActionList, Game, State, Turn};

/// Random openings are drawn again at most this many times when a draw ends
/// the game.
const ATTEMPTS: u64 = 1000;

/// The tag of opening streams, apart from every game's own stream.
const TAG: u64 = 0x4F50_454E;

/// Where measurement games start.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Openings {
    /// The start position.
    #[default]
    None,
    /// K random legal plies from the start.
    Random {
        /// Plies (actions) per opening.
        plies: usize,
    },
    /// Fixed openings as action lists, used in turn.
    Lines(Vec<Vec<Action>>),
}

impl Openings {
    /// Parses `plies=K` or the path of an openings file, checked against
    /// `game`: every line legal and unfinished, K short enough that some
    /// game is still going after it.
    pub fn parse<G: Game>(game: &G, spec: &str) -> Result<Openings, String> {
        let spec = spec.trim();
        if let Some(k) = spec.strip_prefix("plies=") {
            let plies: usize = k.trim().parse().map_err(|_| {
                format!("openings '{spec}': K must be a whole number (accepted: plies=K or a file of move lists)")
            })?;
            let o = Openings::Random { plies };
            // Finds out now whether K fits the game at all.
            o.opening(game, 0, 0)?;
            return Ok(o);
        }
        let path = Path::new(spec);
        let text = std::fs::read_to_string(path).map_err(|e| {
            format!("openings '{spec}': cannot read it as a file ({e}); accepted: plies=K or a file of move lists, one opening per line")
        })?;
        let mut lines = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let actions = Openings::line(game, line)
                .map_err(|e| format!("{} line {}: {e}", path.display(), n + 1))?;
            lines.push(actions);
        }
        if lines.is_empty() {
            return Err(format!("{}: no openings in the file", path.display()));
        }
        Ok(Openings::Lines(lines))
    }

    /// One opening given as moves in notation (`--start "MOVES"`).
    pub fn start<G: Game>(game: &G, moves: &str) -> Result<Openings, String> {
        Ok(Openings::Lines(vec![Openings::line(game, moves)?]))
    }

    /// Each of `lines` (moves in notation) as actions, checked as
    /// [`Openings::start`] checks one.
    pub fn lines<G: Game>(game: &G, lines: &[String]) -> Result<Vec<Vec<Action>>, String> {
        lines
            .iter()
            .map(|l| Openings::line(game, l).map_err(|e| format!("'{l}': {e}")))
            .collect()
    }

    /// Moves in notation to actions, checked: legal, and the game not over.
    fn line<G: Game>(game: &G, moves: &str) -> Result<Vec<Action>, String> {
        let mut state = game.initial_state();
        let mut actions = Vec::new();
        for (ply, text) in moves.split_whitespace().enumerate() {
            let played = apply_notation(&mut state, game.num_players(), text)
                .map_err(|e| format!("move '{text}' at ply {}: {e}", ply + 1))?;
            actions.extend(played);
        }
        if state.is_terminal() {
            return Err(format!("the opening '{moves}' finishes the game"));
        }
        Ok(actions)
    }

    /// Whether games start from the start position.
    pub fn is_none(&self) -> bool {
        matches!(self, Openings::None)
    }

    /// The opening of pair `index` under `seed`: the same for both games of
    /// the pair, whatever the thread that plays them.
    pub fn opening<G: Game>(&self, game: &G, seed: u64, index: u64) -> Result<Vec<Action>, String> {
        match self {
            Openings::None => Ok(Vec::new()),
            Openings::Lines(lines) => Ok(lines[(index % lines.len() as u64) as usize].clone()),
            Openings::Random { plies } => {
                if *plies >= game.max_game_length() {
                    return Err(format!(
                        "openings plies={plies}: {} lasts at most {} actions",
                        game.spec(),
                        game.max_game_length()
                    ));
                }
                (0..ATTEMPTS)
                    .find_map(|attempt| {
                        random_line(game, *plies, &mut stream(seed, &[TAG, index, attempt]))
                    })
                    .ok_or_else(|| {
                        format!(
                            "openings plies={plies}: no line of {plies} random plies of {} left the game unfinished in {ATTEMPTS} tries",
                            game.spec()
                        )
                    })
            }
        }
    }

    /// How many distinct openings this gives (`None` for random ones).
    pub fn count(&self) -> Option<usize> {
        match self {
            Openings::None => Some(1),
            Openings::Lines(lines) => Some(lines.len()),
            Openings::Random { .. } => None,
        }
    }
}

/// `plies` random actions from the start, or `None` if they end the game.
fn random_line<G: Game>(game: &G, plies: usize, rng: &mut WoprRng) -> Option<Vec<Action>> {
    let mut state = game.initial_state();
    let mut line = Vec::with_capacity(plies);
    let mut legal = ActionList::new();
    for _ in 0..plies {
        match state.turn() {
            Turn::Terminal => return None,
            Turn::Chance => {
                let a = sample_chance(&state, rng);
                line.push(a);
                state.apply(a);
            }
            Turn::Player(_) => {
                legal.clear();
                state.legal_actions(&mut legal);
                let a = legal[rng.random_range(0..legal.len())];
                line.push(a);
                state.apply(a);
            }
            Turn::Simultaneous => {
                let joint: Vec<Action> = (0..game.num_players())
                    .map(|seat| {
                        legal.clear();
                        state.legal_actions_of(seat, &mut legal);
                        legal[rng.random_range(0..legal.len())]
                    })
                    .collect();
                line.extend_from_slice(&joint);
                state.apply_joint(&joint);
            }
        }
    }
    (!state.is_terminal()).then_some(line)
}
