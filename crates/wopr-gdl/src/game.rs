//! A GDL rule sheet as a wopr [`Game`]: the spec `gdl:PATH.kif`.
//!
//! **Seats and turns.** The seats are the sheet's roles in the order of its
//! `role` facts, GDL-II's `random` left out (it is chance). GDL moves are
//! simultaneous: every role makes a move at every step, and turn-taking
//! games give the roles not on turn a single legal move such as `noop`. So
//! at each state a role is *passive* when its only legal move is a constant
//! (`noop`, `wait`, a forced `pass`) and *active* otherwise, and the turn is:
//! - terminal when `terminal` holds;
//! - chance when `random` has more than one legal move (its move is drawn
//!   first and kept aside until the players' moves join it);
//! - one player's when exactly one seat is active: the others' single moves
//!   are implied, so Tic-Tac-Toe and Connect-4 play as alternating games;
//! - simultaneous when two or more seats are active;
//! - and when no seat is active and chance has nothing to draw, the forced
//!   joint move is made at once (a guard of [`FORCED_LIMIT`] such steps in a
//!   row ends a sheet that would loop forever).
//!
//! **Actions.** One index per distinct ground move term of any role
//! (chance's included), in the order of
//! [`cmp_terms`]: the same term is the same
//! action whoever makes it (`(mark 1 1)` for either player). Notation is the
//! move term without spaces, `mark(1,1)` (so that move lists split on
//! whitespace); the sheet's own `(mark 1 1)` and `#N` (action `N`) are read
//! too, case-insensitively.
//!
//! *Ranked actions.* A sheet with more distinct move terms than an
//! [`Action`] holds (65,535; the amazons sheets have up to 129,601) is
//! played with actions that name a move by its rank among the legal moves
//! of the role choosing at that position instead: action `k` is the `k`-th
//! lowest there, in the same term order. Play, notation and `#N` work as
//! before, but an action means a move only together with its position
//! ([`Gdl::has_ranked_actions`]), and [`Game::num_actions`] is
//! [`MAX_ACTIONS`]. On a simultaneous turn each seat's actions rank its
//! own legal moves; [`GdlState::seat_action_to_string`] names them.
//!
//! **Move lists.** A role may have any number of possible moves. Every wopr game lists a position's
//! moves in one fixed-size list of [`MAX_ACTIONS`] (512), so where a role
//! has more legal moves than that *at one position*, wopr's own players
//! (MCTS, random, nets) choose among the 512 of lowest action and never see
//! the rest there. GDL perft (`super::steps`) and a GGP player's list of
//! legal moves read the reasoner directly and see them all, so counts and
//! the moves a game manager may send are unaffected.
//!
//! **Returns.** GDL goals are 0..=100; a seat's return is
//! `(goal − 50) / 50`, so 100/50/0 become +1/0/−1 (a seat with no goal
//! holding counts as goal 0).
//!
//! **Parameters.** `gdl:PATH[,max-plies=N][,memory=SIZE]`: the rule
//! sheet's path (no commas), the bound on a game's length that play and
//! evaluation enforce (default 10,000 plies), and the memory budget of
//! grounding the sheet (a [`Budget`] such as `512M` or `4G`; by default
//! the one [`BUDGET_ENV`](super::ground::BUDGET_ENV) sets, else 1 GiB).
//! The budget is how the sheet is loaded, not the game: [`Game::spec`]
//! leaves it out.
//!
//! **Players.** `random`, `first`, `mcts` with random rollouts on every
//! sheet; on sheets whose turns are all one player's (checked on random
//! playouts the first time a player, an encoding or `gdl check` asks, not
//! when the sheet is loaded: 64 games, none started after 2,048 plies in
//! all, 256 on the non-ground evaluator; no `random` role), also `alphabeta`
//! with a generic evaluation (the mover's goal value where the sheet defines
//! one before the end, else 0) and `net:` players on the `facts` encoding:
//! one input per seat for the player to move, then one input per ground base
//! fact (1 when true).

use std::fmt;
use std::sync::{Arc, OnceLock};

use super::ast::Term;
use super::check::{check, stratified};
use super::ground::Budget;
use super::parse::{parse_within, read_file, Parsed};
use super::reasoner::{cmp_terms, Facts, Reasoner};
use wopr_core::game::{
    Action, Game, GameInfo, GameSpec, Nature, ParamInfo, SpecError, Turn, MAX_ACTIONS,
};

