//! Many games played in lockstep, for players that choose by values
//! ([`ValuePlayer`]): every game moves one step at a time, and at each step
//! each player is asked once for the values of all the positions where it
//! is to move, across all its games. A net player then evaluates the
//! leaves of hundreds of decisions in one batched pass, and each distinct
//! position once, instead of one small batch per decision.
//!
//! The games are the games the driver ([`crate::game::driver::play_out`])
//! plays: each draws from its own random stream, in the same order (chance
//! outcomes and the players' picks), a lone legal action is played without
//! asking, and a [`ValuePlayer`]'s pick from its values is its `choose`.
//! Players are asked in parallel on the current rayon pool; values do not
//! depend on which positions are asked about together, so neither do the
//! games, whatever the number of threads.

use rayon::prelude::*;

use crate::game::driver::{replay, sample_chance, PlayError};
use crate::game::player::{ValuePlayer, ViewOf};
use crate::game::rng::WoprRng;
use crate::game::{Action, ActionList, Game, State, Turn};

/// One game for [`play_lockstep`].
pub struct LockstepGame<'a> {
    /// The index (into the players) of the player in each seat.
    pub seats: Vec<usize>,
    /// Actions played first, asking no player (see `eval::openings`).
    pub opening: &'a [Action],
    /// The game's own random stream: chance outcomes and the players' picks.
    pub rng: WoprRng,
}

/// A game under way.
struct Live<S> {
    index: usize,
    state: S,
    plies: usize,
    seats: Vec<usize>,
    rng: WoprRng,
}

/// Plays every game of `games` to its end among `players`; returns each
/// game's final position (or why it could not be played), in order. A
/// simultaneous turn ends its game with [`PlayError::Simultaneous`].
pub fn play_lockstep<G: Game>(
    game: &G,
    players: &mut [Box<dyn ValuePlayer<G>>],
    games: Vec<LockstepGame<'_>>,
) -> Vec<Result<G::State, PlayError>> {
    let mut results: Vec<Option<Result<G::State, PlayError>>> =
        (0..games.len()).map(|_| None).collect();
    let mut live: Vec<Live<G::State>> = Vec::with_capacity(games.len());
    for (index, g) in games.into_iter().enumerate() {
        assert!(
            g.seats.len() == game.num_players() && g.seats.iter().all(|&p| p < players.len()),
            "one player per seat"
        );
        match replay(game, g.opening) {
            Ok(state) => live.push(Live {
                index,
                state,
                plies: g.opening.len(),
                seats: g.seats,
                rng: g.rng,
            }),
            Err(e) => results[index] = Some(Err(PlayError::BadOpening(e))),
        }
    }
    let mut waiting: Vec<Vec<usize>> = vec![Vec::new(); players.len()];
    let mut legal = ActionList::new();
    while !live.is_empty() {
        // Bring every game to its next choice among several actions, or to
        // its end.
        live.retain_mut(|g| loop {
            if g.plies > game.max_game_length() {
                results[g.index] = Some(Err(PlayError::TooLong(game.max_game_length())));
                return false;
            }
            match g.state.turn() {
                Turn::Terminal => {
                    results[g.index] = Some(Ok(g.state.clone()));
                    return false;
                }
                Turn::Simultaneous => {
                    results[g.index] = Some(Err(PlayError::Simultaneous));
                    return false;
                }
                Turn::Chance => {
                    let a = sample_chance(&g.state, &mut g.rng);
                    g.state.apply(a);
                }
                Turn::Player(_) => {
                    legal.clear();
                    g.state.legal_actions(&mut legal);
                    if legal.len() > 1 {
                        return true;
                    }
                    g.state.apply(legal[0]);
                }
            }
            g.plies += 1;
        });
        for w in &mut waiting {
            w.clear();
        }
        for (i, g) in live.iter().enumerate() {
            waiting[g.seats[seat_to_move(&g.state)]].push(i);
        }
        // Each player values all its positions at once.
        let values: Vec<Vec<f32>> = players
            .par_iter_mut()
            .zip(&waiting)
            .map(|(player, games)| {
                let mut out = Vec::new();
                if !games.is_empty() {
                    let views: Vec<ViewOf<G>> = games
                        .iter()
                        .map(|&i| live[i].state.view(seat_to_move(&live[i].state)))
                        .collect();
                    player.values(&views, &mut out);
                }
                out
            })
            .collect();
        for ((player, games), values) in players.iter().zip(&waiting).zip(&values) {
            let mut at = 0;
            for &i in games {
                let g = &mut live[i];
                legal.clear();
                g.state.legal_actions(&mut legal);
                let a = player.pick(&values[at..at + legal.len()], &legal, &mut g.rng);
                debug_assert!(legal.contains(&a), "a pick is one of the legal actions");
                at += legal.len();
                g.state.apply(a);
                g.plies += 1;
            }
        }
    }
    results
        .into_iter()
        .map(|r| r.expect("every game ends"))
        .collect()
}

/// The seat to move in a position at a player's turn.
fn seat_to_move<S: State>(state: &S) -> usize {
    match state.turn() {
        Turn::Player(seat) => seat,
        _ => unreachable!("only positions at a player's turn wait for values"),
    }
}
