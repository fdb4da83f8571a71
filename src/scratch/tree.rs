//! Temporary trees: a checkout of the base plus the patched files, in
//! `$TMPDIR/patchgate-scratch-<pid>-<random>`, removed on drop (and so on every return and
//! unwind); one left by a killed run is removed by a later run once no process holds its lock.
//!
//! The tree lives outside the repository and its git directory on purpose: `--check-cmd` runs
//! the agent's code there, and code run inside `<git-dir>/patchgate/scratch/` could write
//! `../../../apply-journal.json` or `../../../../hooks/pre-commit` by a relative path.

use super::base::{BaseTree, mode};
use super::{FileChange, ScratchError};
use git2::{ObjectType, TreeWalkMode, TreeWalkResult};
use std::fs;
use std::path::{Path, PathBuf};

/// The prefix of every temporary tree's directory name.
const PREFIX: &str = "patchgate-scratch-";
/// The lock file inside each one, held (`flock`) for as long as its run is alive.
const LOCK: &str = "lock";

/// The directory holding the temporary trees: the system's temporary directory (`TMPDIR`).
#[must_use]
pub fn scratch_root() -> PathBuf {
    std::env::temp_dir()
}

/// A temporary directory under [`scratch_root`], removed when dropped.
#[derive(Debug)]
pub struct ScratchDir {
    dir: tempfile::TempDir,
    /// The lock that marks the directory live (released when the process ends, however).
    _lock: fs::File,
}

impl ScratchDir {
    /// Create a fresh one (and clean stale ones first).
    pub fn create() -> Result<Self, ScratchError> {
        let root = scratch_root();
        clean_stale(&root);
        let dir = tempfile::Builder::new()
            .prefix(&format!("{PREFIX}{}-", std::process::id()))
            .tempdir_in(&root)
            .map_err(|e| ScratchError::io("create a scratch directory in", &root, e))?;
        let lock_path = dir.path().join(LOCK);
        let lock = fs::File::create_new(&lock_path)
            .map_err(|e| ScratchError::io("create", &lock_path, e))?;
        rustix::fs::flock(&lock, rustix::fs::FlockOperation::NonBlockingLockExclusive)
            .map_err(|e| ScratchError::io("lock", &lock_path, e.into()))?;
        Ok(Self { dir, _lock: lock })
    }

    /// Its path.
    #[must_use]
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// Remove every temporary tree under `root` that belongs to this user and whose run is gone:
/// its lock can be taken (or, killed before it made the lock, its pid is gone). Best effort: a
/// directory that cannot be removed now is retried next run.
pub fn clean_stale(root: &Path) {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = fs::read_dir(root) else { return };
    let uid = rustix::process::getuid().as_raw();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(rest) = name.to_str().and_then(|n| n.strip_prefix(PREFIX)) else { continue };
        // Never follow a link, never touch another user's directory.
        let is_ours = entry.path().symlink_metadata().is_ok_and(|m| m.is_dir() && m.uid() == uid);
        if is_ours && is_stale(&entry.path(), rest) {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether the run that made `dir` (named `<pid>-<random>` after the prefix) is gone.
fn is_stale(dir: &Path, name: &str) -> bool {
    use std::os::unix::fs::OpenOptionsExt;
    let nofollow = rustix::fs::OFlags::NOFOLLOW.bits().cast_signed();
    match fs::OpenOptions::new().read(true).custom_flags(nofollow).open(dir.join(LOCK)) {
        Ok(lock) => {
            rustix::fs::flock(&lock, rustix::fs::FlockOperation::NonBlockingLockExclusive).is_ok()
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let pid = name.split('-').next().and_then(|p| p.parse::<u32>().ok());
            pid.is_some_and(|pid| !is_alive(pid))
        }
        Err(_) => false,
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
