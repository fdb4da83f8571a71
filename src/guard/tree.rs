//! The files on disk that the git index does not list (as `git ls-files -o --exclude-standard`
//! would: untracked and not ignored), or outside a repository every file: what an agent just
//! created is a suggestion at its next miss.
//!
//! Walking the tree at every miss would cost a hundred milliseconds on a large repository, so a
//! snapshot is kept under the state directory (`tree-v4-<root hash>/`, [`super::snapshot`]): the
//! files, every directory walked with its modification time, and the ignore files that shaped
//! the walk. A
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
//! Outside a repository a miss reads at most [`walk_budget`] directories, those nearest the
//! missing path first, and the next miss reads on where it stopped: each such step is kept as a
//! part of the snapshot of its own, and the parts are merged once, when the walk is complete.
//!
//! One guard brings the snapshot up to date at a time; the others, when an agent's calls come
//! together, answer from the snapshot as it was rather than wait (the git index's own list,
//! which holds most files, is read apart).
//!
//! The snapshot lives where code the agent runs can write, so what is read back is checked:
//! only clean relative paths (no `..`, nothing absolute) are walked or suggested, and at most
//! [`WALK_LIMIT`] entries.

use super::cache::{read_cache, write_cache};
use super::files::{Kind, TrackedFiles};
use super::snapshot;
pub(super) use super::snapshot::{Listing, State, WALK_LIMIT, is_clean};
use super::suggest::Index;
use std::collections::HashSet;
use std::io::Write as _;
use std::os::unix::fs::MetadataExt as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// [`walk_budget`] outside tests.
const WALK_BUDGET: usize = 2_000;
/// A snapshot checked longer ago than this is checked again at the next miss.
pub(super) const MAX_AGE: Duration = Duration::from_secs(30);
/// A time closer to the walk than this may hide a change made in the same clock tick.
const RACY_WINDOW: i128 = 2_000_000_000;
/// What a racy time is kept as: no file's time.
const RACY: i128 = -1;
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
    // v2: the state's directories carry the index's signatures; v3: hashed eight bytes a step;
    // v4: a version line, and a walk in steps kept in parts.
    state_dir.join(format!("tree-v4-{hash}"))
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

/// A tree's files for suggestions: an index for each piece of the snapshot
/// ([`super::snapshot`]), and how many directories are still to read (0 once the walk is
/// complete).
pub(super) struct OnDisk {
    pub indexes: Vec<Index>,
    pub unread: usize,
}

/// The indexes of `kind` over the tree's files, brought up to date first when they may be stale
/// (and read further when the walk is not complete): one for each piece of the snapshot, each
/// cached apart, so that a step of a walk builds only its own.
pub(super) fn index(dir: &Path, walk: &Walk<'_>, kind: Kind) -> Option<OnDisk> {
    let current = current(dir, walk)?;
    let last = current.pieces.len().checked_sub(1)?;
    let mut fresh = current.fresh;
    let indexes = (current.pieces.iter().enumerate())
        .filter_map(|(at, generation)| {
            let files = if at == last { fresh.take() } else { None };
            piece_index(dir, (at, generation), kind, files)
        })
        .collect();
    Some(OnDisk { indexes, unread: unread(&current.pieces[last]) })
}

/// The index of `kind` over the files of the `at`-th piece, of `generation`: built from `fresh`
/// (the piece was just written: neither its index nor the piece need reading back), else read
/// from its cache, else built from the piece read.
fn piece_index(
    dir: &Path,
    (at, generation): (usize, &str),
    kind: Kind,
    fresh: Option<Vec<String>>,
) -> Option<Index> {
    let cache = snapshot::cache_file(dir, at, kind.cache_file());
    let (generation, files) = if let Some(files) = fresh {
        (generation.to_owned(), files)
    } else {
        if let Some(index) = read_cache(&cache, Some(&format!("tree {generation}"))) {
            return Some(index);
        }
        // The piece read may be newer than the one listed: the cache is of the one read.
        let (_, state) = snapshot::read_piece(dir, at, false)?;
        (state.generation, state.files)
    };
    let index = kind.index(&files);
    let _ = write_cache(&cache, &format!("tree {generation}"), &index);
    Some(index)
}

