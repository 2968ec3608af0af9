//! Perft in GDL steps, as a GGP reasoner counts them: one ply is one joint
//! move of every role (the cross product of each role's legal moves), a
//! step where every role has a single move (`noop`s) included, and GDL-II's
//! `random` a role like the others. wopr's own turn model ([`wopr_core::game::perft`])
//! counts only the seats that choose, so it skips forced steps and gives
//! `random` a ply of its own; `wopr perft` on a `gdl:` sheet counts steps.

use super::facts::Facts;
use super::reasoner::Reasoner;

/// The number of joint-move sequences of `depth` steps from `facts`; a
/// finished position (`terminal`, or a role with no legal move) is not
/// extended.
pub fn step_perft(r: &Reasoner, facts: &Facts, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if r.is_terminal(facts) {
        return 0;
    }
    let lists: Vec<Vec<u32>> = (0..r.roles().len())
        .map(|role| {
            let mut l = Vec::new();
            r.legal(facts, role, &mut l);
            l
        })
        .collect();
    if lists.iter().any(|l| l.is_empty()) {
        return 0;
    }
    if depth == 1 {
        return lists.iter().map(|l| l.len() as u64).product();
    }
    let mut total = 0;
    let mut pick = vec![0usize; lists.len()];
    let mut joint = vec![0u32; lists.len()];
    loop {
        for (k, (l, &p)) in lists.iter().zip(&pick).enumerate() {
            joint[k] = l[p];
        }
        total += step_perft(r, &r.next(facts, &joint), depth - 1);
        // The next joint move, the last role's choice fastest.
        let mut k = lists.len();
        loop {
            if k == 0 {
                return total;
            }
            k -= 1;
            pick[k] += 1;
            if pick[k] < lists[k].len() {
                break;
            }
            pick[k] = 0;
        }
    }
}

/// Random games [`roles_without_moves`] plays: at most this many,
pub const STUCK_GAMES: usize = 64;
/// and no more than this many steps in all (a count, not a clock, so that
/// what it finds does not depend on the machine),
pub const STUCK_STEPS: usize = 2_048;
/// or this many on a reasoner that is not ground (where a step costs
/// milliseconds).
pub const STUCK_STEPS_NON_GROUND: usize = 256;

/// A role with no legal move in a state that is not terminal: GDL asks
/// every role to have one in every state that is not terminal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoMove {
    /// The role (its index in the sheet's `role` order).
    pub role: usize,
    /// Steps from the initial state to the first such state found (0: the
    /// initial state itself).
    pub step: usize,
    /// The random game that found it (0 when `step` is 0).
    pub game: usize,
}

/// The roles that have no legal move in some state that is not terminal,
/// each once, at the first state found: the initial state, then the
/// states of random games from it (uniform joint moves, seeded: the same
/// answer every run), at most [`STUCK_GAMES`] games of at most
/// `max_steps` steps, [`STUCK_STEPS`] steps in all
/// ([`STUCK_STEPS_NON_GROUND`] where the reasoner is not ground). A game
/// ends at a terminal state or at one where a role has no move (where no
/// joint move exists).
pub fn roles_without_moves(r: &Reasoner, max_steps: usize) -> Vec<NoMove> {
    let roles = r.roles().len();
    let mut found: Vec<NoMove> = Vec::new();
    let budget = if r.is_grounded() {
        STUCK_STEPS
    } else {
        STUCK_STEPS_NON_GROUND
    };
    let mut rng = wopr_core::game::rng::stream(0, &[u64::from(u32::MAX)]);
    let mut legal: Vec<Vec<u32>> = vec![Vec::new(); roles];
    let mut joint = vec![0u32; roles];
    let mut spent = 0;
    for game in 0..STUCK_GAMES {
        if spent >= budget {
            break;
        }
        let mut facts = r.initial();
        for step in 0..=max_steps {
            if r.analyse_into(&facts, &mut legal) {
                break;
            }
            let mut stuck = false;
            for (role, l) in legal.iter().enumerate() {
                if l.is_empty() {
                    stuck = true;
                    if !found.iter().any(|f| f.role == role) {
                        let game = if step == 0 { 0 } else { game + 1 };
                        found.push(NoMove { role, step, game });
                    }
                }
            }
            if stuck || step == max_steps || spent >= budget {
                break;
            }
            for (j, l) in joint.iter_mut().zip(&legal) {
                *j = l[rand::RngExt::random_range(&mut rng, 0..l.len())];
            }
            r.advance(&mut facts, &joint);
            spent += 1;
        }
        if step_zero_stuck(&found) {
            // Every game starts where the initial state is stuck.
            break;
        }
    }
    found.sort_by_key(|f| f.role);
    found
}

/// Whether some role has no move in the initial state (then no random
/// game leaves it).
fn step_zero_stuck(found: &[NoMove]) -> bool {
    found.iter().any(|f| f.step == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn stuck(text: &str) -> Vec<NoMove> {
        let r = Reasoner::new(&parse(text).unwrap()).unwrap();
        roles_without_moves(&r, 100)
    }

    /// Two roles counting to 3; `o`'s moves as given.
    fn count(o_legal: &str) -> String {
        format!(
            "(role x) (role o) (init (c 0)) (succ 0 1) (succ 1 2) (succ 2 3)
             (<= (legal x go) (true (c ?n)))
             {o_legal}
             (<= (next (c ?m)) (true (c ?n)) (succ ?n ?m))
             (<= terminal (true (c 3)))
             (<= (goal x 100) terminal) (<= (goal o 0) terminal)"
        )
    }

    #[test]
    fn a_role_without_a_move_is_found_where_it_first_has_none() {
        assert_eq!(stuck(&count("(<= (legal o wait) (true (c ?n)))")), []);
        // o has no move at the start.
        assert_eq!(
            stuck(&count("(<= (legal o wait) (true (c 1)))")),
            [NoMove {
                role: 1,
                step: 0,
                game: 0
            }]
        );
        // o has a move at the start only: stuck one step in.
        assert_eq!(
            stuck(&count("(<= (legal o wait) (true (c 0)))")),
            [NoMove {
                role: 1,
                step: 1,
                game: 1
            }]
        );
        // At the terminal state no move is needed.
        assert_eq!(
            stuck(&count("(<= (legal o wait) (true (c ?n)) (distinct ?n 3))")),
            []
        );
    }
}
