//! Running an evolution from a config: the engine, the fitness scheme, the
//! run folder, checkpoints and yardsticks.
//!
//! A run folder holds `checkpoint.json` (the whole state: config, engine,
//! history, hall of fame, best so far), `generations.csv`, `yardsticks.csv`
//! and `champion.json` (a net file playable as `net:champion.json`). Every
//! random choice derives from (seed, generation, …), and the checkpoint holds
//! everything else, so a run killed at any moment and resumed from its last
//! checkpoint ends exactly where an uninterrupted run would. Files are written
//! to a temporary name and renamed, so a kill never leaves half a file.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::config::{EvolveConfig, YardstickConfig};
use crate::eval::matches::play_match_with;
use crate::eval::{exhaustive, match_stats};
use crate::evolve::schemes::{
    ExhaustiveLosses, FixedOpponents, ImplicitSharing, Opponent, Phenotype, Points, RoundRobin,
    RoundRobinScoring,
};
use crate::evolve::{
    init_rng, step, BitCode, BitGenome, CmaEs, Engine, Fitness, Ga, Genome, Levels, OnePlusLambda,
    OnePlusLambdaConfig, Plan, RealGenome, SelfAdaptiveConfig, SelfAdaptiveEs,
};
use crate::game::driver::seats_swapped;
use crate::game::encode::Encodable;
use crate::game::rng::stream;
use crate::game::Searchable;
use crate::nn::{Activation, AnyNet, Architecture, NetFile, Network};
use crate::players::net::{NetMode, NetPlayer};
use crate::players::{parse_player, Player, Roster};

/// What went wrong with a run: a bad config, a file, a checkpoint.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RunError(pub String);

fn err(e: impl std::fmt::Display) -> RunError {
    RunError(e.to_string())
}

/// Any engine a config can ask for.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "engine", rename_all = "kebab-case")]
pub enum AnyEngine {
    /// A GA over bit strings.
    GaBits(Ga<BitGenome>),
    /// A GA over real vectors.
    GaReal(Ga<RealGenome>),
    /// (1+λ)-ES with the 1/5 rule and pruning.
    OnePlusLambda(OnePlusLambda),
    /// (μ,λ) or (μ+λ) with self-adaptive step sizes.
    SelfAdaptive(SelfAdaptiveEs),
    /// CMA-ES.
    CmaEs(CmaEs),
}

macro_rules! with_engine {
    ($e:expr, $x:ident => $body:expr) => {
        match $e {
            AnyEngine::GaBits($x) => $body,
            AnyEngine::GaReal($x) => $body,
            AnyEngine::OnePlusLambda($x) => $body,
            AnyEngine::SelfAdaptive($x) => $body,
            AnyEngine::CmaEs($x) => $body,
        }
    };
}

impl AnyEngine {
    /// Generations completed.
    pub fn generation(&self) -> u64 {
        with_engine!(self, e => e.generation())
    }
}

/// One line of `generations.csv`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerationRow {
    /// Generation (0-based).
    pub generation: u64,
    /// Best fitness.
    pub best: f64,
    /// Mean fitness.
    pub mean: f64,
    /// Lowest fitness.
    pub min: f64,
    /// Population diversity.
    pub diversity: f64,
    /// Games played this generation.
    pub games: u64,
    /// Wall-clock seconds for the generation (not part of the result).
    pub seconds: f64,
    /// Best, mean and lowest fitness of the second population
    /// (`two-populations` only).
    #[serde(default)]
    pub second: Option<(f64, f64, f64)>,
}

/// One line of `yardsticks.csv`: the champion of a generation against one
/// opponent (or exhaustively).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct YardstickRow {
    /// Generation measured.
    pub generation: u64,
    /// Opponent spec, or `exhaustive`.
    pub opponent: String,
    /// Games played (lines walked, for exhaustive).
    pub games: u64,
    /// Wins.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// Wins over games.
    pub win_rate: f64,
}

