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
}

impl GameInfo {
    /// Whether a spec called `name` means this game.
    pub fn names(&self, name: &str) -> bool {
        self.name == name || self.aliases.contains(&name)
    }
}
