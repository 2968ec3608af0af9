//! A GDL-II player's information set: the GDL states consistent with
//! everything the player has been told, and a move chosen over them.
//!
//! A GDL-II player learns, at each turn, only its own last move and its
//! percepts (see the parent module). [`Belief`] keeps the set of states
//! the match may be in: it starts as `{init}`, and each turn every state
//! of the set is expanded by every joint move in which the player made its
//! own last move (the other roles, `random` included, making any of their
//! legal moves) and kept where the sheet's `sees` gives the player exactly
//! the percepts it was sent. Each state carries a weight: how likely the
//! joint moves that reach it are if `random` and the other players move
//! uniformly at random (the manager's `random` does; of the players wopr
//! knows nothing better), summed where paths meet, so that Monty Hall's
//! switching is worth its two thirds. The set is exact while it holds at
//! most [`MAX_STATES`] states and a turn's expansion tries at most a
//! million joint moves; past either bound it keeps the most likely
//! consistent states found, ties broken at random (every state kept is
//! consistent, but the set is no longer complete: [`Belief::is_exact`]). An exact set that empties
//! means that the messages contradict the rules, an error; a sampled one
//! that empties has lost track of the match, and the player then knows no
//! legal move ([`Belief::legal`] is empty).
//!
//! **Choosing a move** ([`Belief::choose`]): perfect-information Monte
//! Carlo over determinisations, flat. Until the deadline (or a count of
//! playouts), each of the player's legal moves in turn is tried from a
//! state drawn from the set by weight, the other roles' moves and the rest
//! of the game drawn uniformly at random, and the move with the highest
//! mean goal is played. Drawing states from the information set is what
//! keeps the player from reading what it cannot see: it plays the same
//! move whatever the hidden part of the true state is. This is the
//! baseline GDL-II players are measured against (the determinised
//! sampling of Schofield, Cerexhe and Thielscher's HyperPlay, 2012, with
//! flat playouts in place of a search per sample).

use std::collections::HashMap;
use std::time::Instant;

use rand::RngExt;

use super::{fail, GgpError};
use crate::ast::Term;
use crate::game::Gdl;
use crate::reasoner::{Analysis, Facts, Reasoner};
use wopr_core::game::rng::WoprRng;
use wopr_core::game::Game;

/// The most states an information set holds before it is sampled.
pub const MAX_STATES: usize = 4096;

/// The most joint moves one turn's expansion tries before the set is
/// sampled from what was found.
const WORK_LIMIT: usize = 1 << 20;

/// What one role of a GDL-II match knows: the states consistent with its
/// own moves and percepts so far (see the module docs).
#[derive(Clone, Debug)]
pub struct Belief {
    game: Gdl,
    role: usize,
    states: Vec<Facts>,
    /// Each state's weight; they sum to 1.
    weights: Vec<f64>,
    exact: bool,
    turn: u64,
}

impl Belief {
    /// The belief of `role` (an index into the sheet's roles) at the start
    /// of a match of `game`: the initial state alone.
    pub fn new(game: Gdl, role: usize) -> Belief {
        let states = vec![game.reasoner().initial()];
        Belief {
            game,
            role,
            states,
            weights: vec![1.0],
            exact: true,
            turn: 0,
        }
    }

    /// The joint moves the belief has followed (a GDL-II message's turn).
    pub fn turn(&self) -> u64 {
        self.turn
    }

    /// Whether the set is the whole information set (not a sample).
    pub fn is_exact(&self) -> bool {
        self.exact
    }

    /// The states the match may be in.
    pub fn states(&self) -> &[Facts] {
        &self.states
    }

    /// Each state's weight (see the module docs), summing to 1.
    pub fn weights(&self) -> &[f64] {
        &self.weights
    }

    fn reasoner(&self) -> &Reasoner {
        self.game.reasoner()
    }

    fn role_name(&self) -> String {
        self.reasoner().roles()[self.role].to_string()
    }

