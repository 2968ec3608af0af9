//! The GTP target: the lines a controller sends `wopr gtp`.

use wopr::players::gtp::engine::{GtpEngine, Reply};
use wopr::players::gtp::lines::MAX_LINE;

use super::*;

/// The engines the lines go to: a game spec and the player answering
/// `genmove` (fast ones: a move is a few microseconds). `connect4` is
/// there to be refused: its moves are not GTP vertices.
const ENGINES: &[(&str, &str)] = &[
    ("tictactoe", "first"),
    ("tictactoe", "random"),
    ("reversi:4x4", "random"),
    ("reversi:6x6", "first"),
    ("reversi", "random"),
    ("connect4", "random"),
];

/// The seed of the engines' random streams.
const SEED: u64 = 67;

/// What GTP (version 2, section 3.1) makes of a line before reading it:
/// control characters other than tab dropped, tabs as spaces, everything
/// from `#` on a comment; `None` where nothing but white space is left
/// (no command, so no answer).
fn preprocessed(line: &[u8]) -> Option<Vec<u8>> {
    let kept: Vec<u8> = line
        .iter()
        .take_while(|&&b| b != b'#')
        .filter(|&&b| b == b'\t' || !(b < 32 || b == 127))
        .map(|&b| if b == b'\t' { b' ' } else { b })
        .collect();
    let trimmed = kept.trim_ascii();
    (!trimmed.is_empty()).then(|| trimmed.to_vec())
}

/// The id a command line starts with (its digits, followed by a space or
/// the end of the line), or the empty string.
fn id_of(line: &[u8]) -> String {
    let digits = line.iter().take_while(|b| b.is_ascii_digit()).count();
    match line.get(digits) {
        _ if digits == 0 => String::new(),
        None | Some(b' ') => String::from_utf8(line[..digits].to_vec()).expect("ASCII digits"),
        Some(_) => String::new(),
    }
}

/// The command word after the id, lower case, where the line is text.
fn command_of(line: &[u8], id: &str) -> Option<String> {
    let rest = std::str::from_utf8(&line[id.len()..]).ok()?;
    Some(rest.split_whitespace().next()?.to_ascii_lowercase())
}

/// Asserts that `reply` is one well-formed GTP answer to `line` (already
/// [`preprocessed`]): `=ID text` or `?ID text`, the line's id echoed,
/// ended by one empty line and holding no other.
fn well_formed(line: &[u8], reply: &Reply) {
    let text = &reply.text;
    let id = id_of(line);
    assert!(
        text.starts_with(&format!("={id}")) || text.starts_with(&format!("?{id}")),
        "{:?}: the answer {text:?} is not '=' or '?' with the id '{id}'",
        String::from_utf8_lossy(line)
    );
    let after_id = &text[1 + id.len()..];
    assert!(
        after_id.starts_with(' '),
        "{text:?}: the id is not followed by a space"
    );
    let body = text
        .strip_suffix("\n\n")
        .unwrap_or_else(|| panic!("{text:?} is not ended by an empty line"));
    assert!(
        !body.contains("\n\n") && !body.ends_with('\n'),
        "{text:?} holds more than one answer"
    );
    assert!(
        !body.contains(['\r', '\0']),
        "{text:?} holds a control character"
    );
}

/// The answers `engine` gives to `line`, checked: a line with no command
/// gets none, any other exactly one, well formed. Returns it.
fn answer<G: Roster>(engine: &mut GtpEngine<'_, G>, line: &[u8]) -> Option<Reply> {
    let reply = engine.answer_line(line);
    let Some(command) = preprocessed(line) else {
        assert!(
            reply.is_none(),
            "{:?} holds no command, yet was answered {reply:?}",
            String::from_utf8_lossy(line)
        );
        return None;
    };
    let reply = reply.unwrap_or_else(|| {
        panic!(
            "{:?} holds a command and got no answer",
            String::from_utf8_lossy(line)
        )
    });
    well_formed(&command, &reply);
    let id = id_of(&command);
    let word = command_of(&command, &id);
    assert_eq!(
        reply.quit,
        word.as_deref() == Some("quit"),
        "{reply:?} to {:?}: quit only on 'quit'",
        String::from_utf8_lossy(line)
    );
    match word.as_deref() {
        None => assert!(
            reply.text.starts_with('?'),
            "{reply:?}: no command, yet '='"
        ),
        Some("quit") => assert!(reply.text.starts_with('='), "'quit' refused: {reply:?}"),
        _ => {}
    }
    Some(reply)
}

/// The input's lines as `read_line` splits them: at `\n`, a last line
/// without one kept where it is not empty.
fn lines_of(data: &[u8]) -> Vec<&[u8]> {
    let mut lines: Vec<&[u8]> = data.split(|&b| b == b'\n').collect();
    if lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    lines
}

