//! Part of rule 4, `reversal`: a `fix_regression` that makes the failing test go away instead of
//! making it pass. A test deleted (`test_deleted`), marked skipped (`test_skipped`), or stripped
//! of its assertions (`assertion_removed`) is refused unless the step asks for exactly that.

use super::{Input, RuleId, Violation, testfile};
use crate::finding::CheckCode;
use crate::patch::{FilePatch, LineKind, Operation, Patch};
use regex::Regex;
use std::collections::HashMap;
use std::sync::LazyLock;

/// Markers that keep a test from running.
static SKIP: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)
        \#\[ignore\b | @pytest\.mark\.(?:skip|skipif|xfail)\b | @unittest\.(?:skip\w*|expectedFailure)\b
      | \bpytest\.(?:skip|xfail)\( | \b(?:it|test|describe|context|suite)\.(?:skip|todo)\(
      | (?:^|[^\w.])x(?:it|describe|test)\( | \bt\.Skip(?:f|Now)?\( | @Disabled\b | @Ignore\b
      | \bthis\.skip\(\)",
    )
    .expect("the skip pattern is a valid regex")
});

/// The line that starts a test.
static TEST_DEF: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?x)^(?:
            \#\[(?:\w+::)?test\b | (?:async\s+)?def\s+test\w* | func\s+Test\w*\s*\(
          | (?:it|test)\s*\(\s*["'`] | @Test\b
        )"#,
    )
    .expect("the test pattern is a valid regex")
});

/// A line that checks something in a test.
static ASSERTION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?x)(?:^|[^\w.])(?:
            assert(?:_\w+)?!?\s*[(\s] | assert\w*\( | self\.assert\w+\( | expect\(
          | t\.(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)\( | require\.\w+\( | assert\.\w+\(
        )",
    )
    .expect("the assertion pattern is a valid regex")
});

/// Steps that ask to remove, skip or rewrite tests.
static ASKS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?ix)\b(?:skip|ignor|disabl|remov|delet|drop|quarantin|xfail|rewrit)\w*\b
            [^.\n]{0,40}\b(?:tests?|specs?|assert\w*|expectations?)\b
          | \bflaky\b",
    )
    .expect("the test-change pattern is a valid regex")
});

/// The test-weakening violations of a `fix_regression` patch.
pub(super) fn check(input: &Input<'_>, fix: &Patch<'_>) -> Vec<Violation> {
    if ASKS.is_match(&input.step.description) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for file in &fix.files {
        let name = input.file_name(file);
        if file.operation == Operation::Delete && testfile::is_test_path(&name) {
            let why = format!("fix deletes the test file {name}; make its tests pass instead");
            out.push(violation(CheckCode::TestDeleted, why, (file, &name), None));
            continue;
        }
        out.extend(deleted_tests(file, &name));
        out.extend(skipped_tests(file, &name));
        if testfile::is_test_path(&name) {
            out.extend(removed_assertions(file, &name));
        }
    }
    out
}

/// `file` with its display name.
fn violation(
    code: CheckCode,
    message: String,
    (file, name): (&FilePatch<'_>, &str),
    line: Option<usize>,
) -> Violation {
    Violation::new(RuleId::Reversal, code, message)
        .in_file(name)
        .at(None, Some(line.unwrap_or(file.span.line)))
}

/// Trimmed lines of `kind` matching `pattern`, with the patch line of the first of each.
fn matching(
    file: &FilePatch<'_>,
    kind: LineKind,
    pattern: &Regex,
) -> HashMap<String, (usize, usize)> {
    let mut out: HashMap<String, (usize, usize)> = HashMap::new();
    for line in file.hunks.iter().flat_map(|h| &h.lines).filter(|l| l.kind == kind) {
        let text = String::from_utf8_lossy(line.text).trim().to_owned();
        if pattern.is_match(&text) {
            out.entry(text).or_insert((0, line.line)).0 += 1;
        }
    }
    out
}

/// Lines matching `pattern` on the `gone` side and not added back on the other.
fn net(file: &FilePatch<'_>, gone: LineKind, pattern: &Regex) -> Vec<(String, usize, usize)> {
    let back = if gone == LineKind::Remove { LineKind::Add } else { LineKind::Remove };
    let kept = matching(file, back, pattern);
    let mut out: Vec<(String, usize, usize)> = matching(file, gone, pattern)
        .into_iter()
        .filter_map(|(text, (n, line))| {
            let left = n.saturating_sub(kept.get(&text).map_or(0, |k| k.0));
            (left > 0).then_some((text, left, line))
        })
        .collect();
    out.sort_by_key(|(_, _, line)| *line);
    out
}

fn deleted_tests(file: &FilePatch<'_>, name: &str) -> Option<Violation> {
    // `it('x', ...)` turned into `it.skip('x', ...)` is skipped, not deleted.
    let added: Vec<String> = file
        .hunks
        .iter()
        .flat_map(|h| &h.lines)
        .filter(|l| l.kind == LineKind::Add)
        .map(|l| unskipped(String::from_utf8_lossy(l.text).trim()))
        .collect();
    let gone = net(file, LineKind::Remove, &TEST_DEF);
    let (first, _, line) = gone.iter().find(|(text, _, _)| !added.contains(text))?;
    let why = format!(
        "fix deletes the test '{first}' from {name}; make the test pass instead of removing it"
    );
    Some(violation(CheckCode::TestDeleted, why, (file, name), Some(*line)))
}

/// A JavaScript test line without its skip marker: `it.skip(` and `xit(` read `it(`.
fn unskipped(text: &str) -> String {
    let text = text.replacen(".skip(", "(", 1).replacen(".todo(", "(", 1);
    match text.strip_prefix('x') {
        Some(rest) if ["it(", "test(", "describe("].iter().any(|p| rest.starts_with(p)) => {
            rest.to_owned()
        }
        _ => text,
    }
}

fn skipped_tests(file: &FilePatch<'_>, name: &str) -> Option<Violation> {
    let added = net(file, LineKind::Add, &SKIP);
    let (first, _, line) = added.first()?;
    let why = format!(
        "fix marks a test in {name} skipped ('{first}'); make the test pass instead of skipping it"
    );
    Some(violation(CheckCode::TestSkipped, why, (file, name), Some(*line)))
}

fn removed_assertions(file: &FilePatch<'_>, name: &str) -> Option<Violation> {
    let count = |kind| -> usize { matching(file, kind, &ASSERTION).values().map(|v| v.0).sum() };
    let (removed, added) = (count(LineKind::Remove), count(LineKind::Add));
    if removed <= added {
        return None;
    }
    let gone = net(file, LineKind::Remove, &ASSERTION);
    let line = gone.first().map(|(_, _, line)| *line);
    let why = format!(
        "fix removes {} assertion{} from {name} and adds {added}; keep the test's checks and fix \
         the code",
        removed,
        if removed == 1 { "" } else { "s" }
    );
    Some(violation(CheckCode::AssertionRemoved, why, (file, name), line))
}
