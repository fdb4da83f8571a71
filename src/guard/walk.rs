//! One walk of a tree's directories for the snapshot of the files on disk ([`super::tree`]):
//! every entry not ignored, each directory with its modification time.
//!
//! A walk's cost is the kernel's: opening, listing and closing each directory. This one makes
//! those calls and no others (an entry's kind comes from its directory listing, never a `stat`;
//! a directory's time from a `stat` of the handle it is read through), reads names into a
//! buffer reused for every directory instead of allocating one per entry, and leaves out what
//! the guard ignores (`.git`, hidden entries outside a repository, what ignore files exclude)
//! before anything is built for it. On a generated tree of 91,806 files in 21,226 directories it
//! costs what a minimal C walk with the same calls costs; `find -type f` makes three times as
//! many.
//!
//! The ignore rules are git's: each `.gitignore` applies to its directory's entries and below,
//! a deeper one first (the `.gitignore` files of the directories above the root too), then, in a
//! repository, `info/exclude` and `core.excludesFile`. An ignored directory is not entered.

use ignore::Match;
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use rustix::fs::{AtFlags, FileType, Mode, OFlags, RawDir};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::ffi::OsStr;
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The bytes one listing call reads at most.
const LISTING_BUFFER: usize = 32 * 1024;

/// What a walk tells its caller.
pub(super) trait Visit {
    /// Whether to read the directory `rel` (relative to the root, never the root itself).
    fn enter(&mut self, rel: &str) -> bool;
    /// The directory `rel` (`""` the root) was read; `time` is its modification time in
    /// nanoseconds.
    fn dir(&mut self, rel: &str, time: i128);
    /// A file or a symbolic link (to anything: links are not followed) at `rel`.
    fn file(&mut self, rel: &str);
}

/// How to walk.
pub(super) struct Rules {
    /// In a repository's worktree: hidden entries are walked, and `info/exclude` and
    /// `core.excludesFile` apply. Outside one hidden entries are left out, as editors do (but
    /// never a `.gitignore`: a change to one must be seen).
    pub is_repo: bool,
    /// Ignore files of the whole tree, after every `.gitignore` (`info/exclude`).
    pub excludes: Vec<PathBuf>,
    /// Entries at most (files and directories): a walk of something that is not really a
    /// project stops here.
    pub limit: usize,
}

/// Walk the tree at `root` (absolute), telling `visit` what it finds.
pub(super) fn walk(root: &Path, rules: &Rules, visit: &mut impl Visit) {
    let Ok(fd) = open_dir(rustix::fs::CWD, root.as_os_str().as_bytes()) else { return };
    let mut walker = Walker::new(fd.as_fd(), root, rules);
    walker.ignores = ancestors_ignores(root);
    let Ok(stat) = rustix::fs::fstat(&fd) else { return };
    visit.dir("", time_of(&stat));
    walker.read(fd.as_fd(), visit);
}

/// Read at most `budget` of the directories `pending` (relative to `root`, `""` the root
/// itself) and of those found below them, the nearest to `near` first ([`Nearness`]): each
/// one's files told to `visit`, its subdirectories queued instead of entered. What a walk of
/// the whole tree would find is the union of such reads until nothing is left pending: a
/// directory's ignore rules are those of every directory above it, rebuilt for one read in an
/// earlier process. Returns the directories still to read.
pub(super) fn walk_some(
    root: &Path,
    rules: &Rules,
    (pending, near, budget): (Vec<String>, &str, usize),
    visit: &mut impl Visit,
) -> Vec<String> {
    let Ok(fd) = open_dir(rustix::fs::CWD, root.as_os_str().as_bytes()) else { return Vec::new() };
    let mut walker = Walker::new(fd.as_fd(), root, rules);
    let mut stacks = Stacks { root, above: ancestors_ignores(root), own: HashMap::new() };
    let nearness = Nearness::of(near);
    let mut queue: BinaryHeap<_> = pending.into_iter().map(|d| nearness.key(d)).collect();
    for _ in 0..budget {
        let Some((.., Reverse(rel))) = queue.pop() else { break };
        walker.ignores = stacks.above(&rel);
        let dir = if rel.is_empty() {
            open_dir(fd.as_fd(), b".")
        } else {
            open_dir(fd.as_fd(), rel.as_bytes())
        };
        let Ok(dir) = dir else { continue };
        let Ok(stat) = rustix::fs::fstat(&dir) else { continue };
        visit.dir(&rel, time_of(&stat));
        walker.at(&rel);
        let mut level = OneLevel { visit, found: Vec::new() };
        let own = walker.read(dir.as_fd(), &mut level);
        queue.extend(level.found.into_iter().map(|d| nearness.key(d)));
        stacks.own.insert(rel, own);
    }
    if walker.left == 0 {
        // Past the limit nothing more is told: the walk is over.
        return Vec::new();
    }
    queue.into_iter().map(|(.., Reverse(rel))| rel).collect()
}

