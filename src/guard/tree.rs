//! The files on disk that the git index does not list (as `git ls-files -o --exclude-standard`
//! would: untracked and not ignored), or outside a repository every file: what an agent just
//! created is a suggestion at its next miss.
//!
//! Walking the tree at every miss would cost a hundred milliseconds on a large repository, so a
//! snapshot is kept under the state directory (`tree-v3-<root hash>/state`): the files, every
//! directory walked with its modification time, and the ignore files that shaped the walk. A
//! file created, removed or renamed changes its directory's modification time, so the snapshot
//! is brought up to date by a `stat` of each directory and a read of the ones that changed
//! (git's untracked cache works the same way), never a new walk unless an ignore file changed.
//! The changed directories are read in one walk from the root that enters only them and the
//! directories above them, so a refresh costs at most a walk however many changed.
//! Even the `stat`s are skipped while nothing can have changed: when the guard lets a file tool
//! write, it notes the paths written ([`note_written`]), and the next miss checks only the
//! directories that hold them; a shell command may write anywhere, so it marks the snapshot
//! stale ([`mark_stale`]): every directory is checked. The snapshot is checked anyway once it is
//! [`MAX_AGE`] old, for changes made outside the agent.
//!
//! One guard brings the snapshot up to date at a time; the others, when an agent's calls come
//! together, answer from the snapshot as it was rather than wait (the git index's own list,
//! which holds most files, is read apart).
//!
//! The snapshot lives where code the agent runs can write, so what is read back is checked:
//! only clean relative paths (no `..`, nothing absolute) are walked or suggested, and at most
//! [`WALK_LIMIT`] entries.

use super::files::{Kind, TrackedFiles};
use super::suggest::Index;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::{BufRead as _, Write as _};
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Entries at most: a walk of something that is not really a project stops here.
pub(super) const WALK_LIMIT: usize = 200_000;
/// A snapshot checked longer ago than this is checked again at the next miss.
pub(super) const MAX_AGE: Duration = Duration::from_secs(30);
/// A time closer to the walk than this may hide a change made in the same clock tick.
const RACY_WINDOW: i128 = 2_000_000_000;
/// What a racy time is kept as: no file's time.
const RACY: i128 = -1;
const STATE: &str = "state";
const STALE: &str = "stale";
/// The paths file tools wrote since the last check, one a line.
const WRITTEN: &str = "written";
/// Written paths noted at most: past it, the next check reads every directory's time.
const MAX_WRITTEN: usize = 256;
/// The identity of the git index the snapshot was last checked against (empty outside git):
/// when it changes, the directories where the index's names changed are read again (a file
/// `git rm --cached` left on disk is untracked now). Apart from the snapshot, so that an index
/// change that changes no directory costs a few bytes, not a copy of the snapshot.
const INDEX: &str = "index";

/// Where the snapshot of `root` lives.
pub(super) fn location(state_dir: &Path, root: &Path) -> PathBuf {
    let hash = git2::Oid::hash_object(git2::ObjectType::Blob, root.as_os_str().as_encoded_bytes())
        .map_or_else(|_| "0".repeat(12), |oid| oid.to_string()[..12].to_owned());
    // v2: the state's directories carry the index's signatures; v3: hashed eight bytes a step.
    state_dir.join(format!("tree-v3-{hash}"))
}

/// Note that the files under the snapshot at `dir` may have changed (a call that writes is
/// about to run, or ran): the next miss checks the directories again.
pub(super) fn mark_stale(dir: &Path) {
    // Only an existing snapshot can be stale; a missing one is walked at the next miss anyway.
    if dir.is_dir() {
        let _ = std::fs::File::create(dir.join(STALE));
    }
}

/// Note that a file tool writes `paths` (relative to the root): the next miss checks the
/// directories that hold them (the closest the snapshot knows). A path that is not clean
/// marks the whole snapshot stale.
pub(super) fn note_written(dir: &Path, paths: &[String]) {
    if !dir.is_dir() {
        return;
    }
    if paths.is_empty() || !paths.iter().all(|p| is_clean(p)) {
        return mark_stale(dir);
    }
    let lines: String = paths.iter().flat_map(|p| [p.as_str(), "\n"]).collect();
    // One append: notes of guards running at once never interleave within a line.
    let noted = std::fs::File::options()
        .append(true)
        .create(true)
        .open(dir.join(WRITTEN))
        .and_then(|mut f| f.write_all(lines.as_bytes()));
    if noted.is_err() {
        mark_stale(dir);
    }
}

