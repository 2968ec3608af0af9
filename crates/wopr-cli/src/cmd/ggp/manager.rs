//! `wopr ggp match SHEET URL…`: a GGP game manager for one match. It
//! sends START to every player (one URL per role, role order), then PLAY
//! with the last joint move until the game ends, then STOP, all players of
//! a step asked at once; it records every answer with its time.
//!
//! **Players that misbehave.** A player that answers after its clock, not
//! at all (refused, the connection closed, timed out at the clock plus
//! `--grace-ms`, an HTTP error, an answer over 64 KiB) or with anything
//! that is not a legal move (garbage, bytes that are not UTF-8) gets what
//! GGP managers give it: a random legal move chosen for it (drawn from
//! `--seed`). The record says which and why, and stderr has one line
//! naming the role, its URL, the message it did not answer and why; the
//! match goes on, so no player can hang it or end it. A START or STOP
//! answered badly is a line on stderr and a status in the record; the
//! player is asked to play all the same. A match longer than
//! `--max-steps` is aborted.
//!
//! **The record** (JSON): `match`, `sheet`, `start_clock` and
//! `play_clock` (s), `players` (role, URL, the START answer, its ms and
//! `start_status`: `ok`, `late`, `no answer` or `unexpected`),
//! `steps` (per step, per role: the move played, the answer, its ms and
//! `status`: `ok`, `late`, `illegal` or `no answer`, with `why` for the
//! last three; answers are kept to 256 characters), `finished`,
//! `goals` (role → 0..=100), `replaced` (moves chosen for players),
//! `slowest_ms` and `stop` (each player's STOP answer).
//!
//! **GDL-II** (a sheet with the `random` role or `sees`): one URL per role
//! but `random`, which the manager plays itself, uniformly among its legal
//! moves (drawn from `--seed`). Each player is sent GDL-II's `(play ID
//! TURN LASTMOVE PERCEPTS)` and `(stop …)`: its own last move and what it
//! sees, never another role's move (`wopr::games::gdl::ggp` has the form
//! and its sources). The record adds `"protocol": "gdl-ii"`, each step's
//! `random` move, and per player per step `sees`, the percepts that
//! step's joint move gave it (what its next message carried); `goals`
//! leaves out `random`.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use serde_json::{json, Value};
use wopr::game::rng::stream;
use wopr::games::gdl::ast::Term;
use wopr::games::gdl::game::Gdl;
use wopr::games::gdl::ggp::{parse_move, Message, Position, Seen};
use wopr::games::gdl::parse::{parse_within, read_file};

use super::client::{post, Answer, Url};
use super::MatchArgs;

/// Runs one match and writes its record.
pub fn run(args: &MatchArgs) -> anyhow::Result<()> {
    let path = args.sheet.display().to_string();
    let budget = super::budget_of(args.memory)?;
    let fail = |e: wopr::games::gdl::GdlError| anyhow::anyhow!("{path}: {e}");
    // The budget holds from the first byte (`wopr::games::gdl::parse`);
    // the text is dropped once read, the rules sent to players kept.
    let text = read_file(&args.sheet, budget).map_err(fail)?;
    let parsed = parse_within(&text, budget).map_err(fail)?;
    drop(text);
    let rules: Vec<String> = parsed.sheet.rules.iter().map(|r| r.to_string()).collect();
    let rules = rules.join(" ");
    let held = parsed.bytes.saturating_add(rules.len() as u64);
    let game = Gdl::from_parsed(&path, parsed, args.max_steps.max(1), budget.holding(held))?;
    let position = Position::new(game).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
    let roles = position.roles();
    let seats = seats(&position);
    if args.urls.len() != seats.len() {
        let named: Vec<&str> = seats.iter().map(|&r| roles[r].as_str()).collect();
        anyhow::bail!(
            "{path} has {} role{} ({}){}; give one player URL per role, in that order (got {})",
            seats.len(),
            if seats.len() == 1 { "" } else { "s" },
            named.join(" "),
            if position.random_role().is_some() {
                " besides random, which the manager plays"
            } else {
                ""
            },
            args.urls.len()
        );
    }
    let urls = args
        .urls
        .iter()
        .map(|u| Url::parse(u).map_err(anyhow::Error::msg))
        .collect::<anyhow::Result<Vec<_>>>()?;
    if !(1..=wopr::games::gdl::ggp::MAX_CLOCK_SECS).contains(&args.play_clock)
        || args.start_clock > wopr::games::gdl::ggp::MAX_CLOCK_SECS
    {
        anyhow::bail!(
            "bad clocks: --play-clock takes 1..={0} s, --start-clock 0..={0} s",
            wopr::games::gdl::ggp::MAX_CLOCK_SECS
        );
    }
    let id = args.id.clone().unwrap_or_else(|| {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        format!("wopr.{secs}")
    });
    if Message::parse(&format!("(abort {id})")) != Ok(Message::Abort { id: id.clone() }) {
        anyhow::bail!(
            "bad --id '{id}': a match id is one lower-case symbol (letters, digits, . - _)"
        );
    }
    let record =
        crate::http::runtime()?.block_on(play_match(args, &id, &path, position, &urls, rules));
    let out = serde_json::to_string_pretty(&record)?;
    match &args.out {
        Some(file) => std::fs::write(file, out + "\n")
            .with_context(|| format!("cannot write {}", file.display()))?,
        None => println!("{out}"),
    }
    Ok(())
}

