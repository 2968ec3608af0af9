//! `wopr gdl suite MANIFEST --root DIR`: the GDL conformance suite. Each
//! sheet of the manifest (`wopr::games::gdl::conformance`) is loaded and
//! counted by a child `wopr gdl count` under a time limit (so a sheet that
//! takes too long, or too much memory, is killed without ending the suite),
//! and its counts are compared with the references' counts.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::Context;
use wopr::games::gdl::conformance::{judge, parse_manifest, sha256_hex, Entry, Run, Verdict};
use wopr::games::gdl::ground::Budget;

/// What each sheet's child may use.
pub struct Limits {
    /// Seconds, loading included.
    pub seconds: f64,
    /// Address space in MiB (0: no cap).
    pub memory_mib: u64,
    /// The memory budget for grounding (`None`: the child's default).
    pub budget: Option<Budget>,
}

/// Runs the suite: one line per sheet, then the totals. Each sheet's child
/// runs within `limits`.
pub fn run(manifest: &Path, root: &Path, depth: usize, limits: &Limits) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(manifest)
        .with_context(|| format!("cannot read {}", manifest.display()))?;
    let entries =
        parse_manifest(&text).map_err(|e| anyhow::anyhow!("{}: {e}", manifest.display()))?;
    if entries.is_empty() {
        anyhow::bail!("{}: no sheets listed", manifest.display());
    }
    let exe = std::env::current_exe().context("cannot find the wopr executable")?;
    let mut verdicts = Vec::new();
    for entry in &entries {
        let start = Instant::now();
        let verdict = check_one(&exe, root, entry, depth, limits)?;
        println!(
            "{}: {verdict} ({:.2} s)",
            entry.path,
            start.elapsed().as_secs_f64()
        );
        verdicts.push(verdict);
    }
    println!("{}", summary(&verdicts));
    let wrong = verdicts.iter().filter(|v| v.is_wrong()).count();
    let missing = verdicts
        .iter()
        .filter(|v| matches!(v, Verdict::Missing(_)))
        .count();
    if wrong + missing > 0 {
        anyhow::bail!(
            "{wrong} of {} sheets answered wrongly, {missing} missing or changed",
            verdicts.len()
        );
    }
    Ok(())
}

/// The verdict on one sheet: read and hash it, then count it in a child.
fn check_one(
    exe: &Path,
    root: &Path,
    entry: &Entry,
    depth: usize,
    limits: &Limits,
) -> anyhow::Result<Verdict> {
    let path = root.join(&entry.path);
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => {
            return Ok(Verdict::Missing(format!(
                "cannot read {}: {e}",
                path.display()
            )))
        }
    };
    if let Some(want) = &entry.sha256 {
        let got = sha256_hex(&bytes);
        if &got != want {
            return Ok(Verdict::Missing(format!(
                "sha256 {got}, the manifest (line {}) says {want}",
                entry.line
            )));
        }
    }
    let run = count_in_child(exe, &path, depth, limits)?;
    Ok(judge(entry, &run))
}

