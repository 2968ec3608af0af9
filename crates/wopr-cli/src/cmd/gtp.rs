//! `wopr gtp GAME --player SPEC`: wopr as a GTP engine. It reads Go Text
//! Protocol (version 2) commands on stdin and answers on stdout, so GUIs
//! and programs that drive GTP Othello engines (Debian's `quarry`, another
//! wopr's `gtp:` player) can play any wopr player.
//!
//! Commands: `protocol_version`, `name`, `version`, `known_command`,
//! `list_commands`, `boardsize`, `clear_board`, `play`, `genmove`, `undo`,
//! `showboard`, `final_score`, `quit`; answers are `= text` or
//! `? message`, each ended by an empty line, with the command's numeric id
//! when it had one. Games: those whose moves are GTP vertices (Reversi of
//! any size, Tic-Tac-Toe; see `wopr::players::gtp`).
//!
//! Passes: `play COLOUR pass` is accepted where the side must pass, and a
//! `play` or `genmove` for the side that is not to move, where the side to
//! move must pass, plays that pass first (engines such as GRhino never
//! send a pass). `undo` takes back one `play` or `genmove` with the pass it
//! implied. The player's random stream is (seed, number of the game since
//! the start), so a seed replays the same games.

use std::io::{BufRead, Write};

use anyhow::bail;
use wopr::game::rng::stream;
use wopr::game::Failure;
use wopr::players::gtp::{colour_name, is_pass, parse_colour};
use wopr::players::{parse_player, Player};
use wopr::{with_board_game, ActionList, AnyGame, Game, Roster, State, Turn};

/// Arguments of `wopr gtp`.
#[derive(clap::Args, Debug)]
pub struct GtpArgs {
    /// Game spec: one whose moves are GTP vertices (`reversi:8x8`,
    /// `reversi:6x6`, `tictactoe`).
    game: String,
    /// The player that answers `genmove` (any player spec of the game).
    #[arg(long)]
    player: String,
    /// Seed of the player's random streams (one per game).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The commands answered, in `list_commands` order.
const COMMANDS: &[&str] = &[
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

/// Runs `wopr gtp`.
pub fn run(args: &GtpArgs) -> anyhow::Result<()> {
    let game = AnyGame::parse(&args.game)?;
    with_board_game!(game, g => engine(&g, args), bail!(
        "gtp: plays games whose moves are GTP vertices (reversi, tictactoe); {} has none",
        game.spec()
    ))
}

/// One game being played through GTP, and the player answering it.
struct Session<'a, G: Game> {
    game: &'a G,
    player: Box<dyn Player<G>>,
    state: G::State,
    /// The position before each `play`/`genmove`, for `undo`.
    history: Vec<G::State>,
    /// Games started so far (the player's stream index).
    games: u64,
    seed: u64,
}

/// What a command answers: text after `=`, or a message after `?`.
type Answer = Result<String, String>;

fn engine<G: Roster>(game: &G, args: &GtpArgs) -> anyhow::Result<()> {
    let size = wopr::players::gtp::check_game(game)?;
    let player = parse_player(game, &args.player)?;
    let mut session = Session {
        game,
        player,
        state: game.initial_state(),
        history: Vec::new(),
        games: 0,
        seed: args.seed,
    };
    session.player.new_game();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        // Comments and control characters go; an empty line is no command.
        let line: String = line
            .split('#')
            .next()
            .unwrap_or("")
            .chars()
            .map(|c| if c == '\t' { ' ' } else { c })
            .filter(|c| !c.is_control())
            .collect();
        let mut words = line.split_whitespace().peekable();
        let id = words
            .peek()
            .filter(|w| w.bytes().all(|b| b.is_ascii_digit()))
            .map(|w| w.to_string());
        if id.is_some() {
            words.next();
        }
        let Some(command) = words.next() else {
            continue;
        };
        let command = command.to_ascii_lowercase();
        let rest: Vec<&str> = words.collect();
        let answer = session.answer(&command, &rest, size);
        let id = id.unwrap_or_default();
        match &answer {
            Ok(text) => write!(out, "={id} {text}\n\n")?,
            Err(text) => write!(out, "?{id} {text}\n\n")?,
        }
        out.flush()?;
        if command == "quit" {
            break;
        }
    }
    Ok(())
}

impl<G: Roster> Session<'_, G> {
    fn answer(&mut self, command: &str, args: &[&str], size: usize) -> Answer {
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
        match self.player.failure() {
            Some(Failure::Fatal(m) | Failure::Forfeit(m)) => return Err(m),
            None => {}
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
