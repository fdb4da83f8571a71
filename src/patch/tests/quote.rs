//! C-quoted names and `diff --git` name splitting.

use crate::patch::quote::{git_names, quote, unquote};

#[test]
fn unquote_decodes_every_escape() {
    let (name, rest) = unquote(br#""a\tb\"c\\d\303\251\n" tail"#).unwrap();
    assert_eq!(name, b"a\tb\"c\\d\xc3\xa9\n");
    assert_eq!(rest, b" tail");
}

#[test]
fn unquote_refuses_malformed_quoting() {
    assert_eq!(unquote(br#""unterminated"#), None);
    assert_eq!(unquote(br#""bad \q escape""#), None);
    assert_eq!(unquote(br#""short \30""#), None);
}

#[test]
fn quote_round_trips() {
    for name in [&b"plain.txt"[..], b"caf\xc3\xa9", b"tab\there", b"q\"uote\\", b"sp ace"] {
        let mut out = Vec::new();
        quote(name, &mut out);
        if out.first() == Some(&b'"') {
            assert_eq!(unquote(&out).unwrap(), (name.to_vec(), &b""[..]));
        } else {
            assert_eq!(out, name);
        }
    }
}

#[test]
fn git_names_split_like_git() {
    let pair = |a: &str, b: &str| Some((a.as_bytes().to_vec(), b.as_bytes().to_vec()));
    assert_eq!(git_names(b"a/x y b/x y", 1), Ok(pair("x y", "x y")));
    assert_eq!(git_names(b"a/old b/new", 1), Ok(pair("old", "new")));
    assert_eq!(git_names(br#""a/caf\303\251" "b/caf\303\251""#, 1), Ok(pair("café", "café")));
    assert_eq!(git_names(br#"a/plain "b/sp\tc""#, 1), Ok(pair("plain", "sp\tc")));
    assert_eq!(git_names(b"a/x y b/z w", 1), Ok(None));
    assert!(git_names(br#""a/unterminated b/x"#, 1).is_err());
}

#[test]
fn traditional_names_end_where_git_finds_a_timestamp() {
    use crate::patch::quote::traditional_name;
    let name = |s: &[u8]| traditional_name(s).map(|n| String::from_utf8_lossy(&n).into_owned());
    assert_eq!(
        name(b"a/post\timage.txt.orig\t2010-08-18 20:13:31 -0500").as_deref(),
        Some("a/post\timage.txt.orig")
    );
    assert_eq!(name(b"a/f.txt   2010-08-18 20:13:31.620000023 +0000").as_deref(), Some("a/f.txt"));
    assert_eq!(name(b"a/f.txt\t2010-08-18 20:13:31").as_deref(), Some("a/f.txt"));
    assert_eq!(name(b"a/f.txt\t1970-01-01 00:00:00.000000000 +00:00").as_deref(), Some("a/f.txt"));
    assert_eq!(
        name(b"a/post\timage.txt").as_deref(),
        Some("a/post"),
        "no timestamp: up to the TAB"
    );
    assert_eq!(
        name(b"a/file 2010-08-18").as_deref(),
        Some("a/file 2010-08-18"),
        "a date alone is a name"
    );
    assert_eq!(
        name(b"a/x2010-08-18 20:13:31").as_deref(),
        Some("a/x2010-08-18 20:13:31"),
        "no space before it"
    );
}