/// The whole state of a run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Checkpoint {
    /// The config as run.
    pub config: EvolveConfig,
    /// The engine.
    pub engine: AnyEngine,
    /// One row per evaluated generation.
    pub history: Vec<GenerationRow>,
    /// Yardstick results so far.
    pub yardsticks: Vec<YardstickRow>,
    /// Champions of past generations (weights), newest last.
    pub hall_of_fame: Vec<Vec<f32>>,
    /// The weights and fitness of the best champion so far (for absolute
    /// fitness schemes) and the generation it came from.
    pub best: Option<(f64, u64, Vec<f32>)>,
    /// The latest generation's champion.
    pub champion: Vec<f32>,
    /// Generations since the best fitness last improved.
    pub stall: u64,
    /// Whether a stopping rule has fired.
    pub finished: bool,
    /// The second population of the `two-populations` scheme (second movers).
    #[serde(default)]
    pub second: Option<AnyEngine>,
    /// The second population's latest champion.
    #[serde(default)]
    pub champion_second: Vec<f32>,
}

/// Turns weights into net players for a game, as the config says.
pub struct NetPhenotype<G: Encodable> {
    game: G,
    arch: Architecture,
    activations: Vec<Activation>,
    encoding: String,
    mode: NetMode,
    /// Number of weights.
    pub num_params: usize,
}

fn activation(name: &str) -> Result<Activation, RunError> {
    match name.to_ascii_lowercase().as_str() {
        "sigmoid" => Ok(Activation::Sigmoid),
        "tanh" => Ok(Activation::Tanh),
        "relu" => Ok(Activation::Relu),
        "linear" => Ok(Activation::Linear),
        other => Err(RunError(format!(
            "unknown activation '{other}' (accepted: sigmoid, tanh, relu, linear)"
        ))),
    }
}

impl<G: Encodable> NetPhenotype<G>
where
    G::State: Searchable,
{
    /// Builds the phenotype from the `[net]` section.
    pub fn new(game: &G, cfg: &super::config::NetConfig) -> Result<Self, RunError> {
        let encoding = game.encoding(&cfg.encoding).map_err(err)?;
        let inputs = encoding.size();
        let outputs = match cfg.outputs.as_str() {
            "value" => 1,
            "policy" => game.num_actions(),
            other => {
                return Err(RunError(format!(
                    "net outputs '{other}' not known (accepted: value, policy)"
                )))
            }
        };
        let hidden = activation(&cfg.activation)?;
        let output = activation(&cfg.output)?;
        let (arch, activations) = if cfg.complete > 0 {
            (
                Architecture::Complete {
                    inputs,
                    nodes: cfg.complete,
                    outputs,
                },
                vec![hidden, output],
            )
        } else {
            let mut layers = vec![inputs];
            layers.extend(&cfg.hidden);
            layers.push(outputs);
            let mut acts = vec![hidden; cfg.hidden.len()];
            acts.push(output);
            (Architecture::Mlp { layers }, acts)
        };
        let net = AnyNet::new(&arch, &activations).map_err(err)?;
        let mode_name = if cfg.mode.is_empty() {
            if outputs == 1 {
                "greedy".to_string()
            } else {
                "policy".to_string()
            }
        } else {
            cfg.mode.clone()
        };
        // `ply` matters to alpha-beta only (a greedy net with ply > 1 would
        // turn into one).
        let ply = if mode_name == "alphabeta" {
            format!(",ply={}", cfg.ply.max(1))
        } else {
            String::new()
        };
        let spec = crate::game::GameSpec::parse(&format!(
            "net:mode={mode_name}{ply},temp={},reduce={}",
            cfg.temp, cfg.reduce
        ))
        .map_err(err)?;
        let mode = NetMode::from_spec(&spec, &mode_name).map_err(err)?;
        let phenotype = NetPhenotype {
            game: game.clone(),
            num_params: net.num_params(),
            arch,
            activations,
            encoding: cfg.encoding.clone(),
            mode,
        };
        // Check that the mode fits the outputs once, now.
        phenotype.try_player(&vec![0.0; phenotype.num_params])?;
        Ok(phenotype)
    }

    fn try_player(&self, weights: &[f32]) -> Result<NetPlayer<G>, RunError> {
        let mut net = AnyNet::new(&self.arch, &self.activations).map_err(err)?;
        net.set_params(weights).map_err(err)?;
        let encoding = self.game.encoding(&self.encoding).map_err(err)?;
        NetPlayer::new(
            &self.game,
            Arc::new(net),
            encoding,
            self.mode,
            "evolved".into(),
        )
        .map_err(err)
    }

    /// The net file of `weights`, playable through `net:` specs.
    pub fn net_file(&self, weights: &[f32]) -> Result<NetFile, RunError> {
        let mut net = AnyNet::new(&self.arch, &self.activations).map_err(err)?;
        net.set_params(weights).map_err(err)?;
        let mut file = NetFile::new(net);
        file.game = Some(self.game.spec());
        file.encoding = Some(self.encoding.clone());
        file.player = Some(self.mode.spec());
        Ok(file)
    }
}

