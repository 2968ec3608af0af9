//! The one list of games: names, parameters, defaults, and the spec parser.
//!
//! Front ends turn a spec string into an [`AnyGame`] once and then hand the
//! concrete game to generic code with `with_game!`, so no
//! dynamic dispatch reaches the hot loops.
//!
//! This is the only place that lists every game. Adding one means a folder
//! under `games/` (rules, `Game::INFO`, `Game::from_spec`, its `Roster`) and
//! one entry in each list below: the enum, [`games`], [`AnyGame::parse`] and
//! the two macros; a game OpenSpiel also has implements
//! [`OpenSpielGame`](crate::games::openspiel::OpenSpielGame) in its folder
//! and takes one line in [`openspiel_games`].

use crate::game::{Game, GameInfo, GameSpec, SpecError};
use crate::games::openspiel::{self, entry, Entry, GameString, Sizes};
use crate::games::{
    breakthrough::Breakthrough,
    connect4::Connect4,
    dots_and_boxes::DotsAndBoxes,
    gdl::game::{Gdl, GdlHidden},
    goofspiel::Goofspiel,
    kuhn::KuhnPoker,
    pig::Pig,
    reversi::Reversi,
    tictactoe::TicTacToe,
    virus::Virus,
};

/// Any registered game, chosen at run time.
#[derive(Clone, Debug)]
pub enum AnyGame {
    /// Tic-Tac-Toe.
    TicTacToe(TicTacToe),
    /// Connect-4 on any board up to 64 bits.
    Connect4(Connect4),
    /// Dots-and-Boxes.
    DotsAndBoxes(DotsAndBoxes),
    /// Reversi (Othello rules).
    Reversi(Reversi),
    /// The Virus game.
    Virus(Virus),
    /// Breakthrough, as OpenSpiel plays it.
    Breakthrough(Breakthrough),
    /// Pig, the dice game (chance).
    Pig(Pig),
    /// Kuhn poker (hidden information and chance).
    Kuhn(KuhnPoker),
    /// Goofspiel (simultaneous moves).
    Goofspiel(Goofspiel),
    /// A game written in GDL (`gdl:PATH.kif`).
    Gdl(Gdl),
    /// A game written in GDL-II with `sees` (hidden information).
    GdlHidden(GdlHidden),
}

/// Every registered game, in the order `wopr games` lists them.
pub fn games() -> Vec<GameInfo> {
    vec![
        TicTacToe::INFO,
        Connect4::INFO,
        DotsAndBoxes::INFO,
        Reversi::INFO,
        Virus::INFO,
        Breakthrough::INFO,
        Pig::INFO,
        KuhnPoker::INFO,
        Goofspiel::INFO,
        Gdl::INFO,
    ]
}

/// The games OpenSpiel also has, each declared as OpenSpiel's game in its
/// folder (`games/<game>/openspiel.rs`), in the order the Python package
/// lists OpenSpiel's names.
pub fn openspiel_games() -> [&'static dyn Entry; 8] {
    [
        entry::<TicTacToe>(),
        entry::<Connect4>(),
        entry::<KuhnPoker>(),
        entry::<Reversi>(),
        entry::<DotsAndBoxes>(),
        entry::<Goofspiel>(),
        entry::<Pig>(),
        entry::<Breakthrough>(),
    ]
}

/// OpenSpiel's names of [`openspiel_games`] (`tic_tac_toe`, ...).
pub fn openspiel_names() -> Vec<&'static str> {
    openspiel_games()
        .iter()
        .map(|e| e.declaration().name)
        .collect()
}

/// OpenSpiel's game string `text` (`connect_four(rows=6,columns=7)`) read
/// as one of [`openspiel_games`]: the game that plays it, what the string
/// says and OpenSpiel's sizes of the game; `None` when `text` is wopr's
/// spec (see [`openspiel::read_game_string`]), an error when it is
/// OpenSpiel's but wopr cannot play it as OpenSpiel does.
pub fn parse_openspiel(text: &str) -> Option<Result<(AnyGame, GameString, Sizes), String>> {
    let read = match openspiel::read_game_string(text, &openspiel_games())? {
        Ok(read) => read,
        Err(e) => return Some(Err(e)),
    };
    let game = match AnyGame::parse(&read.spec) {
        Ok(game) => game,
        Err(e) => return Some(Err(e.to_string())),
    };
    let sizes = crate::with_game!(&game, g => read.entry.sizes(g, &read.parameters));
    Some(sizes.map(|sizes| (game, read, sizes)))
}

