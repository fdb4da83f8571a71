//! `patchgate ci BASE..HEAD`: pre-receive's check for a range of commits, for hosted git that
//! runs no server hooks (GitHub Actions, GitLab CI). Every commit reachable from `HEAD` and not
//! from `BASE` is judged as pre-receive judges a pushed one (its own changes, the declaration in
//! its `Patchgate-Declared:` trailers), under the policy of `BASE`'s tree: the branch the
//! change goes into, never the change itself ([`super::server::range_policy`]).

use super::receive::{CommitCheck, check_commit};
use super::server::range_policy;
use super::{HookError, Policy};
use git2::{Commit, Repository};

/// What a range check judged.
#[derive(Debug)]
pub struct RangeRun {
    /// The policy of the base.
    pub policy: Policy,
    /// Every commit of the range, oldest first.
    pub commits: Vec<CommitCheck>,
}

/// Judge every commit of `spec` (`BASE..HEAD`, or `BASE...HEAD` for the commits since their
/// merge base, as git reads them) under `BASE`'s policy.
pub fn check_range(repo: &Repository, spec: &str) -> Result<RangeRun, HookError> {
    let (base, head, base_shown) = resolve(repo, spec)?;
    let policy = range_policy(repo, &base, &base_shown)?;
    let git = HookError::git;
    let mut walk = repo.revwalk().map_err(git("start a revision walk"))?;
    walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::REVERSE)
        .map_err(git("sort the walk"))?;
    walk.push(head.id()).map_err(git("walk the range"))?;
    walk.hide(base.id()).map_err(git("walk the range"))?;
    let mut commits = Vec::new();
    for oid in walk {
        let oid = oid.map_err(git("walk the range"))?;
        let commit = repo.find_commit(oid).map_err(git("read a commit of the range"))?;
        commits.push(check_commit(repo, &commit, spec, &policy)?);
    }
    Ok(RangeRun { policy, commits })
}

/// The base and head commits of `spec`, and how the base is named in messages.
fn resolve<'r>(
    repo: &'r Repository,
    spec: &str,
) -> Result<(Commit<'r>, Commit<'r>, String), HookError> {
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
    let (mut base_commit, head_commit) = (commit(base)?, commit(head)?);
    let mut shown = base.to_owned();
    if is_symmetric {
        let merge_base = repo
            .merge_base(base_commit.id(), head_commit.id())
            .map_err(|e| bad(format!("has no merge base ({})", e.message())))?;
        base_commit =
            repo.find_commit(merge_base).map_err(HookError::git("read the merge base"))?;
        shown = merge_base.to_string();
    }
    Ok((base_commit, head_commit, shown))
}
