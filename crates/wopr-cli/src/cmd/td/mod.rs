//! `wopr td`: learn a linear value net (an n-tuple network, a weighted
//! piece counter, …) by temporal-difference self-play
//! ([`wopr::train::td`]), measured against yardstick players as it learns,
//! checkpointed and resumable.
//!
//! The flags make a [`TdConfig`] (`--print-config` writes it), which
//! `wopr run CONFIG.toml` runs the same way. Files in `--out DIR`:
//! - `config.toml`: the config as run;
//! - `td.json`: the settings and how many games are learned (the
//!   checkpoint), naming `net-GAMES.json`, the weights at that count;
//!   running the same command again resumes from them (dropping log rows
//!   a killed run wrote past the checkpoint), and a larger `--games`
//!   extends the run; the games learned are the same whether a run stops
//!   and resumes or not;
//! - `net.json`: the net after the last checkpoint (`net:DIR/net.json`
//!   plays it greedily at 1 ply), and `champion.json`, the same net once
//!   the run has ended;
//! - `best.json`: the net with the best mean yardstick score so far;
//! - `progress.csv`: one row per checkpoint and yardstick (`games,opponent,
//!   played,wins,draws,losses,score`), and `learning.csv` (`games,
//!   mean_abs_error,first_seat_score,mean_plies` over the games since the
//!   last checkpoint);
//! - `progress.png` / `.svg`: the yardstick scores against games learned.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use wopr::eval::matches::play_match_from;
use wopr::eval::{match_stats, MatchStats};
use wopr::experiment::write_atomic;
use wopr::game::driver::seats_swapped;
use wopr::game::encode::Encodable;
use wopr::nn::{Activation, NetFile};
use wopr::players::{parse_player, Roster};
use wopr::train::td::{TdLearner, TdOptions};
use wopr::with_board_game;

mod config;

use super::OpeningArgs;
use crate::plot::{self, Series};
pub use config::TdConfig;

/// Arguments of `wopr td`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game spec (a board game, e.g. reversi:6x6, connect4:6x6, virus).
    #[arg(long)]
    game: String,
    /// Input encoding (e.g. ntuple2, ntuple4, raw): the net is linear over
    /// it.
    #[arg(long, default_value_t = config::ntuple2())]
    encoding: String,
    /// Output activation: tanh or linear.
    #[arg(long, default_value_t = config::tanh())]
    output: String,
    /// Games of self-play to learn from, in all (a resumed run continues
    /// to this count).
    #[arg(long, default_value_t = 100_000)]
    games: u64,
    /// Step size on every weight.
    #[arg(long, default_value_t = config::alpha())]
    alpha: f32,
    /// Trace decay (0: TD(0)).
    #[arg(long, default_value_t = 0.0)]
    lambda: f32,
    /// Chance of a random move at each position.
    #[arg(long, default_value_t = config::epsilon())]
    epsilon: f64,
    /// Anneal alpha to this value over --decay-games games (geometrically).
    #[arg(long)]
    alpha_final: Option<f32>,
    /// Anneal epsilon to this value over --decay-games games (linearly).
    #[arg(long)]
    epsilon_final: Option<f64>,
    /// Games over which alpha and epsilon reach their final values.
    #[arg(long, default_value_t = 0)]
    decay_games: u64,
    /// Random plies at the start of every learning game.
    #[arg(long, default_value_t = 0)]
    random_plies: usize,
    /// Seed of the learning games (and of the yardstick games).
    #[arg(long, default_value_t = config::one())]
    seed: u64,
    /// Learn against these players, one per game in turn, from both seats,
    /// instead of by self-play (separated by commas).
    #[arg(long, value_delimiter = ',')]
    opponents: Vec<String>,
    /// Start from this net file's weights (a linear net over the encoding)
    /// instead of zeros.
    #[arg(long)]
    init: Option<PathBuf>,
    /// Checkpoint, and play the yardsticks, every this many games.
    #[arg(long, default_value_t = config::every())]
    every: u64,
    /// Yardstick opponents, separated by commas (none: no yardsticks).
    #[arg(long, value_delimiter = ',')]
    against: Vec<String>,
    /// Games against each yardstick (half from each seat).
    #[arg(long, default_value_t = config::eval_games())]
    eval_games: usize,
    /// Where yardstick games start.
    #[command(flatten)]
    openings: OpeningArgs,
    /// The run folder.
    #[arg(long, required_unless_present = "print_config")]
    out: Option<PathBuf>,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
    /// Write the run's config (TOML, for `wopr run`) to stdout and exit.
    #[arg(long)]
    print_config: bool,
}

