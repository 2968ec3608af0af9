//! One game held by the server: the state, the players in each seat (a
//! person or an engine built from a spec), the moves so far with the bars the
//! musicator made of them, and the JSON the page draws.
//!
//! A session is generic over the game; [`new_session`] picks the concrete
//! game with `with_game!` and hands back a [`Held`] trait object, so the
//! server stores every kind of game in one table.

use rand::RngExt;
use serde::Serialize;
use serde_json::{json, Value};
use wopr::game::driver::sample_chance;
use wopr::game::rng::{stream, WoprRng};
use wopr::game::GameSpec;
use wopr::music::{to_midi, Bar, MidiOptions, MusicConfig, Musicator, ScoreBar};
use wopr::players::PlayerSpec;
use wopr::{with_game, Action, ActionList, AnyGame, Roster, State, Turn};

use super::board;
use super::engines::{check_engine, Engines};
use super::refusal::Refusal;

/// The stream label of a session's chance and engine randomness ("SERV").
const SERVE_STREAM: u64 = 0x5345_5256;

/// Who sits in a seat.
enum Seat {
    /// A person, moving through the API.
    Human,
    /// An engine, by its checked spec (nets resolved, time limited). A
    /// player is taken from the [`Pool`](super::engines::Pool) for each
    /// move, so a held game costs only its state (an alpha-beta player's
    /// table alone is about 6 MB) and an engine's move depends only on the
    /// position, the game's random stream and, for players stopped by the
    /// clock, the time.
    Engine(PlayerSpec),
}

/// What the page is told about the music: tempo, instruments, resolution.
#[derive(Clone, Debug, Serialize)]
pub struct MusicInfo {
    /// Quarter notes per minute.
    pub tempo: f64,
    /// General MIDI programs by seat.
    pub instruments: Vec<u8>,
    /// MIDI ticks per quarter note (durations are in ticks).
    pub ticks_per_quarter: u16,
}

/// One move of the game as the page lists it.
#[derive(Clone, Debug, Serialize)]
pub struct MoveEntry {
    /// The seat that moved; `None` for chance.
    pub seat: Option<usize>,
    /// The action index.
    pub action: Action,
    /// The move in the game's notation.
    pub notation: String,
    /// The three notes the musicator made of it; `None` for a silent move.
    pub bar: Option<Bar>,
}

/// The settings a new game is started with.
#[derive(Clone, Debug)]
pub struct NewGame {
    /// The game spec.
    pub game: String,
    /// Player specs by seat: `human` or an engine spec.
    pub players: Vec<String>,
    /// The seed of chance, of the engines' random choices and of the music.
    pub seed: u64,
    /// The musicator's settings.
    pub music: MusicConfig,
    /// Tempo in quarter notes per minute.
    pub tempo: f64,
    /// General MIDI programs by seat.
    pub instruments: Vec<u8>,
}

/// A game held by the server, whatever the game.
pub trait Held: Send {
    /// The whole state as the page draws it.
    fn snapshot(&self) -> Value;
    /// Plays a person's move: an action index or a move in notation (at a
    /// simultaneous turn the engines choose theirs, in engine slots).
    fn play(
        &mut self,
        action: Option<i64>,
        notation: Option<&str>,
        engines: &Engines,
    ) -> Result<(), Refusal>;
    /// Lets the engine whose turn it is make one move (this may search, in
    /// an engine slot, until the move deadline).
    fn engine_move(&mut self, engines: &Engines) -> Result<(), Refusal>;
    /// Whether an engine is to move now.
    fn engine_to_move(&self) -> bool;
    /// The game as a Standard MIDI File.
    fn midi(&self) -> Result<Vec<u8>, Refusal>;
    /// How long the game's music lasts, in seconds.
    fn music_seconds(&self) -> f64;
}

/// The folder of GDL rule sheets the server offers (`--gdl`), set once at
/// start.
static SHEETS: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();

