//! Grounding's fallback: where the ground rules pass the memory budget,
//! the fixpoint runs again for the possible atoms alone (what the
//! non-ground evaluator needs), in passes that leave out more and more of
//! the rules of the relations answered on demand ([`super::demand`]).

use std::collections::HashSet;

use crate::ast::Sheet;

use super::budget::{Budget, Over, Refusal};
use super::{demand, Grounder, Grounding};

/// How the fixpoint for the possible atoms alone treats the relations
/// answered on demand ([`demand`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pass {
    /// It leaves out the rules of those whose possible atoms no other
    /// relation needs.
    Exact,
    /// Also those whose readers bind their arguments, their literals taken
    /// as holding.
    Relaxed,
    /// All of them, each literal reading one cut into the values its
    /// arguments can take ([`super::project`]).
    Projected,
}

/// The possible atoms of `sheet` alone, the ground rules having passed
/// `budget` where `rules` says: first exact, then relaxed, then with
/// projections; where a static relation passed the budget, again with it
/// answered on demand, if it can be ([`demand::too_large`]). Refused where
/// every pass passes the budget too.
pub(super) fn atoms_alone(
    sheet: &Sheet,
    budget: Budget,
    rules: Over,
) -> Result<Grounding, Refusal> {
    let mut also = HashSet::new();
    let mut demand = demand::on_demand(sheet, &also);
    'round: loop {
        let mut last = None;
        for pass in [Pass::Exact, Pass::Relaxed, Pass::Projected] {
            let mut g = Grounder::new(sheet, budget, Some((&demand, pass)))?;
            match g.run().and_then(|()| g.check()) {
                Ok(()) => {
                    g.dropped = Some(rules);
                    let mut out = g.finish();
                    out.called = demand.called;
                    return Ok(out);
                }
                Err(Refusal::Over(over)) => {
                    // A static relation too large to hold is answered on
                    // demand before its readers are cut to projections.
                    if pass != Pass::Exact {
                        let mut wider = also.clone();
                        wider.extend(demand::too_large(sheet, over.line));
                        let grown = demand::on_demand(sheet, &wider);
                        if grown.called.len() > demand.called.len() {
                            (also, demand) = (wider, grown);
                            continue 'round;
                        }
                    }
                    last = Some(over);
                }
                Err(e) => return Err(e),
            }
        }
        let over = last.expect("the last pass passed the budget");
        return Err(Refusal::Both(rules, over));
    }
}
