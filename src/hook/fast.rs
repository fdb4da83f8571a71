//! The fast staged-changes path: the index file read directly ([`crate::repo::index`]) and compared
//! with `HEAD`'s trees directory by directory, skipping every directory whose cache-tree id
//! equals `HEAD`'s, and comparing the cached tree itself where a valid cache-tree id differs
//! (git's write-tree commits that tree as it is, whatever the entries below it say). Exact renames (same blob id) are paired here; when an addition and a
//! deletion remain unpaired (a possible rename with edits), or the index uses a feature the
//! reader leaves alone, the caller falls back to libgit2's full diff with similarity detection.

use super::{Change, ChangeStatus, HookError};
use crate::repo::index::{CacheNode, Index, IndexEntry, parse};
use git2::{ObjectType, Oid, Repository, Tree};
use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::path::Path;

/// The index file read directly, or `None` when the general path must read it: the index uses
/// a feature the reader leaves to libgit2, or holds a path libgit2 may refuse (its read fails
/// then, and the hook reports that as before).
pub(super) fn read_index(repo: &Repository, index_file: &Path) -> Option<Index> {
    if !is_sha1(repo) {
        return None;
    }
    let data = std::fs::read(index_file).ok()?;
    parse(&data).filter(|index| !index.has_path_libgit2_may_refuse)
}

/// The staged changes of `index` (from [`read_index`]) and whether renames were settled (no
/// unpaired addition and deletion left).
pub(super) fn staged(
    repo: &Repository,
    index: &Index,
    head: Option<&Tree<'_>>,
) -> Result<(Vec<Change>, bool), HookError> {
    let mut walk = Walk { repo, index, out: Vec::new() };
    walk.dir(b"", head, index.cache.as_ref(), 0..index.entries.len())?;
    Ok(pair_renames(&walk.out))
}

fn is_sha1(repo: &Repository) -> bool {
    repo.config()
        .ok()
        .and_then(|c| c.get_string("extensions.objectformat").ok())
        .is_none_or(|f| f.eq_ignore_ascii_case("sha1"))
}

struct Walk<'a, 'r> {
    repo: &'r Repository,
    index: &'a Index,
    /// Each change with the blob id that rename pairing compares (added: new, deleted: old).
    out: Vec<(Change, Oid)>,
}

/// What one name in a directory is on each side.
#[derive(Default)]
struct Slot {
    head: Option<(Oid, u32)>,
    file: Option<IndexEntry>,
    dir: Option<Range<usize>>,
}

const TREE_MODE: u32 = 0o040_000;