/// `Some(game)` when `spec` names game `G`.
fn try_parse<G: Game>(spec: &GameSpec) -> Option<Result<G, SpecError>> {
    G::INFO.names(&spec.name).then(|| G::from_spec(spec))
}

impl AnyGame {
    /// Parses a game spec such as `connect4:6x6`.
    pub fn parse(text: &str) -> Result<AnyGame, SpecError> {
        let spec = GameSpec::parse(text)?;
        use AnyGame as A;
        let parsed = None
            .or_else(|| try_parse(&spec).map(|g| g.map(A::TicTacToe)))
            .or_else(|| try_parse(&spec).map(|g| g.map(A::Connect4)))
            .or_else(|| try_parse(&spec).map(|g| g.map(A::DotsAndBoxes)))
            .or_else(|| try_parse(&spec).map(|g| g.map(A::Reversi)))
            .or_else(|| try_parse(&spec).map(|g| g.map(A::Virus)))
            .or_else(|| try_parse(&spec).map(|g| g.map(A::Breakthrough)))
            .or_else(|| try_parse(&spec).map(|g| g.map(A::Pig)))
            .or_else(|| try_parse(&spec).map(|g| g.map(A::Kuhn)))
            .or_else(|| try_parse(&spec).map(|g| g.map(A::Goofspiel)))
            .or_else(|| {
                // A sheet with `sees` is a game of hidden information.
                try_parse::<Gdl>(&spec).map(|g| {
                    g.map(|g| match g.has_percepts() {
                        true => A::GdlHidden(GdlHidden(g)),
                        false => A::Gdl(g),
                    })
                })
            });
        parsed.unwrap_or_else(|| {
            let names: Vec<&str> = games().iter().map(|g| g.name).collect();
            Err(SpecError(format!(
                "unknown game '{}' (accepted: {})",
                spec.name,
                names.join(", ")
            )))
        })
    }
}

/// Runs an expression with `$g` bound to the concrete game inside an
/// [`AnyGame`]: `with_game!(any, g => perft(&g.initial_state(), 3))`.
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::registry::AnyGame::TicTacToe($g) => $body,
            $crate::registry::AnyGame::Connect4($g) => $body,
            $crate::registry::AnyGame::DotsAndBoxes($g) => $body,
            $crate::registry::AnyGame::Reversi($g) => $body,
            $crate::registry::AnyGame::Virus($g) => $body,
            $crate::registry::AnyGame::Breakthrough($g) => $body,
            $crate::registry::AnyGame::Pig($g) => $body,
            $crate::registry::AnyGame::Kuhn($g) => $body,
            $crate::registry::AnyGame::Goofspiel($g) => $body,
            $crate::registry::AnyGame::Gdl($g) => $body,
            $crate::registry::AnyGame::GdlHidden($g) => $body,
        }
    };
}

