//! Player specs in typed form: a spec string is parsed once, for one game,
//! into a [`PlayerSpec`] that holds every setting as a value; nothing is
//! opened or allocated until [`PlayerSpec::build`]. What a player may cost
//! per move ([`Cost`]) and a server's limits on it ([`Caps`]) are read from
//! the typed value, never from the text, so key and kind spellings cannot
//! slip past them.
//!
//! Names and keys are case-insensitive everywhere (the [`GameSpec`] parser
//! lower-cases them); values keep their case (a net file's path), except
//! the named choices (`mode=`, `rollout=random`, `reduce=`, `finished=`),
//! which are read case-insensitively.

use std::fmt;
use std::time::Duration;

use super::cost::{BookFiles, Cost};
use super::kinds::{clamp_time, ms_text, spec_text, GenericKind, KindSpec};
use crate::game::{GameSpec, SpecError};

/// A player spec parsed and checked for one game.
#[derive(Clone, Debug, PartialEq)]
pub enum PlayerSpec {
    /// `random`.
    Random,
    /// `first`.
    First,
    /// A spec of one of the searching kinds of [`super::KINDS`]
    /// (`alphabeta`, `mcts`, `net:`, `gtp:`), with its typed settings.
    Kind(KindSpec),
    /// `perfect[:empties=E][,book=FILE][,learn=OUT][,ms=T]`: the game's
    /// exact solver.
    Perfect {
        /// Empty squares from which Reversi's player solves (only Reversi
        /// takes it).
        empties: Option<u32>,
        /// The book of solved positions the solver reads first, and the
        /// file it grows (only Connect-4 takes them).
        book: Option<BookFiles>,
        /// The solver's wall-clock budget per move, where it honours one.
        time: Option<Duration>,
    },
    /// One of the game's own players (`level1`, `standard:depth=D`,
    /// `ai:K`, …).
    Own(OwnSpec),
}

/// One of a game's own players: its spec (without `ms`) and the costs the
/// game read from it.
#[derive(Clone, Debug, PartialEq)]
pub struct OwnSpec {
    /// The spec as the game parsed it, less any `ms` argument.
    pub spec: GameSpec,
    /// Plies searched, for players that search.
    pub depth: Option<u32>,
    /// The wall-clock budget per move, for players that take one.
    pub time: Option<Duration>,
    /// Whether the player takes a time budget (`ms=`).
    pub timed: bool,
}

impl OwnSpec {
    /// The own player of `spec` searching `depth` plies; a `timed` player
    /// takes `ms=T` (1..=86,400,000), which is read off here.
    pub fn new(spec: &GameSpec, depth: Option<u32>, timed: bool) -> Result<OwnSpec, SpecError> {
        let time = if timed { super::ms_arg(spec)? } else { None };
        let mut spec = spec.clone();
        if timed {
            spec.args.retain(|(k, _)| k != "ms");
        }
        Ok(OwnSpec {
            spec,
            depth,
            time,
            timed,
        })
    }
}

/// Limits a server puts on the players it builds for strangers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caps {
    /// The most search plies.
    pub depth: u32,
    /// The most MCTS iterations.
    pub sims: u32,
    /// The most wall-clock time per move; every player that takes a time
    /// budget is given at most this.
    pub time: Duration,
    /// The most empty squares an endgame solve may start from.
    pub empties: u32,
}

impl PlayerSpec {
    /// The spec of the searching kind `K` with `settings`.
    pub fn kind<K: GenericKind>(settings: K::Settings) -> PlayerSpec {
        PlayerSpec::Kind(KindSpec::new::<K>(settings))
    }

    /// The settings, where this is a spec of the searching kind `K`.
    pub fn settings<K: GenericKind>(&self) -> Option<&K::Settings> {
        match self {
            PlayerSpec::Kind(k) => k.of::<K>(),
            _ => None,
        }
    }

