//! `apply`'s write-ahead journal: before the first rename in the worktree, the whole plan (every
//! directory to make, every temporary file, every target and its backup, in the order they are
//! done) is written to `<git-dir>/patchgate/apply-journal.json` and made durable (`fsync` of the
//! file and its directory). A process killed in the middle (SIGKILL, power loss) leaves the
//! journal behind; the next `apply` refuses to start, and `apply --recover` reads it and puts the
//! worktree (and index) back, or, when the kill came after the new state was complete, finishes
//! the clean-up. Every name in the plan is random and fixed in advance, so recovery knows exactly
//! which entries are patchgate's and touches nothing else.
//!
//! The journal lives in the git directory, not the worktree: it is patchgate's state, written
//! with plain file operations there; the worktree is still only ever touched through
//! [`Worktree`](super::worktree::Worktree).
//!
//! Anything that can write the git directory can write a journal, so a journal is never obeyed
//! on its word ([`super::proof`]): it must name its run (`apply-run.<id>`, a file created before
//! the journal and locked while the run writes, whose birth time dates the run), and every step
//! must name patchgate's own temporary and backup names for that run (they carry its id) beside
//! paths inside the worktree.

use super::proof::{self, Run};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// One planned step in the worktree (repository-relative paths), in the order it is done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub(super) enum Step {
    /// A directory created for a new file.
    MakeDir { path: String },
    /// A new file written to a temporary name beside its target.
    WriteTemp { temp: String },
    /// The entry at `target` renamed to `backup`.
    MoveAside { target: String, backup: String },
    /// The temporary file renamed to `target`.
    Place { temp: String, target: String },
}

/// How far the write got, as last made durable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(super) enum Phase {
    /// Removals set aside, temporary files being written: no target replaced yet.
    Prepare,
    /// Every temporary file is written; targets are being replaced (a missing temporary file
    /// means its target was placed), then the index written.
    Commit,
    /// The new state is complete (worktree and index); backups are being dropped.
    Finish,
}

/// The journal's content.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Plan {
    /// The run's random id (32 hex digits): its run file is `apply-run.<run>`.
    pub run: String,
    pub phase: Phase,
    /// Whether the index is updated too; its previous content is kept beside the journal.
    pub with_index: bool,
    pub steps: Vec<Step>,
}

/// An open journal: present on disk until [`Journal::remove`].
#[derive(Debug)]
pub(super) struct Journal {
    dir: PathBuf,
    plan: Plan,
    run: Run,
}

/// Why the journal could not be read or written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JournalError {
    /// Another apply is running, or one was interrupted.
    #[error(
        "an interrupted or running apply left '{}'; run `patchgate apply --recover` to put \
         the worktree back (nothing was changed by this run)",
        path.display()
    )]
    Pending {
        /// The journal file.
        path: PathBuf,
    },
    /// The journal was not written by patchgate for an apply (or cannot be shown to be): it is
    /// not obeyed.
    #[error(
        "'{}' was not written by patchgate for an apply: {reason}; nothing was changed; if no \
         apply was interrupted, remove it",
        path.display()
    )]
    Refused {
        /// The journal file.
        path: PathBuf,
        /// What gives it away.
        reason: String,
    },
    /// The run that wrote the journal is still writing.
    #[error(
        "an apply is still writing the worktree (it holds '{}'); wait for it to finish",
        path.display()
    )]
    Running {
        /// The run file.
        path: PathBuf,
    },
    /// The journal could not be read, parsed or written.
    #[error("cannot {action} '{}': {source}", path.display())]
    Io {
        /// What was being done.
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: io::Error,
    },
}

const FILE: &str = "apply-journal.json";
const INDEX_COPY: &str = "apply-index.before";
/// Where recovery keeps the index it replaced with [`INDEX_COPY`].
const REPLACED_INDEX: &str = "apply-index.replaced";
/// The suffix of [`publish`]'s temporary names: `apply-journal.json.<pid>-<16 hex>.new`.
const NEW: &str = ".new";

/// The directory holding the journal: `<git-dir>/patchgate`.
pub(super) fn dir(git_dir: &Path) -> PathBuf {
    git_dir.join("patchgate")
}

/// The journal file, if one is present.
pub(super) fn pending(git_dir: &Path) -> Option<PathBuf> {
    let path = dir(git_dir).join(FILE);
    path.symlink_metadata().is_ok().then_some(path)
}

fn io_err(action: &'static str, path: &Path) -> impl FnOnce(io::Error) -> JournalError {
    let path = path.to_owned();
    move |source| JournalError::Io { action, path, source }
}

/// `bytes` written to a new `path` (exclusive unless `replace`) and made durable. On error the
/// file is removed, so a full disk leaves nothing behind.
fn write_durable(path: &Path, bytes: &[u8], exclusive: bool) -> Result<(), JournalError> {
    let mut options = OpenOptions::new();
    options.write(true);
    if exclusive {
        options.create_new(true);
    } else {
        options.create(true).truncate(true);
    }
    let file = options.open(path).map_err(|e| match e.kind() {
        io::ErrorKind::AlreadyExists => JournalError::Pending { path: path.to_owned() },
        _ => io_err("create", path)(e),
    })?;
    let written = (&file).write_all(bytes).and_then(|()| file.sync_all());
    written.map_err(|e| {
        let _ = fs::remove_file(path);
        io_err("write", path)(e)
    })
}

