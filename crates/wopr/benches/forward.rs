//! Forward-pass throughput of the papers' nets, and the fraction of the
//! machine's f32 FMA peak it reaches.
//!
//! Run with `cargo bench -p wopr --bench forward` (add `-- quick` for a
//! shorter run). One thread. Rates are per second of the benchmark
//! thread's CPU time, so a busy machine slows the run but not the figures.
//! For each net and each SIMD level this CPU
//! supports: positions per second at batch 1 (`Network::forward`) and batch
//! 256 (`Network::forward_batch`; `batch=N` for another size), the arithmetic rate at batch 256 counting
//! 2 FLOP per weight per position (activations and biases not counted), and
//! that rate as a fraction of the peak:
//!
//! peak FLOP/s = cores (1) × clock (Hz) × f32 lanes per FMA unit × 2 (a fused
//! multiply-add is a multiply and an add) × FMA units per core.
//!
//! The clock is measured with a chain of dependent integer adds (one per
//! cycle on every x86-64 core); lanes × units is 8 × 2 for AVX2-class cores
//! (two 256-bit FMA pipes; AMD Zen 4 runs AVX-512 on the same two pipes, so
//! it has the same peak). A measured FMA-throughput loop (12 independent
//! accumulators) is printed beside it as a check.
//!
//! A second table gives training throughput at the best level: positions
//! per second through forward + backward (gradient) at batch 1 and 256.

use std::hint::black_box;
use std::time::{Duration, Instant};

use wopr::game::rng::stream;
use wopr::nn::{Activation, Mlp, Network, Scratch, SimdLevel};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "quick");
    // `net=64-58-27-1` or `simd=avx2` restrict the table (for profiling);
    // `batch=N` sets the batched column's batch size (256; at most 4096).
    let only = |key: &str| {
        args.iter()
            .find_map(|a| a.strip_prefix(key)?.strip_prefix('=').map(str::to_string))
    };
    let (only_net, only_simd) = (only("net"), only("simd"));
    let budget = Duration::from_millis(if quick { 150 } else { 600 });
    let ghz = clock_ghz();
    let (lanes, units) = (8.0, 2.0);
    let peak = ghz * 1e9 * lanes * 2.0 * units;
    println!("wopr forward benchmark (1 thread)");
    println!(
        "clock {ghz:.3} GHz (dependent-add loop; /proc/cpuinfo says {})",
        cpuinfo_mhz().map_or("n/a".into(), |m| format!("{:.3} GHz", m / 1000.0))
    );
    println!(
        "peak = 1 core × {ghz:.3} GHz × {lanes} lanes × 2 FLOP/FMA × {units} FMA units = {:.1} GFLOP/s",
        peak / 1e9
    );
    for (name, gflops) in measured_fma_peak(budget) {
        println!(
            "measured FMA loop ({name}): {gflops:.1} GFLOP/s = {:.0}% of peak",
            100.0 * gflops * 1e9 / peak
        );
    }
    println!();
    println!(
        "{:<12} {:<9} {:>14} {:>14} {:>10} {:>8}",
        "net", "simd", "batch 1 pos/s", "batched pos/s", "GFLOP/s", "of peak"
    );
    let nets: [(&[usize], &[Activation]); 3] = [
        (&[36, 60, 6], &[Activation::Sigmoid, Activation::Sigmoid]),
        (&[24, 9, 24], &[Activation::Sigmoid, Activation::Sigmoid]),
        (
            &[64, 58, 27, 1],
            &[Activation::Sigmoid, Activation::Sigmoid, Activation::Linear],
        ),
    ];
    for (sizes, acts) in nets {
        let mut net = Mlp::new(sizes, acts).unwrap();
        net.randomize(&mut stream(1, &[]), 0.5);
        let macs: usize = sizes.windows(2).map(|w| w[0] * w[1]).sum();
        let name = sizes
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join("-");
        if only_net.as_ref().is_some_and(|n| *n != name) {
            continue;
        }
        let (ni, no) = (net.num_inputs(), net.num_outputs());
        // A pool of board-like inputs (-1, 0, 1), so batch-1 calls see
        // different positions.
        let pool_n = 4096;
        let pool: Vec<f32> = (0..pool_n * ni)
            .map(|i| ((i * 7919 % 3) as f32) - 1.0)
            .collect();
        for level in [SimdLevel::Portable, SimdLevel::Avx2, SimdLevel::Avx512] {
            if !level.is_supported() || only_simd.as_ref().is_some_and(|l| l != level.name()) {
                continue;
            }
            let mut s = Scratch::with_level(level).unwrap();
            let mut out1 = vec![0.0f32; no];
            let skip_one = args.iter().any(|a| a == "batch-only");
            let one = rate(if skip_one { Duration::ZERO } else { budget }, 256, |k| {
                for i in 0..256 {
                    let r = (k * 256 + i) % pool_n;
                    net.forward(&pool[r * ni..(r + 1) * ni], &mut out1, &mut s);
                    black_box(&out1);
                }
            });
            let bsz: usize = only("batch")
                .and_then(|b| b.parse().ok())
                .filter(|b| (1..=pool_n / 2).contains(b))
                .unwrap_or(256);
            let mut out = vec![0.0f32; bsz * no];
            let batch = rate(budget, bsz, |k| {
                let r = (k * bsz) % (pool_n - bsz);
                net.forward_batch(&pool[r * ni..(r + bsz) * ni], &mut out, &mut s);
                black_box(&out);
            });
            let gflops = batch * macs as f64 * 2.0 / 1e9;
            println!(
                "{name:<12} {:<9} {:>14.3e} {:>14.3e} {:>10.1} {:>7.0}%",
                level.name(),
                one,
                batch,
                gflops,
                100.0 * gflops * 1e9 / peak
            );
        }
    }
    training_table(budget, only_net.as_deref());
}

