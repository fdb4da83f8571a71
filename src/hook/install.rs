//! `patchgate hook install / uninstall / status`: the shims in the hooks directory git really
//! uses.
//!
//! The directory is `core.hooksPath` when set (relative to the worktree root, or to the git
//! directory in a bare repository), else `<common-dir>/hooks`, which every worktree shares. A
//! hook already there is renamed to `<hook>.patchgate-chained` (bytes, mode and symlink-ness
//! kept) and run by the shim first; uninstall renames it back. A repo managed by husky,
//! lefthook or the pre-commit framework gets instructions ([`super::managers`]) instead of a
//! shim those tools would bypass or overwrite, unless the caller forces the install.
//!
//! A hooks directory with tracked files (a committed `core.hooksPath`) is shared through git:
//! its shims run the `patchgate` on `PATH` instead of an absolute path of this machine, and the
//! outcome warns that tracked files changed. A checkout can undo half of an install (put the
//! tracked original back over the shim, or remove the shim); status, install and uninstall
//! recognise the kept copy left beside it and never leave it orphaned.

use super::managers::{self, Advice};
use super::{HookError, HookName};
use git2::Repository;
use std::path::{Path, PathBuf};

pub use super::managers::Manager;

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
    /// Whether git tracks files in the directory (a committed `core.hooksPath`): the shims
    /// are then changes to tracked files, shared with everyone who checks them out.
    pub is_tracked: bool,
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
    /// The binary the shim runs (recorded at install), for our shims; `None` for a shim that
    /// runs the `patchgate` on `PATH` (written into a tracked directory).
    pub binary: Option<String>,
    /// Whether that binary exists (for a `PATH` shim: whether `PATH` has one).
    pub is_binary_present: bool,
    /// What is wrong with the kept copy, when a checkout or a person undid half an install.
    pub orphan: Option<Orphan>,
}

/// A kept original hook left beside a hook that is not patchgate's shim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Orphan {
    /// The shim is gone (removed by hand or by a checkout): uninstall puts the original back.
    ShimGone,
    /// A checkout put the original back over the shim: the kept copy is the same bytes and
    /// mode, so uninstall removes it.
    Duplicate,
    /// The hook and the kept copy differ: only a person can tell which to keep.
    Conflict,
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
    /// Install: `installed`, `updated`. Uninstall: `removed` (no hook was there before),
    /// `restored` (the original put back), `orphan_restored` (the shim was already gone; the
    /// kept original put back), `orphan_removed` (a checkout had put the original back; the
    /// identical kept copy removed), `orphan_kept` (hook and kept copy differ; both left),
    /// `not_installed`.
    pub action: &'static str,
    /// The chained original hook: kept aside (install) or put back (uninstall).
    pub chained: Option<PathBuf>,
}

/// The outcome of `hook install`.
#[derive(Clone, Debug)]
pub enum InstallOutcome {
    /// Shims written.
    Done(HooksDir, Vec<Action>),
    /// A hook manager is in charge; nothing was written. What to add to its configuration.
    Managed(HooksDir, Vec<Advice>),
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
    let is_tracked = is_tracked_dir(repo, &path)?;
    Ok(HooksDir { path, hooks_path, is_tracked })
}

/// Whether the index holds a file below `dir` (which must lie inside the worktree).
fn is_tracked_dir(repo: &Repository, dir: &Path) -> Result<bool, HookError> {
    let Some(root) = repo.workdir() else { return Ok(false) };
    let normal = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_owned());
    let Ok(rel) = normal(dir).strip_prefix(normal(root)).map(Path::to_owned) else {
        return Ok(false);
    };
    let mut prefix = rel.to_string_lossy().into_owned().into_bytes();
    if !prefix.is_empty() {
        prefix.push(b'/');
    }
    let index = repo.index().map_err(HookError::git("read the index"))?;
    Ok(index.iter().any(|entry| entry.path.starts_with(&prefix)))
}

/// The hook managers present in `repo`'s worktree.
#[must_use]
pub fn detect_managers(repo: &Repository, dir: &HooksDir) -> Vec<Manager> {
    repo.workdir().map(|root| managers::detect(root, dir.hooks_path.as_deref())).unwrap_or_default()
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
            Some(Runs::Recorded(binary)) => (StateKind::Patchgate, Some(binary)),
            Some(Runs::OnPath) => (StateKind::Patchgate, None),
            None => (StateKind::Other, None),
        },
    };
    let is_binary_present = match (&binary, kind) {
        (Some(b), _) => Path::new(b).is_file(),
        (None, StateKind::Patchgate) => on_path("patchgate"),
        (None, _) => false,
    };
    let orphan = chained.as_deref().and_then(|kept| orphan(&path, kind, kept));
    HookState { hook, path, kind, chained, binary, is_binary_present, orphan }
}

/// What is wrong with the kept copy `kept` beside a hook of `kind` at `path`.
fn orphan(path: &Path, kind: StateKind, kept: &Path) -> Option<Orphan> {
    match kind {
        StateKind::Patchgate => None,
        StateKind::Absent => Some(Orphan::ShimGone),
        StateKind::Other if same_file_content(path, kept) => Some(Orphan::Duplicate),
        StateKind::Other => Some(Orphan::Conflict),
    }
}

