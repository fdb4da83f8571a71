//! Whether an apply journal is patchgate's own, for one run, before recovery obeys it.
//!
//! Anything that can write the git directory can write `apply-journal.json`: the agent's code
//! run by `--check-cmd`, a hostile hook. A journal is therefore read as a claim, not an order:
//!
//! * every step names paths inside the worktree (the path-safety checks: nothing under `.git`,
//!   no `..`, nothing absolute), and every temporary or backup name is one patchgate makes for
//!   its target in this run (`.<name>.patchgate-<run id>-<16 hex>.tmp|bak` beside it); a
//!   directory made is a parent of a placed file, a temporary file written is one a step places;
//! * the journal names its run, and the run file `apply-run.<id>` must be there: created
//!   exclusively before the journal and locked (`flock`) while the run writes, so a journal
//!   whose run is alive is not recovered under it;
//! * the run file's birth time is when the run began, and no one can set a birth time: an
//!   entry recovery would remove or move away (a placed file, a temporary file) must have been
//!   born since then, so a file that existed before the run is never taken for the run's; an
//!   entry recovery would drop or put back as a backup (an old entry the run moved aside) must
//!   have been moved since then (its change time, which a rename sets);
//! * a clock tick is coarse (a few milliseconds), so an entry born or moved in the tick the run
//!   began passes that test: the name closes the gap. Recovery touches only names carrying the
//!   run's id, which is random and made when the run begins, so no entry made before the run
//!   carries it by chance (and a run file made to match an older name is born after it).

use super::worktree::name_stem;
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The run file's name before its id.
const RUN_PREFIX: &str = "apply-run.";
/// The largest journal read: a plan for a million files is about 300 MB of JSON, far past any
/// `[limits]` a patch passes.
pub(super) const MAX_JOURNAL_BYTES: u64 = 256 << 20;

/// The run file of one apply, open and locked.
#[derive(Debug)]
pub(super) struct Run {
    path: PathBuf,
    /// Holds the lock until the run (or the recovery) is done.
    _file: File,
    /// When the run began; `None` where the file system keeps no birth time.
    began: Option<SystemTime>,
}

/// Why a run file cannot be used.
#[derive(Debug)]
pub(super) enum RunError {
    /// It is not there, or not a plain file: the journal is no run's.
    Missing(String),
    /// Its run holds it: still writing.
    Locked(PathBuf),
    /// It could not be read.
    Io(PathBuf, io::Error),
}

/// A new run id: 32 hex digits.
pub(super) fn new_run_id() -> String {
    format!("{:016x}{:016x}", fastrand::u64(..), fastrand::u64(..))
}

/// Whether `id` is a run id as [`new_run_id`] makes them.
pub(super) fn is_run_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

fn open_nofollow(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
    fs::OpenOptions::new().read(true).custom_flags(flags.bits().cast_signed()).open(path)
}

fn try_lock(file: &File) -> io::Result<()> {
    rustix::fs::flock(file, rustix::fs::FlockOperation::NonBlockingLockExclusive)
        .map_err(io::Error::from)
}

impl Run {
    /// Create and lock the run file `apply-run.<id>` in `dir`; the error names the file.
    pub(super) fn create(dir: &Path, id: &str) -> Result<Self, (PathBuf, io::Error)> {
        let path = dir.join(format!("{RUN_PREFIX}{id}"));
        // `create_new` is O_EXCL: a name planted in advance, or a link, is never opened.
        let file = match File::create_new(&path) {
            Ok(file) => file,
            Err(e) => return Err((path, e)),
        };
        if let Err(e) = try_lock(&file).and_then(|()| file.sync_all()) {
            let _ = fs::remove_file(&path);
            return Err((path, e));
        }
        let began = file.metadata().and_then(|m| m.created()).ok();
        Ok(Self { path, _file: file, began })
    }