/// Forced joint moves in a row after which a state counts as terminal.
pub const FORCED_LIMIT: usize = 100_000;

pub const INFO: GameInfo = GameInfo {
    name: "gdl",
    aliases: &[],
    about: "any game written in GDL (a KIF rule sheet): gdl:PATH.kif",
    paper: "",
    params: &[
        ParamInfo {
            name: "path",
            default: "",
            doc: "the rule sheet, written bare: gdl:gdl/tictactoe.kif",
        },
        ParamInfo {
            name: "max-plies",
            default: "10000",
            doc: "longest game play and evaluation allow, 1..=1000000",
        },
        ParamInfo {
            name: "memory",
            default: "1G",
            doc: "memory budget for grounding the sheet, e.g. 512M or 4G (default: $WOPR_GDL_MEMORY, else 1G)",
        },
    ],
    nature: Nature {
        zero_sum: false,
        ..Nature::BOARD
    },
    examples: &[],
    bench: &[],
};

/// What every state of one sheet shares.
struct Rules {
    path: String,
    max_plies: usize,
    reasoner: Reasoner,
    /// The role of each seat (the roles but `random`).
    seats: Vec<usize>,
    /// The `random` role.
    random: Option<usize>,
    /// The seats' names.
    names: Vec<&'static str>,
    /// Every move term of any role: action `a` is `actions[a]`.
    actions: Vec<Term>,
    /// Per role, the action of each of its MoveIds.
    action_of: Vec<Vec<Action>>,
    /// Per role, the MoveId of each action (`u32::MAX` where the role
    /// can never make it): `action_of` backwards.
    move_id: Vec<Vec<u32>>,
    /// Per role, whether each MoveId is a constant (a passive move when it
    /// is the only legal one).
    constant: Vec<Vec<bool>>,
    /// What probing found ([`players::probe`]), worked out the first
    /// time a player, an encoding or `gdl check` asks: (alternating,
    /// simultaneous). Alternating: only one-player turns met, no `random`
    /// role and two seats, so alpha-beta and nets apply; simultaneous: a
    /// simultaneous turn met, so MCTS does not apply. Counting (perft),
    /// random play and the GGP protocol's reasoning never need it, so
    /// loading a sheet does not pay for the probe's random games.
    kinds: OnceLock<(bool, bool)>,
    /// Whether the sheet has `sees` (GDL-II): players see their percepts
    /// only ([`GdlHidden`]).
    hidden: bool,
    /// Whether its negation is stratified only over ground atoms, not
    /// over relations as GDL asks ([`Gdl::is_extension`]).
    extension: bool,
}

impl Rules {
    /// Whether an action is a rank in the choosing role's legal moves at
    /// a position rather than an index in `actions`: there are more
    /// distinct moves than an [`Action`] holds (see the module docs,
    /// "Ranked actions"). Then `action_of` and `move_id` are empty.
    fn ranked(&self) -> bool {
        self.actions.len() > usize::from(Action::MAX)
    }

    /// The MoveId of `action` for `role`, if the role can ever make it.
    fn move_of(&self, role: usize, action: Action) -> Option<u32> {
        self.move_id
            .get(role)?
            .get(action as usize)
            .copied()
            .filter(|&m| m != u32::MAX)
    }
}

/// A game written in GDL.
#[derive(Clone)]
pub struct Gdl {
    rules: Arc<Rules>,
}

impl fmt::Debug for Gdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Gdl({})", self.rules.path)
    }
}

impl Gdl {
    /// Loads, checks and grounds the rule sheet `text` (named `path` in
    /// errors and in the game's spec) within the memory budget that
    /// [`BUDGET_ENV`](super::ground::BUDGET_ENV) sets, else the default
    /// ([`Budget::from_env`]).
    pub fn from_text(path: &str, text: &str, max_plies: usize) -> Result<Gdl, SpecError> {
        let budget = Budget::from_env().map_err(|e| SpecError(format!("gdl:{path}: {e}")))?;
        Gdl::from_text_within(path, text, max_plies, budget)
    }

