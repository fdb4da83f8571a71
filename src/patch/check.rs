//! Checks on a whole entry once its headers and hunks are read (do the headers agree, which
//! operation is it, does it do anything), and across entries (the same path twice).

use super::header::{Headers, Side};
use super::parse::{Parser, quote_input};
use super::{DefectCode, FilePatch, Operation, Span};
use crate::path::display_bytes;
use std::collections::HashSet;

/// The names one side of an entry is given, with where each comes from.
struct Names<'h> {
    candidates: Vec<(&'h [u8], &'static str)>,
}

impl<'h> Names<'h> {
    fn new() -> Self {
        Self { candidates: Vec::with_capacity(3) }
    }

    fn add(&mut self, name: Option<&'h [u8]>, source: &'static str) {
        if let Some(name) = name {
            self.candidates.push((name, source));
        }
    }

    /// The first name, and the first pair of sources that disagree.
    fn resolve(&self) -> (Option<&'h [u8]>, Option<String>) {
        let Some(&(first, first_source)) = self.candidates.first() else { return (None, None) };
        let mismatch =
            self.candidates.iter().find(|(name, _)| *name != first).map(|(name, source)| {
                format!(
                    "{first_source} names `{}` but {source} names `{}`",
                    display_bytes(first),
                    display_bytes(name)
                )
            });
        (Some(first), mismatch)
    }
}

fn side(value: Option<&Side>) -> Option<&[u8]> {
    value.and_then(|s| s.as_deref())
}

/// When a git entry's `---`/`+++` names are the `diff --git` names without their `a/`/`b/`
/// (`--- src/x.rs` under `diff --git a/src/x.rs b/src/x.rs`), the one thing to say.
fn missing_prefix(h: &Headers) -> Option<String> {
    let (git_old, git_new) = h.git.as_ref()?;
    let (old, new) = h.written.as_ref()?;
    let bare = |written: &[u8], name: &[u8]| written == name || written == b"/dev/null";
    if !(bare(old, git_old) && bare(new, git_new)) {
        return None;
    }
    let (old, new) = (String::from_utf8_lossy(git_old), String::from_utf8_lossy(git_new));
    Some(format!(
        "`---`/`+++` name the files without the a/ and b/ prefixes of `diff --git`; write \
         `--- a/{old}` and `+++ b/{new}`"
    ))
}

impl Parser<'_, '_> {
    fn entry_defect(&mut self, code: DefectCode, span: Span, what: &str) {
        self.defect(code, span, what.to_owned());
    }

    /// Check a git entry's headers against each other and fill paths, modes and operation.
    pub fn resolve_git(&mut self, file: &mut FilePatch<'_>, h: &Headers) {
        let span = file.span;
        let is_rename = h.rename_from.is_some() || h.rename_to.is_some();
        let is_copy = h.copy_from.is_some() || h.copy_to.is_some();
        let is_create = h.new_file_mode.is_some() || matches!(h.minus, Some((None, _)));
        let is_delete = h.deleted_mode.is_some() || matches!(h.plus, Some(None));
        self.check_exclusive(span, h, [is_rename, is_copy, is_create, is_delete]);
        if h.git_one_name && (is_rename || is_copy) {
            self.entry_defect(
                DefectCode::OneNameRename,
                span,
                "`diff --git` names one file but the entry renames or copies; write `diff --git \
                 a/OLD b/NEW`",
            );
        }
        let (old_name, new_name) = self.entry_names(span, h);
        file.old_path = (!is_create).then(|| old_name.or(new_name)).flatten().map(<[u8]>::to_vec);
        file.new_path = (!is_delete).then(|| new_name.or(old_name)).flatten().map(<[u8]>::to_vec);
        file.old_mode = h.deleted_mode.or(h.old_mode);
        file.new_mode = h.new_file_mode.or(h.new_mode);
        file.operation = operation([is_rename, is_copy, is_create, is_delete]);
        let is_mode_change =
            h.old_mode.is_some() && h.new_mode.is_some() && h.old_mode != h.new_mode;
        // A header-only entry never has `---`/`+++` lines: with them, hunks must follow.
        let is_meta =
            (is_rename || is_copy || is_create || is_delete || is_mode_change) && h.minus.is_none();
        self.check_paths(file);
        self.check_content(file, is_meta);
    }

