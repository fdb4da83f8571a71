//! Temporary trees: a checkout of the base plus the patched files, under the git directory's
//! `patchgate/scratch/<pid>-<random>`, removed on drop (and so on every return and unwind);
//! one left by a killed run is removed by the next run, once its pid is gone.

use super::base::{BaseTree, mode};
use super::{FileChange, ScratchError};
use git2::{ObjectType, TreeWalkMode, TreeWalkResult};
use std::fs;
use std::path::{Path, PathBuf};

/// The directory holding every temporary tree of `repo`: `<git dir>/patchgate/scratch`.
#[must_use]
pub fn scratch_root(repo: &git2::Repository) -> PathBuf {
    repo.path().join("patchgate").join("scratch")
}

/// A temporary directory under [`scratch_root`], removed when dropped.
#[derive(Debug)]
pub struct ScratchDir {
    dir: tempfile::TempDir,
}

impl ScratchDir {
    /// Create a fresh one (and clean stale ones first).
    pub fn create(repo: &git2::Repository) -> Result<Self, ScratchError> {
        let root = scratch_root(repo);
        fs::create_dir_all(&root).map_err(|e| ScratchError::io("create", &root, e))?;
        clean_stale(&root);
        let dir = tempfile::Builder::new()
            .prefix(&format!("{}-", std::process::id()))
            .tempdir_in(&root)
            .map_err(|e| ScratchError::io("create a scratch directory in", &root, e))?;
        Ok(Self { dir })
    }

    /// Its path.
    #[must_use]
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// Remove every `<pid>-*` directory under `root` whose process is gone. Best effort: a
/// directory that cannot be removed now is retried next run.
pub fn clean_stale(root: &Path) {
    let Ok(entries) = fs::read_dir(root) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid =
            name.to_str().and_then(|n| n.split('-').next()).and_then(|p| p.parse::<u32>().ok());
        if pid.is_some_and(|pid| !is_alive(pid)) {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether a process with `pid` runs. Without `/proc` (not Linux) every pid counts as alive,
/// so nothing live is ever removed.
pub(super) fn is_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    let proc = Path::new("/proc");
    !proc.join("self").exists() || proc.join(pid.to_string()).exists()
}

/// Write the base tree and then the patched files into `dir`.
pub(super) fn materialize(
    base: &BaseTree<'_>,
    changes: &[FileChange],
    dir: &Path,
) -> Result<(), ScratchError> {
    checkout_base(base, dir)?;
    for change in changes {
        let target = dir.join(&change.path);
        remove_any(&target)?;
        if let (Some(mode), Some(content)) = (change.mode, &change.content) {
            write_entry(&target, mode, &content.read(base, &change.path)?)?;
        }
    }
    Ok(())
}

fn checkout_base(base: &BaseTree<'_>, dir: &Path) -> Result<(), ScratchError> {
    let mut failure = None;
    let walked = base.tree().walk(TreeWalkMode::PreOrder, |parent, entry| {
        use std::os::unix::ffi::OsStrExt;
        let name = std::ffi::OsStr::from_bytes(entry.name_bytes());
        let target = dir.join(parent).join(name);
        let mode = u32::try_from(entry.filemode()).unwrap_or(0);
        let written = match entry.kind() {
            Some(ObjectType::Tree) => {
                fs::create_dir_all(&target).map_err(|e| ScratchError::io("create", &target, e))
            }
            Some(ObjectType::Blob) => {
                base.blob(entry.id()).and_then(|b| write_entry(&target, mode, &b))
            }
            _ => fs::create_dir_all(&target).map_err(|e| ScratchError::io("create", &target, e)),
        };
        match written {
            Ok(()) => TreeWalkResult::Ok,
            Err(e) => {
                failure = Some(e);
                TreeWalkResult::Abort
            }
        }
    });
    if let Some(e) = failure {
        return Err(e);
    }
    walked.map_err(|e| ScratchError::git("check out the base tree", &e))
}

/// Write one file, executable or link as its mode says, creating parent directories.
pub(super) fn write_entry(target: &Path, mode: u32, bytes: &[u8]) -> Result<(), ScratchError> {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::PermissionsExt;
    if let Some(parent) = target.parent() {
        fs::create_dir_all(parent).map_err(|e| ScratchError::io("create", parent, e))?;
    }
    let result = match mode {
        mode::SYMLINK => std::os::unix::fs::symlink(std::ffi::OsStr::from_bytes(bytes), target),
        mode::GITLINK => fs::create_dir_all(target),
        _ => fs::write(target, bytes).and_then(|()| {
            let bits = if mode == mode::EXECUTABLE { 0o755 } else { 0o644 };
            fs::set_permissions(target, fs::Permissions::from_mode(bits))
        }),
    };
    result.map_err(|e| ScratchError::io("write", target, e))
}

fn remove_any(target: &Path) -> Result<(), ScratchError> {
    let result = match fs::symlink_metadata(target) {
        Ok(meta) if meta.is_dir() => fs::remove_dir_all(target),
        Ok(_) => fs::remove_file(target),
        Err(_) => Ok(()),
    };
    result.map_err(|e| ScratchError::io("remove", target, e))
}
