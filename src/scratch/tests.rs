use super::hunk::{self, Direction};
use super::*;
use crate::patch::{FilePatch, Hunk, IndexLine, Line, LineKind, Operation, Patch, Span};
use crate::rule::patch_paths;
use crate::testing::{commit_files, git};
use std::path::Path;

/// A hunk from a compact body: one line per body line, prefixed ` `, `+`, `-`; a line `\`
/// marks the previous one as having no final newline.
fn hunk(old: (u64, u64), new: (u64, u64), body: &str) -> Hunk<'static> {
    let body: &'static str = Box::leak(body.to_owned().into_boxed_str());
    let mut lines: Vec<Line<'static>> = Vec::new();
    for (i, raw) in body.split('\n').filter(|l| !l.is_empty()).enumerate() {
        if raw == "\\" {
            lines.last_mut().unwrap().has_newline = false;
            continue;
        }
        let kind = match raw.as_bytes()[0] {
            b' ' => LineKind::Context,
            b'+' => LineKind::Add,
            b'-' => LineKind::Remove,
            other => panic!("bad prefix {other}"),
        };
        lines.push(Line { kind, text: &raw.as_bytes()[1..], has_newline: true, line: 10 + i });
    }
    Hunk {
        span: Span { offset: 0, line: 9 },
        old_start: old.0,
        old_count: old.1,
        new_start: new.0,
        new_count: new.1,
        section: b"",
        lines: lines.into(),
    }
}

fn forward(base: &str, hunks: &[Hunk<'_>]) -> Result<hunk::Applied, hunk::Mismatch> {
    hunk::apply(base.as_bytes(), hunks, Direction::Forward)
}

fn text(applied: &hunk::Applied) -> &str {
    std::str::from_utf8(&applied.bytes).unwrap()
}

#[test]
fn applies_at_the_stated_line_and_rolls_back() {
    let h = [hunk((2, 3), (2, 3), " b\n-c\n+C\n d")];
    let out = forward("a\nb\nc\nd\ne\n", &h).unwrap();
    assert_eq!(text(&out), "a\nb\nC\nd\ne\n");
    assert!(out.offsets.is_empty());
    let back = hunk::apply(&out.bytes, &h, Direction::Reverse).unwrap();
    assert_eq!(back.bytes, b"a\nb\nc\nd\ne\n");
}

#[test]
fn reports_an_offset_instead_of_failing() {
    let h = [hunk((2, 3), (2, 3), " b\n-c\n+C\n d")];
    let out = forward("x\ny\na\nb\nc\nd\ne\n", &h).unwrap();
    assert_eq!(text(&out), "x\ny\na\nb\nC\nd\ne\n");
    assert_eq!(out.offsets.len(), 1);
    assert_eq!(out.offsets[0].offset, 2);
}

#[test]
fn stale_context_names_the_first_differing_line() {
    let h = [hunk((2, 3), (2, 3), " b\n-c\n+C\n d")];
    let err = forward("a\nb\ncc\nd\ne\n", &h).unwrap_err();
    assert_eq!(err.hunk, 1);
    assert_eq!(err.file_line, 3);
    assert_eq!(err.patch_line, 11);
    assert_eq!(err.expected_text.as_deref(), Some(&b"c"[..]));
    assert_eq!(err.actual.as_deref(), Some(&b"cc"[..]));
}

#[test]
fn whitespace_and_carriage_returns_are_exact() {
    let h = [hunk((2, 3), (2, 3), " b\n-c\n+C\n d")];
    assert!(forward("a\nb \nc\nd\n", &h).is_err());
    assert!(forward("a\r\nb\r\nc\r\nd\r\n", &h).is_err());
}

#[test]
fn a_hunk_at_line_one_must_match_at_the_start() {
    let h = [hunk((1, 2), (1, 2), "-a\n+A\n b")];
    assert!(forward("z\na\nb\n", &h).is_err());
    assert_eq!(text(&forward("a\nb\nz\n", &h).unwrap()), "A\nb\nz\n");
}

#[test]
fn a_hunk_without_trailing_context_must_match_at_the_end() {
    let h = [hunk((3, 2), (3, 2), " b\n-c\n+C")];
    assert!(forward("a\na\nb\nc\nd\n", &h).is_err());
    assert_eq!(text(&forward("a\na\nb\nc\n", &h).unwrap()), "a\na\nb\nC\n");
}

#[test]
fn no_newline_at_end_of_file_must_agree_with_the_base() {
    let add_newline = [hunk((1, 2), (1, 2), " a\n-b\n\\\n+b")];
    assert_eq!(text(&forward("a\nb", &add_newline).unwrap()), "a\nb\n");
    let err = forward("a\nb\n", &add_newline).unwrap_err();
    assert!(!err.expected_has_newline && err.actual_has_newline);
    let drop_newline = [hunk((1, 2), (1, 2), " a\n-b\n+b\n\\")];
    let out = forward("a\nb\n", &drop_newline).unwrap();
    assert_eq!(text(&out), "a\nb");
    assert_eq!(
        hunk::apply(&out.bytes, &drop_newline, Direction::Reverse).unwrap().bytes,
        b"a\nb\n"
    );
}

#[test]
fn creation_needs_an_empty_preimage() {
    let h = [hunk((0, 0), (1, 2), "+x\n+y")];
    assert_eq!(text(&forward("", &h).unwrap()), "x\ny\n");
    assert!(forward("already\n", &h).is_err());
}

#[test]
fn later_hunks_never_match_before_the_previous_one() {
    let h = [hunk((4, 3), (4, 3), " k\n-x\n+X\n k"), hunk((2, 3), (2, 3), " k\n-x\n+Y\n k")];
    // The second hunk's text exists only before the first hunk's position.
    assert!(forward("k\nx\nk\nk\nx\nk\n", &h[..1]).is_ok());
    assert!(forward("a\nk\nx\nk\nz\n", &h).is_err());
}

// ---- repository-level checks, with hand-built patches ----

struct Repo {
    dir: tempfile::TempDir,
    repo: git2::Repository,
}

/// A repository with `files` committed; `@target` content makes a symbolic link.
fn repo(files: &[(&str, &str)]) -> Repo {
    let dir = tempfile::tempdir().unwrap();
    let repo = commit_files(dir.path(), files);
    Repo { dir, repo }
}

fn entry(
    op: Operation,
    old: Option<&str>,
    new: Option<&str>,
    hunks: Vec<Hunk<'static>>,
) -> FilePatch<'static> {
    FilePatch {
        span: Span { offset: 0, line: 1 },
        is_git: true,
        old_path: old.map(|p| p.as_bytes().to_vec()),
        new_path: new.map(|p| p.as_bytes().to_vec()),
        operation: op,
        old_mode: None,
        new_mode: None,
        similarity: None,
        dissimilarity: None,
        index: None,
        binary: None,
        hunks,
    }
}

