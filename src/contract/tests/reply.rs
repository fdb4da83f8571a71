use crate::contract::reply::{blocks, decode, read_json};

fn codes(findings: &[crate::contract::Finding]) -> Vec<&'static str> {
    findings.iter().map(|f| f.code.as_str()).collect()
}

#[test]
fn fences_follow_commonmark() {
    let text = "intro\n```json\n{\"a\": 1}\n```\n\n~~~~\n```\nnot closed by a backtick fence\n~~~~\n   ```rust\nfn x() {}\n```\n";
    let b = blocks(text);
    assert_eq!(b.len(), 3);
    assert_eq!((b[0].info.as_str(), b[0].open_line, b[0].close_line), ("json", 2, Some(4)));
    assert_eq!(b[0].content, "{\"a\": 1}\n");
    assert_eq!(b[1].content, "```\nnot closed by a backtick fence\n", "a ~~~~ fence needs ~~~~");
    assert_eq!(b[2].info, "rust");
    assert!(b[0].is_json() && !b[2].is_json());
}

#[test]
fn unclosed_fence_runs_to_the_end() {
    let b = blocks("```json\n{}\n");
    assert_eq!(b.len(), 1);
    assert_eq!(b[0].close_line, None);
    assert_eq!(b[0].content, "{}\n\n");
}

#[test]
fn indented_by_four_is_no_fence() {
    assert!(blocks("    ```json\n{}\n    ```\n").is_empty());
}

#[test]
fn decode_normalises_line_endings_and_bom() {
    let text = decode(b"\xef\xbb\xbfa\r\nb\rc").unwrap();
    assert_eq!(text.text, "a\nb\nc");
    assert_eq!(codes(&text.notes), ["byte_order_mark", "crlf_line_endings"]);
    let err = decode(b"ok\n\xff").unwrap_err();
    assert_eq!((err.code.as_str(), err.line), ("not_utf8", Some(2)));
}

#[test]
fn json_mistakes_are_named_with_their_lines() {
    let read = read_json(
        "{\n  \"a\": 1, // one\n  /* two */ \"b\": [1, 2,],\n  \"c\": undefined,\n}\n",
        10,
    );
    assert!(read.value.is_some());
    let got: Vec<(&str, Option<usize>)> =
        read.findings.iter().map(|f| (f.code.as_str(), f.line)).collect();
    assert_eq!(
        got,
        [
            ("json_comment", Some(11)),
            ("json_comment", Some(12)),
            ("trailing_comma", Some(12)),
            ("undefined_value", Some(13)),
            ("trailing_comma", Some(13)),
        ]
    );
}

#[test]
fn strings_are_not_mistakes() {
    let read =
        read_json(r#"{"url": "http://x/*y*/", "s": "a,]", "u": "undefined", "e": "\"//"}"#, 1);
    assert!(read.findings.is_empty(), "{:?}", read.findings);
}

#[test]
fn broken_json_reports_the_strict_error_line() {
    let read = read_json("{\n  \"a\": 1\n  \"b\": 2\n}\n", 5);
    assert!(read.value.is_none());
    assert_eq!(codes(&read.findings), ["invalid_json"]);
    assert_eq!(read.findings[0].line, Some(7));
}
