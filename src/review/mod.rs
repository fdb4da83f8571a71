//! The store of rejected results: every result `validate` rejects (unless `--no-record`) is kept
//! under the repository's git directory, with the run it was judged in, so a person can see what
//! the agent tried, why patchgate said no, and overrule it (`review apply`:
//! `validate::apply_override`).
//!
//! Layout: one JSON file per entry in `<git common dir>/patchgate/rejected/`, named
//! `<unix nanos, 20 digits>-<sha-256 hex>.json`, so ordering and pruning need no parsing. Linked
//! worktrees share the common dir, hence one store per repository.
//!
//! - **Atomic**: an entry is written to a temporary file in the same directory, flushed to disk
//!   and renamed into place; a crash leaves at most a stray `.tmp*` file, never a half entry.
//! - **Ids**: the SHA-256 of the entry's content (time included); shown as its first 8 hex
//!   digits (longer only when two entries share them), looked up by any unique prefix of 4 or
//!   more digits, like git.
//! - **Bounded** ([`ReviewPolicy`]): an entry survives a write when it is among the newest
//!   `keep` entries *or* younger than `max_age_days`, and never beyond the newest `max_entries`
//!   nor beyond `max_bytes` of entry files (the oldest go first). So the last N are kept however
//!   old, a burst of rejections is kept for 30 days, and the two hard caps bound the store's
//!   size whatever the rate and however large the patches; an entry larger than `max_bytes`
//!   alone is not recorded.
//!
//! ```
//! use patchgate::review::{prune_selection, ReviewPolicy};
//! use std::time::{Duration, SystemTime};
//! let now = SystemTime::UNIX_EPOCH + Duration::from_secs(100 * 86_400);
//! let policy = ReviewPolicy { keep: 1, max_age_days: 30, max_entries: 10, ..Default::default() };
//! // newest first: 1 day old, 40 days old, 50 days old
//! let times = [99, 60, 50].map(|d| SystemTime::UNIX_EPOCH + Duration::from_secs(d * 86_400));
//! assert_eq!(prune_selection(&times, &policy, now), vec![1, 2]);
//! ```

mod decide;
mod entry;
mod id;
mod prune;
mod record;
mod store;
mod time;

pub use decide::{OverrideDecision, decide_override};
pub use entry::{Entry, NewEntry, Override, STORE_FORMAT};
pub use id::{MIN_PREFIX, SHORT_ID, short_ids};
pub use prune::{over_budget, prune_selection};
pub use record::{Judged, Recording, record_rejection};
pub use store::{Listing, Skipped, Store, StoredRef};
pub use time::{format_age, format_time, parse_since};

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The `[review]` table of `.patchgate.toml`.
///
/// ```toml
/// [review]
/// keep = 200          # the newest N entries are kept however old
/// max_age_days = 30   # entries younger than this are kept even beyond N
/// max_entries = 1000  # hard cap: never more than this many entries
/// max_bytes = 67108864  # hard cap: never more than this many bytes of entries (64 MiB)
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReviewPolicy {
    /// The newest `keep` entries are always kept (subject to `max_entries`).
    pub keep: usize,
    /// Entries younger than this many days are kept (subject to `max_entries`).
    pub max_age_days: u64,
    /// The store never holds more than this many entries; the oldest go first.
    pub max_entries: usize,
    /// The store's entry files never add up to more than this many bytes; the oldest go first.
    pub max_bytes: u64,
}

impl Default for ReviewPolicy {
    fn default() -> Self {
        Self { keep: 200, max_age_days: 30, max_entries: 1000, max_bytes: 64 << 20 }
    }
}

/// What went wrong with the store.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReviewError {
    /// Reading or writing the store failed.
    #[error("cannot {action} '{}': {source}", path.display())]
    Io {
        /// What was being done (`write the entry`, `read the store`).
        action: &'static str,
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// An id argument that is not 4 to 64 hex digits.
    #[error("'{0}' is not an entry id: give 4 or more hex digits from `patchgate review list`")]
    InvalidId(String),
    /// No entry has this id prefix.
    #[error("no rejected result with id '{0}'; run `patchgate review list` to see the ids")]
    UnknownId(String),
    /// Several entries share this prefix.
    #[error("id '{prefix}' is ambiguous: it matches {}; give more digits", candidates.join(", "))]
    AmbiguousId {
        /// The prefix given.
        prefix: String,
        /// The matching ids, shortened.
        candidates: Vec<String>,
    },
    /// The entry's file exists but cannot be read as an entry.
    #[error("entry '{id}' is corrupted ({message}); remove it with `patchgate review drop {id}`")]
    Corrupt {
        /// The entry's short id.
        id: String,
        /// What is wrong.
        message: String,
    },
}

impl ReviewError {
    /// Whether the error is about the user's input (an id), not the store itself.
    #[must_use]
    pub fn is_input(&self) -> bool {
        self.code().is_input_refused()
    }

    /// A stable code for the JSON error envelope.
    #[must_use]
    pub fn code(&self) -> crate::finding::ErrorCode {
        use crate::finding::ErrorCode;
        match self {
            Self::Io { .. } => ErrorCode::Io,
            Self::InvalidId(_) => ErrorCode::InvalidId,
            Self::UnknownId(_) => ErrorCode::UnknownId,
            Self::AmbiguousId { .. } => ErrorCode::AmbiguousId,
            Self::Corrupt { .. } => ErrorCode::CorruptEntry,
        }
    }
}

#[cfg(test)]
mod tests;
