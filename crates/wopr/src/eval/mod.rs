//! Yardsticks: match statistics with confidence intervals, and the thesis's
//! exhaustive loss count (§4.3), the match runner ([`matches`](mod@matches)),
//! and the optimal-move rate against an exact solver ([`optimal`]).
//!
//! **References.**
//! - B. Horner, *WOPR in search of better strategies for board games*, M.S.
//!   thesis, University of Nebraska at Omaha, 2011.

pub mod forfeits;
pub mod lockstep;
pub mod matches;
pub mod openings;
pub mod optimal;
pub mod rating;
pub mod sprt;
pub mod tournament;

pub use forfeits::{ForfeitCounts, MatchForfeits, SeatForfeits};
pub use optimal::{optimal_moves, OptimalMoves};
pub use rating::{elo_diff, EloDiff, FitOptions, Ratings, Results, ScoreCounts};
pub use sprt::{Pentanomial, Sprt, SprtStatus};

use serde::Serialize;

use crate::game::rng::WoprRng;
use crate::game::Player;
use crate::game::{ActionList, Game, GameRecord, State, Turn};

/// The Wilson score interval for `successes` out of `n` at normal quantile `z`
/// (1.96 for 95%): `(p̂ + z²/2n ± z·sqrt(p̂(1−p̂)/n + z²/4n²)) / (1 + z²/n)`.
/// Returns `(0, 1)` for `n = 0`.
pub fn wilson(successes: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = n as f64;
    let p = successes as f64 / n;
    let z2 = z * z;
    let centre = p + z2 / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let denom = 1.0 + z2 / n;
    (
        ((centre - half) / denom).max(0.0),
        ((centre + half) / denom).min(1.0),
    )
}

/// Wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Total games.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// `(W + D/2) / games`: the score with draws as half (0 without games).
    pub fn score(&self) -> f64 {
        let g = self.games();
        if g == 0 {
            0.0
        } else {
            (self.wins as f64 + 0.5 * self.draws as f64) / g as f64
        }
    }

    /// Counts one game by its return: a win above 0, a loss below, a draw at 0.
    pub fn add(&mut self, r: f64) {
        if r > 0.0 {
            self.wins += 1;
        } else if r < 0.0 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
}

/// One player's results against one opponent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchStats {
    /// The evaluated player's spec.
    pub player: String,
    /// The opponent's spec.
    pub opponent: String,
    /// Results with the player in seat 0 (moving first).
    pub as_first: Wdl,
    /// Results with the player in seat 1.
    pub as_second: Wdl,
    /// Wins over games played (draws count as not won).
    pub win_rate: f64,
    /// 95% Wilson interval of the win rate.
    pub win_rate_ci95: (f64, f64),
    /// Mean score margin of the player, where the game keeps score.
    pub mean_margin: Option<f64>,
    /// Games played.
    pub games: u64,
    /// How many of them differ (two deterministic players from one position
    /// replay one game: this says how many games were really measured).
    pub distinct_games: usize,
    /// The player's score `(W + D/2) / games`.
    pub score: f64,
    /// The score from seat 0.
    pub score_as_first: f64,
    /// The score from seat 1.
    pub score_as_second: f64,
    /// The games either side forfeited (counted in the W/D/L above as
    /// losses of the side that forfeited), by side, seat and why.
    pub forfeits: MatchForfeits,
}

/// Summarises match records in which the player sat in seat 0 when
/// `player_seat(i)` says so for game `i`.
pub fn match_stats(
    player: &str,
    opponent: &str,
    records: &[GameRecord],
    player_seat: impl Fn(usize) -> usize,
) -> MatchStats {
    let mut as_first = Wdl::default();
    let mut as_second = Wdl::default();
    let mut margin = 0i64;
    let mut scored = 0u64;
    for (i, rec) in records.iter().enumerate() {
        let seat = player_seat(i);
        let Some(r) = &rec.returns else { continue };
        if seat == 0 {
            as_first.add(r[0]);
        } else {
            as_second.add(r[1]);
        }
        if let Some(s) = &rec.score {
            margin += s[seat] as i64;
            scored += 1;
        }
    }
    let n = as_first.games() + as_second.games();
    let wins = as_first.wins + as_second.wins;
    let mut all = as_first;
    all.wins += as_second.wins;
    all.draws += as_second.draws;
    all.losses += as_second.losses;
    MatchStats {
        games: n,
        distinct_games: matches::distinct_games(records),
        score: all.score(),
        score_as_first: as_first.score(),
        score_as_second: as_second.score(),
        player: player.to_string(),
        opponent: opponent.to_string(),
        as_first,
        as_second,
        win_rate: if n > 0 { wins as f64 / n as f64 } else { 0.0 },
        win_rate_ci95: wilson(wins, n, 1.96),
        mean_margin: (scored > 0).then(|| margin as f64 / scored as f64),
        forfeits: MatchForfeits::count(records, &player_seat),
    }
}

