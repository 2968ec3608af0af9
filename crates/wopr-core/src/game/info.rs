//! What a game says about itself for listings and help: its names, one line,
//! the paper that uses it, its parameters and their defaults.

/// One parameter of a game.
#[derive(Clone, Copy, Debug)]
pub struct ParamInfo {
    /// The key in a spec (`size` is written bare, as `CxR`).
    pub name: &'static str,
    /// The default value, as written in a spec.
    pub default: &'static str,
    /// What values are accepted and what they mean.
    pub doc: &'static str,
}

/// What the registry knows about a game.
#[derive(Clone, Copy, Debug)]
pub struct GameInfo {
    /// The canonical spec name.
    pub name: &'static str,
    /// Other names a spec may use (`othello` for `reversi`).
    pub aliases: &'static [&'static str],
    /// One line on the game.
    pub about: &'static str,
    /// Which paper uses it, if any.
    pub paper: &'static str,
    /// Its parameters.
    pub params: &'static [ParamInfo],
    /// How it is played: turns, chance, hidden information, utility.
    pub nature: Nature,
    /// Specs with parameters worth trying besides the default, smallest
    /// boards first: the fuzz targets play every one.
    pub examples: &'static [&'static str],
    /// The specs `wopr bench` times when none are named (empty: none).
    pub bench: &'static [&'static str],
}

/// How a game is played, in the terms OpenSpiel's `GameType` uses: what a
/// front end that must classify a game (Python's `get_type`, a listing)
/// reads, so that no front end keeps its own table of games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nature {
    /// The players choose at once (Goofspiel), not in turn.
    pub simultaneous: bool,
    /// Chance moves with known odds (dice, a deal).
    pub chance: bool,
    /// A player may not see all of a position (a hand, GDL-II's `sees`).
    pub hidden: bool,
    /// The returns always sum to zero (else any sum: GDL's goals).
    pub zero_sum: bool,
}

impl Nature {
    /// A two-player board game: in turn, no chance, all seen, zero-sum.
    pub const BOARD: Nature = Nature {
        simultaneous: false,
        chance: false,
        hidden: false,
        zero_sum: true,
    };
}

impl GameInfo {
    /// Whether a spec called `name` means this game.
    pub fn names(&self, name: &str) -> bool {
        self.name == name || self.aliases.contains(&name)
    }
}
