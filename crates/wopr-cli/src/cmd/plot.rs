//! `wopr plot`: draw the first two columns of CSV logs (a loss log, a
//! generations.csv) as lines in one chart, PNG and SVG.

use std::path::PathBuf;

use anyhow::Context;

use crate::plot::{self, Series};

/// Arguments of `wopr plot`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// CSV files with a header; column 1 is x, column `--column` is y.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output path without extension (writes .png and .svg).
    #[arg(long)]
    out: PathBuf,
    /// Which column (1-based) holds y.
    #[arg(long, default_value_t = 2)]
    column: usize,
    /// Chart title.
    #[arg(long, default_value = "")]
    title: String,
    /// Plot log10 of y.
    #[arg(long)]
    log: bool,
}

/// Reads the files and draws them.
pub fn run(args: &Args) -> anyhow::Result<()> {
    if args.column < 2 {
        anyhow::bail!("--column must be 2 or more (column 1 is x)");
    }
    let mut series = Vec::new();
    let mut y_name = String::from("y");
    let mut x_name = String::from("x");
    for path in &args.files {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap_or("").split(',').collect();
        if let Some(h) = header.get(args.column - 1) {
            y_name = h.to_string();
        }
        if let Some(h) = header.first() {
            x_name = h.to_string();
        }
        let mut points = Vec::new();
        for (i, line) in lines.enumerate() {
            let cols: Vec<&str> = line.split(',').collect();
            let parse = |k: usize| -> anyhow::Result<f64> {
                cols.get(k)
                    .and_then(|v| v.trim().parse().ok())
                    .ok_or_else(|| {
                        anyhow::anyhow!(
                            "{} line {}: column {} is not a number",
                            path.display(),
                            i + 2,
                            k + 1
                        )
                    })
            };
            let (x, mut y) = (parse(0)?, parse(args.column - 1)?);
            if args.log {
                y = y.max(1e-12).log10();
            }
            points.push((x, y));
        }
        let name = path
            .file_name()
            .map_or("series".into(), |n| n.to_string_lossy().to_string());
        series.push(Series { name, points });
    }
    let y_label = if args.log {
        format!("log10 {y_name}")
    } else {
        y_name
    };
    plot::lines(&args.out, &args.title, &x_name, &y_label, &series)?;
    println!("wrote {}.png and .svg", args.out.display());
    Ok(())
}
