//! The per-session hallucination counter.
//!
//! Agents run hooks in parallel and each hook is a fresh process, so the counter lives in one
//! small JSON file per session (`<state dir>/<sha1 of the session key>.json`), read and written
//! under an exclusive lock. Sessions untouched for the TTL are treated as new and their files
//! are removed opportunistically when a new session starts.

use serde::{Deserialize, Serialize};
use std::fs::{File, OpenOptions};
use std::io::{Read as _, Seek as _, Write as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// What one call means to the counter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A hallucinated path (resolved, for the similarity test).
    Hallucination(String),
    /// A real path or a discovery call: the streak ends.
    Reset,
    /// Neither (unknown tools, other refusals): the streak is unchanged.
    Neutral,
    /// A call the guard corrected to a real path: the streak ends as for a real path, and the
    /// message for the model is kept for the call's after-call event (Gemini CLI tells the
    /// model nothing more about a rewritten call).
    Corrected(String),
}

/// One session's state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionState {
    /// Consecutive hallucinated paths.
    pub count: u32,
    /// The last hallucinated path.
    pub last_path: Option<String>,
    /// Seconds since the epoch of the last update.
    pub updated: u64,
    /// A message for the model that the next after-call event delivers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl SessionState {
    /// The state after `event` at `now` (seconds); pure, the rule of the path-hallucination
    /// specification: consecutive misses on the same or similar paths count up, anything real or
    /// discovering resets.
    #[must_use]
    pub fn next(&self, event: &Event, now: u64, ttl: Duration) -> Self {
        let is_stale = now.saturating_sub(self.updated) > ttl.as_secs();
        let current = if is_stale { Self::default() } else { self.clone() };
        let note = match event {
            Event::Corrected(note) => Some(note.clone()),
            _ => current.note.clone(),
        };
        let (count, last_path) = match event {
            Event::Hallucination(path) => {
                let continues = current.last_path.as_deref().is_some_and(|p| is_similar(p, path));
                let count = if continues { current.count.saturating_add(1) } else { 1 };
                (count, Some(path.clone()))
            }
            Event::Reset | Event::Corrected(_) => (0, None),
            Event::Neutral => (current.count, current.last_path),
        };
        Self { count, last_path, updated: now, note }
    }
}

/// Same or similar paths: identical, the same basename, similar basenames, or the same
/// missing directory.
#[must_use]
pub fn is_similar(a: &str, b: &str) -> bool {
    let name = |p: &str| p.rsplit('/').next().unwrap_or(p).to_owned();
    let parent = |p: &str| p.rsplit_once('/').map(|(d, _)| d.to_owned());
    let (name_a, name_b) = (name(a), name(b));
    a == b
        || name_a == name_b
        || strsim::normalized_damerau_levenshtein(&name_a, &name_b) >= 0.75
        || parent(a).is_some() && parent(a) == parent(b)
}

/// Session files in one directory.
#[derive(Clone, Debug)]
pub struct Store {
    dir: PathBuf,
    ttl: Duration,
}

impl Store {
    /// A store in `dir` (created on first use) expiring sessions after `ttl`.
    #[must_use]
    pub fn new(dir: PathBuf, ttl: Duration) -> Self {
        Self { dir, ttl }
    }

    /// Apply `event` to `session` under the lock; the state after it.
    pub fn record(&self, session: &str, event: &Event) -> std::io::Result<SessionState> {
        self.update(session, |state| {
            let next = state.next(event, now(), self.ttl);
            (next.clone(), next)
        })
    }

    /// Take the session's pending message for the model, if any (it is delivered once).
    pub fn take_note(&self, session: &str) -> std::io::Result<Option<String>> {
        self.update(session, |mut state| {
            let note = state.note.take();
            (state, note)
        })
    }

    /// Replace the session's state by `change`'s under the lock; what `change` returns.
    fn update<T>(
        &self,
        session: &str,
        change: impl FnOnce(SessionState) -> (SessionState, T),
    ) -> std::io::Result<T> {
        std::fs::create_dir_all(&self.dir)?;
        let path = self.dir.join(format!("{}.json", session_file_stem(session)));
        let is_new = !path.exists();
        let mut file =
            OpenOptions::new().read(true).write(true).create(true).truncate(false).open(&path)?;
        file.lock()?;
        let (state, answer) = change(read_state(&mut file));
        write_state(&mut file, &state)?;
        file.unlock()?;
        if is_new {
            self.expire_others(&path);
        }
        Ok(answer)
    }

    fn expire_others(&self, keep: &Path) {
        let Ok(entries) = std::fs::read_dir(&self.dir) else { return };
        for entry in entries.flatten() {
            let path = entry.path();
            let is_session = path.extension().is_some_and(|e| e == "json");
            let age =
                entry.metadata().and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok());
            if is_session && path != keep && age.is_some_and(|a| a > self.ttl) {
                let _ = std::fs::remove_file(path);
            }
        }
    }
}

fn session_file_stem(session: &str) -> String {
    // Hashing a byte string cannot fail in libgit2; the key is only a file name.
    git2::Oid::hash_object(git2::ObjectType::Blob, session.as_bytes())
        .map_or_else(|_| "unhashable-session".to_owned(), |oid| oid.to_string())
}

fn read_state(file: &mut File) -> SessionState {
    let mut text = String::new();
    // An unreadable or half-written state starts the session over rather than failing it.
    if file.read_to_string(&mut text).is_err() {
        return SessionState::default();
    }
    serde_json::from_str(&text).unwrap_or_default()
}

fn write_state(file: &mut File, state: &SessionState) -> std::io::Result<()> {
    let text = serde_json::to_string(state).map_err(std::io::Error::other)?;
    file.set_len(0)?;
    file.rewind()?;
    file.write_all(text.as_bytes())
}

fn now() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs())
}
