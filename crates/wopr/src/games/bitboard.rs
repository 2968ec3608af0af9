//! Small helpers shared by the grid games: square names and bit iteration.
//!
//! Squares are named as in Othello: a letter for the column (`a` = left) and a
//! number for the row (`1` = top), so `a1` is the top-left corner.

/// The name of the square at `col`, `row` (0-based): `(0, 0)` is `a1`.
pub fn square_name(col: usize, row: usize) -> String {
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

/// Parses a square name (case-insensitive) on a `cols`×`rows` board into
/// `(col, row)`, 0-based.
pub fn parse_square(text: &str, cols: usize, rows: usize) -> Option<(usize, usize)> {
    let t = text.trim().to_ascii_lowercase();
    let mut chars = t.chars();
    let c = chars.next()?;
    if !c.is_ascii_lowercase() {
        return None;
    }
    let col = (c as u8 - b'a') as usize;
    let digits = chars.as_str();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row: usize = digits.parse().ok()?;
    (col < cols && (1..=rows).contains(&row)).then(|| (col, row - 1))
}

/// Draws a board with column letters above and row numbers on the left, one
/// character per square from `cell(col, row)`.
pub fn draw_grid(
    f: &mut std::fmt::Formatter<'_>,
    cols: usize,
    rows: usize,
    cell: impl Fn(usize, usize) -> char,
) -> std::fmt::Result {
    write!(f, "  ")?;
    for c in 0..cols {
        write!(f, " {}", (b'a' + c as u8) as char)?;
    }
    writeln!(f)?;
    for r in 0..rows {
        write!(f, "{:>2}", r + 1)?;
        for c in 0..cols {
            write!(f, " {}", cell(c, r))?;
        }
        writeln!(f)?;
    }
    Ok(())
}

/// Iterates over the indices of the set bits of `bits`, lowest first.
#[inline]
pub fn bits(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if bits == 0 {
            None
        } else {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(i)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_round_trip() {
        assert_eq!(square_name(0, 0), "a1");
        assert_eq!(square_name(7, 7), "h8");
        assert_eq!(parse_square("H8", 8, 8), Some((7, 7)));
        assert_eq!(parse_square("c3", 3, 3), Some((2, 2)));
        assert_eq!(parse_square("d1", 3, 3), None);
        assert_eq!(parse_square("a0", 3, 3), None);
        assert_eq!(parse_square("a", 3, 3), None);
        assert_eq!(bits(0b1010_0001).collect::<Vec<_>>(), vec![0, 5, 7]);
    }
}
