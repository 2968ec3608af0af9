//! Shared by the CLI tests: run the built `wopr`, check its output, and
//! scratch folders that remove themselves.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the built `wopr` with `args`.
pub fn wopr(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wopr"))
        .args(args)
        .output()
        .expect("the wopr binary runs")
}

/// A path as `&str` (test paths are UTF-8).
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Asserts success and returns stdout.
pub fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// Fails with exit code != 0 and exactly one line on stderr containing `want`.
pub fn fails_with(out: &Output, want: &str) {
    assert!(!out.status.success(), "should fail");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(err.contains(want), "'{want}' not in: {err}");
}

/// A scratch folder in the temp dir, removed with everything in it when
/// dropped.
pub struct Scratch(PathBuf);

impl Scratch {
    /// `PREFIX-NAME-PID` in the temp dir, emptied; created when `create`.
    pub fn new(prefix: &str, name: &str, create: bool) -> Scratch {
        let dir = std::env::temp_dir().join(format!("{prefix}-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        if create {
            std::fs::create_dir_all(&dir).unwrap();
        }
        Scratch(dir)
    }
}

impl std::ops::Deref for Scratch {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
