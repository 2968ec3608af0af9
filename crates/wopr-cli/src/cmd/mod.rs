//! One module per subcommand.

pub mod average;
pub mod bench;
pub mod bench_alphazero;
pub mod bench_rounds;
pub mod bench_solve;
pub mod cpu_time;
pub mod dataset;
pub mod eval;
pub mod evolve;
pub mod games;
pub mod gdl;
pub mod gdl_suite;
pub mod ggp;
pub mod grid;
pub mod gtp;
pub mod learn;
pub mod music;
pub mod optimal;
pub mod perft;
pub mod play;
pub mod plot;
pub mod position;
pub mod pretrain;
pub mod report;
pub mod run;
pub mod solve;
mod summary;
pub mod td;
pub mod tournament;
pub mod train;

use anyhow::Context;
use wopr::AnyGame;

/// Writes a shortcut's config (`--print-config`) as TOML to stdout.
pub fn print_config<T: serde::Serialize>(config: &T) -> anyhow::Result<()> {
    print!("{}", toml::to_string_pretty(config)?);
    Ok(())
}

/// Parses a game spec, with the accepted games in the error.
pub fn parse_game(spec: &str) -> anyhow::Result<AnyGame> {
    AnyGame::parse(spec).with_context(|| format!("bad game spec '{spec}'"))
}

/// Parses the game of a match (`play`, `eval`, `tournament`): one with two
/// seats. (`perft`, `position`, `bench` and `gdl check` take any game.)
pub fn parse_match_game(spec: &str) -> anyhow::Result<AnyGame> {
    let game = parse_game(spec)?;
    let seats = wopr::with_game!(&game, g => wopr::Game::num_players(g));
    if seats != 2 {
        anyhow::bail!(
            "'{spec}' has {seats} seat{}; matches are between two players (perft, position and bench take any game)",
            if seats == 1 { "" } else { "s" }
        );
    }
    Ok(game)
}

/// Where measured games start: shared by `play`, `eval` and `tournament`.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct OpeningArgs {
    /// Start each pair of games (seats swapped within the pair) from an
    /// opening: `plies=K` (K random legal plies, drawn from the seed) or a
    /// file of move lists in notation, one opening per line.
    #[arg(long)]
    pub openings: Option<String>,
    /// Start every game from this position (moves in notation, e.g. "a1 b2").
    #[arg(long, conflicts_with = "openings")]
    pub start: Option<String>,
}

impl OpeningArgs {
    /// The openings these options ask for, checked against `game`.
    pub fn resolve<G: wopr::Game>(
        &self,
        game: &G,
    ) -> anyhow::Result<wopr::eval::openings::Openings> {
        use wopr::eval::openings::Openings;
        match (&self.openings, &self.start) {
            (Some(spec), _) => {
                Openings::parse(game, spec).map_err(|e| anyhow::anyhow!("bad --openings: {e}"))
            }
            (None, Some(moves)) => {
                Openings::start(game, moves).map_err(|e| anyhow::anyhow!("bad --start: {e}"))
            }
            (None, None) => Ok(Openings::None),
        }
    }
}

/// Prints on stderr, one line each, who forfeited which game and why (an
/// outside engine out of time, playing an illegal move, crashing), the
/// tries replayed first: a forfeited game counts as a loss for the player
/// that forfeited it.
pub fn report_forfeits(records: &[wopr::game::GameRecord]) {
    for (i, r) in records.iter().enumerate() {
        for f in &r.replayed {
            eprintln!(
                "game {} (replayed): {} forfeits ({}): {}",
                i + 1,
                r.players[f.seat],
                f.kind,
                f.message
            );
        }
        if let Some(f) = &r.forfeit {
            eprintln!(
                "game {}: {} forfeits ({}): {}",
                i + 1,
                r.players[f.seat],
                f.kind,
                f.message
            );
        }
    }
}

/// What a match does with a forfeited game (`--forfeits`).
#[derive(clap::Args, Debug, Clone)]
pub struct ForfeitArgs {
    /// What to do with a game a player forfeits (an outside engine out of
    /// time, playing an illegal move or crashing): `count` it as a loss for
    /// that player, shown apart as a forfeit; `replay` it from the same
    /// opening and seed, up to 3 times (the last try counts); `stop` the
    /// match at the first one with an error.
    #[arg(long, default_value = "count", value_parser = parse_on_forfeit)]
    pub forfeits: wopr::eval::matches::OnForfeit,
}

fn parse_on_forfeit(text: &str) -> Result<wopr::eval::matches::OnForfeit, String> {
    text.parse()
}

/// The spec `spec` is played as, every setting named: for a `net:`
/// player its built player's `spec()` (the net file's own `player` line
/// resolved), for any other the canonical text of its typed spec (which
/// keeps what a built player's `spec()` may leave out, such as
/// `perfect`'s book). The player is built, so an error (one line, naming
/// `what`: `--player`, `--against 'X'`) comes before any game.
pub fn resolve<G: wopr::Roster>(game: &G, spec: &str, what: &str) -> anyhow::Result<String> {
    Ok(read(game, spec, what)?.1)
}

/// `spec` read once into its typed form, which travels down to the match,
/// and the spec it is played as ([`resolve`]).
pub fn read<G: wopr::Roster>(
    game: &G,
    spec: &str,
    what: &str,
) -> anyhow::Result<(wopr::players::PlayerSpec, String)> {
    let bad = |e: wopr::game::SpecError| anyhow::anyhow!("bad {what}: {e}");
    let typed = wopr::players::PlayerSpec::parse(game, spec).map_err(bad)?;
    let played = wopr::players::resolve_spec(game, &typed).map_err(bad)?;
    Ok((typed, played))
}

/// Prints `ROLE RESOLVED`, with `(given as SPEC)` where the spec given
/// differs from the spec played.
pub fn print_resolved(role: &str, given: &str, resolved: &str) {
    if given.trim() == resolved {
        println!("{role:<10} {resolved}");
    } else {
        println!("{role:<10} {resolved}  (given as {})", given.trim());
    }
}
