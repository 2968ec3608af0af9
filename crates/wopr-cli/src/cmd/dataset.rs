//! `wopr dataset`: record positions reached in play with an oracle's
//! judgement, as a CSV training set plus a JSON description beside it
//! (`FILE.csv.json`). The work is [`wopr::train::oracle::generate`]; this
//! module parses, shows progress and writes the files.

use std::path::PathBuf;

use anyhow::Context;
use indicatif::{ProgressBar, ProgressStyle};
use wopr::game::oracle::Oracle;
use wopr::train::oracle::{generate, DatasetInfo, DatasetOptions, OracleGame};
use wopr::with_board_game;

/// Arguments of `wopr dataset`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Game spec (a board game: tictactoe, connect4, dots-and-boxes, reversi,
    /// virus).
    #[arg(long)]
    game: String,
    /// The oracle: `perfect[:moves=best|value]` (games with a solver),
    /// `level1[:quiet=keep|drop]` (dots-and-boxes),
    /// `alphabeta:depth=D[,scale=S]` (any board game), `ai:K[,scale=S]`
    /// (virus), `strategy` (tictactoe: every board a perfect strategy's
    /// player judges, the thesis's §4.5 set; no play, so no --positions).
    #[arg(long)]
    oracle: String,
    /// Number of positions (rows) to record (every oracle but `strategy`).
    #[arg(long)]
    positions: Option<usize>,
    /// Seed of the games and of the oracle's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Input encoding (default: the game's first, `raw`).
    #[arg(long)]
    encoding: Option<String>,
    /// Player whose games are recorded; once for both seats, twice for the
    /// first against the second (seats swapped every other game). Default:
    /// `random` against `random`.
    #[arg(long = "play")]
    play: Vec<String>,
    /// Leave out positions whose inputs repeat an earlier row's.
    #[arg(long)]
    unique: bool,
    /// Record only the positions where this player is to move: 1 = the
    /// first `--play`, 2 = the second (Weaver records only the level-1
    /// player's moves). Default: both.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    only_player: Option<u8>,
    /// The CSV file to write (the description goes to FILE.json beside it).
    #[arg(long)]
    out: PathBuf,
}

/// Makes the dataset and writes the CSV and its description.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let game = super::parse_game(&args.game)?;
    let oracle = Oracle::parse(&args.oracle).context("bad --oracle")?;
    with_board_game!(&game, g => make(g, &oracle, args),
        anyhow::bail!("datasets need a board game (tictactoe, connect4, dots-and-boxes, reversi, virus), not {}", game.spec()))
}

fn make<G: OracleGame>(game: &G, oracle: &Oracle, args: &Args) -> anyhow::Result<()> {
    let positions = match (oracle, args.positions) {
        (Oracle::Strategy, None) => 0,
        (Oracle::Strategy, Some(_)) => anyhow::bail!(
            "--positions does not apply to --oracle strategy (it lists every board of the strategy)"
        ),
        (_, None) => anyhow::bail!("--positions is needed: the number of positions to record"),
        (_, Some(0)) => anyhow::bail!("--positions must be at least 1"),
        (_, Some(n)) => n,
    };
    if *oracle == Oracle::Strategy && (!args.play.is_empty() || args.only_player.is_some()) {
        anyhow::bail!(
            "--play and --only-player do not apply to --oracle strategy (no games are played)"
        );
    }
    let options = DatasetOptions {
        positions,
        seed: args.seed,
        encoding: args.encoding.clone(),
        players: args.play.clone(),
        unique: args.unique,
        only_player: args.only_player.map(|p| usize::from(p) - 1),
    };
    let bar = ProgressBar::new(positions as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} positions, ETA {eta}")
            .expect("a valid template"),
    );
    let made = generate(game, oracle, &options, &|n| bar.set_position(n as u64));
    bar.finish_and_clear();
    let made = made?;
    made.data
        .write_csv(&args.out)
        .map_err(|e| anyhow::anyhow!(e))?;
    let sidecar = DatasetInfo::sidecar_path(&args.out);
    made.info.save(&sidecar).map_err(|e| anyhow::anyhow!(e))?;
    let info = &made.info;
    if info.games == 0 {
        println!(
            "listed {} boards of {}, oracle {} ({}), encoding {}: {} inputs, {} target",
            info.positions,
            info.game,
            info.oracle,
            info.kind,
            info.encoding,
            made.data.num_inputs(),
            made.data.num_outputs()
        );
        println!("wrote {} and {}", args.out.display(), sidecar.display());
        return Ok(());
    }
    println!(
        "recorded {} positions of {} from {} games ({} vs {}), oracle {} ({}), encoding {}: {} inputs, {} targets{}",
        info.positions,
        info.game,
        info.games,
        info.play[0],
        info.play[1],
        info.oracle,
        info.kind,
        info.encoding,
        made.data.num_inputs(),
        made.data.num_outputs(),
        if made.data.masks().is_some() {
            " (masked)"
        } else {
            ""
        }
    );
    if made.exhausted {
        println!(
            "play stopped finding new positions before {} (fewer distinct positions exist, or the oracle leaves them out)",
            positions
        );
    }
    println!("wrote {} and {}", args.out.display(), sidecar.display());
    Ok(())
}
