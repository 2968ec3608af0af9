//! `wopr report --grid GRID.toml`: one table per grid. A cell is the tasks
//! that differ only in their seed; for each finished task the final
//! measures are read from its folder (an evolution run's last best fitness
//! and its champion's last yardstick win rates, a TD or training run's
//! last yardstick scores), and each cell shows per measure the mean over
//! its seeds, the range and the 95% interval of the mean (Student's t).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;
use wopr::experiment::learn::{read_rows, run_kind};
use wopr::experiment::load_checkpoint;

/// Student's t quantile `t(0.975, df)` for 1 to 30 degrees of freedom (the
/// usual table), the normal's 1.96 beyond.
fn t975(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042,
    ];
    T.get(df.wrapping_sub(1)).copied().unwrap_or(1.96)
}

/// Mean, lowest, highest and the 95% interval of the mean (none for a
/// single value).
fn summary(xs: &[f64]) -> (f64, f64, f64, Option<(f64, f64)>) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let interval = (xs.len() > 1).then(|| {
        let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let half = t975(xs.len() - 1) * (var / n).sqrt();
        (mean - half, mean + half)
    });
    (mean, lo, hi, interval)
}

/// A finished task's final measures, by name.
fn measures(dir: &Path) -> anyhow::Result<BTreeMap<String, f64>> {
    let mut out = BTreeMap::new();
    if run_kind(dir).is_ok_and(|k| k != "evolve") {
        let rows = read_rows(dir)?;
        if let Some(last) = rows.iter().map(|(at, _)| *at).max() {
            for (_, r) in rows.iter().filter(|(at, _)| *at == last) {
                out.insert(format!("score vs {}", r.opponent), r.score);
            }
        }
        return Ok(out);
    }
    let cp = load_checkpoint(dir).map_err(|e| anyhow::anyhow!("{e}"))?;
    if let Some(last) = cp.history.last() {
        out.insert("best fitness".into(), last.best);
    }
    if let Some(last) = cp.yardsticks.iter().map(|r| r.generation).max() {
        for r in cp.yardsticks.iter().filter(|r| r.generation == last) {
            out.insert(format!("wins vs {}", r.opponent), r.win_rate);
        }
    }
    Ok(out)
}

/// Writes the grid's table to `out`.
pub fn report(grid: &Path, out: &Path) -> anyhow::Result<()> {
    let (base, tasks) = crate::cmd::grid::read(grid)?;
    // Cell name → measure → values over the seeds.
    let mut cells: BTreeMap<String, BTreeMap<String, Vec<f64>>> = BTreeMap::new();
    let mut missing = 0;
    for t in &tasks {
        let cell: Vec<&str> = t
            .name
            .split(',')
            .filter(|kv| !kv.starts_with("seed="))
            .collect();
        let cell = if cell.is_empty() {
            "(all)".to_string()
        } else {
            cell.join(", ")
        };
        if !t.dir.join("grid-task-done").is_file() {
            missing += 1;
            continue;
        }
        let m = measures(&t.dir).with_context(|| format!("task {}", t.name))?;
        let entry = cells.entry(cell).or_default();
        for (k, v) in m {
            entry.entry(k).or_default().push(v);
        }
    }
    let mut md = String::new();
    writeln!(md, "# Grid {}\n", grid.display())?;
    writeln!(
        md,
        "Base config `{}`, {} tasks ({} not finished, left out). Per cell (the tasks that differ only in their seed) and final measure: the mean over the seeds, their range, and the 95% interval of the mean (Student's t).\n",
        base.display(),
        tasks.len(),
        missing
    )?;
    writeln!(
        md,
        "| cell | measure | seeds | mean | range | 95% interval |\n|---|---|---|---|---|---|"
    )?;
    for (cell, measures) in &cells {
        for (name, xs) in measures {
            let (mean, lo, hi, interval) = summary(xs);
            writeln!(
                md,
                "| {cell} | {name} | {} | {mean:.4} | {lo:.4} to {hi:.4} | {} |",
                xs.len(),
                interval.map_or("-".into(), |(l, h)| format!("[{l:.4}, {h:.4}]"))
            )?;
        }
    }
    writeln!(md, "\nMade by `wopr report --grid {}`.", grid.display())?;
    std::fs::write(out, md).with_context(|| format!("cannot write {}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_interval_of_a_mean_uses_students_t() {
        // 1, 2, 3: mean 2, sample variance 1, half-width t(0.975, 2) · √(1/3)
        // = 4.303 · 0.57735 = 2.4843.
        let (mean, lo, hi, interval) = summary(&[1.0, 2.0, 3.0]);
        assert_eq!((mean, lo, hi), (2.0, 1.0, 3.0));
        let (l, h) = interval.unwrap();
        assert!((h - 2.0 - 2.4843).abs() < 1e-3 && (2.0 - l - 2.4843).abs() < 1e-3);
        assert!(summary(&[5.0]).3.is_none());
        assert_eq!(t975(40), 1.96);
    }
}
