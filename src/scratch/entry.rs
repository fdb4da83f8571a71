//! One file entry against the base: existence, modes, `index` ids, binary; then its hunks
//! applied and rolled back in memory.

use super::base::{BaseEntry, BaseTree, mode};
use super::hunk::{self, Mismatch};
use super::symlink::{Plan, after_mode};
use super::{Content, FileChange, Outcome, ScratchError, ScratchPolicy, note, violation};
use crate::finding::CheckCode;
use crate::finding::NoteKind;
use crate::patch::{FilePatch, Operation, SubmoduleChange};
use crate::path::display_bytes;
use crate::rule::{GITLINK_REFUSED, PatchPath, RuleId, Violation, mode_refusal};
use crate::step::Expect;
use std::collections::HashMap;

/// Refuse the repository check outright when a path is unsafe: no lookup or write may use it.
pub(super) fn paths_are_safe(paths: &[PatchPath<'_, '_>], outcome: &mut Outcome) -> bool {
    let Some((path, e)) = paths.iter().find_map(|p| Some((p, p.checked.as_ref().err()?))) else {
        return true;
    };
    outcome.reject(
        Violation::new(RuleId::Malformed, CheckCode::UnsafePath, e.to_string())
            .in_file(display_bytes(path.raw))
            .at(None, Some(path.file.span.line)),
    );
    false
}

/// Which files' new content the check keeps.
#[derive(Clone, Copy, Debug)]
pub(super) enum Keep<'a> {
    /// Every file's (for `land` and `--check-cmd`).
    All,
    /// Only that of the files these `expect` entries read (the check runs for its verdict).
    Expected(&'a [Expect]),
}

impl Keep<'_> {
    /// Whether the new content of `path` is kept, compared as `expect` finds it.
    fn is_kept(self, path: &[u8]) -> bool {
        match self {
            Self::All => true,
            Self::Expected(expects) => expects
                .iter()
                .any(|e| String::from_utf8_lossy(path) == e.file.trim_start_matches("./")),
        }
    }
}

/// Check one entry; push violations and notes, and on success record its [`FileChange`]s.
pub(super) fn check_file(
    base: &BaseTree<'_>,
    plan: &Plan,
    (policy, keep): (&ScratchPolicy, Keep<'_>),
    file: &FilePatch<'_>,
    outcome: &mut Outcome,
    changes: &mut Changes,
) -> Result<(), ScratchError> {
    let implied;
    let file = match implied_creation(base, file)? {
        Some(creation) => {
            implied = creation;
            &implied
        }
        None => file,
    };
    let name = display_bytes(file.path());
    let before = outcome.violations.len();
    let preimage = check_preimage(base, plan, policy, file, &name, outcome)?;
    check_modes(base, policy, file, preimage, &name, outcome)?;
    if outcome.violations.len() > before {
        return Ok(());
    }
    let content = if file.binary.is_some() {
        binary_content(policy, file, preimage, &name, outcome)
    } else {
        let is_kept = keep.is_kept(file.new_path.as_deref().unwrap_or_default());
        text_content(base, file, preimage, (&name, is_kept), outcome)?
    };
    if let Some(content) = content {
        record_changes(base, file, content, changes)?;
    }
    if outcome.violations.len() == before {
        submodule_note(file, &name, outcome);
    }
    if file.operation == Operation::Create && file.new_mode.is_none() && file.binary.is_none() {
        let message = format!(
            "{name} is created without a mode line, so it will be 100644 (not executable); an \
             executable needs 'new file mode 100755'"
        );
        outcome.notes.push(note(NoteKind::ModeDefaulted, message, Some(file.span.line)));
    }
    Ok(())
}

/// The note for a submodule updated or added: the commits it brings in are another
/// repository's, not checked here.
fn submodule_note(file: &FilePatch<'_>, name: &str, outcome: &mut Outcome) {
    let (what, commit) = match file.submodule_change() {
        Some(SubmoduleChange::Update { commit }) => ("moves to", commit),
        Some(SubmoduleChange::Add { commit }) => ("is added at", commit),
        _ => return,
    };
    let message = format!(
        "{name}: the submodule {what} commit {}; the commits it brings in are not checked \
         (patchgate sees no file inside a submodule)",
        String::from_utf8_lossy(commit)
    );
    outcome.notes.push(note(NoteKind::SubmoduleUnchecked, message, Some(file.span.line)));
}

/// A traditional entry whose one hunk starts at `-0,0`, for a file the base does not have:
/// git reads it as a creation (what `diff -u /dev/null new` without `-N` looks like).
fn implied_creation<'a>(
    base: &BaseTree<'_>,
    file: &FilePatch<'a>,
) -> Result<Option<FilePatch<'a>>, ScratchError> {
    let is_shaped = !file.is_git
        && file.operation == Operation::Modify
        && matches!(&file.hunks[..], [h] if h.old_start == 0 && h.old_count == 0);
    let Some(old) = file.old_path.as_deref().filter(|_| is_shaped) else { return Ok(None) };
    if base.entry(old)?.is_some() {
        return Ok(None);
    }
    Ok(Some(FilePatch { operation: Operation::Create, old_path: None, ..file.clone() }))
}

