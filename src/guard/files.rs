//! The repository's file list for suggestions: the git index when there is one (cached under
//! the state directory, keyed by the index file's identity), else a gitignore-aware walk.
//!
//! The list is kept as two [`Index`]es (files, directories) whose text is also the cache's
//! content, so a cached list is used as read: no per-path allocation, no sorting, no hashing.

use super::suggest::Index;
use std::io::Write as _;
use std::os::unix::fs::MetadataExt as _;
use std::path::Path;

/// Entries at most: a walk of something that is not really a project stops here.
const WALK_LIMIT: usize = 200_000;
const CACHE_FILE: &str = "files-v3.cache";

/// The repository's files and directories, indexed by basename.
#[derive(Debug, Default)]
pub(super) struct FileList {
    pub files: Index,
    pub dirs: Index,
}

impl FileList {
    fn from_paths(paths: &[String]) -> Self {
        let mut dirs: std::collections::HashSet<&str> = std::collections::HashSet::new();
        for path in paths {
            let mut rest = path.as_str();
            while let Some((parent, _)) = rest.rsplit_once('/') {
                if !dirs.insert(parent) {
                    break;
                }
                rest = parent;
            }
        }
        Self {
            files: Index::new(paths.iter().map(String::as_str)),
            dirs: Index::new(dirs.into_iter()),
        }
    }
}

/// The index's entries, from the cache when the index has not changed since it was written.
pub(super) fn from_git(
    repo: &git2::Repository,
    cache_dir: Option<&Path>,
) -> Result<FileList, String> {
    let index_path = repo.path().join("index");
    let key = match std::fs::metadata(&index_path) {
        Ok(meta) => format!(
            "{} {} {} {}",
            index_path.display(),
            meta.len(),
            meta.mtime_nsec() + meta.mtime() * 1_000_000_000,
            meta.ino()
        ),
        Err(_) => return Ok(FileList::default()),
    };
    if let Some(list) = cache_dir.and_then(|dir| read_cache(dir, &key)) {
        return Ok(list);
    }
    let list = read_index(repo)?;
    if let Some(dir) = cache_dir {
        // A cache that cannot be written only costs time on the next miss.
        let _ = write_cache(dir, &key, &list);
    }
    Ok(list)
}

fn read_index(repo: &git2::Repository) -> Result<FileList, String> {
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
    Ok(FileList::from_paths(&paths))
}

/// The cache: `<key> <length of the files section>\n`, the files' index text, the
/// directories' index text.
fn read_cache(dir: &Path, key: &str) -> Option<FileList> {
    let mut text = std::fs::read_to_string(dir.join(CACHE_FILE)).ok()?;
    let end = text.find('\n')?;
    let (cached_key, files_len) = text[..end].rsplit_once(' ')?;
    if cached_key != key {
        return None;
    }
    let files_len: usize = files_len.parse().ok()?;
    let dirs = text.get(end + 1 + files_len..)?.to_owned();
    text.truncate(end + 1 + files_len);
    text.drain(..=end);
    Some(FileList { files: Index::from_text(text), dirs: Index::from_text(dirs) })
}

fn write_cache(dir: &Path, key: &str, list: &FileList) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut file = tempfile::NamedTempFile::new_in(dir)?;
    let files = list.files.as_text();
    writeln!(file, "{key} {}", files.len())?;
    file.write_all(files.as_bytes())?;
    file.write_all(list.dirs.as_text().as_bytes())?;
    file.persist(dir.join(CACHE_FILE)).map_err(|e| e.error)?;
    Ok(())
}

/// A gitignore-aware walk of `root` (hidden files skipped, as editors do).
pub(super) fn from_walk(root: &Path) -> FileList {
    let mut paths = Vec::new();
    for entry in ignore::WalkBuilder::new(root).build().flatten().take(WALK_LIMIT) {
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        if let Some(rel) = entry.path().strip_prefix(root).ok().and_then(Path::to_str) {
            paths.push(rel.to_owned());
        }
    }
    FileList::from_paths(&paths)
}