/// The snapshot on disk.
#[derive(Debug, Default, PartialEq, Eq)]
struct State {
    /// Changes with every rebuild: the key of the indexes built from it.
    generation: String,
    /// Ignore files with their modification time; a change means a new walk.
    rules: Vec<(PathBuf, i128)>,
    /// Directories walked (relative; `""` is the root) with their modification time and the
    /// signature of the names the index listed in them then, sorted.
    dirs: Vec<(String, i128, u64)>,
    /// The files found (relative), sorted.
    files: Vec<String>,
}

/// How to walk one tree.
pub(super) struct Walk<'a> {
    /// The top of the tree.
    pub root: &'a Path,
    /// The git index's paths, when the tree is a repository's worktree: those files are left out
    /// (the index's own list has them) and git's ignore rules apply.
    pub tracked: Option<&'a TrackedFiles<'a>>,
    /// Ignore files outside the tree (`.git/info/exclude`, `core.excludesFile`).
    pub extra_rules: Vec<PathBuf>,
}

/// The index of `kind` over the tree's files, brought up to date first when it may be stale.
pub(super) fn index(dir: &Path, walk: &Walk<'_>, kind: Kind) -> Option<Index> {
    let (generation, fresh) = current_generation(dir, walk)?;
    let cache = dir.join(kind.cache_file());
    // Just built: neither its index nor the snapshot need reading back.
    let state = if let Some(state) = fresh {
        state
    } else {
        let key = format!("tree {generation}");
        if let Some(index) = super::cache::read_cache(&cache, Some(&key)) {
            return Some(index);
        }
        read_state(&dir.join(STATE))?
    };
    let index = kind.index(&state.files);
    // The snapshot read may be newer than the generation asked for: the cache is of the one read.
    let _ = super::cache::write_cache(&cache, &format!("tree {}", state.generation), &index);
    Some(index)
}

/// The tree's files, walked now (no place to keep a snapshot).
pub(super) fn files(walk: &Walk<'_>) -> Vec<String> {
    full_walk(walk).files
}

/// The generation of an up-to-date snapshot: the one on disk when nothing may have changed, else
/// refreshed (and then the snapshot itself, as written). One guard refreshes at a time; the
/// others take the snapshot as it was (or wait for the first one when there is none).
fn current_generation(dir: &Path, walk: &Walk<'_>) -> Option<(String, Option<State>)> {
    let state_path = dir.join(STATE);
    let index = walk.tracked.map(TrackedFiles::key).unwrap_or_default();
    if Due::of(dir, &index).is_none()
        && let Some(generation) = read_generation(&state_path)
    {
        return Some((generation, None));
    }
    std::fs::create_dir_all(dir).ok()?;
    let lock = std::fs::File::create(dir.join("lock")).ok()?;
    if lock.try_lock().is_err() {
        // Another guard is checking: its answer is at most one change newer than this one.
        if let Some(generation) = read_generation(&state_path) {
            return Some((generation, None));
        }
        lock.lock().ok()?;
    }
    let due = Due::of(dir, &index);
    if due.is_none()
        && let Some(generation) = read_generation(&state_path)
    {
        return Some((generation, None));
    }
    // Before the checks: a write that runs while they do is noted again.
    let times = due.times(dir);
    let checked_at = std::fs::metadata(&state_path).and_then(|m| m.modified()).ok();
    if matches!(times, Times::None)
        && let Some(tracked) = walk.tracked
        && signatures_differ(&state_path, tracked) == Some(false)
    {
        // Only the index changed, and in none of the snapshot's directories: nothing to read.
        let _ = std::fs::write(dir.join(INDEX), &index);
        return read_generation(&state_path).map(|g| (g, None));
    }
    let state = match read_state(&state_path) {
        Some(old) => {
            let Some(state) = refresh(&old, walk, &times, due.index) else {
                if matches!(times, Times::All) {
                    let _ = touch(&state_path);
                }
                if due.index {
                    let _ = std::fs::write(dir.join(INDEX), &index);
                }
                return Some((old.generation, None));
            };
            state
        }
        None => full_walk(walk),
    };
    write_state(&state_path, &state).ok()?;
    if !matches!(times, Times::All)
        && let Some(checked_at) = checked_at
    {
        // Not every directory was checked: their times are as old as before.
        let _ = std::fs::File::options()
            .write(true)
            .open(&state_path)
            .and_then(|f| f.set_modified(checked_at));
    }
    // After the snapshot it is of: the other way round, a crash between the two would leave
    // the new index's identity beside a snapshot not checked against it.
    let _ = std::fs::write(dir.join(INDEX), &index);
    Some((state.generation.clone(), Some(state)))
}