/// Sets the folder of offered GDL sheets (`wopr serve --gdl DIR`).
pub fn offer_sheets(dir: &std::path::Path) {
    let _ = SHEETS.set(dir.to_path_buf());
}

/// The GDL rule sheets the server offers, as game specs, sorted: the plain
/// files `DIR/NAME.kif` directly in the `--gdl` folder (NAME of letters,
/// digits, `-` and `_`; no symbolic links).
pub fn served_sheets() -> Vec<String> {
    let Some(dir) = SHEETS.get() else {
        return Vec::new();
    };
    let mut specs: Vec<String> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let stem = name.strip_suffix(".kif")?;
            let plain = !stem.is_empty()
                && stem
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
            plain.then(|| format!("gdl:{}", dir.join(&name).display()))
        })
        .collect();
    specs.sort();
    specs
}

/// A game spec from a request: any registered game, and GDL games only as
/// `/api/games` lists them (`gdl:DIR/NAME.kif`, exactly), so that a request
/// can make the server read no other file.
pub fn parse_game(text: &str) -> Result<AnyGame, Refusal> {
    let spec = GameSpec::parse(text).map_err(|e| Refusal::bad(format!("game: {e}")))?;
    if spec.name == "gdl" {
        let offered = served_sheets();
        let asked = format!("gdl:{}", spec.get("").unwrap_or(""));
        if spec.args.len() != 1 || !offered.contains(&asked) {
            return Err(Refusal::bad(format!(
                "game: the server plays only the GDL sheets it offers (accepted: {})",
                if offered.is_empty() {
                    "none".to_string()
                } else {
                    offered.join(", ")
                }
            )));
        }
    }
    AnyGame::parse(text).map_err(|e| Refusal::bad(format!("game: {e}")))
}

/// Builds a held game from its settings; the error says which setting is
/// wrong. Engine specs are checked against `engines`' limits and nets.
pub fn new_session(req: &NewGame, engines: &Engines) -> Result<Box<dyn Held>, Refusal> {
    let game = parse_game(&req.game)?;
    with_game!(&game, g => Session::new(g, req, engines).map(|s| Box::new(s) as Box<dyn Held>))
}

/// One held game of `G`.
struct Session<G: Roster> {
    game: G,
    specs: Vec<String>,
    seats: Vec<Seat>,
    state: G::State,
    rng: WoprRng,
    /// Actions chosen so far at a simultaneous turn, by seat.
    pending: Vec<Option<Action>>,
    moves: Vec<MoveEntry>,
    musicator: Musicator,
    music: MusicInfo,
    config: MusicConfig,
}

impl<G: Roster> Session<G> {
    fn new(game: &G, req: &NewGame, engines: &Engines) -> Result<Self, Refusal> {
        let n = game.num_players();
        if req.players.len() != n {
            return Err(Refusal::bad(format!(
                "players: give {n} player specs (one per seat, 'human' or an engine), not {}",
                req.players.len()
            )));
        }
        let mut seats = Vec::with_capacity(n);
        for (i, spec) in req.players.iter().enumerate() {
            let spec = spec.trim();
            if spec == "human" {
                seats.push(Seat::Human);
                continue;
            }
            let refuse = |e: String| Refusal::bad(format!("player {}: {e}", i + 1));
            let checked = check_engine(game, spec, &engines.caps, &engines.nets).map_err(refuse)?;
            // A player reading a net is built now (in an engine slot), so a
            // net that does not load is refused here; it then rests in the
            // pool. Other checked specs always build.
            if !checked.cost().nets.is_empty() {
                let _slot = engines.slots.enter()?;
                let p = engines.pool.take(game, &checked).map_err(refuse)?;
                engines.pool.give(game, &checked, p);
            }
            seats.push(Seat::Engine(checked));
        }
        if req.instruments.is_empty() || req.instruments.iter().any(|&p| p > 127) {
            return Err(Refusal::bad(
                "instruments: give General MIDI programs 0..=127, one per seat",
            ));
        }
        if !(4.0..=1000.0).contains(&req.tempo) {
            return Err(Refusal::bad(format!(
                "tempo {} is not in 4..=1000 quarter notes per minute",
                req.tempo
            )));
        }
        let rows = wopr::music::grid_rows(game).unwrap_or(6);
        let musicator = Musicator::new(req.music.clone(), rows, req.seed)
            .map_err(|e| Refusal::bad(format!("music: {e}")))?;
        let mut s = Session {
            game: game.clone(),
            specs: req.players.iter().map(|p| p.trim().to_string()).collect(),
            seats,
            state: game.initial_state(),
            rng: stream(req.seed, &[SERVE_STREAM]),
            pending: vec![None; n],
            moves: Vec::new(),
            musicator,
            music: MusicInfo {
                tempo: req.tempo,
                instruments: req.instruments.clone(),
                ticks_per_quarter: req.music.ticks_per_quarter,
            },
            config: req.music.clone(),
        };
        s.settle();
        Ok(s)
    }

