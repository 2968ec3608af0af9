//! What OpenSpiel says about a game: its `GameType` fields, sizes and
//! utilities ([`Facts`]), and OpenSpiel's game strings
//! (`connect_four(rows=6,columns=7)`) read into wopr's specs with the
//! differences OpenSpiel's version of a game has ([`OpenSpielName`]).
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
use wopr::registry::{AnyGame, NonBoard};

/// A parameter's value, as OpenSpiel types it.
#[derive(Clone, Debug, PartialEq)]
pub enum Param {
    Int(i64),
    Bool(bool),
    Str(String),
}

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
/// fields `Facts` has for every game, and the parameters its game string
/// wrote.
#[derive(Clone, Debug)]
pub struct SpielType {
    /// `Tic Tac Toe`, `Kuhn Poker`, ...
    pub long_name: &'static str,
    /// The players OpenSpiel's game can be loaded for (Kuhn poker: 2..10).
    pub min_num_players: usize,
    pub max_num_players: usize,
    pub provides_information_state_string: bool,
    pub provides_information_state_tensor: bool,
    pub provides_factored_observation_string: bool,
    /// The parameters and their defaults (`parameter_specification`).
    pub defaults: Vec<(String, Param)>,
    /// The parameters the game string gave, sorted by name: what
    /// `str(game)` writes (`connect_four(columns=7,rows=6)`).
    pub given: Vec<(String, Param)>,
}

/// One of OpenSpiel's games, read from its game string.
#[derive(Clone, Debug)]
pub struct OpenSpielName {
    /// OpenSpiel's short name.
    pub short_name: &'static str,
    /// The wopr spec that plays it.
    pub spec: String,
    /// Every parameter OpenSpiel reports, defaults filled in.
    pub parameters: Vec<(String, Param)>,
    /// OpenSpiel's `GameType` of the game, with the parameters given.
    pub spiel_type: SpielType,
}

/// OpenSpiel's names wopr loads as OpenSpiel's games.
pub const OPENSPIEL_NAMES: &[&str] = &[
    "tic_tac_toe",
    "connect_four",
    "kuhn_poker",
    "othello",
    "dots_and_boxes",
    "goofspiel",
    "pig",
    "breakthrough",
];

/// Names that are wopr's when bare and OpenSpiel's with parentheses.
const SHARED_NAMES: &[&str] = &["goofspiel", "pig", "breakthrough"];

/// Reads `text` as one of OpenSpiel's game strings: `None` when it is
/// wopr's spec (a name OpenSpiel does not use, or a bare name both use),
/// an error when it is OpenSpiel's but wopr cannot play it as OpenSpiel
/// does.
pub fn parse_openspiel(text: &str) -> Option<Result<OpenSpielName, String>> {
    let text = text.trim();
    let (name, args) = match text.find('(') {
        Some(i) => {
            let Some(inner) = text[i + 1..].strip_suffix(')') else {
                return Some(Err(format!(
                    "'{text}': an OpenSpiel game string ends with ')'"
                )));
            };
            (&text[..i], Some(inner))
        }
        None => (text, None),
    };
    let known = OPENSPIEL_NAMES.contains(&name);
    if !known || (args.is_none() && SHARED_NAMES.contains(&name)) {
        return None;
    }
    let mut given = Vec::new();
    for part in args
        .unwrap_or("")
        .split(',')
        .filter(|p| !p.trim().is_empty())
    {
        let Some((k, v)) = part.split_once('=') else {
            return Some(Err(format!(
                "'{text}': parameter '{part}' is not key=value"
            )));
        };
        given.push((k.trim().to_string(), v.trim().to_string()));
    }
    Some(openspiel_game(name, &given).map_err(|e| format!("'{text}': {e}")))
}

