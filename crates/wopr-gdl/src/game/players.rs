//! What nets and searchers get of a GDL game: the `facts` encoding, the
//! roster (which players a sheet's kinds of turn allow, as random playouts
//! find them when the sheet is loaded: [`probe`]) and the oracles.

use super::{Gdl, GdlState};
use wopr_core::game::encode::{unknown, Encodable, Encoding, EncodingOf};
use wopr_core::game::{Action, ActionList, Game, GameSpec, SpecError, State, Turn};
use wopr_core::players::{board_build, board_parse, PlayerSpec, Roster};

/// The `facts` encoding: the mover one-hot over the seats, then one input
/// per ground base fact, 1 when true.
struct FactsEncoding {
    seats: usize,
    base: usize,
}

impl Encoding<GdlState> for FactsEncoding {
    fn name(&self) -> &'static str {
        "facts"
    }
    fn size(&self) -> usize {
        self.seats + self.base
    }
    fn encode(&self, state: &GdlState, out: &mut [f32]) {
        out.fill(0.0);
        if let Turn::Player(p) = state.turn {
            out[p] = 1.0;
        }
        for b in state.facts.iter() {
            out[self.seats + b] = 1.0;
        }
    }
}

impl Encodable for Gdl {
    fn encoding_names(&self) -> &'static [&'static str] {
        &["facts"]
    }
    fn encoding(&self, name: &str) -> Result<EncodingOf<Self>, SpecError> {
        if !self.is_alternating() {
            return Err(SpecError(format!(
                "{}: nets play games whose turns are all one player's; this sheet has chance or simultaneous turns",
                self.spec()
            )));
        }
        match name {
            "facts" => Ok(Box::new(FactsEncoding {
                seats: self.rules.seats.len(),
                base: self.rules.reasoner.num_base(),
            })),
            _ => Err(unknown(&self.spec(), name, self.encoding_names())),
        }
    }
}

impl Roster for Gdl {
    /// GDL steps ([`crate::steps`]); from the start position,
    /// from the sheet's `init` (the start state has played any forced
    /// steps already, as wopr's turn model does).
    fn perft(&self, state: &GdlState, depth: u32) -> u64 {
        crate::steps::step_perft(self.reasoner(), &self.step_root(state), depth)
    }

    fn parse_bot(&self, spec: &GameSpec) -> Result<Option<PlayerSpec>, SpecError> {
        if self.is_alternating() {
            if spec.name == "perfect" {
                return Err(SpecError(format!("{} has no exact solver", self.spec())));
            }
            return board_parse(self, spec);
        }
        let seats = self.rules.seats.len();
        match spec.name.as_str() {
            "mcts" | "alphabeta" | "net" if seats != 2 => Err(SpecError(format!(
                "'{}' plays two-player games; {} has {seats} seats (accepted: random, first)",
                spec.name,
                self.spec()
            ))),
            "mcts" if !self.has_simultaneous_turns() && !self.rules.hidden => {
                let (config, rollout) = wopr_core::players::mcts::parse_config(spec)?;
                if rollout.is_some() {
                    return Err(SpecError(format!(
                        "'mcts': {} has chance or simultaneous turns, so rollout=net:FILE is not available (accepted: rollout=random)",
                        self.spec()
                    )));
                }
                Ok(Some(PlayerSpec::kind::<wopr_core::players::mcts::MctsKind>(
                    wopr_core::players::mcts::MctsSettings { config, rollout },
                )))
            }
            "mcts" | "alphabeta" | "net" if self.has_simultaneous_turns() => Err(SpecError(format!(
                "'{}' needs turns of one player or chance; {} has simultaneous turns (accepted: random, first)",
                spec.name,
                self.spec()
            ))),
            "alphabeta" | "net" => Err(SpecError(format!(
                "'{}' needs a game whose turns are all one player's; {} has chance or simultaneous turns (accepted: random, first, mcts)",
                spec.name,
                self.spec()
            ))),
            _ => Ok(None),
        }
    }

    fn build_bot(
        &self,
        spec: &PlayerSpec,
    ) -> Result<Box<dyn wopr_core::game::Player<Self>>, SpecError> {
        if self.is_alternating() {
            return board_build(self, spec);
        }
        match spec.settings::<wopr_core::players::mcts::MctsKind>() {
            Some(s) => wopr_core::players::mcts::build_random(self, s.config),
            None => Err(SpecError(format!("{} has no player '{spec}'", self.spec()))),
        }
    }

    fn bot_names(&self) -> &'static [&'static str] {
        // The generic kinds a sheet plays (`alphabeta`, `mcts`, `net:` on
        // two-player sheets in turns) are asked of `parse_bot`
        // (`players::KINDS`); a sheet with chance reads `mcts` without net
        // rollouts, which is its own syntax here.
        if self.is_alternating() || self.has_simultaneous_turns() {
            &[]
        } else {
            &["mcts[:sims=N][,c=C][,ms=T][,solve=on|off][,reuse=on|off]"]
        }
    }
}

/// GDL games have the generic oracles: `alphabeta` on the goal-valued
/// evaluation (no exact solver, no game-specific judge).
impl wopr_core::game::oracle::Oracles for Gdl {
    /// Goal points are worth 1000 evaluation units each: 25 points above
    /// even (a goal of 75) is tanh(1).
    fn value_scale(&self) -> f32 {
        25_000.0
    }
}

/// Random playouts run when a sheet is loaded to see which kinds of turn it
/// has: at most this many,
const PROBE_PLAYOUTS: u64 = 64;
/// and none started after this many plies in all (a count, not a clock,
/// so that what a sheet is found to have does not depend on the machine):
/// where a ply costs milliseconds (the amazons sheets' million rules),
/// 64 long games would take longer than loading the sheet.
const PROBE_PLIES: usize = 2_048;
/// On the non-ground evaluator (a sheet too large to ground, where a ply
/// costs milliseconds: chess's random games are hundreds of plies long),
/// at most this many plies in all, the game under way cut there.
const PROBE_PLIES_NON_GROUND: usize = 256;

/// The kinds of turn random games from the start meet: (chance,
/// simultaneous).
pub(super) fn probe(game: &Gdl) -> (bool, bool) {
    let mut rng = wopr_core::game::rng::stream(0, &[0]);
    let mut legal = ActionList::new();
    let (mut chance, mut simultaneous) = (false, false);
    let mut plies = 0;
    let cut = if game.rules.reasoner.is_grounded() {
        usize::MAX
    } else {
        PROBE_PLIES_NON_GROUND
    };
    for _ in 0..PROBE_PLAYOUTS {
        if plies >= PROBE_PLIES.min(cut) {
            break;
        }
        let mut s = game.initial_state();
        for _ in 0..game.rules.max_plies {
            if plies >= cut {
                break;
            }
            plies += 1;
            match s.turn() {
                Turn::Player(_) | Turn::Chance => {
                    chance |= s.turn() == Turn::Chance;
                    legal.clear();
                    s.legal_actions(&mut legal);
                    let a = legal[rand::RngExt::random_range(&mut rng, 0..legal.len())];
                    s.apply(a);
                }
                Turn::Simultaneous => {
                    simultaneous = true;
                    let joint: Vec<Action> = (0..game.num_players())
                        .map(|p| {
                            legal.clear();
                            s.legal_actions_of(p, &mut legal);
                            legal[rand::RngExt::random_range(&mut rng, 0..legal.len())]
                        })
                        .collect();
                    s.apply_joint(&joint);
                }
                Turn::Terminal => break,
            }
        }
    }
    (chance, simultaneous)
}
