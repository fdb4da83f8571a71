//! Fuzz commit messages as pre-receive reads them: the input is the message of a commit (kept
//! in memory, never written to disk) whose parent is the base and whose tree is the first
//! byte's pick of side commits' trees, pushed to a new ref of a real repository (see `common`).
//!
//! Invariants: any message is judged without panicking; the declared patterns reported are
//! exactly the message's `Patchgate-Declared` trailers; a trailer that is not a safe pattern
//! refuses the commit; a change below the excluded `secret/` is refused whatever the message
//! declares; `trailer_lines` of safe patterns read back as the same patterns.
#![no_main]

#[path = "common/mod.rs"]
mod common;

use common::{Fixture, SIDE};
use git2::{Oid, Repository, Signature, Time};
use libfuzzer_sys::fuzz_target;
use patchgate::declare::{Declaration, check_pattern, from_message, trailer_lines};
use patchgate::hook::receive::{RefUpdate, check_push};
use patchgate::hook::server::server_policy;

struct Memory {
    fixture: Fixture,
    repo: &'static Repository,
    /// Objects written here stay in memory; reset after every input.
    pack: git2::Mempack<'static>,
}

/// The repository and object database live for the whole process (the in-memory pack borrows
/// them); their addresses are kept here, so the leak checker sees them reachable at exit.
static KEPT: std::sync::Mutex<Vec<usize>> = std::sync::Mutex::new(Vec::new());

thread_local! {
    static MEMORY: Memory = {
        let fixture = Fixture::build();
        let repo: &'static Repository = Box::leak(Box::new(fixture.open()));
        let odb: &'static git2::Odb<'static> = Box::leak(Box::new(repo.odb().expect("odb")));
        let mut kept = KEPT.lock().expect("not poisoned");
        kept.extend([std::ptr::from_ref(repo).addr(), std::ptr::from_ref(odb).addr()]);
        let pack = odb.add_new_mempack_backend(1000).expect("mempack");
        Memory { fixture, repo, pack }
    };
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, message)) = data.split_first() else { return };
    MEMORY.with(|m| {
        run(m, usize::from(pick) % SIDE.len(), message);
        m.pack.reset().expect("reset the in-memory objects");
    });
});

fn run(m: &Memory, pick: usize, message: &[u8]) {
    let repo = m.repo;
    let side = repo.find_commit(m.fixture.side[pick]).expect("side commit");
    let base = repo.find_commit(m.fixture.base).expect("base");
    let me = Signature::new("fuzz", "fuzz@example.org", &Time::new(1_700_000_000, 0))
        .expect("signature");
    let Ok(text) = std::str::from_utf8(message) else { return };
    let Ok(oid) = repo.commit(None, &me, &me, text, &side.tree().expect("tree"), &[&base]) else {
        return;
    };
    let policy = server_policy(repo).expect("the base's policy reads").policy;
    let update = RefUpdate { old: None, new: Some(oid), name: "refs/heads/fuzz".into() };
    let checks = check_push(repo, &[update], &policy);
    let Ok(checks) = checks else { return };
    let check = checks.iter().find(|c| c.commit == oid.to_string()).expect("the commit is judged");
    let declared = from_message(&String::from_utf8_lossy(
        repo.find_commit(oid).expect("commit").message_bytes(),
    ));
    assert_eq!(check.declared, declared);
    if !check.bad_trailers.is_empty() || touches_secret(repo, &base, oid) {
        assert!(!check.is_allowed(), "{check:?}");
    }
    round_trip(declared.unwrap_or_default());
}

fn touches_secret(repo: &Repository, base: &git2::Commit<'_>, oid: Oid) -> bool {
    let tree = repo.find_commit(oid).and_then(|c| c.tree()).expect("tree");
    let diff = repo
        .diff_tree_to_tree(Some(&base.tree().expect("tree")), Some(&tree), None)
        .expect("diff");
    diff.deltas().any(|d| {
        [d.old_file().path_bytes(), d.new_file().path_bytes()]
            .into_iter()
            .flatten()
            .any(|p| p.starts_with(b"secret/"))
    })
}

/// Safe patterns written as trailers read back unchanged.
fn round_trip(values: Vec<String>) {
    let safe: Vec<String> = values.iter().filter_map(|v| check_pattern(v).ok()).collect();
    if safe.is_empty() {
        return;
    }
    let mut declaration = Declaration::default();
    declaration.add(&safe, "trailer");
    let message = format!("Subject\n\n{}\n", trailer_lines(&declaration).join("\n"));
    let read: Vec<String> = from_message(&message).expect("trailers").into_iter().collect();
    let mut expected = safe.clone();
    expected.dedup();
    let unique: Vec<&String> =
        expected.iter().enumerate().filter(|(i, p)| !expected[..*i].contains(p)).map(|(_, p)| p).collect();
    assert_eq!(read.iter().collect::<Vec<_>>(), unique, "trailers did not read back");
}
