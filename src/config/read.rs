//! Reading a policy file, from the worktree or from a commit's tree, and the messages about it.
//!
//! A policy is read only from a regular file or a blob: never through a symbolic link (the
//! guard once let an agent swap `.patchgate.toml` for a link to `~/.aws/credentials`, and the
//! next error quoted it), never from a FIFO or device (which would hang every later run), never
//! more than 1 MiB. Anything else is an error, never "no policy".
//!
//! And no message about a policy quotes the file: the TOML reader and serde put the offending
//! line, key or value in their messages; [`redact`] keeps only the position and patchgate's own
//! names, so whatever the file holds (a planted secret) never reaches an agent's transcript.

use super::{Config, ConfigError, FILE_NAME, KNOWN_KEYS};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// The largest policy read.
const MAX_POLICY_BYTES: u64 = 1 << 20;

/// Why a policy cannot be read, as an I/O error for [`ConfigError::Read`].
fn refused(what: &str) -> io::Error {
    io::Error::other(what.to_owned())
}

/// Read a policy file that must be a regular file: opened without following a link and without
/// blocking, at most [`MAX_POLICY_BYTES`].
pub(super) fn read_policy_file(path: &Path) -> io::Result<String> {
    use std::os::unix::fs::OpenOptionsExt;
    let flags = rustix::fs::OFlags::NONBLOCK | rustix::fs::OFlags::NOFOLLOW;
    let opened =
        std::fs::OpenOptions::new().read(true).custom_flags(flags.bits().cast_signed()).open(path);
    let file = opened.map_err(|e| match e.raw_os_error() {
        Some(code) if code == rustix::io::Errno::LOOP.raw_os_error() => refused(
            "a symbolic link; a policy must be a regular file (patchgate reads none through a \
             link)",
        ),
        _ => e,
    })?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(refused(
            "not a regular file (a FIFO, device or directory); it must be a TOML file",
        ));
    }
    if meta.len() > MAX_POLICY_BYTES {
        return Err(refused("larger than 1 MiB; a policy is a short TOML file"));
    }
    let mut bytes = Vec::new();
    file.take(MAX_POLICY_BYTES).read_to_end(&mut bytes)?;
    String::from_utf8(bytes).map_err(|_| refused("not UTF-8 text; a policy is a TOML file"))
}

impl Config {
    /// The policy file at `path` (a server's own `<git-dir>/patchgate.toml`), read as
    /// [`Config::load`] reads the worktree's; `None` when there is none.
    pub fn load_file(path: &Path) -> Result<Option<Self>, ConfigError> {
        match read_policy_file(path) {
            Ok(text) => Self::from_toml(&text, path).map(Some),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(ConfigError::Read { path: path.to_owned(), source }),
        }
    }

    /// The policy `.patchgate.toml` at the root of the commit `rev` resolves to (`HEAD`, a
    /// branch, an id): the default policy when that tree has none. A link, a directory, a
    /// blob over 1 MiB or one that is not UTF-8 is an error, never "no policy".
    pub fn at_rev(repo: &git2::Repository, rev: &str) -> Result<Self, ConfigError> {
        let shown = PathBuf::from(format!("{rev}:{FILE_NAME}"));
        let read_err = |e: &git2::Error| ConfigError::Read {
            path: shown.clone(),
            source: refused(e.message()),
        };
        let tree =
            repo.revparse_single(rev).and_then(|o| o.peel_to_tree()).map_err(|e| read_err(&e))?;
        Self::from_tree(repo, &tree, &shown)
    }

    /// [`Config::at_rev`] for the base a patch is judged against: the default policy when
    /// `rev` names no commit (an unborn `HEAD`, a mistyped `--base`), which the repository check
    /// then reports as the error it is; every other failure is an error here.
    pub fn at_base(repo: &git2::Repository, rev: &str) -> Result<Self, ConfigError> {
        if repo.revparse_single(rev).and_then(|o| o.peel_to_tree()).is_err() {
            return Ok(Self::default());
        }
        Self::at_rev(repo, rev)
    }

    /// The policy at the root of `tree`, shown as `shown` in messages (see [`Config::at_rev`]).
    pub fn from_tree(
        repo: &git2::Repository,
        tree: &git2::Tree<'_>,
        shown: &Path,
    ) -> Result<Self, ConfigError> {
        let read = |source: io::Error| ConfigError::Read { path: shown.to_owned(), source };
        let Some(entry) = tree.get_name(FILE_NAME) else { return Ok(Self::default()) };
        match entry.filemode() {
            0o100_644 | 0o100_755 => {}
            0o120_000 => {
                return Err(read(refused(
                    "a symbolic link; a policy must be a regular file (patchgate reads none through \
                 a link)",
                )));
            }
            _ => return Err(read(refused("not a file (a directory or a submodule)"))),
        }
        let odb = repo.odb().map_err(|e| read(refused(e.message())))?;
        let (size, _) = odb.read_header(entry.id()).map_err(|e| read(refused(e.message())))?;
        if size as u64 > MAX_POLICY_BYTES {
            return Err(read(refused("larger than 1 MiB; a policy is a short TOML file")));
        }
        let blob = repo.find_blob(entry.id()).map_err(|e| read(refused(e.message())))?;
        let text = std::str::from_utf8(blob.content())
            .map_err(|_| read(refused("not UTF-8 text; a policy is a TOML file")))?;
        Self::from_toml(text, shown)
    }
}

/// A TOML reader's or serde's message about the policy, without the policy's content: every
/// quoted part (`` `x` ``, `"x"`, `'x'`) before the word "expected" is replaced by `…` unless
/// it is one of patchgate's own names; what follows "expected" lists patchgate's own names and
/// is kept. The position, when known, is given as a line and column.
pub(super) fn redact(message: &str) -> String {
    let (head, tail) = match message.find("expected") {
        Some(at) => message.split_at(at),
        None => (message, ""),
    };
    let listed: Vec<&str> = tail.split('`').skip(1).step_by(2).collect();
    let ours = |word: &str| KNOWN_KEYS.contains(&word) || listed.contains(&word);
    let mut out = String::with_capacity(message.len());
    let mut rest = head;
    while let Some(open) = rest.find(['`', '"', '\'']) {
        let quote = rest[open..].chars().next().expect("found a quote");
        out.push_str(&rest[..=open]);
        let inner = &rest[open + 1..];
        let Some(close) = inner.find(quote) else {
            out.push('…');
            rest = "";
            break;
        };
        out.push_str(if ours(&inner[..close]) { &inner[..close] } else { "…" });
        out.push(quote);
        rest = &inner[close + 1..];
    }
    out.push_str(rest);
    // One line: the TOML reader's layout (a caret under the quoted line) is dropped with it.
    out.push_str(tail);
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `line L, column C` of byte `at` in `text`.
pub(super) fn position(text: &str, at: usize) -> String {
    let before = &text[..text.floor_char_boundary(at.min(text.len()))];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("line {line}, column {column}")
}