/// The player's and the opponent's mean wall-clock seconds a move over
/// match records (moves at their own turns, openings left out; `None` for
/// a side whose records kept no time), the player in seat
/// `player_seat(i)` of game `i`. Kept apart from [`MatchStats`], which is
/// the same for a seed on any run, as times are not.
pub fn seconds_per_move(
    records: &[GameRecord],
    player_seat: impl Fn(usize) -> usize,
) -> [Option<f64>; 2] {
    // (moves, seconds) of the player and of the opponent.
    let mut time = [(0u64, 0f64); 2];
    for (i, rec) in records.iter().enumerate() {
        let seat = player_seat(i);
        for (s, t) in rec.thinking.iter().enumerate() {
            let side = usize::from(s != seat);
            time[side].0 += u64::from(t.moves);
            time[side].1 += t.seconds;
        }
    }
    time.map(|(n, t)| (n > 0).then(|| t / n as f64))
}

/// The outcome of an exhaustive evaluation from one seat.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Exhaustive {
    /// Complete games reached (one per opponent line).
    pub games: u64,
    /// Of those, how many the player won, drew and lost.
    pub results: Wdl,
}

/// Plays `player` in `seat` against every possible line of the opponent: at
/// the player's turns the player chooses (once per position reached); at the
/// opponent's turns every legal move is followed. Counts the terminal
/// positions of that strategy tree by result (the thesis's §4.3 measure, where
/// the losses are the fitness). Perfect-information, chance-free games only;
/// meant for games as small as Tic-Tac-Toe.
pub fn exhaustive<G: Game>(
    game: &G,
    player: &mut dyn Player<G>,
    seat: usize,
    rng: &mut WoprRng,
) -> Exhaustive
where
    G::State: State<View = G::State>,
{
    exhaustive_limited(game, player, seat, rng, u64::MAX)
        .expect("an unlimited walk always finishes")
}

/// [`exhaustive`], giving up with `None` once more than `max_games`
/// opponent lines have been walked: the count is meant for small games
/// (Tic-Tac-Toe has 255,168 games in all), and on Connect-4 or Reversi it
/// would not finish.
pub fn exhaustive_limited<G: Game>(
    game: &G,
    player: &mut dyn Player<G>,
    seat: usize,
    rng: &mut WoprRng,
    max_games: u64,
) -> Option<Exhaustive>
where
    G::State: State<View = G::State>,
{
    fn walk<G: Game>(
        s: &G::State,
        player: &mut dyn Player<G>,
        seat: usize,
        rng: &mut WoprRng,
        out: &mut Exhaustive,
        max_games: u64,
    ) -> Option<()>
    where
        G::State: State<View = G::State>,
    {
        let mut legal = ActionList::new();
        match s.turn() {
            Turn::Terminal => {
                out.games += 1;
                out.results.add(s.returns(seat));
                (out.games <= max_games).then_some(())
            }
            Turn::Player(p) => {
                s.legal_actions(&mut legal);
                if p == seat {
                    let a = player.choose(s, &legal, rng);
                    let mut c = s.clone();
                    c.apply(a);
                    walk::<G>(&c, player, seat, rng, out, max_games)
                } else {
                    for &a in &legal {
                        let mut c = s.clone();
                        c.apply(a);
                        walk::<G>(&c, player, seat, rng, out, max_games)?;
                    }
                    Some(())
                }
            }
            Turn::Chance | Turn::Simultaneous => {
                panic!("exhaustive evaluation needs a deterministic turn-based game")
            }
        }
    }
    let mut out = Exhaustive::default();
    player.new_game();
    walk::<G>(
        &game.initial_state(),
        player,
        seat,
        rng,
        &mut out,
        max_games,
    )?;
    Some(out)
}

/// The exact value of the best strategy against opponents that play
/// uniformly at random: see [`best_response_to_uniform`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct BestResponse {
    /// The highest probability of winning that any strategy reaches (a draw
    /// counts as not won).
    pub win: f64,
    /// The highest expected score, a win counting 1, a draw ½ and a loss 0.
    /// The strategy that reaches it may differ from the one that maximises
    /// [`BestResponse::win`] (it may prefer a sure draw to a risky win).
    pub score: f64,
}

