//! Where the server's policy comes from, and what keeps a push from rewriting it.
//!
//! pre-receive never reads its policy from what the pusher writes. In order:
//!
//! 1. `<git-dir>/patchgate.toml`, the server's own file (pushes cannot write it), read as any
//!    policy is: a regular file, never through a link, at most 1 MiB. Its `[server]` table:
//!    * `policy_ref = "refs/heads/main"`: the policy is `.patchgate.toml` in that ref's tree as
//!      it was before the push (the file then holds only `[server]`), and the ref is
//!      protected: a push that rewinds or deletes it while its policy differs is refused;
//!    * `policy_change = "refuse" | "declared" | "allow"`: whether a pushed commit may change
//!      `.patchgate.toml` (default `refuse`; `declared`: when its `Patchgate-Declared:`
//!      trailers name the file by its exact path).
//! 2. Without that file, the ref `HEAD` names (the default branch) serves as the policy ref,
//!    with the defaults: a pushed commit that changes the policy is refused, and so is a push
//!    that rewinds the default branch to another policy. One push can no longer relax the
//!    policy for the next.
//!
//! `patchgate ci BASE..HEAD` reads the policy from the range's base, and its `[server]` table
//! there (`policy_ref` means nothing to it).

use super::receive::RefUpdate;
use super::{HookError, Policy, PolicyChange};
use crate::config::{Config, FILE_NAME};
use git2::{Oid, Repository};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The `[server]` table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ServerTable {
    /// The ref whose `.patchgate.toml` is the policy (read only from `<git-dir>/patchgate.toml`).
    pub policy_ref: Option<String>,
    /// Whether a pushed commit may change `.patchgate.toml`; `None`: `refuse`.
    pub policy_change: Option<PolicyChange>,
}

/// The policy a server enforces, and the ref it is read from.
#[derive(Clone, Debug)]
pub struct Server {
    /// The compiled policy, `policy_change` set from the server's `[server]` table.
    pub policy: Policy,
    /// The protected ref whose tree holds the policy; `None` when the server's own file is the
    /// policy (or there is no `HEAD` to read one from).
    pub policy_ref: Option<String>,
}

/// The server's policy (see the module docs).
pub fn server_policy(repo: &Repository) -> Result<Server, HookError> {
    let admin = repo.path().join("patchgate.toml");
    match Config::load_file(&admin)? {
        Some(config) => from_admin_file(repo, &config, &admin),
        None => from_default_branch(repo),
    }
}

fn from_admin_file(repo: &Repository, admin: &Config, path: &Path) -> Result<Server, HookError> {
    let table: ServerTable = admin.section("server")?;
    let policy_change = table.policy_change.unwrap_or(PolicyChange::Refuse);
    let Some(name) = table.policy_ref else {
        let mut policy = Policy::from_config(admin, Some(path.display().to_string()))?;
        policy.policy_change = policy_change;
        return Ok(Server { policy, policy_ref: None });
    };
    if admin.keys().any(|key| key != "server") {
        return Err(admin.invalid(&format!(
            "[server] policy_ref reads the policy from '{name}': keep the policy there, and only \
             the [server] table in {}",
            path.display()
        )).into());
    }
    let reference = repo.find_reference(&name).map_err(|e| HookError::Policy {
        message: format!(
            "[server] policy_ref '{name}' in {} cannot be read ({}); create the ref or fix the file",
            path.display(),
            e.message()
        ),
    })?;
    let tree = reference.peel_to_tree().map_err(HookError::git("read the policy ref's tree"))?;
    let mut policy = ref_policy(repo, &tree, &name)?;
    policy.policy_change = policy_change;
    Ok(Server { policy, policy_ref: Some(name) })
}

