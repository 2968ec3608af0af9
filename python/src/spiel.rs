//! What OpenSpiel says about a game: its `GameType` fields, sizes and
//! utilities ([`Facts`]), for wopr's specs from the game's `Nature`, for
//! OpenSpiel's games from what each game declares in its folder
//! (`wopr::games::openspiel::OpenSpielGame`, read by the registry's
//! `parse_openspiel`).
//!
//! **Which game a name means.** wopr's specs (`connect4:7x6`, `pig`,
//! `goofspiel:cards=5`) are wopr's games with wopr's numbering, as on the
//! command line. OpenSpiel's names (`tic_tac_toe`, `connect_four`,
//! `kuhn_poker`, `othello`, `dots_and_boxes`) and any name written with
//! OpenSpiel's parentheses (`goofspiel()`, `goofspiel(num_cards=5)`) are
//! OpenSpiel's game: its parameters and defaults (13 cards for
//! Goofspiel, 2x2 boxes for Dots-and-Boxes), its action numbering and
//! sizes (Kuhn poker's two distinct actions and three chance outcomes;
//! Pig's die faces numbered 0..6 where wopr's are 2..8), and its move
//! sequence (Goofspiel's last round played by itself; Pig by OpenSpiel's
//! rules, `pig:rules=openspiel`, where the winner must hold). The bare
//! names both libraries use (`pig`, `goofspiel`) are wopr's, as the
//! command line reads them.

use wopr::game::Game;
use wopr::games::openspiel::{Declaration, Entry, GameString, Sizes, MIN_NUM_PLAYERS};
use wopr::registry::{AnyGame, NonBoard};

pub use wopr::games::openspiel::Param;

/// A game's type, sizes and utilities, as `pyspiel.GameType` and
/// `pyspiel.Game` report them.
#[derive(Clone, Debug)]
pub struct Facts {
    /// OpenSpiel's short name for OpenSpiel's games, wopr's game name for
    /// wopr's.
    pub short_name: String,
    pub long_name: String,
    /// `SEQUENTIAL` or `SIMULTANEOUS`.
    pub dynamics: &'static str,
    /// `DETERMINISTIC` or `EXPLICIT_STOCHASTIC`.
    pub chance_mode: &'static str,
    /// `PERFECT_INFORMATION` or `IMPERFECT_INFORMATION`.
    pub information: &'static str,
    /// `ZERO_SUM` or `GENERAL_SUM`.
    pub utility: &'static str,
    pub min_utility: f64,
    pub max_utility: f64,
    /// The returns' sum where it is fixed.
    pub utility_sum: Option<f64>,
    pub num_distinct_actions: usize,
    pub max_chance_outcomes: usize,
    pub max_game_length: usize,
    pub num_players: usize,
    /// OpenSpiel's parameters for OpenSpiel's games; wopr's spec keys
    /// otherwise.
    pub parameters: Vec<(String, Param)>,
    pub provides_information_state_string: bool,
    pub provides_information_state_tensor: bool,
    pub provides_observation_tensor: bool,
    /// Whether this is OpenSpiel's version of the game (loaded by
    /// OpenSpiel's game string).
    pub openspiel: bool,
    /// What OpenSpiel's chance outcome 0 is in wopr's numbering (Pig's
    /// die faces: 2); wopr's actions from here up are chance outcomes.
    pub chance_offset: u16,
    /// OpenSpiel plays the last round by itself (Goofspiel: one card
    /// left in each hand and in the deck).
    pub auto_last_round: bool,
    /// OpenSpiel's `GameType` and game string, for OpenSpiel's games.
    pub spiel_type: Option<SpielType>,
}

/// What `pyspiel.GameType` says of one of OpenSpiel's games beyond the
/// fields `Facts` has for every game (the game's declaration), and the
/// parameters its game string wrote.
#[derive(Clone, Debug)]
pub struct SpielType {
    /// The declared game: its representations too.
    pub entry: &'static dyn Entry,
    /// The parameters the game string gave, sorted by name: what
    /// `str(game)` writes (`connect_four(columns=7,rows=6)`).
    pub given: Vec<(String, Param)>,
}

impl SpielType {
    /// The game's declaration: long name, players, what it provides.
    pub fn declaration(&self) -> &'static Declaration {
        self.entry.declaration()
    }

    /// The fewest players OpenSpiel's game is loaded for.
    pub fn min_num_players(&self) -> usize {
        MIN_NUM_PLAYERS
    }

    /// The parameters and their defaults (`parameter_specification`).
    pub fn defaults(&self) -> Vec<(String, Param)> {
        let params = self.declaration().params.iter();
        params.map(|(k, v)| (k.to_string(), v.clone())).collect()
    }
}