    /// As [`Gdl::from_text`], loading within `budget`: the text (held by
    /// the caller throughout), the syntax tree reading makes and then
    /// grounding all count against it ([`parse_within`]).
    pub fn from_text_within(
        path: &str,
        text: &str,
        max_plies: usize,
        budget: Budget,
    ) -> Result<Gdl, SpecError> {
        let fail = |e: super::GdlError| SpecError(format!("gdl:{path}: {e}"));
        let parsed = parse_within(text.as_bytes(), budget).map_err(fail)?;
        let held = parsed.bytes.saturating_add(text.len() as u64);
        Gdl::from_parsed(path, parsed, max_plies, budget.holding(held))
    }

    /// Checks and grounds a sheet already read ([`parse_within`]) within
    /// `budget`, whose [`Budget::holding`] says what the caller still
    /// holds (at least the sheet's syntax tree, `parsed.bytes`).
    pub fn from_parsed(
        path: &str,
        parsed: Parsed,
        max_plies: usize,
        budget: Budget,
    ) -> Result<Gdl, SpecError> {
        let fail = |e: super::GdlError| SpecError(format!("gdl:{path}: {e}"));
        let sheet = parsed.sheet;
        check(&sheet).map_err(fail)?;
        let extension = stratified(&sheet).is_err();
        let reasoner = Reasoner::with_budget(&sheet, budget).map_err(fail)?;
        drop(sheet);
        let random = reasoner.random_role();
        let seats: Vec<usize> = (0..reasoner.roles().len())
            .filter(|&r| Some(r) != random)
            .collect();
        if seats.is_empty() {
            return Err(SpecError(format!(
                "gdl:{path}: the sheet has no role but random"
            )));
        }
        let mut actions: Vec<Term> = (0..reasoner.roles().len())
            .flat_map(|r| reasoner.moves(r).iter().cloned())
            .collect();
        actions.sort_by(cmp_terms);
        actions.dedup();
        let ranked = actions.len() > usize::from(Action::MAX);
        let action_of: Vec<Vec<Action>> = (0..reasoner.roles().len())
            .filter(|_| !ranked)
            .map(|r| {
                reasoner
                    .moves(r)
                    .iter()
                    .map(|m| actions.binary_search_by(|x| cmp_terms(x, m)).unwrap_or(0) as Action)
                    .collect()
            })
            .collect();
        let constant = (0..reasoner.roles().len())
            .map(|r| {
                reasoner
                    .moves(r)
                    .iter()
                    .map(|m| matches!(m, Term::Const(_)))
                    .collect()
            })
            .collect();
        let names = seats
            .iter()
            .map(|&r| static_name(&reasoner.roles()[r]))
            .collect();
        let hidden = (0..reasoner.roles().len()).any(|r| !reasoner.percepts(r).is_empty());
        let move_id = action_of
            .iter()
            .map(|acts: &Vec<Action>| {
                let mut ids = vec![u32::MAX; actions.len()];
                for (m, &a) in acts.iter().enumerate() {
                    ids[a as usize] = m as u32;
                }
                ids
            })
            .collect();
        let rules = Rules {
            path: path.to_string(),
            max_plies,
            reasoner,
            seats,
            random,
            names,
            actions,
            move_id,
            action_of,
            constant,
            kinds: OnceLock::new(),
            hidden,
            extension,
        };
        Ok(Gdl {
            rules: Arc::new(rules),
        })
    }

    /// (alternating, simultaneous), probed on first use (`Rules::kinds`).
    fn kinds(&self) -> (bool, bool) {
        *self.rules.kinds.get_or_init(|| {
            let (chance, simultaneous) = players::probe(self);
            // Search and nets are two-player, zero-sum tools here.
            let alternating = self.rules.random.is_none()
                && !chance
                && !simultaneous
                && self.rules.seats.len() == 2;
            (alternating, simultaneous)
        })
    }

    /// Whether every turn seen on random playouts was one player's (and the
    /// sheet has no chance): searching and net players apply.
    pub fn is_alternating(&self) -> bool {
        self.kinds().0
    }

    /// Whether the sheet has GDL-II's `random` role (chance).
    pub fn has_random(&self) -> bool {
        self.rules.random.is_some()
    }

    /// Whether the probe's random playouts met a simultaneous turn (run
    /// on the first question about the kinds of turn).
    pub fn has_simultaneous_turns(&self) -> bool {
        self.kinds().1
    }

