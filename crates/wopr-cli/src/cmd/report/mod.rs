//! `wopr report RUN_DIR...`: one Markdown page on runs of one config with
//! different seeds: the config, fitness and yardstick curves (median and
//! range over the seeds), each champion's final yardsticks with intervals,
//! and a tournament among the champions and the yardstick players. Runs of
//! TD or training ([`learn`]) get the same page with their learning curve
//! in place of the fitness; a pre-trained pool gets a table of its nets
//! ([`pool`]); `--grid` summarises a grid's cells ([`grid`]).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::Context;
use wopr::eval::tournament::{play_tournament, Format};
use wopr::eval::wilson;
use wopr::experiment::{load_checkpoint, Checkpoint, EvolveConfig, GenerationRow, YardstickRow};
use wopr::{with_game, Roster};

use crate::plot::{self, Series};

mod grid;
mod learn;
mod pool;

/// Arguments of `wopr report`.
#[derive(clap::Args, Debug)]
pub struct ReportArgs {
    /// Run folders of one config (different seeds).
    #[arg(required_unless_present = "grid", conflicts_with = "grid")]
    runs: Vec<PathBuf>,
    /// Summarise a grid (`wopr grid`) instead: per cell (the tasks that
    /// differ only in their seed), each final measure's mean, range and
    /// 95% interval over the seeds.
    #[arg(long)]
    grid: Option<PathBuf>,
    /// The Markdown file to write (plots go beside it).
    #[arg(long, default_value = "report.md")]
    out: PathBuf,
    /// Games per pairing of the tournament (0: no tournament).
    #[arg(long, default_value_t = 40)]
    games: usize,
    /// Seed of the tournament.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Openings of the tournament (default `plies=4`).
    #[arg(long, default_value = "plies=4")]
    openings: String,
}

/// The config with what differs between seeds of one experiment cleared.
fn experiment_of(c: &EvolveConfig) -> EvolveConfig {
    let mut c = c.clone();
    c.learner = None;
    c.seed = 0;
    c.stop.generations = 0;
    c
}

/// Median, lowest and highest of `xs` (not empty).
fn median_range(xs: &mut [f64]) -> (f64, f64, f64) {
    xs.sort_by(|a, b| a.total_cmp(b));
    let n = xs.len();
    let median = if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    };
    (median, xs[0], xs[n - 1])
}

/// Writes the report.
pub fn run(args: &ReportArgs) -> anyhow::Result<()> {
    if let Some(grid) = &args.grid {
        return grid::report(grid, &args.out);
    }
    if args.runs[0]
        .join(wopr::experiment::pretrain::POOL_FILE)
        .is_file()
    {
        anyhow::ensure!(
            args.runs.len() == 1,
            "a report covers one pre-trained pool at a time"
        );
        return pool::report(&args.runs[0], &args.out);
    }
    let layer_kind = wopr::experiment::learn::run_kind(&args.runs[0]).ok();
    if layer_kind.is_some_and(|k| k != "evolve") {
        return learn::report(args);
    }
    let mut runs: Vec<(PathBuf, Checkpoint)> = Vec::new();
    for dir in &args.runs {
        let cp = load_checkpoint(dir).map_err(|e| anyhow::anyhow!("{e}"))?;
        if let Some((first_dir, first)) = runs.first() {
            if experiment_of(&first.config) != experiment_of(&cp.config) {
                anyhow::bail!(
                    "{} and {} were run with different configs (seed and generations aside); a report covers one config",
                    first_dir.display(),
                    dir.display()
                );
            }
        }
        runs.push((dir.clone(), cp));
    }
    let game = super::parse_game(&runs[0].1.config.game)?;
    with_game!(&game, g => write_report(g, args, &runs))
}

