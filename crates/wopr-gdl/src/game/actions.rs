//! How a GDL state names its actions: the legal actions of a role, the
//! MoveId and move term of an action (fixed per sheet, or ranked at the
//! position: see the parent module's docs, "Ranked actions"), and
//! notation.

use super::{GdlState, Term};
use wopr_core::game::{parse_index, Action, ActionList, Turn, MAX_ACTIONS};

impl GdlState {
    /// Lists seat `seat`'s legal actions here in `out` (see
    /// [`GdlState::role_legal`]).
    pub(super) fn seat_legal(&self, seat: usize, out: &mut ActionList) {
        self.role_legal(self.rules.seats[seat], out);
    }

    /// Lists `role`'s legal actions here in `out`, lowest first: at most
    /// the [`MAX_ACTIONS`] lowest where there are more (see the module
    /// docs, "Move lists"). A role's MoveIds and the actions both follow
    /// the order of `cmp_terms`, so the actions of increasing MoveIds
    /// increase.
    pub(super) fn role_legal(&self, role: usize, out: &mut ActionList) {
        let legal = self.legal[role].iter().take(MAX_ACTIONS - out.len());
        if self.rules.ranked() {
            out.extend((0..legal.len()).map(|k| k as Action));
        } else {
            let action_of = &self.rules.action_of[role];
            out.extend(legal.map(|&m| action_of[m as usize]));
        }
    }

    /// `role`'s MoveId of `action` here, if the role can make it.
    pub(super) fn move_of(&self, role: usize, action: Action) -> Option<u32> {
        if self.rules.ranked() {
            self.legal.get(role)?.get(action as usize).copied()
        } else {
            self.rules.move_of(role, action)
        }
    }

    /// The role that chooses here: the seat on turn, chance, or on a
    /// simultaneous turn the first seat.
    fn chooser(&self) -> Option<usize> {
        match self.turn {
            Turn::Player(seat) => Some(self.rules.seats[seat]),
            Turn::Chance => self.rules.random,
            Turn::Simultaneous => Some(self.rules.seats[0]),
            Turn::Terminal => None,
        }
    }

    /// The move term of `role`'s `action` here.
    fn role_move_term(&self, role: usize, action: Action) -> Option<&Term> {
        if self.rules.ranked() {
            let m = self.move_of(role, action)?;
            self.rules.reasoner.moves(role).get(m as usize)
        } else {
            self.rules.actions.get(action as usize)
        }
    }

    /// The move term of `action` for the role choosing here (on a
    /// simultaneous turn the first seat; [`Gdl::has_ranked_actions`](super::Gdl::has_ranked_actions) says
    /// when that matters).
    pub fn action_term(&self, action: Action) -> Option<&Term> {
        self.role_move_term(self.chooser()?, action)
    }

    /// Seat `seat`'s `action` here in notation (as
    /// [`State::action_to_string`](wopr_core::game::State::action_to_string), whose actions are the choosing
    /// role's: the two differ only for ranked actions on a simultaneous
    /// turn).
    pub fn seat_action_to_string(&self, seat: usize, action: Action) -> String {
        let term = match self.rules.seats.get(seat) {
            Some(&role) if self.rules.ranked() => self.role_move_term(role, action),
            _ => self.action_term(action),
        };
        term.map_or_else(|| format!("#{action}"), notation)
    }

    /// The action that `text` names here: a move term in notation or as
    /// the sheet writes it, or `#N`.
    pub(super) fn parse_move(&self, text: &str) -> Result<Action, String> {
        let want = normalise(text);
        let compact: String = text.to_ascii_lowercase().split_whitespace().collect();
        let is = |t: &Term| {
            let kif = normalise(&t.to_string());
            kif == want || kif == format!("({want})") || notation(t) == compact
        };
        // Ranked actions name the choosing role's legal moves here.
        let terms: Vec<&Term> = match self.chooser() {
            _ if !self.rules.ranked() => self.rules.actions.iter().collect(),
            Some(role) => {
                let moves = self.rules.reasoner.moves(role);
                let legal = &self.legal[role][..self.legal[role].len().min(MAX_ACTIONS)];
                legal.iter().map(|&m| &moves[m as usize]).collect()
            }
            None => Vec::new(),
        };
        if let Some(i) = terms.iter().position(|t| is(t)) {
            return Ok(i as Action);
        }
        parse_index(text, terms.len()).ok_or_else(|| {
            format!(
                "'{}' is not a move of {}{} (write a move term such as {}, or #N for action N < {})",
                text.trim(),
                self.rules.path,
                if self.rules.ranked() { " here" } else { "" },
                terms.last().map_or("noop".to_string(), |t| notation(t)),
                terms.len()
            )
        })
    }
}

/// A move's notation without spaces, so that a list of moves splits on
/// whitespace: `(mark 1 1)` is written `mark(1,1)`, a constant as itself.
pub(super) fn notation(t: &Term) -> String {
    match t {
        Term::Const(c) => c.to_string(),
        Term::Var(v) => format!("?{v}"),
        Term::Fn(f, args) => {
            let args: Vec<String> = args.iter().map(notation).collect();
            format!("{f}({})", args.join(","))
        }
    }
}

/// Lower case, single spaces, no space inside parentheses' edges.
fn normalise(text: &str) -> String {
    text.to_ascii_lowercase()
        .replace('(', " ( ")
        .replace(')', " ) ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("( ", "(")
        .replace(" )", ")")
}