impl<G: Encodable> Phenotype<G> for NetPhenotype<G>
where
    G::State: Searchable,
{
    fn player(&self, weights: &[f32]) -> Box<dyn Player<G>> {
        Box::new(
            self.try_player(weights)
                .expect("weights have the length checked when the run was configured"),
        )
    }
}

/// Builds the engine a config asks for, with its initial population.
pub fn new_engine(config: &EvolveConfig, seed: u64, weights: usize) -> Result<AnyEngine, RunError> {
    let a = &config.algorithm;
    let g = &config.genome;
    let real = |i: u64| RealGenome::uniform(weights, -g.init, g.init, &mut init_rng(seed, i));
    let bits = |code: BitCode, i: u64| BitGenome::random(code, weights, &mut init_rng(seed, i));
    let code = BitCode {
        bits: g.bits,
        lo: g.lo,
        hi: g.hi,
        gray: g.gray,
        levels: if g.levels > 0 {
            Levels::Scaled(g.levels as u32)
        } else {
            Levels::Full
        },
    };
    let n = a.population.max(2);
    let engine = match a.kind.as_str() {
        "ga" => {
            let plan = match a.preset.as_str() {
                "midi-connect4" => Plan::midi_connect4(),
                "weaver" => Plan::weaver(a.mutation_rate.unwrap_or(0.005), false, n),
                "weaver-direct" => Plan::weaver(a.mutation_rate.unwrap_or(0.005), true, n),
                "thesis-binary" => Plan::thesis_binary(),
                "thesis-real" => Plan::thesis_real(),
                "naveed" => Plan::naveed(a.crossover_rate.unwrap_or(0.2)),
                other => {
                    return Err(RunError(format!(
                        "unknown GA preset '{other}' (accepted: midi-connect4, weaver, weaver-direct, thesis-binary, thesis-real, naveed)"
                    )))
                }
            };
            match g.kind.as_str() {
                "bits" => AnyEngine::GaBits(
                    Ga::new(plan, seed, (0..n as u64).map(|i| bits(code, i)).collect())
                        .map_err(err)?,
                ),
                "real" => {
                    let sigma = a.sigma.unwrap_or(0.05) as f32;
                    let pop: Vec<RealGenome> = (0..n as u64)
                        .map(|i| {
                            let r = real(i);
                            if a.preset == "naveed" {
                                r.with_sigmas(sigma)
                            } else {
                                r
                            }
                        })
                        .collect();
                    AnyEngine::GaReal(Ga::new(plan, seed, pop).map_err(err)?)
                }
                other => {
                    return Err(RunError(format!(
                        "unknown genome kind '{other}' (accepted: real, bits)"
                    )))
                }
            }
        }
        "one-plus-lambda" => {
            let mut c = match a.preset.as_str() {
                "handa-reversi" => OnePlusLambdaConfig::handa_reversi(),
                _ => OnePlusLambdaConfig::handa_tictactoe(),
            };
            if let Some(l) = a.lambda {
                c.lambda = l;
            }
            if let Some(s) = a.sigma {
                c.sigma = s;
            }
            AnyEngine::OnePlusLambda(OnePlusLambda::new(c, seed, real(0)).map_err(err)?)
        }
        "mu-lambda" | "mu-plus-lambda" => {
            let mut c = SelfAdaptiveConfig::blondie24();
            c.plus = a.kind == "mu-plus-lambda";
            if let Some(m) = a.mu {
                c.mu = m;
            }
            if let Some(l) = a.lambda {
                c.lambda = l;
            }
            let sigma = a.sigma.unwrap_or(0.05) as f32;
            let parents = (0..c.mu as u64).map(|i| real(i).with_sigmas(sigma)).collect();
            AnyEngine::SelfAdaptive(SelfAdaptiveEs::new(c, seed, parents).map_err(err)?)
        }
        "cma-es" => {
            let mean: Vec<f64> = real(0).genes.iter().map(|&x| x as f64).collect();
            AnyEngine::CmaEs(
                CmaEs::new(mean, a.sigma.unwrap_or(0.3), a.lambda, seed).map_err(err)?,
            )
        }
        other => {
            return Err(RunError(format!(
                "unknown algorithm '{other}' (accepted: ga, one-plus-lambda, mu-lambda, mu-plus-lambda, cma-es)"
            )))
        }
    };
    Ok(engine)
}

