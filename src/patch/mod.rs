//! The strict unified-diff model and parser: bytes in, a [`Patch`] out, and every defect with its
//! byte offset and 1-based line. No I/O.
//!
//! The parser accepts what `git diff`, `git format-patch` and `diff -u` emit, and refuses what
//! `git apply` silently tolerates (leftover hunk lines, implicit renames, duplicate entries,
//! fenced or chatty input). Content is kept as bytes: CRLF is reported, never stripped, and
//! non-UTF-8 content is never converted.
//!
//! ```
//! use patchgate::patch::{parse, ParseOptions, Operation};
//! let text = b"diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-old\n+new\n";
//! let parsed = parse(text, &ParseOptions::default());
//! assert!(parsed.defects.is_empty());
//! let file = &parsed.patch.files[0];
//! assert_eq!(file.operation, Operation::Modify);
//! assert_eq!((file.added(), file.removed()), (1, 1));
//! ```

mod binary;
mod check;
mod cursor;
mod defect;
mod header;
mod hunk;
mod lines;
mod parse;
mod quote;
mod render;
#[cfg(test)]
mod tests;

pub use defect::{Defect, DefectCode, Warning, WarningCode};
pub use lines::{Iter as LinesIter, Lines};
pub use render::{hunk_header, render};

use serde::Serialize;

/// Where something sits in the patch text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Span {
    /// Byte offset of the start of the line, from the start of the input.
    pub offset: usize,
    /// 1-based line number in the input.
    pub line: usize,
}

/// How strictly to read the input.
#[derive(Clone, Debug)]
pub struct ParseOptions {
    /// Refuse any bytes outside file entries other than a format-patch preamble and signature
    /// (markdown fences, chat text, trailing garbage). On by default: the product is strictness.
    pub is_strict: bool,
    /// Largest line number or count a hunk header may carry (CVE-2014-9637 shape).
    pub max_line_number: u64,
    /// Leading path components to strip from header names (git's `-pN`): 1 removes git's
    /// `a/`/`b/`; 0 reads names as written, for agents that write bare paths everywhere.
    pub strip: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        Self { is_strict: true, max_line_number: 100_000_000, strip: 1 }
    }
}

/// The result of parsing: the patch as far as it could be read, every defect, and warnings.
///
/// The patch is usable only when `defects` is empty.
#[derive(Clone, Debug, Default)]
pub struct Parsed<'a> {
    /// The file entries that were read.
    pub patch: Patch<'a>,
    /// What makes the input not a standard unified diff, in input order.
    pub defects: Vec<Defect>,
    /// What is legal but worth reporting (CRLF, a blank context line without its space, ...).
    pub warnings: Vec<Warning>,
}

impl Parsed<'_> {
    /// Whether the input parsed without a defect.
    #[must_use]
    pub fn is_ok(&self) -> bool {
        self.defects.is_empty()
    }
}

/// A parsed patch: file entries in input order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Patch<'a> {
    /// One entry per `diff --git` (or `---`/`+++` pair for traditional diffs).
    pub files: Vec<FilePatch<'a>>,
}

impl Patch<'_> {
    /// Lines added across all files.
    #[must_use]
    pub fn added(&self) -> usize {
        self.files.iter().map(FilePatch::added).sum()
    }

    /// Lines removed across all files.
    #[must_use]
    pub fn removed(&self) -> usize {
        self.files.iter().map(FilePatch::removed).sum()
    }
}

/// What a file entry does to its file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Operation {
    /// Change an existing file in place (content and/or mode).
    Modify,
    /// Create a file (`--- /dev/null`, `new file mode`).
    Create,
    /// Delete a file (`+++ /dev/null`, `deleted file mode`).
    Delete,
    /// Move a file (`rename from`/`rename to`), possibly with changes.
    Rename,
    /// Copy a file (`copy from`/`copy to`), possibly with changes.
    Copy,
}

