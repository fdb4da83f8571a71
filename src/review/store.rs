//! The store on disk: one JSON file per entry, written atomically, read leniently.

use super::time::{epoch_nanos, from_epoch_nanos};
use super::{Entry, ReviewError, ReviewPolicy, id, over_budget, prune_selection};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// Temporary files older than this are leftovers of a crash, removed when pruning.
const STALE_TEMP: Duration = Duration::from_hours(1);
const TEMP_PREFIX: &str = ".tmp-";

/// The directory of rejected results.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
}

/// An entry known by its file name only (id and time), before it is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredRef {
    /// The full id.
    pub id: String,
    /// When it was recorded.
    pub time: SystemTime,
    /// The entry's file.
    pub path: PathBuf,
    /// The file's size in bytes.
    pub bytes: u64,
}

/// Every readable entry, newest first, and what was skipped.
#[derive(Debug, Default)]
pub struct Listing {
    /// The entries, newest first.
    pub entries: Vec<Entry>,
    /// Files in the store that are not readable entries.
    pub skipped: Vec<Skipped>,
}

/// A file in the store that could not be used, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// The file.
    pub path: PathBuf,
    /// The entry's short id, when the file is named like an entry (so `drop` can remove it).
    pub id: Option<String>,
    /// Why it was skipped.
    pub reason: String,
}

impl Store {
    /// The store of `repo`: `<common dir>/patchgate/rejected`, shared by linked worktrees.
    #[must_use]
    pub fn for_repo(repo: &git2::Repository) -> Self {
        Self::at(repo.commondir().join("patchgate").join("rejected"))
    }

    /// A store in `dir` (created on first write).
    #[must_use]
    pub fn at(dir: PathBuf) -> Self {
        Self { dir }
    }

