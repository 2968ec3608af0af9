//! `wopr eval`: measure a player against opponents, or exhaustively.
//!
//! Against each opponent, N games are played, half with the player moving
//! first, in parallel; game `i` against opponent `j` draws its randomness from
//! the stream (seed, j, i), so the numbers do not depend on the thread count.
//!
//! Before the results, each player is printed as it is played: the spec its
//! built player gives back ([`super::resolve`]), where a net file's own `player`
//! line is resolved (`net:FILE` that searches 4 plies prints
//! `net:FILE,mode=alphabeta,ply=4`); `--json` rows carry it as
//! `player_resolved` and `opponent_resolved`.

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use wopr::eval::matches::{play_games, play_match_seated, Seating};
use wopr::eval::{exhaustive_limited, match_stats, MatchStats};
use wopr::eval::{Pentanomial, Sprt, SprtStatus};
use wopr::game::driver::seats_swapped;
use wopr::game::rng::stream;
use wopr::players::PlayerSpec;
use wopr::{with_board_game, with_game, Roster};

/// Arguments of `wopr eval`.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    /// Game spec.
    #[arg(long)]
    game: String,
    /// The player to measure.
    #[arg(long)]
    player: String,
    /// Opponents, separated by commas (`random,alphabeta:depth=2,ms=50`: an
    /// argument `key=value` belongs to the spec before it); may be repeated.
    #[arg(long)]
    against: Vec<String>,
    /// Games per opponent (half from each seat).
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Seed of the run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play against every possible line of the opponent instead (small
    /// games only: the thesis's loss count for Tic-Tac-Toe).
    #[arg(long, conflicts_with = "against")]
    exhaustive: bool,
    /// Print JSON (one object per opponent).
    #[arg(long)]
    json: bool,
    /// Openings.
    #[command(flatten)]
    openings: super::OpeningArgs,
    /// Play until a sequential probability ratio test decides between
    /// H0: elo = elo0 and H1: elo = elo1 (logistic Elo of the player over
    /// the one opponent), e.g. `elo0=0,elo1=20,alpha=0.05,beta=0.05`;
    /// `--games` is then the most games played. Pairs of games (seats
    /// swapped) are scored as pentanomial results.
    #[arg(long, conflicts_with = "exhaustive")]
    sprt: Option<String>,
    /// Instead of games: the player's move on N positions from random play
    /// (random vs random from `--seed`, each distinct position once, the
    /// start included), each solved exactly; reports how often the move
    /// is one of the solver's best (exact score: the fastest win, the best
    /// margin) and how often it keeps the win/draw/loss value (games with
    /// a solver only).
    #[arg(long, value_name = "N", conflicts_with_all = ["against", "exhaustive", "sprt"])]
    optimal_moves: Option<usize>,
    /// Also play this player (e.g. `perfect`) against each opponent through
    /// the same openings and seeds, and print its results beside the
    /// player's: the ceiling the opponents leave (a perfect player still
    /// loses some openings, and scores below 100% against a good one).
    /// With `--reference`, each game of the player is also compared with
    /// the reference's game of the same index (same opening, seat, seed and
    /// opponent), and the games where the player scored at least as much are
    /// counted: against `perfect` with `--reference perfect`, the games in
    /// which the player reached the opening's game-theoretic result.
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["exhaustive", "sprt"])]
    reference: Option<String>,
    /// Which seat the player takes: `both` (half the games each, seats
    /// swapped within each pair of games that share an opening), `first` or
    /// `second` (every game; game i starts from opening i).
    #[arg(long, default_value = "both", conflicts_with_all = ["exhaustive", "sprt"])]
    seat: String,
    /// Forfeits.
    #[command(flatten)]
    forfeits: super::ForfeitArgs,
}

/// Parses `elo0=A,elo1=B[,alpha=X][,beta=Y]`.
fn parse_sprt(text: &str) -> anyhow::Result<Sprt> {
    let accepted = "accepted: elo0=A,elo1=B[,alpha=X][,beta=Y], e.g. elo0=0,elo1=20";
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').ok_or_else(|| {
            anyhow::anyhow!("bad --sprt '{text}': '{part}' is not key=value ({accepted})")
        })?;
        let x: f64 = v.trim().parse().map_err(|_| {
            anyhow::anyhow!("bad --sprt '{text}': {k} = '{v}' is not a number ({accepted})")
        })?;
        match k.trim() {
            "elo0" => elo0 = Some(x),
            "elo1" => elo1 = Some(x),
            "alpha" => alpha = x,
            "beta" => beta = x,
            other => anyhow::bail!("bad --sprt '{text}': unknown key '{other}' ({accepted})"),
        }
    }
    let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
        anyhow::bail!("bad --sprt '{text}': give both elo0 and elo1 ({accepted})");
    };
    Sprt::new(elo0, elo1, alpha, beta).map_err(|e| anyhow::anyhow!("bad --sprt '{text}': {e}"))
}

