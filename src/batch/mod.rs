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

/// Why one line has no verdict: its answer says so, and the run goes on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// The line's id, when one could be read.
    pub id: Option<ItemId>,
    /// Stable code: `not_json`, `bad_item`, `line_too_long`, `invalid_step`,
    /// `invalid_config`, `repository`, `judge_failed`, ... (the codes the single `validate`
    /// exits with).
    pub code: &'static str,
    /// One line: what is wrong and what to do.
    pub message: String,
    /// Whether the input is refused (what would be exit 2 for one result) rather than
    /// patchgate failing to judge it (exit 3).
    pub is_input_refused: bool,
}

impl LineError {
    /// A line refused as input (exit 2's kind), without an id yet.
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        Self { id: None, code, message: message.into(), is_input_refused: true }
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
        "line_too_long",
        format!(
            "line {} is {} bytes, over the limit of {max_bytes} (--max-line-bytes); send the \
             result on a line of its own with a smaller patch, or raise the limit",
            line.number, line.len
        ),
    )
}