    /// What the player may cost per move.
    pub fn cost(&self) -> Cost {
        match self {
            PlayerSpec::Random | PlayerSpec::First => Cost::default(),
            PlayerSpec::Kind(k) => k.settings.cost(),
            PlayerSpec::Perfect {
                empties,
                book,
                time,
            } => Cost {
                empties: *empties,
                book: book.clone(),
                time: *time,
                ..Cost::default()
            },
            // A game's own player may read a net (`net=PATH`, Reversi's
            // `engine`) and solve endgames (`empties=E`).
            PlayerSpec::Own(o) => Cost {
                depth: o.depth,
                time: o.time,
                empties: o.spec.get("empties").and_then(|e| e.parse().ok()),
                nets: o.spec.get("net").map(str::to_string).into_iter().collect(),
                ..Cost::default()
            },
        }
    }

    /// The net files the player would read, as the spec names them, to be
    /// checked or rewritten (a server resolves offered names to paths).
    pub fn nets_mut(&mut self) -> Vec<&mut String> {
        match self {
            PlayerSpec::Kind(k) => k.settings.nets_mut(),
            PlayerSpec::Own(o) => o
                .spec
                .args
                .iter_mut()
                .filter(|(k, _)| k == "net")
                .map(|(_, v)| v)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// Gives every player that takes a time budget at most `limit` per move
    /// (a larger `ms` is lowered to it; none becomes it).
    pub fn limit_time(&mut self, limit: Duration) {
        match self {
            PlayerSpec::Random | PlayerSpec::First => {}
            PlayerSpec::Kind(k) => k.settings.limit_time(limit),
            PlayerSpec::Perfect { time, .. } => clamp_time(time, limit),
            PlayerSpec::Own(o) if o.timed => clamp_time(&mut o.time, limit),
            PlayerSpec::Own(_) => {}
        }
    }

    /// Checks the player's cost against `caps` (one line naming the setting
    /// and the limit when over) and gives it at most `caps.time` per move.
    pub fn check_caps(&mut self, caps: &Caps) -> Result<(), SpecError> {
        // Every field is named, so a new kind of cost cannot be left out.
        let Cost {
            depth,
            sims,
            time: _,
            empties,
            nets: _,
            book,
            process,
        } = self.cost();
        let over = |what: &str, v: u32, max: u32| {
            SpecError(format!(
                "'{self}': {what} {v} is over this server's limit of {max}"
            ))
        };
        if let Some(d) = depth.filter(|&d| d > caps.depth) {
            return Err(over("search depth (depth/ply)", d, caps.depth));
        }
        if let Some(n) = sims.filter(|&n| n > caps.sims) {
            return Err(over("sims", n, caps.sims));
        }
        if let Some(e) = empties.filter(|&e| e > caps.empties) {
            return Err(over("empties", e, caps.empties));
        }
        if process.is_some() {
            return Err(SpecError(format!(
                "'{self}': this server starts no programs named in requests \
                 (gtp: engines are for the command line)"
            )));
        }
        if book.is_some() {
            return Err(SpecError(format!(
                "'{self}': this server opens no book files named in requests (leave out book= and learn=)"
            )));
        }
        self.limit_time(caps.time);
        Ok(())
    }
}

impl fmt::Display for PlayerSpec {
    /// The canonical spec text, which parses back to the same value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            PlayerSpec::Random => "random".to_string(),
            PlayerSpec::First => "first".to_string(),
            PlayerSpec::Kind(k) => k.settings.text(),
            PlayerSpec::Perfect {
                empties,
                book,
                time,
            } => spec_text(
                "perfect",
                &empties
                    .map(|e| format!("empties={e}"))
                    .into_iter()
                    .chain(book.as_ref().map(|b| b.to_string()))
                    .chain(ms_text(*time))
                    .collect::<Vec<_>>(),
            ),
            PlayerSpec::Own(o) => {
                let mut text = o.spec.to_string();
                if let Some(t) = ms_text(o.time) {
                    text.push(if o.spec.args.is_empty() { ':' } else { ',' });
                    text.push_str(&t);
                }
                text
            }
        };
        f.write_str(&text)
    }
}
