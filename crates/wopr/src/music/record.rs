//! From a recorded game to its music.

use super::musicator::{MusicConfig, Musicator, ScoreBar};
use super::MusicError;
use crate::game::{ActionList, Game, GameRecord, State, Turn};
use crate::registry::AnyGame;

/// One player's move of a recorded game, as the musicator sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GridMove {
    /// The seat that moved.
    pub seat: usize,
    /// The square it occupied, `(column, row)` with row 0 = top; `None` for a
    /// pass or a game without a board.
    pub cell: Option<(usize, usize)>,
    /// The move in the game's notation.
    pub notation: String,
}

/// The rows of `game`'s board as far as its squares show: one more than the
/// largest row of [`State::action_cell`] over every action index at the
/// start (Connect-4 answers with the bottom row, Tic-Tac-Toe and Reversi with
/// every square). `None` for games without squares at the start.
pub fn grid_rows<G: Game>(game: &G) -> Option<usize> {
    let s = game.initial_state();
    (0..game.num_actions())
        .filter_map(|a| s.action_cell(a as crate::game::Action))
        .map(|(_, r)| r + 1)
        .max()
}

/// The board rows of any registered game ([`grid_rows`]), or 6 (the paper's
/// 6×6 board) for a game without squares.
pub fn board_rows(game: &AnyGame) -> usize {
    crate::with_game!(game, g => grid_rows(g)).unwrap_or(6)
}

/// Replays `actions` of `game`, checking each, and lists the players' moves
/// with their squares. Chance moves are left out; a simultaneous turn gives
/// one move per seat, in seat order.
pub fn grid_moves<G: Game>(
    game: &G,
    actions: &[crate::game::Action],
) -> Result<Vec<GridMove>, String> {
    let mut state = game.initial_state();
    let mut out = Vec::with_capacity(actions.len());
    let mut i = 0;
    while i < actions.len() {
        match state.turn() {
            Turn::Terminal => {
                return Err(format!(
                    "the game is over after {i} of the record's {} actions",
                    actions.len()
                ))
            }
            Turn::Chance => {
                state
                    .try_apply(actions[i])
                    .map_err(|e| format!("ply {}: {e}", i + 1))?;
                i += 1;
            }
            Turn::Player(seat) => {
                let a = actions[i];
                out.push(GridMove {
                    seat,
                    cell: state.action_cell(a),
                    notation: state.action_to_string(a),
                });
                state
                    .try_apply(a)
                    .map_err(|e| format!("ply {}: {e}", i + 1))?;
                i += 1;
            }
            Turn::Simultaneous => {
                let n = game.num_players();
                let joint = actions.get(i..i + n).ok_or_else(|| {
                    format!("ply {}: a simultaneous turn needs {n} actions", i + 1)
                })?;
                for (seat, &a) in joint.iter().enumerate() {
                    let mut legal = ActionList::new();
                    state.legal_actions_of(seat, &mut legal);
                    if !legal.contains(&a) {
                        return Err(format!(
                            "ply {}: action {a} is not legal for seat {seat}",
                            i + 1
                        ));
                    }
                    out.push(GridMove {
                        seat,
                        cell: state.action_cell(a),
                        notation: state.action_to_string(a),
                    });
                }
                state.apply_joint(joint);
                i += n;
            }
        }
    }
    Ok(out)
}

/// A recorded game set to music.
#[derive(Clone, Debug, PartialEq)]
pub struct Composition {
    /// The game's spec.
    pub game: String,
    /// The seats' names (`X`, `O`, …).
    pub seat_names: Vec<String>,
    /// The board rows assumed by the musicator.
    pub board_rows: usize,
    /// The moves, one per bar.
    pub moves: Vec<GridMove>,
    /// The bars, one per move (a rest for a move without a square).
    pub bars: Vec<ScoreBar>,
}

/// Sets a recorded game to music: replays it (checking every action), then
/// turns each player's move into a bar with a [`Musicator`] seeded by `seed`.
/// Fails if the record does not replay or if no move occupies a square.
pub fn compose_record(
    rec: &GameRecord,
    config: &MusicConfig,
    seed: u64,
) -> Result<Composition, MusicError> {
    let game = AnyGame::parse(&rec.game)
        .map_err(|e| MusicError::Record(format!("record's game '{}': {e}", rec.game)))?;
    let (moves, probed, names) = crate::with_game!(&game, g => {
        let names: Vec<String> = g.seat_names().iter().map(|s| s.to_string()).collect();
        (grid_moves(g, &rec.actions), grid_rows(g), names)
    });
    let moves = moves.map_err(|e| {
        MusicError::Record(format!("record of '{}' does not replay: {e}", rec.game))
    })?;
    let seen = moves
        .iter()
        .filter_map(|m| m.cell)
        .map(|(_, r)| r + 1)
        .max();
    let Some(seen) = seen else {
        return Err(MusicError::Record(format!(
            "no move of this '{}' game occupies a square; the musicator needs a game played on a grid (connect4, tictactoe, reversi, virus, …)",
            rec.game
        )));
    };
    let rows = probed.unwrap_or(0).max(seen);
    let mut m = Musicator::new(config.clone(), rows, seed)?;
    let bars = moves
        .iter()
        .map(|mv| ScoreBar {
            seat: mv.seat,
            cell: mv.cell,
            bar: m.next(mv.cell),
        })
        .collect();
    Ok(Composition {
        game: rec.game.clone(),
        seat_names: names,
        board_rows: rows,
        moves,
        bars,
    })
}
