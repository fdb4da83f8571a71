use super::session::{Event, SessionState, Store};
use super::suggest::{Index, suggest};
use super::{DenyCode, Options, Protocol, Role, ToolKind, parse_call, run};
use serde_json::json;
use std::path::Path;
use std::time::Duration;

const SEED_PATH: &str = "backend/tests/coverage_improvement/manual/services/test_cache_simple.py";

fn index_of(files: &[&str]) -> Index {
    Index::new(files.iter().copied())
}

#[test]
fn fuzzy_search_finds_test_cache_simple_py() {
    let files = [
        "backend/app/services/cache.py",
        "backend/app/services/test_cache.py",
        "frontend/tests/test_cache_simple.py",
        "backend/tests/test_cache_simple.py",
        "backend/tests/test_cache_simpler.py",
        "backend/tests/coverage_improvement/test_api.py",
    ];
    let found = suggest(&index_of(&files), SEED_PATH, 5);
    assert_eq!(found[0], "backend/tests/test_cache_simple.py");
    assert_eq!(found[1], "frontend/tests/test_cache_simple.py");
    assert_eq!(found[2], "backend/tests/test_cache_simpler.py");
    assert!(!found.contains(&"backend/tests/coverage_improvement/test_api.py".to_owned()));
}

#[test]
fn the_index_buckets_names_by_length() {
    // Names sharing their first 15 bytes, names of 255 bytes and more, a name in several
    // directories and a repeated path.
    let long = |n: usize| format!("{}.rs", "x".repeat(n - 3));
    let (l300, l260, l255) = (long(300), long(260), long(255));
    let files = [
        format!("a/{l300}"),
        format!("b/{l260}"),
        format!("c/{l255}"),
        "d/configuration_loader.rs".to_owned(),
        "e/configuration_loaded.rs".to_owned(),
        "f/configuration_loader.rs".to_owned(),
        "f/configuration_loader.rs".to_owned(),
        "mod.rs".to_owned(),
    ];
    let index = Index::new(files.iter().map(String::as_str));
    assert_eq!(index.len(), 7, "one line per path, a repeat counted once");
    assert_eq!(suggest(&index, &format!("z/{l300}"), 5), [format!("a/{l300}")]);
    assert_eq!(suggest(&index, &format!("z/{l260}"), 1), [format!("b/{l260}")]);
    assert_eq!(suggest(&index, &format!("c/{l255}"), 1), [format!("c/{l255}")]);
    let found = suggest(&index, "g/configuration_loader.rs", 5);
    assert_eq!(found[..2], ["d/configuration_loader.rs", "f/configuration_loader.rs"]);
    assert!(found.contains(&"e/configuration_loaded.rs".to_owned()));
    assert_eq!(suggest(&index, "src/mod.rs", 1), ["mod.rs"]);
}

#[test]
fn suggestions_survive_typos_extensions_and_prefixes() {
    let files = ["src/utils/db.ts", "src/utils/selector.rs", "lib/other.py", "pkg/app/src/main.rs"];
    let index = index_of(&files);
    // Wrong directory.
    assert_eq!(suggest(&index, "src/utlis/db.ts", 3)[0], "src/utils/db.ts");
    // One-character basename typo.
    assert_eq!(suggest(&index, "src/utils/selectr.rs", 3)[0], "src/utils/selector.rs");
    // Wrong extension.
    assert_eq!(suggest(&index, "src/utils/db.js", 3)[0], "src/utils/db.ts");
    // Dropped and added prefixes.
    assert_eq!(suggest(&index, "src/main.rs", 3)[0], "pkg/app/src/main.rs");
    assert_eq!(suggest(&index, "repo/lib/other.py", 3)[0], "lib/other.py");
    // Nothing alike: nothing suggested.
    assert!(suggest(&index, "docs/architecture.md", 3).is_empty());
}

#[test]
fn directory_suggestions_and_cut_short_names() {
    let dirs = ["src", "src/components", "src/compose"];
    assert_eq!(suggest(&index_of(&dirs), "src/compnents", 3), ["src/components"]);
    assert_eq!(suggest(&index_of(&["backend", "backend/app"]), "backend/ap", 3), ["backend/app"]);
}

