//! The cache files of the guard's lists: a header line (`<key> <length of the text> <length
//! table>`), then an [`Index`]'s text, then what the writer keeps beside it (the files' list:
//! each directory's signature). A miss reads the header and the lines within reach of its
//! query's length.

use super::suggest::Index;
use std::io::{BufRead as _, Write as _};
use std::path::Path;

/// The index cached in `path` when it was written under `key` (any key: `None`).
pub(super) fn read_cache(path: &Path, key: Option<&str>, query_len: usize) -> Option<Index> {
    read_cache_hiding(path, key, query_len, None)
}

/// [`read_cache`] without the lines of the directories `hide` names.
pub(super) fn read_cache_hiding(
    path: &Path,
    key: Option<&str>,
    query_len: usize,
    hide: super::suggest::Hide<'_>,
) -> Option<Index> {
    let file = std::fs::File::open(path).ok()?;
    let header = Header::read(&file)?;
    if key.is_some_and(|key| header.key != key) {
        return None;
    }
    Index::on_disk(&file, (header.len, header.total), &header.lengths, query_len, hide)
}

/// The first line of a cache: `<key> <length of the text> <length table>`.
pub(super) struct Header {
    pub key: String,
    /// The line's length, newline included: where the text starts.
    pub len: u64,
    pub total: usize,
    lengths: String,
}

impl Header {
    pub(super) fn read(file: &std::fs::File) -> Option<Self> {
        let mut line = String::new();
        std::io::BufReader::new(file).read_line(&mut line).ok()?;
        // Not trimmed: an index of nothing (no untracked file) has an empty length table.
        let (rest, lengths) = line.strip_suffix('\n')?.rsplit_once(' ')?;
        let (key, total) = rest.rsplit_once(' ')?;
        Some(Self {
            key: key.to_owned(),
            len: line.len() as u64,
            total: total.parse().ok()?,
            lengths: lengths.to_owned(),
        })
    }
}

pub(super) fn write_cache(path: &Path, key: &str, index: &Index) -> std::io::Result<()> {
    write_cache_with(path, key, index, &[])
}

/// [`write_cache`] with `trailer` after the text.
pub(super) fn write_cache_with(
    path: &Path,
    key: &str,
    index: &Index,
    trailer: &[u8],
) -> std::io::Result<()> {
    let Some(text) = index.text() else { return Ok(()) };
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    writeln!(file, "{key} {} {}", text.len(), index.lengths_text())?;
    file.write_all(text.as_bytes())?;
    file.write_all(trailer)?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}
