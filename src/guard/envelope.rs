//! Codex `apply_patch` envelopes: the files an envelope adds, updates, deletes or moves to.
//!
//! ```text
//! *** Begin Patch
//! *** Update File: src/a.rs
//! *** Move to: src/b.rs
//! @@
//! -old
//! +new
//! *** End Patch
//! ```

use super::{PathArg, Role};
use std::path::Path;

/// Every path the envelope names: added files and move targets may be new (their parent must
/// exist), updated and deleted files must exist (and are changed).
#[must_use]
pub(super) fn paths(envelope: &str, cwd: &Path) -> Vec<PathArg> {
    let mut out = Vec::new();
    for line in envelope.lines() {
        let line = line.trim_end_matches('\r');
        let (role, rest) = if let Some(rest) = line.strip_prefix("*** Add File: ") {
            (Role::Create, rest)
        } else if let Some(rest) = line.strip_prefix("*** Update File: ") {
            (Role::Modify, rest)
        } else if let Some(rest) = line.strip_prefix("*** Delete File: ") {
            (Role::Modify, rest)
        } else if let Some(rest) = line.strip_prefix("*** Move to: ") {
            (Role::Create, rest)
        } else {
            continue;
        };
        let raw = rest.trim();
        if !raw.is_empty() {
            out.push(PathArg { raw: raw.to_owned(), role, base: cwd.to_owned() });
        }
    }
    out
}