/// OpenSpiel's parameters of `name` (their defaults) and the wopr spec
/// for the values given.
fn openspiel_game(name: &str, given: &[(String, String)]) -> Result<OpenSpielName, String> {
    let defaults: Vec<(&str, Param)> = match name {
        "tic_tac_toe" | "othello" => vec![],
        "connect_four" => vec![
            ("columns", Param::Int(7)),
            ("egocentric_obs_tensor", Param::Bool(false)),
            ("rows", Param::Int(6)),
            ("x_in_row", Param::Int(4)),
        ],
        "kuhn_poker" => vec![("players", Param::Int(2))],
        "dots_and_boxes" => vec![
            ("num_cols", Param::Int(2)),
            ("num_rows", Param::Int(2)),
            ("utility_margin", Param::Bool(false)),
        ],
        "goofspiel" => vec![
            ("egocentric", Param::Bool(false)),
            ("imp_info", Param::Bool(false)),
            ("num_cards", Param::Int(13)),
            ("num_turns", Param::Int(-1)),
            ("players", Param::Int(2)),
            ("points_order", Param::Str("random".into())),
            ("returns_type", Param::Str("win_loss".into())),
        ],
        "breakthrough" => vec![("columns", Param::Int(8)), ("rows", Param::Int(8))],
        "pig" => vec![
            ("diceoutcomes", Param::Int(6)),
            ("horizon", Param::Int(1000)),
            ("piglet", Param::Bool(false)),
            ("players", Param::Int(2)),
            ("winscore", Param::Int(100)),
        ],
        _ => unreachable!("parse_openspiel passes only OpenSpiel's names"),
    };
    let mut params: Vec<(String, Param)> = defaults
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect();
    let mut written = Vec::new();
    for (k, v) in given {
        let Some(slot) = params.iter_mut().find(|(name, _)| name == k) else {
            let keys: Vec<&str> = defaults.iter().map(|(k, _)| *k).collect();
            return Err(format!(
                "unknown parameter '{k}' (accepted: {})",
                if keys.is_empty() {
                    "none".into()
                } else {
                    keys.join(", ")
                }
            ));
        };
        slot.1 = match &slot.1 {
            Param::Int(_) => Param::Int(
                v.parse()
                    .map_err(|_| format!("{k}={v} is not an integer"))?,
            ),
            Param::Bool(_) => Param::Bool(match v.to_ascii_lowercase().as_str() {
                "true" | "1" => true,
                "false" | "0" => false,
                _ => return Err(format!("{k}={v} is not true or false")),
            }),
            Param::Str(_) => Param::Str(v.clone()),
        };
        written.retain(|(name, _): &(String, Param)| name != k);
        written.push((k.clone(), slot.1.clone()));
    }
    written.sort_by(|a, b| a.0.cmp(&b.0));
    let get = |k: &str| params.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    let int = |k: &str| match get(k) {
        Some(Param::Int(i)) => i,
        _ => unreachable!("{k} is an integer parameter"),
    };
    // The values wopr's version of the game plays; any other is refused.
    let require = |k: &str, want: Param| -> Result<(), String> {
        match get(k) {
            Some(v) if v == want => Ok(()),
            Some(v) => Err(format!(
                "wopr plays {name} only with {k}={} (not {})",
                show(&want),
                show(&v)
            )),
            None => Ok(()),
        }
    };
    let (short_name, spec) = match name {
        "tic_tac_toe" => ("tic_tac_toe", "tictactoe".to_string()),
        "othello" => ("othello", "reversi:8x8".to_string()),
        "connect_four" => {
            require("x_in_row", Param::Int(4))?;
            let spec = format!("connect4:{}x{}", int("columns"), int("rows"));
            ("connect_four", spec)
        }
        "kuhn_poker" => {
            require("players", Param::Int(2))?;
            ("kuhn_poker", "kuhn".to_string())
        }
        "breakthrough" => {
            let spec = format!("breakthrough:{}x{}", int("columns"), int("rows"));
            ("breakthrough", spec)
        }
        "dots_and_boxes" => {
            require("utility_margin", Param::Bool(false))?;
            let spec = format!("dots-and-boxes:{}x{}", int("num_cols"), int("num_rows"));
            ("dots_and_boxes", spec)
        }
        "pig" => {
            require("players", Param::Int(2))?;
            require("diceoutcomes", Param::Int(6))?;
            require("piglet", Param::Bool(false))?;
            let spec = format!(
                "pig:target={},horizon={},rules=openspiel",
                int("winscore"),
                int("horizon")
            );
            ("pig", spec)
        }
        "goofspiel" => {
            require("players", Param::Int(2))?;
            require("egocentric", Param::Bool(false))?;
            require("imp_info", Param::Bool(false))?;
            require("num_turns", Param::Int(-1))?;
            require("points_order", Param::Str("random".into()))?;
            require("returns_type", Param::Str("win_loss".into()))?;
            let spec = format!("goofspiel:cards={}", int("num_cards"));
            ("goofspiel", spec)
        }
        _ => unreachable!("every name above returned"),
    };
    // OpenSpiel's `GameType` fields that differ between its games.
    let (long_name, max_num_players, info_string, info_tensor, factored) = match short_name {
        "tic_tac_toe" => ("Tic Tac Toe", 2, true, false, false),
        "connect_four" => ("Connect Four", 2, true, false, false),
        "othello" => ("Othello", 2, true, false, false),
        "dots_and_boxes" => ("Dots and Boxes", 2, true, false, false),
        "kuhn_poker" => ("Kuhn Poker", 10, true, true, true),
        "goofspiel" => ("Goofspiel", 10, true, true, true),
        "pig" => ("Pig", 10, false, false, false),
        "breakthrough" => ("Breakthrough", 2, false, false, false),
        _ => unreachable!("every name above returned"),
    };
    let spiel_type = SpielType {
        long_name,
        min_num_players: 2,
        max_num_players,
        provides_information_state_string: info_string,
        provides_information_state_tensor: info_tensor,
        provides_factored_observation_string: factored,
        defaults: defaults
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect(),
        given: written,
    };
    Ok(OpenSpielName {
        short_name,
        spec,
        parameters: params,
        spiel_type,
    })
}

