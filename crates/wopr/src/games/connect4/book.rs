//! A disk-backed book of solved Connect-4 positions, for the solver.
//!
//! Early 7×6 positions take the solver from seconds to minutes each (the
//! position after one disc about a minute, the empty board far longer), and
//! a `perfect` player meets the same early positions in game after game. A
//! book remembers them: [`Connect4Solver::with_book`](super::solver::Connect4Solver::with_book) looks every
//! position up before searching, and writes down every position whose
//! search visited at least [`RECORD_NODES`] positions, so the book grows as
//! positions are solved and a later game, run or process finds them at once.
//!
//! **Which file grows.** A book reads up to two files and writes at most
//! one, the one named to learn (`perfect:book=FILE,learn=OUT`, `wopr solve
//! --book FILE --learn OUT`):
//!
//! - `book=FILE` is read only: it must exist, and it is never written, so
//!   measuring with a shipped book leaves its bytes as they were. What the
//!   solver adds is kept in memory, for the process.
//! - `learn=OUT` is read where it exists (made where it does not), and every
//!   new long search is appended to it. To grow a book in place, name it
//!   to learn (`perfect:learn=FILE`; `book=FILE,learn=FILE` is the same).
//!
//! **File format** (text, append-only, one position per line after a header
//! naming the board):
//!
//! ```text
//! # wopr connect4 book 7x6
//! 1c3 -18 4
//! ```
//!
//! A line holds the position's key in hexadecimal (`position + mask` in the
//! solver's bitboard layout: the player to move's discs plus the occupied
//! cells, unique per position; of a position and its mirror image the
//! smaller key is the one stored), its exact score for the player to move on
//! the solver's scale ([`super::solver`]), and its optimal columns
//! (1-based digits, for the stored orientation). Lines are only ever
//! appended, each with one write, so an interrupted run loses at most the
//! line it was writing, and a torn last line is ignored when the book is read
//! again (and cut off before the next line is written). A key met twice keeps its first line (the solver is exact: both
//! lines say the same).
//!
//! Within one process, every solver opening the same files shares one book,
//! so parallel games see each other's positions (and a read-only book's
//! additions in memory).

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, Weak};

use crate::game::solver::Solution;
use crate::game::Action;

/// Searches that visit at least this many positions (about a tenth of a
/// second) are written to the book; cheaper ones are not worth a line.
pub const RECORD_NODES: u64 = 2_000_000;

/// One solved position: its exact score for the player to move and its
/// optimal columns as a bit set (bit `c` for column `c`, 0-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The exact score on the solver's scale.
    pub score: i32,
    /// The optimal columns, bit `c` for column `c`.
    pub best: u16,
}

/// A book of solved positions of one board size (see the module docs).
#[derive(Debug)]
pub struct Book {
    /// The file new positions are appended to (`learn=`); `None`: they
    /// are kept in memory only.
    learn: Option<PathBuf>,
    columns: u32,
    rows: u32,
    entries: HashMap<u64, BookEntry>,
    /// The learning file, opened for appending on the first new line.
    file: Option<File>,
}

/// A book shared by the solvers of one process.
pub type SharedBook = Arc<Mutex<Book>>;

/// The files of a book, as absolute paths: the one read only, the one
/// read and grown.
type BookKey = (Option<PathBuf>, Option<PathBuf>);

/// The books this process has open, by their files (kept while some
/// solver holds them).
type OpenBooks = Mutex<Vec<(BookKey, Weak<Mutex<Book>>)>>;

/// The books this process has open.
fn open_books() -> &'static OpenBooks {
    static OPEN: OnceLock<OpenBooks> = OnceLock::new();
    OPEN.get_or_init(Default::default)
}

impl Book {
    /// Opens the book at `path` for a `columns`×`rows` board to read and
    /// grow (`learn=`): read where it exists, created (with its header) on
    /// the first new line where it does not.
    pub fn open(path: &Path, columns: usize, rows: usize) -> Result<SharedBook, String> {
        Book::open_files(None, Some(path), columns, rows)
    }

    /// Opens the book at `path` to read only (`book=`): it must exist; what
    /// the solver adds is kept in memory.
    pub fn open_read_only(path: &Path, columns: usize, rows: usize) -> Result<SharedBook, String> {
        Book::open_files(Some(path), None, columns, rows)
    }

