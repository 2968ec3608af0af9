//! Writing a file whole or not at all: through a temporary file and a
//! rename, so that a run killed mid-write never leaves half a file. Shared
//! by the run folder ([`super::files`]) and the pre-trained pools
//! ([`super::pretrain`]).

use std::fs;
use std::path::Path;

use super::error::RunError;

/// Writes `text` to `path` through a temporary file and a rename. Only the
/// leading rank of a run spread over processes writes
/// ([`crate::dist::is_leader`]); the others keep the same state and
/// write nothing.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), RunError> {
    if !crate::dist::is_leader() {
        return Ok(());
    }
    let tmp = path.with_extension("tmp");
    fs::write(&tmp, text).map_err(|e| RunError(format!("cannot write {}: {e}", tmp.display())))?;
    fs::rename(&tmp, path).map_err(|e| RunError(format!("cannot write {}: {e}", path.display())))
}