    /// The entry's old and new names, as every header that states one agrees (a defect where
    /// they do not, where `/dev/null` is missing, or where no header names a file).
    fn entry_names<'h>(
        &mut self,
        span: Span,
        h: &'h Headers,
    ) -> (Option<&'h [u8]>, Option<&'h [u8]>) {
        let minus_span = h.minus.as_ref().map_or(span, |m| m.1);
        let mut old = Names::new();
        old.add(h.git.as_ref().map(|g| g.0.as_slice()), "`diff --git`");
        old.add(h.rename_from.as_deref().or(h.copy_from.as_deref()), "`rename/copy from`");
        old.add(side(h.minus.as_ref().map(|m| &m.0)), "`---`");
        let mut new = Names::new();
        new.add(h.git.as_ref().map(|g| g.1.as_slice()), "`diff --git`");
        new.add(h.rename_to.as_deref().or(h.copy_to.as_deref()), "`rename/copy to`");
        new.add(side(h.plus.as_ref()), "`+++`");
        let (old_name, old_mismatch) = old.resolve();
        let (new_name, new_mismatch) = new.resolve();
        if let Some(why) = old_mismatch.or(new_mismatch) {
            if let Some(message) = missing_prefix(h) {
                self.defect(DefectCode::MissingPrefix, minus_span, message);
            } else {
                let message = format!("headers disagree: {why}; make them name the same file");
                self.defect(DefectCode::HeaderMismatch, minus_span, message);
            }
        }
        self.check_dev_null(h, minus_span);
        if old_name.is_none() && new_name.is_none() {
            self.entry_defect(
                DefectCode::BadPath,
                span,
                "git diff header lacks filename information; write `diff --git a/PATH b/PATH`",
            );
        }
        (old_name, new_name)
    }

    /// A creation's `---` and a deletion's `+++` name `/dev/null`.
    fn check_dev_null(&mut self, h: &Headers, minus_span: Span) {
        if h.new_file_mode.is_some() && side(h.minus.as_ref().map(|m| &m.0)).is_some() {
            self.entry_defect(
                DefectCode::HeaderMismatch,
                minus_span,
                "a new file's `---` line must be `--- /dev/null`",
            );
        }
        if h.deleted_mode.is_some() && side(h.plus.as_ref()).is_some() {
            self.entry_defect(
                DefectCode::HeaderMismatch,
                minus_span,
                "a deleted file's `+++` line must be `+++ /dev/null`",
            );
        }
    }

    /// Headers that exclude or require each other.
    fn check_exclusive(
        &mut self,
        span: Span,
        h: &Headers,
        [is_rename, is_copy, is_create, is_delete]: [bool; 4],
    ) {
        let problem = if is_create && is_delete {
            Some((DefectCode::InconsistentHeaders, "the entry both creates and deletes its file"))
        } else if (is_rename || is_copy) && (is_create || is_delete) {
            Some((DefectCode::InconsistentHeaders, "a rename or copy cannot also create or delete"))
        } else if is_rename && is_copy {
            Some((DefectCode::InconsistentHeaders, "the entry has both rename and copy headers"))
        } else if h.rename_from.is_some() != h.rename_to.is_some() {
            Some((DefectCode::IncompleteRename, "`rename from` and `rename to` must come together"))
        } else if h.copy_from.is_some() != h.copy_to.is_some() {
            Some((DefectCode::IncompleteRename, "`copy from` and `copy to` must come together"))
        } else if h.old_mode.is_some() != h.new_mode.is_some() && !h.has_bad_mode {
            Some((DefectCode::InconsistentHeaders, "`old mode` and `new mode` must come together"))
        } else {
            None
        };
        if let Some((code, what)) = problem {
            self.entry_defect(code, span, what);
        }
    }

    /// Old and new paths may differ only in a rename or copy.
    fn check_paths(&mut self, file: &FilePatch<'_>) {
        let is_move = matches!(file.operation, Operation::Rename | Operation::Copy);
        if let (Some(old), Some(new)) = (&file.old_path, &file.new_path)
            && old != new
            && !is_move
        {
            let message = format!(
                "`{}` becomes `{}` without `rename from`/`rename to` headers; add them, or make both names the same",
                display_bytes(old),
                display_bytes(new)
            );
            self.defect(DefectCode::ImplicitRename, file.span, message);
        }
    }

    /// The entry must do something, and creations/deletions must have matching hunks.
    fn check_content(&mut self, file: &FilePatch<'_>, is_meta: bool) {
        let is_broken = self.out.defects.len() > self.entry_defects;
        if file.hunks.is_empty() && file.binary.is_none() && !is_meta && !is_broken {
            let message = format!(
                "entry for `{}` has no hunks and changes nothing; drop it or add its hunks",
                display_bytes(file.path())
            );
            self.defect(DefectCode::NoHunks, file.span, message);
        }
        let bad = match file.operation {
            Operation::Create => file.hunks.iter().find(|h| h.old_start != 0 || h.old_count != 0),
            Operation::Delete => file.hunks.iter().find(|h| h.new_start != 0 || h.new_count != 0),
            _ => None,
        };
        if let Some(hunk) = bad {
            let what = if file.operation == Operation::Create {
                "a new file's hunk must be `-0,0`"
            } else {
                "a deleted file's hunk must be `+0,0`"
            };
            let input = self.cur.input();
            let header = &input[hunk.span.offset..];
            let header = &header[..memchr::memchr(b'\n', header).unwrap_or(header.len())];
            let message = format!("{what}, not `{}`", quote_input(header));
            self.defect(DefectCode::InconsistentHeaders, hunk.span, message);
        }
    }

    /// A traditional entry: `/dev/null` sides decide creation and deletion.
    pub fn resolve_traditional(&mut self, file: &mut FilePatch<'_>, h: &Headers) {
        let Some((minus, _)) = &h.minus else { return };
        let plus = h.plus.as_ref().and_then(|p| p.as_deref());
        if minus.is_none() && plus.is_none() {
            self.entry_defect(
                DefectCode::BadPath,
                file.span,
                "both `---` and `+++` are /dev/null; name the file",
            );
        }
        file.old_path.clone_from(minus);
        file.new_path = plus.map(<[u8]>::to_vec);
        let (is_create, is_delete) = (minus.is_none(), plus.is_none());
        file.operation = operation([false, false, is_create, is_delete]);
        self.check_paths(file);
        self.check_content(file, false);
    }

    /// The same path in two entries, except where git's before/after semantics allow it:
    /// copy sources may repeat, and a path freed by a delete or rename may be created again.
    pub fn check_duplicates(&mut self) {
        let mut consumed: HashSet<&[u8]> = HashSet::new();
        let mut produced: HashSet<&[u8]> = HashSet::new();
        let mut found = Vec::new();
        for file in &self.out.patch.files {
            let old = file.old_path.as_deref().filter(|_| file.operation != Operation::Copy);
            let repeated_old = old.filter(|p| !consumed.insert(p));
            let repeated_new = file.new_path.as_deref().filter(|p| !produced.insert(p));
            if let Some(path) = repeated_old.or(repeated_new) {
                found.push((file.span, display_bytes(path)));
            }
        }
        for (span, path) in found {
            let message =
                format!("`{path}` appears in more than one entry; merge its hunks into one entry");
            self.defect(DefectCode::DuplicatePath, span, message);
        }
    }
}

fn operation([is_rename, is_copy, is_create, is_delete]: [bool; 4]) -> Operation {
    if is_rename {
        Operation::Rename
    } else if is_copy {
        Operation::Copy
    } else if is_create {
        Operation::Create
    } else if is_delete {
        Operation::Delete
    } else {
        Operation::Modify
    }
}