/// Forward + backward throughput at the best SIMD level.
fn training_table(budget: Duration, only_net: Option<&str>) {
    println!();
    println!(
        "{:<12} {:<9} {:>18} {:>18}",
        "gradient", "simd", "batch 1 pos/s", "batch 256 pos/s"
    );
    let nets: [(&[usize], &[Activation]); 3] = [
        (&[36, 60, 6], &[Activation::Sigmoid, Activation::Sigmoid]),
        (&[24, 9, 24], &[Activation::Sigmoid, Activation::Sigmoid]),
        (
            &[64, 58, 27, 1],
            &[Activation::Sigmoid, Activation::Sigmoid, Activation::Linear],
        ),
    ];
    for (sizes, acts) in nets {
        let name = sizes
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join("-");
        if only_net.is_some_and(|n| n != name) {
            continue;
        }
        let mut net = Mlp::new(sizes, acts).unwrap();
        net.randomize(&mut stream(1, &[]), 0.5);
        let (ni, no) = (net.num_inputs(), net.num_outputs());
        let pool: Vec<f32> = (0..512 * ni)
            .map(|i| ((i * 7919 % 3) as f32) - 1.0)
            .collect();
        let mut s = Scratch::new();
        let mut g = vec![0.0f32; net.num_params()];
        let mut out = vec![0.0f32; 256 * no];
        let one = rate(budget, 256, |k| {
            for i in 0..256 {
                let r = (k + i) % 512;
                net.forward(&pool[r * ni..(r + 1) * ni], &mut out[..no], &mut s);
                net.backward(&pool[..no], &mut g, &mut s);
            }
        });
        let batch = rate(budget, 256, |k| {
            let r = k % 256;
            net.forward_batch(&pool[r * ni..(r + 256) * ni], &mut out, &mut s);
            net.backward(&pool[..256 * no], &mut g, &mut s);
        });
        black_box(&g);
        println!(
            "{name:<12} {:<9} {one:>18.3e} {batch:>18.3e}",
            s.level().name()
        );
    }
}

