//! GDL rule sheets of games wopr also has natively (`gdl/`) against the
//! native games: the same perft counts, the same legal moves and the same
//! returns along random games. A move of the sheet maps to a native action
//! by its arguments: Tic-Tac-Toe's `mark(c,r)` is cell `3(r−1) + c−1` (the
//! sheet's rows are numbered from either edge: lines are symmetric),
//! Connect-4's `drop(c)` column `c−1`, Kuhn poker's `deal(j|q|k)` card
//! 0/1/2 and `pass`/`bet` 0/1.

use wopr::game::perft::{count_games, perft};
use wopr::game::rng::stream;
use wopr::game::{Action, ActionList, Game, State, Turn};
use wopr::games::connect4::Connect4;
use wopr::games::gdl::game::Gdl;
use wopr::games::kuhn::KuhnPoker;
use wopr::games::tictactoe::TicTacToe;
use wopr::AnyGame;

fn sheet(name: &str) -> Gdl {
    let path = format!("{}/../../gdl/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    Gdl::from_text(&path, &text, 10_000).unwrap()
}

/// The native action of a sheet's move notation.
fn map_move(notation: &str) -> Option<Action> {
    let (name, args) = match notation.split_once('(') {
        Some((n, rest)) => (n, rest.trim_end_matches(')').split(',').collect::<Vec<_>>()),
        None => (notation, vec![]),
    };
    let num = |i: usize| args[i].parse::<Action>().unwrap();
    match name {
        "mark" => Some(3 * (num(1) - 1) + num(0) - 1),
        "drop" => Some(num(0) - 1),
        "deal" => Some(match args[0] {
            "j" => 0,
            "q" => 1,
            _ => 2,
        }),
        "pass" => Some(0),
        "bet" => Some(1),
        _ => None,
    }
}

fn legal_of<S: State>(s: &S) -> ActionList {
    let mut out = ActionList::new();
    s.legal_actions(&mut out);
    out
}

/// Plays `games` random games in both, move for move: the same turns, the
/// same legal moves (mapped), returns equal up to `scale` (gdl × scale =
/// native).
fn agree_on_random_games<G: Game>(gdl: &Gdl, nat: &G, games: u64, scale: f64) {
    let mut rng = stream(5, &[games]);
    for _ in 0..games {
        let (mut g, mut n) = (gdl.initial_state(), nat.initial_state());
        loop {
            assert_eq!(g.turn(), n.turn(), "turns differ after {:?}", g.to_string());
            if g.turn() == Turn::Terminal {
                for p in 0..2 {
                    assert_eq!(g.returns(p) * scale, n.returns(p), "returns at\n{g}");
                }
                break;
            }
            let gl = legal_of(&g);
            let mut mapped: Vec<Action> = gl
                .iter()
                .map(|&a| map_move(&g.action_to_string(a)).unwrap())
                .collect();
            mapped.sort_unstable();
            assert_eq!(mapped, legal_of(&n).to_vec(), "legal moves at\n{g}");
            let a = gl[rand::RngExt::random_range(&mut rng, 0..gl.len())];
            n.apply(map_move(&g.action_to_string(a)).unwrap());
            g.apply(a);
        }
    }
}

#[test]
fn tictactoe_perft_and_every_game_agree() {
    let gdl = sheet("tictactoe.kif");
    let nat = TicTacToe;
    let (g, n) = (gdl.initial_state(), nat.initial_state());
    for d in 1..=9 {
        assert_eq!(perft(&g, d), perft(&n, d), "depth {d}");
    }
    // 255,168 games: the known count of Tic-Tac-Toe games.
    assert_eq!(count_games(&g), 255_168);
    agree_on_random_games(&gdl, &nat, 300, 1.0);
}

#[test]
fn connect4_sheets_agree_with_the_native_boards() {
    let gdl = sheet("connect4-6x6.kif");
    let nat: Connect4 = match AnyGame::parse("connect4:6x6").unwrap() {
        AnyGame::Connect4(g) => g,
        _ => unreachable!(),
    };
    let (g, n) = (gdl.initial_state(), nat.initial_state());
    // To depth 8, as the issue asks (1,648,950 sequences; under a second).
    for d in 1..=8 {
        assert_eq!(perft(&g, d), perft(&n, d), "6x6 depth {d}");
    }
    agree_on_random_games(&gdl, &nat, 300, 1.0);
    let gdl = sheet("connect4-7x6.kif");
    let nat: Connect4 = match AnyGame::parse("connect4:7x6").unwrap() {
        AnyGame::Connect4(g) => g,
        _ => unreachable!(),
    };
    agree_on_random_games(&gdl, &nat, 100, 1.0);
}

#[test]
fn kuhn_poker_in_gdl_ii_plays_as_the_native_game() {
    let gdl = sheet("kuhn.kif");
    let nat = KuhnPoker;
    // Chance deals, then two seats (p1, p2); the goals 50 ± 25·chips give
    // returns of chips / 2.
    assert_eq!(gdl.num_players(), 2);
    let (g, n) = (gdl.initial_state(), nat.initial_state());
    for d in 1..=5 {
        assert_eq!(perft(&g, d), perft(&n, d), "depth {d}");
    }
    agree_on_random_games(&gdl, &nat, 300, 2.0);
    let mut outcomes = Vec::new();
    g.chance_outcomes(&mut outcomes);
    assert_eq!(outcomes.len(), 3);
    assert!(outcomes.iter().all(|&(_, p)| (p - 1.0 / 3.0).abs() < 1e-12));
}

#[test]
fn a_gdl_ii_sheet_shows_each_seat_only_its_percepts() {
    let path = format!("{}/../../gdl/kuhn.kif", env!("CARGO_MANIFEST_DIR"));
    let AnyGame::GdlHidden(game) = AnyGame::parse(&format!("gdl:{path}")).unwrap() else {
        panic!("a sheet with sees is a hidden-information game");
    };
    let mut s = game.initial_state();
    for a in ["deal(k)", "deal(j)", "bet"] {
        let a = s.parse_action(a).unwrap();
        s.apply(a);
    }
    // p1 saw its king dealt, p2 its jack; p2 then saw p1's bet (the sheet
    // tells a player the other's actions).
    let (v1, v2) = (s.view(0), s.view(1));
    assert_eq!(
        v1.seen,
        vec![vec!["(mycard k)".to_string()], vec![], vec![]]
    );
    assert_eq!(
        v2.seen,
        vec![
            vec![],
            vec!["(mycard j)".to_string()],
            vec!["(did p1 bet)".to_string()]
        ]
    );
    assert_eq!(v2.legal, vec!["bet".to_string(), "pass".to_string()]);
    assert!(v1.legal.is_empty());
}

/// A simultaneous turn of three roles counts every joint move: the
/// product of all three roles' choices (2 × 3 × 4 = 24 a step here), not
/// only the first two seats'.
#[test]
fn perft_counts_the_joint_moves_of_every_role() {
    let text = "(role a) (role b) (role c) (init (step 0))\n\
        (legal a x1) (legal a x2)\n\
        (legal b y1) (legal b y2) (legal b y3)\n\
        (legal c z1) (legal c z2) (legal c z3) (legal c z4)\n\
        (<= (next (step 1)) (true (step 0)))\n\
        (<= (next (step 2)) (true (step 1)))\n\
        (<= terminal (true (step 2)))\n\
        (goal a 50) (goal b 50) (goal c 50)\n";
    let g = Gdl::from_text("three.kif", text, 10_000).unwrap();
    let s = g.initial_state();
    assert_eq!(s.turn(), Turn::Simultaneous);
    assert_eq!(s.joint_seats(), 3);
    assert_eq!(perft(&s, 1), 24);
    assert_eq!(perft(&s, 2), 24 * 24);
    assert_eq!(perft(&s, 3), 0, "the game is over after two steps");
}

/// `wopr perft` on a sheet counts GDL steps (`Roster::perft`): a step
/// where the one role has a single move (`wait`) is a ply with one
/// sequence, where wopr's turn model plays it without counting; after it
/// the two choices. Tic-Tac-Toe's sheet counts as the native game does
/// (every step one role's choice and the other's `noop`).
#[test]
fn perft_of_a_sheet_counts_gdl_steps_forced_ones_included() {
    use wopr::players::Roster;
    let text = "(role a) (init (step 0))\n\
        (<= (legal a wait) (true (step 0)))\n\
        (<= (legal a left) (true (step 1)))\n\
        (<= (legal a right) (true (step 1)))\n\
        (<= (next (step 1)) (true (step 0)))\n\
        (<= (next (step 2)) (true (step 1)))\n\
        (<= terminal (true (step 2)))\n\
        (goal a 100)\n";
    let g = Gdl::from_text("forced.kif", text, 10_000).unwrap();
    let s = g.initial_state();
    assert_eq!((g.perft(&s, 1), g.perft(&s, 2), g.perft(&s, 3)), (1, 2, 0));
    // wopr's turn model skips the forced step: 2 sequences at one ply.
    assert_eq!(perft(&s, 1), 2);
    let sheet = Gdl::from_text(
        "tictactoe.kif",
        &std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../gdl/tictactoe.kif"
        ))
        .unwrap(),
        10_000,
    )
    .unwrap();
    let start = sheet.initial_state();
    // 9, 9·8, 9·8·7 and 9·8·7·6: no line ends before the fifth ply.
    for (d, want) in [(1, 9), (2, 72), (3, 504), (4, 3024)] {
        assert_eq!(sheet.perft(&start, d), want, "depth {d}");
    }
}

