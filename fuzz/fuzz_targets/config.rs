//! Fuzz `.patchgate.toml`: any text is loaded or refused without panicking; every table of a
//! loaded policy reads or is refused with an error (never a panic); `validate` under it either
//! answers, reports the policy as the problem, or refuses the step over the policy's limits; a path the policy's `excluded` matches is never
//! accepted.
#![no_main]

use libfuzzer_sys::fuzz_target;
use patchgate::config::Config;
use patchgate::contract::{ArgOptions, ArgPolicy, ArgType, ContractConfig};
use patchgate::guard::GuardPolicy;
use patchgate::hook::{HookPolicy, Policy};
use patchgate::review::ReviewPolicy;
use patchgate::rule::RulePolicy;
use patchgate::validate::{self, Context, Options, ValidateError};
use std::path::Path;

const STEP: &[u8] = br#"{"description": "Rename foo to bar in src/a.rs", "allowedFiles": ["src/**"]}"#;
const RESULT: &[u8] = br#"{"mode": "apply", "success": true,
  "patch": "diff --git a/src/a.rs b/src/a.rs\n--- a/src/a.rs\n+++ b/src/a.rs\n@@ -1 +1 @@\n-let foo = 1;\n+let bar = 1;\n",
  "filesWritten": ["src/a.rs"], "filesTouched": ["src/a.rs"], "summary": "Renamed foo to bar"}"#;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(config) = Config::from_toml(text, Path::new(".patchgate.toml")) else { return };
    let limits = config.limits();
    assert!(limits.check_patterns(&config.excluded, "excluded").is_ok(), "checked on load");
    let _ = config.excluded_globs();
    let _ = config.section::<RulePolicy>("rules");
    let _ = config.section::<ReviewPolicy>("review");
    let _ = config.section::<HookPolicy>("hook");
    let _ = config.section::<GuardPolicy>("guard");
    let _ = config.section::<patchgate::scratch::ScratchPolicy>("scratch");
    let _ = Policy::from_config(&config, None);
    if let Ok(contract) = config.section::<ContractConfig>("contract")
        && let Ok(policy) = ArgPolicy::from_config(&contract)
    {
        for &ty in ArgType::ALL {
            let _ = policy.check(ty, "PROJ-123", &ArgOptions::default());
        }
    }
    let step = validate::read_step(STEP).expect("the fixed step is valid");
    let ctx = Context { step: &step, result: RESULT, config: &config, repo: None };
    match validate::validate(&ctx, &Options::default()) {
        Ok(outcome) => {
            let report = &outcome.report;
            assert_eq!(report.verdict.valid, report.violations.is_empty());
            let excluded = config.excluded_globs().is_ok_and(|s| s.is_match("src/a.rs"));
            assert!(!(excluded && report.verdict.valid), "an excluded path was accepted");
        }
        // The fixed step within the policy's own `[limits]` is the only step error a policy
        // can cause (a `glob_bytes` of 4 refuses `src/**`: found by this target).
        Err(ValidateError::InvalidStep { message }) => {
            assert!(message.contains("[limits]"), "the fixed step refused: {message}");
        }
        Err(e) => assert!(matches!(e, ValidateError::Config(_)), "not a policy error: {e}"),
    }
});
