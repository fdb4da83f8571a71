//! What one batch worker keeps between results: each repository opened once, and each base
//! tree resolved and its policy read once per `(repository, revision)`, the directories and
//! file list it read shared by every result judged against it. A few of each are kept, the
//! least recently used dropped first, so memory stays bounded whatever the input holds.

use super::LineError;
use crate::config::Config;
use crate::finding::ErrorCode;
use crate::scratch::{BaseTree, ScratchError};
use git2::Repository;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// Repositories one worker keeps open.
const REPOSITORIES: usize = 4;
/// Base trees, and policies, kept per repository.
const BASES: usize = 4;

/// A repository and where it was asked for.
struct Owner {
    dir: PathBuf,
    repo: Repository,
}

/// What was read at each revision of one repository, the most recently used last: the base
/// trees, and the policies their `.patchgate.toml` holds.
#[derive(Default)]
struct Bases<'r> {
    trees: RefCell<Vec<BaseTree<'r>>>,
    policies: RefCell<Vec<(String, Rc<Config>)>>,
}

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
    bases: &'s Bases<'r>,
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
        let mut trees = self.bases.trees.borrow_mut();
        if let Some(at) = trees.iter().position(|b| b.rev == rev) {
            let base = trees.remove(at);
            trees.push(base.clone());
            return Ok(base);
        }
        let base = BaseTree::resolve(self.repo, rev)?;
        keep(&mut trees, base.clone());
        Ok(base)
    }

    /// The policy in force at `rev`, read by `read` on first use and shared after. A policy
    /// that cannot be read is not kept: it is read again, and refused again.
    pub fn policy<E>(
        &self,
        rev: &str,
        read: impl FnOnce() -> Result<Config, E>,
    ) -> Result<Rc<Config>, E> {
        let mut policies = self.bases.policies.borrow_mut();
        if let Some(at) = policies.iter().position(|(r, _)| r == rev) {
            let kept = policies.remove(at);
            let config = Rc::clone(&kept.1);
            policies.push(kept);
            return Ok(config);
        }
        let config = Rc::new(read()?);
        keep(&mut policies, (rev.to_owned(), Rc::clone(&config)));
        Ok(config)
    }
}

/// Keep `item` as the most recently used, dropping the least recently used past [`BASES`].
fn keep<T>(kept: &mut Vec<T>, item: T) {
    if kept.len() == BASES {
        kept.remove(0);
    }
    kept.push(item);
}

impl Session {
    /// A session with nothing open.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Run `judge` with the repository at or above `dir`, opened on first use. A repository
    /// that cannot be opened is the line's error.
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
        opened.with_dependent(|owner, bases| judge(Open { repo: &owner.repo, bases }))
    }

    /// Open `dir`'s repository; its index in `opened`.
    fn open(&mut self, dir: &Path) -> Result<usize, LineError> {
        let repo = crate::repo::discover(Some(dir))
            .map_err(|e| LineError::new(ErrorCode::Repository, e.to_string()))?;
        if self.opened.len() == REPOSITORIES {
            self.opened.remove(0);
        }
        let owner = Owner { dir: dir.to_owned(), repo };
        self.opened.push(Opened::new(owner, |_| Bases::default()));
        Ok(self.opened.len() - 1)
    }
}
