//! Unit tests per rule, on hand-built patch models (the parser is tested in `patch`).

use super::*;
use crate::patch::{
    Binary, BinaryKind, Defect, DefectCode, FilePatch, Hunk, Line, LineKind, Operation, Parsed,
    Patch, Span,
};
use crate::path::PathSet;
use crate::step::{ExecutorResult, Mode, Step};

/// A hunk starting at patch line `at` (its `@@` line); body lines follow it.
fn hunk(at: usize, body: &[&'static str]) -> Hunk<'static> {
    let lines = body
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let (kind, text) = match l.split_at(1) {
                ("+", t) => (LineKind::Add, t),
                ("-", t) => (LineKind::Remove, t),
                (_, t) => (LineKind::Context, t),
            };
            Line { kind, text: text.as_bytes(), has_newline: true, line: at + 1 + i }
        })
        .collect();
    Hunk {
        span: Span { offset: 0, line: at },
        old_start: 1,
        old_count: 1,
        new_start: 1,
        new_count: 1,
        section: b"",
        lines,
    }
}

fn file(path: &'static str, at: usize, hunks: Vec<Hunk<'static>>) -> FilePatch<'static> {
    FilePatch {
        span: Span { offset: 0, line: at },
        is_git: true,
        old_path: Some(path.as_bytes().to_vec()),
        new_path: Some(path.as_bytes().to_vec()),
        operation: Operation::Modify,
        old_mode: None,
        new_mode: None,
        similarity: None,
        dissimilarity: None,
        index: None,
        binary: None,
        hunks,
    }
}

fn parsed(files: Vec<FilePatch<'static>>) -> Parsed<'static> {
    Parsed { patch: Patch { files }, ..Parsed::default() }
}

/// A successful apply result writing `files`, with a non-empty patch text.
fn result(mode: &str, files: &[&str]) -> ExecutorResult {
    let list: Vec<String> = files.iter().map(|f| (*f).to_owned()).collect();
    ExecutorResult {
        mode: mode.into(),
        success: true,
        patch: Some("diff --git ...\n".into()),
        files_written: Some(list.clone()),
        files_touched: Some(list),
        summary: Some("done".into()),
    }
}

fn step(description: &str) -> Step {
    Step { description: description.into(), ..Step::default() }
}

fn run(step: &Step, result: &ExecutorResult, patch: Option<&Parsed<'_>>) -> Vec<(RuleId, String)> {
    run_with(step, result, patch, None, &RulePolicy::default())
}

fn run_with(
    step: &Step,
    result: &ExecutorResult,
    patch: Option<&Parsed<'_>>,
    apply: Option<&Patch<'_>>,
    policy: &RulePolicy,
) -> Vec<(RuleId, String)> {
    let scope = Scope::new(step, &PathSet::new(&["secrets/**"]).unwrap()).unwrap();
    let input = Input::new(step, result, patch, apply, &scope);
    evaluate(&input, policy).violations.into_iter().map(|v| (v.rule, v.code.to_string())).collect()
}

/// A base tree holding exactly `files`.
#[derive(Debug)]
struct Paths(Vec<String>);

impl Base for Paths {
    fn contains(&self, path: &str) -> bool {
        self.0.iter().any(|f| f == path || f.starts_with(&format!("{path}/")))
    }

    fn files(&self) -> &[String] {
        &self.0
    }

    fn content(&self, _: &str) -> Option<Vec<u8>> {
        None // the hunks alone are compared
    }
}

/// Evaluate with a base tree of `files`, at the default policy.
fn run_on(
    files: &[&str],
    description: &str,
    result: &ExecutorResult,
    patch: &Parsed<'_>,
) -> Vec<(RuleId, String)> {
    let base = Paths(files.iter().map(|f| (*f).to_owned()).collect());
    let step = step(description);
    let scope = Scope::new(&step, &PathSet::empty()).unwrap();
    let input = Input::new(&step, result, Some(patch), None, &scope).with_base(&base);
    evaluate(&input, &RulePolicy::default())
        .violations
        .into_iter()
        .map(|v| (v.rule, v.code.to_string()))
        .collect()
}

fn codes(found: &[(RuleId, String)]) -> Vec<&str> {
    found.iter().map(|(_, c)| c.as_str()).collect()
}

fn rename_patch() -> Parsed<'static> {
    parsed(vec![file("src/a.rs", 1, vec![hunk(4, &["-fn foo() {}", "+fn bar() {}"])])])
}

