//! The report page of a pre-trained pool (`wopr pretrain`, `kind =
//! "pretrain"`): its settings, each net's teacher, algorithm and errors
//! before and after training, and per teacher and per algorithm the mean
//! final error.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use anyhow::Context;
use wopr::experiment::pretrain::{Pool, PoolEntry};

/// Writes the page of the pool in `dir` to `out`.
pub fn report(dir: &Path, out: &Path) -> anyhow::Result<()> {
    let pool = Pool::load(dir).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut md = String::new();
    writeln!(md, "# Pre-trained pool {}\n", dir.display())?;
    writeln!(
        md,
        "{} nets of {} ({}, encoding `{}`), {} positions per teacher, {} epochs, seed {}.\n",
        pool.nets.len(),
        pool.game,
        pool.architecture,
        pool.encoding,
        pool.positions,
        pool.epochs,
        pool.seed
    )?;
    if let Ok(config) = std::fs::read_to_string(dir.join("config.toml")) {
        writeln!(md, "## Config\n\n```toml\n{config}```\n")?;
    }
    let by_teacher: fn(&PoolEntry) -> &str = |e| &e.teacher;
    let by_algorithm: fn(&PoolEntry) -> &str = |e| &e.algorithm;
    for (title, key) in [("teacher", by_teacher), ("algorithm", by_algorithm)] {
        let mut groups: BTreeMap<String, Vec<f64>> = BTreeMap::new();
        for e in &pool.nets {
            groups.entry(key(e).to_string()).or_default().push(e.loss);
        }
        writeln!(
            md,
            "## By {title}\n\n| {title} | nets | mean final error | lowest | highest |\n|---|---|---|---|---|"
        )?;
        for (name, xs) in &groups {
            let mean = xs.iter().sum::<f64>() / xs.len() as f64;
            let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            writeln!(
                md,
                "| {name} | {} | {mean:.5} | {lo:.5} | {hi:.5} |",
                xs.len()
            )?;
        }
        writeln!(md)?;
    }
    writeln!(
        md,
        "## Nets\n\n| file | teacher | algorithm | error before | error after |\n|---|---|---|---|---|"
    )?;
    for e in &pool.nets {
        writeln!(
            md,
            "| {} | {} | {} | {:.5} | {:.5} |",
            e.file, e.teacher, e.algorithm, e.initial_loss, e.loss
        )?;
    }
    writeln!(md, "\nMade by `wopr report {}`.", dir.display())?;
    std::fs::write(out, md).with_context(|| format!("cannot write {}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}