/// Adds up several fitness schemes (round-robin plus hall-of-fame games).
struct Sum<'a, Gn>(Vec<Box<dyn Fitness<Gn> + 'a>>);

impl<Gn> Fitness<Gn> for Sum<'_, Gn> {
    fn evaluate(&self, population: &[Gn], generation: u64, seed: u64) -> Vec<f64> {
        let mut total = vec![0.0; population.len()];
        for f in &self.0 {
            for (t, x) in total
                .iter_mut()
                .zip(f.evaluate(population, generation, seed))
            {
                *t += x;
            }
        }
        total
    }
}

/// Whether a scheme's fitness is comparable across generations (so the best
/// champion ever is kept), rather than relative to the population.
fn absolute(scheme: &str) -> bool {
    matches!(scheme, "fixed" | "exhaustive")
}

/// The fitness scheme for this generation, and the games it plays.
fn scheme<'a, G, Gn>(
    game: &G,
    config: &EvolveConfig,
    phenotype: &'a NetPhenotype<G>,
    hall_of_fame: &[Vec<f32>],
    population: usize,
) -> Result<(Box<dyn Fitness<Gn> + 'a>, u64), RunError>
where
    G: Encodable + Roster,
    G::State: Searchable,
    Gn: Genome + Sync + 'a,
{
    let f = &config.fitness;
    let n = population as u64;
    let hof: Vec<Opponent> = hall_of_fame
        .iter()
        .rev()
        .take(f.hall_of_fame)
        .map(|w| Opponent::Weights(w.clone()))
        .collect();
    let points = match f.points.as_str() {
        "wins" => Points::WINS,
        "naveed" => Points::NAVEED,
        "midi" => Points::MIDI_CONNECT4,
        other => {
            return Err(RunError(format!(
                "unknown points '{other}' (accepted: wins, naveed, midi)"
            )))
        }
    };
    let fixed = |opponents: Vec<Opponent>| FixedOpponents {
        game: game.clone(),
        phenotype,
        games_per_seat: f.games_per_seat.max(1),
        opponents,
        points,
        seat: f.seat,
        logistic: (f.logistic > 0.0).then_some(f.logistic),
    };
    if f.seat.is_some_and(|s| s > 1) {
        return Err(RunError("fitness seat must be 0 or 1".into()));
    }
    let seats = if f.seat.is_some() { 1 } else { 2 };
    let per_opponent = seats * f.games_per_seat.max(1) as u64;
    let hof_games = n * hof.len() as u64 * per_opponent;
    let (main, games): (Box<dyn Fitness<Gn> + 'a>, u64) = match f.scheme.as_str() {
        "fixed" => {
            for o in &f.opponents {
                parse_player(game, o).map_err(|e| RunError(format!("opponent '{o}': {e}")))?;
            }
            let mut opponents: Vec<Opponent> = f
                .opponents
                .iter()
                .map(|s| Opponent::Spec(s.clone()))
                .collect();
            let games = n * opponents.len() as u64 * per_opponent;
            opponents.extend(hof.iter().cloned());
            return Ok((Box::new(fixed(opponents)), games + hof_games));
        }
        "round-robin" => {
            let scoring = match f.scoring.as_str() {
                "per-game" => RoundRobinScoring::PerGame,
                "per-match" => RoundRobinScoring::PerMatch,
                other => {
                    return Err(RunError(format!(
                        "unknown scoring '{other}' (accepted: per-game, per-match)"
                    )))
                }
            };
            (
                Box::new(RoundRobin {
                    game: game.clone(),
                    phenotype,
                    scoring,
                }),
                n * n.saturating_sub(1),
            )
        }
        "sharing" => {
            let antigens = ((n as f64 * f.antigens).round() as u64).clamp(1, n);
            let sample = ((n as f64 * f.sample).round() as u64).clamp(1, n);
            (
                Box::new(ImplicitSharing {
                    game: game.clone(),
                    phenotype,
                    antigen_fraction: f.antigens,
                    sample_fraction: f.sample,
                    points: f.share_points,
                }),
                antigens * sample * 2,
            )
        }
        "two-populations" => {
            return Err(RunError(
                "internal: two-populations is built per population".into(),
            ))
        }
        "exhaustive" => (
            Box::new(ExhaustiveLosses {
                game: game.clone(),
                phenotype,
            }),
            0,
        ),
        other => {
            return Err(RunError(format!(
            "unknown fitness scheme '{other}' (accepted: fixed, round-robin, sharing, exhaustive, two-populations)"
        )))
        }
    };
    if hof.is_empty() {
        Ok((main, games))
    } else {
        let extra: Box<dyn Fitness<Gn> + 'a> = Box::new(fixed(hof));
        Ok((Box::new(Sum(vec![main, extra])), games + hof_games))
    }
}

/// Handa & Horiuchi's two coevolving populations: the population playing
/// `seat` meets the other population's champion once and each fixed program
/// (`opponents`) `games_per_seat` times, every game scored by a logistic of
/// its final margin (scale `logistic`, 1 if unset).
fn two_population_scheme<'a, G, Gn>(
    game: &G,
    config: &EvolveConfig,
    phenotype: &'a NetPhenotype<G>,
    partner: Vec<f32>,
    seat: usize,
    population: usize,
) -> Result<(Box<dyn Fitness<Gn> + 'a>, u64), RunError>
where
    G: Encodable + Roster,
    G::State: Searchable,
    Gn: Genome + Sync + 'a,
{
    let f = &config.fitness;
    let mut opponents = vec![Opponent::Weights(partner)];
    for o in &f.opponents {
        parse_player(game, o).map_err(|e| RunError(format!("opponent '{o}': {e}")))?;
        for _ in 0..f.games_per_seat.max(1) {
            opponents.push(Opponent::Spec(o.clone()));
        }
    }
    let games = (population * opponents.len()) as u64;
    Ok((
        Box::new(FixedOpponents {
            game: game.clone(),
            phenotype,
            opponents,
            games_per_seat: 1,
            points: Points::WINS,
            seat: Some(seat),
            logistic: Some(if f.logistic > 0.0 { f.logistic } else { 1.0 }),
        }),
        games,
    ))
}

/// What the caller sees while a run goes on.
pub trait Progress {
    /// After every generation.
    fn generation(&mut self, row: &GenerationRow, checkpoint: &Checkpoint);
    /// After every yardstick measurement.
    fn yardsticks(&mut self, rows: &[YardstickRow]);
}

/// A fresh run's state at generation 0.
pub fn start<G>(game: &G, config: EvolveConfig) -> Result<Checkpoint, RunError>
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    let phenotype = NetPhenotype::new(game, &config.net)?;
    if config.fitness.scheme == "exhaustive" && game.spec() != "tictactoe" {
        return Err(RunError(
            "the exhaustive scheme enumerates every line: tictactoe only".into(),
        ));
    }
    let engine = new_engine(&config, config.seed, phenotype.num_params)?;
    // Check the fitness section (opponent specs, names) before anything runs.
    fn check<G, E>(
        game: &G,
        config: &EvolveConfig,
        p: &NetPhenotype<G>,
        e: &E,
    ) -> Result<(), RunError>
    where
        G: Encodable + Roster,
        G::State: Searchable,
        E: Engine,
        E::Genome: Sync,
    {
        scheme::<G, E::Genome>(game, config, p, &[], e.population().len()).map(|_| ())
    }
    let two = config.fitness.scheme == "two-populations";
    let second = if two {
        for o in &config.fitness.opponents {
            parse_player(game, o).map_err(|e| RunError(format!("opponent '{o}': {e}")))?;
        }
        // The second population starts from its own random weights.
        let seed2 = crate::game::mix64(config.seed ^ 0x5345_434F_4E44);
        Some(new_engine(&config, seed2, phenotype.num_params)?)
    } else {
        with_engine!(&engine, e => check(game, &config, &phenotype, e))?;
        None
    };
    if let Some(y) = &config.yardsticks {
        for spec in &y.against {
            parse_player(game, spec).map_err(|e| RunError(format!("yardstick '{spec}': {e}")))?;
        }
    }
    Ok(Checkpoint {
        config,
        engine,
        history: Vec::new(),
        yardsticks: Vec::new(),
        hall_of_fame: Vec::new(),
        best: None,
        champion: Vec::new(),
        stall: 0,
        finished: false,
        second,
        champion_second: Vec::new(),
    })
}

