//! Fuzz pre-receive's stdin against a real repository (built once per process, see `common`):
//! `@N` in the input names side commit `N`, `@b` the base, so lines reach real objects.
//!
//! Invariants: any input is read or refused without panicking; a line that reads names the
//! same ids and ref as written; every commit the policy must refuse (a change below the
//! excluded `secret/`, a change without a declaration) is refused whenever the push brings it;
//! each pushed commit is judged once.
#![no_main]

#[path = "common/mod.rs"]
mod common;

use common::{Fixture, SIDE, expand_ids};
use libfuzzer_sys::fuzz_target;
use patchgate::hook::receive::{check_push, parse_updates};
use patchgate::hook::server::server_policy;
use std::collections::HashSet;

thread_local! {
    static FIXTURE: Fixture = Fixture::build();
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    FIXTURE.with(|fx| run(fx, &expand_ids(text, fx)));
});

fn run(fx: &Fixture, stdin: &str) {
    let Ok(updates) = parse_updates(stdin) else { return };
    let lines: Vec<&str> = stdin.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(updates.len(), lines.len());
    for (update, line) in updates.iter().zip(&lines) {
        let id = |oid: Option<git2::Oid>| oid.map_or_else(|| "0".repeat(40), |o| o.to_string());
        let fields: Vec<&str> = line.splitn(3, ' ').collect();
        assert_eq!(fields[2], update.name);
        assert!(fields[0].eq_ignore_ascii_case(&id(update.old)) || update.old.is_none());
        assert!(fields[1].eq_ignore_ascii_case(&id(update.new)) || update.new.is_none());
    }
    let repo = fx.open();
    let policy = server_policy(&repo).expect("the base's policy reads").policy;
    let Ok(checks) = check_push(&repo, &updates, &policy) else { return };
    let mut seen = HashSet::new();
    for check in &checks {
        assert!(seen.insert(check.commit.clone()), "{} judged twice", check.commit);
        let side = fx.side.iter().position(|s| s.to_string() == check.commit);
        if let Some(i) = side.filter(|&i| SIDE[i].must_refuse) {
            assert!(!check.is_allowed(), "side commit {i} passed: {check:?}");
        }
    }
}
