//! Answers already paid for: one small JSON file per question under
//! `<git-dir>/patchgate/judge/`, named by the SHA-256 of the prompt version, the model and the
//! whole prompt (which holds the step, the result and everything else the model was shown, so
//! a moved base tree or new notes ask again). Only readable answers are kept; a cache that
//! cannot be read or written costs a call, never a verdict.

use super::{Answer, Model, PROMPT_VERSION, Prompt, Usage};
use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// Past this many answers the oldest are removed.
const MAX_ENTRIES: usize = 2000;

/// Where answers are kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cache {
    dir: PathBuf,
}

/// One kept answer.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    prompt_version: u32,
    model: String,
    valid: bool,
    reason: String,
    #[serde(default)]
    usage: Usage,
}

impl Cache {
    /// The cache of the repository whose (common) git directory is `git_dir`.
    #[must_use]
    pub fn in_git_dir(git_dir: &Path) -> Self {
        Self::at(git_dir.join("patchgate").join("judge"))
    }

    /// A cache in `dir`.
    #[must_use]
    pub fn at(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// The directory.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn file(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.json"))
    }

    /// The answer kept under `key`, when there is a readable one.
    pub(super) fn get(&self, key: &str) -> Option<Answer> {
        let bytes = std::fs::read(self.file(key)).ok()?;
        let entry: Entry = serde_json::from_slice(&bytes).ok()?;
        (entry.prompt_version == PROMPT_VERSION).then_some(Answer {
            valid: entry.valid,
            reason: entry.reason,
            usage: entry.usage,
            cached: true,
        })
    }

    /// Keep `answer` under `key`, whole or not at all (written aside, then renamed).
    pub(super) fn put(&self, key: &str, model: &Model, answer: &Answer) {
        let entry = Entry {
            prompt_version: PROMPT_VERSION,
            model: model.to_string(),
            valid: answer.valid,
            reason: answer.reason.clone(),
            usage: answer.usage,
        };
        let Ok(json) = serde_json::to_vec_pretty(&entry) else { return };
        let written = std::fs::create_dir_all(&self.dir)
            .and_then(|()| tempfile::NamedTempFile::new_in(&self.dir))
            .and_then(|mut file| {
                file.write_all(&json)?;
                file.persist(self.file(key)).map_err(|e| e.error)?;
                Ok(())
            });
        if written.is_ok() {
            self.prune();
        }
    }

    /// Remove the oldest answers past [`MAX_ENTRIES`].
    fn prune(&self) {
        let Ok(dir) = std::fs::read_dir(&self.dir) else { return };
        let mut entries: Vec<(std::time::SystemTime, PathBuf)> = dir
            .filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
            .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
            .collect();
        if entries.len() <= MAX_ENTRIES {
            return;
        }
        entries.sort();
        for (_, path) in &entries[..entries.len() - MAX_ENTRIES] {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// The cache key of asking `model` `prompt`: hex SHA-256 over the prompt version, the model
/// and both messages, each length-prefixed so no two questions share a key.
pub(super) fn key(model: &Model, prompt: &Prompt) -> String {
    let mut hash = Sha256::new();
    for part in
        [PROMPT_VERSION.to_string().as_str(), &model.to_string(), &prompt.system, &prompt.user]
    {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part.as_bytes());
    }
    hash.finalize().iter().fold(String::with_capacity(64), |mut hex, b| {
        let _ = write!(hex, "{b:02x}");
        hex
    })
}
