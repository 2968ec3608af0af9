//! `wopr bench --solve FILE`: the Reversi endgame solver's speed on a file
//! of positions written as the FFO endgame suite's `.obf` lines (the board,
//! the colour to move, then `; MOVE:SCORE;` scores of which the first is
//! the best), one solve each on one thread: the exact margin, checked
//! against the file's first score where it gives one, the positions
//! visited, the seconds, and positions a second. This is what Edax's
//! `-solve FILE -n 1` prints, so the two can be set side by side
//! (`docs/results/engines.md`).

use std::path::Path;
use std::time::Instant;

use crate::ExitError;

/// One line of an `.obf` file: the position's text and the file's score
/// for its best move, if it gives one.
#[derive(Debug, PartialEq)]
struct Problem {
    text: String,
    expected: Option<i32>,
}

/// Reads the problems of an `.obf` file: blank lines and lines starting
/// with `%` or `#` are skipped; a score is the number after the first
/// `:` following the first `;`.
fn read_problems(path: &Path) -> anyhow::Result<Vec<Problem>> {
    let text = std::fs::read_to_string(path).map_err(|e| ExitError {
        code: 2,
        message: format!("--solve: cannot read {}: {e}", path.display()),
    })?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('%') || line.starts_with('#') {
            continue;
        }
        let (board, rest) = line.split_once(';').unwrap_or((line, ""));
        let expected = match rest.split(';').next().and_then(|s| s.split_once(':')) {
            Some((_, score)) => Some(score.trim().parse::<i32>().map_err(|_| ExitError {
                code: 2,
                message: format!(
                    "--solve: {} line {}: score '{}' is not a whole number; a line is BOARD COLOUR; MOVE:SCORE; …",
                    path.display(),
                    i + 1,
                    score.trim()
                ),
            })?),
            None => None,
        };
        out.push(Problem {
            text: board.trim().to_string(),
            expected,
        });
    }
    anyhow::ensure!(
        !out.is_empty(),
        "--solve: {} holds no positions",
        path.display()
    );
    Ok(out)
}

/// Solves each position of `path` on `game` (a `reversi:NxN` spec) with
/// the library's [`endgame_bench`](wopr::registry::endgame_bench) and
/// prints a table, or one JSON object a position with `json`. Fails when
/// a margin differs from the file's score.
pub fn run(game: &str, path: &Path, json: bool) -> anyhow::Result<()> {
    let mut solve = wopr::registry::endgame_bench(game)?;
    let problems = read_problems(path)?;
    if !json {
        println!(
            "{:>3} {:>7} {:>6} {:>8} {:>14} {:>9} {:>12}",
            "#", "empties", "margin", "expected", "nodes", "seconds", "nodes/s"
        );
    }
    let (mut nodes, mut secs) = (0u64, 0f64);
    let mut wrong = Vec::new();
    for (i, p) in problems.iter().enumerate() {
        let t = Instant::now();
        let r = solve(&p.text).map_err(|e| ExitError {
            code: 2,
            message: format!("--solve: {} position {}: {e}", path.display(), i + 1),
        })?;
        let s = t.elapsed().as_secs_f64();
        nodes += r.nodes;
        secs += s;
        if p.expected.is_some_and(|e| e != r.margin) {
            wrong.push(i + 1);
        }
        if json {
            println!(
                "{}",
                serde_json::json!({"position": i + 1, "empties": r.empties, "margin": r.margin, "expected": p.expected, "nodes": r.nodes, "seconds": s, "nodes_per_s": r.nodes as f64 / s})
            );
        } else {
            let expected = p.expected.map_or("-".into(), |e| format!("{e:+}"));
            println!(
                "{:>3} {:>7} {:>+6} {:>8} {:>14} {:>9.3} {:>12.0}",
                i + 1,
                r.empties,
                r.margin,
                expected,
                r.nodes,
                s,
                r.nodes as f64 / s
            );
        }
    }
    if json {
        println!(
            "{}",
            serde_json::json!({"total": true, "positions": problems.len(), "nodes": nodes, "seconds": secs, "nodes_per_s": nodes as f64 / secs})
        );
    } else {
        println!(
            "all {:>39} {:>9.3} {:>12.0}",
            nodes,
            secs,
            nodes as f64 / secs
        );
    }
    anyhow::ensure!(
        wrong.is_empty(),
        "the solver's margin differs from the file's score at position(s) {wrong:?}"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn obf_lines_give_the_board_and_the_best_score() {
        let dir = std::env::temp_dir().join(format!("wopr-obf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("p.obf");
        // FFO #40's board, with its best move's score from the suite (+38),
        // and a line with no scores.
        let ffo40 = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X";
        std::fs::write(
            &file,
            format!("% comment\n{ffo40}; A2:+38; C7:+36;\n\n{ffo40}\n"),
        )
        .unwrap();
        let got = read_problems(&file).unwrap();
        assert_eq!(
            got,
            vec![
                Problem {
                    text: ffo40.into(),
                    expected: Some(38)
                },
                Problem {
                    text: ffo40.into(),
                    expected: None
                }
            ]
        );
        std::fs::write(&file, format!("{ffo40}; A2:+3x8;\n")).unwrap();
        let e = read_problems(&file).unwrap_err().to_string();
        assert!(e.contains("'+3x8' is not a whole number"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