    /// Opens a book of the file `read` (read only; it must exist) and the
    /// file `learn` (read where it exists, and grown), either or both, for
    /// a `columns`×`rows` board; a book of the same files this process
    /// already has open is shared. Errors name the file and what is
    /// wrong: missing (`read`), another board size, a line that is not
    /// `KEY SCORE COLUMNS`.
    pub fn open_files(
        read: Option<&Path>,
        learn: Option<&Path>,
        columns: usize,
        rows: usize,
    ) -> Result<SharedBook, String> {
        let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        let key: BookKey = (read.map(absolute), learn.map(absolute));
        let mut open = open_books().lock().unwrap_or_else(|e| e.into_inner());
        open.retain(|(_, w)| w.strong_count() > 0);
        if let Some(book) = open
            .iter()
            .find(|(k, _)| *k == key)
            .and_then(|(_, w)| w.upgrade())
        {
            let b = book.lock().unwrap_or_else(|e| e.into_inner());
            if (b.columns, b.rows) != (columns as u32, rows as u32) {
                let path = read.or(learn).unwrap_or(Path::new(""));
                return Err(Book::size_error(path, b.columns, b.rows, columns, rows));
            }
            drop(b);
            return Ok(book);
        }
        let mut book = Book {
            learn: learn.map(Path::to_path_buf),
            columns: columns as u32,
            rows: rows as u32,
            entries: HashMap::new(),
            file: None,
        };
        if let Some(path) = read {
            book.load(path, true)?;
        }
        if let Some(path) = learn.filter(|_| key.0 != key.1) {
            book.load(path, false)?;
        }
        let book = Arc::new(Mutex::new(book));
        open.push((key, Arc::downgrade(&book)));
        Ok(book)
    }

    fn size_error(path: &Path, c: u32, r: u32, columns: usize, rows: usize) -> String {
        format!(
            "book {}: it holds {c}x{r} positions, not {columns}x{rows} (one book per board size)",
            path.display()
        )
    }

    /// The header line naming the board.
    fn header(columns: usize, rows: usize) -> String {
        format!("# wopr connect4 book {columns}x{rows}")
    }

    /// Reads the book at `path` to grow it (an empty book where the file
    /// is missing).
    #[cfg(test)]
    fn read(path: &Path, columns: usize, rows: usize) -> Result<Book, String> {
        let mut book = Book {
            learn: Some(path.to_path_buf()),
            columns: columns as u32,
            rows: rows as u32,
            entries: HashMap::new(),
            file: None,
        };
        book.load(path, false)?;
        Ok(book)
    }

