//! Pre-trained seed populations: nets trained by gradient descent to imitate
//! teachers (oracles), written to a folder that an evolution run starts from
//! (`[init] population = "pretrained:DIR"`).
//!
//! Naveed & Cowling (§2.3, §2.4) train 100 nets on the evaluations of their
//! ten hand-crafted Virus players, ten per player: four by iRPROP, three by
//! RPROP and three by back-propagation, each on that player's training set;
//! a population of N is then drawn from them so that it holds nets of N
//! different players when N ≤ 10, and of every player (plus random others)
//! when N > 10.
//!
//! [`pretrain`] does the first part for any teachers ([`Oracle`] specs; for
//! Virus `ai:1` … `ai:10`): one dataset per teacher, of distinct positions
//! from the given players' games or, by default, when the teacher is also a
//! player of the game (`ai:K`), from games it plays against the next such
//! teacher in the list (`random` when it is the only one), else from
//! `random` against itself; then `per_teacher` nets
//! trained on it by the algorithms of [`ALGORITHM_CYCLE`] in turn. It writes
//! one net file per net and `pool.json`, the list ([`Pool`]), as a learner
//! of the run layer ([`crate::experiment::learn`]: one net a step, its checkpoint the
//! list so far). [`Pool::draw`] does the second part.

use std::ops::ControlFlow;
use std::path::Path;

use rand::RngExt;

use crate::experiment::csv::csv_field;
use crate::experiment::error::{err, RunError};
use crate::experiment::learn::{
    drive, LearnProgress, Learner, Measured, NoYardsticks, RunPlan, RunSummary, Yardsticks,
};
pub use crate::experiment::pool::{ExpectedNet, Pool, PoolEntry, POOL_FILE};
use crate::game::oracle::Oracle;
use crate::game::rng::stream;
use crate::nn::{Activation, AnyNet, Architecture, NetFile};
use crate::train::oracle::{generate, DatasetOptions, OracleGame};
use crate::train::{self, Algorithm, Loss, TrainOptions};

/// Algorithms given to a teacher's nets in turn: Naveed & Cowling's four
/// iRPROP, three RPROP and three BP per player (with their settings, the
/// defaults of [`Algorithm`]'s names).
pub const ALGORITHM_CYCLE: [&str; 10] = [
    "irprop+", "irprop+", "irprop+", "irprop+", "rprop", "rprop", "rprop", "bp", "bp", "bp",
];

/// How to pre-train a pool.
#[derive(Clone, Debug, PartialEq)]
pub struct PretrainOptions {
    /// Teacher oracle specs (`ai:1` …).
    pub teachers: Vec<String>,
    /// Nets per teacher (algorithms from [`ALGORITHM_CYCLE`] in turn).
    pub per_teacher: usize,
    /// Positions in each teacher's dataset.
    pub positions: usize,
    /// Epochs per net.
    pub epochs: usize,
    /// Examples per step of back-propagation (RPROP is always full batch).
    pub bp_batch: usize,
    /// Hidden layer sizes (Naveed & Cowling: 58, 27).
    pub hidden: Vec<usize>,
    /// Hidden activation (theirs: sigmoid).
    pub activation: Activation,
    /// Output activation (theirs: linear).
    pub output: Activation,
    /// Encoding name (`raw`).
    pub encoding: String,
    /// Players of the recorded games for teachers that are not players.
    pub play: Vec<String>,
    /// The seed of the games, the initial weights and the example orders.
    pub seed: u64,
}

impl Default for PretrainOptions {
    fn default() -> Self {
        PretrainOptions {
            teachers: Vec::new(),
            per_teacher: 10,
            positions: 2000,
            epochs: 100,
            bp_batch: 16,
            hidden: vec![58, 27],
            activation: Activation::Sigmoid,
            output: Activation::Linear,
            encoding: "raw".into(),
            play: Vec::new(),
            seed: 1,
        }
    }
}

