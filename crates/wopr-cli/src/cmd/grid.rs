//! `wopr grid GRID.toml`: a grid of runs of one config, the papers'
//! experiments (seeds × populations × crossover rates …) as one file.
//!
//! ```toml
//! base = "../tictactoe-thesis-pbil-exhaustive.toml"  # beside this file
//! out = "runs/grids/pbil"                            # from the working folder
//!
//! [axes]                       # every combination is a task
//! seed = [1, 2, 3]
//! "algorithm.population" = [50, 100]
//! ```
//!
//! Task `k` is `wopr run BASE --set KEY=VALUE … --out OUT/NAME`, its name
//! the settings (`algorithm.population=50,seed=1`); tasks are numbered in
//! the order of the axes' keys (sorted), the last key varying fastest.
//! `--list` prints them, `--task K` runs one (a Slurm array job runs
//! `--task $SLURM_ARRAY_TASK_ID`: `configs/grids/slurm.sbatch`), and plain
//! `wopr grid GRID.toml` runs every task here, `--jobs N` at once. A task
//! that finished (its folder holds `grid-task-done`) is skipped; one that
//! was interrupted goes on from its checkpoint (`wopr run --resume`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use anyhow::Context;
use serde::Deserialize;

/// The file a task's folder gets when its run has finished.
const DONE: &str = "grid-task-done";

/// Arguments of `wopr grid`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The grid file (TOML: base, out, [axes]).
    grid: PathBuf,
    /// Print the tasks (index, folder, settings) and exit.
    #[arg(long)]
    list: bool,
    /// Run only task K (0-based), e.g. a Slurm array job's index.
    #[arg(long, conflicts_with = "list")]
    task: Option<usize>,
    /// Tasks run at once on this machine (each run uses every core it is
    /// given; 1 runs them one after another).
    #[arg(long, default_value_t = 1)]
    jobs: usize,
}

/// A grid file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GridFile {
    /// The config every task runs, relative to the grid file.
    base: PathBuf,
    /// The folder of the task folders, relative to the working folder.
    out: PathBuf,
    /// Config keys and the values each takes.
    #[serde(default)]
    axes: toml::Table,
}

/// One run of the grid.
#[derive(Clone, Debug)]
pub(crate) struct Task {
    /// Its `--set` settings, `KEY=VALUE` in TOML syntax.
    pub(crate) settings: Vec<String>,
    /// Its name: the settings, values unquoted.
    pub(crate) name: String,
    /// Its run folder.
    pub(crate) dir: PathBuf,
}

/// The grid's base config and tasks.
pub(crate) fn read(path: &Path) -> anyhow::Result<(PathBuf, Vec<Task>)> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read grid {}", path.display()))?;
    let grid: GridFile = toml::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "bad grid {}: {}",
            path.display(),
            e.to_string().replace('\n', " ")
        )
    })?;
    let base = path.parent().unwrap_or(Path::new(".")).join(&grid.base);
    anyhow::ensure!(
        base.is_file(),
        "bad grid {}: base {} is not a file (a path beside the grid file)",
        path.display(),
        base.display()
    );
    let mut axes: Vec<(String, Vec<toml::Value>)> = Vec::new();
    for (key, values) in &grid.axes {
        match values {
            toml::Value::Array(v) if !v.is_empty() => axes.push((key.clone(), v.clone())),
            _ => anyhow::bail!(
                "bad grid {}: axes.\"{key}\" must be a list of at least one value, e.g. [1, 2, 3]",
                path.display()
            ),
        }
    }
    let mut tasks = vec![Task {
        settings: Vec::new(),
        name: String::new(),
        dir: PathBuf::new(),
    }];
    for (key, values) in &axes {
        tasks = tasks
            .iter()
            .flat_map(|t| {
                values.iter().map(move |v| {
                    let shown = match v {
                        toml::Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    let mut t = t.clone();
                    t.settings.push(format!("{key}={v}"));
                    if !t.name.is_empty() {
                        t.name.push(',');
                    }
                    t.name.push_str(&format!("{key}={shown}"));
                    t
                })
            })
            .collect();
    }
    for t in &mut tasks {
        let safe: String = t
            .name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || "._=,-".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        t.dir = grid
            .out
            .join(if safe.is_empty() { "run".into() } else { safe });
    }
    Ok((base, tasks))
}

/// Lists, runs one or runs every task.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let (base, tasks) = read(&args.grid)?;
    if args.list {
        for (k, t) in tasks.iter().enumerate() {
            let state = if t.dir.join(DONE).is_file() {
                "done"
            } else if t.dir.is_dir() {
                "started"
            } else {
                "to run"
            };
            println!(
                "{k}\t{}\t{state}\t{}",
                t.dir.display(),
                t.settings.join(" ")
            );
        }
        return Ok(());
    }
    if let Some(k) = args.task {
        let task = tasks.get(k).ok_or_else(|| {
            anyhow::anyhow!(
                "--task {k}: the grid has tasks 0 to {} (see --list)",
                tasks.len().saturating_sub(1)
            )
        })?;
        return run_task(&base, k, task);
    }
    anyhow::ensure!(args.jobs >= 1, "--jobs must be at least 1");
    let next = AtomicUsize::new(0);
    let failed = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.min(tasks.len()) {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::SeqCst);
                let Some(task) = tasks.get(k) else { break };
                if let Err(e) = run_task(&base, k, task) {
                    eprintln!("task {k} ({}): {e}", task.name);
                    failed.lock().expect("no panics hold it").push(k);
                }
            });
        }
    });
    let failed = failed.into_inner().expect("the workers are done");
    anyhow::ensure!(
        failed.is_empty(),
        "{} of {} tasks failed: {failed:?} (run again to retry them; finished ones are skipped)",
        failed.len(),
        tasks.len()
    );
    println!("{} tasks done in {}", tasks.len(), args.grid.display());
    Ok(())
}

/// Runs task `k` (skipped when done, resumed when interrupted) as its own
/// `wopr run` process.
fn run_task(base: &Path, k: usize, task: &Task) -> anyhow::Result<()> {
    if task.dir.join(DONE).is_file() {
        println!("task {k} {}: done already", task.name);
        return Ok(());
    }
    let exe = std::env::current_exe().context("cannot find the wopr program")?;
    let mut command = Command::new(exe);
    let holds_run = ["checkpoint.json", "state.json", "pool.partial.json"]
        .iter()
        .any(|f| task.dir.join(f).is_file());
    if holds_run {
        command.args(["run", "--resume"]).arg(&task.dir);
        println!("task {k} {}: resuming", task.name);
    } else {
        command.arg("run").arg(base);
        for s in &task.settings {
            command.args(["--set", s]);
        }
        command.arg("--out").arg(&task.dir);
        println!("task {k} {}: running", task.name);
    }
    let status = command
        .arg("-q")
        .status()
        .context("cannot start wopr run")?;
    anyhow::ensure!(status.success(), "wopr run ended with {status}");
    std::fs::write(task.dir.join(DONE), task.settings.join("\n") + "\n")
        .with_context(|| format!("cannot write {}", task.dir.join(DONE).display()))?;
    println!("task {k} {}: done", task.name);
    Ok(())
}