/// What may have changed since the snapshot was last checked.
struct Due {
    /// Files anywhere on disk: a call that writes marked the snapshot stale, or it was checked
    /// [`MAX_AGE`] ago or more.
    stale: bool,
    /// Files a file tool wrote ([`note_written`]).
    written: bool,
    /// What the git index lists: it is not the index the snapshot was checked against.
    index: bool,
}

/// Which directories' times a check compares with the snapshot's.
enum Times {
    None,
    /// Those holding these paths (relative, clean), the closest the snapshot knows.
    Holding(Vec<String>),
    All,
}

impl Due {
    fn of(dir: &Path, index: &str) -> Self {
        let stale = dir.join(STALE).exists()
            || !std::fs::metadata(dir.join(STATE))
                .and_then(|m| m.modified())
                .is_ok_and(|t| t.elapsed().is_ok_and(|age| age < MAX_AGE));
        let written = dir.join(WRITTEN).exists();
        let index = !std::fs::read_to_string(dir.join(INDEX)).is_ok_and(|known| known == index);
        Self { stale, written, index }
    }

    fn is_none(&self) -> bool {
        !self.stale && !self.written && !self.index
    }

    /// The times to check, the notes that asked for it taken (under the snapshot's lock).
    fn times(&self, dir: &Path) -> Times {
        let written = self.written.then(|| take_written(dir));
        if self.stale {
            let _ = std::fs::remove_file(dir.join(STALE));
            return Times::All;
        }
        match written {
            Some(Some(paths)) => Times::Holding(paths),
            Some(None) => Times::All,
            None => Times::None,
        }
    }
}

/// The paths noted as written, the note removed; `None` when there are too many to check one by
/// one or a line is not a clean relative path.
fn take_written(dir: &Path) -> Option<Vec<String>> {
    // Renamed first: a note appended meanwhile goes to a new file, for the next check.
    let taken = dir.join(format!("{WRITTEN}.taken"));
    std::fs::rename(dir.join(WRITTEN), &taken).ok()?;
    let text = std::fs::read_to_string(&taken);
    let _ = std::fs::remove_file(&taken);
    let paths: Vec<String> = text.ok()?.lines().map(str::to_owned).collect();
    (paths.len() <= MAX_WRITTEN && paths.iter().all(|p| is_clean(p))).then_some(paths)
}

