//! The `strategy` oracle: not positions from play but every board a player
//! following a perfect strategy is asked to judge, each marked accept or
//! reject, as listed by the game
//! ([`Oracles::strategy_boards`](crate::game::oracle::Oracles::strategy_boards);
//! Tic-Tac-Toe lists the WOPR thesis's §4.5 back-propagation set).
//!
//! **Targets.** One per board, on a sigmoid output's scale, from the view
//! of the board's player to move (as every value oracle): 0 for an accepted
//! board (the move into it was sound), 1 for a rejected one (the player to
//! move has a forced win). The thesis writes 1 for accept from the mover's
//! side; for its bias-free sigmoid output node the two differ by negating
//! the output node's incoming weights, so they are the same learning task.
//! With an encoding fixed to one seat's view, boards with the other seat to
//! move get `1 - target`.

use super::{DatasetInfo, Generated, OracleGame};
use crate::game::encode::EncodingOf;
use crate::game::oracle::{Oracle, OracleError, OracleKind, StrategyBoard};
use crate::game::{mover, Game};
use crate::train::Dataset;

/// The dataset of `game`'s strategy boards in the encoding named
/// `encoding`, with its description; `None` where the game lists no
/// strategy (the oracle then does not apply to it).
pub(super) fn strategy_set<G: OracleGame>(
    game: &G,
    encoding: &str,
) -> Option<Result<Generated, OracleError>> {
    let boards = game.strategy_boards()?;
    let made = game
        .encoding(encoding)
        .map_err(OracleError::from)
        .and_then(|e| strategy_dataset::<G>(&e, &boards))
        .map(|data| Generated {
            info: DatasetInfo {
                game: game.spec(),
                encoding: encoding.to_string(),
                oracle: Oracle::Strategy.to_string(),
                kind: OracleKind::Value,
                positions: data.len(),
                games: 0,
                seed: 0,
                play: Vec::new(),
                unique: true,
                only_player: None,
            },
            data,
            exhausted: false,
        });
    Some(made)
}

/// The boards as a value dataset in `encoding` (see the module docs for the
/// targets).
fn strategy_dataset<G: Game>(
    encoding: &EncodingOf<G>,
    boards: &[StrategyBoard<G::State>],
) -> Result<Dataset, OracleError> {
    let mut data = Dataset::new(encoding.size(), 1, false);
    let mut inputs = vec![0.0; encoding.size()];
    for b in boards {
        encoding.encode(&b.board, &mut inputs);
        let mut target = if b.accept { 0.0 } else { 1.0 };
        if encoding.view().is_some_and(|v| mover(&b.board) != Some(v)) {
            target = 1.0 - target;
        }
        data.push(&inputs, &[target], None)
            .map_err(|e| OracleError(e.0))?;
    }
    Ok(data)
}
