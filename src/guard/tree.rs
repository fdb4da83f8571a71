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
/// [`walk_budget`] outside tests.
const WALK_BUDGET: usize = 2_000;
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
    /// Directories found but not read yet (relative, sorted): the snapshot of a walk that
    /// stopped at its budget ([`Walk::budget`]), resumed at the next miss.
    pending: Vec<String>,
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
    /// Directories one miss reads at most (`None`: the whole tree at once). A walk that stops
    /// there is resumed at the next miss, where it stopped.
    pub budget: Option<usize>,
    /// The path the miss is for (relative): the directories nearest it are read first.
    pub near: &'a str,
}

/// Directories a miss outside a repository reads at most ([`Walk::budget`]): about 30 ms of
/// a call on this machine (12 files a directory). Debug builds take
/// `PATCHGATE_TEST_WALK_BUDGET` instead, for tests of a walk in several steps on small trees.
pub(super) fn walk_budget() -> usize {
    #[cfg(debug_assertions)]
    if let Some(budget) =
        std::env::var("PATCHGATE_TEST_WALK_BUDGET").ok().and_then(|b| b.parse().ok())
    {
        return budget;
    }
    WALK_BUDGET
}

/// A tree's files for suggestions: their index, and how many directories are still to read
/// (0 once the walk is complete).
pub(super) struct OnDisk {
    pub index: Index,
    pub unread: usize,
}

/// The index of `kind` over the tree's files, brought up to date first when it may be stale
/// (and read further when its walk is not complete).
pub(super) fn index(dir: &Path, walk: &Walk<'_>, kind: Kind) -> Option<OnDisk> {
    let (generation, fresh) = current_generation(dir, walk)?;
    let cache = dir.join(kind.cache_file());
    // Just built: neither its index nor the snapshot need reading back.
    let state = if let Some(state) = fresh {
        state
    } else {
        let key = format!("tree {generation}");
        if let Some(index) = super::cache::read_cache(&cache, Some(&key)) {
            return Some(OnDisk { index, unread: unread(&generation) });
        }
        read_state(&dir.join(STATE))?
    };
    let index = kind.index(&state.files);
    // The snapshot read may be newer than the generation asked for: the cache is of the one read.
    // One whose walk is not complete is read further at the next miss, never from its cache.
    if state.pending.is_empty() {
        let _ = super::cache::write_cache(&cache, &format!("tree {}", state.generation), &index);
    }
    Some(OnDisk { index, unread: state.pending.len() })
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
    // A snapshot whose walk is not complete is due at every miss: it is read further.
    if Due::of(dir, &index).is_none()
        && let Some(generation) = read_generation(&state_path)
        && unread(&generation) == 0
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
        && unread(&generation) == 0
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
        Some(old) => match refresh(&old, walk, &times, due.index) {
            Some(state) => state,
            None if old.pending.is_empty() => {
                if matches!(times, Times::All) {
                    let _ = touch(&state_path);
                }
                if due.index {
                    let _ = std::fs::write(dir.join(INDEX), &index);
                }
                return Some((old.generation, None));
            }
            None => old,
        },
        None => new_walk(walk),
    };
    let state = resume(state, walk);
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
        return Some(new_walk(walk));
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
    // A directory not read yet stays so: the walk that reads it is resumed after the refresh.
    let pending: HashSet<&str> = old.pending.iter().map(String::as_str).collect();
    let found = walk_tree(walk, &Known { kept: &kept, enter: &enter, pending: &pending });
    if found.rules.iter().any(|r| !old.rules.iter().any(|(p, _)| p == &r.0)) {
        return Some(new_walk(walk));
    }
    let mut files: Vec<String> =
        old.files.iter().filter(|f| kept.contains(parent(f))).cloned().collect();
    let mut dirs: Vec<(String, i128, u64)> =
        old.dirs.iter().filter(|(dir, ..)| kept.contains(dir.as_str())).cloned().collect();
    files.extend(found.files);
    dirs.extend(found.dirs);
    Some(finish(files, dirs, old.rules.clone(), old.pending.clone()))
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
    let found = walk_tree(walk, &Known { kept: &nothing, enter: &nothing, pending: &nothing });
    finish(found.files, found.dirs, with_extra_rules(found.rules, walk), Vec::new())
}

