//! The server's engines and the limits on them: player specs parsed into
//! their typed form and checked against [`Caps`] and the offered nets
//! ([`check_engine`]); a fixed number of engine slots with a short, bounded
//! queue ([`Slots`]); and players at rest between moves ([`Pool`]).
//!
//! Every engine the server builds takes at most the move deadline per move
//! ([`Caps::time`]): players that search are given it as their `ms`, and
//! the others are bounded by depth or simulations.

use std::any::Any;
use std::collections::{HashMap, VecDeque};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use wopr::players::{Caps, PlayerSpec};
use wopr::{Player, Roster};

use super::nets::Nets;
use super::refusal::Refusal;

/// The server's limits on engines, and the engines at rest.
pub struct Engines {
    /// The largest settings a spec may ask for; `caps.time` is the move
    /// deadline.
    pub caps: Caps,
    /// The net files on offer.
    pub nets: Nets,
    /// The engine slots: CPU-heavy work holds one.
    pub slots: Slots,
    /// Players at rest between moves.
    pub pool: Pool,
}

/// Parses `text` as a player of `game`, checks it against `caps`, and
/// resolves its nets to offered files; one line when refused. Nothing is
/// opened: the offered nets are a list the server keeps.
pub fn check_engine<G: Roster>(
    game: &G,
    text: &str,
    caps: &Caps,
    nets: &Nets,
) -> Result<PlayerSpec, String> {
    let mut spec = PlayerSpec::parse(game, text).map_err(|e| e.to_string())?;
    spec.check_caps(caps).map_err(|e| e.to_string())?;
    let canonical = game.spec();
    for net in spec.nets_mut() {
        *net = nets.resolve(&canonical, net)?;
    }
    Ok(spec)
}

/// A fixed number of engine slots. A request that finds them all busy
/// waits, first come first served, in a queue of bounded length for at most a set time, and is then
/// refused with a 503 and `Retry-After`, so the server's CPU use is bounded
/// and a request never waits long.
pub struct Slots {
    size: usize,
    queue_len: usize,
    wait: Duration,
    retry_after: u64,
    state: Mutex<SlotState>,
    freed: Condvar,
}

#[derive(Default)]
struct SlotState {
    busy: usize,
    /// Tickets of the requests waiting, first come first.
    queue: VecDeque<u64>,
    /// The next ticket.
    next: u64,
}

/// A held engine slot; dropping it frees the slot.
pub struct Slot<'a>(&'a Slots);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let mut s = self.0.lock();
        s.busy -= 1;
        let waiting = !s.queue.is_empty();
        drop(s);
        // The waiters check whether it is their turn: the first in line is.
        if waiting {
            self.0.freed.notify_all();
        }
    }
}