impl Args {
    /// The config these flags make: `wopr run` of it is this command.
    pub fn config(&self) -> TdConfig {
        TdConfig {
            name: None,
            game: self.game.clone(),
            seed: self.seed,
            learner: config::TdLearner {
                kind: config::TdKind::Td,
                encoding: self.encoding.clone(),
                output: self.output.clone(),
                alpha: self.alpha,
                lambda: self.lambda,
                epsilon: self.epsilon,
                alpha_final: self.alpha_final,
                epsilon_final: self.epsilon_final,
                decay_games: self.decay_games,
                random_plies: self.random_plies,
                opponents: self.opponents.clone(),
            },
            stop: config::TdStop { games: self.games },
            yardsticks: config::TdYardsticks {
                every: self.every,
                against: self.against.clone(),
                games: self.eval_games,
                openings: self.openings.openings.clone(),
                start: self.openings.start.clone(),
            },
            init: self.init.clone().map(|net| config::TdInit { net }),
        }
    }
}

/// A TD run: its config, its folder, and whether to show progress.
pub struct TdRun<'a> {
    /// The settings.
    pub config: &'a TdConfig,
    /// The run folder.
    pub out: &'a Path,
    /// No progress bar.
    pub quiet: bool,
}

/// What `td.json` holds: the settings a resumed run must share, and the
/// games learned.
#[derive(Serialize, Deserialize, Debug, PartialEq, Clone)]
struct Checkpoint {
    game: String,
    encoding: String,
    output: String,
    alpha: f32,
    lambda: f32,
    epsilon: f64,
    random_plies: usize,
    seed: u64,
    /// The opponents learned against (none: self-play).
    #[serde(default)]
    opponents: Vec<String>,
    /// The annealing of alpha and epsilon, if any.
    #[serde(default)]
    alpha_final: Option<f32>,
    #[serde(default)]
    epsilon_final: Option<f64>,
    #[serde(default)]
    decay_games: u64,
    /// The net the run started from, if not zeros.
    init: Option<String>,
    /// Games learned so far.
    games_done: u64,
    /// The best mean yardstick score so far and when (`best.json`).
    best_score: Option<f64>,
    best_games: Option<u64>,
    /// The net file of this checkpoint (`net-GAMES.json`): written before
    /// the checkpoint that names it, removed after the next one, so a run
    /// killed at any moment resumes from weights and a game count that
    /// belong together.
    #[serde(default)]
    net_file: Option<String>,
}

impl Checkpoint {
    /// Whether `other` is the same run (all but the counters equal).
    fn same_run(&self, other: &Checkpoint) -> bool {
        let strip = |c: &Checkpoint| Checkpoint {
            games_done: 0,
            best_score: None,
            best_games: None,
            net_file: None,
            ..c.clone()
        };
        strip(self) == strip(other)
    }
}

/// Learns, checkpoints and measures (or prints the config).
pub fn run(args: &Args) -> anyhow::Result<()> {
    let config = args.config();
    if args.print_config {
        print!("{}", toml::to_string_pretty(&config)?);
        return Ok(());
    }
    let out = args.out.as_deref().expect("clap requires --out");
    run_config(&TdRun {
        config: &config,
        out,
        quiet: args.quiet,
    })
}

/// Runs (or resumes, when the folder holds its checkpoint) a TD run; the
/// folder keeps the config as `config.toml`, which `wopr run --resume`
/// reads.
pub fn run_config(run: &TdRun) -> anyhow::Result<()> {
    let game = super::parse_game(&run.config.game)?;
    with_board_game!(&game, g => learn(g, run),
        anyhow::bail!("TD learning needs a board game, not {}", game.spec()))
}

