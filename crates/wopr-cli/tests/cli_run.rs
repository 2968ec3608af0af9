//! `wopr run CONFIG.toml` (issue 27): an evolution config runs as
//! `wopr evolve` runs it, byte for byte; `wopr td --print-config` writes a
//! config that `wopr run` learns the same net from, and so do
//! `wopr train --print-config` and `wopr pretrain --print-config`;
//! `wopr run --resume` goes on with a run of any learner; bad configs are
//! one-line errors.

mod cli_common;

use std::path::{Path, PathBuf};

use cli_common::{fails_with, ok, s, wopr, Scratch};

fn sha256(path: &Path) -> String {
    let out = std::process::Command::new("sha256sum")
        .arg(path)
        .output()
        .expect("sha256sum runs");
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_string()
}

/// `wopr run CONFIG --set SET… --out OUT -q`, which must succeed.
fn run_config(config: &Path, sets: &[&str], out: &Path) {
    let mut args = vec!["run", s(config)];
    for set in sets {
        args.extend(["--set", set]);
    }
    args.extend(["--out", s(out), "-q"]);
    ok(&wopr(&args));
}

/// Runs `wopr COMMAND FLAGS --out OUT`, then writes the config
/// `wopr COMMAND FLAGS --print-config` prints (with its `[learner] kind`)
/// to `DIR/COMMAND.toml`; returns that path.
fn flags_then_config(dir: &Path, command: &str, flags: &[&str], out: &Path) -> PathBuf {
    let mut args = vec![command];
    args.extend(flags);
    args.extend(["--out", s(out)]);
    ok(&wopr(&args));
    let mut print = vec![command];
    print.extend(flags);
    print.push("--print-config");
    let config = ok(&wopr(&print));
    assert!(
        config.contains(&format!("kind = \"{command}\"")),
        "{config}"
    );
    let path = dir.join(format!("{command}.toml"));
    std::fs::write(&path, &config).unwrap();
    path
}

const CMAES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../configs/tictactoe-exhaustive-cmaes.toml"
);

#[test]
fn an_evolution_config_runs_as_wopr_evolve_runs_it() {
    let dir = Scratch::new("wopr-cli-run", "evolve", true);
    let (a, b) = (dir.join("evolve"), dir.join("run"));
    ok(&wopr(&[
        "evolve",
        CMAES,
        "--seed",
        "7",
        "--generations",
        "12",
        "--out",
        s(&a),
        "-q",
    ]));
    ok(&wopr(&[
        "run",
        CMAES,
        "--seed",
        "7",
        "--set",
        "stop.generations=12",
        "--out",
        s(&b),
        "-q",
    ]));
    // The champion issue 27 names for this config, seed and length.
    let want = "5bee53f7f59aa597ebce837dfeef4d9d38a103b5803baa49155367b491fc2064";
    assert_eq!(sha256(&a.join("champion.json")), want);
    assert_eq!(sha256(&b.join("champion.json")), want);
    // The logs are the same but for the seconds each generation took.
    let no_time = |p: &Path| -> Vec<String> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .map(|l| l.rsplit_once(',').map_or(l, |(head, _)| head).to_string())
            .collect()
    };
    assert_eq!(
        no_time(&a.join("generations.csv")),
        no_time(&b.join("generations.csv"))
    );
    // Stopped at 6 generations and resumed to 12: the same champion.
    let c = dir.join("resumed");
    ok(&wopr(&[
        "run",
        CMAES,
        "--seed",
        "7",
        "--set",
        "stop.generations=6",
        "--out",
        s(&c),
        "-q",
    ]));
    ok(&wopr(&[
        "run",
        "--resume",
        s(&c),
        "--set",
        "stop.generations=12",
        "-q",
    ]));
    assert_eq!(sha256(&c.join("champion.json")), want);
    // `[learner] kind = "evolve"` may be said.
    let text = std::fs::read_to_string(CMAES).unwrap();
    let said = dir.join("said.toml");
    std::fs::write(&said, format!("{text}\n[learner]\nkind = \"evolve\"\n")).unwrap();
    let d = dir.join("said");
    ok(&wopr(&[
        "run",
        s(&said),
        "--seed",
        "7",
        "--set",
        "stop.generations=12",
        "--out",
        s(&d),
        "-q",
    ]));
    assert_eq!(sha256(&d.join("champion.json")), want);
    // `wopr evolve --print-config` writes the config it runs, learner
    // named, seed and length applied.
    let printed = ok(&wopr(&[
        "evolve",
        CMAES,
        "--seed",
        "7",
        "--generations",
        "12",
        "--print-config",
    ]));
    assert!(printed.contains("kind = \"evolve\""), "{printed}");
    let path = dir.join("printed.toml");
    std::fs::write(&path, printed).unwrap();
    let e = dir.join("printed");
    ok(&wopr(&["run", s(&path), "--out", s(&e), "-q"]));
    assert_eq!(sha256(&e.join("champion.json")), want);
}

