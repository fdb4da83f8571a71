use crate::contract::{ExecutorOptions, ExecutorOutcome, ExecutorStatus, check_executor_output};
use std::path::Path;

fn root() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/a.rs"), "").unwrap();
    dir
}

fn check(reply: &str, root: &Path) -> ExecutorOutcome {
    check_executor_output(reply.as_bytes(), root, ExecutorOptions::default())
}

fn codes(out: &ExecutorOutcome) -> Vec<&'static str> {
    out.violations.iter().map(|f| f.code.as_str()).collect()
}

const VALID: &str = "```json\n{\n  \"status\": \"completed\",\n  \"files_created\": [],\n  \"files_updated\": [\"src/a.rs\"],\n  \"changes\": [\"./src/a.rs\"],\n  \"neededChanges\": true,\n  \"summary\": \"Renamed foo to bar in src/a.rs.\"\n}\n```\n";

#[test]
fn valid_reply_is_normalised() {
    let dir = root();
    let out = check(VALID, dir.path());
    assert!(out.ok, "{:?}", out.violations);
    let reply = out.reply.unwrap();
    assert_eq!(reply.status, ExecutorStatus::Completed);
    assert_eq!(reply.changes, ["src/a.rs"]);
    assert!(out.warnings.is_empty());
}

#[test]
fn paths_are_filtered_with_reasons_not_fatal() {
    let dir = root();
    let reply = VALID.replace(
        "\"files_created\": []",
        "\"files_created\": [\"/etc/passwd\", \"~/x\", \"../y\", \"src/ghost.rs\", \"src/a.rs\", \"src//a.rs\"]",
    );
    let out = check(&reply, dir.path());
    assert!(out.ok);
    let got: Vec<&str> = out.filtered.files_created.iter().map(|f| f.code.as_str()).collect();
    assert_eq!(got, ["absolute_path", "home_dir", "path_traversal", "not_found", "duplicate"]);
    assert_eq!(out.filtered_count.files_created, 5);
    assert_eq!(out.reply.unwrap().files_created, ["src/a.rs"]);
    let strict = check_executor_output(
        reply.as_bytes(),
        dir.path(),
        ExecutorOptions { strict_paths: true, ..ExecutorOptions::default() },
    );
    assert_eq!(codes(&strict), ["filtered_path"; 5]);
}

#[test]
fn wrong_types_are_precise() {
    let dir = root();
    let reply = VALID
        .replace("\"neededChanges\": true", "\"neededChanges\": \"true\"")
        .replace("\"files_created\": []", "\"files_created\": null")
        .replace("\"changes\": [\"./src/a.rs\"]", "\"changes\": \"src/a.rs\"");
    let out = check(&reply, dir.path());
    assert_eq!(codes(&out), ["wrong_type", "wrong_type", "wrong_type"]);
    let pointers: Vec<&str> = out.violations.iter().filter_map(|f| f.pointer.as_deref()).collect();
    assert_eq!(pointers, ["/files_created", "/changes", "/neededChanges"]);
    assert_eq!(out.violations[2].line, Some(7));
    assert!(out.reply.is_none());
}

#[test]
fn failed_needs_a_summary() {
    let dir = root();
    let reply = VALID
        .replace("\"completed\"", "\"failed\"")
        .replace("Renamed foo to bar in src/a.rs.", " ");
    let out = check(&reply, dir.path());
    assert_eq!(codes(&out), ["empty_summary"]);
    assert!(out.violations[0].message.contains("why it failed"));
}

#[test]
fn keys_exactly() {
    let dir = root();
    let reply = VALID.replace("\"neededChanges\": true,", "\"needed_changes\": true,");
    let out = check(&reply, dir.path());
    assert_eq!(codes(&out), ["missing_key", "unknown_key"]);
    assert!(out.violations[1].message.ends_with("did you mean 'neededChanges'?"));
}

#[test]
fn surroundings() {
    let dir = root();
    let out = check(&format!("Here you go:\n{VALID}Thanks!\n"), dir.path());
    assert_eq!(codes(&out), ["preamble", "text_after_block"]);
    assert_eq!(out.violations[1].line, Some(12));
    let allowed = check_executor_output(
        format!("Here you go:\n\n{VALID}\n").as_bytes(),
        dir.path(),
        ExecutorOptions { allow_preamble: true, ..ExecutorOptions::default() },
    );
    assert!(allowed.ok);
    let two = check(&format!("{VALID}\n{VALID}"), dir.path());
    assert_eq!(codes(&two), ["multiple_json_blocks"]);
    let bare = check(VALID.trim_start_matches("```json\n").trim_end_matches("```\n"), dir.path());
    assert_eq!(codes(&bare), ["missing_fence"]);
    assert!(bare.reply.is_some(), "the object itself is still checked");
    assert_eq!(codes(&check("I could not do it.", dir.path())), ["no_json_block"]);
}

#[test]
fn valid_fixtures_fit_the_schema_type() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/contract");
    for case in ["seed000-valid-completed", "seed000-valid-failed"] {
        let text = std::fs::read_to_string(dir.join(case).join("reply.txt")).unwrap();
        let json = text.trim().trim_start_matches("```json").trim_end_matches("```");
        serde_json::from_str::<crate::contract::ExecutorOutput>(json)
            .unwrap_or_else(|e| panic!("{case}: {e}"));
    }
}
