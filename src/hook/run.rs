//! The pre-commit / pre-applypatch run: the staged policy, the active declaration and the
//! staged changes, judged. The CLI only opens the repository and renders what this returns.

use super::staged::{merge_own_changes, read_index, staged_changes_exact, staged_changes_of};
use super::{HookError, HookName, HookPolicy, Policy, Violation, evaluate, head_config};
use crate::config::{Config, FILE_NAME};
use crate::declare::Store;
use git2::Repository;

/// What a pre-commit run judged.
#[derive(Debug)]
pub struct StagedRun {
    /// The policy in force: `HEAD`'s.
    pub policy: Policy,
    /// The active declaration's patterns; `None` when nothing is declared.
    pub declaration: Option<Vec<String>>,
    /// How many changed paths (renames and copies count once) the commit records.
    pub changes: usize,
    /// What blocks the commit; empty allows it.
    pub violations: Vec<Violation>,
}

/// Judge the staged changes of `repo` against `HEAD`'s policy and the active declaration.
/// `from_env`: the repository was opened from the hook environment (see
/// [`super::staged::staged_changes`]). Renames with edits are described as renames when the commit is blocked.
pub fn run_staged(repo: &Repository, from_env: bool) -> Result<StagedRun, HookError> {
    crate::repo::workdir(repo)?;
    // Objects are read as git reads them, without re-hashing each tree (as validate does).
    git2::opts::strict_hash_verification(false);
    let index = read_index(repo, from_env);
    // Never the policy the commit itself writes (see `head_config`).
    let config = head_config(repo)?;
    let source = config.source.as_ref().map(|_| format!("HEAD:{FILE_NAME}"));
    let policy = Policy::from_config(&config, source)?;
    let declaration = Store::new(repo.path()).load()?;
    let declared = declaration.as_ref().map(|d| d.path_set(&policy.limits)).transpose()?;
    let staged = staged_changes_of(repo, index.as_ref())?;
    let mut changes = merge_own_changes(repo, staged.changes)?;
    let mut violations = evaluate(&changes, declared.as_ref(), &policy);
    if !violations.is_empty() && !staged.is_rename_settled {
        // Blocking: describe renames with edits as renames, not as a deletion and an addition.
        // The full diff reads the index's entries, the fast reader what git commits (a valid
        // cache tree as it is); where the full diff sees nothing wrong, the block stands.
        let exact = merge_own_changes(repo, staged_changes_exact(repo)?)?;
        let described = evaluate(&exact, declared.as_ref(), &policy);
        if !described.is_empty() {
            (changes, violations) = (exact, described);
        }
    }
    let declaration = declaration.map(|d| d.patterns().into_iter().map(str::to_owned).collect());
    Ok(StagedRun { policy, declaration, changes: changes.len(), violations })
}

/// The hooks `hook install` installs when none are named: `[hook] hooks` of the worktree's
/// `.patchgate.toml`; a bare repository (a server) gets pre-receive.
pub fn configured_hooks(repo: &Repository) -> Result<Vec<HookName>, HookError> {
    let Some(root) = repo.workdir() else { return Ok(vec![HookName::PreReceive]) };
    Ok(Config::load(root)?.section::<HookPolicy>("hook")?.hooks)
}
