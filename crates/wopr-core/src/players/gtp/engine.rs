//! wopr as a GTP engine (`wopr gtp GAME --player SPEC`): one player of a
//! board game answering Go Text Protocol (version 2) commands. The command
//! only hands its stdin and stdout to [`GtpEngine::serve`]; the fuzz target
//! `gtp_line` hands it bytes.
//!
//! Commands: `protocol_version`, `name`, `version`, `known_command`,
//! `list_commands`, `boardsize`, `clear_board`, `play`, `genmove`, `undo`,
//! `showboard`, `final_score`, `quit`; answers are `= text` or
//! `? message`, each ended by an empty line, with the command's numeric id
//! when it had one.
//!
//! **Lines** are read as bytes, as GTP says: control characters other than
//! tab and newline are dropped, tabs are spaces, a `#` starts a comment,
//! and a line with nothing left (white space, a comment) is no command and
//! gets no answer. Every other line gets exactly one answer and the engine
//! reads on: a line that is not UTF-8 text, or longer than
//! [`MAX_LINE`] bytes, is answered `?` (with its id where it starts with
//! one), as is a line of only an id.
//!
//! **Passes.** `play COLOUR pass` is accepted where the side must pass, and
//! a `play` or `genmove` for the side that is not to move, where the side to
//! move must pass, plays that pass first (engines such as GRhino never send
//! a pass). `undo` takes back one `play` or `genmove` with the pass it
//! implied. The player's random stream is (seed, number of the game since
//! the start, moves in its history), so a seed replays the same games.

use std::io::{self, BufRead, Write};

use super::lines::{read_line, LineRead, MAX_LINE};
use super::{check_game, colour_name, is_pass, parse_colour};
use crate::game::player::Failure;
use crate::game::rng::stream;
use crate::game::{ActionList, Game, SpecError, State, Turn};
use crate::players::{Player, Roster};

/// The commands answered, in `list_commands` order.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "quit",
];

/// One game being played through GTP, and the player answering it.
pub struct GtpEngine<'a, G: Game> {
    game: &'a G,
    player: Box<dyn Player<G>>,
    state: G::State,
    /// The position before each `play`/`genmove`, for `undo`.
    history: Vec<G::State>,
    /// Games started so far (the player's stream index).
    games: u64,
    seed: u64,
    size: usize,
}

/// What a command answers: text after `=`, or a message after `?`.
type Answer = Result<String, String>;

/// The answer to one line: `None` for a line that is no command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The whole answer, `=` or `?`, the id, the text and the empty line
    /// that ends it.
    pub text: String,
    /// Whether the command was `quit`: the engine reads no more.
    pub quit: bool,
}

impl<'a, G: Roster> GtpEngine<'a, G> {
    /// An engine for `game` (one whose moves are GTP vertices) answering
    /// with `player`, its random streams drawn from `seed`.
    pub fn new(game: &'a G, player: Box<dyn Player<G>>, seed: u64) -> Result<Self, SpecError> {
        let size = check_game(game)?;
        let mut player = player;
        player.new_game();
        Ok(GtpEngine {
            game,
            player,
            state: game.initial_state(),
            history: Vec::new(),
            games: 0,
            seed,
            size,
        })
    }

    /// Answers the lines of `input` on `output` until `quit` or the end of
    /// the input; only an error reading `input` or writing `output` ends
    /// it early.
    pub fn serve(&mut self, mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
        let mut buf = Vec::new();
        loop {
            let reply = match read_line(&mut input, &mut buf, MAX_LINE)? {
                LineRead::End => return Ok(()),
                LineRead::Line => self.answer_line(&buf),
                LineRead::TooLong => Some(Reply {
                    text: format!("? the line is longer than {MAX_LINE} bytes\n\n"),
                    quit: false,
                }),
            };
            if let Some(reply) = reply {
                output.write_all(reply.text.as_bytes())?;
                output.flush()?;
                if reply.quit {
                    return Ok(());
                }
            }
        }
    }

    /// Answers one line (without its `\n`): `None` where it holds no
    /// command (see the module docs).
    pub fn answer_line(&mut self, line: &[u8]) -> Option<Reply> {
        // Control characters go, tabs are spaces, a comment ends the line.
        let line: Vec<u8> = line
            .iter()
            .take_while(|&&b| b != b'#')
            .filter_map(|&b| match b {
                b'\t' => Some(b' '),
                0..=31 | 127 => None,
                b => Some(b),
            })
            .collect();
        let line = line.trim_ascii();
        if line.is_empty() {
            return None;
        }
        let digits = line.iter().take_while(|b| b.is_ascii_digit()).count();
        let (id, rest) = if digits > 0 && line.get(digits).is_none_or(|&b| b == b' ') {
            (&line[..digits], line[digits..].trim_ascii_start())
        } else {
            (&[][..], line)
        };
        let id = std::str::from_utf8(id).expect("ASCII digits");
        let (answer, quit) = match std::str::from_utf8(rest) {
            Err(_) => (Err("the line is not UTF-8 text".to_string()), false),
            Ok(rest) => {
                let mut words = rest.split_whitespace();
                match words.next() {
                    None => (Err("no command after the id".to_string()), false),
                    Some(command) => {
                        let command = command.to_ascii_lowercase();
                        let args: Vec<&str> = words.collect();
                        (self.answer(&command, &args), command == "quit")
                    }
                }
            }
        };
        let text = match answer {
            Ok(text) => format!("={id} {text}\n\n"),
            Err(text) => format!("?{id} {text}\n\n"),
        };
        Some(Reply { text, quit })
    }