#[test]
fn strategy_shift_injected_after_two_consecutive_hallucinations() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path();
    std::fs::create_dir_all(repo.join("backend/tests")).unwrap();
    std::fs::write(repo.join("backend/tests/test_cache_simple.py"), "").unwrap();
    let options = Options {
        protocol: Some(Protocol::Generic),
        repo: Some(repo.to_owned()),
        state_dir: Some(repo.join("state")),
    };
    let call = |path: &str| {
        let payload = json!({"session_id": "s", "cwd": repo, "tool_name": "replace",
            "tool_input": {"file_path": path, "old_string": "a", "new_string": "b"}});
        run(payload.to_string().as_bytes(), &options)
    };
    let first = call(SEED_PATH);
    assert_eq!(first.denial.as_ref().unwrap().code, DenyCode::PathNotFound);
    assert!(!first.strategy_shift);
    assert_eq!(first.instruction, None);
    let second = call("backend/tests/coverage_improvement/services/test_cache_simple.py");
    assert!(second.strategy_shift);
    assert_eq!(second.hallucination_count, 2);
    let instruction = second.instruction.unwrap();
    assert!(instruction.starts_with("STRATEGY SHIFT"), "{instruction}");
    // Once per streak: later misses of the same streak get a one-line reminder with the count.
    let third = call("backend/services/test_cache_simple.py");
    assert_eq!((third.strategy_shift, third.hallucination_count), (false, 3));
    let reminder = third.instruction.unwrap();
    assert!(reminder.starts_with("Reminder: 3 paths in a row"), "{reminder}");
    assert!(!reminder.contains("STRATEGY SHIFT"));
    // A real path ends the streak.
    assert!(call("backend/tests/test_cache_simple.py").is_allowed());
    assert!(!call(SEED_PATH).strategy_shift);
}

#[test]
fn counter_rules_follow_seed_001() {
    let ttl = Duration::from_hours(1);
    let miss = |p: &str| Event::Hallucination(p.to_owned());
    let s1 = SessionState::default().next(&miss("/r/a/x.py"), 100, ttl);
    assert_eq!(s1.count, 1);
    assert_eq!(s1.next(&miss("/r/b/x.py"), 101, ttl).count, 2, "same basename is similar");
    assert_eq!(s1.next(&miss("/r/q/unrelated.md"), 101, ttl).count, 1, "a new streak");
    assert_eq!(s1.next(&Event::Neutral, 101, ttl).count, 1);
    assert_eq!(s1.next(&Event::Reset, 101, ttl).count, 0);
    assert_eq!(s1.next(&miss("/r/a/x.py"), 100 + 7200, ttl).count, 1, "stale sessions restart");
}

#[test]
fn store_keeps_sessions_apart_and_expires_stale_files() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::new(dir.path().to_owned(), Duration::from_hours(1));
    let miss = Event::Hallucination("/r/x".into());
    assert_eq!(store.record("a", &miss).unwrap().count, 1);
    assert_eq!(store.record("a", &miss).unwrap().count, 2);
    assert_eq!(store.record("b", &miss).unwrap().count, 1);
    let stale = dir.path().join("old.json");
    std::fs::write(&stale, "{}").unwrap();
    let old = std::time::SystemTime::now() - Duration::from_hours(2);
    std::fs::File::options().write(true).open(&stale).unwrap().set_modified(old).unwrap();
    store.record("c", &miss).unwrap();
    assert!(!stale.exists());
}

#[test]
fn protocols_are_detected_from_their_payloads() {
    let detect = |v: serde_json::Value| Protocol::detect(&v);
    assert_eq!(
        detect(json!({"hook_event_name": "PreToolUse", "tool_name": "Read"})),
        Some(Protocol::ClaudeCode)
    );
    assert_eq!(
        detect(json!({"hook_event_name": "BeforeTool", "tool_name": "read_file"})),
        Some(Protocol::GeminiCli)
    );
    assert_eq!(
        detect(json!({"hook_event_name": "PreToolUse", "turn_id": "t", "tool_name": "Bash"})),
        Some(Protocol::Codex)
    );
    assert_eq!(
        detect(json!({"hook_event_name": "beforeReadFile", "conversation_id": "c"})),
        Some(Protocol::Cursor)
    );
    assert_eq!(
        detect(json!({"taskId": "t", "preToolUse": {"toolName": "read_file"}})),
        Some(Protocol::Cline)
    );
    // patchgate's own format carries nothing an agent sends: it must be named.
    assert_eq!(detect(json!({"tool_name": "read_file"})), None);
}