/// Like [`with_game!`] but only for the perfect-information board games
/// (those whose states are [`Searchable`](crate::game::Searchable)), over a
/// `&AnyGame`; for the rest, `$other` is evaluated, or with `else o => ...`
/// evaluated with `o` bound to the game as a [`NonBoard`], so that a front
/// end handles each of them by name with no wildcard:
/// `with_board_game!(any, g => board(g), else o => match o { NonBoard::Pig(p) => ..., ... })`.
#[macro_export]
macro_rules! with_board_game {
    ($any:expr, $g:ident => $body:expr, else $o:ident => $other:expr) => {
        match $any {
            $crate::registry::AnyGame::TicTacToe($g) => $body,
            $crate::registry::AnyGame::Connect4($g) => $body,
            $crate::registry::AnyGame::DotsAndBoxes($g) => $body,
            $crate::registry::AnyGame::Reversi($g) => $body,
            $crate::registry::AnyGame::Virus($g) => $body,
            $crate::registry::AnyGame::Breakthrough($g) => $body,
            $crate::registry::AnyGame::Gdl($g) => $body,
            // Named, not a wildcard: a game added to `AnyGame` must be
            // placed on one side or the other here, or nothing compiles.
            $crate::registry::AnyGame::Pig(x) => {
                let $o = $crate::registry::NonBoard::Pig(x);
                $other
            }
            $crate::registry::AnyGame::Kuhn(x) => {
                let $o = $crate::registry::NonBoard::Kuhn(x);
                $other
            }
            $crate::registry::AnyGame::Goofspiel(x) => {
                let $o = $crate::registry::NonBoard::Goofspiel(x);
                $other
            }
            $crate::registry::AnyGame::GdlHidden(x) => {
                let $o = $crate::registry::NonBoard::GdlHidden(x);
                $other
            }
        }
    };
    ($any:expr, $g:ident => $body:expr, $other:expr) => {
        $crate::with_board_game!($any, $g => $body, else _game => $other)
    };
}

/// A registered game that is not a perfect-information board game, as
/// [`with_board_game!`]'s `else` arm hands it over.
#[derive(Debug)]
pub enum NonBoard<'a> {
    /// Pig.
    Pig(&'a Pig),
    /// Kuhn poker.
    Kuhn(&'a KuhnPoker),
    /// Goofspiel.
    Goofspiel(&'a Goofspiel),
    /// A GDL-II sheet with `sees`.
    GdlHidden(&'a GdlHidden),
}

impl AnyGame {
    /// The canonical spec of the game inside.
    pub fn spec(&self) -> String {
        with_game!(self, g => g.spec())
    }
}

/// The Reversi engine's benchmark (`wopr bench --engine NET`, see
/// [`crate::games::reversi::engine::bench`]) on the game `spec`, which
/// must be Reversi: the report's lines, or one line saying what was wrong.
pub fn engine_bench(
    spec: &str,
    net: &str,
    depth: u32,
    ms: u64,
    cpu_seconds: fn() -> f64,
) -> Result<Vec<String>, SpecError> {
    match AnyGame::parse(spec)? {
        AnyGame::Reversi(g) => {
            crate::games::reversi::engine::bench::report(&g, net, depth, ms, cpu_seconds)
        }
        other => Err(SpecError(format!(
            "the engine benchmark is Reversi's (reversi:6x6, reversi:8x8), not {}",
            other.spec()
        ))),
    }
}

/// One exact solve of [`endgame_bench`]'s solver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndgameSolve {
    /// The position's empty squares.
    pub empties: u32,
    /// The final disc margin for the side to move under perfect play.
    pub margin: i32,
    /// Positions the solver visited.
    pub nodes: u64,
}

/// The solver of Reversi's endgame benchmark (`wopr bench --solve FILE`)
/// on the game `spec`, which must be Reversi: a function from a position's
/// text (an FFO `.obf` line's board and colour, see
/// [`crate::games::reversi::text`]) to its exact solve, with no limit on
/// empty squares, keeping its table from one position to the next.
#[allow(clippy::type_complexity)]
pub fn endgame_bench(
    spec: &str,
) -> Result<Box<dyn FnMut(&str) -> Result<EndgameSolve, String>>, SpecError> {
    use crate::game::State;
    use crate::games::reversi::{solver::ReversiSolver, text::position};
    match AnyGame::parse(spec)? {
        AnyGame::Reversi(g) => {
            let n = g.size();
            let mut solver = ReversiSolver::new(n, 64);
            Ok(Box::new(move |text| {
                let state = position(n, text).map_err(|e| e.0)?;
                if state.is_terminal() {
                    return Err("the position is finished".into());
                }
                let margin = solver.exact_margin(&state).map_err(|e| e.to_string())?;
                Ok(EndgameSolve {
                    empties: state.empties(),
                    margin,
                    nodes: solver.nodes(),
                })
            }))
        }
        other => Err(SpecError(format!(
            "--solve times the reversi endgame solver (reversi:4x4 to reversi:8x8), not {}",
            other.spec()
        ))),
    }
}

#[cfg(test)]
mod tests;