    /// Follows one turn: the player's own move `last` and what it saw by
    /// it, `percepts` (in any order).
    ///
    /// # Errors
    ///
    /// A one-line [`GgpError`] when `last` is never a move of the role, a
    /// percept is never one of its percepts, or (on an exact set) no state
    /// of the set and no joint move with `last` gives these percepts; the
    /// belief is then unchanged.
    pub fn update(
        &mut self,
        last: &Term,
        percepts: &[Term],
        rng: &mut WoprRng,
    ) -> Result<(), GgpError> {
        let r = self.reasoner();
        let Some(mine) = r.find_move(self.role, last) else {
            return fail(format!("{last} is never a move of {}", self.role_name()));
        };
        let known = r.percepts(self.role);
        let mut want = Vec::with_capacity(percepts.len());
        for p in percepts {
            match known.iter().position(|k| k == p) {
                Some(i) => want.push(i as u32),
                None => return fail(format!("{p} is never a percept of {}", self.role_name())),
            }
        }
        want.sort_unstable();
        want.dedup();
        let (mut next, complete) = self.expand(mine, &want);
        let mut exact = self.exact && complete;
        if next.is_empty() && exact {
            let ps: Vec<String> = percepts.iter().map(Term::to_string).collect();
            return fail(format!(
                "at turn {}, {} moving {last} cannot see ({}): the percepts contradict the rules and what it saw before",
                self.turn + 1,
                self.role_name(),
                ps.join(" ")
            ));
        }
        if next.len() > MAX_STATES {
            // The most likely, ties in random order.
            for i in 0..next.len() {
                let j = rng.random_range(i..next.len());
                next.swap(i, j);
            }
            next.sort_by(|a, b| b.1.total_cmp(&a.1));
            next.truncate(MAX_STATES);
            exact = false;
        }
        let total: f64 = next.iter().map(|x| x.1).sum();
        self.weights = next.iter().map(|x| x.1 / total).collect();
        self.states = next.into_iter().map(|x| x.0).collect();
        self.exact = exact;
        self.turn += 1;
        Ok(())
    }