fn write_report<G: Roster>(
    game: &G,
    args: &ReportArgs,
    runs: &[(PathBuf, Checkpoint)],
) -> anyhow::Result<()> {
    let config = &runs[0].1.config;
    let stem = args.out.with_extension("");
    let name = config.name.clone().unwrap_or_else(|| config.game.clone());
    let mut md = String::new();
    writeln!(md, "# {name}\n")?;
    let seeds: Vec<String> = runs
        .iter()
        .map(|(_, cp)| cp.config.seed.to_string())
        .collect();
    writeln!(
        md,
        "{} runs of one config (seeds {}), game {}.\n",
        runs.len(),
        seeds.join(", "),
        config.game
    )?;
    writeln!(
        md,
        "## Config\n\n```toml\n{}```\n",
        toml::to_string_pretty(config)?
    )?;

    // Fitness: median and range of the best fitness over seeds, per
    // generation. A run that stopped early (a stall or target rule) counts
    // with its last generation's best from then on, so the range is always
    // over every seed and does not narrow to the longest runs.
    let generations = runs
        .iter()
        .map(|(_, cp)| cp.history.len())
        .max()
        .unwrap_or(0);
    let stopped_early = runs.iter().any(|(_, cp)| cp.history.len() < generations);
    let mut med = Vec::new();
    let mut lo = Vec::new();
    let mut hi = Vec::new();
    for g in 0..generations {
        let mut xs: Vec<f64> = runs
            .iter()
            .filter_map(|(_, cp)| cp.history.get(g).or(cp.history.last()).map(|r| r.best))
            .collect();
        if xs.is_empty() {
            continue;
        }
        let (m, l, h) = median_range(&mut xs);
        med.push((g as f64, m));
        lo.push((g as f64, l));
        hi.push((g as f64, h));
    }
    let fitness_stem = PathBuf::from(format!("{}-fitness", stem.display()));
    plot::lines(
        &fitness_stem,
        &format!("best fitness over {} seeds", runs.len()),
        "generation",
        "best fitness",
        &[
            Series {
                name: "median".into(),
                points: med,
            },
            Series {
                name: "lowest".into(),
                points: lo,
            },
            Series {
                name: "highest".into(),
                points: hi,
            },
        ],
    )?;
    writeln!(
        md,
        "## Fitness\n\n![best fitness: median and range over seeds]({})\n",
        file_name(&fitness_stem, "png")
    )?;
    if stopped_early {
        writeln!(
            md,
            "Runs that stopped before the longest one count with their last generation's best from then on.\n"
        )?;
    }
    let mut errors: Vec<f64> = runs
        .iter()
        .flat_map(|(_, cp)| cp.history.iter().map(|r| r.best_error))
        .filter(|e| *e > 0.0)
        .collect();
    if !errors.is_empty() {
        let (m, l, h) = median_range(&mut errors);
        writeln!(
            md,
            "Fitness is a sample of games: the best member's fitness carries a 95% \
             half-width of {m:.3} (median over generations and seeds; range {l:.3} to \
             {h:.3}). Differences between members smaller than that are luck.\n"
        )?;
    }

    // Yardsticks: median and range of the win rate per opponent.
    let mut opponents: Vec<String> = runs
        .iter()
        .flat_map(|(_, cp)| cp.yardsticks.iter().map(|r| r.opponent.clone()))
        .collect();
    opponents.sort();
    opponents.dedup();
    if !opponents.is_empty() {
        let mut series = Vec::new();
        for o in &opponents {
            let mut gens: Vec<u64> = runs
                .iter()
                .flat_map(|(_, cp)| {
                    cp.yardsticks
                        .iter()
                        .filter(|r| &r.opponent == o)
                        .map(|r| r.generation)
                })
                .collect();
            gens.sort_unstable();
            gens.dedup();
            let mut points = Vec::new();
            for g in gens {
                let mut xs: Vec<f64> = runs
                    .iter()
                    .filter_map(|(_, cp)| {
                        cp.yardsticks
                            .iter()
                            .find(|r| &r.opponent == o && r.generation == g)
                            .map(|r| r.win_rate)
                    })
                    .collect();
                let (m, _, _) = median_range(&mut xs);
                points.push((g as f64, m));
            }
            series.push(Series {
                name: format!("median wins vs {o}"),
                points,
            });
        }
        let y_stem = PathBuf::from(format!("{}-yardsticks", stem.display()));
        plot::lines(
            &y_stem,
            "champions against the yardsticks",
            "generation",
            "fraction of games won",
            &series,
        )?;
        writeln!(
            md,
            "## Yardsticks\n\n![median win rate of the champions]({})\n",
            file_name(&y_stem, "png")
        )?;
        yardstick_means(&mut md, runs, &opponents)?;
        writeln!(md, "Each champion at its last measured generation (wins, draws, losses; win rate with its 95% Wilson interval):\n")?;
        writeln!(md, "| run | generation | opponent | W-D-L | win rate | 95% interval |\n|---|---|---|---|---|---|")?;
        for (dir, cp) in runs {
            let Some(last) = cp.yardsticks.iter().map(|r| r.generation).max() else {
                continue;
            };
            for r in cp.yardsticks.iter().filter(|r| r.generation == last) {
                let (l, h) = wilson(r.wins, r.games, 1.96);
                writeln!(
                    md,
                    "| {} | {} | {} | {}-{}-{} | {:.1}% | [{:.1}%, {:.1}%] |",
                    dir.display(),
                    r.generation,
                    r.opponent,
                    r.wins,
                    r.draws,
                    r.losses,
                    100.0 * r.win_rate,
                    100.0 * l,
                    100.0 * h
                )?;
            }
        }
        writeln!(md)?;
    }

    pruned_means(&mut md, runs)?;

    // A tournament among the champions and the yardstick players.
    let mut players: Vec<String> = runs
        .iter()
        .filter(|(dir, _)| dir.join("champion.json").exists())
        .map(|(dir, _)| format!("net:{}", dir.join("champion.json").display()))
        .collect();
    if let Some(y) = &config.yardsticks {
        players.extend(y.against.iter().cloned());
    }
    tournament(&mut md, game, players, args)?;
    let dirs: Vec<&Path> = runs.iter().map(|(d, _)| d.as_path()).collect();
    made_by(&mut md, &dirs, args)?;
    std::fs::write(&args.out, md)
        .with_context(|| format!("cannot write {}", args.out.display()))?;
    println!("wrote {}", args.out.display());
    Ok(())
}

