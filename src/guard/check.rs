//! One path argument against the filesystem: argument-rejection patterns first, then containment in
//! the workspace after resolving symlinks, then existence as the argument's [`Role`] requires.

use super::{PathArg, Role};
use crate::contract::{ArgOptions, ArgOutcome, ArgPolicy, ArgType, RejectedPattern};
use crate::path;
use std::io;
use std::path::{Component, Path, PathBuf};

/// A hallucination pattern in a path argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Rejection {
    /// The argument-rejection pattern (`path_traversal`, `percent_encoded_segment`, `git_dir`,
    /// ...).
    pub pattern: RejectedPattern,
    /// What is wrong with the input and what to do.
    pub message: String,
}

/// The argument-rejection checks for a path argument: the same checks (`contract::check_arg`) that
/// `patchgate check-arg --type path` runs (absolute paths pass; traversal, encodings, control
/// bytes and look-alike separators do not), then the guard's own workspace rules: nothing in
/// the git directory, no `~` (file tools do not expand it).
pub(super) fn reject_pattern(policy: &ArgPolicy, raw: &str) -> Option<Rejection> {
    if let ArgOutcome::Rejected(r) = policy.check(ArgType::Path, raw, &ArgOptions::default()) {
        return Some(Rejection { pattern: r.pattern, message: r.message });
    }
    let reject = |pattern: RejectedPattern, why: &str| {
        Some(Rejection { pattern, message: format!("path '{raw}' {why}") })
    };
    if raw.starts_with('~') {
        return reject(
            RejectedPattern::HomeDir,
            "starts with '~', which the tool does not expand; give the path inside the workspace",
        );
    }
    if raw.split('/').any(path::is_git_dir_component) {
        return reject(
            RejectedPattern::GitDir,
            "is inside the git directory, which agents may never touch; use git commands",
        );
    }
    None
}

/// Where a path argument stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Standing {
    /// It exists, or the role does not need it to.
    Fine {
        /// Whether it named something that exists (resets the hallucination counter).
        is_real: bool,
    },
    /// It resolves outside every root; the resolved path.
    Outside(PathBuf),
    /// It (or, for a creation, its parent) is missing.
    Missing(Missing),
}

/// A missing path, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Missing {
    /// The path with symlinks of its existing part resolved.
    pub real: PathBuf,
    /// Its closest existing ancestor (resolved).
    pub ancestor: PathBuf,
    /// For creations: the parent directory is what is missing.
    pub is_parent_gone: bool,
}

/// The filesystem view one call is checked against.
#[derive(Debug, Default)]
pub(super) struct Checker {
    /// Canonical workspace roots and extra roots.
    pub roots: Vec<PathBuf>,
    /// Canonical workspace roots alone: where a symbolic link may point.
    pub workspace: Vec<PathBuf>,
    /// Paths created earlier in the same call (`mkdir d && touch d/f`).
    pub created: Vec<PathBuf>,
}

impl Checker {
    pub fn check(&mut self, arg: &PathArg) -> io::Result<Standing> {
        let lexical = lexical_join(&arg.base, &arg.raw);
        let (ancestor, rest) = existing_ancestor(&lexical, false)?;
        let real = rest.iter().fold(ancestor.clone(), |p, c| p.join(c));
        // Where the path lands with every link on it followed, dangling ones too: a write
        // through `link -> /outside/new` creates `/outside/new`.
        let (landing, landing_missing) = if rest.is_empty() {
            (real.clone(), 0)
        } else {
            let (found, below) = existing_ancestor(&lexical, true)?;
            (below.iter().fold(found, |p, c| p.join(c)), below.len())
        };
        let roots = if arg.role == Role::LinkTarget { &self.workspace } else { &self.roots };
        if !roots.iter().any(|root| landing.starts_with(root)) {
            return Ok(Standing::Outside(landing));
        }
        let exists = rest.is_empty() || self.is_created(&real);
        let standing = match arg.role {
            Role::Existing | Role::Modify | Role::Directory | Role::Entry | Role::Extract
                if exists =>
            {
                Standing::Fine { is_real: true }
            }
            Role::Existing | Role::Modify | Role::Directory | Role::Entry | Role::Extract => {
                Standing::Missing(Missing { real, ancestor, is_parent_gone: false })
            }
            Role::Create => {
                let parent_exists =
                    landing_missing <= 1 || real.parent().is_some_and(|p| self.is_created(p));
                if !parent_exists {
                    return Ok(Standing::Missing(Missing { real, ancestor, is_parent_gone: true }));
                }
                self.created.push(real);
                Standing::Fine { is_real: true }
            }
            Role::CreateDirs => {
                self.created.push(real);
                Standing::Fine { is_real: true }
            }
            Role::Unchecked | Role::LinkTarget => Standing::Fine { is_real: exists },
        };
        Ok(standing)
    }

