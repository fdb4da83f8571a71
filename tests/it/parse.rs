//! `patchgate parse` through the real binary: fixtures with the `git apply` oracle, real
//! corpora, and the command's own behaviour.

mod cases;
mod corpus;

use crate::support::{code, json, patchgate, run_with_stdin};

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
    assert_eq!(v["error"]["code"], "unreadable_input");
}

#[test]
fn prose_is_rejected_with_exit_1() {
    let out =
        run_with_stdin(patchgate().args(["parse", "--format", "json", "-"]), b"I fixed it.\n");
    assert_eq!(code(&out), 1);
    let v = json(&out);
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
