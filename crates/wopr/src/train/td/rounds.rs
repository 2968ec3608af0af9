//! TD learning on several threads and ranks, reproducibly: games are
//! learned in rounds of `B`.
//!
//! Every game of a round starts from the weights (and TCL sums) the last
//! round left, `W`, and learns from its own moves as the one-thread
//! learner does, on an actor's private copy. What a game changed is
//! listed sparsely: the entries it touched, their values after the game
//! and their change from `W`. The round's games are then merged in game
//! order: the first game's values are taken as they are, every later
//! game's changes are added. So the weights after a round are
//! `L₀ + Σⱼ₌₁..B−1 (Lⱼ − W)` whichever thread or rank played which game,
//! and with `B` = 1 they are the one-thread learner's, bit for bit.
//!
//! A rank plays a contiguous block of each round's games
//! ([`crate::dist::map_block`]), shared out between its actors, one a
//! rayon worker thread; every rank merges every game's changes, so all ranks keep
//! the same weights. Opponents ([`TdLearner::with_opponents`]) are each
//! actor's own, so they must play every game as `new_game` leaves them
//! (wopr's players do).

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{TdGame, TdLearner};
use crate::game::encode::Encodable;

/// What one game of a round changed, to be merged in game order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameChange {
    /// What the game did.
    pub summary: TdGame,
    /// The entries it may have changed, each once (the bias last).
    pub indices: Vec<u32>,
    /// For each index, for each array (the weights, then TCL's sums of
    /// changes and of their sizes where TCL is on): its value after the
    /// game.
    pub after: Vec<f32>,
    /// The same entries' changes from the round's start.
    pub change: Vec<f32>,
}

/// The entries a game touched, each listed once, in the order first
/// touched (a mark per entry keeps the list free of repeats).
#[derive(Default)]
pub(super) struct Touched {
    list: Vec<u32>,
    seen: Vec<bool>,
}

impl Touched {
    /// Lists the inputs of a position learned from.
    pub(super) fn add(&mut self, inputs: &[(u32, f32)]) {
        for &(i, _) in inputs {
            let seen = &mut self.seen[i as usize];
            if !*seen {
                *seen = true;
                self.list.push(i);
            }
        }
    }
}

/// The actors that learn a run's games in rounds (see the module docs).
pub struct TdRounds<G: Encodable> {
    actors: Vec<TdLearner<G>>,
    batch: u64,
    /// Whether every actor holds the main learner's arrays.
    synced: bool,
}

impl<G: Encodable> TdRounds<G> {
    /// Rounds of `batch` games played by `actors`, each on a rayon worker
    /// thread (as many actors as the pool has threads; each a learner built as the main one, its weights taken from
    /// the main learner before the first round; which actor plays which
    /// game changes nothing learned).
    ///
    /// # Panics
    /// Where `actors` is empty or `batch` is 0.
    pub fn new(actors: Vec<TdLearner<G>>, batch: u64) -> Self {
        assert!(
            !actors.is_empty() && batch > 0,
            "rounds need actors and games"
        );
        TdRounds {
            actors,
            batch,
            synced: false,
        }
    }

    /// The games a round learns.
    pub fn batch(&self) -> u64 {
        self.batch
    }

    /// Marks the actors stale: the main learner's weights changed outside
    /// a round (a checkpoint restored), so the next round copies them all.
    pub fn resync(&mut self) {
        self.synced = false;
    }

    /// Learns games `start..start + count` into `main`; returns each game's
    /// summary in game order. Rounds are the games `kB..(k+1)B` (`B` the
    /// batch), cut short only where `start` or `start + count` falls
    /// inside one: a run that stops and resumes at multiples of `B` learns
    /// what an unstopped one does.
    pub fn learn(&mut self, main: &mut TdLearner<G>, start: u64, count: u64) -> Vec<TdGame> {
        let mut games = Vec::with_capacity(count as usize);
        let end = start + count;
        while (start + games.len() as u64) < end {
            let first = start + games.len() as u64;
            games.extend(self.learn_round(main, first, end));
        }
        games
    }

    /// Learns from game `first` to the end of its round (`kB..(k+1)B`),
    /// or to `end` if that comes sooner: one round, or the part of one a
    /// run's checkpoint leaves.
    pub fn learn_round(&mut self, main: &mut TdLearner<G>, first: u64, end: u64) -> Vec<TdGame> {
        let last = ((first / self.batch + 1) * self.batch).min(end);
        self.round(main, first..last)
    }

