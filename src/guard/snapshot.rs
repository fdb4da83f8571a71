//! The snapshot of a tree's files on disk ([`super::tree`]) as files: a base, and the parts a
//! walk in steps adds on top of it.
//!
//! The base (`state`) is the snapshot as of its last whole write: a new walk, a check that
//! found a change, or the merge of a walk in steps. A walk that reads the tree a budget of
//! directories at a time writes each step as a part of its own (`part-1`, `part-2`, ...): the
//! directories, files and ignore files that step read, and the directories still to read after
//! it. A step so costs what it read, not the tree known so far; the parts are merged into a new
//! base once, at the first miss after the walk is complete (or sooner, when a check finds a
//! change: it reads and writes the whole snapshot then anyway).
//!
//! Every file is written whole under a temporary name and renamed into place. It begins with a
//! version line, its generation, the generation of the piece it continues (a part: the base or
//! the part before it; the base: none) and how many entries the snapshot holds with it, and ends
//! with a line repeating its generation. A file of another version is never read (the snapshot
//! is walked again); a part that does not continue the piece before it (left from an older
//! walk) or is cut short ends the chain: the walk resumes from the piece before it, reading that
//! step's directories again.
//!
//! The files live where code the agent runs can write, so what is read back is checked: only
//! clean relative paths (no `..`, nothing absolute), and at most [`WALK_LIMIT`] entries a file.

use std::fmt::Write as _;
use std::io::{BufRead as _, Read as _, Seek as _, Write as _};
use std::path::{Path, PathBuf};

/// Entries at most: a walk of something that is not really a project stops here.
pub(super) const WALK_LIMIT: usize = 200_000;
/// The first line of every file of a snapshot of this layout.
const VERSION: &str = "patchgate tree snapshot v4";
/// The base's file name.
pub(super) const BASE: &str = "state";
/// What the name of every part begins with (`part-1`, `part-2`, ...).
const PART: &str = "part-";

/// A snapshot's content (of the base, of a part, or of both merged).
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct State {
    /// Changes with every write: the key of the indexes built from it.
    pub generation: String,
    /// Ignore files with their modification time; a change means a new walk.
    pub rules: Vec<(PathBuf, i128)>,
    /// Directories walked (relative; `""` is the root) with their modification time and the
    /// signature of the names the index listed in them then, sorted.
    pub dirs: Vec<(String, i128, u64)>,
    /// The files found (relative), sorted.
    pub files: Vec<String>,
    /// Directories found but not read yet (relative, sorted): the snapshot of a walk that
    /// stopped at its budget, resumed at the next miss. A part's are all those left after it.
    pub pending: Vec<String>,
}

/// The first lines of a file of the snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Head {
    pub generation: String,
    /// The generation of the piece this part continues (empty: the base).
    pub parent: String,
    /// Entries (files, directories, directories not read yet) of the snapshot up to this piece:
    /// what counts against [`WALK_LIMIT`].
    pub known: usize,
}

/// The pieces of a snapshot that make it up now: the base's head, then each part's, in order.
#[derive(Debug)]
pub(super) struct Listing {
    pub heads: Vec<Head>,
}

impl Listing {
    /// The newest piece: the snapshot's generation is its.
    pub(super) fn last(&self) -> &Head {
        self.heads.last().expect("a listing holds the base at least")
    }
}

/// The file of the `at`-th piece (0 the base).
pub(super) fn piece_file(dir: &Path, at: usize) -> PathBuf {
    if at == 0 { dir.join(BASE) } else { dir.join(format!("{PART}{at}")) }
}

/// The pieces of the snapshot in `dir`: the base, then each part that continues the piece before
/// it and is whole. `None` without a base of this layout.
pub(super) fn list(dir: &Path) -> Option<Listing> {
    let base = read_head(&dir.join(BASE)).filter(|h| h.parent.is_empty())?;
    let mut heads = vec![base];
    for at in 1.. {
        let path = piece_file(dir, at);
        let Some(head) = read_head(&path) else { break };
        if head.parent != heads[at - 1].generation || !ends_whole(&path, &head.generation) {
            break;
        }
        heads.push(head);
    }
    Some(heads).map(|heads| Listing { heads })
}

/// The directories not read yet after the newest piece of `listing` (its `P` lines alone).
pub(super) fn pending(dir: &Path, listing: &Listing) -> Option<Vec<String>> {
    let path = piece_file(dir, listing.heads.len() - 1);
    let mut lines = std::io::BufReader::new(std::fs::File::open(path).ok()?).lines();
    let head = head_of(&mut lines)?;
    if head != *listing.last() {
        return None;
    }
    let mut pending = Vec::new();
    for line in lines.take(WALK_LIMIT) {
        let line = line.ok()?;
        let Some(dir) = line.strip_prefix("P\t") else { break };
        if !(dir.is_empty() || is_clean(dir)) {
            return None;
        }
        pending.push(dir.to_owned());
    }
    Some(pending)
}