fn modify(path: &str, hunks: Vec<Hunk<'static>>) -> FilePatch<'static> {
    entry(Operation::Modify, Some(path), Some(path), hunks)
}

fn create(path: &str, body: &str) -> FilePatch<'static> {
    let n = body.lines().count() as u64;
    let mut f = entry(Operation::Create, None, Some(path), vec![hunk((0, 0), (1, n), body)]);
    f.new_mode = Some(mode::FILE);
    f
}

fn run_with(
    r: &Repo,
    files: Vec<FilePatch<'static>>,
    step: &Step,
    policy: &ScratchPolicy,
) -> Outcome {
    let patch = Patch { files };
    let base = BaseTree::resolve(&r.repo, base_rev(step, &Options::default())).unwrap();
    let paths = patch_paths(&patch);
    let ctx = Context { base: &base, patch: &patch, paths: &paths, step, policy };
    check(&ctx, &Options::default()).unwrap()
}

fn run(r: &Repo, files: Vec<FilePatch<'static>>) -> Outcome {
    run_with(r, files, &Step::default(), &ScratchPolicy::default())
}

fn codes(outcome: &Outcome) -> Vec<&str> {
    outcome.violations.iter().map(|v| v.code.as_str()).collect()
}

#[test]
fn a_clean_modification_yields_its_content() {
    let r = repo(&[("a.txt", "a\nb\nc\n")]);
    let out = run(&r, vec![modify("a.txt", vec![hunk((1, 3), (1, 3), " a\n-b\n+B\n c")])]);
    assert!(out.violations.is_empty(), "{:?}", out.violations);
    assert_eq!(out.changes[0].content, Some(Content::Bytes(b"a\nB\nc\n".to_vec())));
    assert_eq!(out.changes[0].mode, Some(mode::FILE));
}

#[test]
fn create_over_existing_and_missing_preimage() {
    let r = repo(&[("a.txt", "a\n")]);
    assert_eq!(codes(&run(&r, vec![create("a.txt", "+x")])), ["create_over_existing"]);
    let out = run(&r, vec![modify("nope.txt", vec![hunk((1, 1), (1, 1), "-a\n+b")])]);
    assert_eq!(codes(&out), ["missing_preimage"]);
}

#[test]
fn stale_context_is_malformed_with_file_and_hunk() {
    let r = repo(&[("a.txt", "a\nb\nc\n")]);
    let out = run(&r, vec![modify("a.txt", vec![hunk((1, 3), (1, 3), " a\n-x\n+B\n c")])]);
    let v = &out.violations[0];
    assert_eq!((v.rule, v.code.as_str(), v.hunk), (RuleId::Malformed, "context_mismatch", Some(1)));
    assert_eq!(v.message, "a.txt: hunk 1 does not apply: at line 2 expected 'x', found 'b'");
}

#[test]
fn an_invented_index_id_is_a_note_when_the_hunks_apply() {
    let r = repo(&[("a.txt", "a\n")]);
    let mut f = modify("a.txt", vec![hunk((1, 1), (1, 1), "-a\n+b")]);
    f.index = Some(IndexLine { old: b"1234567", new: b"89abcde", mode: Some(mode::FILE) });
    let out = run(&r, vec![f.clone()]);
    assert!(out.violations.is_empty(), "{:?}", out.violations);
    assert_eq!(out.notes.iter().map(|n| n.code.as_str()).collect::<Vec<_>>(), ["index_mismatch"]);
    // When the hunks do not apply, the reason is the content, not the id.
    let mut stale = modify("a.txt", vec![hunk((1, 1), (1, 1), "-x\n+b")]);
    stale.index = f.index.clone();
    assert_eq!(codes(&run(&r, vec![stale])), ["context_mismatch"]);
    // A wrong mode is still refused.
    f.index = Some(IndexLine { old: b"7898192", new: b"89abcde", mode: Some(mode::EXECUTABLE) });
    assert_eq!(codes(&run(&r, vec![f.clone()])), ["preimage_mismatch"]);
    // 78981922 is the blob id of "a\n".
    f.index = Some(IndexLine { old: b"7898192", new: b"89abcde", mode: Some(mode::FILE) });
    let out = run(&r, vec![f]);
    assert!(out.violations.is_empty(), "{:?}", out.violations);
}