    /// One round: the games `indices`, from `main`'s weights, merged into
    /// them.
    fn round(&mut self, main: &mut TdLearner<G>, indices: std::ops::Range<u64>) -> Vec<TdGame> {
        if !self.synced {
            for actor in &mut self.actors {
                actor.weights.copy_from_slice(&main.weights);
                actor.tcl_sum.copy_from_slice(&main.tcl_sum);
                actor.tcl_size.copy_from_slice(&main.tcl_size);
                actor.touched = Some(Touched {
                    list: Vec::new(),
                    seen: vec![false; main.weights.len()],
                });
            }
            self.synced = true;
        }
        let tasks: Vec<u64> = indices.collect();
        let snapshot = Arrays::of(main);
        let actors = &mut self.actors;
        let changes: Vec<GameChange> = crate::dist::map_block(&tasks, |_, block| {
            let n = actors.len();
            // Actor t plays games t, t + n, t + 2n, … of this block.
            let share = |t: usize, actor: &mut TdLearner<G>| -> Vec<GameChange> {
                block
                    .iter()
                    .skip(t)
                    .step_by(n)
                    .map(|&g| actor.play_from(&snapshot, g))
                    .collect()
            };
            // One actor a rayon worker (threads that live the whole run:
            // a round costs a wake-up, not a thread's start).
            let mut played: Vec<Vec<GameChange>> = if n == 1 || block.len() < 2 {
                vec![share(0, &mut actors[0])]
            } else {
                actors
                    .par_iter_mut()
                    .with_max_len(1)
                    .enumerate()
                    .map(|(t, actor)| share(t, actor))
                    .collect()
            };
            let n = played.len();
            let mut ordered = Vec::with_capacity(block.len());
            let mut streams: Vec<_> = played.iter_mut().map(|p| p.drain(..)).collect();
            for k in 0..block.len() {
                ordered.push(streams[k % n].next().expect("each actor's share"));
            }
            ordered
        });
        main.merge(&changes);
        let merged = Arrays::of(main);
        // Bring the actors up to the merged arrays: entry by entry, or
        // whole where the round touched much of them (a copy is cheaper).
        let listed: usize = changes.iter().map(|c| c.indices.len()).sum();
        for actor in &mut self.actors {
            if listed > merged.weights.len() / 8 {
                actor.weights.copy_from_slice(merged.weights);
                actor.tcl_sum.copy_from_slice(merged.tcl_sum);
                actor.tcl_size.copy_from_slice(merged.tcl_size);
                continue;
            }
            for c in &changes {
                for &i in &c.indices {
                    merged.copy_entry(actor, i as usize);
                }
            }
        }
        changes.into_iter().map(|c| c.summary).collect()
    }
}

/// A learner's arrays, read-only: the weights and TCL's sums.
struct Arrays<'a> {
    weights: &'a [f32],
    tcl_sum: &'a [f32],
    tcl_size: &'a [f32],
}

impl<'a> Arrays<'a> {
    fn of<G: Encodable>(learner: &'a TdLearner<G>) -> Self {
        Arrays {
            weights: &learner.weights,
            tcl_sum: &learner.tcl_sum,
            tcl_size: &learner.tcl_size,
        }
    }

    /// Sets entry `i` of `learner`'s arrays to these.
    fn copy_entry<G: Encodable>(&self, learner: &mut TdLearner<G>, i: usize) {
        learner.weights[i] = self.weights[i];
        if !self.tcl_sum.is_empty() {
            learner.tcl_sum[i] = self.tcl_sum[i];
            learner.tcl_size[i] = self.tcl_size[i];
        }
    }
}

impl<G: Encodable> TdLearner<G> {
    /// Learns game `index` from `snapshot` (which this actor's arrays
    /// equal), lists what it changed, and puts the arrays back.
    fn play_from(&mut self, snapshot: &Arrays, index: u64) -> GameChange {
        let summary = self.learn_game(index);
        let touched = self
            .touched
            .as_mut()
            .expect("an actor lists what it touches");
        let mut indices = std::mem::take(&mut touched.list);
        for &i in &indices {
            touched.seen[i as usize] = false;
        }
        indices.push((self.weights.len() - 1) as u32);
        let tcl = !self.tcl_sum.is_empty();
        let per = if tcl { 3 } else { 1 };
        let mut after = Vec::with_capacity(indices.len() * per);
        let mut change = Vec::with_capacity(indices.len() * per);
        for &i in &indices {
            let i = i as usize;
            after.push(self.weights[i]);
            change.push(self.weights[i] - snapshot.weights[i]);
            if tcl {
                after.extend([self.tcl_sum[i], self.tcl_size[i]]);
                change.extend([
                    self.tcl_sum[i] - snapshot.tcl_sum[i],
                    self.tcl_size[i] - snapshot.tcl_size[i],
                ]);
            }
            snapshot.copy_entry(self, i);
        }
        GameChange {
            summary,
            indices,
            after,
            change,
        }
    }

