//! The settings of a `net:` spec: the mode, the search depth, the
//! temperature, how finished positions are scored, the time budget.

use std::time::Duration;

use crate::game::{GameSpec, SpecError};

/// How a net chooses moves; see the module docs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum NetMode {
    /// Greedy over successor values.
    Greedy,
    /// Highest output among the legal actions.
    Policy,
    /// MIDI-Connect4's 2-ply minimax over the outputs.
    Minimax2 {
        /// How outputs become a position value.
        reduce: Reduce,
    },
    /// Alpha-beta to `ply` with the net at the leaves.
    AlphaBeta {
        /// Search depth.
        ply: u32,
    },
    /// Sample successors with probability ∝ exp(value / temperature).
    Softmax {
        /// The temperature.
        temperature: f32,
    },
}

/// How a move-ranking net's outputs become one position value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduce {
    /// The highest output over the legal actions.
    Max,
    /// The mean output over the legal actions.
    Mean,
}

impl std::str::FromStr for Reduce {
    type Err = SpecError;

    /// `max` or `mean`, in any case.
    fn from_str(text: &str) -> Result<Reduce, SpecError> {
        match text.to_ascii_lowercase().as_str() {
            "max" => Ok(Reduce::Max),
            "mean" => Ok(Reduce::Mean),
            other => Err(SpecError(format!(
                "reduce={other} is not known (accepted: max, mean)"
            ))),
        }
    }
}

impl NetMode {
    /// The mode's spec text (`mode=…` plus its options).
    pub fn spec(&self) -> String {
        match self {
            NetMode::Greedy => "mode=greedy".into(),
            NetMode::Policy => "mode=policy".into(),
            NetMode::Minimax2 { reduce } => format!(
                "mode=minimax2,reduce={}",
                if *reduce == Reduce::Max {
                    "max"
                } else {
                    "mean"
                }
            ),
            NetMode::AlphaBeta { ply } => format!("mode=alphabeta,ply={ply}"),
            NetMode::Softmax { temperature } => format!("mode=softmax,temp={temperature}"),
        }
    }

    /// Reads the mode from spec arguments, falling back to `default` (the
    /// net file's `player` field, or what the output count suggests).
    pub fn from_spec(spec: &GameSpec, default: &str) -> Result<NetMode, SpecError> {
        NetSettings::options(spec)?.mode(default)
    }
}

/// The settings of a `net:` spec in typed form, read without opening the
/// file: the path and the options the spec gives (`None`: not given, so the
/// net file's `player` field or the default decides).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct NetSettings {
    /// The net file, as the spec names it (empty for the options of a net
    /// file's `player` field).
    pub path: String,
    /// The mode's name, lower-cased and known.
    pub mode: Option<String>,
    /// Search plies (1..=32).
    pub ply: Option<u32>,
    /// The softmax temperature (> 0).
    pub temp: Option<f32>,
    /// How a move-ranking net's outputs become a value (minimax2).
    pub reduce: Option<Reduce>,
    /// Who scores finished positions.
    pub finished: Option<Finished>,
    /// A wall-clock budget per move for the alpha-beta mode (1..=86,400,000
    /// ms); the search then plays the deepest fully searched move.
    pub time: Option<Duration>,
}

/// The mode names a `net:` spec accepts.
const MODE_NAMES: &[&str] = &[
    "greedy",
    "value",
    "policy",
    "rank",
    "minimax2",
    "minimax",
    "alphabeta",
    "softmax",
];

/// Whether a net file's `player` line names a player around the net
/// (`mcts:…`, or a game's own player such as Reversi's `engine:…`) rather
/// than `net:` settings: a name before a `:` that is not a mode.
pub fn line_names_a_player(line: &str) -> bool {
    line.split_once(':')
        .is_some_and(|(name, _)| !MODE_NAMES.contains(&name.trim().to_ascii_lowercase().as_str()))
}

impl NetSettings {
    /// Reads a whole `net:PATH[,…]` spec (keys checked; nothing opened).
    pub fn parse(spec: &GameSpec) -> Result<NetSettings, SpecError> {
        spec.check_keys(&["", "mode", "ply", "temp", "reduce", "finished", "ms"])?;
        let path = spec
            .args
            .iter()
            .find(|(k, _)| k.is_empty())
            .map(|(_, v)| v.clone())
            .ok_or_else(|| SpecError("net: needs a file, as net:PATH".into()))?;
        Ok(NetSettings {
            path,
            ..NetSettings::options(spec)?
        })
    }