    /// Where GDL steps from `state` start: the sheet's `init` if `state` is
    /// the start position (which has played any forced steps already),
    /// else `state`'s facts.
    pub fn step_root(&self, state: &GdlState) -> Facts {
        if state.facts() == self.initial_state().facts() {
            self.reasoner().initial()
        } else {
            state.facts().clone()
        }
    }

    /// The reasoner under the game.
    pub fn reasoner(&self) -> &Reasoner {
        &self.rules.reasoner
    }

    /// The state whose true facts are `facts` (a GGP player's position,
    /// followed from the joint moves it is told), its turn worked out as
    /// [`Game::initial_state`]'s is: forced joint moves are made at once.
    pub fn state_at(&self, facts: Facts) -> GdlState {
        GdlState::new(self.rules.clone(), facts)
    }

    /// Whether actions are ranks among a position's legal moves rather
    /// than fixed move terms (a sheet with more distinct moves than an
    /// [`Action`] holds; see the module docs, "Ranked actions").
    pub fn has_ranked_actions(&self) -> bool {
        self.rules.ranked()
    }

    /// Whether the sheet's negation is stratified over ground atoms only,
    /// not over relations as the specification asks (a wopr extension:
    /// a negation cycle between relations that vanishes once ground).
    pub fn is_extension(&self) -> bool {
        self.rules.extension
    }

    /// How many distinct move terms the sheet's roles have in all.
    pub fn num_distinct_moves(&self) -> usize {
        self.rules.actions.len()
    }
}

/// `name` as a `'static` string (seat names are `'static` in the `Game`
/// trait): each distinct name is leaked once, however many times sheets
/// are loaded (a server loads one per request).
fn static_name(name: &str) -> &'static str {
    static NAMES: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let mut names = NAMES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&known) = names.iter().find(|&&n| n == name) {
        return known;
    }
    let leaked: &'static str = Box::leak(name.to_string().into_boxed_str());
    names.push(leaked);
    leaked
}

/// A position of a GDL game: the true facts, and chance's move when it has
/// been drawn but the players' moves have not joined it yet.
#[derive(Clone)]
pub struct GdlState {
    rules: Arc<Rules>,
    facts: Facts,
    /// Chance's drawn move (a MoveId of `random`).
    pending: Option<u32>,
    turn: Turn,
    /// Each role's legal MoveIds here.
    legal: Vec<Vec<u32>>,
    /// On sheets with `sees`: per seat, the percept ids it got at each
    /// joint move so far.
    seen: Vec<Vec<Vec<u32>>>,
}

impl PartialEq for GdlState {
    fn eq(&self, other: &Self) -> bool {
        self.facts == other.facts && self.pending == other.pending
    }
}

impl fmt::Debug for GdlState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "GdlState({:?}, {:?})", self.facts, self.pending)
    }
}

impl GdlState {
    fn new(rules: Arc<Rules>, facts: Facts) -> GdlState {
        let seats = if rules.hidden { rules.seats.len() } else { 0 };
        let mut s = GdlState {
            rules,
            facts,
            pending: None,
            seen: vec![Vec::new(); seats],
            turn: Turn::Terminal,
            legal: Vec::new(),
        };
        s.settle();
        s
    }

    /// The true base facts.
    pub fn facts(&self) -> &Facts {
        &self.facts
    }

    fn is_active(&self, role: usize) -> bool {
        match &self.legal[role][..] {
            [] => false,
            [m] => !self.rules.constant[role][*m as usize],
            _ => true,
        }
    }

    /// Works out the turn, making forced joint moves until someone (or
    /// chance) has a choice or the game is over.
    fn settle(&mut self) {
        for _ in 0..FORCED_LIMIT {
            let terminal = self
                .rules
                .reasoner
                .analyse_into(&self.facts, &mut self.legal);
            if terminal {
                self.turn = Turn::Terminal;
                return;
            }
            if let Some(r) = self.rules.random {
                if self.pending.is_none() {
                    match self.legal[r][..] {
                        [] => {}
                        [m] => self.pending = Some(m),
                        _ => {
                            self.turn = Turn::Chance;
                            return;
                        }
                    }
                }
            }
            // The active seats: how many, and the first.
            let (mut active, mut first) = (0, 0);
            for s in (0..self.rules.seats.len()).rev() {
                if self.is_active(self.rules.seats[s]) {
                    (active, first) = (active + 1, s);
                }
            }
            match active {
                0 if self.rules.seats.iter().any(|&r| self.legal[r].is_empty()) => {
                    // A role with no legal move: the sheet is stuck.
                    self.turn = Turn::Terminal;
                    return;
                }
                0 => self.advance(&[]),
                1 => {
                    self.turn = Turn::Player(first);
                    return;
                }
                _ => {
                    self.turn = Turn::Simultaneous;
                    return;
                }
            }
        }
        self.turn = Turn::Terminal;
    }

