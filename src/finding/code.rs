//! The stable code tables: every finer code a finding can carry, one [`codes!`] table each,
//! and [`Code`], the typed code of a [`Violation`](super::Violation).

use super::codes::{code_union, codes};

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
        /// Whitespace-only lines outside any file entry (before the first, between entries,
        /// after the last): dropped, as `git apply` skips them.
        BlankOutsideEntry => "blank_outside_entry",
        /// Context lines (` ` lines, empty or whitespace-only) after a hunk whose counts are
        /// used up, up to the next file entry or the end: dropped, as `git apply` drops them.
        ContextAfterHunk => "context_after_hunk",
        /// Lenient mode: markdown fence lines were skipped.
        MarkdownFence => "markdown_fence",
    }
}

codes! {
    /// Stable reasons a path is refused; [`PathErrorCode::as_str`] gives the wire name.
    PathErrorCode {
        /// The path is empty (or only `.` and `/`).
        EmptyPath => "empty_path",
        /// Starts with `/`, a drive letter (`C:`) or a UNC prefix.
        AbsolutePath => "absolute_path",
        /// Starts with `~` (a home directory the shell would expand).
        HomeDir => "home_dir",
        /// A `..` component.
        PathTraversal => "path_traversal",
        /// `.git` in any letter case, or one of git's HFS/NTFS aliases (`git~1`, `.git.`, ...).
        GitDir => "git_dir",
        /// A NUL byte.
        NulByte => "nul_byte",
        /// A control byte (newline, tab, escape, DEL, ...).
        ControlByte => "control_byte",
        /// A percent-encoded dot, separator or percent sign (`%2e`, `%2f`, `%5c`, `%252e`, `%c0%ae`).
        PercentEncoded => "percent_encoded",
        /// A backslash, which is a separator on Windows.
        Backslash => "backslash",
        /// Fullwidth or other look-alike dots and slashes (`U+FF0E`, `U+FF0F`, `U+2215`, ...).
        LookalikeSeparator => "lookalike_separator",
        /// Not valid UTF-8.
        InvalidUtf8 => "invalid_utf8",
        /// `$(` or a backtick: a shell would run the name as a command wherever it is pasted
        /// unquoted into a script.
        ShellSubstitution => "shell_substitution",
        /// Longer than a file system can hold: a component over 255 bytes or a path over 4096.
        TooLong => "too_long",
    }
}

