//! `wopr ggp match SHEET URL…`: a GGP game manager for one match. It
//! sends START to every player (one URL per role, role order), then PLAY
//! with the last joint move until the game ends, then STOP, all players of
//! a step asked at once; it records every answer with its time.
//!
//! A player that answers after its clock, not at all (refused, timed out
//! at the clock plus `--grace-ms`, an HTTP error) or with a move that is
//! not legal gets a random legal move chosen for it (drawn from
//! `--seed`), and the record says which and why; the match goes on, so no
//! player can hang it. A match longer than `--max-steps` is aborted.
//!
//! **The record** (JSON): `match`, `sheet`, `start_clock` and
//! `play_clock` (s), `players` (role, URL, the START answer and its ms),
//! `steps` (per step, per role: the move played, the answer, its ms and
//! `status`: `ok`, `late`, `illegal` or `no answer`, with `why` for the
//! last three), `finished`, `goals` (role → 0..=100), `replaced` (moves
//! chosen for players), `slowest_ms` and `stop` (each player's STOP
//! answer).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use serde_json::{json, Value};
use wopr::game::rng::stream;
use wopr::games::gdl::ast::Term;
use wopr::games::gdl::game::Gdl;
use wopr::games::gdl::ggp::{parse_move, Message, Position};
use wopr::games::gdl::parse::parse;

use super::client::{post, Answer, Url};
use super::MatchArgs;

/// Runs one match and writes its record.
pub fn run(args: &MatchArgs) -> anyhow::Result<()> {
    let path = args.sheet.display().to_string();
    let text = std::fs::read_to_string(&args.sheet)
        .with_context(|| format!("cannot read the rule sheet {path}"))?;
    let sheet = parse(&text).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
    let game = Gdl::from_text(&path, &text, args.max_steps.max(1))?;
    let position = Position::new(game).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
    let roles = position.roles();
    if args.urls.len() != roles.len() {
        anyhow::bail!(
            "{path} has {} role{} ({}); give one player URL per role, in that order (got {})",
            roles.len(),
            if roles.len() == 1 { "" } else { "s" },
            roles.join(" "),
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
    let rules: Vec<String> = sheet.rules.iter().map(|r| r.to_string()).collect();
    let record = crate::http::runtime()?.block_on(play_match(
        args,
        &id,
        &path,
        position,
        &urls,
        rules.join(" "),
    ));
    let out = serde_json::to_string_pretty(&record)?;
    match &args.out {
        Some(file) => std::fs::write(file, out + "\n")
            .with_context(|| format!("cannot write {}", file.display()))?,
        None => println!("{out}"),
    }
    Ok(())
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
    let grace = Duration::from_millis(args.grace_ms);
    let start_clock = Duration::from_secs(args.start_clock);
    let play_clock = Duration::from_secs(args.play_clock);
    let starts = roles
        .iter()
        .map(|role| {
            Message::Start {
                id: id.to_string(),
                role: role.clone(),
                rules: rules.clone(),
                start_clock,
                play_clock,
            }
            .to_string()
        })
        .collect();
    let answers = ask_all(urls, starts, start_clock + grace).await;
    let players: Vec<Value> = roles
        .iter()
        .zip(urls)
        .zip(&answers)
        .map(|((role, url), a)| {
            json!({
                "role": role,
                "url": url.text,
                "start": a.text.as_ref().unwrap_or_else(|e| e),
                "start_ms": ms(a.took),
            })
        })
        .collect();
    eprintln!("match {id}: {} ({})", path, roles.join(" vs "));
    let mut steps = Vec::new();
    let mut last: Option<Vec<Term>> = None;
    let (mut replaced, mut slowest) = (0usize, Duration::ZERO);
    while !position.is_terminal() && position.step() < args.max_steps {
        let message = Message::Play {
            id: id.to_string(),
            moves: last.clone(),
        }
        .to_string();
        let answers = ask_all(urls, vec![message; urls.len()], play_clock + grace).await;
        let step = position.step();
        let mut joint = Vec::with_capacity(roles.len());
        let mut entries = Vec::with_capacity(roles.len());
        for (r, a) in answers.iter().enumerate() {
            let legal = position.legal(r);
            slowest = slowest.max(a.took);
            let verdict = match &a.text {
                Err(e) => Err(("no answer", e.clone())),
                Ok(t) => match parse_move(t) {
                    Err(e) => Err(("illegal", format!("'{t}' is not a move: {e}"))),
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
                "role": roles[r],
                "ms": ms(a.took),
            });
            if let Ok(t) = &a.text {
                entry["answer"] = json!(t);
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
                        "match {id}: step {}: {} {status} ({why}); it plays {m}",
                        step + 1,
                        roles[r]
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
        position
            .play(&joint)
            .expect("every move was checked legal, or chosen among the legal ones");
        steps.push(json!({ "step": step + 1, "moves": entries }));
        last = Some(joint);
    }
    let finished = position.is_terminal();
    let end = if finished {
        Message::Stop {
            id: id.to_string(),
            moves: last,
        }
    } else {
        Message::Abort { id: id.to_string() }
    }
    .to_string();
    let stops = ask_all(urls, vec![end; urls.len()], play_clock + grace).await;
    let goals = position.goals();
    eprintln!(
        "match {id}: {} after {} steps; goals {}; {replaced} moves chosen for players; slowest answer {} ms",
        if finished { "over" } else { "aborted" },
        position.step(),
        position.goal_summary(),
        ms(slowest)
    );
    json!({
        "match": id,
        "sheet": path,
        "start_clock": args.start_clock,
        "play_clock": args.play_clock,
        "players": players,
        "steps": steps,
        "finished": finished,
        "goals": roles.iter().zip(&goals).map(|(r, g)| (r.clone(), json!(g))).collect::<serde_json::Map<_, _>>(),
        "replaced": replaced,
        "slowest_ms": ms(slowest),
        "stop": stops.iter().map(|a| json!(a.text.as_ref().unwrap_or_else(|e| e))).collect::<Vec<_>>(),
    })
}