fn learn<G: Encodable + Roster>(game: &G, run: &TdRun) -> anyhow::Result<()> {
    let c = run.config;
    let output: Activation = c.learner.output.parse().map_err(anyhow::Error::msg)?;
    anyhow::ensure!(c.yardsticks.every > 0, "--every must be at least 1");
    let options = TdOptions {
        alpha: c.learner.alpha,
        lambda: c.learner.lambda,
        epsilon: c.learner.epsilon,
        openings: c.learner.random_plies,
        seed: c.seed,
        alpha_final: c.learner.alpha_final,
        epsilon_final: c.learner.epsilon_final,
        decay_games: c.learner.decay_games,
    };
    let mut learner = TdLearner::new(game.clone(), &c.learner.encoding, output, options)
        .map_err(anyhow::Error::msg)?;
    for o in &c.yardsticks.against {
        parse_player(game, o).map_err(|e| anyhow::anyhow!("bad --against '{o}': {e}"))?;
    }
    let opponents = c
        .learner
        .opponents
        .iter()
        .map(|o| parse_player(game, o).map_err(|e| anyhow::anyhow!("bad --opponents '{o}': {e}")))
        .collect::<anyhow::Result<Vec<_>>>()?;
    learner = learner.with_opponents(opponents);
    let openings = c.yardsticks.opening_args().resolve(game)?;
    let mut state = Checkpoint {
        game: game.spec(),
        encoding: c.learner.encoding.clone(),
        output: output.name().to_string(),
        alpha: c.learner.alpha,
        lambda: c.learner.lambda,
        epsilon: c.learner.epsilon,
        random_plies: c.learner.random_plies,
        seed: c.seed,
        opponents: c.learner.opponents.clone(),
        alpha_final: c.learner.alpha_final,
        epsilon_final: c.learner.epsilon_final,
        decay_games: c.learner.decay_games,
        init: c.init.as_ref().map(|i| i.net.display().to_string()),
        games_done: 0,
        best_score: None,
        best_games: None,
        net_file: None,
    };
    std::fs::create_dir_all(run.out)
        .with_context(|| format!("cannot create {}", run.out.display()))?;
    let checkpoint_path = run.out.join("td.json");
    let net_path = run.out.join("net.json");
    if checkpoint_path.exists() {
        let text = std::fs::read_to_string(&checkpoint_path)
            .with_context(|| format!("cannot read {}", checkpoint_path.display()))?;
        let saved: Checkpoint = serde_json::from_str(&text)
            .with_context(|| format!("{} is not a TD checkpoint", checkpoint_path.display()))?;
        anyhow::ensure!(
            saved.same_run(&state),
            "{} holds a run with other settings ({}); give another --out",
            run.out.display(),
            describe(&saved)
        );
        let weights = run
            .out
            .join(saved.net_file.as_deref().unwrap_or("net.json"));
        let file = NetFile::load(&weights).map_err(anyhow::Error::msg)?;
        learner = learner.with_net(&file.net).map_err(anyhow::Error::msg)?;
        state = saved;
        // Rows a killed run logged past its checkpoint are learned again.
        trim_log(&run.out.join("learning.csv"), state.games_done)?;
        trim_log(&run.out.join("progress.csv"), state.games_done)?;
        eprintln!(
            "resuming {} at game {}",
            run.out.display(),
            state.games_done
        );
    } else {
        if let Some(init) = c.init.as_ref().map(|i| &i.net) {
            let file = NetFile::load(init).map_err(anyhow::Error::msg)?;
            learner = learner.with_net(&file.net).map_err(anyhow::Error::msg)?;
        }
        std::fs::write(
            run.out.join("progress.csv"),
            "games,opponent,played,wins,draws,losses,score\n",
        )?;
        std::fs::write(
            run.out.join("learning.csv"),
            "games,mean_abs_error,first_seat_score,mean_plies,learner_score\n",
        )?;
        checkpoint(&learner, game, run.out, &mut state)?;
        measure(game, run, &openings, &mut state, &learner)?;
        write_state(&checkpoint_path, &state)?;
    }
    // The config as run, for `wopr run --resume` (a larger stop.games
    // extends the run).
    write_atomic(&run.out.join("config.toml"), &toml::to_string_pretty(c)?)
        .map_err(anyhow::Error::msg)?;
    if state.games_done >= c.stop.games {
        println!(
            "{} has learned {} games already (--games {}): nothing to do",
            run.out.display(),
            state.games_done,
            c.stop.games
        );
        return Ok(());
    }
    let bar = if run.quiet {
        ProgressBar::hidden()
    } else {
        let b = ProgressBar::new(c.stop.games);
        b.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, ETA {eta} {msg}")
                .expect("a valid template"),
        );
        b.set_position(state.games_done);
        b
    };
    let start = Instant::now();
    while state.games_done < c.stop.games {
        let stop = (state.games_done / c.yardsticks.every + 1) * c.yardsticks.every;
        let stop = stop.min(c.stop.games);
        let (mut error, mut first, mut plies, mut own) = (0.0, 0.0, 0usize, None);
        let count = stop - state.games_done;
        for i in state.games_done..stop {
            let g = learner.learn_game(i);
            error += g.mean_abs_error;
            first += (g.first_return + 1.0) / 2.0;
            plies += g.plies;
            if let Some(r) = g.learner_return {
                *own.get_or_insert(0.0) += (r + 1.0) / 2.0;
            }
            bar.inc(1);
        }
        state.games_done = stop;
        append(
            &run.out.join("learning.csv"),
            &format!(
                "{stop},{:.6},{:.4},{:.2},{}\n",
                error / count as f64,
                first / count as f64,
                plies as f64 / count as f64,
                own.map_or(String::new(), |o: f64| format!("{:.4}", o / count as f64))
            ),
        )?;
        checkpoint(&learner, game, run.out, &mut state)?;
        bar.suspend(|| measure(game, run, &openings, &mut state, &learner))?;
        write_state(&checkpoint_path, &state)?;
    }
    bar.finish_and_clear();
    draw(run.out)?;
    // The run's champion is its final net: `best.json` was chosen on the
    // yardstick games, so measuring it on them again would flatter it.
    std::fs::copy(&net_path, run.out.join("champion.json"))
        .with_context(|| format!("cannot write {}", run.out.join("champion.json").display()))?;
    println!(
        "learned {} games in {:.1} s; net {}{}",
        state.games_done,
        start.elapsed().as_secs_f64(),
        net_path.display(),
        match (state.best_score, state.best_games) {
            (Some(s), Some(g)) => format!(
                "; best {} (mean yardstick score {:.1}% at game {g})",
                run.out.join("best.json").display(),
                100.0 * s
            ),
            _ => String::new(),
        }
    );
    Ok(())
}