/// Make `bytes` the journal at `path` in one step: written whole to a name of this process
/// first, then hard-linked into place, which fails if a journal is already there. A kill can
/// leave a stray temporary file (removed by [`clean_strays`]), never a journal that is empty
/// or half written.
fn publish(dir: &Path, path: &Path, bytes: &[u8]) -> Result<(), JournalError> {
    let temp = dir.join(format!("{FILE}.{}-{:016x}{NEW}", std::process::id(), fastrand::u64(..)));
    write_durable(&temp, bytes, true)?;
    let linked = fs::hard_link(&temp, path);
    let _ = fs::remove_file(&temp);
    linked.map_err(|e| match e.kind() {
        io::ErrorKind::AlreadyExists => JournalError::Pending { path: path.to_owned() },
        _ => io_err("create", path)(e),
    })
}

/// Remove the temporary journals ([`publish`]) that processes killed between writing and
/// linking them left in `<git-dir>/patchgate`, and the run files of runs killed before their
/// journal was published. Only names of exactly those shapes are removed, and only when their
/// process is gone (a temporary journal) or nothing holds them and no journal is there (a run
/// file): a live apply's are about to become its journal. Best effort: one that cannot be
/// removed now is tried again by the next run.
pub(super) fn clean_strays(git_dir: &Path) {
    let dir = dir(git_dir);
    let Ok(entries) = fs::read_dir(&dir) else { return };
    let has_journal = dir.join(FILE).symlink_metadata().is_ok();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let is_stray = match stray_pid(name) {
            Some(pid) => !super::tree::is_alive(pid),
            None => !has_journal && proof::is_stale_run(&dir, name),
        };
        if is_stray {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// The pid in a [`publish`] temporary name, `None` for any other name.
fn stray_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(FILE)?.strip_prefix('.')?.strip_suffix(NEW)?;
    let (pid, random) = rest.split_once('-')?;
    let is_random = random.len() == 16 && random.bytes().all(|b| b.is_ascii_hexdigit());
    let is_pid = !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit());
    if is_random && is_pid { pid.parse().ok() } else { None }
}

fn sync_dir(dir: &Path) -> Result<(), JournalError> {
    File::open(dir).and_then(|d| d.sync_all()).map_err(io_err("sync", dir))
}

impl Journal {
    /// Write `plan` durably before anything in the worktree moves, under the new run
    /// `plan.run` (a [`proof::new_run_id`], which its names carry); with `plan.with_index`,
    /// keep a durable copy of the index first. Refuses when a journal is already there.
    pub fn begin(git_dir: &Path, plan: Plan) -> Result<Self, JournalError> {
        let dir = dir(git_dir);
        fs::create_dir_all(&dir).map_err(io_err("create", &dir))?;
        let path = dir.join(FILE);
        if path.symlink_metadata().is_ok() {
            return Err(JournalError::Pending { path });
        }
        debug_assert!(proof::is_run_id(&plan.run), "a run id from proof::new_run_id");
        // The run file is durable before the journal names it.
        let run = Run::create(&dir, &plan.run).map_err(|(path, source)| JournalError::Io {
            action: "create",
            path,
            source,
        })?;
        sync_dir(&dir).inspect_err(|_| run.remove())?;
        let journal = Self { dir, plan, run };
        // The index copy is whole before the journal names it: a kill in between leaves a
        // stray copy, never a journal pointing at half an index.
        if journal.plan.with_index {
            journal.keep_index(git_dir).inspect_err(|_| journal.run.remove())?;
        }
        let bytes = serde_json::to_vec(&journal.plan).expect("a plan always serializes");
        // A journal that cannot be written (a full disk) leaves no index copy or run file.
        publish(&journal.dir, &path, &bytes).inspect_err(|_| {
            let _ = fs::remove_file(journal.dir.join(INDEX_COPY));
            journal.run.remove();
        })?;
        sync_dir(&journal.dir).inspect_err(|_| journal.remove())?;
        Ok(journal)
    }

