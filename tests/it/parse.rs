//! `patchgate parse` through the real binary: fixtures with the `git apply` oracle, real
//! corpora, and the command's own behaviour.

mod cases;
mod corpus;

use crate::support::{code, data, json, patchgate, run_with_stdin};

#[test]
fn unreadable_patch_file_is_input_refused() {
    let out = patchgate().args(["parse", "/nonexistent/x.patch"]).output().unwrap();
    assert_eq!(code(&out), 2);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("/nonexistent/x.patch"), "{stderr}");
}

#[test]
fn unreadable_patch_with_json_format_prints_the_envelope() {
    let out =
        patchgate().args(["parse", "--format", "json", "/nonexistent/x.patch"]).output().unwrap();
    assert_eq!(code(&out), 2);
    let v = json(&out);
    assert_eq!(v["ok"], false);
    assert_eq!(v["meta"]["command"], "parse");
    assert_eq!(v["error"]["code"], "unreadable_input");
}

#[test]
fn prose_is_rejected_with_exit_1() {
    let out =
        run_with_stdin(patchgate().args(["parse", "--format", "json", "-"]), b"I fixed it.\n");
    assert_eq!(code(&out), 1);
    let v = data(&out);
    assert_eq!(v["ok"], false);
    assert_eq!(v["defects"][0]["code"], "no_file_headers");
}

#[test]
fn a_reader_that_goes_away_ends_the_run_with_exit_3_not_a_panic() {
    use std::process::Stdio;
    let one = "diff --git a/F b/F\n--- a/F\n+++ b/F\n@@ -1 +1 @@\n-old\n+new\n";
    let text: String = (0..20_000).map(|i| one.replace('F', &format!("f{i}.rs"))).collect();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.diff");
    std::fs::write(&file, text).unwrap();
    let mut child = patchgate()
        .arg("parse")
        .arg(&file)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader leaves before the first line is written
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(code(&out), 3);
}

#[test]
fn json_paths_are_the_real_paths_and_escaped_only_when_not_utf8() {
    let patch: &[u8] = b"diff --git \"a/post\\\\image.txt\" \"b/post\\\\image.txt\"\n--- \"a/post\\\\image.txt\"\n+++ \"b/post\\\\image.txt\"\n@@ -1 +1 @@\n-a\n+b\ndiff --git \"a/x\\377\" \"b/x\\377\"\n--- \"a/x\\377\"\n+++ \"b/x\\377\"\n@@ -1 +1 @@\n-a\n+b\n";
    let out = run_with_stdin(patchgate().args(["--format", "json", "parse", "-"]), patch);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    let files = data(&out)["files"].clone();
    assert_eq!(files[0]["new_path"], "post\\image.txt", "one backslash, as on disk");
    assert!(files[0].get("new_path_escaped").is_none());
    assert_eq!(files[1]["new_path"], "x\u{fffd}");
    assert_eq!(files[1]["new_path_escaped"], "x\\377");
    let text = run_with_stdin(patchgate().args(["parse", "-"]), patch);
    let shown = String::from_utf8_lossy(&text.stdout);
    assert!(shown.contains("post\\\\image.txt"), "text escapes the backslash: {shown}");
}

#[test]
fn parse_reads_standard_input_without_a_file_argument() {
    let patch = b"diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1 +1 @@\n-x\n+y\n";
    let out = run_with_stdin(patchgate().args(["--format", "json", "parse"]), patch);
    assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(data(&out)["files"][0]["new_path"], "a");
}

/// A patch file above the size read into a huge-page buffer (4 MB) parses exactly as the
/// same bytes from standard input, which are read the plain way. Its entries stay within the
/// default `[limits] files` (20,000), as `parse` applies them.
#[test]
fn a_large_patch_file_parses_as_the_same_bytes_from_standard_input() {
    use std::fmt::Write as _;
    let mut patch = String::new();
    let mut i = 0;
    let context = "context line of a real length, as source code has ".repeat(4);
    while patch.len() < 5 << 20 {
        let _ =
            write!(patch, "diff --git a/f{i} b/f{i}\n--- a/f{i}\n+++ b/f{i}\n@@ -1,3 +1,3 @@\n");
        let _ = write!(patch, " {context}{i}\n-old line {i}\n+new line {i}\n tail {i}\n");
        i += 1;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("large.patch");
    std::fs::write(&file, &patch).unwrap();
    let from_file = patchgate().args(["--format", "json", "parse"]).arg(&file).output().unwrap();
    let from_stdin =
        run_with_stdin(patchgate().args(["--format", "json", "parse", "-"]), patch.as_bytes());
    assert_eq!(code(&from_file), 0, "{}", String::from_utf8_lossy(&from_file.stderr));
    assert_eq!(data(&from_file)["files"].as_array().map(Vec::len), Some(i));
    assert_eq!(data(&from_file)["files"], data(&from_stdin)["files"]);
    assert_eq!(data(&from_file)["added"], data(&from_stdin)["added"]);
    assert_eq!(data(&from_file)["added"].as_u64(), Some(i as u64));
    assert!(i > 10_000, "{i} entries: still a large patch");
}