#[test]
fn a_td_config_learns_what_wopr_td_learns_and_resumes() {
    let dir = Scratch::new("wopr-cli-run", "td", true);
    let flags = [
        "--game",
        "connect4:4x4",
        "--games",
        "3000",
        "--every",
        "1000",
        "--against",
        "random",
        "--eval-games",
        "20",
        "--seed",
        "3",
        "--learn-from",
        "2",
        "--learn-from",
        "1 4",
    ];
    let a = dir.join("td");
    let path = flags_then_config(&dir, "td", &flags, &a);
    let config = std::fs::read_to_string(&path).unwrap();
    assert!(
        config.contains("starts = [") && config.contains("\"1 4\""),
        "{config}"
    );
    let b = dir.join("run");
    ok(&wopr(&["run", s(&path), "--out", s(&b), "-q"]));
    // Stopped at 2,000 games and extended to 3,000.
    let c = dir.join("resumed");
    run_config(&path, &["stop.games=2000"], &c);
    ok(&wopr(&[
        "run",
        "--resume",
        s(&c),
        "--set",
        "stop.games=3000",
        "-q",
    ]));
    let net = sha256(&a.join("net.json"));
    assert_eq!(sha256(&b.join("net.json")), net);
    assert_eq!(sha256(&c.join("net.json")), net);
    // Every run folder ends with its champion: for TD, the final net.
    assert_eq!(sha256(&b.join("champion.json")), net);
    fails_with(
        &wopr(&["run", s(&path), "--out", s(&b), "-q"]),
        "already holds a run",
    );
    // `wopr report` summarises TD runs as it does evolution runs: one
    // final yardstick row per run, with its interval, and a tournament.
    let page = dir.join("report.md");
    ok(&wopr(&[
        "report",
        s(&b),
        s(&c),
        "--games",
        "4",
        "--out",
        s(&page),
    ]));
    let md = std::fs::read_to_string(&page).unwrap();
    for says in [
        "## Learning",
        "## Yardsticks",
        "## Tournament",
        "| 3000 | random |",
    ] {
        assert!(md.contains(says), "{says} not in {md}");
    }
    assert_eq!(md.matches("| 3000 | random |").count(), 2, "{md}");
    assert!(dir.join("report-yardsticks.png").exists());
}

