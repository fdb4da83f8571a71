//! The declaration file: `<gitdir>/patchgate/declaration.json`, one per worktree.
//!
//! Writers take `declaration.json.lock` with create-exclusive (git's own locking scheme), write
//! the new content into it, fsync, and rename it over the file, so a reader sees the old or the
//! new declaration, never a torn one, and concurrent `declare` calls merge instead of losing
//! each other's patterns.

use super::Declaration;
use std::fs::{File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How long a writer waits for another writer's lock before giving up.
const LOCK_WAIT: Duration = Duration::from_secs(10);

/// Where one worktree's declaration lives.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
}

/// The declaration could not be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// An I/O error on `path`.
    #[error("cannot {action} '{}': {source}; check the permissions of the git directory", path.display())]
    Io {
        /// What was being done (`read`, `write`, ...).
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file exists but is not a declaration.
    #[error("'{}' is not a valid declaration ({message}); run 'patchgate declare --clear' to reset it", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The JSON reader's explanation.
        message: String,
    },
    /// Another writer held the lock for too long.
    #[error("'{}' is locked by another patchgate declare; if none is running, remove that file", path.display())]
    Locked {
        /// The lock file.
        path: PathBuf,
    },
}

impl Store {
    /// The store of the repository whose (per-worktree) git directory is `git_dir`.
    #[must_use]
    pub fn new(git_dir: &Path) -> Self {
        Self { dir: git_dir.join("patchgate") }
    }

    /// The declaration file.
    #[must_use]
    pub fn path(&self) -> PathBuf {
        self.dir.join("declaration.json")
    }

    fn lock_path(&self) -> PathBuf {
        self.dir.join("declaration.json.lock")
    }

    /// The active declaration, `None` when there is none (no file, or an empty one).
    pub fn load(&self) -> Result<Option<Declaration>, StoreError> {
        let path = self.path();
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
            Err(source) => return Err(StoreError::Io { action: "read", path, source }),
        };
        let declaration = Declaration::from_json(&bytes)
            .map_err(|message| StoreError::Invalid { path, message })?;
        Ok((!declaration.is_empty()).then_some(declaration))
    }

    /// Read, change and write the declaration under the lock; returns what was written.
    pub fn update<F>(&self, change: F) -> Result<Declaration, StoreError>
    where
        F: FnOnce(&mut Declaration),
    {
        std::fs::create_dir_all(&self.dir).map_err(io_error("create", &self.dir))?;
        let lock = self.lock_path();
        let mut file = Self::acquire(&lock)?;
        let result = self.write_locked(&mut file, change);
        if result.is_err() {
            let _ = std::fs::remove_file(&lock);
        }
        result
    }

    fn write_locked<F>(&self, file: &mut File, change: F) -> Result<Declaration, StoreError>
    where
        F: FnOnce(&mut Declaration),
    {
        let lock = self.lock_path();
        let mut declaration = self.load()?.unwrap_or_default();
        declaration.version = Declaration::VERSION;
        change(&mut declaration);
        let mut text = serde_json::to_vec_pretty(&declaration).expect("declaration serializes");
        text.push(b'\n');
        file.write_all(&text).map_err(io_error("write", &lock))?;
        file.sync_all().map_err(io_error("sync", &lock))?;
        std::fs::rename(&lock, self.path()).map_err(io_error("replace", &self.path()))?;
        // Make the rename itself durable.
        if let Ok(dir) = File::open(&self.dir) {
            let _ = dir.sync_all();
        }
        Ok(declaration)
    }

    fn acquire(lock: &Path) -> Result<File, StoreError> {
        let started = Instant::now();
        let mut pause = Duration::from_millis(2);
        loop {
            match OpenOptions::new().write(true).create_new(true).open(lock) {
                Ok(file) => return Ok(file),
                Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                    if started.elapsed() > LOCK_WAIT {
                        return Err(StoreError::Locked { path: lock.to_owned() });
                    }
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(50));
                }
                Err(source) => {
                    return Err(StoreError::Io { action: "lock", path: lock.to_owned(), source });
                }
            }
        }
    }

    /// Remove the declaration. Returns whether there was one.
    pub fn clear(&self) -> Result<bool, StoreError> {
        let had = self.load().ok().flatten().is_some();
        self.update(|d| d.entries.clear())?;
        Ok(had)
    }
}

/// Map an I/O error on `path` during `action`.
fn io_error(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> StoreError {
    let path = path.to_owned();
    move |source| StoreError::Io { action, path, source }
}