/// The content of the `at`-th piece (0 the base), `None` unless it is whole; its directories
/// still to read only when `keeps_pending` (each part repeats all of them: a merge needs the
/// last part's alone).
pub(super) fn read_piece(dir: &Path, at: usize, keeps_pending: bool) -> Option<(Head, State)> {
    parse(&std::fs::read_to_string(piece_file(dir, at)).ok()?, keeps_pending)
}

/// The whole snapshot: the base and every part of `listing` merged (sorted), its generation the
/// newest piece's.
pub(super) fn load(dir: &Path, listing: &Listing) -> Option<State> {
    let last = listing.heads.len() - 1;
    let (_, mut state) = read_piece(dir, 0, last == 0)?;
    for (at, head) in listing.heads.iter().enumerate().skip(1) {
        let (read, part) = read_piece(dir, at, at == last)?;
        if read != *head {
            return None;
        }
        state.rules.extend(part.rules);
        state.dirs.extend(part.dirs);
        state.files.extend(part.files);
        state.pending = part.pending;
        state.generation = part.generation;
    }
    // Sorted runs one after the other: the stable sort merges them.
    state.files.sort();
    state.dirs.sort_by(|a, b| a.0.cmp(&b.0));
    state.rules.sort_unstable();
    state.rules.dedup_by(|a, b| a.0 == b.0);
    Some(state)
}

