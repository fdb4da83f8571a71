//! What a file held before install, kept for a byte-identical uninstall:
//! `<records>/<sha256 of the file's path>.json`. Anything the user (or code the agent runs)
//! can write may be here, so a record is never believed on its own: `Target::proves` checks
//! it against the file before it is used.

use serde::{Deserialize, Serialize};
use sha2::{Digest as _, Sha256};
use std::path::{Path, PathBuf};

/// One file's state before install.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(super) struct Record {
    /// The file's text, `None` when install created it.
    pub original: Option<String>,
    /// Its permission bits.
    pub mode: Option<u32>,
    /// The patchgate the hooks ran (install's content depends on it).
    pub binary: String,
    /// Directories install created for the file, deepest last.
    pub created_dirs: Vec<PathBuf>,
}

impl Record {
    /// The created directories that may be removed (when empty): ancestors of `path` below
    /// `root`, deepest first, whatever the record claims.
    pub fn dirs_below(&self, root: &Path, path: &Path) -> Vec<PathBuf> {
        let mut dirs: Vec<PathBuf> = self
            .created_dirs
            .iter()
            .filter(|d| d.starts_with(root) && *d != root && path.starts_with(d))
            .cloned()
            .collect();
        dirs.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
        dirs
    }
}

/// Where the record of `path` lives.
pub(super) fn location(records: &Path, path: &Path) -> PathBuf {
    let digest = Sha256::digest(path.as_os_str().as_encoded_bytes());
    records.join(format!("{}.json", hex(&digest[..16])))
}

/// The record of `path`, if one can be read.
pub(super) fn load(records: &Path, path: &Path) -> Option<Record> {
    let text = std::fs::read_to_string(location(records, path)).ok()?;
    serde_json::from_str(&text).ok()
}

/// `bytes` in lowercase hexadecimal.
pub(super) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::with_capacity(bytes.len() * 2), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}
