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
//! one net file per net and `pool.json`, the list ([`Pool`]). [`Pool::draw`]
//! does the second part.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::error::RunError;
use crate::game::oracle::Oracle;
use crate::game::rng::{stream, WoprRng};
use crate::nn::{Activation, AnyNet, Architecture, NetFile};
use crate::train::oracle::{generate, DatasetOptions, OracleGame};
use crate::train::{self, Algorithm, Loss, TrainOptions};

/// The name of a pool's list inside its folder.
pub const POOL_FILE: &str = "pool.json";

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

/// One net of a pool.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PoolEntry {
    /// Its net file, relative to the pool's folder.
    pub file: String,
    /// The teacher's oracle spec.
    pub teacher: String,
    /// The training algorithm.
    pub algorithm: String,
    /// The seed of its initial weights.
    pub seed: u64,
    /// Mean error before training.
    pub initial_loss: f64,
    /// Mean error after training.
    pub loss: f64,
}

/// A folder of pre-trained nets and what they are (`pool.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Pool {
    /// The game spec.
    pub game: String,
    /// The encoding the nets read.
    pub encoding: String,
    /// The architecture, e.g. `64-58-27-1`.
    pub architecture: String,
    /// Positions per teacher's dataset.
    pub positions: usize,
    /// Epochs per net.
    pub epochs: usize,
    /// The seed.
    pub seed: u64,
    /// The nets, teacher by teacher.
    pub nets: Vec<PoolEntry>,
}

