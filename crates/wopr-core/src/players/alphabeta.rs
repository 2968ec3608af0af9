//! The `alphabeta` player: [`AlphaBeta`] search with
//! the game's documented heuristic evaluation.
//!
//! Spec: `alphabeta[:depth=D][,ms=T]`. With neither limit the depth is 4.
//! With `ms` alone the search deepens until the time is spent (not
//! reproducible); with both, whichever comes first stops it.

use std::marker::PhantomData;

use std::time::Duration;

use crate::game::rng::WoprRng;
use crate::game::{Action, Game, GameSpec, Searchable, SpecError};
use crate::search::{AlphaBeta, Limits};

use super::cost::Cost;
use super::kinds::{clamp_time, ms_text, spec_text, BoardGame, GenericKind, Kind, Plays, Settings};
use super::{Player, Roster, ViewOf};

/// The `alphabeta` kind: its row, its settings (the search [`Limits`]).
pub struct AlphaBetaKind;

impl GenericKind for AlphaBetaKind {
    const ROW: Kind = Kind {
        name: "alphabeta",
        syntax: "alphabeta[:depth=D][,ms=T]",
        about: "negamax alpha-beta over the game's heuristic",
        plays: Plays::Reads("alphabeta"),
    };
    type Settings = Limits;

    fn parse<G: Roster>(_: &G, spec: &GameSpec) -> Result<Limits, SpecError> {
        parse_limits(spec)
    }

    fn build<G: BoardGame>(_: &G, limits: &Limits) -> Result<Box<dyn Player<G>>, SpecError> {
        Ok(Box::new(AlphaBetaPlayer::<G>::new(*limits)))
    }
}

impl Settings for Limits {
    fn cost(&self) -> Cost {
        Cost {
            depth: self.depth,
            time: self.time,
            ..Cost::default()
        }
    }

    fn limit_time(&mut self, limit: Duration) {
        clamp_time(&mut self.time, limit);
    }

    fn text(&self) -> String {
        let depth = self.depth.map(|d| format!("depth={d}"));
        let parts: Vec<String> = depth.into_iter().chain(ms_text(self.time)).collect();
        spec_text("alphabeta", &parts)
    }
}

/// The depth used when a spec gives no limit.
pub const DEFAULT_DEPTH: u32 = 4;

/// Transposition-table size (2^18 entries, about 6 MB) per player.
const TT_BITS: u32 = 18;

/// A player that searches with alpha-beta.
pub struct AlphaBetaPlayer<G> {
    search: AlphaBeta,
    limits: Limits,
    _game: PhantomData<fn() -> G>,
}

impl<G> AlphaBetaPlayer<G> {
    /// A player with the given limits.
    pub fn new(limits: Limits) -> Self {
        AlphaBetaPlayer {
            search: AlphaBeta::new(TT_BITS),
            limits,
            _game: PhantomData,
        }
    }

    /// Reads `depth=` and `ms=` from a parsed `alphabeta` spec.
    pub fn from_spec(spec: &GameSpec) -> Result<Self, SpecError> {
        Ok(Self::new(parse_limits(spec)?))
    }

    /// The search limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }
}

/// Reads the limits of an `alphabeta[:depth=D][,ms=T]` spec (depth 1..=64,
/// T 1..=86,400,000 ms; depth [`DEFAULT_DEPTH`] when neither is given).
pub fn parse_limits(spec: &GameSpec) -> Result<Limits, SpecError> {
    spec.check_keys(&["depth", "ms"])?;
    let depth = spec
        .get("depth")
        .map(|_| spec.int("depth", 0, 1, 64))
        .transpose()?;
    Ok(match (depth, super::ms_arg(spec)?) {
        (None, None) => Limits {
            depth: Some(DEFAULT_DEPTH),
            time: None,
        },
        (d, time) => Limits {
            depth: d.map(|d| d as u32),
            time,
        },
    })
}

impl<G> Player<G> for AlphaBetaPlayer<G>
where
    G: Game,
    G::State: Searchable,
{
    fn spec(&self) -> String {
        let mut parts = Vec::new();
        if let Some(d) = self.limits.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(t) = self.limits.time {
            parts.push(format!("ms={}", t.as_millis()));
        }
        format!("alphabeta:{}", parts.join(","))
    }

    fn choose(&mut self, view: &ViewOf<G>, legal: &[Action], rng: &mut WoprRng) -> Action {
        if legal.len() == 1 {
            return legal[0];
        }
        self.search.search(view, self.limits, rng).best
    }

    fn new_game(&mut self) {
        self.search.clear();
    }
}