/// Splits `a,b:k=1,j=2,c` into `["a", "b:k=1,j=2", "c"]`: a part that
/// is `key=value` (no `:` before its `=`; the value may hold one, as in
/// `rollout=net:FILE`) continues the spec before it.
pub fn split_specs(list: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let setting = part
            .split_once('=')
            .is_some_and(|(key, _)| !key.contains(':'));
        match out.last_mut() {
            Some(prev) if setting => {
                prev.push(',');
                prev.push_str(part);
            }
            _ => out.push(part.to_string()),
        }
    }
    out
}

/// Runs the evaluation and prints a table (or JSON).
pub fn run(args: &EvalArgs) -> anyhow::Result<()> {
    let game = super::parse_match_game(&args.game)?;
    if let Some(n) = args.optimal_moves {
        return with_game!(&game, g => super::optimal::run(g, &args.player, n, args.seed, args.json));
    }
    if args.exhaustive {
        return with_board_game!(&game, g => run_exhaustive(g, args),
            anyhow::bail!("--exhaustive needs a deterministic perfect-information game"));
    }
    let opponents: Vec<String> = args.against.iter().flat_map(|a| split_specs(a)).collect();
    if opponents.is_empty() {
        anyhow::bail!("give at least one opponent with --against (or --exhaustive)");
    }
    if args.games == 0 {
        anyhow::bail!("--games must be at least 1");
    }
    if let Some(text) = &args.sprt {
        let sprt = parse_sprt(text)?;
        if opponents.len() != 1 {
            anyhow::bail!("--sprt tests the player against one opponent; give one with --against");
        }
        return with_game!(&game, g => run_sprt(g, args, &opponents[0], &sprt));
    }
    with_game!(&game, g => run_matches(g, args, &opponents))
}

