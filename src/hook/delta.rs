//! libgit2's diff deltas as the hook's [`Change`]s, with the diff options every comparison uses
//! (the full diff of [`super::staged`] and the cached trees of [`super::fast`]).

use super::{Change, ChangeStatus, HookError};
use git2::{Delta, Diff, DiffFormat, DiffOptions};

/// Typechanges (file <-> symlink) as one entry; submodule pointer moves are changes too.
pub(super) fn diff_options() -> DiffOptions {
    let mut opts = DiffOptions::new();
    opts.include_typechange(true).ignore_submodules(false).skip_binary_check(true);
    opts
}

/// What a diff's new side was read from, for the words of its errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Source {
    /// The index (pre-commit, and the trees its cache tree names).
    Index,
    /// A commit's tree (pushed, for pre-receive).
    Commit,
}

/// Refuse a diff holding a mode git does not know (a corrupt or forged index or tree): git2
/// panics on reading one ([`convert`] would abort the hook; found by the index fuzz target). The
/// modes are read from libgit2's raw format (`:OLD NEW ...`), which prints them as they are.
pub(super) fn check_modes(diff: &Diff<'_>, source: Source) -> Result<(), HookError> {
    const KNOWN: [&str; 7] = ["000000", "040000", "100644", "100664", "100755", "120000", "160000"];
    let mut unknown: Option<(String, String)> = None;
    let printed = diff.print(DiffFormat::Raw, |delta, _, line| {
        let text = String::from_utf8_lossy(line.content());
        let bad = text.trim_start_matches(':').split(' ').take(2).find(|m| !KNOWN.contains(m));
        if let Some(mode) = bad {
            let file = delta.new_file().path_bytes().or(delta.old_file().path_bytes());
            unknown = Some((mode.to_owned(), String::from_utf8_lossy(file.unwrap_or(b"?")).into()));
        }
        unknown.is_none()
    });
    if let Some((mode, file)) = unknown {
        let unknown = format!("'{file}' has mode {mode}, which git does not know");
        return Err(match source {
            Source::Index => HookError::Git {
                context: "read the index".into(),
                message: format!(
                    "{unknown}; the index is corrupt (restore it with 'git reset', which keeps \
                     your worktree)"
                ),
            },
            Source::Commit => HookError::Git {
                context: "read a commit's tree".into(),
                message: format!(
                    "{unknown}; the commit's tree is corrupt or forged ('git fsck' names it; \
                     the commit must be rewritten before it can be accepted)"
                ),
            },
        });
    }
    printed.map_err(HookError::git("read the changes' modes"))
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
