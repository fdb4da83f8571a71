//! Many executor results in one run (`validate --batch`): JSON Lines in, one answer per line
//! out in input order, judged in parallel in bounded memory.
//!
//! The parts, each usable alone: [`Lines`] reads the input a line at a time (an over-long line
//! is skipped, never held); [`read_item`] reads one line into an [`Item`]; [`Session`] is one
//! worker's open repositories and base trees, each opened or resolved once and shared by every
//! result judged against it; [`run_ordered`] spreads the items over worker threads and hands
//! the answers on in input order, with at most [`Parallel::window`] items held at once.
//! Judging one item is the caller's (the command line's `validate`, with its repair, judge and
//! record); a line that cannot be judged is a [`LineError`], answered on its own line.

mod item;
mod lines;
mod ordered;
mod session;
#[cfg(test)]
mod tests;

pub use item::{Item, ItemId, ItemSchema, ResultInput, StepInput, read_item};
pub use lines::{Line, Lines};
pub use ordered::{Parallel, run_ordered};
pub use session::{Open, Session};

use crate::finding::{ErrorCode, codes};

codes! {
    /// Why a `validate --batch` input line is not an item at all (the run goes on).
    LineCode {
        /// The line is not JSON.
        NotJson => "not_json",
        /// JSON, but not an item: a missing or unknown key, or an `id` that is neither a string
        /// nor an integer.
        BadItem => "bad_item",
        /// Over `--max-line-bytes`: skipped without being read.
        LineTooLong => "line_too_long",
    }
}

/// A [`LineError`]'s code: the line's own, or the one `validate` of that result alone would
/// exit with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineErrorCode {
    /// The line is not an item.
    Line(LineCode),
    /// The item could not be judged (`invalid_step`, `repository`, `judge_failed`, ...).
    Error(ErrorCode),
}

impl LineErrorCode {
    /// The stable wire name.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Line(code) => code.as_str(),
            Self::Error(code) => code.as_str(),
        }
    }
}

impl From<LineCode> for LineErrorCode {
    fn from(code: LineCode) -> Self {
        Self::Line(code)
    }
}

impl From<ErrorCode> for LineErrorCode {
    fn from(code: ErrorCode) -> Self {
        Self::Error(code)
    }
}

/// Why one line has no verdict: its answer says so, and the run goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// The line's id, when one could be read.
    pub id: Option<ItemId>,
    /// Stable code: a [`LineCode`] (`not_json`, `bad_item`, `line_too_long`), or an
    /// [`ErrorCode`] (`invalid_step`, `invalid_config`, `repository`, `judge_failed`, ...: the
    /// codes the single `validate` exits with).
    pub code: LineErrorCode,
    /// One line: what is wrong and what to do.
    pub message: String,
    /// Whether the input is refused (what would be exit 2 for one result) rather than
    /// patchgate failing to judge it (exit 3).
    pub is_input_refused: bool,
}

impl LineError {
    /// A line refused as input (exit 2's kind), without an id yet.
    pub fn new(code: impl Into<LineErrorCode>, message: impl Into<String>) -> Self {
        Self { id: None, code: code.into(), message: message.into(), is_input_refused: true }
    }

    /// The same error as patchgate failing to judge the line (exit 3's kind).
    #[must_use]
    pub fn failing(self) -> Self {
        Self { is_input_refused: false, ..self }
    }

    /// The same error for the line with `id`.
    #[must_use]
    pub fn with_id(self, id: ItemId) -> Self {
        Self { id: Some(id), ..self }
    }
}

/// The answer to a line over `max_bytes`, which was skipped without being held.
#[must_use]
pub fn too_long(line: &Line, max_bytes: usize) -> LineError {
    LineError::new(
        LineCode::LineTooLong,
        format!(
            "line {} is {} bytes, over the limit of {max_bytes} (--max-line-bytes); send the \
             result on a line of its own with a smaller patch, or raise the limit",
            line.number, line.len
        ),
    )
}
