//! Shared by the library's integration tests.

#![allow(dead_code)]

/// Runs `f` on a fresh rayon pool of `n` threads (results must not depend
/// on `n`).
pub fn on_threads<T: Send>(n: usize, f: impl FnOnce() -> T + Send) -> T {
    rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build()
        .unwrap()
        .install(f)
}