/// Which directories a miss reads first: those sharing the most leading names with the missing
/// path (the path's own directory, then its parent's other subdirectories, and so up to the
/// root), among them the shallowest, then by name.
struct Nearness<'a> {
    names: Vec<&'a str>,
}

/// A directory's place in the queue of [`walk_some`]: the greatest first.
type Key = (usize, Reverse<usize>, Reverse<String>);

impl<'a> Nearness<'a> {
    fn of(near: &'a str) -> Self {
        Self { names: near.split('/').filter(|n| !n.is_empty()).collect() }
    }

    fn key(&self, dir: String) -> Key {
        let names = dir.split('/').filter(|n| !n.is_empty());
        let shared = names.clone().zip(&self.names).take_while(|(a, b)| a == *b).count();
        (shared, Reverse(names.count()), Reverse(dir))
    }
}

/// The `.gitignore` rules in force in a directory read on its own: those above the root, then
/// those of each directory from the root down to it (each read once per walk).
struct Stacks<'a> {
    root: &'a Path,
    above: Vec<Rc<Gitignore>>,
    /// Each directory's own rules (relative path), as read.
    own: HashMap<String, Option<Rc<Gitignore>>>,
}

impl Stacks<'_> {
    /// The rules of the directories above `rel` (not its own), the deepest last.
    fn above(&mut self, rel: &str) -> Vec<Rc<Gitignore>> {
        let mut stack = self.above.clone();
        if rel.is_empty() {
            return stack;
        }
        let mut dirs = vec![""];
        dirs.extend(rel.match_indices('/').map(|(at, _)| &rel[..at]));
        for dir in dirs {
            let own = self
                .own
                .entry(dir.to_owned())
                .or_insert_with(|| gitignore(&self.root.join(dir)).map(Rc::new));
            stack.extend(own.clone());
        }
        stack
    }
}

/// A [`Visit`] that reads one directory: its subdirectories are noted, not entered.
struct OneLevel<'v, V> {
    visit: &'v mut V,
    found: Vec<String>,
}

impl<V: Visit> Visit for OneLevel<'_, V> {
    fn enter(&mut self, rel: &str) -> bool {
        if self.visit.enter(rel) {
            self.found.push(rel.to_owned());
        }
        false
    }

    fn dir(&mut self, rel: &str, time: i128) {
        self.visit.dir(rel, time);
    }

    fn file(&mut self, rel: &str) {
        self.visit.file(rel);
    }
}

/// The `.gitignore` files of the directories above `root`, the nearest last.
fn ancestors_ignores(root: &Path) -> Vec<Rc<Gitignore>> {
    let mut found: Vec<Rc<Gitignore>> =
        root.ancestors().skip(1).filter_map(gitignore).map(Rc::new).collect();
    found.reverse();
    found
}

fn excludes(root: &Path, rules: &Rules) -> Vec<Gitignore> {
    if !rules.is_repo {
        return Vec::new();
    }
    let mut excludes: Vec<Gitignore> = rules
        .excludes
        .iter()
        .filter_map(|path| {
            let mut builder = GitignoreBuilder::new(root);
            builder.add(path).is_none().then(|| builder.build().ok()).flatten()
        })
        .collect();
    // `core.excludesFile` (or git's default) last: the weakest.
    let (global, _) = GitignoreBuilder::new(root).build_global();
    excludes.push(global);
    excludes.retain(|matcher| !matcher.is_empty());
    excludes
}

/// The rules of `dir/.gitignore`, `None` without any.
fn gitignore(dir: &Path) -> Option<Gitignore> {
    let mut builder = GitignoreBuilder::new(dir);
    // A file that cannot be read, or a line that is not a glob, leaves the rest in force, as
    // in git.
    let _ = builder.add(dir.join(".gitignore"));
    builder.build().ok().filter(|ignore| !ignore.is_empty())
}

/// A listed entry's kind, before its name in [`Walker::names`].
const DIR: u8 = b'd';
const FILE: u8 = b'f';

