//! The tree as it will be after the patch, for the paths the patch touches and their parents;
//! and the walk that refuses any path through a symbolic link of the base *or* of the patched
//! tree (a link the patch creates or renames: CVE-2023-23946, CVE-2015-1196, git t4115/t4139).

use super::base::{BaseTree, mode};
use super::{Outcome, ScratchError, violation};
use crate::finding::CheckCode;
use crate::patch::{FilePatch, Operation, Patch};
use crate::path::display_bytes;
use crate::rule::RuleId;
use std::collections::{HashMap, HashSet};

/// What the patch does to the tree, by path.
#[derive(Debug, Default)]
pub(super) struct Plan {
    /// Paths that exist after the patch because an entry writes them, with their mode.
    created: HashMap<Vec<u8>, u32>,
    /// Paths an entry removes (deletions, rename sources).
    removed: HashSet<Vec<u8>>,
}

impl Plan {
    pub(super) fn new(base: &BaseTree<'_>, patch: &Patch<'_>) -> Result<Self, ScratchError> {
        let mut plan = Self::default();
        for file in &patch.files {
            let removes_old = matches!(file.operation, Operation::Delete | Operation::Rename);
            if let (Some(old), true) = (&file.old_path, removes_old) {
                plan.removed.insert(old.clone());
            }
            if let (Some(new), true) = (&file.new_path, file.operation != Operation::Delete) {
                plan.created.insert(new.clone(), after_mode(base, file)?);
            }
        }
        Ok(plan)
    }

    /// Whether an entry of the patch removes `path` (so a create may take its place).
    pub(super) fn is_removed(&self, path: &[u8]) -> bool {
        self.removed.contains(path)
    }

    /// The mode `path` has after the patch; `None` when it does not exist then.
    pub(super) fn mode_after(
        &self,
        base: &BaseTree<'_>,
        path: &[u8],
    ) -> Result<Option<u32>, ScratchError> {
        if let Some(mode) = self.created.get(path) {
            return Ok(Some(*mode));
        }
        if self.removed.contains(path) {
            return Ok(None);
        }
        Ok(base.entry(path)?.map(|e| e.mode))
    }
}

/// The mode an entry gives its new path: the header's, else the preimage's, else a plain file.
pub(super) fn after_mode(base: &BaseTree<'_>, file: &FilePatch<'_>) -> Result<u32, ScratchError> {
    if let Some(mode) = file.new_mode.or(file.index.as_ref().and_then(|i| i.mode)) {
        return Ok(mode);
    }
    let preimage = file.old_path.as_deref().filter(|_| file.operation != Operation::Create);
    if let Some(entry) = preimage.map(|old| base.entry(old)).transpose()?.flatten() {
        return Ok(entry.mode);
    }
    Ok(file.old_mode.unwrap_or(mode::FILE))
}

/// Every proper leading directory of `path` (`a/b/c` gives `a`, `a/b`).
fn parents(path: &[u8]) -> impl Iterator<Item = &[u8]> {
    path.iter().enumerate().filter(|&(_, &b)| b == b'/').map(move |(i, _)| &path[..i])
}

/// Refuse paths through links (base or patched tree), paths below files, `.gitmodules` links.
pub(super) fn check(
    base: &BaseTree<'_>,
    plan: &Plan,
    patch: &Patch<'_>,
    outcome: &mut Outcome,
) -> Result<(), ScratchError> {
    for file in &patch.files {
        if let Some(old) = &file.old_path {
            check_old_path(base, old, outcome)?;
        }
        if let (Some(new), true) = (&file.new_path, file.operation != Operation::Delete) {
            check_new_path(base, plan, new, outcome)?;
        }
    }
    Ok(())
}

fn check_old_path(
    base: &BaseTree<'_>,
    old: &[u8],
    outcome: &mut Outcome,
) -> Result<(), ScratchError> {
    for parent in parents(old) {
        if base.entry(parent)?.is_some_and(|e| e.mode == mode::SYMLINK) {
            let (file, link) = (display_bytes(old), display_bytes(parent));
            outcome.reject(violation(
                RuleId::Scope,
                CheckCode::BeyondSymlink,
                &file,
                format!("{file} is read through '{link}', a symbolic link in the base tree"),
            ));
            return Ok(());
        }
    }
    Ok(())
}

fn check_new_path(
    base: &BaseTree<'_>,
    plan: &Plan,
    new: &[u8],
    outcome: &mut Outcome,
) -> Result<(), ScratchError> {
    let file = || display_bytes(new);
    for parent in parents(new) {
        let Some(parent_mode) = plan.mode_after(base, parent)? else { continue };
        if parent_mode == mode::TREE {
            continue;
        }
        let (file, link) = (file(), display_bytes(parent));
        if parent_mode == mode::SYMLINK {
            let whose =
                if plan.created.contains_key(parent) { "the patch makes" } else { "the base has" };
            outcome.reject(violation(
                RuleId::Scope,
                CheckCode::BeyondSymlink,
                &file,
                format!("{file} is beyond a symbolic link: '{link}' is a link {whose}; write the real path"),
            ));
            return Ok(());
        }
        outcome.reject(violation(
            RuleId::Malformed,
            CheckCode::FileInTheWay,
            &file,
            format!(
                "{file} cannot be written: '{link}' is a file, not a directory, after the patch"
            ),
        ));
        return Ok(());
    }
    if is_gitmodules(new) && plan.mode_after(base, new)? == Some(mode::SYMLINK) {
        let file = file();
        outcome.reject(violation(
            RuleId::Malformed,
            CheckCode::GitmodulesSymlink,
            &file,
            format!("{file} may not be a symbolic link (git refuses it: CVE-2018-11235 shape)"),
        ));
    }
    Ok(())
}

/// `.gitmodules` in any case, and its NTFS short name, as the last component.
fn is_gitmodules(path: &[u8]) -> bool {
    let name = path.rsplit(|&b| b == b'/').next().unwrap_or(path);
    name.eq_ignore_ascii_case(b".gitmodules") || name.eq_ignore_ascii_case(b"gitmod~1")
}
