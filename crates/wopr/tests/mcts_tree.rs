//! The MCTS search seen from its tree: the solver's proofs (on
//! Tic-Tac-Toe positions analysed by hand), tree reuse, determinism, the
//! spec keys and PUCT. (The node's size is a compile-time assertion in wopr-core.)

use wopr::game::rng::stream;
use wopr::game::{ActionList, Game, GameSpec, Player, State};
use wopr::games::connect4::Connect4;
use wopr::games::tictactoe::{TicTacToe, TicTacToeState};
use wopr::players::mcts::{
    parse_config, parse_config_for, Fpu, Leaf, MctsConfig, MctsPlayer, Proven, RootChild, Select,
    DEFAULT_C, DEFAULT_PUCT_C,
};
use wopr::players::{parse_player, PlayerSpec};

fn ttt(moves: &[&str]) -> TicTacToeState {
    let mut s = TicTacToe.initial_state();
    for m in moves {
        let a = s.parse_action(m).unwrap();
        s.try_apply(a).unwrap();
    }
    s
}

fn legal<S: State>(s: &S) -> ActionList {
    let mut l = ActionList::new();
    s.legal_actions(&mut l);
    l
}

fn player(config: MctsConfig) -> MctsPlayer<TicTacToe> {
    MctsPlayer::new(&TicTacToe, config, Leaf::Random).unwrap()
}

fn sims(n: u32) -> MctsConfig {
    MctsConfig {
        sims: n,
        ..MctsConfig::default()
    }
}

fn child(p: &MctsPlayer<TicTacToe>, s: &TicTacToeState, square: &str) -> RootChild {
    let a = s.parse_action(square).unwrap();
    p.root_children()
        .into_iter()
        .find(|c| c.action == a)
        .unwrap()
}

/// X: a1 b1, O: a2 b2; X to move. c1 completes a1-b1-c1 at once (mate in
/// 1). The root's children are proven as the root is expanded, before
/// any iteration, so the move is decided with no iteration at all.
#[test]
fn solver_plays_a_mate_in_one_at_once() {
    let s = ttt(&["a1", "a2", "b1", "b2"]);
    for seed in 0..20 {
        let mut p = player(sims(10_000));
        let a = p.search(&s, &mut stream(seed, &[]));
        assert_eq!(a, s.parse_action("c1").unwrap());
        assert_eq!(child(&p, &s, "c1").proven, Some(Proven::Win));
        assert_eq!(p.root_visits(), 0, "the expansion alone proves the root");
    }
    // Without the solver every iteration runs.
    let mut p = player(MctsConfig {
        solve: false,
        ..sims(300)
    });
    assert_eq!(
        p.search(&s, &mut stream(0, &[])),
        s.parse_action("c1").unwrap()
    );
    assert_eq!(p.root_visits(), 300);
    assert_eq!(child(&p, &s, "c1").proven, None);
}

/// X: a1 b2, O: c3 b1 (X a1, O c3, X b2, O b1); X to move, no immediate
/// win for either side. a2 threatens a3 (column a) and c2 (row 2); a3
/// threatens a2 and c1 (diagonal a3-b2-c1): each is a fork, a win in 3
/// plies whatever O blocks (O's block makes at most a threat of its own,
/// and X moves first). The solver proves one of them and stops
/// well before 10,000 iterations.
#[test]
fn solver_proves_a_mate_in_three() {
    let s = ttt(&["a1", "c3", "b2", "b1"]);
    let forks = [s.parse_action("a2").unwrap(), s.parse_action("a3").unwrap()];
    for seed in 0..10 {
        let mut p = player(sims(10_000));
        let a = p.search(&s, &mut stream(seed, &[]));
        assert!(forks.contains(&a), "seed {seed}: played {a}");
        let c = p
            .root_children()
            .into_iter()
            .find(|c| c.action == a)
            .unwrap();
        assert_eq!(c.proven, Some(Proven::Win), "seed {seed}");
        assert!(p.root_visits() < 2_000, "{} iterations", p.root_visits());
    }
}

/// X: a1 c3, O: b2; O to move. A corner (a3 or c1) loses: X blocks at the
/// other corner, making two threats (X a1 c1: b1; X c1 c3: c2); an edge
/// draws. The tree is small enough to be proven whole: corners lost, edges
/// drawn, an edge played.
#[test]
fn solver_never_plays_a_lost_move_when_a_draw_exists() {
    let s = ttt(&["a1", "b2", "c3"]);
    for seed in 0..5 {
        let mut p = player(sims(50_000));
        let a = p.search(&s, &mut stream(seed, &[]));
        for corner in ["a3", "c1"] {
            assert_eq!(child(&p, &s, corner).proven, Some(Proven::Loss));
            assert_ne!(a, s.parse_action(corner).unwrap());
        }
        for edge in ["b1", "a2", "c2", "b3"] {
            assert_eq!(child(&p, &s, edge).proven, Some(Proven::Draw), "{edge}");
        }
        assert!(p.root_visits() < 50_000, "stopped once all were proven");
    }
}