    fn answer(&mut self, command: &str, args: &[&str]) -> Answer {
        let size = self.size;
        match command {
            "protocol_version" => Ok("2".into()),
            "name" => Ok("wopr".into()),
            "version" => Ok(format!(
                "{} ({})",
                env!("CARGO_PKG_VERSION"),
                self.player.spec()
            )),
            "known_command" => Ok(COMMANDS
                .contains(&args.first().copied().unwrap_or(""))
                .to_string()),
            "list_commands" => Ok(COMMANDS.join("\n")),
            "quit" => Ok(String::new()),
            "boardsize" => match args.first().map(|a| a.parse::<usize>()) {
                Some(Ok(n)) if n == size => Ok(String::new()),
                Some(Ok(_)) => Err(format!(
                    "unacceptable size (this engine plays {} on a {size}x{size} board)",
                    self.game.spec()
                )),
                _ => Err("boardsize needs an integer".into()),
            },
            "clear_board" => {
                self.state = self.game.initial_state();
                self.history.clear();
                self.games += 1;
                self.player.new_game();
                Ok(String::new())
            }
            "play" => {
                let [colour, vertex] = args else {
                    return Err("play needs a colour and a vertex (play black d3)".into());
                };
                let seat = seat_of(colour)?;
                self.undoable(|s| s.play(seat, vertex).map(|_| String::new()))
            }
            "genmove" => {
                let [colour] = args else {
                    return Err("genmove needs a colour (genmove white)".into());
                };
                let seat = seat_of(colour)?;
                self.undoable(|s| s.genmove(seat))
            }
            "undo" => match self.history.pop() {
                Some(s) => {
                    self.state = s;
                    Ok(String::new())
                }
                None => Err("cannot undo".into()),
            },
            "showboard" => Ok(format!(
                "\n{}",
                self.state
                    .to_string()
                    .lines()
                    .filter(|l| !l.trim().is_empty())
                    .collect::<Vec<_>>()
                    .join("\n")
            )),
            "final_score" => {
                if self.state.turn() != Turn::Terminal {
                    return Err("cannot score: the game is not over".into());
                }
                let margin = self
                    .state
                    .score(0)
                    .unwrap_or(self.state.returns(0).signum() as i32);
                Ok(match margin {
                    0 => "0".into(),
                    m if m > 0 => format!("B+{m}"),
                    m => format!("W+{}", -m),
                })
            }
            _ => Err("unknown command".into()),
        }
    }

    /// Runs a move command: where it succeeds the position before it goes
    /// to the history (`undo`), where it fails the position is restored
    /// (a pass it played included).
    fn undoable(&mut self, step: impl FnOnce(&mut Self) -> Answer) -> Answer {
        let before = self.state.clone();
        let result = step(self);
        if result.is_ok() {
            self.history.push(before);
        } else {
            self.state = before;
        }
        result
    }

    /// Plays the pass the side to move must make when `seat` is asked to
    /// move out of turn; an error where it is not a pass position.
    fn turn_of(&mut self, seat: usize) -> Result<ActionList, String> {
        for _ in 0..2 {
            let mut legal = ActionList::new();
            match self.state.turn() {
                Turn::Player(p) if p == seat => {
                    self.state.legal_actions(&mut legal);
                    return Ok(legal);
                }
                Turn::Player(p) => {
                    self.state.legal_actions(&mut legal);
                    match legal.as_slice() {
                        [only] if is_pass(&self.state, *only) => self.state.apply(*only),
                        _ => return Err(format!("illegal move: it is {}'s turn", colour_name(p))),
                    }
                }
                Turn::Terminal => return Err("illegal move: the game is over".into()),
                _ => return Err("illegal move: no player is to move".into()),
            }
        }
        Err("illegal move".into())
    }

    fn play(&mut self, seat: usize, vertex: &str) -> Result<(), String> {
        let legal = self.turn_of(seat)?;
        let action = if vertex.starts_with('#') {
            None
        } else {
            self.state.parse_action(vertex).ok()
        };
        match action {
            Some(a) if legal.contains(&a) => {
                self.state.apply(a);
                Ok(())
            }
            _ => Err(format!("illegal move: {vertex}")),
        }
    }

    fn genmove(&mut self, seat: usize) -> Answer {
        let legal = self.turn_of(seat)?;
        let mut rng = stream(self.seed, &[self.games, self.history.len() as u64]);
        let view = self.state.view(seat);
        let a = self.player.choose(&view, &legal, &mut rng);
        if let Some(Failure::Fatal(m) | Failure::Forfeit(_, m)) = self.player.failure() {
            return Err(m);
        }
        if !legal.contains(&a) {
            return Err(format!("the player chose an illegal move ({a})"));
        }
        let text = if is_pass(&self.state, a) {
            "pass".to_string()
        } else {
            self.state.action_to_string(a).to_ascii_uppercase()
        };
        self.state.apply(a);
        Ok(text)
    }
}

fn seat_of(colour: &str) -> Result<usize, String> {
    parse_colour(colour).ok_or_else(|| format!("'{colour}' is not a colour (black, white, b, w)"))
}