fn run_matches<G: Roster>(game: &G, args: &EvalArgs, opponents: &[String]) -> anyhow::Result<()> {
    // The player, then the reference through the same games' seeds.
    let players: Vec<&String> = std::iter::once(&args.player)
        .chain(args.reference.as_ref())
        .collect();
    // Every spec is read once; its typed form is what the matches build
    // their players from.
    let mut typed = vec![super::read(game, &args.player, "--player")?];
    if let Some(r) = &args.reference {
        typed.push(super::read(game, r, "--reference")?);
    }
    let (players_typed, played): (Vec<PlayerSpec>, Vec<String>) = typed.into_iter().unzip();
    let (opponents_typed, opponents_played): (Vec<PlayerSpec>, Vec<String>) = opponents
        .iter()
        .map(|o| super::read(game, o, &format!("--against '{o}'")))
        .collect::<anyhow::Result<Vec<_>>>()?
        .into_iter()
        .unzip();
    let total = args.games * opponents.len() * players.len();
    let bar = if total >= 20 {
        let b = ProgressBar::new(total as u64);
        b.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games, ETA {eta}")
                .expect("a valid template"),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    let openings = args.openings.resolve(game)?;
    let seating = match args.seat.as_str() {
        "first" => Seating::Fixed(0),
        "second" => Seating::Fixed(1),
        "both" => Seating::Alternate,
        other => anyhow::bail!("bad --seat '{other}' (accepted: both, first, second)"),
    };
    // Rows in opponent order, the reference's after the player's.
    let mut all: Vec<MatchStats> = Vec::new();
    // Beside each row: the player's and the opponent's mean seconds a move.
    let mut times: Vec<[Option<f64>; 2]> = Vec::new();
    // Per opponent, with a reference: games where the player scored at
    // least the reference's return in the same game.
    let mut matched: Vec<(u64, u64)> = Vec::new();
    for (j, (opp, opp_typed)) in opponents.iter().zip(&opponents_typed).enumerate() {
        use rand::Rng;
        let seed = stream(args.seed, &[j as u64]).next_u64();
        let mut returns: Vec<Vec<Option<f64>>> = Vec::new();
        for (&player, player_typed) in players.iter().zip(&players_typed) {
            let records = play_match_seated(
                game,
                player_typed,
                opp_typed,
                args.games,
                seed,
                &openings,
                seating,
                args.forfeits.forfeits,
                &|| bar.inc(1),
            )
            .map_err(|e| anyhow::anyhow!(e))?;
            super::report_forfeits(&records);
            returns.push(
                records
                    .iter()
                    .enumerate()
                    .map(|(i, r)| r.returns.as_ref().map(|r| r[seating.player_seat(i)]))
                    .collect(),
            );
            all.push(match_stats(player, opp, &records, |i| {
                seating.player_seat(i)
            }));
            times.push(wopr::eval::seconds_per_move(&records, |i| {
                seating.player_seat(i)
            }));
        }
        if let [mine, reference] = &returns[..] {
            let pairs = mine.iter().zip(reference).filter_map(|(a, b)| a.zip(*b));
            let (n, k) = pairs.fold((0, 0), |(n, k), (a, b)| (n + 1, k + u64::from(a >= b)));
            matched.push((k, n));
        }
    }
    bar.finish_and_clear();
    let names = game.seat_names();
    if args.json {
        for (k, s) in all.iter().enumerate() {
            let mut v = serde_json::to_value(s)?;
            v["player_resolved"] = json!(played[k % players.len()]);
            v["opponent_resolved"] = json!(opponents_played[k / players.len()]);
            if let Some((m, n)) = matched
                .get(k / players.len())
                .filter(|_| k % players.len() == 0)
            {
                v["at_least_reference"] = json!({"games": m, "of": n});
            }
            println!("{v}");
        }
        return Ok(());
    }
    let seats = match seating {
        Seating::Alternate => format!("half as {}", names[0]),
        Seating::Fixed(s) => format!("all as {}", names[s]),
    };
    println!(
        "{} vs each opponent, {} games each ({seats}), seed {}",
        args.player, args.games, args.seed
    );
    super::print_resolved("player", &args.player, &played[0]);
    if let Some(r) = &args.reference {
        super::print_resolved("reference", r, &played[1]);
    }
    for (o, p) in opponents.iter().zip(&opponents_played) {
        super::print_resolved("opponent", o, p);
    }
    if let Some(r) = &args.reference {
        println!("rows marked [{r}]: the reference through the same openings and seeds");
    }
    println!(
        "{:<28} {:>13} {:>13} {:>8} {:>17} {:>8} {:>8} {:>9}",
        "opponent",
        format!("as {} W/D/L", names[0]),
        format!("as {} W/D/L", names[1]),
        "win %",
        "95% CI",
        "margin",
        "distinct",
        "forfeits"
    );
    for (k, s) in all.iter().enumerate() {
        let wdl = |w: &wopr::eval::Wdl| format!("{}/{}/{}", w.wins, w.draws, w.losses);
        let row = if k % players.len() == 0 {
            s.opponent.clone()
        } else {
            format!("  [{}]", players[k % players.len()])
        };
        println!(
            "{:<28} {:>13} {:>13} {:>7.1}% {:>17} {:>8} {:>8} {:>9}",
            row,
            wdl(&s.as_first),
            wdl(&s.as_second),
            100.0 * s.win_rate,
            format!(
                "[{:.1}, {:.1}]",
                100.0 * s.win_rate_ci95.0,
                100.0 * s.win_rate_ci95.1
            ),
            s.mean_margin.map_or("-".into(), |m| format!("{m:+.2}")),
            s.distinct_games,
            format!(
                "{}/{}",
                s.forfeits.player.total(),
                s.forfeits.opponent.total()
            )
        );
    }
    for (k, (s, t)) in all.iter().zip(&times).enumerate() {
        if let [Some(p), Some(o)] = *t {
            println!(
                "time a move vs {}: {} {p:.3} s, opponent {o:.3} s",
                s.opponent,
                players[k % players.len()]
            );
        }
    }
    println!("(distinct: how many of the games differ; two deterministic players from one position replay one game, so measure them with --openings)");
    println!(
        "(forfeits: games the player/the opponent lost by forfeit, counted in W/D/L; --forfeits {})",
        args.forfeits.forfeits
    );
    for (k, s) in all.iter().enumerate() {
        let f = &s.forfeits;
        if f.total() == 0 && f.replayed == 0 {
            continue;
        }
        let who = players[k % players.len()];
        println!(
            "forfeits vs {}: {who} {}; {} {}; {} tries replayed",
            s.opponent,
            f.player.describe(&names),
            s.opponent,
            f.opponent.describe(&names),
            f.replayed
        );
    }
    if let Some(r) = &args.reference {
        for (opp, &(k, n)) in opponents.iter().zip(&matched) {
            let (lo, hi) = wopr::eval::wilson(k, n, 1.96);
            println!(
                "vs {opp}: scored at least as much as [{r}] in the same game in {k} of {n} games ({:.1}% [{:.1}, {:.1}])",
                100.0 * k as f64 / n.max(1) as f64,
                100.0 * lo,
                100.0 * hi
            );
        }
    }
    Ok(())
}

/// The most opponent lines `--exhaustive` walks before giving up.
const EXHAUSTIVE_LIMIT: u64 = 20_000_000;

/// Games per batch of an SPRT: the test looks at the results after each
/// batch (a fixed size, so the decision does not depend on the threads).
const SPRT_BATCH: usize = 64;

fn run_sprt<G: Roster>(
    game: &G,
    args: &EvalArgs,
    opponent: &str,
    sprt: &Sprt,
) -> anyhow::Result<()> {
    let (player_typed, player_played) = super::read(game, &args.player, "--player")?;
    let (opponent_typed, opponent_played) =
        super::read(game, opponent, &format!("--against '{opponent}'"))?;
    let openings = args.openings.resolve(game)?;
    let mine = || player_typed.build(game).map_err(|e| e.to_string());
    let theirs = || opponent_typed.build(game).map_err(|e| e.to_string());
    let bar = ProgressBar::new(args.games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games (at most), {msg}")
            .expect("a valid template"),
    );
    let max = args.games + args.games % 2;
    let mut pairs = Pentanomial::new();
    let mut wdl = wopr::eval::Wdl::default();
    let mut forfeits = wopr::eval::MatchForfeits::default();
    let mut played = 0;
    let mut status = SprtStatus::Continue;
    while played < max && status == SprtStatus::Continue {
        let end = (played + SPRT_BATCH).min(max);
        let records = play_games(
            game,
            &mine,
            &theirs,
            played..end,
            args.seed,
            &openings,
            Seating::Alternate,
            args.forfeits.forfeits,
            &|| bar.inc(1),
        )
        .map_err(|e| anyhow::anyhow!(e))?;
        super::report_forfeits(&records);
        let batch =
            wopr::eval::MatchForfeits::count(&records, |k| usize::from(seats_swapped(played + k)));
        forfeits.merge(&batch);
        // The player's return in each game (seat 1 in odd games).
        let mine_of = |k: usize| {
            let i = played + k;
            records[k]
                .returns
                .as_ref()
                .map_or(0.0, |r| r[usize::from(seats_swapped(i))])
        };
        for k in (0..records.len()).step_by(2) {
            let a = mine_of(k);
            wdl.add(a);
            if k + 1 < records.len() {
                let b = mine_of(k + 1);
                wdl.add(b);
                pairs.add_pair(a, b);
            }
        }
        played = end;
        // The exact multinomial GSPRT: the normal approximation reads 0
        // while every pair so far has the same result (no variance yet).
        let llr = sprt.llr_exact(&pairs);
        status = sprt.status_of(llr);
        bar.set_message(format!(
            "LLR {:.2} [{:.2}, {:.2}]",
            llr,
            sprt.lower(),
            sprt.upper()
        ));
    }
    bar.finish_and_clear();
    let llr = sprt.llr_exact(&pairs);
    let verdict = match status {
        SprtStatus::AcceptH0 => format!("H0 accepted (elo <= {})", sprt.elo0()),
        SprtStatus::AcceptH1 => format!("H1 accepted (elo >= {})", sprt.elo1()),
        SprtStatus::Continue => format!("no decision within {played} games"),
    };
    let diff = wopr::eval::elo_diff(&pairs);
    if args.json {
        println!(
            "{}",
            json!({
                "player": args.player, "opponent": opponent,
                "player_resolved": player_played, "opponent_resolved": opponent_played,
                "elo0": sprt.elo0(), "elo1": sprt.elo1(), "alpha": sprt.alpha(), "beta": sprt.beta(),
                "games": played, "wins": wdl.wins, "draws": wdl.draws, "losses": wdl.losses,
                "pentanomial": pairs.counts, "llr": llr, "lower": sprt.lower(), "upper": sprt.upper(),
                "result": match status { SprtStatus::AcceptH0 => "H0", SprtStatus::AcceptH1 => "H1", SprtStatus::Continue => "none" },
                "elo": diff.as_ref().map(|d| d.elo), "elo_ci95": diff.as_ref().map(|d| d.ci95),
                "forfeits": forfeits,
            })
        );
    } else {
        super::print_resolved("player", &args.player, &player_played);
        super::print_resolved("opponent", opponent, &opponent_played);
        println!(
            "SPRT {} vs {}: elo0={} elo1={} alpha={} beta={}",
            args.player,
            opponent,
            sprt.elo0(),
            sprt.elo1(),
            sprt.alpha(),
            sprt.beta()
        );
        println!(
            "{verdict} after {played} games: W/D/L {}/{}/{}, pairs LL/LD/DD+WL/WD/WW {:?}, LLR {llr:.3} (bounds {:.3}, {:.3})",
            wdl.wins, wdl.draws, wdl.losses, pairs.counts, sprt.lower(), sprt.upper()
        );
        let names = game.seat_names();
        println!(
            "forfeits (counted in W/D/L): {} {}; {opponent} {}; {} tries replayed",
            args.player,
            forfeits.player.describe(&names),
            forfeits.opponent.describe(&names),
            forfeits.replayed
        );
        if let Some(d) = diff {
            println!(
                "Elo difference {:+.1} [{:+.1}, {:+.1}] (95%, from the pairs)",
                d.elo, d.ci95.0, d.ci95.1
            );
        }
    }
    Ok(())
}

fn run_exhaustive<G>(game: &G, args: &EvalArgs) -> anyhow::Result<()>
where
    G: Roster,
    G::State: wopr::State<View = G::State>,
{
    let (typed, played) = super::read(game, &args.player, "--player")?;
    let mut results = Vec::new();
    for seat in 0..2 {
        let mut p = typed
            .build(game)
            .map_err(|e| anyhow::anyhow!("bad --player: {e}"))?;
        let mut rng = stream(args.seed, &[seat as u64]);
        let r = exhaustive_limited(game, p.as_mut(), seat, &mut rng, EXHAUSTIVE_LIMIT).ok_or_else(
            || {
                anyhow::anyhow!(
                    "--exhaustive gave up on {} after {EXHAUSTIVE_LIMIT} opponent lines: it \
                     counts every line of the opponent and is meant for small games such as \
                     tictactoe (255168 games in all)",
                    game.spec()
                )
            },
        )?;
        results.push(r);
    }
    let names = game.seat_names();
    let (a, b) = (results[0], results[1]);
    if args.json {
        println!(
            "{}",
            json!({
                "game": game.spec(), "player": args.player, "player_resolved": played,
                "losses_as_x": a.results.losses, "losses_as_o": b.results.losses,
                "wins_as_x": a.results.wins, "wins_as_o": b.results.wins,
                "draws_as_x": a.results.draws, "draws_as_o": b.results.draws,
                "games_as_x": a.games, "games_as_o": b.games,
            })
        );
    } else {
        super::print_resolved("player", &args.player, &played);
        println!(
            "{} against every line of the opponent in {}:",
            args.player,
            game.spec()
        );
        for (seat, r) in results.iter().enumerate() {
            println!(
                "  as {}: {} games, {} wins, {} draws, {} losses",
                names[seat], r.games, r.results.wins, r.results.draws, r.results.losses
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::split_specs;

    #[test]
    fn opponent_lists_keep_spec_arguments_together() {
        assert_eq!(
            split_specs("random, alphabeta:depth=2,ms=50,first"),
            vec!["random", "alphabeta:depth=2,ms=50", "first"]
        );
        // A value may hold a colon; a new spec's name comes before one.
        assert_eq!(
            split_specs("mcts:sims=9,rollout=net:a.json,select=puct,net:b.json,ply=2"),
            vec![
                "mcts:sims=9,rollout=net:a.json,select=puct",
                "net:b.json,ply=2"
            ]
        );
    }
}