/// Writes `text` to `path` through a temporary file and a rename.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), RunError> {
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, text).map_err(|e| RunError(format!("cannot write {}: {e}", tmp.display())))?;
    fs::rename(&tmp, path).map_err(|e| RunError(format!("cannot write {}: {e}", path.display())))
}

/// Reads a run folder's checkpoint.
pub fn load_checkpoint(dir: &Path) -> Result<Checkpoint, RunError> {
    let path = dir.join("checkpoint.json");
    let text = fs::read_to_string(&path).map_err(|e| {
        RunError(format!(
            "cannot read {}: {e} (is {} a run folder?)",
            path.display(),
            dir.display()
        ))
    })?;
    serde_json::from_str(&text)
        .map_err(|e| RunError(format!("{} is not a wopr checkpoint: {e}", path.display())))
}

/// The files of a run folder.
pub struct RunFiles {
    /// The folder.
    pub dir: PathBuf,
}

impl RunFiles {
    /// Writes the checkpoint, the CSV logs and the champion.
    pub fn save<G>(&self, cp: &Checkpoint, phenotype: &NetPhenotype<G>) -> Result<(), RunError>
    where
        G: Encodable + Roster,
        G::State: Searchable,
    {
        let two = cp.second.is_some();
        let mut csv = String::from("generation,best,mean,min,diversity,games,seconds");
        csv.push_str(if two { ",best2,mean2,min2\n" } else { "\n" });
        for r in &cp.history {
            csv.push_str(&format!(
                "{},{},{},{},{},{},{:.3}",
                r.generation, r.best, r.mean, r.min, r.diversity, r.games, r.seconds
            ));
            if let Some((b, m, l)) = r.second {
                csv.push_str(&format!(",{b},{m},{l}"));
            }
            csv.push('\n');
        }
        write_atomic(&self.dir.join("generations.csv"), &csv)?;
        let mut ys = String::from("generation,opponent,games,wins,draws,losses,win_rate\n");
        for r in &cp.yardsticks {
            ys.push_str(&format!(
                "{},{},{},{},{},{},{}\n",
                r.generation, r.opponent, r.games, r.wins, r.draws, r.losses, r.win_rate
            ));
        }
        write_atomic(&self.dir.join("yardsticks.csv"), &ys)?;
        if let Some(w) = champion_weights(cp) {
            let file = phenotype.net_file(w)?;
            write_atomic(&self.dir.join("champion.json"), &file.to_json())?;
        }
        if !cp.champion_second.is_empty() {
            let file = phenotype.net_file(&cp.champion_second)?;
            write_atomic(&self.dir.join("champion-second.json"), &file.to_json())?;
        }
        let json = serde_json::to_string(cp).map_err(err)?;
        write_atomic(&self.dir.join("checkpoint.json"), &json)
    }
}