struct Walker<'r> {
    root: BorrowedFd<'r>,
    rules: &'r Rules,
    /// The absolute path of the entry at hand: what ignore rules match.
    abs: Vec<u8>,
    /// The length of the root's absolute path.
    root_len: usize,
    /// The same relative to the root.
    rel: String,
    /// The `.gitignore` rules in force, the deepest last.
    ignores: Vec<Rc<Gitignore>>,
    excludes: Vec<Gitignore>,
    /// The entries (kind, name, NUL) of every directory being walked, still to visit.
    names: Vec<u8>,
    buffer: Vec<MaybeUninit<u8>>,
    /// Entries still allowed.
    left: usize,
}

impl<'r> Walker<'r> {
    fn new(root: BorrowedFd<'r>, path: &Path, rules: &'r Rules) -> Self {
        let abs = path.as_os_str().as_bytes().to_vec();
        Walker {
            root,
            rules,
            root_len: abs.len(),
            abs,
            rel: String::new(),
            ignores: Vec::new(),
            excludes: excludes(path, rules),
            names: Vec::new(),
            buffer: vec![MaybeUninit::uninit(); LISTING_BUFFER],
            left: rules.limit,
        }
    }

    /// Stand at the directory `rel` (relative to the root).
    fn at(&mut self, rel: &str) {
        self.abs.truncate(self.root_len);
        if !rel.is_empty() {
            self.abs.push(b'/');
            self.abs.extend_from_slice(rel.as_bytes());
        }
        rel.clone_into(&mut self.rel);
    }

    /// Read the directory `fd` (at `rel`), visit its files and walk its subdirectories. The
    /// listing is read whole first: its `.gitignore`, wherever it comes in the listing, rules
    /// over every entry beside it. Returns those rules.
    fn read(&mut self, fd: BorrowedFd<'_>, visit: &mut impl Visit) -> Option<Rc<Gitignore>> {
        let (rel_len, abs_len, ignores_len) = (self.rel.len(), self.abs.len(), self.ignores.len());
        let start = self.names.len();
        let own = if self.list(fd) {
            gitignore(Path::new(OsStr::from_bytes(&self.abs))).map(Rc::new)
        } else {
            None
        };
        self.ignores.extend(own.clone());
        for (at, end) in self.sorted(start) {
            let is_dir = self.names[at] == DIR;
            self.push(at + 1, end);
            if self.is_ignored(is_dir) || !self.take_one() {
                self.pop(rel_len, abs_len);
                continue;
            }
            if !is_dir {
                visit.file(&self.rel);
            } else if visit.enter(&self.rel)
                && let Ok(child) = open_dir(self.root, self.rel.as_bytes())
                && let Ok(stat) = rustix::fs::fstat(&child)
            {
                visit.dir(&self.rel, time_of(&stat));
                self.read(child.as_fd(), visit);
            }
            self.pop(rel_len, abs_len);
        }
        self.names.truncate(start);
        self.ignores.truncate(ignores_len);
        own
    }

    /// The entries listed in `names` from `start` (each the range of its kind and name), in the
    /// order that makes the walk's paths come sorted: by name, a directory's name followed by
    /// the `/` its paths continue with (`a.txt` before `a/b`). The snapshot's lists are sorted,
    /// and sorting a list that comes sorted is one pass, where sorting 100,000 paths in the
    /// order a directory listing gives them is a fifth of the walk's own work.
    fn sorted(&self, start: usize) -> Vec<(usize, usize)> {
        let mut entries = Vec::new();
        let mut at = start;
        while at < self.names.len() {
            let end = at + 1 + memchr::memchr(0, &self.names[at + 1..]).unwrap_or(0);
            entries.push((at, end));
            at = end + 1;
        }
        let key = |&(at, end): &(usize, usize)| {
            let slash: &[u8] = if self.names[at] == DIR { b"/" } else { b"" };
            self.names[at + 1..end].iter().chain(slash)
        };
        entries.sort_unstable_by(|a, b| key(a).cmp(key(b)));
        entries
    }

    /// Note the entries of the directory `fd` in `names`; whether it holds a `.gitignore`.
    fn list(&mut self, fd: BorrowedFd<'_>) -> bool {
        let mut has_gitignore = false;
        let mut listing = RawDir::new(fd, &mut self.buffer);
        while let Some(Ok(entry)) = listing.next() {
            let name = entry.file_name().to_bytes();
            if name == b"." || name == b".." || name == b".git" {
                continue;
            }
            if name == b".gitignore" {
                has_gitignore = true;
            } else if name.first() == Some(&b'.') && !self.rules.is_repo {
                continue;
            }
            // A name that is not UTF-8 can be neither suggested nor written in the snapshot.
            if std::str::from_utf8(name).is_err() {
                continue;
            }
            let kind = match entry.file_type() {
                FileType::Unknown => kind_at(fd, name),
                kind => kind,
            };
            let tag = match kind {
                FileType::Directory => DIR,
                FileType::RegularFile | FileType::Symlink => FILE,
                _ => continue,
            };
            self.names.push(tag);
            self.names.extend_from_slice(name);
            self.names.push(0);
        }
        has_gitignore
    }

