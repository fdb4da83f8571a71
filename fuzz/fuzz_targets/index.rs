//! Fuzz the pre-commit hook's own index reader, differentially against libgit2: the input is an
//! index file without its trailing checksum (the target appends the right SHA-1, so mutations
//! reach the entries instead of failing the checksum), written as the index of a real
//! repository (see `common`).
//!
//! Invariants: any index is read or refused without panicking or aborting; whenever libgit2
//! reads the index, the hook's changes (its fast reader, or libgit2 where the fast reader steps
//! aside) touch exactly the paths libgit2's own diff touches.
#![no_main]

#[path = "common/mod.rs"]
mod common;

use common::Fixture;
use libfuzzer_sys::fuzz_target;
use patchgate::hook::staged::{staged_changes, staged_changes_exact};
use std::collections::BTreeSet;

thread_local! {
    static FIXTURE: Fixture = Fixture::build();
}

fuzz_target!(|data: &[u8]| {
    FIXTURE.with(|fx| run(fx, data));
});

fn run(fx: &Fixture, body: &[u8]) {
    let mut index = body.to_vec();
    index.extend_from_slice(&sha1_smol::Sha1::from(body).digest().bytes());
    let path = fx.root.join(".git/index");
    std::fs::write(&path, &index).expect("write the index");
    // A new handle each time: libgit2 caches an index it has read by size and time.
    let repo = fx.open();
    let fast = staged_changes(&repo, false);
    let exact = staged_changes_exact(&repo);
    if let (Ok(fast), Ok(exact)) = (&fast, &exact) {
        let touched = |changes: &[patchgate::hook::Change]| -> BTreeSet<Vec<u8>> {
            changes.iter().flat_map(|c| c.touched()).map(<[u8]>::to_vec).collect()
        };
        let fast = touched(&fast.changes);
        if fast != touched(exact) {
            // A cache tree that contradicts the entries (found by this target: a blob id
            // changed below a subtree the cache tree still calls HEAD's, and a root naming
            // another tree). git's write-tree trusts a valid cache-tree entry whose object
            // exists, so what `git commit` records is what the cache tree says, and the fast
            // reader judges that; libgit2's diff reads the entries. Then the hook must agree
            // with what git would commit. (No tree can be written from an index naming an
            // object that does not exist: git cannot commit it either.)
            if let Some(committed) = committed(&repo) {
                assert_eq!(fast, committed, "the readers disagree with what git would commit");
            }
        }
    }
}

/// The paths that a commit of this index would change against `HEAD`: the tree libgit2 writes
/// from it (reusing valid cache-tree ids, as git does), diffed with `HEAD`'s.
fn committed(repo: &git2::Repository) -> Option<BTreeSet<Vec<u8>>> {
    let tree = repo.find_tree(repo.index().ok()?.write_tree().ok()?).ok()?;
    let head = repo.head().ok()?.peel_to_tree().ok()?;
    let diff = repo.diff_tree_to_tree(Some(&head), Some(&tree), None).ok()?;
    let paths = diff.deltas().flat_map(|d| [d.old_file().path_bytes(), d.new_file().path_bytes()]);
    Some(paths.flatten().map(<[u8]>::to_vec).collect())
}