#[test]
fn bad_configs_and_resumes_are_one_line_errors() {
    let dir = Scratch::new("wopr-cli-run", "bad", true);
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    let td = "game = \"connect4:4x4\"\n[learner]\nkind = \"td\"\n[stop]\ngames = 10\n";
    let cases = [
        (
            write("kind.toml", "[learner]\nkind = \"genetic\"\n"),
            "accepted: evolve, td, train, pretrain",
        ),
        (
            write(
                "train.toml",
                "[learner]\nkind = \"train\"\ndata = \"none.csv\"\n[stop]\nepochs = 5\n",
            ),
            "none.csv",
        ),
        (
            write("typo.toml", &td.replace("games = 10", "gamez = 10")),
            "line 5",
        ),
        (
            write(
                "alpha.toml",
                &format!("{td}[yardsticks]\nevery = \"often\"\n"),
            ),
            "line 7",
        ),
        (
            write(
                "plies.toml",
                &td.replace(
                    "kind = \"td\"",
                    "kind = \"td\"\nrandom_plies = 2\nrandom_plies_min = 3",
                ),
            ),
            "random_plies_min = 3 is above learner.random_plies = 2",
        ),
        (
            write(
                "starts.toml",
                &td.replace("kind = \"td\"", "kind = \"td\"\nstarts = [\"1 2\", \"9\"]"),
            ),
            "learner.starts '9': move '9' at ply 1",
        ),
    ];
    for (path, says) in &cases {
        let out = dir.join("out");
        fails_with(&wopr(&["run", s(path), "--out", s(&out), "-q"]), says);
    }
    fails_with(
        &wopr(&["run", "--resume", s(&dir), "-q"]),
        "holds no run to resume",
    );
    // A resumed run takes only its stop key.
    let run = dir.join("r");
    ok(&wopr(&[
        "run",
        s(&write("ok.toml", td)),
        "--out",
        s(&run),
        "-q",
    ]));
    fails_with(
        &wopr(&[
            "run",
            "--resume",
            s(&run),
            "--set",
            "learner.alpha=0.5",
            "-q",
        ]),
        "takes only stop.games=N",
    );
    // While another process holds a folder's lock (here this test, as a
    // running `wopr run` would), neither a resume nor a new run writes
    // there; once it lets go, the resume goes on.
    let lock = std::fs::File::open(run.join(".lock")).unwrap();
    lock.try_lock().unwrap();
    fails_with(
        &wopr(&["run", "--resume", s(&run), "--set", "stop.games=20", "-q"]),
        "another wopr process is running in",
    );
    let fresh = dir.join("fresh");
    std::fs::create_dir(&fresh).unwrap();
    let lock_fresh = std::fs::File::create(fresh.join(".lock")).unwrap();
    lock_fresh.try_lock().unwrap();
    fails_with(
        &wopr(&["run", s(&dir.join("ok.toml")), "--out", s(&fresh), "-q"]),
        "another wopr process is running in",
    );
    assert!(!fresh.join("state.json").exists());
    drop((lock, lock_fresh));
    ok(&wopr(&[
        "run",
        "--resume",
        s(&run),
        "--set",
        "stop.games=20",
        "-q",
    ]));
}

#[test]
fn a_pretrain_config_makes_the_pool_wopr_pretrain_makes() {
    let dir = Scratch::new("wopr-cli-run", "pretrain", true);
    let flags = [
        "--game",
        "virus",
        "--teachers",
        "ai:1,ai:2",
        "--per-teacher",
        "2",
        "--positions",
        "20",
        "--epochs",
        "2",
        "--seed",
        "5",
    ];
    let a = dir.join("flags");
    let path = flags_then_config(&dir, "pretrain", &flags, &a);
    let b = dir.join("config");
    ok(&wopr(&["run", s(&path), "--out", s(&b), "-q"]));
    // Two teachers × two nets, and the pool's description: the same bytes.
    let pool: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(b.join("pool.json")).unwrap()).unwrap();
    let files: Vec<String> = pool["nets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["file"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(files.len(), 4);
    for name in files.iter().map(String::as_str).chain(["pool.json"]) {
        assert_eq!(sha256(&a.join(name)), sha256(&b.join(name)), "{name}");
    }
    assert!(b.join("config.toml").is_file() && b.join("champion.json").is_file());
    // Resuming a finished pool trains nothing.
    ok(&wopr(&["run", "--resume", s(&b), "-q"]));
    assert_eq!(sha256(&b.join("pool.json")), sha256(&a.join("pool.json")));
    // Killed after its third net: the checkpoint lists three nets and names
    // the net file saved with it. The resumed run keeps them and ends with
    // the same pool, byte for byte.
    let mut state: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(b.join("state.json")).unwrap()).unwrap();
    state["done"] = 3.into();
    state["learner"]["nets"].as_array_mut().unwrap().truncate(3);
    std::fs::copy(b.join(&files[0]), b.join("net-3.json")).unwrap();
    state["net_file"] = "net-3.json".into();
    std::fs::write(b.join("state.json"), state.to_string()).unwrap();
    std::fs::remove_file(b.join("pool.json")).unwrap();
    std::fs::remove_file(b.join(&files[3])).unwrap();
    let kept = std::fs::metadata(b.join(&files[0]))
        .unwrap()
        .modified()
        .unwrap();
    ok(&wopr(&["run", "--resume", s(&b), "-q"]));
    assert_eq!(sha256(&b.join("pool.json")), sha256(&a.join("pool.json")));
    assert_eq!(sha256(&b.join(&files[3])), sha256(&a.join(&files[3])));
    assert_eq!(
        std::fs::metadata(b.join(&files[0]))
            .unwrap()
            .modified()
            .unwrap(),
        kept,
        "a finished net is not trained again"
    );
    // `wopr report` of a pool: a row per net, and the means by teacher.
    let page = dir.join("pool.md");
    ok(&wopr(&["report", s(&b), "--out", s(&page)]));
    let md = std::fs::read_to_string(&page).unwrap();
    for f in &files {
        assert!(md.contains(&format!("| {f} |")), "{f} not in {md}");
    }
    assert!(
        md.contains("## By teacher") && md.contains("| ai:1 | 2 |"),
        "{md}"
    );
}

