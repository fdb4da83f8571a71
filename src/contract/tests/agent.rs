use crate::contract::{AgentEnvelope, AgentExpect, AgentOutcome, ArgPolicy, check_agent_reply};
use serde_json::{Value, json};

fn check(value: &Value) -> AgentOutcome {
    let expect = AgentExpect { agent: "ticket-analyzer".into(), operation: None, max_list: None };
    check_agent_reply(value.to_string().as_bytes(), &expect, &ArgPolicy::default())
}

fn found(out: &AgentOutcome) -> Vec<(&'static str, &str)> {
    out.violations.iter().map(|f| (f.code.as_str(), f.pointer.as_deref().unwrap_or(""))).collect()
}

fn success() -> Value {
    json!({
        "status": "success", "agent": "ticket-analyzer", "version": "1.0", "operation": "story-deep",
        "result": {"score": 85, "issues": [], "ready": true, "files": []},
        "metadata": {"execution_time_ms": 1250}
    })
}

#[test]
fn seed_valid_output_passes_and_fits_the_type() {
    let out = check(&success());
    assert!(out.ok, "{:?}", out.violations);
    assert_eq!(out.status.as_deref(), Some("success"));
    assert!(serde_json::from_value::<AgentEnvelope>(success()).is_ok());
}

#[test]
fn data_types_through_the_result() {
    let mut v = success();
    v["result"] = json!({"score": "85", "issues": null, "ready": "true", "nested": [{"item_count": -1}, {"total": 2.5}]});
    v["metadata"]["execution_time_ms"] = json!("1250");
    assert_eq!(
        found(&check(&v)),
        [
            ("number_as_string", "/result/score"),
            ("null_value", "/result/issues"),
            ("boolean_as_string", "/result/ready"),
            ("negative_count", "/result/nested/0/item_count"),
            ("not_an_integer", "/result/nested/1/total"),
            ("number_as_string", "/metadata/execution_time_ms"),
        ]
    );
}

#[test]
fn required_fields_by_status() {
    let out = check(
        &json!({"status": "partial", "agent": "ticket-analyzer", "version": "1.0", "operation": "story-deep", "result": {}, "warnings": [], "metadata": {"execution_time_ms": 1}}),
    );
    assert_eq!(found(&out), [("empty_warnings", "/warnings")]);
    let out = check(
        &json!({"status": "partial", "agent": "ticket-analyzer", "version": "1.0", "operation": "story-deep", "result": {}, "warnings": [{"type": "oops", "message": "m", "impact": ""}], "metadata": {"execution_time_ms": 1}}),
    );
    assert_eq!(
        found(&out),
        [
            ("invalid_warning_type", "/warnings/0/type"),
            ("empty_field", "/warnings/0/impact"),
            ("missing_field", "/warnings/0/recovery")
        ]
    );
    let out = check(
        &json!({"status": "error", "agent": "ticket-analyzer", "version": "1.0", "error_type": "boom", "message": "", "recovery_suggestions": [], "metadata": {"execution_time_ms": 1}}),
    );
    assert_eq!(
        found(&out),
        [
            ("invalid_error_type", "/error_type"),
            ("empty_field", "/message"),
            ("empty_recovery_suggestions", "/recovery_suggestions")
        ]
    );
}

#[test]
fn identity_and_version() {
    let mut v = success();
    v["agent"] = json!("design-guardian");
    v["version"] = json!(1.0);
    v["operation"] = json!("full-survey");
    assert_eq!(
        found(&check(&v)),
        [
            ("agent_mismatch", "/agent"),
            ("wrong_type", "/version"),
            ("unknown_operation", "/operation")
        ]
    );
    let expect = AgentExpect {
        agent: "ticket-analyzer".into(),
        operation: Some("hierarchy-gaps".into()),
        max_list: None,
    };
    let out = check_agent_reply(success().to_string().as_bytes(), &expect, &ArgPolicy::default());
    assert_eq!(found(&out), [("operation_mismatch", "/operation")]);
}

#[test]
fn fenced_reply_is_read_with_a_warning() {
    let expect = AgentExpect { agent: "ticket-analyzer".into(), operation: None, max_list: None };
    let fenced = format!("```json\n{}\n```\n", success());
    let out = check_agent_reply(fenced.as_bytes(), &expect, &ArgPolicy::default());
    assert!(out.ok);
    assert_eq!(out.warnings[0].code.as_str(), "fenced_reply");
    let prose = format!("Here is the analysis:\n{fenced}");
    let out = check_agent_reply(prose.as_bytes(), &expect, &ArgPolicy::default());
    assert_eq!(found(&out), [("text_outside_json", "")]);
}

#[test]
fn valid_fixtures_fit_the_schema_types() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/contract");
    for case in ["seed004-valid-output", "seed004-valid-partial", "seed004-valid-error"] {
        let text = std::fs::read_to_string(dir.join(case).join("reply.txt")).unwrap();
        let value: Value = serde_json::from_str(&text).unwrap();
        assert!(check(&value).ok, "{case}");
        serde_json::from_value::<AgentEnvelope>(value).unwrap_or_else(|e| panic!("{case}: {e}"));
    }
}

#[test]
fn scores_are_numbers() {
    let mut v = success();
    v["result"] = json!({"quality_score": "high", "coverage": "85%", "label": "85"});
    assert_eq!(
        found(&check(&v)),
        [("wrong_type", "/result/quality_score"), ("number_as_string", "/result/coverage")]
    );
}

/// The pass that bounds lists without building the reply finds the list the built value's
/// walk finds, with the same pointer (keys escaped); in text that is not JSON, a list read
/// before the error.
#[test]
fn the_list_bound_finds_the_same_list_in_text_and_in_the_value() {
    use crate::contract::lists::{first_over, first_over_in};
    let cases = [
        (r#"{"a": [1, 2], "b": {"c/d~e": [1, [1, 2, 3]]}}"#, Some("/b/c~1d~0e/1")),
        (r#"[[1], [1, 2], {"x": [1, 2, 3]}]"#, Some("/2/x")),
        ("[1, 2, 3]", Some("")),
        (r#"{"a": [1, 2], "b": [[], [{}]], "c": "xyz"}"#, None),
        // Not JSON: the lists read before the error count, the rest are the lenient reader's.
        (r#"{"a": [1, 2, 3"#, Some("/a")),
        (r#"{"a": [1, 2], "b" [1, 2, 3]}"#, None),
    ];
    for (text, expected) in cases {
        assert_eq!(first_over(text, 2).as_deref(), expected, "{text}");
        if let Ok(value) = serde_json::from_str(text) {
            assert_eq!(first_over_in(&value, 2).as_deref(), expected, "{text}");
        }
    }
}