    fn keep_index(&self, git_dir: &Path) -> Result<(), JournalError> {
        let index = git_dir.join("index");
        match fs::read(&index) {
            Ok(bytes) => {
                let next = self.dir.join(format!("{INDEX_COPY}.next"));
                write_durable(&next, &bytes, false)?;
                let copy = self.dir.join(INDEX_COPY);
                fs::rename(&next, &copy).map_err(io_err("replace", &copy))
            }
            // No index yet: none is restored (and no older copy may be).
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                let _ = fs::remove_file(self.dir.join(INDEX_COPY));
                Ok(())
            }
            Err(e) => Err(io_err("read", &index)(e)),
        }
    }

    /// Record a new phase durably (write beside, then rename over the journal).
    pub fn advance(&mut self, phase: Phase) -> Result<(), JournalError> {
        self.plan.phase = phase;
        let path = self.dir.join(FILE);
        let next = self.dir.join(format!("{FILE}.next"));
        let bytes = serde_json::to_vec(&self.plan).expect("a plan always serializes");
        write_durable(&next, &bytes, false)?;
        fs::rename(&next, &path).map_err(io_err("replace", &path))?;
        sync_dir(&self.dir)
    }

    /// Drop the journal (and the index copy and the run file): the worktree is in a whole
    /// state again.
    pub fn remove(&self) {
        let _ = fs::remove_file(self.dir.join(INDEX_COPY));
        let _ = fs::remove_file(self.dir.join(FILE));
        let _ = fs::remove_file(self.dir.join(format!("{FILE}.next")));
        self.run.remove();
        let _ = sync_dir(&self.dir);
    }

    /// The journal an interrupted apply left, once it proves to be one ([`proof`]): refused
    /// when its steps name anything but patchgate's own entries or its run file is missing,
    /// and while its run is still writing.
    pub fn load(git_dir: &Path) -> Result<Option<Self>, JournalError> {
        let dir = dir(git_dir);
        let path = dir.join(FILE);
        let bytes = match proof::read_nofollow(&path, proof::MAX_JOURNAL_BYTES) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(io_err("read", &path)(e)),
        };
        let refused = |reason: String| JournalError::Refused { path: path.clone(), reason };
        let plan = read_plan(&bytes).map_err(refused)?;
        let run = Run::open(&dir, &plan.run).map_err(|e| match e {
            proof::RunError::Missing(reason) => refused(reason),
            proof::RunError::Locked(path) => JournalError::Running { path },
            proof::RunError::Io(path, source) => JournalError::Io { action: "open", path, source },
        })?;
        Ok(Some(Self { dir, plan, run }))
    }

    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The run that wrote the journal.
    pub fn run(&self) -> &Run {
        &self.run
    }

    /// Put the index kept by [`Journal::begin`] back, if the run may have replaced it: only
    /// when the index was made after the run began. The index it replaces is kept beside the
    /// journal (`apply-index.replaced`) and returned, so nothing staged is lost. An
    /// `index.lock` made after the run began (an interrupted index write) is removed.
    pub fn restore_index(&self, git_dir: &Path) -> Result<Option<PathBuf>, JournalError> {
        let copy = self.dir.join(INDEX_COPY);
        let lock = git_dir.join("index.lock");
        if self.run.made(&lock) == Some(true) {
            let _ = fs::remove_file(&lock);
        }
        let index = git_dir.join("index");
        if !copy.exists() || self.run.made(&index) != Some(true) {
            return Ok(None);
        }
        let replaced = self.dir.join(REPLACED_INDEX);
        fs::rename(&index, &replaced).map_err(io_err("keep", &index))?;
        fs::rename(&copy, &index).map_err(io_err("restore", &copy))?;
        Ok(Some(replaced))
    }
}

/// Decode a journal and check that it names only patchgate's own entries ([`check_plan`]).
fn read_plan(bytes: &[u8]) -> Result<Plan, String> {
    if let Some(key) = crate::json::duplicate_key(bytes) {
        return Err(format!("it names '{key}' twice"));
    }
    let plan: Plan =
        serde_json::from_slice(bytes).map_err(|e| format!("it is not a journal ({e})"))?;
    check_plan(&plan)?;
    Ok(plan)
}

/// Check every step of `plan` (see [`proof`]); the first bad one is the error.
fn check_plan(plan: &Plan) -> Result<(), String> {
    if !proof::is_run_id(&plan.run) {
        return Err("its run id is not 32 hexadecimal digits".to_owned());
    }
    let place_steps = plan.steps.iter().filter_map(|s| match s {
        Step::Place { temp, target } => Some((temp.as_str(), target.as_str())),
        _ => None,
    });
    let (placed, targets): (HashSet<&str>, Vec<&str>) = place_steps.unzip();
    for (i, step) in plan.steps.iter().enumerate() {
        check_step(step, &plan.run, &placed, &targets)
            .map_err(|why| format!("step {}: {why}", i + 1))?;
    }
    Ok(())
}

fn check_step(
    step: &Step,
    run: &str,
    placed: &HashSet<&str>,
    targets: &[&str],
) -> Result<(), String> {
    match step {
        Step::MakeDir { path } => {
            proof::inside(path)?;
            let is_parent = targets
                .iter()
                .any(|t| t.strip_prefix(path.as_str()).is_some_and(|rest| rest.starts_with('/')));
            if !is_parent {
                return Err(format!("'{path}' is made but no file is placed below it"));
            }
        }
        Step::WriteTemp { temp } if !placed.contains(temp.as_str()) => {
            return Err(format!("'{temp}' is written but never placed"));
        }
        Step::WriteTemp { .. } => {}
        Step::MoveAside { target, backup } => proof::own_name(target, backup, run, "bak")?,
        Step::Place { temp, target } => proof::own_name(target, temp, run, "tmp")?,
    }
    Ok(())
}