/// Whether the patch removes every file of the base directory `dir` (whose tree is `entry`):
/// then a file may take its place, as git judges the tree after the patch.
fn is_emptied(
    base: &BaseTree<'_>,
    plan: &Plan,
    dir: &[u8],
    entry: BaseEntry,
) -> Result<bool, ScratchError> {
    let tree = base
        .repo()
        .find_tree(entry.oid)
        .map_err(|e| ScratchError::git("read a directory of the base tree", &e))?;
    let mut is_emptied = true;
    let walked = tree.walk(git2::TreeWalkMode::PreOrder, |parent, item| {
        if item.kind() == Some(git2::ObjectType::Tree) {
            return git2::TreeWalkResult::Ok;
        }
        let mut path = dir.to_vec();
        path.push(b'/');
        path.extend_from_slice(parent.as_bytes());
        path.extend_from_slice(item.name_bytes());
        if plan.is_removed(&path) {
            git2::TreeWalkResult::Ok
        } else {
            is_emptied = false;
            git2::TreeWalkResult::Abort
        }
    });
    match walked {
        Ok(()) => Ok(is_emptied),
        Err(_) if !is_emptied => Ok(false), // stopped on purpose at a file that stays
        Err(e) => Err(ScratchError::git("walk a directory of the base tree", &e)),
    }
}

fn is_reading(op: Operation) -> bool {
    !matches!(op, Operation::Create)
}

/// The preimage entry for entries that read one; refusals for missing, mismatching or
/// overwritten paths.
fn check_preimage(
    base: &BaseTree<'_>,
    plan: &Plan,
    policy: &ScratchPolicy,
    file: &FilePatch<'_>,
    name: &str,
    outcome: &mut Outcome,
) -> Result<Option<BaseEntry>, ScratchError> {
    if let (Some(new), false) = (&file.new_path, file.operation == Operation::Delete) {
        let is_target = file.operation != Operation::Modify;
        let existing = if is_target { base.entry(new)? } else { None };
        let is_free = match existing {
            None => true,
            Some(entry) if entry.is_tree() => is_emptied(base, plan, new, entry)?,
            Some(_) => plan.is_removed(new),
        };
        if !is_free {
            let what = if file.operation == Operation::Create { "create" } else { "write" };
            outcome.reject(malformed(
                file,
                CheckCode::CreateOverExisting,
                name,
                format!(
                    "{name} already exists in the base ({}); the patch would {what} over it",
                    base.rev
                ),
            ));
        }
    }
    let Some(old) = file.old_path.as_deref().filter(|_| is_reading(file.operation)) else {
        return Ok(None);
    };
    let old_name = display_bytes(old);
    let entry = match base.entry(old)? {
        Some(entry) if !entry.is_tree() => entry,
        found => {
            let why = if found.is_some() { "is a directory" } else { "does not exist" };
            outcome.reject(malformed(
                file,
                CheckCode::MissingPreimage,
                name,
                format!("{old_name} {why} in the base ({}); the patch expects a file", base.rev),
            ));
            return Ok(None);
        }
    };
    check_ids(policy, file, entry, &old_name, outcome);
    Ok(Some(entry))
}