    /// Records a player's move (with its bar) in the move list.
    fn log(&mut self, seat: Option<usize>, action: Action) {
        let notation = self.state.action_to_string(action);
        let bar = match seat {
            Some(_) => self.musicator.next(self.state.action_cell(action)),
            None => None,
        };
        self.moves.push(MoveEntry {
            seat,
            action,
            notation,
            bar,
        });
    }

    /// Plays out chance nodes (seeded) until a player is to move.
    fn settle(&mut self) {
        while self.state.turn() == Turn::Chance {
            let a = sample_chance(&self.state, &mut self.rng);
            self.log(None, a);
            self.state.apply(a);
        }
    }

    /// The seats that still owe an action at a simultaneous turn.
    fn owing(&self) -> Vec<usize> {
        (0..self.seats.len())
            .filter(|&s| self.pending[s].is_none() && !self.legal_of(s).is_empty())
            .collect()
    }

    fn legal_of(&self, seat: usize) -> ActionList {
        let mut out = ActionList::new();
        self.state.legal_actions_of(seat, &mut out);
        out
    }

    /// The seat a person moves for now, if any.
    fn human_seat_to_move(&self) -> Option<usize> {
        match self.state.turn() {
            Turn::Player(p) => matches!(self.seats[p], Seat::Human).then_some(p),
            Turn::Simultaneous => self
                .owing()
                .into_iter()
                .find(|&s| matches!(self.seats[s], Seat::Human)),
            _ => None,
        }
    }

    /// Resolves a simultaneous turn once every seat has chosen.
    fn resolve_joint(&mut self) {
        if self.state.turn() != Turn::Simultaneous || !self.owing().is_empty() {
            return;
        }
        let joint: Vec<Action> = (0..self.seats.len())
            .map(|s| self.pending[s].unwrap_or(0))
            .collect();
        for (s, &a) in joint.iter().enumerate() {
            if !self.legal_of(s).is_empty() {
                self.log(Some(s), a);
            }
        }
        self.state.apply_joint(&joint);
        self.pending.iter_mut().for_each(|p| *p = None);
        self.settle();
    }

    /// One engine seat chooses from what it sees.
    fn engine_choice(&mut self, seat: usize, engines: &Engines) -> Result<Action, Refusal> {
        let legal = self.legal_of(seat);
        let view = self.state.view(seat);
        let Seat::Engine(spec) = &self.seats[seat] else {
            return Err(Refusal::conflict("this seat is a person's"));
        };
        // The move runs in an engine slot, within the move deadline.
        let _slot = engines.slots.enter()?;
        // The spec was checked when the game began; a net file removed
        // since then is the one way this can fail.
        let mut p = engines.pool.take(&self.game, spec).map_err(|e| {
            Refusal::new(
                500,
                format!("cannot build the engine '{spec}' any more: {e}"),
            )
        })?;
        let a = p.choose(&view, &legal, &mut self.rng);
        engines.pool.give(&self.game, spec, p);
        // A player must answer with a legal action; guard anyway.
        Ok(if legal.contains(&a) {
            a
        } else {
            legal[self.rng.random_range(0..legal.len())]
        })
    }