/// Write `state` as the base, and remove the parts (they are in it now, or of an older walk).
pub(super) fn write_base(dir: &Path, state: &State) -> std::io::Result<()> {
    let known = state.files.len() + state.dirs.len() + state.pending.len();
    let head = Head { generation: state.generation.clone(), parent: String::new(), known };
    write_piece(&dir.join(BASE), &head, state)?;
    // Best effort: a part left behind continues no piece of this base, so it is never read.
    if let Ok(entries) = std::fs::read_dir(dir) {
        for entry in entries.flatten() {
            if entry.file_name().to_str().is_some_and(|name| name.starts_with(PART)) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    Ok(())
}

/// Write `state` as the part after the pieces of `listing`.
pub(super) fn write_part(dir: &Path, listing: &Listing, state: &State, known: usize) -> Option<()> {
    let head = Head {
        generation: state.generation.clone(),
        parent: listing.last().generation.clone(),
        known,
    };
    write_piece(&piece_file(dir, listing.heads.len()), &head, state).ok()
}

/// The name of the cache of the `at`-th piece's list called `name`.
pub(super) fn cache_file(dir: &Path, at: usize, name: &str) -> PathBuf {
    if at == 0 { dir.join(name) } else { dir.join(format!("{PART}{at}.{name}")) }
}

fn head_of(lines: &mut impl Iterator<Item = std::io::Result<String>>) -> Option<Head> {
    let mut next = || lines.next().and_then(Result::ok);
    if next()? != VERSION {
        return None;
    }
    let (generation, parent, known) = (next()?, next()?, next()?);
    let generation = generation.strip_prefix("G\t").filter(|g| !g.is_empty())?.to_owned();
    let parent = parent.strip_prefix("C\t")?.to_owned();
    let known = known.strip_prefix("N\t")?.parse().ok()?;
    Some(Head { generation, parent, known })
}

fn read_head(path: &Path) -> Option<Head> {
    head_of(&mut std::io::BufReader::new(std::fs::File::open(path).ok()?).lines())
}

/// Whether the file at `path` ends with the end line of `generation`: it was written whole.
fn ends_whole(path: &Path, generation: &str) -> bool {
    let end = format!("E\t{generation}\n");
    let Ok(mut file) = std::fs::File::open(path) else { return false };
    let Ok(len) = file.metadata().map(|m| m.len()) else { return false };
    let mut tail = Vec::new();
    len >= end.len() as u64
        && file.seek(std::io::SeekFrom::Start(len - end.len() as u64)).is_ok()
        && file.read_to_end(&mut tail).is_ok()
        && tail == end.as_bytes()
}

// ---- a file: the version line, `G<TAB>generation`, `C<TAB>parent`, `N<TAB>known`, then
// `P<TAB>dir`, `R<TAB>mtime<TAB>path`, `D<TAB>mtime<TAB>signature<TAB>dir` and `F<TAB>path`
// lines in that order, then `E<TAB>generation` ----

fn parse(text: &str, keeps_pending: bool) -> Option<(Head, State)> {
    let mut lines = text.split_terminator('\n');
    let head = head_of(&mut lines.by_ref().take(4).map(|l| Ok(l.to_owned())))?;
    let mut state = State { generation: head.generation.clone(), ..State::default() };
    let mut is_whole = false;
    for line in lines.take(3 * WALK_LIMIT + 1) {
        if is_whole {
            return None;
        }
        let (kind, rest) = line.split_once('\t')?;
        match kind {
            "P" if !keeps_pending => {}
            "P" if rest.is_empty() || is_clean(rest) => state.pending.push(rest.to_owned()),
            "R" => state.rules.push(parse_rule(rest)?),
            "D" => state.dirs.push(parse_dir(rest)?),
            "F" if is_clean(rest) => state.files.push(rest.to_owned()),
            "E" if rest == head.generation => is_whole = true,
            _ => return None,
        }
    }
    is_whole.then_some((head, state))
}

fn parse_rule(rest: &str) -> Option<(PathBuf, i128)> {
    let (time, rule) = rest.split_once('\t')?;
    (!rule.contains('\t')).then_some(())?;
    Some((PathBuf::from(rule), time.parse().ok()?))
}

fn parse_dir(rest: &str) -> Option<(String, i128, u64)> {
    let (time, rest) = rest.split_once('\t')?;
    let (signature, dir) = rest.split_once('\t')?;
    if !(dir.is_empty() || is_clean(dir)) {
        return None;
    }
    Some((dir.to_owned(), parse_time(time)?, u64::from_str_radix(signature, 16).ok()?))
}

/// A time as [`write_piece`] wrote it: nanoseconds, or a negative mark. Most fit an `i64`,
/// whose parse is the cheaper.
fn parse_time(text: &str) -> Option<i128> {
    text.parse::<i64>().map(i128::from).ok().or_else(|| text.parse().ok())
}

/// The directory lines of the base at `path`, each `(time, signature, dir)` as bytes, until
/// `each` says stop (`Some`); `None` when the base cannot be read so.
pub(super) fn scan_base_dirs(
    path: &Path,
    mut each: impl FnMut(&[u8]) -> Option<bool>,
) -> Option<bool> {
    let text = std::fs::read(path).ok()?;
    let mut lines = text.split(|&b| b == b'\n');
    if lines.next()? != VERSION.as_bytes() {
        return None;
    }
    for line in lines {
        if line.starts_with(b"F\t") || line.starts_with(b"E\t") {
            // The files come after every directory.
            break;
        }
        let Some(rest) = line.strip_prefix(b"D\t") else { continue };
        if each(rest)? {
            return Some(true);
        }
    }
    Some(false)
}

fn write_piece(path: &Path, head: &Head, state: &State) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let text = render(head, state);
    let mut out = tempfile::NamedTempFile::new_in(dir)?;
    out.write_all(text.as_bytes())?;
    out.persist(path).map_err(|e| e.error)?;
    Ok(())
}

fn render(head: &Head, state: &State) -> String {
    let mut text = String::with_capacity(64 * (state.dirs.len() + state.files.len() + 8));
    let _ =
        writeln!(text, "{VERSION}\nG\t{}\nC\t{}\nN\t{}", head.generation, head.parent, head.known);
    for dir in state.pending.iter().filter(|d| d.is_empty() || is_clean(d)) {
        text.push_str("P\t");
        text.push_str(dir);
        text.push('\n');
    }
    for (rule, time) in &state.rules {
        if let Some(rule) = rule.to_str().filter(|r| !r.contains(['\n', '\t'])) {
            let _ = writeln!(text, "R\t{time}\t{rule}");
        }
    }
    // Pushed piece by piece: `write!` costs more than the rest of a snapshot's write.
    let mut digits = itoa::Buffer::new();
    for (dir, time, signature) in state.dirs.iter().filter(|(d, ..)| d.is_empty() || is_clean(d)) {
        text.push_str("D\t");
        text.push_str(digits.format(*time));
        text.push('\t');
        push_hex(&mut text, *signature);
        text.push('\t');
        text.push_str(dir);
        text.push('\n');
    }
    for file in state.files.iter().filter(|f| is_clean(f)) {
        text.push_str("F\t");
        text.push_str(file);
        text.push('\n');
    }
    let _ = writeln!(text, "E\t{}", head.generation);
    text
}

/// `value` in lowercase hexadecimal, as `{:x}` writes it.
fn push_hex(out: &mut String, value: u64) {
    let digits = (64 - value.leading_zeros()).div_ceil(4).max(1);
    for at in (0..digits).rev() {
        out.push(char::from(b"0123456789abcdef"[((value >> (4 * at)) & 0xf) as usize]));
    }
}

/// A relative path that stays below the root: what the snapshot may hold. What
/// `Path::components` reads as only normal names (`a//b` and `a/./b` are `a/b`), without
/// building them: every line is checked at each read.
pub(super) fn is_clean(path: &str) -> bool {
    let bytes = path.as_bytes();
    memchr::memchr3(b'\n', b'\0', b'\t', bytes).is_none()
        && bytes.first() != Some(&b'/')
        && bytes != b"."
        && !bytes.starts_with(b"./")
        && !bytes.split(|&b| b == b'/').any(|name| name == b"..")
}

#[cfg(test)]
mod tests;