#[test]
fn every_protocol_normalises_to_one_tool_call() {
    let cwd = Path::new("/w");
    let parse = |v: serde_json::Value| parse_call(v.to_string().as_bytes(), None, cwd).unwrap();
    let gemini = parse(json!({"hook_event_name": "BeforeTool", "session_id": "g", "cwd": "/r",
        "tool_name": "read_file", "tool_input": {"absolute_path": "/r/a.txt"}}));
    assert_eq!((gemini.kind, gemini.paths[0].raw.as_str()), (ToolKind::Read, "/r/a.txt"));
    assert_eq!(gemini.session.as_deref(), Some("g"));
    let claude =
        parse(json!({"hook_event_name": "PreToolUse", "session_id": "s", "agent_id": "sub",
        "cwd": "/r", "tool_name": "NotebookEdit", "tool_input": {"notebook_path": "/r/n.ipynb"}}));
    assert_eq!((claude.kind, claude.session.as_deref()), (ToolKind::Write, Some("s/sub")));
    let cursor = parse(json!({"hook_event_name": "beforeShellExecution", "conversation_id": "c",
        "workspace_roots": ["/r"], "command": "cat a", "cwd": "/r/sub"}));
    assert_eq!(
        (cursor.command.as_deref(), cursor.command_dir.as_path()),
        (Some("cat a"), Path::new("/r/sub"))
    );
    let cline = parse(json!({"taskId": "t", "workspaceRoots": ["/r"],
        "preToolUse": {"toolName": "write_to_file", "parameters": {"path": "n.txt"}}}));
    assert_eq!((cline.cwd.as_path(), cline.paths[0].role), (Path::new("/r"), Role::Create));
    let codex = parse(json!({"hook_event_name": "PreToolUse", "turn_id": "1", "cwd": "/r",
        "tool_name": "Bash", "tool_input": {"command": ["bash", "-lc", "cat x"]}}));
    assert_eq!(codex.command.as_deref(), Some("cat x"));
    let edit_creates = parse(json!({"hook_event_name": "PreToolUse", "tool_name": "Edit",
        "tool_input": {"file_path": "/r/new.rs", "old_string": "", "new_string": "x"}}));
    assert_eq!(edit_creates.paths[0].role, Role::Create);
}

#[test]
fn apply_patch_envelopes_name_their_files() {
    let envelope = "*** Begin Patch\n*** Add File: new.rs\n+x\n*** Update File: src/a.rs\n\
                    *** Move to: src/b.rs\n@@\n-a\n+b\n*** Delete File: old.rs\n*** End Patch\n";
    let paths = super::envelope::paths(envelope, Path::new("/r"));
    let found: Vec<(&str, Role)> = paths.iter().map(|p| (p.raw.as_str(), p.role)).collect();
    assert_eq!(
        found,
        [
            ("new.rs", Role::Create),
            ("src/a.rs", Role::Modify),
            ("src/b.rs", Role::Create),
            ("old.rs", Role::Modify),
        ]
    );
}

#[test]
fn seed_003_patterns_are_rejected_in_path_arguments() {
    let policy = crate::contract::ArgPolicy::default();
    let pattern = |raw: &str| super::check::reject_pattern(&policy, raw).map(|r| r.pattern);
    assert_eq!(
        pattern("../etc/passwd").map(crate::contract::RejectedPattern::as_str),
        Some("path_traversal")
    );
    assert_eq!(
        pattern("src/%2e%2e/x").map(crate::contract::RejectedPattern::as_str),
        Some("path_traversal")
    );
    assert_eq!(
        pattern("src/a%20b.rs").map(crate::contract::RejectedPattern::as_str),
        Some("percent_encoded_segment")
    );
    assert_eq!(
        pattern("src%2fa.rs").map(crate::contract::RejectedPattern::as_str),
        Some("percent_encoded_separator")
    );
    assert_eq!(
        pattern("~/notes.md").map(crate::contract::RejectedPattern::as_str),
        Some("home_dir")
    );
    assert_eq!(
        pattern("/repo/.git/config").map(crate::contract::RejectedPattern::as_str),
        Some("git_dir")
    );
    assert_eq!(pattern("a\u{0}b").map(crate::contract::RejectedPattern::as_str), Some("nul_byte"));
    // A valid path passes unchanged, absolute or not.
    assert_eq!(pattern("/home/user/file.txt"), None);
    assert_eq!(pattern("src/a.rs"), None);
}