/// The report's tournament: a round robin among `players` (the champions
/// and the yardstick players), with ratings.
fn tournament<G: Roster>(
    md: &mut String,
    game: &G,
    mut players: Vec<String>,
    args: &ReportArgs,
) -> anyhow::Result<()> {
    players.dedup();
    if args.games == 0 || players.len() < 2 {
        return Ok(());
    }
    let openings = wopr::eval::openings::Openings::parse(game, &args.openings)
        .map_err(|e| anyhow::anyhow!("bad --openings: {e}"))?;
    let t = play_tournament(
        game,
        &players,
        Format::RoundRobin,
        args.games,
        args.seed,
        &openings,
        &|| {},
    )
    .map_err(|e| anyhow::anyhow!(e))?;
    let anchor = players.len() - 1;
    let ratings = t.ratings(anchor, 0.0).map_err(|e| anyhow::anyhow!(e))?;
    writeln!(
        md,
        "## Tournament\n\nRound robin, {} games per pairing from openings `{}` (seats swapped within each pair), seed {}: {} games, {} distinct. Ratings on the logistic Elo scale, fitted to all games at once, anchored at `{}` = 0.\n",
        args.games, args.openings, args.seed, t.games, t.distinct_games, players[anchor]
    )?;
    writeln!(md, "| rank | player | Elo | 95% interval | games | score | LOS next |\n|---|---|---|---|---|---|---|")?;
    for (
        rank,
        wopr::eval::tournament::Ranked {
            index: i,
            elo,
            ci95: (low, high),
            los_next: los,
        },
    ) in wopr::eval::tournament::ranked(&ratings)
        .into_iter()
        .enumerate()
    {
        let w = t.total(i);
        let score = w.score();
        writeln!(
            md,
            "| {} | `{}` | {:.0} | [{:.0}, {:.0}] | {} | {:.1}% | {} |",
            rank + 1,
            players[i],
            elo,
            low,
            high,
            w.games(),
            100.0 * score,
            los.map_or("-".into(), |l| format!("{:.1}%", 100.0 * l))
        )?;
    }
    writeln!(md)?;
    Ok(())
}

/// The line that remakes the report.
fn made_by(md: &mut String, dirs: &[&Path], args: &ReportArgs) -> anyhow::Result<()> {
    let dirs: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
    writeln!(
        md,
        "Made by `wopr report {} --games {} --seed {} --openings {}`.",
        dirs.join(" "),
        args.games,
        args.seed,
        args.openings
    )?;
    Ok(())
}

/// The file name of `stem` with `ext`, for links beside the report.
fn file_name(stem: &Path, ext: &str) -> String {
    stem.with_extension(ext)
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().to_string())
}

/// About ten evenly spaced generations of `gens` (sorted), the last kept.
fn some_of(gens: &[u64]) -> Vec<u64> {
    let step = gens.len().div_ceil(10).max(1);
    let mut kept: Vec<u64> = gens.iter().step_by(step).copied().collect();
    if let Some(&last) = gens.last() {
        if kept.last() != Some(&last) {
            kept.push(last);
        }
    }
    kept
}