/// The roles that players play, in role order: all but GDL-II's `random`.
fn seats(position: &Position) -> Vec<usize> {
    (0..position.roles().len())
        .filter(|&r| Some(r) != position.random_role())
        .collect()
}

/// What each player has been told of the last joint move: GDL's joint
/// move, or GDL-II's own move and percepts per seat.
enum Told {
    Gdl(Option<Vec<Term>>),
    Gdl2(Vec<(Option<Term>, Vec<Term>)>),
}

impl Told {
    /// Each seat's `play` message at `turn` (its `stop` message where
    /// `stop`).
    fn messages(&self, id: &str, turn: usize, seats: usize, stop: bool) -> Vec<String> {
        let id = id.to_string();
        match self {
            Told::Gdl(moves) => {
                let m = if stop {
                    Message::Stop {
                        id,
                        moves: moves.clone(),
                    }
                } else {
                    Message::Play {
                        id,
                        moves: moves.clone(),
                    }
                };
                vec![m.to_string(); seats]
            }
            Told::Gdl2(each) => each
                .iter()
                .map(|(last, percepts)| {
                    let seen = Seen {
                        turn: turn as u64,
                        last: last.clone(),
                        percepts: percepts.clone(),
                    };
                    let id = id.clone();
                    if stop {
                        Message::StopII { id, seen }
                    } else {
                        Message::PlayII { id, seen }
                    }
                    .to_string()
                })
                .collect(),
        }
    }
}

/// Sends `message(role)` to every player at once; the answers in role order.
async fn ask_all(urls: &[Url], messages: Vec<String>, limit: Duration) -> Vec<Answer> {
    let tasks: Vec<_> = urls
        .iter()
        .zip(messages)
        .map(|(u, m)| {
            let u = u.clone();
            tokio::spawn(async move { post(&u, m, limit).await })
        })
        .collect();
    let mut answers = Vec::with_capacity(tasks.len());
    for t in tasks {
        answers.push(t.await.unwrap_or_else(|e| Answer {
            text: Err(format!("the request task failed: {e}")),
            took: limit,
        }));
    }
    answers
}

fn ms(d: Duration) -> u64 {
    d.as_millis() as u64
}

