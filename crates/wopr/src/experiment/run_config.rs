//! [`RunConfig`]: a run's whole config, parsed once from its TOML text
//! into the typed config of the learner it names (`[learner] kind`; none:
//! evolution), with `--set KEY=VALUE` settings and a seed applied to the
//! TOML table first. `wopr run`, `wopr evolve` and Python's `wopr.run`
//! read their configs through it.

use serde::de::DeserializeOwned;

use super::config::EvolveConfig;
use super::error::RunError;
use super::learn::alphazero::AlphaZeroConfig;
use super::learn::pretrain::PretrainConfig;
use super::learn::td::TdConfig;
use super::learn::train::TrainConfig;
use super::learner::{EvolveLearner, LearnerKind};

/// A run's config: one learner's typed config.
#[derive(Clone, Debug, PartialEq)]
pub enum RunConfig {
    /// Evolution (every file in `configs/`; checked by
    /// [`EvolveConfig::check`] when parsed).
    Evolve(EvolveConfig),
    /// TD self-play.
    Td(TdConfig),
    /// Supervised training on a data set.
    Train(TrainConfig),
    /// Pre-training a seed population.
    Pretrain(PretrainConfig),
    /// AlphaZero self-play.
    Alphazero(AlphaZeroConfig),
}

impl RunConfig {
    /// Parses a config's TOML `text` once, after applying each
    /// `SECTION.KEY=VALUE` of `sets` (the value in TOML syntax: `10`,
    /// `0.5`, `"raw"`, `[6]`, `true`) and `seed` to its table. `origin`
    /// names the text in errors (a file's path; empty: none). Errors are one
    /// line: `bad --set: …` for a setting that is not one, else `bad config
    /// ORIGIN: …`, with the line of the file where no `--set` rewrote it.
    pub fn parse(
        text: &str,
        origin: &str,
        sets: &[String],
        seed: Option<u64>,
    ) -> Result<RunConfig, RunError> {
        let table: toml::Table = match text.parse() {
            Ok(t) => t,
            Err(e) if sets.is_empty() => {
                return Err(bad(origin, &located(text, &e)));
            }
            Err(e) => {
                return Err(RunError(format!(
                    "bad --set: the config is not TOML: {}",
                    e.message()
                )))
            }
        };
        from_parts(Some(text), table, origin, sets, seed)
    }

    /// [`RunConfig::parse`] of a table already read (a Python dict), with
    /// `seed` applied.
    pub fn from_table(
        table: toml::Table,
        origin: &str,
        seed: Option<u64>,
    ) -> Result<RunConfig, RunError> {
        from_parts(None, table, origin, &[], seed)
    }

    /// The learner this config runs.
    pub fn kind(&self) -> LearnerKind {
        match self {
            RunConfig::Evolve(_) => LearnerKind::Evolve,
            RunConfig::Td(_) => LearnerKind::Td,
            RunConfig::Train(_) => LearnerKind::Train,
            RunConfig::Pretrain(_) => LearnerKind::Pretrain,
            RunConfig::Alphazero(_) => LearnerKind::Alphazero,
        }
    }

    /// The run's seed.
    pub fn seed(&self) -> u64 {
        match self {
            RunConfig::Evolve(c) => c.seed,
            RunConfig::Td(c) => c.seed,
            RunConfig::Train(c) => c.seed,
            RunConfig::Pretrain(c) => c.seed,
            RunConfig::Alphazero(c) => c.seed,
        }
    }

    /// The config as TOML, with its `[learner] kind` (an evolution
    /// config's too): what `--print-config` writes, and `wopr run` of it
    /// is this run.
    pub fn to_toml(&self) -> Result<String, RunError> {
        let text = match self {
            RunConfig::Evolve(c) => {
                let mut c = c.clone();
                c.learner = Some(EvolveLearner {
                    kind: LearnerKind::Evolve,
                });
                toml::to_string_pretty(&c)
            }
            RunConfig::Td(c) => toml::to_string_pretty(c),
            RunConfig::Train(c) => toml::to_string_pretty(c),
            RunConfig::Pretrain(c) => toml::to_string_pretty(c),
            RunConfig::Alphazero(c) => toml::to_string_pretty(c),
        };
        text.map_err(|e| RunError(e.to_string()))
    }

    /// Refuses a learner that does not share its work between the ranks
    /// of an MPI job (training's epochs each follow from the last, and so
    /// do TD's games unless `learner.batch` above 1 learns them in rounds).
    pub(super) fn one_process(&self) -> Result<(), RunError> {
        if crate::dist::size() <= 1 {
            return Ok(());
        }
        match self {
            RunConfig::Evolve(_) | RunConfig::Alphazero(_) => Ok(()),
            RunConfig::Td(c) if c.learner.batch.is_some_and(|b| b > 1) => Ok(()),
            RunConfig::Td(_) => Err(RunError(
                "a td run spreads over MPI ranks only in rounds (each game follows from the last): set learner.batch above 1, or run it as one process".into(),
            )),
            other => Err(RunError(format!(
                "a {} run does not spread over MPI ranks (each step follows from the last): run it as one process; evolution and alphazero configs spread their games",
                other.kind().name()
            ))),
        }
    }
}