/// `wopr train FLAGS --out NET` against `wopr run` of the config
/// `--print-config` writes: the champion is the net file, byte for byte,
/// whether the run went straight or was stopped at an epoch boundary and
/// resumed (full batch iRPROP+, whose memory is the step sizes, and
/// online back-propagation with momentum, whose order is reshuffled every
/// epoch).
#[test]
fn a_train_config_trains_what_wopr_train_trains_and_resumes() {
    let dir = Scratch::new("wopr-cli-run", "train", true);
    let csv = dir.join("ttt.csv");
    ok(&wopr(&[
        "dataset",
        "--game",
        "tictactoe",
        "--oracle",
        "perfect",
        "--positions",
        // Three chunks of 256 examples: the gradient is a sum over parts.
        "700",
        "--seed",
        "5",
        "--out",
        s(&csv),
    ]));
    let setups: [&[&str]; 2] = [
        &["--hidden", "6", "--algo", "irprop+"],
        &[
            "--hidden",
            "4",
            "--algo",
            "bp",
            "--lr",
            "0.05",
            "--momentum",
            "0.5",
            "--batch",
            "1",
        ],
    ];
    for (k, setup) in setups.iter().enumerate() {
        let mut flags = vec!["--data", s(&csv), "--epochs", "30", "--seed", "2"];
        flags.extend_from_slice(setup);
        let net = dir.join(format!("net{k}.json"));
        let path = flags_then_config(&dir, "train", &flags, &net);
        let want = sha256(&net);
        let straight = dir.join(format!("straight{k}"));
        ok(&wopr(&[
            "run",
            s(&path),
            "--out",
            s(&straight),
            "--set",
            "yardsticks.every=10",
            "--set",
            "yardsticks.against=[\"random\"]",
            "--set",
            "yardsticks.games=20",
            "-q",
        ]));
        assert_eq!(sha256(&straight.join("champion.json")), want, "setup {k}");
        // One thread sums the gradients in the order many do.
        let one = dir.join(format!("one{k}"));
        let single = std::process::Command::new(env!("CARGO_BIN_EXE_wopr"))
            .env("RAYON_NUM_THREADS", "1")
            .args(["run", s(&path), "--out", s(&one), "-q"])
            .output()
            .unwrap();
        ok(&single);
        assert_eq!(
            sha256(&one.join("champion.json")),
            want,
            "setup {k}, 1 thread"
        );
        let log = std::fs::read_to_string(straight.join("learning.csv")).unwrap();
        let losses = std::fs::read_to_string(dir.join(format!("net{k}.loss.csv"))).unwrap();
        assert_eq!(
            log.replace("epochs,loss", "epoch,loss"),
            losses,
            "the run logs every epoch's loss as wopr train does"
        );
        // Yardsticks at epochs 0, 10, 20 and 30.
        let y = std::fs::read_to_string(straight.join("yardsticks.csv")).unwrap();
        assert_eq!(y.lines().count(), 5, "{y}");
        let split = dir.join(format!("split{k}"));
        ok(&wopr(&[
            "run",
            s(&path),
            "--out",
            s(&split),
            "--set",
            "stop.epochs=13",
            "--set",
            "yardsticks.every=5",
            "-q",
        ]));
        assert_ne!(sha256(&split.join("champion.json")), want);
        let resumed = ok(&wopr(&[
            "run",
            "--resume",
            s(&split),
            "--set",
            "stop.epochs=30",
            "-q",
        ]));
        assert!(resumed.contains("30 epochs"), "{resumed}");
        assert_eq!(sha256(&split.join("champion.json")), want, "setup {k}");
    }
}