    /// The store's directory.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Every entry file, newest first, and the files that are not entries. A store that does
    /// not exist yet is empty.
    pub fn refs(&self) -> Result<(Vec<StoredRef>, Vec<Skipped>), ReviewError> {
        let io =
            |source| ReviewError::Io { action: "read the store", path: self.dir.clone(), source };
        let read = match std::fs::read_dir(&self.dir) {
            Ok(read) => read,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Default::default()),
            Err(e) => return Err(io(e)),
        };
        let (mut refs, mut skipped) = (Vec::new(), Vec::new());
        for item in read {
            let item = item.map_err(io)?;
            let path = item.path();
            let name =
                path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if name.starts_with(TEMP_PREFIX) {
                continue;
            }
            match id::parse_file_name(&name) {
                Some((nanos, id)) => {
                    let bytes = item.metadata().map_or(0, |m| m.len());
                    let time = from_epoch_nanos(nanos);
                    refs.push(StoredRef { id: id.to_owned(), time, path, bytes });
                }
                None => {
                    skipped.push(Skipped {
                        path,
                        id: None,
                        reason: "not an entry file".to_owned(),
                    });
                }
            }
        }
        refs.sort_by(|a, b| b.time.cmp(&a.time).then_with(|| a.id.cmp(&b.id)));
        Ok((refs, skipped))
    }

    /// Read every entry, newest first; unreadable ones are skipped, with the reason.
    pub fn list(&self) -> Result<Listing, ReviewError> {
        let (refs, mut skipped) = self.refs()?;
        let mut entries = Vec::with_capacity(refs.len());
        for r in &refs {
            match read_entry(r) {
                Ok(entry) => entries.push(entry),
                Err(reason) => skipped.push(Skipped {
                    path: r.path.clone(),
                    id: Some(r.id[..id::SHORT_ID].to_owned()),
                    reason,
                }),
            }
        }
        Ok(Listing { entries, skipped })
    }

    /// The entry whose id starts with `prefix` (4 or more hex digits).
    pub fn resolve(&self, prefix: &str) -> Result<StoredRef, ReviewError> {
        let wanted = id::normalize_prefix(prefix)?;
        let (refs, _) = self.refs()?;
        let mut matches: Vec<StoredRef> =
            refs.into_iter().filter(|r| r.id.starts_with(&wanted)).collect();
        match matches.len() {
            0 => Err(ReviewError::UnknownId(prefix.to_owned())),
            1 => Ok(matches.remove(0)),
            _ => {
                let ids: Vec<&str> = matches.iter().map(|r| r.id.as_str()).collect();
                let short = id::short_ids(&ids);
                let mut candidates: Vec<String> = ids.iter().map(|i| short[i].clone()).collect();
                candidates.sort();
                Err(ReviewError::AmbiguousId { prefix: prefix.to_owned(), candidates })
            }
        }
    }

    /// Read one entry.
    pub fn load(&self, r: &StoredRef) -> Result<Entry, ReviewError> {
        read_entry(r).map_err(|message| ReviewError::Corrupt {
            id: r.id[..id::SHORT_ID].to_owned(),
            message,
        })
    }

    /// Write `entry` atomically (new, or replacing its earlier version).
    pub fn write(&self, entry: &Entry) -> Result<StoredRef, ReviewError> {
        let name = id::file_name(epoch_nanos(entry.time), &entry.id);
        let path = self.dir.join(&name);
        let io = |action, source| ReviewError::Io { action, path: path.clone(), source };
        std::fs::create_dir_all(&self.dir).map_err(|e| io("create the store", e))?;
        let mut temp = tempfile::Builder::new()
            .prefix(TEMP_PREFIX)
            .tempfile_in(&self.dir)
            .map_err(|e| io("create a temporary file for", e))?;
        let bytes = encoded(entry);
        temp.write_all(&bytes).map_err(|e| io("write", e))?;
        temp.as_file().sync_all().map_err(|e| io("flush", e))?;
        temp.persist(&path).map_err(|e| io("rename into place", e.error))?;
        sync_dir(&self.dir);
        Ok(StoredRef {
            id: entry.id.clone(),
            time: from_epoch_nanos(epoch_nanos(entry.time)),
            path,
            bytes: bytes.len() as u64,
        })
    }

    /// Remove one entry.
    pub fn remove(&self, r: &StoredRef) -> Result<(), ReviewError> {
        remove_file(&r.path)
    }

    /// Remove every entry (readable or not); returns how many.
    pub fn remove_all(&self) -> Result<usize, ReviewError> {
        let (refs, _) = self.refs()?;
        for r in &refs {
            remove_file(&r.path)?;
        }
        Ok(refs.len())
    }

    /// Apply `policy` at `now`: remove the entries it no longer keeps and stale temporary
    /// files; returns how many entries were removed.
    pub fn prune(&self, policy: &ReviewPolicy, now: SystemTime) -> Result<usize, ReviewError> {
        let (refs, _) = self.refs()?;
        let times: Vec<SystemTime> = refs.iter().map(|r| r.time).collect();
        let mut doomed = prune_selection(&times, policy, now);
        let sizes: Vec<u64> = refs.iter().map(|r| r.bytes).collect();
        doomed.extend(over_budget(&sizes, &doomed, policy.max_bytes));
        for &i in &doomed {
            remove_file(&refs[i].path)?;
        }
        self.remove_stale_temps(now);
        Ok(doomed.len())
    }

    /// Best effort: a leftover that cannot be removed now is tried again on the next write.
    fn remove_stale_temps(&self, now: SystemTime) {
        let Ok(read) = std::fs::read_dir(&self.dir) else { return };
        for item in read.flatten() {
            let is_temp = item.file_name().to_string_lossy().starts_with(TEMP_PREFIX);
            let modified = item.metadata().and_then(|m| m.modified()).unwrap_or(now);
            let is_stale = now.duration_since(modified).is_ok_and(|age| age > STALE_TEMP);
            if is_temp && is_stale {
                let _ = std::fs::remove_file(item.path());
            }
        }
    }
}

/// An entry as its file holds it.
#[must_use]
pub fn encoded(entry: &Entry) -> Vec<u8> {
    serde_json::to_vec_pretty(entry).expect("entries serialize: string keys only")
}

/// Read and check one entry file; the error is the reason it cannot be used.
fn read_entry(r: &StoredRef) -> Result<Entry, String> {
    let bytes = std::fs::read(&r.path).map_err(|e| format!("cannot read: {e}"))?;
    let entry = Entry::from_json(&bytes)?;
    if entry.id != r.id {
        return Err(format!("its content has id {}, not the one in its file name", entry.id));
    }
    Ok(entry)
}

fn remove_file(path: &Path) -> Result<(), ReviewError> {
    match std::fs::remove_file(path) {
        // Someone else (a concurrent prune) got there first: the goal is met.
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(ReviewError::Io { action: "remove", path: path.to_owned(), source: e })
        }
        _ => Ok(()),
    }
}

/// Make the rename itself durable. Not every platform can open a directory; the entry is
/// complete either way, so a failure here loses at most the newest entry on power loss.
fn sync_dir(dir: &Path) {
    if let Ok(handle) = std::fs::File::open(dir) {
        let _ = handle.sync_all();
    }
}
