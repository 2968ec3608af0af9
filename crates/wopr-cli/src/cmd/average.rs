//! `wopr average`: one net file from the weight-by-weight mean of several
//! (a "model soup" of checkpoints or of runs from one start).

use std::path::PathBuf;

use wopr::nn::{NetFile, Network};
use wopr::players::net::NetPlayer;
use wopr::registry::AnyGame;
use wopr::with_board_game;

/// Arguments of `wopr average`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Net files of one game, encoding and shape (plain or gzip JSON).
    #[arg(required = true)]
    nets: Vec<PathBuf>,
    /// Where to write the mean (gzip-compressed where the name ends in .gz).
    #[arg(long)]
    out: PathBuf,
    /// The default mode the written file records (e.g. `mode=greedy`,
    /// `mode=alphabeta,ply=4`); absent: the first file's.
    #[arg(long)]
    player: Option<String>,
    /// Round every weight to this many significant decimal digits (1-9):
    /// a large table then compresses to a smaller file. Measure the
    /// written net: it is not the mean to the last bit.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=9))]
    significant: Option<u32>,
    /// Set every weight smaller than this in size to zero (with
    /// --significant, before rounding).
    #[arg(long)]
    zero_below: Option<f32>,
}

/// `w` rounded to `digits` significant decimal digits.
fn round_significant(w: f32, digits: u32) -> f32 {
    if w == 0.0 || !w.is_finite() {
        return w;
    }
    format!("{:.*e}", digits as usize - 1, w)
        .parse()
        .unwrap_or(w)
}

/// Reads the nets, averages them and writes the result.
pub fn run(args: &Args) -> anyhow::Result<()> {
    let nets = args
        .nets
        .iter()
        .map(NetFile::load)
        .collect::<Result<Vec<_>, _>>()?;
    let mut mean = NetFile::average(&nets)?;
    if let Some(p) = &args.player {
        mean.player = Some(p.clone());
    }
    if let Some(t) = args.zero_below {
        if !(t.is_finite() && t >= 0.0) {
            anyhow::bail!("--zero-below must be a size of zero or more, got {t}");
        }
        for w in mean.net.params_mut() {
            if w.abs() < t {
                *w = 0.0;
            }
        }
    }
    if let Some(d) = args.significant {
        for w in mean.net.params_mut() {
            *w = round_significant(*w, d);
        }
    }
    // The file must play: its game and default mode are checked by
    // building its player before anything is written (a bad --player
    // leaves whatever --out held).
    if let Some(spec) = &mean.game {
        let game = AnyGame::parse(spec)?;
        let label = args.out.display().to_string();
        let check = with_board_game!(
            &game,
            g => NetPlayer::from_file(g, mean.clone(), &label).map(|_| ()),
            Ok(())
        );
        if let Err(e) = check {
            anyhow::bail!("the averaged net does not load as a player: {e}");
        }
    }
    mean.save(&args.out)?;
    println!(
        "the mean of {} nets ({} weights each) written to {}",
        nets.len(),
        mean.net.num_params(),
        args.out.display()
    );
    Ok(())
}
