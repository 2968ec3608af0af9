//! The one error type of a run.

/// What went wrong with a run: a bad config, a file, a checkpoint.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RunError(pub String);

/// Wraps any displayable error as a [`RunError`].
pub(super) fn err(e: impl std::fmt::Display) -> RunError {
    RunError(e.to_string())
}