#[test]
fn odd_modes_symlinks_and_gitlinks_other_than_a_submodule_are_refused() {
    let r = repo(&[("a.txt", "a\n")]);
    let mut setuid = create("s.sh", "+x");
    setuid.new_mode = Some(0o104_755);
    assert_eq!(codes(&run(&r, vec![setuid])), ["unsupported_mode"]);
    let mut link = create("l", "+a.txt\n\\");
    link.new_mode = Some(mode::SYMLINK);
    assert_eq!(codes(&run(&r, vec![link.clone()])), ["symlink"]);
    let allow = ScratchPolicy { allow_symlinks: true, ..ScratchPolicy::default() };
    assert!(run_with(&r, vec![link], &Step::default(), &allow).violations.is_empty());
    // A submodule added as `git diff` writes it (one `Subproject commit` line) is what
    // `git apply --index` records; a gitlink holding anything else is not a submodule.
    let one = "+Subproject commit 1111111111111111111111111111111111111111";
    let mut gitlink = create("sub", one);
    gitlink.new_mode = Some(mode::GITLINK);
    assert!(run(&r, vec![gitlink]).violations.is_empty());
    let mut two_lines = create("sub", &format!("{one}\n{one}"));
    two_lines.new_mode = Some(mode::GITLINK);
    assert_eq!(codes(&run(&r, vec![two_lines])), ["gitlink"]);
    let mut text = create("sub", "+not a commit");
    text.new_mode = Some(mode::GITLINK);
    assert_eq!(codes(&run(&r, vec![text])), ["gitlink"]);
}

#[test]
fn a_type_change_in_place_is_refused() {
    let r = repo(&[("a.txt", "a\n")]);
    let mut f = modify("a.txt", vec![]);
    f.old_mode = Some(mode::FILE);
    f.new_mode = Some(mode::SYMLINK);
    let allow = ScratchPolicy { allow_symlinks: true, ..ScratchPolicy::default() };
    assert_eq!(codes(&run_with(&r, vec![f], &Step::default(), &allow)), ["type_change"]);
}

#[test]
fn writing_through_a_base_symlink_is_refused() {
    let r = repo(&[("a.txt", "a\n"), ("link", "@/tmp")]);
    let out = run(&r, vec![create("link/evil", "+x")]);
    assert_eq!(codes(&out), ["beyond_symlink"]);
    assert_eq!(out.violations[0].rule, RuleId::Scope);
}

#[test]
fn writing_through_a_link_the_patch_creates_is_refused() {
    let r = repo(&[("a.txt", "a\n")]);
    let mut link = create("link", "+..\n\\");
    link.new_mode = Some(mode::SYMLINK);
    let allow = ScratchPolicy { allow_symlinks: true, ..ScratchPolicy::default() };
    let out = run_with(&r, vec![link, create("link/evil", "+x")], &Step::default(), &allow);
    assert_eq!(codes(&out), ["beyond_symlink"]);
}

#[test]
fn renaming_a_link_then_writing_through_it_is_refused() {
    // CVE-2023-23946 / t4115: the symlink set is the one after the patch.
    let r = repo(&[("a.txt", "a\n"), ("symlink", "@.git")]);
    let allow = ScratchPolicy { allow_symlinks: true, ..ScratchPolicy::default() };
    let rename = entry(Operation::Rename, Some("symlink"), Some("renamed-symlink"), vec![]);
    let out = run_with(
        &r,
        vec![rename, create("renamed-symlink/create-me", "+x")],
        &Step::default(),
        &allow,
    );
    assert_eq!(codes(&out), ["beyond_symlink"]);
    // Without the policy, the rename of a link is refused too.
    let rename = entry(Operation::Rename, Some("symlink"), Some("renamed-symlink"), vec![]);
    let out = run(&r, vec![rename, create("renamed-symlink/create-me", "+x")]);
    assert_eq!(codes(&out), ["symlink", "beyond_symlink"]);
}

#[test]
fn gitmodules_may_not_become_a_link() {
    let r = repo(&[("a.txt", "a\n")]);
    let mut link = create(".gitmodules", "+a.txt\n\\");
    link.new_mode = Some(mode::SYMLINK);
    let allow = ScratchPolicy { allow_symlinks: true, ..ScratchPolicy::default() };
    assert_eq!(codes(&run_with(&r, vec![link], &Step::default(), &allow)), ["gitmodules_symlink"]);
}

#[test]
fn a_swap_rename_is_valid() {
    let r = repo(&[("a", "one\n"), ("b", "two\n")]);
    let ab = entry(Operation::Rename, Some("a"), Some("b"), vec![]);
    let ba = entry(Operation::Rename, Some("b"), Some("a"), vec![]);
    let out = run(&r, vec![ab, ba]);
    assert!(out.violations.is_empty(), "{:?}", out.violations);
    let b = out.changes.iter().find(|c| c.path == "b").unwrap();
    assert_eq!(b.content, Some(Content::Bytes(b"one\n".to_vec())));
    assert_eq!(out.changes.len(), 2);
}

#[test]
fn a_deletion_must_remove_everything() {
    let r = repo(&[("a.txt", "a\nb\n")]);
    let del = entry(Operation::Delete, Some("a.txt"), None, vec![hunk((1, 1), (0, 0), "-a")]);
    assert!(!run(&r, vec![del]).violations.is_empty());
    let del = entry(Operation::Delete, Some("a.txt"), None, vec![hunk((1, 2), (0, 0), "-a\n-b")]);
    let out = run(&r, vec![del]);
    assert!(out.violations.is_empty(), "{:?}", out.violations);
    assert_eq!(out.changes[0].content, None);
}

#[test]
fn binary_is_refused_by_default() {
    let r = repo(&[("a.txt", "a\n")]);
    let mut f = create("img.png", "");
    f.hunks.clear();
    f.binary = Some(crate::patch::Binary { kind: crate::patch::BinaryKind::Marker, payload: b"" });
    assert_eq!(codes(&run(&r, vec![f])), ["binary_patch"]);
}

