//! Fuzz `apply --recover` with any bytes as the journal `<git-dir>/patchgate/apply-journal.json`,
//! in a fresh repository per input whose run file `apply-run.<32 zeros>` is there and unlocked
//! (the journal's claim to a run can be true, so recovery gets past the run check and obeys or
//! refuses the steps).
//!
//! The worktree holds files born before the run, among them names patchgate gives its own
//! temporary and backup files, and a directory beside the repository holds a canary: whatever
//! the journal says, recovery never panics, never removes, moves or changes any of them, and
//! never writes outside the repository. They are hard links to files made once per process, so
//! their birth time is well before every run's even where the clock is coarse, and the run file
//! is made once the clock has passed their last change (the link), so none of them was moved
//! since the run began.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The run id every input may name.
const RUN: &str = "00000000000000000000000000000000";

/// Files born before the run: worktree paths, and `../outside/canary` beside the repository.
/// Most carry the names patchgate gives run [`RUN`]'s temporary and backup files; one has the
/// shape names had before they carried the run.
const BEFORE: &[&str] = &[
    "a.txt",
    "src/lib.rs",
    "src/.lib.rs.patchgate-00000000000000000000000000000000-0123456789abcdef.tmp",
    "src/.lib.rs.patchgate-00000000000000000000000000000000-0123456789abcdef.bak",
    ".a.txt.patchgate-00000000000000000000000000000000-fedcba9876543210.tmp",
    ".a.txt.patchgate-00000000000000000000000000000000-fedcba9876543210.bak",
    ".a.txt.patchgate-fedcba9876543210.bak",
    // A backup name whose target is not there: putting it back would move it.
    "docs/.gone.md.patchgate-00000000000000000000000000000000-fedcba9876543210.bak",
    "docs/x.md",
    "../outside/canary",
];

/// The template the files of [`BEFORE`] are linked from, made once.
fn template() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir =
            std::env::temp_dir().join(format!("patchgate-fuzz-journal-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let files = dir.join("template");
        std::fs::create_dir_all(&files).expect("template");
        for (i, _) in BEFORE.iter().enumerate() {
            std::fs::write(files.join(i.to_string()), format!("before the run {i}\n"))
                .expect("file");
        }
        // Coarse clocks give files made in the same tick the same birth time.
        std::thread::sleep(std::time::Duration::from_millis(50));
        dir
    })
}

/// Create the run file once the clock has passed the last change of every file of [`BEFORE`]
/// (linking them set it): a backup is the run's only when it was moved since the run began.
fn run_file_after(run: &Path, root: &Path) {
    use std::os::unix::fs::MetadataExt;
    let changed = |path: PathBuf| {
        let meta = std::fs::symlink_metadata(path).expect("a file made before the run");
        (meta.ctime(), meta.ctime_nsec())
    };
    let last = BEFORE.iter().map(|rel| changed(root.join(rel))).max().expect("files");
    loop {
        std::fs::write(run, b"").expect("run file");
        let born = std::fs::metadata(run).and_then(|m| m.created()).expect("a birth time");
        let born = born.duration_since(std::time::UNIX_EPOCH).expect("after 1970");
        if (born.as_secs().cast_signed(), i64::from(born.subsec_nanos())) > last {
            return;
        }
        std::fs::remove_file(run).expect("remove the run file");
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

fuzz_target!(|data: &[u8]| {
    let top = template();
    let case = top.join("case");
    let _ = std::fs::remove_dir_all(&case);
    let root = case.join("repo");
    let repo = git2::Repository::init(&root).expect("init");
    for (i, rel) in BEFORE.iter().enumerate() {
        let path = root.join(rel);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("dirs");
        std::fs::hard_link(top.join("template").join(i.to_string()), &path).expect("link");
    }
    let dir = repo.path().join("patchgate");
    std::fs::create_dir_all(&dir).expect("journal dir");
    run_file_after(&dir.join(format!("apply-run.{RUN}")), &root);
    std::fs::write(dir.join("apply-journal.json"), data).expect("journal");
    let _ = patchgate::scratch::recover(&repo, &root);
    for (i, rel) in BEFORE.iter().enumerate() {
        let bytes = std::fs::read(root.join(rel)).unwrap_or_else(|e| {
            panic!("recovery removed or moved '{rel}', born before the run: {e}")
        });
        assert_eq!(bytes, format!("before the run {i}\n").into_bytes(), "recovery changed '{rel}'");
    }
    for rel in ["HEAD", "config"] {
        assert!(repo.path().join(rel).is_file(), "recovery removed .git/{rel}");
    }
});