/// The `index` line's old id and mode, and `old mode`, must describe the base entry.
fn check_ids(
    policy: &ScratchPolicy,
    file: &FilePatch<'_>,
    entry: BaseEntry,
    name: &str,
    outcome: &mut Outcome,
) {
    let base_id = entry.oid.to_string();
    if let Some(index) = file.index.as_ref().filter(|_| policy.check_index_ids) {
        let claimed = String::from_utf8_lossy(index.old).to_ascii_lowercase();
        if claimed.is_empty() || !base_id.starts_with(&claimed) {
            let what = format!(
                "{name}: the index line names blob {claimed}, but the base has {}",
                &base_id[..12]
            );
            if file.binary.is_some() {
                // Binary content is judged on its ids alone: a wrong one is a wrong base.
                let message = format!("{what}; the patch was made against other content");
                outcome.reject(malformed(file, CheckCode::PreimageMismatch, name, message));
                return;
            }
            // Agents invent ids; the hunks decide. Applied exactly, this stays a note; if they
            // do not apply, the context mismatch says what differs.
            let message = format!("{what}; the id was ignored because the hunks are checked");
            outcome.notes.push(note(NoteKind::IndexMismatch, message, Some(file.span.line)));
        }
    }
    let claimed_mode = file.old_mode.or(file.index.as_ref().and_then(|i| i.mode));
    if let Some(claimed) = claimed_mode.filter(|&m| m != entry.mode) {
        outcome.reject(malformed(
            file,
            CheckCode::PreimageMismatch,
            name,
            format!("{name}: the patch says mode {claimed:o}, but the base has {:o}", entry.mode),
        ));
    }
}

/// Modes after the patch must be 100644/100755 (plus links by policy); no in-place type change.
fn check_modes(
    base: &BaseTree<'_>,
    policy: &ScratchPolicy,
    file: &FilePatch<'_>,
    preimage: Option<BaseEntry>,
    name: &str,
    outcome: &mut Outcome,
) -> Result<(), ScratchError> {
    // A submodule added, removed or updated keeps its gitlink; its old commit is checked as
    // the hunk's context.
    let is_submodule = file.submodule_change().is_some() || is_moved_submodule(file, preimage);
    if let Some(entry) = preimage.filter(|e| !(is_submodule && e.mode == mode::GITLINK)) {
        refuse_mode(policy, file, entry.mode, name, outcome);
    }
    if file.operation == Operation::Delete {
        return Ok(());
    }
    let after = after_mode(base, file)?;
    let is_added_submodule = is_submodule && preimage.is_none() && after == mode::GITLINK;
    if preimage.is_none_or(|e| e.mode != after) && !is_added_submodule {
        refuse_mode(policy, file, after, name, outcome);
    }
    if let Some(entry) = preimage.filter(|e| kind(e.mode) != kind(after)) {
        outcome.reject(malformed(
            file,
            CheckCode::TypeChange,
            name,
            format!(
                "{name} changes type in place ({:o} to {after:o}); write a deletion and a creation",
                entry.mode
            ),
        ));
    }
    Ok(())
}

/// A submodule moved unchanged, as `git diff -M` writes it: `rename from`/`rename to` of a
/// base gitlink, no mode line, no hunk (`git apply --index` records the entry at its new path).
fn is_moved_submodule(file: &FilePatch<'_>, preimage: Option<BaseEntry>) -> bool {
    let states_no_other_mode =
        [file.old_mode, file.new_mode].iter().flatten().all(|&m| m == mode::GITLINK);
    file.operation == Operation::Rename
        && preimage.is_some_and(|e| e.mode == mode::GITLINK)
        && states_no_other_mode
        && file.binary.is_none()
        && file.hunks.is_empty()
}

