use super::*;

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

/// The snapshot at `dir` as a whole: its base and parts merged.
fn merged(dir: &Path) -> State {
    snapshot::load(dir, &snapshot::list(dir).unwrap()).unwrap()
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
/// walk is complete; the snapshot (its base and parts merged) and the indexes the miss answered
/// from checked after each. Returns how many misses it took.
fn miss_until_complete(root: &Path, snapshot: &Path, budget: usize, nears: &[String]) -> usize {
    let whole = names(&full_walk(&bounded(root, 0, "")));
    for calls in 1..=200 {
        let near = &nears[calls % nears.len()];
        wait_for_the_lock(snapshot);
        let on_disk = index(snapshot, &bounded(root, budget, near), Kind::Files).unwrap();
        let state = merged(snapshot);
        assert_eq!(on_disk.unread, state.pending.len());
        // An index for each piece, each file in one of them: the first miss writes the base,
        // each later one a part.
        let pieces = snapshot::list(snapshot).unwrap().heads.len();
        assert_eq!(on_disk.indexes.len(), pieces);
        assert_eq!(on_disk.indexes.iter().map(Index::len).sum::<usize>(), state.files.len());
        assert!(pieces <= calls);
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
    let state = merged(&snapshot);
    assert_eq!(
        names(&state),
        (vec!["a/b/c/want.rs".to_owned()], ["", "a", "a/b", "a/b/c"].map(str::to_owned).to_vec())
    );
    assert_eq!(state.pending, ["a/b/y", "a/z", "q"]);
    // The next miss, elsewhere, reads what it needs first.
    wait_for_the_lock(&snapshot);
    let walk = bounded(&root, 1, "q/near.rs");
    assert_eq!(index(&snapshot, &walk, Kind::Files).unwrap().unread, 2);
    let state = merged(&snapshot);
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
        let state = merged(&snapshot);
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
    let state = merged(&snapshot);
    assert!(state.pending.is_empty());
    assert_eq!(names(&state), whole);
}

/// A walk completed in parts is merged into one base at the next miss (its answer the same),
/// and a check that finds a change during a walk in parts merges them too.
#[test]
fn parts_are_merged_once_the_walk_is_complete_or_a_change_is_found() {
    let mut rng = Rng(0x5851_f42d_4c95_7f2d);
    let dir = tempfile::tempdir().unwrap();
    let (root, snapshot) = (dir.path().join("w"), dir.path().join("snapshot"));
    generate(&root, &mut rng);
    miss_until_complete(&root, &snapshot, 1, &["a/x.rs".to_owned()]);
    let before = merged(&snapshot);
    assert!(snapshot::list(&snapshot).unwrap().heads.len() > 1);
    wait_for_the_lock(&snapshot);
    let again = index(&snapshot, &bounded(&root, 1, "q.rs"), Kind::Files).unwrap();
    assert_eq!((again.indexes.len(), again.unread), (1, 0));
    assert_eq!(snapshot::list(&snapshot).unwrap().heads.len(), 1);
    assert_eq!(names(&merged(&snapshot)), names(&before));
    // A change found while the walk is in parts.
    let (root, snapshot) = (dir.path().join("w2"), dir.path().join("snapshot2"));
    generate(&root, &mut rng);
    let first = index(&snapshot, &bounded(&root, 1, "q.rs"), Kind::Files).unwrap();
    wait_for_the_lock(&snapshot);
    let second = index(&snapshot, &bounded(&root, 1, "q.rs"), Kind::Files).unwrap();
    if second.unread == 0 {
        return;
    }
    assert_eq!((first.indexes.len(), second.indexes.len()), (1, 2));
    std::fs::write(root.join("made_now.py"), "").unwrap();
    mark_stale(&snapshot);
    wait_for_the_lock(&snapshot);
    let after = index(&snapshot, &bounded(&root, 1, "q.rs"), Kind::Files).unwrap();
    assert_eq!(after.indexes.len(), 1);
    assert_eq!(snapshot::list(&snapshot).unwrap().heads.len(), 1);
    assert!(merged(&snapshot).files.contains(&"made_now.py".to_owned()));
}
