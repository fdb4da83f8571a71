//! The one way `apply` (and `review apply`) touches the real worktree: every read, write,
//! rename, removal and directory creation is relative to a directory handle opened from the
//! repository root one component at a time, never following a symbolic link (`openat` with
//! `O_NOFOLLOW`, through `cap-std`). A path whose directory part meets a link, or anything but
//! a directory, is refused, as git refuses a path "beyond a symbolic link": a link planted in
//! the worktree only (`evil -> ../outside`), or a tracked directory replaced by one, cannot lead
//! a write outside the repository. Temporary and backup names are random and created with
//! `O_EXCL`, so no name can be planted in advance.

use cap_fs_ext::DirExt;
use cap_std::ambient_authority;
use cap_std::fs::{Dir, Metadata, OpenOptions, OpenOptionsExt};
use std::collections::HashSet;
use std::io::{self, Write};
use std::path::Path;

/// Why a worktree path cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PathRefused {
    /// A directory component is a symbolic link in the worktree.
    #[error("'{path}' is beyond a symbolic link: '{link}' is a link in the worktree")]
    BeyondLink {
        /// The path to write.
        path: String,
        /// The component that is a link.
        link: String,
    },
    /// A directory component is a file (or another non-directory).
    #[error("'{path}' needs '{component}' to be a directory, but the worktree has a file there")]
    NotADirectory {
        /// The path to write.
        path: String,
        /// The component in the way.
        component: String,
    },
    /// A link the patch writes would point outside the repository.
    #[error("'{path}' would be a symbolic link to '{target}', outside the repository")]
    LinkOutside {
        /// The link.
        path: String,
        /// Its target.
        target: String,
    },
    /// The file system said no.
    #[error("cannot reach '{path}': {source}")]
    Io {
        /// The path.
        path: String,
        /// The I/O error.
        source: io::Error,
    },
}

/// The repository's worktree, reached only through no-follow handles.
#[derive(Debug)]
pub struct Worktree {
    root: Dir,
}

/// A directory of the worktree and the last component of the path asked for.
pub(super) struct Parent<'p> {
    pub dir: Dir,
    pub name: &'p str,
}

impl Worktree {
    /// Open the worktree rooted at `root`.
    pub fn open(root: &Path) -> io::Result<Self> {
        Ok(Self { root: Dir::open_ambient_dir(root, ambient_authority())? })
    }

