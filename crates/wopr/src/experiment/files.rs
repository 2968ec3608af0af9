//! An evolution's state ([`Checkpoint`]), its rows of `generations.csv`,
//! and [`load_checkpoint`](crate::experiment::load_checkpoint), which reads a run folder back (the run layer's,
//! or one written before it: `checkpoint.json`).

use std::fs;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::config::EvolveConfig;
use super::csv::split_csv;
use super::engine::{with_engine, AnyEngine};
use super::error::RunError;

use crate::evolve::{Engine, Genome};
use crate::nn::SimdLevel;

/// One line of `generations.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationRow {
    /// Generation (0-based).
    pub generation: u64,
    /// Best fitness.
    pub best: f64,
    /// Mean fitness.
    pub mean: f64,
    /// Lowest fitness.
    pub min: f64,
    /// Median fitness (NaN in rows written before the column existed).
    #[serde(default = "f64_nan")]
    pub median: f64,
    /// Population diversity.
    pub diversity: f64,
    /// Games played this generation.
    pub games: u64,
    /// The 95% half-width of the best fitness, where fitness is a sample of
    /// games (0 where exact; see [`crate::evolve::Scores`]).
    #[serde(default)]
    pub best_error: f64,
    /// The mean over the population of each fitness's 95% half-width.
    #[serde(default)]
    pub mean_error: f64,
    /// The champion's zero weights per weight layer (pruned connections;
    /// see [`NetPhenotype::pruned`](crate::experiment::NetPhenotype::pruned)).
    #[serde(default)]
    pub pruned: Vec<u64>,
    /// The same for the second population's champion (`two-populations`).
    #[serde(default)]
    pub pruned_second: Vec<u64>,
    /// Wall-clock seconds for the generation (not part of the result).
    pub seconds: f64,
    /// Best, mean and lowest fitness of the second population
    /// (`two-populations` only).
    #[serde(default)]
    pub second: Option<(f64, f64, f64)>,
}

/// One line of `yardsticks.csv`: the champion of a generation against one
/// opponent (or exhaustively).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct YardstickRow {
    /// Generation measured.
    pub generation: u64,
    /// Opponent spec, or `exhaustive`.
    pub opponent: String,
    /// Games played (lines walked, for exhaustive).
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Wins over games.
    pub win_rate: f64,
}

/// The whole state of a run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The config as run.
    pub config: EvolveConfig,
    /// The engine.
    pub engine: AnyEngine,
    /// One row per evaluated generation. Not written into
    /// `checkpoint.json` (it grows with the run): `generations.csv` holds it
    /// and [`load_checkpoint`](crate::experiment::load_checkpoint) reads it back.
    #[serde(default, skip_serializing)]
    pub history: Vec<GenerationRow>,
    /// Yardstick results so far; likewise kept in `yardsticks.csv`.
    #[serde(default, skip_serializing)]
    pub yardsticks: Vec<YardstickRow>,
    /// Champions of past generations (weights), newest last.
    pub hall_of_fame: Vec<Vec<f32>>,
    /// The weights and fitness of the best champion so far (for absolute
    /// fitness schemes) and the generation it came from.
    pub best: Option<(f64, u64, Vec<f32>)>,
    /// The latest generation's champion.
    pub champion: Vec<f32>,
    /// Generations since the best fitness last improved.
    pub stall: u64,
    /// Whether a stopping rule has fired.
    pub finished: bool,
    /// The second population of the `two-populations` scheme (second movers).
    #[serde(default)]
    pub second: Option<AnyEngine>,
    /// The second population's latest champion.
    #[serde(default)]
    pub champion_second: Vec<f32>,
    /// The SIMD level the run's nets were evaluated at when it started
    /// (`portable`, `avx2`, `avx512`): the portable level rounds differently
    /// from the fused ones, so a run resumed on a machine of the other kind
    /// goes on reproducibly but not bit for bit as it would have.
    #[serde(default)]
    pub simd: Option<String>,
}

