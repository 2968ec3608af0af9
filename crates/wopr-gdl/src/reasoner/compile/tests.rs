//! The rewrites of the compiled program on programs written by hand.

use super::*;

/// A program of one-literal `does` rules: atom `head`'s step holds if one
/// of `moves` is made.
fn of_moves(sets: &[(u32, &[u32])]) -> Compiled {
    let mut p: Compiled = (Vec::new(), Vec::new(), Vec::new());
    for &(head, moves) in sets {
        let lo = p.0.len() as u32;
        for &m in moves {
            let at = p.1.len() as u32;
            p.1.push(m);
            p.0.push(GRule {
                head,
                start: at,
                neg: at + 1,
                end: at + 1,
            });
        }
        p.2.push(Step {
            head,
            lo,
            hi: p.0.len() as u32,
        });
    }
    p
}

/// The rules of `head`'s step, as (positive, negative) literals.
fn rules_of(p: &Compiled, head: u32) -> Vec<(Vec<u32>, Vec<u32>)> {
    let step = p.2.iter().find(|s| s.head == head).expect("a step");
    p.0[step.lo as usize..step.hi as usize]
        .iter()
        .map(|r| {
            (
                p.1[r.start as usize..r.neg as usize].to_vec(),
                p.1[r.neg as usize..r.end as usize].to_vec(),
            )
        })
        .collect()
}

#[test]
fn one_role_large_sets_go_through_the_moves_outside_them() {
    // Role 0's moves are atoms 0..10, 9 a `noop` that no set holds; atom
    // 20 holds for moves 0..8, atom 21 for 1..9 (minus 9: 1..8 and 0 is
    // left out), so the universe is 0..9 and each set leaves out one move.
    let p = of_moves(&[
        (20, &[0, 1, 2, 3, 4, 5, 6, 7]),
        (21, &[1, 2, 3, 4, 5, 6, 7, 8]),
    ]);
    let (q, n) = complement_moves(p, 22, &[0, 10]);
    // New atoms: in_u (22), then each set's outside moves (23, 24).
    assert_eq!(n, 25);
    assert_eq!(
        rules_of(&q, 22).len(),
        9,
        "in_u holds for the universe 0..=8"
    );
    assert_eq!(rules_of(&q, 23), vec![(vec![8], vec![])]);
    assert_eq!(rules_of(&q, 20), vec![(vec![22], vec![23])]);
    assert_eq!(rules_of(&q, 24), vec![(vec![0], vec![])]);
    assert_eq!(rules_of(&q, 21), vec![(vec![22], vec![24])]);
    // Steps stay in evaluation order: what an atom reads comes first.
    let pos = |h: u32| q.2.iter().position(|s| s.head == h).unwrap();
    assert!(pos(22) < pos(23) && pos(23) < pos(20) && pos(24) < pos(21));
}

#[test]
fn two_roles_get_the_case_of_both_moving_apart() {
    // Roles 0 (atoms 0..8) and 1 (atoms 8..16); atom 30 holds for every
    // move of either but 0 and 8, atom 31 for every move but 1 and 9.
    let a: Vec<u32> = (1..8).chain(9..16).collect();
    let b: Vec<u32> = [0]
        .into_iter()
        .chain(2..8)
        .chain([8])
        .chain(10..16)
        .collect();
    let p = of_moves(&[(30, &a), (31, &b)]);
    let (q, n) = complement_moves(p, 32, &[0, 8, 16]);
    // in_u of each role (32, 33), in_any (34), two (35), w_0 and w_1
    // (36, 37), then per atom y_0, y_1 and y_any (38..41, 41..44).
    assert_eq!(n, 44);
    assert_eq!(rules_of(&q, 35), vec![(vec![32, 33], vec![])]);
    assert_eq!(rules_of(&q, 36), vec![(vec![35, 32], vec![])]);
    assert_eq!(rules_of(&q, 38), vec![(vec![0], vec![])]);
    assert_eq!(rules_of(&q, 39), vec![(vec![8], vec![])]);
    // One role moved in its universe: any, and not two, and not its
    // move outside; both moved: role by role.
    assert_eq!(
        rules_of(&q, 30),
        vec![
            (vec![34], vec![35, 40]),
            (vec![36], vec![38]),
            (vec![37], vec![39]),
        ]
    );
    // The second atom shares in_u, in_any, two and the w's.
    assert_eq!(rules_of(&q, 41), vec![(vec![1], vec![])]);
    assert_eq!(rules_of(&q, 31)[0], (vec![34], vec![35, 43]));
}

#[test]
fn small_sets_and_mixed_rules_are_left_alone() {
    // Half of the universe: not worth it.
    let p = of_moves(&[(20, &[0, 1, 2, 3]), (21, &[4, 5, 6, 7])]);
    let (q, n) = complement_moves(p, 22, &[0, 10]);
    assert_eq!(n, 22);
    assert_eq!(rules_of(&q, 20).len(), 4);
}

#[test]
fn a_literal_every_legal_rule_of_a_role_holds_becomes_its_gate() {
    // Role 0's legal atoms 40..50 (MoveIds 0..10): each `40 + m <- 1, 2 + m`
    // but the last, `49 <- 0` (a `noop` on the other's turn).
    let mut p: Compiled = (Vec::new(), Vec::new(), Vec::new());
    for m in 0..10u32 {
        let at = p.1.len() as u32;
        let lits: &[u32] = if m < 9 { &[1, 2 + m] } else { &[0] };
        p.1.extend_from_slice(lits);
        p.0.push(GRule {
            head: 40 + m,
            start: at,
            neg: at + lits.len() as u32,
            end: at + lits.len() as u32,
        });
        p.2.push(Step {
            head: 40 + m,
            lo: m,
            hi: m + 1,
        });
    }
    let legal = vec![(40..50).collect::<Vec<u32>>()];
    let groups = gate_legal(&mut p, &legal, 50);
    assert_eq!(groups[0].len(), 2);
    assert_eq!(groups[0][0].gate, 1 << 1, "atom 1, positive");
    assert_eq!(groups[0][0].moves.len(), 9);
    assert_eq!(groups[0][0].mask, vec![0x1ff]);
    assert_eq!(
        (groups[0][1].gate, groups[0][1].moves.clone()),
        (NONE, vec![(9, 49)])
    );
    // The gate is out of the rules it guards; the rest are as they were.
    assert_eq!(rules_of(&p, 43), vec![(vec![5], vec![])]);
    assert_eq!(rules_of(&p, 49), vec![(vec![0], vec![])]);
}