impl Slots {
    /// `size` slots; at most `queue_len` requests wait, each at most
    /// `wait`; a refusal says to retry after `retry_after` seconds.
    pub fn new(size: usize, queue_len: usize, wait: Duration, retry_after: u64) -> Slots {
        Slots {
            size: size.max(1),
            queue_len,
            wait,
            retry_after,
            state: Mutex::new(SlotState::default()),
            freed: Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, SlotState> {
        // The counts are updated whole under the lock: go on if poisoned.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes a slot, waiting for one if need be (blocks the thread: call it
    /// on a blocking thread).
    pub fn enter(&self) -> Result<Slot<'_>, Refusal> {
        let mut s = self.lock();
        // Newcomers queue behind those already waiting.
        if s.busy < self.size && s.queue.is_empty() {
            s.busy += 1;
            return Ok(Slot(self));
        }
        if s.queue.len() >= self.queue_len {
            return Err(Refusal::busy(
                format!(
                    "all {} engine slots are busy and {} requests are waiting; try again shortly",
                    self.size,
                    s.queue.len()
                ),
                self.retry_after,
            ));
        }
        // Slots go to the waiters in the order they came.
        let ticket = s.next;
        s.next += 1;
        s.queue.push_back(ticket);
        let until = Instant::now() + self.wait;
        loop {
            let now = Instant::now();
            if s.busy < self.size && s.queue.front() == Some(&ticket) {
                s.queue.pop_front();
                s.busy += 1;
                // A slot may still be free for the next in line.
                let more = s.busy < self.size && !s.queue.is_empty();
                drop(s);
                if more {
                    self.freed.notify_all();
                }
                return Ok(Slot(self));
            }
            if now >= until {
                s.queue.retain(|&t| t != ticket);
                drop(s);
                // The line moved: the next may be first now.
                self.freed.notify_all();
                return Err(Refusal::busy(
                    format!(
                        "all {} engine slots stayed busy for {} ms; try again shortly",
                        self.size,
                        self.wait.as_millis()
                    ),
                    self.retry_after,
                ));
            }
            s = self
                .freed
                .wait_timeout(s, until - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

/// Engines at rest between moves, so that a move does not build a player
/// (an alpha-beta player's table is about 6 MB): taken for one move, cleared
/// with [`Player::new_game`] so that it plays as a fresh one would, and given
/// back. At most `limit` rest here; the others are dropped.
pub struct Pool {
    idle: Mutex<HashMap<String, Vec<Box<dyn Any + Send>>>>,
    limit: usize,
}

impl Pool {
    /// A pool keeping at most `limit` players.
    pub fn new(limit: usize) -> Pool {
        Pool {
            idle: Mutex::new(HashMap::new()),
            limit,
        }
    }

    /// Players are pooled by game and canonical spec.
    fn key<G: Roster>(game: &G, spec: &PlayerSpec) -> String {
        format!("{}\u{1f}{spec}", game.spec())
    }

    /// A player for `spec`, from the pool or newly built, ready for a game.
    pub fn take<G: Roster>(
        &self,
        game: &G,
        spec: &PlayerSpec,
    ) -> Result<Box<dyn Player<G>>, String> {
        let pooled = {
            let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
            idle.get_mut(&Self::key(game, spec)).and_then(Vec::pop)
        };
        let mut p = match pooled.map(|b| b.downcast::<Box<dyn Player<G>>>()) {
            Some(Ok(p)) => *p,
            _ => spec.build(game).map_err(|e| e.to_string())?,
        };
        p.new_game();
        Ok(p)
    }

    /// Gives a player back after its move.
    pub fn give<G: Roster>(&self, game: &G, spec: &PlayerSpec, player: Box<dyn Player<G>>) {
        let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
        let held: usize = idle.values().map(Vec::len).sum();
        if held < self.limit {
            idle.entry(Self::key(game, spec))
                .or_default()
                .push(Box::new(player));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    #[test]
    fn slots_admit_their_size_then_queue_then_refuse() {
        let slots = Arc::new(Slots::new(1, 1, Duration::from_millis(200), 3));
        let first = slots.enter().unwrap();
        // One waiter may queue; it gets the slot when the first is freed.
        let waiter = {
            let slots = slots.clone();
            std::thread::spawn(move || slots.enter().map(|_| ()))
        };
        // Let the waiter join the queue, then a third finds it full.
        let start = Instant::now();
        while slots.lock().queue.is_empty() && start.elapsed() < Duration::from_secs(5) {
            std::thread::yield_now();
        }
        let third = slots.enter().err().expect("the queue of one is full");
        assert_eq!((third.status, third.retry_after), (503, Some(3)));
        drop(first);
        assert!(waiter.join().unwrap().is_ok());
        // With the slot held, a lone waiter is refused after the wait.
        let held = slots.enter().unwrap();
        let start = Instant::now();
        let late = slots.enter().err().expect("no slot within the wait");
        assert!(start.elapsed() >= Duration::from_millis(200));
        assert!(late.reason.contains("stayed busy"), "{}", late.reason);
        drop(held);
        assert_eq!(slots.lock().busy, 0);
    }

    #[test]
    fn waiters_get_the_slot_in_the_order_they_came() {
        let slots = Arc::new(Slots::new(1, 8, Duration::from_secs(20), 1));
        let order = Arc::new(Mutex::new(Vec::new()));
        let held = slots.enter().unwrap();
        let mut waiters = Vec::new();
        for k in 0..4 {
            let (slots2, order2) = (slots.clone(), order.clone());
            waiters.push(std::thread::spawn(move || {
                let _slot = slots2.enter().unwrap();
                order2.lock().unwrap().push(k);
                std::thread::sleep(Duration::from_millis(5));
            }));
            // Each joins the line before the next is started.
            let start = Instant::now();
            while slots.lock().queue.len() < k + 1 && start.elapsed() < Duration::from_secs(5) {
                std::thread::yield_now();
            }
        }
        drop(held);
        for w in waiters {
            w.join().unwrap();
        }
        assert_eq!(*order.lock().unwrap(), [0, 1, 2, 3]);
    }
}
