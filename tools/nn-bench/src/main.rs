//! Training steps a second of a 74-256-256-7 ReLU MLP, batch 256, SGD on
//! an MSE loss: wopr's own nn against candle (CPU), one thread each.
use std::time::Instant;

use candle_core::{DType, Device, Tensor};
use candle_nn::{linear, loss, Module, Optimizer, VarBuilder, VarMap, SGD};
use wopr_core::nn::{Activation, Mlp, Network, Scratch};

const SIZES: [usize; 4] = [74, 256, 256, 7];
const BATCH: usize = 256;

fn lcg(state: &mut u64) -> f32 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    ((*state >> 40) as f32 / (1u64 << 24) as f32) - 0.5
}

fn main() {
    let secs: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(5.0);
    let mut seed = 7u64;
    let inputs: Vec<f32> = (0..BATCH * SIZES[0]).map(|_| lcg(&mut seed)).collect();
    let targets: Vec<f32> = (0..BATCH * SIZES[3]).map(|_| lcg(&mut seed)).collect();

    // wopr
    let mut net = Mlp::new(
        &SIZES,
        &[Activation::Relu, Activation::Relu, Activation::Linear],
    )
    .unwrap();
    for p in net.params_mut() {
        *p = lcg(&mut seed) * 0.1;
    }
    let mut scratch = Scratch::new();
    let mut out = vec![0.0; BATCH * SIZES[3]];
    let mut grad = vec![0.0; net.num_params()];
    let mut og = vec![0.0; out.len()];
    let start = Instant::now();
    let mut steps = 0u64;
    while start.elapsed().as_secs_f64() < secs {
        net.forward_batch(&inputs, &mut out, &mut scratch);
        for ((g, o), t) in og.iter_mut().zip(&out).zip(&targets) {
            *g = 2.0 * (o - t) / out.len() as f32;
        }
        grad.fill(0.0);
        net.backward(&og, &mut grad, &mut scratch);
        for (w, g) in net.params_mut().iter_mut().zip(&grad) {
            *w -= 0.01 * g;
        }
        steps += 1;
    }
    let wopr = steps as f64 / start.elapsed().as_secs_f64();

    // candle
    let dev = Device::Cpu;
    let vm = VarMap::new();
    let vb = VarBuilder::from_varmap(&vm, DType::F32, &dev);
    let l1 = linear(SIZES[0], SIZES[1], vb.pp("l1")).unwrap();
    let l2 = linear(SIZES[1], SIZES[2], vb.pp("l2")).unwrap();
    let l3 = linear(SIZES[2], SIZES[3], vb.pp("l3")).unwrap();
    let mut sgd = SGD::new(vm.all_vars(), 0.01).unwrap();
    let x = Tensor::from_vec(inputs.clone(), (BATCH, SIZES[0]), &dev).unwrap();
    let y = Tensor::from_vec(targets.clone(), (BATCH, SIZES[3]), &dev).unwrap();
    let start = Instant::now();
    let mut steps = 0u64;
    while start.elapsed().as_secs_f64() < secs {
        let h = l1.forward(&x).unwrap().relu().unwrap();
        let h = l2.forward(&h).unwrap().relu().unwrap();
        let o = l3.forward(&h).unwrap();
        let l = loss::mse(&o, &y).unwrap();
        sgd.backward_step(&l).unwrap();
        steps += 1;
    }
    let candle = steps as f64 / start.elapsed().as_secs_f64();
    println!("74-256-256-7 ReLU MLP, batch {BATCH}, SGD on MSE, one thread: wopr nn {wopr:.0} steps/s, candle 0.9 (CPU) {candle:.0} steps/s, ratio {:.2}", wopr / candle);
}
