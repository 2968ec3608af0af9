//! The player registry: which player specs a game accepts, and the parser
//! that builds a player from one.
//!
//! Every game implements [`Roster`] in its own folder: its heuristic
//! opponents (`level1`, `standard`, `ai:K`, …), then the players every board
//! game gets ([`board_parse`] and [`board_build`]: `alphabeta`, `mcts`,
//! `net:`, `perfect`). Games without such players implement it with the
//! defaults (only `random` and `first`). A spec is read in two steps: parsed
//! into a typed [`PlayerSpec`] (nothing opened), then built.

use super::spec::{BookFiles, PlayerSpec};
use super::{alphabeta, gtp, mcts, net, perfect};
use crate::game::encode::Encodable;
use crate::game::solver::Solver;
use crate::game::{Game, GameSpec, Player, Searchable, SpecError};

/// The players (and the exact solver) a game offers beyond `random` and
/// `first`.
pub trait Roster: Game {
    /// Reads a spec naming one of this game's players into its typed form,
    /// checking every key and value, opening no file and building nothing;
    /// `Ok(None)` when the name is not one of them.
    fn parse_bot(&self, spec: &GameSpec) -> Result<Option<PlayerSpec>, SpecError> {
        let _ = spec;
        Ok(None)
    }

    /// Builds a player from a typed spec [`Roster::parse_bot`] made.
    fn build_bot(&self, spec: &PlayerSpec) -> Result<Box<dyn Player<Self>>, SpecError> {
        Err(SpecError(format!(
            "{} has no player '{spec}' (accepted: {})",
            self.spec(),
            player_names(self).join(", ")
        )))
    }

    /// The spec syntaxes [`Roster::parse_bot`] accepts, for help and errors.
    fn bot_names(&self) -> &'static [&'static str] {
        &[]
    }

    /// The side of the square board whose GTP vertices are this game's
    /// moves (its notation writes squares `a1`…, and `pass` where the game
    /// passes), for the `gtp:` player and `wopr gtp`; `None` (the default)
    /// where moves are not GTP vertices.
    fn gtp_board(&self) -> Option<usize> {
        None
    }

    /// The UCT exploration constant of a plain `mcts` spec for this game
    /// (one that names no `c`): [`mcts::DEFAULT_C`] (√2) unless the game
    /// chose its own by a tournament (`docs/results/mcts.md`).
    fn mcts_c(&self) -> f64 {
        mcts::DEFAULT_C
    }

    /// The position `text` writes, for games that read positions as text
    /// (Reversi: the squares row by row and the colour to move, as
    /// endgame test suites write them); this default reads none.
    fn position(&self, text: &str) -> Result<Self::State, SpecError> {
        let _ = text;
        Err(SpecError(format!(
            "{} reads no position from text (positions as text: reversi); give the moves that reach it",
            self.spec()
        )))
    }

    /// The number of move sequences of `depth` plies from `state`, as this
    /// game counts plies: [`crate::game::perft::perft`] (a ply is one
    /// seat's choice, or one joint choice at a simultaneous turn) unless
    /// the game counts otherwise (GDL sheets: GDL steps,
    /// [`crate::games::gdl::steps`]).
    fn perft(&self, state: &Self::State, depth: u32) -> u64 {
        crate::game::perft::perft(state, depth)
    }

    /// An exact solver for this game's positions, where one exists.
    fn solver(&self) -> Option<Box<dyn Solver<Self>>> {
        None
    }

    /// The exact solver reading a book of solved positions first (`book`:
    /// the file read only, the file grown), where the game keeps books
    /// (Connect-4).
    fn book_solver(&self, book: &BookFiles) -> Result<Box<dyn Solver<Self>>, SpecError> {
        let _ = book;
        Err(SpecError(format!(
            "{} keeps no book of solved positions (books: connect4)",
            self.spec()
        )))
    }
}

/// The player specs every game accepts, for help texts and error messages.
pub const GENERIC_PLAYERS: &[&str] = &["random", "first"];

/// Builds a player for `game` from its spec: [`PlayerSpec::parse`], then
/// [`PlayerSpec::build`].
pub fn parse_player<G: Roster>(game: &G, spec: &str) -> Result<Box<dyn Player<G>>, SpecError> {
    PlayerSpec::parse(game, spec)?.build(game)
}

/// The spec `spec` is played as, every setting named: a `net:` player's
/// built `spec()` (the net file's own player line resolved), any other
/// player's canonical typed spec (which keeps what a built player's
/// `spec()` may leave out, such as `perfect`'s book). The player is built,
/// so a bad spec or file is an error here. What `wopr eval`, `wopr
/// tournament` and the Python package print as `resolved`.
pub fn resolve_player<G: Roster>(game: &G, spec: &str) -> Result<String, SpecError> {
    let typed = PlayerSpec::parse(game, spec)?;
    let built = typed.build(game)?;
    Ok(match typed {
        PlayerSpec::Net(_) => built.spec(),
        _ => typed.to_string(),
    })
}