/// The snapshot with the changed directories read again, `None` when no directory and no
/// ignore file changed; a new walk when an ignore file changed (what is ignored may have changed
/// anywhere below it). A directory changed when its time did (checked for those `times` names),
/// or the names the git index lists in it (when `index`). However many changed, they are read
/// in one walk from the root, which enters only them, the directories above them and new ones.
fn refresh(old: &State, walk: &Walk<'_>, times: &Times, index: bool) -> Option<State> {
    let checked: HashSet<&str> = match times {
        Times::Holding(paths) => paths.iter().map(|p| closest_known(old, p)).collect(),
        Times::None | Times::All => HashSet::new(),
    };
    let checks = |dir: &str| matches!(times, Times::All) || checked.contains(dir);
    let rules_changed = || old.rules.iter().any(|(path, time)| mtime(path) != Some(*time));
    if !matches!(times, Times::None) && rules_changed() {
        return Some(full_walk(walk));
    }
    let tracked = walk.tracked.filter(|_| index);
    // A directory gone counts as changed: its own time is gone too.
    let is_kept: Vec<bool> = old
        .dirs
        .iter()
        .map(|(dir, time, signature)| {
            (!checks(dir) || mtime(&walk.root.join(dir)) == Some(*time))
                && tracked.is_none_or(|t| t.signature(dir) == *signature)
        })
        .collect();
    if is_kept.iter().all(|&kept| kept) {
        return None;
    }
    let kept: HashSet<&str> = (old.dirs.iter().zip(&is_kept))
        .filter(|(_, kept)| **kept)
        .map(|((dir, ..), _)| dir.as_str())
        .collect();
    let mut enter: HashSet<&str> = HashSet::new();
    for (dir, ..) in old.dirs.iter().filter(|(dir, ..)| !kept.contains(dir.as_str())) {
        let mut at = dir.as_str();
        while enter.insert(at) && !at.is_empty() {
            at = parent(at);
        }
    }
    let found = walk_tree(walk, &Known { kept: &kept, enter: &enter });
    if found.rules.iter().any(|r| !old.rules.iter().any(|(p, _)| p == &r.0)) {
        return Some(full_walk(walk));
    }
    let mut files: Vec<String> =
        old.files.iter().filter(|f| kept.contains(parent(f))).cloned().collect();
    let mut dirs: Vec<(String, i128, u64)> =
        old.dirs.iter().filter(|(dir, ..)| kept.contains(dir.as_str())).cloned().collect();
    files.extend(found.files);
    dirs.extend(found.dirs);
    Some(finish(files, dirs, old.rules.clone()))
}

/// Whether the git index lists other names than the snapshot at `state` recorded in one of its
/// directories (`None`: the snapshot cannot be read so). Its directory lines alone, without
/// reading the whole snapshot: after an index change that changed no directory's names (a
/// commit, `git add` of a changed file) this is all the check.
fn signatures_differ(state: &Path, tracked: &TrackedFiles<'_>) -> Option<bool> {
    let text = std::fs::read(state).ok()?;
    let first = memchr::memchr(b'\n', &text)? + 1;
    let mut start = first;
    for end in memchr::memchr_iter(b'\n', &text[first..]).map(|at| first + at) {
        let line = &text[start..end];
        start = end + 1;
        if line.starts_with(b"F\t") {
            // The files come after every directory.
            break;
        }
        let Some(rest) = line.strip_prefix(b"D\t") else { continue };
        let mut fields = rest.splitn(3, |&b| b == b'\t');
        let (_time, signature, dir) = (fields.next()?, fields.next()?, fields.next()?);
        let signature = u64::from_str_radix(std::str::from_utf8(signature).ok()?, 16).ok()?;
        if tracked.signature_of(dir) != signature {
            return Some(true);
        }
    }
    Some(false)
}

/// The closest directory of the snapshot holding `path` (the root at worst): the one whose time
/// changes when `path` is created or removed, or a directory on the way to it.
fn closest_known<'s>(old: &'s State, path: &str) -> &'s str {
    let mut at = parent(path);
    loop {
        if let Ok(found) = old.dirs.binary_search_by(|(dir, ..)| dir.as_str().cmp(at)) {
            return &old.dirs[found].0;
        }
        if at.is_empty() {
            return "";
        }
        at = parent(at);
    }
}

/// Every file below the root.
fn full_walk(walk: &Walk<'_>) -> State {
    let nothing = HashSet::new();
    let found = walk_tree(walk, &Known { kept: &nothing, enter: &nothing });
    let mut rules = found.rules;
    for path in &walk.extra_rules {
        if let Some(time) = settled_mtime(path) {
            rules.push((path.clone(), time));
        }
    }
    finish(found.files, found.dirs, rules)
}

fn finish(
    mut files: Vec<String>,
    mut dirs: Vec<(String, i128, u64)>,
    mut rules: Vec<(PathBuf, i128)>,
) -> State {
    // A refresh passes the old snapshot's sorted lists with the few new entries after them:
    // the stable sort finds that run and merges, where an unstable one sorts all again.
    files.sort();
    files.dedup();
    dirs.sort();
    dirs.dedup_by(|a, b| a.0 == b.0);
    rules.sort_unstable();
    rules.dedup_by(|a, b| a.0 == b.0);
    State { generation: new_generation(), rules, dirs, files }
}

