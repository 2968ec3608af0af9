//! Self-play speed for `wopr bench --alphazero`: AlphaZero's self-play
//! games with a fresh net, on the calling thread, counted in positions
//! (moves played).

use crate::game::encode::Encodable;
use crate::game::rng::stream;
use crate::nn::Activation;
use crate::registry::AnyGame;
use crate::with_board_game;

use super::{selfplay, AzLearner, AzOptions, SearchOptions};

/// What a benchmark played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Played {
    /// Whole games.
    pub games: u64,
    /// Positions (moves played, a move of one legal action included).
    pub positions: u64,
    /// The net's inputs.
    pub inputs: usize,
}

/// Plays self-play games of `spec` with a fresh policy-value net over
/// `encoding` with `hidden` ReLU layers (Glorot weights from seed 1):
/// `sims` simulations a move, `lockstep` games at a time sharing each
/// forward pass, Dirichlet noise and 8 plies drawn by visits as in
/// `configs/connect4-6x6-alphazero.toml`, on this thread, until
/// `more(positions so far)` says stop (asked after each group).
pub fn selfplay_speed(
    spec: &str,
    encoding: &str,
    hidden: &[usize],
    sims: u32,
    lockstep: usize,
    more: &mut dyn FnMut(u64) -> bool,
) -> Result<Played, String> {
    let game = AnyGame::parse(spec).map_err(|e| e.to_string())?;
    with_board_game!(&game, g => speed_on(g, encoding, hidden, sims, lockstep, more),
        Err(format!("alphazero plays board games, not {}", game.spec())))
}

/// [`selfplay_speed`] on a typed game.
fn speed_on<G: Encodable>(
    game: &G,
    encoding: &str,
    hidden: &[usize],
    sims: u32,
    lockstep: usize,
    more: &mut dyn FnMut(u64) -> bool,
) -> Result<Played, String> {
    let options = AzOptions {
        search: SearchOptions {
            sims,
            c: 1.5,
            dirichlet_alpha: 1.0,
            noise: 0.25,
            temp_plies: 8,
            random_plies: 0,
            decisive_moves: false,
        },
        games: lockstep,
        lockstep,
        window: 1,
        steps: 0,
        batch: 1,
        learning_rate: 0.01,
        momentum: 0.0,
        l2: 0.0,
        seed: 1,
    };
    let learner = AzLearner::new(
        game.clone(),
        encoding,
        hidden,
        Activation::Relu,
        options.clone(),
    )?;
    let mut out = Played {
        inputs: learner.encoding.size(),
        ..Played::default()
    };
    let mut group = 0u64;
    while more(out.positions) {
        let rngs = (0..lockstep as u64)
            .map(|i| stream(1, &[group, i]))
            .collect();
        for p in selfplay::play(game, &learner.net, &learner.encoding, &options.search, rngs)? {
            out.games += 1;
            out.positions += p.actions.len() as u64;
        }
        group += 1;
    }
    Ok(out)
}