impl Checkpoint {
    /// Checks that the state fits a net of `weights` weights before a run
    /// goes on from it: non-empty populations, every genome and every kept
    /// weight vector of the right length, counters that agree.
    pub fn validate(&self, weights: usize) -> Result<(), RunError> {
        let bad = |what: String| Err(RunError(format!("corrupt checkpoint: {what}")));
        for (name, engine) in [
            ("population", Some(&self.engine)),
            ("second population", self.second.as_ref()),
        ] {
            let Some(engine) = engine else { continue };
            let lens: Vec<usize> = with_engine!(engine, e => e.population().iter().map(|g| g.decode().len()).collect());
            if lens.is_empty() {
                return bad(format!("the {name} is empty"));
            }
            if let Some(l) = lens.iter().find(|&&l| l != weights) {
                return bad(format!(
                    "a genome of the {name} decodes to {l} weights, the net has {weights}"
                ));
            }
        }
        for engine in std::iter::once(&self.engine).chain(self.second.as_ref()) {
            let state = with_engine!(engine, e => e.check_state());
            if let Err(e) = state {
                return bad(e);
            }
        }
        let kept = [
            ("champion", &self.champion),
            ("second champion", &self.champion_second),
        ];
        let finite = |w: &[f32]| w.iter().all(|x| x.is_finite());
        let all_kept = kept
            .iter()
            .map(|(_, w)| w.as_slice())
            .chain(self.hall_of_fame.iter().map(Vec::as_slice))
            .chain(self.best.iter().map(|b| b.2.as_slice()));
        if !all_kept.clone().all(finite) {
            // A value beyond f32's range reads as an infinity, which the next
            // save could not write as JSON.
            return bad("a kept weight vector holds a value outside the finite f32 range".into());
        }
        for (name, w) in kept {
            if !w.is_empty() && w.len() != weights {
                return bad(format!(
                    "the {name} has {} weights, the net has {weights}",
                    w.len()
                ));
            }
        }
        if let Some(w) = self.hall_of_fame.iter().find(|w| w.len() != weights) {
            return bad(format!(
                "a hall-of-fame entry has {} weights, the net has {weights}",
                w.len()
            ));
        }
        if let Some((_, _, w)) = &self.best {
            if w.len() != weights {
                return bad(format!(
                    "the best champion has {} weights, the net has {weights}",
                    w.len()
                ));
            }
        }
        Ok(())
    }

    /// The SIMD level recorded at the start and the one this machine uses,
    /// when they round differently (see [`Checkpoint::simd`]).
    pub fn simd_mismatch(&self) -> Option<(String, String)> {
        let now = SimdLevel::detect();
        let then: SimdLevel = self.simd.as_deref()?.parse().ok()?;
        (then.fused() != now.fused()).then(|| (then.name().to_string(), now.name().to_string()))
    }
}

/// An evolution's state from its JSON (`value`), upgraded from older
/// layouts, with the rows of `dir`'s `generations.csv` it has reached.
pub(crate) fn checkpoint_from(
    dir: &Path,
    value: serde_json::Value,
) -> Result<Checkpoint, RunError> {
    let mut cp = parse_state(value)?;
    // Rows written after the checkpoint (a run killed between the two
    // writes) belong to generations the checkpoint has not reached.
    let done = cp.engine.generation();
    let generations = dir.join("generations.csv");
    if generations.exists() {
        cp.history = read_rows(&generations, parse_generation)?;
        cp.history.retain(|r| r.generation < done);
    }
    Ok(cp)
}

/// An evolution's state from its JSON, upgraded from older layouts (the
/// flat `[algorithm]` table); its logs are not read.
pub(crate) fn parse_state(mut value: serde_json::Value) -> Result<Checkpoint, RunError> {
    if let Some(a) = value.pointer_mut("/config/algorithm") {
        super::algorithm::upgrade_checkpoint_algorithm(a);
    }
    serde_json::from_value(value).map_err(|e| RunError(format!("not a wopr checkpoint: {e}")))
}

/// `yardsticks.csv` in the columns of an evolution folder written before
/// the run layer (`generation,opponent,games,wins,draws,losses,win_rate`).
pub(crate) fn read_old_yardsticks(path: &Path) -> Result<Vec<YardstickRow>, RunError> {
    read_rows(path, parse_yardstick)
}

/// The header of `generations.csv`; with two populations, the second's
/// best, mean and lowest fitness follow (`best2,mean2,min2`).
/// Runs written before the error columns existed lack `best_error` and
/// `mean_error`; they are read back as 0.
/// `pruned` lists the champion's zero weights per layer, `;`-separated.
/// Runs written before the `median` column existed read back with a NaN
/// median.
const GENERATIONS_HEADER: &str =
    "generation,best,mean,min,median,diversity,games,best_error,mean_error,pruned,seconds";

/// NaN, for a `median` missing from older rows.
fn f64_nan() -> f64 {
    f64::NAN
}

/// The header of `generations.csv` for one population or two.
pub(crate) fn generations_header(two: bool) -> String {
    format!(
        "{GENERATIONS_HEADER}{}",
        if two { ",best2,mean2,min2,pruned2" } else { "" }
    )
}

#[cfg(test)]
fn generation_line(r: &GenerationRow) -> String {
    format!("{},{}\n", r.generation, generation_fields(r))
}

/// A row of `generations.csv` after its generation.
pub(crate) fn generation_fields(r: &GenerationRow) -> String {
    let mut line = format!(
        "{},{},{},{},{},{},{},{},{},{:.3}",
        r.best,
        r.mean,
        r.min,
        r.median,
        r.diversity,
        r.games,
        r.best_error,
        r.mean_error,
        counts(&r.pruned),
        r.seconds
    );
    if let Some((b, m, l)) = r.second {
        line.push_str(&format!(",{b},{m},{l},{}", counts(&r.pruned_second)));
    }
    line
}

