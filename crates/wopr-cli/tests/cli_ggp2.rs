//! `wopr ggp` on GDL-II sheets (issue 46, part 3): the manager plays
//! `random` itself and sends each player GDL-II's `(play ID TURN LASTMOVE
//! PERCEPTS)`, its own last move and percepts only; two wopr players play
//! whole matches of Kuhn poker and Monty Hall inside a 1-s clock, the
//! record keeps each player's percepts, and a proxy between manager and
//! player checks that no player is ever told another role's move.
//! Malformed or inconsistent GDL-II messages get a 4xx and one line.

mod cli_common;
mod ggp_common;

use std::io::Write;
use std::net::TcpListener;
use std::sync::{Arc, Mutex};

use cli_common::wopr;
use ggp_common::{post, run_match, sheet, Player};
use serde_json::Value;
use wopr::games::gdl::ggp::{Message, Seen};

/// Monty Hall in GDL-II, written for these tests (the library's belief
/// tests hold the same sheet).
const MONTY: &str = r#"
; Monty Hall in GDL-II, written for wopr's tests: random hides a car
; behind one of three doors, the candidate picks a door, random opens
; another door with a goat behind it (the candidate sees which), and the
; candidate keeps its door or switches to the last closed one.
(role random) (role candidate)
(door 1) (door 2) (door 3)
(succ 1 2) (succ 2 3) (succ 3 4) (succ 4 5)
(init (round 1))
(<= (legal random (hide ?d)) (true (round 1)) (door ?d))
(<= (legal random (open ?d)) (true (round 3)) (door ?d)
    (not (true (car ?d))) (not (true (picked ?d))))
(<= (legal random wait) (true (round 2)))
(<= (legal random wait) (true (round 4)))
(<= (legal candidate (pick ?d)) (true (round 2)) (door ?d))
(<= (legal candidate switch) (true (round 4)))
(<= (legal candidate stay) (true (round 4)))
(<= (legal candidate wait) (true (round 1)))
(<= (legal candidate wait) (true (round 3)))
(<= (next (round ?n)) (true (round ?m)) (succ ?m ?n))
(<= (next (car ?d)) (does random (hide ?d)))
(<= (next (car ?d)) (true (car ?d)))
(<= (next (picked ?d)) (does candidate (pick ?d)))
(<= (next (picked ?d)) (true (picked ?d)) (not (does candidate switch)))
(<= (next (picked ?d)) (does candidate switch) (door ?d)
    (not (true (picked ?d))) (not (true (opened ?d))))
(<= (next (opened ?d)) (does random (open ?d)))
(<= (next (opened ?d)) (true (opened ?d)))
(<= (sees candidate (opened ?d)) (does random (open ?d)))
(<= won (true (picked ?d)) (true (car ?d)))
(<= terminal (true (round 5)))
(<= (goal candidate 100) won)
(<= (goal candidate 0) (not won))
"#;

/// A proxy in front of the player at `to`: every message it passes on is
/// kept (lower case), and the player's answer handed back.
fn spy(to: String) -> (String, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(mut s) = conn else { return };
            let body = ggp_common::read_request(&mut s);
            log.lock().unwrap().push(body.to_lowercase());
            let (code, answer) = post(&to, &body);
            let _ = write!(
                s,
                "HTTP/1.1 {code} X\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
                answer.len()
            );
        }
    });
    (addr, seen)
}