codes! {
    /// The codes of the rules, the repository check and the pipeline (the parser's and the path
    /// checks' codes are [`DefectCode`] and [`PathErrorCode`]).
    CheckCode {
        /// `schema`: a key named twice.
        DuplicateKey => "duplicate_key",
        /// `schema`: a known field spelt in another case (`Patch`), which Go's and .NET's
        /// readers take for the field itself.
        CaseVariantKey => "case_variant_key",
        /// `schema`: not JSON.
        NotJson => "not_json",
        /// `schema`: JSON, but not an object.
        NotAnObject => "not_an_object",
        /// `schema`: a required field is missing.
        MissingField => "missing_field",
        /// `schema`: a field of the wrong JSON type.
        WrongType => "wrong_type",
        /// `schema`: the object does not decode.
        InvalidShape => "invalid_shape",
        /// `mode`: a mode other than `apply` and `fix_regression`.
        InvalidMode => "invalid_mode",
        /// `mode`: the result's mode is not the step's.
        ModeMismatch => "mode_mismatch",
        /// `mode`: a `fix_regression` patch larger than the policy allows.
        SpeculativeFix => "speculative_fix",
        /// `scope`: a path under an excluded glob.
        ExcludedPath => "excluded_path",
        /// `scope`: a path outside `allowedFiles`.
        OutsideAllowedFiles => "outside_allowed_files",
        /// `scope`: a `fix_regression` path outside `applyFiles`.
        NotInApplyFiles => "not_in_apply_files",
        /// `scope`: a path no agent may write (`.git/`, hooks, the policy file).
        ProtectedPath => "protected_path",
        /// `declared`: success without a patch.
        MissingPatch => "missing_patch",
        /// `declared`: a failure that carries a patch.
        FailureWithPatch => "failure_with_patch",
        /// `declared`: a failure that lists written files.
        FailureWithFilesWritten => "failure_with_files_written",
        /// `declared`: a failure without a summary.
        FailureWithoutSummary => "failure_without_summary",
        /// `declared`: success without `filesTouched`.
        FilesTouchedMissing => "files_touched_missing",
        /// `declared`: `filesTouched` does not hold `filesWritten`.
        FilesTouchedNotSuperset => "files_touched_not_superset",
        /// `declared`: a `filesWritten` entry the patch does not touch.
        FileNotInPatch => "file_not_in_patch",
        /// `declared`: success with an empty `filesWritten`.
        EmptyFilesWritten => "empty_files_written",
        /// `reversal`: a fix removes what the apply run added.
        AddedLinesRemoved => "added_lines_removed",
        /// `reversal`: a hunk that is the apply run's hunk inverted.
        HunkReversed => "hunk_reversed",
        /// `reversal`: a function body replaced by a constant.
        BodyReplacedByConstant => "body_replaced_by_constant",
        /// `reversal`: a function body replaced by a no-op.
        BodyReplacedByNoop => "body_replaced_by_noop",
        /// `reversal`: a fix touching modules the apply run did not.
        UnrelatedModules => "unrelated_modules",
        /// `reversal`: a test deleted.
        TestDeleted => "test_deleted",
        /// `reversal`: a test skipped.
        TestSkipped => "test_skipped",
        /// `reversal`: an assertion removed.
        AssertionRemoved => "assertion_removed",
        /// `undeclared`: the patch changes a file `filesWritten` does not list.
        UndeclaredFile => "undeclared_file",
        /// `malformed`: a binary entry.
        BinaryPatch => "binary_patch",
        /// `malformed`: a symbolic link while links are refused.
        Symlink => "symlink",
        /// `malformed`: a submodule (gitlink).
        Gitlink => "gitlink",
        /// `malformed`: a mode other than 100644 and 100755.
        UnsupportedMode => "unsupported_mode",
        /// `malformed`: the patch is over a `[limits]` bound.
        LimitExceeded => "limit_exceeded",
        /// `malformed`: a create, rename or copy target that already exists in the base.
        CreateOverExisting => "create_over_existing",
        /// `malformed`: an update, delete, rename or copy of a path the base does not have.
        MissingPreimage => "missing_preimage",
        /// `malformed`: the `index` line's old id or the old mode disagrees with the base.
        PreimageMismatch => "preimage_mismatch",
        /// `malformed`: a file whose type changes in place instead of delete + create.
        TypeChange => "type_change",
        /// `scope`: a path through a symbolic link of the base or of the patched tree.
        BeyondSymlink => "beyond_symlink",
        /// `malformed`: a path below something that is a file (or submodule) after the patch.
        FileInTheWay => "file_in_the_way",
        /// `malformed`: `.gitmodules` as a symbolic link.
        GitmodulesSymlink => "gitmodules_symlink",
        /// `malformed`: a hunk whose lines are not in the base where it applies.
        ContextMismatch => "context_mismatch",
        /// `malformed`: the reverse patch does not give the base back.
        RollbackMismatch => "rollback_mismatch",
        /// `malformed`: a deletion that leaves content behind.
        DeleteLeavesContent => "delete_leaves_content",
        /// `malformed`: a touched path fails the path-safety checks.
        UnsafePath => "unsafe_path",
        /// `zero-impact`: success without an added or removed line.
        NoChanges => "no_changes",
        /// `not-implemented`: the step names a file the patch leaves alone.
        NamedFileUntouched => "named_file_untouched",
        /// `not-implemented`: a rename the patch does not carry out.
        RenameMissing => "rename_missing",
        /// `not-implemented` (weak): a rename carried out while the touched files still hold
        /// the old name.
        RenamePartial => "rename_partial",
        /// `not-implemented`: the step removes a name, and the patch leaves every definition
        /// of it (or, where no touched file defines it, every use of it) in place.
        RemovalMissing => "removal_missing",
        /// `not-implemented`: the step extracts a helper, and the patch does not add it with a
        /// real body that something outside it uses, or leaves its source unchanged.
        ExtractionMissing => "extraction_missing",
        /// `not-implemented`: the patch changes only whitespace.
        WhitespaceOnly => "whitespace_only",
        /// `not-implemented`: the patch changes only comments.
        CommentOnly => "comment_only",
        /// `not-implemented`: a behaviour step answered by directive comments alone
        /// (`# type: ignore`, `// @ts-ignore`).
        DirectiveOnly => "directive_only",
        /// `not-implemented`: a behaviour step answered by definitions moved unchanged.
        MoveOnly => "move_only",
        /// `not-implemented`: a behaviour step answered by new files nothing else names alone.
        ScriptOnly => "script_only",
        /// `not-implemented`: an added placeholder (`todo!()`, `pass`, `TODO`).
        PlaceholderAdded => "placeholder_added",
        /// `not-implemented`: the judge said no.
        JudgeRejected => "judge_rejected",
        /// `not-implemented`: an `expect` post-condition does not hold.
        ExpectFailed => "expect_failed",
        /// `not-implemented`: `--check-cmd` failed or timed out.
        CheckCmdFailed => "check_cmd_failed",
        /// `repair`: a hunk not at its stated line whose lines fit in several places.
        AmbiguousLocation => "ambiguous_location",
        /// `repair`: the repaired patch failed its proof.
        RepairUnproven => "repair_unproven",
        /// `repair`: more defects than a repair examines.
        TooManyDefects => "too_many_defects",
    }
}

