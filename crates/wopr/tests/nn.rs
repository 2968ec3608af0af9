//! Networks against a plain f64 reference: forward values, bit-identical
//! single and batched passes, back-propagated gradients against finite
//! differences, pruning masks, files, and no allocation once warm.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use wopr::game::rng::stream;
use wopr::nn::{
    Activation, AnyNet, Architecture, CompleteNet, Mlp, NetFile, Network, Scratch, SegmentKind,
    SimdLevel,
};

use Activation::*;

// ---------------------------------------------------------------------------
// Counting allocator: allocations made by the current thread.

struct Counting;

thread_local! {
    static ALLOCS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> usize {
    ALLOCS.with(|c| c.get())
}

// ---------------------------------------------------------------------------
// The reference: the definitions, in f64, loop by loop.

fn act64(a: Activation, x: f64) -> f64 {
    match a {
        Sigmoid => 1.0 / (1.0 + (-x).exp()),
        Tanh => x.tanh(),
        Linear => x,
        Relu => x.max(0.0),
    }
}

/// A net described the way the layouts are documented.
#[derive(Clone)]
enum Spec {
    Mlp(Vec<usize>, Vec<Activation>),
    /// inputs, nodes, outputs, hidden, output
    Complete(usize, usize, usize, Activation, Activation),
}

impl Spec {
    fn build(&self) -> AnyNet {
        match self {
            Spec::Mlp(s, a) => AnyNet::Mlp(Mlp::new(s, a).unwrap()),
            Spec::Complete(i, n, o, h, out) => {
                AnyNet::Complete(CompleteNet::new(*i, *n, *o, *h, *out).unwrap())
            }
        }
    }

    /// Outputs for one input, straight from the definition.
    fn reference(&self, p: &[f64], x: &[f64]) -> Vec<f64> {
        match self {
            Spec::Mlp(sizes, acts) => {
                let mut a = x.to_vec();
                let mut off = 0;
                for l in 1..sizes.len() {
                    let (n, m) = (sizes[l - 1], sizes[l]);
                    let mut y = vec![0.0; m];
                    for (j, yj) in y.iter_mut().enumerate() {
                        let mut s = p[off + n * m + j];
                        for (i, ai) in a.iter().enumerate() {
                            s += p[off + i * m + j] * ai;
                        }
                        *yj = act64(acts[l - 1], s);
                    }
                    off += n * m + m;
                    a = y;
                }
                assert_eq!(off, p.len());
                a
            }
            Spec::Complete(ni, nodes, no, h, out) => {
                let mut a = x.to_vec();
                let mut off = 0;
                for k in 0..*nodes {
                    let mut s = p[off + ni + k];
                    for (src, v) in a.iter().enumerate() {
                        s += p[off + src] * v;
                    }
                    let f = if k + no >= *nodes { *out } else { *h };
                    a.push(act64(f, s));
                    off += ni + k + 1;
                }
                assert_eq!(off, p.len());
                a[ni + nodes - no..].to_vec()
            }
        }
    }
}

fn specs() -> Vec<Spec> {
    vec![
        // The papers' shapes.
        Spec::Mlp(vec![36, 60, 6], vec![Sigmoid, Sigmoid]),
        Spec::Mlp(vec![24, 9, 24], vec![Sigmoid, Sigmoid]),
        Spec::Mlp(vec![64, 58, 27, 1], vec![Sigmoid, Sigmoid, Linear]),
        // Odd widths (tile remainders), every activation.
        Spec::Mlp(vec![5, 13, 7, 3], vec![Tanh, Relu, Linear]),
        Spec::Mlp(vec![3, 1], vec![Sigmoid]),
        Spec::Complete(4, 6, 2, Tanh, Sigmoid),
        Spec::Complete(2, 3, 1, Sigmoid, Sigmoid),
        Spec::Complete(7, 5, 5, Relu, Linear),
    ]
}

fn levels() -> Vec<SimdLevel> {
    [SimdLevel::Portable, SimdLevel::Avx2, SimdLevel::Avx512]
        .into_iter()
        .filter(|l| l.is_supported())
        .collect()
}

fn random_net(spec: &Spec, seed: u64) -> AnyNet {
    let mut net = spec.build();
    net.randomize(&mut stream(seed, &[0]), 0.7);
    net
}

/// Board-like inputs: -1, 0, 1 and some fractions.
fn random_inputs(n: usize, seed: u64) -> Vec<f32> {
    use rand::RngExt;
    let mut rng = stream(seed, &[1]);
    (0..n)
        .map(|_| match rng.random_range(0..4) {
            0 => 0.0,
            1 => 1.0,
            2 => -1.0,
            _ => rng.random_range(-1.0f32..1.0),
        })
        .collect()
}

fn f64s(v: &[f32]) -> Vec<f64> {
    v.iter().map(|&x| x as f64).collect()
}

#[test]
fn forward_matches_the_f64_reference() {
    for (si, spec) in specs().iter().enumerate() {
        let net = random_net(spec, si as u64);
        let (ni, no) = (net.num_inputs(), net.num_outputs());
        let p = f64s(net.params());
        for level in levels() {
            let mut s = Scratch::with_level(level).unwrap();
            for batch in [1, 5, 16, 17, 40] {
                let x = random_inputs(batch * ni, 100 + batch as u64);
                let mut out = vec![0.0; batch * no];
                net.forward_batch(&x, &mut out, &mut s);
                for b in 0..batch {
                    let want = spec.reference(&p, &f64s(&x[b * ni..(b + 1) * ni]));
                    for (j, &w) in want.iter().enumerate() {
                        let got = out[b * no + j] as f64;
                        assert!(
                            (got - w).abs() <= 2e-5 * (1.0 + w.abs()),
                            "net {si} level {level} batch {batch} row {b} out {j}: {got} vs {w}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn single_and_batched_forward_agree_bit_for_bit() {
    for (si, spec) in specs().iter().enumerate() {
        let net = random_net(spec, 10 + si as u64);
        let (ni, no) = (net.num_inputs(), net.num_outputs());
        let batch = 37;
        let x = random_inputs(batch * ni, 7);
        let mut fused: Option<Vec<f32>> = None;
        for level in levels() {
            let mut s = Scratch::with_level(level).unwrap();
            let mut out = vec![0.0; batch * no];
            net.forward_batch(&x, &mut out, &mut s);
            let mut one = vec![0.0; no];
            for b in 0..batch {
                net.forward(&x[b * ni..(b + 1) * ni], &mut one, &mut s);
                assert_eq!(
                    &one[..],
                    &out[b * no..(b + 1) * no],
                    "net {si} {level} row {b}"
                );
            }
            // AVX2 and AVX-512 both fuse and sum in the same order.
            if level != SimdLevel::Portable {
                match &fused {
                    Some(f) => assert_eq!(f, &out, "net {si}: fused levels differ"),
                    None => fused = Some(out),
                }
            }
        }
    }
}

/// Board positions from nearby games leave the same squares empty: whole
/// input rows of a block are zero, and the batched kernel skips them. The
/// outputs must still be those of the single-position pass, bit for bit,
/// and of the f64 reference.
#[test]
fn batches_with_inputs_zero_in_every_position_agree_bit_for_bit() {
    for (si, spec) in specs().iter().enumerate() {
        let net = random_net(spec, 20 + si as u64);
        let (ni, no) = (net.num_inputs(), net.num_outputs());
        let p = f64s(net.params());
        let batch = 21;
        let mut x = random_inputs(batch * ni, 8);
        // Every third input is empty in all positions.
        for row in x.chunks_exact_mut(ni) {
            for (i, v) in row.iter_mut().enumerate() {
                if i % 3 == 0 {
                    *v = 0.0;
                }
            }
        }
        for level in levels() {
            let mut s = Scratch::with_level(level).unwrap();
            let mut out = vec![0.0; batch * no];
            net.forward_batch(&x, &mut out, &mut s);
            let mut one = vec![0.0; no];
            for b in 0..batch {
                let xb = &x[b * ni..(b + 1) * ni];
                net.forward(xb, &mut one, &mut s);
                assert_eq!(
                    &one[..],
                    &out[b * no..(b + 1) * no],
                    "net {si} {level} row {b}"
                );
                for (j, w) in spec.reference(&p, &f64s(xb)).into_iter().enumerate() {
                    let got = out[b * no + j] as f64;
                    assert!(
                        (got - w).abs() <= 2e-5 * (1.0 + w.abs()),
                        "net {si} {level} row {b}"
                    );
                }
            }
        }
    }
}

/// Checks `backward` against central differences of `E = Σ c·y` computed
/// with the f64 reference, for a single position and a batch.
#[test]
fn backward_matches_finite_differences() {
    for (si, spec) in specs().iter().enumerate() {
        let net = random_net(spec, 20 + si as u64);
        let (ni, no, np) = (net.num_inputs(), net.num_outputs(), net.num_params());
        let batch = 19;
        let x = random_inputs(batch * ni, 30 + si as u64);
        let c = random_inputs(batch * no, 40 + si as u64);
        let p = f64s(net.params());
        let energy = |p: &[f64]| -> f64 {
            (0..batch)
                .map(|b| {
                    let y = spec.reference(p, &f64s(&x[b * ni..(b + 1) * ni]));
                    y.iter()
                        .zip(&c[b * no..])
                        .map(|(y, &c)| y * c as f64)
                        .sum::<f64>()
                })
                .sum()
        };
        let h = 1e-6;
        let mut numeric = vec![0.0; np];
        for (k, nk) in numeric.iter_mut().enumerate() {
            let mut q = p.clone();
            q[k] += h;
            let up = energy(&q);
            q[k] -= 2.0 * h;
            *nk = (up - energy(&q)) / (2.0 * h);
        }
        for level in levels() {
            let mut s = Scratch::with_level(level).unwrap();
            let mut out = vec![0.0; batch * no];
            let mut g = vec![0.0f32; np];
            net.forward_batch(&x, &mut out, &mut s);
            net.backward(&c, &mut g, &mut s);
            let mut g1 = vec![0.0f32; np];
            let mut one = vec![0.0; no];
            for b in 0..batch {
                net.forward(&x[b * ni..(b + 1) * ni], &mut one, &mut s);
                net.backward(&c[b * no..(b + 1) * no], &mut g1, &mut s);
            }
            for k in 0..np {
                for (path, got) in [("batch", g[k]), ("single", g1[k])] {
                    let (got, want) = (got as f64, numeric[k]);
                    assert!(
                        (got - want).abs() <= 1e-3 * (1.0 + want.abs()),
                        "net {si} {level} {path}: d/dp{k} = {got}, finite difference {want}"
                    );
                }
            }
        }
    }
}

#[test]
fn pruned_parameters_stay_zero() {
    let spec = Spec::Mlp(vec![4, 5, 2], vec![Tanh, Linear]);
    let mut net = random_net(&spec, 3);
    net.prune(0);
    net.prune(21);
    assert_eq!(net.params()[0], 0.0);
    assert_eq!(net.params()[21], 0.0);
    net.set_params(&vec![1.0; net.num_params()]).unwrap();
    assert_eq!(
        (net.params()[0], net.params()[1], net.params()[21]),
        (0.0, 1.0, 0.0)
    );
    net.randomize(&mut stream(1, &[]), 1.0);
    assert_eq!((net.params()[0], net.params()[21]), (0.0, 0.0));
    net.params_mut()[21] = 5.0;
    net.apply_mask();
    assert_eq!(net.params()[21], 0.0);
    let mask = net.mask().unwrap();
    assert_eq!(mask.iter().filter(|&&m| !m).count(), 2);
    // The forward pass sees the pruned weight as absent.
    let p = f64s(net.params());
    let x = [0.5f32, -1.0, 1.0, 0.25];
    let mut out = [0.0f32; 2];
    net.forward(&x, &mut out, &mut Scratch::new());
    let want = spec.reference(&p, &f64s(&x));
    assert!((out[0] as f64 - want[0]).abs() < 1e-5);
    assert!(net.set_mask(Some(vec![true; 3])).is_err());
    net.set_mask(None).unwrap();
    assert!(net.mask().is_none());
}

#[test]
fn segments_cover_the_parameters_in_order() {
    for spec in specs() {
        let net = spec.build();
        let mut next = 0;
        for seg in net.segments() {
            assert_eq!(seg.offset, next, "{}", seg.name);
            if let SegmentKind::Weights { sources, units } = seg.kind {
                assert_eq!(seg.len, sources * units);
            }
            next += seg.len;
        }
        assert_eq!(next, net.num_params());
    }
    // 64-58-27-1: (64·58 + 58) + (58·27 + 27) + (27·1 + 1) = 3770 + 1593 + 28 = 5391.
    assert_eq!(specs()[2].build().num_params(), 5391);
    // Complete, 2 inputs and 3 nodes: 3·(2+1) + 3·2/2 = 12.
    assert_eq!(specs()[6].build().num_params(), 12);
}

#[test]
fn no_allocation_once_warm() {
    let net = random_net(&specs()[2], 5);
    let x = random_inputs(256 * 64, 5);
    let mut out = vec![0.0; 256];
    let mut one = [0.0f32];
    let mut g = vec![0.0; net.num_params()];
    let mut s = Scratch::new();
    net.forward_batch(&x, &mut out, &mut s);
    net.backward(&out, &mut g, &mut s);
    net.forward(&x[..64], &mut one, &mut s);
    net.backward(&one, &mut g, &mut s);
    let before = allocations();
    for _ in 0..10 {
        net.forward_batch(&x, &mut out, &mut s);
        net.backward(&out, &mut g, &mut s);
        net.forward_batch(&x[..64 * 100], &mut out[..100], &mut s);
        net.forward(&x[..64], &mut one, &mut s);
        net.backward(&one, &mut g, &mut s);
    }
    assert_eq!(allocations(), before);
}

#[test]
#[should_panic(expected = "backward needs a forward pass")]
fn backward_without_forward_panics() {
    let net = specs()[4].build();
    let mut g = vec![0.0; net.num_params()];
    net.backward(&[1.0], &mut g, &mut Scratch::new());
}

#[test]
fn files_round_trip() {
    for (si, spec) in specs().iter().enumerate() {
        let mut net = random_net(spec, 50 + si as u64);
        net.prune(1);
        let file = NetFile {
            game: Some("connect4:6x6".into()),
            encoding: Some("cells".into()),
            player: Some("greedy".into()),
            heads: wopr::nn::Heads::Plain,
            net,
        };
        let text = file.to_json();
        let back = NetFile::from_json(&text).unwrap();
        assert_eq!(back, file, "net {si}");
        assert_eq!(back.net.params(), file.net.params());
    }
    // Metadata is optional; a file on disk reads back too.
    let file = NetFile::new(random_net(&specs()[1], 9));
    let dir = std::env::temp_dir().join(format!("wopr-nn-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("net.json");
    file.save(&path).unwrap();
    assert_eq!(NetFile::load(&path).unwrap(), file);
    // A name ending in .gz is written compressed (gzip's magic bytes) and
    // reads back the same, as does a compressed file under any name.
    let gz = dir.join("net.json.gz");
    file.save(&gz).unwrap();
    let bytes = std::fs::read(&gz).unwrap();
    assert_eq!(bytes[..2], [0x1f, 0x8b]);
    assert_eq!(NetFile::load(&gz).unwrap(), file);
    let renamed = dir.join("renamed.json");
    std::fs::write(&renamed, &bytes).unwrap();
    assert_eq!(NetFile::load(&renamed).unwrap(), file);
    std::fs::write(&renamed, &bytes[..bytes.len() / 2]).unwrap();
    let e = NetFile::load(&renamed).unwrap_err().to_string();
    assert!(e.contains("not a readable gzip file"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `NetFile::average`: weight i of the result is the mean of the inputs'
/// weight i (three nets: (a + b + c) / 3, computed here in f64); the
/// first file's player is kept; a weight stays pruned only where every
/// net has it pruned; nets of another shape or encoding are refused.
#[test]
fn nets_average_weight_by_weight() {
    let spec = &specs()[3];
    let file = |seed: u64, player: &str| NetFile {
        game: Some("reversi:6x6".into()),
        encoding: Some("walk6p".into()),
        player: Some(player.into()),
        heads: wopr::nn::Heads::Plain,
        net: random_net(spec, seed),
    };
    let nets = [
        file(1, "mode=alphabeta,ply=4"),
        file(2, "greedy"),
        file(3, "greedy"),
    ];
    let avg = NetFile::average(&nets).unwrap();
    assert_eq!(avg.player.as_deref(), Some("mode=alphabeta,ply=4"));
    assert_eq!(avg.net.architecture(), nets[0].net.architecture());
    for i in 0..avg.net.num_params() {
        let mean = nets
            .iter()
            .map(|f| f64::from(f.net.params()[i]))
            .sum::<f64>()
            / 3.0;
        assert_eq!(avg.net.params()[i], mean as f32, "weight {i}");
    }
    // Weight 0 pruned in both nets stays pruned; weight 1 pruned in one
    // only is live again, at half the other net's value.
    let (mut a, mut b) = (file(4, "greedy"), file(5, "greedy"));
    let n = a.net.num_params();
    let mut mask = vec![true; n];
    mask[0] = false;
    mask[1] = false;
    a.net.set_mask(Some(mask.clone())).unwrap();
    mask[1] = true;
    b.net.set_mask(Some(mask)).unwrap();
    let both = NetFile::average(&[a, b.clone()]).unwrap();
    let m = both.net.mask().unwrap();
    assert!(!m[0] && m[1]);
    assert_eq!(both.net.params()[1], b.net.params()[1] / 2.0);
    // Refused: no nets, another encoding, another shape.
    assert!(NetFile::average(&[]).is_err());
    let mut other = file(6, "greedy");
    other.encoding = Some("walk6".into());
    let e = NetFile::average(&[file(1, "greedy"), other])
        .unwrap_err()
        .to_string();
    assert!(e.contains("encoding walk6") && !e.contains('\n'), "{e}");
    let mut other = file(7, "greedy");
    other.net = random_net(&specs()[4], 7);
    let e = NetFile::average(&[file(1, "greedy"), other])
        .unwrap_err()
        .to_string();
    assert!(e.contains("architecture"), "{e}");
}

#[test]
fn bad_files_give_one_line_errors() {
    let ok = r#"{"architecture": {"type": "mlp", "layers": [2, 1]},
                 "activations": ["sigmoid"], "weights": [0.5, -1, 0]}"#;
    assert!(NetFile::from_json(ok).is_ok());
    let cases = [
        (
            ok.replace("[0.5, -1, 0]", "[0.5, -1]"),
            "has 3 weights, the file has 2",
        ),
        (
            ok.replace("sigmoid", "softsign"),
            "unknown variant `softsign`",
        ),
        (
            ok.replace("\"sigmoid\"", "\"sigmoid\", \"linear\""),
            "takes 1 activations (one per non-input layer), got 2",
        ),
        (ok.replace("\"mlp\"", "\"rnn\""), "unknown variant `rnn`"),
        (
            ok.replace("\"weights\"", "\"wieghts\""),
            "unknown field `wieghts`",
        ),
        (
            ok.replace("[2, 1]", "[2]"),
            "at least an input and an output layer",
        ),
        (ok.replace("[2, 1]", "[2, 0]"), "layer 1 has no units"),
        (
            ok.replace("0]}", "0], \"pruned\": [3]}"),
            "pruned index 3 is out of range",
        ),
        (
            ok.replace("0]}", "0], \"pruned\": [0]}"),
            "weight 0 is listed as pruned but is 0.5",
        ),
        (ok.replace("0.5", "\"x\""), "bad network file"),
        ("{".to_string(), "bad network file"),
        (
            r#"{"architecture": {"type": "complete", "inputs": 2, "nodes": 1, "outputs": 2},
                "activations": ["tanh", "tanh"], "weights": []}"#
                .to_string(),
            "1..=nodes outputs",
        ),
    ];
    for (text, want) in cases {
        let err = NetFile::from_json(&text).unwrap_err().to_string();
        assert!(err.contains(want), "expected '{want}' in: {err}");
        assert!(!err.contains('\n'), "multi-line error: {err}");
    }
    let err = NetFile::load("/nonexistent/net.json")
        .unwrap_err()
        .to_string();
    assert!(err.contains("cannot read /nonexistent/net.json"), "{err}");
}

#[test]
fn architectures_parse_and_print() {
    for text in ["36-60-6", "64-58-27-1", "complete:18-5-1"] {
        let a = Architecture::parse(text).unwrap();
        assert_eq!(a.to_string(), text);
    }
    assert_eq!(
        Architecture::parse("mlp:24-9-24").unwrap(),
        Architecture::Mlp {
            layers: vec![24, 9, 24]
        }
    );
    for bad in ["36", "36-x-6", "complete:1-2", "rnn:3-3", ""] {
        let e = Architecture::parse(bad).unwrap_err().to_string();
        assert!(e.contains("architecture"), "{bad}: {e}");
    }
    let a = Architecture::parse("complete:9-4-1").unwrap();
    let net = AnyNet::new(&a, &[Tanh, Sigmoid]).unwrap();
    assert_eq!(net.architecture(), a);
    assert!(AnyNet::new(&a, &[Tanh]).is_err());
}

#[test]
fn a_scratch_serves_nets_of_different_shapes() {
    let mut s = Scratch::new();
    for (si, spec) in specs().iter().enumerate() {
        let net = random_net(spec, si as u64);
        let x = random_inputs(3 * net.num_inputs(), 1);
        let mut a = vec![0.0; 3 * net.num_outputs()];
        let mut b = a.clone();
        net.forward_batch(&x, &mut a, &mut s);
        net.forward_batch(&x, &mut b, &mut Scratch::new());
        assert_eq!(a, b);
    }
}

#[test]
fn net_files_are_sized_before_anything_is_allocated() {
    use wopr::nn::NetFile;
    // A million by a million units would be 4 TB of weights: refused from the
    // architecture alone, before allocating.
    let huge = r#"{"architecture": {"type": "mlp", "layers": [1000000, 1000000, 1]},
        "activations": ["tanh", "tanh"], "weights": []}"#;
    let e = NetFile::from_json(huge).unwrap_err().to_string();
    assert!(e.contains("too large"), "{e}");
    // Overflowing sizes are refused the same way.
    let overflow = format!(
        r#"{{"architecture": {{"type": "complete", "inputs": {}, "nodes": {}, "outputs": 1}},
        "activations": ["tanh", "tanh"], "weights": []}}"#,
        usize::MAX,
        usize::MAX
    );
    assert!(NetFile::from_json(&overflow).is_err());
    // 2-2 net: 2·2 weights + 2 biases = 6, not 3.
    let short = r#"{"architecture": {"type": "mlp", "layers": [2, 2]},
        "activations": ["tanh"], "weights": [0.1, 0.2, 0.3]}"#;
    let e = NetFile::from_json(short).unwrap_err().to_string();
    assert!(e.contains("has 6 weights, the file has 3"), "{e}");
}