    /// The states reached from the set by a joint move with `mine` that
    /// shows the role the percept ids `want`, with their weights, in the
    /// order found, and whether every joint move was tried.
    fn expand(&self, mine: u32, want: &[u32]) -> (Vec<(Facts, f64)>, bool) {
        let r = self.reasoner();
        let n = r.roles().len();
        let mut found: Vec<(Facts, f64)> = Vec::new();
        let mut known: HashMap<Facts, usize> = HashMap::new();
        let mut analysis = Analysis::default();
        let mut got = Vec::new();
        let mut work = 0usize;
        'states: for (s, &w) in self.states.iter().zip(&self.weights) {
            r.analyse(s, &mut analysis);
            if analysis.terminal() || !analysis.legal(self.role).contains(&mine) {
                continue;
            }
            let lists: Vec<Vec<u32>> = (0..n)
                .map(|i| {
                    if i == self.role {
                        vec![mine]
                    } else {
                        analysis.legal(i).to_vec()
                    }
                })
                .collect();
            if lists.iter().any(Vec::is_empty) {
                continue;
            }
            // Each joint move's chance, the others moving uniformly.
            let each = lists.iter().map(|l| 1.0 / l.len() as f64).product::<f64>();
            let mut at = vec![0usize; n];
            loop {
                work += 1;
                if work > WORK_LIMIT {
                    return (found, false);
                }
                let joint: Vec<u32> = (0..n).map(|i| lists[i][at[i]]).collect();
                r.sees(s, &joint, self.role, &mut got);
                if got == want {
                    let f = r.next(s, &joint);
                    match known.get(&f) {
                        Some(&i) => found[i].1 += w * each,
                        None => {
                            known.insert(f.clone(), found.len());
                            found.push((f, w * each));
                        }
                    }
                }
                // The next joint move, role 0's move counting fastest.
                let mut i = 0;
                loop {
                    if i == n {
                        continue 'states;
                    }
                    at[i] += 1;
                    if at[i] < lists[i].len() {
                        break;
                    }
                    at[i] = 0;
                    i += 1;
                }
            }
        }
        (found, true)
    }

    /// Whether every state of the set is over (`terminal`, or a role has
    /// no legal move); false for an empty set.
    pub fn is_terminal(&self) -> bool {
        let r = self.reasoner();
        let mut a = Analysis::default();
        !self.states.is_empty()
            && self.states.iter().all(|s| {
                r.analyse(s, &mut a);
                a.terminal() || (0..r.roles().len()).any(|i| a.legal(i).is_empty())
            })
    }

    /// The role's MoveIds legal in every live state of the set (in a
    /// well-formed GDL-II game a player knows its legal moves, so these
    /// are its legal moves in each); where no move is, those of the first
    /// live state. Empty when the set is.
    fn legal_ids(&self) -> Vec<u32> {
        let r = self.reasoner();
        let mut a = Analysis::default();
        let (mut common, mut first): (Option<Vec<u32>>, Option<Vec<u32>>) = (None, None);
        for s in &self.states {
            r.analyse(s, &mut a);
            if a.terminal() {
                continue;
            }
            let l = a.legal(self.role);
            first.get_or_insert_with(|| l.to_vec());
            common = Some(match common {
                None => l.to_vec(),
                Some(c) => c.into_iter().filter(|m| l.contains(m)).collect(),
            });
        }
        match common {
            Some(c) if !c.is_empty() => c,
            _ => first.unwrap_or_default(),
        }
    }

    /// The role's legal moves: those legal in every live state of the set
    /// (in a well-formed GDL-II game a player knows its legal moves), or
    /// where none is, those of the first live state; empty when the set
    /// is.
    pub fn legal(&self) -> Vec<Term> {
        let moves = self.reasoner().moves(self.role);
        self.legal_ids()
            .into_iter()
            .map(|m| moves[m as usize].clone())
            .collect()
    }

    /// A move chosen by flat Monte Carlo over states drawn from the set
    /// (see the module docs): playouts until `deadline` or `max_playouts`,
    /// whichever comes first (at least one per move where time allows).
    /// `None` when the set is empty or has no legal move.
    pub fn choose(&self, deadline: Instant, max_playouts: u64, rng: &mut WoprRng) -> Option<Term> {
        let legal = self.legal_ids();
        let moves = self.reasoner().moves(self.role);
        match legal[..] {
            [] => return None,
            [m] => return Some(moves[m as usize].clone()),
            _ => {}
        }
        let r = self.reasoner();
        let mut a = Analysis::default();
        // The live states, and their weights summed so far (to draw by).
        let mut live: Vec<&Facts> = Vec::new();
        let mut upto: Vec<f64> = Vec::new();
        let mut total = 0.0;
        for (s, &w) in self.states.iter().zip(&self.weights) {
            r.analyse(s, &mut a);
            if !a.terminal() {
                total += w;
                live.push(s);
                upto.push(total);
            }
        }
        if live.is_empty() {
            return Some(moves[legal[0] as usize].clone());
        }
        let k = legal.len();
        let (mut sum, mut count) = (vec![0.0f64; k], vec![0u64; k]);
        let mut done = 0u64;
        while done < max_playouts && Instant::now() < deadline {
            let c = (done % k as u64) as usize;
            let x = rng.random_range(0.0..total.max(f64::MIN_POSITIVE));
            let s = live[upto.partition_point(|&u| u <= x).min(live.len() - 1)];
            sum[c] += self.playout(s, legal[c], &mut a, rng);
            count[c] += 1;
            done += 1;
        }
        let mean = |c: usize| {
            if count[c] == 0 {
                f64::NEG_INFINITY
            } else {
                sum[c] / count[c] as f64
            }
        };
        let best = (0..k).fold(0, |b, c| if mean(c) > mean(b) { c } else { b });
        let pick = if count[best] == 0 {
            legal[rng.random_range(0..k)]
        } else {
            legal[best]
        };
        Some(moves[pick as usize].clone())
    }

    /// The role's goal (0..=100) at the end of a random game from `s` whose
    /// first joint move has the role play `mine` (a random legal move of
    /// its own where `mine` is not legal in `s`).
    fn playout(&self, s: &Facts, mine: u32, a: &mut Analysis, rng: &mut WoprRng) -> f64 {
        let r = self.reasoner();
        let n = r.roles().len();
        let mut f = s.clone();
        let mut first = true;
        for _ in 0..=self.game.max_game_length() {
            r.analyse(&f, a);
            if a.terminal() || (0..n).any(|i| a.legal(i).is_empty()) {
                break;
            }
            let joint: Vec<u32> = (0..n)
                .map(|i| {
                    let l = a.legal(i);
                    if first && i == self.role && l.contains(&mine) {
                        mine
                    } else {
                        l[rng.random_range(0..l.len())]
                    }
                })
                .collect();
            first = false;
            f = r.next(&f, &joint);
        }
        f64::from(r.goal(&f, self.role).unwrap_or(0))
    }
}

#[cfg(test)]
mod tests;
