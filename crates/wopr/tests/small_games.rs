//! The three small games that prove the framework carries chance (Pig),
//! hidden information (Kuhn poker) and simultaneous moves (Goofspiel): rules
//! checked by hand tables, scripted lines, perft, slow references over random
//! games, and matches through the one match runner.

use rand::RngExt;
use wopr::eval::matches::play_match;
use wopr::game::driver::replay;
use wopr::game::perft::perft;
use wopr::game::rng::stream;
use wopr::game::{Action, ActionList, Game, GameSpec, State, Turn};
use wopr::games::goofspiel::{Goofspiel, GoofspielState};
use wopr::games::kuhn::{KuhnPoker, KuhnState, BET, PASS};
use wopr::games::pig::{die, Pig, PigState, HOLD, ROLL};
use wopr::registry::AnyGame;
use wopr::Roster;

fn legal(s: &impl State) -> Vec<Action> {
    let mut out = ActionList::new();
    s.legal_actions(&mut out);
    out.to_vec()
}

/// `random` against `first` (both seatings) runs every game to the end with
/// zero-sum returns, within the promised length.
fn random_vs_first<G: Roster>(game: &G) {
    let records = play_match(game, "random", "first", 40, 3, &|| {}).unwrap();
    assert_eq!(records.len(), 40);
    for r in &records {
        let ret = r.returns.as_ref().expect("finished");
        assert_eq!(ret[0] + ret[1], 0.0, "{r:?}");
        assert!(r.actions.len() <= game.max_game_length());
        // The record replays to a terminal state with the same returns.
        let end = replay(game, &r.actions).unwrap();
        assert!(end.is_terminal());
        assert_eq!(end.returns(0), ret[0]);
    }
}

// ---------------------------------------------------------------- Kuhn poker

fn kuhn_play(actions: &[Action]) -> KuhnState {
    let mut s = KuhnPoker.initial_state();
    for &a in actions {
        s.try_apply(a).unwrap();
    }
    s
}

