//! Perft in GDL steps, as a GGP reasoner counts them: one ply is one joint
//! move of every role (the cross product of each role's legal moves), a
//! step where every role has a single move (`noop`s) included, and GDL-II's
//! `random` a role like the others. wopr's own turn model ([`crate::game::perft`])
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
