//! What a finished run prints, learner by learner: an evolution's plots and
//! how it ended ([`evolution`]), a pre-training run's pool ([`pool`]). The
//! run commands (`run.rs`, which `evolve.rs` and `pretrain.rs` call) show a
//! run's summary through these.

use std::path::Path;

use wopr::experiment::pretrain::Pool;
use wopr::experiment::{load_checkpoint, Checkpoint, GenerationRow};

use crate::plot::{self, Series};

/// Draws the plots of the evolution in `dir` and says how it ended (on
/// the first rank of an MPI job only, which speaks for the run).
pub(crate) fn evolution(dir: &Path) -> anyhow::Result<()> {
    if !wopr::dist::is_leader() {
        return Ok(());
    }
    let cp = load_checkpoint(dir)?;
    draw(&cp, dir)?;
    let last = cp.history.last();
    println!(
        "{}: {} generations of {}; last best {:.4}, mean {:.4}",
        dir.display(),
        cp.history.len(),
        cp.config.game,
        last.map_or(f64::NAN, |r| r.best),
        last.map_or(f64::NAN, |r| r.mean)
    );
    if let Some(b) = &cp.best {
        println!("best fitness {:.4} (generation {})", b.0, b.1);
    }
    println!(
        "champion: {}   play it: wopr play {} --first human --second net:{}",
        dir.join("champion.json").display(),
        cp.config.game,
        dir.join("champion.json").display()
    );
    Ok(())
}

fn draw(cp: &Checkpoint, dir: &Path) -> anyhow::Result<()> {
    let pts = |f: fn(&GenerationRow) -> f64| -> Vec<(f64, f64)> {
        cp.history
            .iter()
            .map(|r| (r.generation as f64, f(r)))
            .collect()
    };
    plot::lines(
        &dir.join("fitness"),
        &format!(
            "fitness, {}",
            cp.config
                .name
                .clone()
                .unwrap_or_else(|| cp.config.game.clone())
        ),
        "generation",
        "fitness",
        &[
            Series {
                name: "best".into(),
                points: pts(|r| r.best),
            },
            Series {
                name: "mean".into(),
                points: pts(|r| r.mean),
            },
            Series {
                name: "min".into(),
                points: pts(|r| r.min),
            },
        ],
    )?;
    if !cp.yardsticks.is_empty() {
        let mut names: Vec<&str> = cp.yardsticks.iter().map(|r| r.opponent.as_str()).collect();
        names.dedup();
        names.sort();
        names.dedup();
        let series: Vec<Series> = names
            .iter()
            .map(|&n| Series {
                name: if n == "exhaustive" {
                    "exhaustive losses / lines".into()
                } else {
                    format!("wins vs {n}")
                },
                points: cp
                    .yardsticks
                    .iter()
                    .filter(|r| r.opponent == n)
                    .map(|r| {
                        let y = if n == "exhaustive" {
                            r.losses as f64 / r.games.max(1) as f64
                        } else {
                            r.win_rate
                        };
                        (r.generation as f64, y)
                    })
                    .collect(),
            })
            .collect();
        plot::lines(
            &dir.join("yardsticks"),
            "champion against yardsticks",
            "generation",
            "fraction of games",
            &series,
        )?;
    }
    Ok(())
}

/// Says what a pre-training run made.
pub(crate) fn pool(pool: &Pool, out: &Path, seconds: f64) -> anyhow::Result<()> {
    println!(
        "pre-trained {} nets ({}, {} positions per teacher, {} epochs) in {:.1} s: {}/pool.json",
        pool.nets.len(),
        pool.architecture,
        pool.positions,
        pool.epochs,
        seconds,
        out.display()
    );
    println!(
        "start a run from it with [init] population = \"pretrained:{}\"",
        out.display()
    );
    Ok(())
}
