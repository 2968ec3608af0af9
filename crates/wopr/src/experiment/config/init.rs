//! The `[init]` section: where the first population comes from.

use serde::{Deserialize, Serialize};

/// Where the first population comes from (`[init]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct InitConfig {
    /// `random` (weights uniform in `[-genome.init, genome.init]`) or
    /// `pretrained:DIR` (net files written by `wopr pretrain`).
    pub population: String,
}

impl Default for InitConfig {
    fn default() -> Self {
        InitConfig {
            population: "random".into(),
        }
    }
}

impl InitConfig {
    pub(super) fn is_default(&self) -> bool {
        *self == InitConfig::default()
    }

    /// The folder of a `pretrained:DIR` population; `None` for `random`.
    /// An error for anything else.
    pub fn pretrained(&self) -> Result<Option<&str>, String> {
        match self.population.as_str() {
            "random" => Ok(None),
            p => match p.strip_prefix("pretrained:") {
                Some(dir) if !dir.is_empty() => Ok(Some(dir)),
                _ => Err(format!(
                    "init.population = \"{p}\": accepted \"random\" or \"pretrained:DIR\""
                )),
            },
        }
    }
}