    fn result(&self) -> Value {
        if !self.state.is_terminal() {
            return Value::Null;
        }
        let n = self.seats.len();
        let returns: Vec<f64> = (0..n).map(|p| self.state.returns(p)).collect();
        let score: Option<Vec<i32>> = (0..n).map(|p| self.state.score(p)).collect();
        let names = self.game.seat_names();
        let best = returns.iter().cloned().fold(f64::MIN, f64::max);
        let winners: Vec<usize> = (0..n).filter(|&p| returns[p] == best).collect();
        let winner = (winners.len() == 1).then(|| winners[0]);
        let text = match winner {
            Some(w) => {
                let margin = score
                    .as_ref()
                    .map(|s| format!(" by {}", s[w]))
                    .unwrap_or_default();
                format!("{} ({}) wins{margin}", names[w], self.specs[w])
            }
            None => "draw".to_string(),
        };
        json!({"returns": returns, "score": score, "winner": winner, "text": text})
    }
}

impl<G: Roster> Held for Session<G> {
    fn snapshot(&self) -> Value {
        let turn = self.state.turn();
        let human = self.human_seat_to_move();
        // A person sees what their seat sees (Kuhn hides the other card);
        // with no person in the game, or at the end, everything.
        let viewer = self
            .seats
            .iter()
            .position(|s| matches!(s, Seat::Human))
            .filter(|_| !self.state.is_terminal());
        let text = match viewer {
            Some(v) => self.state.view(v).to_string(),
            None => self.state.to_string(),
        };
        let legal: Vec<Value> = match human {
            Some(seat) => self
                .legal_of(seat)
                .iter()
                .map(|&a| {
                    json!({
                        "action": a,
                        "notation": self.state.action_to_string(a),
                        "target": board::target(&self.state, a),
                    })
                })
                .collect(),
            None => Vec::new(),
        };
        let to_move = match turn {
            Turn::Player(p) => Some(p),
            Turn::Simultaneous => human.or_else(|| self.owing().first().copied()),
            _ => None,
        };
        json!({
            "game": self.game.spec(),
            "players": self.specs,
            // The engines as the server runs them: canonical specs, nets
            // resolved, each search's `ms` at most the move deadline.
            "engines": self.seats.iter().map(|s| match s {
                Seat::Engine(p) => Value::String(p.to_string()),
                Seat::Human => Value::Null,
            }).collect::<Vec<_>>(),
            "seat_names": self.game.seat_names(),
            "turn": format!("{turn:?}").to_lowercase(),
            "to_move": to_move,
            "human_to_move": human.is_some(),
            "engine_to_move": self.engine_to_move(),
            "board": board::board(&self.state),
            "text": text,
            "legal": legal,
            "moves": self.moves,
            "result": self.result(),
            "music": self.music,
        })
    }