/// The record is a finished GDL-II match whose every move was the
/// player's own, inside the clock, with its percepts; the messages each
/// player got (`logs`, seat order) carried its own moves and percepts
/// turn by turn and nothing else, and never named `random`'s moves.
fn check(rec: &Value, logs: &[Vec<String>], what: &str) {
    assert_eq!(rec["protocol"], "gdl-ii", "{what}: {rec}");
    assert_eq!(rec["finished"], true, "{what}: {rec}");
    assert_eq!(rec["replaced"], 0, "{what}: {rec}");
    let steps = rec["steps"].as_array().unwrap();
    let mut randoms = Vec::new();
    for s in steps {
        // random's choices (its constant moves, noop and the like, are
        // every role's).
        if let Some(m) = s["random"].as_str().filter(|m| m.starts_with('(')) {
            randoms.push(m.to_string());
        }
        for m in s["moves"].as_array().unwrap() {
            assert_eq!(m["status"], "ok", "{what}: {m}");
            assert_eq!(m["answer"], m["move"], "{what}: {m}");
            assert!(m["ms"].as_u64().unwrap() < 1000, "{what}: {m}");
            assert!(m["sees"].is_array(), "{what}: {m}");
        }
    }
    assert!(!randoms.is_empty(), "{what}: random moved");
    for (seat, log) in logs.iter().enumerate() {
        let mut turn = 0;
        for text in log {
            let (seen, stop) = match Message::parse(text).unwrap() {
                Message::Start { .. } => continue,
                Message::PlayII { seen, .. } => (seen, false),
                Message::StopII { seen, .. } => (seen, true),
                other => panic!("{what}: seat {seat} was sent {other}"),
            };
            assert_eq!(seen.turn, turn, "{what}: {text}");
            let want = if turn == 0 {
                Seen {
                    turn: 0,
                    last: None,
                    percepts: Vec::new(),
                }
            } else {
                let m = &steps[turn as usize - 1]["moves"][seat];
                let mut ps: Vec<String> = m["sees"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p.as_str().unwrap().to_string())
                    .collect();
                let mut got: Vec<String> = seen.percepts.iter().map(|p| p.to_string()).collect();
                ps.sort();
                got.sort();
                assert_eq!(got, ps, "{what}: {text}");
                assert_eq!(
                    seen.last.as_ref().map(|m| m.to_string()).as_deref(),
                    m["move"].as_str(),
                    "{what}: {text}"
                );
                seen.clone()
            };
            // The turn, the player's own last move, its percepts: nothing
            // of another role's.
            assert_eq!(seen, want, "{what}: {text}");
            for r in &randoms {
                assert!(!text.contains(r.as_str()), "{what}: {text} names {r}");
            }
            turn += 1;
            if stop {
                assert_eq!(turn as usize, steps.len() + 1, "{what}");
            }
        }
        assert_eq!(turn as usize, steps.len() + 1, "{what}: seat {seat}");
    }
}

#[test]
fn two_wopr_players_play_kuhn_poker_seeing_only_their_percepts() {
    let a = Player::start(&[]);
    let b = Player::start(&["--player", "random"]);
    let kuhn = sheet("gdl/kuhn.kif");
    for (id, seed) in [("k1", "1"), ("k2", "2"), ("k3", "3")] {
        let (pa, la) = spy(a.addr().to_string());
        let (pb, lb) = spy(b.addr().to_string());
        let rec = run_match(
            &kuhn,
            &[&pa, &pb],
            &["--id", id, "--seed", seed, "--play-clock", "1"],
        );
        let logs = [la.lock().unwrap().clone(), lb.lock().unwrap().clone()];
        check(&rec, &logs, id);
        // Two deals, then two or three bets; zero-sum goals.
        let steps = rec["steps"].as_array().unwrap().len();
        assert!((4..=5).contains(&steps), "{id}: {rec}");
        let (g1, g2) = (&rec["goals"]["p1"], &rec["goals"]["p2"]);
        assert_eq!(g1.as_u64().unwrap() + g2.as_u64().unwrap(), 100, "{rec}");
        assert!(rec["goals"].get("random").is_none(), "{rec}");
        // Each player saw its own card on its deal, and not the other's.
        let card = |seat: usize, step: usize| rec["steps"][step]["moves"][seat]["sees"].clone();
        let dealt = |step: usize| {
            let d = rec["steps"][step]["random"].as_str().unwrap().to_string();
            d.replace("(deal ", "(mycard ")
        };
        assert_eq!(card(0, 0), serde_json::json!([dealt(0)]), "{rec}");
        assert_eq!(card(1, 1), serde_json::json!([dealt(1)]), "{rec}");
        assert_eq!(card(1, 0), serde_json::json!([]), "{rec}");
        assert_eq!(card(0, 1), serde_json::json!([]), "{rec}");
        assert_eq!(rec["stop"], serde_json::json!(["done", "done"]));
    }
}