/// One file's entry in the patch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilePatch<'a> {
    /// The entry's first line (`diff --git` or `---`).
    pub span: Span,
    /// Whether the entry has a `diff --git` header (so git's extended headers apply).
    pub is_git: bool,
    /// The preimage path, decoded and without its `a/` prefix; `None` for `/dev/null`.
    pub old_path: Option<Vec<u8>>,
    /// The postimage path, decoded and without its `b/` prefix; `None` for `/dev/null`.
    pub new_path: Option<Vec<u8>>,
    /// What the entry does.
    pub operation: Operation,
    /// `old mode` / `deleted file mode`, as octal digits read (`0o100644`).
    pub old_mode: Option<u32>,
    /// `new mode` / `new file mode`.
    pub new_mode: Option<u32>,
    /// `similarity index N%` for renames and copies.
    pub similarity: Option<u8>,
    /// `dissimilarity index N%`.
    pub dissimilarity: Option<u8>,
    /// The `index old..new [mode]` line.
    pub index: Option<IndexLine<'a>>,
    /// Set when the entry is binary (`Binary files ... differ` or `GIT binary patch`).
    pub binary: Option<Binary<'a>>,
    /// The hunks, in input order.
    pub hunks: Vec<Hunk<'a>>,
}

/// What a gitlink entry does, in the shapes `git diff` writes and `git apply --index` records:
/// the commit a submodule moves to, is added at, or is removed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SubmoduleChange<'a> {
    /// `index OLD..NEW 160000`, one hunk replacing `Subproject commit OLD` by `... NEW` (in
    /// place, or with `rename from`/`rename to`).
    Update {
        /// The new commit id.
        commit: &'a [u8],
    },
    /// `new file mode 160000`, one hunk adding `Subproject commit ID`.
    Add {
        /// The recorded commit id.
        commit: &'a [u8],
    },
    /// `deleted file mode 160000`, one hunk removing `Subproject commit ID`.
    Remove {
        /// The commit id the base records.
        commit: &'a [u8],
    },
}

impl<'a> FilePatch<'a> {
    /// The commit a submodule update moves to, as `git diff` writes one: an in-place change
    /// whose `index` line keeps mode 160000 (no mode lines, no rename or copy) and whose one
    /// hunk replaces one `Subproject commit ID` line by another. `None` for any other entry,
    /// a submodule added or removed among them ([`Self::submodule_change`] reads those).
    #[must_use]
    pub fn submodule_commit(&self) -> Option<&'a [u8]> {
        match self.submodule_change()? {
            SubmoduleChange::Update { commit } => Some(commit),
            _ => None,
        }
    }

    /// The submodule change this entry is, when it is one of the three shapes `git diff`
    /// writes for a gitlink (no copy, no binary, exactly one hunk of whole `Subproject commit
    /// ID` lines; an update may be moved too); `None` for anything else. A submodule moved
    /// unchanged has no hunk, so only the base can tell it from a file (see scratch).
    #[must_use]
    pub fn submodule_change(&self) -> Option<SubmoduleChange<'a>> {
        let [hunk] = &self.hunks[..] else { return None };
        if self.binary.is_some() || hunk.lines.iter().any(|l| !l.has_newline) {
            return None;
        }
        let index_mode = self.index.as_ref().and_then(|i| i.mode);
        let gitlink = Some(GITLINK_MODE);
        let kinds: Vec<LineKind> = hunk.lines.iter().map(|l| l.kind).collect();
        let commit = |at: usize| hunk.lines.get(at).and_then(|l| subproject_commit(l.text));
        let in_place = matches!(self.operation, Operation::Modify | Operation::Rename);
        match (self.operation, &kinds[..]) {
            (_, [LineKind::Remove, LineKind::Add])
                if in_place
                    && self.old_mode.is_none()
                    && self.new_mode.is_none()
                    && index_mode == gitlink =>
            {
                commit(0)?;
                commit(1).map(|commit| SubmoduleChange::Update { commit })
            }
            (Operation::Create, [LineKind::Add]) if self.new_mode == gitlink => {
                commit(0).map(|commit| SubmoduleChange::Add { commit })
            }
            (Operation::Delete, [LineKind::Remove]) if self.old_mode == gitlink => {
                commit(0).map(|commit| SubmoduleChange::Remove { commit })
            }
            _ => None,
        }
    }
}

/// git's mode of a gitlink: a submodule's commit recorded in the superproject's tree.
pub const GITLINK_MODE: u32 = 0o160_000;

