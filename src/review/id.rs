//! Entry ids and file names: a SHA-256 of the content, shown short, looked up by prefix.

use super::ReviewError;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::fmt::Write as _;

/// How many hex digits an id is shown with, unless two entries share them.
pub const SHORT_ID: usize = 8;

/// The shortest prefix accepted on the command line (git's own minimum).
pub const MIN_PREFIX: usize = 4;

const FULL_ID: usize = 64;
const NANOS_DIGITS: usize = 20;

/// The id of an entry whose serialized content (id left empty) is `content`.
pub(super) fn content_id(content: &[u8]) -> String {
    let digest = Sha256::digest(content);
    digest.iter().fold(String::with_capacity(FULL_ID), |mut out, byte| {
        let _ = write!(out, "{byte:02x}");
        out
    })
}

/// `<nanos, 20 digits>-<id>.json`: sorts by time, and carries the id for prefix lookup.
pub(super) fn file_name(nanos: u64, id: &str) -> String {
    format!("{nanos:0NANOS_DIGITS$}-{id}.json")
}

/// The time (nanoseconds since the epoch) and id in an entry's file name, or `None` for any
/// other name.
pub(super) fn parse_file_name(name: &str) -> Option<(u64, &str)> {
    let stem = name.strip_suffix(".json")?;
    let (nanos, id) = stem.split_once('-')?;
    let is_nanos = nanos.len() == NANOS_DIGITS && nanos.bytes().all(|b| b.is_ascii_digit());
    if !is_nanos || !is_full_id(id) {
        return None;
    }
    Some((nanos.parse().ok()?, id))
}

fn is_full_id(id: &str) -> bool {
    id.len() == FULL_ID && id.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Check an id argument and lowercase it: 4 to 64 hex digits.
pub(super) fn normalize_prefix(arg: &str) -> Result<String, ReviewError> {
    let prefix = arg.trim().to_ascii_lowercase();
    let is_hex = prefix.bytes().all(|b| b.is_ascii_hexdigit());
    if !is_hex || !(MIN_PREFIX..=FULL_ID).contains(&prefix.len()) {
        return Err(ReviewError::InvalidId(arg.to_owned()));
    }
    Ok(prefix)
}

/// The shown form of each id: its first [`SHORT_ID`] digits, or as many more as it takes to
/// tell it apart from every other id in `ids`.
#[must_use]
pub fn short_ids<'a>(ids: &[&'a str]) -> HashMap<&'a str, String> {
    let mut sorted: Vec<&str> = ids.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    let common = |a: &str, b: &str| a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    let mut out = HashMap::with_capacity(sorted.len());
    for (i, &id) in sorted.iter().enumerate() {
        // In sorted order the longest shared prefix is always with a neighbour.
        let before = i.checked_sub(1).map_or(0, |j| common(sorted[j], id));
        let after = sorted.get(i + 1).map_or(0, |next| common(next, id));
        let len = (before.max(after) + 1).max(SHORT_ID).min(id.len());
        out.insert(id, id[..len].to_owned());
    }
    out
}
