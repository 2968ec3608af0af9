//! The player registry: which player specs a game accepts, and the parser
//! that builds a player from one.
//!
//! Every game implements [`Roster`] in its own folder: its heuristic
//! opponents (`level1`, `standard`, `ai:K`, …), then the players every board
//! game gets ([`board_parse`] and [`board_build`]: `alphabeta`, `mcts`,
//! `net:`, `perfect`). Games without such players implement it with the
//! defaults (only `random` and `first`). A spec is read in two steps: parsed
//! into a typed [`PlayerSpec`] (nothing opened), then built.

use super::gtp::GtpSpec;
use super::kinds::{kind_name, KINDS};
use super::spec::PlayerSpec;
use super::{alphabeta, gtp, mcts, net, perfect};
use super::{ms_arg, FirstPlayer, RandomPlayer, Roster};
use crate::game::encode::Encodable;
use crate::game::{GameSpec, Player, Searchable, SpecError};

/// Reading and building a spec for one game: [`PlayerSpec::parse`] parses
/// the generic players here and asks the game's [`Roster`] for the rest.
impl PlayerSpec {
    /// Parses `text` as a player of `game`, checking every key and value;
    /// opens no file and builds nothing.
    pub fn parse<G: Roster>(game: &G, text: &str) -> Result<PlayerSpec, SpecError> {
        // A GTP command line keeps its spaces, colons and case: it is read
        // before the `name:key=value` grammar.
        let trimmed = text.trim_start();
        if trimmed
            .get(..4)
            .is_some_and(|k| k.eq_ignore_ascii_case("gtp:"))
        {
            super::gtp::check_game(game)?;
            return Ok(PlayerSpec::Gtp(GtpSpec::parse(&trimmed[4..])?));
        }
        let parsed = GameSpec::parse(text)?;
        match parsed.name.as_str() {
            "random" => {
                parsed.check_keys(&[])?;
                Ok(PlayerSpec::Random)
            }
            "first" => {
                parsed.check_keys(&[])?;
                Ok(PlayerSpec::First)
            }
            _ => game.parse_bot(&parsed)?.ok_or_else(|| {
                SpecError(format!(
                    "unknown player '{}' for {} (accepted: {})",
                    text.trim(),
                    game.spec(),
                    player_names(game).join(", ")
                ))
            }),
        }
    }

    /// Builds the player (this may read a net file or allocate tables).
    pub fn build<G: Roster>(&self, game: &G) -> Result<Box<dyn Player<G>>, SpecError> {
        match self {
            PlayerSpec::Random => Ok(Box::new(RandomPlayer)),
            PlayerSpec::First => Ok(Box::new(FirstPlayer)),
            _ => game.build_bot(self),
        }
    }
}

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

/// Every player spec syntax `game` accepts (without `human`, which the
/// command line adds): the generic kinds it plays ([`KINDS`], each asked of
/// the game), then its own players ([`Roster::bot_names`]), whose syntax
/// for a generic kind (Pig's `mcts`) replaces the kind's row.
pub fn player_names<G: Roster>(game: &G) -> Vec<&'static str> {
    let own = game.bot_names();
    let mut names: Vec<&'static str> = KINDS
        .iter()
        .filter(|k| !own.iter().any(|o| kind_name(o) == k.name))
        .filter(|k| k.plays_in(game))
        .map(|k| k.syntax)
        .collect();
    names.extend_from_slice(own);
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