#[test]
fn kuhn_every_deal_and_betting_line_pays_as_the_hand_table_says() {
    // Returns of seat 0 by deal (seat 0's card, seat 1's card) and betting
    // line, worked out from the rules: pass-pass is a showdown for the antes
    // (±1); bet-pass and pass-bet-pass are folds (the bettor wins the ante);
    // bet-bet and pass-bet-bet are showdowns for ante plus bet (±2).
    let lines: [&[Action]; 5] = [
        &[PASS, PASS],
        &[BET, PASS],
        &[BET, BET],
        &[PASS, BET, PASS],
        &[PASS, BET, BET],
    ];
    #[rustfmt::skip]
    let table: [(&str, [f64; 5]); 6] = [
        //       pp    bp    bb   pbp   pbb
        ("JQ", [-1.0, 1.0, -2.0, -1.0, -2.0]),
        ("JK", [-1.0, 1.0, -2.0, -1.0, -2.0]),
        ("QJ", [ 1.0, 1.0,  2.0, -1.0,  2.0]),
        ("QK", [-1.0, 1.0, -2.0, -1.0, -2.0]),
        ("KJ", [ 1.0, 1.0,  2.0, -1.0,  2.0]),
        ("KQ", [ 1.0, 1.0,  2.0, -1.0,  2.0]),
    ];
    let card = |c: char| "JQK".find(c).unwrap() as Action;
    let mut checked = 0;
    for (deal, expected) in table {
        let mut cs = deal.chars();
        let (c0, c1) = (card(cs.next().unwrap()), card(cs.next().unwrap()));
        for (line, &want) in lines.iter().zip(&expected) {
            let mut actions = vec![c0, c1];
            actions.extend_from_slice(line);
            let s = kuhn_play(&actions);
            assert!(s.is_terminal(), "{deal} {line:?}");
            assert_eq!(s.returns(0), want, "{deal} {line:?}");
            assert_eq!(s.returns(1), -want, "{deal} {line:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 30);

    // And the table is the whole game: walking every chance outcome and
    // every action reaches exactly these 30 terminal histories.
    fn walk(s: &KuhnState, leaves: &mut usize) {
        if s.is_terminal() {
            *leaves += 1;
            return;
        }
        if s.turn() == Turn::Chance {
            let mut outcomes = Vec::new();
            s.chance_outcomes(&mut outcomes);
            let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
            assert!((total - 1.0).abs() < 1e-12);
        }
        for a in legal(s) {
            let mut c = *s;
            c.apply(a);
            walk(&c, leaves);
        }
    }
    let mut leaves = 0;
    walk(&KuhnPoker.initial_state(), &mut leaves);
    assert_eq!(leaves, 30);
}

#[test]
fn kuhn_views_hide_the_opponents_card() {
    let names = ['J', 'Q', 'K'];
    let lines: [&[Action]; 4] = [&[], &[PASS], &[BET], &[PASS, BET]];
    for c0 in 0..3u16 {
        for c1 in (0..3u16).filter(|&c| c != c0) {
            for line in lines {
                let mut actions = vec![c0, c1];
                actions.extend_from_slice(line);
                let s = kuhn_play(&actions);
                for (seat, own, other) in [(0, c0, c1), (1, c1, c0)] {
                    let v = s.view(seat);
                    let shown = format!("{v}");
                    let debug = format!("{v:?}");
                    assert!(shown.contains(names[own as usize]), "{shown}");
                    assert!(!shown.contains(names[other as usize]), "{shown}");
                    assert!(!debug.contains(&format!("Card({other})")), "{debug}");
                    // The third card could have gone to the opponent instead:
                    // the view must be the same.
                    let third = 3 - c0 - c1;
                    let mut alt = actions.clone();
                    alt[1 - seat] = third;
                    let alt_state = kuhn_play(&alt);
                    assert_eq!(alt_state.view(seat), v);
                }
            }
        }
    }
    // Before the deal, a view shows no card.
    let s = KuhnPoker.initial_state();
    assert_eq!(s.view(0).card, None);
    assert_eq!(s.turn(), Turn::Chance);
}

#[test]
fn kuhn_notation_perft_and_matches() {
    let s = KuhnPoker.initial_state();
    assert_eq!(s.action_to_string(2), "deal:K");
    assert_eq!(s.parse_action("Deal:q").unwrap(), 1);
    let s = kuhn_play(&[0, 2]);
    assert_eq!(s.action_to_string(PASS), "pass");
    assert_eq!(s.action_to_string(BET), "bet");
    assert_eq!(s.parse_action("BET").unwrap(), BET);
    assert_eq!(s.parse_action("#0").unwrap(), PASS);
    assert!(s.parse_action("raise").unwrap_err().contains("pass, bet"));
    // 3 first cards, 3·2 deals, then pass|bet twice (all four two-action lines
    // exist), and only pass-bet has a third action.
    let counts: Vec<u64> = (1..=6)
        .map(|d| perft(&KuhnPoker.initial_state(), d))
        .collect();
    assert_eq!(counts, vec![3, 6, 12, 24, 12, 0]);
    assert_eq!(AnyGame::parse("kuhn").unwrap().spec(), "kuhn");
    assert!(AnyGame::parse("kuhn:3").is_err());
    random_vs_first(&KuhnPoker);
}

// ---------------------------------------------------------------- Pig

fn pig(spec: &str) -> Pig {
    Pig::from_spec(&GameSpec::parse(spec).unwrap()).unwrap()
}

#[test]
fn pig_scripted_turns() {
    let g = pig("pig");
    let mut s = g.initial_state();
    assert_eq!(s.turn(), Turn::Player(0));
    assert_eq!(legal(&s), vec![ROLL, HOLD]);
    s.apply(ROLL);
    assert_eq!(s.turn(), Turn::Chance);
    let mut outcomes = Vec::new();
    s.chance_outcomes(&mut outcomes);
    assert_eq!(
        outcomes.iter().map(|&(a, _)| a).collect::<Vec<_>>(),
        (2..=7).collect::<Vec<_>>()
    );
    let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
    assert!((total - 1.0).abs() < 1e-12);
    assert!(outcomes.iter().all(|&(_, p)| (p - 1.0 / 6.0).abs() < 1e-15));
    assert_eq!(legal(&s), (2..=7).collect::<Vec<_>>());
    s.apply(die(4));
    assert_eq!((s.turn(), s.turn_total()), (Turn::Player(0), 4));
    s.apply(ROLL);
    s.apply(die(1));
    // A 1 loses the turn total and passes the turn; nothing was banked.
    assert_eq!(s.turn(), Turn::Player(1));
    assert_eq!((s.banked(0), s.turn_total()), (0, 0));
    s.apply(ROLL);
    s.apply(die(5));
    s.apply(ROLL);
    s.apply(die(3));
    s.apply(HOLD);
    // Holding banks 5 + 3 and passes the turn.
    assert_eq!(s.turn(), Turn::Player(0));
    assert_eq!((s.banked(1), s.turn_total()), (8, 0));
    assert_eq!(s.score(1), Some(8));
    assert_eq!(s.score(0), Some(-8));
    assert_eq!(s.returns(0), 0.0);
}

#[test]
fn pig_reaching_the_target_ends_the_game() {
    let g = pig("pig:target=10");
    let mut s = g.initial_state();
    for a in [ROLL, die(6), ROLL] {
        s.apply(a);
    }
    assert_eq!(s.turn(), Turn::Chance);
    s.apply(die(4));
    // 6 + 4 reaches 10: banked at once, seat 0 wins.
    assert!(s.is_terminal());
    assert_eq!(s.banked(0), 10);
    assert_eq!((s.returns(0), s.returns(1)), (1.0, -1.0));
    assert!(legal(&s).is_empty());

    // The horizon: two holds end a two-turn game in a draw.
    let g = pig("pig:target=10,horizon=2");
    let mut s = g.initial_state();
    s.apply(HOLD);
    assert!(!s.is_terminal());
    s.apply(HOLD);
    assert!(s.is_terminal());
    assert_eq!((s.returns(0), s.returns(1)), (0.0, 0.0));
}

#[test]
fn pig_notation_spec_and_matches() {
    let s = pig("pig").initial_state();
    for a in 0..8 {
        assert_eq!(s.parse_action(&s.action_to_string(a)).unwrap(), a);
        assert_eq!(s.parse_action(&format!("#{a}")).unwrap(), a);
    }
    assert_eq!(s.parse_action(" HOLD ").unwrap(), HOLD);
    assert_eq!(s.parse_action("Die:6").unwrap(), 7);
    assert!(s.parse_action("die:7").unwrap_err().contains("roll, hold"));
    assert_eq!(
        AnyGame::parse("pig").unwrap().spec(),
        "pig:target=30,horizon=1000"
    );
    assert!(AnyGame::parse("pig:target=5")
        .unwrap_err()
        .0
        .contains("10..=1000"));
    assert!(AnyGame::parse("pig:goal=50").is_err());
    // A turn has at most ⌈30/2⌉ = 15 rolls of 2..6 (two actions each) plus a
    // closing hold or roll-and-1: 32 actions, times 1000 turns.
    assert_eq!(pig("pig").max_game_length(), 32_000);
    random_vs_first(&pig("pig"));
    random_vs_first(&pig("pig:target=100"));
}

/// The reference: Pig straight from the rules, with plain integers.
#[derive(Debug)]
struct PigRef {
    target: u32,
    horizon: u32,
    banked: [u32; 2],
    total: u32,
    player: usize,
    rolling: bool,
    turns: u32,
    winner: Option<usize>,
}

#[test]
fn pig_random_games_match_the_reference() {
    for (k, spec) in ["pig:target=10", "pig", "pig:target=20,horizon=7"]
        .iter()
        .enumerate()
    {
        let g = pig(spec);
        for i in 0..300u64 {
            let mut rng = stream(21, &[k as u64, i]);
            let mut s: PigState = g.initial_state();
            let mut r = PigRef {
                target: g.target(),
                horizon: g.horizon(),
                banked: [0, 0],
                total: 0,
                player: 0,
                rolling: false,
                turns: 0,
                winner: None,
            };
            let mut n = 0;
            loop {
                let over = r.winner.is_some() || r.turns == r.horizon;
                assert_eq!(s.is_terminal(), over, "{r:?}");
                for p in 0..2 {
                    assert_eq!(s.banked(p), r.banked[p]);
                    let want = match r.winner {
                        Some(w) if w == p => 1.0,
                        Some(_) => -1.0,
                        None => 0.0,
                    };
                    assert_eq!(s.returns(p), want);
                }
                if over {
                    break;
                }
                assert_eq!(s.turn_total(), r.total);
                n += 1;
                if r.rolling {
                    assert_eq!(s.turn(), Turn::Chance);
                    let face = rng.random_range(1..=6u32);
                    s.apply(die(face as u16));
                    r.rolling = false;
                    if face == 1 {
                        r.total = 0;
                        r.player = 1 - r.player;
                        r.turns += 1;
                    } else {
                        r.total += face;
                        if r.banked[r.player] + r.total >= r.target {
                            r.banked[r.player] += r.total;
                            r.winner = Some(r.player);
                            r.turns += 1;
                        }
                    }
                } else {
                    assert_eq!(s.turn(), Turn::Player(r.player));
                    // Roll more often than hold, so turns build up totals.
                    if rng.random_range(0..4) > 0 {
                        s.apply(ROLL);
                        r.rolling = true;
                    } else {
                        s.apply(HOLD);
                        r.banked[r.player] += r.total;
                        r.total = 0;
                        r.player = 1 - r.player;
                        r.turns += 1;
                    }
                }
            }
            assert!(n <= g.max_game_length());
        }
    }
}

// ---------------------------------------------------------------- Goofspiel

fn goof(cards: usize) -> Goofspiel {
    Goofspiel::new(cards).unwrap()
}

fn bids(s: &GoofspielState, seat: usize) -> Vec<Action> {
    let mut out = ActionList::new();
    s.legal_actions_of(seat, &mut out);
    out.to_vec()
}

#[test]
fn goofspiel_scripted_rounds() {
    let g = goof(3);
    let mut s = g.initial_state();
    assert_eq!(s.turn(), Turn::Chance);
    assert_eq!(legal(&s), vec![0, 1, 2]);
    let mut outcomes = Vec::new();
    s.chance_outcomes(&mut outcomes);
    assert!((outcomes.iter().map(|&(_, p)| p).sum::<f64>() - 1.0).abs() < 1e-12);
    // Round 1: prize 2; bids 3 against 1: seat 0 takes 2 points.
    s.apply(s.parse_action("prize:2").unwrap());
    assert_eq!(s.turn(), Turn::Simultaneous);
    assert!(legal(&s).is_empty());
    assert_eq!(bids(&s, 0), vec![0, 1, 2]);
    s.apply_joint(&[2, 0]);
    assert_eq!((s.points(0), s.points(1)), (2, 0));
    // Bid cards are gone: seat 0 holds 1 and 2, seat 1 holds 2 and 3. Outside
    // a bidding turn nobody has legal actions of their own.
    assert_eq!((s.hand(0), s.hand(1)), (0b011, 0b110));
    assert!(bids(&s, 0).is_empty());
    // Round 2: prize 3; both bid 2: tie, the prize is discarded.
    s.apply(s.parse_action("prize:3").unwrap());
    s.apply_joint(&[1, 1]);
    assert_eq!((s.points(0), s.points(1)), (2, 0));
    // Round 3: the last prize, 1, must come up; bids 1 against 3.
    outcomes.clear();
    s.chance_outcomes(&mut outcomes);
    assert_eq!(outcomes, vec![(0, 1.0)]);
    s.apply(0);
    s.apply_joint(&[0, 2]);
    // Seat 0: 2 points, seat 1: 1 point.
    assert!(s.is_terminal());
    assert_eq!((s.points(0), s.points(1)), (2, 1));
    assert_eq!((s.score(0), s.score(1)), (Some(1), Some(-1)));
    assert_eq!((s.returns(0), s.returns(1)), (1.0, -1.0));
    assert!(bids(&s, 0).is_empty());
}

#[test]
fn goofspiel_perft_notation_and_matches() {
    // cards=2: chance turns up one of 2 prizes (2); both bid one of 2 cards
    // (2·2 = 4 joint actions, 8); the last prize is forced (8); the last bids
    // are forced (8); then the game is over (0).
    let s = goof(2).initial_state();
    let counts: Vec<u64> = (1..=5).map(|d| perft(&s, d)).collect();
    assert_eq!(counts, vec![2, 8, 8, 8, 0]);

    let g = goof(5);
    let s = g.initial_state();
    for a in 0..5 {
        assert_eq!(s.action_to_string(a), format!("prize:{}", a + 1));
        assert_eq!(s.parse_action(&s.action_to_string(a)).unwrap(), a);
    }
    let mut t = s;
    t.apply(4);
    for a in 0..5 {
        assert_eq!(t.action_to_string(a), format!("{}", a + 1));
        assert_eq!(t.parse_action(&t.action_to_string(a)).unwrap(), a);
    }
    assert_eq!(t.parse_action("#4").unwrap(), 4);
    assert!(t.parse_action("6").unwrap_err().contains("a card 1..5"));
    assert!(t.parse_action("#5").is_err());
    assert_eq!(
        AnyGame::parse("goofspiel").unwrap().spec(),
        "goofspiel:cards=5"
    );
    assert!(AnyGame::parse("goofspiel:cards=14").is_err());
    assert_eq!(g.num_actions(), 5);
    assert_eq!(g.max_game_length(), 15);

    let records = play_match(&g, "random", "random", 50, 9, &|| {}).unwrap();
    for r in &records {
        let ret = r.returns.as_ref().unwrap();
        assert_eq!(ret[0] + ret[1], 0.0);
        // Every game has 5 prizes and 5 pairs of bids.
        assert_eq!(r.actions.len(), 15);
        assert_eq!(r.moves.len(), 10);
    }
    random_vs_first(&g);
    random_vs_first(&goof(13));
}

#[test]
fn goofspiel_random_games_match_the_reference() {
    for cards in [1, 2, 5, 13] {
        let g = goof(cards);
        for i in 0..300u64 {
            let mut rng = stream(31, &[cards as u64, i]);
            let mut s = g.initial_state();
            // The reference: hands and prize deck as vectors of card values.
            let mut hands: [Vec<u32>; 2] =
                [(1..=cards as u32).collect(), (1..=cards as u32).collect()];
            let mut deck: Vec<u32> = (1..=cards as u32).collect();
            let mut points = [0u32; 2];
            for _round in 0..cards {
                assert_eq!(s.turn(), Turn::Chance);
                let want: Vec<Action> = deck.iter().map(|&v| (v - 1) as Action).collect();
                assert_eq!(legal(&s), want);
                let prize = deck.remove(rng.random_range(0..deck.len()));
                s.apply((prize - 1) as Action);
                assert_eq!(s.turn(), Turn::Simultaneous);
                let mut joint = [0; 2];
                let mut bid = [0u32; 2];
                for p in 0..2 {
                    let want: Vec<Action> = hands[p].iter().map(|&v| (v - 1) as Action).collect();
                    assert_eq!(bids(&s, p), want);
                    bid[p] = hands[p].remove(rng.random_range(0..hands[p].len()));
                    joint[p] = (bid[p] - 1) as Action;
                }
                s.apply_joint(&joint);
                if bid[0] > bid[1] {
                    points[0] += prize;
                } else if bid[1] > bid[0] {
                    points[1] += prize;
                }
                assert_eq!([s.points(0), s.points(1)], points);
                assert_eq!(s.score(0), Some(points[0] as i32 - points[1] as i32));
            }
            assert!(s.is_terminal());
            let want = match points[0].cmp(&points[1]) {
                std::cmp::Ordering::Greater => 1.0,
                std::cmp::Ordering::Less => -1.0,
                std::cmp::Ordering::Equal => 0.0,
            };
            assert_eq!(s.returns(0), want);
            assert_eq!(s.returns(0), -s.returns(1));
        }
    }
}
