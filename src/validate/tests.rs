//! Pipeline and judge tests (no patch parsing needed: failure results and schema errors).

use super::*;
use crate::rule::Report;
use crate::rule::RuleId;
use std::time::Duration;

fn step() -> Step {
    read_step(br#"{"description": "Rename foo to bar in src/a.rs"}"#).unwrap()
}

const FAILURE: &[u8] = br#"{"mode": "apply", "success": false, "summary": "no foo in src/a.rs"}"#;

fn run(step: &Step, result: &[u8], options: &Options) -> Result<Report, ValidateError> {
    let config = Config::default();
    let ctx = Context { step, result, config: &config, repo: None };
    validate(&ctx, options).map(|outcome| outcome.report)
}

fn judge(command: &str) -> Options {
    Options {
        judge: Some(JudgeOptions { command: command.into(), timeout: Duration::from_secs(5) }),
        ..Options::default()
    }
}

#[test]
fn clean_failure_is_accepted_with_the_skipped_note() {
    let report = run(&step(), FAILURE, &Options::default()).unwrap();
    assert!(report.verdict.valid);
    assert_eq!(report.verdict.reason, "accepted: failure reported, no patch");
    let notes: Vec<&str> = report.notes.iter().map(|n| n.code.as_str()).collect();
    assert_eq!(notes, ["repository_checks_skipped"]);
}

#[test]
fn schema_violations_stop_the_pipeline() {
    let report = run(&step(), b"not json", &Options::default()).unwrap();
    assert!(!report.verdict.valid);
    assert!(report.verdict.reason.starts_with("schema: "), "{}", report.verdict.reason);
    assert!(report.violations.iter().all(|v| v.rule == RuleId::Schema));
}

#[test]
fn bad_step_input_is_refused() {
    assert!(read_step(b"{}").unwrap_err().is_input_refused());
    assert!(read_step(br#"{"description": " "}"#).is_err());
    assert!(read_step(br#"{"description": "x", "allowed": []}"#).is_err(), "unknown field");
    let mut s = step();
    s.allowed_files = Some(vec!["src/[".into()]);
    let err = run(&s, FAILURE, &Options::default()).unwrap_err();
    assert_eq!(err.code().as_str(), "invalid_step");
    let config = Config::from_toml("[rules]\nnope = 1\n", std::path::Path::new("p.toml")).unwrap();
    let ctx = Context { step: &s, result: FAILURE, config: &config, repo: None };
    assert_eq!(validate(&ctx, &Options::default()).unwrap_err().code().as_str(), "invalid_config");
}

#[test]
fn judge_accepts_and_rejects() {
    let report = run(
        &step(),
        FAILURE,
        &judge(r#"cat >/dev/null; echo '{"valid": true, "reason": "fine"}'"#),
    )
    .unwrap();
    assert!(report.verdict.valid);
    let cmd = r#"grep -q '"step"' && echo '{"valid": false, "reason": "foo is still there"}'"#;
    let report = run(&step(), FAILURE, &judge(cmd)).unwrap();
    assert_eq!(report.violations[0].code, "judge_rejected");
    assert_eq!(report.verdict.reason, "not-implemented: the judge says: foo is still there");
}

#[test]
fn judge_is_skipped_after_a_rule_rejects() {
    let result = br#"{"mode": "apply", "success": false}"#;
    let report = run(&step(), result, &judge("exit 7")).unwrap();
    assert_eq!(report.violations[0].code, "failure_without_summary");
}

#[test]
fn judge_failures_are_errors_never_accepts() {
    let err = run(&step(), FAILURE, &judge("echo broken >&2; exit 4")).unwrap_err();
    assert!(
        matches!(&err, ValidateError::Judge(JudgeError::Failed { stderr, .. }) if stderr == "broken"),
        "{err}"
    );
    let err = run(&step(), FAILURE, &judge("echo yes")).unwrap_err();
    assert!(matches!(err, ValidateError::Judge(JudgeError::Garbage { .. })), "{err}");
    let err = run(&step(), FAILURE, &judge(r#"echo '{"valid": "yes"}'"#)).unwrap_err();
    assert!(matches!(err, ValidateError::Judge(JudgeError::Garbage { .. })), "{err}");
    let background = r#"sleep 30 & echo '{"valid": true, "reason": "ok"}'"#;
    let started = std::time::Instant::now();
    assert!(run(&step(), FAILURE, &judge(background)).unwrap().verdict.valid);
    assert!(started.elapsed() < Duration::from_secs(10), "a background child does not hold us");
    let mut options = judge("sleep 30");
    options.judge.as_mut().unwrap().timeout = Duration::from_millis(300);
    let started = std::time::Instant::now();
    let err = run(&step(), FAILURE, &options).unwrap_err();
    assert!(matches!(err, ValidateError::Judge(JudgeError::TimedOut { .. })), "{err}");
    assert!(started.elapsed() < Duration::from_secs(10), "the judge was killed, not awaited");
    assert!(!err.is_input_refused());
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    fn patch_text() -> impl Strategy<Value = String> {
        let line = prop_oneof![
            Just("diff --git a/src/a.rs b/src/a.rs".to_owned()),
            Just("--- a/src/a.rs".to_owned()),
            Just("+++ b/src/a.rs".to_owned()),
            Just("@@ -1,2 +1,2 @@".to_owned()),
            "[ +-][a-z /*#]{0,12}",
            "[^\n]{0,10}",
        ];
        proptest::collection::vec(line, 0..12).prop_map(|lines| lines.join("\n") + "\n")
    }

    proptest! {
        #[test]
        fn arbitrary_result_bytes_always_get_a_verdict(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
            let report = run(&step(), &bytes, &Options::default()).unwrap();
            prop_assert_eq!(report.verdict.valid, report.violations.is_empty());
        }

        #[test]
        fn arbitrary_patches_always_get_a_consistent_verdict(
            patch in patch_text(),
            success in any::<bool>(),
            mode in prop_oneof![Just("apply"), Just("fix_regression"), Just("x")],
        ) {
            let result = serde_json::json!({
                "mode": mode, "success": success, "patch": patch,
                "filesWritten": ["src/a.rs"], "filesTouched": ["src/a.rs"], "summary": "s",
            });
            let raw = serde_json::to_vec(&result).unwrap();
            let report = run(&step(), &raw, &Options::default()).unwrap();
            prop_assert_eq!(report.verdict.valid, report.violations.is_empty());
            if let Some(first) = report.violations.first() {
                let prefix = format!("{}: ", first.rule);
                prop_assert!(report.verdict.reason.starts_with(&prefix));
            }
        }
    }
}

#[test]
fn fix_regression_without_apply_patch_is_noted() {
    let result = br#"{"mode": "fix_regression", "success": false, "summary": "cannot reproduce"}"#;
    let report = run(&step(), result, &Options::default()).unwrap();
    assert!(report.notes.iter().any(|n| n.code == "apply_run_unknown"), "{:?}", report.notes);
}
