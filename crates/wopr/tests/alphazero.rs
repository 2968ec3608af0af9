//! AlphaZero (issue 70): the policy-value net as a player (its policy
//! alone, and the priors of PUCT), self-play learning that is the same on
//! any thread count and after a resume, and that learns.

use std::path::PathBuf;

use wopr::eval::exhaustive;
use wopr::experiment::learn::{LearnProgress, Row};
use wopr::experiment::{run, RunConfig};
use wopr::game::rng::stream;
use wopr::game::{Game, State};
use wopr::games::tictactoe::TicTacToe;
use wopr::nn::{Activation, AnyNet, Architecture, Heads, NetFile, Network, SegmentKind};
use wopr::players::parse_player;
use wopr::train::alphazero::{AzLearner, AzOptions, SearchOptions};

struct Quiet;

impl LearnProgress for Quiet {
    fn start(&mut self, _: &str, _: u64, _: u64) {}
    fn tick(&mut self, _: u64) {}
    fn yardsticks(&mut self, _: u64, _: &[Row]) {}
    fn finish(&mut self) {}
}

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(name: &str) -> TempDir {
    let d = std::env::temp_dir().join(format!("wopr-az-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    TempDir(d)
}

/// A Tic-Tac-Toe policy-value net whose every output is its bias: logit
/// `favoured` high, the others 0, value 0. Saved to `dir`.
fn biased_net(dir: &std::path::Path, favoured: usize) -> String {
    let mut net = AnyNet::new(
        &Architecture::Mlp {
            layers: vec![9, 10],
        },
        &[Activation::Linear],
    )
    .unwrap();
    let bias = net
        .segments()
        .into_iter()
        .find(|s| s.kind == SegmentKind::Biases)
        .unwrap();
    net.params_mut()[bias.offset + favoured] = 5.0;
    let mut file = NetFile::new(net);
    file.game = Some("tictactoe".into());
    file.heads = Heads::PolicyValue;
    let path = dir.join(format!("pv{favoured}.json"));
    file.save(&path).unwrap();
    path.display().to_string()
}

/// The first move of `spec` from the empty board.
fn first_move(spec: &str) -> u16 {
    let game = TicTacToe;
    let mut player = parse_player(&game, spec).unwrap();
    let s = game.initial_state();
    let mut legal = wopr::game::ActionList::new();
    s.legal_actions(&mut legal);
    player.choose(&s, &legal, &mut stream(1, &[0]))
}

#[test]
fn the_policy_alone_and_puct_priors_come_from_the_policy_head() {
    let dir = temp_dir("heads");
    for favoured in [2, 7] {
        let path = biased_net(&dir.0, favoured);
        // The policy alone plays its highest legal logit.
        assert_eq!(first_move(&format!("net:{path},ply=1")), favoured as u16);
        // One PUCT iteration visits the child of the highest prior (every
        // child's value is unknown, 0), which is then the most visited;
        // with flat priors the lowest action would be played.
        assert_eq!(
            first_move(&format!("mcts:sims=1,select=puct,rollout=net:{path}")),
            favoured as u16
        );
    }
    // Modes that read one value are refused with a line naming the modes.
    let path = biased_net(&dir.0, 0);
    let err = parse_player(&TicTacToe, &format!("net:{path},mode=greedy"))
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("not a mode of a policy-value net"), "{err}");
}

fn options(lockstep: usize) -> AzOptions {
    AzOptions {
        search: SearchOptions {
            sims: 12,
            c: 1.5,
            dirichlet_alpha: 1.0,
            noise: 0.25,
            temp_plies: 4,
            random_plies: 0,
            decisive_moves: false,
        },
        games: 10,
        lockstep,
        window: 100,
        steps: 5,
        batch: 16,
        learning_rate: 0.05,
        momentum: 0.9,
        l2: 1e-4,
        seed: 11,
    }
}

#[test]
fn the_same_rounds_on_any_thread_count_and_any_lockstep() {
    let learn = |threads: usize, lockstep: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| {
                let mut l =
                    AzLearner::new(TicTacToe, "raw", &[16], Activation::Relu, options(lockstep))
                        .unwrap();
                for r in 0..2 {
                    l.round(r).unwrap();
                }
                l.net().params().to_vec()
            })
    };
    let one = learn(1, 1);
    assert_eq!(one, learn(2, 4));
    assert_eq!(one, learn(2, 10));
    // And the rounds changed the net.
    let fresh = AzLearner::new(TicTacToe, "raw", &[16], Activation::Relu, options(1)).unwrap();
    assert_ne!(one, fresh.net().params());
}

fn config(rounds: u64) -> RunConfig {
    let text = format!(
        r#"
game = "tictactoe"
seed = 5
[learner]
kind = "alphazero"
hidden = [16]
sims = 10
games = 8
lockstep = 3
window = 30
steps = 4
batch = 16
[stop]
rounds = {rounds}
[yardsticks]
every = 2
against = ["random"]
games = 10
"#
    );
    RunConfig::parse(&text, "test", &[], None).unwrap()
}