/// Target `gtp_line`: the input as what a controller writes to `wopr gtp
/// GAME --player SPEC` (`crates/wopr-cli/src/cmd/gtp.rs`, which hands
/// stdin to `GtpEngine::serve`), for each of a few games and fast players:
/// split into lines, each given to `GtpEngine::answer_line` until `quit`;
/// then the whole input given to `GtpEngine::serve` on a fresh engine.
///
/// Asserts: no panic; a line with no command (white space, a comment,
/// control characters) gets no answer and every other line exactly one,
/// `=` or `?` with the line's id echoed, ended by one empty line; only
/// `quit` ends the session; after any input the engine still answers
/// `protocol_version` (`2`) and `list_commands` (every command it
/// knows, each `known_command`); `serve` answers the same lines the same
/// (a line longer than `MAX_LINE` bytes with `?`) and stops at `quit`. A
/// game whose moves are not GTP vertices (`connect4`) is refused with a
/// one-line error.
pub fn check_gtp_line(data: &[u8]) {
    let lines = lines_of(data);
    for &(spec, player) in ENGINES {
        let game = game_of(spec);
        wopr::with_board_game!(&game, g => session(g, player, data, &lines), {
            panic!("{spec} is not a board game")
        });
    }
}

/// One engine's session; see [`check_gtp_line`].
fn session<G: Roster>(game: &G, player: &str, data: &[u8], lines: &[&[u8]]) {
    let new_engine = || {
        let p = parse_player(game, player).expect("a listed player");
        GtpEngine::new(game, p, SEED)
    };
    let mut engine = match new_engine() {
        Ok(engine) => engine,
        Err(e) => {
            assert!(
                game.gtp_board().is_none(),
                "{} has GTP vertices, yet: {e}",
                game.spec()
            );
            assert!(
                !e.0.contains('\n') && e.0.contains(&game.spec()),
                "not one line naming the game: {e}"
            );
            return;
        }
    };
    // The answers `serve` must give: `None` for a line longer than
    // `MAX_LINE` bytes, which it answers `?` unread (`answer_line` reads
    // it here on an engine of its own, so that the sessions stay alike).
    let mut replies: Vec<Option<Reply>> = Vec::new();
    for &line in lines {
        if line.len() > MAX_LINE {
            let mut scratch = new_engine().expect("it was built once");
            answer(&mut scratch, line);
            replies.push(None);
            continue;
        }
        if let Some(reply) = answer(&mut engine, line) {
            let quit = reply.quit;
            replies.push(Some(reply));
            if quit {
                break;
            }
        }
    }
    // Whatever came before, the engine still speaks GTP.
    let version = engine.answer_line(b"protocol_version").expect("a command");
    assert_eq!(version.text, "= 2\n\n");
    let list = engine.answer_line(b"12 list_commands").expect("a command");
    well_formed(b"12 list_commands", &list);
    let commands: Vec<&str> = list.text["=12 ".len()..].trim_end().lines().collect();
    assert!(
        commands.contains(&"protocol_version") && commands.contains(&"quit"),
        "{list:?}"
    );
    for c in commands {
        let known = engine
            .answer_line(format!("known_command {c}").as_bytes())
            .expect("a command");
        assert_eq!(known.text, "= true\n\n", "{c}");
    }

    // `serve` reads the same lines and answers them the same.
    let mut fresh = new_engine().expect("it was built once");
    let mut out = Vec::new();
    fresh
        .serve(data, &mut out)
        .expect("writing to a Vec never fails");
    let out = String::from_utf8(out).expect("answers are text");
    let served: Vec<&str> = out.split_inclusive("\n\n").collect();
    assert_eq!(
        served.len(),
        replies.len(),
        "serve answered a different count"
    );
    for (reply, got) in replies.iter().zip(served) {
        match reply {
            Some(reply) => assert_eq!(got, reply.text, "serve and answer_line differ"),
            None => assert!(
                got.starts_with("? ") && got.ends_with("\n\n"),
                "a line longer than {MAX_LINE} bytes answered {got:?}"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reply(text: &str) -> Reply {
        Reply {
            text: text.to_string(),
            quit: false,
        }
    }

    #[test]
    fn lines_are_read_as_gtp_says() {
        assert_eq!(preprocessed(b" \t# a comment"), None);
        assert_eq!(preprocessed(b"\x00\x07\r"), None);
        assert_eq!(
            preprocessed(b"1\tna\x00me # x").as_deref(),
            Some(&b"1 name"[..])
        );
        assert_eq!(id_of(b"12 name"), "12");
        assert_eq!(id_of(b"12"), "12");
        assert_eq!(id_of(b"12x name"), "");
        assert_eq!(
            command_of(b"12 GenMove b", "12").as_deref(),
            Some("genmove")
        );
        assert_eq!(lines_of(b"a\n\nb"), [&b"a"[..], b"", b"b"]);
        assert_eq!(lines_of(b"a\n"), [&b"a"[..]]);
    }

    #[test]
    fn a_well_formed_answer_passes() {
        well_formed(b"7 name", &reply("=7 wopr\n\n"));
        well_formed(b"showboard", &reply("= \nX..\n...\n\n"));
        well_formed(b"\xff", &reply("? the line is not UTF-8 text\n\n"));
    }

    #[test]
    #[should_panic(expected = "with the id '7'")]
    fn an_answer_without_the_id_fails() {
        well_formed(b"7 name", &reply("= wopr\n\n"));
    }

    #[test]
    #[should_panic(expected = "more than one answer")]
    fn two_answers_to_one_line_fail() {
        well_formed(b"name", &reply("= wopr\n\n= wopr\n\n"));
    }

    #[test]
    #[should_panic(expected = "not ended by an empty line")]
    fn an_unended_answer_fails() {
        well_formed(b"name", &reply("= wopr\n"));
    }
}