#[test]
fn a_cached_index_of_nothing_is_read_back() {
    // A tree without untracked files caches an empty index, whose header ends in an empty
    // length table: a miss must take it from the cache, not rebuild it from the snapshot.
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("files.cache");
    super::cache::write_cache(&cache, "tree g1", &index_of(&[])).unwrap();
    assert!(super::cache::read_cache(&cache, Some("tree g1")).is_some());
    assert!(super::cache::read_cache(&cache, Some("tree g0")).is_none());
    super::cache::write_cache(&cache, "tree g2", &index_of(&["a/b.rs"])).unwrap();
    let index = super::cache::read_cache(&cache, Some("tree g2")).unwrap();
    assert_eq!(suggest(&index, "x/b.rs", 3), ["a/b.rs"]);
}

/// Wait until nothing holds the snapshot's lock at `dir`. No guard updates the snapshot beside
/// these tests, but a process another test of this binary spawns holds a copy of the lock's
/// descriptor between its fork and its exec, and a lock is released only when its last
/// descriptor closes: a miss that found it held would rightly answer from the old snapshot
/// ([`super::tree::index`]), which is not what these tests are about (the likely cause of one
/// failure of `the_tree_snapshot_follows_changes_once_marked_stale` in CI).
fn wait_for_the_lock(dir: &Path) {
    if let Ok(lock) = std::fs::File::open(dir.join("lock")) {
        let _ = lock.lock();
    }
}

/// A walk of the whole tree at `root` at once (no budget).
fn whole_walk<'a>(
    root: &'a Path,
    tracked: Option<&'a super::files::TrackedFiles<'a>>,
    extra_rules: Vec<std::path::PathBuf>,
) -> super::tree::Walk<'a> {
    super::tree::Walk { root, tracked, extra_rules, budget: None, near: "" }
}

/// The tree's files matching `name` (any directory), from the snapshot under `state`.
fn tree_has(root: &Path, state: &Path, name: &str) -> Vec<String> {
    let walk = whole_walk(root, None, Vec::new());
    let dir = super::tree::location(state, root);
    wait_for_the_lock(&dir);
    let on_disk = super::tree::index(&dir, &walk, super::files::Kind::Files).unwrap();
    let indexes: Vec<&super::suggest::Index> = on_disk.indexes.iter().collect();
    super::suggest::suggest_all(&indexes, &format!("nowhere/{name}"), 10)
        .into_iter()
        .filter(|p| p.ends_with(&format!("/{name}")) || p == name)
        .collect()
}

#[test]
fn the_tree_snapshot_follows_changes_once_marked_stale() {
    let dir = tempfile::tempdir().unwrap();
    let (root, state) = (dir.path().join("w"), dir.path().join("state"));
    std::fs::create_dir_all(root.join("src/deep")).unwrap();
    std::fs::write(root.join("src/deep/old.py"), "").unwrap();
    assert_eq!(tree_has(&root, &state, "old.py"), ["src/deep/old.py"]);
    // A file created while the snapshot is fresh and nothing marked it: not seen yet.
    std::fs::write(root.join("src/new.py"), "").unwrap();
    assert!(tree_has(&root, &state, "new.py").is_empty());
    // A call that writes ran: its directory is read again (and only it).
    super::tree::mark_stale(&super::tree::location(&state, &root));
    assert_eq!(tree_has(&root, &state, "new.py"), ["src/new.py"]);
    assert_eq!(tree_has(&root, &state, "old.py"), ["src/deep/old.py"]);
    // A new directory is walked, a removed one forgotten.
    std::fs::create_dir_all(root.join("lib/pkg")).unwrap();
    std::fs::write(root.join("lib/pkg/util.py"), "").unwrap();
    std::fs::remove_dir_all(root.join("src/deep")).unwrap();
    super::tree::mark_stale(&super::tree::location(&state, &root));
    assert_eq!(tree_has(&root, &state, "util.py"), ["lib/pkg/util.py"]);
    assert!(tree_has(&root, &state, "old.py").is_empty());
    // A changed ignore file: walked again, the ignored directory is gone.
    std::fs::write(root.join(".gitignore"), "lib/\n").unwrap();
    super::tree::mark_stale(&super::tree::location(&state, &root));
    assert!(tree_has(&root, &state, "util.py").is_empty());
    std::fs::write(root.join(".gitignore"), "other/\n").unwrap();
    super::tree::mark_stale(&super::tree::location(&state, &root));
    assert_eq!(tree_has(&root, &state, "util.py"), ["lib/pkg/util.py"]);
}