/// After a move and the opponent's reply, the kept root is the grandchild
/// reached, with its visits; the next search adds `sims` to them.
#[test]
fn a_kept_tree_is_rooted_at_the_position_reached() {
    let game = Connect4::new(7, 6).unwrap();
    let mut p = MctsPlayer::new(&game, sims(3_000), Leaf::Random).unwrap();
    let s0 = game.initial_state();
    let mut rng = stream(3, &[]);
    let a = p.choose(&s0, &legal(&s0), &mut rng);
    // The reply the tree looked at most, and its visits.
    let root = p.tree()[0];
    let mine = p.tree()[root.children()]
        .iter()
        .find(|n| n.action() == a)
        .copied()
        .unwrap();
    let reply = *p.tree()[mine.children()]
        .iter()
        .max_by_key(|n| n.visits())
        .unwrap();
    assert!(reply.visits() > 10);
    let mut s2 = s0;
    s2.apply(a);
    s2.apply(reply.action());
    assert!(p.reroot(&s2));
    assert_eq!(p.root_visits(), reply.visits());
    assert_eq!(p.tree()[0].player(), 1 - mine.player());
    let kept: u32 = p.root_children().iter().map(|c| c.visits).sum();
    assert_eq!(
        kept + 1,
        reply.visits(),
        "its children's visits, plus its own first"
    );
    // The next move searches on from there.
    let mut q = MctsPlayer::new(&game, sims(3_000), Leaf::Random).unwrap();
    let _ = q.choose(&s0, &legal(&s0), &mut stream(3, &[]));
    let _ = q.choose(&s2, &legal(&s2), &mut rng);
    assert_eq!(q.root_visits(), reply.visits() + 3_000);
    // A position beyond the reach of the search (6 plies) starts afresh;
    // so does a new game.
    let mut far = s2;
    for col in ["1", "1", "1", "2", "2", "3"] {
        far.apply(far.parse_action(col).unwrap());
    }
    assert!(!q.reroot(&far));
    assert_eq!(q.tree_size(), 0);
    q.new_game();
    assert_eq!(q.root_visits(), 0);
}

/// The same calls with the same seeds give the same moves, tree kept or
/// not; a kept tree changes the later moves.
#[test]
fn a_game_replays_by_seed() {
    let game = Connect4::new(6, 5).unwrap();
    let play = |config: MctsConfig| {
        let mut p = MctsPlayer::new(&game, config, Leaf::Random).unwrap();
        p.new_game();
        let mut s = game.initial_state();
        let mut moves = Vec::new();
        for ply in 0..12u64 {
            if s.turn() == wopr::game::Turn::Terminal {
                break;
            }
            let a = p.choose(&s, &legal(&s), &mut stream(7, &[ply]));
            moves.push(a);
            s.apply(a);
        }
        moves
    };
    let kept = sims(400);
    let fresh = MctsConfig {
        reuse: false,
        ..kept
    };
    assert_eq!(play(kept), play(kept));
    assert_eq!(play(fresh), play(fresh));
}

#[test]
fn spec_keys_parse_print_and_round_trip() {
    let parse = |text: &str| PlayerSpec::parse(&TicTacToe, text);
    for text in [
        "mcts:sims=50,c=0.5,solve=off",
        "mcts:sims=50,c=0.5,reuse=off",
        "mcts:sims=50,c=2,ms=20,solve=off,reuse=off",
        "mcts:sims=50,c=1,select=uct,solve=on,reuse=on",
    ] {
        let spec = parse(text).unwrap();
        let printed = spec.to_string();
        assert_eq!(parse(&printed).unwrap(), spec, "{text} -> {printed}");
    }
    assert_eq!(
        parse("mcts:sims=50,c=0.5,Solve=OFF,reuse=off")
            .unwrap()
            .to_string(),
        "mcts:sims=50,c=0.5,solve=off,reuse=off"
    );
    let p = parse_player(&TicTacToe, "mcts:sims=7,c=0.5,reuse=off").unwrap();
    assert_eq!(p.spec(), "mcts:sims=7,c=0.5,reuse=off");
    let (config, _) = parse_config(&GameSpec::parse("mcts").unwrap()).unwrap();
    assert!(config.solve && config.reuse && config.select == Select::Uct);
    assert_eq!(config.c, DEFAULT_C);
    let (config, _) = parse_config_for(&GameSpec::parse("mcts:sims=9").unwrap(), 0.25).unwrap();
    assert_eq!(config.c, 0.25, "the game's own constant");
    for (text, want) in [
        ("mcts:solve=maybe", "accepted: solve=on, solve=off"),
        ("mcts:reuse=1", "accepted: reuse=on, reuse=off"),
        ("mcts:select=best", "accepted: select=uct, select=puct"),
        ("mcts:select=puct", "select=puct needs rollout=net:FILE"),
        ("mcts:sims=5,depth=2", "select=…, solve=…, reuse=…"),
    ] {
        let err = parse(text).unwrap_err().to_string();
        assert!(err.contains(want), "{text}: {err}");
        assert!(!err.contains('\n'));
    }
}

