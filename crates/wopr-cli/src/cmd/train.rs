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

use std::fmt::Write as _;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use wopr::game::oracle::OracleKind;
use wopr::nn::{Activation, AnyNet, Architecture, NetFile};
use wopr::train::oracle::DatasetInfo;
use wopr::train::{self, Algorithm, BackpropConfig, Dataset, Loss, TrainOptions};
use wopr::with_board_game;

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
    #[arg(long)]
    out: PathBuf,
    /// Print `{"epochs": …, "loss": …}` (and a few more fields) at the end.
    #[arg(long)]
    json: bool,
}

/// Trains the net and writes the net file, loss log and plot.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let algorithm = algorithm(args)?;
    let loss: Loss = args.loss.parse().map_err(anyhow::Error::msg)?;
    let hidden_act: Activation = args.activation.parse().map_err(anyhow::Error::msg)?;
    let output_act: Activation = args.output.parse().map_err(anyhow::Error::msg)?;
    if let Some(t) = args.target_loss {
        if !(t.is_finite() && t >= 0.0) {
            anyhow::bail!("--target-loss must be a number at least 0, not {t}");
        }
    }
    if !(args.init_range.is_finite() && args.init_range >= 0.0) {
        anyhow::bail!("--init-range must be a number at least 0");
    }
    let data = Dataset::read_csv(&args.data).map_err(anyhow::Error::msg)?;
    if data.is_empty() {
        anyhow::bail!("{} has no examples", args.data.display());
    }
    let sidecar = DatasetInfo::sidecar_path(&args.data);
    let info = if sidecar.exists() {
        Some(DatasetInfo::load(&sidecar).map_err(anyhow::Error::msg)?)
    } else {
        None
    };
    if let Some(info) = &info {
        check_info(info, &data, &sidecar)?;
    }
    check_loss(loss, output_act, &data)?;

    let (ni, no) = (data.num_inputs(), data.num_outputs());
    let arch = match args.complete {
        Some(nodes) => {
            if nodes < no {
                anyhow::bail!(
                    "--complete {nodes}: a complete net needs at least as many nodes as outputs ({no})"
                );
            }
            Architecture::Complete {
                inputs: ni,
                nodes,
                outputs: no,
            }
        }
        None => {
            if let Some(i) = args.hidden.iter().position(|&h| h == 0) {
                anyhow::bail!("--hidden number {} is 0; a layer needs units", i + 1);
            }
            let mut layers = vec![ni];
            layers.extend(&args.hidden);
            layers.push(no);
            Architecture::Mlp { layers }
        }
    };
    let activations = match arch {
        Architecture::Complete { .. } => vec![hidden_act, output_act],
        Architecture::Mlp { ref layers } => {
            let mut a = vec![hidden_act; layers.len() - 2];
            a.push(output_act);
            a
        }
    };
    let mut net = AnyNet::new(&arch, &activations).map_err(anyhow::Error::msg)?;

    let options = TrainOptions {
        loss,
        epochs: args.epochs,
        target_loss: args.target_loss,
        batch_size: args.batch,
        seed: args.seed,
        init_range: Some(args.init_range),
        shuffle: true,
    };
    let bar = ProgressBar::new(args.epochs as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} epoch {pos}/{len}, loss {msg}, ETA {eta}")
            .expect("a valid template"),
    );
    let start = Instant::now();
    let report = train::train(&mut net, &data, &algorithm, &options, |s| {
        bar.set_position(s.epoch as u64);
        bar.set_message(format!("{:.6}", s.loss));
        ControlFlow::Continue(())
    });
    bar.finish_and_clear();
    let report = report.map_err(anyhow::Error::msg)?;
    let seconds = start.elapsed().as_secs_f64();

    let mut file = NetFile::new(net);
    if let Some(info) = &info {
        file.game = Some(info.game.clone());
        file.encoding = Some(info.encoding.clone());
        file.player = Some(info.kind.player_mode().to_string());
    }
    file.save(&args.out).map_err(anyhow::Error::msg)?;
    let log = beside(&args.out, "loss.csv");
    let mut csv = String::from("epoch,loss\n");
    for (e, l) in report.losses.iter().enumerate() {
        let _ = writeln!(csv, "{e},{l}");
    }
    std::fs::write(&log, csv).with_context(|| format!("cannot write {}", log.display()))?;
    // `plot::lines` writes this path's `.png` and `.svg` forms. The loss is
    // drawn on a log scale: RPROP's first steps can raise it a hundredfold
    // before it falls by orders of magnitude.
    let png = beside(&args.out, "loss.png");
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
                "out": args.out.display().to_string(),
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
        args.out.display(),
        log.display(),
        png.display(),
        png.with_extension("svg").display()
    );
    if let Some(info) = &info {
        println!(
            "play it with net:{} in {} (mode {})",
            args.out.display(),
            info.game,
            info.kind.player_mode()
        );
    }
    Ok(())
}

