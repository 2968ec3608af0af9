//! Every config in `configs/` parses and sets up a run through `wopr run`
//! (nets, engine, fitness scheme, opponents and yardsticks are all checked
//! before a run starts): evolution configs for zero generations, TD configs
//! for zero games (the first checkpoint and two yardstick games each),
//! training configs for zero epochs (on a small data set of the name they
//! read).

use std::process::Command;

#[test]
fn every_paper_config_starts() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs");
    let mut seen = 0;
    // Configs that start from pre-trained nets read `pretrained/…` relative
    // to the working folder: run them where a small pool of the right
    // shape was made (10 teachers × 5 nets, enough for a population of 50).
    let work = std::env::temp_dir().join(format!("wopr-config-pool-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&work);
    std::fs::create_dir_all(&work).unwrap();
    // The paper's 64-58-27-1 nets over the board, and linear nets over the
    // players' features (`--hidden 0`).
    for (out, extra) in [
        ("pretrained/virus-naveed", &[][..]),
        (
            "pretrained/virus-features",
            &["--encoding", "features", "--hidden", "0"][..],
        ),
    ] {
        let pool = Command::new(env!("CARGO_BIN_EXE_wopr"))
            .current_dir(&work)
            .args([
                "pretrain",
                "--game",
                "virus",
                "--teachers",
                "ai:1,ai:2,ai:3,ai:4,ai:5,ai:6,ai:7,ai:8,ai:9,ai:10",
                "--per-teacher",
                "5",
                "--positions",
                "20",
                "--epochs",
                "1",
                "--out",
                out,
            ])
            .args(extra)
            .output()
            .unwrap();
        assert!(
            pool.status.success(),
            "{}",
            String::from_utf8_lossy(&pool.stderr)
        );
    }
    // The teacher's data set, small: training configs read `train10k.csv`.
    let data = Command::new(env!("CARGO_BIN_EXE_wopr"))
        .current_dir(&work)
        .args([
            "dataset",
            "--game",
            "connect4:6x6",
            "--oracle",
            "perfect",
            "--positions",
            "20",
            "--seed",
            "4",
            "--out",
            "train10k.csv",
        ])
        .output()
        .unwrap();
    assert!(
        data.status.success(),
        "{}",
        String::from_utf8_lossy(&data.stderr)
    );
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("toml") {
            continue;
        }
        let out_dir = std::env::temp_dir().join(format!(
            "wopr-config-{}-{}",
            path.file_stem().unwrap().to_string_lossy(),
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&out_dir);
        // Zero generations, games, epochs or rounds: set up, check, write the
        // folder, stop.
        let text = std::fs::read_to_string(&path).unwrap();
        let train = text.contains("\nkind = \"train\"");
        let pretrained = train || text.contains("\npopulation = \"pretrained:");
        let stop: &[&str] = if text.contains("\nkind = \"td\"") {
            &["--set", "stop.games=0", "--set", "yardsticks.games=2"]
        } else if train {
            &["--set", "stop.epochs=0", "--set", "yardsticks.games=2"]
        } else if text.contains("\nkind = \"alphazero\"") {
            &["--set", "stop.rounds=0", "--set", "yardsticks.games=2"]
        } else {
            &["--set", "stop.generations=0"]
        };
        // A GDL config names its sheet, and a config starting from a
        // champion its net, from the repository's root, where the README
        // runs them.
        let from_root = text.contains("\ngame = \"gdl:") || text.contains("\nnet = \"champions/");
        let out = Command::new(env!("CARGO_BIN_EXE_wopr"))
            .current_dir(if pretrained {
                work.clone()
            } else if from_root {
                std::path::Path::new(&dir).parent().unwrap().to_path_buf()
            } else {
                std::env::temp_dir()
            })
            .args(["run", path.to_str().unwrap(), "--quiet"])
            .args(stop)
            .arg("--out")
            .arg(&out_dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}: {}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out_dir.join("config.toml").exists());
        let _ = std::fs::remove_dir_all(&out_dir);
        seen += 1;
    }
    assert!(seen >= 8, "only {seen} configs");
    let _ = std::fs::remove_dir_all(&work);
}