#[test]
fn expect_is_checked_on_patched_content() {
    let r = repo(&[("a.txt", "fn foo() {}\n")]);
    let step = Step {
        expect: vec![crate::step::Expect {
            file: "a.txt".into(),
            present: Some(r"^fn bar\(".into()),
            absent: Some(r"\bfoo\b".into()),
        }],
        ..Step::default()
    };
    let good = modify("a.txt", vec![hunk((1, 1), (1, 1), "-fn foo() {}\n+fn bar() {}")]);
    assert!(run_with(&r, vec![good], &step, &ScratchPolicy::default()).violations.is_empty());
    let bad = modify("a.txt", vec![hunk((1, 1), (1, 1), "-fn foo() {}\n+fn foo() { }")]);
    let out = run_with(&r, vec![bad], &step, &ScratchPolicy::default());
    assert_eq!(codes(&out), ["expect_failed", "expect_failed"]);
    assert_eq!(out.violations[0].rule, RuleId::NotImplemented);
}

#[test]
fn check_cmd_runs_on_the_patched_tree_and_leaves_nothing() {
    let r = repo(&[("a.txt", "a\n"), ("bin/x", "keep\n")]);
    let patch = Patch { files: vec![modify("a.txt", vec![hunk((1, 1), (1, 1), "-a\n+b")])] };
    let step = Step::default();
    let policy = ScratchPolicy::default();
    let base = BaseTree::resolve(&r.repo, "HEAD").unwrap();
    let paths = patch_paths(&patch);
    let ctx = Context { base: &base, patch: &patch, paths: &paths, step: &step, policy: &policy };
    let opts = |cmd: &str| Options { check_cmd: Some(cmd.into()), ..Options::default() };
    let ok = check(&ctx, &opts("grep -qx b a.txt && test -f bin/x && ! git status 2>/dev/null"))
        .unwrap();
    assert!(ok.violations.is_empty(), "{:?}", ok.violations);
    let bad = check(&ctx, &opts("echo boom >&2; exit 3")).unwrap();
    assert_eq!(codes(&bad), ["check_cmd_failed"]);
    assert!(bad.violations[0].message.contains("exited with 3"));
    let slow =
        Options { check_timeout: Some(std::time::Duration::from_millis(200)), ..opts("sleep 5") };
    let started = std::time::Instant::now();
    let out = check(&ctx, &slow).unwrap();
    assert_eq!(codes(&out), ["check_cmd_failed"]);
    assert!(started.elapsed() < std::time::Duration::from_secs(4));
    let mine = format!("patchgate-scratch-{}-", std::process::id());
    let left: Vec<_> = std::fs::read_dir(scratch_root())
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|name| name.starts_with(&mine))
        .collect();
    assert!(left.is_empty(), "scratch trees left behind: {left:?}");
}

#[test]
fn stale_scratch_dirs_are_removed_and_live_or_foreign_ones_kept() {
    let root = tempfile::tempdir().unwrap();
    let root = root.path();
    // Killed before it made its lock: its pid is gone.
    std::fs::create_dir_all(root.join("patchgate-scratch-999999999-dead/tree")).unwrap();
    // Its lock file is there and nothing holds it.
    std::fs::create_dir_all(root.join("patchgate-scratch-1-unlocked/tree")).unwrap();
    std::fs::write(root.join("patchgate-scratch-1-unlocked/lock"), "").unwrap();
    // Held by a live run (this process, through another handle).
    let live = root.join("patchgate-scratch-1-live");
    std::fs::create_dir_all(&live).unwrap();
    let lock = std::fs::File::create(live.join("lock")).unwrap();
    rustix::fs::flock(&lock, rustix::fs::FlockOperation::NonBlockingLockExclusive).unwrap();
    // Not a scratch tree, and a link named like one: never touched.
    std::fs::create_dir_all(root.join("someone-else-999999999-x")).unwrap();
    let target = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(target.path(), root.join("patchgate-scratch-999999999-link"))
        .unwrap();
    clean_stale(root);
    assert!(!root.join("patchgate-scratch-999999999-dead").exists());
    assert!(!root.join("patchgate-scratch-1-unlocked").exists());
    assert!(live.exists());
    assert!(root.join("someone-else-999999999-x").exists());
    assert!(root.join("patchgate-scratch-999999999-link").symlink_metadata().is_ok());
    assert!(target.path().exists());
}

// ---- apply into the worktree ----

fn changes_for(r: &Repo, files: Vec<FilePatch<'static>>) -> Vec<FileChange> {
    let out = run(r, files);
    assert!(out.violations.is_empty(), "{:?}", out.violations);
    out.changes
}

fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for entry in walk(dir) {
        let rel = entry.strip_prefix(dir).unwrap().display().to_string();
        if rel.starts_with(".git") {
            continue;
        }
        let bytes = if entry.is_dir() { b"<dir>".to_vec() } else { std::fs::read(&entry).unwrap() };
        out.push((rel, bytes));
    }
    out.sort();
    out
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        }
        out.push(p);
    }
    out
}

#[test]
fn apply_writes_all_changes_and_the_index() {
    let r = repo(&[("a.txt", "a\n"), ("d/gone.txt", "x\n")]);
    let changes = changes_for(
        &r,
        vec![
            modify("a.txt", vec![hunk((1, 1), (1, 1), "-a\n+b")]),
            create("new/dir/n.txt", "+n"),
            entry(Operation::Delete, Some("d/gone.txt"), None, vec![hunk((1, 1), (0, 0), "-x")]),
        ],
    );
    let base = BaseTree::resolve(&r.repo, "HEAD").unwrap();
    assert!(dirty_files(&base, r.dir.path(), &changes, true).unwrap().is_empty());
    apply_to_worktree(&base, r.dir.path(), &changes, true).unwrap();
    let snap = snapshot(r.dir.path());
    let names: Vec<&str> = snap.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["a.txt", "new", "new/dir", "new/dir/n.txt"]);
    assert_eq!(std::fs::read(r.dir.path().join("a.txt")).unwrap(), b"b\n");
    let index = r.repo.index().unwrap();
    assert!(index.get_path(Path::new("new/dir/n.txt"), 0).is_some());
    assert!(index.get_path(Path::new("d/gone.txt"), 0).is_none());
}