    /// Adds the positions of the file at `path` (a key already held keeps
    /// its entry); a missing file is an error where it `must_exist`, and
    /// adds nothing otherwise.
    fn load(&mut self, path: &Path, must_exist: bool) -> Result<(), String> {
        let (columns, rows) = (self.columns as usize, self.rows as usize);
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !must_exist => return Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(format!(
                    "book {}: no such file (book= is read only; learn=FILE makes and grows a book)",
                    path.display()
                ))
            }
            Err(e) => return Err(format!("book {}: cannot read it ({e})", path.display())),
        };
        let mut lines = text.lines().enumerate().peekable();
        match lines.next() {
            Some((_, h)) if h.trim() == Book::header(columns, rows) => {}
            Some((_, h)) => {
                let size = h.trim().strip_prefix("# wopr connect4 book ");
                return Err(match size.and_then(|s| s.split_once('x')) {
                    Some((c, r)) => Book::size_error(
                        path,
                        c.parse().unwrap_or(0),
                        r.parse().unwrap_or(0),
                        columns,
                        rows,
                    ),
                    None => format!(
                        "book {}: line 1 is not a book header (expected '{}')",
                        path.display(),
                        Book::header(columns, rows)
                    ),
                });
            }
            None => {}
        }
        let torn_tail = !text.ends_with('\n');
        while let Some((n, line)) = lines.next() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            // A line cut short by a killed writer is the last one, without
            // its newline: it may parse, cut, to a wrong score.
            if torn_tail && lines.peek().is_none() {
                break;
            }
            match self.parse_line(line) {
                Some((key, entry)) => {
                    self.entries.entry(key).or_insert(entry);
                }
                None => {
                    return Err(format!(
                        "book {} line {}: '{line}' is not KEY SCORE COLUMNS (hex key, score, optimal columns as digits 1..{columns})",
                        path.display(),
                        n + 1
                    ))
                }
            }
        }
        Ok(())
    }

    /// Reads `KEY SCORE COLUMNS`, checking the columns against the board.
    fn parse_line(&self, line: &str) -> Option<(u64, BookEntry)> {
        let mut parts = line.split_whitespace();
        let key = u64::from_str_radix(parts.next()?, 16).ok()?;
        let score: i32 = parts.next()?.parse().ok()?;
        let mut best = 0u16;
        for ch in parts.next()?.chars() {
            let c = ch.to_digit(10)?;
            if c == 0 || c > self.columns {
                return None;
            }
            best |= 1 << (c - 1);
        }
        let limit = (self.columns * self.rows) as i32;
        (parts.next().is_none() && best != 0 && score.abs() <= limit)
            .then_some((key, BookEntry { score, best }))
    }

    /// Positions in the book.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The file the book appends to (`learn=`); `None` where new
    /// positions stay in memory.
    pub fn learn_path(&self) -> Option<&Path> {
        self.learn.as_deref()
    }

    /// The board size, columns × rows.
    pub fn size(&self) -> (usize, usize) {
        (self.columns as usize, self.rows as usize)
    }

    /// The entry of the position whose key is `key` (`position + mask`),
    /// or of its mirror image `mirrored` (then with the columns mirrored
    /// back).
    pub fn get(&self, key: u64, mirrored: u64) -> Option<BookEntry> {
        if let Some(e) = self.entries.get(&key) {
            return Some(*e);
        }
        self.entries.get(&mirrored).map(|e| BookEntry {
            score: e.score,
            best: self.mirror_columns(e.best),
        })
    }

    /// Writes down a solved position (stored under the smaller of `key` and
    /// its mirror image's key `mirrored`): in memory, and appended to the
    /// learning file where the book has one; a position already in the
    /// book is left as it is. Errors name the file.
    pub fn insert(&mut self, key: u64, mirrored: u64, entry: BookEntry) -> Result<(), String> {
        let (key, entry) = if mirrored < key {
            let best = self.mirror_columns(entry.best);
            (mirrored, BookEntry { best, ..entry })
        } else {
            (key, entry)
        };
        if self.entries.contains_key(&key) {
            return Ok(());
        }
        let Some(path) = self.learn.clone() else {
            self.entries.insert(key, entry);
            return Ok(());
        };
        let mut line = String::new();
        if self.file.is_none() {
            let old = std::fs::read(&path).unwrap_or_default();
            if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                std::fs::create_dir_all(dir).map_err(|e| Book::write_error(&path, e))?;
            }
            let file = OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .map_err(|e| Book::write_error(&path, e))?;
            // A torn last line is cut off before appending.
            let keep = old.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            if keep < old.len() {
                file.set_len(keep as u64)
                    .map_err(|e| Book::write_error(&path, e))?;
            }
            if keep == 0 {
                line = Book::header(self.columns as usize, self.rows as usize) + "\n";
            }
            self.file = Some(file);
        }
        let columns: String = (0..self.columns)
            .filter(|c| entry.best >> c & 1 == 1)
            .map(|c| char::from_digit(c + 1, 10).unwrap_or('?'))
            .collect();
        line += &format!("{key:x} {} {columns}\n", entry.score);
        let file = self.file.as_mut().expect("opened above");
        file.write_all(line.as_bytes())
            .map_err(|e| format!("book {}: cannot append to it ({e})", path.display()))?;
        self.entries.insert(key, entry);
        Ok(())
    }

    fn write_error(path: &Path, e: std::io::Error) -> String {
        format!("book {}: cannot write it ({e})", path.display())
    }

    /// `best` with the columns in reverse order.
    fn mirror_columns(&self, best: u16) -> u16 {
        (0..self.columns)
            .filter(|c| best >> c & 1 == 1)
            .fold(0, |m, c| m | 1 << (self.columns - 1 - c))
    }
}

/// The solution `book` holds for the position of keys `(key, mirrored)`
/// (its own and its mirror image's), if any; `nodes` is 0.
pub(super) fn solution(book: &SharedBook, (key, mirrored): (u64, u64)) -> Option<Solution> {
    let book = book.lock().unwrap_or_else(|e| e.into_inner());
    let e = book.get(key, mirrored)?;
    Some(Solution {
        value: e.score.signum(),
        score: None,
        best: (0..book.columns as Action)
            .filter(|c| e.best >> c & 1 == 1)
            .collect(),
        nodes: 0,
    })
}

