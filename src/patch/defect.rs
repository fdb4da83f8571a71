//! Parser diagnostics: defects (the input is not a standard unified diff) and warnings (legal,
//! but worth saying). Codes are part of the public contract.

use super::Span;
use crate::finding::codes;
use serde::Serialize;

/// One reason the input is not a standard unified diff.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("line {}: {message}", span.line)]
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

codes! {
    /// Stable defect codes.
    DefectCode {
        /// The input is empty or only whitespace.
        EmptyPatch => "empty_patch",
        /// Text, but no `diff --git` or `---`/`+++` file header anywhere.
        NoFileHeaders => "no_file_headers",
        /// An `@@` hunk before any file header.
        FragmentWithoutHeader => "fragment_without_header",
        /// A file header with neither hunks nor a metadata change (rename, mode, binary, empty
        /// create/delete).
        NoHunks => "no_hunks",
        /// An `@@` line that does not read `@@ -a[,b] +c[,d] @@`.
        BadHunkHeader => "bad_hunk_header",
        /// The body ends (input ends or a header starts) before the header's counts are used up.
        HunkTooShort => "hunk_too_short",
        /// Hunk-like lines (` `, `+`, `-`) left over after the counts are used up; `git apply`
        /// silently drops them.
        HunkTooLong => "hunk_too_long",
        /// A body line that starts with none of ` `, `+`, `-`, `\`.
        BadLinePrefix => "bad_line_prefix",
        /// A `\ No newline at end of file` marker where it cannot stand.
        MisplacedNoNewline => "misplaced_no_newline",
        /// The input's last line has no final newline (git: corrupt patch).
        MissingFinalNewline => "missing_final_newline",
        /// Line numbers or counts beyond any real file (CVE-2014-9637 shape).
        LineNumberTooLarge => "line_number_too_large",
        /// Hunks of one file not in ascending order.
        HunkOutOfOrder => "hunk_out_of_order",
        /// Hunks of one file that overlap.
        HunkOverlap => "hunk_overlap",
        /// Text between or after file entries that is no part of a diff.
        Garbage => "garbage",
        /// A markdown code fence (```` ``` ````) around or inside the patch.
        MarkdownFence => "markdown_fence",
        /// An ed script (`1c`, `5a`, `3d`, `.`).
        EdScript => "ed_script",
        /// A normal (`diff` without `-u`) diff (`1c1`, `< x`, `> y`).
        NormalDiff => "normal_diff",
        /// A context diff (`*** 1,5 ****`).
        ContextDiff => "context_diff",
        /// A combined diff (`diff --cc`, `@@@`), which is merge output.
        CombinedDiff => "combined_diff",
        /// `diff --git a/X b/Y` disagrees with `---`/`+++`.
        HeaderMismatch => "header_mismatch",
        /// A git entry's `---`/`+++` lines lack the `a/`/`b/` prefixes (`--- src/x.rs`).
        MissingPrefix => "missing_prefix",
        /// An added or removed line holds a NUL byte (binary content as a text hunk).
        NulInText => "nul_in_text",
        /// Old and new path differ without `rename`/`copy` headers.
        ImplicitRename => "implicit_rename",
        /// `rename from` without `rename to`, `copy to` without `copy from`, ...
        IncompleteRename => "incomplete_rename",
        /// A rename or copy under a `diff --git` line naming one file (`diff --git a/f`): the
        /// entry's two names come only from the extended headers.
        OneNameRename => "one_name_rename",
        /// Extended headers that exclude each other (`new file mode` and `deleted file mode`).
        InconsistentHeaders => "inconsistent_headers",
        /// The same path in two entries.
        DuplicatePath => "duplicate_path",
        /// A mode that is not six octal digits.
        BadMode => "bad_mode",
        /// A header without a usable file name, or a malformed C-quoted name.
        BadPath => "bad_path",
        /// A `GIT binary patch` block that is malformed.
        BadBinary => "bad_binary",
        /// A `---` without its `+++`, or hunks after `diff --git` without `---`/`+++`.
        IncompleteHeader => "incomplete_header",
        /// An extended header with a malformed value (`index`, `similarity index`).
        BadHeader => "bad_header",
        /// A hunk with no added and no removed line (git: corrupt patch).
        ContextOnlyHunk => "context_only_hunk",
    }
}

codes! {
    /// Stable warning codes.
    WarningCode {
        /// Lines end in CRLF; kept as content, never stripped.
        Crlf => "crlf",
        /// Some lines end in CRLF and others in LF.
        MixedLineEndings => "mixed_line_endings",
        /// An empty body line standing for an empty context line (git accepts it).
        BlankContextWithoutSpace => "blank_context_without_space",
        /// A format-patch mail preamble was skipped.
        MailPreamble => "mail_preamble",
        /// A binary entry; its content cannot be checked as text.
        Binary => "binary",
        /// Text after the last entry that is a format-patch signature (`-- `).
        Signature => "signature",
        /// Lenient mode: text outside file entries was skipped.
        SkippedText => "skipped_text",
        /// Empty lines after the last hunk, up to the end of the input.
        TrailingBlankLines => "trailing_blank_lines",
        /// Lenient mode: markdown fence lines were skipped.
        MarkdownFence => "markdown_fence",
    }
}
