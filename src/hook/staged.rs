//! The changes a commit would record: the index against `HEAD` (an unborn `HEAD` is the empty
//! tree), read from the index and tree objects through git2. The worktree is never walked, so
//! the cost is one pass over the index and the trees, like `git diff --cached`.

use super::delta::{Source, check_modes, convert, diff_options};
use super::{Change, HookError};
use crate::repo::index::Index;
use git2::{Diff, DiffFindOptions, Repository, Tree};
use std::path::Path;

/// Open the repository the way a hook must: `--repo DIR` when given, else from the environment
/// git exports to hooks (`GIT_DIR`, `GIT_INDEX_FILE`, `GIT_WORK_TREE`, `GIT_OBJECT_DIRECTORY`
/// and friends), falling back to discovery from the current directory.
pub fn open(repo: Option<&Path>) -> Result<Repository, HookError> {
    match repo {
        Some(dir) => Ok(crate::repo::discover(Some(dir))?),
        None => Repository::open_from_env().map_err(|e| {
            let message = format!("{}; run inside a repository or pass --repo DIR", e.message());
            if e.code() == git2::ErrorCode::NotFound {
                // As everywhere: no repository around the current directory.
                let code = crate::finding::ErrorCode::NoRepository;
                HookError::Repo(crate::repo::RepoError { code, message })
            } else {
                let context = "open the repository from the hook environment".into();
                HookError::Git { context, message }
            }
        }),
    }
}

/// The staged changes read the fast way (see [`super::fast`]): the index against `HEAD`.
/// `from_env`: the repository was opened from the hook environment, so `GIT_INDEX_FILE` (git's
/// temporary index for `git commit -a` or `git commit PATH`) names the index.
#[derive(Debug)]
pub struct Staged {
    /// The changes.
    pub changes: Vec<Change>,
    /// False when an addition and a deletion could still be a rename with edits: the verdict is
    /// the same either way (both paths are checked), but a report should call
    /// [`staged_changes_exact`] to describe renames.
    pub is_rename_settled: bool,
}

/// The staged changes, fast (the index file and cache tree read directly).
pub fn staged_changes(repo: &Repository, from_env: bool) -> Result<Staged, HookError> {
    staged_changes_of(repo, read_index(repo, from_env).as_ref())
}

/// The index read directly ([`super::fast::read_index`]), or `None` when libgit2 must read it.
pub(super) fn read_index(repo: &Repository, from_env: bool) -> Option<Index> {
    let index_file = std::env::var_os("GIT_INDEX_FILE")
        .filter(|_| from_env)
        .map_or_else(|| repo.path().join("index"), std::path::PathBuf::from);
    super::fast::read_index(repo, &index_file)
}

/// The staged changes of `index` as read by [`read_index`] (`None`: through libgit2).
pub(super) fn staged_changes_of(
    repo: &Repository,
    index: Option<&Index>,
) -> Result<Staged, HookError> {
    let head = head_tree(repo)?;
    if let Some(index) = index {
        let (changes, is_rename_settled) = super::fast::staged(repo, index, head.as_ref())?;
        return Ok(Staged { changes, is_rename_settled });
    }
    let changes = diff_index(repo, head.as_ref())?;
    Ok(Staged { changes, is_rename_settled: true })
}

/// The staged changes through libgit2's diff, with similarity rename detection.
pub fn staged_changes_exact(repo: &Repository) -> Result<Vec<Change>, HookError> {
    diff_index(repo, head_tree(repo)?.as_ref())
}

fn diff_index(repo: &Repository, head: Option<&Tree<'_>>) -> Result<Vec<Change>, HookError> {
    let index = repo.index().map_err(HookError::git("read the index"))?;
    let mut diff = repo
        .diff_tree_to_index(head, Some(&index), Some(&mut diff_options()))
        .map_err(HookError::git("compare the index with HEAD"))?;
    changes(&mut diff, Source::Index)
}

/// While a merge is being concluded (`MERGE_HEAD` exists), keep only the changes that differ
/// from every merged parent as well: what the merge itself writes (conflict resolutions), not
/// what it brings from the other side, which was committed (and checked) there.
pub fn merge_own_changes(repo: &Repository, staged: Vec<Change>) -> Result<Vec<Change>, HookError> {
    let Ok(text) = std::fs::read_to_string(repo.path().join("MERGE_HEAD")) else {
        return Ok(staged);
    };
    let index = repo.index().map_err(HookError::git("read the index"))?;
    let mut kept = staged;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let oid = git2::Oid::from_str(line.trim()).map_err(HookError::git("read MERGE_HEAD"))?;
        let tree = repo
            .find_commit(oid)
            .and_then(|c| c.tree())
            .map_err(HookError::git("read a merged commit"))?;
        let mut diff = repo
            .diff_tree_to_index(Some(&tree), Some(&index), Some(&mut diff_options()))
            .map_err(HookError::git("compare the index with a merged commit"))?;
        let other = changes(&mut diff, Source::Index)?;
        let touched: std::collections::HashSet<&[u8]> =
            other.iter().flat_map(Change::touched).collect();
        kept.retain(|c| c.touched().iter().any(|p| touched.contains(p)));
    }
    Ok(kept)
}

/// The changes between two trees (`None`: the empty tree).
pub fn tree_changes(
    repo: &Repository,
    old: Option<&Tree<'_>>,
    new: &Tree<'_>,
) -> Result<Vec<Change>, HookError> {
    let mut diff = repo
        .diff_tree_to_tree(old, Some(new), Some(&mut diff_options()))
        .map_err(HookError::git("compare a commit with its parent"))?;
    changes(&mut diff, Source::Commit)
}

/// `HEAD`'s tree; `None` when `HEAD` is unborn (the first commit).
fn head_tree(repo: &Repository) -> Result<Option<Tree<'_>>, HookError> {
    match repo.head() {
        Ok(head) => head.peel_to_tree().map(Some).map_err(HookError::git("read HEAD's tree")),
        Err(e) if matches!(e.code(), git2::ErrorCode::UnbornBranch | git2::ErrorCode::NotFound) => {
            Ok(None)
        }
        Err(e) => Err(HookError::git("resolve HEAD")(e)),
    }
}

/// Pair additions with deletions into renames, then convert every delta.
fn changes(diff: &mut Diff<'_>, source: Source) -> Result<Vec<Change>, HookError> {
    let mut find = DiffFindOptions::new();
    find.renames(true);
    diff.find_similar(Some(&mut find)).map_err(HookError::git("detect renames"))?;
    check_modes(diff, source)?;
    Ok(diff.deltas().filter_map(|d| convert(&d)).collect())
}
