//! Server side: `pre-receive` checks every commit a push brings.
//!
//! git gives one `<old-oid> SP <new-oid> SP <ref-name>` line per updated ref on stdin. The new
//! commits are those reachable from a new value and from no existing ref (the refs are not yet
//! updated while pre-receive runs; the pushed objects sit in git's quarantine directory, which
//! git2 finds through `GIT_OBJECT_DIRECTORY` and `GIT_ALTERNATE_OBJECT_DIRECTORIES`). Each new
//! commit's changed paths (against its first parent; a root commit against the empty tree; a
//! merge: only what differs from every parent) must pass the policy and the declaration carried
//! in its own message as `Patchgate-Declared:` trailer lines.
//!
//! The policy is never read from the pushed commits, which the pusher controls: see
//! [`super::server`] for where it comes from and how the ref it is read from is protected.

use super::staged::tree_changes;
use super::{Change, HookError, Policy, Violation, evaluate};
use crate::declare::{check_pattern, from_message};
use crate::path::PathSet;
use git2::{Commit, Oid, Repository};
use std::collections::HashSet;

/// One `old new ref` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefUpdate {
    /// The ref's value before the push (`None`: the ref is created).
    pub old: Option<Oid>,
    /// The value after (`None`: the ref is deleted).
    pub new: Option<Oid>,
    /// The full ref name.
    pub name: String,
}

/// The verdict on one pushed commit.
#[derive(Clone, Debug)]
pub struct CommitCheck {
    /// The commit id.
    pub commit: String,
    /// The first ref of the push that brings it.
    pub refname: String,
    /// The subject line.
    pub summary: String,
    /// The declared patterns from its trailers (`None`: no trailer).
    pub declared: Option<Vec<String>>,
    /// Trailer values that are not safe patterns; each one rejects the commit.
    pub bad_trailers: Vec<crate::declare::PatternError>,
    /// Paths that are not allowed.
    pub violations: Vec<Violation>,
}

impl CommitCheck {
    /// Whether the commit may be accepted.
    #[must_use]
    pub fn is_allowed(&self) -> bool {
        self.violations.is_empty() && self.bad_trailers.is_empty()
    }
}

/// Parse pre-receive's stdin.
pub fn parse_updates(input: &str) -> Result<Vec<RefUpdate>, HookError> {
    input.lines().filter(|l| !l.trim().is_empty()).map(parse_line).collect()
}

fn parse_line(line: &str) -> Result<RefUpdate, HookError> {
    let bad = || HookError::Input {
        message: format!("pre-receive input line '{line}' is not '<old-oid> <new-oid> <ref>'"),
    };
    let mut parts = line.splitn(3, ' ');
    let (Some(old), Some(new), Some(name)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(bad());
    };
    // Exactly the 40 hex digits git writes: `Oid::from_str` would pad a short id with zeros,
    // so `0 0 refs/heads/main` read as a no-op update.
    let oid = |hex: &str| -> Result<Option<Oid>, HookError> {
        if hex.len() != 40 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(bad());
        }
        let oid = Oid::from_str(hex).map_err(|_| bad())?;
        Ok((!oid.is_zero()).then_some(oid))
    };
    Ok(RefUpdate { old: oid(old)?, new: oid(new)?, name: name.to_owned() })
}

/// Check every new commit of the push.
pub fn check_push(
    repo: &Repository,
    updates: &[RefUpdate],
    policy: &Policy,
) -> Result<Vec<CommitCheck>, HookError> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for update in updates {
        for oid in new_commits(repo, update)? {
            if seen.insert(oid) {
                let commit =
                    repo.find_commit(oid).map_err(HookError::git("read a pushed commit"))?;
                out.push(check_commit(repo, &commit, &update.name, policy)?);
            }
        }
    }
    Ok(out)
}