/// A new snapshot: the whole tree walked, or, with a budget, nothing read yet but the root
/// pending (the walk is [`resume`]d at once).
fn new_walk(walk: &Walk<'_>) -> State {
    if walk.budget.is_none() {
        return full_walk(walk);
    }
    let rules = with_extra_rules(Vec::new(), walk);
    State { pending: vec![String::new()], ..finish(Vec::new(), Vec::new(), rules, Vec::new()) }
}

/// `state` with at most [`Walk::budget`] of its pending directories read (and those found
/// below them): what a whole walk would have found there.
fn resume(mut state: State, walk: &Walk<'_>) -> State {
    let Some(budget) = walk.budget.filter(|_| !state.pending.is_empty()) else { return state };
    let known = state.files.len() + state.dirs.len() + state.pending.len();
    let rules = super::walk::Rules {
        is_repo: walk.tracked.is_some(),
        excludes: walk.extra_rules.clone(),
        limit: WALK_LIMIT.saturating_sub(known),
    };
    let nothing = HashSet::new();
    let known = Known { kept: &nothing, enter: &nothing, pending: &nothing };
    let mut found = Found { walk, known: &known, state: State::default() };
    let pending = std::mem::take(&mut state.pending);
    let left = super::walk::walk_some(walk.root, &rules, (pending, walk.near, budget), &mut found);
    state.files.extend(found.state.files);
    state.dirs.extend(found.state.dirs);
    state.rules.extend(found.state.rules);
    finish(state.files, state.dirs, state.rules, left)
}

fn with_extra_rules(mut rules: Vec<(PathBuf, i128)>, walk: &Walk<'_>) -> Vec<(PathBuf, i128)> {
    for path in &walk.extra_rules {
        if let Some(time) = settled_mtime(path) {
            rules.push((path.clone(), time));
        }
    }
    rules
}

fn finish(
    mut files: Vec<String>,
    mut dirs: Vec<(String, i128, u64)>,
    mut rules: Vec<(PathBuf, i128)>,
    mut pending: Vec<String>,
) -> State {
    // A refresh passes the old snapshot's sorted lists with the few new entries after them:
    // the stable sort finds that run and merges, where an unstable one sorts all again.
    files.sort();
    files.dedup();
    dirs.sort();
    dirs.dedup_by(|a, b| a.0 == b.0);
    rules.sort_unstable();
    rules.dedup_by(|a, b| a.0 == b.0);
    pending.sort_unstable();
    pending.dedup();
    let generation = match pending.len() {
        0 => new_generation(),
        unread => format!("{}/{unread}", new_generation()),
    };
    State { generation, rules, dirs, files, pending }
}

/// How many directories the snapshot of `generation` has not read yet: the generation of a
/// snapshot whose walk is not complete ends with `/` and that count.
fn unread(generation: &str) -> usize {
    generation.rsplit_once('/').and_then(|(_, n)| n.parse().ok()).unwrap_or(0)
}