/// Trains the pool (see the module docs) and writes it to `dir` (created if
/// missing); `progress` hears each net as it is finished.
pub fn pretrain<G: OracleGame>(
    game: &G,
    options: &PretrainOptions,
    dir: &Path,
    progress: &mut dyn FnMut(&PoolEntry),
) -> Result<Pool, RunError> {
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
    std::fs::create_dir_all(dir)
        .map_err(|e| fail(format!("cannot create {}: {e}", dir.display())))?;
    let mut pool = Pool {
        game: game.spec(),
        encoding: options.encoding.clone(),
        architecture: String::new(),
        positions: options.positions,
        epochs: options.epochs,
        seed: options.seed,
        nets: Vec::new(),
    };
    // The nets a killed run finished (each net depends on its teacher's
    // data and its own seed only, so they are kept, not trained again).
    let done = match resumed(dir, &pool)? {
        Some(partial) => {
            pool.architecture = partial.architecture;
            partial.nets
        }
        None => Vec::new(),
    };
    for (t, (teacher, oracle)) in options.teachers.iter().zip(&oracles).enumerate() {
        let names: Vec<String> = (0..options.per_teacher)
            .map(|j| net_file_name(teacher, j))
            .collect();
        let kept = |name: &String| done.iter().find(|e| &e.file == name).cloned();
        if names.iter().all(|n| kept(n).is_some()) {
            for n in &names {
                let entry = kept(n).expect("all kept");
                progress(&entry);
                pool.nets.push(entry);
            }
            continue;
        }
        let play = match oracle {
            _ if !options.play.is_empty() => options.play.clone(),
            Oracle::Ai { k, .. } => {
                // Against the next teacher that is also a player: balanced
                // games, so positions of every margin are judged (against
                // `random` nearly every position is already a rout).
                let next = oracles
                    .iter()
                    .cycle()
                    .skip(t + 1)
                    .take(oracles.len())
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
        };
        let data = generate(
            game,
            oracle,
            &DatasetOptions {
                positions: options.positions,
                seed: crate::game::mix64(options.seed ^ (t as u64 + 1)),
                encoding: Some(options.encoding.clone()),
                players: play,
                unique: true,
                only_player: None,
            },
            &|_| {},
        )
        .map_err(|e| fail(format!("teacher '{teacher}': {e}")))?
        .data;
        let mut layers = vec![data.num_inputs()];
        layers.extend(&options.hidden);
        layers.push(data.num_outputs());
        let arch = Architecture::Mlp { layers };
        pool.architecture = arch.to_string();
        let mut activations = vec![options.activation; options.hidden.len()];
        activations.push(options.output);
        for (j, file_name) in names.iter().enumerate() {
            if let Some(entry) = kept(file_name) {
                progress(&entry);
                pool.nets.push(entry);
                continue;
            }
            let name = ALGORITHM_CYCLE[j % ALGORITHM_CYCLE.len()];
            let algorithm: Algorithm = name.parse().map_err(fail)?;
            let seed = stream(options.seed, &[0x5052_4554, t as u64, j as u64]).random::<u64>();
            let mut net = AnyNet::new(&arch, &activations).map_err(|e| fail(e.to_string()))?;
            let report = train::train(
                &mut net,
                &data,
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
            .map_err(|e| fail(format!("teacher '{teacher}', net {}: {e}", j + 1)))?;

            let mut file = NetFile::new(net);
            file.game = Some(game.spec());
            file.encoding = Some(options.encoding.clone());
            file.player = Some("greedy".into());
            file.save(dir.join(file_name))
                .map_err(|e| fail(e.to_string()))?;
            let entry = PoolEntry {
                file: file_name.clone(),
                teacher: teacher.clone(),
                algorithm: name.to_string(),
                seed,
                initial_loss: report.losses[0],
                loss: report.final_loss(),
            };
            progress(&entry);
            pool.nets.push(entry);
            let text = serde_json::to_string_pretty(&pool).expect("plain values serialise");
            super::atomic::write_atomic(&dir.join(PARTIAL_FILE), &text)?;
        }
    }
    let text = serde_json::to_string_pretty(&pool).expect("plain values serialise");
    super::atomic::write_atomic(&dir.join(POOL_FILE), &(text + "\n"))?;
    let _ = std::fs::remove_file(dir.join(PARTIAL_FILE));
    Ok(pool)
}

/// The pool list a run keeps as it goes, until `pool.json` replaces it.
pub const PARTIAL_FILE: &str = "pool.partial.json";

/// The file of net `j` (0-based) of `teacher`: `ai_3-irprop+-1.json`.
fn net_file_name(teacher: &str, j: usize) -> String {
    format!(
        "{}-{}-{}.json",
        teacher.replace([':', ',', '='], "_"),
        ALGORITHM_CYCLE[j % ALGORITHM_CYCLE.len()],
        j + 1
    )
}

/// The list of a killed run of the same settings in `dir`, with the nets
/// whose files are there (`None` for a fresh folder); an error if the
/// folder holds part of another pool.
fn resumed(dir: &Path, fresh: &Pool) -> Result<Option<Pool>, RunError> {
    let path = dir.join(PARTIAL_FILE);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(None);
    };
    let mut partial: Pool = serde_json::from_str(&text)
        .map_err(|e| RunError(format!("{}: not a pool list: {e}", path.display())))?;
    let key = |p: &Pool| {
        (
            p.game.clone(),
            p.encoding.clone(),
            p.positions,
            p.epochs,
            p.seed,
        )
    };
    if key(&partial) != key(fresh) {
        return Err(RunError(format!(
            "{} holds part of a pool with other settings; give another --out",
            dir.display()
        )));
    }
    partial.nets.retain(|e| dir.join(&e.file).is_file());
    Ok(Some(partial))
}

impl Pool {
    /// Reads `DIR/pool.json`.
    pub fn load(dir: &Path) -> Result<Pool, RunError> {
        let path = dir.join(POOL_FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            RunError(format!(
                "pretrained population {}: cannot read {} ({e}); make one with `wopr pretrain --out {}`",
                dir.display(),
                path.display(),
                dir.display()
            ))
        })?;
        let pool: Pool = serde_json::from_str(&text)
            .map_err(|e| RunError(format!("{}: not a pool list: {e}", path.display())))?;
        if pool.nets.is_empty() {
            return Err(RunError(format!(
                "{}: the pool has no nets",
                path.display()
            )));
        }
        Ok(pool)
    }

    /// The paper's draw of a population of `n` (§2.4): with `n` at most the
    /// number of teachers, one net of each of `n` different teachers; with
    /// more, one net of every teacher and the rest drawn from the other nets.
    /// Indices into `nets`, without repeats; an error if `n` exceeds the pool.
    pub fn draw(&self, n: usize, rng: &mut WoprRng) -> Result<Vec<usize>, RunError> {
        if n > self.nets.len() {
            return Err(RunError(format!(
                "a population of {n} cannot be drawn from a pool of {} pre-trained nets",
                self.nets.len()
            )));
        }
        let mut teachers: Vec<&str> = Vec::new();
        for e in &self.nets {
            if !teachers.contains(&e.teacher.as_str()) {
                teachers.push(&e.teacher);
            }
        }
        shuffle(&mut teachers, rng);
        let mut chosen = Vec::with_capacity(n);
        for t in teachers.iter().take(n) {
            let of: Vec<usize> = (0..self.nets.len())
                .filter(|&i| self.nets[i].teacher == *t)
                .collect();
            chosen.push(of[rng.random_range(0..of.len())]);
        }
        let mut rest: Vec<usize> = (0..self.nets.len())
            .filter(|i| !chosen.contains(i))
            .collect();
        shuffle(&mut rest, rng);
        chosen.extend(rest.into_iter().take(n - chosen.len()));
        Ok(chosen)
    }

    /// The weights of the nets `draw` picked, checked against the run's net:
    /// same game, encoding, architecture and activations, `weights`
    /// parameters each.
    pub fn weights(
        &self,
        dir: &Path,
        picks: &[usize],
        expect: &ExpectedNet<'_>,
    ) -> Result<Vec<Vec<f32>>, RunError> {
        picks
            .iter()
            .map(|&i| {
                let path: PathBuf = dir.join(&self.nets[i].file);
                let file = NetFile::load(&path)
                    .map_err(|e| RunError(format!("{}: {e}", path.display())))?;
                expect.check(&file, &path)?;
                Ok(crate::nn::Network::params(&file.net).to_vec())
            })
            .collect()
    }
}