/// The weights the run offers as its result: the best champion so far for
/// absolute fitness, the latest generation's otherwise.
pub fn champion_weights(cp: &Checkpoint) -> Option<&[f32]> {
    if absolute(&cp.config.fitness.scheme) {
        cp.best.as_ref().map(|b| b.2.as_slice())
    } else if cp.champion.is_empty() {
        None
    } else {
        Some(&cp.champion)
    }
}

fn measure<G>(
    game: &G,
    phenotype: &NetPhenotype<G>,
    weights: &[f32],
    y: &YardstickConfig,
    seed: u64,
    generation: u64,
) -> Result<Vec<YardstickRow>, RunError>
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    let mut rows = Vec::new();
    for (j, spec) in y.against.iter().enumerate() {
        parse_player(game, spec).map_err(|e| RunError(format!("yardstick '{spec}': {e}")))?;
        let mine = || -> Result<Box<dyn Player<G>>, String> { Ok(phenotype.player(weights)) };
        let theirs = || parse_player(game, spec).map_err(|e| e.to_string());
        use rand::Rng;
        let s = stream(seed, &[0x5941_5244, generation, j as u64]).next_u64();
        let records =
            play_match_with(game, &mine, &theirs, y.games.max(1), s, &|| {}).map_err(RunError)?;
        let m = match_stats("champion", spec, &records, |i| {
            usize::from(seats_swapped(i))
        });
        rows.push(YardstickRow {
            generation,
            opponent: spec.clone(),
            games: records.len() as u64,
            wins: m.as_first.wins + m.as_second.wins,
            draws: m.as_first.draws + m.as_second.draws,
            losses: m.as_first.losses + m.as_second.losses,
            win_rate: m.win_rate,
        });
    }
    if y.exhaustive {
        let mut total = crate::eval::Wdl::default();
        let mut games = 0;
        for seat in 0..2 {
            let mut p = phenotype.player(weights);
            let mut rng = stream(seed, &[0x4558_4841, generation, seat as u64]);
            let r = exhaustive(game, p.as_mut(), seat, &mut rng);
            games += r.games;
            total.wins += r.results.wins;
            total.draws += r.results.draws;
            total.losses += r.results.losses;
        }
        rows.push(YardstickRow {
            generation,
            opponent: "exhaustive".into(),
            games,
            wins: total.wins,
            draws: total.draws,
            losses: total.losses,
            win_rate: total.wins as f64 / games.max(1) as f64,
        });
    }
    Ok(rows)
}

