//! The net files the server offers, by name: `--champions DIR/*.json` are
//! named by their stem (`connect4-6x6`), the champions of run folders as
//! `run:NAME`. A `net:` value in a player spec (the player itself or an
//! MCTS rollout) must be an offered name or an offered file's exact path as
//! the server lists it (`champions/connect4-6x6.json.gz`); it is resolved here,
//! against the list, without touching the disk. Anything else is refused.
//!
//! The list is read from the folders at most every [`REFRESH`]; only plain
//! files count (a symbolic link is skipped, so none can point the server at
//! a file outside its folders), and only files whose `game` field names a
//! game wopr knows. Each file's game is read once per version (path, size,
//! modification time), not on every request.

use std::collections::HashMap;
use std::fs::Metadata;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use wopr::AnyGame;

/// How long the list of offered nets is kept before the folders are read
/// again.
pub const REFRESH: Duration = Duration::from_secs(5);

/// Net files larger than this are not offered (bytes); the largest shipped
/// champion is about 4 MB.
const MAX_NET_BYTES: u64 = 64 * 1024 * 1024;

/// One offered net file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OfferedNet {
    /// The name a spec uses (`connect4-6x6`, `run:NAME`).
    pub name: String,
    /// The path as the server lists it (also accepted in a spec).
    pub path: String,
    /// The canonical spec of the game the net was made for.
    pub game: String,
}

/// A file's version, as far as the cache of games cares.
type Version = (PathBuf, u64, Option<SystemTime>);

/// The offered nets of a champions folder and a runs folder.
pub struct Nets {
    champions: PathBuf,
    runs: PathBuf,
    list: Mutex<Option<(Instant, Arc<Vec<OfferedNet>>)>>,
    games: Mutex<HashMap<Version, Option<String>>>,
}

impl Nets {
    /// The nets of `champions/*.json` and `runs/*/champion.json`.
    pub fn new(champions: PathBuf, runs: PathBuf) -> Nets {
        Nets {
            champions,
            runs,
            list: Mutex::new(None),
            games: Mutex::new(HashMap::new()),
        }
    }

    /// Every offered net, sorted by name (read again when older than
    /// [`REFRESH`]).
    pub fn list(&self) -> Arc<Vec<OfferedNet>> {
        let mut cached = self.list.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((at, list)) = cached.as_ref() {
            if at.elapsed() < REFRESH {
                return list.clone();
            }
        }
        let list = Arc::new(self.scan());
        *cached = Some((Instant::now(), list.clone()));
        list
    }

    /// The offered nets made for the game `game` (a canonical spec).
    pub fn for_game(&self, game: &str) -> Vec<OfferedNet> {
        self.list()
            .iter()
            .filter(|n| n.game == game)
            .cloned()
            .collect()
    }

    /// The path of the offered net `value` (a name or a listed path) made
    /// for `game`; otherwise one line saying what is offered.
    pub fn resolve(&self, game: &str, value: &str) -> Result<String, String> {
        let list = self.list();
        let offered = || {
            let names: Vec<&str> = list
                .iter()
                .filter(|n| n.game == game)
                .map(|n| n.name.as_str())
                .collect();
            if names.is_empty() {
                format!("this server offers no nets for {game}")
            } else {
                format!("offered for {game}: {}", names.join(", "))
            }
        };
        match list.iter().find(|n| n.name == value || n.path == value) {
            Some(n) if n.game == game => Ok(n.path.clone()),
            Some(n) => Err(format!(
                "net '{value}' was made for {}, not {game} ({})",
                n.game,
                offered()
            )),
            None => Err(format!(
                "net '{value}' is not one this server offers; give a net's name ({}; see /api/players)",
                offered()
            )),
        }
    }

