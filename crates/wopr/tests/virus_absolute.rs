//! Virus's `absolute` encoding (Naveed & Cowling's input: +1 Black, −1
//! White, whoever is to move; values are Black's) against `raw` (+1 for the
//! mover's pieces, values the mover's).

use std::sync::Arc;

use rand::RngExt;
use wopr::game::driver::play_game;
use wopr::game::encode::Encodable;
use wopr::game::oracle::Oracle;
use wopr::game::rng::stream;
use wopr::game::GameSpec;
use wopr::games::virus::players::AiPlayer;
use wopr::games::virus::Virus;
use wopr::nn::{Activation, AnyNet, Architecture, Network, SegmentKind};
use wopr::players::net::{NetMode, NetPlayer};
use wopr::players::Player;
use wopr::train::oracle::{generate, DatasetOptions};
use wopr::{Game, State};

fn virus() -> Virus {
    Virus::from_spec(&GameSpec::parse("virus").unwrap()).unwrap()
}

#[test]
fn absolute_inputs_do_not_depend_on_the_mover() {
    let game = virus();
    let abs = game.encoding("absolute").unwrap();
    let raw = game.encoding("raw").unwrap();
    assert_eq!(abs.view(), Some(0));
    assert_eq!(raw.view(), None);
    let mut s = game.initial_state();
    let (mut a, mut r) = (vec![0.0; 64], vec![0.0; 64]);
    // Black on a1 and h8 (squares 0 and 63), White on h1 and a8 (7 and 56).
    abs.encode(&s, &mut a);
    assert_eq!(
        (a[0], a[63], a[7], a[56], a[1]),
        (1.0, 1.0, -1.0, -1.0, 0.0)
    );
    let mut rng = stream(1, &[0]);
    let first = s.random_action(&mut rng);
    s.apply(first);
    // White to move: raw shows White's pieces as +1, absolute still Black's.
    abs.encode(&s, &mut a);
    raw.encode(&s, &mut r);
    assert!(a.iter().zip(&r).all(|(x, y)| *x == -*y));
    assert!(a.iter().any(|&x| x != 0.0));
}

/// A linear net without biases is odd (f(−x) = −f(x)), so valuing
/// positions for Black from absolute inputs or for the mover from raw ones
/// is the same evaluation, and the two players must replay the same games.
#[test]
fn an_odd_net_plays_the_same_through_either_encoding() {
    let game = virus();
    let mut net = AnyNet::new(
        &Architecture::Mlp {
            layers: vec![64, 1],
        },
        &[Activation::Linear],
    )
    .unwrap();
    let mut rng = stream(11, &[0]);
    let biases: Vec<_> = net
        .segments()
        .into_iter()
        .filter(|s| s.kind == SegmentKind::Biases)
        .collect();
    for p in net.params_mut() {
        *p = rng.random::<f32>() - 0.5;
    }
    for s in biases {
        net.params_mut()[s.offset..s.offset + s.len].fill(0.0);
    }
    let net = Arc::new(net);
    let game_of = |encoding: &str, net_seat: usize| {
        let mut p = NetPlayer::new(
            &game,
            net.clone(),
            game.encoding(encoding).unwrap(),
            NetMode::Greedy,
            "net".into(),
        )
        .unwrap();
        let mut ai = AiPlayer::new(10, 1).unwrap().deterministic(true);
        let mut players: [&mut dyn Player<Virus>; 2] = if net_seat == 0 {
            [&mut p, &mut ai]
        } else {
            [&mut ai, &mut p]
        };
        play_game(&game, &mut players, &mut stream(5, &[net_seat as u64]))
            .unwrap()
            .actions
    };
    for seat in 0..2 {
        let a = game_of("absolute", seat);
        assert!(a.len() > 20);
        assert_eq!(a, game_of("raw", seat), "net as seat {seat}");
    }
}

/// The `ai:K` oracle judges for the mover; with `absolute` inputs the
/// targets are Black's: the same rows up to one sign per row, flipped
/// exactly where White is to move (where the inputs flip too).
#[test]
fn absolute_datasets_hold_blacks_values() {
    let game = virus();
    let make = |encoding: &str| {
        generate(
            &game,
            &Oracle::parse("ai:10").unwrap(),
            &DatasetOptions {
                positions: 200,
                seed: 4,
                encoding: Some(encoding.into()),
                players: vec!["ai:1".into(), "ai:2".into()],
                unique: false,
                only_player: None,
            },
            &|_| {},
        )
        .unwrap()
        .data
    };
    let (abs, raw) = (make("absolute"), make("raw"));
    assert_eq!(abs.len(), raw.len());
    let mut flipped = 0;
    for i in 0..abs.len() {
        let (xa, xr) = (abs.input(i), raw.input(i));
        let sign = if xa == xr { 1.0 } else { -1.0 };
        assert!(xa.iter().zip(xr).all(|(a, r)| *a == sign * *r), "row {i}");
        assert_eq!(abs.target(i)[0], sign * raw.target(i)[0], "row {i}");
        if sign < 0.0 {
            flipped += 1;
        }
    }
    assert!(flipped > 0 && flipped < abs.len());
}
