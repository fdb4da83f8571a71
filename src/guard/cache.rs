//! The cache files of the guard's lists: a header line (`<key> <length of the blob> <layout>`),
//! then an [`Index`]'s blob (see `guard::names`), then what the writer keeps beside it (the
//! files' list: each directory's signature). A miss reads the header, then the names within
//! reach of its query's length and the directories of those that match.

use super::names::Hide;
use super::suggest::Index;
use std::io::{BufRead as _, Write as _};
use std::path::Path;

/// The index cached in `path` when it was written under `key` (any key: `None`).
pub(super) fn read_cache(path: &Path, key: Option<&str>) -> Option<Index> {
    read_cache_hiding(path, key, None)
}

/// [`read_cache`] without the entries of the directories `hide` names.
pub(super) fn read_cache_hiding(
    path: &Path,
    key: Option<&str>,
    hide: Option<Hide>,
) -> Option<Index> {
    let file = std::fs::File::open(path).ok()?;
    let header = Header::read(&file)?;
    if key.is_some_and(|key| header.key != key) {
        return None;
    }
    Index::on_disk(file, (header.len, header.total), &header.layout, hide)
}

/// The first line of a cache: `<key> <length of the blob> <layout>`.
pub(super) struct Header {
    pub key: String,
    /// The line's length, newline included: where the blob starts.
    pub len: u64,
    pub total: usize,
    layout: String,
}

impl Header {
    pub(super) fn read(file: &std::fs::File) -> Option<Self> {
        let mut line = String::new();
        std::io::BufReader::new(file).read_line(&mut line).ok()?;
        let (rest, layout) = line.strip_suffix('\n')?.rsplit_once(' ')?;
        let (key, total) = rest.rsplit_once(' ')?;
        Some(Self {
            key: key.to_owned(),
            len: line.len() as u64,
            total: total.parse().ok()?,
            layout: layout.to_owned(),
        })
    }
}

pub(super) fn write_cache(path: &Path, key: &str, index: &Index) -> std::io::Result<()> {
    write_cache_with(path, key, index, &[])
}

/// [`write_cache`] with `trailer` after the blob.
pub(super) fn write_cache_with(
    path: &Path,
    key: &str,
    index: &Index,
    trailer: &[u8],
) -> std::io::Result<()> {
    let Some(blob) = index.blob() else { return Ok(()) };
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    writeln!(file, "{key} {} {}", blob.len(), index.layout())?;
    file.write_all(blob)?;
    file.write_all(trailer)?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}
