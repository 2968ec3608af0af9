//! How a `State` plays: OpenSpiel's forced moves, its numbering of
//! actions and joint actions, and `legal_actions(player)` as OpenSpiel's
//! games answer it.

use std::sync::Arc;

use pyo3::prelude::*;

use wopr::game::{Action, Turn};

use super::{PyState, CHANCE, SIMULTANEOUS};
use crate::erased::{DynGame, DynState};
use crate::errors::value_error;
use crate::spiel::Facts;
use crate::views::{self, View};

impl PyState {
    /// A state of `game`, with OpenSpiel's forced moves played.
    pub fn new(inner: Box<dyn DynState>, game: Arc<dyn DynGame>, facts: Arc<Facts>) -> PyState {
        let mut s = PyState {
            inner,
            game,
            facts,
            auto: 0,
            moves: 0,
        };
        s.settle();
        s
    }

    /// Plays what OpenSpiel's version plays by itself: Goofspiel's last
    /// round (the one prize left, then each player's one card).
    pub(super) fn settle(&mut self) {
        if !self.facts.auto_last_round {
            return;
        }
        let own = self.own_len();
        loop {
            let forced = match self.inner.turn() {
                Turn::Chance => {
                    let o = self.inner.chance_outcomes();
                    (o.len() == 1).then(|| self.inner.apply(o[0].0))
                }
                Turn::Simultaneous => {
                    let only: Option<Vec<Action>> = (0..self.facts.num_players)
                        .map(|p| match self.inner.legal_actions(Some(p))[..] {
                            [a] => Some(a),
                            _ => None,
                        })
                        .collect();
                    only.map(|joint| self.inner.apply_joint(&joint))
                }
                _ => None,
            };
            match forced {
                Some(Ok(())) => self.auto = self.inner.history().len() - own,
                _ => return,
            }
        }
    }

    /// OpenSpiel's view of the game, for OpenSpiel's games (`None` for
    /// wopr's specs, which keep wopr's strings and encodings).
    pub(super) fn view(&self) -> Option<View> {
        views::of(&self.facts)
    }

    /// The length of the history the caller made (forced moves aside).
    pub(super) fn own_len(&self) -> usize {
        self.inner.history().len() - self.auto
    }

    /// wopr's action as OpenSpiel numbers it (OpenSpiel's Pig numbers the
    /// die's faces from 0).
    pub(super) fn os_action(&self, a: Action) -> Action {
        let o = self.facts.chance_offset;
        if o > 0 && a >= o {
            a - o
        } else {
            a
        }
    }

    /// OpenSpiel's action `a` as wopr numbers it, at a chance node
    /// (`chance`) or a player's.
    pub(super) fn wopr_action(&self, a: Action, chance: bool) -> Action {
        match chance {
            true => a.saturating_add(self.facts.chance_offset),
            false => a,
        }
    }

    /// The actions so far, as OpenSpiel numbers them.
    pub(super) fn own_history(&self) -> Vec<Action> {
        let h = &self.inner.history()[..self.own_len()];
        h.iter().map(|&a| self.os_action(a)).collect()
    }

    /// `p` as a seat: a SpielError for what is not one.
    pub(super) fn seat(&self, p: i64) -> PyResult<usize> {
        let n = self.facts.num_players;
        usize::try_from(p)
            .ok()
            .filter(|&s| s < n)
            .ok_or_else(|| value_error(format!("player {p} is not a seat (0..{n})")))
    }

    /// The observer of an observation: `player`, or the player to move
    /// (seat 0 where no one player is).
    pub(super) fn observer(&self, player: Option<i64>) -> PyResult<usize> {
        match (player, self.inner.turn()) {
            (Some(p), _) => self.seat(p),
            (None, Turn::Player(p)) => Ok(p),
            (None, _) => Ok(0),
        }
    }

    pub(super) fn apply_one(&mut self, action: Action) -> PyResult<()> {
        let chance = self.inner.turn() == Turn::Chance;
        if chance && self.facts.chance_offset > 0 {
            // Checked in the caller's numbering, which wopr's error would
            // not speak (Pig's face 6 is wopr's outcome 8).
            let outcomes: Vec<Action> = self.outcomes().iter().map(|o| o.0).collect();
            if !outcomes.contains(&action) {
                return Err(value_error(format!(
                    "{action} is not a chance outcome here (outcomes: {outcomes:?})"
                )));
            }
        }
        let action = self.wopr_action(action, chance);
        self.inner.apply(action).map_err(value_error)?;
        // OpenSpiel's Goofspiel counts the bids' rounds, not the deals.
        let goofspiel = self.facts.openspiel && self.facts.dynamics == "SIMULTANEOUS";
        if !(chance && goofspiel) {
            self.moves += 1;
        }
        self.settle();
        Ok(())
    }

