//! The run layer every learner runs through: evolution ([`evolve`]), TD
//! self-play ([`td`]) and supervised training ([`train`]). A [`Learner`]
//! owns only
//! its step and its state; [`drive`] owns everything else, alike for each:
//! the run folder, the config copy, atomic checkpoints and resuming after
//! a kill, the append-only logs, progress, when the yardsticks are
//! measured and how they are logged (with openings, both seats and
//! intervals), the best net and the champion.
//!
//! A run folder:
//! - `config.toml`: the config as run (`wopr run --resume` reads it; a
//!   larger stop count extends the run);
//! - `state.json`: the checkpoint: the learner's kind, the units done
//!   (games, epochs, generations), the learner's own state, the best yardstick score
//!   and the net file of this checkpoint, `net-DONE.json`. That file is
//!   written before the checkpoint that names it and removed after the
//!   next one, so a run killed at any moment resumes from weights and a
//!   count that belong together, and ends byte for byte as an
//!   uninterrupted run would;
//! - `net.json`: the net at the last checkpoint, `best.json` the one with
//!   the best mean yardstick score, `champion.json` the final net once the
//!   run has ended (the best was chosen on the yardstick games, so
//!   measuring it on them again would flatter it);
//! - `learning.csv` (evolution: `generations.csv`): the learner's own
//!   rows, first column the label (the count done; for evolution the
//!   generation, from 0); `yardsticks.csv`: `LABEL,opponent,played,wins,
//!   draws,losses,score,score_low,score_high` (score = (W + D/2)/games,
//!   with its 95% interval). Rows a killed run wrote past its checkpoint
//!   are dropped on resume.

pub mod alphazero;
pub mod evolve;
pub mod pretrain;
pub mod td;
pub mod train;

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::atomic::write_atomic;
use super::error::RunError;
pub use super::yardsticks::{read_rows, Measured, NoYardsticks, Row, Yardsticks, YardsticksConfig};
use crate::nn::NetFile;

/// One learner's step and state; [`drive`] does the rest.
pub trait Learner {
    /// What the run counts, plural (`games`, `epochs`, `generations`): the
    /// `[stop]` key.
    fn unit(&self) -> &'static str;
    /// Units done.
    fn done(&self) -> u64;
    /// Learns until [`Learner::done`] is `until` (or the learner stops by
    /// itself), calling `tick` with the count as it goes. Returns the rows
    /// of its log: each row's label (see [`Learner::labels_from_zero`])
    /// and the rest of the row.
    fn advance(
        &mut self,
        until: u64,
        tick: &mut dyn FnMut(u64),
    ) -> Result<Vec<(u64, String)>, RunError>;
    /// The header line of the learner's log, first column the label.
    fn log_header(&self) -> String;
    /// The learner's log in the run folder.
    fn log_name(&self) -> &'static str {
        "learning.csv"
    }
    /// Whether the logs label a unit by its index from 0 (evolution's
    /// generation `g`, written when `g + 1` are done) instead of by the
    /// count done after it (TD's games, training's epochs). Yardstick rows
    /// are labelled alike, and measured when the label is a multiple of
    /// the measuring interval.
    fn labels_from_zero(&self) -> bool {
        false
    }
    /// Whether the learner has stopped by itself (a target reached).
    fn finished(&self) -> bool {
        false
    }
    /// The net learned so far (the champion), as a file a `net:` player
    /// loads.
    fn net_file(&self) -> Result<NetFile, RunError>;
    /// Measures the learner at count `done` (labelled `label`) against the
    /// yardsticks: the rows, and files to keep beside them (a path in the
    /// run folder and its text). By default the net of
    /// [`Learner::net_file`] plays the run's yardsticks. Only the leading
    /// rank of a run spread over processes measures ([`crate::dist`]), so
    /// a measurement shares no work out between ranks.
    fn measure(
        &self,
        yardsticks: &dyn Yardsticks,
        done: u64,
        label: u64,
    ) -> Result<Measured, RunError> {
        let _ = label;
        Ok(Measured {
            rows: yardsticks.measure(&self.net_file()?, done)?,
            files: Vec::new(),
        })
    }
    /// Whether a fresh run checkpoints before learning anything (false
    /// for a learner with no net until its first step).
    fn checkpoint_at_start(&self) -> bool {
        true
    }
    /// Files the learner keeps in the run folder at every checkpoint
    /// besides the layer's own (a path in the folder and its text).
    fn checkpoint_files(&self) -> Result<Vec<(String, String)>, RunError> {
        Ok(Vec::new())
    }
    /// What a checkpoint keeps besides the net's weights.
    fn state(&self) -> Result<serde_json::Value, RunError>;
    /// Goes on from a checkpoint's state and net.
    fn restore(&mut self, state: serde_json::Value, net: &NetFile) -> Result<(), RunError>;
}