    fn is_created(&self, path: &Path) -> bool {
        self.created.iter().any(|c| c.starts_with(path))
    }
}

/// `base/raw` with `.` dropped (absolute `raw` replaces `base`). `..` never reaches here in
/// arguments; in a base it is resolved by the canonicalisation of the existing part.
pub(super) fn lexical_join(base: &Path, raw: &str) -> PathBuf {
    let joined = base.join(raw);
    joined.components().filter(|c| !matches!(c, Component::CurDir)).collect()
}

/// Where `arg` points, its directory resolved and its last component not followed (a link
/// named `.patchgate.toml` is still `.patchgate.toml`).
pub(super) fn resolve_entry(arg: &PathArg) -> io::Result<PathBuf> {
    let lexical = lexical_join(&arg.base, &arg.raw);
    let (Some(parent), Some(name)) = (lexical.parent(), lexical.file_name()) else {
        return Ok(lexical);
    };
    let (ancestor, rest) = existing_ancestor(parent, false)?;
    Ok(rest.iter().fold(ancestor, |p, c| p.join(c)).join(name))
}

/// Where a write to `arg` lands: every link followed, a dangling one too.
pub(super) fn resolve_all(arg: &PathArg) -> io::Result<PathBuf> {
    let (ancestor, rest) = existing_ancestor(&lexical_join(&arg.base, &arg.raw), true)?;
    Ok(rest.iter().fold(ancestor, |p, c| p.join(c)))
}

/// Links followed at most while resolving one path, as the kernel's `ELOOP` limit.
const MAX_LINKS: usize = 40;

/// The closest existing ancestor of `path` (itself when it exists), canonicalised, and the
/// missing components below it. With `follows_dangling`, a dangling link on the way is
/// followed to where it points (`echo x > link` creates the link's target, which may lie
/// outside the workspace); without, it counts as missing, as a reader sees it.
fn existing_ancestor(
    path: &Path,
    follows_dangling: bool,
) -> io::Result<(PathBuf, Vec<std::ffi::OsString>)> {
    let mut path = path.to_owned();
    for _ in 0..=MAX_LINKS {
        match ancestor_or_link(&path, follows_dangling)? {
            Walk::Found(real, rest) => return Ok((real, rest)),
            Walk::Link(next) => path = next,
        }
    }
    Err(io::Error::other(format!("'{}': too many levels of symbolic links", path.display())))
}

/// One walk up from `path`: the existing ancestor, or the path again through a dangling link.
enum Walk {
    Found(PathBuf, Vec<std::ffi::OsString>),
    Link(PathBuf),
}

fn ancestor_or_link(path: &Path, follows_dangling: bool) -> io::Result<Walk> {
    let mut rest = Vec::new();
    let mut current = path;
    loop {
        match std::fs::canonicalize(current) {
            Ok(real) => {
                rest.reverse();
                return Ok(Walk::Found(real, rest));
            }
            Err(e) if is_missing(&e) => {}
            Err(e) => return Err(e),
        }
        // Only an entry that exists as a link reads as one; its parent exists.
        if let Some(target) = follows_dangling.then(|| std::fs::read_link(current).ok()).flatten() {
            let parent = std::fs::canonicalize(current.parent().unwrap_or(Path::new("/")))?;
            let mut next = normalise(&parent.join(target));
            next.extend(rest.iter().rev());
            return Ok(Walk::Link(next));
        }
        let Some(name) = current.file_name() else {
            return Err(io::Error::new(io::ErrorKind::NotFound, "no existing ancestor"));
        };
        rest.push(name.to_owned());
        current = current.parent().unwrap_or(Path::new("/"));
    }
}

/// `path` with `.` dropped and `..` taken lexically (a link's target is read from its parent,
/// which exists and is resolved).
fn normalise(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn is_missing(e: &io::Error) -> bool {
    // A file used as a directory (`README.md/x`) is as missing as a missing name.
    matches!(e.kind(), io::ErrorKind::NotFound | io::ErrorKind::NotADirectory)
}

/// A directory's entries, sorted, directories marked with `/`, `.git` hidden; at most `limit`
/// of them, and how many were left out.
pub(super) fn listing(dir: &Path, limit: usize) -> io::Result<(Vec<String>, usize)> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == ".git" {
            continue;
        }
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir())
            || entry.file_type().is_ok_and(|t| t.is_symlink()) && entry.path().is_dir();
        names.push(if is_dir { format!("{name}/") } else { name });
    }
    names.sort();
    let omitted = names.len().saturating_sub(limit);
    names.truncate(limit);
    Ok((names, omitted))
}