/// `a.txt` and `b.txt` committed; the changes modify `a.txt`, delete `b.txt`, create `new`.
fn modify_delete_create(new: &str) -> (Repo, Vec<FileChange>) {
    let r = repo(&[("a.txt", "a\n"), ("b.txt", "b\n")]);
    let changes = changes_for(
        &r,
        vec![
            modify("a.txt", vec![hunk((1, 1), (1, 1), "-a\n+A")]),
            entry(Operation::Delete, Some("b.txt"), None, vec![hunk((1, 1), (0, 0), "-b")]),
            create(new, "+n"),
        ],
    );
    (r, changes)
}

#[test]
fn a_failed_commit_restores_the_worktree_byte_for_byte() {
    let (r, changes) = modify_delete_create("n/new.txt");
    let base = BaseTree::resolve(&r.repo, "HEAD").unwrap();
    let before = snapshot(r.dir.path());
    for step in 0..3 {
        write::FAIL_COMMIT_AT.with(|c| c.set(Some(step)));
        assert!(apply_to_worktree(&base, r.dir.path(), &changes, false).is_err());
        assert_eq!(snapshot(r.dir.path()), before, "after a failure at step {step}");
    }
    write::FAIL_COMMIT_AT.with(|c| c.set(None));
}

#[test]
fn a_link_replaced_by_a_directory_is_set_aside_first_and_restored_on_failure() {
    let r = repo(&[("a.txt", "a\n"), ("d", "@a.txt")]);
    let changes = vec![
        FileChange { path: "d".into(), mode: None, content: None },
        FileChange {
            path: "d/f".into(),
            mode: Some(mode::FILE),
            content: Some(Content::Bytes(b"f\n".to_vec())),
        },
    ];
    let base = BaseTree::resolve(&r.repo, "HEAD").unwrap();
    assert!(dirty_files(&base, r.dir.path(), &changes, false).unwrap().is_empty());
    let link = r.dir.path().join("d");
    for step in 0..2 {
        write::FAIL_COMMIT_AT.with(|c| c.set(Some(step)));
        assert!(apply_to_worktree(&base, r.dir.path(), &changes, false).is_err());
        assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("a.txt"), "step {step}");
        let names: Vec<_> =
            std::fs::read_dir(r.dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 3, "no backup or temporary left at step {step}: {names:?}");
    }
    write::FAIL_COMMIT_AT.with(|c| c.set(None));
    apply_to_worktree(&base, r.dir.path(), &changes, false).unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().is_dir());
    assert_eq!(std::fs::read(link.join("f")).unwrap(), b"f\n");
    assert_eq!(std::fs::read(r.dir.path().join("a.txt")).unwrap(), b"a\n", "not written through");
}

#[test]
fn staging_refuses_content_other_than_what_was_written() {
    let r = repo(&[("a.txt", "a\n")]);
    let before = r.repo.index().unwrap().get_path(Path::new("a.txt"), 0).unwrap().id;
    // What a swap between the write and the staging would leave: other bytes at the path.
    std::fs::write(r.dir.path().join("a.txt"), "swapped\n").unwrap();
    let written = b"b\n".to_vec();
    let changes = [FileChange {
        path: "a.txt".into(),
        mode: Some(mode::FILE),
        content: Some(Content::Bytes(written.clone())),
    }];
    let err = write::update_index(&r.repo, &changes).unwrap_err();
    assert!(matches!(err, WorktreeError::Index { .. }), "{err}");
    let on_disk = git2::Index::open(&r.repo.path().join("index")).unwrap();
    assert_eq!(on_disk.get_path(Path::new("a.txt"), 0).unwrap().id, before, "index not written");
    std::fs::write(r.dir.path().join("a.txt"), &written).unwrap();
    write::update_index(&r.repo, &changes).unwrap();
}

#[test]
fn an_edit_made_after_the_dirty_check_is_kept_and_nothing_is_written() {
    let (r, changes) = modify_delete_create("n.txt");
    let base = BaseTree::resolve(&r.repo, "HEAD").unwrap();
    assert!(dirty_files(&base, r.dir.path(), &changes, false).unwrap().is_empty());
    // A concurrent editor changes each touched path in turn between the check and the write.
    for (path, content) in [("b.txt", "edited b\n"), ("a.txt", "edited a\n"), ("n.txt", "new\n")] {
        let file = r.dir.path().join(path);
        let original = std::fs::read(&file).ok();
        let restore = || match &original {
            Some(bytes) => std::fs::write(&file, bytes).unwrap(),
            None => std::fs::remove_file(&file).unwrap(),
        };
        std::fs::write(&file, content).unwrap();
        let expected = snapshot(r.dir.path());
        restore();
        let target = file.clone();
        let edit = move || std::fs::write(&target, content).unwrap();
        write::BEFORE_WRITE.with(|h| *h.borrow_mut() = Some(Box::new(edit)));
        let err = apply_to_worktree(&base, r.dir.path(), &changes, false).unwrap_err();
        assert!(matches!(&err, WorktreeError::Changed { path: p } if p == path), "{err}");
        assert_eq!(snapshot(r.dir.path()), expected, "{path}: the edit kept, nothing else changed");
        restore();
    }
    write::BEFORE_WRITE.with(|h| *h.borrow_mut() = None);
}

