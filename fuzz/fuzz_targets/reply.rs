//! Fuzz the reply readers: any bytes through the executor-output contract, the agent envelope
//! and (when UTF-8) every argument type must not panic, and the verdicts must be coherent: `ok`
//! exactly when there is no violation, every line inside the reply, an accepted argument
//! unchanged and free of what every type refuses (NUL, control characters, a component that a
//! resolver reads as the parent: `..`, `....`, `.. ` between `/` or `\`). A name that merely
//! contains two dots (`n../d`, `v1..2`) is a legal name and passes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use patchgate::contract::{
    AgentExpect, ArgOutcome, ArgPolicy, ArgOptions, ArgType, ExecutorOptions, Finding,
    check_agent_reply, check_executor_output,
};
use std::path::Path;

fn lines_inside(findings: &[Finding], data: &[u8]) {
    let lines = data.iter().filter(|&&b| b == b'\n' || b == b'\r').count() + 1;
    for f in findings {
        assert!(f.line.is_none_or(|l| l >= 1 && l <= lines), "{f:?} outside {lines} lines");
    }
}

/// A component some resolver treats as the parent directory: two or more dots, trailing spaces
/// ignored (as NTFS does).
fn is_parent_component(component: &str) -> bool {
    let dots = component.trim_end_matches(' ');
    dots.len() >= 2 && dots.bytes().all(|b| b == b'.')
}

fuzz_target!(|data: &[u8]| {
    // A root that does not exist: the fuzzer must not probe the real file system.
    let root = Path::new("/nonexistent/patchgate-fuzz-root");
    for allow_preamble in [false, true] {
        let options = ExecutorOptions { allow_preamble, strict_paths: true, max_paths: None };
        let out = check_executor_output(data, root, options);
        assert_eq!(out.ok, out.violations.is_empty());
        lines_inside(&out.violations, data);
        lines_inside(&out.warnings, data);
    }
    let policy = ArgPolicy::builtin();
    let expect = AgentExpect { agent: "ticket-analyzer".into(), operation: None, max_list: None };
    let out = check_agent_reply(data, &expect, policy);
    assert_eq!(out.ok, out.violations.is_empty());
    lines_inside(&out.violations, data);
    let Ok(text) = std::str::from_utf8(data) else { return };
    for &ty in ArgType::ALL {
        let options = ArgOptions { allow_dirs: vec!["src".into()], ..ArgOptions::default() };
        if let ArgOutcome::Accepted(a) = policy.check(ty, text, &options) {
            assert_eq!(a.value, text, "an accepted value passes unchanged");
            assert!(!text.chars().any(char::is_control), "{ty}: {text:?}");
            assert!(!text.split(['/', '\\']).any(is_parent_component), "{ty}: {text:?}");
        }
    }
});