#[test]
fn a_resumed_run_ends_where_a_straight_run_ends() {
    let straight = temp_dir("straight");
    run(config(4), &straight.0, &mut Quiet).unwrap();
    let stopped = temp_dir("stopped");
    run(config(2), &stopped.0, &mut Quiet).unwrap();
    // The same folder with a later stop goes on from its checkpoint.
    run(config(4), &stopped.0, &mut Quiet).unwrap();
    let net = |d: &TempDir| NetFile::load(d.0.join("champion.json")).unwrap();
    let (a, b) = (net(&straight), net(&stopped));
    assert_eq!(a.net.params(), b.net.params());
    assert_eq!(a.heads, Heads::PolicyValue);
    let log = |d: &TempDir| std::fs::read_to_string(d.0.join("learning.csv")).unwrap();
    assert_eq!(log(&straight), log(&stopped));
}

/// A short run learns: its policy alone loses fewer of the exhaustive
/// count's games (every line an opponent can play, both seats; the
/// thesis's §4.3 measure) than the net it started from.
#[test]
fn self_play_teaches_the_policy_tic_tac_toe() {
    let losses = |file: NetFile| {
        let game = TicTacToe;
        let mut total = 0;
        for seat in 0..2 {
            let mut p =
                wopr::players::net::NetPlayer::from_file(&game, file.clone(), "net").unwrap();
            total += exhaustive(&game, &mut p, seat, &mut stream(3, &[seat as u64]))
                .results
                .losses;
        }
        total
    };
    let mut o = options(16);
    o.games = 32;
    o.search.sims = 25;
    o.steps = 40;
    o.batch = 64;
    o.window = 500;
    let mut l = AzLearner::new(TicTacToe, "raw", &[32, 32], Activation::Relu, o).unwrap();
    let before = losses(l.net_file(None));
    for r in 0..8 {
        l.round(r).unwrap();
    }
    let after = losses(l.net_file(None));
    assert!(
        after * 2 < before,
        "exhaustive losses {before} before learning, {after} after"
    );
}

#[test]
fn a_policy_value_file_reads_back_its_heads_and_refuses_a_bounded_last_layer() {
    let dir = temp_dir("file");
    let path = biased_net(&dir.0, 4);
    let file = NetFile::load(&path).unwrap();
    assert_eq!(file.heads, Heads::PolicyValue);
    assert_eq!(NetFile::from_json(&file.to_json()).unwrap(), file);
    // A plain file leaves the field out, and reads back plain.
    let mut plain = file.clone();
    plain.heads = Heads::Plain;
    assert!(!plain.to_json().contains("heads"));
    // The value goes through tanh when read: the last layer must be linear.
    let text = file.to_json().replace("\"linear\"", "\"tanh\"");
    let err = NetFile::from_json(&text).unwrap_err().to_string();
    assert!(err.contains("linear last layer"), "{err}");
}

#[test]
fn random_openings_start_the_games_and_their_targets_fit_the_positions_after_them() {
    use wopr::game::encode::Encodable;
    use wopr::train::alphazero::selfplay;
    let game = TicTacToe;
    let mut o = options(4);
    o.search.random_plies = 3;
    let search = o.search;
    let l = AzLearner::new(TicTacToe, "raw", &[16], Activation::Relu, o).unwrap();
    let encoding = game.encoding("raw").unwrap();
    let rngs = |n: u64| (0..n).map(|i| stream(5, &[i])).collect::<Vec<_>>();
    let played = selfplay::play(&game, l.net(), &encoding, &search, rngs(40)).unwrap();
    // k is uniform on 0..=3 for each of 40 games: every length turns up
    // (the chance that one of the four is missing is under 4 · (3/4)^40).
    let mut lengths: Vec<usize> = played.iter().map(|p| p.opening.len()).collect();
    lengths.sort_unstable();
    lengths.dedup();
    assert_eq!(lengths, [0, 1, 2, 3]);
    let mut legal = wopr::game::ActionList::new();
    for p in &played {
        let mut s = game.initial_state();
        for &a in &p.opening {
            s.apply(a);
        }
        assert_eq!(p.targets.len(), p.actions.len());
        for (k, &a) in p.actions.iter().enumerate() {
            legal.clear();
            s.legal_actions(&mut legal);
            // A target per legal move of the position after the opening
            // and the searched moves before it, summing to 1.
            assert_eq!(p.targets[k].len(), legal.len());
            assert!((p.targets[k].iter().sum::<f32>() - 1.0).abs() < 1e-5);
            s.apply(a);
        }
        assert!(s.is_terminal());
    }
    // Games in lockstep 4 and played one at a time are the same games.
    let alone: Vec<_> = rngs(40)
        .into_iter()
        .flat_map(|r| selfplay::play(&game, l.net(), &encoding, &search, vec![r]).unwrap())
        .collect();
    assert_eq!(played, alone);
}