/// `bad config ORIGIN: MESSAGE`.
fn bad(origin: &str, message: &str) -> RunError {
    if origin.is_empty() {
        RunError(format!("bad config: {message}"))
    } else {
        RunError(format!("bad config {origin}: {message}"))
    }
}

/// A TOML error's message with the line of `text` it points at.
fn located(text: &str, e: &toml::de::Error) -> String {
    let message = e.message().replace("expected one of", "accepted:");
    match e.span() {
        Some(s) => format!(
            "line {}: {message}",
            text[..s.start].matches('\n').count() + 1
        ),
        None => message,
    }
}

/// The settings and seed applied to `table`, the learner chosen and its
/// typed config parsed (from `text` itself where nothing rewrote it, so
/// that errors name its lines).
fn from_parts(
    text: Option<&str>,
    mut table: toml::Table,
    origin: &str,
    sets: &[String],
    seed: Option<u64>,
) -> Result<RunConfig, RunError> {
    apply_sets(&mut table, sets).map_err(|e| RunError(format!("bad --set: {e}")))?;
    if let Some(s) = seed {
        let s = i64::try_from(s).map_err(|_| {
            RunError(format!(
                "seed {s} is too large for a config (at most {})",
                i64::MAX
            ))
        })?;
        table.insert("seed".into(), toml::Value::Integer(s));
    }
    let kind = kind_of(&table).map_err(|e| bad(origin, &e))?;
    let rewritten = !sets.is_empty() || seed.is_some() || text.is_none();
    let own = match text {
        Some(t) if !rewritten => t.to_string(),
        _ => toml::to_string(&table).map_err(|e| RunError(e.to_string()))?,
    };
    let typed = Typed {
        text: &own,
        original: text.filter(|_| sets.is_empty()),
        origin,
        set: !sets.is_empty(),
    };
    let config = match kind {
        LearnerKind::Evolve => RunConfig::Evolve(typed.parse()?),
        LearnerKind::Td => RunConfig::Td(typed.parse()?),
        LearnerKind::Train => RunConfig::Train(typed.parse()?),
        LearnerKind::Pretrain => RunConfig::Pretrain(typed.parse()?),
        LearnerKind::Alphazero => RunConfig::Alphazero(typed.parse()?),
    };
    if let RunConfig::Evolve(c) = &config {
        c.check().map_err(|e| bad(origin, &e))?;
    }
    Ok(config)
}

/// The one typed parse of a config's text.
struct Typed<'a> {
    /// The text parsed (the file's, or the table's with the settings).
    text: &'a str,
    /// The file's own text where no `--set` rewrote it, for the lines of
    /// errors.
    original: Option<&'a str>,
    origin: &'a str,
    /// Whether `--set` settings rewrote it.
    set: bool,
}

impl Typed<'_> {
    fn parse<T: DeserializeOwned>(&self) -> Result<T, RunError> {
        toml::from_str(self.text).map_err(|e| {
            let message = if self.set {
                // Lines of the file mean nothing once --set rewrote it.
                format!(
                    "(with --set) {}",
                    e.message().replace("expected one of", "accepted:")
                )
            } else {
                match self.original {
                    // A seed only rewrote it: the file's own error and line.
                    Some(text) if text != self.text => match toml::from_str::<T>(text) {
                        Err(e) => located(text, &e),
                        Ok(_) => e.message().replace("expected one of", "accepted:"),
                    },
                    Some(text) => located(text, &e),
                    None => e.message().replace("expected one of", "accepted:"),
                }
            };
            bad(self.origin, &message)
        })
    }
}

/// The learner a config's table names (`[learner] kind`; none: evolution).
fn kind_of(table: &toml::Table) -> Result<LearnerKind, String> {
    match table.get("learner").and_then(|l| l.get("kind")) {
        None => Ok(LearnerKind::Evolve),
        Some(toml::Value::String(k)) => LearnerKind::parse(k),
        Some(v) => Err(format!(
            "[learner] kind = {v} is not a name (accepted: evolve, td, train, pretrain, alphazero)"
        )),
    }
}

/// Applies each `SECTION.KEY=VALUE` of `settings` to `doc` (the value in
/// TOML syntax), making sections as needed.
fn apply_sets(doc: &mut toml::Table, settings: &[String]) -> Result<(), String> {
    for s in settings {
        let (path, value) = s
            .split_once('=')
            .ok_or_else(|| format!("'{s}' is not KEY=VALUE (e.g. net.hidden=[6])"))?;
        let value: toml::Value = format!("v = {}", value.trim())
            .parse::<toml::Table>()
            .ok()
            .and_then(|mut t| t.remove("v"))
            .ok_or_else(|| {
                format!(
                    "'{s}': {} is not a TOML value (strings need quotes)",
                    value.trim()
                )
            })?;
        let keys: Vec<&str> = path.trim().split('.').collect();
        if keys.iter().any(|k| k.is_empty()) {
            return Err(format!("'{s}': the key must be SECTION.KEY or KEY"));
        }
        let (last, sections) = keys.split_last().expect("split gives one key at least");
        let mut table = &mut *doc;
        for k in sections {
            let entry = table
                .entry(k.to_string())
                .or_insert_with(|| toml::Value::Table(toml::Table::new()));
            table = entry
                .as_table_mut()
                .ok_or_else(|| format!("'{s}': {k} is not a section"))?;
        }
        table.insert(last.to_string(), value);
    }
    Ok(())
}
