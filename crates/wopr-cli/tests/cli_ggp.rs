//! `wopr ggp` (issue 46, part 3): GGP players over HTTP answer the match
//! protocol, refuse malformed messages with a 4xx and one line, and play
//! whole matches under `wopr ggp match` on the vendored two-player sheets,
//! every move inside a 1-s play clock; the manager replaces the moves of a
//! player that is late, illegal or gone.

mod cli_common;
mod ggp_common;

use std::io::Write;
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
            let body = ggp_common::read_request(&mut s).to_lowercase();
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

/// A manager that sends garbage, bytes that are not UTF-8, truncated
/// S-expressions, unknown match ids, a play before its start, a body over
/// the limit or bytes that are not HTTP gets a 4xx with one line, and the
/// match under way goes on.
#[test]
fn a_misbehaving_manager_gets_errors_and_other_matches_go_on() {
    let p = Player::start(&["--player", "random"]);
    let a = p.addr();
    let rules = std::fs::read_to_string(sheet("gdl/tictactoe.kif")).unwrap();
    assert_eq!(
        post(a, &format!("(start m1 oplayer ({rules}) 10 1)")),
        (200, "ready".into())
    );
    let huge = vec![b'('; 9 << 20];
    for (body, status, says) in [
        (
            &b"\x00\xff\xfe garbage"[..],
            400,
            "not UTF-8 text (byte 1 of",
        ),
        (b"(play m1 ((mark 1 1) noop", 400, "never closed"),
        (b"(play m1 ((mark", 400, "never closed"),
        (b")))", 400, "bad message"),
        (b"(play m2 nil)", 404, "no match 'm2'"),
        (
            b"(start m3 xplayer ((role xplayer) (init (cell",
            400,
            "never closed",
        ),
        (&huge[..], 413, ""),
    ] {
        let (code, text) = ggp_common::post_bytes(a, body);
        assert_eq!(code, status, "{:?}: {text}", &body[..body.len().min(40)]);
        assert!(text.contains(says), "{text}");
        assert!(text.lines().count() <= 1, "{text}");
    }
    // Bytes that are not HTTP: an error, the connection closed.
    let answer = ggp_common::send_raw(a, b"\x16\x03\x01 not http at all\r\n\r\n");
    assert!(
        answer.is_empty() || answer.starts_with("HTTP/1.1 4"),
        "{answer}"
    );
    // The match started before all this plays on.
    assert_eq!(post(a, "(play m1 nil)"), (200, "noop".into()));
    let (code, text) = post(a, "(play m1 ((mark 2 2) noop))");
    assert_eq!(code, 200);
    assert!(text.starts_with("(mark "), "{text}");
    assert_eq!(post(a, "(stop m1 nil)"), (200, "done".into()));
}

/// A fake player that answers its messages in turn as `script` says:
/// `close` (the connection closed at once), `late` (a legal-looking move
/// after 1.5 s), `garbage` (bytes that are not HTTP), `bytes` (HTTP 200
/// with a body that is not UTF-8); then `(mark 9 9)`, an illegal move.
fn chaos_player(script: &'static [&'static str]) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        for (n, conn) in listener.incoming().enumerate() {
            let Ok(mut s) = conn else { return };
            let _ = s.set_read_timeout(Some(Duration::from_secs(5)));
            ggp_common::read_request(&mut s);
            let http = |body: &[u8]| {
                let mut out = format!(
                    "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                )
                .into_bytes();
                out.extend_from_slice(body);
                out
            };
            let answer: Vec<u8> = match script.get(n).copied().unwrap_or("illegal") {
                "close" => Vec::new(),
                "late" => {
                    std::thread::sleep(Duration::from_millis(1500));
                    http(b"(mark 1 1)")
                }
                "garbage" => b"\x00\xffnot http\r\n\r\n".to_vec(),
                "bytes" => http(b"(mark \xff\xfe\n 1)"),
                _ => http(b"(mark 9 9)"),
            };
            let _ = s.write_all(&answer);
        }
    });
    format!("http://{addr}/")
}

#[test]
fn players_that_close_answer_garbage_or_late_get_legal_moves_and_a_line_each() {
    let o = Player::start(&["--player", "random"]);
    let x = chaos_player(&["close", "late", "close", "garbage", "bytes"]);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_wopr"))
        .args(["ggp", "match", &sheet("gdl/tictactoe.kif"), &x, &o.url])
        .args(["--play-clock", "1", "--grace-ms", "200", "--id", "chaos"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let rec: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rec["finished"], true, "{rec}");
    assert_eq!(rec["players"][0]["start_status"], "no answer", "{rec}");
    assert_eq!(rec["players"][1]["start_status"], "ok", "{rec}");
    let xs: Vec<&Value> = rec["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["moves"][0])
        .collect();
    let statuses: Vec<&str> = xs.iter().map(|m| m["status"].as_str().unwrap()).collect();
    assert_eq!(
        statuses[..4],
        ["no answer", "no answer", "no answer", "illegal"],
        "{rec}"
    );
    assert!(statuses.iter().all(|&s| s != "ok"), "{statuses:?}");
    assert!(xs[0]["why"]
        .as_str()
        .unwrap()
        .contains("no answer within 1200 ms"));
    // Bytes that are not UTF-8 never make a legal move.
    assert!(
        xs[3]["why"].as_str().is_some_and(|w| !w.is_empty()),
        "{rec}"
    );
    // Every x move was chosen for it, legal, and said so in one line each,
    // naming the peer and the message it did not answer.
    assert_eq!(rec["replaced"].as_u64().unwrap() as usize, xs.len());
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("to (play …)")).collect();
    assert_eq!(lines.len(), xs.len(), "{err}");
    for l in &lines {
        assert!(
            l.contains(&format!("xplayer at {x}")) && l.contains("chosen for it"),
            "{l}"
        );
    }
    assert!(lines[0].contains("gave no answer"), "{}", lines[0]);
    assert!(lines[3].contains("answered no legal move"), "{}", lines[3]);
    assert!(
        err.contains("to (start …)") && err.contains("to (stop …)"),
        "{err}"
    );
}