/// What the caller sees while a run goes on.
pub trait LearnProgress {
    /// Before learning: the unit, the count done and the count to reach.
    fn start(&mut self, unit: &str, done: u64, stop: u64);
    /// As units are done.
    fn tick(&mut self, done: u64);
    /// After each yardstick measurement.
    fn yardsticks(&mut self, done: u64, rows: &[Row]);
    /// When the run has ended.
    fn finish(&mut self);
    /// Whether the caller asks the run to stop (Ctrl-C in Python): it
    /// stops after the checkpoint or measurement under way, and resumes
    /// from its last checkpoint.
    fn stopped(&self) -> bool {
        false
    }
    /// A warning about the run that does not stop it (a resumed run whose
    /// net kernels round otherwise than when it started); by default on
    /// stderr.
    fn warn(&mut self, message: &str) {
        eprintln!("warning: {message}");
    }
}

/// Where and how long a run goes.
pub struct RunPlan<'a> {
    /// The learner's kind (`td`, `train`, `evolve`), kept in the checkpoint.
    pub kind: &'a str,
    /// The run folder.
    pub dir: &'a Path,
    /// The config as run, TOML.
    pub config: &'a str,
    /// Units to reach.
    pub stop: u64,
    /// Units between checkpoints.
    pub every: u64,
    /// Units between yardstick measurements (by label: see
    /// [`Learner::labels_from_zero`]).
    pub measure_every: u64,
    /// Keep every checkpoint's `net-DONE.json` instead of removing the
    /// previous one (for averaging them: `wopr average`).
    pub keep_nets: bool,
}

/// `state.json`.
#[derive(Serialize, Deserialize)]
struct Checkpoint {
    kind: String,
    done: u64,
    /// The net file of this checkpoint, in the run folder.
    net_file: String,
    /// The best mean yardstick score so far, and at which count.
    best: Option<(f64, u64)>,
    /// The learner's own state.
    learner: serde_json::Value,
}

/// What a finished (or already finished) run reports.
#[derive(Clone, Debug)]
pub struct RunSummary {
    /// Units done.
    pub done: u64,
    /// Whether this call learned anything (false: the run had reached its
    /// stop already).
    pub learned: bool,
    /// The best mean yardstick score and when.
    pub best: Option<(f64, u64)>,
    /// The champion's file.
    pub champion: PathBuf,
}

/// Whether `dir` holds a run of this layer (its checkpoint).
pub fn is_run(dir: &Path) -> bool {
    dir.join("state.json").is_file()
}

/// A run folder's `learning.csv`: the name of its first column after the
/// unit, and that column's points (unit count, value); empty when the
/// file is missing.
pub fn read_learning(dir: &Path) -> (String, Vec<(f64, f64)>) {
    let text = std::fs::read_to_string(dir.join("learning.csv")).unwrap_or_default();
    let mut lines = text.lines();
    let column = lines
        .next()
        .and_then(|h| h.split(',').nth(1))
        .unwrap_or("value")
        .to_string();
    let points = lines
        .filter_map(|l| {
            let mut f = l.split(',');
            Some((f.next()?.parse().ok()?, f.next()?.parse().ok()?))
        })
        .collect();
    (column, points)
}

/// Makes `dir`, a folder of an older wopr, a run of this layer: `net`
/// (a net file's text) becomes `net-DONE.json`, named by a new
/// `state.json` holding `learner`'s state at `done` units.
pub fn adopt(
    dir: &Path,
    kind: &str,
    done: u64,
    net: &str,
    learner: serde_json::Value,
) -> Result<(), RunError> {
    let net_file = format!("net-{done}.json");
    write_atomic(&dir.join(&net_file), net)?;
    let cp = Checkpoint {
        kind: kind.to_string(),
        done,
        net_file,
        best: None,
        learner,
    };
    let text = serde_json::to_string(&cp).map_err(|e| RunError(e.to_string()))?;
    write_atomic(&dir.join("state.json"), &text)
}

/// The learner kind of the run in `dir` (from its checkpoint).
pub fn run_kind(dir: &Path) -> Result<String, RunError> {
    Ok(read_checkpoint(dir)?.kind)
}

