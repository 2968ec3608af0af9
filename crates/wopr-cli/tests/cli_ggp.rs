//! `wopr ggp` (issue 46, part 3): GGP players over HTTP answer the match
//! protocol, refuse malformed messages with a 4xx and one line, and play
//! whole matches under `wopr ggp match` on the vendored two-player sheets,
//! every move inside a 1-s play clock; the manager replaces the moves of a
//! player that is late, illegal or gone.

mod cli_common;
mod ggp_common;

use std::io::{Read, Write};
use std::net::TcpListener;
use std::time::Duration;

use cli_common::wopr;
use ggp_common::{post, run_match, sheet, Player};
use serde_json::Value;

/// Every move of the record was the player's own, answered inside the
/// play clock; the game finished; the goals are GDL's.
fn assert_clean(rec: &Value, what: &str) -> usize {
    assert_eq!(rec["finished"], true, "{what}: {rec}");
    assert_eq!(rec["replaced"], 0, "{what}: {rec}");
    for p in rec["players"].as_array().unwrap() {
        assert_eq!(p["start"], "ready", "{what}: {p}");
    }
    let steps = rec["steps"].as_array().unwrap();
    assert!(!steps.is_empty(), "{what}");
    for s in steps {
        for m in s["moves"].as_array().unwrap() {
            assert_eq!(m["status"], "ok", "{what}: {m}");
            assert_eq!(m["answer"], m["move"], "{what}: {m}");
            assert!(m["ms"].as_u64().unwrap() < 1000, "{what}: {m}");
        }
    }
    for g in rec["goals"].as_object().unwrap().values() {
        assert!(g.as_u64().unwrap() <= 100, "{what}: {g}");
    }
    steps.len()
}

#[test]
fn info_and_malformed_messages_get_answers_and_4xx() {
    let p = Player::start(&[]);
    let a = p.addr();
    assert_eq!(
        post(a, "(INFO)"),
        (200, "((name wopr) (status available))".into())
    );
    let rules = std::fs::read_to_string(sheet("gdl/tictactoe.kif")).unwrap();
    for (body, status, says) in [
        ("", 400, "empty message"),
        ("(play m1", 400, "never closed"),
        ("(dance m1)", 400, "unknown message 'dance'"),
        ("(play m1)", 400, "takes 2 arguments"),
        ("(start m1 xplayer ((role x)) 10 zero)", 400, "play clock"),
        ("(play nosuch nil)", 404, "no match 'nosuch'"),
        ("(stop nosuch nil)", 404, "no match"),
        ("(abort nosuch)", 404, "no match"),
        ("(start m1 x ((role x) (<= (legal x go)) 10 1)", 400, ""),
        ("(start m1 x ((role x) (bogus ?y)) 10 1)", 400, "bad rules"),
        (
            &format!("(start m1 nobody ({rules}) 10 1)"),
            400,
            "not a role of the sheet (its roles: xplayer oplayer)",
        ),
    ] {
        let (code, text) = post(a, body);
        assert_eq!(code, status, "{body:.60}: {text}");
        assert!(text.contains(says), "{body:.60}: {text}");
        assert_eq!(text.lines().count(), 1, "{body:.60}: {text}");
    }
    // A match: started once, its moves checked against the rules.
    let start = format!("(start m1 oplayer ({rules}) 10 1)");
    assert_eq!(post(a, &start), (200, "ready".into()));
    assert_eq!(post(a, &start).0, 409);
    assert_eq!(post(a, "(info)").1, "((name wopr) (status busy))");
    // oplayer's only move on the first step is noop, answered at once.
    assert_eq!(post(a, "(play m1 nil)"), (200, "noop".into()));
    let (code, text) = post(a, "(play m1 ((mark 9 9) noop))");
    assert_eq!(code, 400, "{text}");
    assert!(text.contains("(mark 9 9) is not a legal move of xplayer"));
    // After x's move, o chooses among the eight blanks.
    let (code, text) = post(a, "(play m1 ((mark 2 2) noop))");
    assert_eq!(code, 200);
    assert!(text.starts_with("(mark ") && text != "(mark 2 2)", "{text}");
    // nil is for the first step only.
    let (code, text) = post(a, "(play m1 nil)");
    assert_eq!(code, 400, "{text}");
    assert!(text.contains("nil moves at step 1"), "{text}");
    assert_eq!(post(a, "(abort m1)"), (200, "aborted".into()));
    assert_eq!(post(a, "(play m1 nil)").0, 404);
    assert_eq!(
        post(a, "(info)"),
        (200, "((name wopr) (status available))".into())
    );
}

