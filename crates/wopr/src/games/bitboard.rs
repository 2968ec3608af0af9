//! Small helpers shared by the grid games: square names, bit iteration and
//! selecting the k-th set bit.
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

/// `SELECT_IN_BYTE[b][k]`: the position (0..8) of the `k`-th set bit
/// (0-based, lowest first) of byte `b`; 0 where `b` has fewer set bits.
static SELECT_IN_BYTE: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        let mut i = 0;
        while i < 8 {
            if b >> i & 1 == 1 {
                t[b][k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        b += 1;
    }
    t
};

/// Byte `i` of the result: the set bits of `x` in its bytes `0..=i` (the
/// last byte is `x.count_ones()`). What [`select_bit_with`] needs; a caller
/// that changes `x` one bit at a time can keep it up to date instead (clearing
/// bit `b` subtracts `0x0101_0101_0101_0101 << (b & !7)`).
#[inline]
pub fn byte_prefix_counts(x: u64) -> u64 {
    let mut s = x - (x >> 1 & 0x5555_5555_5555_5555);
    s = (s & 0x3333_3333_3333_3333) + (s >> 2 & 0x3333_3333_3333_3333);
    s = (s + (s >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    // At most 64 per byte, so the multiplication carries nothing between bytes.
    s.wrapping_mul(0x0101_0101_0101_0101)
}

/// The index of the `k`-th set bit of `x` (0-based, lowest first); `k` must
/// be below `x.count_ones()`.
///
/// Random playouts pick "the k-th legal move" from a bitboard of moves with
/// it, instead of listing them. Broadword, without branches or a hardware
/// popcount (the portable x86-64 build has none): see [`select_bit_with`].
#[inline]
pub fn select_bit(x: u64, k: u32) -> u32 {
    select_bit_with(x, byte_prefix_counts(x), k)
}

/// [`select_bit`] given `prefix = byte_prefix_counts(x)`. The byte holding
/// the bit is found by comparing `k` with all eight prefixes at once, then a
/// table gives the bit inside that byte (S. Vigna, "Broadword implementation
/// of rank/select queries", WEA 2008).
#[inline]
pub fn select_bit_with(x: u64, prefix: u64, k: u32) -> u32 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    debug_assert!(k < x.count_ones(), "select_bit: k = {k} of {x:#x}");
    debug_assert_eq!(prefix, byte_prefix_counts(x));
    // A byte's high bit survives the subtraction exactly when that byte's
    // prefix is at most k (both are below 128): those bytes hold no more than
    // k set bits, so their count is the index of the byte holding the bit.
    let at_most_k = (((k as u64 & 0x7F) * ONES) | HIGHS).wrapping_sub(prefix) & HIGHS;
    let byte = ((at_most_k >> 7).wrapping_mul(ONES) >> 56) as u32 & 7;
    let shift = 8 * byte;
    // Set bits below that byte: the previous byte's prefix (0 for byte 0).
    let below = (prefix << 8 >> shift) as u32 & 0xFF;
    let in_byte = (x >> shift) as usize & 0xFF;
    shift + SELECT_IN_BYTE[in_byte][(k.wrapping_sub(below) & 7) as usize] as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_bit_agrees_with_iteration() {
        // Every k of words with few bits, many bits, one byte, bit 63, and a
        // stream of mixed words (SplitMix64, so no generator is needed).
        let mut words = vec![
            1,
            1 << 63,
            u64::MAX,
            0xFF00,
            0x8000_0000_0000_0001,
            0x00F0_0000_0F00_000F,
        ];
        let mut z = 0u64;
        for _ in 0..2000 {
            z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let w = crate::game::mix64(z);
            words.push(w);
            words.push(w & crate::game::mix64(w));
            words.push(w & crate::game::mix64(w) & crate::game::mix64(!w));
        }
        for x in words {
            let prefix = byte_prefix_counts(x);
            assert_eq!(prefix >> 56, x.count_ones() as u64);
            for (k, i) in bits(x).enumerate() {
                // Clearing one bit updates the prefixes as documented.
                assert_eq!(
                    byte_prefix_counts(x & !(1 << i)),
                    prefix - (0x0101_0101_0101_0101 << (i & !7))
                );
                assert_eq!(select_bit(x, k as u32), i as u32, "{x:#x}, k = {k}");
            }
        }
    }

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