    /// Open and lock the run file of run `id` in `dir`, as recovery does.
    pub(super) fn open(dir: &Path, id: &str) -> Result<Self, RunError> {
        let path = dir.join(format!("{RUN_PREFIX}{id}"));
        let missing =
            |what: &str| RunError::Missing(format!("its run file '{}' {what}", path.display()));
        let file = match open_nofollow(&path) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Err(missing("is missing")),
            Err(e) if e.raw_os_error() == Some(rustix::io::Errno::LOOP.raw_os_error()) => {
                return Err(missing("is a symbolic link"));
            }
            Err(e) => return Err(RunError::Io(path, e)),
        };
        let meta = file.metadata().map_err(|e| RunError::Io(path.clone(), e))?;
        if !meta.is_file() {
            return Err(missing("is not a regular file"));
        }
        match try_lock(&file) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Err(RunError::Locked(path)),
            Err(e) => return Err(RunError::Io(path, e)),
        }
        Ok(Self { began: meta.created().ok(), path, _file: file })
    }

    /// Remove the run file (its lock goes with the handle, when the run is dropped).
    pub(super) fn remove(&self) {
        let _ = fs::remove_file(&self.path);
    }

    /// Whether an entry born at `born` was made since the run began; `false` when either
    /// time is unknown (the file system keeps none), so nothing is taken for the run's then.
    pub(super) fn made_since(&self, born: io::Result<SystemTime>) -> bool {
        matches!((born, self.began), (Ok(born), Some(began)) if born >= began)
    }

    /// Whether the entry of `meta` was moved (renamed) since the run began: a rename sets the
    /// entry's change time, which no one can set back. A backup is an old entry the run moved
    /// aside, born long before the run; this is what shows it is the run's to drop or put back,
    /// while an entry that has not changed since before the run is never taken for one.
    pub(super) fn moved_since(&self, meta: &cap_std::fs::Metadata) -> bool {
        use cap_std::fs::MetadataExt;
        let secs = u64::try_from(meta.ctime()).ok();
        let nanos = u32::try_from(meta.ctime_nsec()).ok();
        let changed = secs.zip(nanos).map(|(s, n)| SystemTime::UNIX_EPOCH + Duration::new(s, n));
        self.made_since(changed.ok_or_else(|| io::ErrorKind::InvalidData.into()))
    }

    /// [`Run::made_since`] for the entry at `path` (not followed); `None` when there is none.
    pub(super) fn made(&self, path: &Path) -> Option<bool> {
        let meta = path.symlink_metadata().ok()?;
        Some(self.made_since(meta.created()))
    }
}

/// Whether `name` in `dir` is a run file that no run holds (its apply was killed before its
/// journal was published).
pub(super) fn is_stale_run(dir: &Path, name: &str) -> bool {
    if !name.strip_prefix(RUN_PREFIX).is_some_and(is_run_id) {
        return false;
    }
    open_nofollow(&dir.join(name)).is_ok_and(|file| try_lock(&file).is_ok())
}

/// The bytes of the regular file at `path`, never through a link, at most `max` of them.
pub(super) fn read_nofollow(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    let file = open_nofollow(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() || meta.len() > max {
        return Err(io::Error::other(format!(
            "not a regular file of at most {max} bytes; patchgate writes no other"
        )));
    }
    let mut bytes = Vec::new();
    file.take(max).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// `path` is a canonical worktree path: it passes the path-safety checks unchanged.
pub(super) fn inside(path: &str) -> Result<(), String> {
    match crate::path::check(path) {
        Ok(checked) if checked.as_str() == path => Ok(()),
        Ok(_) => Err(format!("'{path}' is not written the way patchgate writes paths")),
        Err(e) => Err(format!("'{path}' is not a worktree path ({})", e.code.as_str())),
    }
}

/// `name` is a temporary (`tmp`) or backup (`bak`) name patchgate makes for `target` in the run
/// `run`: beside it, `.<stem>.patchgate-<run>-<16 hex>.<what>`.
pub(super) fn own_name(target: &str, name: &str, run: &str, what: &str) -> Result<(), String> {
    inside(target)?;
    let (dir, file) = match target.rsplit_once('/') {
        Some((dir, file)) => (Some(dir), file),
        None => (None, target),
    };
    let rest = match dir {
        Some(dir) => name.strip_prefix(dir).and_then(|r| r.strip_prefix('/')),
        None => Some(name),
    };
    let random = rest
        .and_then(|r| r.strip_prefix('.'))
        .and_then(|r| r.strip_prefix(name_stem(file)))
        .and_then(|r| r.strip_prefix(".patchgate-"))
        .and_then(|r| r.strip_prefix(run))
        .and_then(|r| r.strip_prefix('-'))
        .and_then(|r| r.strip_suffix(what))
        .and_then(|r| r.strip_suffix('.'));
    match random {
        Some(hex) if hex.len() == 16 && hex.bytes().all(|b| b.is_ascii_hexdigit()) => Ok(()),
        _ => Err(format!(
            "'{name}' is not a name patchgate gives a {what} file of '{target}' in run {run}"
        )),
    }
}