/// The settings of a checkpoint, for an error message.
fn describe(c: &Checkpoint) -> String {
    format!(
        "game {}, encoding {}, output {}, alpha {}, lambda {}, epsilon {}, random plies {}, seed {}, opponents [{}]",
        c.game,
        c.encoding,
        c.output,
        c.alpha,
        c.lambda,
        c.epsilon,
        c.random_plies,
        c.seed,
        c.opponents.join(", ")
    )
}

/// Writes the learner's net as a greedy player's file.
fn save<G: Encodable>(learner: &TdLearner<G>, game: &G, path: &Path) -> anyhow::Result<()> {
    let mut file = NetFile::new(learner.to_net());
    file.game = Some(game.spec());
    file.encoding = Some(learner.encoding_name().to_string());
    file.player = Some("greedy".to_string());
    write_atomic(path, &file.to_json()).map_err(anyhow::Error::msg)
}

/// Saves the learner as `net-GAMES.json`, points `td.json` at it, copies
/// it to `net.json` and removes the previous checkpoint's file (see
/// [`Checkpoint::net_file`]).
fn checkpoint<G: Encodable>(
    learner: &TdLearner<G>,
    game: &G,
    dir: &Path,
    state: &mut Checkpoint,
) -> anyhow::Result<()> {
    let name = format!("net-{}.json", state.games_done);
    save(learner, game, &dir.join(&name))?;
    let previous = state.net_file.replace(name.clone());
    write_state(&dir.join("td.json"), state)?;
    save(learner, game, &dir.join("net.json"))?;
    if let Some(old) = previous.filter(|old| *old != name) {
        let _ = std::fs::remove_file(dir.join(old));
    }
    Ok(())
}

/// Drops the rows of a log whose games count is past `games_done`.
fn trim_log(path: &Path, games_done: u64) -> anyhow::Result<()> {
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
                    .and_then(|g| g.parse::<u64>().ok())
                    .is_some_and(|g| g <= games_done)
        })
        .map(|(_, line)| format!("{line}\n"))
        .collect();
    if kept != text {
        write_atomic(path, &kept).map_err(anyhow::Error::msg)?;
    }
    Ok(())
}