#[test]
fn dirty_files_names_edits_and_untracked_targets() {
    let r = repo(&[("a.txt", "a\n")]);
    let changes = changes_for(
        &r,
        vec![modify("a.txt", vec![hunk((1, 1), (1, 1), "-a\n+b")]), create("n.txt", "+n")],
    );
    std::fs::write(r.dir.path().join("a.txt"), "edited\n").unwrap();
    std::fs::write(r.dir.path().join("n.txt"), "untracked\n").unwrap();
    let base = BaseTree::resolve(&r.repo, "HEAD").unwrap();
    assert_eq!(dirty_files(&base, r.dir.path(), &changes, false).unwrap(), ["a.txt", "n.txt"]);
}

#[test]
fn a_creation_without_a_mode_line_says_the_mode_it_gets() {
    let r = repo(&[("a.txt", "a\n")]);
    let mut bare = create("run.sh", "+echo hi");
    bare.new_mode = None;
    let out = run(&r, vec![bare]);
    assert!(out.violations.is_empty(), "{:?}", out.violations);
    let notes: Vec<&str> = out.notes.iter().map(|n| n.code.as_str()).collect();
    assert_eq!(notes, ["mode_defaulted"]);
    assert!(out.notes[0].message.contains("new file mode 100755"), "{}", out.notes[0].message);
    let out = run(&r, vec![create("run2.sh", "+echo hi")]);
    assert!(out.notes.is_empty(), "a mode line says it: {:?}", out.notes);
}

#[test]
fn a_journal_killed_while_dropping_backups_is_completed_not_rolled_back() {
    let (r, changes) = modify_delete_create("n/new.txt");
    let base = BaseTree::resolve(&r.repo, "HEAD").unwrap();
    apply_to_worktree(&base, r.dir.path(), &changes, false).unwrap();
    let applied = snapshot(r.dir.path());
    // What a kill in the finish phase leaves: the new files and one backup still there, moved
    // aside after the run began.
    let run = "0123456789abcdef0123456789abcdef";
    let backup = &format!(".a.txt.patchgate-{run}-0123456789abcdef.bak");
    let temp = format!(".a.txt.patchgate-{run}-fedcba9876543210.tmp");
    let journal = r.repo.path().join("patchgate/apply-journal.json");
    std::fs::create_dir_all(journal.parent().unwrap()).unwrap();
    std::fs::write(r.dir.path().join("old"), "a\n").unwrap();
    std::fs::write(journal.with_file_name(format!("apply-run.{run}")), "").unwrap();
    std::fs::rename(r.dir.path().join("old"), r.dir.path().join(backup)).unwrap();
    let plan = serde_json::json!({"run": run, "phase": "finish", "with_index": false, "steps": [
        {"op": "move_aside", "target": "a.txt", "backup": backup},
        {"op": "place", "temp": temp, "target": "a.txt"},
    ]});
    std::fs::create_dir_all(journal.parent().unwrap()).unwrap();
    std::fs::write(&journal, plan.to_string()).unwrap();
    assert!(super::pending_apply(r.repo.path()).is_some());
    assert_eq!(super::recover(&r.repo, r.dir.path()).unwrap().recovery, super::Recovery::Completed);
    assert_eq!(snapshot(r.dir.path()), applied, "the new state kept, the backup gone");
    assert!(super::pending_apply(r.repo.path()).is_none());
    let again = super::recover(&r.repo, r.dir.path()).unwrap();
    assert_eq!(again.recovery, super::Recovery::NothingToDo);
}

/// The writing process drops and puts back the backups it moved aside itself without proof (a
/// file system without birth or change times still finishes and rolls back); the same steps
/// read back from a journal need the proof: here the backup last changed before the run.
#[test]
fn the_writer_needs_no_proof_for_its_own_backups_a_journal_does() {
    use super::undo::{Record, finish, rollback};
    let r = repo(&[("a.txt", "a\n")]);
    let worktree = super::worktree::Worktree::open(r.dir.path()).unwrap();
    let run_id = "0123456789abcdef0123456789abcdef";
    let backup = format!(".b.txt.patchgate-{run_id}-0123456789abcdef.bak");
    std::fs::write(r.dir.path().join(&backup), "old\n").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let state = tempfile::tempdir().unwrap();
    let run = super::proof::Run::create(state.path(), run_id).unwrap();
    let steps = [journal::Step::MoveAside { target: "b.txt".into(), backup: backup.clone() }];
    for undo in [finish, rollback] {
        let undone = undo(&worktree, &run, &steps, Record::Journal);
        assert_eq!(undone.kept.len(), 1, "{undone:?}");
        assert!(r.dir.path().join(&backup).exists(), "a journal's claim is not proof");
    }
    assert!(rollback(&worktree, &run, &steps, Record::Own).is_whole());
    assert_eq!(std::fs::read(r.dir.path().join("b.txt")).unwrap(), b"old\n", "put back");
    // Another backup, older than another run.
    std::fs::write(r.dir.path().join(&backup), "old\n").unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let run = super::proof::Run::create(state.path(), "f".repeat(32).as_str()).unwrap();
    assert_eq!(finish(&worktree, &run, &steps, Record::Journal).kept.len(), 1);
    assert!(finish(&worktree, &run, &steps, Record::Own).is_whole());
    assert!(!r.dir.path().join(&backup).exists(), "dropped");
}