/// Writes the solved position of keys `(key, mirrored)` into `book`: its
/// exact `score` and optimal columns `best`.
pub(super) fn record(
    book: &SharedBook,
    (key, mirrored): (u64, u64),
    score: i32,
    best: &[Action],
) -> Result<(), String> {
    let best = best.iter().fold(0, |b, &c| b | 1 << c);
    let entry = BookEntry { score, best };
    let mut book = book.lock().unwrap_or_else(|e| e.into_inner());
    book.insert(key, mirrored, entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("wopr-book-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        dir
    }

    #[test]
    fn entries_survive_a_reopen_in_either_orientation() {
        let path = temp("reopen");
        {
            let book = Book::open(&path, 7, 6).unwrap();
            let mut b = book.lock().unwrap();
            // Stored under the smaller key (5 < 9): the columns are mirrored.
            b.insert(
                9,
                5,
                BookEntry {
                    score: -3,
                    best: 0b11,
                },
            )
            .unwrap();
            b.insert(9, 5, BookEntry { score: 7, best: 1 }).unwrap();
            assert_eq!(b.len(), 1);
        }
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "# wopr connect4 book 7x6\n5 -3 67\n");
        let book = Book::read(&path, 7, 6).unwrap();
        // Asked for as key 9 (its mirror 5 is stored): columns 1 and 2.
        assert_eq!(
            book.get(9, 5),
            Some(BookEntry {
                score: -3,
                best: 0b11
            })
        );
        assert_eq!(
            book.get(5, 9),
            Some(BookEntry {
                score: -3,
                best: 0b110_0000
            })
        );
        assert_eq!(book.get(4, 4), None);
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn bad_books_are_refused_with_the_line() {
        let path = temp("bad");
        std::fs::write(&path, "# wopr connect4 book 6x6\n").unwrap();
        let e = Book::read(&path, 7, 6).unwrap_err();
        assert!(e.contains("6x6 positions, not 7x6"), "{e}");
        std::fs::write(&path, "# wopr connect4 book 7x6\n1f 2 8\n3 1 4\n").unwrap();
        let e = Book::read(&path, 7, 6).unwrap_err();
        assert!(e.contains("line 2") && e.contains("1..7"), "{e}");
        // A torn last line (no newline after it) is what a killed writer
        // leaves: ignored.
        std::fs::write(&path, "# wopr connect4 book 7x6\n3 1 4\n1f -1").unwrap();
        assert_eq!(Book::read(&path, 7, 6).unwrap().len(), 1);
        // It is cut off before the next line is written.
        let book = Book::open(&path, 7, 6).unwrap();
        book.lock()
            .unwrap()
            .insert(8, 64, BookEntry { score: 2, best: 1 })
            .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "# wopr connect4 book 7x6\n3 1 4\n8 2 1\n");
        assert_eq!(Book::read(&path, 7, 6).unwrap().len(), 2);
        let _ = std::fs::remove_file(&path);
    }

    #[test]
    fn a_read_only_book_keeps_its_bytes_and_learns_in_memory() {
        use super::super::solver::Connect4Solver;
        use super::super::Connect4;
        use crate::game::solver::Solver;
        use crate::game::{ActionList, Game, State};
        let g = Connect4::new(5, 4).unwrap();
        let start = g.initial_state();
        let mut after_one = Vec::new();
        let mut legal = ActionList::new();
        start.legal_actions(&mut legal);
        for &a in &legal {
            let mut s = start;
            s.apply(a);
            after_one.push(s);
        }
        // A book grown by learning: the empty board only.
        let path = temp("read-only");
        let _ = std::fs::remove_file(&path);
        {
            let book = Book::open(&path, 5, 4).unwrap();
            let mut solver = Connect4Solver::new(&g).with_book(book).recording_from(0);
            solver.solve(&start).unwrap();
        }
        let bytes = std::fs::read(&path).unwrap();
        assert!(bytes.len() > 30, "{}", String::from_utf8_lossy(&bytes));
        // Read only: every position solved is remembered, none written.
        let book = Book::open_read_only(&path, 5, 4).unwrap();
        let held = book.lock().unwrap().len();
        assert_eq!(book.lock().unwrap().learn_path(), None);
        let mut solver = Connect4Solver::new(&g)
            .with_book(book.clone())
            .recording_from(0);
        for s in &after_one {
            solver.solve(s).unwrap();
        }
        assert!(book.lock().unwrap().len() > held);
        assert_eq!(
            std::fs::read(&path).unwrap(),
            bytes,
            "a book= file was written"
        );
        // ... and answered from memory by a solver sharing the book.
        let mut again =
            Connect4Solver::new(&g).with_book(Book::open_read_only(&path, 5, 4).unwrap());
        assert_eq!(again.solve(&after_one[2]).unwrap().nodes, 0);
        // With learn=OUT the new positions go to OUT, the book stays.
        let out = temp("learned");
        let _ = std::fs::remove_file(&out);
        let both = Book::open_files(Some(&path), Some(&out), 5, 4).unwrap();
        let mut learner = Connect4Solver::new(&g).with_book(both).recording_from(0);
        learner.solve(&after_one[0]).unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        let learned = std::fs::read_to_string(&out).unwrap();
        assert!(
            learned.starts_with("# wopr connect4 book 5x4\n") && learned.lines().count() == 2,
            "{learned}"
        );
        // A read-only book that is not there is an error, and not made.
        let missing = temp("missing");
        let e = Book::open_read_only(&missing, 5, 4).unwrap_err();
        assert!(e.contains("no such file") && e.contains("learn="), "{e}");
        assert!(!missing.exists());
        let _ = std::fs::remove_file(&path);
        let _ = std::fs::remove_file(&out);
    }
}