fn write_state(path: &Path, state: &Checkpoint) -> anyhow::Result<()> {
    write_atomic(path, &serde_json::to_string_pretty(state)?).map_err(anyhow::Error::msg)
}

fn append(path: &Path, line: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .with_context(|| format!("cannot append to {}", path.display()))?;
    f.write_all(line.as_bytes())?;
    Ok(())
}

/// Plays the yardsticks with the net just saved, logs them, and keeps the
/// net as `best.json` if its mean score is the best yet.
fn measure<G: Encodable + Roster>(
    game: &G,
    run: &TdRun,
    openings: &wopr::eval::openings::Openings,
    state: &mut Checkpoint,
    learner: &TdLearner<G>,
) -> anyhow::Result<()> {
    let c = run.config;
    if c.yardsticks.against.is_empty() {
        return Ok(());
    }
    let player = format!("net:{}", run.out.join("net.json").display());
    let mut stats: Vec<MatchStats> = Vec::new();
    for (j, opp) in c.yardsticks.against.iter().enumerate() {
        let seed = c.seed.wrapping_mul(1000).wrapping_add(j as u64);
        let records = play_match_from(
            game,
            &player,
            opp,
            c.yardsticks.games,
            seed,
            openings,
            &|| {},
        )
        .map_err(anyhow::Error::msg)?;
        stats.push(match_stats(&player, opp, &records, |i| {
            usize::from(seats_swapped(i))
        }));
    }
    let mut lines = String::new();
    for s in &stats {
        lines.push_str(&format!(
            "{},{},{},{},{},{},{:.4}\n",
            state.games_done,
            csv_field(&s.opponent),
            s.games,
            s.as_first.wins + s.as_second.wins,
            s.as_first.draws + s.as_second.draws,
            s.as_first.losses + s.as_second.losses,
            s.score
        ));
    }
    append(&run.out.join("progress.csv"), &lines)?;
    let mean = stats.iter().map(|s| s.score).sum::<f64>() / stats.len() as f64;
    let scores: Vec<String> = stats
        .iter()
        .map(|s| format!("{} {:.1}%", s.opponent, 100.0 * s.score))
        .collect();
    if !run.quiet {
        eprintln!("game {:>9}: {}", state.games_done, scores.join(", "));
    }
    if state.best_score.is_none_or(|b| mean > b) {
        state.best_score = Some(mean);
        state.best_games = Some(state.games_done);
        save(learner, game, &run.out.join("best.json"))?;
    }
    Ok(())
}

/// A CSV field, quoted when it holds a comma or a quote.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// Draws `progress.png` / `.svg` from `progress.csv`.
fn draw(dir: &Path) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(dir.join("progress.csv"))?;
    let mut series: Vec<Series> = Vec::new();
    for line in text.lines().skip(1) {
        let Some((games, rest)) = line.split_once(',') else {
            continue;
        };
        let Some((opponent, numbers)) = split_last_fields(rest, 5) else {
            continue;
        };
        let (Ok(x), Some(Ok(score))) = (
            games.parse::<f64>(),
            numbers.last().map(|s| s.parse::<f64>()),
        ) else {
            continue;
        };
        let opponent = opponent.trim_matches('"').replace("\"\"", "\"");
        match series.iter_mut().find(|s| s.name == opponent) {
            Some(s) => s.points.push((x, 100.0 * score)),
            None => series.push(Series {
                name: opponent,
                points: vec![(x, 100.0 * score)],
            }),
        }
    }
    if series.is_empty() {
        return Ok(());
    }
    plot::lines(
        &dir.join("progress"),
        "TD self-play: score against the yardsticks",
        "games learned",
        "score %",
        &series,
    )
}

/// Splits `text` into everything before its last `n` comma-separated
/// fields, and those fields.
fn split_last_fields(text: &str, n: usize) -> Option<(&str, Vec<&str>)> {
    let mut cut = text.len();
    for _ in 0..n {
        cut = text[..cut].rfind(',')?;
    }
    Some((&text[..cut], text[cut + 1..].split(',').collect()))
}
