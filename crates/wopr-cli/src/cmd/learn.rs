//! What the command line adds to a learner's run
//! ([`wopr::experiment::learn`]): a progress bar, the yardstick lines, and
//! the plots drawn from the run folder's logs when the run ends.

use std::path::Path;

use indicatif::{ProgressBar, ProgressStyle};
use wopr::experiment::learn::{read_learning, read_rows, LearnProgress, Row, RunSummary};

use crate::plot::{self, Series};

/// A progress bar over the run's units, and each yardstick measurement as
/// a line (unless quiet).
pub struct Bar {
    bar: ProgressBar,
    quiet: bool,
}

impl Bar {
    /// A bar, hidden when `quiet`.
    pub fn new(quiet: bool) -> Bar {
        Bar {
            bar: ProgressBar::hidden(),
            quiet,
        }
    }
}

impl LearnProgress for Bar {
    fn start(&mut self, unit: &str, done: u64, stop: u64) {
        if self.quiet || done >= stop {
            return;
        }
        self.bar = ProgressBar::new(stop);
        self.bar.set_style(
            ProgressStyle::with_template(&format!(
                "{{bar:40}} {{pos}}/{{len}} {unit}, {{per_sec}}, ETA {{eta}}"
            ))
            .expect("a valid template"),
        );
        self.bar.set_position(done);
    }

    fn tick(&mut self, done: u64) {
        self.bar.set_position(done);
    }

    fn yardsticks(&mut self, done: u64, rows: &[Row]) {
        if self.quiet {
            return;
        }
        let scores: Vec<String> = rows
            .iter()
            .map(|r| {
                format!(
                    "{} {:.1}% [{:.1}, {:.1}]",
                    r.opponent,
                    100.0 * r.score,
                    100.0 * r.interval.0,
                    100.0 * r.interval.1
                )
            })
            .collect();
        self.bar
            .suspend(|| eprintln!("{done:>10}: {}", scores.join(", ")));
    }

    fn finish(&mut self) {
        self.bar.finish_and_clear();
    }
}

/// Says how a run ended and draws its plots.
pub fn finish(dir: &Path, unit: &str, summary: &RunSummary, seconds: f64) -> anyhow::Result<()> {
    draw(dir, unit)?;
    if !summary.learned {
        println!(
            "{} has reached {} {unit} already: nothing to do (a larger stop count extends it)",
            dir.display(),
            summary.done
        );
        return Ok(());
    }
    println!(
        "{} {unit} in {seconds:.1} s; champion {}{}",
        summary.done,
        summary.champion.display(),
        match summary.best {
            Some((s, at)) => format!(
                "; best {} (mean yardstick score {:.1}% at {at} {unit})",
                dir.join("best.json").display(),
                100.0 * s
            ),
            None => String::new(),
        }
    );
    Ok(())
}

/// Draws `yardsticks.png` / `.svg` (each yardstick's score against the
/// units learned) and `learning.png` / `.svg` (the learner's first
/// column, e.g. the training loss) from the run folder's logs.
fn draw(dir: &Path, unit: &str) -> anyhow::Result<()> {
    let mut series: Vec<Series> = Vec::new();
    for (at, row) in read_rows(dir)? {
        let point = (at as f64, 100.0 * row.score);
        match series.iter_mut().find(|s| s.name == row.opponent) {
            Some(s) => s.points.push(point),
            None => series.push(Series {
                name: row.opponent,
                points: vec![point],
            }),
        }
    }
    if !series.is_empty() {
        plot::lines(
            &dir.join("yardsticks"),
            "score against the yardsticks (draws count half)",
            &format!("{unit} learned"),
            "score %",
            &series,
        )?;
    }
    let (column, points) = read_learning(dir);
    if points.len() > 1 {
        plot::lines(
            &dir.join("learning"),
            &format!("{column} as the run learns"),
            &format!("{unit} learned"),
            &column,
            &[Series {
                name: column.clone(),
                points,
            }],
        )?;
    }
    Ok(())
}