/// One random hunk over `base` from line `start`: up to two context or removed lines, up to two
/// added ones, maybe a trailing context line; `None` past the end.
fn random_hunk(rng: &mut fastrand::Rng, base: &[&str], start: usize) -> Option<(String, usize)> {
    let end = (start + rng.usize(0..3) + rng.usize(0..3)).min(base.len());
    if start > end {
        return None;
    }
    let mut body = String::new();
    for (k, line) in base[start..end].iter().enumerate() {
        let prefix = if k % 2 == 0 && rng.bool() { ' ' } else { '-' };
        body.extend([prefix]);
        body.extend([*line, "\n"]);
    }
    for _ in 0..rng.usize(0..3) {
        body.extend(["+", ["a", "b", "x"][rng.usize(0..3)], "\n"]);
    }
    if rng.bool() {
        body.extend([" ", base.get(end).copied().unwrap_or("z"), "\n"]);
    }
    Some((body, end))
}

/// Random hunks over bases of few distinct lines (so hunks match in several places): placing
/// and the hunk-by-hunk rollback answer as the whole-file forward and reverse application.
#[test]
fn placing_and_rolling_back_in_place_agree_with_applying_whole_files() {
    let mut rng = fastrand::Rng::with_seed(13);
    let (mut in_place, mut rebuilt) = (0, 0);
    for _ in 0..4000 {
        let base: Vec<&str> =
            (0..rng.usize(0..14)).map(|_| ["a", "b", "c"][rng.usize(0..3)]).collect();
        let text: String = base.iter().flat_map(|l| [*l, "\n"]).collect();
        let mut hunks = Vec::new();
        let (mut at, mut delta) = (0, 0);
        while at < base.len() && hunks.len() < 3 {
            let start = at + rng.usize(0..3);
            let Some((body, end)) = random_hunk(&mut rng, &base, start) else { break };
            let old_count = body.lines().filter(|l| !l.starts_with('+')).count();
            let new_count = body.lines().filter(|l| !l.starts_with('-')).count();
            let old_start = if old_count == 0 { start } else { start + 1 };
            // Stated lines slightly off now and then, on either side.
            let jitter = |rng: &mut fastrand::Rng, n: usize| {
                [n, n, n, n + 1, n.saturating_sub(1)][rng.usize(0..5)] as u64
            };
            let new_start =
                jitter(&mut rng, (old_start + delta + new_count).saturating_sub(old_count));
            let old_start = jitter(&mut rng, old_start);
            delta = (delta + new_count).saturating_sub(old_count);
            hunks.push(hunk((old_start, old_count as u64), (new_start, new_count as u64), &body));
            at = end + 1;
        }
        let whole = forward(&text, &hunks);
        let placed = hunk::place(text.as_bytes(), &hunks);
        let (whole, placed) = match (whole, placed) {
            (Ok(whole), Ok(placed)) => (whole, placed),
            (Err(a), Err(b)) => {
                assert_eq!(a, b, "{text:?} {hunks:?}");
                continue;
            }
            (a, b) => panic!("{text:?} {hunks:?}: {a:?} vs {b:?}"),
        };
        assert_eq!(placed.bytes(), whole.bytes, "{text:?} {hunks:?}");
        assert_eq!(placed.len(), whole.bytes.len());
        assert_eq!(placed.offsets, whole.offsets);
        let back = hunk::apply(&whole.bytes, &hunks, Direction::Reverse);
        let expected = back.is_ok_and(|b| b.bytes == text.as_bytes());
        assert_eq!(placed.rolls_back(text.as_bytes(), &hunks), expected, "{text:?} {hunks:?}");
        if placed.rolls_back_in_place(&hunks) {
            assert!(expected, "in place means rolled back: {text:?} {hunks:?}");
            in_place += 1;
        } else {
            rebuilt += 1;
        }
    }
    assert!(in_place > 500 && rebuilt > 100, "{in_place} in place, {rebuilt} rebuilt");
}

#[test]
fn a_verdict_only_check_keeps_what_expect_reads_and_cannot_be_landed() {
    let r = repo(&[("a.txt", "a\n"), ("b.txt", "x\ny\n")]);
    let files = vec![
        modify("a.txt", vec![hunk((1, 1), (1, 1), "-a\n+b")]),
        modify("b.txt", vec![hunk((1, 2), (1, 1), "-x\n y")]),
        create("c.txt", "+new"),
    ];
    let patch = Patch { files };
    let step = Step {
        expect: vec![crate::step::Expect {
            file: "./b.txt".into(),
            present: Some("^y$".into()),
            absent: Some("^x$".into()),
        }],
        ..Step::default()
    };
    let policy = ScratchPolicy::default();
    let base = BaseTree::resolve(&r.repo, "HEAD").unwrap();
    let paths = patch_paths(&patch);
    let ctx = Context { base: &base, patch: &patch, paths: &paths, step: &step, policy: &policy };
    let full = check(&ctx, &Options::default()).unwrap();
    let verdict_only = Options { is_verdict_only: true, ..Options::default() };
    let only = check(&ctx, &verdict_only).unwrap();
    assert!(full.violations.is_empty() && only.violations.is_empty(), "{:?}", only.violations);
    assert_eq!(full.notes, only.notes);
    let contents: Vec<_> = only.changes.iter().map(|c| (c.path.as_str(), &c.content)).collect();
    let y = Some(Content::Bytes(b"y\n".to_vec()));
    assert_eq!(
        contents,
        [("a.txt", &Some(Content::Unkept)), ("b.txt", &y), ("c.txt", &Some(Content::Unkept))]
    );
    let landed = land(&base, r.dir.path(), &only.changes, false);
    assert!(
        matches!(landed, Err(LandError::NotKept { ref path }) if path == "a.txt"),
        "{landed:?}"
    );
    assert_eq!(std::fs::read(r.dir.path().join("a.txt")).unwrap(), b"a\n", "nothing written");
    // With a check command, every file is kept for the scratch tree.
    let with_cmd = Options { check_cmd: Some("grep -qx b a.txt".into()), ..verdict_only };
    let ran = check(&ctx, &with_cmd).unwrap();
    assert!(ran.violations.is_empty(), "{:?}", ran.violations);
    assert!(ran.changes.iter().all(|c| c.content != Some(Content::Unkept)));
}