/// Runs (or continues) `cp` until a stopping rule fires, saving into `files`
/// at the configured interval and at the end.
pub fn run<G>(
    game: &G,
    cp: &mut Checkpoint,
    files: &RunFiles,
    progress: &mut dyn Progress,
) -> Result<(), RunError>
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    let config = cp.config.clone();
    let phenotype = NetPhenotype::new(game, &config.net)?;
    let seed = config.seed;
    let every = config.checkpoint_every.max(1);
    if cp.engine.generation() >= config.stop.generations {
        cp.finished = true;
    }
    while !cp.finished {
        let t = Instant::now();
        let generation = cp.engine.generation();
        let mut second_stats = None;
        let (stats, champion, games) = if let Some(second) = cp.second.as_mut() {
            // Each population meets the other's champion of the previous
            // generation (its first member before any generation).
            let first_partner = if cp.champion_second.is_empty() {
                with_engine!(&*second, e => e.population()[0].decode())
            } else {
                cp.champion_second.clone()
            };
            let second_partner = if cp.champion.is_empty() {
                with_engine!(&cp.engine, e => e.population()[0].decode())
            } else {
                cp.champion.clone()
            };
            let (s1, c1, g1) = with_engine!(&mut cp.engine, e => {
                let (fitness, games) = two_population_scheme(game, &config, &phenotype, first_partner, 0, e.population().len())?;
                let ev = step(e, fitness.as_ref());
                (ev.stats, ev.champion.decode(), games)
            });
            let (s2, c2, g2) = with_engine!(second, e => {
                let (fitness, games) = two_population_scheme(game, &config, &phenotype, second_partner, 1, e.population().len())?;
                let ev = step(e, fitness.as_ref());
                (ev.stats, ev.champion.decode(), games)
            });
            second_stats = Some((s2.best, s2.mean, s2.min));
            cp.champion_second = c2;
            (s1, c1, g1 + g2)
        } else {
            with_engine!(&mut cp.engine, e => {
                let (fitness, games) = scheme(game, &config, &phenotype, &cp.hall_of_fame, e.population().len())?;
                let ev = step(e, fitness.as_ref());
                (ev.stats, ev.champion.decode(), games)
            })
        };
        let row = GenerationRow {
            generation,
            best: stats.best,
            mean: stats.mean,
            min: stats.min,
            diversity: stats.diversity,
            games,
            seconds: t.elapsed().as_secs_f64(),
            second: second_stats,
        };
        let improved = cp.best.as_ref().is_none_or(|b| stats.best > b.0);
        if improved {
            cp.best = Some((stats.best, generation, champion.clone()));
            cp.stall = 0;
        } else {
            cp.stall += 1;
        }
        cp.champion = champion;
        if config.fitness.hall_of_fame > 0 {
            cp.hall_of_fame.push(cp.champion.clone());
            let keep = config.fitness.hall_of_fame;
            if cp.hall_of_fame.len() > keep {
                cp.hall_of_fame.drain(..cp.hall_of_fame.len() - keep);
            }
        }
        cp.history.push(row.clone());
        let done_generations = generation + 1 >= config.stop.generations;
        let reached = config.stop.target.is_some_and(|t| stats.best >= t);
        let stalled = config.stop.stall > 0 && cp.stall >= config.stop.stall;
        cp.finished = done_generations || reached || stalled;
        if let Some(y) = &config.yardsticks {
            if generation.is_multiple_of(y.every.max(1)) || cp.finished {
                let w = champion_weights(cp)
                    .map(<[f32]>::to_vec)
                    .unwrap_or_default();
                let rows = measure(game, &phenotype, &w, y, seed, generation)?;
                progress.yardsticks(&rows);
                cp.yardsticks.extend(rows);
            }
        }
        progress.generation(&row, cp);
        if (generation + 1).is_multiple_of(every) || cp.finished {
            files.save(cp, &phenotype)?;
        }
    }
    Ok(())
}