async fn play_match(
    args: &MatchArgs,
    id: &str,
    path: &str,
    mut position: Position,
    urls: &[Url],
    rules: String,
) -> Value {
    let roles = position.roles();
    let seats = seats(&position);
    let gdl2 = position.is_gdl2();
    let grace = Duration::from_millis(args.grace_ms);
    let start_clock = Duration::from_secs(args.start_clock);
    let play_clock = Duration::from_secs(args.play_clock);
    let starts = seats
        .iter()
        .map(|&r| {
            Message::Start {
                id: id.to_string(),
                role: roles[r].clone(),
                rules: rules.clone(),
                start_clock,
                play_clock,
            }
            .to_string()
        })
        .collect();
    let answers = ask_all(urls, starts, start_clock + grace).await;
    let players: Vec<Value> = seats
        .iter()
        .zip(urls)
        .zip(&answers)
        .map(|((&r, url), a)| {
            let status = status_of(a, "ready", start_clock);
            if status != "ok" {
                eprintln!(
                    "match {id}: {} at {} {} to (start …): {}; it is asked to play all the same",
                    roles[r],
                    url.text,
                    failed(status),
                    why(a, start_clock)
                );
            }
            json!({
                "role": roles[r],
                "url": url.text,
                "start": recorded(a),
                "start_ms": ms(a.took),
                "start_status": status,
            })
        })
        .collect();
    let named: Vec<&str> = seats.iter().map(|&r| roles[r].as_str()).collect();
    eprintln!("match {id}: {} ({})", path, named.join(" vs "));
    let mut steps = Vec::new();
    let mut told = if gdl2 {
        Told::Gdl2(vec![(None, Vec::new()); seats.len()])
    } else {
        Told::Gdl(None)
    };
    let (mut replaced, mut slowest) = (0usize, Duration::ZERO);
    while !position.is_terminal() && position.step() < args.max_steps {
        let step = position.step();
        let messages = told.messages(id, step, seats.len(), false);
        let answers = ask_all(urls, messages, play_clock + grace).await;
        let mut joint = Vec::with_capacity(roles.len());
        let mut entries = Vec::with_capacity(roles.len());
        let mut random = None;
        if let Some(r) = position.random_role() {
            // The manager plays random: uniformly among its legal moves.
            let legal = position.legal(r);
            let mut rng = stream(args.seed, &[u64::MAX, step as u64]);
            random = Some(legal[rand::RngExt::random_range(&mut rng, 0..legal.len())].clone());
        }
        let mut asked = answers.iter();
        for (r, role) in roles.iter().enumerate() {
            if Some(r) == position.random_role() {
                joint.extend(random.clone());
                continue;
            }
            // One answer per seat.
            let Some(a) = asked.next() else { break };
            let asked_seat = entries.len();
            let legal = position.legal(r);
            slowest = slowest.max(a.took);
            let verdict = match &a.text {
                Err(e) => Err(("no answer", e.clone())),
                Ok(t) => match parse_move(t) {
                    Err(e) => Err(("illegal", format!("'{}' is not a move: {e}", shown(t)))),
                    Ok(m) if !legal.contains(&m) => {
                        Err(("illegal", format!("{m} is not legal here")))
                    }
                    Ok(_) if a.took > play_clock => Err((
                        "late",
                        format!(
                            "answered after {} ms, past the {} s clock",
                            ms(a.took),
                            args.play_clock
                        ),
                    )),
                    Ok(m) => Ok(m),
                },
            };
            let mut entry = json!({
                "role": role,
                "ms": ms(a.took),
            });
            if a.text.is_ok() {
                entry["answer"] = json!(recorded(a));
            }
            let played = match verdict {
                Ok(m) => {
                    entry["status"] = json!("ok");
                    m
                }
                Err((status, why)) => {
                    replaced += 1;
                    let mut rng = stream(args.seed, &[step as u64, r as u64]);
                    let m = legal[rand::RngExt::random_range(&mut rng, 0..legal.len())].clone();
                    eprintln!(
                        "match {id}: step {}: {role} at {} {} to (play …): {why}; it plays {m}, \
                         chosen for it",
                        step + 1,
                        urls[asked_seat].text,
                        failed(status),
                    );
                    entry["status"] = json!(status);
                    entry["why"] = json!(why);
                    m
                }
            };
            entry["move"] = json!(played.to_string());
            entries.push(entry);
            joint.push(played);
        }
        let seen = position
            .play_seen(&joint)
            .expect("every move was checked legal, or chosen among the legal ones");
        let mut record = json!({ "step": step + 1, "moves": entries });
        if gdl2 {
            let mut each = Vec::with_capacity(seats.len());
            for (i, &r) in seats.iter().enumerate() {
                let ps: Vec<String> = seen[r].iter().map(Term::to_string).collect();
                record["moves"][i]["sees"] = json!(ps);
                each.push((Some(joint[r].clone()), seen[r].clone()));
            }
            if let Some(m) = &random {
                record["random"] = json!(m.to_string());
            }
            told = Told::Gdl2(each);
        } else {
            told = Told::Gdl(Some(joint));
        }
        steps.push(record);
    }
    let finished = position.is_terminal();
    let ends = if finished {
        told.messages(id, position.step(), seats.len(), true)
    } else {
        vec![Message::Abort { id: id.to_string() }.to_string(); seats.len()]
    };
    let stops = ask_all(urls, ends, play_clock + grace).await;
    let (end, want) = if finished {
        ("stop", "done")
    } else {
        ("abort", "aborted")
    };
    for ((&r, url), a) in seats.iter().zip(urls).zip(&stops) {
        let status = status_of(a, want, play_clock);
        if status != "ok" {
            eprintln!(
                "match {id}: {} at {} {} to ({end} …): {}",
                roles[r],
                url.text,
                failed(status),
                why(a, play_clock)
            );
        }
    }
    let goals = position.goals();
    eprintln!(
        "match {id}: {} after {} steps; goals {}; {replaced} moves chosen for players; slowest answer {} ms",
        if finished { "over" } else { "aborted" },
        position.step(),
        position.goal_summary(),
        ms(slowest)
    );
    let mut record = json!({
        "match": id,
        "sheet": path,
        "start_clock": args.start_clock,
        "play_clock": args.play_clock,
        "players": players,
        "steps": steps,
        "finished": finished,
        "goals": seats.iter().map(|&r| (roles[r].clone(), json!(goals[r]))).collect::<serde_json::Map<_, _>>(),
        "replaced": replaced,
        "slowest_ms": ms(slowest),
        "stop": stops.iter().map(|a| json!(recorded(a))).collect::<Vec<_>>(),
    });
    if gdl2 {
        record["protocol"] = json!("gdl-ii");
    }
    record
}

