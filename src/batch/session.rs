//! What one batch worker keeps between results: each repository opened once with its policy
//! read once, and each base tree resolved once per `(repository, revision)`, the directories
//! and file list it read shared by every result judged against it. A few of each are kept, the
//! least recently used dropped first, so memory stays bounded whatever the input holds.

use super::LineError;
use crate::config::Config;
use crate::scratch::{BaseTree, ScratchError};
use git2::Repository;
use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// Repositories one worker keeps open.
const REPOSITORIES: usize = 4;
/// Base trees kept per repository.
const BASES: usize = 4;

/// A repository and what was read of it.
struct Owner {
    dir: PathBuf,
    repo: Repository,
    /// The policy, or why it is refused (the same answer for every result).
    config: Result<Config, String>,
}

/// The base trees resolved in one repository, the most recently used last.
struct Bases<'r>(RefCell<Vec<BaseTree<'r>>>);

self_cell::self_cell!(
    /// An open repository owning the base trees that borrow it.
    struct Opened {
        owner: Owner,
        #[not_covariant]
        dependent: Bases,
    }
);

/// One worker's open repositories, the most recently used last.
#[derive(Default)]
pub struct Session {
    opened: Vec<Opened>,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let dirs: Vec<&Path> = self.opened.iter().map(|o| o.borrow_owner().dir.as_path()).collect();
        f.debug_struct("Session").field("repositories", &dirs).finish()
    }
}

/// A repository as a result is judged against it.
#[derive(Clone, Copy)]
pub struct Open<'s, 'r> {
    /// The repository.
    pub repo: &'r Repository,
    /// Its policy (`.patchgate.toml`).
    pub config: &'r Config,
    bases: &'s RefCell<Vec<BaseTree<'r>>>,
}

impl std::fmt::Debug for Open<'_, '_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Open").field("repo", &self.repo.path()).finish_non_exhaustive()
    }
}

impl<'r> Open<'_, 'r> {
    /// The base tree of `rev`, resolved on first use and shared after (a clone shares what was
    /// read). A revision that does not resolve is not kept: it is asked again, and fails again.
    pub fn base(&self, rev: &str) -> Result<BaseTree<'r>, ScratchError> {
        let mut bases = self.bases.borrow_mut();
        if let Some(at) = bases.iter().position(|b| b.rev == rev) {
            let base = bases.remove(at);
            bases.push(base.clone());
            return Ok(base);
        }
        let base = BaseTree::resolve(self.repo, rev)?;
        if bases.len() == BASES {
            bases.remove(0);
        }
        bases.push(base.clone());
        Ok(base)
    }
}

impl Session {
    /// A session with nothing open.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Run `judge` with the repository at or above `dir`, opened (and its policy read) on
    /// first use. A repository that cannot be opened, or whose policy is refused, is the
    /// line's error.
    pub fn with_repo<T>(
        &mut self,
        dir: &Path,
        judge: impl for<'s, 'r> FnOnce(Open<'s, 'r>) -> Result<T, LineError>,
    ) -> Result<T, LineError> {
        let at = match self.opened.iter().position(|o| o.borrow_owner().dir == dir) {
            Some(at) => at,
            None => self.open(dir)?,
        };
        let opened = self.opened.remove(at);
        self.opened.push(opened);
        let opened = self.opened.last().expect("just pushed");
        opened.with_dependent(|owner, bases| {
            let config = owner.config.as_ref().map_err(|message| {
                LineError::new("invalid_config", message.clone()).refusing_input()
            })?;
            judge(Open { repo: &owner.repo, config, bases: &bases.0 })
        })
    }

    /// Open `dir`'s repository and read its policy; its index in `opened`.
    fn open(&mut self, dir: &Path) -> Result<usize, LineError> {
        let repo = crate::repo::discover(Some(dir))
            .map_err(|e| LineError::new("repository", e.to_string()))?;
        let config = match repo.workdir() {
            Some(root) => Config::load(root).map_err(|e| e.to_string()),
            None => Ok(Config::default()),
        };
        if self.opened.len() == REPOSITORIES {
            self.opened.remove(0);
        }
        let owner = Owner { dir: dir.to_owned(), repo, config };
        self.opened.push(Opened::new(owner, |_| Bases(RefCell::new(Vec::new()))));
        Ok(self.opened.len() - 1)
    }
}