/// The commit id of a gitlink's text as `git diff` shows it (`Subproject commit ID`, a full
/// lowercase SHA-1 or SHA-256 id, without the newline); `None` for anything else.
#[must_use]
pub fn subproject_commit(text: &[u8]) -> Option<&[u8]> {
    let id = text.strip_prefix(b"Subproject commit ")?;
    let is_id =
        matches!(id.len(), 40 | 64) && id.iter().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    is_id.then_some(id)
}

impl FilePatch<'_> {
    /// The path the entry is known by: the new path, or the old one for a deletion.
    #[must_use]
    pub fn path(&self) -> &[u8] {
        self.new_path.as_deref().or(self.old_path.as_deref()).unwrap_or_default()
    }

    /// Every path the entry touches: both sides of a rename or copy, once each.
    #[must_use]
    pub fn paths(&self) -> Vec<&[u8]> {
        let mut out: Vec<&[u8]> = Vec::with_capacity(2);
        for p in [self.old_path.as_deref(), self.new_path.as_deref()].into_iter().flatten() {
            if !out.contains(&p) {
                out.push(p);
            }
        }
        out
    }

    /// Lines added by this entry.
    #[must_use]
    pub fn added(&self) -> usize {
        self.hunks.iter().map(Hunk::added).sum()
    }

    /// Lines removed by this entry.
    #[must_use]
    pub fn removed(&self) -> usize {
        self.hunks.iter().map(Hunk::removed).sum()
    }
}

/// The `index <old>..<new> [<mode>]` extended header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IndexLine<'a> {
    /// Abbreviated or full preimage object id (hex).
    pub old: &'a [u8],
    /// Abbreviated or full postimage object id (hex).
    pub new: &'a [u8],
    /// Mode when unchanged.
    pub mode: Option<u32>,
}

impl IndexLine<'_> {
    /// Whether both ids are full (40 or 64 hex digits), as binary patches need.
    #[must_use]
    pub fn is_full(&self) -> bool {
        let full = |id: &[u8]| matches!(id.len(), 40 | 64);
        full(self.old) && full(self.new)
    }
}

/// A binary entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binary<'a> {
    /// Which form the binary change takes.
    pub kind: BinaryKind,
    /// The raw payload lines of a `GIT binary patch` block (empty for a marker).
    pub payload: &'a [u8],
}

/// The two forms of binary entry git writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BinaryKind {
    /// `Binary files a/x and b/x differ`: no data, cannot be applied.
    Marker,
    /// `GIT binary patch` with `literal`/`delta` blocks.
    GitPatch,
}

/// One `@@ -a,b +c,d @@` hunk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hunk<'a> {
    /// The `@@` line.
    pub span: Span,
    /// Preimage start line (0 for an empty preimage).
    pub old_start: u64,
    /// Preimage line count (1 when omitted).
    pub old_count: u64,
    /// Postimage start line.
    pub new_start: u64,
    /// Postimage line count.
    pub new_count: u64,
    /// Text after the closing `@@` (the function context), without the leading space.
    pub section: &'a [u8],
    /// The body lines.
    pub lines: Lines<'a>,
}

impl Hunk<'_> {
    /// Lines this hunk adds.
    #[must_use]
    pub fn added(&self) -> usize {
        self.lines.added()
    }

    /// Lines this hunk removes.
    #[must_use]
    pub fn removed(&self) -> usize {
        self.lines.removed()
    }
}

/// What a body line does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LineKind {
    /// ` ` (or an empty line standing for an empty context line).
    Context,
    /// `+`
    Add,
    /// `-`
    Remove,
}

/// One body line of a hunk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Line<'a> {
    /// Context, addition or removal.
    pub kind: LineKind,
    /// The line's content without its prefix and without the final `\n` (a `\r` stays).
    pub text: &'a [u8],
    /// False when a `\ No newline at end of file` marker follows the line.
    pub has_newline: bool,
    /// 1-based line number in the patch.
    pub line: usize,
}

/// Parse `input` as a unified diff.
#[must_use]
pub fn parse<'a>(input: &'a [u8], options: &ParseOptions) -> Parsed<'a> {
    parse::run(input, options)
}