/// Trains the pool (see the module docs) and writes it to `dir` (created if
/// missing) through the run layer, so that a killed run goes on from the
/// nets it finished (`wopr run --resume DIR`). `config` is the config as
/// run, kept as `config.toml`.
pub fn pretrain<G: OracleGame>(
    game: &G,
    options: &PretrainOptions,
    dir: &Path,
    config: &str,
    progress: &mut dyn LearnProgress,
) -> Result<Pool, RunError> {
    pretrain_summary(game, options, dir, config, progress).map(|(_, pool)| pool)
}

/// [`pretrain`], with the run layer's summary of it.
pub(crate) fn pretrain_summary<G: OracleGame>(
    game: &G,
    options: &PretrainOptions,
    dir: &Path,
    config: &str,
    progress: &mut dyn LearnProgress,
) -> Result<(RunSummary, Pool), RunError> {
    upgrade(dir)?;
    let mut run = Pretraining::new(game, options)?;
    let plan = RunPlan {
        kind: "pretrain",
        dir,
        config,
        stop: run.total(),
        every: 1,
        measure_every: 1,
        keep_nets: false,
    };
    let summary = drive(&mut run, &plan, &NoYardsticks, progress)?;
    Ok((summary, Pool::load(dir)?))
}

/// A pool being trained, net after net: teacher by teacher, each
/// teacher's dataset made when its first net is trained.
struct Pretraining<'g, G: OracleGame> {
    game: &'g G,
    options: PretrainOptions,
    oracles: Vec<Oracle>,
    /// The nets so far.
    pool: Pool,
    /// The dataset of the teacher being trained on, by teacher index.
    data: Option<(usize, crate::train::Dataset)>,
    /// The last net trained, with its file name.
    last: Option<(String, NetFile)>,
    /// The net with the lowest error after training.
    best: Option<(f64, NetFile)>,
}