/// Counts as one CSV field: `3;0`.
fn counts(c: &[u64]) -> String {
    c.iter().map(u64::to_string).collect::<Vec<_>>().join(";")
}

/// A `3;0` field back as counts (empty: none).
fn parse_counts(field: &str) -> Option<Vec<u64>> {
    if field.is_empty() {
        return Some(Vec::new());
    }
    field.split(';').map(|x| x.parse().ok()).collect()
}

fn parse_generation(header: &[String], f: &[String]) -> Option<GenerationRow> {
    let at = |name: &str| header.iter().position(|h| h == name);
    let x = |name: &str| f.get(at(name)?)?.parse::<f64>().ok();
    let second = match at("best2") {
        Some(_) => Some((x("best2")?, x("mean2")?, x("min2")?)),
        None => None,
    };
    Some(GenerationRow {
        generation: f.get(at("generation")?)?.parse().ok()?,
        best: x("best")?,
        mean: x("mean")?,
        min: x("min")?,
        median: at("median").map_or(Some(f64::NAN), |_| x("median"))?,
        diversity: x("diversity")?,
        games: f.get(at("games")?)?.parse().ok()?,
        best_error: at("best_error").map_or(Some(0.0), |_| x("best_error"))?,
        mean_error: at("mean_error").map_or(Some(0.0), |_| x("mean_error"))?,
        pruned: match at("pruned") {
            Some(i) => parse_counts(f.get(i)?)?,
            None => Vec::new(),
        },
        pruned_second: match at("pruned2") {
            Some(i) => parse_counts(f.get(i)?)?,
            None => Vec::new(),
        },
        seconds: x("seconds")?,
        second,
    })
}

fn parse_yardstick(_header: &[String], f: &[String]) -> Option<YardstickRow> {
    let n = |i: usize| f.get(i)?.parse::<u64>().ok();
    Some(YardstickRow {
        generation: n(0)?,
        opponent: f.get(1)?.clone(),
        games: n(2)?,
        wins: n(3)?,
        draws: n(4)?,
        losses: n(5)?,
        win_rate: f.get(6)?.parse().ok()?,
    })
}

/// Reads a run folder's CSV log back (header skipped).
fn read_rows<T>(
    path: &Path,
    parse: fn(&[String], &[String]) -> Option<T>,
) -> Result<Vec<T>, RunError> {
    let text = fs::read_to_string(path)
        .map_err(|e| RunError(format!("cannot read {}: {e}", path.display())))?;
    let header = split_csv(text.lines().next().unwrap_or_default());
    text.lines()
        .enumerate()
        .skip(1)
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            parse(&header, &split_csv(l)).ok_or_else(|| {
                RunError(format!(
                    "{} line {}: not a row of this log",
                    path.display(),
                    i + 1
                ))
            })
        })
        .collect()
}

/// The weights the run offers as its result: the best champion so far for
/// absolute fitness, the latest generation's otherwise.
pub fn champion_weights(cp: &Checkpoint) -> Option<&[f32]> {
    let best_ever = cp.config.fitness.champion == super::config::ChampionRule::Best;
    if cp.config.fitness.scheme.absolute() && best_ever {
        cp.best.as_ref().map(|b| b.2.as_slice())
    } else if cp.champion.is_empty() {
        None
    } else {
        Some(&cp.champion)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(line: &str) -> Vec<String> {
        split_csv(line)
    }

    #[test]
    fn generation_rows_round_trip_through_their_line() {
        let row = GenerationRow {
            generation: 3,
            best: 16.0,
            mean: 9.5,
            min: 4.0,
            median: 8.5,
            diversity: 0.5,
            games: 2000,
            best_error: 3.5,
            mean_error: 4.25,
            pruned: vec![3, 0],
            pruned_second: vec![1, 2],
            seconds: 0.125,
            second: Some((1.0, 0.5, 0.25)),
        };
        let header = fields(&format!("{GENERATIONS_HEADER},best2,mean2,min2,pruned2"));
        let line = generation_line(&row);
        assert_eq!(
            parse_generation(&header, &fields(line.trim_end())),
            Some(row)
        );
    }

    #[test]
    fn rows_written_before_the_error_columns_read_back_with_error_zero() {
        // The header of run folders written before fitness errors were logged.
        let header = fields("generation,best,mean,min,diversity,games,seconds,best2,mean2,min2");
        let row = parse_generation(&header, &fields("0,110,0,-108,0.5,39800,74.053,1,2,3"))
            .expect("an old row");
        assert_eq!((row.best, row.games, row.seconds), (110.0, 39800, 74.053));
        assert_eq!((row.best_error, row.mean_error), (0.0, 0.0));
        assert!(row.median.is_nan(), "no median column: NaN");
        assert_eq!(row.second, Some((1.0, 2.0, 3.0)));
        // A row missing a column of its header is not a row of the log.
        assert_eq!(parse_generation(&header, &fields("0,110,0")), None);
    }
}