/// CPU time of the calling thread: on a shared machine, time the thread
/// spent waiting for a core does not count against it.
fn thread_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid timespec to fill.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Positions per CPU-second: runs `f` (which evaluates `per_call`
/// positions) for the budget, in five slices, and keeps the best slice.
fn rate(budget: Duration, per_call: usize, mut f: impl FnMut(usize)) -> f64 {
    for k in 0..20 {
        f(k);
    }
    let mut best = 0.0f64;
    for _ in 0..5 {
        let start = thread_time();
        let mut calls = 0;
        while thread_time() - start < budget / 5 {
            for _ in 0..16 {
                f(calls);
                calls += 1;
            }
        }
        best = best.max((calls * per_call) as f64 / (thread_time() - start).as_secs_f64());
    }
    best
}

/// The core clock in GHz, from a chain of dependent integer adds (one
/// cycle each); best of five runs.
fn clock_ghz() -> f64 {
    #[cfg(target_arch = "x86_64")]
    {
        let mut best = 0.0f64;
        for _ in 0..20 {
            let iters: u64 = 10_000_000;
            let start = thread_time();
            let mut x: u64 = 0;
            let mut n = iters;
            // SAFETY: register-only arithmetic and a counted loop.
            unsafe {
                std::arch::asm!(
                    "2:",
                    "add {x}, 1", "add {x}, 1", "add {x}, 1", "add {x}, 1",
                    "add {x}, 1", "add {x}, 1", "add {x}, 1", "add {x}, 1",
                    "dec {n}",
                    "jnz 2b",
                    x = inout(reg) x,
                    n = inout(reg) n,
                    options(nomem, nostack),
                );
            }
            black_box((x, n));
            best = best.max(8.0 * iters as f64 / (thread_time() - start).as_secs_f64() / 1e9);
        }
        best
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        cpuinfo_mhz().map_or(1.0, |m| m / 1000.0)
    }
}

fn cpuinfo_mhz() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    text.lines()
        .find(|l| l.starts_with("cpu MHz"))?
        .split(':')
        .nth(1)?
        .trim()
        .parse()
        .ok()
}

/// GFLOP/s of a loop of independent FMAs, per supported vector width.
fn measured_fma_peak(budget: Duration) -> Vec<(&'static str, f64)> {
    let mut v = Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        if SimdLevel::Avx2.is_supported() {
            // SAFETY: AVX2 and FMA are present.
            v.push(("avx2 ymm", timed(budget, |n| unsafe { fma_loop_avx2(n) })));
        }
        if SimdLevel::Avx512.is_supported() {
            // SAFETY: AVX-512F is present.
            v.push((
                "avx512 zmm",
                timed(budget, |n| unsafe { fma_loop_avx512(n) }),
            ));
        }
    }
    v
}

#[cfg(target_arch = "x86_64")]
fn timed(budget: Duration, f: impl Fn(u64) -> f64) -> f64 {
    let n = 1_000_000;
    f(n / 10);
    let mut best = 0.0f64;
    let start = Instant::now();
    while start.elapsed() < budget {
        let t = thread_time();
        let flops = f(n);
        best = best.max(flops / (thread_time() - t).as_secs_f64() / 1e9);
    }
    best
}

/// 12 independent accumulators × 8 lanes; returns the FLOPs done.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn fma_loop_avx2(n: u64) -> f64 {
    use std::arch::x86_64::*;
    let a = _mm256_set1_ps(0.999_999);
    let b = _mm256_set1_ps(1e-7);
    let mut acc = [_mm256_set1_ps(1.0); 12];
    for _ in 0..n {
        for r in acc.iter_mut() {
            *r = _mm256_fmadd_ps(*r, a, b);
        }
    }
    black_box(acc);
    n as f64 * 12.0 * 8.0 * 2.0
}

/// 12 independent accumulators × 16 lanes; returns the FLOPs done.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn fma_loop_avx512(n: u64) -> f64 {
    use std::arch::x86_64::*;
    let a = _mm512_set1_ps(0.999_999);
    let b = _mm512_set1_ps(1e-7);
    let mut acc = [_mm512_set1_ps(1.0); 12];
    for _ in 0..n {
        for r in acc.iter_mut() {
            *r = _mm512_fmadd_ps(*r, a, b);
        }
    }
    black_box(acc);
    n as f64 * 12.0 * 16.0 * 2.0
}