/// The directories of a snapshot a walk need not read again.
struct Known<'a> {
    /// Unchanged: their files are known, and they are not walked unless in `enter`.
    kept: &'a HashSet<&'a str>,
    /// Walked all the same: changed ones, and those above a changed one.
    enter: &'a HashSet<&'a str>,
    /// Not read yet, and not read by this walk either.
    pending: &'a HashSet<&'a str>,
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
        (!self.known.kept.contains(rel) || self.known.enter.contains(rel))
            && !self.known.pending.contains(rel)
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
// `D<TAB>mtime<TAB>signature<TAB>dir`, `P<TAB>dir` and `F<TAB>path` lines ----

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
            "P" if rest.is_empty() || is_clean(rest) => state.pending.push(rest.to_owned()),
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
    for dir in state.pending.iter().filter(|d| d.is_empty() || is_clean(d)) {
        text.push_str("P\t");
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

    /// A small pseudo-random generator: the trees below differ from one another, and from run
    /// to run never.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            usize::try_from(self.0 % n as u64).unwrap()
        }

        fn pick<'a>(&mut self, of: &[&'a str]) -> &'a str {
            of[self.below(of.len())]
        }
    }

    /// A tree of up to four levels with ignore files at several of them: patterns that ignore
    /// files and directories, re-include some (in the same directory and in deeper ones),
    /// anchored ones, hidden entries.
    fn generate(root: &Path, rng: &mut Rng) {
        const NAMES: &[&str] = &["a", "b", "bb", "out", "src", "keep", "x_y"];
        const FILES: &[&str] = &["m.rs", "n.tmp", "keep.tmp", "top.txt", "b.py", ".hidden"];
        const RULES: &[&str] = &[
            "*.tmp",
            "!keep.tmp",
            "out/",
            "/top.txt",
            "b*",
            "!bb/",
            "!b.py",
            "x_*/",
            "keep/",
            "!keep/",
            "*.rs",
            "!m.rs",
            "src/*.py",
        ];
        let mut dirs = vec![PathBuf::new()];
        for _ in 0..12 + rng.below(30) {
            let parent = dirs[rng.below(dirs.len())].clone();
            if parent.components().count() < 4 {
                dirs.push(parent.join(rng.pick(NAMES)));
            }
        }
        for dir in &dirs {
            std::fs::create_dir_all(root.join(dir)).unwrap();
            for _ in 0..rng.below(4) {
                std::fs::write(root.join(dir).join(rng.pick(FILES)), "").unwrap();
            }
            if rng.below(3) == 0 {
                let rules: Vec<&str> = (0..=rng.below(3)).map(|_| rng.pick(RULES)).collect();
                std::fs::write(root.join(dir).join(".gitignore"), rules.join("\n")).unwrap();
            }
        }
        std::fs::create_dir_all(root.join(".hid/den")).unwrap();
        std::fs::write(root.join(".hid/den/f.rs"), "").unwrap();
    }

    fn bounded<'w>(root: &'w Path, budget: usize, near: &'w str) -> Walk<'w> {
        Walk { root, tracked: None, extra_rules: Vec::new(), budget: Some(budget), near }
    }

    /// The snapshot's files and directories (without their times).
    fn names(state: &State) -> (Vec<String>, Vec<String>) {
        (state.files.clone(), state.dirs.iter().map(|(dir, ..)| dir.clone()).collect())
    }

    /// Wait until nothing holds the snapshot's lock at `snapshot`: a process another test spawns
    /// holds a copy of its descriptor between its fork and its exec, and a miss that found it
    /// held would rightly answer from the snapshot as it was, without reading further.
    fn wait_for_the_lock(snapshot: &Path) {
        if let Ok(lock) = std::fs::File::open(snapshot.join("lock")) {
            let _ = lock.lock();
        }
    }

    /// Misses with a budget of `budget` directories, each at a path from `nears`, until the
    /// walk is complete; the snapshot checked after each. Returns how many misses it took.
    fn miss_until_complete(root: &Path, snapshot: &Path, budget: usize, nears: &[String]) -> usize {
        let whole = names(&full_walk(&bounded(root, 0, "")));
        for calls in 1..=200 {
            let near = &nears[calls % nears.len()];
            wait_for_the_lock(snapshot);
            let on_disk = index(snapshot, &bounded(root, budget, near), Kind::Files).unwrap();
            let state = read_state(&snapshot.join(STATE)).unwrap();
            assert_eq!(on_disk.unread, state.pending.len());
            let (files, dirs) = names(&state);
            assert!(files.iter().all(|f| whole.0.contains(f)), "{files:?} not in {whole:?}");
            assert!(dirs.iter().all(|d| whole.1.contains(d) && !state.pending.contains(d)));
            if on_disk.unread == 0 {
                assert_eq!((files, dirs), whole);
                return calls;
            }
        }
        panic!("the walk never completed");
    }

    /// Walks resumed miss after miss, each reading a few directories in the order its own path
    /// asks for, find what one walk of the whole tree finds: nested ignore files and
    /// re-inclusions across every resume boundary (a budget of 1 makes each directory a read of
    /// its own, its ignore rules rebuilt from the directories above it).
    #[test]
    fn resumed_walks_find_what_one_whole_walk_finds() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for round in 0..40 {
            let dir = tempfile::tempdir().unwrap();
            let (root, snapshot) = (dir.path().join("w"), dir.path().join("snapshot"));
            generate(&root, &mut rng);
            let whole = full_walk(&bounded(&root, 0, ""));
            let mut nears: Vec<String> = whole.files.iter().map(|f| format!("{f}x")).collect();
            nears.push("nowhere/at/all.rs".to_owned());
            let budget = 1 + rng.below(4);
            let calls = miss_until_complete(&root, &snapshot, budget, &nears);
            // A miss or two may still find the lock held that way (see above).
            let at_most = whole.dirs.len().div_ceil(budget) + 2;
            assert!(calls <= at_most, "round {round}: {calls} calls");
        }
    }

    /// The first miss reads the directories nearest its path first: the missing path's own
    /// directory (as deep as it exists) before its parent's other subdirectories.
    #[test]
    fn a_bounded_walk_reads_the_directories_nearest_the_miss_first() {
        let dir = tempfile::tempdir().unwrap();
        let (root, snapshot) = (dir.path().join("w"), dir.path().join("snapshot"));
        for path in ["a/b/c/want.rs", "a/z/other.rs", "q/far.rs", "a/b/y/sib.rs"] {
            std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
            std::fs::write(root.join(path), "").unwrap();
        }
        let walk = bounded(&root, 4, "a/b/c/d/want.rs");
        assert_eq!(index(&snapshot, &walk, Kind::Files).unwrap().unread, 3);
        let state = read_state(&snapshot.join(STATE)).unwrap();
        assert_eq!(
            names(&state),
            (
                vec!["a/b/c/want.rs".to_owned()],
                ["", "a", "a/b", "a/b/c"].map(str::to_owned).to_vec()
            )
        );
        assert_eq!(state.pending, ["a/b/y", "a/z", "q"]);
        // The next miss, elsewhere, reads what it needs first.
        wait_for_the_lock(&snapshot);
        let walk = bounded(&root, 1, "q/near.rs");
        assert_eq!(index(&snapshot, &walk, Kind::Files).unwrap().unread, 2);
        let state = read_state(&snapshot.join(STATE)).unwrap();
        assert!(state.files.contains(&"q/far.rs".to_owned()));
    }

    /// Files created, removed and ignored while a walk is not complete are seen as a whole walk
    /// of the tree as it is would see them: in a directory already read (once the snapshot is
    /// marked stale, as after any call that writes) and in one still to read.
    #[test]
    fn changes_during_a_walk_in_steps_are_seen() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for _ in 0..15 {
            let dir = tempfile::tempdir().unwrap();
            let (root, snapshot) = (dir.path().join("w"), dir.path().join("snapshot"));
            generate(&root, &mut rng);
            let nears = ["src/x.rs".to_owned()];
            let first = index(&snapshot, &bounded(&root, 2, &nears[0]), Kind::Files).unwrap();
            let state = read_state(&snapshot.join(STATE)).unwrap();
            // A file in a directory read, and one in a directory not read yet.
            std::fs::write(root.join("made_now.py"), "").unwrap();
            if let Some(pending) = state.pending.first() {
                std::fs::write(root.join(pending).join("later.py"), "").unwrap();
            }
            if let Some(read) = state.dirs.last().filter(|(d, ..)| !d.is_empty()) {
                std::fs::remove_dir_all(root.join(&read.0)).unwrap();
            }
            if rng.below(2) == 0 {
                std::fs::write(root.join(".gitignore"), "*.rs\n!keep/\n").unwrap();
            }
            mark_stale(&snapshot);
            if first.unread > 0 {
                miss_until_complete(&root, &snapshot, 2, &nears);
            }
        }
    }

    /// Guards resuming one walk at once (each holds the snapshot's lock in turn, or answers
    /// from the snapshot as it was) leave it whole: nothing lost, nothing twice.
    #[test]
    fn guards_resuming_at_once_leave_one_whole_snapshot() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let dir = tempfile::tempdir().unwrap();
        let (root, snapshot) = (dir.path().join("w"), dir.path().join("snapshot"));
        for _ in 0..4 {
            generate(&root, &mut rng);
        }
        let whole = names(&full_walk(&bounded(&root, 0, "")));
        std::thread::scope(|scope| {
            for thread in 0..4 {
                let (root, snapshot) = (&root, &snapshot);
                scope.spawn(move || {
                    let near = format!("src/t{thread}.rs");
                    for _ in 0..400 {
                        let walk = bounded(root, 2, &near);
                        if index(snapshot, &walk, Kind::Files).unwrap().unread == 0 {
                            break;
                        }
                    }
                });
            }
        });
        let state = read_state(&snapshot.join(STATE)).unwrap();
        assert!(state.pending.is_empty());
        assert_eq!(names(&state), whole);
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
            pending: vec![String::new(), "q/r".to_owned()],
        };
        write_state(&path, &state).unwrap();
        assert_eq!(read_state(&path), Some(state));
        std::fs::write(&path, "g2\nF\t../x\n").unwrap();
        assert_eq!(read_state(&path), None);
        std::fs::write(&path, "g2\nD\t1\tzz\ta\n").unwrap();
        assert_eq!(read_state(&path), None);
    }
}