fn read_checkpoint(dir: &Path) -> Result<Checkpoint, RunError> {
    let path = dir.join("state.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| RunError(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text)
        .map_err(|e| RunError(format!("{} is not a run checkpoint: {e}", path.display())))
}

/// Runs `learner` to `plan.stop` in `plan.dir`, starting fresh or from
/// the folder's checkpoint, checkpointing every `plan.every` units and
/// measuring with `yardsticks` every `plan.measure_every`, and both when
/// the run ends. A caller resumes a folder with the config it holds
/// (`config.toml`), its stop count aside. One process at a time drives a
/// folder: a second one, started or resumed on it while the first runs,
/// is refused (`lock_folder`).
pub fn drive(
    learner: &mut dyn Learner,
    plan: &RunPlan,
    yardsticks: &dyn Yardsticks,
    progress: &mut dyn LearnProgress,
) -> Result<RunSummary, RunError> {
    let dir = plan.dir;
    if plan.every == 0 || plan.measure_every == 0 {
        return Err(RunError(
            "the units between checkpoints and between yardsticks must be at least 1".into(),
        ));
    }
    // Every rank of a run spread over processes must find the folder as
    // the others do (a shared file system) before rank 0 writes to it.
    let resuming = is_run(dir);
    let seen = crate::dist::all_gather(&resuming).map_err(RunError)?;
    if let Some(r) = seen.iter().position(|&s| s != resuming) {
        return Err(RunError(format!(
            "rank {r} sees {} otherwise than rank {}: the run folder must be on a file system every rank reads",
            dir.display(),
            crate::dist::rank()
        )));
    }
    // The lock is held while this call runs and let go when the process
    // ends, however it ends: a killed run leaves nothing to clear.
    let _lock = if crate::dist::is_leader() {
        std::fs::create_dir_all(dir)
            .map_err(|e| RunError(format!("cannot create {}: {e}", dir.display())))?;
        Some(lock_folder(dir)?)
    } else {
        None
    };
    let unit = learner.unit();
    let log = learner.log_name();
    let offset = u64::from(learner.labels_from_zero());
    let mut cp = if resuming {
        let cp = read_checkpoint(dir)?;
        if cp.kind != plan.kind {
            return Err(RunError(format!(
                "{} holds a {} run, not {}; give another --out",
                dir.display(),
                cp.kind,
                plan.kind
            )));
        }
        let net = NetFile::load(dir.join(&cp.net_file)).map_err(|e| RunError(e.to_string()))?;
        learner.restore(cp.learner.clone(), &net)?;
        for log in [log, "yardsticks.csv"] {
            trim_log(&dir.join(log), cp.done, offset)?;
        }
        cp
    } else {
        write_atomic(&dir.join(log), &format!("{}\n", learner.log_header()))?;
        write_atomic(
            &dir.join("yardsticks.csv"),
            &format!("{},{}\n", label_column(learner), Row::HEADER),
        )?;
        let mut cp = Checkpoint {
            kind: plan.kind.to_string(),
            done: 0,
            net_file: String::new(),
            best: None,
            learner: serde_json::Value::Null,
        };
        let rows = learner.advance(0, &mut |_| {})?;
        log_rows(dir, log, &rows)?;
        if offset == 0 {
            measure(learner, dir, yardsticks, &mut cp, progress)?;
        }
        if learner.checkpoint_at_start() {
            checkpoint(learner, dir, &mut cp, plan.keep_nets)?;
        }
        cp
    };
    write_atomic(&dir.join("config.toml"), plan.config)?;
    let learned = cp.done < plan.stop && !learner.finished();
    progress.start(unit, cp.done, plan.stop);
    while cp.done < plan.stop && !learner.finished() {
        if progress.stopped() {
            progress.finish();
            return Err(RunError(format!(
                "stopped at {} {unit}; `wopr run --resume {}` goes on from the last checkpoint",
                cp.done,
                dir.display()
            )));
        }
        let next_checkpoint = (cp.done / plan.every + 1) * plan.every;
        let until = next_checkpoint
            .min(next_label(cp.done, offset, plan.measure_every))
            .min(plan.stop);
        let rows = learner.advance(until, &mut |d| progress.tick(d))?;
        log_rows(dir, log, &rows)?;
        cp.done = learner.done();
        let end = cp.done >= plan.stop || learner.finished();
        if end || (cp.done - offset).is_multiple_of(plan.measure_every) {
            measure(learner, dir, yardsticks, &mut cp, progress)?;
        }
        if end || cp.done.is_multiple_of(plan.every) {
            checkpoint(learner, dir, &mut cp, plan.keep_nets)?;
        }
    }
    progress.finish();
    let champion = dir.join("champion.json");
    write_atomic(&champion, &learner.net_file()?.to_json())?;
    Ok(RunSummary {
        done: cp.done,
        learned,
        best: cp.best,
        champion,
    })
}

/// The first column's name of `yardsticks.csv`: the learner's log's
/// (`games`, `generation`), as both are labelled alike.
fn label_column(learner: &dyn Learner) -> String {
    let header = learner.log_header();
    header
        .split(',')
        .next()
        .unwrap_or(learner.unit())
        .to_string()
}

/// The smallest count after `done` whose label (`count - offset`) is a
/// multiple of `every`.
fn next_label(done: u64, offset: u64, every: u64) -> u64 {
    if done < offset {
        return offset;
    }
    offset + ((done - offset) / every + 1) * every
}

/// Measures the learner, logs the rows, writes its files, and keeps the
/// net as `best.json` if its mean score is the best yet.
fn measure(
    learner: &dyn Learner,
    dir: &Path,
    yardsticks: &dyn Yardsticks,
    cp: &mut Checkpoint,
    progress: &mut dyn LearnProgress,
) -> Result<(), RunError> {
    if !crate::dist::is_leader() {
        // The yardsticks change nothing a rank keeps: only rank 0 plays them.
        return Ok(());
    }
    let label = cp.done - u64::from(learner.labels_from_zero());
    let measured = learner.measure(yardsticks, cp.done, label)?;
    write_files(dir, &measured.files)?;
    let rows = measured.rows;
    if rows.is_empty() {
        return Ok(());
    }
    let mut text = String::new();
    for r in &rows {
        text.push_str(&format!("{label},{}\n", r.csv()));
    }
    append(&dir.join("yardsticks.csv"), &text)?;
    progress.yardsticks(label, &rows);
    let mean = rows.iter().map(|r| r.score).sum::<f64>() / rows.len() as f64;
    if cp.best.is_none_or(|(b, _)| mean > b) {
        cp.best = Some((mean, label));
        write_atomic(&dir.join("best.json"), &learner.net_file()?.to_json())?;
    }
    Ok(())
}

/// Writes files a learner keeps, each atomically, making their folders.
fn write_files(dir: &Path, files: &[(String, String)]) -> Result<(), RunError> {
    if !crate::dist::is_leader() {
        return Ok(());
    }
    for (name, text) in files {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| RunError(format!("cannot create {}: {e}", parent.display())))?;
        }
        write_atomic(&path, text)?;
    }
    Ok(())
}