    /// The directory holding `path` (`/`-separated, repository-relative, already checked) and
    /// its file name. Missing directories are an error unless `made` is given: they are created
    /// then, and each is recorded (outermost first) so a rollback can remove it.
    pub(super) fn parent<'p>(
        &self,
        path: &'p str,
        mut made: Option<&mut Vec<String>>,
    ) -> Result<Parent<'p>, PathRefused> {
        let (dirs, name) = path.rsplit_once('/').map_or(("", path), |(d, n)| (d, n));
        let mut dir = self.root.try_clone().map_err(|e| io_refused(path, e))?;
        let mut so_far = String::new();
        for component in dirs.split('/').filter(|c| !c.is_empty()) {
            if !so_far.is_empty() {
                so_far.push('/');
            }
            so_far.push_str(component);
            match dir.symlink_metadata(component) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    return Err(PathRefused::BeyondLink { path: path.into(), link: so_far });
                }
                Ok(meta) if !meta.is_dir() => {
                    return Err(PathRefused::NotADirectory {
                        path: path.into(),
                        component: so_far,
                    });
                }
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::NotFound => match made.as_deref_mut() {
                    Some(made) => {
                        dir.create_dir(component).map_err(|e| io_refused(&so_far, e))?;
                        made.push(so_far.clone());
                    }
                    None => return Err(io_refused(path, e)),
                },
                Err(e) => return Err(io_refused(path, e)),
            }
            // No-follow even here: a link swapped in since the look above is refused too.
            dir = dir.open_dir_nofollow(component).map_err(|e| {
                match dir.symlink_metadata(component) {
                    Ok(meta) if meta.file_type().is_symlink() => {
                        PathRefused::BeyondLink { path: path.into(), link: so_far.clone() }
                    }
                    _ => io_refused(path, e),
                }
            })?;
        }
        Ok(Parent { dir, name })
    }

    /// The entry at `path` itself, not followed (`None` when there is none).
    pub fn metadata(&self, path: &str) -> Result<Option<Metadata>, PathRefused> {
        let parent = match self.parent(path, None) {
            Ok(parent) => parent,
            Err(PathRefused::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
                return Ok(None);
            }
            Err(e) => return Err(e),
        };
        match parent.dir.symlink_metadata(parent.name) {
            Ok(meta) => Ok(Some(meta)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(io_refused(path, e)),
        }
    }

    /// Whether the directory at `path` holds nothing but entries named in `allowed`
    /// (repository-relative) and directories that themselves hold only such entries: what a
    /// patch that turns the directory into a file may remove, and nothing of the user's.
    pub fn holds_only(&self, path: &str, allowed: &HashSet<&str>) -> Result<bool, PathRefused> {
        let parent = self.parent(path, None)?;
        let dir = parent.dir.open_dir_nofollow(parent.name).map_err(|e| io_refused(path, e))?;
        holds_only(&dir, path, allowed).map_err(|e| io_refused(path, e))
    }

    /// The content of the regular file at `path`.
    pub fn read(&self, path: &str) -> Result<Vec<u8>, PathRefused> {
        let parent = self.parent(path, None)?;
        parent.dir.read(parent.name).map_err(|e| io_refused(path, e))
    }

    /// The target of the link at `path`.
    pub fn read_link(&self, path: &str) -> Result<std::path::PathBuf, PathRefused> {
        let parent = self.parent(path, None)?;
        parent.dir.read_link_contents(parent.name).map_err(|e| io_refused(path, e))
    }
}

