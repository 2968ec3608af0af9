//! `wopr position GAME [--moves …|--actions …] [--json]`: replay moves and
//! show where they lead.

use serde_json::json;
use wopr::game::driver::apply_notation;
use wopr::{with_game, Action, ActionList, Game, State, Turn};

use crate::ExitError;

/// Arguments of `wopr position`.
#[derive(clap::Args, Debug)]
pub struct PositionArgs {
    /// Game spec, e.g. `reversi:6x6`.
    game: String,
    /// Moves in the game's notation, separated by spaces (a simultaneous turn
    /// is one token `a/b`).
    #[arg(long, conflicts_with = "actions")]
    moves: Option<String>,
    /// Action indices separated by spaces or commas.
    #[arg(long)]
    actions: Option<String>,
    /// Print one JSON object instead of the board.
    #[arg(long)]
    json: bool,
}

fn split_moves(text: &str) -> Vec<&str> {
    text.split_whitespace().filter(|s| !s.is_empty()).collect()
}

fn split_actions(text: &str) -> Vec<&str> {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .filter(|s| !s.is_empty())
        .collect()
}

/// Replays the moves and prints the resulting position.
pub fn run(args: &PositionArgs) -> anyhow::Result<()> {
    let game = super::parse_game(&args.game)?;
    with_game!(&game, g => show(g, args))
}

fn show<G: Game>(game: &G, args: &PositionArgs) -> anyhow::Result<()> {
    let mut state = game.initial_state();
    let tokens: Vec<String> = match (&args.moves, &args.actions) {
        (Some(m), _) => split_moves(m).into_iter().map(str::to_string).collect(),
        (_, Some(a)) => split_actions(a)
            .into_iter()
            .map(|t| {
                if t.contains('/') {
                    t.split('/')
                        .map(|x| format!("#{x}"))
                        .collect::<Vec<_>>()
                        .join("/")
                } else {
                    format!("#{t}")
                }
            })
            .collect(),
        _ => Vec::new(),
    };
    for (ply, token) in tokens.iter().enumerate() {
        if let Err(why) = apply_notation(&mut state, game.num_players(), token) {
            let shown = token.replace('#', "");
            return Err(ExitError {
                code: 2,
                message: format!("move '{shown}' at ply {}: {why}", ply + 1),
            }
            .into());
        }
    }
    let turn = state.turn();
    let mut legal = ActionList::new();
    match turn {
        Turn::Simultaneous => {
            for seat in 0..game.num_players() {
                state.legal_actions_of(seat, &mut legal);
            }
            legal.sort_unstable();
            // Seats may share action indices; list each once.
            let mut seen: Vec<Action> = legal.to_vec();
            seen.dedup();
            legal = seen.into_iter().collect();
        }
        _ => state.legal_actions(&mut legal),
    }
    let terminal = state.is_terminal();
    let returns: Option<Vec<f64>> =
        terminal.then(|| (0..game.num_players()).map(|p| state.returns(p)).collect());
    if args.json {
        let to_move = match turn {
            Turn::Player(p) => json!(p),
            _ => serde_json::Value::Null,
        };
        let obj = json!({
            "game": game.spec(),
            "to_move": to_move,
            "turn": format!("{turn:?}").to_lowercase(),
            "legal": legal.iter().map(|&a| json!({"action": a, "notation": state.action_to_string(a)})).collect::<Vec<_>>(),
            "terminal": terminal,
            "returns": returns,
            "score": terminal.then(|| (0..game.num_players()).map(|p| state.score(p)).collect::<Option<Vec<i32>>>()).flatten(),
        });
        println!("{obj}");
        return Ok(());
    }
    println!("{state}");
    let names = game.seat_names();
    match turn {
        Turn::Player(p) => println!("to move: {} (seat {p})", names[p]),
        Turn::Chance => println!("to move: chance"),
        Turn::Simultaneous => println!("to move: all seats at once (moves a/b)"),
        Turn::Terminal => println!("game over"),
    }
    if !legal.is_empty() {
        let list: Vec<String> = legal
            .iter()
            .map(|&a| format!("{} (#{a})", state.action_to_string(a)))
            .collect();
        println!("legal: {}", list.join(" "));
    }
    if let Some(r) = returns {
        let parts: Vec<String> = names
            .iter()
            .zip(&r)
            .map(|(n, v)| format!("{n} {v:+}"))
            .collect();
        println!("returns: {}", parts.join(", "));
        if let Some(s) = state.score(0) {
            println!("score margin ({}): {s:+}", names[0]);
        }
    }
    Ok(())
}
