//! The stable codes of errors: why a command could not give its answer. Each code has one exit
//! code, so the same kind of failure exits the same way in every command: 2 when the input
//! itself is refused, 3 when patchgate could not do its job.

use super::codes::codes;

codes! {
    /// An error's stable code (the JSON envelope's `error.code`).
    ErrorCode {
        /// A command line the argument parser refuses (unknown option, missing argument).
        Usage => "usage",
        /// The step is missing, not JSON, of the wrong shape, with a bad glob or a defective
        /// `applyPatch`.
        InvalidStep => "invalid_step",
        /// An input file or standard input could not be read.
        UnreadableInput => "unreadable_input",
        /// An input that must be text is not UTF-8.
        NotUtf8 => "not_utf8",
        /// An input that must be JSON is not.
        InvalidJson => "invalid_json",
        /// A JSON input lacks a field the command reads (`declare --from-result` without
        /// `filesWritten`).
        MissingField => "missing_field",
        /// A JSON input names a key twice.
        DuplicateKey => "duplicate_key",
        /// A JSON input names a key twice in different case (`filesWritten` and
        /// `fileswritten`), so which one counts is unclear.
        CaseVariantKey => "case_variant_key",
        /// `.patchgate.toml` does not parse, or holds an unknown key or a bad value.
        InvalidConfig => "invalid_config",
        /// A `--base` that does not resolve, an `expect` regex that does not compile.
        InvalidInput => "invalid_input",
        /// The hook's own input is refused (pre-receive's stdin).
        Input => "input",
        /// `escape-md --sanitize` text over its length limit.
        ContentTooLong => "content_too_long",
        /// The hook's policy cannot be used.
        Policy => "policy",
        /// The stored declaration cannot be used (the hook blocks).
        Declaration => "declaration",
        /// `review`: an id that is not 4 or more hex digits.
        InvalidId => "invalid_id",
        /// `review`: no entry has this id.
        UnknownId => "unknown_id",
        /// `review`: several entries start with this id.
        AmbiguousId => "ambiguous_id",
        /// `review export`: the stored result has no patch to export.
        NoPatch => "no_patch",
        /// `declare`: a pattern is refused (`rejected_pattern` names the check).
        InvalidPattern => "invalid_pattern",
        /// `hook install`: a hook manager manages the hooks; the report says what to add.
        HooksManaged => "hooks_managed",
        /// `check-arg`: the value is refused (`rejected_pattern` says why).
        InvalidAgentInput => "INVALID_AGENT_INPUT",
        /// `--repo DIR` names a directory that is not in a git repository.
        NotARepository => "not_a_repository",
        /// `--repo DIR` names a bare repository where a working tree is needed.
        BareRepository => "bare_repository",
        /// No git repository around the current directory, where the command needs one: pass
        /// `--repo DIR` (or, where offered, `--no-repo`).
        NoRepository => "no_repository",
        /// The repository could not be read.
        Repository => "repository",
        /// An input or output file could not be read or written.
        Io => "io",
        /// A git operation failed.
        Git => "git",
        /// `hook install` or `uninstall` could not write the hooks directory.
        Install => "install",
        /// `hook uninstall` could not put a hook back; the report says which.
        NotRestored => "not_restored",
        /// `guard install`/`uninstall`: an agent's settings file cannot be merged into (not
        /// plain JSON or TOML, a key named twice, someone else's Cline hook, a path through a
        /// link); nothing was changed.
        Settings => "settings",
        /// The declaration could not be read or written.
        DeclarationStore => "declaration_store",
        /// `review`: a stored entry asked for by id does not read.
        CorruptEntry => "corrupt_entry",
        /// `review apply` could not be done.
        Review => "review",
        /// The judge failed: no key, no server, an error, a timeout, an unreadable answer.
        JudgeFailed => "judge_failed",
        /// `review apply`: the patch no longer applies to `HEAD`.
        CannotApply => "cannot_apply",
        /// `apply`: a touched file differs from the base, or changed during the write.
        WorktreeDirty => "worktree_dirty",
        /// `apply`: a path would be written through a link, or a link would point outside.
        UnsafePath => "unsafe_path",
        /// `apply`: a write failed; everything was put back.
        WriteFailed => "write_failed",
        /// `apply`: SIGINT or SIGTERM during the write; everything was put back.
        Interrupted => "interrupted",
        /// `apply`: an interrupted apply's journal is pending; run `patchgate apply --recover`.
        InterruptedApply => "interrupted_apply",
        /// `apply --recover` could not finish (a step could not be undone: the journal is kept,
        /// run it again), or an apply is still writing.
        RecoverFailed => "recover_failed",
        /// `apply --recover`: the journal names something other than patchgate's own temporary
        /// and backup files beside worktree paths, or its run file is missing; nothing was done.
        JournalRefused => "journal_refused",
        /// `apply --recover` rolled back, except entries it cannot show the interrupted apply
        /// made, left as found and named.
        RecoverIncomplete => "recover_incomplete",
        /// `apply`: the write stopped and its rollback could not undo a step; the journal is
        /// kept for `apply --recover`.
        RollbackIncomplete => "rollback_incomplete",
        /// `apply`: the patch adds, removes or moves a submodule, which only the index can
        /// record; pass --index.
        SubmoduleNeedsIndex => "submodule_needs_index",
        /// `mcp`: the Model Context Protocol session could not start or ended badly.
        Mcp => "mcp",
        /// The policy in force cannot be read: a symbolic link, a directory or FIFO, over 1 MiB,
        /// not UTF-8, or a read error; never taken as "no policy".
        PolicyUnreadable => "policy_unreadable",
        /// `parse`'s patch (and `mcp parse_patch`'s) or a `contract` reply is over one of
        /// HEAD's `[limits]` (`patch_bytes`; for a patch also `files`, `hunks`, `paths`).
        LimitExceeded => "limit_exceeded",
    }
}

impl ErrorCode {
    /// Whether the input itself is refused (exit 2), rather than patchgate failing at its job
    /// (exit 3).
    #[must_use]
    pub fn is_input_refused(self) -> bool {
        matches!(
            self,
            Self::Usage
                | Self::InvalidStep
                | Self::UnreadableInput
                | Self::NotUtf8
                | Self::InvalidJson
                | Self::MissingField
                | Self::DuplicateKey
                | Self::CaseVariantKey
                | Self::InvalidConfig
                | Self::InvalidInput
                | Self::Input
                | Self::ContentTooLong
                | Self::Policy
                | Self::InvalidId
                | Self::UnknownId
                | Self::AmbiguousId
                | Self::NoPatch
                | Self::InvalidPattern
                | Self::HooksManaged
                | Self::InvalidAgentInput
                | Self::NotARepository
                | Self::BareRepository
                | Self::LimitExceeded
        )
    }
}
