//! The report page of TD and training runs ([`wopr::experiment::learn`]):
//! the config, the learning curve (median and range over the seeds), the
//! yardstick curves, each run's last yardsticks with W-D-L, score and
//! interval, and the tournament among the champions and the yardsticks.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;
use wopr::experiment::learn::{read_learning, read_rows, run_kind, Row};
use wopr::nn::NetFile;
use wopr::with_game;

use super::{file_name, made_by, median_range, tournament, ReportArgs};
use crate::plot::{self, Series};

/// One run folder, read.
struct Run {
    dir: PathBuf,
    config: toml::Table,
    /// `learning.csv`: its first column's name and (unit, value) points.
    learning: (String, Vec<(f64, f64)>),
    yardsticks: Vec<(u64, Row)>,
}

/// The config with what differs between seeds of one experiment removed.
fn experiment_of(config: &toml::Table) -> toml::Table {
    let mut c = config.clone();
    c.remove("seed");
    c.remove("stop");
    c
}

fn read(dir: &Path) -> anyhow::Result<Run> {
    run_kind(dir)?;
    let text = std::fs::read_to_string(dir.join("config.toml"))
        .with_context(|| format!("{} has no config.toml", dir.display()))?;
    let config: toml::Table = text.parse()?;
    Ok(Run {
        dir: dir.to_path_buf(),
        config,
        learning: read_learning(dir),
        yardsticks: read_rows(dir)?,
    })
}

/// Median, lowest and highest over the runs of each x some run has.
fn bands(per_run: &[Vec<(f64, f64)>]) -> [Vec<(f64, f64)>; 3] {
    let mut xs: Vec<f64> = per_run.iter().flatten().map(|p| p.0).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let mut out: [Vec<(f64, f64)>; 3] = Default::default();
    for x in xs {
        let mut ys: Vec<f64> = per_run
            .iter()
            .filter_map(|r| r.iter().find(|p| p.0 == x).map(|p| p.1))
            .collect();
        let (m, l, h) = median_range(&mut ys);
        out[0].push((x, m));
        out[1].push((x, l));
        out[2].push((x, h));
    }
    out
}

/// Writes the report of the learner runs in `args.runs`.
pub fn report(args: &ReportArgs) -> anyhow::Result<()> {
    let runs: Vec<Run> = args
        .runs
        .iter()
        .map(|d| read(d))
        .collect::<anyhow::Result<_>>()?;
    for r in &runs[1..] {
        if experiment_of(&r.config) != experiment_of(&runs[0].config) {
            anyhow::bail!(
                "{} and {} were run with different configs (seed and stop aside); a report covers one config",
                runs[0].dir.display(),
                r.dir.display()
            );
        }
    }
    let first = &runs[0];
    let kind = run_kind(&first.dir)?;
    let unit = if kind == "train" { "epochs" } else { "games" };
    let stem = args.out.with_extension("");
    let name = first
        .config
        .get("name")
        .and_then(|n| n.as_str())
        .or_else(|| first.config.get("game").and_then(|g| g.as_str()))
        .unwrap_or(&kind)
        .to_string();
    let seeds: Vec<String> = runs
        .iter()
        .map(|r| r.config.get("seed").map_or("1".into(), |s| s.to_string()))
        .collect();
    let mut md = String::new();
    writeln!(md, "# {name}\n")?;
    writeln!(
        md,
        "{} {kind} runs of one config (seeds {}).\n",
        runs.len(),
        seeds.join(", ")
    )?;
    writeln!(
        md,
        "## Config\n\n```toml\n{}```\n",
        toml::to_string_pretty(&first.config)?
    )?;

    let column = first.learning.0.clone();
    let curves: Vec<Vec<(f64, f64)>> = runs.iter().map(|r| r.learning.1.clone()).collect();
    if curves.iter().any(|c| !c.is_empty()) {
        let [med, lo, hi] = bands(&curves);
        let learning = PathBuf::from(format!("{}-learning", stem.display()));
        let series = [("median", med), ("lowest", lo), ("highest", hi)].map(|(n, points)| Series {
            name: n.into(),
            points,
        });
        plot::lines(
            &learning,
            &format!("{column} over {} seeds", runs.len()),
            unit,
            &column,
            &series,
        )?;
        writeln!(
            md,
            "## Learning\n\n![{column}: median and range over seeds]({})\n",
            file_name(&learning, "png")
        )?;
    }

    let mut opponents: Vec<String> = runs
        .iter()
        .flat_map(|r| r.yardsticks.iter().map(|(_, y)| y.opponent.clone()))
        .collect();
    opponents.sort();
    opponents.dedup();
    if !opponents.is_empty() {
        let series: Vec<Series> = opponents
            .iter()
            .map(|o| {
                let per_run: Vec<Vec<(f64, f64)>> = runs
                    .iter()
                    .map(|r| {
                        r.yardsticks
                            .iter()
                            .filter(|(_, y)| &y.opponent == o)
                            .map(|(at, y)| (*at as f64, 100.0 * y.score))
                            .collect()
                    })
                    .collect();
                let [med, _, _] = bands(&per_run);
                Series {
                    name: format!("median score vs {o}"),
                    points: med,
                }
            })
            .collect();
        let y_stem = PathBuf::from(format!("{}-yardsticks", stem.display()));
        plot::lines(
            &y_stem,
            "nets against the yardsticks (draws count half)",
            unit,
            "score %",
            &series,
        )?;
        writeln!(
            md,
            "## Yardsticks\n\n![median score of the nets]({})\n",
            file_name(&y_stem, "png")
        )?;
        writeln!(md, "Each run's net at its last checkpoint (wins, draws, losses; score with draws as half, and its 95% interval):\n")?;
        writeln!(
            md,
            "| run | {unit} | opponent | W-D-L | score | 95% interval |\n|---|---|---|---|---|---|"
        )?;
        for r in &runs {
            let Some(last) = r.yardsticks.iter().map(|(at, _)| *at).max() else {
                continue;
            };
            for (_, y) in r.yardsticks.iter().filter(|(at, _)| *at == last) {
                writeln!(
                    md,
                    "| {} | {last} | {} | {}-{}-{} | {:.1}% | [{:.1}%, {:.1}%] |",
                    r.dir.display(),
                    y.opponent,
                    y.wdl.wins,
                    y.wdl.draws,
                    y.wdl.losses,
                    100.0 * y.score,
                    100.0 * y.interval.0,
                    100.0 * y.interval.1
                )?;
            }
        }
        writeln!(md)?;
    }

    let champion = first.dir.join("champion.json");
    let game = NetFile::load(&champion)
        .ok()
        .and_then(|f| f.game)
        .map(|g| super::super::parse_game(&g))
        .transpose()?;
    if let Some(game) = game {
        let mut players: Vec<String> = runs
            .iter()
            .filter(|r| r.dir.join("champion.json").exists())
            .map(|r| format!("net:{}", r.dir.join("champion.json").display()))
            .collect();
        players.extend(opponents.iter().cloned());
        with_game!(&game, g => tournament(&mut md, g, players, args))?;
    }
    let dirs: Vec<&Path> = runs.iter().map(|r| r.dir.as_path()).collect();
    made_by(&mut md, &dirs, args)?;
    std::fs::write(&args.out, md)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!("wrote {}", args.out.display());
    Ok(())
}
