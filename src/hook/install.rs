//! `patchgate hook install / uninstall / status`: the shims in the hooks directory git really
//! uses.
//!
//! The directory is `core.hooksPath` when set (relative to the worktree root, or to the git
//! directory in a bare repository), else `<common-dir>/hooks`, which every worktree shares. A
//! hook already there is renamed to `<hook>.patchgate-chained` (bytes, mode and symlink-ness
//! kept) and run by the shim first; uninstall renames it back. A repo managed by husky,
//! lefthook or the pre-commit framework gets instructions instead of a shim those tools would
//! bypass or overwrite, unless the caller forces the install.

use super::{HookError, HookName};
use git2::Repository;
use std::path::{Path, PathBuf};

/// The shim template (`hooks/shim.sh`); `@HOOK@` and `@PATCHGATE@` are filled in.
pub const SHIM_TEMPLATE: &str = include_str!("../../hooks/shim.sh");
/// The line that marks a hook file as patchgate's shim.
pub const MARKER: &str = "# patchgate-shim v1:";
/// Suffix of the kept, chained original hook.
pub const CHAINED_SUFFIX: &str = ".patchgate-chained";

/// The hooks directory and how it was chosen.
#[derive(Clone, Debug)]
pub struct HooksDir {
    /// The directory.
    pub path: PathBuf,
    /// `core.hooksPath` as configured, when set.
    pub hooks_path: Option<String>,
}

/// A hook manager that owns the repository's hooks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Manager {
    /// husky (`core.hooksPath` under `.husky`, or a `.husky/` folder).
    Husky,
    /// lefthook, with its config file.
    Lefthook(PathBuf),
    /// The pre-commit framework (`.pre-commit-config.yaml`).
    PreCommit,
}

/// What one hook looks like on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HookState {
    /// Which hook.
    pub hook: HookName,
    /// Its file.
    pub path: PathBuf,
    /// `absent`, `patchgate` (our shim) or `other` (someone else's hook).
    pub kind: StateKind,
    /// The kept original hook, when there is one.
    pub chained: Option<PathBuf>,
    /// The binary the shim runs (recorded at install), for our shims.
    pub binary: Option<String>,
    /// Whether that binary exists.
    pub is_binary_present: bool,
}

/// See [`HookState::kind`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateKind {
    /// No hook file.
    Absent,
    /// patchgate's shim.
    Patchgate,
    /// Another hook.
    Other,
}

/// What install or uninstall did to one hook.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    /// Which hook.
    pub hook: HookName,
    /// Its file.
    pub path: PathBuf,
    /// `installed`, `updated`, `removed`, `not_installed`.
    pub action: &'static str,
    /// The chained original hook: kept aside (install) or put back (uninstall).
    pub chained: Option<PathBuf>,
}

/// The outcome of `hook install`.
#[derive(Clone, Debug)]
pub enum InstallOutcome {
    /// Shims written.
    Done(HooksDir, Vec<Action>),
    /// A hook manager is in charge; nothing was written.
    Managed(HooksDir, Vec<Manager>),
}

/// Resolve the hooks directory git uses for `repo`.
pub fn hooks_dir(repo: &Repository) -> Result<HooksDir, HookError> {
    let config = repo.config().map_err(HookError::git("read the git config"))?;
    let hooks_path = config.get_string("core.hooksPath").ok().filter(|s| !s.is_empty());
    let path = match &hooks_path {
        Some(raw) => {
            let expanded = config.get_path("core.hooksPath").unwrap_or_else(|_| raw.into());
            let base = repo.workdir().unwrap_or_else(|| repo.path());
            base.join(expanded)
        }
        None => repo.commondir().join("hooks"),
    };
    Ok(HooksDir { path, hooks_path })
}

/// The hook managers present in `repo`'s worktree.
#[must_use]
pub fn detect_managers(repo: &Repository, dir: &HooksDir) -> Vec<Manager> {
    let Some(root) = repo.workdir() else { return Vec::new() };
    let mut found = Vec::new();
    let husky_path = dir.hooks_path.as_deref().is_some_and(|p| p.contains(".husky"));
    if husky_path || root.join(".husky").is_dir() {
        found.push(Manager::Husky);
    }
    let lefthook = ["lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml"]
        .iter()
        .map(PathBuf::from)
        .chain([".config/lefthook.yml", ".config/lefthook.yaml"].map(PathBuf::from))
        .find(|name| root.join(name).is_file());
    if let Some(name) = lefthook {
        found.push(Manager::Lefthook(name));
    }
    if root.join(".pre-commit-config.yaml").is_file() {
        found.push(Manager::PreCommit);
    }
    found
}

/// The state of every hook patchgate knows.
#[must_use]
pub fn status(dir: &HooksDir) -> Vec<HookState> {
    HookName::ALL.iter().map(|&hook| state(dir, hook)).collect()
}

fn state(dir: &HooksDir, hook: HookName) -> HookState {
    let path = dir.path.join(hook.as_str());
    let chained = chained_path(&path);
    let chained = chained.symlink_metadata().is_ok().then_some(chained);
    let (kind, binary) = match std::fs::symlink_metadata(&path) {
        Err(_) => (StateKind::Absent, None),
        Ok(meta) if meta.file_type().is_symlink() => (StateKind::Other, None),
        Ok(_) => match shim_binary(&path) {
            Some(binary) => (StateKind::Patchgate, Some(binary)),
            None => (StateKind::Other, None),
        },
    };
    let is_binary_present = binary.as_deref().is_some_and(|b| Path::new(b).is_file());
    HookState { hook, path, kind, chained, binary, is_binary_present }
}

