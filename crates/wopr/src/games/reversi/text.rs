//! A Reversi position written as text, as endgame test files write them
//! (the FFO suite's `.obf` lines): the board's N² squares row by row from
//! a1 (`X`, `x`, `*` or `B` a black disc; `O`, `o` or `W` a white one;
//! `-` or `.` empty), then the colour to move (`X`/`B` or `O`/`W`).
//! Whatever follows a `;` (the file's move scores) is not read.

use super::ReversiState;
use crate::game::SpecError;

/// The position `text` writes on an `n`×`n` board.
pub fn position(n: usize, text: &str) -> Result<ReversiState, SpecError> {
    let bad = |why: String| {
        // The start position as the example: d4 and e5 white, e4 and d5 black.
        let mut start = vec!['-'; n * n];
        let (a, b) = (n / 2 - 1, n / 2);
        start[a * n + a] = 'O';
        start[a * n + b] = 'X';
        start[b * n + a] = 'X';
        start[b * n + b] = 'O';
        SpecError(format!(
            "{why}; a reversi position is {} squares row by row from a1 (X or * black, O white, - or . empty) and the colour to move (X or O), e.g. \"{} X\"",
            n * n,
            start.iter().collect::<String>()
        ))
    };
    let text = text.split(';').next().unwrap_or("");
    let mut fields = text.split_whitespace();
    let board = fields.next().ok_or_else(|| bad("no board".into()))?;
    let side = fields
        .next()
        .ok_or_else(|| bad("no colour to move after the board".into()))?;
    if let Some(extra) = fields.next() {
        return Err(bad(format!("'{extra}' follows the colour to move")));
    }
    let squares: Vec<char> = board.chars().collect();
    if squares.len() != n * n {
        return Err(bad(format!(
            "the board has {} squares, not {}",
            squares.len(),
            n * n
        )));
    }
    let mut discs = [0u64; 2];
    for (s, c) in squares.iter().enumerate() {
        match c {
            'X' | 'x' | '*' | 'B' | 'b' => discs[0] |= 1 << s,
            'O' | 'o' | 'W' | 'w' => discs[1] |= 1 << s,
            '-' | '.' => {}
            other => return Err(bad(format!("square {} is '{other}'", s + 1))),
        }
    }
    let to_move = match side {
        "X" | "x" | "*" | "B" | "b" => 0,
        "O" | "o" | "W" | "w" => 1,
        other => return Err(bad(format!("the colour to move is '{other}'"))),
    };
    ReversiState::from_discs(n, discs, to_move).map_err(bad)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, State};

    #[test]
    fn the_ffo_suites_position_40_reads_with_black_to_move() {
        // FFO #40 (Edax's problem/fforum-40-59.obf, first line): 20 empty
        // squares, Black to move, best move a2 for +38.
        let line =
            "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36;";
        let s = position(8, line).unwrap();
        assert_eq!(s.empties(), 20);
        assert_eq!(s.to_move(), 0);
        // a1 is white, h1 black, a2 empty.
        assert_eq!(s.discs()[1] & 1, 1);
        assert_eq!(s.discs()[0] >> 7 & 1, 1);
        assert_eq!((s.discs()[0] | s.discs()[1]) >> 8 & 1, 0);
        let mut legal = crate::game::ActionList::new();
        s.legal_actions(&mut legal);
        assert!(legal.iter().any(|&a| s.action_to_string(a) == "a2"));
    }

    #[test]
    fn bad_positions_say_what_is_accepted() {
        for (text, want) in [
            ("", "no board"),
            ("XO X", "has 2 squares, not 64"),
            (
                &format!("{} Z", "-".repeat(64)),
                "the colour to move is 'Z'",
            ),
            (&format!("{}? X", "-".repeat(63)), "square 64 is '?'"),
            (&"-".repeat(64), "no colour to move"),
        ] {
            let e = position(8, text).unwrap_err().to_string();
            assert!(e.contains(want) && e.contains("row by row from a1"), "{e}");
        }
        // The example in the message is itself a position: the start.
        let e = position(8, "").unwrap_err().to_string();
        let example = e.split('"').nth(1).unwrap();
        let start = position(8, example).unwrap();
        assert_eq!(
            start.discs(),
            crate::games::reversi::Reversi::new(8)
                .unwrap()
                .initial_state()
                .discs()
        );
    }
}
