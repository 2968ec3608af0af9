//! The yardsticks of a learner's run: its net against fixed players from
//! both seats (half the games each), from the configured openings, each
//! result with its score and 95% interval.

use serde::{Deserialize, Serialize};

use crate::eval::matches::play_match_with;
use crate::eval::openings::Openings;
use crate::eval::rating::elo_diff;
use crate::eval::{match_stats, Wdl};
use crate::experiment::csv::{csv_field, split_csv};
use crate::experiment::error::RunError;
use crate::game::driver::seats_swapped;
use crate::game::encode::Encodable;
use crate::game::{Player, Searchable};
use crate::nn::NetFile;
use crate::players::net::NetPlayer;
use crate::players::{PlayerSpec, Roster};

/// `[yardsticks]` of a learner's config.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct YardsticksConfig {
    /// Units between checkpoints (and yardstick measurements).
    #[serde(default = "every")]
    pub every: u64,
    /// Yardstick opponents (none: no yardsticks).
    #[serde(default)]
    pub against: Vec<String>,
    /// Games against each yardstick, half from each seat.
    #[serde(default = "eval_games")]
    pub games: usize,
    /// Openings of the yardstick games (`plies=K` or a file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub openings: Option<String>,
    /// A start position of every yardstick game (moves in notation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// Keep the net of every checkpoint as `net-N.json` (to average them
    /// with `wopr average`), not only the latest.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub keep_nets: bool,
}

impl Default for YardsticksConfig {
    fn default() -> Self {
        YardsticksConfig {
            every: every(),
            against: Vec::new(),
            games: eval_games(),
            openings: None,
            start: None,
            keep_nets: false,
        }
    }
}

/// The default of `every`.
fn every() -> u64 {
    10_000
}

/// The default of `games`.
fn eval_games() -> usize {
    200
}

/// One yardstick's result at a checkpoint.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The opponent's spec.
    pub opponent: String,
    /// Wins, draws and losses of the net.
    pub wdl: Wdl,
    /// `(W + D/2) / games`.
    pub score: f64,
    /// The score's 95% interval.
    pub interval: (f64, f64),
}

impl Row {
    /// A sample of games against `opponent`: its score with draws as half
    /// and the score's 95% interval.
    pub fn sampled(opponent: String, wdl: Wdl) -> Row {
        Row {
            opponent,
            score: wdl.score(),
            interval: elo_diff(&wdl).map_or((0.0, 1.0), |d| d.score_ci95),
            wdl,
        }
    }

    /// A count that is not a sample (every line of an opponent walked): its
    /// interval is the score itself.
    pub fn exact(opponent: String, wdl: Wdl) -> Row {
        let score = wdl.score();
        Row {
            opponent,
            score,
            interval: (score, score),
            wdl,
        }
    }

    /// The columns of `yardsticks.csv` after the unit.
    pub const HEADER: &'static str = "opponent,played,wins,draws,losses,score,score_low,score_high";

    /// The row's CSV fields after the unit.
    pub fn csv(&self) -> String {
        let w = &self.wdl;
        format!(
            "{},{},{},{},{},{:.4},{:.4},{:.4}",
            csv_field(&self.opponent),
            w.games(),
            w.wins,
            w.draws,
            w.losses,
            self.score,
            self.interval.0,
            self.interval.1
        )
    }
}

/// The rows of a run folder's `yardsticks.csv`, each with its unit count
/// (none when the file is missing; a line that is not a row is an error).
pub fn read_rows(dir: &std::path::Path) -> Result<Vec<(u64, Row)>, RunError> {
    let path = dir.join("yardsticks.csv");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(Vec::new());
    };
    text.lines()
        .enumerate()
        .skip(1)
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            parse_row(l).ok_or_else(|| {
                RunError(format!(
                    "{} line {}: not a yardstick row",
                    path.display(),
                    i + 1
                ))
            })
        })
        .collect()
}

/// `UNIT,opponent,played,wins,draws,losses,score,low,high` (the opponent
/// quoted where it holds a comma).
fn parse_row(line: &str) -> Option<(u64, Row)> {
    let f = split_csv(line);
    let [at, opponent, _, w, d, l, score, low, high] = &f[..] else {
        return None;
    };
    Some((
        at.parse().ok()?,
        Row {
            opponent: opponent.clone(),
            wdl: Wdl {
                wins: w.parse().ok()?,
                draws: d.parse().ok()?,
                losses: l.parse().ok()?,
            },
            score: score.parse().ok()?,
            interval: (low.parse().ok()?, high.parse().ok()?),
        },
    ))
}

