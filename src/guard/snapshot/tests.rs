use super::*;
use std::path::Component;

/// The byte check says what `Path::components` says (the definition it replaced).
#[test]
fn a_clean_path_is_one_of_normal_components_only() {
    let by_components = |p: &str| {
        !p.contains(['\n', '\0', '\t'])
            && Path::new(p).components().all(|c| matches!(c, Component::Normal(_)))
    };
    for path in [
        "", "a", "a/b", "a//b", "a/./b", "a/.", "a/", ".a", "..a", "a..", "a/..b", ".", "./a",
        "..", "../a", "a/..", "a/../b", "/a", "//a", "a\tb", "a\nb", "a\0b", "é/ü", "a/.../b",
    ] {
        assert_eq!(is_clean(path), by_components(path), "{path:?}");
    }
}

#[test]
fn hex_is_written_as_format_writes_it() {
    for value in [0, 1, 0xf, 0x10, 0xdead_beef, u64::MAX, 1 << 63] {
        let mut out = String::new();
        push_hex(&mut out, value);
        assert_eq!(out, format!("{value:x}"));
    }
}

fn base_state() -> State {
    State {
        generation: "g1/2".to_owned(),
        rules: vec![(PathBuf::from("/r/.gitignore"), 1_700_000_000_123_456_789)],
        dirs: vec![
            (String::new(), -1, 0),
            ("a".to_owned(), i128::from(i64::MAX) + 1, u64::MAX),
            ("a/b".to_owned(), 5, 0xabc),
        ],
        files: vec!["a/b/c.rs".to_owned(), "x.py".to_owned()],
        pending: vec!["q".to_owned(), "q/r".to_owned()],
    }
}

/// A step of the walk on top of [`base_state`]: reads `q`, finds `q/s`.
fn part_state(generation: &str) -> State {
    State {
        generation: generation.to_owned(),
        rules: vec![(PathBuf::from("/r/q/.gitignore"), 7)],
        dirs: vec![("q".to_owned(), 9, 0)],
        files: vec!["q/.gitignore".to_owned(), "q/m.rs".to_owned()],
        pending: vec!["q/r".to_owned(), "q/s".to_owned()],
    }
}

/// Generations in the order the pieces were written.
fn generations(listing: &Listing) -> Vec<&str> {
    listing.heads.iter().map(|h| h.generation.as_str()).collect()
}

#[test]
fn a_base_and_its_parts_are_read_back_as_written() {
    let dir = tempfile::tempdir().unwrap();
    write_base(dir.path(), &base_state()).unwrap();
    let listing = list(dir.path()).unwrap();
    assert_eq!(
        listing.heads,
        [Head { generation: "g1/2".into(), parent: String::new(), known: 7 }]
    );
    assert_eq!(read_piece(dir.path(), 0, true).unwrap().1, base_state());
    let without = read_piece(dir.path(), 0, false).unwrap().1;
    assert_eq!(without, State { pending: Vec::new(), ..base_state() });
    assert_eq!(pending(dir.path(), &listing).unwrap(), ["q", "q/r"]);
    write_part(dir.path(), &listing, &part_state("g2/2"), 10).unwrap();
    let listing = list(dir.path()).unwrap();
    assert_eq!(generations(&listing), ["g1/2", "g2/2"]);
    assert_eq!(listing.last().known, 10);
    assert_eq!(pending(dir.path(), &listing).unwrap(), ["q/r", "q/s"]);
    let whole = load(dir.path(), &listing).unwrap();
    assert_eq!(whole.generation, "g2/2");
    assert_eq!(whole.files, ["a/b/c.rs", "q/.gitignore", "q/m.rs", "x.py"]);
    let dirs: Vec<&str> = whole.dirs.iter().map(|d| d.0.as_str()).collect();
    assert_eq!(dirs, ["", "a", "a/b", "q"]);
    assert_eq!(whole.rules.len(), 2);
    assert_eq!(whole.pending, ["q/r", "q/s"]);
}

/// Compacting: a new base removes the parts, and a part left of an older base (a crash between
/// the base's write and the removal) is not read on top of the new one.
#[test]
fn a_new_base_leaves_no_part_of_the_old_one_in_force() {
    let dir = tempfile::tempdir().unwrap();
    write_base(dir.path(), &base_state()).unwrap();
    write_part(dir.path(), &list(dir.path()).unwrap(), &part_state("g2/2"), 10).unwrap();
    let kept = std::fs::read(piece_file(dir.path(), 1)).unwrap();
    let new = State { generation: "g3".to_owned(), ..base_state() };
    write_base(dir.path(), &State { pending: Vec::new(), ..new }).unwrap();
    assert!(!piece_file(dir.path(), 1).exists());
    std::fs::write(piece_file(dir.path(), 1), kept).unwrap();
    assert_eq!(generations(&list(dir.path()).unwrap()), ["g3"]);
}

/// A part cut short (its end line missing) ends the chain, and so does one that continues
/// another piece than the one before it: the walk resumes from the piece before, whose pending
/// directories still hold what the lost step read.
#[test]
fn a_torn_part_and_the_parts_after_it_are_not_read() {
    let dir = tempfile::tempdir().unwrap();
    write_base(dir.path(), &base_state()).unwrap();
    write_part(dir.path(), &list(dir.path()).unwrap(), &part_state("g2/2"), 10).unwrap();
    write_part(dir.path(), &list(dir.path()).unwrap(), &part_state("g3/2"), 11).unwrap();
    assert_eq!(generations(&list(dir.path()).unwrap()), ["g1/2", "g2/2", "g3/2"]);
    let first = piece_file(dir.path(), 1);
    let text = std::fs::read_to_string(&first).unwrap();
    let torn = &text[..=text.trim_end().rfind('\n').unwrap()];
    std::fs::write(&first, torn).unwrap();
    let listing = list(dir.path()).unwrap();
    assert_eq!(generations(&listing), ["g1/2"]);
    assert_eq!(pending(dir.path(), &listing).unwrap(), ["q", "q/r"]);
    assert_eq!(read_piece(dir.path(), 1, true), None);
    // Written again, the first part is whole, but the second continues the torn one.
    write_part(dir.path(), &listing, &part_state("g4/2"), 10).unwrap();
    assert_eq!(generations(&list(dir.path()).unwrap()), ["g1/2", "g4/2"]);
}

/// A file of another layout (an older version's, or no version line) is never read as a
/// snapshot; nor is one with a line that is not clean, or anything after its end line.
#[test]
fn an_old_or_damaged_snapshot_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join(BASE);
    // The third version's layout: the generation first, then the lines.
    std::fs::write(&base, "g2\nD\t1\t0\t\nF\ta.rs\n").unwrap();
    assert!(list(dir.path()).is_none());
    assert_eq!(read_piece(dir.path(), 0, true), None);
    let old = format!(
        "{}\n",
        render(&head("g1"), &base_state()).replace(VERSION, "patchgate tree snapshot v3")
    );
    std::fs::write(&base, old).unwrap();
    assert!(list(dir.path()).is_none());
    for damaged in ["F\t../x\n", "D\t1\tzz\ta\n", "F\ta\n"] {
        let text = render(&head("g1/2"), &base_state());
        let text = if damaged == "F\ta\n" {
            format!("{text}{damaged}")
        } else {
            text.replace("F\tx.py\n", damaged)
        };
        std::fs::write(&base, text).unwrap();
        assert_eq!(read_piece(dir.path(), 0, true), None, "{damaged:?}");
    }
}

fn head(generation: &str) -> Head {
    Head { generation: generation.to_owned(), parent: String::new(), known: 7 }
}