impl<'r> Walk<'_, 'r> {
    /// Compare directory `prefix` (`""` or `a/b/`): `HEAD`'s tree there with the index entries
    /// in `range` (all of which start with `prefix`).
    fn dir(
        &mut self,
        prefix: &[u8],
        head: Option<&Tree<'_>>,
        cache: Option<&CacheNode>,
        range: Range<usize>,
    ) -> Result<(), HookError> {
        if let Some(oid) = cache.and_then(|c| c.oid) {
            if head.is_some_and(|h| h.id() == oid) {
                return Ok(()); // The index still makes exactly HEAD's tree here.
            }
            // git's write-tree takes a valid cache-tree entry's tree as it is when the object
            // exists, whatever the entries below say, so that tree is what a commit records.
            if let Ok(cached) = self.repo.find_tree(oid) {
                return self.cached_tree(prefix, head, &cached);
            }
        }
        let slots = self.slots(prefix, head, range);
        for (name, slot) in slots {
            let mut path = prefix.to_vec();
            path.extend_from_slice(&name);
            self.compare(path, slot, cache)?;
        }
        Ok(())
    }

    fn slots(
        &self,
        prefix: &[u8],
        head: Option<&Tree<'_>>,
        range: Range<usize>,
    ) -> BTreeMap<Vec<u8>, Slot> {
        let mut slots: BTreeMap<Vec<u8>, Slot> = BTreeMap::new();
        for entry in head.into_iter().flat_map(Tree::iter) {
            let mode = u32::try_from(entry.filemode()).unwrap_or(0);
            slots.entry(entry.name_bytes().to_vec()).or_default().head = Some((entry.id(), mode));
        }
        let entries = &self.index.entries;
        let mut i = range.start;
        while i < range.end {
            let rel = &self.index.path(&entries[i])[prefix.len()..];
            if let Some(slash) = memchr::memchr(b'/', rel) {
                let dir_prefix = &self.index.path(&entries[i])[..=prefix.len() + slash];
                let len = entries[i..range.end]
                    .partition_point(|e| self.index.path(e).starts_with(dir_prefix));
                slots.entry(rel[..slash].to_vec()).or_default().dir = Some(i..i + len);
                i += len;
            } else {
                slots.entry(rel.to_vec()).or_default().file = Some(entries[i]);
                i += 1;
            }
        }
        slots
    }

    fn compare(
        &mut self,
        path: Vec<u8>,
        slot: Slot,
        cache: Option<&CacheNode>,
    ) -> Result<(), HookError> {
        let head_tree = slot.head.filter(|(_, mode)| *mode == TREE_MODE);
        let head_leaf = slot.head.filter(|(_, mode)| *mode != TREE_MODE);
        let mut dir_prefix = path.clone();
        dir_prefix.push(b'/');
        match (head_tree, slot.dir) {
            (Some((oid, _)), Some(range)) => {
                let tree = self.tree(oid)?;
                let child =
                    cache.and_then(|c| c.children.iter().find(|n| n.name == path_name(&path)));
                self.dir(&dir_prefix, Some(&tree), child, range)?;
            }
            (Some((oid, _)), None) => self.deleted_tree(&dir_prefix, oid)?,
            (None, Some(range)) => {
                for e in &self.index.entries[range] {
                    self.out.push((added(self.index.path(e).to_vec(), e), e.oid()));
                }
            }
            (None, None) => {}
        }
        match (head_leaf, slot.file) {
            (Some((oid, mode)), Some(e)) if oid != e.oid() || mode != e.mode => {
                let status = if kind(mode) == kind(e.mode) {
                    ChangeStatus::Modified
                } else {
                    ChangeStatus::Typechange
                };
                let change = Change {
                    status,
                    old_path: Some(path.clone()),
                    new_path: Some(path),
                    old_mode: mode,
                    new_mode: e.mode,
                };
                self.out.push((change, e.oid()));
            }
            (Some((oid, mode)), None) => self.out.push((deleted(path, mode), oid)),
            (None, Some(e)) => self.out.push((added(path, &e), e.oid())),
            _ => {}
        }
        Ok(())
    }

    /// The changes from `HEAD`'s tree at `prefix` to the tree the cache names there (for an
    /// index written by git, the tree its entries make; the index fuzz target found one whose
    /// cache tree said otherwise, and git commits what the cache tree says).
    fn cached_tree(
        &mut self,
        prefix: &[u8],
        head: Option<&Tree<'_>>,
        cached: &Tree<'_>,
    ) -> Result<(), HookError> {
        let diff = self
            .repo
            .diff_tree_to_tree(head, Some(cached), Some(&mut super::delta::diff_options()))
            .map_err(HookError::git("compare a tree the index caches with HEAD's"))?;
        super::delta::check_modes(&diff, super::delta::Source::Index)?;
        for delta in diff.deltas() {
            let Some(mut change) = super::delta::convert(&delta) else { continue };
            let under = |path: Option<Vec<u8>>| path.map(|p| [prefix, &p].concat());
            change.old_path = under(change.old_path);
            change.new_path = under(change.new_path);
            let blob = match change.status {
                ChangeStatus::Deleted => delta.old_file().id(),
                _ => delta.new_file().id(),
            };
            self.out.push((change, blob));
        }
        Ok(())
    }

    fn deleted_tree(&mut self, prefix: &[u8], oid: Oid) -> Result<(), HookError> {
        let tree = self.tree(oid)?;
        for entry in &tree {
            let mut path = prefix.to_vec();
            path.extend_from_slice(entry.name_bytes());
            let mode = u32::try_from(entry.filemode()).unwrap_or(0);
            if entry.kind() == Some(ObjectType::Tree) {
                path.push(b'/');
                self.deleted_tree(&path, entry.id())?;
            } else {
                self.out.push((deleted(path, mode), entry.id()));
            }
        }
        Ok(())
    }

    fn tree(&self, oid: Oid) -> Result<Tree<'r>, HookError> {
        self.repo.find_tree(oid).map_err(HookError::git("read a tree of HEAD"))
    }
}

fn path_name(path: &[u8]) -> &[u8] {
    path.rsplit(|&b| b == b'/').next().unwrap_or(path)
}

/// The object kind a mode stands for: regular file, symlink or submodule.
fn kind(mode: u32) -> u32 {
    mode & 0o170_000
}

fn added(path: Vec<u8>, e: &IndexEntry) -> Change {
    Change {
        status: ChangeStatus::Added,
        old_path: None,
        new_path: Some(path),
        old_mode: 0,
        new_mode: e.mode,
    }
}

fn deleted(path: Vec<u8>, mode: u32) -> Change {
    Change {
        status: ChangeStatus::Deleted,
        old_path: Some(path),
        new_path: None,
        old_mode: mode,
        new_mode: 0,
    }
}

/// Pair additions and deletions of the same blob into renames. The flag is false when unpaired
/// additions and deletions remain: only similarity detection can tell whether they are renames.
fn pair_renames(changes: &[(Change, Oid)]) -> (Vec<Change>, bool) {
    let mut deletions: HashMap<Oid, Vec<usize>> = HashMap::new();
    for (i, (c, oid)) in changes.iter().enumerate() {
        if c.status == ChangeStatus::Deleted {
            deletions.entry(*oid).or_default().push(i);
        }
    }
    let mut slots: Vec<Option<Change>> = changes.iter().map(|(c, _)| Some(c.clone())).collect();
    for (i, (c, oid)) in changes.iter().enumerate() {
        if c.status != ChangeStatus::Added {
            continue;
        }
        let Some(j) = deletions.get_mut(oid).and_then(Vec::pop) else { continue };
        let old = slots[j].take().expect("each deletion is paired once");
        slots[i] = Some(Change {
            status: ChangeStatus::Renamed,
            old_path: old.old_path,
            old_mode: old.old_mode,
            ..c.clone()
        });
    }
    let out: Vec<Change> = slots.into_iter().flatten().collect();
    let has = |s| out.iter().any(|c| c.status == s);
    let is_settled = !(has(ChangeStatus::Added) && has(ChangeStatus::Deleted));
    (out, is_settled)
}