fn kind(mode: u32) -> u32 {
    mode & 0o170_000
}

fn refuse_mode(
    policy: &ScratchPolicy,
    file: &FilePatch<'_>,
    mode: u32,
    name: &str,
    outcome: &mut Outcome,
) {
    let Some(code) = mode_refusal(mode, policy.allow_symlinks) else { return };
    let message = match code {
        CheckCode::Symlink => format!(
            "{name} is a symbolic link (mode 120000); links are refused unless .patchgate.toml [rules] allow_symlinks = true"
        ),
        CheckCode::Gitlink => format!("{name} is {GITLINK_REFUSED}"),
        _ => format!(
            "{name} has mode {mode:o}; only 100644 and 100755 are accepted (no setuid, setgid or odd permissions)"
        ),
    };
    outcome.reject(malformed(file, code, name, message));
}

fn malformed(file: &FilePatch<'_>, code: CheckCode, name: &str, message: String) -> Violation {
    violation(RuleId::Malformed, code, name, message).at(None, Some(file.span.line))
}

/// Binary entries: refused unless policy allows them and the full `index` ids match the base.
fn binary_content(
    policy: &ScratchPolicy,
    file: &FilePatch<'_>,
    preimage: Option<BaseEntry>,
    name: &str,
    outcome: &mut Outcome,
) -> Option<Content> {
    let full = file.index.as_ref().filter(|i| i.is_full());
    let why = match (policy.allow_binary, full) {
        (false, _) => {
            "patchgate cannot check binary content; commit it by hand, or set .patchgate.toml [rules] allow_binary = true for full-index binary patches"
        }
        (true, None) => {
            "it has no full index line (git diff --binary --full-index), so the base content cannot be verified"
        }
        (true, Some(index)) => {
            let old = String::from_utf8_lossy(index.old).to_ascii_lowercase();
            let expected = preimage.map_or_else(|| "0".repeat(old.len()), |e| e.oid.to_string());
            match git2::Oid::from_str(&String::from_utf8_lossy(index.new)) {
                Ok(new) if old == expected => {
                    outcome.notes.push(note(
                        NoteKind::BinaryUnchecked,
                        format!(
                            "{name}: binary change accepted on its index ids; content not checked"
                        ),
                        Some(file.span.line),
                    ));
                    return Some(Content::Blob(new));
                }
                _ => "its index line does not name the base's blob",
            }
        }
    };
    outcome.reject(malformed(
        file,
        CheckCode::BinaryPatch,
        name,
        format!("binary patch for {name} refused: {why}"),
    ));
    None
}

/// Apply the hunks to the preimage bytes, roll them back, and require the preimage again. The
/// new content is built only when `is_kept`.
fn text_content(
    base: &BaseTree<'_>,
    file: &FilePatch<'_>,
    preimage: Option<BaseEntry>,
    (name, is_kept): (&str, bool),
    outcome: &mut Outcome,
) -> Result<Option<Content>, ScratchError> {
    let (blob, gitlink);
    let before: &[u8] = match preimage {
        Some(entry) if entry.mode == mode::GITLINK => {
            gitlink = format!("Subproject commit {}\n", entry.oid).into_bytes();
            &gitlink
        }
        Some(entry) => {
            let path = file.old_path.as_deref().unwrap_or_default();
            blob = base.file_content(path, entry.oid)?;
            blob.bytes()
        }
        None => &[],
    };
    let placed = match hunk::place(before, &file.hunks) {
        Ok(placed) => placed,
        Err(m) => {
            outcome.reject(context_violation(name, &m));
            return Ok(None);
        }
    };
    if !placed.rolls_back(before, &file.hunks) {
        outcome.reject(malformed(file, CheckCode::RollbackMismatch, name, format!("{name}: applying the patch in reverse does not give the base content back; the hunks are ambiguous")));
        return Ok(None);
    }
    if file.operation == Operation::Delete && !placed.is_empty() {
        outcome.reject(malformed(file, CheckCode::DeleteLeavesContent, name, format!("{name} is deleted but its hunks leave {} bytes; the deletion must remove every line", placed.len())));
        return Ok(None);
    }
    for offset in &placed.offsets {
        outcome.notes.push(note(
            NoteKind::HunkOffset,
            format!(
                "{name}: hunk {} applied {} lines {} its stated position",
                offset.hunk,
                offset.offset.abs(),
                if offset.offset > 0 { "after" } else { "before" }
            ),
            Some(offset.patch_line),
        ));
    }
    Ok(Some(if is_kept { Content::Bytes(placed.bytes()) } else { Content::Unkept }))
}

