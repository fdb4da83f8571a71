//! Fuzz `validate`'s untrusted inputs: any step bytes must be read or refused without panicking,
//! and any result bytes (raw, or as the `patch` of a well-formed result) must get a verdict
//! whose validity agrees with its violations and whose reason starts with the first rule.
#![no_main]

use libfuzzer_sys::fuzz_target;
use patchgate::config::Config;
use patchgate::report::to_json_line;
use patchgate::validate::{self, Context, Options};

const STEP: &[u8] = br#"{"description": "Rename foo to bar in src/a.rs", "allowedFiles": ["src/**"],
  "excludedPaths": [".github/**"], "applyFiles": ["src/a.rs"],
  "applyPatch": "diff --git a/src/a.rs b/src/a.rs\n--- a/src/a.rs\n+++ b/src/a.rs\n@@ -1 +1 @@\n-foo\n+bar\n"}"#;

fuzz_target!(|data: &[u8]| {
    let _ = validate::read_step(data);
    let step = validate::read_step(STEP).expect("the fixed step is valid");
    let config = Config::default();
    let patch = to_json_line(&String::from_utf8_lossy(data).into_owned());
    let mode = if data.first().is_some_and(|b| b % 2 == 0) { "apply" } else { "fix_regression" };
    let wrapped = format!(
        r#"{{"mode": "{mode}", "success": true, "patch": {patch}, "filesWritten": ["src/a.rs"],
            "filesTouched": ["src/a.rs"], "summary": "fuzz"}}"#
    );
    for result in [data, wrapped.as_bytes()] {
        let ctx = Context { step: &step, result, config: &config, repo: None };
        let outcome = validate::validate(&ctx, &Options::default()).expect("no judge, no repo");
        let report = &outcome.report;
        assert_eq!(report.verdict.valid, report.violations.is_empty());
        if let Some(first) = report.violations.first() {
            assert!(report.verdict.reason.starts_with(&format!("{}: ", first.rule)));
        }
    }
});