/// With `decisive_moves`, every simulation of a position with a win in
/// one goes to the first winning move, so its target is that move alone
/// and the game ends there; without, on the same games, the visits of
/// some such position go elsewhere too (the untrained net's priors and
/// values spread them), which is what the option is for.
#[test]
fn decisive_moves_take_every_win_in_one() {
    use wopr::game::encode::Encodable;
    use wopr::train::alphazero::selfplay;
    let game = TicTacToe;
    let mut o = options(8);
    o.search.random_plies = 4;
    let base = o.search;
    let l = AzLearner::new(TicTacToe, "raw", &[16], Activation::Relu, o).unwrap();
    let encoding = game.encoding("raw").unwrap();
    let rngs = || (0..60u64).map(|i| stream(6, &[i])).collect::<Vec<_>>();
    // The share of each searched position's target on its wins in one,
    // where it has any, and whether the move played was one.
    let shares = |decisive: bool| {
        let mut search = base;
        search.decisive_moves = decisive;
        let played = selfplay::play(&game, l.net(), &encoding, &search, rngs()).unwrap();
        let mut out = Vec::new();
        let mut legal = wopr::game::ActionList::new();
        for p in &played {
            let mut s = game.initial_state();
            for &a in &p.opening {
                s.apply(a);
            }
            for (k, &a) in p.actions.iter().enumerate() {
                legal.clear();
                s.legal_actions(&mut legal);
                let wopr::game::Turn::Player(me) = s.turn() else {
                    unreachable!()
                };
                let wins: Vec<bool> = legal
                    .iter()
                    .map(|&m| {
                        let mut c = s;
                        c.apply(m);
                        c.is_terminal() && c.returns(me) > 0.0
                    })
                    .collect();
                if wins.iter().any(|&w| w) && legal.len() > 1 {
                    let share: f32 = p.targets[k]
                        .iter()
                        .zip(&wins)
                        .filter(|(_, &w)| w)
                        .map(|(t, _)| t)
                        .sum();
                    let took = wins[legal.iter().position(|&m| m == a).unwrap()];
                    out.push((share, took));
                }
                s.apply(a);
            }
        }
        out
    };
    let on = shares(true);
    assert!(on.len() >= 10, "positions with a win in one: {}", on.len());
    assert!(
        on.iter().all(|&(share, took)| share == 1.0 && took),
        "{on:?}"
    );
    let off = shares(false);
    assert!(off.iter().any(|&(share, _)| share < 1.0), "{off:?}");
}

/// One run over three ranks (threads standing in for MPI processes, each
/// running the whole program with its own `InProcess` handle) writes the
/// single process's folder byte for byte, the games of each round shared
/// out between the ranks; a run begun on three ranks and resumed on two
/// ends where the straight run ends. The games start from random openings,
/// so the ranks also exchange the openings.
#[test]
fn ranks_share_the_self_play_games_and_give_the_single_process_run() {
    use std::rc::Rc;
    use wopr::dist::{install, InProcess};
    let config = |rounds: u64| {
        let mut c = config(rounds);
        let RunConfig::Alphazero(az) = &mut c else {
            panic!("an alphazero config")
        };
        az.learner.random_plies = 3;
        c
    };
    let on_ranks = |ranks: usize, rounds: u64, dir: &std::path::Path| {
        let handles: Vec<_> = InProcess::ranks(ranks)
            .into_iter()
            .map(|comm| {
                let (dir, config) = (dir.to_path_buf(), config(rounds));
                std::thread::spawn(move || {
                    install(Some(Rc::new(comm)));
                    run(config, &dir, &mut Quiet).unwrap();
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    };
    let files = |d: &TempDir| {
        [
            "champion.json",
            "net.json",
            "state.json",
            "learning.csv",
            "yardsticks.csv",
        ]
        .map(|f| (f, std::fs::read_to_string(d.0.join(f)).unwrap()))
    };
    let single = temp_dir("ranks-single");
    run(config(4), &single.0, &mut Quiet).unwrap();
    let three = temp_dir("ranks-three");
    on_ranks(3, 4, &three.0);
    for ((name, a), (_, b)) in files(&single).iter().zip(files(&three)) {
        assert!(*a == b, "{name} differs between 1 process and 3 ranks");
    }
    // The openings travelled between the ranks: some game of the window
    // has one.
    let state = &files(&single)[2].1;
    let (all, empty) = (
        state.matches("\"opening\":").count(),
        state.matches("\"opening\":[]").count(),
    );
    assert!(empty < all, "{empty} of {all} openings empty");
    let mixed = temp_dir("ranks-mixed");
    on_ranks(3, 2, &mixed.0);
    on_ranks(2, 4, &mixed.0);
    let (a, b) = (files(&single), files(&mixed));
    assert_eq!(a[0], b[0], "the champion after a resume on 2 ranks");
    assert_eq!(a[3], b[3], "learning.csv after a resume on 2 ranks");
}