/// The directories of a snapshot a walk need not read again.
struct Known<'a> {
    /// Unchanged: their files are known, and they are not walked unless in `enter`.
    kept: &'a HashSet<&'a str>,
    /// Walked all the same: changed ones, and those above a changed one.
    enter: &'a HashSet<&'a str>,
}

/// What a walk of the tree found in the directories not `known` (relative to the root).
fn walk_tree(walk: &Walk<'_>, known: &Known<'_>) -> State {
    let rules = super::walk::Rules {
        is_repo: walk.tracked.is_some(),
        excludes: walk.extra_rules.clone(),
        limit: WALK_LIMIT,
    };
    let mut found = Found { walk, known, state: State::default() };
    super::walk::walk(walk.root, &rules, &mut found);
    found.state
}

/// A walk's findings, as it goes.
struct Found<'w> {
    walk: &'w Walk<'w>,
    known: &'w Known<'w>,
    state: State,
}

impl super::walk::Visit for Found<'_> {
    fn enter(&mut self, rel: &str) -> bool {
        // A known directory is read again only when it or one below it changed.
        !self.known.kept.contains(rel) || self.known.enter.contains(rel)
    }

    fn dir(&mut self, rel: &str, time: i128) {
        if !self.known.kept.contains(rel) {
            let signature = self.walk.tracked.map_or(0, |t| t.signature(rel));
            self.state.dirs.push((rel.to_owned(), settled(time), signature));
        }
    }

    fn file(&mut self, rel: &str) {
        if self.known.kept.contains(parent(rel)) {
            return;
        }
        if rel.rsplit('/').next() == Some(".gitignore") {
            let path = self.walk.root.join(rel);
            if let Some(time) = settled_mtime(&path) {
                self.state.rules.push((path, time));
            }
        }
        if !self.walk.tracked.is_some_and(|tracked| tracked.contains(rel)) {
            self.state.files.push(rel.to_owned());
        }
    }
}

fn mtime(path: &Path) -> Option<i128> {
    let meta = std::fs::symlink_metadata(path).ok()?;
    Some(i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec()))
}

/// The modification time of `path` to keep in the snapshot. The kernel stamps times from a
/// clock that ticks every few milliseconds, so a file created in the same tick as the walk
/// leaves its directory's time as the walk saw it (git's "racy" entries): a time that recent
/// is kept as [`RACY`], which no time matches, so the next check reads that directory (or
/// ignore file) again.
fn settled_mtime(path: &Path) -> Option<i128> {
    mtime(path).map(settled)
}

/// A modification time `time` as the snapshot keeps it ([`settled_mtime`]).
fn settled(time: i128) -> i128 {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i128::try_from(d.as_nanos()).unwrap_or(i128::MAX));
    if now - time < RACY_WINDOW { RACY } else { time }
}

fn touch(path: &Path) -> std::io::Result<()> {
    std::fs::File::options().write(true).open(path)?.set_modified(std::time::SystemTime::now())
}

fn new_generation() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{nanos:x}-{:x}", std::process::id())
}

fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(dir, _)| dir)
}

/// A relative path that stays below the root: what the state may hold. What
/// `Path::components` reads as only normal names (`a//b` and `a/./b` are `a/b`), without
/// building them: the state's every line is checked at each read.
fn is_clean(path: &str) -> bool {
    let bytes = path.as_bytes();
    memchr::memchr3(b'\n', b'\0', b'\t', bytes).is_none()
        && bytes.first() != Some(&b'/')
        && bytes != b"."
        && !bytes.starts_with(b"./")
        && !bytes.split(|&b| b == b'/').any(|name| name == b"..")
}

// ---- the state file: `generation`, then `R<TAB>mtime<TAB>path`,
// `D<TAB>mtime<TAB>signature<TAB>dir` and `F<TAB>path` lines ----

fn read_generation(path: &Path) -> Option<String> {
    let mut line = String::new();
    std::io::BufReader::new(std::fs::File::open(path).ok()?).read_line(&mut line).ok()?;
    let generation = line.trim_end();
    (!generation.is_empty()).then(|| generation.to_owned())
}

