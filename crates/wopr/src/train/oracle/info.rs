//! What a made dataset is: [`DatasetInfo`], the description written beside
//! its CSV, and [`Generated`], a dataset with it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::game::oracle::OracleKind;
use crate::train::{DataError, Dataset};

/// What a dataset is, written beside its CSV (`FILE.csv.json`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DatasetInfo {
    /// The game spec.
    pub game: String,
    /// The encoding of the inputs.
    pub encoding: String,
    /// The oracle spec, defaults filled in.
    pub oracle: String,
    /// What the targets mean.
    pub kind: OracleKind,
    /// Rows recorded.
    #[serde(default)]
    pub positions: usize,
    /// Games played to record them.
    #[serde(default)]
    pub games: usize,
    /// The seed.
    #[serde(default)]
    pub seed: u64,
    /// The two players, by seat of even-numbered games.
    #[serde(default)]
    pub play: Vec<String>,
    /// Whether repeated inputs were left out.
    #[serde(default)]
    pub unique: bool,
    /// The player (0 or 1, by index in `play`) whose positions alone were
    /// recorded; absent when both were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only_player: Option<usize>,
}

impl DatasetInfo {
    /// Where the sidecar of `csv` lives: `csv` with `.json` appended.
    pub fn sidecar_path(csv: &Path) -> PathBuf {
        let mut s = csv.as_os_str().to_owned();
        s.push(".json");
        PathBuf::from(s)
    }

    /// Writes the sidecar (pretty JSON).
    pub fn save(&self, path: &Path) -> Result<(), DataError> {
        let text = serde_json::to_string_pretty(self).expect("plain values serialise");
        std::fs::write(path, text + "\n")
            .map_err(|e| DataError(format!("cannot write {}: {e}", path.display())))
    }

    /// Reads a sidecar.
    pub fn load(path: &Path) -> Result<DatasetInfo, DataError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| DataError(format!("cannot read {}: {e}", path.display())))?;
        serde_json::from_str(&text)
            .map_err(|e| DataError(format!("{}: bad dataset description: {e}", path.display())))
    }
}

/// A dataset and its description.
#[derive(Clone, Debug, PartialEq)]
pub struct Generated {
    /// The rows.
    pub data: Dataset,
    /// The sidecar contents.
    pub info: DatasetInfo,
    /// Whether play stopped finding new positions before the requested
    /// number (with `unique`, or an oracle that drops positions): then
    /// `data` holds fewer rows.
    pub exhausted: bool,
}
