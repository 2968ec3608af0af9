//! `wopr train`: fit a net to a CSV dataset with back-propagation or an
//! RPROP variant ([`wopr::train::train`]), with a progress bar, a per-epoch
//! loss log and a learning-curve plot.
//!
//! Files written, for `--out DIR/NAME.json`: the net file, `DIR/NAME.loss.csv`
//! (`epoch,loss`, epoch 0 = before training) and `DIR/NAME.loss.png` / `.svg`
//! (the learning curve, log10 of the loss per epoch).
//! When the dataset has a description beside it (`FILE.csv.json`, written by
//! `wopr dataset`), the net file names its game, encoding and player mode
//! (`policy` for per-move targets, `greedy` for position values), so it
//! plays through `net:PATH`.
//!
//! The flags make a [`TrainConfig`] (`--print-config` writes it): `wopr run`
//! of that config trains the same net in a run folder, checkpointed at
//! epoch boundaries and resumable, with yardsticks; its `champion.json` is
//! this command's net file, byte for byte.

use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use wopr::experiment::learn::train::{prepare, TrainConfig, TrainKind, TrainSettings, TrainStop};
use wopr::experiment::learn::YardsticksConfig;
use wopr::train;

use crate::plot::{self, Series};

/// Arguments of `wopr train`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The training set (CSV with columns x0…, y0…, optionally m0…).
    #[arg(long)]
    data: PathBuf,
    /// Units of a hidden layer; repeat for more layers (none: inputs feed
    /// the outputs directly).
    #[arg(long)]
    hidden: Vec<usize>,
    /// Build the thesis's complete feed-forward net with this many non-input
    /// nodes (outputs included) instead of layers.
    #[arg(long, conflicts_with = "hidden")]
    complete: Option<usize>,
    /// Training algorithm: bp, rprop, rprop-, irprop+, irprop- (Naveed &
    /// Cowling's settings: BP rate 0.01; η+ 1.2, η− 0.5, Δ0 0.5, Δmax 50).
    #[arg(long, default_value = "irprop+")]
    algo: String,
    /// Most epochs to run (0 writes the initial weights: the untrained net
    /// a run with this seed starts from).
    #[arg(long, default_value_t = 1000)]
    epochs: usize,
    /// Stop as soon as the mean loss is at or below this.
    #[arg(long)]
    target_loss: Option<f64>,
    /// Seed of the initial weights and the example order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Loss: mse, softmax-ce (per-move targets; linear outputs), sigmoid-ce
    /// (targets in [0, 1]; linear outputs).
    #[arg(long, default_value = "mse")]
    loss: String,
    /// Activation of the hidden units: sigmoid, tanh, relu, linear.
    #[arg(long, default_value = "sigmoid")]
    activation: String,
    /// Activation of the output units: linear, sigmoid, tanh.
    #[arg(long, default_value = "linear")]
    output: String,
    /// Back-propagation learning rate (bp only; default 0.01).
    #[arg(long)]
    lr: Option<f64>,
    /// Back-propagation momentum (bp only; default 0).
    #[arg(long)]
    momentum: Option<f64>,
    /// Examples per step: 0 = the whole set (full batch), 1 = online.
    #[arg(long, default_value_t = 0)]
    batch: usize,
    /// Initial weights are drawn uniformly from [-R, R].
    #[arg(long, default_value_t = 0.5)]
    init_range: f32,
    /// The net file to write.
    #[arg(long, required_unless_present = "print_config")]
    out: Option<PathBuf>,
    /// Write the config of this training (TOML, for `wopr run`, which
    /// trains it in a run folder with checkpoints) to stdout and exit.
    #[arg(long)]
    print_config: bool,
    /// Print `{"epochs": …, "loss": …}` (and a few more fields) at the end.
    #[arg(long)]
    json: bool,
}

impl Args {
    /// The config these flags make.
    pub fn config(&self) -> TrainConfig {
        TrainConfig {
            name: None,
            seed: self.seed,
            learner: TrainSettings {
                kind: TrainKind::Train,
                data: self.data.clone(),
                hidden: self.hidden.clone(),
                complete: self.complete,
                algorithm: self.algo.clone(),
                loss: self.loss.clone(),
                activation: self.activation.clone(),
                output: self.output.clone(),
                lr: self.lr,
                momentum: self.momentum,
                batch: self.batch,
                init_range: self.init_range,
                target_loss: self.target_loss,
            },
            stop: TrainStop {
                epochs: self.epochs as u64,
            },
            yardsticks: YardsticksConfig {
                every: 100,
                ..YardsticksConfig::default()
            },
            init: None,
        }
    }
}