/// Saves the net as `net-DONE.json`, points `state.json` at it, copies it
/// to `net.json` and removes the previous checkpoint's net file unless
/// `keep`.
fn checkpoint(
    learner: &dyn Learner,
    dir: &Path,
    cp: &mut Checkpoint,
    keep: bool,
) -> Result<(), RunError> {
    let json = learner.net_file()?.to_json();
    let name = format!("net-{}.json", cp.done);
    write_atomic(&dir.join(&name), &json)?;
    write_files(dir, &learner.checkpoint_files()?)?;
    let previous = std::mem::replace(&mut cp.net_file, name.clone());
    cp.learner = learner.state()?;
    let text = serde_json::to_string(cp).map_err(|e| RunError(e.to_string()))?;
    write_atomic(&dir.join("state.json"), &text)?;
    write_atomic(&dir.join("net.json"), &json)?;
    if !keep && !previous.is_empty() && previous != name {
        let _ = std::fs::remove_file(dir.join(previous));
    }
    Ok(())
}

fn log_rows(dir: &Path, log: &str, rows: &[(u64, String)]) -> Result<(), RunError> {
    if rows.is_empty() {
        return Ok(());
    }
    let text: String = rows.iter().map(|(u, r)| format!("{u},{r}\n")).collect();
    append(&dir.join(log), &text)
}

fn append(path: &Path, text: &str) -> Result<(), RunError> {
    if !crate::dist::is_leader() {
        return Ok(());
    }
    use std::io::Write;
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|e| RunError(format!("cannot append to {}: {e}", path.display())))
}

/// Drops the rows of a log labelled past `done` (a label plus `offset`
/// counts the units done when the row was written).
fn trim_log(path: &Path, done: u64, offset: u64) -> Result<(), RunError> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(());
    };
    let kept: String = text
        .lines()
        .enumerate()
        .filter(|(i, line)| {
            *i == 0
                || line
                    .split(',')
                    .next()
                    .and_then(|u| u.parse::<u64>().ok())
                    .is_some_and(|u| u + offset <= done)
        })
        .map(|(_, line)| format!("{line}\n"))
        .collect();
    if kept != text {
        write_atomic(path, &kept)?;
    }
    Ok(())
}

/// Takes the run folder's lock (`DIR/.lock`, an advisory lock the
/// operating system lets go when the process ends), or says which run
/// holds it; where the file system has no locks, warns and goes on.
fn lock_folder(dir: &Path) -> Result<std::fs::File, RunError> {
    let path = dir.join(".lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| RunError(format!("cannot open {}: {e}", path.display())))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(RunError(format!(
            "another wopr process is running in {} (it holds {}); wait for it to end or give another --out",
            dir.display(),
            path.display()
        ))),
        // A file system without locks (some network ones) must not stop a
        // run: say so and go on unguarded.
        Err(std::fs::TryLockError::Error(e)) => {
            eprintln!(
                "warning: cannot lock {} ({e}); going on without the lock",
                path.display()
            );
            Ok(file)
        }
    }
}
