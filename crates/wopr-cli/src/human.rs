//! The `human` player: plays from the terminal.
//!
//! It shows what its seat may see and the legal moves, reads a move in the
//! game's notation (or `#index`), and asks again with the reason when the
//! input cannot be parsed or the move is illegal. `quit` or end of input
//! abandons the game.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use wopr::game::rng::WoprRng;
use wopr::players::{Player, ViewOf};
use wopr::{Action, Game, State};

/// A player reading moves from standard input.
pub struct HumanPlayer<G: Game> {
    /// Notation in every registered game does not depend on the position, so
    /// the start position serves to print and parse moves (the player only
    /// sees its view, which may not be a state).
    notation: G::State,
    /// Set when the human quits; the driver's observer then stops the game.
    pub abandoned: Arc<AtomicBool>,
}

impl<G: Game> HumanPlayer<G> {
    /// A human player for `game`.
    pub fn new(game: &G, abandoned: Arc<AtomicBool>) -> Self {
        HumanPlayer {
            notation: game.initial_state(),
            abandoned,
        }
    }
}

impl<G: Game> Player<G> for HumanPlayer<G> {
    fn spec(&self) -> String {
        "human".into()
    }

    fn choose(&mut self, view: &ViewOf<G>, legal: &[Action], _: &mut WoprRng) -> Action {
        let names: Vec<String> = legal
            .iter()
            .map(|&a| self.notation.action_to_string(a))
            .collect();
        println!("\n{view}");
        println!("legal: {}", names.join(" "));
        let stdin = std::io::stdin();
        loop {
            print!("your move> ");
            let _ = std::io::stdout().flush();
            let mut line = String::new();
            match stdin.lock().read_line(&mut line) {
                Ok(0) | Err(_) => {
                    self.abandoned.store(true, Ordering::SeqCst);
                    return legal[0];
                }
                Ok(_) => {}
            }
            let text = line.trim();
            if text.is_empty() {
                continue;
            }
            if text.eq_ignore_ascii_case("quit") || text.eq_ignore_ascii_case("q") {
                self.abandoned.store(true, Ordering::SeqCst);
                return legal[0];
            }
            match self.notation.parse_action(text) {
                Ok(a) if legal.contains(&a) => return a,
                Ok(a) => println!(
                    "'{text}' ({}) is not legal here; legal: {} (or quit)",
                    self.notation.action_to_string(a),
                    names.join(" ")
                ),
                Err(why) => println!(
                    "could not read '{text}': {why}; legal: {} (or quit)",
                    names.join(" ")
                ),
            }
        }
    }
}