/// `[yardsticks] keep_nets = true` keeps every checkpoint's net (each the
/// net a run stopped there ends with), and `wopr average` writes their
/// weight-by-weight mean; nets of another game, or a default mode that
/// does not parse, are one-line errors that write nothing.
#[test]
fn kept_checkpoints_average_into_one_net() {
    use wopr::nn::{NetFile, Network};
    let dir = Scratch::new("wopr-cli-run", "keep", true);
    let path = dir.join("td.toml");
    std::fs::write(
        &path,
        "game = \"connect4:4x4\"\nseed = 3\n[learner]\nkind = \"td\"\nencoding = \"raw\"\n\
         output = \"tanh\"\nalpha = 0.01\nlambda = 0.5\nepsilon = 0.1\n\
         [stop]\ngames = 3000\n[yardsticks]\nevery = 1000\nkeep_nets = true\n",
    )
    .unwrap();
    let run = dir.join("run");
    run_config(&path, &[], &run);
    let short = dir.join("short");
    run_config(&path, &["stop.games=2000"], &short);
    assert_eq!(
        sha256(&run.join("net-2000.json")),
        sha256(&short.join("net.json"))
    );
    assert_eq!(
        sha256(&run.join("net-3000.json")),
        sha256(&run.join("net.json"))
    );
    let kept: Vec<PathBuf> = [1000, 2000, 3000]
        .iter()
        .map(|n| run.join(format!("net-{n}.json")))
        .collect();
    let avg = dir.join("avg.json.gz");
    let mut args = vec!["average"];
    args.extend(kept.iter().map(|p| s(p)));
    args.extend(["--out", s(&avg), "--player", "mode=alphabeta,ply=2"]);
    ok(&wopr(&args));
    let nets: Vec<NetFile> = kept.iter().map(|p| NetFile::load(p).unwrap()).collect();
    let mean = NetFile::load(&avg).unwrap();
    assert_eq!(mean.player.as_deref(), Some("mode=alphabeta,ply=2"));
    for i in 0..mean.net.num_params() {
        let sum: f64 = nets.iter().map(|n| f64::from(n.net.params()[i])).sum();
        assert_eq!(mean.net.params()[i], (sum / 3.0) as f32, "weight {i}");
    }
    // Rounded to 2 significant digits after zeroing what is below 0.01:
    // every weight is 0 or has at most 2 significant digits (its shortest
    // decimal form, as the file writes it), and the mean's large weights
    // are kept within rounding.
    let small = dir.join("small.json");
    let mut args = vec!["average"];
    args.extend(kept.iter().map(|p| s(p)));
    args.extend([
        "--out",
        s(&small),
        "--significant",
        "2",
        "--zero-below",
        "0.01",
    ]);
    ok(&wopr(&args));
    let rounded = NetFile::load(&small).unwrap();
    for (i, (&r, &m)) in rounded
        .net
        .params()
        .iter()
        .zip(mean.net.params())
        .enumerate()
    {
        if m.abs() < 0.01 {
            assert_eq!(r, 0.0, "weight {i}");
        } else {
            assert!((r - m).abs() <= 0.05 * m.abs(), "weight {i}: {r} for {m}");
            let digits = format!("{:e}", r);
            let mantissa = digits.split('e').next().unwrap().replace(['-', '.'], "");
            assert!(mantissa.len() <= 2, "weight {i}: {r}");
        }
    }
    // The mean plays: it loads as a player of its game.
    ok(&wopr(&[
        "eval",
        "--game",
        "connect4:4x4",
        "--player",
        &format!("net:{}", s(&avg)),
        "--against",
        "random",
        "--games",
        "2",
    ]));
    // A bad mode writes nothing: a file already at --out stays as it was.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "kept").unwrap();
    let mut args = vec!["average"];
    args.extend(kept.iter().map(|p| s(p)));
    args.extend(["--out", s(&bad), "--player", "mode=nosuchmode"]);
    fails_with(&wopr(&args), "does not load as a player");
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), "kept");
    let other = dir.join("other");
    run_config(&path, &["game=\"connect4:5x4\"", "stop.games=1000"], &other);
    fails_with(
        &wopr(&[
            "average",
            s(&kept[0]),
            s(&other.join("net.json")),
            "--out",
            s(&bad),
        ]),
        "game connect4:5x4",
    );
}
