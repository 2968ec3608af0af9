//! The config target: an evolution config parsed, checked and, where small,
//! started.

use super::*;

/// Target `config`: the input as an evolution config, read as
/// `wopr evolve CONFIG.toml` reads it (`toml::from_str` into `EvolveConfig`,
/// then `EvolveConfig::check`, `crates/wopr-cli/src/cmd/evolve.rs`), and,
/// for a board game and a config small enough to set up quickly,
/// `wopr::experiment::start` (which builds the first population and checks
/// names of encodings, players and openings).
///
/// Asserts: a checked config writes back as TOML (the run folder's
/// `config.toml`) that reads back to the same config; the checkpoint of a
/// started run writes as JSON that reads back to the same checkpoint (what
/// `--resume` needs).
pub fn check_config(data: &[u8]) {
    let Some(text) = text_of(data) else { return };
    let Ok(config) = toml::from_str::<EvolveConfig>(text) else {
        return;
    };
    if config.check().is_err() {
        return;
    }
    let written = toml::to_string_pretty(&config).expect("a checked config writes as TOML");
    let back: EvolveConfig = toml::from_str(&written)
        .unwrap_or_else(|e| panic!("config.toml as written does not read back: {e}\n{written}"));
    assert_eq!(
        toml::to_string_pretty(&back).expect("TOML"),
        written,
        "config.toml does not read back to the same config"
    );
    let Some(game) = parse_game(&config.game) else {
        return;
    };
    wopr::with_board_game!(&game, g => start_small(g, config), ());
}

/// The net's weight count as `NetPhenotype::new` will build it, computed
/// without allocating; `Some(0)` when the encoding is unknown (set-up fails
/// before building anything), `None` on overflow.
pub(crate) fn planned_weights<G: Encodable>(game: &G, net: &NetConfig) -> Option<usize> {
    let Ok(encoding) = game.encoding(&net.encoding) else {
        return Some(0);
    };
    let inputs = encoding.size();
    let outputs = match net.outputs {
        Outputs::Value => 1,
        Outputs::Policy => game.num_actions(),
    };
    let arch = if net.complete > 0 {
        Architecture::Complete {
            inputs,
            nodes: net.complete,
            outputs,
        }
    } else {
        let mut layers = vec![inputs];
        layers.extend(&net.hidden);
        layers.push(outputs);
        Architecture::Mlp { layers }
    };
    arch.num_params()
}

/// The player specs a config plays against are ones the fuzzer may build
/// (no `net:` files) and openings are random plies, not files.
fn harmless_names(config: &EvolveConfig) -> bool {
    let specs = config
        .fitness
        .opponents
        .iter()
        .chain(config.yardsticks.iter().flat_map(|y| y.against.iter()));
    let openings = config
        .fitness
        .openings
        .iter()
        .chain(config.yardsticks.iter().flat_map(|y| y.openings.iter()));
    specs
        .into_iter()
        .all(|s| GameSpec::parse(s).is_ok_and(|s| s.name != "net"))
        && openings.into_iter().all(|o| o.trim().starts_with("plies="))
}

/// `start` for configs whose first population is small (at most a million
/// weights in all, a few hundred for CMA-ES's n x n covariance).
fn start_small<G>(game: &G, config: EvolveConfig)
where
    G: Encodable + Roster,
    G::State: Searchable,
{
    let Some(weights) = planned_weights(game, &config.net) else {
        return;
    };
    let state = config
        .algorithm
        .with(|a| a.state(weights as u64, &config.genome));
    let genomes = usize::try_from(state.genomes).unwrap_or(usize::MAX);
    let small = weights <= 20_000
        && genomes <= 2_000
        && genomes.saturating_mul(weights.max(1)) <= 1_000_000
        && (config.algorithm.name() != "cma-es" || weights <= 300)
        && config.net.hidden.len() <= 64;
    if !small || !harmless_names(&config) {
        return;
    }
    let Ok(cp) = start(game, config) else { return };
    // What a checkpoint writes (`state.json`) and `load_checkpoint` reads.
    let json = serde_json::to_string(&cp).expect("a checkpoint writes as JSON");
    let back: Checkpoint = serde_json::from_str(&json).unwrap_or_else(|e| {
        panic!(
            "the checkpoint of a fresh run does not read back: {e}\nconfig: {:?}",
            cp.config
        )
    });
    assert_eq!(
        serde_json::to_string(&back).expect("JSON"),
        json,
        "the checkpoint of a fresh run does not read back to itself"
    );
}

// ---------------------------------------------------------------- net files