/// What a run's net is, for checking pre-trained net files against it.
pub struct ExpectedNet<'a> {
    /// The game spec.
    pub game: &'a str,
    /// The encoding name.
    pub encoding: &'a str,
    /// Hidden layer sizes.
    pub hidden: &'a [usize],
    /// Hidden activation.
    pub activation: Activation,
    /// Output activation.
    pub output: Activation,
    /// Number of parameters.
    pub weights: usize,
}

impl ExpectedNet<'_> {
    fn check(&self, file: &NetFile, path: &Path) -> Result<(), RunError> {
        let bad = |what: String| {
            Err(RunError(format!(
                "pretrained net {} does not fit the run's net: {what}",
                path.display()
            )))
        };
        if let Some(g) = &file.game {
            if g != self.game {
                return bad(format!("game {g}, the run plays {}", self.game));
            }
        }
        let enc = file.encoding.as_deref().unwrap_or("raw");
        if enc != self.encoding {
            return bad(format!("encoding {enc}, the run's is {}", self.encoding));
        }
        let arch = file.net.architecture();
        let hidden_ok = match &arch {
            Architecture::Mlp { layers } => {
                layers.len() == self.hidden.len() + 2 && layers[1..layers.len() - 1] == *self.hidden
            }
            Architecture::Complete { .. } => false,
        };
        let n = crate::nn::Network::params(&file.net).len();
        if !hidden_ok || n != self.weights {
            let mut want = vec!["…".to_string()];
            want.extend(self.hidden.iter().map(|h| h.to_string()));
            want.push("…".into());
            return bad(format!(
                "architecture {arch} ({n} weights), the run's is {} ({} weights)",
                want.join("-"),
                self.weights
            ));
        }
        let mut acts = vec![self.activation; self.hidden.len()];
        acts.push(self.output);
        if file.net.activations() != acts {
            return bad(format!(
                "activations {:?}, the run's are {:?}",
                file.net.activations(),
                acts
            ));
        }
        Ok(())
    }
}

fn shuffle<T>(v: &mut [T], rng: &mut WoprRng) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.random_range(0..=i));
    }
}
