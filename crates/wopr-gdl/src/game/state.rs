//! The [`State`] and [`Searchable`] faces of [`GdlState`]: turns, legal
//! moves, returns and notation through the sheet's reasoner.

use std::hash::{Hash, Hasher};

use super::actions::notation;
use super::GdlState;
use wopr_core::game::{Action, ActionList, Searchable, State, Turn};

impl State for GdlState {
    type View = GdlState;

    fn turn(&self) -> Turn {
        self.turn
    }

    fn legal_actions(&self, out: &mut ActionList) {
        match self.turn {
            Turn::Player(seat) => self.seat_legal(seat, out),
            Turn::Chance => {
                let r = self.rules.random.expect("a chance turn has a random role");
                self.role_legal(r, out);
            }
            _ => {}
        }
    }

    fn apply(&mut self, action: Action) {
        match self.turn {
            Turn::Player(seat) => {
                let role = self.rules.seats[seat];
                let m = self.move_of(role, action).unwrap_or(u32::MAX);
                self.advance(&[(role, m)]);
            }
            Turn::Chance => {
                let r = self.rules.random.expect("a chance turn has a random role");
                self.pending = self.move_of(r, action);
            }
            _ => return,
        }
        self.settle();
    }

    fn returns(&self, player: usize) -> f64 {
        if self.turn != Turn::Terminal {
            return 0.0;
        }
        let Some(&role) = self.rules.seats.get(player) else {
            return 0.0;
        };
        let goal = self.rules.reasoner.goal(&self.facts, role).unwrap_or(0);
        (goal as f64 - 50.0) / 50.0
    }

    fn view(&self, _player: usize) -> GdlState {
        self.clone()
    }

    fn action_to_string(&self, action: Action) -> String {
        self.action_term(action)
            .map_or_else(|| format!("#{action}"), notation)
    }

    fn parse_action(&self, text: &str) -> Result<Action, String> {
        self.parse_move(text)
    }

    /// The square a move fills, read from the `(cell X Y V)` fact it makes
    /// true (Tic-Tac-Toe's and Connect-4's sheets have them), for the
    /// musicator; `None` on sheets without such facts.
    fn action_cell(&self, action: Action) -> Option<(usize, usize)> {
        self.occupied_cell(action)
    }

    fn chance_outcomes(&self, out: &mut Vec<(Action, f64)>) {
        out.clear();
        if self.turn != Turn::Chance {
            return;
        }
        let mut legal = ActionList::new();
        self.legal_actions(&mut legal);
        let p = 1.0 / legal.len() as f64;
        out.extend(legal.iter().map(|&a| (a, p)));
    }

    fn legal_actions_of(&self, player: usize, out: &mut ActionList) {
        match self.turn {
            Turn::Simultaneous if player < self.rules.seats.len() => self.seat_legal(player, out),
            Turn::Player(p) if p == player => self.seat_legal(player, out),
            _ => {}
        }
    }

    fn joint_seats(&self) -> usize {
        self.rules.seats.len()
    }

    fn apply_joint(&mut self, actions: &[Action]) {
        if self.turn != Turn::Simultaneous {
            return;
        }
        let chosen: Vec<(usize, u32)> = self
            .rules
            .seats
            .iter()
            .zip(actions)
            .filter_map(|(&role, &a)| Some((role, self.move_of(role, a)?)))
            .collect();
        self.advance(&chosen);
        self.settle();
    }
}

impl Searchable for GdlState {
    fn key(&self) -> u64 {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.facts.hash(&mut h);
        self.pending.hash(&mut h);
        h.finish()
    }

    /// The mover's goal value where the sheet defines one here, centred:
    /// `(goal − 50) × 1000`; 0 where none holds.
    fn evaluate(&self) -> i32 {
        let Turn::Player(seat) = self.turn else {
            return 0;
        };
        let role = self.rules.seats[seat];
        match self.rules.reasoner.goal(&self.facts, role) {
            Some(g) => (g as i32 - 50) * 1000,
            None => 0,
        }
    }
}