    /// Reads the folders.
    fn scan(&self) -> Vec<OfferedNet> {
        let mut out = Vec::new();
        if let Ok(dir) = std::fs::read_dir(&self.champions) {
            for entry in dir.flatten() {
                let path = entry.path();
                // `NAME.json`, or `NAME.json.gz` (compressed), offered as NAME.
                let name = path.file_name().and_then(|s| s.to_str());
                let stem = name.and_then(|n| {
                    n.strip_suffix(".json.gz")
                        .or_else(|| n.strip_suffix(".json"))
                });
                if let Some(stem) = stem.filter(|s| !s.is_empty()) {
                    self.offer(&mut out, stem.to_string(), &path);
                }
            }
        }
        if let Ok(dir) = std::fs::read_dir(&self.runs) {
            for entry in dir.flatten() {
                let run = entry.path();
                let is_dir = std::fs::symlink_metadata(&run).is_ok_and(|m| m.is_dir());
                if let (true, Some(name)) = (is_dir, entry.file_name().to_str()) {
                    self.offer(&mut out, format!("run:{name}"), &run.join("champion.json"));
                }
            }
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        // Forget the games of files no longer there.
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games.retain(|(p, _, _), _| out.iter().any(|n| Path::new(&n.path) == p));
        out
    }

    /// Adds `path` as `name` if it is a plain net file of a known game.
    fn offer(&self, out: &mut Vec<OfferedNet>, name: String, path: &Path) {
        let Ok(meta) = std::fs::symlink_metadata(path) else {
            return;
        };
        if !meta.is_file() || meta.len() > MAX_NET_BYTES || name.contains(',') {
            return;
        }
        if let Some(game) = self.game_of(path, &meta) {
            out.push(OfferedNet {
                name,
                path: path.display().to_string(),
                game,
            });
        }
    }

    /// The canonical spec of the game a net file names, cached per version.
    fn game_of(&self, path: &Path, meta: &Metadata) -> Option<String> {
        let key = (path.to_path_buf(), meta.len(), meta.modified().ok());
        if let Some(g) = self
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
        {
            return g.clone();
        }
        let game = net_game(path)
            .and_then(|g| AnyGame::parse(&g).ok())
            .map(|g| g.spec());
        self.games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(key, game.clone());
        game
    }
}

/// The game a net file was made for, read from its `game` field (the rest
/// of the file is skipped, not kept).
pub fn net_game(path: &Path) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Header {
        game: String,
    }
    use std::io::{BufRead, BufReader};
    let mut file = BufReader::new(std::fs::File::open(path).ok()?);
    // A net file is JSON, or JSON compressed with gzip (told as
    // `NetFile::load` tells it).
    let gzip = wopr::nn::is_gzip(file.fill_buf().ok()?);
    let header: Header = if gzip {
        serde_json::from_reader(BufReader::new(flate2::read::GzDecoder::new(file))).ok()?
    } else {
        serde_json::from_reader(file).ok()?
    };
    Some(header.game)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_net(path: &Path, game: &str) {
        std::fs::write(
            path,
            format!("{{\"game\": \"{game}\", \"weights\": [1, 2]}}"),
        )
        .unwrap();
    }

    #[test]
    fn offers_plain_net_files_by_name_and_listed_path_only() {
        let dir = std::env::temp_dir().join(format!("wopr-serve-nets-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let champions = dir.join("champions");
        let runs = dir.join("runs");
        std::fs::create_dir_all(champions.join("sub")).unwrap();
        std::fs::create_dir_all(runs.join("r1")).unwrap();
        write_net(&champions.join("c4.json"), "connect4:6x6");
        // A gzip-compressed net is offered by its name without `.json.gz`.
        {
            use std::io::Write;
            let file = std::fs::File::create(champions.join("zipped.json.gz")).unwrap();
            let mut gz = flate2::write::GzEncoder::new(file, flate2::Compression::default());
            gz.write_all(b"{\"game\": \"reversi:6x6\", \"weights\": [1]}")
                .unwrap();
            gz.finish().unwrap();
        }
        write_net(&runs.join("r1/champion.json"), "tictactoe");
        std::fs::write(champions.join("notes.json"), "{\"x\": 1}").unwrap();
        write_net(&champions.join("sub/deep.json"), "connect4:6x6");
        let outside = dir.join("outside.json");
        write_net(&outside, "connect4:6x6");
        #[cfg(unix)]
        std::os::unix::fs::symlink(&outside, champions.join("link.json")).unwrap();

        let nets = Nets::new(champions.clone(), runs.clone());
        let names: Vec<String> = nets.list().iter().map(|n| n.name.clone()).collect();
        // The symlink, the file without a game and the nested file are not
        // offered.
        assert_eq!(names, ["c4", "run:r1", "zipped"]);
        let c4 = champions.join("c4.json").display().to_string();
        let game = AnyGame::parse("connect4:6x6").unwrap().spec();
        assert_eq!(nets.resolve(&game, "c4"), Ok(c4.clone()));
        assert_eq!(nets.resolve(&game, &c4), Ok(c4));
        for refused in [
            "link",
            "C4",
            "notes",
            outside.to_str().unwrap(),
            &format!("{}/../champions/c4.json", champions.display()),
        ] {
            let e = nets.resolve(&game, refused).unwrap_err();
            assert!(e.contains("not one this server offers"), "{refused}: {e}");
        }
        let e = nets.resolve(&game, "run:r1").unwrap_err();
        assert!(e.contains("made for tictactoe"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