fn show(p: &Param) -> String {
    p.to_string()
}

impl std::fmt::Display for Param {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Param::Int(i) => write!(f, "{i}"),
            Param::Bool(b) => write!(f, "{}", if *b { "True" } else { "False" }),
            Param::Str(s) => write!(f, "{s}"),
        }
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

/// The facts of `game` (`os`: as OpenSpiel's game of that name).
pub fn facts(game: &AnyGame, os: Option<&OpenSpielName>) -> Facts {
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
    if let Some(os) = os {
        f.openspiel = true;
        f.short_name = os.short_name.to_string();
        f.parameters = os.parameters.clone();
        f.spiel_type = Some(os.spiel_type.clone());
        match os.short_name {
            "kuhn_poker" => {
                // OpenSpiel counts the players' moves only.
                f.num_distinct_actions = 2;
                f.max_game_length = 3;
            }
            "othello" => f.max_game_length = 128,
            "dots_and_boxes" => {
                // OpenSpiel's bound, 2 x columns x (rows + 1): the number
                // of lines on a square board, one more than it on some
                // others (2 rows of 3 columns: 18, where 17 lines exist).
                let int = |k: &str| match os.parameters.iter().find(|(n, _)| n == k) {
                    Some((_, Param::Int(i))) => *i as usize,
                    _ => 0,
                };
                f.max_game_length = 2 * int("num_cols") * (int("num_rows") + 1);
            }
            "pig" => {
                // Roll and hold; the die's six faces as outcomes 0..6.
                f.num_distinct_actions = 2;
                f.max_chance_outcomes = 6;
                f.chance_offset = 2;
                if let AnyGame::Pig(g) = game {
                    f.max_game_length = g.horizon() as usize;
                }
            }
            "goofspiel" => {
                // The last round plays itself; OpenSpiel counts a game's
                // length in rounds.
                f.auto_last_round = true;
                f.max_game_length = num_actions;
            }
            _ => {}
        }
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
            None => ("size".to_string(), Param::Str(kv.to_string())),
        })
        .collect()
}

fn value(v: &str) -> Param {
    match v.parse::<i64>() {
        Ok(i) => Param::Int(i),
        Err(_) => match v {
            "true" => Param::Bool(true),
            "false" => Param::Bool(false),
            _ => Param::Str(v.to_string()),
        },
    }
}
