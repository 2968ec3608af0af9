//! What the server keeps between requests: the table of held games (bounded
//! in number, expired when idle), the runs folder and the engines.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::engines::Engines;
use super::refusal::Refusal;
use super::session::Held;

/// One held game and when it was last used.
struct Entry {
    game: Arc<Mutex<Box<dyn Held>>>,
    last_used: Instant,
}

/// The table of held games.
pub struct Games {
    table: Mutex<HashMap<String, Entry>>,
    limit: usize,
    idle: Duration,
}

impl Games {
    /// A table holding at most `limit` games, each dropped after `idle`
    /// without a request.
    pub fn new(limit: usize, idle: Duration) -> Games {
        Games {
            table: Mutex::new(HashMap::new()),
            limit,
            idle,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        // A poisoned table is still a consistent map (entries are inserted
        // and removed whole), so go on with it.
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Stores a new game under a fresh random id; refuses (503) when the
    /// table is full of games that are not idle.
    pub fn insert(&self, game: Box<dyn Held>) -> Result<String, Refusal> {
        let mut table = self.lock();
        let idle = self.idle;
        if table.len() >= self.limit {
            table.retain(|_, e| e.last_used.elapsed() < idle);
        }
        if table.len() >= self.limit {
            // Retry when the game idle longest would expire.
            let soonest = table
                .values()
                .map(|e| idle.saturating_sub(e.last_used.elapsed()).as_secs() + 1)
                .min()
                .unwrap_or(1);
            return Err(Refusal::busy(
                format!(
                    "the server holds its limit of {} games; try again when some have ended (idle games expire after {} s)",
                    self.limit,
                    self.idle.as_secs()
                ),
                soonest,
            ));
        }
        let id = loop {
            let id = format!("{:016x}", rand::random::<u64>());
            if !table.contains_key(&id) {
                break id;
            }
        };
        table.insert(
            id.clone(),
            Entry {
                game: Arc::new(Mutex::new(game)),
                last_used: Instant::now(),
            },
        );
        Ok(id)
    }

    /// The game with this id (marking it used), or a 404.
    pub fn get(&self, id: &str) -> Result<Arc<Mutex<Box<dyn Held>>>, Refusal> {
        let mut table = self.lock();
        match table.get_mut(id) {
            Some(e) => {
                e.last_used = Instant::now();
                Ok(e.game.clone())
            }
            None => Err(Refusal::new(
                404,
                format!(
                    "no game '{id}' (it may have expired after {} s idle; start a new one)",
                    self.idle.as_secs()
                ),
            )),
        }
    }

    /// Forgets a game; whether it was there.
    pub fn remove(&self, id: &str) -> bool {
        self.lock().remove(id).is_some()
    }

    /// Drops the games idle for longer than the limit; how many remain.
    pub fn expire(&self) -> usize {
        let idle = self.idle;
        let mut table = self.lock();
        table.retain(|_, e| e.last_used.elapsed() < idle);
        table.len()
    }
}

/// Everything the handlers share.
pub struct AppState {
    /// The held games.
    pub games: Games,
    /// The folder of run folders (`--runs`).
    pub runs: PathBuf,
    /// The limits on engines, the offered nets, the engine slots and the
    /// engines at rest.
    pub engines: Arc<Engines>,
}

impl AppState {
    /// The run folders under the runs folder (those holding a
    /// `generations.csv` or a `config.toml`), sorted by name.
    pub fn run_names(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Ok(dir) = std::fs::read_dir(&self.runs) {
            for e in dir.flatten() {
                let p = e.path();
                let is_run = p.join("generations.csv").is_file() || p.join("config.toml").is_file();
                if let (true, Some(name)) = (is_run, e.file_name().to_str()) {
                    out.push(name.to_string());
                }
            }
        }
        out.sort();
        out
    }

    /// The folder of run `name`, if it is one of [`AppState::run_names`]
    /// (so no path outside the runs folder can be asked for).
    pub fn run_dir(&self, name: &str) -> Result<PathBuf, Refusal> {
        if self.run_names().iter().any(|n| n == name) {
            Ok(self.runs.join(name))
        } else {
            Err(Refusal::new(
                404,
                format!(
                    "no run '{name}' in {} (runs: {})",
                    self.runs.display(),
                    self.run_names().join(", ")
                ),
            ))
        }
    }
}