    /// Merges a round's changes, in game order: the first game's values,
    /// then every later game's changes added.
    fn merge(&mut self, changes: &[GameChange]) {
        let tcl = !self.tcl_sum.is_empty();
        let per = if tcl { 3 } else { 1 };
        for (j, c) in changes.iter().enumerate() {
            let values = if j == 0 { &c.after } else { &c.change };
            for (k, &i) in c.indices.iter().enumerate() {
                let (i, v) = (i as usize, &values[k * per..(k + 1) * per]);
                let set = |slot: &mut f32, x: f32| {
                    if j == 0 {
                        *slot = x;
                    } else {
                        *slot += x;
                    }
                };
                set(&mut self.weights[i], v[0]);
                if tcl {
                    set(&mut self.tcl_sum[i], v[1]);
                    set(&mut self.tcl_size[i], v[2]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use super::*;
    use crate::dist::{install, InProcess};
    use crate::games::connect4::Connect4;
    use crate::nn::Activation;
    use crate::train::td::TdOptions;

    fn options(tcl: bool, farl: bool) -> TdOptions {
        TdOptions {
            alpha: if tcl { 0.05 } else { 0.01 },
            lambda: 0.5,
            epsilon: 0.1,
            openings: 2,
            seed: 7,
            tcl: tcl.then_some(2.7),
            farl,
            ..TdOptions::default()
        }
    }

    fn learner(tcl: bool, farl: bool) -> TdLearner<Connect4> {
        let game = Connect4::new(6, 6).unwrap();
        TdLearner::new(game, "walk8", Activation::Tanh, options(tcl, farl)).unwrap()
    }

    /// The weights and TCL sums after `games` games learned in rounds of
    /// `batch` by `actors` actors (threads).
    fn rounds(tcl: bool, farl: bool, games: u64, batch: u64, actors: usize) -> Vec<u32> {
        let mut main = learner(tcl, farl);
        let mut r = TdRounds::new((0..actors).map(|_| learner(tcl, farl)).collect(), batch);
        // Two calls, the second starting at a multiple of the batch, as a
        // resumed run does.
        let first = games / 2 / batch * batch;
        r.learn(&mut main, 0, first);
        r.learn(&mut main, first, games - first);
        bits(&main)
    }

    fn bits(l: &TdLearner<Connect4>) -> Vec<u32> {
        let (sum, size) = l.tcl_sums();
        l.weights()
            .iter()
            .chain(sum)
            .chain(size)
            .map(|w| w.to_bits())
            .collect()
    }

    #[test]
    fn rounds_of_one_game_are_the_one_thread_learner_bit_for_bit() {
        for (tcl, farl) in [(false, false), (true, false), (false, true)] {
            let mut one = learner(tcl, farl);
            for i in 0..24 {
                one.learn_game(i);
            }
            assert_eq!(
                rounds(tcl, farl, 24, 1, 2),
                bits(&one),
                "tcl {tcl}, farl {farl}"
            );
        }
    }

    #[test]
    fn a_round_learns_the_same_whatever_the_actors() {
        for (tcl, farl) in [(false, false), (true, false)] {
            let one = rounds(tcl, farl, 32, 8, 1);
            assert_eq!(rounds(tcl, farl, 32, 8, 2), one);
            assert_eq!(rounds(tcl, farl, 32, 8, 3), one);
            // And it is not the one-thread learner: the games of a round
            // do not see each other's changes.
            assert_ne!(rounds(tcl, farl, 32, 1, 1), one);
        }
    }

    #[test]
    fn a_rounds_weights_are_its_games_changes_added_up() {
        // Two games from zero weights, learned alone each, then as one
        // round: the round's weights are the first game's plus the
        // second's change (its weights, as it started from zero).
        let mut a = learner(false, false);
        a.learn_game(0);
        let mut b = learner(false, false);
        b.learn_game(1);
        let mut main = learner(false, false);
        TdRounds::new(vec![learner(false, false)], 2).learn(&mut main, 0, 2);
        for ((m, x), y) in main.weights().iter().zip(a.weights()).zip(b.weights()) {
            assert_eq!(m.to_bits(), (x + y).to_bits());
        }
        assert!(main.weights().iter().any(|&w| w != 0.0));
    }

    #[test]
    fn ranks_in_threads_keep_the_single_process_weights() {
        let single = rounds(true, false, 24, 6, 2);
        let handles: Vec<_> = InProcess::ranks(2)
            .into_iter()
            .map(|comm| {
                std::thread::spawn(move || {
                    install(Some(Rc::new(comm)));
                    rounds(true, false, 24, 6, 1)
                })
            })
            .collect();
        for h in handles {
            assert_eq!(h.join().unwrap(), single);
        }
    }
}