code_union! {
    /// A violation's finer code: the parser's, the path checks', or a rule's or check's. On the
    /// wire it is the plain name (`hunk_too_short`, `path_traversal`, `outside_allowed_files`).
    Code {
        /// A rule's, the repository check's or the pipeline's code.
        Check(CheckCode),
        /// A parser defect (the `malformed` rule, `zero-impact`'s context-only hunk).
        Defect(DefectCode),
        /// A path check (`scope`, `malformed`).
        Path(PathErrorCode),
    }
    "A finer stable code: a rule's or check's, a parser defect's, or a path check's."
}

codes! {
    /// The codes of the notes the pipeline, the repository check, a repair and the review store
    /// write themselves (a parser warning or a weak finding keeps its own code).
    NoteKind {
        /// A field of the result the schema does not know, ignored.
        UnknownField => "unknown_field",
        /// A `fix_regression` step without `applyPatch`: only no-op bodies were checked.
        ApplyRunUnknown => "apply_run_unknown",
        /// No repository: applying, rolling back and `expect` were not checked.
        RepositoryChecksSkipped => "repository_checks_skipped",
        /// A hunk applied at another line than its header says.
        HunkOffset => "hunk_offset",
        /// A file created without a mode line gets 100644.
        ModeDefaulted => "mode_defaulted",
        /// The `index` line's old id is not the base blob's (the hunks applied anyway).
        IndexMismatch => "index_mismatch",
        /// A binary entry accepted on its full index ids, its content unchecked.
        BinaryUnchecked => "binary_unchecked",
        /// A submodule update accepted on its old commit, or a submodule added; what its new
        /// commit brings is not checked.
        SubmoduleUnchecked => "submodule_unchecked",
        /// `--check-cmd` passed.
        CheckCmdPassed => "check_cmd_passed",
        /// The rejected result was kept for `patchgate review`.
        RejectionRecorded => "rejection_recorded",
        /// The rejected result was not kept (no repository, over the store's bounds, an error).
        RejectionNotRecorded => "rejection_not_recorded",
        /// `--repair` could not repair a defect; the result was judged as sent.
        RepairRefused => "repair_refused",
        /// `--repair` took the result JSON out of the reply around it (a fence, chat text).
        RepairedResultJson => "repaired_result_json",
        /// `--repair` recounted a hunk.
        RepairedRecount => "repaired_recount",
        /// `--repair` moved a hunk to where its lines are.
        RepairedRelocate => "repaired_relocate",
        /// `--repair` restored an empty context line's space.
        RepairedBlankContext => "repaired_blank_context",
        /// `--repair` removed fences and chat around the diff.
        RepairedUnfence => "repaired_unfence",
        /// `--repair` added a `diff --git` line.
        RepairedGitHeader => "repaired_git_header",
        /// `--repair` removed empty lines after a hunk.
        RepairedTrailingBlankLines => "repaired_trailing_blank_lines",
        /// `--repair` added a final newline.
        RepairedFinalNewline => "repaired_final_newline",
        /// `--repair` set aside whitespace-only context lines at a hunk's edges.
        RepairedTrimContext => "repaired_trim_context",
        /// `--repair` took out a hunk without an added or removed line.
        RepairedContextOnlyHunk => "repaired_context_only_hunk",
        /// `--repair` removed whitespace-only lines outside the file entries.
        RepairedBlankOutsideEntry => "repaired_blank_outside_entry",
        /// `--repair` removed context lines past a hunk's counts.
        RepairedContextAfterHunk => "repaired_context_after_hunk",
    }
}

