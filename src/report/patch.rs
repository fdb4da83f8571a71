//! `patchgate parse` output: the files and hunks of a parsed patch, or its defects.

use super::TextOptions;
use super::diagnostic::{Level, located};
use crate::patch::{BinaryKind, Defect, FilePatch, Operation, Parsed, Warning};
use crate::path::display_bytes;
use serde::Serialize;
use std::fmt::Write as _;

/// The JSON form of a parse.
///
/// The file entries are summarised one at a time as they are written ([`FileSummaries`]), so
/// the JSON of a large patch streams out without a second copy of its model.
#[derive(Debug, Serialize)]
pub struct ParseSummary<'p> {
    /// Whether the patch parsed without a defect.
    pub ok: bool,
    /// The file entries read.
    pub files: FileSummaries<'p>,
    /// Lines added in all files.
    pub added: usize,
    /// Lines removed in all files.
    pub removed: usize,
    /// Every defect.
    pub defects: &'p [Defect],
    /// Every warning.
    pub warnings: &'p [Warning],
}

/// One file entry in [`ParseSummary`].
#[derive(Debug, Serialize)]
pub struct FileSummary {
    /// Preimage path (`null` for a creation), as the file system has it (JSON escapes what
    /// needs escaping).
    pub old_path: Option<String>,
    /// Postimage path (`null` for a deletion).
    pub new_path: Option<String>,
    /// The preimage path with its bytes escaped (`\\ooo`), only when it is not valid UTF-8
    /// (`old_path` then holds U+FFFD for the invalid bytes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old_path_escaped: Option<String>,
    /// The postimage path escaped, only when it is not valid UTF-8.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_path_escaped: Option<String>,
    /// What the entry does.
    pub operation: Operation,
    /// Preimage mode, octal text (`"100644"`).
    pub old_mode: Option<String>,
    /// Postimage mode.
    pub new_mode: Option<String>,
    /// Binary form, when binary.
    pub binary: Option<BinaryKind>,
    /// 1-based patch line of the entry's header.
    pub line: usize,
    /// The hunks.
    pub hunks: Vec<HunkSummary>,
    /// Lines added.
    pub added: usize,
    /// Lines removed.
    pub removed: usize,
}

/// One hunk in [`FileSummary`].
#[derive(Debug, Serialize)]
pub struct HunkSummary {
    /// `@@ -old_start,old_count +new_start,new_count @@`
    pub old_start: u64,
    /// Preimage count.
    pub old_count: u64,
    /// Postimage start.
    pub new_start: u64,
    /// Postimage count.
    pub new_count: u64,
    /// 1-based patch line of the `@@` line.
    pub line: usize,
    /// Lines added.
    pub added: usize,
    /// Lines removed.
    pub removed: usize,
}

/// The file entries of a parse, each summarised when it is read or serialized.
#[derive(Clone, Copy, Debug)]
pub struct FileSummaries<'p>(&'p [FilePatch<'p>]);

impl FileSummaries<'_> {
    /// How many entries there are.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there is none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The parsed entries themselves.
    #[must_use]
    pub fn entries(&self) -> &[FilePatch<'_>] {
        self.0
    }

    /// Each entry's summary, made as it is reached.
    pub fn iter(&self) -> impl Iterator<Item = FileSummary> + '_ {
        self.0.iter().map(FileSummary::new)
    }
}

impl Serialize for FileSummaries<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'p> ParseSummary<'p> {
    /// Summarise `parsed`.
    #[must_use]
    pub fn new(parsed: &'p Parsed<'p>) -> Self {
        Self {
            ok: parsed.is_ok(),
            files: FileSummaries(&parsed.patch.files),
            added: parsed.patch.added(),
            removed: parsed.patch.removed(),
            defects: &parsed.defects,
            warnings: &parsed.warnings,
        }
    }
}

/// `path` escaped for display, when it is not valid UTF-8.
fn escaped(path: &[u8]) -> Option<String> {
    std::str::from_utf8(path).is_err().then(|| display_bytes(path))
}

impl FileSummary {
    fn new(file: &FilePatch<'_>) -> Self {
        let mode = |m: Option<u32>| m.map(|m| format!("{m:06o}"));
        Self {
            old_path: file.old_path.as_deref().map(|p| String::from_utf8_lossy(p).into_owned()),
            new_path: file.new_path.as_deref().map(|p| String::from_utf8_lossy(p).into_owned()),
            old_path_escaped: file.old_path.as_deref().and_then(escaped),
            new_path_escaped: file.new_path.as_deref().and_then(escaped),
            operation: file.operation,
            old_mode: mode(file.old_mode),
            new_mode: mode(file.new_mode),
            binary: file.binary.as_ref().map(|b| b.kind),
            line: file.span.line,
            hunks: file
                .hunks
                .iter()
                .map(|h| HunkSummary {
                    old_start: h.old_start,
                    old_count: h.old_count,
                    new_start: h.new_start,
                    new_count: h.new_count,
                    line: h.span.line,
                    added: h.added(),
                    removed: h.removed(),
                })
                .collect(),
            added: file.added(),
            removed: file.removed(),
        }
    }
}

/// The text form: one line per file, then one `NAME:LINE: code: message` line per defect and
/// warning (the form editors and compilers use), then the verdict; with `-q`, the defect lines
/// alone.
#[must_use]
pub fn parse_text(summary: &ParseSummary<'_>, name: &str, text: &TextOptions) -> String {
    let p = &text.palette;
    let mut out = String::new();
    if !text.is_quiet {
        write_files(&mut out, summary.files);
    }
    for d in summary.defects {
        let place = format!("{name}:{}:", d.span.line);
        let _ = writeln!(out, "{}", located(p, &place, Level::Error, d.code.as_str(), &d.message));
    }
    if text.is_quiet {
        return out;
    }
    for w in summary.warnings {
        let place = format!("{name}:{}:", w.span.line);
        let _ =
            writeln!(out, "{}", located(p, &place, Level::Warning, w.code.as_str(), &w.message));
    }
    let verdict = if summary.ok { "ok" } else { "rejected" };
    let _ = writeln!(
        out,
        "{verdict}: {} file(s), +{} -{}, {} defect(s), {} warning(s)",
        summary.files.len(),
        summary.added,
        summary.removed,
        summary.defects.len(),
        summary.warnings.len()
    );
    out
}

/// One line per file: operation, path, counts.
fn write_files(out: &mut String, files: FileSummaries<'_>) {
    for f in files.iter() {
        // Text shows control bytes and backslashes escaped, as git does.
        let shown = |path: &Option<String>, escaped: &Option<String>| {
            escaped.clone().or_else(|| path.as_deref().map(|p| display_bytes(p.as_bytes())))
        };
        let (old, new) =
            (shown(&f.old_path, &f.old_path_escaped), shown(&f.new_path, &f.new_path_escaped));
        let path = match (old, new) {
            (Some(old), Some(new)) if old != new => format!("{old} => {new}"),
            (_, Some(p)) | (Some(p), None) => p,
            (None, None) => String::from("?"),
        };
        let op = format!("{:?}", f.operation).to_lowercase();
        let binary = if f.binary.is_some() { " binary" } else { "" };
        let _ = writeln!(
            out,
            "{op:<7} {path}  +{} -{}  {} hunk{}{binary}",
            f.added,
            f.removed,
            f.hunks.len(),
            if f.hunks.len() == 1 { "" } else { "s" }
        );
    }
}