    /// Reads the options of a spec (`mode`, `ply`, `temp`, `reduce`,
    /// `finished`, `ms`), ignoring other arguments.
    pub fn options(spec: &GameSpec) -> Result<NetSettings, SpecError> {
        let mode = match spec.get("mode") {
            None => None,
            Some(m) => {
                let m = m.to_ascii_lowercase();
                if !MODE_NAMES.contains(&m.as_str()) {
                    return Err(SpecError(format!(
                        "unknown net mode '{m}' (accepted: greedy, policy, minimax2, alphabeta, softmax)"
                    )));
                }
                Some(m)
            }
        };
        let ply = match spec.get("ply") {
            None => None,
            Some(_) => Some(spec.int("ply", 0, 1, 32)? as u32),
        };
        let temp = match spec.get("temp") {
            None => None,
            Some(t) => Some(
                t.parse::<f32>()
                    .ok()
                    .filter(|t| *t > 0.0 && t.is_finite())
                    .ok_or_else(|| SpecError("temp= must be a positive number".into()))?,
            ),
        };
        let reduce = spec.get("reduce").map(str::parse).transpose()?;
        let finished = spec.get("finished").map(Finished::parse).transpose()?;
        let time = crate::players::ms_arg(spec)?;
        Ok(NetSettings {
            path: String::new(),
            mode,
            ply,
            temp,
            reduce,
            finished,
            time,
        })
    }

    /// These settings, with `defaults` (a net file's `player` line)
    /// filling what they leave unset. Where these settings name a mode,
    /// the mode and its options (`ply`, `temp`, `reduce`) are theirs
    /// alone: `mode=greedy` is the net alone even where the file's line
    /// says `mode=alphabeta,ply=4` (the user's explicit keys win; without
    /// `mode=`, a `ply=` or `temp=` still tunes the file's mode).
    pub fn over(&self, defaults: &NetSettings) -> NetSettings {
        let mine = self.mode.is_some();
        NetSettings {
            path: self.path.clone(),
            mode: self.mode.clone().or_else(|| defaults.mode.clone()),
            ply: self.ply.or(defaults.ply.filter(|_| !mine)),
            temp: self.temp.or(defaults.temp.filter(|_| !mine)),
            reduce: self.reduce.or(defaults.reduce.filter(|_| !mine)),
            finished: self.finished.or(defaults.finished),
            time: self.time.or(defaults.time),
        }
    }

    /// The settings that name `mode` and its options explicitly, with
    /// `path`, and `finished` and `time` where they change the play (the
    /// rules scoring finished positions is the default, left out): the
    /// spec a built player is played as, which parses back to the same
    /// player whatever the file's `player` line says.
    pub fn played(
        path: &str,
        mode: NetMode,
        finished: Finished,
        time: Option<Duration>,
    ) -> NetSettings {
        let (name, ply, temp, reduce) = match mode {
            NetMode::Greedy => ("greedy", None, None, None),
            NetMode::Policy => ("policy", None, None, None),
            NetMode::Minimax2 { reduce } => ("minimax2", None, None, Some(reduce)),
            NetMode::AlphaBeta { ply } => ("alphabeta", Some(ply), None, None),
            NetMode::Softmax { temperature } => ("softmax", None, Some(temperature), None),
        };
        NetSettings {
            path: path.to_string(),
            mode: Some(name.to_string()),
            ply,
            temp,
            reduce,
            finished: (finished == Finished::Net).then_some(Finished::Net),
            time,
        }
    }

    /// Whether these settings choose how the net itself plays (any of
    /// `mode`, `ply`, `temp`, `reduce`, `finished`): then a net file's
    /// line naming a search around it (`mcts:…`) is set aside and the net
    /// plays alone.
    pub fn names_a_mode(&self) -> bool {
        self.mode.is_some()
            || self.ply.is_some()
            || self.temp.is_some()
            || self.reduce.is_some()
            || self.finished.is_some()
    }

    /// The search plies these settings ask for: `ply`, or 2 for the
    /// alpha-beta mode without one; `None` for a mode that does not search.
    pub fn search_ply(&self) -> Option<u32> {
        match (self.mode.as_deref(), self.ply) {
            (Some("alphabeta"), None) => Some(2),
            (_, ply) => ply,
        }
    }