    /// The chance outcomes here (none where chance is not to move), with
    /// their probabilities, as OpenSpiel numbers them.
    pub(super) fn outcomes(&self) -> Vec<(Action, f64)> {
        let mut o = self.inner.chance_outcomes();
        o.iter_mut().for_each(|(a, _)| *a = self.os_action(*a));
        o
    }

    pub(super) fn apply_joint(&mut self, joint: &[Action]) -> PyResult<()> {
        self.inner.apply_joint(joint).map_err(value_error)?;
        self.moves += 1;
        self.settle();
        Ok(())
    }

    /// `legal_actions(player)` as OpenSpiel's game answers it, for every
    /// player id. Once the game is over, none for anyone. Most games
    /// (OpenSpiel's `State::LegalActions(player)`): the player to move
    /// (-1 at a chance node) has its actions, any other id none, whether
    /// or not it is a seat. Goofspiel has its own: at a chance node -1 has
    /// the outcomes, each seat its hand and -2 as many flat actions as
    /// outcomes (as OpenSpiel's `LegalFlatJointActions` counts them
    /// there); at a simultaneous node -2 has the flat joint actions, each
    /// seat its own, and -1 is a SpielError; an id that is not a seat
    /// (-3, -4, a seat past the last) is a SpielError.
    pub(super) fn openspiel_legal(&self, player: i64) -> PyResult<Vec<Action>> {
        let turn = self.inner.turn();
        if turn == Turn::Terminal {
            return Ok(Vec::new());
        }
        if self.facts.dynamics != "SIMULTANEOUS" {
            return match player == self.current_player() {
                true => self.legal_actions(None),
                false => Ok(Vec::new()),
            };
        }
        match player {
            CHANCE => match turn {
                Turn::Chance => self.legal_actions(None),
                _ => Err(value_error(
                    "player -1 (chance) has no actions at a simultaneous node",
                )),
            },
            SIMULTANEOUS => match turn {
                Turn::Simultaneous => self.legal_actions(None),
                _ => {
                    let n = self.inner.chance_outcomes().len();
                    Ok((0..n).map(|a| a as Action).collect())
                }
            },
            p => {
                let seat = self.seat(p)?;
                match turn {
                    Turn::Simultaneous => Ok(self.each_legal().swap_remove(seat)),
                    _ => Ok(self.hand(seat)),
                }
            }
        }
    }

    /// A Goofspiel seat's hand, ascending: the cards it has not bid (each
    /// round is a deal, then one bid a seat).
    pub(super) fn hand(&self, seat: usize) -> Vec<Action> {
        let n = self.facts.num_players;
        let bid: Vec<Action> = self.inner.history()[..self.own_len()]
            .iter()
            .skip(1 + seat)
            .step_by(n + 1)
            .copied()
            .collect();
        (0..self.facts.num_distinct_actions)
            .map(|a| a as Action)
            .filter(|a| !bid.contains(a))
            .collect()
    }

    /// Each player's legal actions at a simultaneous turn, ascending.
    pub(super) fn each_legal(&self) -> Vec<Vec<Action>> {
        (0..self.facts.num_players)
            .map(|p| {
                let mut v = self.inner.legal_actions(Some(p));
                v.sort_unstable();
                v
            })
            .collect()
    }

    /// The joint action OpenSpiel numbers `flat` at a simultaneous turn:
    /// player 0's choice varies fastest, each among its legal actions
    /// ascending.
    pub(super) fn joint(&self, flat: Action) -> PyResult<Vec<Action>> {
        let each = self.each_legal();
        let count: usize = each.iter().map(Vec::len).product();
        if usize::from(flat) >= count {
            return Err(value_error(format!(
                "{flat} is not a joint action here (0..{count})"
            )));
        }
        let mut rest = usize::from(flat);
        Ok(each
            .iter()
            .map(|legal| {
                let a = legal[rest % legal.len()];
                rest /= legal.len();
                a
            })
            .collect())
    }

    pub(super) fn copy(&self) -> PyState {
        PyState {
            inner: self.inner.boxed(),
            game: self.game.clone(),
            facts: self.facts.clone(),
            auto: self.auto,
            moves: self.moves,
        }
    }

    /// Plays `actions` (a serialized history: a joint action as one
    /// action per player) from this state.
    pub fn replay(&mut self, actions: &[Action]) -> PyResult<()> {
        let mut rest = actions;
        while !rest.is_empty() {
            if self.inner.turn() == Turn::Simultaneous {
                let n = self.facts.num_players.min(rest.len());
                self.inner.apply_joint(&rest[..n]).map_err(value_error)?;
                self.moves += 1;
                self.settle();
                rest = &rest[n..];
            } else {
                self.apply_one(rest[0])?;
                rest = &rest[1..];
            }
        }
        Ok(())
    }
}