#[test]
fn the_default_player_switches_doors_in_monty_hall() {
    let dir = std::env::temp_dir().join(format!("wopr-ggp2-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("monty.kif");
    std::fs::write(&path, MONTY).unwrap();
    let p = Player::start(&[]);
    for seed in ["1", "2"] {
        let (pp, log) = spy(p.addr().to_string());
        let rec = run_match(
            path.to_str().unwrap(),
            &[&pp],
            &["--id", "monty", "--seed", seed, "--play-clock", "1"],
        );
        let logs = [log.lock().unwrap().clone()];
        check(&rec, &logs, seed);
        assert_eq!(rec["steps"][3]["moves"][0]["move"], "switch", "{rec}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn malformed_and_inconsistent_gdl2_messages_get_4xx() {
    let p = Player::start(&[]);
    let a = p.addr();
    let rules = std::fs::read_to_string(sheet("gdl/kuhn.kif")).unwrap();
    let (code, text) = post(a, &format!("(start r random ({rules}) 10 1)"));
    assert_eq!(code, 400, "{text}");
    assert!(text.contains("chance role"), "{text}");
    assert_eq!(
        post(a, &format!("(start k p1 ({rules}) 10 1)")),
        (200, "ready".into())
    );
    let ttt = std::fs::read_to_string(sheet("gdl/tictactoe.kif")).unwrap();
    assert_eq!(
        post(a, &format!("(start t xplayer ({ttt}) 10 1)")),
        (200, "ready".into())
    );
    let steps = [
        ("(play k nil)", 400, "played with GDL-II's messages"),
        ("(play t 0 nil nil)", 400, "is a GDL match"),
        (
            "(play k 1 noop)",
            400,
            "takes 2 arguments, not 3, or 4 in GDL-II",
        ),
        ("(play k one nil nil)", 400, "turn must be a whole number"),
        ("(play k 1 nil ())", 400, "needs the player's last move"),
        ("(play k 0 noop nil)", 400, "nil on turn 0"),
        ("(play k 0 nil nil)", 200, "noop"),
        ("(play k 0 nil nil)", 200, "noop"),
        ("(play k 2 noop ())", 400, "does not follow turn 0"),
        ("(play k 1 (fly 1) ((mycard k)))", 400, "never a move of p1"),
        (
            "(play k 1 noop ((mycard ace)))",
            400,
            "never a percept of p1",
        ),
        // p1 must see its card when it is dealt.
        ("(play k 1 noop ())", 400, "contradict"),
        ("(play k 1 noop ((mycard k)))", 200, "noop"),
        ("(play nosuch 1 noop ())", 404, "no match"),
    ];
    for (body, status, says) in steps {
        let (code, text) = post(a, body);
        assert_eq!(code, status, "{body}: {text}");
        assert!(text.contains(says), "{body}: {text}");
        assert_eq!(text.lines().count(), 1, "{body}: {text}");
    }
    // After p2's deal, p1 bets or passes, within the clock.
    let (code, text) = post(a, "(play k 2 noop ())");
    assert_eq!(code, 200, "{text}");
    assert!(text == "bet" || text == "pass", "{text}");
    assert_eq!(
        post(a, "(stop k 3 bet ((did p2 bet)))"),
        (200, "done".into())
    );
    assert_eq!(post(a, "(play k 3 bet ())").0, 404);
    assert_eq!(post(a, "(abort t)"), (200, "aborted".into()));
}

#[test]
fn a_gdl2_match_takes_one_url_per_role_but_random() {
    let out = wopr(&["ggp", "match", &sheet("gdl/kuhn.kif"), "127.0.0.1:1"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("2 roles (p1 p2) besides random, which the manager plays"),
        "{err}"
    );
}