fn from_default_branch(repo: &Repository) -> Result<Server, HookError> {
    let head = match repo.head() {
        Ok(head) => head,
        Err(e) if matches!(e.code(), git2::ErrorCode::UnbornBranch | git2::ErrorCode::NotFound) => {
            let mut policy = Policy::none();
            policy.policy_change = PolicyChange::Allow;
            return Ok(Server { policy, policy_ref: None });
        }
        Err(e) => return Err(HookError::git("read HEAD")(e)),
    };
    let name = head.name().ok().map(str::to_owned);
    let tree = head.peel_to_tree().map_err(HookError::git("read HEAD's tree"))?;
    let mut policy = ref_policy(repo, &tree, name.as_deref().unwrap_or("HEAD"))?;
    // No server file: no policy yet means nothing to protect (the first push sets one up).
    policy.policy_change =
        if policy.source.is_some() { PolicyChange::Refuse } else { PolicyChange::Allow };
    Ok(Server { policy, policy_ref: name })
}

/// The policy in `tree`, named `<ref>:.patchgate.toml`.
fn ref_policy(repo: &Repository, tree: &git2::Tree<'_>, name: &str) -> Result<Policy, HookError> {
    let shown = PathBuf::from(format!("{name}:{FILE_NAME}"));
    let config = Config::from_tree(repo, tree, &shown)?;
    let source = config.source.as_ref().map(|_| shown.display().to_string());
    Policy::from_config(&config, source)
}

/// The policy `ci` judges a range under: `.patchgate.toml` in the base commit's tree, with
/// `policy_change` from its `[server]` table (default `refuse` when there is a policy).
pub fn range_policy(
    repo: &Repository,
    base: &git2::Commit<'_>,
    shown: &str,
) -> Result<Policy, HookError> {
    let tree = base.tree().map_err(HookError::git("read the base commit's tree"))?;
    let path = PathBuf::from(format!("{shown}:{FILE_NAME}"));
    let config = Config::from_tree(repo, &tree, &path)?;
    let table: ServerTable = config.section("server")?;
    let source = config.source.as_ref().map(|_| path.display().to_string());
    let mut policy = Policy::from_config(&config, source)?;
    policy.policy_change = match (table.policy_change, &policy.source) {
        (Some(mode), _) => mode,
        (None, Some(_)) => PolicyChange::Refuse,
        (None, None) => PolicyChange::Allow,
    };
    Ok(policy)
}

/// A ref update the server refuses whatever its commits are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefRefusal {
    /// The ref.
    pub refname: String,
    /// Why, in one line.
    pub message: String,
}

/// Updates of the policy ref that change its policy other than by the new commits, which are
/// each checked: a deletion, or a move to a commit that does not descend from the old one.
pub fn check_policy_ref(
    repo: &Repository,
    server: &Server,
    updates: &[RefUpdate],
) -> Result<Vec<RefRefusal>, HookError> {
    let Some(name) = &server.policy_ref else { return Ok(Vec::new()) };
    let mut out = Vec::new();
    for update in updates.iter().filter(|u| &u.name == name) {
        let Some(old) = update.old else { continue };
        let is_forward = match update.new {
            Some(new) => repo.graph_descendant_of(new, old).unwrap_or(false) || new == old,
            None => false,
        };
        if is_forward || server.policy.policy_change == PolicyChange::Allow {
            continue;
        }
        if !policy_differs(repo, Some(old), update.new)? {
            continue;
        }
        let what = if update.new.is_none() { "deletes" } else { "rewinds" };
        out.push(RefRefusal {
            refname: name.clone(),
            message: format!(
                "{what} {name}, the ref the server's policy is read from, to another policy \
                 ({FILE_NAME} differs); change the policy with a new commit the server allows"
            ),
        });
    }
    Ok(out)
}

/// Whether the commits (or their absence) `a` and `b` hold different `.patchgate.toml` blobs.
pub(super) fn policy_differs(
    repo: &Repository,
    a: Option<Oid>,
    b: Option<Oid>,
) -> Result<bool, HookError> {
    Ok(policy_blob(repo, a)? != policy_blob(repo, b)?)
}

/// The id and mode of `.patchgate.toml` in the commit `id` (peeled), `None` when absent.
fn policy_blob(repo: &Repository, id: Option<Oid>) -> Result<Option<(Oid, i32)>, HookError> {
    let Some(id) = id else { return Ok(None) };
    let object = repo.find_object(id, None).map_err(HookError::git("read a ref's value"))?;
    let Ok(tree) = object.peel_to_tree() else { return Ok(None) };
    Ok(tree.get_name(FILE_NAME).map(|e| (e.id(), e.filemode())))
}
