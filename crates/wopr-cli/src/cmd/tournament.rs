//! `wopr tournament`: a round robin (or a gauntlet) among player specs, with
//! a cross table and ratings with 95% intervals fitted to all results at
//! once.
//!
//! Each player is printed first as it is played: the spec its built
//! player gives back (`eval::resolve`: a net file's own `player` line
//! resolved); `--json` carries these as `resolved`, in the order of
//! `players`.

use indicatif::{ProgressBar, ProgressStyle};
use wopr::eval::rating::Ratings;
use wopr::eval::tournament::{play_tournament_on_forfeit, ranked, Format, Ranked, Tournament};
use wopr::{with_game, Roster};

use super::eval::split_specs;
use super::{print_resolved, resolve};

/// Arguments of `wopr tournament`.
#[derive(clap::Args, Debug)]
pub struct TournamentArgs {
    /// Game spec.
    #[arg(long)]
    game: String,
    /// The players, separated by commas (`random,alphabeta:depth=2,ms=50`:
    /// an argument `key=value` belongs to the spec before it); may be
    /// repeated.
    #[arg(long, required = true)]
    players: Vec<String>,
    /// Games per pairing (pairs of games with seats swapped).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Seed of the run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Only this player (a spec from --players) against each of the others.
    #[arg(long)]
    gauntlet: Option<String>,
    /// The player whose rating is fixed (a spec from --players; default the
    /// first).
    #[arg(long)]
    anchor: Option<String>,
    /// The anchor's rating.
    #[arg(long, default_value_t = 0.0)]
    anchor_elo: f64,
    /// Openings.
    #[command(flatten)]
    openings: super::OpeningArgs,
    /// Print JSON.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print the ratings as CSV.
    #[arg(long)]
    csv: bool,
    /// Forfeits.
    #[command(flatten)]
    forfeits: super::ForfeitArgs,
}

/// Plays the tournament and prints the cross table and the ratings.
pub fn run(args: &TournamentArgs) -> anyhow::Result<()> {
    let game = super::parse_match_game(&args.game)?;
    let players: Vec<String> = args.players.iter().flat_map(|p| split_specs(p)).collect();
    if players.len() < 2 {
        anyhow::bail!("give at least two players with --players");
    }
    if args.games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    let index = |what: &str, spec: &str| {
        players
            .iter()
            .position(|p| p == spec.trim())
            .ok_or_else(|| {
                anyhow::anyhow!(
                    "{what} '{spec}' is not one of --players ({})",
                    players.join(", ")
                )
            })
    };
    let format = match &args.gauntlet {
        Some(g) => Format::Gauntlet(index("--gauntlet", g)?),
        None => Format::RoundRobin,
    };
    let anchor = match &args.anchor {
        Some(a) => index("--anchor", a)?,
        None => 0,
    };
    with_game!(&game, g => go(g, args, &players, format, anchor))
}

fn go<G: Roster>(
    game: &G,
    args: &TournamentArgs,
    players: &[String],
    format: Format,
    anchor: usize,
) -> anyhow::Result<()> {
    let resolved = players
        .iter()
        .map(|p| resolve(game, p, &format!("player '{p}'")))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let openings = args.openings.resolve(game)?;
    let n = players.len();
    let pairings = match format {
        Format::RoundRobin => n * (n - 1) / 2,
        Format::Gauntlet(_) => n - 1,
    };
    let bar = ProgressBar::new((pairings * args.games) as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, ETA {eta}")
            .expect("a valid template"),
    );
    let t = play_tournament_on_forfeit(
        game,
        players,
        format,
        args.games,
        args.seed,
        &openings,
        args.forfeits.forfeits,
        &|| bar.inc(1),
    )
    .map_err(|e| anyhow::anyhow!(e))?;
    bar.finish_and_clear();
    let ratings = t
        .ratings(anchor, args.anchor_elo)
        .map_err(|e| anyhow::anyhow!(e))?;
    if args.json {
        let mut v = t.to_json(&game.spec(), &ratings);
        v["resolved"] = serde_json::json!(resolved);
        println!("{v}");
    } else if args.csv {
        println!("rank,player,elo,elo_low,elo_high,games,score,los_next,forfeits");
        for (
            rank,
            Ranked {
                index: i,
                elo,
                ci95: (low, high),
                los_next: los,
            },
        ) in ranked(&ratings).into_iter().enumerate()
        {
            let w = t.total(i);
            println!(
                "{},\"{}\",{:.1},{:.1},{:.1},{},{:.4},{},{}",
                rank + 1,
                t.players[i],
                elo,
                low,
                high,
                w.games(),
                w.score(),
                los.map_or(String::new(), |l| format!("{l:.4}")),
                t.forfeits[i].total()
            );
        }
    } else {
        for (i, (p, r)) in players.iter().zip(&resolved).enumerate() {
            print_resolved(&format!("#{}", i + 1), p, r);
        }
        println!();
        print_text(game, args, &t, &ratings);
    }
    Ok(())
}

fn print_text<G: Roster>(game: &G, args: &TournamentArgs, t: &Tournament, ratings: &Ratings) {
    let names = game.seat_names();
    let game = game.spec();
    let n = t.players.len();
    println!(
        "{game}: {} players, {} games per pairing, {} games ({} distinct), seed {}",
        n, args.games, t.games, t.distinct_games, args.seed
    );
    println!();
    let width = t.players.iter().map(|p| p.len()).max().unwrap_or(6).max(6);
    print!("{:>3} {:<width$}", "", "player");
    for j in 0..n {
        print!(" {:>9}", format!("#{}", j + 1));
    }
    println!("  score");
    for i in 0..n {
        print!("{:>3} {:<width$}", format!("#{}", i + 1), t.players[i]);
        for j in 0..n {
            let w = t.results[i][j];
            if i == j || w.games() == 0 {
                print!(" {:>9}", "-");
            } else {
                print!(" {:>9}", format!("{}-{}-{}", w.wins, w.draws, w.losses));
            }
        }
        println!("  {:5.1}%", 100.0 * t.total(i).score());
    }
    println!();
    println!(
        "{:>4} {:<width$} {:>8} {:>18} {:>6} {:>7} {:>9} {:>8}",
        "rank", "player", "elo", "95% interval", "games", "score", "LOS next", "forfeits"
    );
    for (
        rank,
        Ranked {
            index: i,
            elo,
            ci95: (low, high),
            los_next: los,
        },
    ) in ranked(ratings).into_iter().enumerate()
    {
        let w = t.total(i);
        println!(
            "{:>4} {:<width$} {:>8.1} {:>18} {:>6} {:>6.1}% {:>9} {:>8}",
            rank + 1,
            t.players[i],
            elo,
            format!("[{low:.1}, {high:.1}]"),
            w.games(),
            100.0 * w.score(),
            los.map_or("-".into(), |l| format!("{:.1}%", 100.0 * l)),
            t.forfeits[i].total()
        );
    }
    for (p, f) in t.players.iter().zip(&t.forfeits) {
        if f.total() > 0 {
            println!("forfeits: {p} {}", f.describe(&names));
        }
    }
    println!(
        "(forfeits: games lost by forfeit, counted in W-D-L; --forfeits {}; {} tries replayed)",
        args.forfeits.forfeits, t.replayed
    );
    println!(
        "(W-D-L of the row's player; ratings on the logistic Elo scale, fitted by maximum likelihood to all games, anchored at {} = {:.0}; LOS: likelihood of superiority over the next player)",
        t.players[args.anchor.as_deref().and_then(|a| t.players.iter().position(|p| p == a)).unwrap_or(0)],
        args.anchor_elo
    );
}
