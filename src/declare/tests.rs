use super::*;

#[test]
fn patterns_are_normalised_and_checked_on_their_literal_parts() {
    assert_eq!(check_pattern("./src//a.rs/").unwrap(), "src/a.rs");
    assert_eq!(check_pattern("src/**/*_test.rs").unwrap(), "src/**/*_test.rs");
    let code = |p: &str| check_pattern(p).unwrap_err().code;
    assert_eq!(code("../x"), "path_traversal");
    assert_eq!(code("src/**/../../x"), "path_traversal");
    assert_eq!(code("/etc/*"), "absolute_path");
    assert_eq!(code("**/.git/**"), "git_dir");
    assert_eq!(code(".GIT/hooks/*"), "git_dir");
    assert_eq!(code("src/[a"), "invalid_glob");
    // Found by fuzzing (trailers target): `k ///` normalised to `k `, which a trailer trims.
    assert_eq!(code("**/+secret/k ////////"), "surrounding_whitespace");
    assert_eq!(code(" src/a.rs"), "surrounding_whitespace");
    assert_eq!(check_pattern("docs/a b.md").unwrap(), "docs/a b.md");
    // Escaped glob characters are literal parts; a backslash escapes nothing else.
    assert_eq!(check_pattern(r"./app/\[id\]/x.ts").unwrap(), r"app/\[id\]/x.ts");
    assert_eq!(code(r"\.git/hooks"), "invalid_escape");
    assert_eq!(code(r"src\/a.rs"), "invalid_escape");
    assert_eq!(code(r"a\"), "invalid_escape");
    assert_eq!(code(r"\*/../../x"), "path_traversal");
}

#[test]
fn a_literal_path_matches_itself_only() {
    for path in ["**", "src/*", "[a-z]*", "{a,b}", "app/[slug]/page.tsx", "a?b", "plain/x.rs"] {
        let pattern = check_pattern(&literal(path)).unwrap();
        let set = PathSet::new(&[pattern.as_str()]).unwrap();
        assert!(set.is_match(path), "{path}");
        assert!(set.is_match(&format!("{path}/below")), "{path}: a directory covers below it");
        for other in ["x", "src/a.rs", "a", "ab", "app/s/page.tsx", "axb"] {
            assert!(!set.is_match(other), "{path} matched {other}");
        }
    }
}

#[test]
fn add_merges_without_duplicates() {
    let mut d = Declaration::default();
    assert_eq!(d.add(&["a".into(), "b".into()], "argument"), 2);
    assert_eq!(d.add(&["b".into(), "c".into()], "step:s.json"), 1);
    assert_eq!(d.patterns(), ["a", "b", "c"]);
    assert_eq!(d.entries[2].source, "step:s.json");
    assert!(d.path_set(&crate::config::Limits::default()).unwrap().is_match("c/below"));
}

#[test]
fn trailers_round_trip_through_a_commit_message() {
    let mut d = Declaration::default();
    d.add(&["src/a.rs".into(), "docs/**".into()], "argument");
    let lines = trailer_lines(&d);
    assert_eq!(lines, ["Patchgate-Declared: src/a.rs", "Patchgate-Declared: docs/**"]);
    let message = format!("subject\n\nbody text\n\n{}\n", lines.join("\n"));
    assert_eq!(from_message(&message).unwrap(), ["src/a.rs", "docs/**"]);
    assert_eq!(from_message("subject\n\npatchgate-declared: x\n").unwrap(), ["x"]);
    assert_eq!(from_message("subject only\n"), None);
    // Not in the final paragraph: not a trailer.
    assert_eq!(from_message("s\n\nPatchgate-Declared: x\n\nmore prose here.\n"), None);
}

#[test]
fn store_writes_atomically_and_clears() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::new(dir.path());
    assert_eq!(store.load().unwrap(), None);
    store
        .update(|d| {
            d.add(&["a".into()], "argument");
        })
        .unwrap();
    let loaded = store.load().unwrap().unwrap();
    assert_eq!(loaded.version, Declaration::VERSION);
    assert_eq!(loaded.patterns(), ["a"]);
    assert!(!dir.path().join("patchgate/declaration.json.lock").exists());
    assert!(store.clear().unwrap());
    assert_eq!(store.load().unwrap(), None);
}

#[test]
fn a_held_lock_is_reported_not_broken() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::new(dir.path());
    std::fs::create_dir_all(dir.path().join("patchgate")).unwrap();
    std::fs::write(dir.path().join("patchgate/declaration.json"), "{not json").unwrap();
    let err = store.load().unwrap_err();
    assert!(matches!(err, StoreError::Invalid { .. }));
}