/// The tree's files, walked now (no place to keep a snapshot).
pub(super) fn files(walk: &Walk<'_>) -> Vec<String> {
    full_walk(walk).files
}

/// The snapshot a miss answers from.
struct Current {
    /// The generation of each piece, the base first.
    pieces: Vec<String>,
    /// The files of the last piece, when this call just wrote it.
    fresh: Option<Vec<String>>,
}

impl Current {
    fn listed(listing: Listing) -> Self {
        Self {
            pieces: listing.heads.into_iter().map(|head| head.generation).collect(),
            fresh: None,
        }
    }
}

/// The snapshot up to date: as it is on disk when nothing may have changed, else checked (and
/// read a step further when its walk is not complete). One guard checks at a time; the others
/// take the snapshot as it was (or wait for the first one when there is none).
fn current(dir: &Path, walk: &Walk<'_>) -> Option<Current> {
    let index = walk.tracked.map(TrackedFiles::key).unwrap_or_default();
    if let Some(current) = unchanged(dir, &index) {
        return Some(current);
    }
    std::fs::create_dir_all(dir).ok()?;
    let lock = std::fs::File::create(dir.join("lock")).ok()?;
    if lock.try_lock().is_err() {
        // Another guard is checking: its answer is at most one change newer than this one.
        if let Some(listing) = snapshot::list(dir) {
            return Some(Current::listed(listing));
        }
        lock.lock().ok()?;
    }
    if let Some(current) = unchanged(dir, &index) {
        return Some(current);
    }
    let due = Due::of(dir, &index);
    // Before the checks: a write that runs while they do is noted again.
    let times = due.times(dir);
    let current = check(dir, walk, &times, due.index)?;
    if due.index {
        // After the snapshot it is of: the other way round, a crash between the two would
        // leave the new index's identity beside a snapshot not checked against it.
        let _ = std::fs::write(dir.join(INDEX), &index);
    }
    Some(current)
}

/// The snapshot as it is on disk, when nothing may have changed since it was last checked and
/// its walk is complete and merged (one that is not is read further at every miss, and merged
/// at the first miss after it is complete).
fn unchanged(dir: &Path, index: &str) -> Option<Current> {
    if !Due::of(dir, index).is_none() {
        return None;
    }
    let listing = snapshot::list(dir).filter(|l| l.heads.len() == 1)?;
    (unread(&listing.last().generation) == 0).then(|| Current::listed(listing))
}

/// The snapshot checked for what may have changed (the directories' `times`, and the names the
/// git index lists in them when `index`), then read a step further when its walk is not
/// complete. A change found means a new base; nothing found, the pieces stay as they are.
fn check(dir: &Path, walk: &Walk<'_>, times: &Times, index: bool) -> Option<Current> {
    let base = dir.join(snapshot::BASE);
    let checked_at = std::fs::metadata(&base).and_then(|m| m.modified()).ok();
    let Some(listing) = snapshot::list(dir) else {
        return rewrite(dir, new_walk(walk), walk, None);
    };
    // Only the index changed, and in none of the snapshot's directories: nothing to read.
    let is_index_unchanged = || {
        walk.tracked.is_some_and(|tracked| {
            listing.heads.len() == 1 && signatures_differ(&base, tracked) == Some(false)
        })
    };
    if matches!(times, Times::None) && (!index || is_index_unchanged()) {
        return step(dir, walk, listing, checked_at);
    }
    let Some(old) = snapshot::load(dir, &listing) else {
        return rewrite(dir, new_walk(walk), walk, None);
    };
    let is_all = matches!(times, Times::All);
    if let Some(state) = refresh(&old, walk, times, index) {
        // Not every directory was checked: their times are as old as before.
        return rewrite(dir, state, walk, checked_at.filter(|_| !is_all));
    }
    if is_all {
        let _ = touch(&base);
    }
    step(dir, walk, listing, checked_at)
}

