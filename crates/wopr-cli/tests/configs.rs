//! Every config in `configs/` parses and sets up a run (nets, engine, fitness
//! scheme, opponents and yardsticks are all checked before a run starts).

use std::process::Command;

#[test]
fn every_paper_config_starts() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../configs");
    let mut seen = 0;
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
        // Zero generations: set up, check, write the folder, stop.
        let out = Command::new(env!("CARGO_BIN_EXE_wopr"))
            .args([
                "evolve",
                path.to_str().unwrap(),
                "--quiet",
                "--generations",
                "0",
                "--out",
            ])
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
        seen += 1;
    }
    assert!(seen >= 8, "only {seen} configs");
}
