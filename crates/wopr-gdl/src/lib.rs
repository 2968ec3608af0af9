//! wopr-gdl: general games written in GDL and GDL-II, played through
//! wopr-core's traits like any native game (`wopr::games::gdl` re-exports
//! this crate).

pub mod ast;
pub mod check;
pub mod conformance;
pub mod facts;
pub mod game;
pub mod ggp;
pub mod ground;
pub mod nonground;
pub mod parse;
pub mod prolog;
pub mod reasoner;
pub mod sexp;
pub mod steps;
mod topdown;

/// What was wrong with a rule sheet, in one line (with the rule's line
/// number where there is one).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct GdlError(pub String);