    /// The mode, with `default` (a mode name) where none is set.
    pub fn mode(&self, default: &str) -> Result<NetMode, SpecError> {
        let name = self
            .mode
            .clone()
            .unwrap_or_else(|| default.to_ascii_lowercase());
        let ply = self.ply.unwrap_or(0);
        let mode = match name.as_str() {
            "greedy" | "value" if ply > 1 => NetMode::AlphaBeta { ply },
            "greedy" | "value" => NetMode::Greedy,
            "policy" | "rank" => NetMode::Policy,
            "minimax2" | "minimax" => NetMode::Minimax2 {
                reduce: self.reduce.unwrap_or(Reduce::Max),
            },
            "alphabeta" => NetMode::AlphaBeta {
                ply: if ply == 0 { 2 } else { ply },
            },
            "softmax" => NetMode::Softmax {
                temperature: self.temp.unwrap_or(0.1),
            },
            other => {
                return Err(SpecError(format!(
                    "unknown net mode '{other}' (accepted: greedy, policy, minimax2, alphabeta, softmax)"
                )))
            }
        };
        Ok(mode)
    }
}

impl std::fmt::Display for NetSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "net:{}", self.path)?;
        if let Some(m) = &self.mode {
            write!(f, ",mode={m}")?;
        }
        if let Some(p) = self.ply {
            write!(f, ",ply={p}")?;
        }
        if let Some(t) = self.temp {
            write!(f, ",temp={t}")?;
        }
        if let Some(r) = self.reduce {
            f.write_str(if r == Reduce::Max {
                ",reduce=max"
            } else {
                ",reduce=mean"
            })?;
        }
        if let Some(x) = self.finished {
            write!(f, ",finished={}", x.name())?;
        }
        if let Some(t) = self.time {
            write!(f, ",ms={}", t.as_millis())?;
        }
        Ok(())
    }
}

/// Who scores a successor that ends the game; see the module docs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Finished {
    /// The rules: a win above every net value, a loss below, a draw at 0.
    #[default]
    Rules,
    /// The net, like any other position.
    Net,
}

impl Finished {
    /// Parses `rules` or `net`.
    pub fn parse(text: &str) -> Result<Finished, SpecError> {
        match text.to_ascii_lowercase().as_str() {
            "rules" => Ok(Finished::Rules),
            "net" => Ok(Finished::Net),
            other => Err(SpecError(format!(
                "finished={other} is not known (accepted: rules, net)"
            ))),
        }
    }

    /// The spec text (`rules` or `net`).
    pub fn name(self) -> &'static str {
        match self {
            Finished::Rules => "rules",
            Finished::Net => "net",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The settings of `net:TEXT`'s options.
    fn options(text: &str) -> NetSettings {
        NetSettings::options(&GameSpec::parse(&format!("net:{text}")).unwrap()).unwrap()
    }

    #[test]
    fn a_specs_mode_wins_over_the_files_line_with_its_options() {
        let line = options("mode=alphabeta,ply=4");
        let mode = |spec: &str| options(spec).over(&line).mode("greedy").unwrap();
        assert_eq!(mode("x.json"), NetMode::AlphaBeta { ply: 4 });
        assert_eq!(mode("x.json,mode=greedy"), NetMode::Greedy);
        assert_eq!(mode("x.json,ply=2"), NetMode::AlphaBeta { ply: 2 });
        assert_eq!(
            mode("x.json,mode=greedy,ply=3"),
            NetMode::AlphaBeta { ply: 3 }
        );
        let line = options("mode=softmax,temp=0.5,finished=net");
        let s = options("x.json,mode=softmax").over(&line);
        assert_eq!(
            s.mode("greedy").unwrap(),
            NetMode::Softmax { temperature: 0.1 }
        );
        assert_eq!(s.finished, Some(Finished::Net));
    }

    #[test]
    fn the_played_spec_parses_back_to_the_same_mode() {
        for mode in [
            NetMode::Greedy,
            NetMode::Policy,
            NetMode::Minimax2 {
                reduce: Reduce::Mean,
            },
            NetMode::AlphaBeta { ply: 4 },
            NetMode::Softmax { temperature: 0.25 },
        ] {
            let played = NetSettings::played("f.json", mode, Finished::Net, None);
            let text = played.to_string();
            let back = NetSettings::parse(&GameSpec::parse(&text).unwrap()).unwrap();
            assert_eq!(back, played, "{text}");
            // Over any file line, the played spec plays the same mode.
            let line = options("mode=alphabeta,ply=7,temp=2,reduce=max");
            assert_eq!(back.over(&line).mode("policy").unwrap(), mode, "{text}");
        }
        let text = NetSettings::played(
            "f.json",
            NetMode::AlphaBeta { ply: 4 },
            Finished::Rules,
            None,
        )
        .to_string();
        assert_eq!(text, "net:f.json,mode=alphabeta,ply=4");
    }
}