/// A role may have more possible moves than one position's move list
/// holds (`MAX_ACTIONS`, 512): the sheet loads, GDL perft counts every
/// legal move, and where more than 512 are legal at once wopr's players
/// are offered the 512 of lowest action (the module docs, "Move lists").
/// Here one role picks one of 700 numbers, then one of the 10 below 10.
#[test]
fn a_role_may_have_more_moves_than_a_move_list_holds() {
    use wopr::game::MAX_ACTIONS;
    use wopr::players::Roster;
    let mut text = String::from(
        "(role a) (init (step 0))\n\
         (<= (legal a (pick ?n)) (true (step 0)) (num ?n))\n\
         (<= (legal a (pick ?n)) (true (step 1)) (small ?n))\n\
         (<= (next (step 1)) (true (step 0)))\n\
         (<= (next (step 2)) (true (step 1)))\n\
         (<= terminal (true (step 2)))\n\
         (goal a 100)\n",
    );
    for n in 0..700 {
        text.push_str(&format!("(num {n})\n"));
    }
    for n in 0..10 {
        text.push_str(&format!("(small {n})\n"));
    }
    let g = Gdl::from_text("many.kif", &text, 10_000).unwrap();
    let s = g.initial_state();
    // 700 first steps, each followed by 10: 7,000 two-step lines.
    assert_eq!((g.perft(&s, 1), g.perft(&s, 2)), (700, 7_000));
    let first = legal_of(&s);
    assert_eq!(first.len(), MAX_ACTIONS);
    // The lowest actions, in order, each a legal move that plays.
    assert!(first.windows(2).all(|w| w[0] < w[1]));
    let mut next = s.clone();
    next.apply(first[MAX_ACTIONS - 1]);
    assert_eq!(legal_of(&next).len(), 10);
}