    /// Makes the joint move: `chosen` gives (role, MoveId) for the roles
    /// that chose; every other role makes its first legal move (its only
    /// one when passive), chance its drawn move.
    fn advance(&mut self, chosen: &[(usize, u32)]) {
        // The joint move on the stack where the roles are few (they are,
        // but for the odd sheet): this runs once a ply.
        let roles = self.legal.len();
        let (mut stack, mut heap) = ([u32::MAX; 8], Vec::new());
        let joint: &mut [u32] = if roles <= stack.len() {
            &mut stack[..roles]
        } else {
            heap.resize(roles, u32::MAX);
            &mut heap
        };
        for (j, l) in joint.iter_mut().zip(&self.legal) {
            *j = l.first().copied().unwrap_or(u32::MAX);
        }
        if let (Some(r), Some(m)) = (self.rules.random, self.pending.take()) {
            joint[r] = m;
        }
        for &(r, m) in chosen {
            joint[r] = m;
        }
        if self.rules.hidden {
            for (seat, &role) in self.rules.seats.iter().enumerate() {
                let mut got = Vec::new();
                self.rules.reasoner.sees(&self.facts, joint, role, &mut got);
                self.seen[seat].push(got);
            }
        }
        self.rules.reasoner.advance(&mut self.facts, joint);
    }
}

impl Game for Gdl {
    type State = GdlState;
    const INFO: GameInfo = INFO;

    /// Reads the sheet at the spec's bare argument.
    fn from_spec(spec: &GameSpec) -> Result<Gdl, SpecError> {
        spec.check_keys(&["", "max-plies", "memory"])?;
        let path = spec.get("").ok_or_else(|| {
            SpecError("'gdl' needs a rule sheet: gdl:PATH.kif (e.g. gdl:gdl/tictactoe.kif)".into())
        })?;
        let max_plies = spec.int("max-plies", 10_000, 1, 1_000_000)? as usize;
        let budget = match spec.get("memory") {
            Some(v) => Budget::parse(v).map_err(|e| SpecError(format!("'gdl': memory={e}")))?,
            None => Budget::from_env().map_err(|e| SpecError(format!("'gdl': {e}")))?,
        };
        let fail = |e: super::GdlError| SpecError(format!("gdl:{path}: {e}"));
        // The budget holds from the first byte: the file's size, then
        // what reading makes; the text is dropped before grounding.
        let text = read_file(std::path::Path::new(path), budget).map_err(fail)?;
        let parsed = parse_within(&text, budget).map_err(fail)?;
        drop(text);
        let held = parsed.bytes;
        Gdl::from_parsed(path, parsed, max_plies, budget.holding(held))
    }

    fn spec(&self) -> String {
        if self.rules.max_plies == 10_000 {
            format!("gdl:{}", self.rules.path)
        } else {
            format!("gdl:{},max-plies={}", self.rules.path, self.rules.max_plies)
        }
    }

    fn num_players(&self) -> usize {
        self.rules.seats.len()
    }

    fn num_actions(&self) -> usize {
        if self.rules.ranked() {
            MAX_ACTIONS
        } else {
            self.rules.actions.len()
        }
    }

    fn max_game_length(&self) -> usize {
        self.rules.max_plies
    }

    fn initial_state(&self) -> GdlState {
        GdlState::new(self.rules.clone(), self.rules.reasoner.initial())
    }

    fn seat_names(&self) -> Vec<&'static str> {
        self.rules.names.clone()
    }
}

mod actions;
mod hidden;
mod players;
mod state;
#[cfg(test)]
mod tests;
mod text;

pub use hidden::{GdlHidden, GdlHiddenState, GdlView};
