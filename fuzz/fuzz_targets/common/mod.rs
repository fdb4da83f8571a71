//! A small real repository, built once per fuzzing process, for the targets that need one
//! (`repo`, `receive`, `trailers`, `index`). Commits have fixed authors and times, so their ids
//! are the same in every run and seeds can name them.
//!
//! The base commit `main` holds text files, an executable, a link, a protected directory and a
//! policy that excludes `secret/**` and requires a declaration on push. Side commits (reachable
//! from no ref) are what a push can bring; [`SIDE`] says which of them the policy must refuse.
#![allow(dead_code)] // Each target uses part of this module.

use git2::{IndexAddOption, Oid, Repository, Signature, Time};
use std::collections::BTreeMap;
use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};

/// The base tree (path, content; `@` makes a link to the rest, `!` an executable).
pub const BASE: &[(&str, &str)] = &[
    ("a.txt", "one\ntwo\nthree\nfour\nfive\n"),
    ("src/lib.rs", "pub fn add(a: u32, b: u32) -> u32 {\n    a + b\n}\n"),
    ("src/main.rs", "fn main() {\n    println!(\"{}\", demo::add(1, 2));\n}\n"),
    ("dir/b.txt", "alpha\nbeta\n"),
    ("dir/sub/c.txt", "gamma\n"),
    ("bin/run.sh", "!#!/bin/sh\necho run\n"),
    ("link", "@a.txt"),
    ("secret/key.txt", "s3cr3t\n"),
    (".patchgate.toml", "excluded = [\"secret/**\"]\n\n[hook]\nrequire_declaration = true\n"),
];

/// A side commit: its parent (`None`: the base; `Some(i)`: side commit `i`), the files it
/// writes (`None` content: deleted), its message, and whether the push policy must refuse it.
pub struct Side {
    pub parents: &'static [Option<usize>],
    pub files: &'static [(&'static str, Option<&'static str>)],
    pub message: &'static str,
    pub must_refuse: bool,
}

pub const SIDE: &[Side] = &[
    Side {
        parents: &[None],
        files: &[("src/lib.rs", Some("pub fn add(a: u32, b: u32) -> u32 {\n    a.wrapping_add(b)\n}\n"))],
        message: "Wrap on overflow\n\nPatchgate-Declared: src/lib.rs\n",
        must_refuse: false,
    },
    Side {
        parents: &[Some(0)],
        files: &[("secret/key.txt", Some("leaked\n"))],
        message: "Rotate the key\n\nPatchgate-Declared: secret/key.txt\n",
        must_refuse: true,
    },
    Side {
        parents: &[None],
        files: &[("docs/new.md", Some("# New\n"))],
        message: "Add docs without a declaration\n",
        must_refuse: true,
    },
    Side {
        parents: &[Some(0), Some(2)],
        files: &[("src/lib.rs", Some("pub fn add(a: u32, b: u32) -> u32 {\n    a.wrapping_add(b)\n}\n")), ("docs/new.md", Some("# New\n"))],
        message: "Merge docs\n\nPatchgate-Declared: **\n",
        must_refuse: false,
    },
    Side {
        parents: &[None],
        files: &[("dir/b.txt", None), ("secret/b.txt", Some("alpha\nbeta\n"))],
        message: "Move b\n\nPatchgate-Declared: dir/b.txt\nPatchgate-Declared: secret/b.txt\n",
        must_refuse: true,
    },
    Side {
        parents: &[None],
        files: &[("secret/key.txt", None)],
        message: "Drop the key\n\nPatchgate-Declared: secret/**\n",
        must_refuse: true,
    },
];

pub struct Fixture {
    /// The worktree (checked out at `main`).
    pub root: PathBuf,
    /// A directory beside the repository that nothing may ever write to.
    pub outside: PathBuf,
    pub base: Oid,
    pub side: Vec<Oid>,
    /// `outside`'s content when the fixture was built.
    outside_files: Files,
}

pub type Files = BTreeMap<PathBuf, Entry>;

/// What one worktree entry is, links not followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    Dir,
    File { executable: bool, bytes: Vec<u8> },
    Link(PathBuf),
}

fn signature() -> Signature<'static> {
    Signature::new("fuzz", "fuzz@example.org", &Time::new(1_700_000_000, 0)).expect("signature")
}