#[test]
fn a_clean_apply_result_passes_every_rule() {
    let found =
        run(&step("Rename foo to bar"), &result("apply", &["src/a.rs"]), Some(&rename_patch()));
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn mode_invalid_mismatch_and_speculative() {
    let p = rename_patch();
    let found = run(&step("x"), &result("patch", &["src/a.rs"]), Some(&p));
    assert_eq!(found[0], (RuleId::Mode, "invalid_mode".into()));
    let mut s = step("x");
    s.mode = Some(Mode::FixRegression);
    assert_eq!(codes(&run(&s, &result("apply", &["src/a.rs"]), Some(&p))), ["mode_mismatch"]);
    let policy = RulePolicy { fix_regression_max_changed_lines: 1, ..RulePolicy::default() };
    let found = run_with(&s, &result("fix_regression", &["src/a.rs"]), Some(&p), None, &policy);
    assert_eq!(codes(&found), ["speculative_fix"]);
    let policy = RulePolicy { fix_regression_max_changed_lines: 2, ..RulePolicy::default() };
    let found = run_with(&s, &result("fix_regression", &["src/a.rs"]), Some(&p), None, &policy);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn scope_excluded_outside_allowed_and_apply_files() {
    let p = parsed(vec![file("secrets/key.pem", 1, vec![hunk(4, &["+k"])])]);
    let found = run(&step("x"), &result("apply", &["secrets/key.pem"]), Some(&p));
    assert_eq!(found, [(RuleId::Scope, "excluded_path".into())]);
    let mut s = step("x");
    s.allowed_files = Some(vec!["src/**/*.rs".into()]);
    let p = parsed(vec![file("docs/a.md", 1, vec![hunk(4, &["+k"])])]);
    assert_eq!(
        codes(&run(&s, &result("apply", &["docs/a.md"]), Some(&p))),
        ["outside_allowed_files"]
    );
    s.apply_files = Some(vec!["src/b.rs".into()]);
    let found = run(&s, &result("fix_regression", &["src/a.rs"]), Some(&rename_patch()));
    assert_eq!(codes(&found), ["not_in_apply_files"]);
    let found = run(&s, &result("apply", &["src/a.rs"]), Some(&rename_patch()));
    assert!(found.is_empty(), "applyFiles only binds fix_regression: {found:?}");
}

#[test]
fn scope_checks_list_entries_for_path_safety() {
    let mut r = result("apply", &["src/a.rs"]);
    r.files_touched = Some(vec!["src/a.rs".into(), "../etc/passwd".into()]);
    let found = run(&step("x"), &r, Some(&rename_patch()));
    assert_eq!(found, [(RuleId::Scope, "path_traversal".into())]);
    r.files_written = Some(vec!["src/a.rs".into(), ".git/hooks/pre-commit".into()]);
    let found = run(&step("x"), &r, Some(&rename_patch()));
    assert!(codes(&found).contains(&"git_dir"), "{found:?}");
}

#[test]
fn declared_on_success() {
    let p = rename_patch();
    let mut r = result("apply", &["src/a.rs"]);
    r.patch = Some("  \n".into());
    assert!(codes(&run(&step("x"), &r, None)).contains(&"missing_patch"));
    let mut r = result("apply", &[]);
    r.files_touched = Some(vec!["src/a.rs".into()]);
    assert!(codes(&run(&step("x"), &r, Some(&p))).contains(&"empty_files_written"));
    let r = result("apply", &["src/a.rs", "src/b.rs"]);
    assert_eq!(codes(&run(&step("x"), &r, Some(&p))), ["file_not_in_patch"]);
    let mut r = result("apply", &["src/a.rs"]);
    r.files_touched = None;
    assert_eq!(codes(&run(&step("x"), &r, Some(&p))), ["files_touched_missing"]);
    r.files_touched = Some(vec!["src/lib.rs".into()]);
    assert_eq!(codes(&run(&step("x"), &r, Some(&p))), ["files_touched_not_superset"]);
    r.files_touched = Some(vec!["./src/a.rs".into(), "src/lib.rs".into()]);
    assert!(run(&step("x"), &r, Some(&p)).is_empty(), "paths are compared normalised");
}

#[test]
fn declared_on_failure() {
    let mut r = ExecutorResult { mode: "apply".into(), success: false, ..Default::default() };
    assert_eq!(codes(&run(&step("x"), &r, None)), ["failure_without_summary"]);
    r.summary = Some("src/a.rs has no foo".into());
    assert!(run(&step("x"), &r, None).is_empty());
    r.patch = Some("diff".into());
    r.files_written = Some(vec!["src/a.rs".into()]);
    let found = run(&step("x"), &r, None);
    assert_eq!(codes(&found), ["failure_with_patch", "failure_with_files_written"]);
}

#[test]
fn undeclared_counts_both_sides_of_a_rename() {
    let mut f = file("src/new.rs", 1, vec![]);
    f.old_path = Some(b"src/old.rs".to_vec());
    f.operation = Operation::Rename;
    let p = parsed(vec![f]);
    let found = run(&step("Move old.rs to new.rs"), &result("apply", &["src/new.rs"]), Some(&p));
    assert_eq!(found, [(RuleId::Undeclared, "undeclared_file".into())]);
    let found = run(&step("Move"), &result("apply", &["src/new.rs", "src/old.rs"]), Some(&p));
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn malformed_reuses_parser_and_path_codes() {
    let mut p = rename_patch();
    p.defects.push(Defect {
        code: DefectCode::HunkTooShort,
        message: "hunk ends early".into(),
        span: Span { offset: 0, line: 6 },
    });
    let found = run(&step("x"), &result("apply", &["src/a.rs"]), Some(&p));
    assert_eq!(found, [(RuleId::Malformed, "hunk_too_short".into())]);
    let p = parsed(vec![file("../evil", 1, vec![hunk(4, &["+x"])])]);
    let found = run(&step("x"), &result("apply", &["src/a.rs"]), Some(&p));
    assert!(found.contains(&(RuleId::Malformed, "path_traversal".into())), "{found:?}");
}

#[test]
fn malformed_binary_and_modes_by_policy() {
    let mut f = file("img.png", 1, vec![]);
    f.binary = Some(Binary { kind: BinaryKind::Marker, payload: b"" });
    let p = parsed(vec![f]);
    let r = result("apply", &["img.png"]);
    assert_eq!(codes(&run(&step("x"), &r, Some(&p))), ["binary_patch"]);
    let allow = RulePolicy { allow_binary: true, ..RulePolicy::default() };
    assert!(run_with(&step("x"), &r, Some(&p), None, &allow).is_empty());
    for (mode, code) in
        [(0o104_755, "unsupported_mode"), (0o160_000, "gitlink"), (0o120_000, "symlink")]
    {
        let mut f = file("x", 1, vec![hunk(4, &["+y"])]);
        f.new_mode = Some(mode);
        f.operation = Operation::Create;
        let found = run(&step("x"), &result("apply", &["x"]), Some(&parsed(vec![f])));
        assert_eq!(codes(&found), [code]);
    }
}

#[test]
fn zero_impact_whole_patch_and_context_only_hunk() {
    let p = parsed(vec![file("src/a.rs", 1, vec![hunk(4, &[" a", " b"])])]);
    let found = run(&step("x"), &result("apply", &["src/a.rs"]), Some(&p));
    assert_eq!(found, [(RuleId::ZeroImpact, "no_changes".into())]);
    let p = parsed(vec![file("src/a.rs", 1, vec![hunk(4, &["-a", "+b"]), hunk(7, &[" c"])])]);
    let found = run(&step("x"), &result("apply", &["src/a.rs"]), Some(&p));
    assert_eq!(codes(&found), ["context_only_hunk"]);
    let mut f = file("src/a.rs", 1, vec![]);
    f.old_mode = Some(0o100_644);
    f.new_mode = Some(0o100_755);
    let found =
        run(&step("Make a.rs executable"), &result("apply", &["src/a.rs"]), Some(&parsed(vec![f])));
    assert!(found.is_empty(), "a mode change is a change: {found:?}");
}

#[test]
fn not_implemented_whitespace_and_comment_only() {
    let ws = parsed(vec![file("src/a.rs", 1, vec![hunk(4, &["-fn  foo() {}", "+fn foo() {}"])])]);
    let r = result("apply", &["src/a.rs"]);
    // Whitespace taken out for a step of unstated kind is a clean-up (a note); for a fix, or
    // whitespace added, a rejection.
    assert!(run(&step("Speed up foo"), &r, Some(&ws)).is_empty());
    assert_eq!(codes(&run(&step("Fix the slow foo"), &r, Some(&ws))), ["whitespace_only"]);
    let added =
        parsed(vec![file("src/a.rs", 1, vec![hunk(4, &["-fn foo() {}", "+fn  foo() {}"])])]);
    assert_eq!(codes(&run(&step("Speed up foo"), &r, Some(&added))), ["whitespace_only"]);
    assert!(run(&step("Fix the indentation of foo"), &r, Some(&ws)).is_empty());
    let comment = parsed(vec![file(
        "src/a.rs",
        1,
        vec![hunk(
            4,
            &["-let x = 1; // old", "+let x = 1; // renamed foo", "+/* more", "+ words */"],
        )],
    )]);
    // A comment revised for a step of unstated kind is a note; for a fix, a rejection.
    assert!(run(&step("Speed up foo"), &r, Some(&comment)).is_empty());
    assert_eq!(codes(&run(&step("Fix the slow foo"), &r, Some(&comment))), ["comment_only"]);
    assert!(run(&step("Update the comment on x"), &r, Some(&comment)).is_empty());
    // "Update FILE" states no kind: a comment edit of exactly that file may be all it asks.
    assert!(run(&step("Update src/a.rs (#12)"), &r, Some(&comment)).is_empty());
    assert!(run(&step("Update a.rs"), &r, Some(&comment)).is_empty());
    assert!(run(&step("Update src/b.rs"), &r, Some(&comment)).is_empty());
    assert_eq!(codes(&run(&step("Fix src/b.rs"), &r, Some(&comment))), ["comment_only"]);
    // A new comment set down beside code answers no step of unstated kind either.
    let beside = parsed(vec![file(
        "src/a.rs",
        1,
        vec![hunk(4, &[" let x = 1;", "+// x is cached now", " let y = x;"])],
    )]);
    assert_eq!(codes(&run(&step("Speed up foo"), &r, Some(&beside))), ["comment_only"]);
    assert_eq!(
        codes(&run(&step("Update src/a.rs to cache x"), &r, Some(&beside))),
        ["comment_only"]
    );
    let py = parsed(vec![file(
        "m.py",
        1,
        vec![hunk(
            4,
            &[" def f():", "+    \"\"\"Return one.", "+    \"\"\"", "     return 1  # one"],
        )],
    )]);
    let found = run(&step("Make f return two"), &result("apply", &["m.py"]), Some(&py));
    assert_eq!(codes(&found), ["comment_only"]);
    let url =
        parsed(vec![file("a.js", 1, vec![hunk(4, &["-f(\"http://a\")", "+f(\"http://b\")"])])]);
    assert!(run(&step("Point f at b"), &result("apply", &["a.js"]), Some(&url)).is_empty());
}

#[test]
fn not_implemented_placeholder_unless_asked() {
    let p = parsed(vec![file(
        "src/a.rs",
        1,
        vec![hunk(4, &["+fn parse() -> u32 {", "+    todo!()", "+}"])],
    )]);
    let r = result("apply", &["src/a.rs"]);
    assert_eq!(codes(&run(&step("Implement parse"), &r, Some(&p))), ["placeholder_added"]);
    assert!(run(&step("Add a stub for parse"), &r, Some(&p)).is_empty());
    let found = run(&step("Implement parse"), &result("fix_regression", &["src/a.rs"]), Some(&p));
    assert!(found.is_empty(), "rule 8 is apply mode only: {found:?}");
}

fn fix_step() -> Step {
    Step { mode: Some(Mode::FixRegression), ..step("Add retry to fetch") }
}

#[test]
fn reversal_hunk_reversed_and_added_lines_removed() {
    let apply = parsed(vec![file(
        "src/a.rs",
        1,
        vec![hunk(4, &[" fn fetch() {", "+    retry(3);", "+    log();", "-    once();"])],
    )]);
    let fix = parsed(vec![file(
        "src/a.rs",
        1,
        vec![hunk(4, &[" fn fetch() {", "-    retry(3);", "-    log();", "+    once();"])],
    )]);
    let r = result("fix_regression", &["src/a.rs"]);
    let found = run_with(&fix_step(), &r, Some(&fix), Some(&apply.patch), &RulePolicy::default());
    assert_eq!(codes(&found), ["hunk_reversed", "added_lines_removed"]);
    let refine =
        parsed(vec![file("src/a.rs", 1, vec![hunk(4, &["-    retry(3);", "+    retry(5);"])])]);
    let found =
        run_with(&fix_step(), &r, Some(&refine), Some(&apply.patch), &RulePolicy::default());
    assert!(found.is_empty(), "a refinement is not a reversal: {found:?}");
}

#[test]
fn reversal_noop_body_and_unrelated_modules() {
    let fix = parsed(vec![file(
        "m.py",
        1,
        vec![hunk(4, &[" def fetch():", "-    return get(url)", "+    pass"])],
    )]);
    let found = run(&fix_step(), &result("fix_regression", &["m.py"]), Some(&fix));
    assert_eq!(found, [(RuleId::Reversal, "body_replaced_by_noop".into())]);
    let apply = parsed(vec![file("src/a.rs", 1, vec![hunk(4, &["+x"])])]);
    let other = parsed(vec![file("src/other.rs", 1, vec![hunk(4, &["-y", "+z"])])]);
    let r = result("fix_regression", &["src/other.rs"]);
    let found = run_with(&fix_step(), &r, Some(&other), Some(&apply.patch), &RulePolicy::default());
    assert_eq!(codes(&found), ["unrelated_modules"]);
}

#[test]
fn reversal_a_body_stubbed_on_the_syntax_tree() {
    // The hunks alone do not show these: Go's and Kotlin's placeholders, a body emptied onto
    // its signature's line.
    let stubs: [(&'static str, &[&'static str]); 3] = [
        (
            "a.go",
            &[" func fetch() int {", "-\treturn get(url)", "+\tpanic(\"not implemented\")", " }"],
        ),
        (
            "a.kt",
            &["-fun fetch(): Int {", "-    return get(url)", "-}", "+fun fetch(): Int = TODO()"],
        ),
        (
            "a.js",
            &["-function fetch(url) {", "-  return get(url);", "-}", "+function fetch(url) {}"],
        ),
    ];
    for (path, lines) in stubs {
        let fix = parsed(vec![file(path, 1, vec![hunk(4, lines)])]);
        let found = run(&fix_step(), &result("fix_regression", &[path]), Some(&fix));
        assert_eq!(codes(&found), ["body_replaced_by_noop"], "{path}");
        // The twin: the body changed into other real code.
        let real: Vec<&'static str> = lines
            .iter()
            .map(|l| match *l {
                "+\tpanic(\"not implemented\")" => "+\treturn get(url) + 1",
                "+fun fetch(): Int = TODO()" => "+fun fetch(): Int = get(url) + 1",
                "+function fetch(url) {}" => "+function fetch(url) { return get(url) + 1; }",
                other => other,
            })
            .collect();
        let real = Box::leak(real.into_boxed_slice());
        let fix = parsed(vec![file(path, 1, vec![hunk(4, real)])]);
        let found = run(&fix_step(), &result("fix_regression", &[path]), Some(&fix));
        assert!(found.is_empty(), "{path}: a real fix: {found:?}");
    }
}

#[test]
fn noop_and_placeholder_patterns() {
    for line in [
        "pass",
        "return;",
        "return None",
        "todo!()",
        "unimplemented!(\"later\")",
        "...",
        "throw new Error(\"not implemented\");",
        "raise NotImplementedError",
    ] {
        assert!(crate::summary::noop::is_noop(line), "{line}");
    }
    for line in ["return x;", "passed = true", "todo_list.push(1)"] {
        assert!(!crate::summary::noop::is_noop(line), "{line}");
    }
    assert!(crate::summary::noop::is_placeholder(b"    throw new Error('Not implemented yet');"));
    assert!(!crate::summary::noop::is_placeholder(b"let todo = 1;"));
}

#[test]
fn schema_names_fields_and_types() {
    let err = |raw: &str| -> Vec<String> {
        schema::check(raw.as_bytes())
            .unwrap_err()
            .into_iter()
            .map(|v| format!("{}:{}", v.code, v.message))
            .collect()
    };
    assert_eq!(err("I did it")[0].split(':').next(), Some("not_json"));
    assert_eq!(
        err("[1]"),
        ["not_an_object:result is a JSON array, not an object with 'mode' and 'success'"]
    );
    assert_eq!(err(r#"{"mode": "apply"}"#), ["missing_field:result has no 'success'"]);
    assert_eq!(
        err(r#"{"mode": "apply", "success": "yes", "filesWritten": ["a", 3]}"#),
        [
            "wrong_type:'success' is a string \"yes\", expected true or false",
            "wrong_type:'filesWritten[1]' is a number 3, expected a string path"
        ]
    );
    let ok =
        schema::check(br#"{"mode": "x", "success": false, "patch": null, "extra": 1}"#).unwrap();
    assert_eq!(ok.mode, "x");
    assert_eq!(
        schema::unknown_fields(&crate::json::decode(br#"{"mode": "x", "extra": 1}"#)),
        ["extra"]
    );
}

#[test]
fn policy_reads_from_config_and_refuses_unknown_keys() {
    let cfg = crate::config::Config::from_toml(
        "[rules]\nfix_regression_max_files = 2\nreversal_share = 0.8\n",
        std::path::Path::new("x.toml"),
    )
    .unwrap();
    let policy: RulePolicy = cfg.section("rules").unwrap();
    assert_eq!(policy.fix_regression_max_files, 2);
    assert!((policy.reversal_share - 0.8).abs() < f64::EPSILON);
    assert_eq!(policy.fix_regression_max_changed_lines, 200);
    let bad = crate::config::Config::from_toml(
        "[rules]\nmax_files = 2\n",
        std::path::Path::new("x.toml"),
    )
    .unwrap();
    assert!(bad.section::<RulePolicy>("rules").is_err());
}

#[test]
fn a_context_only_hunk_defect_is_zero_impact_not_malformed() {
    let mut p = parsed(vec![file("src/a.rs", 1, vec![hunk(4, &[" a", " b"])])]);
    p.defects.push(Defect {
        code: DefectCode::ContextOnlyHunk,
        message: "hunk has no added or removed line".into(),
        span: Span { offset: 0, line: 4 },
    });
    let found = run(&step("x"), &result("apply", &["src/a.rs"]), Some(&p));
    assert_eq!(found, [(RuleId::ZeroImpact, "no_changes".into())]);
}

#[test]
fn superficial_exemptions_need_the_step_to_ask_for_them() {
    let ws = parsed(vec![file("src/a.rs", 1, vec![hunk(4, &["-fn  foo() {}", "+fn foo() {}"])])]);
    let r = result("apply", &["src/a.rs"]);
    for asks in ["Run rustfmt on src/a.rs", "Reformat src/a.rs", "Convert tabs to spaces"] {
        assert!(run(&step(asks), &r, Some(&ws)).is_empty(), "{asks}");
    }
    for not in ["Add a format_date helper", "Add tabs to the settings page", "Handle newlines"] {
        assert_eq!(codes(&run(&step(not), &r, Some(&ws))), ["whitespace_only"], "{not}");
    }
    let cm = parsed(vec![file("a.sh", 1, vec![hunk(4, &["+# explain the loop"])])]);
    let r = result("apply", &["a.sh"]);
    assert!(run(&step("Document the loop in a.sh"), &r, Some(&cm)).is_empty());
    assert_eq!(codes(&run(&step("Parse the document body"), &r, Some(&cm))), ["comment_only"]);
}

#[test]
fn intent_reads_renames_and_named_files() {
    let r = |d: &str| -> Vec<(String, String)> {
        intent::renames(d).into_iter().map(|r| (r.from, r.to)).collect()
    };
    assert_eq!(r("Rename foo to bar in src/a.rs"), [("foo".into(), "bar".into())]);
    assert_eq!(
        r("Rename the function `load_cfg` to `load_config`."),
        [("load_cfg".into(), "load_config".into())]
    );
    assert_eq!(r("rename Config::new as Config::build"), [("new".into(), "build".into())]);
    assert!(r("Rename util.rs to helpers.rs").is_empty(), "file renames are not identifiers");
    assert!(r("Add retries to fetch").is_empty());
    let files = intent::path_candidates;
    assert_eq!(
        files("Fix ./src/a.rs and README.md, see https://x.org/a.rs"),
        ["src/a.rs", "README.md"]
    );
    assert_eq!(files("Add -j/--jobs; support HTTP/2 and I/O"), ["HTTP/2", "I/O"]);
    assert_eq!(files("Move `dir with space/file name.txt`"), ["dir with space/file name.txt"]);
    for prose in ["HTTP/2", "I/O", "GET/HEAD", "actions/checkout", "v2/", "1.0"] {
        assert!(!intent::is_file_shaped(prose), "{prose}");
    }
    for file in ["src/a.rs", "README.md", "Node.js", "config.load"] {
        assert!(intent::is_file_shaped(file), "{file}");
    }
    assert!(intent::has_word("let bar = 1;", "bar"));
    assert!(!intent::has_word("let barrel = foo_bar;", "bar"));
}

#[test]
fn not_implemented_rename_and_named_files() {
    let r = result("apply", &["src/a.rs"]);
    let p = rename_patch();
    assert!(run(&step("Rename foo to bar in src/a.rs"), &r, Some(&p)).is_empty());
    let found = run(&step("Rename foo to baz in src/a.rs"), &r, Some(&p));
    assert_eq!(codes(&found), ["rename_missing"]);
    let found = run_on(&["src/a.rs", "src/b.rs"], "Rename foo to bar in src/b.rs", &r, &p);
    assert_eq!(codes(&found), ["named_file_untouched"]);
    let found = run(&step("Rename foo to bar in src/b.rs"), &r, Some(&p));
    assert!(found.is_empty(), "without a repository src/b.rs may be prose: a note only");
    let strict = RulePolicy { not_implemented: Strictness::Strict, ..RulePolicy::default() };
    let found = run_with(&step("Rename foo to bar in src/b.rs"), &r, Some(&p), None, &strict);
    assert_eq!(codes(&found), ["named_file_untouched"], "strict rejects on the shape alone");
    assert!(run(&step("Rename foo to bar under src"), &r, Some(&p)).is_empty());
    assert!(
        run(&step("Rename foo to bar in src/"), &r, Some(&p)).is_empty(),
        "a directory covers its files"
    );
}

#[test]
fn intent_rename_ends_at_punctuation() {
    let r = |d: &str| -> Vec<(String, String)> {
        intent::renames(d).into_iter().map(|r| (r.from, r.to)).collect()
    };
    assert_eq!(r("Rename foo to bar: it reads better"), [("foo".into(), "bar".into())]);
    assert_eq!(r("Please rename 'a_b' to 'c_d', then test."), [("a_b".into(), "c_d".into())]);
}

#[test]
fn lists_in_reasons_are_short() {
    assert_eq!(input::short_list(&["a", "b"]), "a, b");
    assert_eq!(input::short_list(&["a", "b", "c", "d", "e"]), "a, b, c, and 2 more");
}

#[test]
fn named_files_count_only_when_the_base_tree_has_them() {
    let base = [
        "src/a.rs",
        "src/b.rs",
        "compat/fsmonitor/fsm-ipc-darwin.c",
        "builtin/history.c",
        "crates/ignore/src/walk.rs",
        "lib/index.ts",
        "test/index.ts",
        "dir with space/file name.txt",
    ];
    let r = result("apply", &["src/a.rs"]);
    let p = rename_patch();
    // Prose, ambiguous names, and names of the file the patch changes (by any spelling).
    let accepted = [
        "Rename foo to bar for Node.js; res.json and I/O stay",
        "Rename foo to bar over HTTP/2 with -j/--jobs, GET/HEAD and actions/checkout",
        "Rename foo to bar like index.ts does (two files have that name)",
        "Rename foo to bar in src/a.rs, unlike src/b.rs",
        "Rename foo to bar in a.rs",
        "Rename foo to bar in src/a",
    ];
    for d in accepted {
        assert!(run_on(&base, d, &r, &p).is_empty(), "{d}");
    }
    let named = [
        ("Rename foo to bar in fsm-ipc-darwin.c", "basename"),
        ("Rename foo to bar in builtin/history", "dir/stem"),
        ("Rename foo to bar in ignore/walk", "dir/stem suffix"),
        ("Rename foo to bar in `dir with space/file name.txt`", "quoted path with spaces"),
        ("Rename foo to bar in compat/fsmonitor/", "a directory"),
    ];
    for (d, why) in named {
        assert_eq!(codes(&run_on(&base, d, &r, &p)), ["named_file_untouched"], "{why}: {d}");
    }
    // A file named as what the change serves or adds to a place is not where it is made.
    let purposes = [
        "Rename foo to bar: fixed the rendering for fsm-ipc-darwin.c",
        "Add history.c to the build",
        "Add tests and history.c into the sdist",
    ];
    for d in purposes {
        assert!(run_on(&base, d, &r, &p).is_empty(), "{d}");
    }
    // The twins: the same files named as where the change is made.
    let places = ["Fix the rendering in fsm-ipc-darwin.c", "Add a history to history.c"];
    for d in places {
        assert_eq!(codes(&run_on(&base, d, &r, &p)), ["named_file_untouched"], "{d}");
    }
}

#[test]
fn not_implemented_levels_decide_what_rejects_and_what_is_noted() {
    let read = |text: &str| {
        crate::config::Config::from_toml(text, std::path::Path::new("x.toml"))
            .unwrap()
            .section::<RulePolicy>("rules")
    };
    assert_eq!(read("").unwrap().not_implemented, Strictness::Balanced);
    assert_eq!(
        read("[rules]\nnot_implemented = \"off\"\n").unwrap().not_implemented,
        Strictness::Off
    );
    assert!(read("[rules]\nnot_implemented = \"lenient\"\n").is_err(), "unknown level refused");
    let comment = parsed(vec![file("a.sh", 1, vec![hunk(4, &["+# explain the loop"])])]);
    let r = result("apply", &["a.sh"]);
    let s = step("Retry the download");
    let scope = Scope::new(&s, &PathSet::empty()).unwrap();
    let input = Input::new(&s, &r, Some(&comment), None, &scope);
    let at =
        |level| evaluate(&input, &RulePolicy { not_implemented: level, ..RulePolicy::default() });
    let balanced = at(Strictness::Balanced);
    assert_eq!(balanced.violations.len(), 1, "comment-only is strong: {balanced:?}");
    let off = at(Strictness::Off);
    assert!(off.violations.is_empty());
    assert_eq!(off.notes.len(), 1);
    assert_eq!(off.notes[0].code, "comment_only");
    assert!(off.notes[0].message.starts_with("not-implemented: "), "{}", off.notes[0].message);
}

/// A base tree with file contents.
#[derive(Debug)]
struct Contents(Vec<(String, String)>);

impl Base for Contents {
    fn contains(&self, path: &str) -> bool {
        self.0.iter().any(|(p, _)| p == path)
    }

    fn files(&self) -> &[String] {
        &[]
    }

    fn content(&self, path: &str) -> Option<Vec<u8>> {
        self.0.iter().find(|(p, _)| p == path).map(|(_, c)| c.clone().into_bytes())
    }
}

/// A base tree with a file list and file contents.
#[derive(Debug)]
struct Listed {
    files: Vec<String>,
    contents: Vec<(String, String)>,
}

impl Base for Listed {
    fn contains(&self, path: &str) -> bool {
        self.files.iter().any(|p| p == path)
    }

    fn files(&self) -> &[String] {
        &self.files
    }

    fn content(&self, path: &str) -> Option<Vec<u8>> {
        self.contents.iter().find(|(p, _)| p == path).map(|(_, c)| c.clone().into_bytes())
    }
}

#[test]
fn a_rename_that_leaves_the_old_name_in_a_touched_file_is_a_partial_rename() {
    let base = |text: &str| Contents(vec![("src/a.rs".into(), text.into())]);
    let evaluate_on = |base: &dyn Base, policy: &RulePolicy| {
        let step = step("Rename foo to bar in src/a.rs");
        let r = result("apply", &["src/a.rs"]);
        // The hunk where the base has `fn foo`: line 4.
        let text = "diff --git a/src/a.rs b/src/a.rs\n--- a/src/a.rs\n+++ b/src/a.rs\n\
                    @@ -4 +4 @@\n-fn foo() {}\n+fn bar() {}\n";
        let p = crate::patch::parse(text.as_bytes(), &crate::patch::ParseOptions::default());
        let scope = Scope::new(&step, &PathSet::empty()).unwrap();
        let input = Input::new(&step, &r, Some(&p), None, &scope).with_base(base);
        evaluate(&input, policy)
    };
    let whole = base("use x;\n\n\nfn foo() {}\n");
    let found = evaluate_on(&whole, &RulePolicy::default());
    assert!(found.violations.is_empty() && found.notes.is_empty(), "{found:?}");

    // Calls left behind on lines the patch did not touch: the rename is half done.
    let half =
        base("use x;\n\n\nfn foo() {}\nfn main() { foo(); foo(); }\nstatic food: i32 = 1;\n");
    let found = evaluate_on(&half, &RulePolicy::default());
    assert_eq!(found.violations.len(), 1, "{found:?}");
    assert_eq!(found.violations[0].code, "rename_partial");
    assert!(
        found.violations[0]
            .message
            .contains("possible partial rename: 'foo' still appears in src/a.rs (1 line)"),
        "{}",
        found.violations[0].message
    );
    // The twin: the old name left only in a comment is a weak finding, a note at balanced.
    let comment = base("use x;\n\n\nfn foo() {}\n// foo used to be here\n");
    let found = evaluate_on(&comment, &RulePolicy::default());
    assert!(found.violations.is_empty(), "weak: a note at balanced: {found:?}");
    assert_eq!(found.notes.len(), 1);
    assert_eq!(found.notes[0].code, "rename_partial");
    let strict = RulePolicy { not_implemented: Strictness::Strict, ..RulePolicy::default() };
    let found = evaluate_on(&comment, &strict);
    assert_eq!(found.violations[0].code, "rename_partial");
    // Callers in a file the patch does not touch, read on its tree: strong; a mention in a
    // comment there is none.
    for (b, is_left) in [("fn main() { a::foo(); }\n", true), ("// foo was here\n", false)] {
        let files = vec!["src/a.rs".to_owned(), "src/b.rs".to_owned()];
        let contents = vec![
            ("src/a.rs".to_owned(), "use x;\n\n\nfn foo() {}\n".to_owned()),
            ("src/b.rs".to_owned(), b.to_owned()),
        ];
        let found = evaluate_on(&Listed { files, contents }, &RulePolicy::default());
        let codes: Vec<String> = found.violations.iter().map(|v| v.code.to_string()).collect();
        assert_eq!(codes, if is_left { vec!["rename_partial"] } else { vec![] }, "{b}");
        if is_left {
            assert!(found.violations[0].message.contains("src/b.rs (not touched)"));
        }
    }
    assert!(crate::rule::checks_transformation("Rename foo to bar in src/a.rs"));
    assert!(!crate::rule::checks_transformation("Extract the retry loop into a helper"));
}

/// Every line of `text` as a hunk's line of `kind` (`-`, `+`).
fn prefixed(text: &str, kind: char) -> String {
    text.lines().flat_map(|l| [kind.to_string(), l.to_owned(), "\n".to_owned()]).collect()
}

#[test]
fn a_renamed_parameter_leaves_no_users_in_other_files() {
    let evaluate_on = |old: &str| {
        let new = old.replace("foo", "bar");
        let files = vec!["src/a.rs".to_owned(), "src/b.rs".to_owned()];
        let contents = vec![
            ("src/a.rs".to_owned(), old.to_owned()),
            ("src/b.rs".to_owned(), "fn main() { a::foo(); }\n".to_owned()),
        ];
        let base = Listed { files, contents };
        let step = step("Rename foo to bar in src/a.rs");
        let r = result("apply", &["src/a.rs"]);
        let (minus, plus) = (prefixed(old, '-'), prefixed(&new, '+'));
        let n = old.lines().count();
        let text = format!(
            "diff --git a/src/a.rs b/src/a.rs\n--- a/src/a.rs\n+++ b/src/a.rs\n@@ -1,{n} +1,{n} @@\n{minus}{plus}"
        );
        let p = crate::patch::parse(text.as_bytes(), &crate::patch::ParseOptions::default());
        let scope = Scope::new(&step, &PathSet::empty()).unwrap();
        let input = Input::new(&step, &r, Some(&p), None, &scope).with_base(&base);
        let found = evaluate(&input, &RulePolicy::default());
        found.violations.iter().map(|v| v.code.to_string()).collect::<Vec<_>>()
    };
    // A parameter: no other file sees it, whatever they call `foo`.
    assert!(evaluate_on("fn run(foo: u8) -> u8 {\n    foo + foo\n}\n").is_empty());
    // The twin: a function renamed, its caller in src/b.rs left behind.
    let function = "fn foo() -> u8 {\n    1\n}\nfn run() -> u8 {\n    foo() + foo()\n}\n";
    assert_eq!(evaluate_on(function), ["rename_partial"]);
}

#[test]
fn a_placeholder_that_refuses_one_case_of_a_real_function_is_a_note() {
    let evaluate_on = |body: &str| {
        let step = step("Add digest auth");
        let r = result("apply", &["src/auth.py"]);
        let added = prefixed(body, '+');
        let n = body.lines().count();
        let text = format!(
            "diff --git a/src/auth.py b/src/auth.py\nnew file mode 100644\n--- /dev/null\n+++ b/src/auth.py\n@@ -0,0 +1,{n} @@\n{added}"
        );
        let p = crate::patch::parse(text.as_bytes(), &crate::patch::ParseOptions::default());
        let scope = Scope::new(&step, &PathSet::empty()).unwrap();
        let base = Contents(Vec::new());
        let input = Input::new(&step, &r, Some(&p), None, &scope).with_base(&base);
        let found = evaluate(&input, &RulePolicy::default());
        let codes = |v: Vec<String>| v;
        (
            codes(found.violations.iter().map(|v| v.code.to_string()).collect()),
            codes(found.notes.iter().map(|n| n.code.to_string()).collect()),
        )
    };
    // One branch refuses a case the function does not support; the rest of it works.
    let refused = "def digest(qop, text):\n    if qop == \"auth-int\":\n        raise NotImplementedError(\"auth-int\")\n    return hash((qop, text))\n";
    let (codes, notes) = evaluate_on(refused);
    assert!(codes.is_empty(), "{codes:?}");
    assert_eq!(notes, ["placeholder_added"]);
    // The twin: the function's whole body is the placeholder.
    let stub = "def digest(qop, text):\n    raise NotImplementedError(\"digest\")\n";
    let (codes, _) = evaluate_on(stub);
    assert_eq!(codes, ["placeholder_added"]);
}

#[test]
fn a_change_to_the_code_that_reads_the_named_file_addresses_it() {
    let evaluate_on = |builder: &str| {
        let files = vec!["lib/rack/builder.rb".to_owned(), "test/rackup/config.ru".to_owned()];
        let contents = vec![
            ("lib/rack/builder.rb".to_owned(), builder.to_owned()),
            ("test/rackup/config.ru".to_owned(), "run App\n".to_owned()),
        ];
        let base = Listed { files, contents };
        let step = step("Add support for specifying options to builder and thus `config.ru`.");
        let r = result("apply", &["lib/rack/builder.rb"]);
        let text = "diff --git a/lib/rack/builder.rb b/lib/rack/builder.rb\n--- a/lib/rack/builder.rb\n\
                    +++ b/lib/rack/builder.rb\n@@ -2 +2 @@\n-  def initialize\n+  def initialize(options)\n";
        let p = crate::patch::parse(text.as_bytes(), &crate::patch::ParseOptions::default());
        let scope = Scope::new(&step, &PathSet::empty()).unwrap();
        let input = Input::new(&step, &r, Some(&p), None, &scope).with_base(&base);
        let found = evaluate(&input, &RulePolicy::default());
        found.violations.iter().map(|v| v.code.to_string()).collect::<Vec<_>>()
    };
    // The builder parses `config.ru` files (its base text names them): the step is about it.
    let parser = "# Parses config.ru files.\nclass Builder\n  def initialize\n  end\nend\n";
    assert!(evaluate_on(parser).is_empty());
    // The twin: a builder that never names the file the step names.
    let other = "# Builds apps.\nclass Builder\n  def initialize\n  end\nend\n";
    assert_eq!(evaluate_on(other), ["named_file_untouched"]);
}

#[test]
fn a_name_left_in_prose_is_no_partial_rename_but_one_left_in_code_is() {
    let evaluate_on = |path: &str, base_text: &str, old: &str, new: &str| {
        let base = Contents(vec![(path.to_owned(), base_text.to_owned())]);
        let step = step(&format!("Rename Docker to Moby in {path}"));
        let r = result("apply", &[path]);
        let text = format!(
            "diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n@@ -2 +2 @@\n-{old}\n+{new}\n"
        );
        let p = crate::patch::parse(text.as_bytes(), &crate::patch::ParseOptions::default());
        let scope = Scope::new(&step, &PathSet::empty()).unwrap();
        let input = Input::new(&step, &r, Some(&p), None, &scope).with_base(&base);
        let found = evaluate(&input, &RulePolicy::default());
        let codes = |v: Vec<String>| v;
        (
            codes(found.violations.iter().map(|v| v.code.to_string()).collect()),
            codes(found.notes.iter().map(|n| n.code.to_string()).collect()),
        )
    };
    let readme = "# Users\n* [Docker](https://github.com/docker/docker)\n* [Docker (distribution)](https://github.com/docker/distribution)\n";
    let (codes, notes) = evaluate_on(
        "README.md",
        readme,
        "* [Docker](https://github.com/docker/docker)",
        "* [Moby (former Docker)](https://github.com/moby/moby)",
    );
    assert!(codes.is_empty(), "{codes:?}");
    assert_eq!(notes, ["rename_partial"]);
    // The twin: the old name left as code on a line the patch did not touch.
    let code = "use x;\nfn Docker() {}\nfn main() { Docker(); }\n";
    let (codes, _) = evaluate_on("src/a.rs", code, "fn Docker() {}", "fn Moby() {}");
    assert_eq!(codes, ["rename_partial"]);
}

#[test]
fn an_abstract_method_whose_subclasses_are_in_the_base_tree_is_no_placeholder() {
    let judge = |base: &dyn Base, path: &str, diff: &str| {
        let step = step("Declare area on every shape");
        let mut r = result("apply", &[path]);
        r.patch = Some(diff.to_owned());
        let p = crate::patch::parse(diff.as_bytes(), &crate::patch::ParseOptions::default());
        let scope = Scope::new(&step, &PathSet::empty()).unwrap();
        let input = Input::new(&step, &r, Some(&p), None, &scope).with_base(base);
        let found = evaluate(&input, &RulePolicy::default());
        found.violations.iter().map(|v| v.code.to_string()).collect::<Vec<_>>()
    };
    let py = "diff --git a/shapes/base.py b/shapes/base.py\n--- a/shapes/base.py\n+++ b/shapes/base.py\n@@ -1,3 +1,6 @@\n class Shape:\n     def name(self):\n         return type(self).__name__\n+\n+    def area(self):\n+        raise NotImplementedError\n";
    let shape = "class Shape:\n    def name(self):\n        return type(self).__name__\n";
    let tree = |square: &str| Listed {
        files: vec!["shapes/base.py".into(), "shapes/square.py".into()],
        contents: vec![
            ("shapes/base.py".into(), shape.into()),
            ("shapes/square.py".into(), square.into()),
        ],
    };
    let square = "from shapes.base import Shape\n\nclass Square(Shape):\n    def area(self):\n        return self.side ** 2\n";
    assert_eq!(judge(&tree(square), "shapes/base.py", py), Vec::<String>::new());
    let rb = "diff --git a/lib/shape.rb b/lib/shape.rb\n--- a/lib/shape.rb\n+++ b/lib/shape.rb\n@@ -1,2 +1,5 @@\n class Shape\n+  def area\n+    raise NotImplementedError\n+  end\n end\n";
    let ruby = Listed {
        files: vec!["lib/shape.rb".into(), "lib/square.rb".into()],
        contents: vec![
            ("lib/shape.rb".into(), "class Shape\nend\n".into()),
            (
                "lib/square.rb".into(),
                "class Square < Shape\n  def area\n    4\n  end\nend\n".into(),
            ),
        ],
    };
    assert_eq!(judge(&ruby, "lib/shape.rb", rb), Vec::<String>::new());
    // The twins: no subclass defines it (another method, another class's), and a function
    // that belongs to no class.
    let other = square.replace("def area", "def perimeter");
    assert_eq!(judge(&tree(&other), "shapes/base.py", py), ["placeholder_added"]);
    let unrelated = square.replace("(Shape)", "(Polygon)");
    assert_eq!(judge(&tree(&unrelated), "shapes/base.py", py), ["placeholder_added"]);
    let free = "diff --git a/shapes/base.py b/shapes/base.py\n--- a/shapes/base.py\n+++ b/shapes/base.py\n@@ -1,3 +1,6 @@\n class Shape:\n     def name(self):\n         return type(self).__name__\n+\n+def area(shape):\n+    raise NotImplementedError\n";
    assert_eq!(judge(&tree(square), "shapes/base.py", free), ["placeholder_added"]);
}