codes! {
    /// What kind of repair `repair` (and `--repair`) made.
    RepairKind {
        /// Hunk counts rewritten from the body.
        Recount => "recount",
        /// Start lines taken from a unique exact context match in the base file.
        Relocate => "relocate",
        /// The missing space of an empty context line restored.
        BlankContext => "blank_context",
        /// Markdown fences and chat text around the diff removed.
        Unfence => "unfence",
        /// A `diff --git` line added to an entry that has git's extended headers.
        GitHeader => "git_header",
        /// Empty lines after a hunk whose counts are used up removed.
        TrailingBlankLines => "trailing_blank_lines",
        /// The final `\n` added after a context, removed or header line.
        FinalNewline => "final_newline",
        /// Whitespace-only context lines at a hunk's edges that the base does not have there set
        /// aside, the fewest that give the hunk a place.
        TrimContext => "trim_context",
        /// A complete hunk without an added or removed line taken out: it changes nothing.
        ContextOnlyHunk => "context_only_hunk",
        /// Whitespace-only lines outside the file entries removed (git skips them).
        BlankOutsideEntry => "blank_outside_entry",
        /// Context lines past a hunk's counts removed (git drops them).
        ContextAfterHunk => "context_after_hunk",
    }
}

impl RepairKind {
    /// The note `--repair` leaves in the report for a repair of this kind.
    #[must_use]
    pub fn note(self) -> NoteKind {
        match self {
            Self::Recount => NoteKind::RepairedRecount,
            Self::Relocate => NoteKind::RepairedRelocate,
            Self::BlankContext => NoteKind::RepairedBlankContext,
            Self::Unfence => NoteKind::RepairedUnfence,
            Self::GitHeader => NoteKind::RepairedGitHeader,
            Self::TrailingBlankLines => NoteKind::RepairedTrailingBlankLines,
            Self::FinalNewline => NoteKind::RepairedFinalNewline,
            Self::TrimContext => NoteKind::RepairedTrimContext,
            Self::ContextOnlyHunk => NoteKind::RepairedContextOnlyHunk,
            Self::BlankOutsideEntry => NoteKind::RepairedBlankOutsideEntry,
            Self::ContextAfterHunk => NoteKind::RepairedContextAfterHunk,
        }
    }
}

code_union! {
    /// A note's code: a parser warning, a weak finding of a rule that did not reject, or one of
    /// the notes the pipeline writes itself. On the wire it is the plain name.
    NoteCode {
        /// A parser warning (`crlf`, `blank_context_without_space`).
        Warning(WarningCode),
        /// A finding reported as a note, not a rejection (`rename_partial` at `balanced`).
        Check(CheckCode),
        /// A note of the pipeline's own (`hunk_offset`, `repository_checks_skipped`).
        Kind(NoteKind),
    }
    "A note's stable code: a parser warning's, a finding's that did not reject, or the pipeline's own."
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wire_name_reads_back_as_the_same_code() {
        let all = CheckCode::ALL.iter().map(|&c| Code::from(c));
        let all = all.chain(DefectCode::ALL.iter().map(|&c| Code::from(c)));
        let all: Vec<Code> = all.chain(PathErrorCode::ALL.iter().map(|&c| Code::from(c))).collect();
        for code in &all {
            assert_eq!(&Code::from_name(code.as_str()), code, "{code} is in two tables");
            let json = serde_json::to_string(code).unwrap();
            assert_eq!(json, format!("\"{code}\""));
            assert_eq!(&serde_json::from_str::<Code>(&json).unwrap(), code);
        }
        assert_eq!(Code::from_name("symlink_refused"), Code::Other("symlink_refused".into()));
    }
}
