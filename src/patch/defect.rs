//! Parser diagnostics: defects (the input is not a standard unified diff) and warnings (legal,
//! but worth saying). Codes are part of the public contract.

use super::Span;
pub use crate::finding::{DefectCode, WarningCode};
use serde::Serialize;

/// One reason the input is not a standard unified diff.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("line {}: {message}", span.line)]
#[non_exhaustive]
pub struct Defect {
    /// Stable code.
    pub code: DefectCode,
    /// One lowercase line quoting the bad input and saying what to do.
    pub message: String,
    /// Where the defect is.
    #[serde(flatten)]
    pub span: Span,
}

/// One legal but noteworthy property of the input.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// Stable code.
    pub code: WarningCode,
    /// One lowercase line.
    pub message: String,
    /// Where it is (the first occurrence).
    #[serde(flatten)]
    pub span: Span,
}