/// The algorithm with the back-propagation settings applied.
fn algorithm(args: &Args) -> anyhow::Result<Algorithm> {
    let mut algorithm: Algorithm = args.algo.parse().map_err(anyhow::Error::msg)?;
    match &mut algorithm {
        Algorithm::Backprop(c) => {
            let d = BackpropConfig::default();
            c.learning_rate = args.lr.unwrap_or(d.learning_rate);
            c.momentum = args.momentum.unwrap_or(d.momentum);
            if !(c.learning_rate.is_finite() && c.learning_rate > 0.0) {
                anyhow::bail!("--lr must be a positive number");
            }
            if !(c.momentum.is_finite() && (0.0..1.0).contains(&c.momentum)) {
                anyhow::bail!("--momentum must be in [0, 1)");
            }
        }
        Algorithm::Rprop(_) => {
            if args.lr.is_some() || args.momentum.is_some() {
                anyhow::bail!(
                    "--lr and --momentum apply to --algo bp only; {} adapts its own step sizes",
                    algorithm.name()
                );
            }
        }
    }
    Ok(algorithm)
}

/// Checks the dataset against its description.
fn check_info(info: &DatasetInfo, data: &Dataset, path: &Path) -> anyhow::Result<()> {
    let game = super::parse_game(&info.game).with_context(|| format!("{}", path.display()))?;
    let sizes = with_board_game!(&game, g => {
        use wopr::game::encode::Encodable;
        let enc = g
            .encoding(&info.encoding)
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        Ok((enc.size(), wopr::Game::num_actions(g)))
    }, Err(anyhow::anyhow!("{}: {} is not a board game", path.display(), info.game)))?;
    let (inputs, actions) = sizes;
    if data.num_inputs() != inputs {
        anyhow::bail!(
            "{}: encoding {} of {} has {} inputs but the CSV has {}",
            path.display(),
            info.encoding,
            info.game,
            inputs,
            data.num_inputs()
        );
    }
    let want = match info.kind {
        OracleKind::Policy => actions,
        OracleKind::Value => 1,
    };
    if data.num_outputs() != want {
        anyhow::bail!(
            "{}: a {} dataset for {} has {} targets but the CSV has {}",
            path.display(),
            info.kind,
            info.game,
            want,
            data.num_outputs()
        );
    }
    Ok(())
}

/// Rejects losses that do not fit the outputs or the targets.
fn check_loss(loss: Loss, output: Activation, data: &Dataset) -> anyhow::Result<()> {
    if loss == Loss::Mse {
        return Ok(());
    }
    if output != Activation::Linear {
        anyhow::bail!(
            "--loss {} reads the outputs as logits: use --output linear, not {}",
            loss.name(),
            output
        );
    }
    let no = data.num_outputs();
    if loss == Loss::SoftmaxCrossEntropy && no < 2 {
        anyhow::bail!("--loss softmax-ce needs at least two outputs; this dataset has one target");
    }
    let counted = (0..data.len()).flat_map(|i| {
        let m = data.mask(i);
        data.target(i)
            .iter()
            .enumerate()
            .filter(move |&(j, _)| m.is_none_or(|m| m[j]))
            .map(|(_, &t)| t)
    });
    let bad = |ok: fn(f32) -> bool, what: &str| -> anyhow::Result<()> {
        let mut counted = counted.clone();
        if let Some(t) = counted.find(|&t| !ok(t)) {
            anyhow::bail!(
                "--loss {} needs targets {what}; the dataset has {t}",
                loss.name()
            );
        }
        Ok(())
    };
    match loss {
        Loss::SoftmaxCrossEntropy => bad(|t| t >= 0.0, "of at least 0"),
        Loss::SigmoidCrossEntropy => bad(|t| (0.0..=1.0).contains(&t), "in [0, 1]"),
        Loss::Mse => Ok(()),
    }
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
