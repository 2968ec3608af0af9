//! The generic player kinds, one row each ([`KINDS`]): its name, the
//! syntax help and errors show, one line on what it is, and which games it
//! plays ([`Plays`]). A game lists only its own players
//! ([`Roster::bot_names`]); what a game accepts of the generic kinds is
//! asked of the game itself, by reading a sample spec of the kind with its
//! [`Roster::parse_bot`], so the list cannot drift from what parses.
//!
//! A game that reads a kind with a syntax of its own (Pig's `mcts`, with no
//! net rollouts; Reversi's `perfect:empties=E`) lists that syntax among
//! its own players, and the row is then left out for it.

use super::gtp::GTP_PLAYER;
use super::mcts::MCTS_SYNTAX;
use super::Roster;
use crate::game::GameSpec;

/// Which games a generic kind plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plays {
    /// Every game.
    Every,
    /// The games whose [`Roster::parse_bot`] reads this sample spec (the
    /// board games read `alphabeta`, `mcts` and `net:` through
    /// [`super::board_parse`]); nothing is opened or built.
    Reads(&'static str),
    /// The games whose moves are GTP vertices ([`Roster::gtp_board`]).
    GtpBoard,
}

/// One generic player kind.
#[derive(Clone, Copy, Debug)]
pub struct Kind {
    /// Its name in a spec (`alphabeta`).
    pub name: &'static str,
    /// Its syntax, as help and errors show it.
    pub syntax: &'static str,
    /// What it is, in one line.
    pub about: &'static str,
    /// Which games it plays.
    pub plays: Plays,
}

impl Kind {
    /// Whether `game` plays this kind.
    pub fn plays_in<G: Roster>(&self, game: &G) -> bool {
        match self.plays {
            Plays::Every => true,
            Plays::Reads(sample) => GameSpec::parse(sample)
                .ok()
                .is_some_and(|spec| matches!(game.parse_bot(&spec), Ok(Some(_)))),
            Plays::GtpBoard => game.gtp_board().is_some(),
        }
    }
}

/// The generic player kinds, in the order help lists them.
pub const KINDS: &[Kind] = &[
    Kind {
        name: "random",
        syntax: "random",
        about: "a uniformly random legal move",
        plays: Plays::Every,
    },
    Kind {
        name: "first",
        syntax: "first",
        about: "the legal move of lowest index (deterministic, for tests)",
        plays: Plays::Every,
    },
    Kind {
        name: "alphabeta",
        syntax: "alphabeta[:depth=D][,ms=T]",
        about: "negamax alpha-beta over the game's heuristic",
        plays: Plays::Reads("alphabeta"),
    },
    Kind {
        name: "mcts",
        syntax: MCTS_SYNTAX,
        about: "Monte-Carlo tree search: UCT, the MCTS-Solver, PUCT over a value net",
        plays: Plays::Reads("mcts"),
    },
    Kind {
        name: "net",
        syntax: "net:PATH[,mode=M][,ply=N][,temp=T][,ms=T]",
        about: "a net file, greedy, in a search, or as a distribution",
        plays: Plays::Reads("net:PATH"),
    },
    Kind {
        name: "gtp",
        syntax: GTP_PLAYER,
        about: "an outside engine spoken to in GTP",
        plays: Plays::GtpBoard,
    },
];

/// The kind a syntax line names (`mcts[:sims=N]…` is `mcts`).
pub fn kind_name(syntax: &str) -> &str {
    syntax.split([':', '[', ' ']).next().unwrap_or(syntax)
}
