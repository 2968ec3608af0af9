//! GTP lines read as bytes, each at most [`MAX_LINE`] bytes long: what
//! both sides of GTP read (wopr as an engine reads its controller's
//! commands, the `gtp:` player its engine's answers), so that no input,
//! however long, unterminated or not UTF-8, costs more than a bounded
//! buffer.

use std::io::{self, BufRead};

/// The longest line kept, in bytes: a GTP command or answer line is a few
/// dozen bytes; a longer line is read to its end and reported, not kept.
pub const MAX_LINE: usize = 1 << 16;

/// What [`read_line`] read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineRead {
    /// A line, in the buffer without its `\n`.
    Line,
    /// A line longer than the bound: read to its end, its first bytes in
    /// the buffer.
    TooLong,
    /// The end of the input: nothing was read.
    End,
}

/// Reads one line of `reader` into `buf` (cleared first, without the
/// `\n`), keeping at most `max` bytes of it; a last line without `\n` is a
/// line. Interrupted reads are retried.
pub fn read_line(reader: &mut impl BufRead, buf: &mut Vec<u8>, max: usize) -> io::Result<LineRead> {
    read_bounded(reader, buf, max, false)
}

/// [`read_line`], but a line longer than `max` is reported as soon as its
/// first `max + 1` bytes are read, the rest left unread: what a reader
/// that gives up on its writer after such a line wants (an engine that
/// writes endlessly without a newline is caught at once).
pub fn read_line_or_cut(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<LineRead> {
    read_bounded(reader, buf, max, true)
}

fn read_bounded(
    reader: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
    cut: bool,
) -> io::Result<LineRead> {
    buf.clear();
    let mut too_long = false;
    let mut any = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(match (any, too_long) {
                (false, _) => LineRead::End,
                (true, true) => LineRead::TooLong,
                (true, false) => LineRead::Line,
            });
        }
        any = true;
        let newline = chunk.iter().position(|&b| b == b'\n');
        let take = newline.unwrap_or(chunk.len());
        let room = max.saturating_sub(buf.len());
        if cut && take > room {
            buf.extend_from_slice(&chunk[..room]);
            reader.consume(room);
            return Ok(LineRead::TooLong);
        }
        too_long |= take > room;
        buf.extend_from_slice(&chunk[..take.min(room)]);
        reader.consume(take + usize::from(newline.is_some()));
        if newline.is_some() {
            return Ok(if too_long {
                LineRead::TooLong
            } else {
                LineRead::Line
            });
        }
    }
}

/// `text` as one short line for a message: at most 60 characters, control
/// characters escaped, `…` where it was cut.
pub fn shown(text: &str) -> String {
    let mut out: String = text.chars().take(60).flat_map(char::escape_debug).collect();
    if text.chars().nth(60).is_some() {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> Vec<(LineRead, Vec<u8>)> {
        let mut reader = io::BufReader::with_capacity(4, input);
        let mut buf = Vec::new();
        let mut out = Vec::new();
        loop {
            let r = read_line(&mut reader, &mut buf, max).unwrap();
            if r == LineRead::End {
                return out;
            }
            out.push((r, buf.clone()));
        }
    }

    #[test]
    fn lines_are_split_bounded_and_kept_as_bytes() {
        let got = all(b"ab\n\xff\xfe\n0123456789\nlast", 8);
        assert_eq!(
            got,
            [
                (LineRead::Line, b"ab".to_vec()),
                (LineRead::Line, b"\xff\xfe".to_vec()),
                (LineRead::TooLong, b"01234567".to_vec()),
                (LineRead::Line, b"last".to_vec()),
            ]
        );
        assert_eq!(all(b"", 8), []);
        assert_eq!(all(b"\n", 8), [(LineRead::Line, Vec::new())]);
    }

    #[test]
    fn a_cut_line_is_reported_before_its_end() {
        // An endless line: `read_line_or_cut` stops after `max + 1` bytes.
        let mut endless = io::BufReader::with_capacity(4, io::repeat(b'x'));
        let mut buf = Vec::new();
        let r = read_line_or_cut(&mut endless, &mut buf, 8).unwrap();
        assert_eq!((r, buf.as_slice()), (LineRead::TooLong, &b"xxxxxxxx"[..]));
        let mut reader = io::BufReader::with_capacity(4, &b"0123456789\nab\n"[..]);
        assert_eq!(
            read_line_or_cut(&mut reader, &mut buf, 8).unwrap(),
            LineRead::TooLong
        );
        // The rest of the cut line is read as a line of its own.
        assert_eq!(
            read_line_or_cut(&mut reader, &mut buf, 8).unwrap(),
            LineRead::Line
        );
        assert_eq!(buf, b"89");
        assert_eq!(
            read_line_or_cut(&mut reader, &mut buf, 8).unwrap(),
            LineRead::Line
        );
        assert_eq!(buf, b"ab");
    }

    #[test]
    fn shown_text_is_one_short_line() {
        assert_eq!(shown("a\nb"), "a\\nb");
        assert_eq!(shown(&"x".repeat(61)), format!("{}…", "x".repeat(60)));
    }
}
