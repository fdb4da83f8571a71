use crate::contract::{MARKDOWN_SPECIAL, escape_markdown, filter_paths, sanitize};

#[test]
fn escape_matches_the_seed_sequence() {
    // The agent contract replaces char by char, backslash first; escaping each char once is the
    // same.
    let mut seed = String::from(r"a\b `c` *d* _e_ {f} [g](h) #i +j -k .l !m");
    let once = escape_markdown(&seed);
    for c in MARKDOWN_SPECIAL {
        seed = seed.replace(c, &format!("\\{c}"));
    }
    assert_eq!(once, seed);
    assert_eq!(escape_markdown("plain text"), "plain text");
}

#[test]
fn sanitize_counts_characters_before_cleaning() {
    assert_eq!(sanitize("é\r\n", 3).unwrap(), "é\n");
    assert_eq!(sanitize("a\0\0", 3).unwrap(), "a");
    let err = sanitize("abcd", 3).unwrap_err();
    assert_eq!((err.max_length, err.length), (3, 4));
}

#[cfg(unix)]
#[test]
fn symlinks_out_of_the_root_are_filtered() {
    let outside = tempfile::tempdir().unwrap();
    let root = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(outside.path(), root.path().join("out")).unwrap();
    std::fs::write(outside.path().join("secret"), "").unwrap();
    std::os::unix::fs::symlink("missing", root.path().join("dangling")).unwrap();
    let filter = filter_paths(&["out/secret", "dangling"], root.path());
    let got: Vec<&str> = filter.filtered.iter().map(|f| f.code.as_str()).collect();
    assert_eq!(got, ["outside_root", "not_found"]);
}