/// PUCT over a value function that knows nothing (0 everywhere) still
/// takes a mate in one and blocks one: finished children value exactly,
/// and the solver proves them.
#[test]
fn puct_over_a_flat_value_finds_wins_and_blocks() {
    let config = MctsConfig {
        select: Select::Puct,
        c: DEFAULT_PUCT_C,
        ..sims(400)
    };
    let flat = || Leaf::Value {
        value: Box::new(|_: &TicTacToeState| 0.0),
        spec: "net:flat".into(),
    };
    let s = ttt(&["a1", "a2", "b1", "b2"]);
    let t = ttt(&["a1", "b1", "c3", "b2"]);
    for solve in [true, false] {
        let config = MctsConfig { solve, ..config };
        let mut p = MctsPlayer::new(&TicTacToe, config, flat()).unwrap();
        assert_eq!(
            p.search(&s, &mut stream(0, &[])),
            s.parse_action("c1").unwrap()
        );
        assert_eq!(
            p.search(&t, &mut stream(0, &[])),
            t.parse_action("b3").unwrap()
        );
        assert_eq!(p.prior_count(), p.tree_size());
    }
    let p = MctsPlayer::new(&TicTacToe, config, flat()).unwrap();
    assert_eq!(p.spec(), "mcts:sims=400,c=1,rollout=net:flat,select=puct");
    assert!(MctsPlayer::new(&TicTacToe, config, Leaf::Random).is_err());
}

/// A search given a cell posts its best move while it thinks, so a
/// caller past its deadline has one before the search returns, and posts
/// the move it returns at the end.
#[test]
fn the_best_move_so_far_is_posted_during_the_search() {
    let game = Connect4::new(7, 6).unwrap();
    let config = MctsConfig {
        sims: 10_000_000,
        time: Some(std::time::Duration::from_millis(1500)),
        ..MctsConfig::default()
    };
    let mut p = MctsPlayer::new(&game, config, Leaf::Random).unwrap();
    let cell = wopr::game::BestSoFar::new();
    assert_eq!(cell.get(), None);
    p.share_best(cell.clone());
    let s = game.initial_state();
    let acts = legal(&s);
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let finished = done.clone();
    let thinking = std::thread::spawn(move || {
        let a = p.choose(&s, &acts, &mut stream(3, &[]));
        finished.store(true, std::sync::atomic::Ordering::SeqCst);
        a
    });
    // The first post comes after the first iteration, long before the
    // 1.5-s budget runs out.
    let mut seen = None;
    for _ in 0..1000 {
        seen = cell.get();
        if seen.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let during = !done.load(std::sync::atomic::Ordering::SeqCst);
    assert!(seen.is_some_and(|a| a < 7) && during, "{seen:?} {during}");
    let chosen = thinking.join().unwrap();
    assert_eq!(cell.get(), Some(chosen));
}

/// First-play urgency under PUCT over a policy-value net. Here every
/// position is worth +0.9 to its player to move (reward 0.95) and the
/// priors are flat, and `c` = 0, so a child is chosen by its `Q` alone
/// (the lowest action among equals). The first child tried from the empty
/// board is worth 1 − 0.95 = 0.05 to X. With `fpu=even` an untried child
/// counts ½, above that, so every one of the nine is tried before any is
/// tried twice: 20 iterations reach all nine. With `fpu=mean` an untried
/// child counts the mean of the tried ones, which is the first child's own
/// `Q`, a tie that the lowest action (the first child) always wins: one
/// child gets every visit.
#[test]
fn first_play_urgency_even_tries_every_child_and_mean_keeps_to_the_tried_one() {
    let visited = |fpu: Fpu| {
        let config = MctsConfig {
            sims: 20,
            c: 0.0,
            select: Select::Puct,
            reuse: false,
            fpu,
            ..MctsConfig::default()
        };
        let leaf = Leaf::PolicyValue {
            eval: Box::new(|_: &TicTacToeState, legal: &[u16], priors: &mut Vec<f32>| {
                priors.clear();
                priors.resize(legal.len(), 1.0 / legal.len() as f32);
                0.9
            }),
            spec: "net:flat".into(),
        };
        let mut p = MctsPlayer::new(&TicTacToe, config, leaf).unwrap();
        let s = ttt(&[]);
        p.choose(&s, &legal(&s), &mut stream(1, &[0]));
        let kids = p.root_children();
        assert_eq!(kids.len(), 9);
        kids.iter().filter(|k| k.visits > 0).count()
    };
    assert_eq!(visited(Fpu::Even), 9);
    assert_eq!(visited(Fpu::Mean), 1);
    // The key parses, prints and is refused with what is accepted.
    let spec = PlayerSpec::parse(&TicTacToe, "mcts:sims=5,fpu=mean").unwrap();
    assert!(spec.to_string().contains("fpu=mean"), "{spec}");
    let err = parse_player(&TicTacToe, "mcts:fpu=parent")
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("accepted: fpu=even, fpu=mean"), "{err}");
}