/// How well the best possible strategy for `seat` does against opponents
/// that pick uniformly among their legal moves: expectimax over the whole
/// game tree, where `seat`'s nodes take the best child, the opponents' nodes
/// the mean of their children, and chance nodes the mean weighted by
/// [`State::chance_outcomes`]. Each of the two objectives (win probability,
/// expected score) is maximised on its own. A result is a win when the
/// seat's return is positive, a draw when it is zero.
///
/// The values are exact up to floating-point rounding; they bound what any
/// player can score against `random` (the yardstick's ceiling). The walk
/// visits every node and remembers none, so it is meant for games as small
/// as Tic-Tac-Toe (549,946 nodes); perfect-information, turn-based games
/// only (it panics at a simultaneous node).
pub fn best_response_to_uniform<G: Game>(game: &G, seat: usize) -> BestResponse
where
    G::State: State<View = G::State>,
{
    fn value<S: State>(s: &S, seat: usize, utility: &dyn Fn(f64) -> f64) -> f64 {
        let child = |a| {
            let mut c = s.clone();
            c.apply(a);
            value(&c, seat, utility)
        };
        match s.turn() {
            Turn::Terminal => utility(s.returns(seat)),
            Turn::Player(p) => {
                let mut legal = ActionList::new();
                s.legal_actions(&mut legal);
                let values = legal.iter().map(|&a| child(a));
                if p == seat {
                    values.fold(f64::NEG_INFINITY, f64::max)
                } else {
                    values.sum::<f64>() / legal.len() as f64
                }
            }
            Turn::Chance => {
                let mut outcomes = Vec::new();
                s.chance_outcomes(&mut outcomes);
                outcomes.iter().map(|&(a, p)| p * child(a)).sum()
            }
            Turn::Simultaneous => {
                panic!("best_response_to_uniform needs a turn-based game")
            }
        }
    }
    let start = game.initial_state();
    let win = |r: f64| if r > 0.0 { 1.0 } else { 0.0 };
    let score = |r: f64| {
        if r > 0.0 {
            1.0
        } else if r < 0.0 {
            0.0
        } else {
            0.5
        }
    };
    BestResponse {
        win: value(&start, seat, &win),
        score: value(&start, seat, &score),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_a_hand_calculation() {
        // 8 of 10, z = 1.96: p = 0.8, z² = 3.8416;
        // centre = 0.8 + 3.8416/20 = 0.99208;
        // half = 1.96·sqrt(0.016 + 3.8416/400) = 1.96·sqrt(0.025604) = 0.313625;
        // denominator = 1.38416 → (0.49016, 0.94330).
        let (lo, hi) = wilson(8, 10, 1.96);
        assert!((lo - 0.49016).abs() < 1e-4, "{lo}");
        assert!((hi - 0.94330).abs() < 1e-4, "{hi}");
        // 0 of 5: the lower end is 0, the upper z²/(n+z²) = 3.8416/8.8416.
        let (lo, hi) = wilson(0, 5, 1.96);
        assert_eq!(lo, 0.0);
        assert!((hi - 3.8416 / 8.8416).abs() < 1e-9);
    }

    #[test]
    fn best_response_weighs_chance_nodes_by_their_probabilities() {
        use crate::game::spec::GameSpec;
        use crate::games::pig::Pig;
        // Pig to 10 with a one-turn horizon: only the first player moves, a
        // roll of 1 or a hold ends the turn and the game in a draw, so the
        // first player never loses and wins most often by always rolling:
        // p(t) = 1 for a turn total t ≥ 10, else (1/6)·Σ_{d=2..6} p(t + d).
        let mut p = [1.0f64; 16];
        for t in (0..10).rev() {
            p[t] = (2..=6).map(|d| p[t + d]).sum::<f64>() / 6.0;
        }
        let game = Pig::from_spec(&GameSpec::parse("pig:target=10,horizon=1").unwrap()).unwrap();
        let first = best_response_to_uniform(&game, 0);
        assert!((first.win - p[0]).abs() < 1e-12, "{first:?} vs {}", p[0]);
        assert!(
            (first.score - (0.5 + 0.5 * p[0])).abs() < 1e-12,
            "{first:?}"
        );
        // The second player never moves, so never wins; the first, now the
        // uniform opponent, holds (a draw) or rolls with probability ½ each:
        // q(t) = 1 for t ≥ 10, else ½·(1/6)·Σ_{d=2..6} q(t + d) is its
        // chance to win, and the second player's score is (1 − q(0))/2.
        let mut q = [1.0f64; 16];
        for t in (0..10).rev() {
            q[t] = 0.5 * (2..=6).map(|d| q[t + d]).sum::<f64>() / 6.0;
        }
        let second = best_response_to_uniform(&game, 1);
        assert_eq!(second.win, 0.0);
        assert!(
            (second.score - 0.5 * (1.0 - q[0])).abs() < 1e-12,
            "{second:?}"
        );
    }
}