fn context_violation(name: &str, m: &Mismatch) -> Violation {
    let show = |text: &Option<Vec<u8>>, has_newline: bool| match text {
        Some(t) => format!(
            "'{}'{}",
            display_bytes(t),
            if has_newline { "" } else { " (no newline at end of file)" }
        ),
        None => "end of file".to_owned(),
    };
    let message = match &m.expected_text {
        Some(_) => format!(
            "{name}: hunk {} does not apply: at line {} expected {}, found {}",
            m.hunk,
            m.file_line,
            show(&m.expected_text, m.expected_has_newline),
            show(&m.actual, m.actual_has_newline)
        ),
        None => format!(
            "{name}: hunk {} does not apply: its lines are there, but it must match at the {} of the file",
            m.hunk,
            if m.file_line <= 1 { "start" } else { "end" }
        ),
    };
    violation(RuleId::Malformed, CheckCode::ContextMismatch, name, message)
        .at(Some(m.hunk), Some(m.patch_line))
}

/// Every touched path's state after the patch, in the order the entries decide it. A path has
/// at most one live record, found by key, so recording stays linear in the number of files.
#[derive(Debug, Default)]
pub(super) struct Changes {
    /// Records in order; `None` where a later write replaced one.
    slots: Vec<Option<FileChange>>,
    /// The slot of each path's live record.
    live: HashMap<String, usize>,
}

impl Changes {
    /// `path` is removed, unless an entry already wrote it (in a swap, `a` to `b` and `b` to
    /// `a`, the other entry's write to this path wins).
    fn remove(&mut self, path: String) {
        if !self.live.contains_key(&path) {
            self.push(FileChange { path, mode: None, content: None });
        }
    }

    /// `change` is written, replacing what an earlier entry recorded for its path (a rename
    /// target may be another entry's removed path: the write wins).
    fn write(&mut self, change: FileChange) {
        if let Some(at) = self.live.remove(&change.path) {
            self.slots[at] = None;
        }
        self.push(change);
    }

    fn push(&mut self, change: FileChange) {
        self.live.insert(change.path.clone(), self.slots.len());
        self.slots.push(Some(change));
    }

    /// The records, in order.
    pub(super) fn into_vec(self) -> Vec<FileChange> {
        self.slots.into_iter().flatten().collect()
    }
}

/// The paths this entry leaves behind: its new path with content; a removed old path.
fn record_changes(
    base: &BaseTree<'_>,
    file: &FilePatch<'_>,
    content: Content,
    changes: &mut Changes,
) -> Result<(), ScratchError> {
    let removes_old = matches!(file.operation, Operation::Delete | Operation::Rename);
    if let (Some(old), true) = (&file.old_path, removes_old) {
        changes.remove(String::from_utf8_lossy(old).into_owned());
    }
    if let (Some(new), false) = (&file.new_path, file.operation == Operation::Delete) {
        let mode = after_mode(base, file)?;
        let path = String::from_utf8_lossy(new).into_owned();
        changes.write(FileChange { path, mode: Some(mode), content: Some(content) });
    }
    Ok(())
}