impl<'g, G: OracleGame> Pretraining<'g, G> {
    fn new(game: &'g G, options: &PretrainOptions) -> Result<Self, RunError> {
        let fail = |e: String| RunError(e);
        if options.teachers.is_empty() {
            return Err(fail("pretrain needs at least one teacher".into()));
        }
        if options.per_teacher == 0 || options.positions == 0 {
            return Err(fail(
                "pretrain needs at least one net per teacher and one position".into(),
            ));
        }
        if let Some(i) = options.hidden.iter().position(|&h| h == 0) {
            return Err(fail(format!("hidden layer {} has 0 units", i + 1)));
        }
        let oracles = options
            .teachers
            .iter()
            .map(|t| Oracle::parse(t).map_err(|e| fail(format!("teacher '{t}': {e}"))))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Pretraining {
            game,
            options: options.clone(),
            oracles,
            pool: Pool {
                game: game.spec(),
                encoding: options.encoding.clone(),
                architecture: String::new(),
                positions: options.positions,
                epochs: options.epochs,
                seed: options.seed,
                nets: Vec::new(),
            },
            data: None,
            last: None,
            best: None,
        })
    }

    /// Nets in the whole pool.
    fn total(&self) -> u64 {
        (self.options.teachers.len() * self.options.per_teacher) as u64
    }

    /// The players of teacher `t`'s recorded games.
    fn players(&self, t: usize) -> Vec<String> {
        let options = &self.options;
        match &self.oracles[t] {
            _ if !options.play.is_empty() => options.play.clone(),
            Oracle::Ai { k, .. } => {
                // Against the next teacher that is also a player: balanced
                // games, so positions of every margin are judged (against
                // `random` nearly every position is already a rout).
                let next = self
                    .oracles
                    .iter()
                    .cycle()
                    .skip(t + 1)
                    .take(self.oracles.len())
                    .find_map(|o| match o {
                        Oracle::Ai { k: j, .. } if j != k => Some(*j),
                        _ => None,
                    });
                match next {
                    Some(j) => vec![format!("ai:{k}"), format!("ai:{j}")],
                    None => vec![format!("ai:{k}"), "random".to_string()],
                }
            }
            _ => Vec::new(),
        }
    }

    /// Trains the next net of the pool.
    fn train_next(&mut self) -> Result<PoolEntry, RunError> {
        let options = &self.options;
        let k = self.pool.nets.len();
        let (t, j) = (k / options.per_teacher, k % options.per_teacher);
        let teacher = &options.teachers[t];
        if self.data.as_ref().is_none_or(|(at, _)| *at != t) {
            let data = generate(
                self.game,
                &self.oracles[t],
                &DatasetOptions {
                    positions: options.positions,
                    seed: crate::game::mix64(options.seed ^ (t as u64 + 1)),
                    encoding: Some(options.encoding.clone()),
                    players: self.players(t),
                    unique: true,
                    only_player: None,
                },
                &|_| {},
            )
            .map_err(|e| RunError(format!("teacher '{teacher}': {e}")))?
            .data;
            self.data = Some((t, data));
        }
        let data = &self.data.as_ref().expect("made above").1;
        let mut layers = vec![data.num_inputs()];
        layers.extend(&options.hidden);
        layers.push(data.num_outputs());
        let arch = Architecture::Mlp { layers };
        self.pool.architecture = arch.to_string();
        let mut activations = vec![options.activation; options.hidden.len()];
        activations.push(options.output);
        let name = ALGORITHM_CYCLE[j % ALGORITHM_CYCLE.len()];
        let algorithm: Algorithm = name.parse().map_err(RunError)?;
        let seed = stream(options.seed, &[0x5052_4554, t as u64, j as u64]).random::<u64>();
        let mut net = AnyNet::new(&arch, &activations).map_err(|e| RunError(e.to_string()))?;
        let report = train::train(
            &mut net,
            data,
            &algorithm,
            &TrainOptions {
                loss: Loss::Mse,
                epochs: options.epochs,
                target_loss: None,
                batch_size: if name == "bp" { options.bp_batch } else { 0 },
                seed,
                init_range: Some(0.5),
                shuffle: true,
            },
            |_| ControlFlow::Continue(()),
        )
        .map_err(|e| RunError(format!("teacher '{teacher}', net {}: {e}", j + 1)))?;
        let mut file = NetFile::new(net);
        file.game = Some(self.game.spec());
        file.encoding = Some(options.encoding.clone());
        file.player = Some("greedy".into());
        let entry = PoolEntry {
            file: net_file_name(teacher, j),
            teacher: teacher.clone(),
            algorithm: name.to_string(),
            seed,
            initial_loss: report.losses[0],
            loss: report.final_loss(),
        };
        if self.best.as_ref().is_none_or(|(l, _)| entry.loss < *l) {
            self.best = Some((entry.loss, file.clone()));
        }
        self.last = Some((entry.file.clone(), file));
        self.pool.nets.push(entry.clone());
        Ok(entry)
    }
}

