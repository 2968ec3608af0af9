//! How the search scores a new leaf: random rollouts, a value net, or a
//! policy-value net whose policy also gives the priors (see the module
//! docs of [`super`]), and the nets loaded from their files as leaves.

use std::sync::Arc;

use crate::game::encode::Encodable;
use crate::game::{Action, SpecError};
use crate::nn::{policy_value, Heads, NetFile, Network};
use crate::players::net::NetEval;

/// A value function for leaves: the value in [−1, 1] of a position (not
/// finished, not a chance node) for its player to move.
pub type ValueFn<S> = Box<dyn FnMut(&S) -> f32 + Send>;

/// A policy-value function: the value in [−1, 1] of a position (not
/// finished, not a chance node) for its player to move, with the policy's
/// probabilities of the legal actions given (in their order) written to
/// the vector.
pub type PolicyFn<S> = Box<dyn FnMut(&S, &[Action], &mut Vec<f32>) -> f32 + Send>;

/// How the search scores a new leaf.
pub enum Leaf<S> {
    /// Uniformly random moves to the end of the game.
    Random,
    /// A value function (a net); `spec` is what the player's spec shows as
    /// `rollout=…`. A leaf at a chance node is first moved on by sampled
    /// outcomes; a finished position scores by its returns, not the function.
    Value {
        /// The function.
        value: ValueFn<S>,
        /// Its spec text, e.g. `net:ttt.json`.
        spec: String,
    },
    /// A policy-value net (AlphaZero's): under PUCT a leaf's position is
    /// evaluated once, when first reached, and its children made there
    /// with the policy's priors; its value is the leaf's. Under UCT only
    /// the value is used.
    PolicyValue {
        /// The function.
        eval: PolicyFn<S>,
        /// Its spec text, e.g. `net:az.json`.
        spec: String,
    },
}

impl<S> Leaf<S> {
    /// The `rollout=` text of a net leaf (`None`: random rollouts).
    pub(super) fn spec(&self) -> Option<&str> {
        match self {
            Leaf::Random => None,
            Leaf::Value { spec, .. } | Leaf::PolicyValue { spec, .. } => Some(spec),
        }
    }
}

/// Loads the value net at `path` for `game` as a leaf evaluation.
pub(super) fn value_net<G>(game: &G, path: &str) -> Result<Leaf<G::State>, SpecError>
where
    G: Encodable,
{
    let file = NetFile::load(path).map_err(|e| SpecError(format!("'mcts': {e}")))?;
    crate::players::net::check_game(game, &file, path)
        .map_err(|e| SpecError(format!("'mcts': {e}")))?;
    value_leaf(game, file, path)
}

/// The value net of a loaded `file` (read from `path`) as a leaf
/// evaluation; it must have one output, or be a policy-value net for the
/// game (its priors then come from its policy head).
pub(super) fn value_leaf<G>(
    game: &G,
    file: NetFile,
    path: &str,
) -> Result<Leaf<G::State>, SpecError>
where
    G: Encodable,
{
    let outputs = file.net.num_outputs();
    if file.heads == Heads::PolicyValue {
        let want = game.num_actions() + 1;
        if outputs != want {
            return Err(SpecError(format!(
                "'mcts': rollout=net:{path} is a policy-value net with {outputs} outputs; {} needs {want} (one per action, then the value)",
                game.spec()
            )));
        }
        let encoding = game.encoding(file.encoding.as_deref().unwrap_or("raw"))?;
        let mut eval = NetEval::<G>::new(Arc::new(file.net), encoding)
            .map_err(|e| SpecError(format!("'mcts': {path}: {e}")))?;
        return Ok(Leaf::PolicyValue {
            eval: Box::new(
                move |s: &G::State, legal: &[Action], priors: &mut Vec<f32>| {
                    let row = eval.run(std::slice::from_ref(s));
                    policy_value::read(row, legal, priors)
                },
            ),
            spec: format!("net:{path}"),
        });
    }
    if outputs != 1 {
        return Err(SpecError(format!(
            "'mcts': rollout=net:{path} needs a value net with one output, this one has {outputs}"
        )));
    }
    let encoding = game.encoding(file.encoding.as_deref().unwrap_or("raw"))?;
    let mut eval = NetEval::<G>::new(Arc::new(file.net), encoding)
        .map_err(|e| SpecError(format!("'mcts': {path}: {e}")))?;
    Ok(Leaf::Value {
        value: Box::new(move |s: &G::State| eval.run(std::slice::from_ref(s))[0]),
        spec: format!("net:{path}"),
    })
}