    /// Whether the entry at hand is ignored: the deepest `.gitignore` that says anything
    /// decides, else the excludes.
    fn is_ignored(&self, is_dir: bool) -> bool {
        let path = Path::new(OsStr::from_bytes(&self.abs));
        let ignores = self.ignores.iter().rev().map(|rc| &**rc).chain(&self.excludes);
        ignores
            .map(|ignore| ignore.matched(path, is_dir))
            .find(|m| !m.is_none())
            .is_some_and(|m| matches!(m, Match::Ignore(_)))
    }

    /// Count one entry against the limit; `false` once it is reached.
    fn take_one(&mut self) -> bool {
        let Some(left) = self.left.checked_sub(1) else { return false };
        self.left = left;
        true
    }

    /// Step into the entry whose name is `names[start..end]` (UTF-8: [`Walker::list`] keeps
    /// no other).
    fn push(&mut self, start: usize, end: usize) {
        let name = &self.names[start..end];
        if !self.rel.is_empty() {
            self.rel.push('/');
        }
        self.rel.push_str(std::str::from_utf8(name).unwrap_or_default());
        self.abs.push(b'/');
        self.abs.extend_from_slice(name);
    }

    fn pop(&mut self, rel_len: usize, abs_len: usize) {
        self.rel.truncate(rel_len);
        self.abs.truncate(abs_len);
    }
}

fn open_dir(at: impl AsFd, path: &[u8]) -> rustix::io::Result<OwnedFd> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    rustix::fs::openat(at, path, flags, Mode::empty())
}

/// The kind of `name` in the directory `fd`, for a file system whose listings do not say.
fn kind_at(fd: BorrowedFd<'_>, name: &[u8]) -> FileType {
    rustix::fs::statat(fd, name, AtFlags::SYMLINK_NOFOLLOW)
        .map_or(FileType::Unknown, |stat| FileType::from_raw_mode(stat.st_mode))
}

fn time_of(stat: &rustix::fs::Stat) -> i128 {
    i128::from(stat.st_mtime) * 1_000_000_000 + i128::from(stat.st_mtime_nsec)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Seen {
        dirs: Vec<String>,
        files: Vec<String>,
    }

    impl Visit for Seen {
        fn enter(&mut self, _: &str) -> bool {
            true
        }
        fn dir(&mut self, rel: &str, _: i128) {
            self.dirs.push(rel.to_owned());
        }
        fn file(&mut self, rel: &str) {
            self.files.push(rel.to_owned());
        }
    }

    /// The files come in sorted order, whatever order the directories list them in: names
    /// that sort between a directory's name and its paths (`a.txt`, `a-b`) included.
    #[test]
    fn the_files_come_sorted() {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        for path in ["a/b", "a.txt", "a-b/c", "a b", "a/z/y", "a/c.d", "ab", "B/x", "a0/q", "a"] {
            if path == "a" {
                continue;
            }
            std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
            std::fs::write(root.join(path), "").unwrap();
        }
        let mut seen = Seen::default();
        walk(&root, &Rules { is_repo: false, excludes: Vec::new(), limit: 100 }, &mut seen);
        let mut sorted = seen.files.clone();
        sorted.sort();
        assert_eq!(seen.files, sorted);
        assert_eq!(seen.files.len(), 9);
        assert_eq!(seen.dirs.len(), 6, "{:?}", seen.dirs);
    }

    /// The limit counts files and directories; past it nothing more is told.
    #[test]
    fn a_walk_stops_at_its_limit() {
        let dir = tempfile::tempdir().unwrap();
        for i in 0..10 {
            std::fs::create_dir_all(dir.path().join(format!("d{i}"))).unwrap();
            std::fs::write(dir.path().join(format!("d{i}/f")), "").unwrap();
        }
        let mut seen = Seen::default();
        walk(dir.path(), &Rules { is_repo: false, excludes: Vec::new(), limit: 7 }, &mut seen);
        // The root, then up to seven entries.
        assert_eq!(seen.dirs.len() - 1 + seen.files.len(), 7);
    }
}