/// The binary recorded in our shim at `path`; `None` when the file is not our shim.
fn shim_binary(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    if !text.lines().nth(1).is_some_and(|l| l.starts_with(MARKER)) {
        return None;
    }
    let line = text.lines().find_map(|l| l.strip_prefix("recorded="))?;
    shell_words::split(line).ok()?.into_iter().next()
}

fn chained_path(hook: &Path) -> PathBuf {
    let mut name = hook.as_os_str().to_owned();
    name.push(CHAINED_SUFFIX);
    PathBuf::from(name)
}

/// The shim for `hook`, running `binary`.
#[must_use]
pub fn render_shim(hook: HookName, binary: &Path) -> String {
    SHIM_TEMPLATE
        .replace("@HOOK@", hook.as_str())
        .replace("@PATCHGATE@", &shell_words::quote(&binary.to_string_lossy()))
}

/// Install shims for `hooks`, running `binary`. `is_forced` installs despite a hook manager.
pub fn install(
    repo: &Repository,
    hooks: &[HookName],
    binary: &Path,
    is_forced: bool,
) -> Result<InstallOutcome, HookError> {
    let dir = hooks_dir(repo)?;
    let is_client = hooks.iter().any(|h| *h != HookName::PreReceive);
    let managers = if is_client { detect_managers(repo, &dir) } else { Vec::new() };
    if !managers.is_empty() && !is_forced {
        return Ok(InstallOutcome::Managed(dir, managers));
    }
    let states: Vec<HookState> = hooks.iter().map(|&h| state(&dir, h)).collect();
    for s in &states {
        refuse_conflict(s)?;
    }
    std::fs::create_dir_all(&dir.path).map_err(install_error("create", &dir.path))?;
    let mut done = Vec::new();
    for s in &states {
        match install_one(s, binary) {
            Ok(action) => done.push(action),
            Err(e) => {
                // All or nothing: put back what this run already changed.
                let _ = uninstall_actions(&dir, &done);
                return Err(e);
            }
        }
    }
    Ok(InstallOutcome::Done(dir, done))
}

/// A foreign hook next to an old kept one (or a kept one with no shim) is ambiguous: refuse.
fn refuse_conflict(s: &HookState) -> Result<(), HookError> {
    match (&s.kind, &s.chained) {
        (StateKind::Other | StateKind::Absent, Some(kept)) => Err(HookError::Install {
            message: format!(
                "'{}' already exists but '{}' is not patchgate's shim; move one of them away, \
                 then run 'patchgate hook install' again",
                kept.display(),
                s.path.display()
            ),
        }),
        _ => Ok(()),
    }
}

fn install_one(s: &HookState, binary: &Path) -> Result<Action, HookError> {
    let chained = chained_path(&s.path);
    let action = match s.kind {
        StateKind::Patchgate => "updated",
        StateKind::Other => {
            std::fs::rename(&s.path, &chained).map_err(install_error("keep", &s.path))?;
            "installed"
        }
        StateKind::Absent => "installed",
    };
    let written = write_shim(&s.path, &render_shim(s.hook, binary));
    if let Err(e) = written {
        if s.kind == StateKind::Other {
            let _ = std::fs::rename(&chained, &s.path);
        }
        return Err(e);
    }
    let kept = chained.symlink_metadata().is_ok().then_some(chained);
    Ok(Action { hook: s.hook, path: s.path.clone(), action, chained: kept })
}

/// Write `text` to `path` atomically with mode 0755.
fn write_shim(path: &Path, text: &str) -> Result<(), HookError> {
    use std::io::Write;
    let dir = path.parent().expect("a hook path has a parent");
    let mut tmp = tempfile::Builder::new()
        .prefix(".patchgate-shim")
        .tempfile_in(dir)
        .map_err(install_error("write into", dir))?;
    tmp.write_all(text.as_bytes()).map_err(install_error("write", path))?;
    set_executable(tmp.path())?;
    tmp.as_file().sync_all().map_err(install_error("sync", path))?;
    tmp.persist(path).map_err(|e| install_error("replace", path)(e.error))?;
    Ok(())
}

#[cfg(unix)]
fn set_executable(path: &Path) -> Result<(), HookError> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .map_err(install_error("make executable", path))
}

#[cfg(not(unix))]
fn set_executable(_path: &Path) -> Result<(), HookError> {
    Ok(())
}

/// Remove our shims for `hooks` and put back the hooks they chained.
pub fn uninstall(
    repo: &Repository,
    hooks: &[HookName],
) -> Result<(HooksDir, Vec<Action>), HookError> {
    let dir = hooks_dir(repo)?;
    let mut actions = Vec::new();
    for &hook in hooks {
        let s = state(&dir, hook);
        let action = if s.kind == StateKind::Patchgate {
            restore(&s)?;
            "removed"
        } else {
            "not_installed"
        };
        let chained = if s.kind == StateKind::Patchgate { s.chained.clone() } else { None };
        actions.push(Action { hook, path: s.path, action, chained });
    }
    Ok((dir, actions))
}

fn restore(s: &HookState) -> Result<(), HookError> {
    match &s.chained {
        // rename over the shim: the original's bytes, mode and symlink-ness come back as they were.
        Some(kept) => std::fs::rename(kept, &s.path).map_err(install_error("restore", kept)),
        None => std::fs::remove_file(&s.path).map_err(install_error("remove", &s.path)),
    }
}

fn uninstall_actions(dir: &HooksDir, done: &[Action]) -> Result<(), HookError> {
    for action in done.iter().filter(|a| a.action == "installed") {
        restore(&state(dir, action.hook))?;
    }
    Ok(())
}

fn install_error(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> HookError {
    let path = path.to_owned();
    move |e| HookError::Install {
        message: format!(
            "cannot {action} '{}': {e}; check the permissions of the hooks directory",
            path.display()
        ),
    }
}