/// The base content comes from the worktree only when the worktree file hashes to the blob:
/// an identical file is read there; an edited one (same size or not), a link in its place, a
/// missing file or a bare repository fall back to the blob, with the same bytes either way.
#[test]
fn a_worktree_file_stands_for_its_blob_only_when_it_hashes_to_it() {
    let content = "line\n".repeat(2000);
    let r = repo(&[("dir/a.txt", &content), ("b.txt", "x\n")]);
    let base = BaseTree::resolve(&r.repo, "HEAD").unwrap();
    let oid = base.entry(b"dir/a.txt").unwrap().unwrap().oid;
    let read = |base: &BaseTree<'_>| {
        let got = base.file_content(b"dir/a.txt", oid).unwrap();
        assert_eq!(got.bytes(), content.as_bytes());
        matches!(got, FileContent::Worktree(_))
    };
    assert!(read(&base), "the clean worktree file is read");
    let file = r.dir.path().join("dir/a.txt");
    std::fs::write(&file, content.replacen("line", "LINE", 1)).unwrap();
    assert!(!read(&base), "same size, other bytes");
    std::fs::write(&file, format!("{content}more\n")).unwrap();
    assert!(!read(&base), "another size");
    std::fs::remove_file(&file).unwrap();
    assert!(!read(&base), "missing");
    std::fs::write(r.dir.path().join("copy.txt"), &content).unwrap();
    std::os::unix::fs::symlink("../copy.txt", &file).unwrap();
    assert!(!read(&base), "a link to a file with the same bytes is not the file");
    std::fs::remove_file(&file).unwrap();
    std::fs::write(&file, &content).unwrap();
    assert!(read(&base));
    // `copy.txt` (outside `dir`) and `.git/copy.txt` hold the blob's bytes too: a path that
    // leaves its directory or enters `.git` is never read, whatever it would find.
    std::fs::write(r.dir.path().join(".git/copy.txt"), &content).unwrap();
    for unsafe_path in [&b"dir/../copy.txt"[..], b".git/copy.txt", b"/etc/passwd", b""] {
        let got = base.file_content(unsafe_path, oid).unwrap();
        assert!(matches!(got, FileContent::Blob(_)), "{}", String::from_utf8_lossy(unsafe_path));
    }
    assert!(matches!(base.file_content(b"copy.txt", oid).unwrap(), FileContent::Worktree(_)));
    assert!(matches!(base.file_content(b"dir//a.txt", oid).unwrap(), FileContent::Worktree(_)));
    let bare_dir = tempfile::tempdir().unwrap();
    let no_worktree = git2::Repository::init_bare(bare_dir.path()).unwrap();
    git(r.dir.path(), &["push", "-q", bare_dir.path().to_str().unwrap(), "main"]);
    let bare_base = BaseTree::resolve(&no_worktree, "main").unwrap();
    assert!(!read(&bare_base), "no worktree: the blob");
}

/// The verdict on a patch does not depend on what the worktree holds: the patch is checked
/// against the base blob whether the worktree file is clean, edited or gone.
#[test]
fn the_worktree_never_changes_the_check() {
    let content = (0..1000).fold(String::new(), |text, i| text + &format!("line {i}\n"));
    let r = repo(&[("a.txt", &content)]);
    let patch =
        || vec![modify("a.txt", vec![hunk((2, 3), (2, 3), " line 1\n-line 2\n+LINE 2\n line 3")])];
    let clean = run(&r, patch());
    assert!(clean.violations.is_empty(), "{:?}", clean.violations);
    let file = r.dir.path().join("a.txt");
    for worktree in [content.replace("line 2\n", "line X\n"), String::new(), "other\n".into()] {
        std::fs::write(&file, &worktree).unwrap();
        let out = run(&r, patch());
        assert_eq!(codes(&out), codes(&clean));
        assert_eq!(out.changes[0].content, clean.changes[0].content);
    }
    let stale =
        || vec![modify("a.txt", vec![hunk((2, 3), (2, 3), " line 1\n-line X\n+LINE 2\n line 3")])];
    std::fs::write(&file, content.replace("line 2\n", "line X\n")).unwrap();
    assert_eq!(codes(&run(&r, stale())), ["context_mismatch"], "the base, not the worktree");
}

/// Names that sort apart in git's tree order (a directory `a` sorts as `a/`) are each found,
/// with their own ids, and nothing is found where git has no entry.
#[test]
fn base_entries_are_found_by_exact_name_in_any_order() {
    let files = [("a-b", "1\n"), ("a.c", "2\n"), ("a/x", "3\n"), ("a0", "4\n"), ("ab/y", "5\n")];
    let r = repo(&files);
    let base = BaseTree::resolve(&r.repo, "HEAD").unwrap();
    for (path, content) in files {
        let entry = base.entry(path.as_bytes()).unwrap().expect(path);
        let blob = r.repo.find_blob(entry.oid).unwrap();
        assert_eq!(blob.content(), content.as_bytes(), "{path}");
    }
    for dir in ["a", "ab"] {
        assert!(base.entry(dir.as_bytes()).unwrap().expect(dir).is_tree(), "{dir}");
    }
    for missing in ["a/", "b", "a/x/y", "a-", "a.", "ab/y/z", "A", "a/y"] {
        assert_eq!(base.entry(missing.as_bytes()).unwrap(), None, "{missing}");
    }
}