    fn play(
        &mut self,
        action: Option<i64>,
        notation: Option<&str>,
        engines: &Engines,
    ) -> Result<(), Refusal> {
        if self.state.is_terminal() {
            return Err(Refusal::conflict("the game is over; start a new one"));
        }
        let Some(seat) = self.human_seat_to_move() else {
            return Err(Refusal::conflict(
                "it is not a person's turn; ask for the engine's move (POST .../engine)",
            ));
        };
        let legal = self.legal_of(seat);
        let a = match (action, notation) {
            (Some(a), _) => Action::try_from(a).map_err(|_| {
                Refusal::bad(format!("action {a} is not an action index of this game"))
            })?,
            (None, Some(text)) => self
                .state
                .parse_action(text)
                .map_err(|e| Refusal::bad(format!("move '{text}': {e}")))?,
            (None, None) => {
                return Err(Refusal::bad(
                    "give \"action\" (an index) or \"move\" (notation)",
                ))
            }
        };
        if !legal.contains(&a) {
            let list: Vec<String> = legal
                .iter()
                .map(|&x| self.state.action_to_string(x))
                .collect();
            return Err(Refusal::bad(format!(
                "{} is not legal here (legal: {})",
                if (a as usize) < self.game.num_actions() {
                    self.state.action_to_string(a)
                } else {
                    format!("#{a}")
                },
                list.join(" ")
            )));
        }
        if self.state.turn() == Turn::Simultaneous {
            self.pending[seat] = Some(a);
            // The engines choose without seeing the person's choice.
            for s in self.owing() {
                if matches!(self.seats[s], Seat::Engine(_)) {
                    let e = self.engine_choice(s, engines)?;
                    self.pending[s] = Some(e);
                }
            }
            self.resolve_joint();
        } else {
            self.log(Some(seat), a);
            self.state.apply(a);
            self.settle();
        }
        Ok(())
    }

    fn engine_move(&mut self, engines: &Engines) -> Result<(), Refusal> {
        if self.state.is_terminal() {
            return Err(Refusal::conflict("the game is over; start a new one"));
        }
        match self.state.turn() {
            Turn::Player(p) if matches!(self.seats[p], Seat::Engine(_)) => {
                let a = self.engine_choice(p, engines)?;
                self.log(Some(p), a);
                self.state.apply(a);
                self.settle();
                Ok(())
            }
            Turn::Simultaneous if self.engine_to_move() => {
                for s in self.owing() {
                    if matches!(self.seats[s], Seat::Engine(_)) {
                        let e = self.engine_choice(s, engines)?;
                        self.pending[s] = Some(e);
                    }
                }
                self.resolve_joint();
                Ok(())
            }
            _ => Err(Refusal::conflict(
                "it is a person's turn, not an engine's; play a move (POST .../move)",
            )),
        }
    }

    fn engine_to_move(&self) -> bool {
        match self.state.turn() {
            Turn::Player(p) => matches!(self.seats[p], Seat::Engine(_)),
            // Engines answer at a simultaneous turn only when no person owes
            // an action there (otherwise they choose with the person's move).
            Turn::Simultaneous => {
                let owing = self.owing();
                !owing.is_empty()
                    && owing
                        .iter()
                        .all(|&s| matches!(self.seats[s], Seat::Engine(_)))
            }
            _ => false,
        }
    }

    fn music_seconds(&self) -> f64 {
        let bars = self.moves.iter().filter(|m| m.seat.is_some()).count();
        let quarters = f64::from(self.config.bar_ticks) / f64::from(self.config.ticks_per_quarter);
        bars as f64 * quarters * 60.0 / self.music.tempo
    }

    fn midi(&self) -> Result<Vec<u8>, Refusal> {
        let bars: Vec<ScoreBar> = self
            .moves
            .iter()
            .filter_map(|m| {
                m.seat.map(|seat| ScoreBar {
                    seat,
                    cell: None,
                    bar: m.bar,
                })
            })
            .collect();
        if !bars.iter().any(|b| b.bar.is_some()) {
            return Err(Refusal::conflict(
                "no music yet: no move of this game has occupied a square",
            ));
        }
        let opts = MidiOptions {
            tempo_bpm: self.music.tempo,
            instruments: self.music.instruments.clone(),
            seat_names: self
                .game
                .seat_names()
                .iter()
                .map(|s| s.to_string())
                .collect(),
            title: format!("wopr: {}", self.game.spec()),
        };
        to_midi(&bars, &self.config, &opts).map_err(|e| Refusal::bad(format!("music: {e}")))
    }
}