#[test]
fn a_write_noted_by_path_checks_only_the_directories_holding_it() {
    let dir = tempfile::tempdir().unwrap();
    let (root, state) = (dir.path().join("w"), dir.path().join("state"));
    std::fs::create_dir_all(root.join("src/deep")).unwrap();
    std::fs::create_dir_all(root.join("lib")).unwrap();
    std::fs::write(root.join("src/deep/old.py"), "").unwrap();
    assert_eq!(tree_has(&root, &state, "old.py"), ["src/deep/old.py"]);
    let snapshot = super::tree::location(&state, &root);
    // Settled times (not racy), as long after the walk.
    let an_hour_ago = std::time::SystemTime::now() - std::time::Duration::from_hours(1);
    for d in ["", "src", "src/deep", "lib"] {
        std::fs::File::open(root.join(d)).unwrap().set_modified(an_hour_ago).unwrap();
    }
    super::tree::mark_stale(&snapshot);
    assert_eq!(tree_has(&root, &state, "old.py"), ["src/deep/old.py"]);
    // A file tool wrote src/deep/new.py; a command the guard did not see wrote lib/other.py.
    std::fs::write(root.join("src/deep/new.py"), "").unwrap();
    std::fs::write(root.join("lib/other.py"), "").unwrap();
    super::tree::note_written(&snapshot, &["src/deep/new.py".to_owned()]);
    assert_eq!(tree_has(&root, &state, "new.py"), ["src/deep/new.py"]);
    // Only the directory holding the written file was read again.
    assert!(tree_has(&root, &state, "other.py").is_empty());
    // A write into a directory the snapshot does not know: the closest one it knows is read,
    // and the new directory below it walked.
    std::fs::create_dir_all(root.join("src/made/here")).unwrap();
    std::fs::write(root.join("src/made/here/mine.py"), "").unwrap();
    super::tree::note_written(&snapshot, &["src/made/here/mine.py".to_owned()]);
    assert_eq!(tree_has(&root, &state, "mine.py"), ["src/made/here/mine.py"]);
    // A note that is not a clean relative path checks everything.
    super::tree::note_written(&snapshot, &["../outside.py".to_owned()]);
    assert_eq!(tree_has(&root, &state, "other.py"), ["lib/other.py"]);
}

#[test]
fn a_file_created_in_the_same_clock_tick_as_the_walk_is_seen() {
    let dir = tempfile::tempdir().unwrap();
    let (root, state) = (dir.path().join("w"), dir.path().join("state"));
    std::fs::create_dir_all(root.join("src")).unwrap();
    std::fs::write(root.join("src/old.py"), "").unwrap();
    let walked_at = std::fs::metadata(root.join("src")).unwrap().modified().unwrap();
    assert_eq!(tree_has(&root, &state, "old.py"), ["src/old.py"]);
    // The kernel's clock did not tick between the walk and the new file: the directory's time
    // is the one the walk saw.
    std::fs::write(root.join("src/new.py"), "").unwrap();
    std::fs::File::open(root.join("src")).unwrap().set_modified(walked_at).unwrap();
    super::tree::mark_stale(&super::tree::location(&state, &root));
    assert_eq!(tree_has(&root, &state, "new.py"), ["src/new.py"]);
}