/// The mean over seeds of each yardstick's wins and draws, by generation
/// (papers plot averages over runs): `W mean (min–max) D mean` in games.
fn yardstick_means(
    md: &mut String,
    runs: &[(PathBuf, Checkpoint)],
    opponents: &[String],
) -> anyhow::Result<()> {
    let mut gens: Vec<u64> = runs
        .iter()
        .flat_map(|(_, cp)| cp.yardsticks.iter().map(|r| r.generation))
        .collect();
    gens.sort_unstable();
    gens.dedup();
    writeln!(
        md,
        "Wins, draws and losses of the champions by generation, in games: the \
         mean over the runs, the lowest and highest run's wins in brackets.\n"
    )?;
    write!(md, "| generation |")?;
    for o in opponents {
        write!(md, " {o} |")?;
    }
    writeln!(md, "\n|---|{}", "---|".repeat(opponents.len()))?;
    for g in some_of(&gens) {
        write!(md, "| {g} |")?;
        for o in opponents {
            let rows: Vec<_> = runs
                .iter()
                .filter_map(|(_, cp)| {
                    cp.yardsticks
                        .iter()
                        .find(|r| &r.opponent == o && r.generation == g)
                })
                .collect();
            if rows.is_empty() {
                write!(md, " |")?;
                continue;
            }
            let n = rows.len() as f64;
            let wins: Vec<u64> = rows.iter().map(|r| r.wins).collect();
            let mean = |f: fn(&&YardstickRow) -> u64| rows.iter().map(f).sum::<u64>() as f64 / n;
            // Exhaustive rows count lines, which differ between runs.
            let games = if rows.iter().all(|r| r.games == rows[0].games) {
                rows[0].games.to_string()
            } else {
                format!("{:.0} (mean)", mean(|r| r.games))
            };
            write!(
                md,
                " W {:.1} ({}–{}) D {:.1} L {:.1} of {games} |",
                mean(|r| r.wins),
                wins.iter().min().unwrap_or(&0),
                wins.iter().max().unwrap_or(&0),
                mean(|r| r.draws),
                mean(|r| r.losses),
            )?;
        }
        writeln!(md)?;
    }
    writeln!(md)?;
    Ok(())
}

/// The mean over seeds of the champions' zero (pruned) weights per layer,
/// by generation, where any run pruned one (Handa & Horiuchi's Figure 4).
fn pruned_means(md: &mut String, runs: &[(PathBuf, Checkpoint)]) -> anyhow::Result<()> {
    let any = |f: fn(&GenerationRow) -> &Vec<u64>| {
        runs.iter()
            .any(|(_, cp)| cp.history.iter().any(|r| f(r).iter().any(|&c| c > 0)))
    };
    let first = any(|r| &r.pruned);
    let second = any(|r| &r.pruned_second);
    if !first && !second {
        return Ok(());
    }
    let generations = runs
        .iter()
        .map(|(_, cp)| cp.history.len() as u64)
        .max()
        .unwrap_or(0);
    let gens: Vec<u64> = (0..generations).collect();
    writeln!(
        md,
        "## Pruned weights\n\nZero weights of the champion per weight layer \
         (input → hidden first), mean over the runs:\n"
    )?;
    writeln!(
        md,
        "| generation | champion | second population's champion |\n|---|---|---|"
    )?;
    let mean = |g: u64, f: fn(&GenerationRow) -> &Vec<u64>| -> String {
        let rows: Vec<&Vec<u64>> = runs
            .iter()
            .filter_map(|(_, cp)| cp.history.get(g as usize).map(f))
            .filter(|c| !c.is_empty())
            .collect();
        let layers = rows.iter().map(|c| c.len()).max().unwrap_or(0);
        (0..layers)
            .map(|l| {
                let sum: u64 = rows.iter().map(|c| c.get(l).copied().unwrap_or(0)).sum();
                format!("{:.1}", sum as f64 / rows.len().max(1) as f64)
            })
            .collect::<Vec<_>>()
            .join(" / ")
    };
    for g in some_of(&gens) {
        writeln!(
            md,
            "| {g} | {} | {} |",
            mean(g, |r| &r.pruned),
            mean(g, |r| &r.pruned_second)
        )?;
    }
    writeln!(md)?;
    Ok(())
}
