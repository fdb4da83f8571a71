//! Fuzz the declaration file (`<git-dir>/patchgate/declaration.json`) as the pre-commit hook
//! reads it: decoded, held to the default `[limits]`, compiled, and matched against a fixed set
//! of staged changes.
//!
//! Invariants: any bytes are read or refused without panicking; a declaration that reads
//! writes back to JSON that reads as the same declaration; an excluded path is never allowed,
//! declared or not; a change whose path is declared literally (and not excluded) is allowed.
#![no_main]

use libfuzzer_sys::fuzz_target;
use patchgate::config::Config;
use patchgate::declare::Declaration;
use patchgate::hook::{Change, ChangeStatus, Policy, evaluate};
use std::path::Path;

const STAGED: &[&str] = &["src/a.rs", "src/b/c.rs", "docs/x.md", "secret/key.txt", "a b/ü.txt"];

fuzz_target!(|data: &[u8]| {
    let Ok(declaration) = Declaration::from_json(data) else { return };
    let text = serde_json::to_vec(&declaration).expect("a declaration serializes");
    assert_eq!(Declaration::from_json(&text).as_ref(), Ok(&declaration), "round trip");
    let config = Config::from_toml("excluded = [\"secret/**\"]\n", Path::new("policy"))
        .expect("policy");
    let policy = Policy::from_config(&config, Some("policy".into())).expect("policy");
    let Ok(set) = declaration.path_set(&policy.limits) else { return };
    let changes: Vec<Change> = STAGED
        .iter()
        .map(|p| Change {
            status: ChangeStatus::Modified,
            old_path: Some(p.as_bytes().to_vec()),
            new_path: Some(p.as_bytes().to_vec()),
            old_mode: 0o100_644,
            new_mode: 0o100_644,
        })
        .collect();
    let violations = evaluate(&changes, Some(&set), &policy);
    let blocked = |p: &str| violations.iter().any(|v| v.path.as_bytes() == p.as_bytes());
    assert!(blocked("secret/key.txt"), "an excluded path passed");
    for path in STAGED.iter().filter(|p| !p.starts_with("secret/")) {
        if declaration.patterns().contains(path) {
            assert!(!blocked(path), "{path} is declared but blocked: {violations:?}");
        }
    }
});
