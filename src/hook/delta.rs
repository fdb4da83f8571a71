//! libgit2's diff deltas as the hook's [`Change`]s, with the diff options every comparison uses
//! (the full diff of [`super::staged`] and the cached trees of [`super::fast`]).

use super::{Change, ChangeStatus};
use git2::{Delta, DiffOptions};

/// Typechanges (file <-> symlink) as one entry; submodule pointer moves are changes too.
pub(super) fn diff_options() -> DiffOptions {
    let mut opts = DiffOptions::new();
    opts.include_typechange(true).ignore_submodules(false).skip_binary_check(true);
    opts
}

/// The change one delta records; `None` for what a commit does not record.
pub(super) fn convert(delta: &git2::DiffDelta<'_>) -> Option<Change> {
    let status = match delta.status() {
        Delta::Added => ChangeStatus::Added,
        Delta::Deleted => ChangeStatus::Deleted,
        Delta::Modified => ChangeStatus::Modified,
        Delta::Renamed => ChangeStatus::Renamed,
        Delta::Copied => ChangeStatus::Copied,
        Delta::Typechange => ChangeStatus::Typechange,
        // Unmodified, ignored, untracked, unreadable, conflicted: nothing a commit records.
        _ => return None,
    };
    let (old, new) = (delta.old_file(), delta.new_file());
    let path = |f: &git2::DiffFile<'_>| f.path_bytes().map(<[u8]>::to_vec);
    Some(Change {
        status,
        old_path: if status == ChangeStatus::Added { None } else { path(&old) },
        new_path: if status == ChangeStatus::Deleted { None } else { path(&new) },
        old_mode: u32::from(old.mode()),
        new_mode: u32::from(new.mode()),
    })
}