#[test]
fn two_wopr_players_play_tictactoe_twice_within_the_clock() {
    // The default player: MCTS with its time budget set from the clock.
    let x = Player::start(&[]);
    let o = Player::start(&["--player", "mcts:sims=500"]);
    for id in ["first", "second"] {
        let rec = run_match(
            &sheet("gdl/tictactoe.kif"),
            &[&x.url, &o.url],
            &["--id", id, "--play-clock", "1"],
        );
        assert_eq!(rec["match"], id);
        let steps = assert_clean(&rec, id);
        // Tic-Tac-Toe ends after 5 to 9 marks, one a step.
        assert!((5..=9).contains(&steps), "{steps}");
        assert_eq!(rec["stop"], serde_json::json!(["done", "done"]));
        // Both players searching: at least a draw for the first mover.
        assert!(rec["goals"]["xplayer"].as_u64().unwrap() >= 50, "{rec}");
    }
}

#[test]
fn matches_complete_on_the_vendored_two_player_sheets() {
    let a = Player::start(&["--player", "mcts:sims=200"]);
    let b = Player::start(&["--player", "random"]);
    for s in [
        "gdl/connect4-6x6.kif",
        "gdl/connect4-7x6.kif",
        "gdl/nim.kif",
        "gdl/ggp-base/ticTacToe.kif",
        "gdl/ggp-base/chomp.kif",
        "gdl/ggp-base/nim1.kif",
        "gdl/ggp-base/blocker.kif",
        "gdl/ggp-base/gt_prisoner.kif",
        "gdl/ggp-base/roshambo2.kif",
    ] {
        let rec = run_match(&sheet(s), &[&a.url, &b.url], &["--id", "m"]);
        assert_clean(&rec, s);
    }
}

/// A GGP player that is ready, then late on its first move and illegal on
/// every later one.
fn bad_player() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        let mut plays = 0;
        for conn in listener.incoming() {
            let Ok(mut s) = conn else { return };
            let mut head = Vec::new();
            let mut byte = [0u8; 1];
            while !head.ends_with(b"\r\n\r\n") && s.read(&mut byte).unwrap_or(0) == 1 {
                head.push(byte[0]);
            }
            let head = String::from_utf8_lossy(&head).to_lowercase();
            let len: usize = head
                .lines()
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0);
            let mut body = vec![0u8; len];
            let _ = s.read_exact(&mut body);
            let body = String::from_utf8_lossy(&body).to_lowercase();
            let answer = if body.starts_with("(start") {
                "ready"
            } else if body.starts_with("(play") {
                plays += 1;
                if plays == 1 {
                    std::thread::sleep(Duration::from_millis(1200));
                    "(mark 1 1)"
                } else {
                    "(mark 9 9)"
                }
            } else {
                "done"
            };
            let _ = write!(
                s,
                "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
                answer.len()
            );
        }
    });
    format!("http://{addr}/")
}

#[test]
fn late_illegal_and_missing_players_get_legal_moves_chosen() {
    let gone = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/", l.local_addr().unwrap())
    };
    let rec = run_match(
        &sheet("gdl/tictactoe.kif"),
        &[&bad_player(), &gone],
        &["--grace-ms", "500"],
    );
    assert_eq!(rec["finished"], true, "{rec}");
    let mut statuses = Vec::new();
    for s in rec["steps"].as_array().unwrap() {
        for m in s["moves"].as_array().unwrap() {
            statuses.push(m["status"].as_str().unwrap().to_string());
            if m["status"] != "ok" {
                assert!(m["why"].as_str().is_some_and(|w| !w.is_empty()), "{m}");
                assert!(m["move"].is_string(), "{m}");
            }
        }
    }
    assert_eq!(statuses[0], "late", "{rec}");
    assert!(statuses.iter().any(|s| s == "illegal"), "{statuses:?}");
    assert!(statuses.iter().all(|s| s != "ok"), "{statuses:?}");
    assert_eq!(rec["replaced"].as_u64().unwrap() as usize, statuses.len());
    assert!(rec["players"][1]["start"]
        .as_str()
        .unwrap()
        .contains("cannot connect"));
}

#[test]
fn a_bad_player_spec_stops_the_server_before_it_listens() {
    let out = wopr(&["ggp", "--port", "0", "--player", "mctz"]);
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("bad --player") && err.contains("mctz"),
        "{err}"
    );
}

#[test]
fn bad_match_arguments_are_one_line_errors() {
    let ttt = sheet("gdl/tictactoe.kif");
    for (args, says) in [
        (
            vec![ttt.as_str(), "127.0.0.1:1"],
            "2 roles (xplayer oplayer)",
        ),
        (
            vec![ttt.as_str(), "ftp://a/", "127.0.0.1:1"],
            "only http://",
        ),
        (vec!["no/such.kif", "a:1", "b:1"], "cannot read"),
        (vec![ttt.as_str(), "a:1", "b:1", "--id", "(x)"], "bad --id"),
    ] {
        let mut all = vec!["ggp", "match"];
        all.extend(args);
        let out = wopr(&all);
        assert!(!out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(err.contains(says), "{err}");
    }
}