#[test]
fn a_tree_snapshot_naming_paths_outside_the_root_is_walked_again() {
    let dir = tempfile::tempdir().unwrap();
    let (root, state) = (dir.path().join("w"), dir.path().join("state"));
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("a.py"), "").unwrap();
    std::fs::create_dir_all(dir.path().join("secret")).unwrap();
    std::fs::write(dir.path().join("secret/key.pem"), "").unwrap();
    assert_eq!(tree_has(&root, &state, "a.py"), ["a.py"]);
    let snapshot = super::tree::location(&state, &root);
    // What code the agent runs could write: a directory above the root, a file outside it.
    for poisoned in ["g1\nD\t0\t0\t..\n", "g2\nD\t0\t0\t\nF\t../secret/key.pem\n"] {
        std::fs::write(snapshot.join("state"), poisoned).unwrap();
        super::tree::mark_stale(&snapshot);
        assert!(tree_has(&root, &state, "key.pem").is_empty(), "{poisoned:?}");
        assert_eq!(tree_has(&root, &state, "a.py"), ["a.py"]);
    }
}

#[test]
fn the_files_on_disk_a_repository_does_not_list_are_git_s_untracked_files() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .current_dir(&root)
            .args(args)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    git(&["init", "-q"]);
    for (path, text) in [
        ("tracked.rs", ""),
        ("src/lib.rs", ""),
        (".gitignore", "*.log\n/target/\n!keep.log\nbuild/\n"),
        ("src/gen_a.rs", ""),
        ("src/new.rs", ""),
        ("keep.log", ""),
        ("drop.log", ""),
        ("target/debug/x", ""),
        (".env", ""),
        ("docs/deep/new.md", ""),
        ("excluded/x.txt", ""),
        // A deeper ignore file overrides a shallower one, in both directions.
        ("src/.gitignore", "gen_*\n!gen_keep.rs\n/only_top.txt\n"),
        ("src/gen_keep.rs", ""),
        ("src/only_top.txt", ""),
        ("src/sub/only_top.txt", ""),
        ("src/sub/gen_b.rs", ""),
        ("docs/.gitignore", "*.md\n!deep/\n"),
        ("docs/deep/z.md", ""),
        ("docs/a.md", ""),
        // A directory pattern, and a file inside an ignored directory that a later rule
        // whitelists: git never enters the directory.
        ("build/.gitignore", "!*\n"),
        ("build/out.o", ""),
        ("zz/.gitignore", "aa_*\n"),
        ("zz/aa_x.rs", ""),
        ("zz/bb/aa_y.rs", ""),
        ("zz/bb/cc.rs", ""),
        (".hidden/h.txt", ""),
    ] {
        std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
        std::fs::write(root.join(path), text).unwrap();
    }
    std::fs::write(root.join(".git/info/exclude"), "excluded/\n").unwrap();
    git(&["add", "tracked.rs", "src/lib.rs"]);
    let repo = git2::Repository::open(&root).unwrap();
    let tracked = super::files::tracked(&repo);
    let walk = whole_walk(&root, Some(&tracked), vec![root.join(".git/info/exclude")]);
    let mut ours = super::tree::files(&walk);
    ours.sort();
    let mut theirs: Vec<String> =
        git(&["ls-files", "-o", "--exclude-standard"]).lines().map(str::to_owned).collect();
    theirs.sort();
    assert_eq!(ours, theirs);
}

#[test]
fn outside_a_repository_every_file_but_hidden_and_ignored_ones_is_listed() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    for (path, text) in [
        ("a.py", ""),
        (".env", ""),
        (".cache/x.py", ""),
        (".gitignore", "*.tmp\nout/\n"),
        ("b.tmp", ""),
        ("sub/.gitignore", "!keep.tmp\n"),
        ("sub/keep.tmp", ""),
        ("sub/c.tmp", ""),
        ("sub/deep/d.rs", ""),
        ("out/e.rs", ""),
        (".git/HEAD", ""),
    ] {
        std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
        std::fs::write(root.join(path), text).unwrap();
    }
    std::os::unix::fs::symlink("a.py", root.join("link.py")).unwrap();
    std::os::unix::fs::symlink("gone.py", root.join("dangling.py")).unwrap();
    std::os::unix::fs::symlink("sub", root.join("linked_dir")).unwrap();
    let walk = whole_walk(&root, None, Vec::new());
    let mut ours = super::tree::files(&walk);
    ours.sort();
    let expected = [
        ".gitignore",
        "a.py",
        "dangling.py",
        "link.py",
        "linked_dir",
        "sub/.gitignore",
        "sub/deep/d.rs",
        "sub/keep.tmp",
    ];
    assert_eq!(ours, expected);
}
