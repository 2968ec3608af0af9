//! The GDL targets: rule sheets as files come (`gdl_sheet`) and the GGP
//! messages a `wopr ggp` player reads (`ggp_message`).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use wopr::games::gdl::game::Gdl;
use wopr::games::gdl::ggp::{Belief, Message, Position};
use wopr::games::gdl::ground::Budget;
use wopr::games::gdl::parse::parse_within;
use wopr::games::gdl::steps::{roles_without_moves, step_perft};

use super::*;

/// The memory budget both targets load sheets within: small, so that a
/// sheet the fuzzer grows is refused early rather than ground for long.
const BUDGET: Budget = Budget::from_bytes(4 << 20);

/// Whether an error message is one line.
fn one_line(e: &str) {
    assert!(!e.contains('\n') && !e.is_empty(), "not one line: {e:?}");
}

/// The sheet's sentences as text with their lines.
fn shown(text: &[u8]) -> Result<Vec<(usize, String)>, String> {
    parse_within(text, BUDGET)
        .map(|p| {
            p.sheet
                .rules
                .iter()
                .map(|r| (r.line, r.to_string()))
                .collect()
        })
        .map_err(|e| e.0)
}

/// Target `gdl_sheet`: the input as the bytes of a rule sheet file, read
/// as `gdl:PATH` reads it (`Gdl::from_spec`: `parse_within` under the
/// memory budget, then `Gdl::from_parsed`) and checked as `wopr gdl check`
/// checks it (`roles_without_moves`, perft in GDL steps to depth 2).
/// Reading never passes the budget and errors are one line naming a line;
/// where the input has only LF line ends, its CRLF and bare-CR copies and
/// the copy with a byte-order mark read to the same sentences on the same
/// lines.
pub fn check_gdl_sheet(data: &[u8]) {
    let read = parse_within(data, BUDGET);
    let parsed = match read {
        Ok(p) => p,
        Err(e) => {
            one_line(&e.0);
            assert!(e.0.starts_with("line "), "{e}");
            return;
        }
    };
    assert!(
        parsed.bytes.saturating_add(data.len() as u64) <= BUDGET.bytes(),
        "reading held more than the budget"
    );
    if !data.contains(&b'\r') {
        let want = shown(data);
        let swap = |end: &[u8]| -> Vec<u8> {
            let mut out = Vec::with_capacity(data.len() * 2);
            for &b in data {
                if b == b'\n' {
                    out.extend_from_slice(end);
                } else {
                    out.push(b);
                }
            }
            out
        };
        let mut bom = vec![0xef, 0xbb, 0xbf];
        bom.extend_from_slice(data);
        for copy in [swap(b"\r\n"), swap(b"\r"), bom] {
            // A copy is longer, so it may pass the budget where the
            // original did not; where both are read, they agree.
            if let (Ok(w), Ok(g)) = (&want, shown(&copy)) {
                assert_eq!(w, &g, "line ends or a byte-order mark read differently");
            }
        }
    }
    let held = parsed.bytes;
    let g = match Gdl::from_parsed("fuzz.kif", parsed, 200, BUDGET.holding(held)) {
        Ok(g) => g,
        Err(e) => return one_line(&e.0),
    };
    let r = g.reasoner();
    for stuck in roles_without_moves(r, 50) {
        assert!(stuck.role < r.roles().len());
    }
    if r.is_grounded() {
        let _ = step_perft(r, &r.initial(), 2);
    }
}

/// A match the `ggp_message` target holds, as the player holds it.
struct Held {
    position: Position,
    role: usize,
    belief: Option<Belief>,
}

/// The most matches held (the player holds 16; fewer keep runs short).
const HELD: usize = 4;

/// Target `ggp_message`: the input as the bodies of the requests a game
/// manager posts to a `wopr ggp` player, one after another, split at
/// blank lines (`\n\n`). Each goes through what the player
/// (`crates/wopr-cli/src/cmd/ggp/player.rs` and `player/gdl2.rs`) does
/// before it thinks: `Message::from_bytes`; for a `start`,
/// `Position::start` within a small memory budget (a GDL-II sheet's
/// `Belief` too); for a GDL `play`, `Position::to_move` and the state a
/// player would search; for a GDL-II `play`, `Belief::update`, its legal
/// moves and a few playouts of `Belief::choose`; `stop` and `abort` end a
/// match. Every refusal is one line, and a move to choose from is never
/// an empty list.
pub fn check_ggp_message(data: &[u8]) {
    let mut held: HashMap<String, Held> = HashMap::new();
    let mut rng = stream(0, &[67]);
    for body in split(data) {
        let message = match Message::from_bytes(body) {
            Ok(m) => m,
            Err(e) => {
                one_line(&e.0);
                continue;
            }
        };
        match message {
            Message::Info => {}
            Message::Start {
                id, role, rules, ..
            } => {
                if held.contains_key(&id) || held.len() >= HELD {
                    continue;
                }
                match Position::start(&format!("match {id}"), &rules, &role, BUDGET) {
                    Ok((position, role)) => {
                        let belief = position
                            .is_gdl2()
                            .then(|| Belief::new(position.game().clone(), role));
                        held.insert(
                            id,
                            Held {
                                position,
                                role,
                                belief,
                            },
                        );
                    }
                    Err(e) => one_line(&e.0),
                }
            }
            Message::Play { id, moves } => {
                let Some(m) = held.get_mut(&id) else { continue };
                if m.belief.is_some() {
                    continue;
                }
                match m.position.to_move(&id, moves.as_deref(), m.role) {
                    Ok(legal) => {
                        assert!(!legal.is_empty(), "no move to choose from");
                        let state = m.position.state();
                        let mut acts = ActionList::new();
                        state.legal_actions(&mut acts);
                        for &a in acts.iter() {
                            let _ = state.action_term(a);
                        }
                    }
                    Err(e) => one_line(&e.0),
                }
            }
            Message::PlayII { id, seen } => {
                let Some(b) = held.get_mut(&id).and_then(|m| m.belief.as_mut()) else {
                    continue;
                };
                if let Some(last) = &seen.last {
                    if seen.turn == b.turn() + 1 {
                        if let Err(e) = b.update(last, &seen.percepts, &mut rng) {
                            one_line(&e.0);
                            continue;
                        }
                    }
                }
                if !b.is_terminal() {
                    let _ = b.legal();
                    let deadline = Instant::now() + Duration::from_millis(20);
                    let _ = b.choose(deadline, 16, &mut rng);
                }
            }
            Message::Stop { id, .. } | Message::StopII { id, .. } | Message::Abort { id } => {
                held.remove(&id);
            }
        }
    }
}

/// The bodies in `data`: split at each blank line (`\n\n`).
fn split(data: &[u8]) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut rest = data;
    while let Some(i) = rest.windows(2).position(|w| w == b"\n\n") {
        out.push(&rest[..i]);
        rest = &rest[i + 2..];
    }
    out.push(rest);
    out
}