fn holds_only(dir: &Dir, path: &str, allowed: &HashSet<&str>) -> io::Result<bool> {
    for entry in dir.entries()? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { return Ok(false) };
        let child = format!("{path}/{name}");
        if allowed.contains(child.as_str()) {
            continue;
        }
        // The entry's own type: a link to a directory is not looked into, it is the user's.
        if !entry.file_type()?.is_dir()
            || !holds_only(&dir.open_dir_nofollow(name)?, &child, allowed)?
        {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Write a new entry at `temp` in `dir` (a name from [`random_name`], chosen in advance so the
/// apply journal can list it), created exclusively: an existing name, or a link planted there,
/// is never opened. On a failed write (a full disk) the partial file is removed.
pub(super) fn write_new(dir: &Dir, temp: &str, content: &Entry<'_>) -> io::Result<()> {
    match content {
        Entry::File { bytes, executable } => {
            let bits = if *executable { 0o755 } else { 0o644 };
            let mut options = OpenOptions::new();
            options.write(true).create_new(true).mode(bits);
            dir.open_with(temp, &options).and_then(|mut file| {
                // A created file is this run's even if a write below fails: remove it then.
                let written = file.write_all(bytes).and_then(|()| {
                    // The mode given at creation is cut by the umask; git writes 0755/0644.
                    file.set_permissions(cap_std::fs::Permissions::from_std(
                        std::os::unix::fs::PermissionsExt::from_mode(bits),
                    ))
                });
                written.inspect_err(|_| {
                    let _ = dir.remove_file(temp);
                })
            })
        }
        Entry::Link { target } => dir.symlink_contents(target, temp),
    }
}

/// What [`write_new`] writes.
pub(super) enum Entry<'b> {
    /// A regular file.
    File {
        /// Its content.
        bytes: &'b [u8],
        /// Mode 100755.
        executable: bool,
    },
    /// A symbolic link.
    Link {
        /// Its target, already checked to stay inside the repository.
        target: &'b Path,
    },
}

/// A name beside `name` that no one can guess, bound to the run `run` (its 32-hex id):
/// `.<name>.patchgate-<run>-<16 random hex>.<what>`. Recovery touches only names that carry its
/// run's id. At most the first 180 bytes of `name` are kept, so a target near the file system's
/// 255-byte limit still gets a temporary name that fits.
pub(super) fn random_name(name: &str, run: &str, what: &str) -> String {
    format!(".{}.patchgate-{run}-{:016x}.{what}", name_stem(name), fastrand::u64(..))
}

/// The part of `name` a [`random_name`] keeps: its first 180 bytes (on a character boundary).
pub(super) fn name_stem(name: &str) -> &str {
    let mut end = name.len().min(180);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

/// Whether a link at `path` pointing at `target` stays inside the repository: relative, and
/// never climbing above the root (`a/l -> ../b` does not; `a/l -> ../../b` does). A `..` after a
/// named component (`x/../b`) is refused too: the system resolves it after following `x`,
/// which may itself be a link (`x -> /outside/dir` makes `x/..` be `/outside`).
#[must_use]
pub fn link_stays_inside(path: &str, target: &[u8]) -> bool {
    if target.first() == Some(&b'/') || target.is_empty() {
        return false;
    }
    let mut depth = path.matches('/').count();
    let mut is_named = false;
    for component in target.split(|&b| b == b'/') {
        match component {
            b"" | b"." => {}
            b".." if is_named => return false,
            b".." => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            _ => {
                depth += 1;
                is_named = true;
            }
        }
    }
    true
}

fn io_refused(path: &str, source: io::Error) -> PathRefused {
    PathRefused::Io { path: path.to_owned(), source }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_targets_must_stay_inside() {
        assert!(link_stays_inside("a/l", b"../b"));
        assert!(link_stays_inside("a/b/l", b"../../c/./d"));
        assert!(
            !link_stays_inside("a/b/l", b"../c/../d"),
            "`c` may be a link: `c/..` is not lexical"
        );
        assert!(!link_stays_inside("l", b"evil/../x"));
        assert!(link_stays_inside("l", b"sub/x"));
        assert!(!link_stays_inside("a/l", b"../../b"));
        assert!(!link_stays_inside("l", b".."));
        assert!(!link_stays_inside("l", b"/etc/passwd"));
        assert!(!link_stays_inside("l", b""));
    }

    #[test]
    fn temporary_names_are_fresh_and_never_reuse_an_entry() {
        let dir = tempfile::tempdir().unwrap();
        let handle = Dir::open_ambient_dir(dir.path(), ambient_authority()).unwrap();
        let run = "0123456789abcdef0123456789abcdef";
        assert_ne!(random_name("a", run, "tmp"), random_name("a", run, "tmp"));
        let long = "é".repeat(127);
        assert!(random_name(&long, run, "bak").len() <= 255, "fits a 255-byte name limit");
        let entry = Entry::File { bytes: b"x", executable: true };
        let name = random_name("a", run, "tmp");
        write_new(&handle, &name, &entry).unwrap();
        assert!(name.starts_with(&format!(".a.patchgate-{run}-")), "{name}");
        assert_eq!(name.rsplit('.').next(), Some("tmp"));
        let again = write_new(&handle, &name, &entry).unwrap_err();
        assert_eq!(again.kind(), io::ErrorKind::AlreadyExists, "never opens an existing name");
        let meta = std::fs::metadata(dir.path().join(&name)).unwrap();
        assert_eq!(std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o777, 0o755);
    }

    #[test]
    fn a_link_or_file_on_the_way_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("real")).unwrap();
        std::os::unix::fs::symlink("real", dir.path().join("link")).unwrap();
        std::fs::write(dir.path().join("file"), "x").unwrap();
        let worktree = Worktree::open(dir.path()).unwrap();
        assert!(worktree.parent("real/x", None).is_ok());
        let refused = worktree.parent("link/x", None).err().unwrap();
        assert!(matches!(refused, PathRefused::BeyondLink { ref link, .. } if link == "link"));
        let refused = worktree.parent("file/x", None).err().unwrap();
        assert!(matches!(refused, PathRefused::NotADirectory { .. }));
        let mut made = Vec::new();
        worktree.parent("new/deeper/x", Some(&mut made)).unwrap();
        assert_eq!(made, ["new", "new/deeper"]);
    }
}
