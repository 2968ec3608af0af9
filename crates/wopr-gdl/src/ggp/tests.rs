use super::*;
use wopr_core::game::{State, Turn};

fn tictactoe() -> Gdl {
    let text = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../gdl/tictactoe.kif"
    ));
    Gdl::from_text("gdl/tictactoe.kif", text, 10_000).unwrap()
}

#[test]
fn reads_every_kind_of_message() {
    assert_eq!(Message::parse("(info)").unwrap(), Message::Info);
    assert_eq!(Message::parse(" INFO ").unwrap(), Message::Info);
    let text = "(START Match.7 XPlayer ((ROLE xplayer) (role oplayer)) 10 1)";
    let Message::Start {
        id,
        role,
        rules,
        start_clock,
        play_clock,
    } = Message::parse(text).unwrap()
    else {
        panic!("a start message")
    };
    assert_eq!((id.as_str(), role.as_str()), ("match.7", "xplayer"));
    // The rules are handed on as written; the sheet reader lower-cases.
    assert_eq!(rules, "(ROLE xplayer) (role oplayer)");
    assert_eq!(start_clock, Duration::from_secs(10));
    assert_eq!(play_clock, Duration::from_secs(1));
    assert_eq!(
        Message::parse("(play m nil)").unwrap(),
        Message::Play {
            id: "m".into(),
            moves: None
        }
    );
    let m = Message::parse("(stop m ((mark 1 (f)) noop))").unwrap();
    let Message::Stop {
        moves: Some(moves), ..
    } = &m
    else {
        panic!("a stop message with moves")
    };
    assert_eq!(moves[0].to_string(), "(mark 1 f)");
    assert_eq!(m.to_string(), "(stop m ((mark 1 f) noop))");
    assert_eq!(
        Message::parse("(abort m)").unwrap(),
        Message::Abort { id: "m".into() }
    );
}

#[test]
fn refuses_malformed_messages_in_one_line() {
    for (bad, says) in [
        ("", "empty"),
        ("(play m nil", "never closed"),
        ("(hello m)", "unknown message 'hello'"),
        ("(play m)", "takes 2 arguments, not 1"),
        ("(start m x ((role x)) ten 1)", "start clock"),
        ("(start m x ((role x)) 10 0)", "play clock"),
        ("(start m x role 10 1)", "rules must be a list"),
        ("(play (m) nil)", "match id must be a symbol"),
        ("(play m (?x noop))", "ground term"),
        ("(play m maybe)", "nil or a list"),
        ("(play m (((f) 1)))", "is not a move"),
        ("42", "is not a message"),
    ] {
        let e = Message::parse(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad:?} gave {e:?}");
        assert!(!e.contains('\n'), "{e:?}");
    }
}

#[test]
fn a_start_message_round_trips() {
    let m = Message::Start {
        id: "m1".into(),
        role: "oplayer".into(),
        rules: "(role xplayer) (role oplayer)".into(),
        start_clock: Duration::from_secs(10),
        play_clock: Duration::from_secs(2),
    };
    assert_eq!(Message::parse(&m.to_string()).unwrap(), m);
}

#[test]
fn a_position_follows_the_joint_moves() {
    let mut p = Position::new(tictactoe()).unwrap();
    assert_eq!(p.roles(), ["xplayer", "oplayer"]);
    assert_eq!(p.role_index("oplayer"), Some(1));
    assert_eq!(p.legal(0).len(), 9);
    assert_eq!(p.legal(1), [Term::Const("noop".into())]);
    // The state a player searches: xplayer's turn, nine moves.
    assert_eq!(p.state().turn(), Turn::Player(0));
    let mv = |t: &str| parse_move(t).unwrap();
    // A move of the wrong role, an unknown move, a wrong count: refused,
    // the position unchanged.
    assert!(p.play(&[mv("noop"), mv("noop")]).is_err());
    assert!(p.play(&[mv("(mark 4 4)"), mv("noop")]).is_err());
    assert!(p.play(&[mv("(mark 1 1)")]).is_err());
    assert_eq!(p.step(), 0);
    // x takes the first column while o plays the second.
    for (x, o) in [("1 1", "2 1"), ("1 2", "2 2"), ("1 3", "")] {
        p.play(&[mv(&format!("(MARK {x})")), mv("noop")]).unwrap();
        if !o.is_empty() {
            p.play(&[mv("noop"), mv(&format!("(mark {o})"))]).unwrap();
            assert_eq!(p.state().turn(), Turn::Player(0));
        }
    }
    assert_eq!(p.step(), 5);
    assert!(p.is_terminal());
    assert_eq!(p.goals(), [100, 0]);
}

