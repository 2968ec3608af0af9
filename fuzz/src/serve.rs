//! The serve-request target: a new-game body as `wopr serve` reads it.

use super::*;

/// The caps `wopr serve` puts on engines by default
/// (`crates/wopr-cli/src/serve/mod.rs`: depth 10, 200,000 sims, 24
/// empties, a 3,000 ms move deadline).
const SERVE_CAPS: Caps = Caps {
    depth: 10,
    sims: 200_000,
    time: std::time::Duration::from_millis(3000),
    empties: 24,
};

/// The body of `POST /api/games` as the server reads it (the music
/// settings are the `config` of `wopr music`, fuzzed elsewhere).
#[derive(serde::Deserialize)]
struct NewGameBody {
    game: String,
    players: Vec<String>,
}

/// Target `serve_request`: the input as the JSON body of `wopr serve`'s
/// `POST /api/games` (`{"game": SPEC, "players": [SPEC, …]}`), or, when it
/// is not such a body, as one player spec for every game; each player is
/// checked the way the server checks it (`crates/wopr-cli/src/serve/
/// engines.rs`): `PlayerSpec::parse` for the game, then
/// `PlayerSpec::check_caps`. Nothing is built and no file is read (a
/// server resolves `net:` names against its own list).
///
/// Asserts: a parsed spec's canonical text parses back to the same typed
/// spec, before and after the caps; a spec the caps accept costs no more
/// than they allow, and every player that takes a time budget then has one
/// no longer than the deadline; the nets a spec names are the nets its cost
/// lists.
pub fn check_serve_request(data: &[u8]) {
    if let Ok(body) = serde_json::from_slice::<NewGameBody>(data) {
        let Ok(game) = AnyGame::parse(&body.game) else {
            return;
        };
        for text in body.players.iter().take(8) {
            wopr::with_game!(&game, g => serve_check(g, text));
        }
        return;
    }
    let Some(text) = text_of(data) else { return };
    for spec in game_specs() {
        let game = game_of(&spec);
        wopr::with_game!(&game, g => serve_check(g, text));
    }
}

/// Checks one player spec as the server does; see [`check_serve_request`].
fn serve_check<G: Roster>(game: &G, text: &str) {
    let Ok(mut spec) = PlayerSpec::parse(game, text) else {
        return;
    };
    let round_trip = |spec: &PlayerSpec| {
        let canonical = spec.to_string();
        let again = PlayerSpec::parse(game, &canonical).unwrap_or_else(|e| {
            panic!(
                "'{text}' on {} reads as '{canonical}', which does not parse: {e}",
                game.spec()
            )
        });
        assert_eq!(
            &again,
            spec,
            "'{canonical}' on {} is not stable",
            game.spec()
        );
    };
    round_trip(&spec);
    let nets = spec.cost().nets;
    let named: Vec<String> = spec.nets_mut().into_iter().map(|n| n.clone()).collect();
    assert_eq!(
        named, nets,
        "'{text}': the nets named are not the nets read"
    );
    if spec.check_caps(&SERVE_CAPS).is_err() {
        return;
    }
    round_trip(&spec);
    let cost = spec.cost();
    assert!(cost.depth.is_none_or(|d| d <= SERVE_CAPS.depth), "{spec}");
    assert!(cost.sims.is_none_or(|n| n <= SERVE_CAPS.sims), "{spec}");
    assert!(
        cost.empties.is_none_or(|e| e <= SERVE_CAPS.empties),
        "{spec}"
    );
    assert!(cost.time.is_none_or(|t| t <= SERVE_CAPS.time), "{spec}");
    let timed = matches!(spec, PlayerSpec::Kind(_) | PlayerSpec::Perfect { .. })
        || matches!(&spec, PlayerSpec::Own(o) if o.timed);
    assert_eq!(cost.time.is_some(), timed, "{spec}: no move deadline");
}

// ---------------------------------------------------------------- configs