/// Measures a learner's net.
pub trait Yardsticks {
    /// The net's results at count `done` (none: nothing to measure).
    fn measure(&self, net: &NetFile, done: u64) -> Result<Vec<Row>, RunError>;
}

/// No yardsticks (a net that plays no game, or none asked for).
pub struct NoYardsticks;

impl Yardsticks for NoYardsticks {
    fn measure(&self, _: &NetFile, _: u64) -> Result<Vec<Row>, RunError> {
        Ok(Vec::new())
    }
}

/// The yardsticks of a game: the opponents parsed once, the openings
/// resolved once.
pub struct GameYardsticks<'g, G: Roster> {
    game: &'g G,
    against: Vec<(String, PlayerSpec)>,
    games: usize,
    openings: Openings,
    seed: u64,
}

impl<'g, G> GameYardsticks<'g, G>
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    /// Checks `config` against `game` (opponents, openings); the games of
    /// yardstick `j` are seeded from `seed · 1000 + j`.
    pub fn new(game: &'g G, config: &YardsticksConfig, seed: u64) -> Result<Self, RunError> {
        let against = config
            .against
            .iter()
            .map(|o| {
                PlayerSpec::parse(game, o)
                    .map(|p| (o.clone(), p))
                    .map_err(|e| RunError(format!("yardsticks.against '{o}': {e}")))
            })
            .collect::<Result<_, _>>()?;
        let openings = match (&config.openings, &config.start) {
            (Some(spec), _) => Openings::parse(game, spec)
                .map_err(|e| RunError(format!("yardsticks.openings: {e}")))?,
            (None, Some(moves)) => Openings::start(game, moves)
                .map_err(|e| RunError(format!("yardsticks.start: {e}")))?,
            (None, None) => Openings::None,
        };
        Ok(GameYardsticks {
            game,
            against,
            games: config.games,
            openings,
            seed,
        })
    }
}

impl<G> Yardsticks for GameYardsticks<'_, G>
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    fn measure(&self, net: &NetFile, _done: u64) -> Result<Vec<Row>, RunError> {
        let game = self.game;
        let mine = || -> Result<Box<dyn Player<G>>, String> {
            NetPlayer::from_file(game, net.clone(), "net")
                .map(|p| Box::new(p) as Box<dyn Player<G>>)
                .map_err(|e| e.to_string())
        };
        let mut rows = Vec::new();
        for (j, (text, spec)) in self.against.iter().enumerate() {
            let theirs = || spec.build(game).map_err(|e| e.to_string());
            let seed = self.seed.wrapping_mul(1000).wrapping_add(j as u64);
            let records = play_match_with(
                game,
                &mine,
                &theirs,
                self.games,
                seed,
                &self.openings,
                &|| {},
            )
            .map_err(RunError)?;
            let m = match_stats("net", text, &records, |i| usize::from(seats_swapped(i)));
            let wdl = Wdl {
                wins: m.as_first.wins + m.as_second.wins,
                draws: m.as_first.draws + m.as_second.draws,
                losses: m.as_first.losses + m.as_second.losses,
            };
            rows.push(Row::sampled(text.clone(), wdl));
        }
        Ok(rows)
    }
}

/// A measurement: the yardstick rows and the files kept with them.
#[derive(Default)]
pub struct Measured {
    /// The rows of `yardsticks.csv`.
    pub rows: Vec<Row>,
    /// Files to write into the run folder (a relative path, its text).
    pub files: Vec<(String, String)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_reads_back_what_it_wrote_even_with_commas_in_the_opponent() {
        let row = Row {
            opponent: "ai:3,ties=first".into(),
            wdl: Wdl {
                wins: 7,
                draws: 2,
                losses: 1,
            },
            score: 0.8,
            interval: (0.55, 1.0),
        };
        let (at, back) = parse_row(&format!("40,{}", row.csv())).unwrap();
        assert_eq!(at, 40);
        assert_eq!(back, row);
        assert!(parse_row("40,random,10,1,2").is_none());
    }
}
