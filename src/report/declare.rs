//! Output of `patchgate declare`.

use crate::declare::{Declaration, Entry};
use serde::Serialize;
use std::fmt::Write as _;

/// The JSON form of `declare` (after adding, `--show`, `--clear`).
#[derive(Debug, Serialize)]
pub struct DeclarationReport<'d> {
    /// The declaration file.
    pub file: String,
    /// Whether a declaration is active.
    pub active: bool,
    /// The declared patterns and their sources.
    pub entries: &'d [Entry],
    /// How many patterns this call added (`null` for `--show` / `--clear`).
    pub added: Option<usize>,
}

impl<'d> DeclarationReport<'d> {
    /// Describe `declaration` stored at `file`.
    #[must_use]
    pub fn new(file: String, declaration: Option<&'d Declaration>, added: Option<usize>) -> Self {
        let entries: &[Entry] = declaration.map_or(&[], |d| &d.entries);
        Self { file, active: !entries.is_empty(), entries, added }
    }
}

/// The text form: one pattern per line with its source.
#[must_use]
pub fn declaration_text(report: &DeclarationReport<'_>) -> String {
    let mut out = String::new();
    if let Some(added) = report.added {
        let _ = writeln!(out, "declared {added} new pattern(s)");
    }
    if !report.active {
        out.push_str("no active declaration: commits are checked against .patchgate.toml only\n");
        return out;
    }
    let _ = writeln!(out, "active declaration ({}):", report.file);
    for e in report.entries {
        let _ = writeln!(out, "  {:<40} from {}", e.pattern, e.source);
    }
    out
}