/// The OpenSpiel game string of `name` with `params` (what
/// `pyspiel.load_game(name, params)` loads).
pub fn game_string(name: &str, params: &[(String, String)]) -> String {
    if params.is_empty() {
        return format!("{name}()");
    }
    let inner: Vec<String> = params.iter().map(|(k, v)| format!("{k}={v}")).collect();
    format!("{name}({})", inner.join(","))
}

/// The facts of `game` (`os`: as OpenSpiel's game its game string read,
/// with OpenSpiel's sizes of it).
pub fn facts(game: &AnyGame, os: Option<(&GameString, Sizes)>) -> Facts {
    let info = wopr::with_game!(game, g => (g.num_actions(), g.num_players(), g.max_game_length()));
    let (num_actions, num_players, max_game_length) = info;
    let spec = game.spec();
    let name = spec.split(':').next().unwrap_or(&spec).to_string();
    let mut f = Facts {
        short_name: name.clone(),
        long_name: name,
        dynamics: "SEQUENTIAL",
        chance_mode: "DETERMINISTIC",
        information: "PERFECT_INFORMATION",
        utility: "ZERO_SUM",
        min_utility: -1.0,
        max_utility: 1.0,
        utility_sum: Some(0.0),
        num_distinct_actions: num_actions,
        max_chance_outcomes: 0,
        max_game_length,
        num_players,
        parameters: wopr_parameters(&spec),
        provides_information_state_string: true,
        provides_information_state_tensor: false,
        provides_observation_tensor: true,
        openspiel: false,
        chance_offset: 0,
        auto_last_round: false,
        spiel_type: None,
    };
    // How the game is played, from its registration.
    let nature = wopr::with_game!(game, g => nature_of(g));
    if nature.simultaneous {
        f.dynamics = "SIMULTANEOUS";
    }
    if nature.chance {
        f.chance_mode = "EXPLICIT_STOCHASTIC";
        f.max_chance_outcomes = num_actions;
    }
    if nature.hidden {
        f.information = "IMPERFECT_INFORMATION";
    }
    if !nature.zero_sum {
        // GDL's goals 0..100 scaled to [-1, 1], any sum.
        f.utility = "GENERAL_SUM";
        f.utility_sum = None;
    }
    // What only some games have beyond that; the board games have none.
    wopr::with_board_game!(game, _g => (), else other => match other {
        NonBoard::Pig(_) => f.long_name = "Pig".into(),
        NonBoard::Kuhn(_) => {
            f.long_name = "Kuhn Poker".into();
            (f.min_utility, f.max_utility) = (-2.0, 2.0);
            f.max_chance_outcomes = 3;
            f.provides_information_state_tensor = true;
        }
        NonBoard::Goofspiel(_) => f.long_name = "Goofspiel".into(),
        NonBoard::GdlHidden(_) => {
            f.provides_information_state_string = false;
            f.provides_observation_tensor = false;
        }
    });
    if let Some((os, sizes)) = os {
        let d = os.entry.declaration();
        f.openspiel = true;
        f.short_name = d.name.to_string();
        f.parameters = os.parameters.clone();
        f.spiel_type = Some(SpielType {
            entry: os.entry,
            given: os.given.clone(),
        });
        f.num_distinct_actions = sizes.num_distinct_actions;
        f.max_chance_outcomes = sizes.max_chance_outcomes;
        f.max_game_length = sizes.max_game_length;
        f.chance_offset = sizes.chance_offset;
        f.auto_last_round = sizes.auto_last_round;
    }
    f
}

/// How `G` is played, as its registration says.
fn nature_of<G: Game>(_: &G) -> wopr::game::Nature {
    G::INFO.nature
}

/// wopr's spec keys as parameters (`connect4:7x6` has `size=7x6`).
fn wopr_parameters(spec: &str) -> Vec<(String, Param)> {
    let Some((_, rest)) = spec.split_once(':') else {
        return Vec::new();
    };
    rest.split(',')
        .map(|kv| match kv.split_once('=') {
            Some((k, v)) => (k.to_string(), value(v)),
            None => ("size".to_string(), Param::Str(kv.to_string().into())),
        })
        .collect()
}

fn value(v: &str) -> Param {
    match v.parse::<i64>() {
        Ok(i) => Param::Int(i),
        Err(_) => match v {
            "true" => Param::Bool(true),
            "false" => Param::Bool(false),
            _ => Param::Str(v.to_string().into()),
        },
    }
}
