//! The repository's file list for suggestions: the git index when there is one (cached under
//! the state directory, keyed by the index file's identity), else a gitignore-aware walk.
//!
//! Each kind (files, directories) is one [`Index`] and one cache file: a header line
//! (`<key> <length of the names part> <length table>`), the names part, the directories part. A miss reads the
//! header and the names within reach of its query's length; the directories of the few
//! matching names are read in place.

use super::suggest::Index;
use std::io::{BufRead as _, Write as _};
use std::os::unix::fs::MetadataExt as _;
use std::path::Path;

/// Entries at most: a walk of something that is not really a project stops here.
const WALK_LIMIT: usize = 200_000;
const FILES_CACHE: &str = "files-v5.cache";
const DIRS_CACHE: &str = "dirs-v5.cache";

/// Which entries a suggestion needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Files,
    Dirs,
}

impl Kind {
    fn cache_file(self) -> &'static str {
        match self {
            Self::Files => FILES_CACHE,
            Self::Dirs => DIRS_CACHE,
        }
    }
}

/// Index `paths` (files) and their directories.
///
/// In the index's sorted order the paths below a directory are contiguous, so a directory is
/// new unless it is an ancestor of the previous path: no hash set (a seventh of a rebuild).
/// Any other order only yields repeats, which [`Index::new`] drops.
fn index_both(paths: &[String]) -> (Index, Index) {
    let mut dirs: Vec<&str> = Vec::new();
    let mut previous = "";
    for path in paths {
        let mut rest = path.as_str();
        while let Some((parent, _)) = rest.rsplit_once('/') {
            if is_ancestor(parent, previous) {
                break;
            }
            dirs.push(parent);
            rest = parent;
        }
        previous = path;
    }
    (Index::new(paths.iter().map(String::as_str)), Index::new(dirs.into_iter()))
}

fn is_ancestor(dir: &str, path: &str) -> bool {
    path.len() > dir.len() && path.as_bytes()[dir.len()] == b'/' && path.starts_with(dir)
}

/// The index's entries of `kind`, from the cache when the index has not changed since it was
/// written.
pub(super) fn from_git(
    repo: &git2::Repository,
    cache_dir: Option<&Path>,
    kind: Kind,
    query_len: usize,
) -> Result<Index, String> {
    let index_path = repo.path().join("index");
    let Ok(meta) = std::fs::metadata(&index_path) else { return Ok(Index::default()) };
    let key = format!(
        "{} {} {} {}",
        index_path.display(),
        meta.len(),
        meta.mtime_nsec() + meta.mtime() * 1_000_000_000,
        meta.ino()
    );
    if let Some(index) =
        cache_dir.and_then(|dir| read_cache(&dir.join(kind.cache_file()), &key, query_len))
    {
        return Ok(index);
    }
    let (files, dirs) = index_both(&read_index(repo)?);
    if let Some(dir) = cache_dir {
        // A cache that cannot be written only costs time on the next miss.
        let _ = write_cache(&dir.join(FILES_CACHE), &key, &files);
        let _ = write_cache(&dir.join(DIRS_CACHE), &key, &dirs);
    }
    Ok(match kind {
        Kind::Files => files,
        Kind::Dirs => dirs,
    })
}

fn read_index(repo: &git2::Repository) -> Result<Vec<String>, String> {
    let index = repo.index().map_err(|e| format!("cannot read the git index: {}", e.message()))?;
    let mut paths: Vec<String> = Vec::with_capacity(index.len());
    for entry in index.iter() {
        // Gitlinks (submodules) are directories of another repository.
        if entry.mode == 0o160_000 {
            continue;
        }
        if let Ok(path) = String::from_utf8(entry.path)
            && paths.last() != Some(&path)
        {
            paths.push(path);
        }
    }
    Ok(paths)
}

fn read_cache(path: &Path, key: &str, query_len: usize) -> Option<Index> {
    let file = std::fs::File::open(path).ok()?;
    let mut reader = std::io::BufReader::new(&file);
    let mut header = String::new();
    reader.read_line(&mut header).ok()?;
    let (rest, lengths) = header.trim_end().rsplit_once(' ')?;
    let (cached_key, names_len) = rest.rsplit_once(' ')?;
    if cached_key != key {
        return None;
    }
    let names_len: usize = names_len.parse().ok()?;
    drop(reader);
    Index::on_disk(file, (header.len() as u64, names_len), lengths, query_len)
}

fn write_cache(path: &Path, key: &str, index: &Index) -> std::io::Result<()> {
    let Some((names, dirs)) = index.parts() else { return Ok(()) };
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    writeln!(file, "{key} {} {}", names.len(), index.lengths_text())?;
    file.write_all(names.as_bytes())?;
    file.write_all(dirs.as_bytes())?;
    file.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// A gitignore-aware walk of `root` (hidden files skipped, as editors do).
pub(super) fn from_walk(root: &Path, kind: Kind) -> Index {
    let mut paths = Vec::new();
    for entry in ignore::WalkBuilder::new(root).build().flatten().take(WALK_LIMIT) {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        if let Some(rel) = entry.path().strip_prefix(root).ok().and_then(Path::to_str) {
            paths.push(rel.to_owned());
        }
    }
    let (files, dirs) = index_both(&paths);
    match kind {
        Kind::Files => files,
        Kind::Dirs => dirs,
    }
}