/// The snapshot of `listing` read a step further when its walk is not complete, the step
/// written as a part of its own: a step costs what it reads, not the tree read so far. The
/// parts of a complete walk are merged into a new base at the next miss, once (not at the
/// step that completes it, which would pay for reading and writing the whole tree's lists on
/// top of its own reads), whose time stays that of the base's last check (`checked_at`).
fn step(
    dir: &Path,
    walk: &Walk<'_>,
    listing: Listing,
    checked_at: Option<SystemTime>,
) -> Option<Current> {
    let last = listing.last();
    if unread(&last.generation) == 0 {
        if listing.heads.len() == 1 {
            return Some(Current::listed(listing));
        }
        let Some(whole) = snapshot::load(dir, &listing) else {
            return rewrite(dir, new_walk(walk), walk, None);
        };
        let State { files, dirs, rules, .. } = whole;
        return rewrite(dir, finish(files, dirs, rules, Vec::new()), walk, checked_at);
    }
    let Some(pending) = snapshot::pending(dir, &listing) else {
        return rewrite(dir, new_walk(walk), walk, None);
    };
    let (before, known) = (pending.len(), last.known);
    let found = read_some(walk, pending, known);
    let known =
        known.saturating_sub(before) + found.files.len() + found.dirs.len() + found.pending.len();
    snapshot::write_part(dir, &listing, &found, known)?;
    let mut current = Current::listed(listing);
    current.pieces.push(found.generation);
    current.fresh = Some(found.files);
    Some(current)
}

/// `state` read a step further (when its walk is not complete) and written as the new base,
/// its time set back to `checked_at` (when not every directory was checked now).
fn rewrite(
    dir: &Path,
    state: State,
    walk: &Walk<'_>,
    checked_at: Option<SystemTime>,
) -> Option<Current> {
    let state = resume(state, walk);
    snapshot::write_base(dir, &state).ok()?;
    if let Some(checked_at) = checked_at {
        let _ = std::fs::File::options()
            .write(true)
            .open(dir.join(snapshot::BASE))
            .and_then(|f| f.set_modified(checked_at));
    }
    Some(Current { pieces: vec![state.generation], fresh: Some(state.files) })
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
            || !std::fs::metadata(dir.join(snapshot::BASE))
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

/// Whether the git index lists other names than the snapshot's base at `base` recorded in one
/// of its directories (`None`: the base cannot be read so). Its directory lines alone, without
/// reading the whole base: after an index change that changed no directory's names (a commit,
/// `git add` of a changed file) this is all the check.
fn signatures_differ(base: &Path, tracked: &TrackedFiles<'_>) -> Option<bool> {
    snapshot::scan_base_dirs(base, |line| {
        let mut fields = line.splitn(3, |&b| b == b'\t');
        let (_time, signature, dir) = (fields.next()?, fields.next()?, fields.next()?);
        let signature = u64::from_str_radix(std::str::from_utf8(signature).ok()?, 16).ok()?;
        Some(tracked.signature_of(dir) != signature)
    })
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
    if state.pending.is_empty() {
        return state;
    }
    let known = state.files.len() + state.dirs.len() + state.pending.len();
    let found = read_some(walk, std::mem::take(&mut state.pending), known);
    state.files.extend(found.files);
    state.dirs.extend(found.dirs);
    state.rules.extend(found.rules);
    finish(state.files, state.dirs, state.rules, found.pending)
}

/// At most [`Walk::budget`] of the directories `pending` read, and of those found below them,
/// the nearest to [`Walk::near`] first: what a whole walk would have found there, with the
/// directories left to read as its pending. `known` entries count against [`WALK_LIMIT`]
/// already.
fn read_some(walk: &Walk<'_>, pending: Vec<String>, known: usize) -> State {
    let rules = super::walk::Rules {
        is_repo: walk.tracked.is_some(),
        excludes: walk.extra_rules.clone(),
        limit: WALK_LIMIT.saturating_sub(known),
    };
    let nothing = HashSet::new();
    let known = Known { kept: &nothing, enter: &nothing, pending: &nothing };
    let mut found = Found { walk, known: &known, state: State::default() };
    // Without a budget (a tree walked in steps that is a repository's worktree now) at once.
    let budget = walk.budget.unwrap_or(usize::MAX);
    let left = super::walk::walk_some(walk.root, &rules, (pending, walk.near, budget), &mut found);
    let State { files, dirs, rules, .. } = found.state;
    finish(files, dirs, rules, left)
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

#[cfg(test)]
mod tests;
