//! `wopr.optimal_moves`: a player's optimal-move rate against the exact
//! solver, as `wopr eval --optimal-moves N --json` measures it
//! ([`wopr::eval::optimal`]).

use pyo3::prelude::*;

use wopr::registry::AnyGame;
use wopr::with_game;

use crate::errors::value_error;

/// How often `player`'s move is optimal on `positions` distinct positions
/// of `game` (a spec, an OpenSpiel game string or a loaded game) from
/// random play drawn from `seed`, each solved exactly: the JSON object
/// `wopr eval --game GAME --player PLAYER --optimal-moves POSITIONS --seed
/// SEED --json` prints, as text (`wopr.optimal_moves` reads it into a
/// dict). The GIL is released while it works.
#[pyfunction]
#[pyo3(signature = (game, player, positions, seed))]
pub fn optimal_moves_json(
    py: Python<'_>,
    game: &Bound<'_, PyAny>,
    player: &str,
    positions: &Bound<'_, PyAny>,
    seed: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let n = crate::args::count(positions, "positions", 1)?;
    let seed = crate::args::seed(seed, "seed")?;
    let loaded = match game.extract::<String>() {
        Ok(spec) => Bound::new(py, crate::load_game(&spec, None)?)?.into_any(),
        Err(_) => game.clone(),
    };
    let spec: String = loaded.call_method0("spec")?.extract()?;
    let game = AnyGame::parse(&spec).map_err(value_error)?;
    let measured = py.detach(|| {
        with_game!(&game, g => {
            let resolved = wopr::players::resolve_player(g, player)
                .map_err(|e| format!("bad player '{player}': {e}"))?;
            wopr::eval::optimal_moves(g, player, n, seed, &|_, _| {})
                .map(|m| m.json(player, &resolved, seed).to_string())
        })
    });
    measured.map_err(value_error)
}