/// Runs `wopr gdl count PATH DEPTH`, killed after `limits.seconds`.
fn count_in_child(exe: &Path, path: &Path, depth: usize, limits: &Limits) -> anyhow::Result<Run> {
    let (seconds, memory_mib) = (limits.seconds, limits.memory_mib);
    let mut command = Command::new(exe);
    command
        .arg("gdl")
        .arg("count")
        .arg(path)
        .arg(depth.to_string())
        .arg("--memory-mib")
        .arg(memory_mib.to_string());
    if let Some(b) = limits.budget {
        command.arg("--memory").arg(b.short());
    }
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot start {}", exe.display()))?;
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().context("the child's stdout")?;
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut stderr = child.stderr.take().context("the child's stderr")?;
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let deadline = Instant::now() + Duration::from_secs_f64(seconds);
    let mut run = Run {
        loaded: false,
        counts: Vec::new(),
        refused: None,
        timed_out: false,
    };
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match rx.recv_timeout(left) {
            Ok(line) => {
                if line == "loaded" {
                    run.loaded = true;
                } else if let Some(n) = line
                    .split_once(' ')
                    .and_then(|(_, n)| n.trim().parse::<u64>().ok())
                {
                    run.counts.push(n);
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                run.timed_out = true;
                let _ = child.kill();
                break;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    let status = child.wait().context("waiting for the child")?;
    let _ = reader.join();
    let err = err_reader.join().unwrap_or_default();
    if !run.timed_out && !status.success() {
        let last = err
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        run.refused = Some(if err.contains("memory allocation of") {
            format!("out of memory (over {memory_mib} MiB)")
        } else if last.is_empty() {
            format!("the count ended with {status}")
        } else {
            reason(last, path)
        });
    }
    Ok(run)
}

/// wopr's one-line error without the prefixes that repeat the sheet's
/// path.
fn reason(line: &str, path: &Path) -> String {
    let line = line.strip_prefix("error: ").unwrap_or(line);
    let prefix = format!("gdl:{}: ", path.display());
    match line.rfind(&prefix) {
        Some(i) => line[i + prefix.len()..].to_string(),
        None => line.to_string(),
    }
}

/// The totals line.
fn summary(verdicts: &[Verdict]) -> String {
    let count = |f: &dyn Fn(&Verdict) -> bool| verdicts.iter().filter(|v| f(v)).count();
    let agrees_at = |d: usize| {
        count(&|v| matches!(v, Verdict::Agrees { depth, timed_out: false, .. } if *depth == d))
    };
    let loaded = count(&|v| {
        !matches!(
            v,
            Verdict::Missing(_) | Verdict::Refused { .. } | Verdict::TimedOut { loaded: false }
        )
    });
    format!(
        "{} sheets: {loaded} loaded; {} agree (to depth 3: {}, 2: {}, 1: {}); {} disagree; {} refused ({} invalid GDL, as expected); {} accepted though invalid; {} timed out ({} agreeing as far as they got); {} loaded without reference counts; {} missing or changed",
        verdicts.len(),
        count(&|v| v.word() == "agrees"),
        agrees_at(3),
        agrees_at(2),
        agrees_at(1),
        count(&|v| v.word() == "disagrees"),
        count(&|v| v.word() == "refused"),
        count(&|v| matches!(v, Verdict::Refused { expected: true, .. })),
        count(&|v| v.word() == "accepted invalid"),
        count(&|v| v.word() == "timed out"),
        count(&|v| matches!(v, Verdict::Agrees { timed_out: true, .. })),
        count(&|v| v.word() == "loaded"),
        count(&|v| v.word() == "missing"),
    )
}

/// Caps this process's address space at `mib` MiB (0: no cap), so that a
/// sheet whose grounding outgrows memory fails alone.
fn limit_memory(mib: u64) {
    #[cfg(unix)]
    if mib > 0 {
        let bytes = mib.saturating_mul(1 << 20) as libc::rlim_t;
        let limit = libc::rlimit {
            rlim_cur: bytes,
            rlim_max: bytes,
        };
        // SAFETY: setrlimit reads the struct passed by reference and has
        // no other precondition; a failure leaves the limit as it was.
        unsafe {
            libc::setrlimit(libc::RLIMIT_AS, &limit);
        }
    }
    #[cfg(not(unix))]
    let _ = mib;
}

/// `wopr gdl count SHEET DEPTH`: the child's work. Prints `loaded` once
/// the sheet is loaded (within `budget` if given), then `d count` for
/// d = 1..=DEPTH.
pub fn count(
    sheet: &Path,
    depth: u32,
    memory_mib: u64,
    budget: Option<Budget>,
) -> anyhow::Result<()> {
    use std::io::Write;
    use wopr::{with_game, Game, Roster};
    limit_memory(memory_mib);
    let game = super::parse_game(&sheet_spec(sheet, budget))?;
    with_game!(&game, g => {
        println!("loaded");
        let start = g.initial_state();
        for d in 1..=depth {
            println!("{d} {}", g.perft(&start, d));
            std::io::stdout().flush()?;
        }
    });
    Ok(())
}

/// The game spec of `sheet`, with `memory=` where a budget is given.
pub fn sheet_spec(sheet: &std::path::Path, memory: Option<Budget>) -> String {
    match memory {
        Some(b) => format!("gdl:{},memory={}", sheet.display(), b.short()),
        None => format!("gdl:{}", sheet.display()),
    }
}
