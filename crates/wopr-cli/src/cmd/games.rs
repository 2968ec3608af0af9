//! `wopr games`: the registry, printed.

use wopr::registry::games;
use wopr::{with_game, AnyGame, Game};

/// Arguments of `wopr games`.
#[derive(clap::Args, Debug)]
pub struct GamesArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Lists every registered game with its parameters and defaults.
pub fn run(args: &GamesArgs) -> anyhow::Result<()> {
    let mut out = Vec::new();
    for info in games() {
        // A game with no default (a GDL game needs its rule sheet) is
        // listed with the spec form its error names, not an error.
        let game = match AnyGame::parse(info.name) {
            Ok(game) => game,
            Err(needs) => {
                if args.json {
                    out.push(serde_json::json!({
                        "name": info.name,
                        "spec": null,
                        "spec_form": needs.to_string(),
                        "about": info.about,
                        "paper": info.paper,
                    }));
                } else {
                    println!("{}  ({})", info.name, info.about);
                    println!("    no default spec: {needs}");
                }
                continue;
            }
        };
        let (actions, length, players) = with_game!(&game, g => (g.num_actions(), g.max_game_length(), wopr::players::player_names(g)));
        if args.json {
            out.push(serde_json::json!({
                "name": info.name,
                "spec": game.spec(),
                "about": info.about,
                "paper": info.paper,
                "num_actions": actions,
                "max_game_length": length,
                "params": info.params.iter().map(|p| serde_json::json!({"name": p.name, "default": p.default, "doc": p.doc})).collect::<Vec<_>>(),
                "players": players,
            }));
            continue;
        }
        println!("{}  ({})", info.name, info.about);
        if !info.paper.is_empty() {
            println!("    used in: {}", info.paper);
        }
        println!(
            "    default spec: {}  ({actions} actions, at most {length} per game)",
            game.spec()
        );
        for p in info.params {
            let key = if p.name == "size" {
                "CxR".to_string()
            } else {
                format!("{}=", p.name)
            };
            println!("    {key:<12} default {:<8} {}", p.default, p.doc);
        }
        println!("    players: {}, human", players.join(", "));
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    }
    Ok(())
}