/// Same bytes and mode (or the same link target), as a checkout of the original would give.
fn same_file_content(a: &Path, b: &Path) -> bool {
    let (Ok(ma), Ok(mb)) = (std::fs::symlink_metadata(a), std::fs::symlink_metadata(b)) else {
        return false;
    };
    if ma.file_type().is_symlink() || mb.file_type().is_symlink() {
        return ma.file_type() == mb.file_type()
            && std::fs::read_link(a).ok() == std::fs::read_link(b).ok();
    }
    is_same_mode(&ma, &mb)
        && std::fs::read(a).ok().is_some_and(|x| std::fs::read(b).ok() == Some(x))
}

#[cfg(unix)]
fn is_same_mode(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::PermissionsExt;
    a.permissions().mode() & 0o111 == b.permissions().mode() & 0o111
}

#[cfg(not(unix))]
fn is_same_mode(_a: &std::fs::Metadata, _b: &std::fs::Metadata) -> bool {
    true
}

/// Whether `PATH` holds a file named `name`.
fn on_path(name: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(name).is_file()))
}

/// What one of our shims runs.
enum Runs {
    /// The binary recorded at install.
    Recorded(String),
    /// The `patchgate` on `PATH` (a shim in a tracked directory records none).
    OnPath,
}

/// What our shim at `path` runs; `None` when the file is not our shim.
fn shim_binary(path: &Path) -> Option<Runs> {
    let text = std::fs::read_to_string(path).ok()?;
    if !text.lines().nth(1).is_some_and(|l| l.starts_with(MARKER)) {
        return None;
    }
    let line = text.lines().find_map(|l| l.strip_prefix("recorded="))?;
    let recorded = shell_words::split(line).ok()?.into_iter().next();
    Some(recorded.filter(|b| !b.is_empty()).map_or(Runs::OnPath, Runs::Recorded))
}

fn chained_path(hook: &Path) -> PathBuf {
    let mut name = hook.as_os_str().to_owned();
    name.push(CHAINED_SUFFIX);
    PathBuf::from(name)
}

/// The shim for `hook`, running `binary` (`None`: the `patchgate` on `PATH`).
#[must_use]
pub fn render_shim(hook: HookName, binary: Option<&Path>) -> String {
    let recorded = binary.map(|b| shell_words::quote(&b.to_string_lossy()).into_owned());
    SHIM_TEMPLATE
        .replace("@HOOK@", hook.as_str())
        .replace("@PATCHGATE@", &recorded.unwrap_or_default())
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
        let root = repo.workdir().expect("managers are found in a worktree");
        return Ok(InstallOutcome::Managed(dir, managers::advise(root, &managers, hooks)));
    }
    let states: Vec<HookState> = hooks.iter().map(|&h| state(&dir, h)).collect();
    for s in &states {
        refuse_conflict(s)?;
    }
    std::fs::create_dir_all(&dir.path).map_err(install_error("create", &dir.path))?;
    // A shared (tracked) directory gets shims that find patchgate on PATH: an absolute path
    // of this machine would be wrong on every other.
    let binary = (!dir.is_tracked).then_some(binary);
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

/// A foreign hook next to a different kept one is ambiguous: refuse. (A kept copy with no
/// shim is still the original, and one identical to the hook is a checkout's duplicate: both
/// are resolved by installing.)
fn refuse_conflict(s: &HookState) -> Result<(), HookError> {
    match (&s.orphan, &s.chained) {
        (Some(Orphan::Conflict), Some(kept)) => Err(HookError::Install {
            message: format!(
                "'{}' already exists and differs from '{}', which is not patchgate's shim; \
                 keep one of them (move the other away), then run 'patchgate hook install' again",
                kept.display(),
                s.path.display()
            ),
        }),
        _ => Ok(()),
    }
}

fn install_one(s: &HookState, binary: Option<&Path>) -> Result<Action, HookError> {
    let chained = chained_path(&s.path);
    let action = match (s.kind, s.orphan) {
        (StateKind::Patchgate, _) => "updated",
        // The original is back over the shim and also kept: keep one copy, as a fresh install.
        (StateKind::Other, Some(Orphan::Duplicate)) => {
            std::fs::remove_file(&chained).map_err(install_error("remove", &chained))?;
            std::fs::rename(&s.path, &chained).map_err(install_error("keep", &s.path))?;
            "installed"
        }
        (StateKind::Other, _) => {
            std::fs::rename(&s.path, &chained).map_err(install_error("keep", &s.path))?;
            "installed"
        }
        (StateKind::Absent, _) => "installed",
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
        let action = uninstall_one(&s)?;
        let chained =
            if action == "not_installed" || action == "removed" { None } else { s.chained.clone() };
        actions.push(Action { hook, path: s.path, action, chained });
    }
    Ok((dir, actions))
}

/// Undo whatever part of an install is left for one hook; see [`Action::action`].
fn uninstall_one(s: &HookState) -> Result<&'static str, HookError> {
    Ok(match (s.kind, s.orphan, &s.chained) {
        (StateKind::Patchgate, _, Some(_)) => {
            restore(s)?;
            "restored"
        }
        (StateKind::Patchgate, _, None) => {
            restore(s)?;
            "removed"
        }
        (_, Some(Orphan::ShimGone), _) => {
            restore(s)?;
            "orphan_restored"
        }
        (_, Some(Orphan::Duplicate), Some(kept)) => {
            std::fs::remove_file(kept).map_err(install_error("remove", kept))?;
            "orphan_removed"
        }
        (_, Some(Orphan::Conflict), _) => "orphan_kept",
        _ => "not_installed",
    })
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
