//! The player's side of a GDL-II match: `(play ID TURN LASTMOVE PERCEPTS)`
//! moves the match's information set (`wopr::games::gdl::ggp::Belief`)
//! one turn on, by the player's own last move and its percepts, and a move
//! is chosen over the set, never over a true state the player cannot see.
//!
//! **The player.** `--player random` and `--player first` play a random or
//! the first legal move; any other spec (and none) plays the library's
//! sampler: flat Monte Carlo from states drawn from the information set,
//! until the play clock less twice the margin (`Belief::choose`). A set
//! that has lost track of the match (sampled past its bound, then emptied)
//! knows no legal move: the player then answers one of its role's moves at
//! random, and the manager replaces it if it is not legal.
//!
//! **Errors.** The GDL form of `play` in a GDL-II match (or this form in a
//! GDL match), a turn that is not the next one, a `LASTMOVE` that is not a
//! move of the role, and percepts the rules cannot give after what the
//! player saw before are 400s with one line; the set is then unchanged.

use std::time::Instant;

use axum::http::StatusCode;
use axum::response::Response;
use wopr::game::rng::{stream, WoprRng};
use wopr::games::gdl::ast::Term;
use wopr::games::gdl::game::Gdl;
use wopr::games::gdl::ggp::{Belief, Seen};
use wopr::players::PlayerSpec;

use super::{margin, reply, Match, Server};

/// How moves are chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Choice {
    Random,
    First,
    Sample,
}

/// A GDL-II match's state on the player's side.
pub struct Gdl2 {
    belief: Belief,
    choice: Choice,
}

impl Gdl2 {
    /// The match's start: its belief, and the choice `--player` asks for
    /// (`random`, `first`; else the sampler).
    pub fn new(belief: Belief, spec: Option<&str>, game: &Gdl, id: &str) -> Gdl2 {
        let choice = match spec.map(|s| PlayerSpec::parse(game, s)) {
            Some(Ok(PlayerSpec::Random)) => Choice::Random,
            Some(Ok(PlayerSpec::First)) => Choice::First,
            None => Choice::Sample,
            Some(_) => {
                eprintln!(
                    "match {id}: GDL-II sheet; --player plays random or first here, else the sampler"
                );
                Choice::Sample
            }
        };
        Gdl2 { belief, choice }
    }

    /// The player, for the log.
    pub fn describe(&self) -> String {
        match self.choice {
            Choice::Random => "random".into(),
            Choice::First => "first".into(),
            Choice::Sample => "gdl-ii sampler (flat Monte Carlo over the information set)".into(),
        }
    }
}

/// The 400 for a message of the other protocol's form.
pub fn wrong_form(id: &str, gdl2_match: bool) -> Response {
    let why = if gdl2_match {
        "is played with GDL-II's messages (its sheet has random or sees): expected (play ID TURN LASTMOVE PERCEPTS)"
    } else {
        "is a GDL match (its sheet has no random or sees): expected (play ID MOVES)"
    };
    reply(StatusCode::BAD_REQUEST, format!("match {id} {why}"))
}

/// Follows `seen` (turn 0: nothing to follow; a repeated turn 0 is
/// answered again).
async fn follow(m: &mut Match, id: &str, seen: &Seen, rng: WoprRng) -> Result<(), Response> {
    let Some(g) = m.gdl2.as_mut() else {
        return Err(wrong_form(id, false));
    };
    let now = g.belief.turn();
    let last = match (&seen.last, seen.turn) {
        (None, 0) if now == 0 => return Ok(()),
        (Some(last), t) if t == now + 1 => last.clone(),
        (_, t) => {
            return Err(reply(
                StatusCode::BAD_REQUEST,
                format!(
                    "match {id}: turn {t} does not follow turn {now} (expected turn {})",
                    now + 1
                ),
            ))
        }
    };
    // A turn's expansion is bounded but can take a while: off the async
    // workers, on a copy that replaces the belief when it fits.
    let mut b = g.belief.clone();
    let percepts = seen.percepts.clone();
    let mut rng = rng;
    let done = tokio::task::spawn_blocking(move || {
        let r = b.update(&last, &percepts, &mut rng);
        (b, r)
    })
    .await;
    match done {
        Ok((b, Ok(()))) => {
            g.belief = b;
            Ok(())
        }
        Ok((_, Err(e))) => Err(reply(StatusCode::BAD_REQUEST, format!("match {id}: {e}"))),
        Err(_) => Err(reply(
            StatusCode::INTERNAL_SERVER_ERROR,
            "following the turn failed",
        )),
    }
}

/// Answers `(play ID TURN LASTMOVE PERCEPTS)`.
pub async fn play(
    server: &Server,
    m: &mut Match,
    id: &str,
    seen: Seen,
    arrived: Instant,
) -> Response {
    let rng = stream(server.seed, &[m.number, seen.turn, 1]);
    if let Err(r) = follow(m, id, &seen, rng).await {
        return r;
    }
    let Some(g) = m.gdl2.as_ref() else {
        return wrong_form(id, false);
    };
    if g.belief.is_terminal() {
        return reply(
            StatusCode::BAD_REQUEST,
            format!(
                "match {id}: the game is over at turn {}; expected (stop {id} TURN LASTMOVE PERCEPTS)",
                seen.turn
            ),
        );
    }
    let mut rng = stream(server.seed, &[m.number, seen.turn]);
    let mut legal = g.belief.legal();
    let lost = legal.is_empty();
    if lost {
        eprintln!("match {id}: the information set lost track; a move of the role at random");
        legal = m.position.game().reasoner().moves(m.role).to_vec();
    }
    if legal.is_empty() {
        // A role that can never move: the sheet is not valid GDL.
        return reply(
            StatusCode::BAD_REQUEST,
            format!(
                "match {id}: the sheet gives this role no move at all at turn {}",
                seen.turn
            ),
        );
    }
    let random = |rng: &mut WoprRng, legal: &[Term]| {
        legal[rand::RngExt::random_range(rng, 0..legal.len())].clone()
    };
    if legal.len() == 1 || g.choice == Choice::First {
        return reply(StatusCode::OK, legal[0].to_string());
    }
    if g.choice == Choice::Random || lost {
        return reply(StatusCode::OK, random(&mut rng, &legal).to_string());
    }
    let clock = m.play_clock;
    let think = arrived + clock.saturating_sub(2 * margin(clock));
    let hard = arrived + clock.saturating_sub(margin(clock));
    let belief = g.belief.clone();
    let mut think_rng = rng.clone();
    let thinking =
        tokio::task::spawn_blocking(move || belief.choose(think, u64::MAX, &mut think_rng));
    let left = hard.saturating_duration_since(Instant::now());
    let chosen = match tokio::time::timeout(left, thinking).await {
        Ok(Ok(Some(t))) => Some(t),
        _ => {
            eprintln!("match {id}: no move chosen in time; a random legal move");
            None
        }
    };
    let answer = chosen
        .filter(|t| legal.contains(t))
        .unwrap_or_else(|| random(&mut rng, &legal));
    reply(StatusCode::OK, answer.to_string())
}

/// Takes `(stop ID TURN LASTMOVE PERCEPTS)` (the match is over either
/// way; the last percepts are only logged).
pub fn stop(m: &Match, id: &str, seen: &Seen) {
    if m.gdl2.is_none() {
        eprintln!("match {id}: stopped with a GDL-II stop message");
        return;
    }
    let ps: Vec<String> = seen.percepts.iter().map(Term::to_string).collect();
    eprintln!(
        "match {id}: over after {} turns; last seen: ({})",
        seen.turn,
        ps.join(" ")
    );
}