fn read_state(path: &Path) -> Option<State> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut lines = text.split_terminator('\n');
    let mut state = State { generation: lines.next()?.to_owned(), ..State::default() };
    for line in lines.take(3 * WALK_LIMIT) {
        let (kind, rest) = line.split_once('\t')?;
        match kind {
            "R" => {
                let (time, rule) = rest.split_once('\t')?;
                if rule.contains('\t') {
                    return None;
                }
                state.rules.push((PathBuf::from(rule), time.parse().ok()?));
            }
            "D" => {
                let (time, rest) = rest.split_once('\t')?;
                let (signature, dir) = rest.split_once('\t')?;
                if !(dir.is_empty() || is_clean(dir)) {
                    return None;
                }
                let signature = u64::from_str_radix(signature, 16).ok()?;
                state.dirs.push((dir.to_owned(), parse_time(time)?, signature));
            }
            "F" if is_clean(rest) => state.files.push(rest.to_owned()),
            _ => return None,
        }
    }
    Some(state)
}

/// A time as [`write_state`] wrote it: nanoseconds, or [`RACY`]. Most fit an `i64`, whose
/// parse is the cheaper.
fn parse_time(text: &str) -> Option<i128> {
    text.parse::<i64>().map(i128::from).ok().or_else(|| text.parse().ok())
}

fn write_state(path: &Path, state: &State) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut text = String::with_capacity(64 * (state.dirs.len() + state.files.len()));
    text.push_str(&state.generation);
    text.push('\n');
    for (rule, time) in &state.rules {
        if let Some(rule) = rule.to_str().filter(|r| !r.contains(['\n', '\t'])) {
            let _ = writeln!(text, "R\t{time}\t{rule}");
        }
    }
    // Pushed piece by piece: `write!` costs more than the rest of a snapshot's write.
    let mut digits = itoa::Buffer::new();
    for (dir, time, signature) in &state.dirs {
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
    let mut out = tempfile::NamedTempFile::new_in(dir)?;
    out.write_all(text.as_bytes())?;
    out.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// `value` in lowercase hexadecimal, as `{:x}` writes it.
fn push_hex(out: &mut String, value: u64) {
    let digits = (64 - value.leading_zeros()).div_ceil(4).max(1);
    for at in (0..digits).rev() {
        out.push(char::from(b"0123456789abcdef"[((value >> (4 * at)) & 0xf) as usize]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Component;

    /// The byte check says what `Path::components` says (the definition it replaced).
    #[test]
    fn a_clean_path_is_one_of_normal_components_only() {
        let by_components = |p: &str| {
            !p.contains(['\n', '\0', '\t'])
                && Path::new(p).components().all(|c| matches!(c, Component::Normal(_)))
        };
        for path in [
            "", "a", "a/b", "a//b", "a/./b", "a/.", "a/", ".a", "..a", "a..", "a/..b", ".", "./a",
            "..", "../a", "a/..", "a/../b", "/a", "//a", "a\tb", "a\nb", "a\0b", "é/ü", "a/.../b",
        ] {
            assert_eq!(is_clean(path), by_components(path), "{path:?}");
        }
    }

    #[test]
    fn hex_is_written_as_format_writes_it() {
        for value in [0, 1, 0xf, 0x10, 0xdead_beef, u64::MAX, 1 << 63] {
            let mut out = String::new();
            push_hex(&mut out, value);
            assert_eq!(out, format!("{value:x}"));
        }
    }

    #[test]
    fn a_snapshot_is_read_back_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(STATE);
        let state = State {
            generation: "g1".to_owned(),
            rules: vec![(PathBuf::from("/r/.gitignore"), 1_700_000_000_123_456_789)],
            dirs: vec![
                (String::new(), RACY, 0),
                ("a".to_owned(), i128::from(i64::MAX) + 1, u64::MAX),
                ("a/b".to_owned(), 5, 0xabc),
            ],
            files: vec!["a/b/c.rs".to_owned(), "x.py".to_owned()],
        };
        write_state(&path, &state).unwrap();
        assert_eq!(read_state(&path), Some(state));
        std::fs::write(&path, "g2\nF\t../x\n").unwrap();
        assert_eq!(read_state(&path), None);
        std::fs::write(&path, "g2\nD\t1\tzz\ta\n").unwrap();
        assert_eq!(read_state(&path), None);
    }
}
