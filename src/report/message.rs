//! Every line patchgate writes on standard error for a person, in one place: the prefix that
//! says who speaks and how loud (`patchgate: error: `, `warning: `, `note: `), and the
//! messages made from library data (a skipped store entry, a rejection kept for review).
//! Machine-readable answers go to standard output through the other renderers.

use super::{Notice, NoticeCode};
use crate::review::{Recording, ReviewError, Skipped};

/// How loud a line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// The command could not do what was asked.
    Error,
    /// Done, but something a person should look at went wrong on the side.
    Warning,
    /// For information.
    Note,
}

/// `patchgate: LEVEL: text`.
#[must_use]
pub fn line(level: Level, text: &str) -> String {
    let level = match level {
        Level::Error => "error",
        Level::Warning => "warning",
        Level::Note => "note",
    };
    format!("patchgate: {level}: {text}")
}

/// `patchgate: text`, for the few lines that name their own kind (`INVALID_AGENT_INPUT: ...`).
#[must_use]
pub fn plain(text: &str) -> String {
    format!("patchgate: {text}")
}

/// The line `validate` gives about keeping a rejection: a failure to record is always a
/// warning; the id (or why nothing was kept) is a note only for text output, so JSON callers
/// see the verdict alone.
#[must_use]
pub fn recording(recording: &Recording, is_text: bool) -> Option<String> {
    let note = recording.note()?;
    match recording {
        Recording::Failed(_) => Some(line(Level::Warning, &note.message)),
        _ if is_text => Some(line(Level::Note, &note.message)),
        _ => None,
    }
}

/// `patchgate: warning: MESSAGE` for a warning that the JSON envelope also carries.
#[must_use]
pub fn warning(notice: &Notice) -> String {
    line(Level::Warning, &notice.message)
}

/// A store entry `review list` could not read, and how to get rid of it.
#[must_use]
pub fn skipped_entry(skipped: &Skipped) -> Notice {
    let message = match &skipped.id {
        Some(id) => format!(
            "skipping corrupted entry {id} ({}); remove it with `patchgate review drop {id}`",
            skipped.reason
        ),
        None => format!("skipping '{}': {}", skipped.path.display(), skipped.reason),
    };
    Notice { code: NoticeCode::SkippedEntry, message }
}

/// `review apply` wrote the files, but the entry does not say who overrode what.
#[must_use]
pub fn override_unrecorded(error: &ReviewError) -> Notice {
    let message = format!("applied, but the override was not recorded: {error}");
    Notice { code: NoticeCode::OverrideUnrecorded, message }
}