impl Fixture {
    /// Build the repository in a new directory under the system's temporary directory; the
    /// directories of earlier fuzzing processes that are gone are removed first.
    pub fn build() -> Self {
        let tmp = std::env::temp_dir();
        remove_stale(&tmp);
        let top = tmp.join(format!("patchgate-fuzz-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&top);
        let root = top.join("repo");
        let outside = top.join("outside");
        std::fs::create_dir_all(outside.join("sub")).expect("outside");
        std::fs::write(outside.join("canary.txt"), "canary\n").expect("canary");
        std::fs::write(outside.join("sub/c.txt"), "gamma\n").expect("canary");
        let repo = Repository::init(&root).expect("init");
        repo.config().and_then(|mut c| c.set_str("core.autocrlf", "false")).expect("config");
        write_files(&root, BASE.iter().map(|(p, c)| (*p, Some(*c))));
        let base = commit_all(&repo, &[], "Base\n", Some("HEAD"));
        let mut side = Vec::new();
        for s in SIDE {
            let parents: Vec<Oid> =
                s.parents.iter().map(|p| p.map_or(base, |i| side[i])).collect();
            reset_to(&repo, &root, parents[0]);
            // A merge's first parent is checked out; the others' files come from `files`.
            write_files(&root, s.files.iter().copied());
            side.push(commit_all(&repo, &parents, s.message, None));
        }
        reset_to(&repo, &root, base);
        let outside_files = snapshot(&outside);
        Self { root, outside, base, side, outside_files }
    }

    pub fn open(&self) -> Repository {
        Repository::open(&self.root).expect("open the fixture")
    }

    /// The worktree put back to `main`: every entry but `.git` removed (links themselves, never
    /// what they point to), then checked out again with the index.
    pub fn reset(&self, repo: &Repository) {
        reset_to(repo, &self.root, self.base);
    }

    /// Panics when anything outside the repository changed.
    pub fn assert_outside_untouched(&self) {
        assert_eq!(snapshot(&self.outside), self.outside_files, "wrote outside the repository");
    }

    /// The worktree, `.git` left out.
    pub fn worktree(&self) -> Files {
        let mut files = snapshot(&self.root);
        files.retain(|p, _| !p.starts_with(".git"));
        files
    }
}

fn write_files<'a>(root: &Path, files: impl Iterator<Item = (&'a str, Option<&'a str>)>) {
    for (path, content) in files {
        let target = root.join(path);
        let _ = std::fs::remove_file(&target);
        let Some(content) = content else { continue };
        std::fs::create_dir_all(target.parent().expect("parent")).expect("mkdir");
        if let Some(link) = content.strip_prefix('@') {
            symlink(link, &target).expect("link");
        } else if let Some(script) = content.strip_prefix('!') {
            std::fs::write(&target, script).expect("write");
            std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755))
                .expect("chmod");
        } else {
            std::fs::write(&target, content).expect("write");
        }
    }
}

fn commit_all(repo: &Repository, parents: &[Oid], message: &str, head: Option<&str>) -> Oid {
    let mut index = repo.index().expect("index");
    index.add_all(["*"], IndexAddOption::DEFAULT, None).expect("add");
    index.update_all(["*"], None).expect("update");
    index.write().expect("write index");
    let tree = repo.find_tree(index.write_tree().expect("tree")).expect("tree");
    let parents: Vec<git2::Commit<'_>> =
        parents.iter().map(|p| repo.find_commit(*p).expect("parent")).collect();
    let parents: Vec<&git2::Commit<'_>> = parents.iter().collect();
    let me = signature();
    repo.commit(head, &me, &me, message, &tree, &parents).expect("commit")
}

fn reset_to(repo: &Repository, root: &Path, commit: Oid) {
    for entry in std::fs::read_dir(root).expect("read the worktree").flatten() {
        if entry.file_name() == ".git" {
            continue;
        }
        let path = entry.path();
        // `file_type` does not follow links: a link is removed, never its target.
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        let removed =
            if is_dir { std::fs::remove_dir_all(&path) } else { std::fs::remove_file(&path) };
        removed.expect("clear the worktree");
    }
    let _ = std::fs::remove_file(root.join(".git/index"));
    let _ = std::fs::remove_dir_all(root.join(".git/patchgate"));
    let object = repo.find_object(commit, None).expect("commit");
    let mut checkout = git2::build::CheckoutBuilder::new();
    checkout.force().remove_untracked(true);
    repo.reset(&object, git2::ResetType::Hard, Some(&mut checkout)).expect("reset");
}

/// Every entry below `dir`, links not followed.
pub fn snapshot(dir: &Path) -> Files {
    let mut out = Files::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(dir.join(&rel)) else { continue };
        for entry in entries.flatten() {
            let rel = rel.join(entry.file_name());
            let path = dir.join(&rel);
            let meta = std::fs::symlink_metadata(&path).expect("metadata");
            let kind = if meta.file_type().is_symlink() {
                Entry::Link(std::fs::read_link(&path).expect("link"))
            } else if meta.is_dir() {
                stack.push(rel.clone());
                Entry::Dir
            } else {
                let executable = meta.permissions().mode() & 0o111 != 0;
                Entry::File { executable, bytes: std::fs::read(&path).expect("read") }
            };
            out.insert(rel, kind);
        }
    }
    out
}

/// Remove the fixture directories of fuzzing processes that are gone.
fn remove_stale(tmp: &Path) {
    let Ok(entries) = std::fs::read_dir(tmp) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid = name.to_str().and_then(|n| n.strip_prefix("patchgate-fuzz-"));
        if let Some(pid) = pid.and_then(|p| p.parse::<u32>().ok())
            && !Path::new("/proc").join(pid.to_string()).exists()
        {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// `@N` in `text` replaced by side commit `N`'s id and `@b` by the base's, so the fuzzer can
/// name real commits without guessing 40 hex digits.
pub fn expand_ids(text: &str, fixture: &Fixture) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let id = match (c, chars.peek()) {
            ('@', Some('b')) => Some(fixture.base),
            ('@', Some(d)) => d.to_digit(10).and_then(|d| fixture.side.get(d as usize).copied()),
            _ => None,
        };
        match id {
            Some(id) => {
                chars.next();
                out.push_str(&id.to_string());
            }
            None => out.push(c),
        }
    }
    out
}
