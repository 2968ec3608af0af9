//! The `[fitness]`, `[stop]` and `[yardsticks]` sections: how members are
//! scored, which one is the champion, when a run stops, and how the champion
//! is measured along the way.

use serde::{Deserialize, Serialize};

/// How fitness is measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FitnessConfig {
    /// The fitness scheme.
    pub scheme: Scheme,
    /// Opponent specs (fixed).
    pub opponents: Vec<String>,
    /// Games per opponent and seat (fixed).
    pub games_per_seat: usize,
    /// Points per game result (fixed opponents).
    pub points: PointsKind,
    /// Round-robin scoring.
    pub scoring: Scoring,
    /// Antigen fraction (sharing).
    pub antigens: f64,
    /// Sample fraction (sharing).
    pub sample: f64,
    /// Points per antigen (sharing).
    pub share_points: f64,
    /// Past champions played as extra opponents.
    pub hall_of_fame: usize,
    /// Fixed: score each game by a logistic of the final margin with this
    /// scale instead of by points (Handa & Horiuchi); 0: points.
    pub logistic: f64,
    /// Fixed: play only this seat (0 first, 1 second; Handa's first- and
    /// second-mover populations); unset: both.
    pub seat: Option<usize>,
    /// Two populations: how games against the `opponents` (programs, not
    /// evolved nets) are scored. The game against the other population's
    /// champion is always scored by the logistic.
    #[serde(skip_serializing_if = "ProgramScore::is_logistic")]
    pub programs: ProgramScore,
    /// Where fitness games start: `plies=K` random plies or a file of move
    /// lists (see `eval::openings`); each pair of games with seats swapped
    /// shares one opening, and every individual meets the same openings.
    /// Unset: the start position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub openings: Option<String>,
    /// Fixed opponents: every individual's games use the same random streams
    /// (common random numbers), so fitness differences come from the
    /// individuals. Unset: each individual has its own streams.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub common_seeds: bool,
    /// Which member is the run's champion (`champion.json`, the yardsticks'
    /// player).
    #[serde(skip_serializing_if = "ChampionRule::is_best")]
    pub champion: ChampionRule,
}

impl Default for FitnessConfig {
    fn default() -> Self {
        FitnessConfig {
            scheme: Scheme::Fixed,
            opponents: vec!["random".into()],
            games_per_seat: 1,
            points: PointsKind::Wins,
            scoring: Scoring::PerMatch,
            antigens: 0.25,
            sample: 0.33,
            share_points: 33.0,
            hall_of_fame: 0,
            logistic: 0.0,
            seat: None,
            programs: ProgramScore::Logistic,
            openings: None,
            common_seeds: false,
            champion: ChampionRule::Best,
        }
    }
}

/// How fitness is measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scheme {
    /// Games against fixed opponents (player specs).
    Fixed,
    /// Every individual against every other.
    RoundRobin,
    /// Antibody/antigen coevolution with implicit fitness sharing.
    Sharing,
    /// The thesis's exhaustive loss count (Tic-Tac-Toe).
    Exhaustive,
    /// Two populations (first and second movers), Handa & Horiuchi.
    TwoPopulations,
}

impl Scheme {
    /// Whether fitness is absolute (comparable across generations): true for
    /// fixed opponents and the exhaustive count, false for the schemes that
    /// score individuals against the evolving population.
    pub fn absolute(self) -> bool {
        matches!(self, Scheme::Fixed | Scheme::Exhaustive)
    }

    /// The name in a config.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Fixed => "fixed",
            Scheme::RoundRobin => "round-robin",
            Scheme::Sharing => "sharing",
            Scheme::Exhaustive => "exhaustive",
            Scheme::TwoPopulations => "two-populations",
        }
    }
}

/// Points per game result against fixed opponents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PointsKind {
    /// 1 / 0.5 / 0.
    Wins,
    /// Naveed & Cowling's 3 / 1 / 0.
    Naveed,
    /// MIDI-Connect4's +2 / 0 / −2.
    Midi,
}

/// Round-robin scoring.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scoring {
    /// +2 to the winner and −2 to the loser of every game (MIDI-Connect4).
    PerGame,
    /// 1 / 0.5 / 0 per match of two games.
    PerMatch,
}

/// Which member a run keeps as its champion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChampionRule {
    /// For absolute fitness (fixed opponents, the exhaustive count): the
    /// best-scoring member of the whole run; for the relative schemes, the
    /// latest generation's best. Right when a fitness is exact or barely
    /// noisy.
    #[default]
    Best,
    /// Always the latest generation's best member. Right when fitness is a
    /// sample (openings, stochastic opponents, few games): the run-long
    /// maximum of noisy scores favours an early lucky member over the
    /// population that has since moved on.
    Latest,
}

impl ChampionRule {
    fn is_best(&self) -> bool {
        *self == ChampionRule::Best
    }
}

/// How the two-populations scheme scores a game against a program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProgramScore {
    /// `1 / (1 + exp(−margin / logistic))`, like the game against the other
    /// population's champion: in (0, 1), never negative (our reading).
    #[default]
    Logistic,
    /// The raw final margin (discs, or ±1 for a game without a score), as
    /// Handa & Horiuchi print their fitness: `F = f(d_e) + Σ d(j)`, so losses
    /// count negative and the nine program games outweigh the one logistic.
    Margin,
}

impl ProgramScore {
    fn is_logistic(&self) -> bool {
        *self == ProgramScore::Logistic
    }
}

/// When to stop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct StopConfig {
    /// Most generations.
    pub generations: u64,
    /// Stop once the best fitness of a generation reaches this.
    pub target: Option<f64>,
    /// Stop after this many generations without a better best (0: never).
    pub stall: u64,
}

impl Default for StopConfig {
    fn default() -> Self {
        StopConfig {
            generations: 100,
            target: None,
            stall: 0,
        }
    }
}

/// Periodic measurement of the champion.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct YardstickConfig {
    /// Generations between measurements (the last generation is always
    /// measured).
    pub every: u64,
    /// Opponent specs.
    pub against: Vec<String>,
    /// Games per opponent (half from each seat).
    pub games: usize,
    /// Also count exhaustive losses (small games only).
    pub exhaustive: bool,
    /// Where yardstick games start (as `fitness.openings`); unset: the start
    /// position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub openings: Option<String>,
    /// Also measure every member of the population (Weaver & Bossomaier
    /// §4's population snapshots): each plays `games` games against each
    /// opponent, and the rows `mean:SPEC` (all members' games together) and
    /// `best:SPEC` (the member with the most wins) are added.
    pub population: bool,
}

impl Default for YardstickConfig {
    fn default() -> Self {
        YardstickConfig {
            every: 10,
            against: vec!["random".into()],
            games: 50,
            exhaustive: false,
            openings: None,
            population: false,
        }
    }
}