#[test]
fn moves_are_read_as_players_write_them() {
    assert_eq!(parse_move(" NOOP ").unwrap(), Term::Const("noop".into()));
    assert_eq!(parse_move("(Mark 1 2)").unwrap().to_string(), "(mark 1 2)");
    assert!(parse_move("(mark 1").is_err());
    assert!(parse_move("?x").is_err());
    assert!(parse_move("a b").is_err());
}

#[test]
fn reads_and_writes_gdl2_messages() {
    let m = Message::parse("(PLAY m 0 NIL NIL)").unwrap();
    let seen = Seen {
        turn: 0,
        last: None,
        percepts: Vec::new(),
    };
    assert_eq!(
        m,
        Message::PlayII {
            id: "m".into(),
            seen: seen.clone()
        }
    );
    assert_eq!(m.to_string(), "(play m 0 nil nil)");
    let m = Message::parse("(stop m 3 (Deal K) ((mycard k) bell))").unwrap();
    let Message::StopII { seen, .. } = &m else {
        panic!("a GDL-II stop")
    };
    assert_eq!(seen.turn, 3);
    assert_eq!(seen.last, Some(parse_move("(deal k)").unwrap()));
    assert_eq!(seen.percepts.len(), 2);
    assert_eq!(m.to_string(), "(stop m 3 (deal k) ((mycard k) bell))");
    // No percepts after turn 0: written (), read from () or nil.
    let m = Message::parse("(play m 2 noop nil)").unwrap();
    assert_eq!(m.to_string(), "(play m 2 noop ())");
    assert_eq!(Message::parse(&m.to_string()).unwrap(), m);
}

#[test]
fn refuses_malformed_gdl2_messages_in_one_line() {
    for (bad, says) in [
        (
            "(play m 1 noop)",
            "takes 2 arguments, not 3, or 4 in GDL-II",
        ),
        ("(play m one noop ())", "turn must be a whole number"),
        ("(play m -1 noop ())", "turn must be a whole number"),
        ("(play m 0 noop nil)", "nil on turn 0"),
        ("(play m 2 nil ())", "turn 2 needs the player's last move"),
        ("(stop m 2 ?x ())", "ground term"),
        ("(play m 2 noop maybe)", "nil or a list"),
        ("(play m 2 noop (?p))", "ground term"),
        ("(play m 0 nil ((mycard k)))", "nil on turn 0"),
    ] {
        let e = Message::parse(bad).unwrap_err().to_string();
        assert!(e.contains(says), "{bad:?} gave {e:?}");
        assert!(!e.contains('\n'), "{e:?}");
    }
}

#[test]
fn a_gdl2_position_gives_each_role_its_percepts() {
    let text = include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/../../gdl/kuhn.kif"));
    let game = Gdl::from_text("gdl/kuhn.kif", text, 10_000).unwrap();
    let mut p = Position::new(game).unwrap();
    assert!(p.is_gdl2());
    assert_eq!(p.random_role(), Some(0));
    assert_eq!(p.roles(), ["random", "p1", "p2"]);
    assert!(!Position::new(tictactoe()).unwrap().is_gdl2());
    let mv = |t: &str| parse_move(t).unwrap();
    let seen = p
        .play_seen(&[mv("(deal q)"), mv("noop"), mv("noop")])
        .unwrap();
    let show = |s: &[Term]| s.iter().map(Term::to_string).collect::<Vec<_>>();
    assert_eq!(show(&seen[1]), ["(mycard q)"]);
    assert!(seen[0].is_empty() && seen[2].is_empty());
    p.play(&[mv("(deal j)"), mv("noop"), mv("noop")]).unwrap();
    let seen = p.play_seen(&[mv("noop"), mv("bet"), mv("noop")]).unwrap();
    assert!(seen[1].is_empty());
    assert_eq!(show(&seen[2]), ["(did p1 bet)"]);
    // A move that is not legal: refused, nothing seen.
    assert!(p.play_seen(&[mv("noop"), mv("bet"), mv("noop")]).is_err());
    assert_eq!(p.step(), 3);
}