/// The most characters of a player's answer kept in the record (the
/// client reads at most 64 KiB), and shown in a line of the log.
const KEPT: usize = 256;
const SHOWN: usize = 60;

/// `text` cut to `max` characters, `…` marking a cut.
fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// An answer as one line of a log: control characters escaped, cut.
fn shown(text: &str) -> String {
    let line: String = text.chars().flat_map(char::escape_debug).collect();
    cut(&line, SHOWN)
}

/// An answer as the record keeps it: its text cut to [`KEPT`]
/// characters, or why there was none.
fn recorded(a: &Answer) -> String {
    match &a.text {
        Ok(t) => cut(t, KEPT),
        Err(e) => e.clone(),
    }
}

/// What became of a message that wants `want` (`ready`, `done`,
/// `aborted`) within `clock`: `ok`, `late`, `no answer` or `unexpected`.
fn status_of(a: &Answer, want: &str, clock: Duration) -> &'static str {
    match &a.text {
        Err(_) => "no answer",
        Ok(t) if !t.eq_ignore_ascii_case(want) => "unexpected",
        Ok(_) if a.took > clock => "late",
        Ok(_) => "ok",
    }
}

/// A status as a log line says it.
fn failed(status: &str) -> &'static str {
    match status {
        "no answer" => "gave no answer",
        "late" => "answered late",
        "illegal" => "answered no legal move",
        _ => "answered something else",
    }
}

/// Why an answer to a message with `clock` was not what was asked, in
/// one line.
fn why(a: &Answer, clock: Duration) -> String {
    match &a.text {
        Err(e) => e.clone(),
        Ok(t) if a.took > clock => format!(
            "answered '{}' after {} ms, past the {} s clock",
            shown(t),
            ms(a.took),
            clock.as_secs()
        ),
        Ok(t) => format!("answered '{}'", shown(t)),
    }
}
