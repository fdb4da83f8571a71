//! Fuzz `validate` and `apply` against a real repository (built once per process, see
//! `common`): the input's first byte picks options, the rest is the patch of a well-formed
//! result whose `filesWritten` lists what the patch names.
//!
//! Invariants: `validate` never changes the repository (worktree, index, refs); a verdict's
//! validity agrees with its violations; an accepted patch never names an excluded or protected
//! path; `apply` is all or nothing: on success every changed path holds exactly the checked
//! content and mode and nothing else changed, on failure nothing changed; no temporary file or
//! journal is left; nothing outside the repository is ever written, also when the worktree holds
//! links planted to lead outside.
#![no_main]

#[path = "common/mod.rs"]
mod common;

use common::{Entry, Files, Fixture};
use libfuzzer_sys::fuzz_target;
use patchgate::config::Config;
use patchgate::patch::{ParseOptions, parse};
use patchgate::scratch::{self, Content, FileChange};
use patchgate::validate::{self, Context, Options, Outcome};
use std::os::unix::fs::symlink;
use std::path::Path;

thread_local! {
    static FIXTURE: Fixture = Fixture::build();
}

const WITH_INDEX: u8 = 1;
const ALLOW_SYMLINKS: u8 = 2;
/// An untracked `evil -> <outside>` in the worktree.
const PLANT_LINK: u8 = 4;
/// The tracked directory `dir/sub` replaced (uncommitted) by a link to `<outside>/sub`.
const PLANT_DIR_LINK: u8 = 8;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, patch)) = data.split_first() else { return };
    let patch = String::from_utf8_lossy(patch);
    FIXTURE.with(|fx| run(fx, flags, &patch));
});

fn run(fx: &Fixture, flags: u8, patch: &str) {
    let repo = fx.open();
    let policy = if flags & ALLOW_SYMLINKS != 0 {
        "excluded = [\"secret/**\"]\n[rules]\nallow_symlinks = true\n"
    } else {
        "excluded = [\"secret/**\"]\n"
    };
    let config = Config::from_toml(policy, Path::new(".patchgate.toml")).expect("policy");
    let step = validate::read_step(
        br#"{"description": "Update the files as the patch says", "allowedFiles": ["**"]}"#,
    )
    .expect("the step is valid");
    let result = result_for(patch);
    let before = fx.worktree();
    let index_before = std::fs::read(fx.root.join(".git/index")).expect("index");
    let ctx = Context { step: &step, result: result.as_bytes(), config: &config, repo: Some(&repo) };
    let outcome = validate::validate(&ctx, &Options::default()).expect("validate answers");
    assert_eq!(fx.worktree(), before, "validate changed the worktree");
    assert_eq!(std::fs::read(fx.root.join(".git/index")).expect("index"), index_before);
    let report = &outcome.report;
    assert_eq!(report.verdict.valid, report.violations.is_empty());
    if !report.verdict.valid {
        return;
    }
    let parsed = parse(patch.as_bytes(), &ParseOptions::default());
    for file in &parsed.patch.files {
        for path in file.paths() {
            assert!(!path.starts_with(b"secret/"), "accepted a change to an excluded path");
            assert!(path != b".patchgate.toml", "accepted a change to the policy");
        }
    }
    land(fx, &repo, &outcome, flags);
    fx.reset(&repo);
}

/// Apply through the real write path, with links planted first when `flags` say so.
fn land(fx: &Fixture, repo: &git2::Repository, outcome: &Outcome<'_>, flags: u8) {
    if flags & PLANT_LINK != 0 {
        symlink(&fx.outside, fx.root.join("evil")).expect("plant a link");
    }
    if flags & PLANT_DIR_LINK != 0 {
        std::fs::remove_dir_all(fx.root.join("dir/sub")).expect("remove dir/sub");
        symlink(fx.outside.join("sub"), fx.root.join("dir/sub")).expect("plant a link");
    }
    let before = fx.worktree();
    let landed = outcome.land(&fx.root, flags & WITH_INDEX != 0);
    fx.assert_outside_untouched();
    assert!(scratch::pending_apply(repo.path()).is_none(), "a journal was left");
    let after = fx.worktree();
    match landed {
        Ok(changes) => check_written(repo, &before, &after, changes),
        Err(_) => assert_eq!(after, before, "a refused apply changed the worktree"),
    }
}

/// `after` is `before` with exactly `changes` made: every file and link compared; a directory
/// may appear only above a written path (directories a deletion empties are removed, as git
/// does, so one may disappear).
fn check_written(repo: &git2::Repository, before: &Files, after: &Files, changes: &[FileChange]) {
    let mut expected = before.clone();
    for change in changes {
        let path = Path::new(&change.path);
        expected.retain(|p, _| !p.starts_with(path));
        let (Some(mode), Some(content)) = (change.mode, &change.content) else { continue };
        let bytes = match content {
            Content::Bytes(bytes) => bytes.clone(),
            Content::Blob(oid) => repo.find_blob(*oid).expect("blob").content().to_vec(),
            Content::Unkept => panic!("{}: landed although its content was not kept", change.path),
        };
        let entry = if mode == 0o120_000 {
            Entry::Link(String::from_utf8(bytes).expect("a link target is UTF-8").into())
        } else {
            Entry::File { executable: mode == 0o100_755, bytes }
        };
        expected.insert(path.to_owned(), entry);
    }
    let leaves = |files: &Files| {
        let mut leaves = files.clone();
        leaves.retain(|_, e| *e != Entry::Dir);
        leaves
    };
    assert_eq!(leaves(after), leaves(&expected), "the worktree is not the base plus the changes");
    for (dir, _) in after.iter().filter(|(p, e)| **e == Entry::Dir && !before.contains_key(*p)) {
        let is_above_a_change = changes.iter().any(|c| Path::new(&c.path).starts_with(dir));
        assert!(is_above_a_change, "a stray directory {dir:?} was made");
    }
}

/// A well-formed result carrying `patch`; `filesWritten` lists the paths the patch names.
fn result_for(patch: &str) -> String {
    let options = ParseOptions { is_strict: false, ..ParseOptions::default() };
    let parsed = parse(patch.as_bytes(), &options);
    let mut files: Vec<String> = Vec::new();
    for file in &parsed.patch.files {
        for path in file.paths() {
            let path = String::from_utf8_lossy(path).into_owned();
            if !files.contains(&path) {
                files.push(path);
            }
        }
    }
    serde_json::json!({
        "mode": "apply", "success": true, "patch": patch, "filesWritten": files,
        "filesTouched": files, "summary": "Update the files as the patch says",
    })
    .to_string()
}