/// Every player spec syntax `game` accepts (without `human`, which the command
/// line adds).
pub fn player_names<G: Roster>(game: &G) -> Vec<&'static str> {
    let mut names = GENERIC_PLAYERS.to_vec();
    names.extend_from_slice(game.bot_names());
    if game.gtp_board().is_some() {
        names.push(gtp::GTP_PLAYER);
    }
    names
}

/// Reads the players every board game gets: `alphabeta` search, `mcts`
/// (Monte-Carlo tree search), `net:` players, and `perfect` where the game
/// has a solver ([`Roster::solver`]). Board games call this from
/// [`Roster::parse_bot`] after their own names.
pub fn board_parse<G: Roster>(game: &G, spec: &GameSpec) -> Result<Option<PlayerSpec>, SpecError> {
    Ok(Some(match spec.name.as_str() {
        "perfect" => {
            spec.check_keys(&["ms"])?;
            if game.solver().is_none() {
                return Err(SpecError(format!("{} has no exact solver", game.spec())));
            }
            PlayerSpec::Perfect {
                empties: None,
                book: None,
                time: ms_arg(spec)?,
            }
        }
        "alphabeta" => PlayerSpec::AlphaBeta(alphabeta::parse_limits(spec)?),
        "mcts" => {
            let (config, rollout) = mcts::parse_config_for(spec, game.mcts_c())?;
            PlayerSpec::Mcts { config, rollout }
        }
        "net" => PlayerSpec::Net(net::NetSettings::parse(spec)?),
        _ => return Ok(None),
    }))
}

/// Builds the board players [`board_parse`] reads. Board games call this
/// from [`Roster::build_bot`] for every spec that is not their own.
pub fn board_build<G>(game: &G, spec: &PlayerSpec) -> Result<Box<dyn Player<G>>, SpecError>
where
    G: Roster + Encodable,
    G::State: Searchable,
{
    match spec {
        PlayerSpec::Perfect { time, .. } => perfect::perfect_player(game, *time),
        PlayerSpec::AlphaBeta(limits) => {
            Ok(Box::new(alphabeta::AlphaBetaPlayer::<G>::new(*limits)))
        }
        PlayerSpec::Mcts { config, rollout } => mcts::build(game, *config, rollout.as_deref()),
        PlayerSpec::Net(settings) => build_net(game, settings),
        PlayerSpec::Gtp(g) => gtp::build(game, g),
        other => Err(SpecError(format!(
            "{} has no player '{other}' (accepted: {})",
            game.spec(),
            player_names(game).join(", ")
        ))),
    }
}

/// Builds a `net:` player: the net alone in the mode its settings and
/// its file's line give, or, where the file's line names a search around
/// the net ([`net::wrapper_line`]) and the spec names no mode of its own,
/// that search (its time budget the spec's `ms=` where given). The file
/// is read once.
fn build_net<G>(game: &G, settings: &net::NetSettings) -> Result<Box<dyn Player<G>>, SpecError>
where
    G: Roster + Encodable,
    G::State: Searchable,
{
    let file = net::load_checked(game, &settings.path)?;
    if let Some(own) = own_line(game, &file, settings) {
        return game.build_bot(&own);
    }
    match net::wrapper_line(&file).filter(|_| !settings.names_a_mode()) {
        Some(line) => {
            let line = line.to_string();
            mcts::build_wrapper(
                game,
                file,
                &settings.path,
                &line,
                game.mcts_c(),
                settings.time,
            )
        }
        None => Ok(Box::new(net::NetPlayer::from_loaded(game, file, settings)?)),
    }
}

/// Where a net file's `player` line names one of the game's own players
/// that reads a net (`engine:ms=1000` on Reversi) and the spec names no
/// mode of its own: that player over this file (`net=PATH` added, the
/// spec's `ms=` replacing the line's).
fn own_line<G: Roster>(
    game: &G,
    file: &crate::nn::NetFile,
    settings: &net::NetSettings,
) -> Option<PlayerSpec> {
    if settings.names_a_mode() {
        return None;
    }
    let mut spec = GameSpec::parse(file.player.as_deref()?).ok()?;
    spec.args
        .retain(|(k, _)| k != "net" && (settings.time.is_none() || k != "ms"));
    spec.args.push(("net".into(), settings.path.clone()));
    if let Some(t) = settings.time {
        spec.args.push(("ms".into(), t.as_millis().to_string()));
    }
    match game.parse_bot(&spec) {
        Ok(Some(own @ PlayerSpec::Own(_))) => Some(own),
        _ => None,
    }
}

/// The `ms=T` argument of a spec (1..=86,400,000 ms), if given.
pub fn ms_arg(spec: &GameSpec) -> Result<Option<std::time::Duration>, SpecError> {
    match spec.get("ms") {
        None => Ok(None),
        Some(_) => Ok(Some(std::time::Duration::from_millis(
            spec.int("ms", 0, 1, 86_400_000)? as u64,
        ))),
    }
}