/// Trains the net and writes the net file, loss log and plot.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let config = args.config();
    if args.print_config {
        return super::print_config(&config);
    }
    let out = args.out.as_deref().expect("clap requires --out");
    let prepared = prepare(&config)?;
    let (data, algorithm, arch, info) = (
        &prepared.data,
        prepared.algorithm,
        &prepared.architecture,
        &prepared.info,
    );
    let loss = prepared.options.loss;
    let mut net = prepared.net.clone();
    let options = prepared.options.clone();
    let bar = ProgressBar::new(args.epochs as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} epoch {pos}/{len}, loss {msg}, ETA {eta}")
            .expect("a valid template"),
    );
    let start = Instant::now();
    let report = train::train(&mut net, data, &algorithm, &options, |s| {
        bar.set_position(s.epoch as u64);
        bar.set_message(format!("{:.6}", s.loss));
        ControlFlow::Continue(())
    });
    bar.finish_and_clear();
    let report = report.map_err(anyhow::Error::msg)?;
    let seconds = start.elapsed().as_secs_f64();

    prepared
        .net_file(&net)
        .save(out)
        .map_err(anyhow::Error::msg)?;
    let log = beside(out, "loss.csv");
    let mut csv = String::from("epoch,loss\n");
    for (e, l) in report.losses.iter().enumerate() {
        let _ = writeln!(csv, "{e},{l}");
    }
    std::fs::write(&log, csv).with_context(|| format!("cannot write {}", log.display()))?;
    // `plot::lines` writes this path's `.png` and `.svg` forms. The loss is
    // drawn on a log scale: RPROP's first steps can raise it a hundredfold
    // before it falls by orders of magnitude.
    let png = beside(out, "loss.png");
    let points: Vec<(f64, f64)> = report
        .losses
        .iter()
        .enumerate()
        .map(|(e, &l)| (e as f64, l.max(1e-12).log10()))
        .collect();
    plot::lines(
        &png,
        &format!("{} {} on {}", arch, algorithm, file_name(&args.data)),
        "epoch",
        &format!("log10 mean {} loss", loss.name()),
        &[Series {
            name: format!("{}, seed {}", algorithm, args.seed),
            points,
        }],
    )?;

    let initial = report.losses[0];
    let last = report.final_loss();
    if args.json {
        println!(
            "{}",
            json!({
                "epochs": report.epochs,
                "loss": last,
                "initial_loss": initial,
                "reached_target": report.reached_target,
                "seconds": seconds,
                "architecture": arch.to_string(),
                "algorithm": algorithm.name(),
                "out": out.display().to_string(),
            })
        );
        return Ok(());
    }
    println!(
        "trained {} ({}, {} loss, {} examples) for {} epochs in {:.2} s: loss {:.6} -> {:.6}{}",
        arch,
        algorithm,
        loss.name(),
        data.len(),
        report.epochs,
        seconds,
        initial,
        last,
        if report.reached_target {
            " (target reached)"
        } else {
            ""
        }
    );
    println!(
        "wrote {}, {}, {} and {}",
        out.display(),
        log.display(),
        png.display(),
        png.with_extension("svg").display()
    );
    if let Some(info) = info {
        println!(
            "play it with net:{} in {} (mode {})",
            out.display(),
            info.game,
            info.kind.player_mode()
        );
    }
    Ok(())
}

/// `DIR/NAME.json` and `loss.csv` → `DIR/NAME.loss.csv`.
fn beside(out: &Path, suffix: &str) -> PathBuf {
    let stem = out
        .file_stem()
        .map_or_else(|| "net".to_string(), |s| s.to_string_lossy().into_owned());
    out.with_file_name(format!("{stem}.{suffix}"))
}

fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(
        || p.display().to_string(),
        |s| s.to_string_lossy().into_owned(),
    )
}