impl<G: OracleGame> Learner for Pretraining<'_, G> {
    fn unit(&self) -> &'static str {
        "nets"
    }

    fn done(&self) -> u64 {
        self.pool.nets.len() as u64
    }

    fn advance(
        &mut self,
        until: u64,
        tick: &mut dyn FnMut(u64),
    ) -> Result<Vec<(u64, String)>, RunError> {
        let mut rows = Vec::new();
        while self.done() < until.min(self.total()) {
            let e = self.train_next()?;
            rows.push((
                self.done(),
                format!(
                    "{},{},{},{},{}",
                    csv_field(&e.file),
                    csv_field(&e.teacher),
                    e.algorithm,
                    e.initial_loss,
                    e.loss
                ),
            ));
            tick(self.done());
        }
        Ok(rows)
    }

    fn log_header(&self) -> String {
        "nets,file,teacher,algorithm,initial_loss,loss".into()
    }

    fn finished(&self) -> bool {
        self.done() >= self.total()
    }

    /// The net with the lowest error after training (errors on different
    /// teachers' data compare only roughly: the pool is the result).
    fn net_file(&self) -> Result<NetFile, RunError> {
        self.best
            .as_ref()
            .map(|(_, f)| f.clone())
            .ok_or_else(|| RunError("no net of the pool is trained yet".into()))
    }

    /// A pool has no yardsticks: its nets seed an evolution.
    fn measure(&self, _: &dyn Yardsticks, _: u64, _: u64) -> Result<Measured, RunError> {
        Ok(Measured::default())
    }

    fn checkpoint_at_start(&self) -> bool {
        false
    }

    /// The net just trained, and `pool.json` once the pool is whole.
    fn checkpoint_files(&self) -> Result<Vec<(String, String)>, RunError> {
        let mut files = Vec::new();
        if let Some((name, file)) = &self.last {
            files.push((name.clone(), file.to_json()));
        }
        if self.finished() {
            let text = serde_json::to_string_pretty(&self.pool).map_err(err)?;
            files.push((POOL_FILE.to_string(), text + "\n"));
        }
        Ok(files)
    }

    fn state(&self) -> Result<serde_json::Value, RunError> {
        serde_json::to_value(&self.pool).map_err(err)
    }

    fn restore(&mut self, state: serde_json::Value, net: &NetFile) -> Result<(), RunError> {
        let pool: Pool = serde_json::from_value(state)
            .map_err(|e| RunError(format!("a pre-training checkpoint is unreadable: {e}")))?;
        let key = |p: &Pool| {
            (
                p.game.clone(),
                p.encoding.clone(),
                p.positions,
                p.epochs,
                p.seed,
            )
        };
        if key(&pool) != key(&self.pool) || pool.nets.len() as u64 > self.total() {
            return Err(RunError(
                "the folder holds part of a pool with other settings; give another --out".into(),
            ));
        }
        let best = pool
            .nets
            .iter()
            .map(|e| e.loss)
            .fold(f64::INFINITY, f64::min);
        self.best = Some((best, net.clone()));
        self.last = None;
        self.data = None;
        self.pool = pool;
        Ok(())
    }
}

/// The list a pre-training run of an older wopr kept as it went.
pub(crate) const PARTIAL_FILE: &str = "pool.partial.json";

/// Turns the folder of a pre-training run killed before the run layer
/// (`pool.partial.json`) into one the layer resumes: `state.json` with
/// the nets whose files are there. Returns whether it did.
pub fn upgrade(dir: &Path) -> Result<bool, RunError> {
    let path = dir.join(PARTIAL_FILE);
    if crate::experiment::learn::is_run(dir) || !path.is_file() {
        return Ok(false);
    }
    let text = std::fs::read_to_string(&path)
        .map_err(|e| RunError(format!("cannot read {}: {e}", path.display())))?;
    let mut pool: Pool = serde_json::from_str(&text)
        .map_err(|e| RunError(format!("{}: not a pool list: {e}", path.display())))?;
    pool.nets.retain(|e| dir.join(&e.file).is_file());
    let Some(best) = pool
        .nets
        .iter()
        .min_by(|a, b| a.loss.total_cmp(&b.loss))
        .map(|e| e.file.clone())
    else {
        // Nothing finished: the run starts again.
        let _ = std::fs::remove_file(&path);
        return Ok(false);
    };
    let net = std::fs::read_to_string(dir.join(&best))
        .map_err(|e| RunError(format!("cannot read {}: {e}", dir.join(&best).display())))?;
    let done = pool.nets.len() as u64;
    let pool = serde_json::to_value(&pool).map_err(err)?;
    crate::experiment::learn::adopt(dir, "pretrain", done, &net, pool)?;
    let _ = std::fs::remove_file(&path);
    Ok(true)
}

/// The file of net `j` (0-based) of `teacher`: `ai_3-irprop+-1.json`.
fn net_file_name(teacher: &str, j: usize) -> String {
    format!(
        "{}-{}-{}.json",
        teacher.replace([':', ',', '='], "_"),
        ALGORITHM_CYCLE[j % ALGORITHM_CYCLE.len()],
        j + 1
    )
}
