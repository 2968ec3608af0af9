//! Spec strings for games and players: `name[:arg,arg,…]`.
//!
//! An argument is either `key=value` or a bare value; a bare value of the form
//! `CxR` (such as `6x6`) is read as the board size. Examples: `connect4:6x6`,
//! `dots-and-boxes:3x3`, `virus:max-plies=300`, `alphabeta:depth=4,ms=200`.

use std::fmt;

/// A parsed `name:args` string. Keys are lower-cased; values keep their case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// The name before the colon, lower-cased.
    pub name: String,
    /// `(key, value)` pairs in order; a bare `CxR` argument has key `size`,
    /// any other bare argument key `""`.
    pub args: Vec<(String, String)>,
}

/// What was wrong with a spec string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SpecError(pub String);

impl GameSpec {
    /// Splits a spec string into name and arguments.
    pub fn parse(text: &str) -> Result<GameSpec, SpecError> {
        let text = text.trim();
        let (name, rest) = match text.split_once(':') {
            Some((n, r)) => (n, Some(r)),
            None => (text, None),
        };
        if name.is_empty() {
            return Err(SpecError(format!("empty name in spec '{text}'")));
        }
        let mut args = Vec::new();
        if let Some(rest) = rest {
            for part in rest.split(',') {
                let part = part.trim();
                if part.is_empty() {
                    return Err(SpecError(format!("empty argument in spec '{text}'")));
                }
                match part.split_once('=') {
                    Some((k, v)) => {
                        args.push((k.trim().to_ascii_lowercase(), v.trim().to_string()))
                    }
                    None if parse_size(part).is_some() => {
                        args.push(("size".to_string(), part.to_string()))
                    }
                    None => args.push((String::new(), part.to_string())),
                }
            }
        }
        Ok(GameSpec {
            name: name.to_ascii_lowercase(),
            args,
        })
    }

    /// The value of `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.args
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Fails if any argument's key is not in `allowed` (bare arguments have
    /// key `""`; list it to accept them).
    pub fn check_keys(&self, allowed: &[&str]) -> Result<(), SpecError> {
        for (k, v) in &self.args {
            if !allowed.contains(&k.as_str()) {
                let shown = if k.is_empty() {
                    v.clone()
                } else {
                    format!("{k}={v}")
                };
                let accepted: Vec<String> = allowed
                    .iter()
                    .map(|a| match *a {
                        "size" => "CxR".to_string(),
                        "" => "a bare value".to_string(),
                        a => format!("{a}=…"),
                    })
                    .collect();
                let accepted = if accepted.is_empty() {
                    "none".to_string()
                } else {
                    accepted.join(", ")
                };
                return Err(SpecError(format!(
                    "'{}' does not take argument '{}' (accepted: {})",
                    self.name, shown, accepted
                )));
            }
        }
        Ok(())
    }

    /// The integer value of `key`, or `default`, checked to lie in `lo..=hi`.
    pub fn int(&self, key: &str, default: i64, lo: i64, hi: i64) -> Result<i64, SpecError> {
        match self.get(key) {
            None => Ok(default),
            Some(v) => match v.parse::<i64>() {
                Ok(n) if (lo..=hi).contains(&n) => Ok(n),
                _ => Err(SpecError(format!(
                    "'{}': {key}={v} is not an integer in {lo}..={hi}",
                    self.name
                ))),
            },
        }
    }

    /// The board size `CxR` (columns × rows), or `default`, each side checked
    /// against `ok`, which explains what is accepted when it fails.
    pub fn size(
        &self,
        default: (usize, usize),
        ok: impl Fn(usize, usize) -> Result<(), String>,
    ) -> Result<(usize, usize), SpecError> {
        match self.get("size") {
            None => Ok(default),
            Some(v) => {
                let (c, r) = parse_size(v).ok_or_else(|| {
                    SpecError(format!(
                        "'{}': size '{v}' is not of the form CxR",
                        self.name
                    ))
                })?;
                ok(c, r).map_err(|why| {
                    SpecError(format!(
                        "'{}': size {c}x{r} is not supported: {why}",
                        self.name
                    ))
                })?;
                Ok((c, r))
            }
        }
    }
}

impl fmt::Display for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name)?;
        for (i, (k, v)) in self.args.iter().enumerate() {
            f.write_str(if i == 0 { ":" } else { "," })?;
            if k.is_empty() || k == "size" {
                write!(f, "{v}")?;
            } else {
                write!(f, "{k}={v}")?;
            }
        }
        Ok(())
    }
}

/// Parses `CxR` (case-insensitive `x`) into `(columns, rows)`.
pub fn parse_size(text: &str) -> Option<(usize, usize)> {
    let lower = text.to_ascii_lowercase();
    let (c, r) = lower.split_once('x')?;
    Some((c.trim().parse().ok()?, r.trim().parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_names_sizes_and_keys() {
        let s = GameSpec::parse("Connect4:6X6,max-plies=10").unwrap();
        assert_eq!(s.name, "connect4");
        assert_eq!(s.get("size"), Some("6X6"));
        assert_eq!(s.size((7, 6), |_, _| Ok(())).unwrap(), (6, 6));
        assert_eq!(s.int("max-plies", 0, 1, 100).unwrap(), 10);
        assert!(s.int("max-plies", 0, 1, 5).is_err());
        assert!(s.check_keys(&["size"]).is_err());
        assert!(GameSpec::parse("x:a,,b").is_err());
        assert!(GameSpec::parse(":3").is_err());
    }
}
