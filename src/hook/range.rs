//! `patchgate ci BASE..HEAD`: pre-receive's check for a range of commits, for hosted git that
//! runs no server hooks (GitHub Actions, GitLab CI). Every commit reachable from `HEAD` and not
//! from `BASE` (`BASE...HEAD`: not from their merge base) is judged as pre-receive judges a
//! pushed one (its own changes, the declaration in its `Patchgate-Declared:` trailers), under
//! the policy of `BASE`'s tree: the branch the change goes into, never the change itself
//! ([`super::server::range_policy`]). A `BASE..HEAD` where `HEAD` does not descend from `BASE`
//! (a force push) and holds another policy is refused too, as pre-receive refuses a rewind of
//! the policy ref: it brings no commit that could be judged.

use super::receive::{CommitCheck, check_commit};
use super::server::{RefRefusal, policy_differs, range_policy};
use super::{HookError, Policy, PolicyChange};
use git2::{Commit, Repository};

/// What a range check judged.
#[derive(Debug)]
pub struct RangeRun {
    /// The policy of the base.
    pub policy: Policy,
    /// Every commit of the range, oldest first.
    pub commits: Vec<CommitCheck>,
    /// The range itself refused: `HEAD` does not descend from `BASE` and holds another policy.
    pub refused: Vec<RefRefusal>,
}

/// The ends of a range as git reads it.
struct Ends<'r, 's> {
    /// `BASE`, whose policy counts, and its name in the range.
    base: (Commit<'r>, &'s str),
    /// Where the walk stops: `BASE`, or the merge base for `BASE...HEAD`.
    stop: Commit<'r>,
    /// `HEAD` and its name.
    head: (Commit<'r>, &'s str),
}

/// Judge every commit of `spec` (`BASE..HEAD`, or `BASE...HEAD` for the commits since their
/// merge base, as git reads them) under `BASE`'s policy.
pub fn check_range(repo: &Repository, spec: &str) -> Result<RangeRun, HookError> {
    let ends = resolve(repo, spec)?;
    let policy = range_policy(repo, &ends.base.0, ends.base.1)?;
    let git = HookError::git;
    let mut walk = repo.revwalk().map_err(git("start a revision walk"))?;
    walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::REVERSE)
        .map_err(git("sort the walk"))?;
    walk.push(ends.head.0.id()).map_err(git("walk the range"))?;
    walk.hide(ends.stop.id()).map_err(git("walk the range"))?;
    let mut commits = Vec::new();
    for oid in walk {
        let oid = oid.map_err(git("walk the range"))?;
        let commit = repo.find_commit(oid).map_err(git("read a commit of the range"))?;
        commits.push(check_commit(repo, &commit, spec, &policy)?);
    }
    let refused = rewound(repo, &ends, &policy, spec)?.into_iter().collect();
    Ok(RangeRun { policy, commits, refused })
}

/// The refusal of a `HEAD` that does not descend from where the walk stops and holds another
/// policy than it: no commit of the range brought that policy.
fn rewound(
    repo: &Repository,
    ends: &Ends<'_, '_>,
    policy: &Policy,
    spec: &str,
) -> Result<Option<RefRefusal>, HookError> {
    let (stop, head) = (ends.stop.id(), ends.head.0.id());
    let is_forward = head == stop || repo.graph_descendant_of(head, stop).unwrap_or(false);
    if is_forward
        || policy.policy_change == PolicyChange::Allow
        || !policy_differs(repo, Some(stop), Some(head))?
    {
        return Ok(None);
    }
    Ok(Some(RefRefusal {
        refname: spec.to_owned(),
        message: format!(
            "{} does not descend from {} and holds another {}; change the policy with a new \
             commit the policy allows",
            ends.head.1,
            ends.base.1,
            crate::config::FILE_NAME
        ),
    }))
}

/// The ends of `spec`.
fn resolve<'r, 's>(repo: &'r Repository, spec: &'s str) -> Result<Ends<'r, 's>, HookError> {
    let bad = |why: String| HookError::Input {
        message: format!(
            "'{spec}' {why}; give the range as BASE..HEAD (two commits, as git names them)"
        ),
    };
    let (base, head, is_symmetric) = match spec.split_once("...") {
        Some((base, head)) => (base, head, true),
        None => match spec.split_once("..") {
            Some((base, head)) => (base, head, false),
            None => return Err(bad("is not a range".to_owned())),
        },
    };
    if base.is_empty() || head.is_empty() {
        return Err(bad("leaves out one end".to_owned()));
    }
    let commit = |name: &str| {
        repo.revparse_single(name)
            .and_then(|o| o.peel_to_commit())
            .map_err(|e| bad(format!("names '{name}', which is no commit here ({})", e.message())))
    };
    let (base_commit, head_commit) = (commit(base)?, commit(head)?);
    let stop = if is_symmetric {
        let merge_base = repo
            .merge_base(base_commit.id(), head_commit.id())
            .map_err(|e| bad(format!("has no merge base ({})", e.message())))?;
        repo.find_commit(merge_base).map_err(HookError::git("read the merge base"))?
    } else {
        base_commit.clone()
    };
    Ok(Ends { base: (base_commit, base), stop, head: (head_commit, head) })
}
