//! Forfeits counted apart: who forfeited (the measured player or its
//! opponent), from which seat, and why ([`ForfeitKind`]: time, an illegal
//! move, a crash). A forfeit is a lost game in the W/D/L tallies; these
//! counts say how many of those results nobody played for.

use serde::Serialize;

use crate::game::{ForfeitKind, GameRecord};

/// Forfeits by why.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ForfeitCounts {
    /// Out of time.
    pub time: u64,
    /// An illegal move (or no move at all).
    pub illegal: u64,
    /// The engine exited, closed its pipes, answered an error or stopped
    /// speaking its protocol.
    pub crash: u64,
}

impl ForfeitCounts {
    /// Counts one forfeit.
    pub fn add(&mut self, kind: ForfeitKind) {
        *self.slot(kind) += 1;
    }

    fn slot(&mut self, kind: ForfeitKind) -> &mut u64 {
        match kind {
            ForfeitKind::Time => &mut self.time,
            ForfeitKind::Illegal => &mut self.illegal,
            ForfeitKind::Crash => &mut self.crash,
        }
    }

    /// The count of one kind.
    pub fn of(&self, kind: ForfeitKind) -> u64 {
        match kind {
            ForfeitKind::Time => self.time,
            ForfeitKind::Illegal => self.illegal,
            ForfeitKind::Crash => self.crash,
        }
    }

    /// All forfeits.
    pub fn total(&self) -> u64 {
        self.time + self.illegal + self.crash
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &ForfeitCounts) {
        for kind in ForfeitKind::ALL {
            *self.slot(kind) += other.of(kind);
        }
    }

    /// The nonzero kinds, `time 2, crash 1` (empty for none).
    pub fn describe(&self) -> String {
        ForfeitKind::ALL
            .iter()
            .filter(|&&k| self.of(k) > 0)
            .map(|&k| format!("{k} {}", self.of(k)))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// One side's forfeits, by the seat it forfeited from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SeatForfeits {
    /// Forfeits in seat 0 (moving first).
    pub as_first: ForfeitCounts,
    /// Forfeits in seat 1.
    pub as_second: ForfeitCounts,
}

impl SeatForfeits {
    /// Counts one forfeit from `seat`.
    pub fn add(&mut self, seat: usize, kind: ForfeitKind) {
        if seat == 0 {
            self.as_first.add(kind);
        } else {
            self.as_second.add(kind);
        }
    }

    /// All forfeits, both seats.
    pub fn total(&self) -> u64 {
        self.as_first.total() + self.as_second.total()
    }

    /// Adds `other`'s counts to these.
    pub fn merge(&mut self, other: &SeatForfeits) {
        self.as_first.merge(&other.as_first);
        self.as_second.merge(&other.as_second);
    }

    /// `2 (as black: time 1; as white: crash 1)` with the seats' names;
    /// `0` for none.
    pub fn describe(&self, seat_names: &[&str]) -> String {
        let name = |s: usize| seat_names.get(s).copied().unwrap_or("?");
        let parts: Vec<String> = [(0, &self.as_first), (1, &self.as_second)]
            .into_iter()
            .filter(|(_, c)| c.total() > 0)
            .map(|(s, c)| format!("as {}: {}", name(s), c.describe()))
            .collect();
        if parts.is_empty() {
            "0".to_string()
        } else {
            format!("{} ({})", self.total(), parts.join("; "))
        }
    }
}

/// A match's forfeits, from the measured player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct MatchForfeits {
    /// The player's forfeits, by its seat.
    pub player: SeatForfeits,
    /// The opponent's forfeits, by the opponent's seat.
    pub opponent: SeatForfeits,
    /// Tries of games that were forfeited and played again from the same
    /// opening and stream (`OnForfeit::Replay`); they count nowhere else.
    pub replayed: u64,
}

impl MatchForfeits {
    /// Counts the forfeits of `records`, where the player sat in seat
    /// `player_seat(i)` in game `i`.
    pub fn count(records: &[GameRecord], player_seat: impl Fn(usize) -> usize) -> MatchForfeits {
        let mut out = MatchForfeits::default();
        for (i, rec) in records.iter().enumerate() {
            out.replayed += rec.replayed.len() as u64;
            if let Some(f) = &rec.forfeit {
                if f.seat == player_seat(i) {
                    out.player.add(f.seat, f.kind);
                } else {
                    out.opponent.add(f.seat, f.kind);
                }
            }
        }
        out
    }

    /// Forfeits by either side.
    pub fn total(&self) -> u64 {
        self.player.total() + self.opponent.total()
    }

    /// Adds `other`'s counts to these (a match played in batches).
    pub fn merge(&mut self, other: &MatchForfeits) {
        self.player.merge(&other.player);
        self.opponent.merge(&other.opponent);
        self.replayed += other.replayed;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Forfeit;

    fn record(forfeit: Option<(usize, ForfeitKind)>, replayed: usize) -> GameRecord {
        let f = |(seat, kind)| Forfeit {
            seat,
            kind,
            message: "engine x: gone".into(),
        };
        GameRecord {
            game: "tictactoe".into(),
            players: vec!["a".into(), "b".into()],
            moves: vec![],
            actions: vec![],
            returns: Some(vec![0.0, 0.0]),
            score: None,
            opening: 0,
            forfeit: forfeit.map(f),
            replayed: vec![f((0, ForfeitKind::Time)); replayed],
            thinking: vec![],
        }
    }

    #[test]
    fn forfeits_are_counted_by_side_seat_and_kind() {
        // The player sits in seat 0 in even games, seat 1 in odd ones.
        let records = [
            record(Some((1, ForfeitKind::Time)), 0), // the opponent, seat 1
            record(Some((1, ForfeitKind::Crash)), 2), // the player, seat 1
            record(None, 1),
            record(Some((0, ForfeitKind::Illegal)), 0), // the opponent, seat 0
        ];
        let m = MatchForfeits::count(&records, |i| i % 2);
        assert_eq!(m.opponent.as_second.time, 1);
        assert_eq!(m.opponent.as_first.illegal, 1);
        assert_eq!(m.player.as_second.crash, 1);
        assert_eq!(
            (m.player.total(), m.opponent.total(), m.replayed),
            (1, 2, 3)
        );
        assert_eq!(
            m.opponent.describe(&["black", "white"]),
            "2 (as black: illegal 1; as white: time 1)"
        );
        assert_eq!(m.player.as_first.describe(), "");
        assert_eq!(SeatForfeits::default().describe(&["x", "o"]), "0");
    }
}