/// Commits reachable from the update's new value and from no existing ref, oldest first.
fn new_commits(repo: &Repository, update: &RefUpdate) -> Result<Vec<Oid>, HookError> {
    let Some(new) = update.new else { return Ok(Vec::new()) };
    let git = HookError::git;
    // An object that cannot be read (no quarantine directory in the environment, an unknown
    // id) cannot be checked, so the push is refused: the hook fails closed.
    let object = repo.find_object(new, None).map_err(git("read the pushed object"))?;
    // A tag or ref pointing at a tree or blob brings no commit.
    let Ok(tip) = object.peel_to_commit() else { return Ok(Vec::new()) };
    let mut walk = repo.revwalk().map_err(git("start a revision walk"))?;
    walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::REVERSE)
        .map_err(git("sort the walk"))?;
    walk.push(tip.id()).map_err(git("walk the pushed commits"))?;
    if let Some(old) = update.old.and_then(|o| commit_of(repo, o)) {
        walk.hide(old).map_err(git("hide the ref's old value"))?;
    }
    for reference in repo.references().map_err(git("list the refs"))?.flatten() {
        if let Ok(commit) = reference.peel_to_commit() {
            walk.hide(commit.id()).map_err(git("hide an existing ref"))?;
        }
    }
    walk.collect::<Result<Vec<_>, _>>().map_err(git("walk the pushed commits"))
}

fn commit_of(repo: &Repository, oid: Oid) -> Option<Oid> {
    repo.find_object(oid, None).and_then(|o| o.peel_to_commit()).ok().map(|c| c.id())
}

/// Judge one commit's own changes against `policy` and the declaration in its trailers.
pub(super) fn check_commit(
    repo: &Repository,
    commit: &Commit<'_>,
    refname: &str,
    policy: &Policy,
) -> Result<CommitCheck, HookError> {
    let message = String::from_utf8_lossy(commit.message_bytes()).into_owned();
    let declared = from_message(&message);
    if let Some(values) = &declared {
        policy
            .limits
            .check_patterns(values, "the commit's Patchgate-Declared trailers")
            .map_err(|e| HookError::Policy { message: e.to_string() })?;
    }
    let (patterns, bad_trailers): (Vec<_>, Vec<_>) =
        declared.iter().flatten().map(|v| check_pattern(v)).partition(Result::is_ok);
    let patterns: Vec<String> = patterns.into_iter().flatten().collect();
    let set = match &declared {
        Some(_) => Some(
            PathSet::new(&patterns).map_err(|e| HookError::Policy { message: e.to_string() })?,
        ),
        None => None,
    };
    let changes = commit_changes(repo, commit)?;
    Ok(CommitCheck {
        commit: commit.id().to_string(),
        refname: refname.to_owned(),
        summary: String::from_utf8_lossy(commit.summary_bytes().unwrap_or_default()).into_owned(),
        violations: evaluate(&changes, set.as_ref(), policy),
        declared,
        bad_trailers: bad_trailers.into_iter().filter_map(Result::err).collect(),
    })
}

/// The commit's own changes: against its first parent (root: the empty tree); for a merge,
/// only the changes that differ from every parent (what the merge itself wrote).
fn commit_changes(repo: &Repository, commit: &Commit<'_>) -> Result<Vec<Change>, HookError> {
    let tree = commit.tree().map_err(HookError::git("read a pushed commit's tree"))?;
    let parent_tree = |i: usize| {
        commit.parent(i).and_then(|p| p.tree()).map_err(HookError::git("read a parent's tree"))
    };
    let first = match commit.parent_count() {
        0 => None,
        _ => Some(parent_tree(0)?),
    };
    let mut changes = tree_changes(repo, first.as_ref(), &tree)?;
    for i in 1..commit.parent_count() {
        let other = tree_changes(repo, Some(&parent_tree(i)?), &tree)?;
        let touched: HashSet<Vec<u8>> =
            other.iter().flat_map(|c| c.touched()).map(<[u8]>::to_vec).collect();
        changes.retain(|c| c.touched().iter().any(|p| touched.contains(*p)));
    }
    Ok(changes)
}
